"""``dehlanote json`` read without the Typer app (``dehlanote._launch.direct_json``) against the Typer app.

The console script runs a plain ``json [--compact] [--force] [-o OUT] FILE...`` itself; every
command line here is run both ways, in processes forked from one (test_direct_validate's
driver), and what each writes on standard output, standard error and into its output file,
and its exit status, must be the same, byte for byte: valid and invalid records, a missing
file, a binary file, a folder, standard input (twice: a usage error), a glob, an output file
that exists or is read-only, a folder for an output, a full disk, a broken pipe, and the
command lines the direct path leaves to Typer (unknown options, ``--rules``, a value that
starts with ``-``, an option given twice, no file, ``--help``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dehlanote._launch import json_options

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_direct_validate import DRIVER as VALIDATE_DRIVER, SAMPLE, _env, _run  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DRIVER = VALIDATE_DRIVER.replace("launch.direct_validate = lambda args: None",
                                 "launch.direct_json = lambda args: None").replace(
    "import dehlanote.commands.validating, dehlanote.output.render",
    "import dehlanote.commands.jsoning, dehlanote.output.render")
assert "launch.direct_json" in DRIVER and "commands.jsoning" in DRIVER
TYPER = ("import sys\nimport dehlanote._launch as launch\nlaunch.direct_json = lambda args: None\n"
         "from dehlanote._entry import main\nsys.argv = ['dehlanote', *sys.argv[1:]]\nmain()\n")
DIRECT = "import sys\nfrom dehlanote._entry import main\nsys.argv = ['dehlanote', *sys.argv[1:]]\nmain()\n"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("direct-json")
    text = SAMPLE.read_text(encoding="utf-8")
    (folder / "good.dpn").write_text(text, encoding="utf-8")
    (folder / "bad.dpn").write_text(text.replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S 7S 8H")
                                    .replace("[Event \"Worked example\"]", "[Event \"Worked\"]\n[Bogus]"),
                                    encoding="utf-8")
    (folder / "binary.dpn").write_bytes(b"\x00\x01\x02" * 100)
    (folder / "sub").mkdir()
    (folder / "out").mkdir()
    locked = folder / "out" / "locked.json"
    locked.write_text("{}", encoding="utf-8")
    locked.chmod(0o444)
    return {"good": str(folder / "good.dpn"), "bad": str(folder / "bad.dpn"), "missing": str(folder / "no.dpn"),
            "binary": str(folder / "binary.dpn"), "dir": str(folder / "sub"), "glob": str(folder / "*.dpn"),
            "out": str(folder / "out"), "locked": str(locked)}


#: (arguments, with {name} for a file of the fixture and {new} for an output file of the case's
#: own; standard input; taken by the direct path)
CASES = [
    (["{good}"], "", True),
    (["--compact", "{good}"], "", True),
    (["{bad}", "--compact"], "", True),
    (["{good}", "{bad}", "{missing}"], "", True),
    (["--compact", "{binary}"], "", True),
    (["{dir}"], "", True),
    (["--compact", "{glob}"], "", True),
    (["-"], SAMPLE.read_text(encoding="utf-8"), True),
    (["--compact", "-"], "not a record at all\n", True),
    (["-", "{good}", "-"], "", True),                      # standard input twice: a usage error, exit 2
    (["-o", "{new}", "{good}"], "", True),
    (["--output", "{new}", "--compact", "{bad}"], "", True),
    (["--output={new}", "{good}", "{bad}"], "", True),
    (["-o", "{locked}", "{good}"], "", True),              # read-only: refused without --force
    (["-o", "{locked}", "--force", "--compact", "{good}"], "", True),
    (["-o", "{out}", "{good}"], "", True),                 # a folder
    (["-o", "{new}", "{missing}"], "", True),
    (["--force", "{good}"], "", True),
    # left to Typer: its messages
    ([], "", False),
    (["--compact"], "", False),
    (["--help"], "", False),
    (["{good}", "-h"], "", False),
    (["--bogus", "{good}"], "", False),
    (["--compact", "--compact", "{good}"], "", False),
    (["-o", "{new}", "-o", "{new}", "{good}"], "", False),
    (["{good}", "-o"], "", False),
    (["-o", "-", "{good}"], "", False),
    (["-o{new}", "{good}"], "", False),
    (["-o=x.json", "{good}"], "", False),
    (["--compact=yes", "{good}"], "", False),
    (["--", "{good}"], "", False),
    (["--rules", "{missing}", "{good}"], "", False),
]


def _args(args: list[str], files: dict[str, str], mode: str, i: int) -> list[str]:
    new = os.path.join(files["out"], f"{mode}-{i}.json")
    return [a.format(**files, new=new) for a in args]


@pytest.fixture(scope="module")
def both(files, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple]]:
    """Every case run both ways: for each, (exit status, stdout, stderr, the output file, typer loaded)."""
    folder = tmp_path_factory.mktemp("runs")
    out: dict[str, list[tuple]] = {}
    for mode in ("typer", "direct"):
        cases = [(["json", *_args(args, files, mode, i)], stdin) for i, (args, stdin, _) in enumerate(CASES)]
        spec = json.dumps({"dir": str(folder), "cases": cases, "warm": files["bad"]})
        # (from a folder of their own: a case left to Typer may write a file of a relative name)
        proc = subprocess.run([sys.executable, "-c", DRIVER, mode, spec], capture_output=True, text=True,
                              env=_env(), cwd=folder, check=True)
        codes = json.loads(proc.stdout)
        rows = []
        for i, code in enumerate(codes):
            written = Path(files["out"], f"{mode}-{i}.json")
            err = (folder / f"{mode}-{i}.err").read_bytes().replace(f"{mode}-{i}.json".encode(), b"NEW.json")
            rows.append((code, (folder / f"{mode}-{i}.out").read_bytes(), err,
                         written.read_bytes() if written.is_file() else None,
                         (folder / f"{mode}-{i}.typer").read_text()))
        out[mode] = rows
    return out


@pytest.mark.parametrize("case", range(len(CASES)), ids=[" ".join(c[0]) or "(none)" for c in CASES])
def test_the_direct_path_writes_what_the_typer_app_writes(files, both, case):
    args, _, direct = CASES[case]
    assert (json_options(_args(args, files, "direct", case)) is not None) is direct
    theirs, mine = both["typer"][case], both["direct"][case]
    assert mine[:4] == theirs[:4]
    assert theirs[0] in (0, 1, 2) and theirs[4] == "True"
    assert mine[4] == str(not direct)       # the direct path never loads typer


def test_the_cases_write_documents_and_fail_as_they_should(both):
    # (so that the comparison above compares something: documents, errors, statuses)
    rows = both["direct"]
    assert rows[0][0] == 0 and rows[0][1].startswith(b'{\n  "format": "dpn-json/1"')
    assert rows[1][1].startswith(b'{"format":"dpn-json/1"') and rows[2][0] == 1
    assert rows[9][0] == 2 and rows[10][3] is not None and rows[10][1] == b""
    assert rows[13][0] == 2 and rows[14][0] == 0


def test_a_full_disk_and_a_broken_pipe_end_as_under_the_typer_app(files):
    for args in (["json", files["good"]], ["json", "--compact", files["bad"]]):
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
    assert json_options(["a.dpn", "-", "b.dpn"]) == {"files": ["a.dpn", "-", "b.dpn"]}
    assert json_options(["--compact", "a", "-o", "x.json", "--force"]) == {
        "compact": True, "output": Path("x.json"), "force": True, "files": ["a"]}
    assert json_options(["a", "--output=y/z.json"]) == {"output": Path("y/z.json"), "files": ["a"]}
    for args in ([], ["--compact"], ["a", "-o"], ["a", "-o", ""], ["a", "--output="], ["a", "-ox.json"],
                 ["a", "--compact=1"], ["a", "--"], ["--", "a"], ["a", "--rules", "x.yaml"], ["a", "--version"],
                 ["a", "--force", "--force"], ["a", "-o", "x", "--output", "y"], ["a", "-o", "-x"]):
        assert json_options(args) is None, args
