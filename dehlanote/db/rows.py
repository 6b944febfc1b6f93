"""Replayed games as table rows: the facts of :mod:`dehlanote.replay` flattened, nothing re-ruled.

:class:`Rows` holds one list per column for each table of the database (see
:mod:`dehlanote.db.schema`); :meth:`Rows.add` appends the rows of one replayed game. Every
value is read off the replayer's facts (``GameFacts``, ``DealFact``, ``TrickFact`` and its
``Capture``): who won each trick, what each capture took, who won the deal and how.

The cards go to :attr:`Rows.plays`, one flat list a column (one ``extend`` a deal and a
column, never a Python row a card): measured on 20,000 deals against one list of cards a
trick that the database unnested, the rows and their Arrow tables took 25 % less time and
the database's insert of the plays 3 times less. Games are numbered from 0 within a batch
(``g``); the builder adds the database's next game id.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import accumulate, chain, repeat
from typing import Any, NamedTuple, Optional, Sequence

from ..analysis.judge import claim_judge
from ..batch import pool
from ..deck import seats_for, side_of
from ..errors import DpnError
from ..replay.facts import DealFact, GameFacts
from ..replay.game import replay_game
from ..rules.profile import Registry
from ..stats import date_parts, player_name
from ..syntax.parser import parse_chunk
from ..syntax.reader import Chunk

__all__ = ["COLUMNS", "KINDS", "Batch", "Coded", "Rows", "batch_of_chunks", "date_parts", "packed", "worker_batch"]

#: the columns each staging table gets from Python (``g`` is the game's index in the batch)
COLUMNS: dict[str, tuple[str, ...]] = {
    "games": ("g", "number", "line", "rules", "seats", "event", "site", "date_text", "date", "season", "sort_date",
              "result_tag", "winner", "finished", "deals", "errors"),
    "seats": ("g", "seat", "side", "player"),
    "deals": ("g", "deal", "line", "dealer", "misdeals", "trump", "trump_by", "trump_method", "trump_trick",
              "trump_closed", "complete", "winner", "kot_side", "kot_reason", "streak_side", "streak_length",
              "next_dealer", "tricks", "claim_by", "ends_match"),
    "deal_sides": ("g", "deal", "side", "tens", "points"),
    "tricks": ("g", "deal", "trick", "leader", "winner", "trump", "centre_cards", "centre_tens", "run"),
    "plays": ("g", "deal", "trick", "position", "seat", "card", "line", "col", "withdrawn"),
    "captures": ("g", "deal", "trick", "by_seat", "side", "cards", "tens", "ten_cards", "reason"),
    "tens": ("g", "deal", "ten", "played_by", "trick", "won_by", "taken_by", "taken_side", "taken_trick", "reason"),
    "errors": ("g", "code", "message", "line", "col", "deal", "trick"),
}

#: how each column of :data:`COLUMNS` travels from a worker (a letter a column, see :func:`packed`):
#: ``i`` whole numbers (one ``array('i')``, its bytes pickled at once), ``c`` values of a few kinds
#: (seats, sides, cards, reasons: a code a row and the distinct values), ``s`` text, ``b`` booleans,
#: ``l`` lists of text (``s``, ``b``, ``l``: plain lists)
KINDS: dict[str, str] = {
    "games": "iiisissssisscbii",
    "seats": "iccs",
    "deals": "iiicicccibbccccicicb",
    "deal_sides": "iicii",
    "tricks": "iiiccciii",
    "plays": "iiiicciil",
    "captures": "iiicciilc",
    "tens": "iiccicccic",
    "errors": "issiiii",
}
assert all(len(KINDS[t]) == len(c) for t, c in COLUMNS.items())
assert array("i").itemsize == 4         # (the builder reads these bytes as Arrow int32)


class Coded(NamedTuple):
    """A column as one code a row (``array('i')``) and the distinct values, ``values[code]``."""

    codes: "array[int]"
    values: list[Any]


class _Codes(dict):
    def __missing__(self, value: Any) -> int:
        self[value] = code = len(self)
        return code


def packed(values: list[Any], kind: str) -> Any:
    """A column as a worker sends it (:data:`KINDS`): whole numbers as ``array('i')`` (a
    column holding a null or a number past 32 bits stays a list), ``c`` as :class:`Coded`, the
    rest as they are. Pickled, an array is its bytes, and the builder makes Arrow arrays of
    them without a Python object a value (measured, see docs/db.md: the builder's CPU a
    third less)."""
    if kind == "i":
        try:
            return array("i", values)
        except (TypeError, OverflowError):
            return values
    if kind == "c":
        codes = _Codes()
        return Coded(array("i", [codes[v] for v in values]), list(codes))
    return values


#: the positions of the cards of a trick of four, of six
_POSITIONS = {4: (0, 1, 2, 3), 6: (0, 1, 2, 3, 4, 5)}


class Rows:
    """The rows of every staging table, columns as :data:`COLUMNS`: ``plays`` one list a column
    (:attr:`plays`), every other table a list of row tuples (:attr:`tables`).

    Rows are tuples (one ``append`` a row; the tricks of a deal in one ``extend``), turned into
    columns once a batch by :meth:`columns`: measured, a third of the time of appending to one
    list a column a row. The plays, 52 a deal, are columns from the start (see the module).
    """

    def __init__(self) -> None:
        self.tables: dict[str, list[tuple[Any, ...]]] = {t: [] for t in COLUMNS if t != "plays"}
        self.plays: dict[str, list[Any]] = {c: [] for c in COLUMNS["plays"]}
        self.games = 0
        self.deals = 0
        self.errors = 0

    def __len__(self) -> int:
        return len(self.plays["g"]) + sum(len(rows) for rows in self.tables.values())

    def columns(self, name: str) -> dict[str, list[Any]]:
        """The table ``name`` as columns (name -> values)."""
        if name == "plays":
            return self.plays
        rows = self.tables[name]
        if not rows:
            return {c: [] for c in COLUMNS[name]}
        return {c: list(v) for c, v in zip(COLUMNS[name], zip(*rows))}

    def packed(self, name: str) -> dict[str, Any]:
        """The table ``name`` as a worker sends it: each column :func:`packed`."""
        return {c: packed(v, k) for (c, v), k in zip(self.columns(name).items(), KINDS[name])}

    def names(self) -> list[str]:
        """The tables that hold rows."""
        return [name for name in COLUMNS if (self.plays["g"] if name == "plays" else self.tables[name])]

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
            t["seats"].extend((g, seat, side_of(seat, n), player_name(game, seat)) for seat in seats)
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
        t["tricks"].extend([(g, number, tk.number, tk.leader, tk.winner, tk.trump, tk.centre_cards,
                             len(tk.centre_tens), tk.run) for tk in tricks])
        # the plays, one extend a column (comprehensions, not map(attrgetter(...)): ten times
        # quicker on these tuples, measured)
        plays = [tk.trick.plays for tk in tricks]
        every = [p for ps in plays for p in ps]
        cards = [p.card for p in every]
        k = len(cards)
        pc = self.plays
        pc["g"].extend(repeat(g, k))
        pc["deal"].extend(repeat(number, k))
        pc["trick"].extend(chain.from_iterable([repeat(tk.number, len(ps)) for tk, ps in zip(tricks, plays)]))
        pc["position"].extend(chain.from_iterable([_POSITIONS.get(len(ps)) or range(len(ps)) for ps in plays]))
        pc["seat"].extend(chain.from_iterable([tk.order if len(tk.order) == len(ps) else _fit(tk.order, len(ps))
                                               for tk, ps in zip(tricks, plays)]))
        pc["card"].extend(cards)
        pc["line"].extend([p.line for p in every])
        pc["col"].extend([p.column for p in every])
        if any([p.withdrawn for p in every]):
            pc["withdrawn"].extend([[w.card for w in p.withdrawn] if p.withdrawn else None for p in every])
        else:
            pc["withdrawn"].extend(repeat(None, k))
        # each ten played waits for the capture that takes it (the only rank that starts with 1 is 10)
        ca = t["captures"]
        ten_at = [i for i, card in enumerate(cards) if card[0] == "1"]
        ends = list(accumulate([len(ps) for ps in plays]))
        where = [bisect_right(ends, i) for i in ten_at]      # the trick (its index) of each
        seat_of = pc["seat"]
        waiting: list[list[Any]] = []     # tens played and not yet taken: [ten, seat, trick, won_by]
        next_ten = 0
        for j, tk, cap in [(j, tk, tk.capture) for j, tk in enumerate(tricks) if tk.capture is not None]:
            assert cap is not None
            while next_ten < len(ten_at) and where[next_ten] <= j:
                i, w = ten_at[next_ten], tricks[where[next_ten]]
                waiting.append([cards[i], seat_of[i - k], w.number, w.winner])
                next_ten += 1
            ca.append((g, number, tk.number, cap.by, cap.side, cap.cards, len(cap.tens), list(cap.tens),
                       cap.reason))
            if cap.tens:
                waiting = self._taken(g, number, waiting, cap.tens, cap.by, cap.side, tk.number, cap.reason)
        for i, j in zip(ten_at[next_ten:], where[next_ten:]):
            waiting.append([cards[i], seat_of[i - k], tricks[j].number, tricks[j].winner])
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


def _fit(order: str, count: int) -> list[Optional[str]]:
    """The seats of ``count`` cards played in ``order`` (none for a card past the seats)."""
    return [order[i] if i < len(order) else None for i in range(count)]


class Batch(NamedTuple):
    """The rows of a batch of games as columns (table -> column -> values, :func:`packed`), and its counts."""

    tables: dict[str, dict[str, Any]]
    games: int
    deals: int
    errors: int


def batch_of_chunks(chunks: Sequence[Chunk], reg: Registry) -> Batch:
    """Parse and replay ``chunks``: their rows, as columns of plain values and arrays of numbers
    (:func:`packed`, what a worker sends back: no Arrow in the workers, whose memory stays that
    of the reader and replayer)."""
    rows = Rows()
    for chunk in chunks:
        for game in parse_chunk(chunk):
            # claims judged as validate judges them; the hands as dealt are not stored
            facts = replay_game(game, reg, dealt_hands=False, judge=claim_judge)
            rows.add(facts, rows.games + 1)
    return Batch({name: rows.packed(name) for name in rows.names()}, rows.games, rows.deals, rows.errors)


def worker_batch(chunks: list[Chunk]) -> Batch:
    """:func:`batch_of_chunks` in a worker of the validate pool (its registry loaded once)."""
    reg = pool._worker_registry
    assert reg is not None
    return batch_of_chunks(chunks, reg)
