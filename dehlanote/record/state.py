"""The recorder's state and what it answers: plain values, and the text helpers they need.

:class:`State` is one moment of a recording (immutable: a line kept makes a new one, a
refused line leaves the old one); :class:`Outcome` is what became of a line, :class:`Expect`
what comes next. The helpers read and write the recorder's comment on a trick under way
(``{unfinished trick 5, not yet in the record: 7D AD}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from ..errors import DpnError
from ..output.notes import capture_text
from ..replay.core import DealState
from ..replay.engine import MatchState
from ..replay.facts import DealFact
from ..rules.profile import Rules
from ..syntax import Deal, Game, Tag

__all__ = ["INTERNAL", "Checked", "Expect", "Outcome", "RecordError", "State", "card_of", "marker", "normalise",
           "prefix_of", "trick_words", "without_marker"]

#: how a refusal caused by a fault of the recorder itself begins
INTERNAL = "internal error"


class RecordError(Exception):
    """A file that cannot be recorded into: it has errors, or its last game is over."""

    def __init__(self, message: str, errors: tuple[DpnError, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors


@dataclass(frozen=True)
class Outcome:
    """What became of one line: kept or refused, and why; what the replay said about it."""

    accepted: bool
    errors: tuple[DpnError, ...] = ()     # the coded errors that refused it, as validate reports them
    reason: str = ""                      # a refusal that is not a record error (out of order, nothing to undo)
    notes: tuple[str, ...] = ()           # what happened: a trick won, a deal scored, the match over
    saved: bool = False                   # the file's text changed: write it now


@dataclass(frozen=True)
class Expect:
    """What the session waits for: ``kind`` (dealer, trump, drawn, card, over), who, in words."""

    kind: str
    seat: Optional[str]
    text: str
    default: Optional[str] = None         # the only legal card, when the hand is known


@dataclass(frozen=True)
class State:
    """One moment of a recording: the game so far, as the file holds it."""

    tags: tuple[Tag, ...]                  # the game's tags but Result
    rules: Rules
    done: tuple[Deal, ...] = ()            # complete deals, canonical, as in the file
    done_facts: tuple[DealFact, ...] = ()
    before: tuple[MatchState, ...] = ()    # the match state before each complete deal
    match: Optional[MatchState] = None     # after the complete deals
    cur: Optional[Deal] = None             # the deal in progress (canonical, its lines as in the file)
    cur_fact: Optional[DealFact] = None
    cur_errors: tuple[DpnError, ...] = ()  # only ever a trump still to be given (missing-trump)
    partial: tuple[str, ...] = ()          # the plays of the trick in progress, canonical text
    partial_states: tuple[DealState, ...] = ()  # the core's state after each of those cards

    @property
    def partial_state(self) -> Optional[DealState]:
        """The core's state after the last card of the trick under way (None: no card yet)."""
        return self.partial_states[-1] if self.partial_states else None
    result: Optional[str] = None           # the Result once the match (or session) is over
    done_lines: tuple[str, ...] = field(default=())  # the text of the complete deals
    comments: tuple[str, ...] = ()         # the game's comments before its first tag
    result_comments: tuple[str, ...] = ()  # the comments on the Result tag (the recorder writes the tag itself)


@dataclass(frozen=True)
class Checked:
    deal: Optional[Deal]
    fact: Optional[DealFact]
    errors: tuple[DpnError, ...]
    soft: tuple[DpnError, ...]
    after: Optional[MatchState] = None


MARKER = re.compile(r"unfinished trick (\d+), not yet in the record: ([^{}]+)")


NOTE = re.compile(r"unfinished trick (\d+), comment after card (\d+): (.*)", re.DOTALL)
COMMENT = re.compile(r"\{([^}]*)\}")     # a comment; its text in group 1


def marker(number: int, plays: tuple[str, ...]) -> str:
    cards = " ".join(p.split("{", 1)[0].strip() for p in plays)
    return f"unfinished trick {number}, not yet in the record: {cards}"


def marker_notes(number: int, plays: tuple[str, ...]) -> list[str]:
    """The comments typed on the cards of the trick under way, one comment each after the
    marker (a comment cannot hold another one's closing brace): saved with the cards, so a
    recorder stopped mid-trick loses none of them."""
    return [f"unfinished trick {number}, comment after card {k}: {text}"
            for k, play in enumerate(plays, 1) for text in COMMENT.findall(play)]


def _with_notes(cards: str, notes: list[tuple[int, str]]) -> str:
    """The marker's cards with the comments put back after their cards (a play is its
    corrections, ``-7C``, then its card)."""
    plays: list[str] = []
    held: list[str] = []
    for word in cards.split():
        held.append(word)
        if not word.startswith("-"):
            plays.append(" ".join(held))
            held = []
    if held:
        plays.append(" ".join(held))
    for k, text in notes:
        if 1 <= k <= len(plays):
            plays[k - 1] += " {" + text + "}"
    return " ".join(plays)


def without_marker(game: Game) -> tuple[Game, Optional[tuple[int, str]]]:
    """The game without the recorder's comment on the trick under way, and what it held."""
    if not game.deals:
        return game, None
    deal = game.deals[-1]
    found: list[tuple[int, str]] = []
    notes: list[tuple[int, str]] = []

    def clean(comments: tuple[str, ...]) -> tuple[str, ...]:
        # the recorder's marker is the last of them but its notes: a comment written like it
        # earlier (by hand) stays a comment, and never takes the place of the cards it holds
        at = max((i for i, c in enumerate(comments) if MARKER.fullmatch(c.strip())), default=None)
        if at is None:
            return comments
        m = MARKER.fullmatch(comments[at].strip())
        assert m is not None
        number = int(m.group(1))
        tail = [NOTE.fullmatch(c.lstrip()) for c in comments[at + 1:]]
        if not all(n is not None and int(n.group(1)) == number for n in tail):
            return comments     # something else after it: not the recorder's
        found.append((number, m.group(2).strip()))
        notes.extend((int(n.group(2)), n.group(3)) for n in tail if n is not None)
        return comments[:at]

    if deal.tricks:
        trick = deal.tricks[-1]
        plays = trick.plays[:-1] + (trick.plays[-1]._replace(comments=clean(trick.plays[-1].comments)),)
        deal = deal._replace(tricks=deal.tricks[:-1] + (trick._replace(plays=plays),))
    elif deal.trump is not None:
        deal = deal._replace(trump=deal.trump._replace(comments=clean(deal.trump.comments)))
    elif deal.hands:
        hand = deal.hands[-1]
        deal = deal._replace(hands=deal.hands[:-1] + (hand._replace(comments=clean(hand.comments)),))
    elif deal.misdeals:
        m = deal.misdeals[-1]
        deal = deal._replace(misdeals=deal.misdeals[:-1] + (m._replace(comments=clean(m.comments)),))
    else:
        deal = deal._replace(comments=clean(deal.comments))
    if not found:
        return game, None
    return game._replace(deals=game.deals[:-1] + (deal,)), (found[0][0], _with_notes(found[0][1], notes))


#: what a typed line holds as written: a tag's value in quotes, a comment in braces (to its end
#: when never closed)
_AS_WRITTEN = re.compile(r'"(?:[^"\\]|\\.)*"?|\{[^}]*\}?')


def normalise(line: str) -> str:
    """A typed line as the notation reads it: emoji selectors dropped, commas as spaces, outside
    a tag's value and a comment (``[Event "Friday club, table 3"]`` lost its comma, and a
    comment its emoji's selector)."""
    out: list[str] = []
    at = 0
    for m in _AS_WRITTEN.finditer(line):
        out.append(_loose(line[at:m.start()]))
        out.append(m.group())
        at = m.end()
    out.append(_loose(line[at:]))
    return "".join(out).strip()


def _loose(part: str) -> str:
    """Words of a typed line: emoji selectors dropped, a comma a space (as the reader takes it)."""
    return part.replace("\ufe0f", "").replace("\ufe0e", "").replace(",", " ")


def card_of(play: str) -> str:
    """The card a canonical play text ends on (``-7C 8H!`` -> ``8H``)."""
    words = [w for w in play.split("{", 1)[0].split() if not w.startswith("-")]
    return words[-1].rstrip("!?") if words else ""


def prefix_of(text: str) -> str:
    return text.rstrip("\n") + "\n" if text.strip() else ""


def trick_words(trick, rules: Rules) -> str:
    text = f"trick {trick.number}: {trick.winner} wins"
    if trick.capture is not None:
        text += f"; {capture_text(trick.capture)}"
    if rules.capture == "centre":
        text += f"; centre {trick.centre_cards} cards" + (f" ({' '.join(trick.centre_tens)})"
                                                          if trick.centre_tens else "")
    return text
