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

After a syntax error, reading goes on (:mod:`.recover`): the diagnosis says how (a
colon left out after a leader seat is read as if written; a lower-case seat as the seat),
or else the element at fault is left out (its line, the hand or the word at fault, the
rest of its line, the end of the element before, or the rest of the deal: whichever lets
the most of the record be read), and the chunk is read again, every position kept. So
one mistake hides nothing after it: each further mistake is reported too, and the deal
is replayed as far as it is known (a trick line left out is a gap the replay reports
once). Reading stops at a mistake that nothing after can be read past (the text ends, a
comment is never closed, a limit), after :data:`MAX_ERRORS` errors in a game, or once a
game's text has been read again a few million characters' worth.

Thread safety: the parsers and their builders hold per-parse state, so each thread has
its own pair (:func:`_parsers`); nothing per-parse is shared between threads.

Lark is imported when a chunk first needs one of its parsers (a chunk that is not one
whole game, or any error): a file of plain games is read without loading it, which saves
about 85 ms of CPU at the start of every command (:mod:`.terms` hands out the patterns
from its cache file).
"""

from __future__ import annotations

import functools
import gc
import re
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

if TYPE_CHECKING:
    from lark import Lark

from .. import inputs
from ..errors import DpnError
from . import terms
from . import regexcache
from .attach import attach_comments, comment_text, inside, within
from .build import Builder
from .cards import STRING_BODY, TAG_NAMES
from .diagnose import Diagnosis, diagnose
from .lazy import LAZY_DEALS, LazyDeals
from .model import Deal, Game, Loose, Tag, make_game
from .recover import MAX_ERRORS, recover
from .reader import GAME_WHOLE_AT, TAG, Chunk, Source, split_games, stray_tags
from .whole import MAX_CARDS, MAX_HANDS, MAX_TRICKS

__all__ = ["MAX_CARDS", "MAX_ERRORS", "MAX_HANDS", "MAX_TRICKS", "iter_games", "iter_path", "loose_comments",
           "parse_chunk", "records",
           "parse_path", "parse_string", "paused_gc", "read_whole", "warm_up", "whole_span"]

_UNESCAPE = re.compile(r'\\(["\\])')
_COMMENT_TOKENS = re.compile(terms.pattern("COMMENT")).finditer

#: white space and comments, unrolled so that a run of blank lines can be split in only one
#: way ((?:WS|COMMENT)* with WS a + loop backtracked exponentially in it)
_IGNORED = re.compile("(?:{ws})?(?:{comment}(?:{ws})?)*".format(ws=terms.pattern("WS"),
                                                              comment=terms.pattern("COMMENT")))


@functools.cache
def _whole_at() -> tuple[Callable[..., re.Match[str] | None], ...]:
    """The grammar's whole terminals of a run of tags, of a deal with its tens line and of a
    deal up to its tricks, as the whole parser has them, matched at a position (compiled
    when first needed: a file of plain games never needs them)."""
    return tuple(regexcache.compile(terms.whole_pattern(name)).match
                 for name in ("TAGS_WHOLE", "DEAL_TENS_WHOLE", "DEAL_WHOLE"))


def whole_deal_span(text: str) -> tuple[tuple[int, int] | None, int, int, bool] | None:
    """Where the one whole deal of a chunk stands, after a run of plain tags or none, when
    the chunk is those tokens between white space and comments as Lark's lexer finds them
    (after GAME_WHOLE, which the caller tried: the run of tags, then the deal with its tens
    line, of the higher priority, else the deal up to its tricks): (the tags' span or None,
    the deal's start and end, whether it holds its tens line); else None. The pieces of a
    long game (:func:`_read_pieces`) are such chunks."""
    tags_at, deal_tens_at, deal_at = _whole_at()
    m = _IGNORED.match(text)
    at = m.end() if m is not None else 0
    tags = tags_at(text, at)
    if tags is not None:
        m = _IGNORED.match(text, tags.end())
        at = m.end() if m is not None else tags.end()
    deal = deal_tens_at(text, at)
    tens = deal is not None
    if deal is None:
        deal = deal_at(text, at)
    if deal is None or _IGNORED.fullmatch(text, deal.end()) is None:
        return None
    return None if tags is None else tags.span(), deal.start(), deal.end(), tens


def whole_span(text: str) -> tuple[int, int] | None:
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

    def _whole_deal(self, text: str, found: tuple[tuple[int, int] | None, int, int, bool]) -> Game:
        """The game of a chunk that is a run of plain tags (or none) and one whole deal
        (:func:`whole_deal_span`), as Lark reduces it: the builder's ``tag`` of the
        TAGS_WHOLE token, its ``deal`` of the DEAL_TENS_WHOLE or the DEAL_WHOLE token with
        nothing after it, then ``tagged_game`` or ``untagged_game``."""
        b = self.builder
        tag_span, at, end, tens = found
        lines, line, column = b._text_lines(text[at:end], *self._at(text, at))
        deal = b._deal_lines(lines, line, column, tens)      # (OverLimit past MAX_TRICKS)
        if tag_span is None:
            return Game((), (deal,), deal.line, deal.column)
        lines, line, column = b._text_lines(text[tag_span[0]:tag_span[1]], *self._at(text, tag_span[0]))
        return b._game(b._tags_text("\n".join(lines), line, column), [deal])

    def parse(self, chunk: Chunk, source: str | None = None) -> tuple[list[Game], list[DpnError]]:
        """Parse one chunk of text: its games and the errors found on the way (raises
        DpnError, positions in the file, for an error that stops the chunk). ``source``:
        the record's own text, when elements of the chunk's were left out (see :mod:`.recover`)."""
        b = self.builder
        b.reset(chunk.line - 1, chunk.column - 1)
        text = chunk.text
        span = deal_span = None
        if self.whole:
            # A chunk that is one GAME_WHOLE token between white space is a plain game: Lark
            # would lex that one token and reduce it to a tagged game; the builder does just
            # that here, without Lark's per-parse set-up (a third of the time of a plain game).
            # So for a chunk of one whole deal (a piece of a long game, see _read_pieces).
            if chunk.whole is not None:     # the reader matched GAME_WHOLE already
                span = chunk.whole
            else:
                span = whole_span(text)
                if span is None:
                    deal_span = whole_deal_span(text)
        if span is not None or deal_span is not None:
            # the game is one GAME_WHOLE token (or a run of tags and a whole deal): read as Lark
            # would reduce it to a tagged game
            tokens: list[tuple[int, int]] = []
            if deal_span is None:
                assert span is not None
                tokens.append(span)
            else:
                tokens.append((deal_span[1], deal_span[2]))
                if deal_span[0] is not None:
                    tokens.append(deal_span[0])
            if "{" in text:     # comments outside the tokens: as Lark's lexer gives them
                # looked for between the tokens only: a "{" in a tag's value matched on to the
                # "}" of the comment after it, and that comment was lost; and with thousands of
                # them in a value, each matched on to the end of the text (quadratic)
                where = self._at_each(text)
                gap = 0
                for at, end in sorted(tokens) + [(len(text), len(text))]:
                    for c in _COMMENT_TOKENS(text, gap, at):
                        b.whole_comments.append((*where(c.start()), comment_text(c.group())))
                    gap = end
            if deal_span is None:
                at, end = tokens[0]
                tags, deals = b._game_whole(text[at:end], *self._at(text, at))
                games = [b._game(tags, deals)]
            else:
                games = [self._whole_deal(text, deal_span)]
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



def read_whole(chunk: Chunk, parsers: _Parsers | None = None) -> list[Game] | None:
    """The games of a chunk as the whole-element parser reads them, or None when that
    reading meets any error (then only the fine reading counts). For tests and benchmarks."""
    if chunk.encoding_errors:
        return None
    p = _parsers() if parsers is None else parsers
    if p.whole is None:
        p.whole = _Parser(whole=True)
    try:
        games, found = p.whole.parse(chunk)
    except DpnError:
        p.whole.builder.reset(0, 0)     # (what it collected is let go before the fine reading)
        return None
    if found:
        p.whole.builder.reset(0, 0)
        return None
    return games


def _read(chunk: Chunk, whole: bool = True, parsers: _Parsers | None = None) -> list[Game]:
    """The games of a chunk (raises DpnError for an error that stops it): read with the
    whole-element parser, and again with the fine one when that meets any error; a long
    game deal by deal (:func:`_read_pieces`) when it can be."""
    if whole:
        if len(chunk.text) > PIECES_FROM and parsers is None and not chunk.encoding_errors:
            # (a plain game in one GAME_WHOLE token without comments keeps its deals' text itself: .whole)
            span = chunk.whole or whole_span(chunk.text)
            if span is None or "{" in chunk.text:
                pieces = _read_pieces(chunk)
                if pieces is not None:
                    return pieces
            if span is not None:
                chunk = chunk._replace(whole=span)      # (not matched again)
        games = read_whole(chunk, parsers)
        if games is not None:
            return games
    if parsers is None:
        fine = _fine()
    else:
        if parsers.fine is None:
            parsers.fine = _Parser(whole=False)
        fine = parsers.fine
    games, found = fine.parse(chunk)
    return _with_errors(games, found)


# ---- a long game read deal by deal -----------------------------------------------------

#: a game of more characters than this (and more than LAZY_DEALS deals) that is not one
#: GAME_WHOLE token is read deal by deal (:func:`_read_pieces`)
PIECES_FROM = 50_000
#: where a deal's piece of a game starts: the line of each deal keyword, outside comments
#: and tag values
#: (a comment never closed runs to the end, in one match: tried as COMMENT at each of a million
#: "{" it took 15 minutes, each attempt scanning to the end)
_PIECE_CUTS = re.compile("(?P<c>{comment})|(?P<s>{string})|\n(?=[ \t\r\ufeff]*{deal})".format(
    comment=r"\{[^}]*+(?:\}|\Z)", string=terms.possessive(terms.pattern("STRING")),
    deal=terms.pattern("DEAL"))).finditer
_DEAL_FIRST = re.compile("[ \t\r\ufeff]*" + terms.pattern("DEAL")).match


def _read_pieces(chunk: Chunk) -> list[Game] | None:
    """A long game that is not one GAME_WHOLE token (a deal without its tens line, a comment,
    a hands line written over lines...), read one deal at a time: its pieces are the text
    from each deal's line to the next one's (the first with the game's tags and whatever
    comes before them; a comment after a deal's last element stays in its piece, where it
    is attached to that element as in the whole game). Each piece is read as a game of its
    own and let go; when every piece reads as one deal without any error (the first one
    with the game's tags), the game is its first piece's with the deals a
    :class:`.lazy.LazyDeals` that reads each piece again when it is asked for (with a
    :class:`PieceReader`). None when the game has no more than LAZY_DEALS deals or a
    piece does not read so: then the game is read whole, and its errors are that reading's.

    The game's grammar is its tags then its deals (``tag* deal+``), each deal from its
    keyword to the next, so reading each piece alone is reading the game: the same nodes
    at the same file positions, the same comments on the same elements.
    """
    text = chunk.text
    starts = array("l", [0])
    lines = array("l", [0])
    line = at = 0
    skip = _DEAL_FIRST(text) is None      # (the first cut is the first deal's own: in piece 0)
    for m in _PIECE_CUTS(text):
        if m.lastgroup is not None:
            continue
        if skip:
            skip = False
            continue
        cut = m.end()
        line += text.count("\n", at, cut)
        at = cut
        starts.append(cut)
        lines.append(line)
    if len(starts) <= LAZY_DEALS:
        return None
    head: Game | None = None
    try:
        for k, a in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(text)
            games = _read(Chunk(text[a:end], chunk.line + lines[k], chunk.column if k == 0 else 1))
            if len(games) != 1:
                return None
            game = games[0]
            if game.errors or len(game.deals) != 1:
                return None
            if k == 0:
                head = game
            elif game.tags or game.comments:
                return None
    except DpnError:
        return None
    assert head is not None
    deals = LazyDeals(text, starts, lines, chunk.line, chunk.column, PieceReader)
    return [make_game(head.tags, deals, head.line, head.column, head.comments)]  # type: ignore[arg-type]


class _PieceParsers(_Parsers):
    """The parsers of :class:`PieceReader`s (one pair a thread, apart from the parse in hand)."""


_piece_local = _PieceParsers()


class PieceReader:
    """Reads a deal of a game read piece by piece (:func:`_read_pieces`) again: the piece as
    a game, its one deal."""

    def lazy_deal(self, text: str, ln: int, col: int) -> Deal:
        return _read(Chunk(text, ln, col), parsers=_piece_local)[0].deals[0]


# ---- public API ----------------------------------------------------------------------

def parse_chunk(chunk: Chunk, *, keep_source: bool = False, whole: bool = True) -> list[Game]:
    """Parse the text of one game (as cut by the reader); errors go into the games.

    Read with the whole-element terminals first, and token by token where that meets any
    error (``whole=False``: token by token only, the reference reading); see the module's
    docstring.
    """
    # a run of bad bytes side by side is one mistake (one character saved in another encoding,
    # or a broken sequence): one error at its first byte, naming them all
    runs: list[list[Any]] = []
    for p in chunk.encoding_errors:
        if runs and p.offset == runs[-1][-1].offset + 1 and p.line == runs[-1][-1].line:
            runs[-1].append(p)
        else:
            runs.append([p])
    encoding = [
        DpnError("encoding",
                 f"byte 0x{run[0].byte:02X} at byte offset {run[0].offset} is not UTF-8"
                 + ("" if len(run) == 1 else
                    f", nor {'is the byte' if len(run) == 2 else f'are the {len(run) - 1} bytes'} after it "
                    f"({' '.join(f'0x{p.byte:02X}' for p in run[1:8])}{' …' if len(run) > 8 else ''})")
                 + ": save the file as UTF-8",
                 run[0].line, run[0].column, offset=run[0].offset)
        for run in runs
    ]
    broken: list[Game] = []
    errors: list[DpnError] = []
    whole_text = chunk
    while True:
        try:
            games = _read(chunk, whole)
        except DpnError as error:
            cut = _resync(chunk, error)
            if cut is None:
                read, errors = recover(chunk, error, _fine())
                games = [] if read is None else _with_errors(read[0], read[1] + errors)
                if not games:     # (reading stopped, or nothing was left to read)
                    games = [_broken_game(chunk, errors, encoding)]
                    break
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
    return _lined(broken + _sourced(games, chunk, keep_source), whole_text)


def loose_comments(chunk: Chunk) -> Optional[Loose]:
    """The comments of a chunk in which :func:`parse_chunk` found no game (so nothing but
    white space and comments), or None when it holds none."""
    found = list(_COMMENT_TOKENS(chunk.text))
    if not found:
        return None
    start = found[0].start()
    before = chunk.text[:start]
    line = chunk.line + before.count("\n")
    column = start - before.rfind("\n") if "\n" in before else chunk.column + start
    return Loose(tuple(comment_text(m.group()) for m in found), chunk.text.strip("\n"), line, column)


def records(chunks: Iterable[Chunk], *, keep_source: bool = False) -> Iterator["Game | Loose"]:
    """The games of the reader's chunks, and the comments of a chunk that holds no game (a file
    of notes alone) as a Loose where they stand: what a tool that keeps every comment reads
    (:func:`iter_games` drops them)."""
    for chunk in chunks:
        games = parse_chunk(chunk, keep_source=keep_source)
        if not games:
            loose = loose_comments(chunk)
            if loose is not None:
                yield loose
        yield from games


#: characters of a line kept after an error's column when the reader gives it its line
LINE_AFTER = 200


def _lined(games: list[Game], chunk: Chunk) -> list[Game]:
    """The games with every error (but ``encoding``) holding its line's text (``source_line``,
    from the line's start to a little past the column), whichever reading found it: the fine
    reading's diagnosis gives it, the whole reading's own errors (a rank without its suit, a
    limit of the reader) did not, and the replay reads a trick line's number from it
    (:func:`dehlanote.replay.game.reader_errors`): one error, one placing, on every path."""
    wanted = sorted({e.line for g in games for e in g.errors if e.source_line is None and e.code != "encoding"})
    if not wanted:
        return games
    text, first = chunk.text, chunk.line
    starts: dict[int, int] = {}
    at, line = 0, first
    for want in wanted:
        while line < want and at >= 0:
            at = text.find("\n", at)
            if at >= 0:
                at += 1
                line += 1
        if at < 0 or want < first:
            break
        starts[want] = at
    out = []
    for g in games:
        if not any(e.source_line is None and e.line in starts for e in g.errors):
            out.append(g)
            continue
        errors = []
        for e in g.errors:
            begin = starts.get(e.line) if e.source_line is None and e.code != "encoding" else None
            if begin is None:
                errors.append(e)
                continue
            end = text.find("\n", begin)
            end = len(text) if end < 0 else end
            pad = " " * (chunk.column - 1) if e.line == first else ""
            stop = min(end, begin + max(0, e.column - 1 - len(pad)) + LINE_AFTER)
            errors.append(e.with_context(source_line=pad + text[begin:stop].rstrip("\r"), source_cut=stop < end))
        out.append(g._replace(errors=tuple(errors)))
    return out


def _sourced(games: list[Game], chunk: Chunk, keep_source: bool) -> list[Game]:
    if keep_source and games:
        text = " " * (chunk.column - 1) + chunk.text if chunk.column > 1 else chunk.text
        # (built as the builder builds nodes: _replace is a Python function, once a game)
        games = [make_game(g.tags, g.deals, g.line, g.column, g.comments, g.errors, text, chunk.line)
                 for g in games]
    return games


_DEAL_WORD = re.compile(r"(?<![0-9A-Za-z_])" + terms.pattern("DEAL"))
_DEAL_LINE = regexcache.compile(r"(?:^|(?<=\n))[ \t\r\ufeff]*" + terms.pattern("DEAL"))
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


def iter_games(source: Union[Source, bytes], *, keep_source: bool = False) -> Iterator[Game]:
    """Games one at a time from a string, UTF-8 bytes, or a text or binary stream.

    Only one game's text is in memory at a time. A game that cannot be read is yielded
    with its errors (and no deals); reading goes on with the next game. Bytes that are not
    UTF-8 are ``encoding`` errors of their game, as in a file.

    Raises:
        TypeError: ``source`` is none of these (checked at the call, not at the first game).
    """
    return _iter_games(inputs.source(source, "iter_games"), keep_source)


def _iter_games(source: Source, keep_source: bool) -> Iterator[Game]:
    for chunk in split_games(source):
        yield from parse_chunk(chunk, keep_source=keep_source)


def iter_path(path: str | Path, *, keep_source: bool = False) -> Iterator[Game]:
    """Games one at a time from a file (read as UTF-8).

    Raises:
        TypeError: ``path`` is not a path (str or os.PathLike), at the call.
        OSError: the file cannot be read (at the first game).
    """
    return _iter_path(inputs.path(path, "iter_path", "for a text use iter_games(text)"), keep_source)


def _iter_path(path: str | Path, keep_source: bool) -> Iterator[Game]:
    with open(path, "rb") as stream:
        yield from _iter_games(stream, keep_source)


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


def parse_string(text: Union[str, bytes], *, strict: bool = False, keep_source: bool = False) -> list[Game]:
    """All games of a text (a str, or bytes read as UTF-8: bytes that are not UTF-8 are
    ``encoding`` errors). With ``strict``, raise the first error found instead.

    Raises:
        TypeError: ``text`` is neither a str nor bytes.
        DpnError: in strict mode, the first syntax error.
    """
    if not isinstance(text, (str, *inputs.BYTES)):
        raise inputs.refuse("parse_string", "a DPN text (str, or UTF-8 bytes)", text,
                            "for a stream use iter_games(f), for a file parse_path(path)")
    return _all(iter_games(text, keep_source=keep_source), strict)


def parse_path(path: str | Path, *, strict: bool = False, keep_source: bool = False) -> list[Game]:
    """All games of a file; see :func:`parse_string`.

    Raises:
        TypeError: ``path`` is not a path (str or os.PathLike).
        OSError: the file cannot be read.
        DpnError: in strict mode, the first syntax error.
    """
    return _all(iter_path(path, keep_source=keep_source), strict)
