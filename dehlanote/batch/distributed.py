"""Checking and converting archives on a Dask cluster (the ``dask`` extra).

    pip install 'dehlanote[dask]'          # dask[distributed]; add [parquet] to convert

    from dask.distributed import Client
    from dehlanote.batch.distributed import validate_files, export_parquet_files

    client = Client("tcp://scheduler:8786")            # or Client(LocalCluster(...))
    for result in validate_files(["2025.dpn", "2026.dpn"], client):
        print(result.path, result.games, result.deals, len(result.errors))
    export_parquet_files(["2025.dpn", "2026.dpn"], "plays/", client)   # one part per piece

How it scales: ``validate_files`` cuts every file into byte ranges that shrink towards its
end (:func:`dehlanote.batch.ranges.guided_starts`: each round of one range a worker thread
shares out half of what is left, down to ranges of about 1 MiB, so that the workers, which
take the next range as they finish, end together; one small task per file plans them: a
search for lines that open with ``[`` after a blank line, and a count of line ends, not a
parse), then every range is read, split into games, parsed and replayed by its own task
(:func:`validate_range`), which sends back counts and its errors only. Workers read the files themselves (a path every
worker can open: a shared file system), so only cut offsets and results cross the network.
A range's task reads on past its end to the first later cut where a game starts (a cut
inside a game is read through, and the task of the range from it dropped), so the games and
their errors (positions, messages, order) are exactly those of ``dehlanote validate`` on the
whole file. Call :func:`prepare_workers` once on a cluster that stays up: the first task of
a worker otherwise pays for loading the package and building the parser.

``export_parquet_files`` cuts files with :func:`plan_pieces` (one pass of the splitter a
file, about 30 MB/s) into *pieces* of about ``piece_bytes`` at game boundaries, each
replayed by its own task (:func:`export_piece`); a piece starts at a game's first
character, and its games carry their positions in the whole file. Each task holds one game
at a time, plus one row group when writing Parquet.
"""

from __future__ import annotations

import io
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, NamedTuple, Optional, Sequence, Union

from ..errors import DpnError
from ..files import Folder, write_target
from ..rules.profile import Registry
from ..syntax.reader import Chunk, EncodingProblem, split_games
from .check import open_checked, printable
from .pool import check_chunks, error_state, rebuild_error
from .profiles import load_registry
from .ranges import Cut, check_range, plan_ranges, rebuilt

__all__ = ["Piece", "PieceResult", "FileResult", "plan_pieces", "read_piece", "validate_piece", "validate_range",
           "prepare_workers", "QUIET",
           "validate_files", "export_piece", "export_parquet_files", "game_shifts", "shift_games", "piece_size"]

PathLike = Union[str, "os.PathLike[str]"]

#: the largest piece: some 100,000 deals of the writer's layout, a minute of one core
PIECE_BYTES = 32 << 20
#: the smallest piece sized from the cluster (below it a task's overhead shows)
MIN_PIECE_BYTES = 1 << 20
#: pieces per worker thread when the size comes from the cluster: enough that a slow piece
#: does not leave the other workers idle at the end
PIECES_PER_THREAD = 4


def piece_size(paths: Sequence[PathLike], threads: int) -> int:
    """The piece size for ``paths`` on a cluster of ``threads`` worker threads: the files'
    bytes shared out as :data:`PIECES_PER_THREAD` pieces a thread, between
    :data:`MIN_PIECE_BYTES` and :data:`PIECE_BYTES` (a 34 MB file on 2 threads: 4.25 MB
    pieces, 8 tasks, where one 32 MiB size left it in two pieces of unequal work)."""
    total = 0
    for p in paths:
        try:
            total += os.path.getsize(p)
        except OSError:
            pass
    share = total // max(1, threads * PIECES_PER_THREAD)
    return max(MIN_PIECE_BYTES, min(PIECE_BYTES, share))


def _threads(client: Any) -> int:
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:      # a client that cannot say: as one thread
        return 1


class Piece(NamedTuple):
    """Bytes ``start:end`` of ``path``, beginning with a game that starts at ``line``:``column``."""

    path: str
    start: int
    end: int
    line: int
    column: int
    first_game: int      # chunks (games, but for a game broken in its tags) before this piece
    chunks: int          # chunks in this piece
    last: bool           # the piece ends the file


class PieceResult(NamedTuple):
    """What checking one piece found: its games, deals and errors (in file order)."""

    games: int
    deals: int
    errors: tuple[DpnError, ...]
    unreadable: Optional[str] = None

    def __reduce__(self):
        # DpnError does not round-trip through pickle by itself: send plain tuples
        return (_rebuild_piece, (self.games, self.deals, tuple(error_state(e) for e in self.errors),
                                 self.unreadable))


def _rebuild_piece(games: int, deals: int, errors: tuple, unreadable: Optional[str]) -> PieceResult:
    return PieceResult(games, deals, tuple(rebuild_error(*e) for e in errors), unreadable)


class FileResult(NamedTuple):
    """One file checked: counts, every error in file order, or why it could not be read."""

    path: str
    games: int
    deals: int
    errors: tuple[DpnError, ...]
    unreadable: Optional[str] = None

    @property
    def ok(self) -> bool:
        return not self.errors and self.unreadable is None


# ---- pieces --------------------------------------------------------------------------

def _byte_length(chunk: Chunk) -> int:
    # every byte that is not UTF-8 became one U+FFFD (three bytes) in the text
    return len(chunk.text.encode("utf-8", "surrogatepass")) - 2 * len(chunk.encoding_errors)


def plan_pieces(path: PathLike, piece_bytes: int = PIECE_BYTES) -> list[Piece]:
    """Cut a file into pieces of about ``piece_bytes`` at game boundaries (one pass).

    Raises:
        OSError: the file cannot be read.
    """
    path = os.fspath(path)
    pieces: list[Piece] = []
    with open_checked(path) as stream:      # binary data refused up front, in one line
        bom = 3 if stream.read(3) == b"\xef\xbb\xbf" else 0
        stream.seek(0)
        offset = bom
        start, line, column, first = 0, 1, 1, 0
        games = 0
        for chunk in split_games(stream):
            if games and offset - start >= piece_bytes:
                pieces.append(Piece(path, start, offset, line, column, first, games - first, False))
                start, line, column, first = offset, chunk.line, chunk.column, games
            offset += _byte_length(chunk)
            games += 1
        end = stream.seek(0, io.SEEK_END)
    pieces.append(Piece(path, start, end, line, column, first, games - first, True))
    return pieces


def read_piece(piece: Piece) -> Iterator[Chunk]:
    """The chunks of a piece, with their positions in the whole file (as ``split_games``
    of the whole file gives them)."""
    with open(piece.path, "rb") as stream:
        stream.seek(piece.start)
        data = stream.read(piece.end - piece.start)
    lo, co = piece.line - 1, piece.column - 1
    previous: Optional[Chunk] = None
    for chunk in split_games(io.BytesIO(data)):
        if lo or co or piece.start:
            problems = tuple(EncodingProblem(p.line + lo, p.column + (co if p.line == 1 else 0),
                                             p.offset + piece.start, p.byte) for p in chunk.encoding_errors)
            chunk = chunk._replace(line=chunk.line + lo, column=chunk.column + (co if chunk.line == 1 else 0),
                                   encoding_errors=problems)
        if previous is not None:
            yield previous
        previous = chunk
    if previous is not None:
        # the whole file's splitter ends a piece's last game where the next game's tags begin
        yield previous if piece.last else previous._replace(last=False)


@lru_cache(maxsize=8)
def _registry(files: tuple[str, ...]) -> Registry:
    return load_registry(files)


def validate_piece(piece: Piece, registry_files: Sequence[PathLike] = ()) -> PieceResult:
    """Parse and replay the games of one piece."""
    reg = _registry(tuple(os.fspath(f) for f in registry_files))
    try:
        reports = check_chunks(read_piece(piece), reg, name=piece.path, first_index=piece.first_game)
    except OSError as exc:
        return PieceResult(0, 0, (), exc.strerror or str(exc))
    errors = tuple(e for r in reports for e in r.errors)
    return PieceResult(len(reports), sum(r.deals for r in reports), errors)


def export_piece(piece: Piece, dest: PathLike, registry_files: Sequence[PathLike] = ()):
    """Replay the games of one piece into the Parquet file ``dest`` (see :mod:`dehlanote.batch.parquet`)."""
    import pyarrow.parquet as pq

    from .parquet import SCHEMA, ExportSummary, write_chunks
    reg = _registry(tuple(os.fspath(f) for f in registry_files))
    with write_target(dest, binary=True) as sink, pq.ParquetWriter(sink, SCHEMA, compression="zstd") as writer:
        counts = write_chunks(read_piece(piece), writer, reg, source=printable(piece.path),
                              first_game=piece.first_game)
    return ExportSummary(os.fspath(dest), *counts)


def _plan(path: str, piece_bytes: Optional[int], threads: int) -> Any:
    """The cuts of one file (:func:`dehlanote.batch.ranges.plan_ranges`): a search for line
    starts, not a pass of the splitter; or why the file cannot be read."""
    try:
        with open_checked(path) as stream:      # binary data refused up front, in one line
            size = os.fstat(stream.fileno()).st_size
        if piece_bytes is None:
            return plan_ranges(path, 0, workers=threads)
        return plan_ranges(path, max(1, -(-size // max(1, piece_bytes))))
    except OSError as exc:
        return exc.strerror or str(exc)


def validate_range(path: str, cuts: Sequence[Cut], index: int, registry_files: Sequence[PathLike] = ()) -> Any:
    """Check the games of a file from cut ``index`` on (:func:`dehlanote.batch.ranges.check_range`):
    a :class:`~dehlanote.batch.ranges.RangeResult` (counts and error states), or why the file
    could not be read."""
    reg = _registry(tuple(os.fspath(f) for f in registry_files))
    try:
        return check_range(path, cuts, index, reg, path)
    except OSError as exc:
        return exc.strerror or str(exc)


#: Dask settings for a cluster that runs these tasks (``dask.config.set(QUIET)`` around
#: making it): the workers' statistical profiler (a look at every thread's stack every 10 ms)
#: off, the system monitor every 2 s, the event loops' tick watch (a wake-up every 20 ms in
#: every process, only to warn of a blocked loop) every second, the memory monitor and the
#: scheduler's work stealing every 0.5 s (0.1 s): with Dask's defaults two idle workers and
#: their nannies burnt 0.26 CPU s a second, 0.062 with the first two, 0.017 with all (and a
#: busy worker its profiler's share)
QUIET = {"distributed.worker.profile.enabled": False, "distributed.admin.system-monitor.interval": "2s",
         "distributed.admin.tick.interval": "1s", "distributed.worker.memory.monitor-interval": "500ms",
         "distributed.scheduler.work-stealing-interval": "500ms"}


def _warm(files: tuple[str, ...]) -> None:
    from ..syntax.parser import warm_up
    _registry(files)
    warm_up()


def prepare_workers(client: Any, registry_files: Sequence[PathLike] = ()) -> None:
    """Make every worker of ``client`` import the package, load the profiles and build the
    parser now (a second or so each), rather than in its first task: on a cluster that stays
    up, call it once after starting it."""
    client.run(_warm, tuple(os.fspath(f) for f in registry_files))


def _client(client: Any) -> Any:
    if client is not None:
        return client
    from distributed import get_client
    return get_client()     # the client of the current context; raises ValueError if none


# ---- the cluster entry points ---------------------------------------------------------

def validate_files(paths: Sequence[PathLike], client: Any = None, *, registry_files: Sequence[PathLike] = (),
                   piece_bytes: Optional[int] = None) -> list[FileResult]:
    """Check files on a Dask cluster: one :class:`FileResult` per path, in order.

    Args:
        paths: DPN files every worker can read.
        client: a ``dask.distributed.Client`` (default: the current one).
        registry_files: YAML profile files (as ``--rules``), readable by every worker.
        piece_bytes: about the size of the byte ranges a file is cut into (one task
            each); default: ranges sized from the file and the worker threads, 16 MiB at
            most, shrinking to about 1 MiB at the end (:func:`dehlanote.batch.ranges.guided_starts`).

    Raises:
        DpnError: ``unknown-rules`` when a registry file is not a valid profile file.
        ValueError: no client given and none current.
    """
    client = _client(client)
    names: list[str] = [os.fspath(p) for p in paths]
    files = tuple(os.fspath(f) for f in registry_files)
    load_registry(files)    # a bad profile file fails here, once
    plans = client.gather(client.map(_plan, names, piece_bytes=piece_bytes, threads=_threads(client), pure=False))
    tasks = [(path, plan, k) for path, plan in zip(names, plans) if not isinstance(plan, str)
             for k in range(len(plan) - 1)]
    futures = client.map(validate_range, [t[0] for t in tasks], [t[1] for t in tasks], [t[2] for t in tasks],
                         registry_files=files, pure=False)
    results = iter(client.gather(futures))
    out: list[FileResult] = []
    for path, plan in zip(names, plans):
        if isinstance(plan, str):
            out.append(FileResult(path, 0, 0, (), plan))
            continue
        mine = [next(results) for _ in range(len(plan) - 1)]
        out.append(_file_result(path, mine))
    return out


def _file_result(path: str, results: list) -> FileResult:
    """One file's result from those of its ranges: from the first, each range's result then
    that of the range starting where it stopped (the ranges it read through are dropped)."""
    games = deals = 0
    errors: list[DpnError] = []
    at = 0
    while at < len(results):
        r = results[at]
        if isinstance(r, str):
            return FileResult(path, games, deals, tuple(errors), r)
        games += len(r.lines)
        deals += sum(r.deals)
        errors.extend(e for _, e in rebuilt(r.errors))
        at = r.stop
    return FileResult(path, games, deals, tuple(errors))


def export_parquet_files(paths: Sequence[PathLike], out_dir: PathLike, client: Any = None, *,
                         registry_files: Sequence[PathLike] = (), piece_bytes: Optional[int] = None) -> list:
    """Replay files on a Dask cluster into a Parquet dataset: one part file per piece.

    Parts are named ``NNNN-STEM-PPPPP.parquet`` (file number, file name, piece number) in
    ``out_dir``, so reading the directory in name order gives the plays in file order:
    ``pyarrow.dataset.dataset(out_dir)``, or ``duckdb.sql("select ... from 'out_dir/*.parquet'")``.
    Returns one :class:`dehlanote.batch.parquet.ExportSummary` per part.

    Raises:
        OSError: a file cannot be read (raised from the worker).
        DpnError: ``unknown-rules`` when a registry file is not a valid profile file.
    """
    client = _client(client)
    paths = [os.fspath(p) for p in paths]
    files = tuple(os.fspath(f) for f in registry_files)
    load_registry(files)
    out = Path(out_dir)
    Folder(out, create=True).close()
    if piece_bytes is None:
        piece_bytes = piece_size(paths, _threads(client))
    plans = client.gather(client.map(plan_pieces, paths, piece_bytes=piece_bytes, pure=False))
    jobs, dests = [], []
    for i, (path, plan) in enumerate(zip(paths, plans)):
        stem = Path(path).stem
        for k, piece in enumerate(plan):
            jobs.append(piece)
            dests.append(os.fspath(out / f"{i:04d}-{stem}-{k:05d}.parquet"))
    parts = client.gather(client.map(export_piece, jobs, dests, registry_files=files, pure=False))
    # a piece numbers its games from the chunks before it; where a chunk held more than one
    # game (a game broken in its tags, then the next one), the later parts are renumbered
    shifts = game_shifts(jobs, parts)
    redo = [i for i, shift in enumerate(shifts) if shift]
    if redo:
        fixed = client.gather(client.map(shift_games, [parts[i] for i in redo], [shifts[i] for i in redo],
                                         pure=False))
        for i, part in zip(redo, fixed):
            parts[i] = part
    return parts


def game_shifts(pieces: Sequence[Piece], parts: Sequence[Any]) -> list[int]:
    """For each piece, how far its game numbers are from the file's (games minus chunks of
    the pieces before it, in the same file)."""
    shifts: list[int] = []
    path, extra = None, 0
    for piece, part in zip(pieces, parts):
        if piece.path != path:
            path, extra = piece.path, 0
        shifts.append(extra)
        extra += part.games - piece.chunks
    return shifts


def shift_games(part: Any, shift: int) -> Any:
    """Add ``shift`` to the ``game`` column of a part file (rewritten in place)."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    table = pq.read_table(part.path)
    index = table.schema.get_field_index("game")
    table = table.set_column(index, table.schema.field(index), pc.add(table.column(index), shift))
    with write_target(part.path, binary=True) as sink:
        pq.write_table(table, sink, compression="zstd")
    return part
