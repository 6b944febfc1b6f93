"""Checking a record on several cores: games in batches to worker processes, results in order.

The parent process reads the input once and cuts it at game boundaries
(:func:`dehlanote.syntax.reader.split_games`); batches of games go to a
:class:`concurrent.futures.ProcessPoolExecutor`; each worker parses and replays its games
and sends back one small :class:`GameReport` per game (its errors, with their positions in
the file and the text of their line, and its counts). Reports come back in the order of
the input, and ``jobs=1`` runs the very same code in the calling process, so the output of
``dehlanote validate --jobs N`` is that of ``--jobs 1`` whatever ``N``.

Memory stays flat: at most ``2 * jobs + 2`` batches are in flight, whatever the size of the
input. The command line calls::

    for report in validate_parallel(path_or_stream, jobs, registry_files=[rules_yaml]):
        ...
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Callable, Generator, Iterable, Iterator, NamedTuple, Optional, Sequence, Union

from ..analysis.judge import claim_judge
from ..errors import DpnError
from ..replay.game import replay_game
from ..replay.quick import quick_chunk
from ..rules.profile import Registry, registry
from ..syntax.model import Game
from ..syntax.parser import parse_chunk
from ..syntax.reader import Chunk, split_games
from ..workers import worker_pool
from .locate import error_state, located, rebuild_error
from .profiles import load_registry
from .ranges import RangeResult, check_range, plan_ranges, range_count, rebuilt

__all__ = ["GameReport", "batches", "check_chunks", "error_state", "load_registry", "rebuild_error",
           "validate_parallel", "validate_path", "validate_serial"]

PathOrStream = Union[str, "os.PathLike[str]", IO[bytes], IO[str]]

#: the text of about this many characters goes to a worker at a time (some 1,000 deals)
BATCH_CHARS = 1 << 18


def _rebuild_report(index: int, line: int, column: int, deals: int, errors: tuple,
                    ruled: tuple = ()) -> "GameReport":
    return GameReport(index, line, column, deals, tuple(rebuild_error(*e) for e in errors),
                      tuple(rebuild_error(*e) for e in ruled))


class GameReport(NamedTuple):
    """What checking one game found.

    ``index`` is the game's place in the input (0-based), ``line`` and ``column`` where it
    starts, ``deals`` how many deals were read, ``errors`` every error (syntax and rules) in
    file order, each with its position in the file and ``source_line`` (the text of its line,
    for a caret) filled in, and ``path`` when a name was given; ``ruled``, likewise, the
    revokes the table ruled on (facts that validate says, not errors).
    """

    index: int  # type: ignore[assignment]  # (a field named as tuple.index: kept, it is the API)
    line: int
    column: int
    deals: int
    errors: tuple[DpnError, ...]
    ruled: tuple[DpnError, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors

    def __reduce__(self):
        # DpnError's constructor takes more than its message, so exceptions do not pickle
        # by themselves; a report travels as plain tuples
        return (_rebuild_report, (self.index, self.line, self.column, self.deals,
                                  tuple(error_state(e) for e in self.errors),
                                  tuple(error_state(e) for e in self.ruled)))


def _report(index: int, game: Game, reg: Registry, name: Optional[str]) -> GameReport:
    # (only the errors are sent back: each deal let go once replayed)
    facts = replay_game(game, reg, dealt_hands=False, judge=claim_judge, keep_deals=False)
    errors = facts.errors
    if errors:
        errors = tuple(located(e, game, name) for e in errors)
    ruled = tuple(located(e, game, name) for e in facts.ruled)
    return GameReport(index, game.line, game.column, len(game.deals), errors, ruled)


def check_chunks(chunks: Iterable[Chunk], reg: Optional[Registry] = None, *, name: Optional[str] = None,
                 first_index: int = 0) -> list[GameReport]:
    """Parse and replay the games of ``chunks``: one report per game, in order."""
    reg = reg or registry()
    out: list[GameReport] = []
    index = first_index
    for chunk in chunks:
        quick = quick_chunk(chunk, reg)     # a whole game certainly valid: counted without its model
        if quick is not None:
            out.append(GameReport(index, quick[1], quick[2], quick[0], ()))
            index += 1
            continue
        for game in parse_chunk(chunk, keep_source=True):
            out.append(_report(index, game, reg, name))
            index += 1
    return out


def batches(chunks: Iterable[Chunk], size: int = BATCH_CHARS) -> Iterator[list[Chunk]]:
    """Group chunks into lists of about ``size`` characters of text."""
    batch: list[Chunk] = []
    chars = 0
    for chunk in chunks:
        batch.append(chunk)
        chars += len(chunk.text)
        if chars >= size:
            yield batch
            batch, chars = [], 0
    if batch:
        yield batch


@contextmanager
def _opened(source: PathOrStream) -> Iterator[Union[IO[bytes], IO[str]]]:
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as stream:
            yield stream
    else:
        yield source


# ---- the worker side -------------------------------------------------------------------

_worker_registry: Optional[Registry] = None


def _init_worker(registry_files: tuple[str, ...], parent: int) -> None:
    # (Ctrl-C is already set aside: dehlanote.workers starts every worker that way)
    _die_with(parent)
    global _worker_registry
    _worker_registry = load_registry(registry_files)
    # (the Lark parser is built at the first game the quick check does not vouch for: a
    # file of valid games never needs it, and building it took 0.13 s of each worker's start)
    gc.collect()            # what the fork brought is kept out of gc scans
    gc.freeze()


def _die_with(parent: int) -> None:
    """End this worker when its parent dies, however it dies (SIGKILL included).

    Linux: the kernel sends SIGTERM on the parent's death (PR_SET_PDEATHSIG). Elsewhere, or
    if that cannot be set, a daemon thread polls the parent's pid. Either way a worker never
    outlives the command waiting on a pipe forever.
    """
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, signal.SIGTERM, 0, 0, 0) == 0:   # PR_SET_PDEATHSIG
            if os.getppid() != parent:                    # the parent died before that call
                os._exit(1)
            return
    except (OSError, AttributeError):
        pass
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _check_range(path: str, cuts: list, index: int, name: Optional[str]) -> RangeResult:
    assert _worker_registry is not None
    return check_range(path, cuts, index, _worker_registry, name)


def _check_batch(batch: list[Chunk], name: Optional[str]) -> list[GameReport]:
    # no pause of the collector here: the games of a batch die one by one, and pausing it
    # measured no faster (it pays only where parsed games pile up, see parse_path)
    return check_chunks(batch, _worker_registry, name=name)


# ---- the public entry points ------------------------------------------------------------

class WorkerLost(OSError):
    """A worker process ended without its answer (killed: what the out-of-memory killer
    does); the games before it were checked and reported."""


def _lost(index: int) -> WorkerLost:
    return WorkerLost(0, f"a worker process was lost (killed, out of memory?) after {index} games: "
                         "the games before it were checked; run again with fewer --jobs")


def validate_serial(source: PathOrStream, registry_files: Sequence[Union[str, "os.PathLike[str]"]] = (), *,
                    name: Optional[str] = None) -> Iterator[GameReport]:
    """Check every game in this process, one at a time (``validate_parallel`` with one job)."""
    reg = load_registry(registry_files)
    index = 0
    with _opened(source) as stream:
        for chunk in split_games(stream):
            for report in check_chunks((chunk,), reg, name=name, first_index=index):
                index += 1
                yield report


def validate_parallel(source: PathOrStream, jobs: Optional[int] = None,
                      registry_files: Sequence[Union[str, "os.PathLike[str]"]] = (), *,
                      name: Optional[str] = None, batch_chars: int = BATCH_CHARS,
                      mp_context: Optional[str] = None, ranges: Optional[int] = None,
                      on_bytes: Optional[Callable[[int], None]] = None) -> Generator[GameReport, None, None]:
    """Check every game of a file or stream on ``jobs`` processes; reports in input order.

    Args:
        source: a path, or a binary or text stream (``sys.stdin.buffer`` for ``-``).
        jobs: worker processes; ``None`` or ``0``: one per core; ``1``: no pool, this process.
        registry_files: YAML profile files loaded as ``--rules`` loads them (in every worker).
        name: the path to put in each error (``DpnError.path``), e.g. ``"<stdin>"``.
        batch_chars: characters of text sent to a worker at a time (a stream).
        ranges: a path is cut into this many byte ranges, each read by a worker
            (default: from the file's size and ``jobs``, :func:`~.ranges.range_count`).
        on_bytes: told how many bytes of a path each range that was checked held (a
            progress bar).
        mp_context: how workers start (``"fork"``, ``"forkserver"``, ``"spawn"``); default:
            the platform's (fork on Linux, the quickest to start).

    Yields:
        One :class:`GameReport` per game, in the order of the input; the same reports,
        error for error, whatever ``jobs`` is. A caller that may stop before the end
        closes the generator (``contextlib.closing``): its workers are then terminated
        at once, rather than when the generator is collected.

    Raises:
        OSError: the input cannot be read (raised where reading fails).
        DpnError: ``unknown-rules`` when a registry file is not a valid profile file.
    """
    jobs = jobs or os.cpu_count() or 1
    files = tuple(os.fspath(f) for f in registry_files)
    if name is None and isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
    if jobs <= 1:
        yield from validate_serial(source, files, name=name)
        return
    load_registry(files)    # fail here, once, on a bad profile file
    window = 2 * jobs + 2
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        cuts = plan_ranges(path, ranges or range_count(os.path.getsize(path), jobs))
    context = multiprocessing.get_context(mp_context) if mp_context else None
    pending: deque[Future] = deque()
    index = 0
    # (stopped early, by Ctrl-C, an error or the caller closing this generator, the pool's
    # workers are terminated at once: see dehlanote.workers)
    with worker_pool(jobs, context, _init_worker, (files, os.getpid())) as pool:
        try:
            if isinstance(source, (str, os.PathLike)):
                yield from _by_ranges(pool, path, cuts, name, window, on_bytes)
                return
            with _opened(source) as stream:
                for batch in batches(split_games(stream), batch_chars):
                    pending.append(pool.submit(_check_batch, batch, name))
                    while len(pending) >= window:
                        for report in pending.popleft().result():
                            yield report._replace(index=index)
                            index += 1
            while pending:
                for report in pending.popleft().result():
                    yield report._replace(index=index)
                    index += 1
        except BrokenProcessPool:
            raise _lost(index) from None


def _by_ranges(pool: ProcessPoolExecutor, path: str, cuts: list, name: Optional[str], window: int,
               on_bytes: Optional[Callable[[int], None]]) -> Iterator[GameReport]:
    """The reports of a file checked range by range (:mod:`.ranges`), in file order."""
    futures: dict[int, Future] = {}
    ranges = len(cuts) - 1
    submitted = 0
    at = 0          # the cut the next range to report starts at (a game start of one pass)
    index = 0
    while at < ranges:
        try:
            while submitted < ranges and submitted < at + window:
                futures[submitted] = pool.submit(_check_range, path, cuts, submitted, name)
                submitted += 1
            result: RangeResult = futures.pop(at).result()
        except BrokenProcessPool:
            raise _lost(index) from None        # (the games reported so far were checked)
        for k in range(at + 1, result.stop):    # ranges that started inside a game: read by this one
            futures.pop(k).cancel()
        errors, ruled = _by_game(rebuilt(result.errors)), _by_game(rebuilt(result.ruled))
        for n in range(len(result.lines)):
            yield GameReport(index, result.lines[n], result.columns[n], result.deals[n], errors.get(n, ()),
                             ruled.get(n, ()))
            index += 1
        if on_bytes is not None:
            on_bytes(cuts[result.stop].offset - cuts[at].offset)
        at = result.stop


def _by_game(numbered: list[tuple[int, DpnError]]) -> dict[int, tuple[DpnError, ...]]:
    out: dict[int, list[DpnError]] = {}
    for n, e in numbered:
        out.setdefault(n, []).append(e)
    return {n: tuple(es) for n, es in out.items()}


def validate_path(path: Union[str, Path], jobs: Optional[int] = None, **kwargs) -> list[GameReport]:
    """All reports of a file at once (small files; see :func:`validate_parallel`)."""
    return list(validate_parallel(path, jobs, **kwargs))
