"""``annotate --analyse``: ? and ?? on the cards that lost value, and what would have kept it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote import iter_path, replay_games
from dehlanote.analysis import commentary as analysis_annotate
from dehlanote.cli import app
from dehlanote.syntax import parse_string

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "samples" / "hukum-closed-trump.dpn")


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    # a few CPU seconds a deal: the later tricks (solved first) are enough to check the marks
    monkeypatch.setattr(analysis_annotate, "DEAL_SECONDS", 0.3)


def test_dpn_gets_glyphs_and_comments_and_stays_valid() -> None:
    res = CliRunner().invoke(app, ["annotate", "--analyse", "--format", "dpn", SAMPLE])
    assert res.exit_code == 0, res.output
    text = res.stdout
    # deal 4, trick 10: C's JH let BD take the last ten (found by solve too)
    assert "JH?? {analysis ??: C should have played 10H: AC 1\u20133 instead of 0\u20134}" in text
    games = list(parse_string(text))
    facts = next(replay_games(games))
    assert not facts.errors
    glyphs = [p.glyph for d in facts.game.deals for t in d.tricks for p in t.plays if p.glyph]
    assert "??" in glyphs


def test_an_existing_glyph_is_kept() -> None:
    facts = next(replay_games(iter_path(SAMPLE)))
    deal = facts.game.deals[3]
    trick = deal.tricks[9]
    plays = list(trick.plays)
    plays[3] = plays[3]._replace(glyph="!?")        # C's JH, written with a glyph of its own
    game = facts.game._replace(deals=facts.game.deals[:3] + (deal._replace(
        tricks=deal.tricks[:9] + (trick._replace(plays=tuple(plays)),) + deal.tricks[10:]),))
    from dehlanote.replay import replay_game
    out = analysis_annotate.analysed(replay_game(game))
    play = out.game.deals[3].tricks[9].plays[3]
    assert play.card == "JH" and play.glyph == "!?"
    assert play.comments[-1].startswith("analysis ?? (the author's !? kept): C should have played 10H")


def test_text_shows_the_analysis_under_the_game() -> None:
    res = CliRunner().invoke(app, ["annotate", "--analyse", SAMPLE])
    assert res.exit_code == 0, res.output
    assert "trick 10: C JH?? C should have played 10H: AC 1\u20133 instead of 0\u20134" in res.stdout
