"""Replayed games as table rows: the facts of :mod:`dehlanote.replay` flattened, nothing re-ruled.

:class:`Rows` holds one list per column for each table of the database (see
:mod:`dehlanote.db.schema`); :meth:`Rows.add` appends the rows of one replayed game. Every
value is read off the replayer's facts (``GameFacts``, ``DealFact``, ``TrickFact`` and its
``Capture``): who won each trick, what each capture took, who won the deal and how.

The cards themselves go one list a trick (``tricks.cards``); the database turns them into
the ``plays`` table (one row a card) with one ``unnest`` (many times quicker than a Python
row a card). Games are numbered from 0 within a batch (``g``); the builder adds the
database's next game id.
"""

from __future__ import annotations

from typing import Any, Optional

from ..deck import seats_for, side_of
from ..errors import DpnError
from ..replay.facts import DealFact, GameFacts
from ..stats import date_parts
from ..syntax.model import Game

__all__ = ["COLUMNS", "Rows", "date_parts"]

#: the columns each staging table gets from Python (``g`` is the game's index in the batch)
COLUMNS: dict[str, tuple[str, ...]] = {
    "games": ("g", "number", "line", "rules", "seats", "event", "site", "date_text", "date", "season", "sort_date",
              "result_tag", "winner", "finished", "deals", "errors"),
    "seats": ("g", "seat", "side", "player"),
    "deals": ("g", "deal", "line", "dealer", "misdeals", "trump", "trump_by", "trump_method", "trump_trick",
              "trump_closed", "complete", "winner", "kot_side", "kot_reason", "streak_side", "streak_length",
              "next_dealer", "tricks", "claim_by", "ends_match"),
    "deal_sides": ("g", "deal", "side", "tens", "points"),
    "tricks": ("g", "deal", "trick", "leader", "winner", "trump", "centre_cards", "centre_tens", "run", "seats",
               "cards", "lines", "cols", "withdrawn"),
    "captures": ("g", "deal", "trick", "by_seat", "side", "cards", "tens", "ten_cards", "reason"),
    "tens": ("g", "deal", "ten", "played_by", "trick", "won_by", "taken_by", "taken_side", "taken_trick", "reason"),
    "errors": ("g", "code", "message", "line", "col", "deal", "trick"),
}

class Rows:
    """Column lists for every staging table (name -> column -> values)."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, list[Any]]] = {t: {c: [] for c in cols} for t, cols in COLUMNS.items()}
        self.games = 0
        self.deals = 0
        self.errors = 0

    def add(self, facts: GameFacts, number: int, errors: tuple[DpnError, ...] = ()) -> None:
        """The rows of one replayed game, ``number`` its place in its file (1-based);
        ``errors`` the game's errors located in the file (default: ``facts.errors``)."""
        g = self.games
        self.games += 1
        game = facts.game
        rules = facts.rules
        n = rules.seats if rules is not None else 4
        seats = seats_for(n)[:n]
        errors = errors or facts.errors
        self.deals += len(facts.deals)
        self.errors += len(errors)
        date_text = game.tag("Date")
        iso, season, sort_date = date_parts(date_text)
        result = facts.result
        t = self.tables
        _append(t["games"], g, number, game.line, rules.label() if rules is not None else None,
                n if rules is not None else None, game.tag("Event"), game.tag("Site"), date_text, iso, season,
                sort_date, game.tag("Result"), result.winner if result is not None and result.finished else None,
                bool(result.finished) if result is not None and result.finished is not None else None,
                len(facts.deals), len(errors))
        if rules is not None:
            for seat in seats:
                _append(t["seats"], g, seat, side_of(seat, n), _name(game, seat))
        for deal in facts.deals:
            self._deal(g, deal, n)
        ec = t["errors"]
        for e in errors:
            _append(ec, g, e.code, e.message, e.line, e.column, e.deal, e.trick)

    def _deal(self, g: int, deal: DealFact, n: int) -> None:
        t = self.tables
        tf = deal.trump
        suit = tf.suit if tf is not None else None
        if tf is not None and suit is None and tf.drawn:
            suit = tf.drawn[-1]
        kot, streak, claim = deal.kot, deal.streak, deal.claim
        _append(t["deals"], g, deal.number, deal.deal.line, deal.dealer, deal.misdeals, suit,
                tf.by if tf is not None else None, tf.method if tf is not None else None,
                tf.trick if tf is not None else None, tf.closed if tf is not None else None,
                deal.complete, deal.winner, kot.side if kot else None, kot.reason if kot else None,
                streak.side if streak else None, streak.length if streak else None, deal.next_dealer,
                len(deal.tricks), claim.by if claim else None, deal.ends_match)
        ds = t["deal_sides"]
        for side in (seats_for(n)[0::2], seats_for(n)[1::2]):
            _append(ds, g, deal.number, side, deal.tens.get(side) if deal.complete else None,
                    deal.points.get(side) if deal.points else None)
        tr, ca, te = t["tricks"], t["captures"], t["tens"]
        waiting: list[list[Any]] = []     # tens played and not yet taken: [ten, seat, trick, won_by]
        for trick in deal.tricks:
            plays = trick.trick.plays
            cards = [p.card for p in plays]
            withdrawn = [[w.card for w in p.withdrawn] for p in plays] if any(p.withdrawn for p in plays) else None
            _append(tr, g, deal.number, trick.number, trick.leader, trick.winner, trick.trump, trick.centre_cards,
                    len(trick.centre_tens), trick.run, trick.order, cards, [p.line for p in plays],
                    [p.column for p in plays], withdrawn)
            for seat, card in zip(trick.order, cards):
                if card.startswith("10"):
                    waiting.append([card, seat, trick.number, trick.winner])
            cap = trick.capture
            if cap is not None:
                _append(ca, g, deal.number, trick.number, cap.by, cap.side, cap.cards, len(cap.tens),
                        list(cap.tens), cap.reason)
                waiting = self._taken(g, deal.number, waiting, cap.tens, cap.by, cap.side, trick.number, cap.reason)
        if claim is not None:
            _append(ca, g, deal.number, claim.trick, claim.by, claim.side, claim.cards, len(claim.tens),
                    list(claim.tens), "claim")
            waiting = self._taken(g, deal.number, waiting, claim.tens, claim.by, claim.side, claim.trick, "claim")
        for card, seat, number, won_by in waiting:          # never taken (an unfinished deal)
            _append(te, g, deal.number, card, seat, number, won_by, None, None, None, None)

    def _taken(self, g: int, deal: int, waiting: list[list[Any]], tens: tuple[str, ...], by: str, side: str,
               trick: int, reason: str) -> list[list[Any]]:
        """Rows for the tens a capture took (each matched with the first such ten waiting: six
        players have three of each); a ten taken that was never played (a claim takes the
        cards still in hand) gets no player."""
        te = self.tables["tens"]
        for ten in tens:
            for i, w in enumerate(waiting):
                if w[0] == ten:
                    _append(te, g, deal, ten, w[1], w[2], w[3], by, side, trick, reason)
                    del waiting[i]
                    break
            else:
                _append(te, g, deal, ten, None, None, None, by, side, trick, reason)
        return waiting


def _name(game: Game, seat: str) -> Optional[str]:
    name = game.tag(seat)
    name = name.strip() if name else None
    return name or None


def _append(table: dict[str, list[Any]], *values: Any) -> None:
    for column, value in zip(table.values(), values):
        column.append(value)
