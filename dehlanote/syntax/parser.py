"""Parsing DPN text into the data model, with errors a card player can read: the driver.

The grammar is ``dehlanote/grammar.lark`` (LALR, contextual lexer), the only place where a
token is spelled (:mod:`.terms` derives every pattern from it). The work is split by
concern: :mod:`.reader` cuts a stream into the text of each game; :mod:`.build` builds
the model as Lark reduces rules (an inline transformer, so no parse tree is made), with
:mod:`.whole` reading the whole-element tokens; :mod:`.attach` gives each comment to the
element it follows; :mod:`.diagnose` turns a Lark error into a coded error from its table
of typical mistakes. This module runs them. No Lark exception leaves it: every failure
becomes a :class:`~dehlanote.errors.DpnError` with a stable code.

Two readings of the one grammar. The *whole* parser has the grammar's ``*_WHOLE``
terminals on: a plain tag, deal line, hand line, trump line, run of trick lines or tens
line is one token, split by :mod:`.whole` with the grammar's own fine terminals. The
*fine* parser has them off and reads token by token. Every chunk is read by the whole
parser first; if that reading meets any error at all, the fine parser reads the chunk
again and its reading (and its errors) stand. A whole terminal stands for exactly the fine
tokens it contains, so both readings of a valid record are the same model;
``tests/syntax/test_fast.py`` checks that on every sample, on corpora in every writing
style and on generated lines of every construct.

A game that the ``GAME_WHOLE`` terminal reads is matched once, by the reader, which hands
its span on (:attr:`.reader.Chunk.whole`), and read without Lark's per-parse set-up.

After a syntax error, reading goes on (:func:`_recover`): the diagnosis says how (a
colon left out after a leader seat is read as if written; a lower-case seat as the seat),
or else the element at fault is left out (its line, the lines that carry it on, or the
rest of the line from the token at fault, or the element before, or the rest of the deal:
the first of these after which reading gets furthest), and the chunk is read again, every
position kept. So one mistake hides nothing after it: each further mistake is reported
too, and the deal is replayed as far as it is known (a trick line left out is a gap the
replay reports once). Reading stops at a mistake that nothing after can be read past (the
text ends, a comment is never closed, a limit), after :data:`MAX_ERRORS` errors in a game,
or once a game's text has been read again :data:`_BUDGET` characters' worth.

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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lark import Lark

from ..errors import DpnError
from . import terms
from .attach import attach_comments, comment_text, inside, within
from .build import Builder
from .cards import STRING_BODY, TAG_NAMES
from .diagnose import Diagnosis, diagnose
from .model import Game, Tag, make_game
from .reader import GAME_WHOLE_AT, TAG, Chunk, Source, split_games, stray_tags
from .whole import MAX_CARDS, MAX_HANDS, MAX_TRICKS, NOT_READ

__all__ = ["MAX_CARDS", "MAX_ERRORS", "MAX_HANDS", "MAX_TRICKS", "iter_games", "iter_path", "parse_chunk",
           "parse_path", "parse_string", "paused_gc", "read_whole", "warm_up"]

_UNESCAPE = re.compile(r'\\(["\\])')
_COMMENT_TOKENS = re.compile(terms.pattern("COMMENT")).finditer

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


class _Parser:
    """A Lark LALR parser with its builder: per-parse state, so one per thread."""

    def __init__(self, whole: bool) -> None:
        self.builder = Builder()
        self.whole = whole
        self.lark: Lark | None = None
        #: the row of the diagnosis table that explained the last error raised (None: the builder's own)
        self.row: Diagnosis | None = None
        if not whole:
            self._lark()

    def _lark(self) -> Lark:
        """The Lark parser, made (and Lark imported) when first needed."""
        if self.lark is None:
            self.lark = terms.make_lark(whole=self.whole, transformer=self.builder,
                                        lexer_callbacks=self.builder.lexer_callbacks())
        return self.lark

    def _at(self, text: str, i: int) -> tuple[int, int]:
        """The file line and column of index ``i`` of the chunk's ``text`` (as :meth:`.whole.WholeReader._pos`
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

    def parse(self, chunk: Chunk, source: str | None = None) -> tuple[list[Game], list[DpnError]]:
        """Parse one chunk of text: its games and the errors found on the way (raises
        DpnError, positions in the file, for an error that stops the chunk). ``source``:
        the record's own text, when elements of the chunk's were left out (see :func:`_recover`)."""
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
                        b.whole_comments.append((*where(c.start()), comment_text(c.group())))
            tags, deals = b._game_whole(text[at:end], *self._at(text, at))
            games = [b._game(tags, deals)]
        else:
            from lark.exceptions import UnexpectedInput
            self.row = None
            try:
                games = self._lark().parse(text)  # type: ignore[assignment]
            except UnexpectedInput as exc:
                self.row, error = diagnose(exc, chunk, source)
                raise error from None
        if b.comments or b.whole_comments:
            # comments before the first game's first element belong to that game; a comment
            # that spans lines of a CRLF file keeps plain newlines, as every other text does
            comments = b.comments
            if b.whole_comments:
                comments = sorted(comments + b.whole_comments, key=lambda c: (c[0], c[1]))
            if len(games) == 1:     # (every comment is the game's)
                games = [attach_comments(games[0], comments)]
            else:
                games = [attach_comments(g, [c for c in comments if within(c[:2], g, games)]) for g in games]
            b.comments, b.whole_comments = [], []     # (attached: let go)
        return games, b.errors


def _with_errors(games: list[Game], found: list[DpnError]) -> list[Game]:
    if not found:
        return games
    errors = sorted(found, key=lambda e: (e.line, e.column))
    return [g._replace(errors=tuple(e for e in errors if inside(e, g, games))) for g in games]


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


# ---- going on after an error -----------------------------------------------------------

#: errors reported in one game before reading stops (a file of noise is not read again and again)
MAX_ERRORS = 50
#: characters a game's text may be read again to go on after its errors
_BUDGET = 4_000_000
#: a game's text longer than this is not read again: reading stops at its first error (a
#: game of this size is a whole archive in one game, or noise)
_BIG = 1_000_000
#: how a line that carries an element on from the line before starts: a card, a withdrawn
#: card, a comma or a | (a trick or a hand going on)
_GOES_ON = re.compile(r"[ \t\r]*(?:{card}|{withdrawn}|,|\|)".format(card=terms.pattern("CARD"),
                                                                withdrawn=terms.pattern("WITHDRAWN")))
_DEAL_LINE_START = re.compile(r"\n[^\S\n]*" + terms.pattern("DEAL"))


def _blank(text: str, start: int, end: int, comments: bool = True) -> str:
    """``text`` with its characters from ``start`` to ``end`` made spaces, but its line ends
    and (unless not ``comments``) its comments (kept whole, also one that runs on past
    ``end``): every position stays."""
    if not comments:
        return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]
    out = []
    i = start
    while i < end:
        brace = text.find("{", i, end)
        stop = end if brace < 0 else brace
        out.append(re.sub(r"[^\n]", " ", text[i:stop]))
        if brace < 0:
            i = end
            break
        close = text.find("}", brace)
        i = len(text) if close < 0 else close + 1
        out.append(text[brace:i])
    return text[:start] + "".join(out) + text[max(i, end):]


def _line_start(text: str, i: int) -> int:
    return text.rfind("\n", 0, i) + 1


def _line_end(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _element_end(text: str, i: int) -> int:
    """Where the element on the line at ``i`` ends: its line's end, or the end of the lines
    after it that carry it on."""
    end = _line_end(text, i)
    while end < len(text):
        nxt = _line_end(text, end + 1)
        if not _GOES_ON.match(text, end + 1, nxt):
            break
        end = nxt
    return end


def _comments(text: str) -> list[tuple[int, int]]:
    """Where the comments of ``text`` stand (start, end), as the lexer finds them (a tag value
    holding a brace aside: then a try may simply read no further)."""
    out = []
    i = text.find("{")
    while i >= 0:
        close = text.find("}", i)
        end = len(text) if close < 0 else close + 1
        out.append((i, end))
        i = text.find("{", end)
    return out


def _in_comment(spans: list[tuple[int, int]], i: int) -> bool:
    k = bisect.bisect_right(spans, (i, 1 << 62)) - 1
    return k >= 0 and spans[k][0] < i < spans[k][1]


def _previous_element(text: str, line_start: int, spans: list[tuple[int, int]]) -> int | None:
    """Where the element that the line at ``line_start`` follows starts (the first line of
    it that is not blank, not inside a comment and carries nothing on), or None."""
    i = line_start
    while i > 0:
        i = _line_start(text, i - 1)
        line = text[i:_line_end(text, i)]
        lead = i + len(line) - len(line.lstrip())
        if line.strip() and not _GOES_ON.match(line) and not _in_comment(spans, lead):
            return i
    return None


def _last_word(text: str, end: int, spans: list[tuple[int, int]]) -> int | None:
    """Where the last word before ``end`` starts (past white space and comments), or None."""
    i = end
    while i > 0:
        c = text[i - 1]
        if c.isspace():
            i -= 1
        elif c == "}" and _in_comment(spans, i - 1):
            i = text.rfind("{", 0, i - 1)
            if i < 0:
                return None
        else:
            start = i
            while start > 0 and not text[start - 1].isspace() and text[start - 1] not in "{}":
                start -= 1
            return start
    return None


def _edits(text: str, at: int, row: Diagnosis | None) -> list[tuple[str, int]]:
    """Texts to read again after an error at index ``at``, best first, each with the number
    of lines it leaves out something of (see :func:`_recover`).

    What is tried depends on the line the error is on. On a trick line, the line (a trick
    left out is a gap the replay reports once, where a trick cut short would read as a
    trick of the wrong size). On a hand line, the hand at fault (the replay then takes that
    hand from the play, as when a record lists only some hands). On any other line, the word
    at fault, then the rest of the line from the word before it or from the word at fault,
    then the line. When the word at fault opens its line, what went wrong may rather be the
    end of the element before (a word left hanging, or the whole element). Last, the rest
    of the deal.
    """
    out = []
    if row is not None and row.recover == "colon" and at > 0:
        out.append((text[:at - 1] + ":" + text[at:], 0))
    elif row is not None and row.recover == "capital":
        out.append((text[:at] + text[at].upper() + text[at + 1:], 0))

    def left_out(start: int, end: int) -> tuple[str, int]:
        return _blank(text, start, end), text.count("\n", start, end) + 1

    start = _line_start(text, at)
    end = _element_end(text, at)
    line = text[start:_line_end(text, start)]
    opens = not text[start:at].strip()
    spans = _comments(text)
    if _TRICK_LINE.match(line):
        out.append(left_out(start, end))
    elif _HAND_LINE.match(line):
        seats = [start + m.start() for m in _SEAT_COLON.finditer(line)]
        before = [i for i in seats if i <= at]
        after = [i for i in seats if i > at]
        if before:
            out.append(left_out(before[-1], after[0] if after else end))     # the hand at fault
        if not opens:
            out.append(left_out(at, end))
        out.append(left_out(start, end))
    else:
        word = _WORD_AT.match(text, at)
        if word is not None and word.end() > at:
            out.append(left_out(at, word.end()))                     # the word at fault
        previous_word = _last_word(text, at, spans)
        if not opens and previous_word is not None and previous_word > start:
            out.append(left_out(previous_word, end))                 # from the word before it
        if not opens:
            out.append(left_out(at, end))                            # from the word at fault
        out.append(left_out(start, end))                             # the line
    if opens:   # the word at fault opens its line: the end of the element before may be at fault
        previous = _previous_element(text, start, spans)
        if previous is not None:
            last = _last_word(text, start, spans)
            if last is not None and last > previous:
                out.append(left_out(last, _line_end(text, last)))   # its last word
            out.append(left_out(previous, start - 1))               # the element before
    deal = _DEAL_LINE_START.search(text, at)
    out.append(left_out(start, len(text) if deal is None else deal.start()))     # the rest of the deal
    return out


_TRICK_LINE = re.compile(r"[ \t\ufeff]*(?:{}|{})".format(terms.pattern("DOTTED_INT"), terms.pattern("INT")))
_SEAT_COLON = re.compile(r"(?<![^ \t]){}[ \t]*:".format(terms.pattern("SEAT")))
_HAND_LINE = re.compile(r"[ \t\ufeff]*(?:{}|{}[ \t]*:)".format(terms.pattern("HANDS"), terms.pattern("SEAT")))
_WORD_AT = re.compile(r"[^\s{}]+")


def _index(chunk: Chunk, line: int, column: int) -> int:
    """The index in the chunk's text of a file position."""
    text = chunk.text
    i = 0
    for _ in range(line - chunk.line):
        i = text.find("\n", i) + 1
    return i + column - 1 - (chunk.column - 1 if line == chunk.line else 0)


def _stops(error: DpnError, row: Diagnosis | None) -> bool:
    """Whether nothing after this error can be read (the text ends, a comment is never closed,
    a limit of the reader)."""
    return (row is not None and row.recover == "stop") or error.message.endswith(NOT_READ)


def _recover(chunk: Chunk, error: DpnError) -> tuple[list[Game] | None, list[DpnError]]:
    """Go on reading a chunk after the syntax error ``error`` (the fine reading's): the games
    and every error found, or None for the games when reading had to stop (the errors found
    so far are given all the same).

    Each try reads the chunk again with one element left out, or with a slip read as surely
    meant (:func:`_edits`), every position kept. The try kept is the one that reads the most
    lines past the error less the lines it left something out of (one that reads to the end
    counts every line; the first of equals): a try whose own change only moves the error to
    the next line, or that reads to the end by leaving everything out, loses to one that
    leaves out the one line at fault. Its next error, if any, is the next to go on from; a
    try that stops at the same place or before is no way on.
    """
    fine = _fine()
    errors = [error]
    row = fine.row
    text = chunk.text
    if len(text) > _BIG:
        return None, errors
    last_line = chunk.line + text.count("\n") + 1
    spent = 0
    while not _stops(error, row) and len(errors) < MAX_ERRORS:
        at = _index(chunk, error.line, error.column)
        if not 0 <= at < len(text):
            break
        best: tuple[int, str, DpnError | None, Diagnosis | None, Any] | None = None
        for edited, lines in _edits(text, at, row):
            outcome: tuple[Any, ...]
            spent += len(edited)
            if spent > _BUDGET:
                break
            try:
                read = fine.parse(chunk._replace(text=edited, whole=None), chunk.text)
            except DpnError as again:
                if _index(chunk, again.line, again.column) <= at:
                    continue
                score, outcome = again.line - lines, (again, fine.row, None)
            else:
                score, outcome = last_line - lines, (None, None, read)
            if best is None or score > best[0]:
                best = (score, edited, *outcome)
        if best is None:
            break
        _, text, next_error, row, read = best
        if next_error is None:
            games, found = read
            return _with_errors(games, found + errors), errors
        error = next_error
        errors.append(error)
    if error.message.endswith(NOT_READ):
        return None, errors
    # reading stops here: what was read before the element at fault is kept (the deals
    # before it are replayed), the rest of the game is left out
    at = _index(chunk, error.line, error.column)
    if len(errors) >= MAX_ERRORS or spent > _BUDGET:
        errors.append(DpnError("syntax", f"too many errors: {NOT_READ}", error.line, error.column))
    try:
        games, found = fine.parse(chunk._replace(text=_blank(text, _line_start(text, max(0, at)), len(text), False),
                                                 whole=None), chunk.text)
    except DpnError:
        return None, errors
    return _with_errors(games, found + errors), errors


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
    errors: list[DpnError] = []
    while True:
        try:
            games = _read(chunk, whole)
        except DpnError as error:
            cut = _resync(chunk, error)
            if cut is None:
                recovered, errors = _recover(chunk, error)
                if not recovered:     # (reading stopped, or nothing was left to read)
                    games = [_broken_game(chunk, errors, encoding)]
                    break
                games = recovered
            else:
                # the game broke off in its tags and another game's tags follow: read that one
                head, chunk = _split(chunk, cut)
                mine = [e for e in encoding if (e.line, e.column) < (chunk.line, chunk.column)]
                encoding = [e for e in encoding if (e.line, e.column) >= (chunk.line, chunk.column)]
                broken += _sourced([_broken_game(head, [error], mine)], head, keep_source)
                continue
        games = stray_tags(games)
        if encoding:
            first = games[0] if games else make_game((), (), chunk.line, chunk.column)
            games = [first._replace(errors=tuple(encoding) + first.errors)] + games[1:]
            if errors:     # (read on after an error: a byte not UTF-8 is reported once, as such)
                bytes_at = {(e.line, e.column) for e in encoding}
                games = [g._replace(errors=tuple(e for e in g.errors if e.code == "encoding"
                                                 or (e.line, e.column) not in bytes_at)) for g in games]
        break
    return broken + _sourced(games, chunk, keep_source)


def _sourced(games: list[Game], chunk: Chunk, keep_source: bool) -> list[Game]:
    if keep_source and games:
        text = " " * (chunk.column - 1) + chunk.text if chunk.column > 1 else chunk.text
        # (built as the builder builds nodes: _replace is a Python function, once a game)
        games = [make_game(g.tags, g.deals, g.line, g.column, g.comments, g.errors, text, chunk.line)
                 for g in games]
    return games


_DEAL_WORD = re.compile(r"(?<![0-9A-Za-z_])" + terms.pattern("DEAL"))
_DEAL_LINE = re.compile(r"(?:^|(?<=\n))[ \t\r\ufeff]*" + terms.pattern("DEAL"))
_NAME = terms.pattern("NAME")
#: a blank line, then a line that opens with a whole tag (comments may come first): where
#: a new game may start
_GAME_START = re.compile(r'\n[ \t\r\ufeff]*\n[ \t\r\n\ufeff]*(?=(?:' + terms.pattern("COMMENT")
                         + r'[\s\ufeff]*)*' + TAG + ")")


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


def _broken_game(chunk: Chunk, found: list[DpnError], encoding: list[DpnError]) -> Game:
    """The game of a chunk that did not parse: its tags as far as they can be read, and the errors ``found``."""
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
    errors += (error for error in found if not any((e.line, e.column) == (error.line, error.column) for e in encoding))
    errors.sort(key=lambda e: (e.line, e.column))
    return make_game(tuple(tags), (), line, column, errors=tuple(errors))


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
