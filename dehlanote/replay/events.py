"""What playing a card causes: frozen events, in the order they happen.

:func:`dehlanote.replay.core.play_card` returns them with the new state; a
:class:`~dehlanote.replay.table.Table` returns them from ``play``. A deal's end adds the
score and the match's events (:func:`deal_events`). Sides are
``AC``/``BD`` (``ACE``/``BDF`` at six), seats letters.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Union

__all__ = ["CardPlayed", "TrumpSet", "TrumpRevealed", "TrickWon", "CentreTaken", "TenChangedSides",
           "DealScored", "StreakChanged", "KotWon", "NextDealer", "MatchOver", "Event", "deal_events"]


class CardPlayed(NamedTuple):
    seat: str
    card: str
    trick: int
    place: int                 # the card's place in the trick, 0: the lead


class TrumpSet(NamedTuple):
    suit: Optional[str]        # None: chosen in secret (closed trump), or not stated
    by: Optional[str]
    trick: Optional[int]       # None: before play
    how: str                   # announced | first-void | drawn | secret


class TrumpRevealed(NamedTuple):
    suit: Optional[str]        # None when the record does not say which suit
    by: str
    trick: int


class TrickWon(NamedTuple):
    trick: int
    winner: str
    leader: str
    cards: tuple[str, ...]     # in playing order


class CentreTaken(NamedTuple):
    seat: str
    side: str
    cards: int
    tens: tuple[str, ...]
    reason: str                # two-in-a-row | last-trick | trick (immediate capture) | claim


class TenChangedSides(NamedTuple):
    """A ten won in a trick by one side and taken into the other side's pile."""

    ten: str
    won_by: str                # the side whose player won the trick the ten fell in
    taken_by: str              # the side that captured it
    trick: int                 # the trick the ten was played in


class DealScored(NamedTuple):
    number: int
    winner: Optional[str]      # None: level with no result, or the deal's outcome unknown
    tens: dict[str, int]
    points: dict[str, int]     # double-sar points, court-piece tricks, or {}
    complete: bool


class StreakChanged(NamedTuple):
    side: Optional[str]        # None: no streak (restarted after a kot, or unknown)
    length: int


class KotWon(NamedTuple):
    side: str
    reason: str                # all-tens | streak | all-tricks


class NextDealer(NamedTuple):
    seat: Optional[str]        # None: not known (the deal's outcome is unknown)
    reason: str


class MatchOver(NamedTuple):
    winner: Optional[str]      # None: level


Event = Union[CardPlayed, TrumpSet, TrumpRevealed, TrickWon, CentreTaken, TenChangedSides, DealScored,
              StreakChanged, KotWon, NextDealer, MatchOver]


def deal_events(fact: Any) -> tuple:
    """A replayed deal's end as events: the score, the run the next deal continues, a kot,
    the next dealer, the end of the match (the last two only when they are known)."""
    events: list = [DealScored(fact.number, fact.winner, dict(fact.tens), dict(fact.points), fact.complete)]
    if fact.complete:
        if fact.next_streak_known:
            streak = fact.next_streak
            events.append(StreakChanged(streak.side if streak else None, streak.length if streak else 0))
        if fact.kot is not None:
            events.append(KotWon(fact.kot.side, fact.kot.reason))
        if fact.ends_match:
            winner = fact.kot.side if fact.kot is not None else fact.winner
            events.append(MatchOver(winner))
        elif fact.next_dealer is not None:
            events.append(NextDealer(fact.next_dealer, fact.next_dealer_reason))
    return tuple(events)
