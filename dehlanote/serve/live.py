"""A table's record as the replay page's data, the trick under way included.

The record holds whole tricks only (the cards of the trick under way wait in a comment), so
the page's data is the ``html`` command's over the record, plus that trick: its cards so
far, with ``u`` (the number of cards a whole trick holds) saying it is not finished, no
winner and no story yet.
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_, speaking, speaking_words as _
from ..output.html.data import game_data
from ..deck import seats_for
from ..record.state import without_marker
from ..replay import replay_game
from ..syntax import parse_string
from .tables import Table
from .view import hidden_trump, known_trump, partial_cards

__all__ = ["live_games"]


def live_games(table: Table, lang: str = "en") -> list[dict[str, Any]]:
    """The replay page's data of the table's game, its story in ``lang``."""
    with speaking(lang):
        return _live_games(table)


def _live_games(table: Table) -> list[dict[str, Any]]:
    session = table.session
    games = parse_string(session.game_text(), keep_source=True)
    if not games:
        return []
    game, _held = without_marker(games[-1])    # the trick under way is added below, not as a comment
    facts = replay_game(game, session.reg)
    data = game_data(facts, 1)
    partial = partial_cards(session)
    state = session.state
    if partial and data.get("deals") and state.cur is not None:
        deal = data["deals"][-1]
        under = session.trick_under_way()     # (its number, its cards so far with their seats)
        if under is not None:
            seats = seats_for(session.rules.seats)[:session.rules.seats]
            lead = seats.index(under[1][0][0])
            order = "".join(seats[(lead + k) % len(seats)] for k in range(len(seats)))
            last = deal["tricks"][-1] if deal["tricks"] else None
            centre = last["c"] if last is not None else [0, []]
            tens = last["d"] if last is not None else {s: 0 for s in data.get("sides", ())}
            deal["tricks"].append({
                "n": under[0], "l": order[0], "o": order, "p": [[c] for c in partial],
                "w": None, "c": centre, "x": None, "r": 0, "t": known_trump(session), "s": [],
                "d": tens, "u": len(order),
            })
            deal["unplayed"] = []
    setter = hidden_trump(session)
    if setter is not None and data.get("deals"):
        # a closed trump not yet revealed: its suit is the setter's secret (the replay page showed
        # it in the deal's heading, in the setter's view and in the what-if's data, to anyone)
        deal = data["deals"][-1]
        said = _("closed trump set by {seat}, not yet revealed").format(seat=setter)
        deal["head"] = str(deal.get("head", "")).replace(str(deal.get("trump", "")), said)
        deal["trump"] = said
        deal["secret"] = None
        deal["wi"] = N_("what-if is not offered on this page")
    return [data]
