"""``annotate``'s text view shows the record's own words: its comments (each under the element
it follows) and the glyphs of its cards. It showed none: the annotator's notes, which
``replay`` and the pages show, were lost to a reader of the tables."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote.cli import app
from dehlanote.commands import annotate as annotate_cmd

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

RECORD = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
RECORD = RECORD.replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S!! {a low spade,\n   on two lines} 7S 9S")
RECORD = RECORD.replace("{diamonds}", "{diamonds \x1b]0;owned\x07}")
RECORD = "{a club evening}\n" + RECORD


@pytest.mark.parametrize("direct", [True, False], ids=["direct", "rich"])
def test_the_text_view_shows_the_records_comments_and_glyphs(monkeypatch, direct):
    monkeypatch.setattr(annotate_cmd, "DIRECT", direct)
    result = runner.invoke(app, ["annotate", "-"], input=RECORD, env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.stdout
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert lines[2:4] == ["{a club evening}", "{the first two tricks are the worked example of docs/rules.md}"]
    words = lines[lines.index("  trick 9: 10♦† won by D (BD) in trick 7, swept by A to AC") + 1:]
    assert words[:6] == [
        "  deal: {D deals five each from A, the dealer's right; A looks at them and names trump}",
        "  trump: {diamonds ␛]0;owned␇}",                  # a control character never reaches the terminal
        "  trick 1: {A wins: the four cards stay in the centre, 10H with them}",
        "  trick 2: {two in a row: A sweeps all 8 cards, 10H and 10S, to AC}",
        "  trick 3: B 5♠!! {a low spade, on two lines}",
        "  trick 4: {D twice: sweeps 8 cards, no ten}",
    ]
    assert "  trick 7: D 10♦? {D trumps with the ten of trumps, but it stays in the centre}" in words
    assert "  tens: {the non-dealing side AC wins the deal; D deals again}" in words


def test_letters_show_the_glyphs_card_in_letters(monkeypatch):
    result = runner.invoke(app, ["annotate", "--letters", "-"], input=RECORD, env={"COLUMNS": "100"})
    assert "  trick 7: D 10D? {D trumps with the ten of trumps, but it stays in the centre}" in result.stdout
