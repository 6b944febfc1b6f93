"""--help in plain words (metavars, no Python types) and shell completion as Typer users expect."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from dehlanote.cli import app

#: every command registered on the app, whoever added it
COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
#: what Typer shows of Python's types: <bool>, <list[str]>, <int range>, [x>=1], {FILE}
PYTHON_TYPES = re.compile(r"<(?:bool|int|str|float|list|path|text|int range)[^>]*>|\[x[<>]=?\d+|\{[A-Z]+\}")

runner = CliRunner()


def help_of(*args: str) -> str:
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_shows_no_python_types(command):
    text = help_of(*([command] if command else []))
    assert not PYTHON_TYPES.search(text), PYTHON_TYPES.search(text)


def test_help_shows_plain_metavars():
    validate = help_of("validate")
    assert "Usage: dehlanote validate [OPTIONS] FILE..." in validate
    assert re.search(r"FILE\.\.\.\s+DPN files or glob patterns", validate)
    assert re.search(r"--jobs\s+-j\s+N\s", validate)
    assert re.search(r"--format\s+-f\s+text\|json\s", validate)
    replay = help_of("replay")
    assert "Usage: dehlanote replay [OPTIONS] FILE" in replay
    for option in ("--game", "--deal", "--trick"):
        assert re.search(option + r"\s+-\w\s+N\s", replay), option
    assert re.search(r"--plain\s+Print", replay)            # a flag: no metavar at all
    assert "Usage: dehlanote rules [OPTIONS] [NAME]" in help_of("rules")
    assert re.search(r"--rules\s+FILE\.yaml", help_of("annotate"))


def test_missing_argument_names_the_metavar():
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 2
    assert "Missing argument 'FILE...'" in result.output


def test_ranges_are_still_enforced():
    result = runner.invoke(app, ["replay", "--game", "0", "x.dpn"])
    assert result.exit_code == 2


def test_top_help_offers_completion():
    text = help_of()
    assert "--install-completion" in text and "--show-completion" in text


def _run(args: list[str], home: Path, **env: str) -> subprocess.CompletedProcess:
    full = dict(os.environ, HOME=str(home), **env)
    full.pop("COLUMNS", None)
    return subprocess.run([sys.executable, "-m", "dehlanote", *args], capture_output=True, text=True,
                          env=full, timeout=60)


def test_show_completion_bash_prints_a_script_and_writes_nothing(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    # the shell named on the command line, not guessed from the process tree
    result = _run(["--show-completion", "bash"], home, _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1")
    assert result.returncode == 0, result.stderr
    assert "_DEHLANOTE_COMPLETE=complete_bash" in result.stdout
    assert "complete -o default -F _dehlanote_completion dehlanote" in result.stdout
    assert _installed(home) == []                          # nothing installed


def test_completion_of_commands_and_rule_names(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    words = _run([], home, _DEHLANOTE_COMPLETE="complete_bash", COMP_WORDS="dehlanote rep", COMP_CWORD="1")
    assert words.stdout.split() == ["replay"]
    names = _run([], home, _DEHLANOTE_COMPLETE="complete_bash", COMP_WORDS="dehlanote rules hu", COMP_CWORD="2")
    assert names.stdout.split() == ["hukum"]
    assert _installed(home) == []


def _installed(home):
    """What a run left in HOME beside the per-user cache of parser and profile tables
    (``~/.cache/dehlanote``, which any run may fill): a completion script, a shell file."""
    left = sorted(p.relative_to(home).as_posix() for p in home.rglob("*"))
    return [p for p in left if p not in (".cache", ".cache/dehlanote") and not p.startswith(".cache/dehlanote/")]


def test_replay_help_lists_the_keys_of_the_one_keymap():
    from dehlanote.output.keys import key_hints

    text = " ".join(help_of("replay").replace("│", " ").split())
    for hint in key_hints():
        assert hint in text, hint
