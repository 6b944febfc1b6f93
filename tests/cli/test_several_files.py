"""Several files and standard input: ``annotate`` takes files and globs like ``validate``;
``replay --plain -`` reads standard input, the interactive stepper refuses it clearly."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote import iter_path, replay_game
from dehlanote.cli import app

DATA = Path(__file__).resolve().parents[1] / "data"
WORKED = DATA / "worked-example.dpn"
HUKUM = DATA / "hukum.dpn"
runner = CliRunner()


def run(*args: object, input: str | bytes | None = None):
    result = runner.invoke(app, [str(a) for a in args], input=input, env={"COLUMNS": None})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_annotate_several_files_names_each_and_exits_as_validate(tmp_path):
    result = run("annotate", "--letters", WORKED, HUKUM)
    assert result.exit_code == 0
    out = result.stdout
    assert f"{WORKED} · Game 1: Worked example" in out
    assert f"{HUKUM} · Game 1: " in out
    assert out.index(str(WORKED)) < out.index(str(HUKUM))
    assert out.count("Result: ") == 2


def test_annotate_expands_quoted_globs():
    pattern = str(DATA / "w*.dpn")
    assert run("annotate", pattern).stdout == run("annotate", WORKED).stdout


def test_annotate_unreadable_file_is_reported_and_the_others_annotated(tmp_path):
    result = run("annotate", tmp_path / "missing.dpn", WORKED)
    assert result.exit_code == 2
    assert "cannot read" in result.stderr and "missing.dpn" in result.stderr and "no such file" in result.stderr
    assert "Game 1: Worked example" in result.stdout


def test_annotate_several_files_as_dpn_is_one_valid_stream(tmp_path):
    result = run("annotate", "-f", "dpn", WORKED, HUKUM)
    assert result.exit_code == 0
    out = tmp_path / "all.dpn"
    out.write_text(result.stdout, encoding="utf-8")
    games = [replay_game(g) for g in iter_path(out)]
    expected = [replay_game(g) for p in (WORKED, HUKUM) for g in iter_path(p)]
    assert len(games) == len(expected)
    assert all(g.errors == () for g in games)
    assert [g.result for g in games] == [g.result for g in expected]


def test_annotate_reads_standard_input_once():
    text = WORKED.read_text(encoding="utf-8")
    assert "Game 1: Worked example" in run("annotate", "-", input=text).stdout
    assert run("annotate", "-", "-", input=text).exit_code == 2


def test_replay_plain_reads_standard_input():
    text = WORKED.read_text(encoding="utf-8")
    piped = run("replay", "--plain", "-", input=text)
    assert piped.exit_code == 0
    assert piped.stdout == run("replay", "--plain", WORKED).stdout
    assert piped.stdout.count(" plays ") == 52


pexpect = pytest.importorskip("pexpect")


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
def test_interactive_replay_refuses_standard_input_with_a_clear_message():
    """On a terminal, without --plain: standard input carries the keys, so the record cannot come there."""
    command = f"{shlex.quote(sys.executable)} -m dehlanote replay - < {shlex.quote(str(WORKED))}; echo EXIT=$?"
    child = pexpect.spawn("/bin/sh", ["-c", command], dimensions=(24, 80), encoding="utf-8", timeout=60,
                          env=dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8"))
    child.expect(r"EXIT=(\d+)")
    assert child.match.group(1) == "2"
    said = " ".join(child.before.split())
    assert "give it a file, or print the steps with --plain" in said
    assert "Traceback" not in child.before
    # --plain on the same terminal reads it
    command = (f"{shlex.quote(sys.executable)} -m dehlanote replay --plain - < {shlex.quote(str(WORKED))} "
               "| tail -3; echo EXIT=$?")
    child = pexpect.spawn("/bin/sh", ["-c", command], dimensions=(24, 80), encoding="utf-8", timeout=60,
                          env=dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8"))
    child.expect(r"EXIT=(\d+)")
    assert "match: kots AC 0 BD 0" in child.before


@pytest.mark.parametrize("command", [
    ["validate"], ["solve"], ["stats"], ["review"], ["json"], ["fmt"], ["annotate"],
    ["html", "-o", "OUT/page.html"], ["db", "build", "-o", "OUT/games.duckdb"],
])
def test_standard_input_twice_is_refused_by_every_command(command, tmp_path):
    # solve - - read standard input once, said nothing and exited 0, where validate - - refused
    # (exit 2): the check is now where every command expands its files
    args = [str(tmp_path / a[4:]) if a.startswith("OUT/") else a for a in command]
    result = run(*args, "-", "-", input=WORKED.read_text(encoding="utf-8"))
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert "standard input (-) can be read only once" in result.stderr
    assert result.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_json_of_more_files_than_may_be_open_at_once(tmp_path):
    """``json club/*.dpn`` held every file open until the end (to check them all before writing):
    past the limit of open files (1,024, or 256) it failed, "cannot write the output: too many
    open files". The files are now looked at first, then read one at a time."""
    import json
    import resource
    import subprocess

    text = WORKED.read_text(encoding="utf-8")
    for i in range(80):
        (tmp_path / f"night{i:02d}.dpn").write_text(text, encoding="utf-8")

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "json", "--compact", str(tmp_path / "*.dpn")],
                          capture_output=True, text=True, preexec_fn=few_files, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)["games"]) == 80
    # a file that cannot be read still stops the command before anything is written
    result = run("json", tmp_path / "night00.dpn", tmp_path / "missing.dpn")
    assert result.exit_code == 2 and result.stdout == ""
    assert "cannot read" in result.stderr
