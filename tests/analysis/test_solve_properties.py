"""Properties of the solver that hold for any position (Hypothesis draws the positions).

* the value of a position is the best, for the side to play, of the values after each
  legal card (the solver's own search merges equivalent cards and orders moves: this
  checks it against one plain step of minimax over its values);
* equivalent cards (adjacent among the cards still out, same hand, not a ten) have equal
  values;
* the zero-window test agrees with the exact value on both sides of it.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dehlanote.analysis import PlayRules, Position, Solver
from dehlanote.analysis.search import _csearch
from dehlanote.deck import STRENGTH

from test_solve_reference import GAMES, random_ending

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw: st.DrawFn) -> Position:
    name = draw(st.sampled_from(sorted(GAMES)))
    game = GAMES[name]
    mode = draw(st.sampled_from(["known", "first-void", "closed", "none"]))
    left = draw(st.integers(1, 2 if game.seats == 6 else 4))
    seed = draw(st.integers(0, 2**32 - 1))
    return random_ending(random.Random(seed), game, left, mode)


@SETTINGS
@given(positions())
def test_value_is_the_best_of_the_values_after_each_card(pos: Position) -> None:
    solver = Solver(pos.game)
    values = solver.card_values(pos)
    best = max(values.values()) if pos.turn % 2 == 0 else min(values.values())
    assert Solver(pos.game).value(pos) == best
    assert solver.value(pos) == best            # a warm table changes nothing


def _equivalent_pairs(pos: Position) -> list[tuple[str, str]]:
    """Pairs of the mover's legal cards of one suit with no card still out between them."""
    hand = set(pos.hands[pos.turn])
    out = [c for h in pos.hands for c in h] + list(pos.trick)
    legal = pos.legal()
    pairs = []
    for a in legal:
        for b in legal:
            if a[-1] != b[-1] or STRENGTH[a] <= STRENGTH[b] or "10" in (a[:-1], b[:-1]) and pos.game.score != "tricks":
                continue
            between = [c for c in out if c[-1] == a[-1] and STRENGTH[b] < STRENGTH[c] < STRENGTH[a]]
            ties = [c for c in out if c in (a, b)]
            if all(c in hand for c in between) and len(ties) == 2 and not (
                    pos.game.score != "tricks" and any(c.startswith("10") for c in between)):
                pairs.append((a, b))
    return pairs


@SETTINGS
@given(positions())
def test_equivalent_cards_have_equal_values(pos: Position) -> None:
    pairs = _equivalent_pairs(pos)
    solver = Solver(pos.game)
    for a, b in pairs:
        assert solver.value(pos.play(a)) == solver.value(pos.play(b)), (a, b, pos)


@SETTINGS
@given(positions())
def test_zero_window_test_brackets_the_value(pos: Position) -> None:
    solver = Solver(pos.game)
    v = solver.value(pos)
    assert solver.at_least(pos, v)
    assert not solver.at_least(pos, v + 1)


def test_a_finished_deal_is_worth_its_score() -> None:
    game = PlayRules()
    pos = Position(game, ((), (), (), ()), 0, trump="S", tens=(3, 1), tricks=(9, 4), done=13)
    assert Solver(game).value(pos) == 3
    assert Solver(PlayRules(score="points")).value(Position(PlayRules(score="points"), ((), (), (), ()), 0,
                                                       tens=(3, 1), tricks=(9, 4), done=13)) == 39


@SETTINGS
@given(positions(), st.integers(0, 50))
def test_judging_a_card_agrees_with_every_cards_value(pos: Position, pick: int) -> None:
    legal = pos.legal()
    played = legal[pick % len(legal)]
    values = Solver(pos.game).card_values(pos)
    after, best, cards = Solver(pos.game).judge(pos, played)
    want = max(values.values()) if pos.turn % 2 == 0 else min(values.values())
    assert after == values[played]
    assert best == want
    assert set(cards) == {c for c, v in values.items() if v == want}


@pytest.mark.skipif(_csearch is None, reason="the compiled search is not built")
@SETTINGS
@given(positions())
def test_the_compiled_search_gives_the_python_searchs_values(pos: Position) -> None:
    """Every profile and trump method (six players, trump still to be set by play, closed trump
    with its setter chosen or not), every legal card: the two searches agree."""
    fast, ref = Solver(pos.game, compiled=True), Solver(pos.game, compiled=False)
    assert fast.uses_compiled(pos) and not ref.uses_compiled(pos)
    assert fast.card_values(pos) == ref.card_values(pos)
