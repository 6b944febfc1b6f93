"""The solver's card at a table (dehlanote.analysis.best, what-if play): on the last two tricks
of every sample deal whose hands are known, from a card inside the trick, the card it gives is
one of the best by a brute force over the table (every line played out with the core); and it
says why when it cannot answer."""

from __future__ import annotations

import glob
from pathlib import Path

import pytest

import dehlanote
from dehlanote.analysis.best import best_card

ROOT = Path(__file__).resolve().parents[2]


def _deals():
    out = []
    for path in sorted(glob.glob(str(ROOT / "samples" / "*.dpn"))):
        for game in dehlanote.read_games(path):
            for d in game.deals:
                if d.rules is not None and len(d.hands) == d.rules.seats and len(d.tricks) == d.rules.tricks_per_deal:
                    out.append(pytest.param(d, id=f"{Path(path).stem}-{d.number}"))
    return out


@pytest.mark.parametrize("deal", _deals())
def test_the_solvers_card_is_a_best_card_by_brute_force(deal, brute_best):
    last = len(deal.tricks)
    for trick, card in ((last - 1, 1), (last - 1, 2), (last, 3)):
        table = deal.table(trick=trick, card=card)
        best = best_card(table, seconds=30)
        cards, top = brute_best(table)
        assert best.card in cards, (trick, card, best, cards)
        assert best.value == top
        # among equals, the first in the table's order of legal cards
        assert best.card == next(str(c) for c in table.legal_cards() if str(c) in cards)


def test_it_says_why_it_cannot_answer():
    game = next(dehlanote.read_games(str(ROOT / "samples" / "worked-example.dpn")))
    deal = game.deals[0]
    early = deal.table(trick=1, card=1)
    out = best_card(early, seconds=None, nodes=0)
    assert out.card is None and "no answer within 0 nodes" in out.reason
    unknown = dehlanote.Table.new("standard", dealer="D", trump="H")
    out = best_card(unknown)
    assert out.card is None and "needs every hand" in out.reason
    over = deal.table(trick=13, card=4)
    over.play(over.legal_cards()[0])
    assert best_card(over).reason == "the deal is over"
