"""``dehlanote replay --plain``: the steps as text (piped, or asked for)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote.cli import app

DATA = Path(__file__).resolve().parents[1] / "data"
WORKED = DATA / "worked-example.dpn"
runner = CliRunner()


def plain(*args: object, input: str | bytes | None = None):
    result = runner.invoke(app, ["replay", "--plain", *[str(a) for a in args]], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("name, event", [
    ("hukum.dpn", "D cannot follow: trump set, spades"),
    ("closed-trump.dpn", "A cannot follow: trump revealed, clubs"),
    ("first-void-five.dpn", "A cannot follow: trump set, clubs"),
])
def test_trump_event_is_said_once_at_the_card_that_made_it(name, event):
    out = plain(DATA / name).stdout
    deals = re.split(r"^Deal ", out, flags=re.M)[1:]
    assert out.count(event) >= 1
    for deal in deals:
        assert deal.count(event) <= 1                  # once per deal, not after every later card
    lines = out.splitlines()
    seat = event.split(" ", 1)[0]
    for i, line in enumerate(lines):
        if line.strip() == event:
            assert re.fullmatch(rf"  {seat} plays \w+( \(leads\))?", lines[i - 1])   # right after that card


def test_plain_replay_says_the_match_after_each_deal_and_its_end_once():
    out = plain(Path(__file__).resolve().parents[2] / "samples" / "pagat-session.dpn").stdout
    lines = out.splitlines()
    assert sum(1 for line in lines if line.startswith("  match: kots ")) == 11      # after each deal
    assert lines[-2:] == ["  match over: AC wins", "  match: kots AC 3 BD 1"]
    assert out.count("match over") == 1
