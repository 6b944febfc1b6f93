"""The frozen data model of a DPN record: what was written, with where it was written.

It knows no rules: a ``Deal`` holds the tricks as written, and whether they are legal is
the replayer's business. Every node carries the 1-based ``line`` and ``column`` of its
first token so that any error can point at the token at fault.

The nodes are ``NamedTuple``s rather than frozen dataclasses: they are just as immutable
and several times cheaper to build, which matters when an archive holds millions of plays.
Cards are canonical strings (``"10H"``, ``"AS"``); see :mod:`dehlanote.deck`.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import DpnError


class Word(NamedTuple):
    """A small located value: a seat, a number, a side."""

    value: object
    line: int
    column: int


class CardRef(NamedTuple):
    """A card written somewhere that is not a play: in ``hands``, withdrawn, drawn."""

    card: str
    line: int
    column: int


class Tag(NamedTuple):
    """``[Name "value"]``."""

    name: str
    value: str
    line: int
    column: int
    comments: tuple[str, ...] = ()


class Play(NamedTuple):
    """One card played to a trick, with the cards withdrawn before it (``-X``)."""

    card: str
    line: int
    column: int
    withdrawn: tuple[CardRef, ...] = ()
    glyph: str | None = None
    comments: tuple[str, ...] = ()


class Trick(NamedTuple):
    """``N X: c c c c``: the number as written, the leader if written, the plays in order."""

    number: int
    line: int
    column: int
    plays: tuple[Play, ...]
    leader: Word | None = None
    comments: tuple[str, ...] = ()


class Hand(NamedTuple):
    """One seat's cards in a ``hands`` line; ``split`` is how many stand before ``|``."""

    seat: str
    cards: tuple[CardRef, ...]
    line: int
    column: int
    split: int | None = None
    comments: tuple[str, ...] = ()


class Trump(NamedTuple):
    """``trump S by X at N closed`` or ``trump drawn CARD``."""

    line: int
    column: int
    suit: Word | None = None       # value: suit letter
    by: Word | None = None         # value: seat
    at: Word | None = None         # value: trick number
    closed: bool = False
    drawn: CardRef | None = None
    comments: tuple[str, ...] = ()


class Misdeal(NamedTuple):
    """A ``misdeal`` line: one voided deal before this one."""

    line: int
    column: int
    comments: tuple[str, ...] = ()


class Tens(NamedTuple):
    """``tens AC 3 BD 1``: the claimed split, as (side, count) pairs in written order."""

    counts: tuple[tuple[Word, Word], ...]
    line: int
    column: int
    comments: tuple[str, ...] = ()


class Claim(NamedTuple):
    """``claim X`` after the last trick played (DPN 1.1): X's side takes every trick left.

    ``line`` and ``column`` are those of the ``claim`` word.
    """

    seat: str
    line: int
    column: int
    comments: tuple[str, ...] = ()


class Deal(NamedTuple):
    """One deal as written."""

    line: int
    column: int
    number: Word | None = None     # value: int
    dealer: Word | None = None     # value: seat
    misdeals: tuple[Misdeal, ...] = ()
    hands: tuple[Hand, ...] | None = None
    trump: Trump | None = None
    tricks: tuple[Trick, ...] = ()
    tens: Tens | None = None
    comments: tuple[str, ...] = ()
    claim: Claim | None = None     # DPN 1.1: ``claim X`` after the tricks


class Game(NamedTuple):
    """A game: its tags and deals, or, when it could not be read, the syntax errors.

    ``errors`` holds what the reader found (a syntax error stops the game, so a game with
    a ``syntax`` or ``bad-card`` error has no deals beyond what was read before it; a
    repeated tag is reported without stopping). ``comments`` are those before the first
    element of the game.
    """

    tags: tuple[Tag, ...]
    deals: tuple[Deal, ...]
    line: int
    column: int
    comments: tuple[str, ...] = ()
    errors: tuple[DpnError, ...] = ()
    source: str | None = None      # the game's text, kept only when asked for
    source_line: int = 0              # the file line where ``source`` starts

    def line_text(self, line: int) -> str | None:
        """The text of file line ``line`` when it lies in the kept source, else None."""
        if self.source is None or line < self.source_line:
            return None
        lines = self.source.split("\n")
        i = line - self.source_line
        return lines[i].rstrip("\r") if i < len(lines) else None

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (names match exactly)."""
        for tag in self.tags:
            if tag.name == name:
                return tag.value
        return default

    def tag_node(self, name: str) -> Tag | None:
        """The first tag node called ``name``, or None."""
        for tag in self.tags:
            if tag.name == name:
                return tag
        return None

    @property
    def ok(self) -> bool:
        """True when the reader found nothing wrong (the rules are not checked here)."""
        return not self.errors
