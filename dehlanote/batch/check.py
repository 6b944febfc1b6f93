"""Checking files: each game of a file (or of standard input) replayed, its errors reported.

What every command that reads records shares, and what a program checking many files
calls: :func:`check_file` gives a :class:`FileReport` per file, streaming one game at a
time, or on several processes for a large file (:mod:`dehlanote.batch.pool`).
"""

from __future__ import annotations

import io
import os
import stat
import sys
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterator, Optional, cast

from ..analysis.judge import claim_judge
from ..errors import DpnError, why
from ..replay import replay_game
from ..replay.quick import quick_chunk
from ..rules.profile import Registry
from ..syntax import Game
from ..syntax.model import Loose
from ..syntax.parser import parse_chunk, records
from ..syntax.reader import Chunk, split_games
from .locate import located

__all__ = ["PARALLEL_MIN_BYTES", "STDIN", "STDIN_NAME", "FileReport", "NotText", "check_file", "chunks_of",
           "display_name",
           "games_of", "located", "not_text", "open_checked", "parallel_reports", "printable", "records_of", "sniff",
           "why"]

STDIN = "-"
STDIN_NAME = "<stdin>"


def printable(text: str) -> str:
    """``text`` that can be written as UTF-8: bytes of a file name (or an argument) that are
    not UTF-8, kept by Python as lone surrogates, become U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        try:
            return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        except UnicodeEncodeError:
            return text.encode("utf-8", "replace").decode("utf-8")


def display_name(spec: str) -> str:
    """How an input is named in messages and reports (a name that is not UTF-8 made printable)."""
    return STDIN_NAME if spec == STDIN else printable(spec)


class NotText(OSError):
    """The file is not text (binary data): nothing of it is read as a record."""


#: how much of a file is looked at to tell text from binary data
SNIFF_BYTES = 8192


def not_text(head: bytes) -> Optional[str]:
    """Why the first bytes of a file show it is not text (None when they may be text).

    NUL bytes over 1 % of them (one NUL in a record is an error of that record, and read as
    such), or over 10 % that are not UTF-8 (a stray Latin-1 letter is an ``encoding`` error).
    """
    wide = _wide_text(head)
    if wide is not None:
        return f"it is {wide} text, not UTF-8: save it as UTF-8 (most editors offer the encoding under Save As)"
    if len(head) < 512:
        return None     # a few bytes print a few errors: read them as a record
    nul = head.count(0)
    if nul * 100 > len(head):
        return "it is not a text file (it holds NUL bytes: binary data)"
    text = head.decode("utf-8", "surrogateescape")
    bad = sum(1 for ch in text if "\udc80" <= ch <= "\udcff")
    if bad * 10 > len(text):
        return "it is not a text file (mostly not UTF-8: binary data)"
    return None


def _wide_text(head: bytes) -> Optional[str]:
    """``UTF-16`` or ``UTF-32`` when the first bytes are text in that encoding (its byte-order
    mark, or a NUL beside every letter of a text in ASCII; Windows Notepad saves "Unicode" so),
    else None: such a file is text a player saved in the wrong encoding, not binary data."""
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    sample = head[:512 - len(head) % 2 if len(head) >= 512 else len(head) - len(head) % 2]
    if len(sample) >= 16:
        evens, odds = sample[0::2], sample[1::2]
        for zeros, letters in ((odds, evens), (evens, odds)):
            if zeros.count(0) == len(zeros) and 0 not in letters and all(b < 0x80 for b in letters):
                return "UTF-16"
    return None


class _Counting(io.BufferedIOBase):
    """A binary file that tells ``on_bytes`` how many bytes each read gave (for a progress bar)."""

    def __init__(self, raw: Any, on_bytes: Callable[[int], None]) -> None:
        self._file, self.on_bytes = raw, on_bytes

    def readable(self) -> bool:
        return True

    def read(self, size: Optional[int] = -1) -> bytes:
        data = self._file.read(size)
        self.on_bytes(len(data))
        return data

    def read1(self, size: int = -1) -> bytes:
        data = self._file.read1(size)
        self.on_bytes(len(data))
        return data

    def close(self) -> None:
        self._file.close()
        super().close()


def _counted(path: str, on_bytes: Callable[[int], None]) -> Iterator[Chunk]:
    with _Counting(open(path, "rb"), on_bytes) as stream:
        yield from split_games(cast(IO[bytes], stream))


def _path_chunks(path: str) -> Iterator[Chunk]:
    with open(path, "rb") as stream:
        yield from split_games(stream)


def _games(chunks: Iterator[Chunk]) -> Iterator[Game]:
    for chunk in chunks:
        yield from parse_chunk(chunk, keep_source=True)


def games_of(spec: str, on_bytes: Optional[Callable[[int], None]] = None) -> Iterator[Game]:
    """The games of a file, or of standard input for ``-``, one at a time, with their text.

    Raises NotText (an OSError) when the file is binary data (a program, an image,
    /dev/zero): said in one line, rather than thousands of errors.
    """
    return _games(chunks_of(spec, on_bytes))


def records_of(spec: str) -> Iterator["Game | Loose"]:
    """The games of a file as :func:`games_of` gives them, and the comments of a piece of it
    that holds comments and no game (a file of notes alone) as a Loose where they stand:
    what converts a file keeps them (``games_of`` drops them)."""
    return records(chunks_of(spec), keep_source=True)


def chunks_of(spec: str, on_bytes: Optional[Callable[[int], None]] = None) -> Iterator[Chunk]:
    """The text of each game of a file, or of standard input for ``-``, one at a time (the
    reader's chunks: :func:`games_of` parses them). Raises NotText as :func:`games_of` does."""
    if spec == STDIN:
        stream = sys.stdin.buffer
        peek = getattr(stream, "peek", None)
        reason = not_text(peek(SNIFF_BYTES)[:SNIFF_BYTES]) if peek is not None else None
        if reason:
            raise NotText(0, reason)
        return split_games(stream)
    if os.path.isdir(spec):
        raise IsADirectoryError(21, "Is a directory", spec)
    if not _regular(spec):
        # a FIFO, a pipe (<(command)), a device: it can be read once, so it is opened once
        # and its first bytes looked at without consuming them (opening it twice to sniff
        # lost them, and the writer of a FIFO saw a broken pipe and stopped)
        return _stream_chunks(spec, on_bytes)
    sniff(spec)
    if on_bytes is not None:
        return _counted(spec, on_bytes)
    return _path_chunks(spec)


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True     # (opening it tells why it cannot be read)


def _stream_chunks(path: str, on_bytes: Optional[Callable[[int], None]]) -> Iterator[Chunk]:
    """The games of a file that can be read only once, looked at first as ``sniff`` does."""
    with open(path, "rb") as raw:
        stream: Any = _Counting(raw, on_bytes) if on_bytes is not None else raw
        head = raw.peek(SNIFF_BYTES)[:SNIFF_BYTES]
        reason = not_text(head)
        if reason:
            raise NotText(0, reason)
        yield from split_games(cast(IO[bytes], stream))


def open_checked(spec: str) -> IO[bytes]:
    """An input opened for reading (``-``: standard input), its first bytes looked at before
    anything is read as a record: binary data (a program, random bytes, /dev/zero) raises
    NotText, as ``validate`` says it, instead of being read as thousands of errors. The one
    up-front check of every path that reads records (``html``, the Parquet export, the
    Dask jobs)."""
    if spec == STDIN:
        raw: Any = os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    else:
        if os.path.isdir(spec):
            raise IsADirectoryError(21, "Is a directory", spec)
        raw = open(spec, "rb")
    try:
        head = raw.peek(SNIFF_BYTES)[:SNIFF_BYTES]
        reason = not_text(head)
        if reason:
            raise NotText(0, reason)
    except BaseException:
        raw.close()
        raise
    return cast(IO[bytes], raw)


def sniff(path: str) -> None:
    """Raise NotText when the file at ``path`` is binary data."""
    with open(path, "rb") as head:
        reason = not_text(head.read(SNIFF_BYTES))
    if reason:
        raise NotText(0, reason)


@dataclass
class FileReport:
    path: str
    games: int = 0
    deals: int = 0
    errors: list[DpnError] = field(default_factory=list)   # kept only when asked for
    count: int = 0                                          # errors found
    unreadable: Optional[str] = None
    stopped: bool = False       # read in part: a worker process was lost
    ruled: list[DpnError] = field(default_factory=list)    # revokes the table ruled on: facts, not errors

    def json(self) -> dict[str, Any]:
        out = {"path": self.path, "games": self.games, "deals": self.deals,
               "errors": [e.to_json() for e in self.errors]}
        if self.ruled:
            out["ruled"] = [e.to_json() for e in self.ruled]
        if self.unreadable is not None:
            out["unreadable"] = self.unreadable
        return out


#: below this size a file is checked in one process: starting workers would cost more
PARALLEL_MIN_BYTES = 1 << 20


def parallel_reports(spec: str, jobs: int, rules_file: Optional[Path], report: FileReport,
                      on_error: Optional[Callable[[DpnError], None]], keep: bool,
                      on_bytes: Optional[Callable[[int], None]] = None) -> bool:
    """Check a large file on ``jobs`` processes (the same errors, in the same order, as one).

    Returns False when the file is better checked in this process (small, or standard input).
    """
    if jobs <= 1 or spec == STDIN or os.path.isdir(spec):
        return False
    try:
        if os.path.getsize(spec) < PARALLEL_MIN_BYTES:
            return False
    except OSError:
        return False
    sniff(spec)
    from .pool import validate_parallel
    files = (rules_file,) if rules_file is not None else ()
    # (the path itself: each worker reads its own byte range of the file)
    # (closed at once if taking its reports stops with Ctrl-C or an error: its workers are then
    # terminated there, not left to the interpreter's exit)
    with closing(validate_parallel(spec, jobs, files, name=report.path, on_bytes=on_bytes)) as reports:
        _take(reports, report, on_error, keep)
    return True


def _take(reports: Iterator[Any], report: FileReport, on_error: Optional[Callable[[DpnError], None]],
          keep: bool) -> None:
    for game_report in reports:
        report.games += 1
        report.deals += game_report.deals
        report.ruled += game_report.ruled
        for err in game_report.errors:
            report.count += 1
            if keep:
                report.errors.append(err)
            if on_error is not None:
                on_error(err)


def check_file(spec: str, reg: Registry, on_error: Optional[Callable[[DpnError], None]] = None,
               keep: bool = True, jobs: int = 1, rules_file: Optional[Path] = None,
               on_bytes: Optional[Callable[[int], None]] = None) -> FileReport:
    """Replay every game of a file, one at a time; report errors as they are found.

    With ``jobs`` > 1 a large file is split at game boundaries and checked on that many
    processes; the errors and their order are those of one process.
    """
    report = FileReport(display_name(spec))
    try:
        if parallel_reports(spec, jobs, rules_file, report, on_error, keep, on_bytes):
            return report
        for chunk in chunks_of(spec, on_bytes):
            # a whole game that is certainly valid is counted without its model (the quick
            # check); any other game is read and replayed in full, which words its errors
            quick = quick_chunk(chunk, reg)
            if quick is not None:
                report.games += 1
                report.deals += quick[0]
                continue
            for game in parse_chunk(chunk, keep_source=True):
                # (only the errors are read: each deal let go once replayed)
                facts = replay_game(game, reg, dealt_hands=False, judge=claim_judge, keep_deals=False)
                report.games += 1
                report.deals += len(game.deals)
                report.ruled += [located(r, game, report.path) for r in facts.ruled]
                for err in facts.errors:
                    err = located(err, game, report.path)
                    report.count += 1
                    if keep:
                        report.errors.append(err)
                    if on_error is not None:
                        on_error(err)
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        report.unreadable = why(exc)
        report.stopped = type(exc).__name__ in ("WorkerLost", "FileChanged")   # read in part
    return report
