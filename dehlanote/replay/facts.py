"""What a replay establishes: frozen facts per play, trick, deal and game.

These are the replayer's output and the input of every renderer (JSON, annotate, the
stepper, the canonical writer's filled-in form). They refer back to the model nodes they
came from, so a renderer can show where each fact was written.
"""

from __future__ import annotations

from operator import attrgetter
from types import ModuleType
from typing import Any, Callable, NamedTuple, Optional, Sequence

from ..deck import CARD_INDEX
from ..errors import DpnError
from ..rules.profile import Rules
from ..syntax.model import Deal, Game, Play, Trick
from .events import deal_events


_CARD = attrgetter("card")

_cplay: Optional[ModuleType]
try:
    from . import _cplay        # DealFact.hands's columns compiled (core.py gives it its tables)
except ImportError:             # pragma: no cover - the Python code then
    _cplay = None


class PlayFact(NamedTuple):
    seat: str
    card: str
    play: Play


class Capture(NamedTuple):
    """Cards leaving the centre (or a trick, under immediate capture) for a side's pile."""

    by: str
    side: str
    cards: int
    tens: tuple[str, ...]
    reason: str          # two-in-a-row | last-trick | trick


class TrickFact(NamedTuple):
    number: int
    leader: str
    order: str                    # the seats in playing order, from the leader
    winner: str
    trump: Optional[str]          # the suit in force when the trick was won
    centre_cards: int             # the centre after this trick
    centre_tens: tuple[str, ...]
    capture: Optional[Capture]
    run: int                      # the winner's count of consecutive wins after this trick
    trick: Trick

    @property
    def plays(self) -> tuple[PlayFact, ...]:
        """Each card with the seat that played it (made on demand: bulk checking never asks)."""
        return tuple(PlayFact(seat, p.card, p) for seat, p in zip(self.order, self.trick.plays))


def trick_numbered(tricks: Sequence[TrickFact], number: int) -> Optional[TrickFact]:
    """The trick of ``tricks`` numbered ``number``, or None when it was not replayed. The tricks
    replayed are in order, but not always tricks 1, 2, 3 ...: a trick written with too few or
    too many cards is counted and not replayed, so the tricks after it sit one place before
    their numbers."""
    if 0 < number <= len(tricks) and tricks[number - 1].number == number:
        return tricks[number - 1]
    return next((t for t in tricks if t.number == number), None)


class TrumpFact(NamedTuple):
    suit: Optional[str]
    by: Optional[str]
    trick: Optional[int]          # where it was set (first void) or revealed (closed)
    method: str                   # the profile's trump method
    drawn: Optional[str] = None   # the card drawn when all five opening tricks were followed
    closed: bool = False
    set_at: Optional[int] = None  # closed trump chosen in secret during play (hukum): the trick
    play: Optional[int] = None    # the card (its index in trick ``trick``) that set or revealed trump
    set_play: Optional[int] = None  # the card (index in trick ``set_at``) of the secret choice


class ClaimFact(NamedTuple):
    """``claim X`` (DPN 1.1): X's side takes every trick left, the centre and every card still in hand."""

    by: str
    side: str
    line: int
    column: int
    trick: int                    # the first trick not played
    cards: int                    # cards the claim takes: the centre and those still in hand
    tens: tuple[str, ...]         # the tens among them
    sound: Optional[bool] = None  # the double-dummy check (None: not checked)


class Kot(NamedTuple):
    side: str
    reason: str                   # all-tens | streak | all-tricks


class Streak(NamedTuple):
    side: str
    length: int


class DealFact(NamedTuple):
    number: int
    dealer: Optional[str]
    misdeals: int
    dealt: dict[str, tuple[str, ...]]   # the hands written in the record, as dealt
    trump: Optional[TrumpFact]
    tricks: tuple[TrickFact, ...]
    tens: dict[str, int]                # tens captured per side (complete deals)
    tens_cards: dict[str, tuple[str, ...]]
    points: dict[str, int]              # double-sar points, court-piece tricks, or {}
    winner: Optional[str]
    kot: Optional[Kot]
    streak: Optional[Streak]
    next_dealer: Optional[str]
    complete: bool
    deal: Deal
    notes: tuple[str, ...] = ()
    ends_match: bool = False            # the match certainly ended with this deal
    claim: Optional[ClaimFact] = None   # ``claim X`` ended the deal
    rules: Optional[Rules] = None       # the rules the deal was replayed under
    #: the run the next deal continues (None: none, as after a kot that restarts the count),
    #: and whether it is known (not after a deal whose outcome is unknown, until a side wins)
    next_streak: Optional[Streak] = None
    next_streak_known: bool = True
    next_dealer_reason: str = ""        # why the next dealer deals, in words
    before: object = None               # the match state the deal started from (engine.MatchState)

    def table(self, trick: Optional[int] = None, card: Optional[int] = None) -> Any:
        """The table at the start of this deal, or before card ``card`` (1-based, default 1)
        of trick ``trick``: a :class:`dehlanote.Table` to play on from there.

        Raises:
            ValueError: the deal cannot be set up (its rules or dealer are unknown), or the
                trick or card is not in the deal as recorded.
        """
        return TABLES[0](self, trick, card)

    def events(self) -> tuple:
        """The deal's end and the match's, as events (:mod:`dehlanote.replay.events`): the
        score, the streak the next deal continues, a kot, the next dealer, the match's end."""
        return deal_events(self)

    def __repr__(self) -> str:
        """One line (the whole fact, with its model nodes, runs to pages): see ``_repr_html_``."""
        trump = self.trump.suit if self.trump is not None else None
        return (f"DealFact(number={self.number}, dealer={self.dealer!r}, trump={trump!r}, "
                f"tricks={len(self.tricks)}, tens={self.tens!r}, winner={self.winner!r}, complete={self.complete})")

    def _repr_html_(self) -> Optional[str]:
        """Jupyter's view: one row a trick, as the notebook display draws it (see :data:`DISPLAY`)."""
        draw = drawer("deal")
        return draw(self) if draw is not None else None

    @property
    def next_trick(self) -> int:
        """The number of the trick after the last one replayed (1 before any): the tricks
        replayed skip the number of a trick written with the wrong number of cards."""
        return self.tricks[-1].number + 1 if self.tricks else 1

    @property
    def unreplayed(self) -> tuple[Trick, ...]:
        """The tricks written and not replayed, in the record's order: those after the point the
        replay stopped, and any it counted and could not replay (the wrong number of cards) or
        left out (written twice)."""
        replayed = {id(t.trick) for t in self.tricks}
        return tuple(t for t in self.deal.tricks if id(t) not in replayed)

    @property
    def counted_before(self) -> dict[int, tuple[Trick, ...]]:
        """For the place of each trick replayed that follows tricks written with the wrong number
        of cards, those tricks: the replay counted them (their cards played, who won them unknown)
        and did not replay them. A trick written twice, left out, is not counted."""
        out: dict[int, tuple[Trick, ...]] = {}
        written = iter(self.deal.tricks)
        done = 0
        for i, t in enumerate(self.tricks):
            counted: list[Trick] = []
            for w in written:
                if w is t.trick:
                    break
                if len(w.plays) != len(t.order) and done + len(counted) + 1 < t.number:
                    counted.append(w)
            if counted:
                out[i] = tuple(counted)
            done = t.number
        return out

    @property
    def skipped_trick(self) -> int:
        """The number of the first trick written with the wrong number of cards and followed by
        a trick replayed (0: none): no position after it can be set up from the tricks replayed
        (its cards were played, who won it is unknown)."""
        counted = self.counted_before
        if not counted:
            return 0
        first = min(counted)
        return self.tricks[first].number - len(counted[first])

    @property
    def hands(self) -> dict[str, tuple[str, ...]]:
        """The hands as dealt: as written, or for a complete deal what each seat played."""
        if not self.complete or self.claim is not None or not self.tricks:
            return dict(self.dealt)
        # every trick replayed holds one card of every seat: each trick's plays turned to
        # seat order (A first), then read seat by seat
        seats = "".join(sorted(self.tricks[0].order))
        if _cplay is not None:      # the same columns, sorted, made in C (NotImplemented: anything unusual)
            columns = _cplay.hands(self.tricks, seats)
            if columns is not NotImplemented:
                return {seat: self.dealt.get(seat) or column for seat, column in zip(seats, columns)}
        n = len(seats)
        rows = []
        for t in self.tricks:
            plays = t.trick.plays
            cut = n - seats.index(t.leader)
            rows.append(plays[cut:] + plays[:cut])
        key = CARD_INDEX.__getitem__
        return {seat: self.dealt.get(seat) or tuple(sorted(map(_CARD, column), key=key))
                for seat, column in zip(seats, zip(*rows))}


class ResultFact(NamedTuple):
    winner: Optional[str]
    kots: dict[str, int]                # the kots stated (certain ones)
    finished: Optional[bool]            # None: unknown (a deal whose outcome is unknown may have ended it)
    points: Optional[dict[str, int]]    # coat: deal wins per side ({} otherwise; None: unknown)


class GameFacts(NamedTuple):
    game: Game
    rules: Optional[Rules]
    deals: tuple[DealFact, ...]
    result: Optional[ResultFact]
    errors: tuple[DpnError, ...]       # syntax and rule errors, in file order
    notes: tuple[str, ...] = ()
    ruled: tuple[DpnError, ...] = ()   # revokes the table ruled on (DPN 1.2 revoke lines): facts, not errors

    @property
    def ok(self) -> bool:
        return not self.errors

    def __repr__(self) -> str:
        """One line (the whole fact, with its model nodes, runs to pages): see ``_repr_html_``."""
        rules = self.rules.name if self.rules is not None else None
        winner = self.result.winner if self.result is not None else None
        return (f"GameFacts(event={self.game.tag('Event')!r}, rules={rules!r}, deals={len(self.deals)}, "
                f"winner={winner!r}, errors={len(self.errors)})")

    def _repr_html_(self) -> Optional[str]:
        """Jupyter's view: one row a deal, as the notebook display draws it (see :data:`DISPLAY`)."""
        draw = drawer("game")
        return draw(self) if draw is not None else None


#: how a front end draws the facts and a table (``game``, ``deal``, ``table`` -> a function of
#: the object giving HTML or SVG): the output layer fills it in when it loads
#: (:mod:`dehlanote.output.notebook`, :mod:`dehlanote.output.svg`), as the public API loads it;
#: the facts know nothing of drawing
DISPLAY: dict[str, Callable[[Any], str]] = {}


def drawer(kind: str) -> Optional[Callable[[Any], str]]:
    """The function that draws ``kind`` (``game``, ``deal``, ``table``); None when there is none.

    The modules that fill :data:`DISPLAY` in are loaded the first time a view is asked for and
    none is there, by the names the package gives (``dehlanote.DISPLAY_MODULES``, read from the
    package already loaded: the replay layer imports nothing above it). A notebook that imported
    only ``dehlanote.syntax`` and ``dehlanote.replay`` got no view at all: ``_repr_html_`` gave
    None until something had loaded the output layer."""
    if kind not in DISPLAY:
        import importlib
        import sys
        package = sys.modules.get(__name__.split(".")[0])
        for name in getattr(package, "DISPLAY_MODULES", ()):
            try:
                importlib.import_module(name)
            except ImportError:
                pass
    return DISPLAY.get(kind)

#: what ``DealFact.table`` calls: :meth:`dehlanote.replay.table.Table.from_deal`, put here by
#: that module as it loads (the replay package loads it), so the facts import nothing above them
TABLES: list[Callable[..., Any]] = []
