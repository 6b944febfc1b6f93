"""A fast path for the common shapes of a game's text: compiled regular expressions instead of Lark.

:func:`parse_fast` reads the text of one game (a :class:`~dehlanote.syntax.reader.Chunk`)
into EXACTLY the model objects the Lark parser makes (same values, same positions, no
comments), or returns ``None`` when the text is not one of the shapes it knows. The
caller (:func:`dehlanote.syntax.parser.parse_chunk`) then parses that chunk with Lark, so
every error, and its position and wording, stays what the careful path says.

The shapes it knows, one element per line, lines in any order the grammar allows:

* tags ``[Name "value"]`` before the first deal, any number to a line;
* ``deal``, ``deal N``, ``deal dealer X``, ``deal N dealer X``; ``misdeal``;
* ``hands A: ... | ...`` with the other seats on the same line or on lines of their own;
* ``trump S``, ``trump S by X at N closed`` (any of the three parts), ``trump drawn CARD``;
* trick lines: ``N X: c c c c`` or ``N c c c c``, one or several tricks to a line;
* ``tens AC n BD m``;

with keywords in any case and cards in every spelling the notation accepts (``10h``,
``Td``, ``A♠``, ``k♡``). Anything else (a comment, a glyph, a withdrawn card, an element
split over lines, a repeated tag, a character that is not a space, a tab or a carriage
return between tokens, any mistake) makes it return ``None``.

Lines are counted at ``\\n`` only and columns in characters, as Lark counts them.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Optional

from .cards import CARD_SPELLINGS, STRING_BODY, SUIT_SPELLINGS
from .model import (
    CardRef,
    Deal,
    Game,
    Hand,
    Misdeal,
    Play,
    Tag,
    Tens,
    Trick,
    Trump,
    Word,
)
from .reader import Chunk

__all__ = ["CARD_TABLE", "parse_fast", "paused_gc"]

#: every spelling of every card (``10h``, ``Td``, ``A♠``, ``k♡`` ...) -> its canonical card
CARD_TABLE: dict[str, str] = dict(CARD_SPELLINGS)

#: the tag names that mean something, by lowercase name (as the Lark builder spells them)
_TAG_NAMES = {name.lower(): name for name in (
    "Event", "Site", "Date", "Round", "Annotator", "A", "B", "C", "D", "E", "F", "Rules", "Kots", "Result")}

# Building NamedTuples through tuple.__new__ skips their Python-level __new__ (defaults
# and keywords): three to four times cheaper, and an archive has millions of plays.
_new = tuple.__new__

# ---- the pieces, as the grammar's terminals spell them --------------------------------
_W = r"[ \t\r]"                       # whitespace inside a line (Lark ignores it all)
_CARD = r"(?:10|[2-9AKQJTakqjt])[SHDCshdc♠♥♦♣♤♡♢♧]"
_INT = r"[0-9]{1,6}"                  # [0-9], not \d: Lark's INT takes no other digits
_SEAT = r"[A-F]"
_SIDE = r"(?:ACE|BDF|AC|BD)"
_SUIT = r"[SHDCshdc♠♥♦♣♤♡♢♧]"


def _kw(word: str) -> str:
    """A keyword in any case, spelled with classes ([Dd][Ee]...): IGNORECASE would also
    take Unicode case folds (``ſ`` for ``s``), which this path leaves to Lark."""
    return "".join(f"[{c.upper()}{c}]" for c in word)


_TRICK = rf"{_INT}{_W}+(?:{_SEAT}:{_W}*)?{_CARD}(?:{_W}+{_CARD})*"
_HAND = rf"{_SEAT}:{_W}*{_CARD}(?:{_W}+{_CARD})*(?:{_W}*\|{_W}*{_CARD}(?:{_W}+{_CARD})*)?"

Matcher = Callable[..., Optional["re.Match[str]"]]

#: the most common line of all: one trick of four cards
_TRICK4: Matcher = re.compile(
    rf"{_W}*({_INT}){_W}+(?:({_SEAT}):{_W}*)?({_CARD}){_W}+({_CARD}){_W}+({_CARD}){_W}+({_CARD}){_W}*"
).fullmatch
_TRICKS: Matcher = re.compile(rf"{_W}*{_TRICK}(?:{_W}+{_TRICK})*{_W}*").fullmatch
_TRICK_TOKEN = re.compile(rf"({_CARD})|({_INT})|({_SEAT}):")
_HANDS: Matcher = re.compile(rf"{_W}*(?:{_kw('hands')}{_W}+)?{_HAND}(?:{_W}+{_HAND})*{_W}*").fullmatch
_HANDS_KW: Matcher = re.compile(rf"{_W}*{_kw('hands')}{_W}").match
_HAND_TOKEN = re.compile(rf"({_CARD})|({_SEAT}):|(\|)")
_DEAL: Matcher = re.compile(
    rf"{_W}*({_kw('deal')})(?:{_W}+({_INT}))?(?:{_W}+{_kw('dealer')}{_W}+({_SEAT}))?{_W}*").fullmatch
_MISDEAL: Matcher = re.compile(rf"{_W}*({_kw('misdeal')}){_W}*").fullmatch
_TRUMP: Matcher = re.compile(
    rf"{_W}*({_kw('trump')}){_W}+(?:({_SUIT})(?:{_W}+{_kw('by')}{_W}+({_SEAT}))?"
    rf"(?:{_W}+{_kw('at')}{_W}+({_INT}))?(?:{_W}+({_kw('closed')}))?"
    rf"|{_kw('drawn')}{_W}+({_CARD})){_W}*").fullmatch
_TENS: Matcher = re.compile(
    rf"{_W}*({_kw('tens')}){_W}+({_SIDE}){_W}+({_INT}){_W}+({_SIDE}){_W}+({_INT}){_W}*").fullmatch
# a tag, with the whitespace before it (any, as Lark's WS: the tag block may span lines)
_TAG: Matcher = re.compile(
    r'[\s\ufeff]*(\[)[\s\ufeff]*([A-Za-z][A-Za-z0-9_]*)[\s\ufeff]*"(' + STRING_BODY + r')"[\s\ufeff]*\]').match
_LINE_END: Matcher = re.compile(r"[ \t\r]*(?:\n|\Z)").match
_UNESCAPE = re.compile(r'\\(["\\])')

# where an element may stand in a deal: deal misdeal* hands? trump? trick* tens?
_HEAD, _HANDS_DONE, _TRUMP_DONE, _TRICKS_SEEN, _TENS_DONE = 0, 1, 2, 3, 4


def parse_fast(chunk: Chunk) -> list[Game] | None:
    """The games of a chunk exactly as the Lark parser reads them, or None.

    None means "not a shape this path knows": the text may be wrong or merely unusual
    (comments, glyphs, withdrawn cards, odd layouts); the caller parses it with Lark.
    """
    if chunk.encoding_errors:
        return None
    text = chunk.text
    lo = chunk.line - 1          # file line = chunk line + lo
    co = chunk.column - 1        # extra columns on the chunk's first line

    # -- tags: before the first deal, any whitespace between them -----------------------
    tags: list[Tag] = []
    pos = 0
    line_idx = 0                 # 0-based line (in the chunk) of ``line_start``
    line_start = 0               # offset of the start of that line
    m = _TAG(text, 0)
    if m is not None:
        seen: set[str] = set()
        while m is not None:
            at = m.start(1)
            newlines = text.count("\n", line_start, at)
            if newlines:
                line_idx += newlines
                line_start = text.rfind("\n", 0, at) + 1
            name = m.group(2)
            key = name.lower()
            if key in seen:
                return None     # a repeated tag: the Lark path reports it
            seen.add(key)
            value = m.group(3)
            if "\\" in value:
                value = _UNESCAPE.sub(r"\1", value)
            tags.append(_new(Tag, (_TAG_NAMES.get(key, name), value, line_idx + lo + 1,
                                   at - line_start + 1 + (co if line_idx == 0 else 0), ())))
            pos = m.end()
            m = _TAG(text, pos)
        end = _LINE_END(text, pos)
        if end is None:
            return None         # something else follows the last tag on its line
        body = end.end()
        line_idx += text.count("\n", line_start, body)
    else:
        body = 0
    deals = _deals(text[body:].split("\n") if body < len(text) else [], line_idx, lo + 1,
                   co if line_idx == 0 else 0)
    if deals is None:
        return None
    if tags:
        first = tags[0]
        return [_new(Game, (tuple(tags), deals, first.line, first.column, (), (), None, 0))]
    if not deals:
        return None
    first = deals[0]
    return [_new(Game, ((), deals, first.line, first.column, (), (), None, 0))]


def _deals(lines: list[str], first_idx: int, line_base: int, co: int) -> tuple[Deal, ...] | None:
    """The deals of the lines after the tags (``first_idx`` is the chunk line of ``lines[0]``;
    ``co`` shifts columns on ``lines[0]`` only), or None for a shape not handled here."""
    new, cards, trick4 = _new, CARD_TABLE, _TRICK4
    Trick_, Play_, Word_, tricks_seen = Trick, Play, Word, _TRICKS_SEEN   # locals: the hot loop
    deals: list[Deal] = []
    state = -1                   # -1: no deal yet; else the last element's place
    d_line = d_col = 0
    number = dealer = trump = tens = None
    hands: list[Hand] | None = None
    misdeals: list[Misdeal] = []
    tricks: list[Trick] = []
    ln = line_base + first_idx - 1
    off = 1 + co                 # column = index + off (co on the first line only)
    for line in lines:
        ln += 1
        m = trick4(line)
        if m is not None:
            if not 0 <= state <= tricks_seen:
                return None
            state = tricks_seen
            num, seat, c1, c2, c3, c4 = m.groups()
            _, r1, r2, r3, r4, r5, r6 = m.regs
            tricks.append(new(Trick_, (
                int(num), ln, r1[0] + off,
                (new(Play_, (cards[c1], ln, r3[0] + off, (), None, ())),
                 new(Play_, (cards[c2], ln, r4[0] + off, (), None, ())),
                 new(Play_, (cards[c3], ln, r5[0] + off, (), None, ())),
                 new(Play_, (cards[c4], ln, r6[0] + off, (), None, ()))),
                new(Word_, (seat, ln, r2[0] + off)) if seat is not None else None,
                ())))
            off = 1
            continue
        stripped = line.lstrip(" \t\r")
        if not stripped:
            off = 1
            continue
        c = stripped[0]
        if c in "Dd" and (m := _DEAL(line)) is not None:
            if state >= 0:
                deals.append(new(Deal, (d_line, d_col, number, dealer, tuple(misdeals),
                                        None if hands is None else tuple(hands), trump,
                                        tuple(tricks), tens, (), None)))
            state = _HEAD
            d_line, d_col = ln, m.start(1) + off
            num, seat = m.group(2, 3)
            number = new(Word, (int(num), ln, m.start(2) + off)) if num is not None else None
            dealer = new(Word, (seat, ln, m.start(3) + off)) if seat is not None else None
            trump = tens = hands = None
            misdeals = []
            tricks = []
        elif c.isdigit():
            if not 0 <= state <= _TRICKS_SEEN or _TRICKS(line) is None:
                return None
            state = _TRICKS_SEEN
            if not _tricks(line, ln, off, tricks):
                return None      # a short trick before another: perhaps a bare rank (Lark says)
        elif c in "Tt":
            if (m := _TRUMP(line)) is not None:
                if not 0 <= state < _TRUMP_DONE:
                    return None
                state = _TRUMP_DONE
                drawn = m.group(6)
                if drawn is not None:
                    trump = new(Trump, (ln, m.start(1) + off, None, None, None, False,
                                        new(CardRef, (cards[drawn], ln, m.start(6) + off)), ()))
                else:
                    suit, by, at, closed = m.group(2, 3, 4, 5)
                    trump = new(Trump, (
                        ln, m.start(1) + off,
                        new(Word, (SUIT_SPELLINGS[suit], ln, m.start(2) + off)),
                        new(Word, (by, ln, m.start(3) + off)) if by is not None else None,
                        new(Word, (int(at), ln, m.start(4) + off)) if at is not None else None,
                        closed is not None, None, ()))
            elif (m := _TENS(line)) is not None:
                if not 0 <= state < _TENS_DONE:
                    return None
                state = _TENS_DONE
                s1, n1, s2, n2 = m.group(2, 3, 4, 5)
                tens = new(Tens, (
                    ((new(Word, (s1, ln, m.start(2) + off)), new(Word, (int(n1), ln, m.start(3) + off))),
                     (new(Word, (s2, ln, m.start(4) + off)), new(Word, (int(n2), ln, m.start(5) + off)))),
                    ln, m.start(1) + off, ()))
            else:
                return None
        elif c in "Hh" or c in "ABCDEF":
            if _HANDS(line) is None:
                return None
            if _HANDS_KW(line) is not None:
                if not 0 <= state < _HANDS_DONE:
                    return None
                state = _HANDS_DONE
                hands = []
            elif state != _HANDS_DONE:
                return None      # a seat's hand that does not follow ``hands``
            _hands(line, ln, off, hands)   # type: ignore[arg-type]
        elif c in "Mm" and (m := _MISDEAL(line)) is not None:
            if state != _HEAD:
                return None
            misdeals.append(new(Misdeal, (ln, m.start(1) + off, ())))
        else:
            return None
        off = 1
    if state >= 0:
        deals.append(new(Deal, (d_line, d_col, number, dealer, tuple(misdeals),
                                None if hands is None else tuple(hands), trump, tuple(tricks), tens, (), None)))
    return tuple(deals)


def _tricks(line: str, ln: int, off: int, out: list[Trick]) -> bool:
    """The tricks of a checked trick line (several to a line, any number of cards); False
    when a trick of fewer than four cards comes before another on the line."""
    new = _new
    cards = CARD_TABLE
    num = None
    col = 0
    leader = None
    plays: list[Play] = []
    for t in _TRICK_TOKEN.finditer(line):
        card, n, seat = t.groups()
        if card is not None:
            plays.append(new(Play, (cards[card], ln, t.start() + off, (), None, ())))
        elif n is not None:
            if num is not None:
                if len(plays) < 4:
                    return False
                out.append(new(Trick, (int(num), ln, col, tuple(plays), leader, ())))
            num, col, leader, plays = n, t.start() + off, None, []
        else:
            leader = new(Word, (seat, ln, t.start() + off))
    out.append(new(Trick, (int(num), ln, col, tuple(plays), leader, ())))  # type: ignore[arg-type]
    return True


def _hands(line: str, ln: int, off: int, out: list[Hand]) -> None:
    """The hands of a checked hands line (one or several seats to a line)."""
    new = _new
    cards = CARD_TABLE
    seat = None
    col = 0
    split = None
    held: list[CardRef] = []
    for t in _HAND_TOKEN.finditer(line):
        card, s, _pipe = t.groups()
        if card is not None:
            held.append(new(CardRef, (cards[card], ln, t.start() + off)))
        elif s is not None:
            if seat is not None:
                out.append(new(Hand, (seat, tuple(held), ln, col, split, ())))
            seat, col, split, held = s, t.start() + off, None, []
        else:
            split = len(held)
    out.append(new(Hand, (seat, tuple(held), ln, col, split, ())))


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause automatic garbage collection while parsed games pile up (a whole file into a
    list); restored in ``finally``.

    The model is tuples, freed by reference counting; but every few thousand new tuples
    the collector rescans all the games kept so far, which made ``parse_path`` of a 20,000
    deal file 2.3 times slower. Streaming (one game at a time) gains nothing from it.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
