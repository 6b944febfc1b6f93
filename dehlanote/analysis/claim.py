"""Is a claim sound? ``claim X``: X's side wins every remaining trick against any defence.

Checked double dummy when every hand is known: the question is asked of the solver on the
same cards with each trick going to its winner and tricks as the score, so "X's side wins
every trick" is "X's side can reach all the tricks left". Winning every trick also takes
the centre (the last trick sweeps it), so a sound claim gives X's side everything left.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .position import PlayRules, Position, position_from_state
from .search import OutOfTime, Solver

#: card plays searched at most for one claim (a claim not decided by then is left unchecked)
CLAIM_NODES = 500_000


def claim_is_sound(pos: Position, seat: int, *, node_limit: int | None = CLAIM_NODES) -> bool:
    """Whether the side of ``seat`` can win every trick left from ``pos`` whatever the others play.

    ``pos`` must be at the start of a trick (a claim comes after the last trick played).

    Raises:
        OutOfTime: not decided within ``node_limit`` card plays.
    """
    if pos.trick:
        raise ValueError("a claim is checked at the start of a trick")
    if pos.over:
        return True
    g = pos.game
    tricks_game = PlayRules(g.seats, g.decks, immediate=True, score="tricks")
    p = replace(pos, game=tricks_game, last_winner=None, run=0, centre_tricks=0, centre_tens=0,
                tens=(0, 0), tricks=(0, 0))
    solver = Solver(tricks_game)
    solver.limit(node_limit, None)
    left = pos.left
    if seat % 2 == 0:
        return solver.at_least(p, left)
    return not solver.at_least(p, 1)


def claim_state_sound(state: Any, seat: int) -> bool | None:
    """The check for the replayer: a deal state (every hand written) at the claim.

    None when it cannot be told: a hand not written, trump not known, the five-card phase of
    ``first-void-five``, or a search too long.
    """
    pos = position_from_state(state)
    if pos is None:
        return None
    try:
        return claim_is_sound(pos, seat)
    except OutOfTime:
        return None


def _cards(hand: int) -> tuple[str, ...]:
    from ..deck import DECK
    out: list[str] = []
    for i, card in enumerate(DECK):
        out.extend([card] * ((hand >> (2 * i)) & 3))
    return tuple(out)
