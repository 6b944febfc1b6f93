"""Reading text into games: decoding, splitting a stream at game boundaries.

A file is read in blocks that end at a newline, decoded as UTF-8 (bytes that are not
UTF-8 become ``encoding`` errors with their byte offset, and U+FFFD in the text), and cut
into games with a small scanner that knows just enough of the notation to find where a
game starts: at a ``[`` tag that comes after a ``deal`` of the current game, outside
comments and tag values. Only one game's text (plus one block) is ever held in memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import IO, Any, Iterator, NamedTuple, Optional, Union, cast

from ..errors import DpnError
from . import terms
from . import regexcache
from .cards import STRING_BODY
from .model import Game

BLOCK = 1 << 20  # bytes or characters read at a time

# The notation's tokens that the splitter needs, derived from the grammar (terms): the
# deal keyword in any case (spelled letter by letter as [Dd][Ee]..., which the regular
# expression engine scans for much faster than an ignore-case pattern), a tag name.
_DEAL = "".join(f"[{c.upper()}{c.lower()}]" for c in terms.KEYWORDS["DEAL"])
_NAME = terms.pattern("NAME")
#: a whole tag, as the grammar's _TAG spells it (its loops possessive: none gives anything back)
TAG = terms.possessive(terms.pattern("_TAG"))
_WORD_CHAR = "0-9A-Za-z_"
# what the splitter must see before a game's first deal: comment and tag-value openers and
# the deal keyword (a [ there changes nothing, and not stopping at each saves a step a tag)
_SCAN_HEAD = re.compile(f'[{{"]|(?<![{_WORD_CHAR}]){_DEAL}(?![{_WORD_CHAR}])')
# after it only comments, tag values and the next tag matter: a plain character class,
# which the regex engine scans several times faster than _SCAN_HEAD
_SCAN_BODY = re.compile(r'[{"\[]')
_STRING = re.compile(f'"{STRING_BODY}"')
# a line that opens with a whole tag, and one that opens with the deal keyword: the start
# of another game, which no comment runs over (see split_games)
_TAG_LINE = re.compile(f"\\n[ \\t\\r\\ufeff]*{TAG}")
# a deal numbered 1 (DPN 1.1: after another deal, it starts a game with no tags); the
# look-behind after the first letter, so that the engine looks for a D or d first
_NUMBER_ONE = r"[ \t]+0*1(?![0-9A-Za-z_\u2660-\u2667.])"
_DEAL_ONE = re.compile(_DEAL[:4] + f"(?<![{_WORD_CHAR}]{_DEAL[:4]})" + _DEAL[4:] + _NUMBER_ONE)
#: the same in a plain game with no comment, where the deal keyword only ever opens a line
#: (the grammar's GAME_WHOLE: a line end and white space before each deal): found from the
#: line end, which the regex engine looks for alone, 2-3 times faster than _DEAL_ONE
_DEAL_ONE_LINE = regexcache.compile(r"\n\s*" + _DEAL + _NUMBER_ONE)
_TAG_TEXT = TAG
_TAG_AT = re.compile(_TAG_TEXT).match
# a blank line (a line end, then a line of white space only, and its end)
_BLANK_LINE = re.compile(r"\n[ \t\r\ufeff]*\n")
_WHITE = re.compile("[ \t\r\n\ufeff]*+")
_TAG_NAME = re.compile(f'\\[[ \\t]*({_NAME})[ \\t]*"{STRING_BODY}"')
# a line of tags and comments only (the tags that may stand after a game's deals)
_TAGS_ONLY = re.compile(f"(?:[ \\t\\r\\ufeff]*(?:{_TAG_TEXT}|\\{{[^{{}}\\n]*\\}}))+[ \\t\\r\\ufeff]*")
_SURROGATE = re.compile("[\udc80-\udcff]")
#: a plain game, as the grammar's GAME_WHOLE terminal reads it (white space before it), then
#: a blank line and the ``[`` of the next game: found in one match, without the scan below
#: (comments may follow it on its last line, if they hold no [ and no line end)
#: (three matches: white space, the game, what follows it; the game's regular expression, the
#: largest of all, is compiled once and shared with the parser, :data:`GAME_WHOLE_AT`)
_SPACE = re.compile("[ \t\r\n]*").match
#: the grammar's GAME_WHOLE terminal, as the whole parser has it, matched at a position
GAME_WHOLE_AT = regexcache.compile(terms.whole_pattern("GAME_WHOLE")).match
_AFTER_GAME = re.compile(r"[ \t]*+(?:\{[^}\[\n]*\}[ \t]*)*+\r?\n(?:[ \t\r]*\n)+[ \t]*(?=\[)").match
#: the first "deal" of a plain game starts a line (else a tag holds the word, and the scan decides)
_FIRST_DEAL = re.compile(_DEAL)
#: a comment holding a [: the scan may cut a game there (see split_games)
_BRACKET_COMMENT = re.compile(r"\{[^}]*\[")


def _after_white(text: str, at: int) -> int:
    """The index of the first character from ``at`` on that is not white space."""
    m = _WHITE.match(text, at)
    return at if m is None else m.end()


class Chunk(NamedTuple):
    """The text of one game and where it starts in the file (1-based line and column)."""

    text: str
    line: int
    column: int
    encoding_errors: tuple["EncodingProblem", ...] = ()
    last: bool = True      # False when a tag of the next game follows right after the text
    #: where in ``text`` the game's one GAME_WHOLE token stands, when the reader found the
    #: game by matching that terminal (nothing but white space around it): the parser
    #: takes it from here instead of matching it again
    whole: Optional[tuple[int, int]] = None

    # ``whole`` is a hint for reading, not part of what a chunk is: two chunks with the same
    # text at the same place are equal (a file read in pieces gives the chunks of one pass,
    # though the last game of a piece has no next game's tags for the reader to see)
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Chunk):
            return self[:5] == other[:5]
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self[:5])


class EncodingProblem(NamedTuple):
    """A byte that is not UTF-8: its position in the decoded text and in the file."""

    line: int
    column: int
    offset: int   # byte offset in the file, 0-based
    byte: int


@dataclass
class _Decoder:
    """Decodes newline-terminated blocks of bytes, noting bytes that are not UTF-8."""

    problems: list[EncodingProblem] = field(default_factory=list)
    byte_offset: int = 0
    line: int = 1          # line at the start of the next block
    first: bool = True

    def decode(self, data: bytes) -> str:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = self._decode_badly(data)
        if self.first:
            self.first = False
            if text.startswith("\ufeff"):
                text = text[1:]
        self.byte_offset += len(data)
        self.line += text.count("\n")
        return text

    def _decode_badly(self, data: bytes) -> str:
        raw = data.decode("utf-8", "surrogateescape")
        line_start = 0
        line = self.line
        scanned = 0
        prefix_bytes = 0
        for m in _SURROGATE.finditer(raw):
            i = m.start()
            line += raw.count("\n", scanned, i)
            nl = raw.rfind("\n", 0, i)
            line_start = nl + 1
            prefix_bytes += len(raw[scanned:i].encode("utf-8", "surrogateescape"))
            scanned = i + 1
            column = i - line_start + 1
            if self.first and line == 1:
                column -= raw.startswith("\ufeff")
            self.problems.append(EncodingProblem(
                line, column, self.byte_offset + prefix_bytes, ord(raw[i]) - 0xDC00))
            prefix_bytes += 1
        return _SURROGATE.sub("\ufffd", raw)


Source = Union[str, IO[str], IO[bytes]]


def _blocks(source: Source, decoder: _Decoder) -> Iterator[str]:
    """Decoded text blocks, each ending at a newline except perhaps the last."""
    if isinstance(source, str):
        if source.startswith("\ufeff"):
            source = source[1:]
        yield source
        return
    empty: Any = ""
    newline: Any = "\n"
    binary: Optional[bool] = None     # known from the first read (see below)
    # what was read of a line not yet ended: never a newline in it. Joined once the line
    # ends: adding each block to the rest copied the line again for every block, time
    # quadratic in the length of a long line (and hours for one read a few bytes at a time)
    parts: list[Any] = []
    # read1: one system call per block, so that a pipe's data is read as it comes and a
    # signal is handled between two reads (BufferedReader.read loops in C until the block
    # is full: a signal that came between two of its reads waited for the next data)
    read = getattr(source, "read1", None) if _is_binary(source) else None
    if read is None:
        read = source.read
    while True:
        data = read(BLOCK)
        if not data:
            break
        if binary is None:
            # a stream is binary when it gives bytes: an mmap or a library's reader may be
            # neither an io class nor have a "b" mode (it was read as text: a TypeError)
            binary = not isinstance(data, str)
            if binary:
                empty, newline = b"", b"\n"
        if binary and not isinstance(data, bytes):
            data = bytes(cast(Any, data))      # (a bytearray or a memoryview)
        cut = data.rfind(newline)
        if cut < 0:
            parts.append(data)   # a very long line: keep reading until it ends
            continue
        parts.append(data[: cut + 1])
        block = empty.join(parts)
        parts = [data[cut + 1:]] if cut + 1 < len(data) else []
        yield decoder.decode(block) if binary else _strip_bom(block, decoder)
    pending = empty.join(parts)
    if pending:
        yield decoder.decode(pending) if binary else _strip_bom(pending, decoder)


def _strip_bom(text: str, decoder: _Decoder) -> str:
    if decoder.first:
        decoder.first = False
        if text.startswith("\ufeff"):
            return text[1:]
    return text


def _is_binary(stream: IO) -> bool:
    mode = getattr(stream, "mode", "")
    if isinstance(mode, str) and "b" in mode:
        return True
    import io
    return isinstance(stream, (io.BufferedIOBase, io.RawIOBase))


def split_games(source: Source) -> Iterator[Chunk]:
    """Cut a text, or a text or binary stream, into the chunks of text of its games.

    A game starts at a ``[`` that opens a tag after the current game's first ``deal``
    keyword (a ``[`` alone on its line before another opens none: it stays with the game), at
    a deal written ``deal 1`` after another deal (a game with no tags, DPN 1.1),
    and at a line that opens with a tag after a blank line inside a comment left open (a
    comment never crosses a game start: the comment is reported where it opens). Comments
    (``{...}``, which may span lines) and tag values are skipped. Tags that stand right
    after a game's deals, then a blank line and the next game's tags, stay with the game
    they follow (the parser reports them there).
    """
    decoder = _Decoder()
    blocks = _blocks(source, decoder)
    buf = ""
    pos = 0            # scanning position in buf
    start = 0          # start of the current game in buf
    line, column = 1, 1   # position of buf[start] in the file
    seen_deal = False
    eof = False
    # a { at or after ``open_from`` has no } and no game start after it up to the end of
    # the file (so that a run of { is not searched again for each of them)
    open_from: Optional[int] = None

    def more() -> bool:
        nonlocal buf, eof
        for block in blocks:
            buf += block
            return True
        eof = True
        return False

    def emit(end: int, last: bool, whole: Optional[tuple[int, int]] = None) -> Chunk:
        nonlocal line, column, start
        text = buf[start:end]
        chunk_line, chunk_col = line, column
        newlines = text.count("\n")
        if newlines:
            line += newlines
            column = len(text) - text.rfind("\n")
        else:
            column += len(text)
        start = end
        problems: tuple[EncodingProblem, ...] = ()
        if decoder.problems:
            keep: list[EncodingProblem] = []
            mine: list[EncodingProblem] = []
            for p in decoder.problems:
                (mine if (p.line, p.column) < (line, column) else keep).append(p)
            decoder.problems[:] = keep
            problems = tuple(mine)
        return Chunk(text, chunk_line, chunk_col, problems, last, whole)

    def plain_game() -> Optional[Chunk]:
        """The chunk of a plain game that starts at ``start``, followed by a blank line and
        the next game's ``[``, or None. Such a game is cut exactly where the scan below
        would cut it: its text holds no deal numbered 1 after its first deal, no tag holding
        the word deal and no comment holding a [ (the scan's other ways of cutting), and the
        next game's [ is not one alone on its line before another."""
        space = _SPACE(buf, start)
        at = space.end() if space is not None else start     # (it always matches)
        game = GAME_WHOLE_AT(buf, at)
        if game is None:
            return None
        end = game.end()
        after = _AFTER_GAME(buf, end)
        if after is None or lone_bracket(after.end()):
            # (a [ alone on its line before another [ opens no game: the scan keeps it with
            # this game, as it did when the game ended at a block's edge)
            return None
        first = _FIRST_DEAL.search(buf, at, end)
        if first is None or buf[buf.rfind("\n", at, first.start()) + 1: first.start()].strip(" \t"):
            return None
        commented = buf.find("{", at, end) >= 0
        if (_DEAL_ONE if commented else _DEAL_ONE_LINE).search(buf, first.end(), end) is not None:
            return None
        if commented and _BRACKET_COMMENT.search(buf, at, end) is not None:
            return None
        return emit(after.end(), False, (at - start, end - start))

    def game_start_after_blank(frm: int, end: int, opening: int) -> int:
        """Where a game starts after a blank line in buf[frm:end] (inside a comment opened at
        ``opening``), -1: none. A game starts at a line that opens with a tag, or at lines of
        comments before such a line (the game's opening comments, as the canonical form writes
        them), even when the last of those comments closes the one left open."""
        for blank in _BLANK_LINE.finditer(buf, frm, end):
            if blank.start() <= opening:
                continue
            at = opening_comments_then_tag(blank.end())
            if at >= 0:
                return at
        return -1

    def opening_comments_then_tag(at: int) -> int:
        """When white space and whole comments from ``at`` lead to a tag, the start of the
        line where the first of them stands (-1 otherwise); reads on as far as needed."""
        first = -1
        while True:
            j = _after_white(buf, at)
            while j == len(buf) and not eof and more():
                j = _after_white(buf, at)
            if j == len(buf):
                return -1
            if first < 0:
                first = buf.rfind("\n", 0, j) + 1
            if buf[j] == "{":
                close = buf.find("}", j)
                while close < 0 and not eof and more():
                    close = buf.find("}", j)
                if close < 0:
                    return -1
                at = close + 1
                continue
            if buf[j] != "[":
                return -1
            nl = buf.find("\n", j)
            while nl < 0 and not eof and more():
                nl = buf.find("\n", j)
            return first if _TAG_AT(buf, j, len(buf) if nl < 0 else nl) is not None else -1

    def stray_tags_end(at: int) -> int:
        """After a game's deals, a ``[`` at ``at``: when the lines from there hold only tags
        and comments, then a blank line and the next game's tags, and a tag name of the
        first group comes again in the second (one header would hold it twice), where the
        second group starts: the tags before it stay with the game they follow. -1 otherwise
        (a header may hold a blank line), and at once for a tag after a blank line."""
        ls = buf.rfind("\n", 0, at) + 1
        if buf[ls:at].strip():
            return -1              # something else of the game stands before it on its line
        if ls >= 1 and not buf[buf.rfind("\n", 0, ls - 1) + 1: ls].strip():
            return -1              # after a blank line: a header (stray tags follow the deals)
        i = ls
        groups: list[set[str]] = [set()]
        second = -1
        while True:
            nl = buf.find("\n", i)
            while nl < 0 and not eof and more():
                nl = buf.find("\n", i)
            text = buf[i: len(buf) if nl < 0 else nl]
            if not text.strip():
                if len(groups[-1]) and len(groups) == 2:
                    break
                if groups[-1] and len(groups) == 1:
                    groups.append(set())
            elif _TAGS_ONLY.fullmatch(text):
                if len(groups) == 2 and second < 0:
                    second = i
                groups[-1].update(n.lower() for n in _TAG_NAME.findall(text))
            else:
                break
            if nl < 0:
                break
            i = nl + 1
        return second if len(groups) == 2 and groups[0] & groups[1] else -1

    def lone_bracket(at: int) -> bool:
        """Whether only white space follows the ``[`` at ``at`` on its line, and the next
        line that holds anything opens with another ``[`` (at the end of the file, a ``[``
        is a game cut short: it starts a game, and the game before stays as it was)."""
        nl = buf.find("\n", at)
        while nl < 0 and not eof and more():
            nl = buf.find("\n", at)
        if nl < 0 or buf[at + 1: nl].strip(" \t\r\ufeff"):
            return False
        j = _after_white(buf, nl)
        while j == len(buf) and not eof and more():
            j = _after_white(buf, nl)
        return j < len(buf) and buf[j] == "["

    # after a game's deals: where a run of comments that follows a blank line starts (-1: none),
    # and where the text before the next stop of the scan began
    lead = -1
    gap_from = 0

    def leading(at: int) -> int:
        """Where the next game's text starts when its first element is at ``at``: before the
        comments that open it (after a blank line), else at ``at``."""
        return lead if lead >= 0 and not buf[gap_from:at].strip() else at

    more()
    fresh = True       # at the start of a game: try it as a plain game first
    while True:
        if fresh:
            fresh = False
            chunk = plain_game()
            if chunk is not None:
                yield chunk
                seen_deal = False
                lead = -1
                pos = gap_from = start + 1    # (past the next game's [, as below)
                fresh = True
                continue
        if start > BLOCK:
            # what was emitted is dropped once over a block: copying the rest of the buffer
            # after every game made splitting quadratic in the block size
            if open_from is not None:
                open_from = max(0, open_from - start)
            if lead >= 0:
                lead = lead - start if lead >= start else -1
            gap_from = max(0, gap_from - start)
            buf, pos, start = buf[start:], pos - start, 0
        m = (_SCAN_BODY if seen_deal else _SCAN_HEAD).search(buf, pos)
        if seen_deal:
            # DPN 1.1: a deal written "deal 1" after another deal starts a game with no tags
            one = _DEAL_ONE.search(buf, pos, len(buf) if m is None else m.start())
            if one is not None:
                chunk = emit(leading(one.start()), False)
                if chunk.text.strip():
                    yield chunk
                lead = -1
                pos = gap_from = one.start() + 4
                continue
        if m is None:
            pos = len(buf)      # (gap_from stays: the text since is still the gap)
            if eof or not more():
                break
            continue
        ch = buf[m.start()]
        if ch == "{":
            if seen_deal:
                # comments on lines of their own after a blank line that ends a game's text
                # open the next game's text (they are the next game's, as the canonical
                # form writes a game's opening comments): note where such a run starts
                gap = buf[gap_from:m.start()]
                if lead < 0 or gap.strip():
                    tail = gap[len(gap.rstrip()):]
                    lead = -1
                    if tail.count("\n") >= 2:     # (the line start is then in the tail: found at once)
                        ls = buf.rfind("\n", 0, m.start()) + 1
                        lead = ls if not buf[ls:m.start()].strip() else -1
            if open_from is not None and m.start() >= open_from:
                pos = gap_from = m.end()
                continue
            # A comment ends at the next }, or, left open, at a blank line followed by a
            # line that opens with a tag: that line starts the next game, and the { is left
            # to the parser, which reports it ("this comment is never closed")
            look = m.end()
            cut = -1
            while True:
                close = buf.find("}", look)
                end = len(buf) if close < 0 else close
                size = len(buf)     # (looking for a game start may read on)
                cut = game_start_after_blank(max(m.end(), look - 1), end, m.start())
                if cut >= 0 or close >= 0:
                    break
                look = size      # search each new block once, not the whole comment again
                if len(buf) == size and (eof or not more()):
                    break
            opening_text = lead
            if cut >= 0 or close < 0:
                lead = -1
            if cut >= 0:
                if opening_text > start:
                    # the comment left open stands in comments on lines of their own after a
                    # blank line that ends a game's text: the game before keeps its deals, and
                    # the comment is reported on its own, before the game that starts here
                    chunk = emit(opening_text, False)
                    if chunk.text.strip():
                        yield chunk
                chunk = emit(cut, False)
                if chunk.text.strip():
                    yield chunk
                seen_deal = False
                pos = cut
            elif close >= 0:
                pos = close + 1
                gap_from = pos
            else:
                # open to the end of the file. After a game's deals and a blank line, a {
                # that opens a line is the next game's opening comment, cut short: the game
                # before it keeps its deals
                open_from = m.start()
                ls = buf.rfind("\n", 0, m.start())
                prev = buf.rfind("\n", 0, max(ls, 0))
                if seen_deal and ls >= 0 and not buf[ls + 1: m.start()].strip() \
                        and ls > start and not buf[prev + 1: ls].strip():
                    chunk = emit(ls + 1, False)
                    if chunk.text.strip():
                        yield chunk
                    seen_deal = False
                pos = m.end()
            gap_from = pos
        elif ch == '"':
            lead = -1
            s = _STRING.match(buf, m.start())
            if s is not None:
                pos = s.end()
            else:
                nl = buf.find("\n", m.end())
                pos = len(buf) if nl < 0 else nl
            gap_from = pos
        elif ch == "[":
            if seen_deal and lone_bracket(m.start()):
                # a [ alone at the end of its line, another [ on the next line: the first opens
                # no tag and stays with the game before (stray lines between two games cost
                # one of them, not both)
                pos = gap_from = m.end()
                continue
            if seen_deal:
                cut = stray_tags_end(m.start())
                chunk = emit(leading(m.start()) if cut < 0 else cut, False)
                if chunk.text.strip():
                    yield chunk
                seen_deal = False
                lead = -1
                pos = gap_from = m.end() if cut < 0 else cut
                fresh = True
                continue
            pos = gap_from = m.end()
        else:
            seen_deal = True
            lead = -1
            pos = gap_from = m.end()
    chunk = emit(len(buf), True)
    if chunk.text.strip() or chunk.encoding_errors:
        yield chunk


def stray_tags(games: list[Game]) -> list[Game]:
    """Games of one chunk with tags that stand after a game's deals given back to that game.

    The splitter leaves such tags (a ``[Name "value"]`` right after the last deal, then a
    blank line and the next game's tags) with the game they follow, where they read as a
    game of tags and no deals: each becomes a ``bad-tag`` of the game before, and the tag
    is kept there (nothing is lost, and the next game's header is its own).
    """
    out: list[Game] = []
    for game in games:
        if out and out[-1].deals and game.tags and not game.deals:
            prev = out[-1]
            errors = prev.errors + tuple(
                DpnError("bad-tag", f'the tag "{tag.name}" comes after the deals of this game: '
                         "a game's tags go before its first deal", tag.line, tag.column)
                for tag in game.tags) + game.errors
            out[-1] = prev._replace(tags=prev.tags + game.tags, errors=errors,
                                    comments=prev.comments + game.comments)
            continue
        out.append(game)
    return out
