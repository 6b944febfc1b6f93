"""Parsing DPN text into the data model, with errors a card player can read.

The grammar is ``dehlanote/grammar.lark`` (LALR, contextual lexer), the only place where a
token is spelled (:mod:`.terms` derives every pattern used here from it). Lark builds the
model directly through an inline transformer, so no parse tree is made. No Lark exception
leaves this module: every failure becomes a :class:`~dehlanote.errors.DpnError` with a
stable code.

Two readings of the one grammar. The *whole* parser has the grammar's ``*_WHOLE``
terminals on: a plain tag, deal line, hand line, trump line, run of trick lines or tens
line is one token, split here by the grammar's own fine terminals. The *fine* parser has
them off and reads token by token. Every chunk is read by the whole parser first; if that
reading meets any error at all, the fine parser reads the chunk again and its reading
(and its errors) stand. A whole terminal stands for exactly the fine tokens it contains,
so both readings of a valid record are the same model; ``tests/syntax/test_fast.py``
checks that on every sample and on corpora in every writing style.

Where the time goes, and the short cuts (measured in the commits that made them): a game
that the ``GAME_WHOLE`` terminal reads (tags and whole deals; comments, glyphs, withdrawn
cards, hands and several tricks to a line included) is matched once, by the reader, which
hands its span on (:attr:`.reader.Chunk.whole`); the whole terminals' quantifiers are
possessive (:func:`.terms.atomic`). Its lines are then sorted, not checked: a trick
line is cut with ``str.split`` and its words looked up in a table of every common word
(:func:`_word_table`, built from the grammar's terminals; a line of a trick number, a
seat and four plain cards is built at once), ``str.split`` and ``map`` for a plain hand
line, one match for a tag line. Building the plays is then most of the cost.

Thread safety: the parsers and their builders hold per-parse state, so each thread has
its own pair (:func:`_parsers`); nothing per-parse is shared between threads.

Lark is imported when a chunk first needs one of its parsers (a chunk that is not one
whole game, or any error): a file of plain games is read without loading it, which saves
about 85 ms of CPU at the start of every command (:mod:`.terms` hands out the patterns
from its cache file).
"""

from __future__ import annotations

import bisect
import gc
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import accumulate, repeat
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard, cast

if TYPE_CHECKING:
    from lark import Lark, Token
    from lark.exceptions import UnexpectedInput

from ..errors import DpnError
from . import terms
from .cards import CARD_SPELLINGS, GLYPHS, STRING_BODY, SUIT_SPELLINGS, TAG_NAMES, card_of, suit_of
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
)
from .reader import GAME_WHOLE_AT, Chunk, Source, split_games, stray_tags

__all__ = ["iter_games", "iter_path", "parse_chunk", "parse_path", "parse_string", "paused_gc", "read_whole",
           "warm_up"]

_UNESCAPE = re.compile(r'\\(["\\])')
#: line ends inside a comment: a run of CRs before a LF reads as one newline, so that a
#: comment written back canonically reads the same again (fmt is idempotent on \r)
_CRLF = re.compile("\r+\n")

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

# Building NamedTuples through tuple.__new__ skips their Python-level __new__ (defaults
# and keywords): three to four times cheaper, and an archive has millions of plays.
_new = tuple.__new__


def _scanner(*names: str) -> re.Pattern[str]:
    """One regular expression finding the grammar's terminals ``names`` (in this order of
    preference, which is Lark's: higher priority first), each in a group of its name."""
    return re.compile("|".join(f"(?P<{n}>{terms.pattern(n)})" for n in names))


# The pieces of whole tokens, found with the grammar's own fine terminals. A whole token
# has already matched its terminal, so these only sort its pieces, never check them.
_TRICK_PARTS = _scanner("CARD", "WITHDRAWN", "DOTTED_INT", "INT", "SEAT").finditer
_HAND_PARTS = _scanner("CARD", "SEAT", "PIPE").finditer
_WORDS = re.compile(r"\S+").finditer
_TAG_PARTS = re.compile(r"\[[ \t]*({})[ \t]*({})".format(
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
    return table



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
_WORD_KINDS = _word_table()
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


def _is_token(item: object) -> TypeGuard[Token]:
    """Whether a child Lark gives a rule is a token (a ``str``; every other child is a model
    node or a list of them): tested so, Lark's ``Token`` class need not be imported."""
    return isinstance(item, str)


#: each limit: its code, and what the error says before "the rest of this game is not read"
_LIMITS = {
    "trick": ("trick-size", f"this trick goes on past {MAX_CARDS} cards (a trick holds one card a player)"),
    "hand": ("hand-size", f"this hand goes on past {MAX_CARDS} cards (a hand holds at most 39)"),
    "withdrawn": ("trick-size", f"more than {MAX_CARDS} cards are withdrawn before one card is played"),
    "tricks": ("trick-number", f"this deal goes on past {MAX_TRICKS} tricks (a deal has at most 39)"),
    "hands": ("hand-size", f"this hands line goes on past {MAX_HANDS} hands (a table has at most 6 players)"),
}


def _past_limit(limit: str, line: int, column: int) -> DpnError:
    """The error of the token past one of the reader's limits (see MAX_CARDS)."""
    code, what = _LIMITS[limit]
    return DpnError(code, f"{what}: the rest of this game is not read", line, column)


class _OverLimit(DpnError):
    """A limit met by the whole reading: the fine reading reads the chunk again, and its
    error (placed on the token past the limit) stands."""

    def __init__(self) -> None:
        super().__init__("syntax", "over a limit")


class _Builder:
    """Builds model nodes as Lark reduces rules (used inline: no tree is built; Lark calls
    the method named after each rule, so no Transformer base class is needed, and Lark is
    not imported for a file that never needs it).

    ``lo`` and ``co`` shift positions from the chunk being parsed to the file: every line
    moves down by ``lo``; columns on the chunk's first line move right by ``co``. One
    builder per parser, one parser per thread (see :func:`_parsers`).
    """

    def __init__(self) -> None:
        self.lo = 0
        self.co = 0
        self.comments: list[tuple[int, int, str]] = []     # the comments Lark's lexer gave: line, column, text
        self.whole_comments: list[tuple[int, int, str]] = []   # found inside whole tokens
        self.errors: list[DpnError] = []
        self.joined = False     # a comment of the whole token being read spans lines
        #: the columns of the cards of a hand line, by its shape (see _hand_line); kept from
        #: one parse to the next (not per-parse state: a function of the shape alone)
        self.hand_columns: dict[tuple[int, ...], tuple[int, ...]] = {}
        # counts for the limits (see MAX_CARDS): cards and withdrawn cards in a row, as the
        # lexer gives them, whether they are a hand's; tricks of the deal and hands of the
        # hands line being read, as they are reduced
        self.run = 0
        self.run_withdrawn = 0
        self.in_hand = False
        self.tricks_seen = 0
        self.hands_seen = 0

    def reset(self, lo: int, co: int) -> None:
        self.lo, self.co = lo, co
        self.comments = []
        self.whole_comments = []
        self.errors = []
        self.run = self.run_withdrawn = self.tricks_seen = self.hands_seen = 0
        self.in_hand = False

    # -- the limits: lexer callbacks count the fine tokens as they come ------------------
    def on_card(self, token: Token) -> Token:
        self.run += 1
        self.run_withdrawn = 0
        if self.run > MAX_CARDS:
            raise _past_limit("hand" if self.in_hand else "trick", *self._pos(token))
        return token

    def on_withdrawn(self, token: Token) -> Token:
        self.run_withdrawn += 1
        if self.run_withdrawn > MAX_CARDS:
            raise _past_limit("withdrawn", *self._pos(token))
        return token

    def on_trick_start(self, token: Token) -> Token:
        """A trick number (INT, DOTTED_INT): a trick's cards follow."""
        self.run = self.run_withdrawn = 0
        self.in_hand = False
        return token

    def on_run_start(self, token: Token) -> Token:
        """A seat or ``drawn``: cards follow, of a hand, a trick (after its leader) or the drawn card."""
        self.run = self.run_withdrawn = 0
        return token

    def on_hands(self, token: Token) -> Token:
        self.in_hand = True
        return token

    def on_deal(self, token: Token) -> Token:
        self.in_hand = False
        return token

    def lexer_callbacks(self) -> dict[str, Any]:
        return {"COMMENT": self.on_comment, "CARD": self.on_card, "WITHDRAWN": self.on_withdrawn,
                "INT": self.on_trick_start, "DOTTED_INT": self.on_trick_start, "SEAT": self.on_run_start,
                "DRAWN": self.on_run_start, "HANDS": self.on_hands, "DEAL": self.on_deal}

    def on_comment(self, token: Token) -> Token:
        self.comments.append((*self._pos(token), _comment_text(str(token))))   # (not the token: a tenth of the memory)
        return token

    # -- positions ---------------------------------------------------------------------
    def _pos(self, tok: Token) -> tuple[int, int]:
        line = tok.line or 0        # (always set by the lexer)
        return line + self.lo, (tok.column or 0) + (self.co if line == 1 else 0)

    def _word(self, tok: Token, value: object) -> Word:
        line = tok.line or 0
        return Word(value, line + self.lo, (tok.column or 0) + (self.co if line == 1 else 0))

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
            raise DpnError("syntax", f'"{_clip(text)}" is too large a number: deals, tricks and '
                           "counts have at most 9 digits", *where)
        return int(digits or "0")

    def _glyph_error(self, glyph: str, line: int, column: int) -> None:
        self.errors.append(DpnError(
            "syntax", f"a glyph ({glyph}) may follow only a card played to a trick", line, column))

    def _plain_card(self, tok: Token) -> CardRef:
        card, glyph = self._card(tok)
        line, column = self._pos(tok)
        if glyph is not None:
            self._glyph_error(glyph, line, column + len(str(tok)) - len(glyph))
        return CardRef(card, line, column)

    # -- whole tokens: the lines of a token, with file positions -------------------------
    def _lines(self, tok: Token) -> tuple[list[str], int, int]:
        """A whole token's lines (comments taken out and blanked, so that every position
        stays), the file line of the first and the file column where it starts. Sets
        ``self.joined`` when a comment spans lines (a trick may go on over that line end)."""
        line = tok.line or 0
        return self._text_lines(str(tok), line + self.lo, (tok.column or 0) + (self.co if line == 1 else 0))

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
                                            _CRLF.sub("\n", body) if "\r" in body else body))
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
        new, cards, kinds, numbers, seats = _new, CARD_SPELLINGS, _WORD_KINDS, _NUMBERS, _HAND_SEATS
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
                raise _OverLimit()
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
                    leader_word = None if seat is None else new(Word, (seat, ln, s0 + off))
                    if num is not None:
                        out.append(new(Trick, (num, *trick_at, tuple(plays), leader, ())))
                        num, plays, leader = None, [], None
                    out.append(new(Trick, (
                        number, ln, a0 + off,
                        (new(Play, (k1, ln, a1 + off, (), None, ())),
                         new(Play, (k2, ln, a2 + off, (), None, ())),
                         new(Play, (k3, ln, a3 + off, (), None, ())),
                         new(Play, (k4, ln, a4 + off, (), None, ()))),
                        leader_word, ())))
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
                        plays.append(new(Play, (kind[1], ln, at + off, tuple(withdrawn), kind[2], ())))
                        withdrawn = []
                    else:
                        plays.append(new(Play, (kind[1], ln, at + off, (), kind[2], ())))
                elif what == "number":
                    if num is not None:
                        if len(plays) > max_cards:
                            raise _OverLimit()
                        out.append(new(Trick, (num, *trick_at, tuple(plays), leader, ())))
                        plays = []
                        leader = None
                    trick_at = (ln, at + off)
                    num = kind[1]
                elif what == "seat":
                    leader = new(Word, (kind[1], ln, at + off))
                elif what == "withdrawn":
                    withdrawn.append(new(CardRef, (kind[1], ln, at + off)))
                    if len(withdrawn) > max_cards:
                        raise _OverLimit()
                at += len(word)
            if len(plays) > max_cards:
                raise _OverLimit()
            off = 1
        if len(out) > MAX_TRICKS:
            raise _OverLimit()
        if num is not None:
            out.append(new(Trick, (num, *trick_at, tuple(plays), leader, ())))

    def _scan_tricks(self, line: str, ln: int, off: int, num: int | None, trick_at: tuple[int, int],
                     leader: Word | None, plays: list[Play], withdrawn: list[CardRef],
                     out: list[Trick]) -> tuple[int | None, tuple[int, int], Word | None, list[Play], list[CardRef]]:
        """One line of tricks scanned with the grammar's fine terminals (any spelling); the
        state of the trick being read goes in and comes out."""
        new = _new
        for m in _TRICK_PARTS(line):
            kind = m.lastgroup
            part = m.group()
            if kind == "CARD":
                card, glyph = self._card(part)
                plays.append(new(Play, (card, ln, m.start() + off, tuple(withdrawn), glyph, ())))
                withdrawn = []
            elif kind == "SEAT":
                leader = new(Word, (part, ln, m.start() + off))
            elif kind == "WITHDRAWN":
                withdrawn.append(new(CardRef, (card_of(part[1:]), ln, m.start() + off)))
                if len(withdrawn) > MAX_CARDS:
                    raise _OverLimit()
            else:   # INT, DOTTED_INT: a new trick
                if num is not None:
                    if len(plays) > MAX_CARDS:
                        raise _OverLimit()
                    out.append(new(Trick, (num, *trick_at, tuple(plays), leader, ())))
                    plays = []
                    leader = None
                trick_at = (ln, m.start() + off)
                num = self._int(part, *trick_at)
        return num, trick_at, leader, plays, withdrawn

    def _hand_line(self, line: str, ln: int, off: int, out: list[Hand]) -> None:
        """The hands of one line of a whole token (one or several seats; no keyword)."""
        new, spellings = _new, CARD_SPELLINGS
        if len(line) > _LONG_LINE:
            raise _OverLimit()
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
                out.append(new(Hand, (seat, tuple(map(new, repeat(CardRef), zip(cards_of, repeat(ln), cols))),
                                      ln, start, None, ())))
                if len(out) > MAX_HANDS:
                    raise _OverLimit()
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
                append(new(CardRef, (card, ln, m.start() + off)))
            elif kind == "SEAT":
                if seat is not None:
                    out.append(new(Hand, (seat, tuple(cards), ln, col, split, ())))
                seat, col, split, cards = m.group(), m.start() + off, None, []
                append = cards.append
            elif split is None:   # PIPE; DPN 1.1: only the first | matters
                split = len(cards)
        if seat is not None:
            out.append(new(Hand, (seat, tuple(cards), ln, col, split, ())))
        if len(out) > MAX_HANDS or any(len(hand.cards) > MAX_CARDS for hand in out[first:]):
            raise _OverLimit()

    def _deal_line(self, line: str, ln: int, off: int) -> tuple[Word | None, Word | None]:
        """``deal [N] [dealer X]``: the number and the dealer."""
        m = _WORDS4(line)
        if m is not None:   # the common line: deal N dealer X
            _, _, (a, _), _, (b, _) = m.regs
            number = _NUMBERS.get(m.group(2))
            if number is None:
                number = self._int(m.group(2), ln, a + off)
            return _new(Word, (number, ln, a + off)), _new(Word, (m.group(4), ln, b + off))
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
            suit = _new(Word, (suit_of(m.group(2)), ln, a + off))
            return _new(Trump, (ln, k + off, suit, _new(Word, (m.group(4), ln, b + off)), None, False, None, ()))
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
            new, numbers = _new, _NUMBERS
            _, (k, _), (a, _), (b, _), (c, _), (d, _) = m.regs
            _, s1, n1, s2, n2 = m.groups()
            v1, v2 = numbers.get(n1), numbers.get(n2)
            if v1 is not None and v2 is not None:
                return new(Tens, (((new(Word, (s1, ln, a + off)), new(Word, (v1, ln, b + off))),
                                   (new(Word, (s2, ln, c + off)), new(Word, (v2, ln, d + off)))), ln, k + off, ()))
        w = [(m.group(), m.start() + off) for m in _WORDS(line)]
        counts = ((Word(w[1][0], ln, w[1][1]), Word(self._int(w[2][0], ln, w[2][1]), ln, w[2][1])),
                  (Word(w[3][0], ln, w[3][1]), Word(self._int(w[4][0], ln, w[4][1]), ln, w[4][1])))
        return Tens(counts, ln, w[0][1])

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
        new, names = _new, TAG_NAMES
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
            out.append(new(Tag, (names.get(name.lower(), name), value, ln, len(lead) + off + 1, ())))
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
            out.append(_new(Tag, (TAG_NAMES.get(name.lower(), name), value, ln, start - line_start, ())))
        return out

    def _game_whole(self, text: str, ln: int, col: int) -> tuple[list[Tag], list[Deal]]:
        """A GAME_WHOLE token (its text, file line and column): the tags, then whole deals,
        each beginning with its deal line."""
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

    # -- rules ---------------------------------------------------------------------------
    def play(self, children: list[Token]) -> Play:
        tok = children[-1]
        card, glyph = self._card(tok)
        line, column = self._pos(tok)
        if len(children) == 1:
            return Play(card, line, column, (), glyph)
        withdrawn = tuple(CardRef(card_of(str(w)[1:]) or "", *self._pos(w)) for w in children[:-1])
        return Play(card, line, column, withdrawn, glyph)

    def trick(self, children: list[Any]) -> Trick | list[Trick]:
        num = children[0]
        if num.type == "TRICKS_WHOLE":
            lines, ln, off = self._lines(num)
            out: list[Trick] = []
            self._tricks(lines, ln, off, out)
            self.tricks_seen += len(out)
            if self.tricks_seen > MAX_TRICKS:
                raise _OverLimit()
            return out
        line, column = self._pos(num)
        self.tricks_seen += 1
        if self.tricks_seen > MAX_TRICKS:
            raise _past_limit("tricks", line, column)
        second = children[1]
        if _is_token(second):     # the leader seat
            return Trick(self._int(num), line, column, tuple(children[2:]), self._word(second, str(second)))
        return Trick(self._int(num), line, column, tuple(children[1:]))

    def tens(self, children: list[Token]) -> Tens:
        if len(children) == 1:   # TENS_WHOLE
            lines, ln, col = self._lines(children[0])
            return self._tens_line(lines[0], ln, col)
        kw, s1, n1, s2, n2 = children
        counts = ((self._word(s1, str(s1)), self._word(n1, self._int(n1))),
                  (self._word(s2, str(s2)), self._word(n2, self._int(n2))))
        return Tens(counts, *self._pos(kw))

    def trump_whole(self, children: list[Token]) -> Trump:
        lines, ln, col = self._lines(children[0])
        return self._trump_line(lines[0], ln, col)

    def trump_suit(self, children: list[Token]) -> Trump:
        kw = children[0]
        suit = self._word(children[1], suit_of(str(children[1])))
        by = at = None
        closed = False
        i = 2
        while i < len(children):
            tok = children[i]
            kind = tok.type
            if kind == "BY":
                by = self._word(children[i + 1], str(children[i + 1]))
                i += 2
            elif kind == "AT":
                at = self._word(children[i + 1], self._int(children[i + 1]))
                i += 2
            else:  # CLOSED
                closed = True
                i += 1
        return Trump(*self._pos(kw), suit=suit, by=by, at=at, closed=closed)

    def trump_drawn(self, children: list[Token]) -> Trump:
        kw, _drawn, card = children
        return Trump(*self._pos(kw), drawn=self._plain_card(card))

    def hand(self, children: list[Token]) -> Hand:
        first = children[0]
        self.hands_seen += 1
        if self.hands_seen > MAX_HANDS:
            raise _past_limit("hands", *self._pos(first))
        if first.type == "HAND_WHOLE":
            lines, ln, col = self._lines(first)
            out: list[Hand] = []
            self._hand_line(lines[0], ln, col, out)
            return out[0]
        cards: list[CardRef] = []
        split = None
        for tok in children[1:]:
            if tok.type == "PIPE":
                if split is None:   # DPN 1.1: only the first | matters
                    split = len(cards)
            else:
                cards.append(self._plain_card(tok))
        line, column = self._pos(first)
        return Hand(str(first), tuple(cards), line, column, split)

    def hands(self, children: list[Any]) -> tuple[Hand, ...]:
        self.hands_seen = 0     # (each hand was counted as it was reduced, see hand)
        return tuple(children[1:])

    def claim(self, children: list[Token]) -> Claim:
        kw, seat = children
        return Claim(str(seat), *self._pos(kw))

    def misdeal(self, children: list[Token]) -> Misdeal:
        return Misdeal(*self._pos(children[0]))

    def deal(self, children: list[Any]) -> Deal:
        self.tricks_seen = 0    # (this deal's tricks are all reduced and counted: the next deal's count)
        kw = children[0]
        kind = kw.type
        if kind == "DEAL_TENS_WHOLE":
            lines, line, column = self._lines(kw)
            return self._deal_lines(lines, line, column, True)
        trump = tens = hands = claim = None
        misdeals: list[Misdeal] = []
        tricks: list[Trick]
        if kind == "DEAL_WHOLE":
            lines, line, column = self._lines(kw)
            d = self._deal_lines(lines, line, column, False)
            number, dealer, hands, trump, tricks = d.number, d.dealer, d.hands, d.trump, list(d.tricks)
            misdeals = list(d.misdeals)
        elif kind == "DEAL_HEAD_WHOLE":
            lines, line, column = self._lines(kw)
            number, dealer = self._deal_line(lines[0], line, column)
            tricks = []
        else:
            line, column = self._pos(kw)
            number = dealer = None
            tricks = []
        i = 1
        n = len(children)
        while i < n:
            item = children[i]
            kind = type(item)
            if kind is Trick:
                tricks.append(item)
            elif kind is list:
                tricks += item
            elif _is_token(item):
                if item.type == "INT":
                    number = self._word(item, self._int(item))
                else:  # DEALER SEAT
                    i += 1
                    dealer = self._word(children[i], str(children[i]))
            elif kind is Misdeal:
                misdeals.append(item)
            elif kind is Trump:
                trump = item
            elif kind is Tens:
                tens = item
            elif kind is Claim:
                claim = item
            else:
                hands = item
            i += 1
        if len(tricks) > MAX_TRICKS:    # (a whole deal's tricks and more after it)
            raise _OverLimit()
        return self._deal(line, column, number, dealer, misdeals, hands, trump, tricks, tens, claim)

    def _deal(self, line: int, column: int, number: Word | None, dealer: Word | None, misdeals: list[Misdeal],
              hands: tuple[Hand, ...] | None, trump: Trump | None, tricks: list[Trick], tens: Tens | None,
              claim: Claim | None) -> Deal:
        if hands and tricks and hands[-1].cards and hands[-1].cards[-1].line == tricks[0].line \
                and str(tricks[0].number) in _RANK_NUMBERS:
            # "hands A: AS 10 KS": the 10 began the tricks, but a card was meant
            raise DpnError("bad-card", _no_suit(str(tricks[0].number)), tricks[0].line, tricks[0].column)
        _check_bare_ranks(tricks)
        return _new(Deal, (line, column, number, dealer, tuple(misdeals), hands, trump, tuple(tricks), tens,
                           (), claim))

    def tag(self, children: list[Token]) -> Tag | list[Tag]:
        if len(children) == 1:   # TAGS_WHOLE
            lines, ln, col = self._lines(children[0])
            return self._tags_text("\n".join(lines), ln, col)
        bracket, name_tok, value_tok = children
        name, value = str(name_tok), str(value_tok)[1:-1]
        if "\\" in value:
            value = _UNESCAPE.sub(r"\1", value)
        return Tag(TAG_NAMES.get(name.lower(), name), value, *self._pos(bracket))

    def untagged_game(self, children: list[Deal]) -> Game:
        first = children[0]
        return Game((), tuple(children), first.line, first.column)

    def tagged_game(self, children: list[Any]) -> Game:
        tags: list[Tag] = []
        deals: list[Deal] = []
        for c in children:
            kind = type(c)
            if kind is Deal:
                deals.append(c)
            elif kind is list:
                tags += c
            elif _is_token(c):     # GAME_WHOLE
                more_tags, deals = self._game_whole(str(c), *self._pos(c))
                tags += more_tags
            else:
                tags.append(c)
        return self._game(tags, deals)

    def _game(self, tags: list[Tag], deals: list[Deal]) -> Game:
        """A tagged game (a tag given twice is an error of the game, which goes on)."""
        seen: set[str] = set()
        for tag in tags:
            key = tag.name.lower()
            if key in seen:
                self.errors.append(DpnError(
                    "bad-tag", f'the tag "{tag.name}" is given twice in this game; keep one',
                    tag.line, tag.column))
            seen.add(key)
        return Game(tuple(tags), tuple(deals), tags[0].line, tags[0].column)

    def start(self, children: list[Game]) -> list[Game]:
        return children


#: white space and comments, unrolled so that a run of blank lines can be split in only one
#: way ((?:WS|COMMENT)* with WS a + loop backtracked exponentially in it)
_IGNORED = re.compile("(?:{ws})?(?:{comment}(?:{ws})?)*".format(ws=terms.pattern("WS"),
                                                              comment=terms.pattern("COMMENT")))


def _whole_span(text: str) -> tuple[int, int] | None:
    """Where the one GAME_WHOLE token of a chunk stands, when the chunk is that token
    between white space and comments (else None). The game's regular expression is the
    reader's (compiled once: it is the largest of all)."""
    at = _IGNORED.match(text)
    game = GAME_WHOLE_AT(text, at.end() if at is not None else 0)
    if game is None or _IGNORED.fullmatch(text, game.end()) is None:
        return None
    return game.span()


def _comment_text(comment: str) -> str:
    """A comment's text without its braces; a comment that spans lines of a CRLF file keeps
    plain newlines, as every other text does."""
    body = comment[1:-1]
    return _CRLF.sub("\n", body) if "\r" in body else body


class _Parser:
    """A Lark LALR parser with its builder: per-parse state, so one per thread."""

    def __init__(self, whole: bool) -> None:
        self.builder = _Builder()
        self.whole = whole
        self.lark: Lark | None = None
        if not whole:
            self._lark()

    def _lark(self) -> Lark:
        """The Lark parser, made (and Lark imported) when first needed."""
        if self.lark is None:
            self.lark = terms.make_lark(whole=self.whole, transformer=self.builder,
                                        lexer_callbacks=self.builder.lexer_callbacks())
        return self.lark

    def _at(self, text: str, i: int) -> tuple[int, int]:
        """The file line and column of index ``i`` of the chunk's ``text`` (as :meth:`_Builder._pos`
        gives them for a token that Lark's lexer found there)."""
        line = text.count("\n", 0, i) + 1
        b = self.builder
        return line + b.lo, i - text.rfind("\n", 0, i) + (b.co if line == 1 else 0)

    def _at_each(self, text: str) -> Callable[[int], tuple[int, int]]:
        """:meth:`_at` for indices in increasing order, each found from the one before (a
        long line of comments is placed in linear time)."""
        b = self.builder
        last, line, nl = 0, 1, -1

        def at(i: int) -> tuple[int, int]:
            nonlocal last, line, nl
            line += text.count("\n", last, i)
            k = text.rfind("\n", last, i)
            if k >= 0:
                nl = k
            last = i
            return line + b.lo, i - nl + (b.co if line == 1 else 0)
        return at

    def parse(self, chunk: Chunk) -> tuple[list[Game], list[DpnError]]:
        """Parse one chunk of text: its games and the errors found on the way (raises
        DpnError, positions in the file, for an error that stops the chunk)."""
        b = self.builder
        b.reset(chunk.line - 1, chunk.column - 1)
        text = chunk.text
        span = None
        if self.whole:
            # A chunk that is one GAME_WHOLE token between white space is a plain game: Lark
            # would lex that one token and reduce it to a tagged game; the builder does just
            # that here, without Lark's per-parse set-up (a third of the time of a plain game).
            if chunk.whole is not None:     # the reader matched GAME_WHOLE already
                span = chunk.whole
            else:
                span = _whole_span(text)
        if span is not None:
            # the game is one GAME_WHOLE token: read as Lark would reduce it to a tagged game
            at, end = span
            if "{" in text[:at] or "{" in text[end:]:   # comments before or after: as Lark's lexer gives them
                where = self._at_each(text)
                for c in _COMMENT_TOKENS(text):
                    if c.start() < at or c.start() >= end:
                        b.whole_comments.append((*where(c.start()), _comment_text(c.group())))
            tags, deals = b._game_whole(text[at:end], *self._at(text, at))
            games = [b._game(tags, deals)]
        else:
            from lark.exceptions import UnexpectedInput
            try:
                games = self._lark().parse(text)  # type: ignore[assignment]
            except UnexpectedInput as exc:
                raise _translate(exc, chunk) from None
        if b.comments or b.whole_comments:
            # comments before the first game's first element belong to that game; a comment
            # that spans lines of a CRLF file keeps plain newlines, as every other text does
            comments = b.comments
            if b.whole_comments:
                comments = sorted(comments + b.whole_comments, key=lambda c: (c[0], c[1]))
            if len(games) == 1:     # (every comment is the game's)
                games = [_attach_comments(games[0], comments)]
            else:
                games = [_attach_comments(g, [c for c in comments if _within(c[:2], g, games)]) for g in games]
            b.comments, b.whole_comments = [], []     # (attached: let go)
        return games, b.errors


def _with_errors(games: list[Game], found: list[DpnError]) -> list[Game]:
    if not found:
        return games
    errors = sorted(found, key=lambda e: (e.line, e.column))
    return [g._replace(errors=tuple(e for e in errors if _inside(e, g, games))) for g in games]


class _Parsers(threading.local):
    """This thread's parsers: the whole-element one and the fine one, made when first used."""

    whole: _Parser | None = None
    fine: _Parser | None = None


_local = _Parsers()


def _parsers() -> _Parsers:
    """This thread's parsers, the whole-element one made; the fine one is made by
    :func:`_fine` when a reading first needs it (a valid file never does: half the
    start-up of a short run is saved)."""
    p = _local
    if p.whole is None:
        p.whole = _Parser(whole=True)
    return p


def _fine() -> _Parser:
    p = _parsers()
    if p.fine is None:
        p.fine = _Parser(whole=False)
    return p.fine


def warm_up() -> None:
    """Make this thread's parsers now, both (a worker process does it once, before its
    first batch; a timed run before its clock starts)."""
    _fine()



def read_whole(chunk: Chunk) -> list[Game] | None:
    """The games of a chunk as the whole-element parser reads them, or None when that
    reading meets any error (then only the fine reading counts). For tests and benchmarks."""
    if chunk.encoding_errors:
        return None
    p = _parsers()
    assert p.whole is not None
    try:
        games, found = p.whole.parse(chunk)
    except DpnError:
        p.whole.builder.reset(0, 0)     # (what it collected is let go before the fine reading)
        return None
    if found:
        p.whole.builder.reset(0, 0)
        return None
    return games


def _read(chunk: Chunk, whole: bool = True) -> list[Game]:
    """The games of a chunk (raises DpnError for an error that stops it): read with the
    whole-element parser, and again with the fine one when that meets any error."""
    if whole:
        games = read_whole(chunk)
        if games is not None:
            return games
    games, found = _fine().parse(chunk)
    return _with_errors(games, found)


def _no_suit(word: str) -> str:
    """The message for a rank written without its suit (``8`` for ``8S``)."""
    rank = {"T": "10"}.get(word.upper(), word.upper())
    return f'"{word}" has no suit: write {rank}S, {rank}H, {rank}D or {rank}C'


#: the numbers that are also ranks: a lone one where a card should be is a card without its suit
_RANK_NUMBERS = frozenset(str(n) for n in range(2, 11))


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
        if rank in _RANK_NUMBERS and (nxt.number != prev.number + 1 or len(nxt.plays) < 4):
            raise DpnError("bad-card", _no_suit(rank), nxt.line, nxt.column)


def _inside(error: DpnError, game: Game, games: list[Game]) -> bool:
    """Whether an error position falls in ``game`` (games are in file order)."""
    return _within((error.line, error.column), game, games)


def _within(pos: tuple[int, int], game: Game, games: list[Game]) -> bool:
    """Whether a position falls in ``game`` (games are in file order; what comes before the
    first game belongs to it)."""
    idx = games.index(game)
    start = (game.line, game.column)
    end = (games[idx + 1].line, games[idx + 1].column) if idx + 1 < len(games) else (1 << 60, 0)
    return start <= pos < end or (idx == 0 and pos < start)


# ---- comments ------------------------------------------------------------------------

def _attach_comments(game: Game, comments: list[tuple[int, int, str]]) -> Game:
    """Attach each comment to the element it follows (or to the game, before any).

    The element a comment follows is the one whose position is the last before the
    comment's. Elements stand in file order (tags, then deals; in a deal its keyword,
    misdeals, hands and trump in either order, tricks and their plays, claim, tens), so the
    deal is found by bisection and, inside it, the element by a few comparisons; only the
    nodes that get a comment are rebuilt.
    """
    if not comments:
        return game
    deals = game.deals
    deal_keys = [(d.line, d.column) for d in deals]
    tag_keys = [(t.line, t.column) for t in game.tags]
    on_game: list[str] = []
    on_tags: dict[int, list[str]] = {}
    on_deals: dict[int, dict[tuple[Any, ...], list[str]]] = {}
    for line, column, text in comments:
        pos = (line, column)
        d = bisect.bisect_left(deal_keys, pos) - 1
        if d >= 0:
            on_deals.setdefault(d, {}).setdefault(_deal_target(deals[d], pos), []).append(text)
            continue
        t = bisect.bisect_left(tag_keys, pos) - 1
        if t >= 0:
            on_tags.setdefault(t, []).append(text)
        else:
            on_game.append(text)
    if on_tags:
        tags = list(game.tags)
        for t, extra in on_tags.items():
            tags[t] = _with_comments(tags[t], extra)
        game = game._replace(tags=tuple(tags))
    if on_deals:
        new_deals = list(deals)
        for d, found in on_deals.items():
            new_deals[d] = _deal_comments(deals[d], found)
        game = game._replace(deals=tuple(new_deals))
    return _with_comments(game, on_game) if on_game else game


def _with_comments(node: Any, extra: list[str]) -> Any:
    """``node`` with comments ``extra`` added (built as the builder builds nodes)."""
    i = _COMMENTS_AT[type(node)]
    return _new(type(node), (*node[:i], node[i] + tuple(extra), *node[i + 1:]))


_DEAL_FIELDS = {name: i for i, name in enumerate(Deal._fields)}
#: where each node keeps its comments
_COMMENTS_AT = {kind: kind._fields.index("comments")
                for kind in (Tag, Play, Trick, Hand, Trump, Misdeal, Tens, Claim, Deal, Game)}


def _deal_target(deal: Deal, pos: tuple[int, int]) -> tuple[Any, ...]:
    """Which element of ``deal`` a comment at ``pos`` (after the deal's keyword) follows."""
    tens, claim, tricks = deal.tens, deal.claim, deal.tricks
    if tens is not None and (tens.line, tens.column) < pos:
        return ("tens",)
    if claim is not None and (claim.line, claim.column) < pos:
        return ("claim",)
    if tricks and (tricks[0].line, tricks[0].column) < pos:
        t = bisect.bisect_left([(k.line, k.column) for k in tricks], pos) - 1
        firsts = [(p.withdrawn[0] if p.withdrawn else p) for p in tricks[t].plays]
        p = bisect.bisect_left([(f.line, f.column) for f in firsts], pos) - 1
        return ("trick", t) if p < 0 else ("play", t, p)
    best: tuple[int, int] = (deal.line, deal.column)
    target: tuple[Any, ...] = ("deal",)
    parts: list[tuple[tuple[int, int], tuple[Any, ...]]] = [
        ((m.line, m.column), ("misdeal", i)) for i, m in enumerate(deal.misdeals)]
    parts += [((h.line, h.column), ("hand", i)) for i, h in enumerate(deal.hands or ())]
    if deal.trump is not None:
        parts.append(((deal.trump.line, deal.trump.column), ("trump",)))
    for key, where in parts:
        if best < key < pos:
            best, target = key, where
    return target


def _deal_comments(deal: Deal, found: dict[tuple[Any, ...], list[str]]) -> Deal:
    """``deal`` with the comments ``found`` (by :func:`_deal_target`) attached."""
    changes: dict[str, Any] = {}
    tricks: list[Trick] | None = None
    for where, extra in found.items():
        kind = where[0]
        if kind == "deal":
            continue
        if kind in ("tens", "claim", "trump"):
            changes[kind] = _with_comments(getattr(deal, kind), extra)
        elif kind == "misdeal":
            misdeals = list(changes.get("misdeals", deal.misdeals))
            misdeals[where[1]] = _with_comments(misdeals[where[1]], extra)
            changes["misdeals"] = tuple(misdeals)
        elif kind == "hand":
            hands = list(changes.get("hands", deal.hands or ()))
            hands[where[1]] = _with_comments(hands[where[1]], extra)
            changes["hands"] = tuple(hands)
        else:
            if tricks is None:
                tricks = list(deal.tricks)
            t = where[1]
            if kind == "trick":
                tricks[t] = _with_comments(tricks[t], extra)
            else:
                plays = list(tricks[t].plays)
                plays[where[2]] = _with_comments(plays[where[2]], extra)
                tricks[t] = tricks[t]._replace(plays=tuple(plays))
    if tricks is not None:
        changes["tricks"] = tuple(tricks)
    if changes:
        fields = list(deal)
        for name, value in changes.items():
            fields[_DEAL_FIELDS[name]] = value
        deal = _new(Deal, fields)
    on_deal = found.get(("deal",))
    return _with_comments(deal, on_deal) if on_deal else deal


# ---- errors --------------------------------------------------------------------------

_WORD = re.compile(r'[^\s\[\]{}"]+')
#: what a player meant as a card: a number or one letter then a suit, or a rank then a letter
_RANK, _SUIT, _GLYPH = terms.pattern("_RANK"), terms.pattern("_SUIT"), terms.pattern("_GLYPH")
_CARDLIKE = re.compile(f"-?(?:[0-9]{{1,3}}|[A-Za-z]){_SUIT}[!?]*|-?{_RANK}[A-Za-z][!?]*")
_KEYWORD_WORDS = set(terms.KEYWORDS.values())
_CARD_RUN = re.compile(f"(?:{_RANK}{_SUIT}{_GLYPH}?){{2,}}")
# runs scanned backwards from an error (see _run_back)
_SPACES = re.compile(r"\s*")
_WORD_CHARS = re.compile(r'[^\s\[\]{}"]*')
_NAME_CHARS = re.compile(r"[A-Za-z0-9_]*")
_LETTER = re.compile(r"[A-Za-z]")


def _run_back(chars: re.Pattern[str], text: str, i: int, limit: int = 1 << 62) -> int:
    """Where the run of ``chars`` (a pattern ``[...]*``) that ends at ``i`` starts (scanning
    back at most about ``limit`` characters).

    Reversed slices are matched forwards: a pattern anchored with ``$`` and searched from the
    start of the text retries at every position of every run it passes, which took time
    quadratic in the length of a long tag value or comment before a syntax error.
    """
    start = i
    while i > 0 and start - i < limit:
        lo = max(0, i - 4096)
        piece = text[lo:i][::-1]
        m = chars.match(piece)
        n = m.end() if m is not None else 0
        i -= n
        if n < len(piece):
            break
    return i


def _previous_word(text: str, at: int) -> str:
    """The word before ``at``, past spaces and comments ('' when something else stands
    there). Only its last 64 characters: more than any word it is compared with."""
    return _previous_word_at(text, at)[1]


def _previous_word_at(text: str, at: int) -> tuple[int, str]:
    """Where the word before ``at`` starts, and the word (see :func:`_previous_word`)."""
    i = at
    while True:
        i = _run_back(_SPACES, text, i)
        if i > 0 and text[i - 1] == "}":
            opening = text.find("{", text.rfind("}", 0, i - 1) + 1, i - 1)
            if opening < 0:
                return i, ""
            i = opening
            continue
        break
    start = max(_run_back(_WORD_CHARS, text, i, 64), i - 64)
    return start, text[start: i]


def _name_tail(text: str, at: int) -> int | None:
    """Where the tag name that runs into ``at`` starts (letters, digits and _, from a letter)."""
    m = _LETTER.search(text, _run_back(_NAME_CHARS, text, at), at)
    return m.start() if m is not None else None


def _clip(word: str, size: int = 30) -> str:
    """A word as a message shows it: a long one cut short."""
    return word if len(word) <= size else word[: size - 3] + "..."

_DESCRIBE = {
    "CARD": "a card", "WITHDRAWN": "a card", "INT": "a number", "SEAT": "a seat (A B C D, or A to F with six players)",
    "SIDE": "a side (AC or BD)", "SUIT": "a trump suit (S H D C)", "DEAL": "deal",
    "DEALER": "dealer", "MISDEAL": "misdeal", "HANDS": "hands", "TRUMP": "trump",
    "BY": "by", "AT": "at", "CLOSED": "closed", "DRAWN": "drawn", "TENS": "tens", "CLAIM": "claim",
    "DOTTED_INT": "a trick number", "COMMA": "','",
    "LSQB": "a tag", "NAME": "a tag name", "STRING": 'a tag value in double quotes',
    "RSQB": "']'", "COLON": "':' after the seat", "PIPE": "'|'", "$END": "the end of the file",
}
_ORDER = ["CARD", "INT", "SEAT", "SIDE", "SUIT", "NAME", "STRING", "RSQB", "COLON", "DEALER",
          "BY", "AT", "CLOSED", "DRAWN", "PIPE", "MISDEAL", "HANDS", "TRUMP", "CLAIM", "TENS", "DEAL",
          "LSQB", "$END"]
_KEYWORDS = set(terms.KEYWORDS)
#: terminals that can only be expected between two elements (a deal line, a trick, ...)
_BOUNDARY = {"TENS", "DEAL", "LSQB", "TRUMP", "HANDS", "MISDEAL", "CLAIM"}


def _normalise_expected(expected: Iterable[str]) -> set[str]:
    """Lark's names of the expected terminals, with its anonymous ones named."""
    names = set()
    for e in expected:
        if e in ("RSQB", "__ANON_0") or e == "]":
            names.add("RSQB")
        elif e in ("COMMA", ","):
            names.add("COMMA")
        elif e.startswith("__ANON") or e in ("COLON", ":"):
            names.add("COLON")
        else:
            names.add(e)
    return names


def _expected_words(names: set[str], before: str) -> str:
    ordered = [n for n in _ORDER if n in names]
    words: list[str] = []
    for n in ordered:
        if n == "INT":
            prev = before.lower()
            if prev == "deal":
                text = "a deal number"
            elif prev == "at":
                text = "the number of the trick where trump was set"
            elif prev in ("ac", "bd", "ace", "bdf") and "CARD" not in names:
                text = "the number of tens"
            else:
                text = "a trick number"
        elif n in _KEYWORDS:
            text = f"'{_DESCRIBE[n]}'"
        else:
            text = _DESCRIBE[n]
        if text not in words:
            words.append(text)
    if not words:
        return "something else"
    if len(words) > 3:
        words = words[:3]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _card_problem(word: str) -> str:
    bare = word.lstrip("-").rstrip("!?")
    suit = bare[-1:]
    rank = bare[:-1]
    if suit not in SUIT_SPELLINGS:
        return f'"{word}" is not a card: suits are S H D C (or ♠ ♥ ♦ ♣)'
    if rank in ("1",):
        return f'"{word}" is not a card: a ten is written 10 or T'
    return f'"{word}" is not a card: ranks are A K Q J 10 9 8 7 6 5 4 3 2'


def _position(text: str, index: int) -> tuple[int, int]:
    """1-based line and column in ``text`` of the character at ``index``."""
    return text.count("\n", 0, index) + 1, index - text.rfind("\n", 0, index)


_TAG_NAME_RULE = "a tag name is letters, digits and _, starting with a letter"


def _translate(exc: UnexpectedInput, chunk: Chunk) -> DpnError:
    """Turn a Lark error into a DpnError a card player can read.

    Positions point at the token at fault; when something is missing at the end of a game
    (the text stops, or the next game's tags begin), just after the game's last token.
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken
    text = chunk.text
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        at = len(text.rstrip())
        expected = exc.expected
    elif isinstance(exc, UnexpectedToken):
        at = exc.token.start_pos if exc.token.start_pos is not None else 0
        expected = exc.expected
    else:
        assert isinstance(exc, UnexpectedCharacters)
        at = exc.pos_in_stream or 0
        expected = exc.allowed or set()
    names = _normalise_expected(expected)
    m = _WORD.match(text, at)
    word = m.group(0) if m else text[at: at + 1]
    before = _previous_word(text, at)
    shown = _clip(word)
    in_tag = bool(names & {"NAME", "STRING", "RSQB"}) and "CARD" not in names

    def err(code: str, message: str, index: int = at) -> DpnError:
        line, column = _position(text, index)
        line_start = text.rfind("\n", 0, index) + 1
        line_end = text.find("\n", index)
        source_line = text[line_start: len(text) if line_end < 0 else line_end]
        if line == 1 and chunk.column > 1:
            source_line = " " * (chunk.column - 1) + source_line
            column += chunk.column - 1
        return DpnError(code, message, line + chunk.line - 1, column, source_line=source_line)

    what = _expected_words(names, before)
    if "CARD" in names and before in _RANK_NUMBERS and suit_of(word) is None:
        # "9 A: 7S 4H 5S 10": the 10 was read as a trick number, but a card was meant
        start, _ = _previous_word_at(text, at)
        _, card = _previous_word_at(text, start)
        if card_of(card.rstrip("!?,")) is not None and "\n" not in text[start - len(card): start]:
            return err("bad-card", _no_suit(before), start)
    if at >= len(text.rstrip()):
        if in_tag:
            return err("bad-tag", f"the tag is not finished: expected {what} before the end of the file")
        if chunk.last:
            return err("syntax", f"the record ends too soon: expected {what}")
        return err("syntax", f"the game breaks off before the next game's tags: expected {what}")
    first = text[at]
    if first == "{":
        return err("syntax", "this comment is never closed: a { needs a matching }")
    if first == "\ufffd":
        return err("syntax", "this character is not UTF-8 text")
    if in_tag or (before == "[" and first != "["):
        if "NAME" in names:
            if first == '"':
                return err("bad-tag", 'the tag has no name: a tag is [Name "value"]')
            return err("bad-tag", f'"{shown}" is not a tag name: {_TAG_NAME_RULE}')
        if "STRING" in names:
            if first == '"':
                return err("bad-tag", "the tag value is never closed: it needs a closing \" on the same line")
            if at > 0 and not text[at - 1].isspace():
                name = _name_tail(text, at)
                if name is not None:
                    return err("bad-tag", f'"{_clip(text[name:at] + word)}" is not a tag name: {_TAG_NAME_RULE}',
                               name)
            return err("bad-tag", f'the tag value must be in double quotes: [Name "value"], found "{shown}"')
        gap = len(text[:at].rstrip())
        if "\n" in text[gap:at]:
            return err("bad-tag", "the tag is not closed: expected ']' after the value", gap)
        return err("bad-tag", f"the tag is not closed: expected ']' after the value, found \"{shown}\"")
    if first == "[" and "LSQB" not in names:
        return err("syntax", f"a tag cannot stand here: expected {what}")
    bare = word.lstrip("-").rstrip("!?")
    lone = bare.rstrip(",")
    if "CARD" in names and lone in _RANK_NUMBERS:
        return err("bad-card", _no_suit(lone), at + (word.startswith("-")))
    if "CARD" in names and lone.upper() in ("A", "K", "Q", "J", "T") \
            and not ("SEAT" in names and lone in "abcdef"):
        # a letter is no number, so it never began a trick: a syntax error, with the hint
        hint = _no_suit(lone).split(" has no suit: ")[1]
        return err("syntax", f'expected {what}, found "{lone}", which has no suit: {hint}',
                   at + (word.startswith("-")))
    if "CARD" in names and _CARDLIKE.fullmatch(word) and CARD_SPELLINGS.get(bare) is None \
            and word.lower() not in _KEYWORD_WORDS:
        return err("bad-card", _card_problem(word))
    if "CARD" in names and before.startswith("-") and CARD_SPELLINGS.get(before[1:]):
        return err("syntax", f'"{before}" must be followed by the card played instead, found "{shown}"')
    if first in "!?":
        start = at
        while start > 0 and not text[start - 1].isspace() and text[start - 1] not in '[]{}"':
            start -= 1
        if start < at:
            glued_at = _WORD.match(text, start)
            glued = _clip(glued_at.group(0) if glued_at is not None else text[start:at + 1])
            return err("syntax", f'"{glued}": a glyph is one of ! ? !! ?? !? ?!, right after the card', start)
        return err("syntax", f'"{shown}": a glyph goes right after its card, with no space between')
    if "CARD" in names and word.startswith("-") and CARD_SPELLINGS.get(bare):
        return err("syntax", f'"{shown}": a withdrawn card takes no glyph and must be followed by '
                   "the card played instead")
    if first == "-" and "CARD" in names:
        return err("syntax", f'"{shown}": a withdrawn card is written -X, a minus sign right before a card')
    boundary = bool(names & _BOUNDARY) or {"INT", "CARD"} <= names
    if boundary and word.lower() == "trump" and "TRUMP" not in names:
        return err("syntax", f"the trump line must come before the first trick: expected {what}")
    if boundary and word.lower() == "hands" and "HANDS" not in names:
        return err("syntax", f"one hands line per deal, before the first trick: expected {what}")
    if "CARD" in names and (CARD_SPELLINGS.get(word[:2]) or CARD_SPELLINGS.get(word[:3])) \
            and len(word) <= 200 and _CARD_RUN.fullmatch(word):
        return err("syntax", f'"{shown}": put a space between two cards')
    if CARD_SPELLINGS.get(word.rstrip("!?")) and "CARD" not in names:
        return err("syntax", f"expected {what}, found the card {shown}")
    if len(word.rstrip(":")) == 1 and word[0] in "abcdef" and "SEAT" in names:
        return err("syntax", f'seats are written in capitals: expected {what}, found "{shown}"')
    return err("syntax", f'expected {what}, found "{shown}"')


# ---- public API ----------------------------------------------------------------------

def parse_chunk(chunk: Chunk, *, keep_source: bool = False, whole: bool = True) -> list[Game]:
    """Parse the text of one game (as cut by the reader); errors go into the games.

    Read with the whole-element terminals first, and token by token where that meets any
    error (``whole=False``: token by token only, the reference reading); see the module's
    docstring.
    """
    encoding = [
        DpnError("encoding",
                 f"byte 0x{p.byte:02X} at byte offset {p.offset} is not UTF-8: save the file as UTF-8",
                 p.line, p.column, offset=p.offset)
        for p in chunk.encoding_errors
    ]
    broken: list[Game] = []
    while True:
        try:
            games = _read(chunk, whole)
        except DpnError as error:
            cut = _resync(chunk, error)
            if cut is None:
                games = [_broken_game(chunk, error, encoding)]
                break
            # the game broke off in its tags and another game's tags follow: read that one
            head, chunk = _split(chunk, cut)
            mine = [e for e in encoding if (e.line, e.column) < (chunk.line, chunk.column)]
            encoding = [e for e in encoding if (e.line, e.column) >= (chunk.line, chunk.column)]
            broken += _sourced([_broken_game(head, error, mine)], head, keep_source)
            continue
        games = stray_tags(games)
        if encoding:
            first = games[0] if games else Game((), (), chunk.line, chunk.column)
            games = [first._replace(errors=tuple(encoding) + first.errors)] + games[1:]
        break
    return broken + _sourced(games, chunk, keep_source)


#: where a game keeps its source text (the last two fields: source, source_line)
_SOURCE_AT = Game._fields.index("source")
assert Game._fields[_SOURCE_AT:] == ("source", "source_line")


def _sourced(games: list[Game], chunk: Chunk, keep_source: bool) -> list[Game]:
    if keep_source and games:
        text = " " * (chunk.column - 1) + chunk.text if chunk.column > 1 else chunk.text
        # (built as the builder builds nodes: _replace is a Python function, once a game)
        games = [_new(Game, (*g[:_SOURCE_AT], text, chunk.line)) for g in games]
    return games


_DEAL_WORD = re.compile(r"(?<![0-9A-Za-z_])" + terms.pattern("DEAL"))
_DEAL_LINE = re.compile(r"(?:^|(?<=\n))[ \t\r\ufeff]*" + terms.pattern("DEAL"))
_NAME = terms.pattern("NAME")
#: a blank line, then a line that opens with a whole tag (comments may come first): where
#: a new game may start
_GAME_START = re.compile(r'\n[ \t\r\ufeff]*\n[ \t\r\n\ufeff]*(?=(?:' + terms.pattern("COMMENT")
                         + r'[\s\ufeff]*)*\[[ \t]*' + _NAME + r'[ \t]*"' + STRING_BODY + r'"[ \t]*\])')


def _resync(chunk: Chunk, error: DpnError) -> int | None:
    """Where to read again after a syntax error in a game's tags, or None.

    The reader starts a game at a tag only after a deal, so a game that breaks off in its
    tags (a truncated record, a tag value never closed) took the next game with it, deals
    and all, into one broken game. After such an error, a blank line then a line opening
    with a whole tag (comments may come first) starts a new game, when no deal keyword
    comes before it.
    """
    text = chunk.text
    line_start = 0
    for _ in range(error.line - chunk.line):
        line_start = text.find("\n", line_start) + 1
        if line_start == 0:
            return None
    after = text.find("\n", line_start)
    if after < 0:
        return None
    m = _GAME_START.search(text, after)
    if m is None:
        return None
    # a real deal starts a line (the word in a comment or a tag value is no deal)
    deal = _DEAL_LINE.search(text, 0, m.end())
    return m.end() if deal is None else None


def _split(chunk: Chunk, cut: int) -> tuple[Chunk, Chunk]:
    """The chunk cut in two at ``cut`` (which follows a newline)."""
    text = chunk.text
    line = chunk.line + text.count("\n", 0, cut)
    column = cut - text.rfind("\n", 0, cut)
    head = Chunk(text[:cut], chunk.line, chunk.column,
                 tuple(p for p in chunk.encoding_errors if (p.line, p.column) < (line, column)), False)
    tail = Chunk(text[cut:], line, column,
                 tuple(p for p in chunk.encoding_errors if (p.line, p.column) >= (line, column)), chunk.last)
    return head, tail


_TAG = re.compile(r'\[\s*(' + _NAME + r')\s*"(' + STRING_BODY + r')"\s*\]')
_FIRST = re.compile(r"\S")


def _broken_game(chunk: Chunk, error: DpnError, encoding: list[DpnError]) -> Game:
    """The game of a chunk that did not parse: its tags as far as they can be read."""
    text = chunk.text
    deal_at = _DEAL_WORD.search(text)
    head = text[: deal_at.start()] if deal_at else text
    tags = []
    for m in _TAG.finditer(head):
        line = chunk.line + text.count("\n", 0, m.start())
        nl = text.rfind("\n", 0, m.start())
        column = m.start() - nl + (chunk.column - 1 if nl < 0 else 0)
        name = m.group(1)
        tags.append(Tag(TAG_NAMES.get(name.lower(), name), _UNESCAPE.sub(r"\1", m.group(2)), line, column))
    first = _FIRST.search(text)
    line, column = chunk.line, chunk.column
    if first is not None:
        line += text.count("\n", 0, first.start())
        nl = text.rfind("\n", 0, first.start())
        column = first.start() - nl + (chunk.column - 1 if nl < 0 else 0)
    errors = list(encoding)
    if not any((e.line, e.column) == (error.line, error.column) for e in encoding):
        errors.append(error)
    return Game(tuple(tags), (), line, column, errors=tuple(errors))


def iter_games(source: Source, *, keep_source: bool = False) -> Iterator[Game]:
    """Games one at a time from a string or a text or binary stream.

    Only one game's text is in memory at a time. A game that cannot be read is yielded
    with its errors (and no deals); reading goes on with the next game.
    """
    for chunk in split_games(source):
        yield from parse_chunk(chunk, keep_source=keep_source)


def iter_path(path: str | Path, *, keep_source: bool = False) -> Iterator[Game]:
    """Games one at a time from a file (read as UTF-8; raises OSError if unreadable)."""
    with open(path, "rb") as stream:
        yield from iter_games(stream, keep_source=keep_source)


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


def _all(games: Iterator[Game], strict: bool) -> list[Game]:
    with paused_gc():   # the games pile up: spare the collector rescanning them
        found = list(games)
    if strict:
        for game in found:
            if game.errors:
                raise game.errors[0]
    return found


def parse_string(text: str, *, strict: bool = False, keep_source: bool = False) -> list[Game]:
    """All games of a text. With ``strict``, raise the first error found instead.

    Raises:
        DpnError: in strict mode, the first syntax error.
    """
    return _all(iter_games(text, keep_source=keep_source), strict)


def parse_path(path: str | Path, *, strict: bool = False, keep_source: bool = False) -> list[Game]:
    """All games of a file; see :func:`parse_string`.

    Raises:
        OSError: the file cannot be read.
        DpnError: in strict mode, the first syntax error.
    """
    return _all(iter_path(path, keep_source=keep_source), strict)
