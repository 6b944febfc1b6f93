"""Small promises of the command line (issue 26 item 6), each checked as a user meets it:
``fmt --check`` on a record with errors, ``replay --plain``'s exit status, piped ``rules``
lines, the analysis's marks in ``annotate`` (in the table and told apart from the author's
glyphs in DPN), and the typer range that ``dehlanote.commands.lightparams`` was tested with."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version
from typer.testing import CliRunner

from dehlanote.cli import app
from dehlanote.rules.profile import registry
from dehlanote.syntax import parse_string

ROOT = Path(__file__).resolve().parents[2]
BAD = ROOT / "docs" / "examples" / "bad.dpn"
WORKED = ROOT / "samples" / "worked-example.dpn"
runner = CliRunner()


def run(*args: object, input: str | None = None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# ---- fmt --check ---------------------------------------------------------------------------------

def test_fmt_check_on_a_record_with_errors_says_it_fails_without_claiming_to_write():
    result = run("fmt", "--check", BAD)
    assert result.exit_code == 1
    assert "written as they are" not in result.stderr
    assert "2 errors, so it is not canonical DPN" in result.stderr
    # said apart, never "would reformat": --write leaves a file with errors untouched
    assert "would reformat" not in result.stdout.replace("would be reformatted", "")
    assert "1 file with errors (not canonical)" in result.stdout


def test_fmt_without_check_still_says_games_with_errors_are_written_as_they_are():
    result = run("fmt", BAD)
    assert result.exit_code == 1
    assert "games with errors are written as they are" in result.stderr


# ---- replay --plain: a report, with validate's exit status ----------------------------------------

def test_replay_plain_exits_1_when_the_record_has_errors_as_validate_does():
    replayed, validated = run("replay", "--plain", BAD), run("validate", BAD)
    assert validated.exit_code == 1
    assert replayed.exit_code == 1
    assert "wrong-leader" in replayed.stdout                 # the steps are still printed, errors at their card
    assert run("replay", "--plain", WORKED).exit_code == 0 == run("validate", WORKED).exit_code


def test_replay_names_a_command_that_lists_the_errors_as_it_can_be_typed(tmp_path):
    # a name with [ was shown with a backslash ("dehlanote validate \\[club] x.dpn"), unquoted
    path = tmp_path / "[club] x.dpn"
    path.write_bytes(BAD.read_bytes())
    result = run("replay", "--plain", path)
    assert result.exit_code == 1
    assert f"(dehlanote validate '{path}' lists them)" in result.stderr, result.stderr


# ---- rules, piped --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [None, "hukum", "pagat kots=3"])
def test_piped_rules_lines_are_wrapped_at_a_readable_width_and_lose_no_word(name, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    result = run("rules", *([name] if name else []))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    words = result.stdout.split()
    reg = registry()
    described = [reg.profiles[p].description for p in reg.profiles] if name is None \
        else [reg.resolve(name).description]
    text = " ".join(words)
    for description in described:
        assert " ".join(description.split()) in text          # wrapped, never cut


def test_rules_follows_columns_when_it_is_set(monkeypatch):
    monkeypatch.setenv("COLUMNS", "70")
    lines = run("rules").stdout.splitlines()
    assert max(len(line) for line in lines) <= 70


# ---- annotate --analyse ---------------------------------------------------------------------------

#: 20 CPU seconds a deal (the worked example is solved whole in about 2)
QUICK = ("--time-limit", "20")


_ROW = re.compile(r"^\s+(\d+)\s+[A-D]\s+(.+?)\s{2,}[A-D]\s")
_UNDER = re.compile(r"^  trick (\d+): ([A-D]) (\w+?)(\?\??) ")
_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def test_annotate_analyse_marks_in_the_table_the_cards_the_analysis_names():
    out = run("annotate", "--analyse", "--dd", *QUICK, WORKED).stdout
    under = {(int(m[1]), m[3], m[4]) for m in map(_UNDER.match, out.splitlines()) if m}
    assert len(under) >= 3
    marked = set()
    for line in out.splitlines():
        m = _ROW.match(line)
        if not m:
            continue
        for card in m[2].split():
            glyph = re.search(r"\?+", card)
            if glyph:
                plain = "".join(_SUIT.get(ch, ch) for ch in card if ch not in "?*†")
                marked.add((int(m[1]), plain, glyph[0]))
    assert marked == under                         # the table and the analysis under it agree
    assert "? and ??: the analysis's marks" in out
    assert "?" not in "".join(line for line in run("annotate", WORKED).stdout.splitlines()
                              if _ROW.match(line))                    # no analysis, no marks


def test_annotate_dpn_tells_the_analysis_marks_from_the_authors_glyphs():
    text = WORKED.read_text(encoding="utf-8").replace(" 3 A: 4S 5S", " 3 A: 4S! 5S")
    out = run("annotate", "--analyse", "--dd", *QUICK, "--format", "dpn", "-", input=text).stdout
    games = list(parse_string(out))
    assert not any(g.errors for g in games)
    plays = {(t.number, p.card): p for d in games[0].deals for t in d.tricks for p in t.plays}
    author = plays[(3, "4S")]                     # the author's ! kept, the analysis says its own mark
    assert author.glyph == "!"
    assert author.comments[-1].startswith("analysis ? (the author's ! kept): A should have played")
    analysed = plays[(5, "AD")]                   # no glyph written: the analysis's, and its comment says so
    assert analysed.glyph == "??" and analysed.comments[-1].startswith("analysis ??: A should have played")
    untouched = plays[(7, "10D")]                 # the author's ? with no analysis comment
    assert untouched.glyph == "?" and not any(c.startswith("analysis") for c in untouched.comments)
    for p in plays.values():
        notes = [c for c in p.comments if c.startswith("analysis")]
        if notes and "the author's" not in notes[-1]:
            assert notes[-1].startswith(f"analysis {p.glyph}:")


# ---- typer: the range lightparams was tested with ---------------------------------------------------

def test_typer_is_pinned_to_the_tested_range_and_the_installed_one_is_in_it():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    typer_req = next(Requirement(d) for d in deps if Requirement(d).name == "typer")
    installed = Version(version("typer"))
    assert installed in typer_req.specifier
    # an upper bound before the next minor release: lightparams uses typer's private modules
    assert not typer_req.specifier.contains(Version(f"{installed.major}.{installed.minor + 1}.0"))
    from dehlanote.commands import lightparams
    assert lightparams.RuntimeParam is not None, "the tested typer has the modules lightparams uses"


def test_the_pin_is_the_one_the_docs_name():
    from dehlanote.commands import lightparams
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    pin = next(d for d in deps if d.startswith("typer"))
    assert pin in (lightparams.__doc__ or "")
