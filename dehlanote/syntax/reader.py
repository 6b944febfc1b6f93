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
from typing import IO, Iterator, NamedTuple, Optional, Union

from .cards import STRING_BODY

BLOCK = 1 << 20  # bytes or characters read at a time

# what the splitter must see before a game's first deal: comment and tag-value openers and
# the deal keyword (a [ there changes nothing, and not stopping at each saves a step a tag)
_SCAN_HEAD = re.compile(r'[{"]|(?<![0-9A-Za-z_])[Dd][Ee][Aa][Ll](?![0-9A-Za-z_])')
# after it only comments, tag values and the next tag matter: a plain character class,
# which the regex engine scans several times faster than _SCAN_HEAD
_SCAN_BODY = re.compile(r'[{"\[]')
_STRING = re.compile(f'"{STRING_BODY}"')
# a line that opens with a whole tag, and one that opens with the deal keyword: the start
# of another game, which no comment runs over (see split_games)
_TAG_LINE = re.compile(f'\\n[ \\t\\r\\ufeff]*\\[[ \\t]*[A-Za-z][A-Za-z0-9_]*[ \\t]*"{STRING_BODY}"[ \\t]*\\]')
_DEAL_LINE = re.compile(r"\n[ \t\r\ufeff]*[Dd][Ee][Aa][Ll](?![0-9A-Za-z_])")
_DEAL_NEXT = re.compile(r"[\s\ufeff]*[Dd][Ee][Aa][Ll](?![0-9A-Za-z_])")
_BLANK = re.compile(r"[\s\ufeff]*")
_SURROGATE = re.compile("[\udc80-\udcff]")


class Chunk(NamedTuple):
    """The text of one game and where it starts in the file (1-based line and column)."""

    text: str
    line: int
    column: int
    encoding_errors: tuple["EncodingProblem", ...] = ()
    last: bool = True      # False when a tag of the next game follows right after the text


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
    binary = _is_binary(source)
    empty, newline = (b"", b"\n") if binary else ("", "\n")
    # what was read of a line not yet ended: never a newline in it. Joined once the line
    # ends: adding each block to the rest copied the line again for every block, time
    # quadratic in the length of a long line (and hours for one read a few bytes at a time)
    parts: list = []
    while True:
        data = source.read(BLOCK)
        if not data:
            break
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

    The cut falls at a ``[`` that opens a tag after the current game's first ``deal``
    keyword; comments (``{...}``, which may span lines) and tag values are skipped.
    """
    decoder = _Decoder()
    blocks = _blocks(source, decoder)
    buf = ""
    pos = 0            # scanning position in buf
    start = 0          # start of the current game in buf
    line, column = 1, 1   # position of buf[start] in the file
    seen_deal = False
    eof = False
    # what is known of the comments left open, so that a run of { is not searched again
    # for each of them: none closes after ``open_from`` (at the end of the file), and a
    # { before ``runaway_before`` runs over the start of a game
    open_from: Optional[int] = None
    runaway_before: Optional[int] = None

    def more() -> bool:
        nonlocal buf, eof
        for block in blocks:
            buf += block
            return True
        eof = True
        return False

    def emit(end: int, last: bool) -> Chunk:
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
            keep, mine = [], []
            for p in decoder.problems:
                (mine if (p.line, p.column) < (line, column) else keep).append(p)
            decoder.problems[:] = keep
            problems = tuple(mine)
        return Chunk(text, chunk_line, chunk_col, problems, last)

    more()
    while True:
        m = (_SCAN_BODY if seen_deal else _SCAN_HEAD).search(buf, pos)
        if m is None:
            pos = len(buf)
            if eof or not more():
                break
            continue
        ch = buf[m.start()]
        if ch == "{":
            # A comment ends at the next }, but does not run over the start of a game (a
            # line that opens with a tag, then the deal keyword at the start of a line in
            # the comment or right after it): a { left open would swallow every game up to
            # the next comment's } (silently, when that } ends a game), or to the end of the
            # file. Such a { is left to the parser, which reports it ("this comment is
            # never closed"), and the games after it are read.
            if (open_from is not None and m.start() >= open_from) or \
                    (runaway_before is not None and m.start() < runaway_before):
                pos = m.end()
                continue
            look = m.end()
            tag_end = tag_start = -1
            runaway = False
            while True:
                close = buf.find("}", look)
                end = len(buf) if close < 0 else close
                if tag_end < 0:
                    tag = _TAG_LINE.search(buf, max(m.end(), look - 1), end)
                    if tag is not None:
                        tag_start, tag_end = tag.start(), tag.end()
                if tag_end >= 0 and _DEAL_LINE.search(buf, max(tag_end, look - 1), end):
                    runaway = True
                    break
                if close >= 0:
                    break
                look = len(buf)      # search each new block once, not the whole comment again
                if eof or not more():
                    break
            if close >= 0 and tag_end >= 0 and not runaway:
                while not eof and _BLANK.fullmatch(buf, close + 1) and more():
                    pass
                runaway = _DEAL_NEXT.match(buf, close + 1) is not None
            if runaway:
                runaway_before = tag_start
            elif close < 0:         # (the whole file was searched)
                open_from = m.start()
            pos = close + 1 if close >= 0 and not runaway else m.end()
        elif ch == '"':
            s = _STRING.match(buf, m.start())
            if s is not None:
                pos = s.end()
            else:
                nl = buf.find("\n", m.end())
                pos = len(buf) if nl < 0 else nl
        elif ch == "[":
            if seen_deal:
                chunk = emit(m.start(), False)
                if chunk.text.strip():
                    yield chunk
                seen_deal = False
                # what was emitted is dropped below, once over a block: copying the rest of
                # the buffer after every game made splitting quadratic in the block size
            pos = m.end()
        else:
            seen_deal = True
            pos = m.end()
        if start > BLOCK:
            if open_from is not None:
                open_from = max(0, open_from - start)
            if runaway_before is not None:
                runaway_before = runaway_before - start if runaway_before > start else None
            buf, pos, start = buf[start:], pos - start, 0
    chunk = emit(len(buf), True)
    if chunk.text.strip() or chunk.encoding_errors:
        yield chunk
