"""A file checked in byte ranges: the cut points found without reading the games, each range
read and checked by the process that checks it, small summaries sent back.

The process that plans (the parent of ``validate --jobs N``, a Dask task) does not split
the file into games: it looks, from evenly spaced offsets, for the next line that opens
with ``[`` after a blank line (:func:`plan_ranges`: a search for bytes, not a parse), and
counts the line ends before each such *cut*. Each range is then read by its worker, from
its first byte (a seek) to the end of the file as far as needed (:func:`check_range`),
split into games by the very splitter of ``--jobs 1`` and checked.

A cut found that way is most often where the splitter of the whole file cuts too, but not
always (a blank line and a tag inside a comment that is closed later, tags that stray after
a game's deals...). So nothing is assumed: the worker of a range that starts where one pass
over the file starts a game reads on past its range's end until one of its games starts
exactly at a later cut, and says which (``RangeResult.stop``). That cut is then a game start
of the whole file's pass (the same splitter, from a game start of that pass, over the same
bytes, decides the same), and the range from it is checked from a true game start. The
results of the ranges it read through are dropped. By induction from the start of the file,
the games, their positions, their ``last`` flag and therefore their errors are exactly those
of one pass, whatever the cuts.
"""

from __future__ import annotations

import mmap
import os
import re
from array import array
from typing import Any, NamedTuple, Optional, Sequence

from ..analysis.judge import claim_judge
from ..errors import DpnError
from ..replay.game import replay_game
from ..replay.quick import quick_chunk
from ..rules.profile import Registry
from ..syntax.parser import parse_chunk
from ..syntax.reader import Chunk, EncodingProblem, split_games
from .locate import error_state, located, rebuild_error

__all__ = ["Cut", "FileChanged", "RangeResult", "check_range", "guided_starts", "plan_ranges", "range_count",
           "read_range"]

#: a line that opens with [ after a blank line (its [ is the cut); CRLF line ends included
_CUT = re.compile(rb"\n[ \t\r]*\n(?=\[)")
#: the largest range (what one worker's answer may hold is bounded by it)
RANGE_MAX = 16 << 20
#: ranges per worker: two, so that a worker that finishes first takes the last range
RANGES_PER_WORKER = 2
#: the smallest range of a guided plan (:func:`guided_starts`): about a quarter of a second
#: of one core, so that a task's own cost (a few milliseconds) stays small beside it
GUIDED_MIN = 1 << 20


class Cut(NamedTuple):
    """A byte offset that starts a line (``line``, 1-based); the first cut is 0, line 1."""

    offset: int
    line: int


class RangeResult(NamedTuple):
    """What checking the games that start from one cut found, up to the cut ``stop`` (an
    index in the plan; ``len(cuts) - 1``: the end of the file).

    ``lines``, ``columns``, ``deals``: each game's start and deal count (arrays, a few bytes a
    game); ``errors``: ``(game number in the range, error state)`` for every error, in file
    order (:func:`dehlanote.batch.locate.error_state`); ``ruled``: the revokes the table ruled
    on, likewise.
    """

    stop: int
    lines: Any
    columns: Any
    deals: Any
    errors: tuple
    ruled: tuple = ()


def range_count(size: int, workers: int, range_max: int = RANGE_MAX) -> int:
    """How many ranges a file of ``size`` bytes is cut into for ``workers`` workers:
    :data:`RANGES_PER_WORKER` a worker, more (a multiple of ``workers``) when ranges would
    be over ``range_max`` bytes."""
    workers = max(1, workers)
    per = RANGES_PER_WORKER
    while size > per * workers * range_max:
        per += 1
    return per * workers


def guided_starts(size: int, workers: int, smallest: int = GUIDED_MIN, largest: int = RANGE_MAX) -> list[int]:
    """Where the ranges of a guided plan start (after the first, at 0), for ``workers``
    workers that each take the next range when they are done: each round of ``workers``
    ranges shares out half of what is left (between ``smallest`` and ``largest`` bytes a
    range), so the ranges shrink towards the end of the file and the last ones, of about
    ``smallest``, even out the workers' ends (a 34 MB file on 2 workers: 8.4, 4.2, 2.1, 1.05
    and 1.05 MB, twice each); the last round shares out what is left in ``workers`` equal
    ranges."""
    workers = max(1, workers)
    starts: list[int] = []
    at = 0
    while True:
        left = size - at
        piece = min(largest, left // (2 * workers))
        if piece < smallest:
            # the last round: what is left in equal ranges, one a worker (fewer when they would
            # be under a quarter of the smallest)
            n = max(1, min(workers, left // max(1, smallest // 4)))
            starts.extend(at + left * k // n for k in range(1, n))
            return starts
        for _ in range(workers):
            at += piece
            starts.append(at)


def plan_ranges(path: "str | os.PathLike[str]", count: int, *, workers: int = 0) -> list[Cut]:
    """Up to ``count`` ranges of the file at ``path``: their cuts, the first at 0 and the
    last at the end of the file (so ``len(cuts) - 1`` ranges). Each cut after the first is
    the first line that opens with ``[`` after a blank line from an evenly spaced offset;
    with ``workers``, from the offsets of :func:`guided_starts` instead (``count`` unused).

    Raises:
        OSError: the file cannot be read.
    """
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        targets = guided_starts(size, workers) if workers else [size * k // count for k in range(1, max(1, count))]
        if size == 0 or not targets:
            return [Cut(0, 1), Cut(size, 0)]
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            offsets: list[int] = []
            for start in targets:
                target = max(start, offsets[-1] if offsets else 0)
                m = _CUT.search(data, target)
                if m is None:
                    break
                if not offsets or m.end() > offsets[-1]:
                    offsets.append(m.end())
            cuts = [Cut(0, 1)]
            line, at = 1, 0
            for offset in offsets:
                while at < offset:          # (a bounded slice at a time: memory stays small)
                    step = min(offset, at + (4 << 20))
                    line += data[at:step].count(b"\n")
                    at = step
                cuts.append(Cut(offset, line))
    cuts.append(Cut(size, 0))
    return cuts


class FileChanged(OSError):
    """The file was removed or rewritten after its cuts were planned: its ranges are not
    those of the file any more (a range read at the old cuts mixed the two texts)."""


def _changed() -> FileChanged:
    return FileChanged(0, "it changed while it was checked (removed or rewritten): the games before "
                          "were checked; check it again")


def read_range(path: "str | os.PathLike[str]", cuts: Sequence[Cut], index: int, results: list) -> Any:
    """The chunks of the games that start from cut ``index`` on, as one pass over the whole
    file gives them, up to the first later cut where a game starts; that cut's index is put
    in ``results`` (a list: appended once the range is read).

    Raises FileChanged when the file is gone or not of the size planned (the last cut)."""
    start, line = cuts[index]
    last = len(cuts) - 1
    j = index + 1
    try:
        stream = open(path, "rb")
    except FileNotFoundError:
        raise _changed() from None
    with stream:
        if os.fstat(stream.fileno()).st_size != cuts[last].offset:
            raise _changed()
        stream.seek(start)
        lo = line - 1
        for chunk in split_games(stream):
            if lo or start:
                chunk = _moved(chunk, lo, start)
            at = (chunk.line, chunk.column)
            while j < last and at > (cuts[j].line, 1):
                j += 1              # a cut inside a game: not a game start of the whole file
            if j < last and at == (cuts[j].line, 1):
                results.append(j)
                return
            yield chunk
        if os.fstat(stream.fileno()).st_size != cuts[last].offset:
            raise _changed()        # cut short (or grown) while it was read: not the file's end
    results.append(last)


def _moved(chunk: Chunk, lines: int, offset: int) -> Chunk:
    problems = chunk.encoding_errors
    if problems:
        problems = tuple(EncodingProblem(p.line + lines, p.column, p.offset + offset, p.byte) for p in problems)
    return chunk._replace(line=chunk.line + lines, encoding_errors=problems)


def check_range(path: "str | os.PathLike[str]", cuts: Sequence[Cut], index: int, reg: Registry,
                name: Optional[str]) -> RangeResult:
    """Check the games from cut ``index`` (see :func:`read_range`): a small summary."""
    lines, columns, deals = array("q"), array("q"), array("q")
    errors: list[tuple[int, tuple]] = []
    ruled: list[tuple[int, tuple]] = []
    stop: list[int] = []
    for chunk in read_range(path, cuts, index, stop):
        quick = quick_chunk(chunk, reg)
        if quick is not None:
            lines.append(quick[1])
            columns.append(quick[2])
            deals.append(quick[0])
            continue
        for game in parse_chunk(chunk, keep_source=True):
            facts = replay_game(game, reg, dealt_hands=False, judge=claim_judge, keep_deals=False)
            n = len(lines)
            errors.extend((n, error_state(located(e, game, name))) for e in facts.errors)
            ruled.extend((n, error_state(located(e, game, name))) for e in facts.ruled)
            lines.append(game.line)
            columns.append(game.column)
            deals.append(len(game.deals))
    return RangeResult(stop[0], lines, columns, deals, tuple(errors), tuple(ruled))


def rebuilt(states: tuple) -> list[tuple[int, DpnError]]:
    """``RangeResult.errors`` (or ``.ruled``) as errors again."""
    return [(n, rebuild_error(*state)) for n, state in states]
