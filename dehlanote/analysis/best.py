"""The solver's card at a table: the double-dummy best card of the seat to play (what-if play).

:func:`best_card` values each legal card of the seat to play on a
:class:`~dehlanote.replay.table.Table` with the compiled search (every hand known), within a
budget of nodes and CPU seconds, and gives the card that keeps the most for that seat's side
(the first in the table's order of legal cards among equals).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

from .position import PlayRules, Position, position_from_state
from .search import OutOfTime, Solver

__all__ = ["Best", "best_card", "why_not_solvable"]


class Best(NamedTuple):
    """The solver's answer: ``card`` (None: none, ``reason`` says why), the side's final
    score in the profile's unit after it (``value``, for the seat's side), and each legal
    card's value (the same unit)."""

    card: Optional[str]
    value: Optional[int] = None
    values: Optional[dict] = None
    reason: str = ""


def _position(table: Any) -> Optional[Position]:
    """The double-dummy position of ``table`` (None when it cannot be told)."""
    state = table.state
    done = len(state.current)
    start = table.history[-1 - done] if done < len(table.history) else None
    if start is None or start.current:
        return None
    pos = position_from_state(start)
    if pos is None:
        return None
    for play in state.current:
        pos = pos.play(play.card)
    return pos


def why_not_solvable(table: Any) -> str:
    """Why the solver cannot play at ``table`` ("": it can)."""
    if table.over:
        return "the deal is over"
    if any(table.hand(seat) is None for seat in table.seats):
        return "the solver needs every hand, and the record does not give them all: play every seat yourself"
    if _position(table) is None:
        return "the solver cannot read this position (trump not known yet, or the five-card phase)"
    return ""


def best_card(table: Any, *, seconds: Optional[float] = 5.0, nodes: Optional[int] = None,
              solver: Optional[Solver] = None) -> Best:
    """The best card for the seat to play at ``table`` (a :class:`dehlanote.Table`), double dummy.

    ``seconds`` (CPU) and ``nodes`` bound the search (None: no bound); past them the answer
    has no card and says so. ``solver``: one kept between calls of the same deal (its table
    of positions makes the next card cheap)."""
    reason = why_not_solvable(table)
    if reason:
        return Best(None, reason=reason)
    pos = _position(table)
    assert pos is not None
    game = PlayRules.of(table.rules)
    if solver is None or solver.game != game:
        solver = Solver(game)
    solver.limit(nodes, seconds)
    try:
        values = solver.card_values(pos)
    except OutOfTime:
        budget = f"{seconds:g} s" if seconds is not None else f"{nodes} nodes"
        return Best(None, reason=f"the solver found no answer within {budget}: choose the card yourself")
    except ValueError as exc:            # a position no deal reaches (a record with a wrong card before)
        return Best(None, reason=f"the solver cannot value this position ({exc}): choose the card yourself")
    finally:
        solver.limit(None, None)
    side = pos.turn % 2
    total = game.total
    mine = {card: (v if side == 0 else total - v) for card, v in values.items()}
    best = max(mine.values())
    for card in table.legal_cards():
        if mine.get(str(card)) == best:
            return Best(str(card), best, mine)
    return Best(None, reason="the solver's cards are not the table's")  # not reached: both read the same hands
