"""The frozen data model of a DPN record: what was written, with where it was written.

It knows no rules: a ``Deal`` holds the tricks as written, and whether they are legal is
the replayer's business. Every node carries the 1-based ``line`` and ``column`` of its
first token so that any error can point at the token at fault.

The nodes are ``NamedTuple``s rather than frozen dataclasses: they are just as immutable
and several times cheaper to build, which matters when an archive holds millions of plays.
Cards are canonical strings (``"10H"``, ``"AS"``); see :mod:`dehlanote.deck`.

Each node has a named constructor below its class (``make_play`` for :class:`Play`...),
the one place besides the class that knows the order of its fields: the readers build
every node through them. They cost what ``tuple.__new__`` costs (no keyword handling, no
``type.__call__``), three to four times less than calling the class, which matters when
an archive holds millions of plays. ``tests/syntax/test_model.py`` checks that each one's
parameters are its class's fields, with the same defaults, and builds the same node.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat
from typing import Any, NamedTuple, Optional, TypeVar

from ..errors import DpnError

__all__ = ["CardRef", "Claim", "Deal", "Game", "Hand", "Loose", "Misdeal", "Play", "Revoke", "Tag", "Tens", "Trick",
           "Trump",
           "Word", "make_card", "make_cards", "make_claim", "make_deal", "make_game", "make_hand", "make_misdeal",
           "make_plain_trick", "make_play", "make_revoke", "make_tag", "make_tens", "make_trick", "make_trump",
           "make_word",
           "with_comments"]

_new = tuple.__new__
_N = TypeVar("_N", bound="tuple[Any, ...]")


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


class Revoke(NamedTuple):
    """``revoke C at 4 stands`` (DPN 1.2): seat C revoked in trick 4, and the table ruled.

    ``ruling`` is ``stands`` (the play stands as it went) or ``penalty`` (the table gave a
    penalty of its own; the record scores the cards as played). ``line`` and ``column``
    are those of the ``revoke`` word.
    """

    seat: str
    trick: int
    ruling: str
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
    revokes: tuple[Revoke, ...] = ()   # DPN 1.2: revokes the table ruled on, after the tricks


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


class Loose(NamedTuple):
    """Comments that stand in no game (a file of notes alone, a template before its first
    game is written): data all the same, kept by every conversion (``fmt`` and ``annotate
    --format dpn`` write ``text`` as it was, ``json`` the ``comments`` in the document's own
    ``comments``)."""

    comments: tuple[str, ...]
    text: str                      # as written, without the blank lines around it
    line: int                      # where the first comment's ``{`` stands
    column: int


# ---- the named constructors (see the module's docstring) ------------------------------
# (Optional[...] rather than X | None in the signatures: they are read at run time by the
# test that compares them with the classes' fields)

def make_word(value: object, line: int, column: int) -> Word:
    return _new(Word, (value, line, column))


def make_card(card: str, line: int, column: int) -> CardRef:
    return _new(CardRef, (card, line, column))


def make_cards(cards: Iterable[str], line: int, columns: Iterable[int]) -> tuple[CardRef, ...]:
    """The cards of one line at their columns (a hand line): built without a call a card."""
    return tuple(map(_new, repeat(CardRef), zip(cards, repeat(line), columns)))


def make_tag(name: str, value: str, line: int, column: int, comments: tuple[str, ...] = ()) -> Tag:
    return _new(Tag, (name, value, line, column, comments))


def make_play(card: str, line: int, column: int, withdrawn: tuple[CardRef, ...] = (), glyph: Optional[str] = None,
              comments: tuple[str, ...] = ()) -> Play:
    return _new(Play, (card, line, column, withdrawn, glyph, comments))


def make_trick(number: int, line: int, column: int, plays: tuple[Play, ...], leader: Optional[Word] = None,
               comments: tuple[str, ...] = ()) -> Trick:
    return _new(Trick, (number, line, column, plays, leader, comments))


def make_plain_trick(number: int, line: int, column: int, leader: Optional[str], leader_column: int,
                     c1: str, a1: int, c2: str, a2: int, c3: str, a3: int, c4: str, a4: int) -> Trick:
    """A trick of four plain plays on one line (no withdrawn card, glyph or comment), the
    commonest node of all, built in one call: its leader seat (or None) at ``leader_column``,
    its cards at columns ``a1`` to ``a4``."""
    return _new(Trick, (number, line, column, (_new(Play, (c1, line, a1, (), None, ())),
                                               _new(Play, (c2, line, a2, (), None, ())),
                                               _new(Play, (c3, line, a3, (), None, ())),
                                               _new(Play, (c4, line, a4, (), None, ()))),
                        None if leader is None else _new(Word, (leader, line, leader_column)), ()))


def make_hand(seat: str, cards: tuple[CardRef, ...], line: int, column: int, split: Optional[int] = None,
              comments: tuple[str, ...] = ()) -> Hand:
    return _new(Hand, (seat, cards, line, column, split, comments))


def make_trump(line: int, column: int, suit: Optional[Word] = None, by: Optional[Word] = None,
               at: Optional[Word] = None, closed: bool = False, drawn: Optional[CardRef] = None,
               comments: tuple[str, ...] = ()) -> Trump:
    return _new(Trump, (line, column, suit, by, at, closed, drawn, comments))


def make_misdeal(line: int, column: int, comments: tuple[str, ...] = ()) -> Misdeal:
    return _new(Misdeal, (line, column, comments))


def make_tens(counts: tuple[tuple[Word, Word], ...], line: int, column: int, comments: tuple[str, ...] = ()) -> Tens:
    return _new(Tens, (counts, line, column, comments))


def make_claim(seat: str, line: int, column: int, comments: tuple[str, ...] = ()) -> Claim:
    return _new(Claim, (seat, line, column, comments))


def make_revoke(seat: str, trick: int, ruling: str, line: int, column: int, comments: tuple[str, ...] = ()) -> Revoke:
    return _new(Revoke, (seat, trick, ruling, line, column, comments))


def make_deal(line: int, column: int, number: Optional[Word] = None, dealer: Optional[Word] = None,
              misdeals: tuple[Misdeal, ...] = (), hands: Optional[tuple[Hand, ...]] = None,
              trump: Optional[Trump] = None, tricks: tuple[Trick, ...] = (), tens: Optional[Tens] = None,
              comments: tuple[str, ...] = (), claim: Optional[Claim] = None,
              revokes: tuple[Revoke, ...] = ()) -> Deal:
    return _new(Deal, (line, column, number, dealer, misdeals, hands, trump, tricks, tens, comments, claim, revokes))


def make_game(tags: tuple[Tag, ...], deals: tuple[Deal, ...], line: int, column: int, comments: tuple[str, ...] = (),
              errors: tuple[DpnError, ...] = (), source: Optional[str] = None, source_line: int = 0) -> Game:
    return _new(Game, (tags, deals, line, column, comments, errors, source, source_line))


#: where each kind of node keeps its comments
_COMMENTS_AT: dict[type, int] = {kind: kind._fields.index("comments")
                for kind in (Tag, Play, Trick, Hand, Trump, Misdeal, Tens, Claim, Revoke, Deal, Game)}


def with_comments(node: _N, extra: tuple[str, ...] | list[str]) -> _N:
    """``node`` (any node that has comments) with the comments ``extra`` added after its own."""
    i = _COMMENTS_AT[type(node)]
    out: _N = _new(type(node), (*node[:i], node[i] + tuple(extra), *node[i + 1:]))
    return out
