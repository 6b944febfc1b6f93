"""Positions no deal can reach are refused at the solver's door, with a sentence, by both searches.

A card in two hands used to reach the compiled search and crash the process (reads out of
bounds); every such position now raises ValueError before any search starts, and the
compiled search's own entry refuses the same inputs when called directly. A negative node
limit is refused too (it meant "no limit" to the compiled search and "stop" to the Python
one): ``None`` is the only way to say "no limit".
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from dehlanote.analysis import PlayRules, Position, Solver
from dehlanote.analysis.search import _csearch

from test_solve_reference import SEARCHES, random_ending

STANDARD = PlayRules()
SIX = PlayRules(seats=6, decks=3)


def _start(game: PlayRules = STANDARD, seed: int = 1, left: int = 3, mode: str = "known") -> Position:
    pos = random_ending(random.Random(seed), game, left, mode)
    while pos.trick:     # back to a trick start: play it out
        pos = pos.play(pos.legal()[0])
    return pos


def _swap_card_into(pos: Position, seat: int, other: int) -> Position:
    """``seat``'s first card replaced by a copy of ``other``'s first card: one card in two hands."""
    hands = list(pos.hands)
    hands[seat] = (pos.hands[other][0],) + pos.hands[seat][1:]
    return replace(pos, hands=tuple(hands))


def _mid_trick(game: PlayRules = STANDARD, seed: int = 2) -> Position:
    rng = random.Random(seed)
    for _ in range(200):
        pos = random_ending(rng, game, 3, "known")
        if len(pos.trick) >= 2:
            return pos
    raise AssertionError("no mid-trick position drawn")


def _four_copies(pos: Position) -> Position:
    """Three decks: the first card of A's hand copied into B's, C's and D's: four copies or more."""
    card = pos.hands[0][0]
    hands = [pos.hands[0]] + [(card,) + h[1:] for h in pos.hands[1:4]] + list(pos.hands[4:])
    return replace(pos, hands=tuple(hands))


def _bad_positions() -> list[tuple[str, Position, str]]:
    pos = _start()
    mid = _mid_trick()
    six = _start(SIX, 3, 2)
    in_trick = mid.hands[:mid.turn] + ((mid.trick[0],) + mid.hands[mid.turn][1:],) + mid.hands[mid.turn + 1:]
    return [
        ("a card in two hands", _swap_card_into(pos, 1, 0), "is there 2 times"),
        ("a card in a hand and in the trick", replace(mid, hands=in_trick), "is there 2 times"),
        ("a fourth copy with three decks", _four_copies(six), "but 3 decks have it 3 times"),
        ("a hand one card short", replace(pos, hands=(pos.hands[0][1:],) + pos.hands[1:]),
         "A holds 1 card, but 2 tricks are left"),
        ("a hand one card over", replace(pos, done=pos.done + 1), "holds 2 cards, but 1 trick is left"),
        ("not a card", replace(pos, hands=(("1S",) + pos.hands[0][1:],) + pos.hands[1:]), "which is not a card"),
        ("a finished trick still in progress", replace(mid, trick=mid.trick + ("2S", "3S")), "trick"),
        ("a leader out of range", replace(pos, leader=4), "the leader"),
        ("a negative leader", replace(pos, leader=-1), "the leader"),
        ("trump not a suit", replace(pos, trump="X"), "trump must be a suit"),
        ("closed trump and trump in force", replace(pos, closed=("S", 0)), "both in force and still closed"),
        ("closed trump setter out of range", replace(pos, trump=None, closed=("S", 7)), "setter"),
        ("closed and first void at once", replace(pos, trump=None, closed=("S", 1), first_void=True),
         "both closed"),
        ("a run of two (the centre sweeps at two)", replace(pos, run=2, last_winner=pos.leader), "run"),
        ("more tens than the deck", replace(pos, centre_tens=4), "tens"),
        ("tricks done out of range", replace(pos, done=14), "tricks finished"),
        ("a centre under immediate capture", replace(_start(PlayRules(immediate=True)), centre_tricks=1),
         "centre"),
        ("five hands for four players", replace(pos, hands=pos.hands + ((),)), "needs 4 hands"),
        ("a game of five", replace(pos, game=PlayRules(seats=5)), "4 or 6 players"),
        ("a revoke in the trick in progress", _revoke(), "while holding"),
        ("trump still to be set after a void in this trick", _void_under_first_void(), "first void"),
    ]


def _revoke() -> Position:
    """A trick where B discarded a heart on a spade lead while holding a spade."""
    hands = (("3S",), ("5S",), ("6S", "7D"), ("8S", "9D"))
    return Position(STANDARD, hands, 0, trick=("2S", "KH"), trump="C", done=11)


def _void_under_first_void() -> Position:
    hands = (("3S",), ("5D",), ("6S", "7D"), ("8S", "9D"))
    return Position(STANDARD, hands, 0, trick=("2S", "KH"), first_void=True, done=11)


BAD = _bad_positions()


@pytest.mark.parametrize("compiled", SEARCHES)
@pytest.mark.parametrize("what,pos,words", BAD, ids=[c[0] for c in BAD])
def test_a_position_no_deal_can_reach_is_refused_with_a_sentence(what: str, pos: Position, words: str,
                                                                  compiled: bool) -> None:
    solver = Solver(pos.game, compiled=compiled)
    for ask in (solver.value, lambda p: solver.at_least(p, 1), solver.card_values):
        with pytest.raises(ValueError) as err:
            ask(pos)
        assert words in str(err.value), (what, str(err.value))
        assert str(err.value)[0].isalnum() and "\n" not in str(err.value)


def test_the_positions_refused_differ_from_legal_ones_in_the_fault_only() -> None:
    """Each bad position above comes from a legal one: the legal ones solve, with both searches."""
    for pos in (_start(), _mid_trick(), _start(SIX, 3, 2), _start(PlayRules(immediate=True))):
        assert Solver(pos.game, compiled=False).value(pos) == Solver(pos.game).value(pos)
    revoke = _revoke()
    legal = replace(revoke, hands=(revoke.hands[0], ("5D",)) + revoke.hands[2:])
    Solver(STANDARD).value(legal)


@pytest.mark.parametrize("compiled", SEARCHES)
def test_a_negative_node_limit_is_refused_and_zero_stops_at_once(compiled: bool) -> None:
    from dehlanote.analysis import OutOfTime
    deal = _start(STANDARD, 5, 13)
    solver = Solver(STANDARD, compiled=compiled)
    for bad in (-1, -5000, 1.5, True):
        with pytest.raises(ValueError, match="node limit"):
            solver.limit(bad, None)
    with pytest.raises(ValueError, match="time limit"):
        solver.limit(None, -1.0)
    solver.limit(0, None)
    with pytest.raises(OutOfTime):
        solver.value(deal)
    assert solver.nodes <= 4096 + 2 * 52


@pytest.mark.parametrize("compiled", SEARCHES)
def test_a_limit_holds_over_many_small_searches(compiled: bool) -> None:
    """``solve --node-limit 1`` searched 123,828 card plays and ``--time-limit 0.0001`` solved the
    worked example back to trick 5: the compiled search looked at the limits every 4,096 nodes
    of one call only, and a deal is judged in many calls of a few hundred nodes each. The
    limits now count over the calls, as the Python search always did."""
    from dehlanote.analysis import OutOfTime
    endings = [_start(STANDARD, seed, 3) for seed in range(1, 400)]
    for nodes, seconds in ((0, None), (None, 0.0)):
        solver = Solver(STANDARD, compiled=compiled)
        solver.limit(nodes, seconds)
        with pytest.raises(OutOfTime):
            for pos in endings:
                before = solver.nodes
                solver.value(pos)
                assert solver.nodes - before < 4096            # each search on its own stays under a check
        assert solver.nodes <= 2 * 4096 + 2 * 52


def test_a_solver_refuses_a_position_of_another_game() -> None:
    with pytest.raises(ValueError, match="this solver is for"):
        Solver(PlayRules(score="points")).value(_start())


def test_judging_a_card_that_is_not_legal_is_refused() -> None:
    pos = _start()
    stranger = next(c for c in pos.hands[(pos.turn + 1) % 4])
    with pytest.raises(ValueError, match="not a legal card"):
        Solver(STANDARD).judge(pos, stranger)


@pytest.mark.skipif(_csearch is None, reason="the compiled search is not built")
def test_the_compiled_entry_refuses_bad_inputs_itself() -> None:
    """Called directly (under the Solver), the compiled search checks its inputs too."""
    engine = _csearch.Engine(1000)
    ok = [0] * 16
    for seat in range(4):
        ok[seat * 4] = 1 << (2 * seat)             # A 2S, B 3S, C 4S, D 5S: one trick left
    base = (ok, [], 0, 0, 0, 0, 0, 1, 0, False, 1, 0, -1, 0.0)
    assert engine.test(*base)[0] in (0, 1)
    bad = {
        "a card in two hands": (ok[:4] + ok[:4] + ok[8:],),
        "two copies with one deck": ([2] + ok[1:],),
        "a hand too many": (ok + [0, 0, 0, 0],),
        "a mask out of range": ([1 << 27] + ok[1:],),
        "a trick of four": (ok, [0, 1, 2, 3]),
    }
    for what, head in bad.items():
        args = head + base[len(head):]
        with pytest.raises(ValueError):
            engine.test(*args)
        del what
    for i, value in ((2, 4), (3, 4), (3, -1), (4, 2), (7, 0), (7, 14), (8, 3), (12, -2), (11, -1)):
        args = list(base)
        args[i] = value
        with pytest.raises(ValueError):
            engine.test(*args)
    with pytest.raises(ValueError):
        engine.test(*base, 6, 3)         # six players: 24 masks expected
