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

from itertools import repeat
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
    """The rows of every staging table (name -> a list of row tuples, columns as :data:`COLUMNS`).

    Rows are tuples (one ``append`` a row; the tricks of a deal in one ``extend`` of a ``zip``),
    turned into columns once a batch by :meth:`columns`: measured, a third of the time of
    appending to one list a column.
    """

    def __init__(self) -> None:
        self.tables: dict[str, list[tuple[Any, ...]]] = {t: [] for t in COLUMNS}
        self.games = 0
        self.deals = 0
        self.errors = 0

    def columns(self, name: str) -> dict[str, list[Any]]:
        """The table ``name`` as columns (name -> values)."""
        rows = self.tables[name]
        if not rows:
            return {c: [] for c in COLUMNS[name]}
        return {c: list(v) for c, v in zip(COLUMNS[name], zip(*rows))}

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
        t["games"].append((
            g, number, game.line, rules.label() if rules is not None else None, n if rules is not None else None,
            game.tag("Event"), game.tag("Site"), date_text, iso, season, sort_date, game.tag("Result"),
            result.winner if result is not None and result.finished else None,
            bool(result.finished) if result is not None and result.finished is not None else None,
            len(facts.deals), len(errors)))
        if rules is not None:
            t["seats"].extend((g, seat, side_of(seat, n), _name(game, seat)) for seat in seats)
        for deal in facts.deals:
            self._deal(g, deal, n)
        t["errors"].extend((g, e.code, e.message, e.line, e.column, e.deal, e.trick) for e in errors)

    def _deal(self, g: int, deal: DealFact, n: int) -> None:
        t = self.tables
        tf = deal.trump
        suit = tf.suit if tf is not None else None
        if tf is not None and suit is None and tf.drawn:
            suit = tf.drawn[-1]
        kot, streak, claim = deal.kot, deal.streak, deal.claim
        number = deal.number
        t["deals"].append((
            g, number, deal.deal.line, deal.dealer, deal.misdeals, suit, tf.by if tf is not None else None,
            tf.method if tf is not None else None, tf.trick if tf is not None else None,
            tf.closed if tf is not None else None, deal.complete, deal.winner, kot.side if kot else None,
            kot.reason if kot else None, streak.side if streak else None, streak.length if streak else None,
            deal.next_dealer, len(deal.tricks), claim.by if claim else None, deal.ends_match))
        first, second = seats_for(n)[0::2], seats_for(n)[1::2]
        tens, points = deal.tens, deal.points
        t["deal_sides"].append((g, number, first, tens.get(first) if deal.complete else None,
                                points.get(first) if points else None))
        t["deal_sides"].append((g, number, second, tens.get(second) if deal.complete else None,
                                points.get(second) if points else None))
        tricks = deal.tricks
        if not tricks and claim is None:
            return
        count = len(tricks)
        # comprehensions, not map(attrgetter(...)): ten times quicker on these tuples (measured)
        plays = [tk.trick.plays for tk in tricks]
        cards = [[p.card for p in ps] for ps in plays]
        withdrawn = [[[w.card for w in p.withdrawn] for p in ps] if any([p.withdrawn for p in ps]) else None
                     for ps in plays]
        t["tricks"].extend(zip(
            repeat(g, count), repeat(number, count), [tk.number for tk in tricks], [tk.leader for tk in tricks],
            [tk.winner for tk in tricks], [tk.trump for tk in tricks], [tk.centre_cards for tk in tricks],
            [len(tk.centre_tens) for tk in tricks], [tk.run for tk in tricks], [tk.order for tk in tricks], cards,
            [[p.line for p in ps] for ps in plays], [[p.column for p in ps] for ps in plays], withdrawn))
        ca = t["captures"]
        waiting: list[list[Any]] = []     # tens played and not yet taken: [ten, seat, trick, won_by]
        for tk, cs in zip(tricks, cards):
            for seat, card in zip(tk.order, cs):
                if card[0] == "1":        # the only rank that starts with 1 is 10
                    waiting.append([card, seat, tk.number, tk.winner])
            cap = tk.capture
            if cap is not None:
                ca.append((g, number, tk.number, cap.by, cap.side, cap.cards, len(cap.tens), list(cap.tens),
                           cap.reason))
                if cap.tens:
                    waiting = self._taken(g, number, waiting, cap.tens, cap.by, cap.side, tk.number, cap.reason)
        if claim is not None:
            ca.append((g, number, claim.trick, claim.by, claim.side, claim.cards, len(claim.tens), list(claim.tens),
                       "claim"))
            waiting = self._taken(g, number, waiting, claim.tens, claim.by, claim.side, claim.trick, "claim")
        # never taken (an unfinished deal)
        t["tens"].extend((g, number, card, seat, played, won_by, None, None, None, None)
                         for card, seat, played, won_by in waiting)

    def _taken(self, g: int, deal: int, waiting: list[list[Any]], tens: tuple[str, ...], by: str, side: str,
               trick: int, reason: str) -> list[list[Any]]:
        """Rows for the tens a capture took (each matched with the first such ten waiting: six
        players have three of each); a ten taken that was never played (a claim takes the
        cards still in hand) gets no player."""
        te = self.tables["tens"]
        for ten in tens:
            for i, w in enumerate(waiting):
                if w[0] == ten:
                    te.append((g, deal, ten, w[1], w[2], w[3], by, side, trick, reason))
                    del waiting[i]
                    break
            else:
                te.append((g, deal, ten, None, None, None, by, side, trick, reason))
        return waiting


def _name(game: Game, seat: str) -> Optional[str]:
    name = game.tag(seat)
    name = name.strip() if name else None
    return name or None
