"""Reading whole tokens: the lines of a plain element, cut into the nodes of the model.

The whole parser's ``*_WHOLE`` terminals (``dehlanote/grammar.lark``) read a plain element,
or a run of them, as one token: a run of tags, a deal line, a hand line, a trump line, a
run of trick lines, a tens line, a whole deal, a whole game. A whole token has already
matched its terminal, so the reader here only sorts its pieces, never checks them: a
trick line is cut with ``str.split`` and its words looked up in a table of every common
word (:func:`_word_table`, built from the grammar's terminals and checked with their
patterns; a line of a trick number, a seat and four plain cards is built at once),
``str.split`` and ``map`` for a plain hand line, one match for a tag line. A word the table
does not hold sends its line to a scanner of the grammar's own fine terminals.

:class:`WholeReader` holds what reading a chunk collects (comments found inside whole
tokens, errors that do not stop the game) and the shift of positions from the chunk to the
file; :class:`.build.Builder` adds the rules Lark reduces.
"""

from __future__ import annotations

import re
from array import array
from itertools import accumulate
from operator import itemgetter
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from lark import Token

from ..errors import DpnError
from . import terms
from . import regexcache
from .attach import CRLF
from .lazy import LAZY_DEALS, LazyDeals
from .cards import CARD_SPELLINGS, GLYPHS, SELECTORS, SUIT_SPELLINGS, TAG_NAMES, card_of, suit_of
from .diagnose import RANK_NUMBERS, clip, no_suit
from .model import (
    CardRef,
    Claim,
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
    make_card,
    make_cards,
    make_deal,
    make_hand,
    make_plain_trick,
    make_play,
    make_tag,
    make_tens,
    make_trick,
    make_trump,
    make_word,
)

__all__ = ["MAX_CARDS", "MAX_HANDS", "MAX_TRICKS", "NOT_READ", "OverLimit", "WholeReader", "past_limit"]

_UNESCAPE = re.compile(r'\\(["\\])')
#: Limits past which the rest of a game is not read. No real record comes near them (a trick
#: holds one card a player, at most 6; a hand at most 39 cards; a deal at most 39 tricks, a
#: hands line 6 hands), but every card read is an object of the model, so a hostile line of
#: millions of cards would cost hundreds of megabytes: past a limit the game stops, as at a
#: syntax error, with the limit's error (both readings give the same one).
MAX_CARDS = 64          # cards in a row: a trick's plays, a hand's cards, the cards withdrawn before a play
MAX_TRICKS = 256        # tricks written in one deal
MAX_HANDS = 64          # hands in one hands line
#: a line of a whole token longer than this is left to the fine reading (which stops at a
#: limit after reading a few tokens), so that the whole reading never splits it into millions of words
_LONG_LINE = 100_000

def _scanner(*names: str) -> re.Pattern[str]:
    """One regular expression finding the grammar's terminals ``names`` (in this order of
    preference, which is Lark's: higher priority first), each in a group of its name
    (compiled once per user: about 1 ms each at every start)."""
    return regexcache.compile("|".join(f"(?P<{n}>{terms.pattern(n)})" for n in names))


# The pieces of whole tokens, found with the grammar's own fine terminals. A whole token
# has already matched its terminal, so these only sort its pieces, never check them.
_TRICK_PARTS = _scanner("CARD", "WITHDRAWN", "DOTTED_INT", "INT", "SEAT").finditer
_HAND_PARTS = _scanner("CARD", "SEAT", "PIPE").finditer
_WORDS = re.compile(r"\S+").finditer
_TAG_PARTS = regexcache.compile(r"\[[ \t]*({})[ \t]*({})".format(
    terms.pattern("NAME"), terms.possessive(terms.pattern("STRING")))).finditer
#: comments to take out of a whole token (tag values may hold a {, so they are skipped)
_COMMENTS = re.compile("({})|{}".format(terms.pattern("COMMENT"), terms.possessive(terms.pattern("STRING"))))
_NOT_NEWLINE = re.compile(r"[^\n]")
_COMMENT_TOKENS = re.compile(terms.pattern("COMMENT")).finditer
_KW_DEAL, _KW_MISDEAL, _KW_HANDS, _KW_TRUMP, _KW_DRAWN, _KW_BY, _KW_AT = (
    terms.KEYWORDS[k] for k in ("DEAL", "MISDEAL", "HANDS", "TRUMP", "DRAWN", "BY", "AT"))



def _word_table() -> dict[str, tuple[Any, ...]]:
    """What each common word of a line of tricks is, by dictionary lookup: a card (plain,
    with a glyph, before a comma), a withdrawn card, a trick number (plain or dotted), a
    leader seat (alone or with its colon), a lone colon or comma. Every entry is a spelling
    the grammar's own terminal accepts (checked here with its pattern), so the table only
    saves the scanning; a word not in it sends its line to the scanner (:data:`_TRICK_PARTS`).
    """
    def accepts(name: str) -> Any:
        return re.compile(terms.pattern(name)).fullmatch

    card, withdrawn, number, dotted, seat = (accepts(n) for n in ("CARD", "WITHDRAWN", "INT", "DOTTED_INT", "SEAT"))
    table: dict[str, tuple[Any, ...]] = {}
    for spelling, canonical in CARD_SPELLINGS.items():
        for glyph in (None, *GLYPHS):
            word = spelling + (glyph or "")
            if card(word):
                table[word] = table[word + ","] = ("card", canonical, glyph)
        if withdrawn("-" + spelling):
            table["-" + spelling] = ("withdrawn", canonical)
    for n in range(100):
        if number(str(n)):
            table[str(n)] = ("number", n)
        if dotted(f"{n}."):
            table[f"{n}."] = ("number", n)
    for letter in _LETTERS:
        if seat(letter):
            table[letter] = table[letter + ":"] = ("seat", letter)
    table[":"] = table[","] = ("skip",)
    # a suit symbol with an emoji selector (DPN 1.1, as phones write it: ``A♥️,``): without
    # these every such line went to the scanner (emoji corpus: 1.11 s -> see performance.md)
    for word, kind in list(table.items()):
        if kind[0] not in ("card", "withdrawn") or word.isascii():
            continue
        bare = word[:-1] if word.endswith(",") else word
        for symbol in _SYMBOLS:
            if symbol in bare:
                for selector in SELECTORS:
                    spelt = bare.replace(symbol, symbol + selector)
                    if (card if kind[0] == "card" else withdrawn)(spelt):
                        table[spelt + word[len(bare):]] = kind
    return table


#: the suit symbols that are not ASCII (each may carry an emoji selector)
_SYMBOLS = tuple(s for s in SUIT_SPELLINGS if not s.isascii())



#: where the deals of a whole game start: at a line that begins with the deal keyword
#: (after a line end: a game's first line is its tags; the line end first lets the
#: engine look for it alone, where ^ with MULTILINE tried every position)
#: (any white space but a line end before it, as the grammar lets stand there)
_DEAL_STARTS = re.compile(r"\n[^\S\n]*" + terms.pattern("DEAL")).finditer
#: a line that is one tag (its column: the first group's length)
_TAG_LINE = re.compile(r"([ \t]*)\[[ \t]*({})[ \t]*({})[ \t]*\][ \t\r]*".format(
    terms.pattern("NAME"), terms.possessive(terms.pattern("STRING")))).fullmatch


def _first_word(text: str) -> str:
    """The letters ``text`` starts with, in lower case (a keyword, or a seat)."""
    return text[: len(text) - len(text.lstrip(_LETTERS))].lower()


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_WORD_KINDS = WORD_KINDS = _word_table()     # (WORD_KINDS: the quick check of whole games reads it too)
#: a seat and its colon, as a hand line starts ("B:")
_HAND_SEATS = {word: kind[1] for word, kind in _WORD_KINDS.items() if kind[0] == "seat" and word.endswith(":")}
#: hand line shapes whose columns are kept (a few hundred occur: the table is emptied past this)
_SHAPES = 4096
#: the seats' letters (each a seat word of the table)
_SEAT_LETTERS = frozenset(_HAND_SEATS.values())
_ONE_MORE = (1).__add__
#: the numbers of the table (0 to 99, as the grammar's INT spells them) and their values
_NUMBERS = {word: kind[1] for word, kind in _WORD_KINDS.items() if kind[0] == "number" and word[-1:].isdigit()}
#: a line of four or five words (spaces and tabs between; comments are blanked by then)
_WORDS4, _WORDS5 = (re.compile(r"[ \t]*" + r"[ \t]+".join([r"(\S+)"] * n) + r"[ \t\r]*").fullmatch for n in (4, 5))


_ctricks: ModuleType | None
try:
    from . import _ctricks      # WholeReader._tricks compiled (built at install with a C compiler)
except ImportError:             # pragma: no cover - _tricks reads every line then
    _ctricks = None
if _ctricks is not None:
    if (Trick._fields, Play._fields, CardRef._fields, Word._fields, Hand._fields) != (
            ("number", "line", "column", "plays", "leader", "comments"),
            ("card", "line", "column", "withdrawn", "glyph", "comments"), ("card", "line", "column"),
            ("value", "line", "column"), ("seat", "cards", "line", "column", "split", "comments")):
        _ctricks = None     # pragma: no cover - the fields it makes by index moved
    else:
        try:
            _ctricks.setup(CARD_SPELLINGS, _WORD_KINDS, _NUMBERS, _HAND_SEATS, ("card", "number", "seat", "withdrawn"),
                           (Trick, Play, CardRef, Word, Hand), (MAX_CARDS, MAX_TRICKS, _LONG_LINE))
            if not (hasattr(_ctricks, "tricks") and hasattr(_ctricks, "hand")):
                raise AttributeError("tricks")
        except (AttributeError, TypeError, ValueError):
            _ctricks = None     # a build of another version (not rebuilt since): the Python reading

#: how the error of a limit ends (no error after it is looked for)
NOT_READ = "the rest of this game is not read"
#: each limit: its code, and what the error says before NOT_READ
_LIMITS = {
    "trick": ("trick-size", f"this trick goes on past {MAX_CARDS} cards (a trick holds one card a player)"),
    "hand": ("hand-size", f"this hand goes on past {MAX_CARDS} cards (a hand holds at most 39)"),
    "withdrawn": ("trick-size", f"more than {MAX_CARDS} cards are withdrawn before one card is played"),
    "tricks": ("trick-number", f"this deal goes on past {MAX_TRICKS} tricks (a deal has at most 39)"),
    "hands": ("hand-size", f"this hands line goes on past {MAX_HANDS} hands (a table has at most 6 players)"),
}


def past_limit(limit: str, line: int, column: int) -> DpnError:
    """The error of the token past one of the reader's limits (see MAX_CARDS)."""
    code, what = _LIMITS[limit]
    return DpnError(code, f"{what}: {NOT_READ}", line, column)


class OverLimit(DpnError):
    """A limit met by the whole reading: the fine reading reads the chunk again, and its
    error (placed on the token past the limit) stands."""

    def __init__(self) -> None:
        super().__init__("syntax", "over a limit")


#: a trick's plays
_PLAYS = itemgetter(3)


def _check_bare_ranks(tricks: list[Trick]) -> None:
    """Raise ``bad-card`` where a rank without its suit was read as the next trick's number.

    ``5 A: AD 8 3D QD`` reads as trick 5 (one card) and trick 8: when a trick of fewer than
    four cards (short at any table) is followed on the same line by a "trick" numbered 2 to
    10 that is not the next number or is short too, the number was meant as a card. A short
    trick followed by a full next trick is left to the replay (a card left out).
    """
    if min(map(len, map(_PLAYS, tricks)), default=4) >= 4:
        return      # (the common deal: no trick is short, checked without a loop in Python)
    for prev, nxt in zip(tricks, tricks[1:]):
        if len(prev.plays) >= 4 or not prev.plays or prev.plays[-1].line != nxt.line:
            continue
        rank = str(nxt.number)
        if rank in RANK_NUMBERS and (nxt.number != prev.number + 1 or len(nxt.plays) < 4):
            raise DpnError("bad-card", no_suit(rank), nxt.line, nxt.column)


class WholeReader:
    """The nodes of whole tokens, with their file positions.

    ``lo`` and ``co`` shift positions from the chunk being parsed to the file: every line
    moves down by ``lo``; columns on the chunk's first line move right by ``co``.
    """

    def __init__(self) -> None:
        self.lo = 0
        self.co = 0
        self.whole_comments: list[tuple[int, int, str]] = []   # found inside whole tokens
        self.errors: list[DpnError] = []
        self.joined = False     # a comment of the whole token being read spans lines
        #: the columns of the cards of a hand line, by its shape (see _hand_line); kept from
        #: one parse to the next (not per-parse state: a function of the shape alone)
        self.hand_columns: dict[tuple[int, ...], tuple[int, ...]] = {}

    def _pos(self, tok: Token) -> tuple[int, int]:
        line = tok.line or 0        # (always set by the lexer)
        return line + self.lo, (tok.column or 0) + (self.co if line == 1 else 0)

    def _card(self, tok: Token | str) -> tuple[str, str | None]:
        text = str(tok)
        card = card_of(text)
        if card is not None:
            return card, None
        for glyph in GLYPHS:
            if text.endswith(glyph):
                card = card_of(text[: -len(glyph)])
                if card is not None:
                    return card, glyph
        raise AssertionError(f"lexer gave a card it cannot read: {text!r}")  # pragma: no cover

    def _int(self, tok: Token | str, line: int = 0, column: int = 0) -> int:
        """A number token's value; one of over 9 digits stops the game (a syntax error):
        no deal, trick or count is that large, and int() refuses over 4,300 digits."""
        text = str(tok)
        digits = text.rstrip(".").lstrip("0")
        if len(digits) > 9:
            where = (line, column) if type(tok) is str else self._pos(cast("Token", tok))
            raise DpnError("syntax", f'"{clip(text)}" is too large a number: deals, tricks and '
                           "counts have at most 9 digits", *where)
        return int(digits or "0")

    def _glyph_error(self, glyph: str, line: int, column: int) -> None:
        self.errors.append(DpnError(
            "syntax", f"a glyph ({glyph}) may follow only a card played to a trick", line, column))

    def _text_lines(self, text: str, ln: int, col: int) -> tuple[list[str], int, int]:
        """:meth:`_lines` of a whole token's text that starts at file line ``ln``, column ``col``."""
        self.joined = False
        if "{" in text:
            pieces = []
            last = counted = 0
            at_line = ln
            nl = -1     # the last line end before the comment (found from the one before: linear in a long line)
            for m in _COMMENTS.finditer(text):
                comment = m.group(1)
                if comment is None:     # a tag value
                    continue
                start = m.start()
                at_line += text.count("\n", counted, start)
                k = text.rfind("\n", counted, start)
                if k >= 0:
                    nl = k
                counted = start
                body = comment[1:-1]
                self.whole_comments.append((at_line, col + start if nl < 0 else start - nl,
                                            CRLF.sub("\n", body) if "\r" in body else body))
                pieces.append(text[last:start])
                if "\n" in comment:
                    self.joined = True
                    pieces.append(_NOT_NEWLINE.sub(" ", comment))
                else:
                    pieces.append(" " * len(comment))
                last = m.end()
            if pieces:
                pieces.append(text[last:])
                text = "".join(pieces)
        return text.split("\n"), ln, col

    def _tricks(self, lines: list[str], ln: int, off: int, out: list[Trick]) -> None:
        """The tricks of lines of a whole token (``ln``, ``off``: file line and column of
        the first line's start). A trick may go on over a line end inside a comment.

        A line is cut into words with ``str.split`` (white space as the pattern ``\\S+`` has
        it); a word's column is the one after the white space that ends the word before
        when the word starts there (one character of white space: the canonical layout),
        else the word is found with ``str.find`` from there (it cannot start in the white
        space before it). A match object a word, or a ``str.find`` a word, cost more than
        the word's play. (Measured in the commits that made it.)
        """
        if _ctricks is not None and not out:    # the same nodes, made in C (NotImplemented: read here)
            got = _ctricks.tricks(lines, ln, off, not self.joined)
            if got is not NotImplemented:
                out += got
                return
        cards, kinds, numbers, seats = CARD_SPELLINGS, _WORD_KINDS, _NUMBERS, _HAND_SEATS
        max_cards = MAX_CARDS
        # a token of more than _LONG_LINE characters: each line is checked before it is split
        # (a shorter one holds too few words to cost much memory; its count is checked at the end)
        long = sum(map(len, lines)) > _LONG_LINE
        # a line of four cards is a whole trick, unless a comment carries a trick on over
        # a line end: then every line is read word by word
        whole_lines = not self.joined
        num: int | None = None     # the trick being read, when it may go on
        trick_at = (ln, off)
        leader = None
        plays: list[Play] = []
        withdrawn: list[CardRef] = []
        ln -= 1
        for line in lines:
            ln += 1
            if long and (len(line) > _LONG_LINE or len(out) > MAX_TRICKS):
                raise OverLimit()
            words = line.split()
            count = len(words)
            if whole_lines and (count == 6 or count == 5):
                # the commonest line: a trick number, a leader seat and its colon or none,
                # four plain cards (a card with a glyph, a comma, another spelling: below)
                first = words[0]
                number = numbers.get(first)
                seat = seats.get(words[1]) if count == 6 else None
                c1, c2, c3, c4 = words[-4:]
                k1, k2, k3, k4 = cards.get(c1), cards.get(c2), cards.get(c3), cards.get(c4)
                if number is not None and (seat is not None or count == 5) and k1 and k2 and k3 and k4:
                    find = line.find
                    a0 = find(first)
                    # one character between words and none after the last (the canonical
                    # line): each column from the one before (a str.find costs more than the
                    # play); else each word found again
                    s0 = a0 + len(first) + 1     # the seat, when there is one
                    a1 = s0 + 3 if seat is not None else s0
                    a2 = a1 + len(c1) + 1
                    a3 = a2 + len(c2) + 1
                    a4 = a3 + len(c3) + 1
                    if a4 + len(c4) != len(line):
                        at = a0 + len(first)
                        if seat is not None:
                            s0 = find(words[1], at)
                            at = s0 + 2     # (a seat and its colon)
                        a1 = find(c1, at)
                        a2 = find(c2, a1 + len(c1))
                        a3 = find(c3, a2 + len(c2))
                        a4 = find(c4, a3 + len(c3))
                    if num is not None:
                        out.append(make_trick(num, *trick_at, tuple(plays), leader, ()))
                        num, plays, leader = None, [], None
                    out.append(make_plain_trick(number, ln, a0 + off, seat, s0 + off,
                                                k1, a1 + off, k2, a2 + off, k3, a3 + off, k4, a4 + off))
                    off = 1
                    continue
            # anything else: several tricks, withdrawn cards, glyphs, commas: word by word
            # through the table; a word not in it (an emoji selector, "1.A:", "AH,KH"), and
            # the line is scanned instead, from the state it began with
            saved = (num, trick_at, leader, plays, len(plays), withdrawn, len(withdrawn), len(out))
            find = line.find
            at = -1     # where the word before ends (the white space after it)
            for word in words:
                kind = kinds.get(word)
                if kind is None:
                    num, trick_at, leader, plays, n_plays, withdrawn, n_withdrawn, n_out = saved
                    del plays[n_plays:], withdrawn[n_withdrawn:], out[n_out:]
                    num, trick_at, leader, plays, withdrawn = self._scan_tricks(
                        line, ln, off, num, trick_at, leader, plays, withdrawn, out)
                    break
                # the word starts right after one character of white space (what it starts
                # with cannot be white space), or is found
                at = at + 1 if line[at + 1] == word[0] else find(word, at + 1)
                what = kind[0]
                if what == "card":
                    if withdrawn:
                        plays.append(make_play(kind[1], ln, at + off, tuple(withdrawn), kind[2], ()))
                        withdrawn = []
                    else:
                        plays.append(make_play(kind[1], ln, at + off, (), kind[2], ()))
                elif what == "number":
                    if num is not None:
                        if len(plays) > max_cards:
                            raise OverLimit()
                        out.append(make_trick(num, *trick_at, tuple(plays), leader, ()))
                        plays = []
                        leader = None
                    trick_at = (ln, at + off)
                    num = kind[1]
                elif what == "seat":
                    leader = make_word(kind[1], ln, at + off)
                elif what == "withdrawn":
                    withdrawn.append(make_card(kind[1], ln, at + off))
                    if len(withdrawn) > max_cards:
                        raise OverLimit()
                at += len(word)
            if len(plays) > max_cards:
                raise OverLimit()
            off = 1
        if len(out) > MAX_TRICKS:
            raise OverLimit()
        if num is not None:
            out.append(make_trick(num, *trick_at, tuple(plays), leader, ()))

    def _scan_tricks(self, line: str, ln: int, off: int, num: int | None, trick_at: tuple[int, int],
                     leader: Word | None, plays: list[Play], withdrawn: list[CardRef],
                     out: list[Trick]) -> tuple[int | None, tuple[int, int], Word | None, list[Play], list[CardRef]]:
        """One line of tricks scanned with the grammar's fine terminals (any spelling); the
        state of the trick being read goes in and comes out."""
        for m in _TRICK_PARTS(line):
            kind = m.lastgroup
            part = m.group()
            if kind == "CARD":
                card, glyph = self._card(part)
                plays.append(make_play(card, ln, m.start() + off, tuple(withdrawn), glyph, ()))
                withdrawn = []
            elif kind == "SEAT":
                leader = make_word(part, ln, m.start() + off)
            elif kind == "WITHDRAWN":
                withdrawn.append(make_card(card_of(part[1:]) or "", ln, m.start() + off))
                if len(withdrawn) > MAX_CARDS:
                    raise OverLimit()
            else:   # INT, DOTTED_INT: a new trick
                if num is not None:
                    if len(plays) > MAX_CARDS:
                        raise OverLimit()
                    out.append(make_trick(num, *trick_at, tuple(plays), leader, ()))
                    plays = []
                    leader = None
                trick_at = (ln, m.start() + off)
                num = self._int(part, *trick_at)
        return num, trick_at, leader, plays, withdrawn

    def _hand_line(self, line: str, ln: int, off: int, out: list[Hand]) -> None:
        """The hands of one line of a whole token (one or several seats; no keyword)."""
        if _ctricks is not None:      # the common line's Hand made in C (NotImplemented: read here)
            hand = _ctricks.hand(line, ln, off)
            if hand is not NotImplemented:
                out.append(hand)
                if len(out) > MAX_HANDS:
                    raise OverLimit()
                return
        spellings = CARD_SPELLINGS
        if len(line) > _LONG_LINE:
            raise OverLimit()
        # the common line, "B: QS 6S 5S ...": one seat, cards one space apart, each a
        # spelling of the table. Its cards and their columns are made without a loop in
        # Python (a word not in the table, a tab or two spaces: scanned below)
        body = line.lstrip(" ")
        start = len(line) - len(body) + off
        words = body.rstrip("\r").split(" ")
        seat = _HAND_SEATS.get(words[0])
        if seat is not None and len(words) <= MAX_CARDS + 1:
            try:
                cards_of = list(map(spellings.__getitem__, words[1:]))
            except KeyError:
                pass
            else:
                # the columns hang on the start and the words' lengths only: a hand line of
                # the same shape (most hold no ten or one) takes them from a table
                shape = (start, *map(len, words))
                cols = self.hand_columns.get(shape)
                if cols is None:
                    at = accumulate(map(_ONE_MORE, map(len, words)), initial=start)
                    next(at)
                    cols = tuple(at)
                    if len(self.hand_columns) >= _SHAPES:
                        self.hand_columns.clear()
                    self.hand_columns[shape] = cols
                out.append(make_hand(seat, make_cards(cards_of, ln, cols),
                                      ln, start, None, ()))
                if len(out) > MAX_HANDS:
                    raise OverLimit()
                return
        first = len(out)
        seat = None
        col = 0
        split = None
        cards: list[CardRef] = []
        append = cards.append
        for m in _HAND_PARTS(line):
            kind = m.lastgroup
            if kind == "CARD":
                card = spellings.get(m.group())
                if card is None:    # an emoji suit, or a glyph (a mistake here)
                    card, glyph = self._card(m.group())
                    if glyph is not None:
                        self._glyph_error(glyph, ln, m.end() + off - len(glyph))
                append(make_card(card, ln, m.start() + off))
            elif kind == "SEAT":
                if seat is not None:
                    out.append(make_hand(seat, tuple(cards), ln, col, split, ()))
                seat, col, split, cards = m.group(), m.start() + off, None, []
                append = cards.append
            elif split is None:   # PIPE; DPN 1.1: only the first | matters
                split = len(cards)
        if seat is not None:
            out.append(make_hand(seat, tuple(cards), ln, col, split, ()))
        if len(out) > MAX_HANDS or any(len(hand.cards) > MAX_CARDS for hand in out[first:]):
            raise OverLimit()

    def _deal_line(self, line: str, ln: int, off: int) -> tuple[Word | None, Word | None]:
        """``deal [N] [dealer X]``: the number and the dealer."""
        m = _WORDS4(line)
        if m is not None:   # the common line: deal N dealer X
            _, _, (a, _), _, (b, _) = m.regs
            number = _NUMBERS.get(m.group(2))
            if number is None:
                number = self._int(m.group(2), ln, a + off)
            return make_word(number, ln, a + off), make_word(m.group(4), ln, b + off)
        w = [(m.group(), m.start() + off) for m in _WORDS(line)]
        number_word = dealer = None
        if len(w) in (2, 4):
            number_word = Word(self._int(w[1][0], ln, w[1][1]), ln, w[1][1])
        if len(w) >= 3:
            dealer = Word(w[-1][0], ln, w[-1][1])
        return number_word, dealer

    def _trump_line(self, line: str, ln: int, off: int) -> Trump:
        m = _WORDS4(line)
        if m is not None and m.group(3).lower() == _KW_BY:     # the common line: trump S by X
            (k, _), (a, _), _, (b, _) = m.regs[1:]
            suit = make_word(suit_of(m.group(2)), ln, a + off)
            return make_trump(ln, k + off, suit, make_word(m.group(4), ln, b + off), None, False, None, ())
        w = [(m.group(), m.start() + off) for m in _WORDS(line)]
        column = w[0][1]
        if w[1][0].lower() == _KW_DRAWN:
            text, at_col = w[2]
            card, glyph = self._card(text)
            if glyph is not None:
                self._glyph_error(glyph, ln, at_col + len(text) - len(glyph))
            return Trump(ln, column, drawn=CardRef(card, ln, at_col))
        suit = Word(suit_of(w[1][0]), ln, w[1][1])
        by = at = None
        closed = False
        i = 2
        while i < len(w):
            word = w[i][0].lower()
            if word == _KW_BY:
                by = Word(w[i + 1][0], ln, w[i + 1][1])
                i += 2
            elif word == _KW_AT:
                at = Word(self._int(w[i + 1][0], ln, w[i + 1][1]), ln, w[i + 1][1])
                i += 2
            else:  # closed
                closed = True
                i += 1
        return Trump(ln, column, suit=suit, by=by, at=at, closed=closed)

    def _tens_line(self, line: str, ln: int, off: int) -> Tens:
        m = _WORDS5(line)
        if m is not None:   # the common line: one space or more between words
            numbers = _NUMBERS
            _, (k, _), (a, _), (b, _), (c, _), (d, _) = m.regs
            _, s1, n1, s2, n2 = m.groups()
            v1, v2 = numbers.get(n1), numbers.get(n2)
            if v1 is not None and v2 is not None:
                return make_tens(((make_word(s1, ln, a + off), make_word(v1, ln, b + off)),
                                   (make_word(s2, ln, c + off), make_word(v2, ln, d + off))), ln, k + off, ())
        w = [(m.group(), m.start() + off) for m in _WORDS(line)]
        counts = ((Word(w[1][0], ln, w[1][1]), Word(self._int(w[2][0], ln, w[2][1]), ln, w[2][1])),
                  (Word(w[3][0], ln, w[3][1]), Word(self._int(w[4][0], ln, w[4][1]), ln, w[4][1])))
        return Tens(counts, ln, w[0][1])

    def lazy_deal(self, text: str, ln: int, col: int) -> Deal:
        """A deal of a :class:`.lazy.LazyDeals`: the text of one whole deal with its tens line."""
        return self._deal_lines(text.split("\n"), ln, col, True)

    def _deal_lines(self, lines: list[str], ln: int, col: int, with_tens: bool) -> Deal:
        """The deal of the lines of a whole token (a deal up to its last plain trick line,
        one element a line, and its tens line ``with_tens``); ``ln``, ``col``: the file
        line and column of the start of the first line."""
        tens = None
        if with_tens:
            while not lines[-1].strip():
                lines.pop()
            tens = self._tens_line(lines.pop(), ln + len(lines), 1 if lines else col)
        number = dealer = trump = None
        misdeals: list[Misdeal] = []
        hands: list[Hand] | None = None
        tricks: list[Trick] = []
        hand_line = self._hand_line
        off = col
        first = ln
        ln -= 1
        seat_letters = _SEAT_LETTERS
        for i, line in enumerate(lines):
            ln += 1
            stripped = line.lstrip()
            lead = stripped[:1]
            if lead.isdigit():   # the tricks: the rest of the token
                self._tricks(lines[i:], ln, off, tricks)
                if len(tricks) > MAX_TRICKS:    # (every whole deal is read here: its one check)
                    raise OverLimit()
                break
            if hands is not None and lead in seat_letters and not stripped[1:2].isalpha():
                # a seat (no keyword is one letter): the hands go on, told without the
                # keyword's word being cut out (a third of a hand line's time)
                hand_line(line, ln, off, hands)
            elif stripped:
                start = len(line) - len(stripped) + off
                word = _first_word(stripped)
                if word == _KW_DEAL:
                    first, col = ln, start     # the deal is where its keyword stands
                    number, dealer = self._deal_line(line, ln, off)
                elif word == _KW_TRUMP:
                    trump = self._trump_line(line, ln, off)
                elif word == _KW_MISDEAL:
                    misdeals.append(Misdeal(ln, start))
                elif word == _KW_HANDS:
                    hands = []
                    hand_line(line[start - off + len(word):], ln, start + len(word), hands)
                else:   # a seat: the hands go on
                    assert hands is not None
                    hand_line(line, ln, off, hands)
            off = 1
        return self._deal(first, col, number, dealer, misdeals, None if hands is None else tuple(hands),
                          trump, tricks, tens, None)

    def _tag_lines(self, lines: list[str], ln: int, col: int) -> list[Tag]:
        """The tags of the lines of a run of plain tags: one tag a line, read one match a
        line; any other layout (several tags to a line, comments) as :meth:`_tags_text`."""
        out: list[Tag] = []
        names = TAG_NAMES
        off = col - 1
        first = ln
        for line in lines:
            m = _TAG_LINE(line)
            if m is None:
                if line.strip():
                    return self._tags_text("\n".join(lines), first, col)
                ln += 1
                off = 0
                continue
            lead, name, value = m.groups()
            value = value[1:-1]
            if "\\" in value:
                value = _UNESCAPE.sub(r"\1", value)
            out.append(make_tag(names.get(name.lower(), name), value, ln, len(lead) + off + 1, ()))
            ln += 1
            off = 0
        return out

    def _tags_text(self, text: str, ln: int, col: int) -> list[Tag]:
        """The tags of a run of plain tags (comments blanked), from file line ``ln``, column ``col``."""
        out = []
        last = 0
        line_start = -col
        for m in _TAG_PARTS(text):
            start = m.start()
            breaks = text.count("\n", last, start)
            if breaks:
                ln += breaks
                line_start = text.rfind("\n", last, start)
            last = start
            name, value = m.group(1), m.group(2)[1:-1]
            if "\\" in value:
                value = _UNESCAPE.sub(r"\1", value)
            out.append(make_tag(TAG_NAMES.get(name.lower(), name), value, ln, start - line_start, ()))
        return out

    def _game_whole(self, text: str, ln: int, col: int) -> tuple[list[Tag], list[Deal]]:
        """A GAME_WHOLE token (its text, file line and column): the tags, then whole deals,
        each beginning with its deal line."""
        if len(text) > 50_000 and "{" not in text:
            lazy = self._lazy_game(text, ln, col)
            if lazy is not None:
                return lazy
        lines, ln, col = self._text_lines(text, ln, col)
        text = "\n".join(lines)
        starts = []
        i = at = 0
        for m in _DEAL_STARTS(text):
            i += text.count("\n", at, m.start() + 1)
            at = m.start() + 1
            starts.append(i)
        tags = self._tag_lines(lines[: starts[0]], ln, col)
        deals = []
        for k, a in enumerate(starts):
            b = starts[k + 1] if k + 1 < len(starts) else len(lines)
            deals.append(self._deal_lines(lines[a:b], ln + a, col if a == 0 else 1, True))
        return tags, deals

    def _lazy_game(self, text: str, ln: int, col: int) -> tuple[list[Tag], Any] | None:
        """:meth:`_game_whole` of a long game without comments: its tags, and its deals as a
        :class:`.lazy.LazyDeals` (each deal built here once, which checks it, and let go);
        None for a game of no more than LAZY_DEALS deals."""
        from .lazy import LazyDeals
        self.joined = False
        starts = array("l")
        lines = array("l")
        i = at = 0
        for m in _DEAL_STARTS(text):
            i += text.count("\n", at, m.start() + 1)
            at = m.start() + 1
            starts.append(at)
            lines.append(i)
        if len(starts) <= LAZY_DEALS:
            return None
        tags = self._tag_lines(text[:starts[0] - 1].split("\n"), ln, col)
        for k, a in enumerate(starts):
            end = starts[k + 1] - 1 if k + 1 < len(starts) else len(text)
            self._deal_lines(text[a:end].split("\n"), ln + lines[k], col if lines[k] == 0 else 1, True)
        return tags, LazyDeals(text, starts, lines, ln, col, WholeReader)

    def _deal(self, line: int, column: int, number: Word | None, dealer: Word | None, misdeals: list[Misdeal],
              hands: tuple[Hand, ...] | None, trump: Trump | None, tricks: list[Trick], tens: Tens | None,
              claim: Claim | None) -> Deal:
        if hands and tricks and hands[-1].cards and hands[-1].cards[-1].line == tricks[0].line \
                and str(tricks[0].number) in RANK_NUMBERS:
            # "hands A: AS 10 KS": the 10 began the tricks, but a card was meant
            raise DpnError("bad-card", no_suit(str(tricks[0].number)), tricks[0].line, tricks[0].column)
        _check_bare_ranks(tricks)
        return make_deal(line, column, number, dealer, tuple(misdeals), hands, trump, tuple(tricks), tens,
                           (), claim)

    def _game(self, tags: list[Tag], deals: list[Deal]) -> Game:
        """A tagged game (a tag given twice is an error of the game, which goes on)."""
        seen: dict[str, Tag] = {}
        for tag in tags:
            key = tag.name.lower()
            first = seen.setdefault(key, tag)
            if first is not tag:
                # (which value counts is said: every reader takes the first, json keeps the repeat)
                self.errors.append(DpnError(
                    "bad-tag", f'the tag "{tag.name}" is given twice in this game; keep one (the first, '
                    f'"{clip(first.value, 40)}" on line {first.line}, is the one read)', tag.line, tag.column))
        # (a long game's LazyDeals stands for the tuple: see .lazy)
        return Game(tuple(tags), deals if isinstance(deals, LazyDeals) else tuple(deals), tags[0].line,
                    tags[0].column)
