"""Text output that fits where it goes: the terminal's width on a terminal; piped, nothing
padded and nothing cut (``rules``, ``annotate``), long text wrapped at words, never ``…``."""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote.cli import app
from dehlanote.rules.profile import registry

DATA = Path(__file__).resolve().parents[1] / "data"
runner = CliRunner()


def piped(*args: str) -> str:
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": None})
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def test_piped_rules_shows_every_description_in_full_without_padding():
    out = piped("rules")
    flat = " ".join(out.split())
    reg = registry()
    for rules in reg.profiles.values():
        assert " ".join(rules.description.split()) in flat
    for opt in reg.options.values():
        assert " ".join(opt.description.split()) in flat
    assert "closed" in reg.options["trump"].description               # so trump=closed can be found
    assert "…" not in out
    assert all(line == line.rstrip() for line in out.splitlines())


def test_piped_rules_of_one_profile_is_not_padded():
    out = piped("rules", "standard")
    assert "Decisions" in out and "…" not in out
    assert all(line == line.rstrip() for line in out.splitlines())


@pytest.mark.parametrize("path", sorted(DATA.glob("*.dpn")), ids=lambda p: p.name)
def test_piped_annotate_has_no_trailing_spaces(path):
    out = piped("annotate", path)
    lines = out.splitlines()
    assert lines and all(line == line.rstrip() for line in lines)
    heading, rule = lines[0], lines[1]
    assert heading.startswith("Game 1") and set(rule) == {"═"} and len(rule) == len(heading)


def test_columns_sets_the_width_when_piped():
    result = runner.invoke(app, ["rules"], env={"COLUMNS": "60"})
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 60
    assert "…" not in result.stdout
    assert "closed" in result.stdout


pexpect = pytest.importorskip("pexpect")


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("width", [80, 120])
def test_rules_on_a_terminal_wraps_at_its_width(width):
    env = dict(os.environ, TERM="dumb", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    child = pexpect.spawn("/bin/sh", ["-c", f"{shlex.quote(sys.executable)} -m dehlanote rules"], env=env,
                          dimensions=(40, width), encoding="utf-8", timeout=60)
    child.expect(pexpect.EOF)
    out = child.before.replace("\r\n", "\n")
    lines = [line for line in out.split("\n") if line.strip()]
    assert lines and max(len(line) for line in lines) <= width
    assert "…" not in out
    words = " ".join(out.split())
    assert "closed" in words
    for opt in registry().options.values():                  # every description's words, none cut
        for word in opt.description.split():
            assert word in words, word
    # each description is whole: its words appear in order, wrapped in its column
    trump = [line for line in lines if line.startswith("trump=")]
    assert trump


@pytest.mark.parametrize("path", sorted(DATA.glob("*.dpn")), ids=lambda p: p.name)
def test_annotate_at_80_columns_wraps_and_keeps_every_column(path):
    result = runner.invoke(app, ["annotate", str(path)], env={"COLUMNS": "80"})
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in result.stdout
    headers = [i for i, line in enumerate(lines) if line.lstrip().startswith("#")]
    assert headers
    for i in headers:                                   # both sides' tens columns are there
        assert len(re.findall(r"\b(?:AC|BD|ACE|BDF)\b", lines[i])) == 2, lines[i - 1:i + 1]


def test_rules_explains_every_parameter():
    """rules NAME shows every declared parameter with its value and the meaning its declaration gives."""
    from dehlanote.rules.profile import PARAMS

    result = CliRunner().invoke(app, ["rules", "hukum streak=5"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line for line in result.stdout.splitlines() if line.split() and line.split()[0] in PARAMS}
    hukum = registry().resolve("hukum streak=5")
    assert list(rows) == list(PARAMS)
    for name, param in PARAMS.items():
        assert rows[name].split()[1] == str(getattr(hukum, name)), rows[name]
        assert " ".join(param.meaning.split()[:4]) in rows[name], rows[name]
    assert rows["streak"].split()[1] == "5" and rows["trump"].split()[1] == "first-void"
