"""``dehlanote validate`` read without the Typer app (``dehlanote._launch``) against the Typer app.

The console script runs a plain ``validate FILE...`` itself; every command line here is run
both ways, in fresh processes, and what each writes on standard output and standard error
and its exit status must be the same, byte for byte: valid and invalid files, a missing
file, a binary file, a folder, standard input, a glob, the output formats and options, a
full disk, and the command lines the direct path leaves to Typer (unknown options, bad
values, no file, ``--help``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dehlanote._launch import validate_options

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "worked-example.dpn"

#: runs each case of argv[2] (JSON: a folder, the cases) in a child forked from one process
#: (a fresh process a case cost 0.2-0.5 s of CPU without cached bytecode): argv[1] "typer",
#: the console script with its direct path turned off, or "direct", the console script as
#: installed (which must not load typer); each child's standard output, standard error and
#: whether typer was loaded go to files, its exit status to the list printed
DRIVER = """
import json, os, sys
mode, spec = sys.argv[1], json.loads(sys.argv[2])
import dehlanote._launch as launch
# what the children share, loaded once (not typer for the direct path, which must not load it)
import rich.console, rich.markup, rich.progress  # noqa: E401,F401
import dehlanote.commands.validating, dehlanote.output.render  # noqa: E401,F401
if mode == "typer":
    launch.direct_validate = lambda args: None
    import typer.main, typer.rich_utils, dehlanote.commands.plainhelp  # noqa: E401,F401
import dehlanote._entry as entry
# a record with mistakes is read again by the reference parser, whose lexer Lark builds on first
# use (0.3-0.5 s a process): built here once, before the children are forked
import dehlanote.api
list(dehlanote.api.read_games(spec["warm"]))
codes = []
for i, (argv, stdin) in enumerate(spec["cases"]):
    base = os.path.join(spec["dir"], f"{mode}-{i}")
    with open(base + ".in", "w", encoding="utf-8") as f:
        f.write(stdin)
    pid = os.fork()
    if pid == 0:
        for fd, name, flags in ((0, ".in", os.O_RDONLY), (1, ".out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            os.dup2(os.open(base + name, flags, 0o600), fd)
        sys.argv = ["dehlanote", *argv]
        code = 0
        try:
            entry.main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        with open(base + ".typer", "w") as f:
            f.write(str("typer" in sys.modules))
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    codes.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
print(json.dumps(codes))
"""
#: the console script, in a process of its own (for the full disk: what happens at exit counts)
TYPER = ("import sys\nimport dehlanote._launch as launch\nlaunch.direct_validate = lambda args: None\n"
         "from dehlanote._entry import main\nsys.argv = ['dehlanote', *sys.argv[1:]]\nmain()\n")
DIRECT = "import sys\nfrom dehlanote._entry import main\nsys.argv = ['dehlanote', *sys.argv[1:]]\nmain()\n"


def _env() -> dict[str, str]:
    env = {**os.environ, "COLUMNS": "120", "PYTHONPATH": str(ROOT)}
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "_DEHLANOTE_COMPLETE"):
        env.pop(name, None)
    return env


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("direct")
    text = SAMPLE.read_text(encoding="utf-8")
    (folder / "good.dpn").write_text(text, encoding="utf-8")
    (folder / "bad.dpn").write_text(text.replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S 7S 8H")
                                    .replace("[Event \"Worked example\"]", "[Event \"Worked\"]\n[Bogus]"),
                                    encoding="utf-8")
    (folder / "binary.dpn").write_bytes(b"\x00\x01\x02" * 100)
    (folder / "sub").mkdir()
    return {"good": str(folder / "good.dpn"), "bad": str(folder / "bad.dpn"), "missing": str(folder / "no.dpn"),
            "binary": str(folder / "binary.dpn"), "dir": str(folder / "sub"), "glob": str(folder / "*.dpn")}


#: (arguments, with {name} for a file of the fixture; standard input; taken by the direct path)
CASES = [
    (["{good}"], "", True),
    (["{bad}"], "", True),
    (["{good}", "{bad}", "{missing}"], "", True),
    (["{binary}", "{dir}"], "", True),
    (["{glob}"], "", True),
    (["--brief", "{bad}"], "", True),
    (["-b", "{bad}", "--max-errors", "1"], "", True),
    (["--max-errors=0", "{bad}", "{good}"], "", True),
    (["--format", "json", "{good}", "{bad}", "{missing}"], "", True),
    (["--format=json", "{bad}"], "", True),
    (["-f", "text", "{bad}"], "", True),
    (["--jobs", "1", "{good}"], "", True),
    (["-j", "2", "--force-jobs", "{bad}"], "", True),
    (["--jobs=0", "--no-progress", "{good}"], "", True),
    (["--progress", "{good}", "{bad}"], "", True),
    (["-"], SAMPLE.read_text(encoding="utf-8"), True),
    (["-", "{good}", "-"], "", True),                      # standard input twice: a usage error, exit 2
    (["-"], "not a record at all\n", True),
    # left to Typer: its messages
    ([], "", False),
    (["--help"], "", False),
    (["{good}", "-h"], "", False),
    (["--bogus", "{good}"], "", False),
    (["--jobs", "x", "{good}"], "", False),
    (["--jobs", "-1", "{good}"], "", False),
    (["--jobs", "007", "{good}"], "", False),
    (["--format", "xml", "{good}"], "", False),
    (["--format", "JSON", "{good}"], "", False),
    (["{good}", "--jobs"], "", False),
    (["--brief", "--brief", "{good}"], "", False),
    (["--progress", "--no-progress", "{good}"], "", False),
    (["-bj1", "{good}"], "", False),
    (["-f=json", "{good}"], "", False),
    (["--", "{good}"], "", False),
    (["--rules", "{missing}", "{good}"], "", False),
]


@pytest.fixture(scope="module")
def both(files, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple]]:
    """Every case run both ways: for each, (exit status, stdout, stderr, typer loaded)."""
    folder = tmp_path_factory.mktemp("runs")
    cases = [(["validate", *(a.format(**files) for a in args)], stdin) for args, stdin, _ in CASES]
    spec = json.dumps({"dir": str(folder), "cases": cases, "warm": files["bad"]})
    out: dict[str, list[tuple]] = {}
    for mode in ("typer", "direct"):
        proc = subprocess.run([sys.executable, "-c", DRIVER, mode, spec], capture_output=True, text=True,
                              env=_env(), cwd=ROOT, check=True)
        codes = json.loads(proc.stdout)
        out[mode] = [(code, (folder / f"{mode}-{i}.out").read_bytes(), (folder / f"{mode}-{i}.err").read_bytes(),
                      (folder / f"{mode}-{i}.typer").read_text()) for i, code in enumerate(codes)]
    return out


@pytest.mark.parametrize("case", range(len(CASES)), ids=[" ".join(c[0]) or "(none)" for c in CASES])
def test_the_direct_path_writes_what_the_typer_app_writes(files, both, case):
    args, _, direct = CASES[case]
    assert (validate_options([a.format(**files) for a in args]) is not None) is direct
    theirs, mine = both["typer"][case], both["direct"][case]
    assert mine[:3] == theirs[:3]
    assert theirs[0] in (0, 1, 2) and theirs[3] == "True"
    assert mine[3] == str(not direct)       # the direct path never loads typer


def _run(code: str, args: list[str], stdout: object) -> tuple:
    proc = subprocess.run([sys.executable, "-c", code, *args], stdout=stdout, stderr=subprocess.PIPE, env=_env(),
                          cwd=ROOT)
    return proc.returncode, proc.stderr


def test_a_full_disk_and_a_broken_pipe_end_as_under_the_typer_app(files):
    for args in (["validate", files["good"]], ["validate", "--format", "json", files["bad"]]):
        with open("/dev/full", "w") as full:
            theirs = _run(TYPER, args, stdout=full)
        with open("/dev/full", "w") as full:
            mine = _run(DIRECT, args, stdout=full)
        assert mine == theirs and mine[0] == 2 and b"no space left on device" in mine[1]
        read, write = os.pipe()
        os.close(read)          # a reader gone (| head): quiet, status 1
        try:
            theirs, mine = _run(TYPER, args, stdout=write), _run(DIRECT, args, stdout=write)
        finally:
            os.close(write)
        assert mine == theirs == (1, b"")


def test_the_options_read_directly():
    assert validate_options(["a.dpn", "-", "b.dpn"]) == {"files": ["a.dpn", "-", "b.dpn"]}
    assert validate_options(["-b", "a", "--format", "json", "-j", "3", "--max-errors=0", "--no-progress",
                             "--force-jobs"]) == {"brief": True, "format": "json", "jobs": 3, "max_errors": 0,
                                                  "progress": False, "force_jobs": True, "files": ["a"]}
    assert validate_options(["--progress", "a", "--jobs=12"]) == {"progress": True, "jobs": 12, "files": ["a"]}
    # what click would read otherwise, or refuse: left to it
    for args in ([], ["-b"], ["a", "--jobs"], ["a", "--jobs", "1_0"], ["a", "--jobs", "+1"], ["a", "-j", "٣"],
                 ["a", "--brief=yes"], ["a", "--format", "Json"], ["a", "-fjson"], ["a", "--"], ["--", "a"],
                 ["a", "--version"], ["a", "--rules", "x.yaml"], ["a", "-j", "1", "--jobs", "2"]):
        assert validate_options(args) is None, args
