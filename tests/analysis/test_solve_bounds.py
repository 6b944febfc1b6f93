"""The solver's shortcuts that must never move a value: the sweep a leader surely makes with
the tens its sure winners bring (a bound at a trick start), and a guessed value tested first.

Each bound is checked where it cuts (the answer comes with no card searched) and against the
brute force of test_solve_reference and the pure-Python search.
"""

from __future__ import annotations

import random

import pytest
from test_solve_reference import GAMES, Ref, random_ending

from dehlanote.analysis import PlayRules, Position, Solver
from dehlanote.analysis.search import _csearch

compiled_only = pytest.mark.skipif(_csearch is None, reason="the compiled search is not built")


def ending(hands: tuple[tuple[str, ...], ...], leader: int, *, run: int, last: int, centre_tricks: int = 1,
           centre_tens: int = 0, tens: tuple[int, int] = (2, 1)) -> Position:
    """Three tricks left, trump spades, the other tens captured as ``tens`` and ``centre_tens`` say."""
    done = 10
    return Position(PlayRules(), hands, leader, trump="S", last_winner=last, run=run, centre_tricks=centre_tricks,
                    centre_tens=centre_tens, tens=tens, tricks=(5, done - centre_tricks - 5), done=done)


# A leads the ten of hearts, the top heart left (everyone follows): A's second win in a row
# sweeps the centre with that ten, so AC gains at least 1 before a card is searched.
OWN_TEN = ending((("10H", "2S", "3D"), ("2H", "4S", "5D"), ("3H", "5S", "6D"), ("4H", "6S", "7D")), 0,
                 run=1, last=0)
# A leads the ace of hearts and B's only heart is the ten: B must play it onto A's sweep.
DROPPED_TEN = ending((("AH", "2S", "3D"), ("10H", "4S", "5D"), ("3H", "5S", "6D"), ("4H", "6S", "7D")), 0,
                     run=1, last=0)
# The other side's leader B, one win from a sweep, holds the ten of hearts at the top, the
# last ten out: AC cannot gain it.
THEIR_TEN = ending((("2H", "2S", "3D"), ("10H", "4S", "5D"), ("3H", "5S", "6D"), ("4H", "6S", "7D")), 1,
                   run=1, last=1)
# Two tricks to run (no win in a row yet): A's ace and king of hearts, C's two hearts the ten
# and a low one, so the ten falls on one of them.
TWO_ROUNDS = ending((("AH", "KH", "3D"), ("2H", "3H", "5D"), ("10H", "4H", "6D"), ("5H", "6H", "7D")), 0,
                    run=0, last=1)


@compiled_only
@pytest.mark.parametrize("pos, target, answer", [
    pytest.param(OWN_TEN, 1, True, id="own ten"),
    pytest.param(DROPPED_TEN, 1, True, id="dropped ten"),
    pytest.param(THEIR_TEN, 1, False, id="their ten"),
    pytest.param(TWO_ROUNDS, 1, True, id="two rounds"),
])
def test_the_sure_sweep_bound_counts_the_tens_its_winners_bring(pos: Position, target: int, answer: bool) -> None:
    """The bound answers at the trick start (no card searched) and agrees with the brute force
    and the Python search on the value."""
    solver = Solver(pos.game, compiled=True)
    need = target + pos.score()[0]
    assert solver.at_least(pos, need) is answer
    assert solver.nodes == 0
    want = Ref(pos).value()
    assert solver.value(pos) == want == Solver(pos.game, compiled=False).value(pos)
    assert (want >= need) is answer


@compiled_only
def test_without_the_ten_the_bound_does_not_answer() -> None:
    """The same shape with the ten left in diamonds, which A's sure winner does not bring (D
    may keep it): the search has to look (and finds the value the brute force does)."""
    pos = ending((("AH", "2S", "3D"), ("9H", "4S", "5D"), ("3H", "5S", "6D"), ("4H", "6S", "10D")), 0,
                 run=1, last=0)
    solver = Solver(pos.game, compiled=True)
    solver.at_least(pos, pos.score()[0] + 1)
    assert solver.nodes > 0
    assert solver.value(pos) == Ref(pos).value()


@pytest.mark.parametrize("compiled", [pytest.param(False, id="python"),
                                      pytest.param(True, id="compiled", marks=compiled_only)])
def test_a_guessed_value_changes_no_value(compiled: bool) -> None:
    """``value(pos, guess)`` and ``judge(pos, card, guess)`` give the same answers whatever the
    guess (right, wrong, out of range), with a fresh table and a warm one."""
    rng = random.Random(31)
    for name in ("standard", "hukum", "double-sar", "court-piece", "six-player"):
        game = GAMES[name]
        warm = Solver(game, compiled=compiled)
        for i in range(4):
            pos = random_ending(rng, game, 2 if game.seats == 6 else 3 + i % 2, "known")
            want = Solver(game, compiled=compiled).value(pos)
            assert want == Ref(pos).value(), (name, pos)
            total = game.total
            for guess in (-3, 0, want - 1, want, want + 1, total, total + 4):
                assert Solver(game, compiled=compiled).value(pos, guess) == want, (name, pos, guess)
                assert warm.value(pos, guess) == want, (name, pos, guess)
            card = rng.choice(pos.legal())
            plain = Solver(game, compiled=compiled).judge(pos, card)
            for guess in (0, want, total):
                assert warm.judge(pos, card, guess) == plain, (name, pos, card, guess)
