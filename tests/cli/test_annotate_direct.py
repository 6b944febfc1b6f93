"""Issue 27 item 2: ``annotate`` writes its deal tables directly (``output/annotext.py``),
not through Rich's table layout; the text is Rich's.

Differential: the same command with every table laid out by Rich (``annotate.DIRECT =
False``) against the direct writer, byte for byte when piped (every sample, every invalid
record, random matches of several profiles with claims, withdrawn cards and mistakes, wide
and non-Latin names, an Event longer than the line, several widths); on a terminal (a Rich
console forced to be one) character for character with the same style on each.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote.cli import app
from dehlanote.commands import annotate as annotate_cmd
from dehlanote.oracle.playout import Style, generate_match
from dehlanote.rules.profile import registry
from dehlanote.syntax import parse_string
from dehlanote.text import safe_console

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))
INVALID = sorted((ROOT / "tests" / "invalid").glob("*.dpn"))
runner = CliRunner()


def _piped(monkeypatch, args: list[str], *, direct: bool, columns: str | None = None) -> tuple[int, str]:
    monkeypatch.setattr(annotate_cmd, "DIRECT", direct)
    result = runner.invoke(app, ["annotate", *args], env={"COLUMNS": columns})
    return result.exit_code, result.stdout


def _same_piped(monkeypatch, args: list[str], columns: str | None = None) -> str:
    rich = _piped(monkeypatch, args, direct=False, columns=columns)
    direct = _piped(monkeypatch, args, direct=True, columns=columns)
    assert direct == rich
    return direct[1]


def _matches(seed: int, count: int) -> str:
    """Random matches of several profiles and writing styles, some with mistakes, in one text."""
    rng = random.Random(seed)
    names = ["Asha", "王小明", "Ñandú Øre", "Zoë 🂡", "अनुराधा", "x" * 30]
    games = []
    for k in range(count):
        profile, options = [("standard", None), ("pagat", None), ("hukum", None), ("standard", {"trump": "closed"}),
                            ("pagat", {"trump": "first-void-five"}), ("standard", {"seats": 6}),
                            ("standard", {"score": "double-sar"})][k % 7]
        try:
            text, _ = generate_match(rng, profile, options,
                                     Style(hands=k % 2 == 0, loose=k % 3 == 0, withdrawn=0.3 if k % 4 == 0 else 0.0,
                                           claims=0.3, leaders=k % 5 != 0),
                                     max_deals=rng.randint(1, 4))
        except (ValueError, KeyError):
            continue            # an option this version does not have
        text = text.replace('[A "', f'[A "{rng.choice(names)} ', 1)
        if k % 6 == 1:
            text = text.replace('[Event "', '[Event "' + "a very long event name " * 60, 1)
        if k % 5 == 2:          # a wrong card, a trick left out, a wrong tens line
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            lines[i] = {0: lines[i].replace("H", "S", 1), 1: "", 2: lines[i] + " 4C"}[rng.randrange(3)]
            text = "\n".join(lines)
        games.append(text)
    return "\n".join(games)


@pytest.mark.parametrize("path", SAMPLES + INVALID, ids=lambda p: p.name)
def test_piped_tables_are_rich_s_byte_for_byte(monkeypatch, path):
    out = _same_piped(monkeypatch, [str(path)])
    assert out.strip()
    _same_piped(monkeypatch, ["--letters", str(path)])


@pytest.mark.parametrize("columns", ["24", "40", "52", "64", "80", "100", "132"])
def test_piped_tables_at_a_set_width_are_rich_s(monkeypatch, columns):
    # narrower than a table: Rich narrows the wrappable columns and wraps their cells
    paths = [str(p) for p in SAMPLES]
    out = _same_piped(monkeypatch, paths, columns=columns)
    assert max(len(line) for line in out.splitlines()) <= int(columns)


@pytest.mark.parametrize("seed", range(4))
def test_piped_random_matches_are_rich_s(monkeypatch, tmp_path, seed):
    path = tmp_path / "random.dpn"
    path.write_text(_matches(seed, 14), encoding="utf-8")
    out = _same_piped(monkeypatch, [str(path)])
    assert "Deal 1" in out
    _same_piped(monkeypatch, [str(path)], columns=str(48 + 17 * seed))


# ---- on a terminal --------------------------------------------------------------------------------

_SGR = re.compile(r"\x1b\[([0-9;]*)m")


def _styled_chars(text: str) -> list[tuple[str, str]]:
    """Each character written with the style in force (Rich opens a style before its text and
    resets after it, so two ways of cutting the same styled text into pieces compare equal)."""
    out = []
    style = ""
    at = 0
    for m in _SGR.finditer(text):
        out += [(c, style) for c in text[at:m.start()]]
        style = "" if m.group(1) in ("", "0") else m.group(1)
        at = m.end()
    out += [(c, style) for c in text[at:]]
    return out


def _terminal(text: str, width: int, *, direct: bool, system: str) -> str:
    annotate_cmd.DIRECT = direct
    try:
        out = annotate_cmd.TextOut()
        out.piped = False
        out.console = safe_console(highlight=False, width=width, file=io.StringIO(), force_terminal=True,
                                   color_system=system)
        for index, game in enumerate(parse_string(text), 1):
            annotate_cmd._annotate_text(out, game, registry(), index, "x.dpn", index == 1, several=False,
                                        symbols=True, analyse=None)
        return out.console.file.getvalue()
    finally:
        annotate_cmd.DIRECT = True


@pytest.mark.parametrize("width,system", [(80, "truecolor"), (132, "standard"), (58, "256"), (100, "truecolor")])
def test_terminal_tables_look_as_rich_s(width, system):
    text = "\n".join(p.read_text(encoding="utf-8") for p in SAMPLES[::3]) + "\n" + _matches(9, 7)
    rich = _terminal(text, width, direct=False, system=system)
    direct = _terminal(text, width, direct=True, system=system)
    assert "\x1b[" in direct and "A" in direct
    assert _styled_chars(direct) == _styled_chars(rich)
