"""``dehlanote db build``: an archive's facts into a DuckDB database, again only where files changed.

The database mirrors the files of the last build (:func:`build`):

* a file whose size and modification time are those of the last build is not opened; one
  whose bytes hash (SHA-256) as before is not read again either (its time is updated);
* a changed file's rows are deleted and its games read again; a file no longer named
  (removed from the folder a glob lists) has its rows deleted;
* a build killed at any point (``kill -9`` included) leaves the database as the previous
  build left it: the work is done on a private copy in a temporary folder beside it (a new
  file for a first build), renamed over the database when complete. One transaction would
  give the same guarantee, but DuckDB holds a transaction's rows in memory until it commits
  (1.1 GB for 118,751 deals); the private copy commits every :data:`COMMIT_EVERY` inserts
  (a batch, or several small ones together: :data:`SMALL_ROWS`).
  A build with nothing to read again (files unchanged, or saved with the same bytes)
  touches the database itself, in one small transaction.

Games are parsed and replayed on ``jobs`` processes (the validate pool's workers, see
:mod:`dehlanote.batch.pool`, spawned: :data:`START_METHOD`); each batch comes back as columns of
plain values and arrays of numbers (:class:`dehlanote.db.rows.Batch`), made Arrow tables here
(the arrays without a Python object a value) and inserted in file order.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from array import array
from collections import deque
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager, nullcontext
from typing import Any, Callable, Iterator, NamedTuple, Optional, Sequence

import duckdb
import pyarrow as pa

from ..version import __version__
from ..batch import pool
from ..batch.check import sniff
from ..errors import why
from ..files import digest as file_digest
from ..rules.profile import Registry
from ..syntax.reader import split_games
from ..workers import worker_pool
from . import ctrl_c_told, ratings, schema
from .rows import KINDS, Batch, Coded, batch_of_chunks, worker_batch

__all__ = ["BuildSummary", "FileProblem", "ForeignLog", "build", "check_log", "opened", "SchemaMismatch"]

PathLike = str


class FileProblem(Exception):
    """A named file cannot be read: the build stops and the database is left as it was."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.path, self.why = path, why


class SchemaMismatch(Exception):
    """The file is not a database of this schema (another program's, or another version's)."""


class ForeignLog(Exception):
    """Beside the database lies a log of changes that is not its owner's (:func:`dehlanote.files.foreign_log`):
    DuckDB would replay it into the database, so the database is not opened."""

    def __init__(self, log: str) -> None:
        super().__init__(log)
        self.log = log


def check_log(path: str) -> None:
    """Raise :class:`ForeignLog` when another user's log of changes lies beside the database ``path``."""
    from ..files import foreign_log
    log = foreign_log(path)
    if log is not None:
        raise ForeignLog(log)


class BuildSummary(NamedTuple):
    path: str
    files: int           # files in the database after the build
    read: int            # files read (new or changed)
    unchanged: int       # files not read again
    removed: int         # files whose rows were deleted
    games: int           # in the whole database
    deals: int
    errors: int


# ---- the workers ------------------------------------------------------------------------------

#: the Arrow type of each kind of column (rows.KINDS; ``c`` is a dictionary of these over int32
#: codes)
_TYPES = {"i": pa.int32(), "c": pa.string(), "s": pa.string(), "b": pa.bool_(), "l": pa.list_(pa.string())}


def _int32(codes: "array[int]") -> pa.Array:
    return pa.Array.from_buffers(pa.int32(), len(codes), [None, pa.py_buffer(codes)])


def _arrow(values: Any, kind: str) -> pa.Array:
    """One column of a batch (rows.packed) as Arrow: an array's bytes as they are, a coded
    column as a dictionary array, a list converted."""
    if isinstance(values, array):
        return _int32(values)
    if isinstance(values, Coded):
        return pa.DictionaryArray.from_arrays(_int32(values.codes), pa.array(values.values, _TYPES[kind]))
    if kind == "i":         # (a column with a null)
        column = pa.array(values)
        return column if column.type == pa.int32() else column.cast(pa.int32())
    if kind == "l" and values.count(None) == len(values):
        return pa.nulls(len(values), _TYPES[kind])
    return pa.array(values, _TYPES[kind])


def _table(name: str, columns: dict[str, Any]) -> pa.Table:
    """A batch's table ``name``; the plays get each card's suit and rank (a dictionary array
    sharing the card's codes)."""
    arrays = {c: _arrow(v, k) for (c, v), k in zip(columns.items(), KINDS[name])}
    if name == "plays":
        card = arrays["card"]
        cards = columns["card"].values
        # (DuckDB's right(card, 1) and card[1:-2]: cards are ASCII, one character a suit)
        arrays["suit"] = pa.DictionaryArray.from_arrays(card.indices, pa.array(
            [c[-1:] if c is not None else None for c in cards], pa.string()))
        arrays["rank"] = pa.DictionaryArray.from_arrays(card.indices, pa.array(
            [c[:-1] if c is not None else None for c in cards], pa.string()))
    return pa.table(arrays)


#: how the workers start: spawned, a new interpreter that imports the reader and the replayer
#: and neither DuckDB nor Arrow (measured: 40 MB each, against 88 MB forked from the builder)
START_METHOD = "spawn"


def _file_batches(path: str, reg: Registry, jobs: int, executor: Optional[ProcessPoolExecutor]) -> Iterator[Batch]:
    with open(path, "rb") as stream:
        chunks = split_games(stream)
        if executor is None:
            for batch in pool.batches(chunks, pool.BATCH_CHARS):
                yield batch_of_chunks(batch, reg)
            return
        window = 2 * jobs + 2
        pending: deque[Future] = deque()
        for batch in pool.batches(chunks, pool.BATCH_CHARS):
            pending.append(executor.submit(worker_batch, batch))
            while len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


# ---- the database ------------------------------------------------------------------------------

def _run(con: duckdb.DuckDBPyConnection, sql: str, params: Any = None) -> list[Any]:
    """Run one statement to its end (a result left unread blocks the connection)."""
    return con.execute(sql, params).fetchall() if params is not None else con.execute(sql).fetchall()


def _params(sql: str, values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if f"${k}" in sql}


def _insert(con: duckdb.DuckDBPyConnection, tables: dict[str, pa.Table], file_id: int, first_game: int,
            first_number: int) -> None:
    values = {"game": first_game, "file": file_id, "number": first_number}
    for name in list(tables):
        staged = tables.pop(name)
        # ``FROM staged`` reads the variable of that name (DuckDB's replacement scan). Not
        # con.register: a view registered and dropped inside a transaction keeps its Arrow table
        # alive until the commit (every batch's tables since the last one, measured in the ratings:
        # 335 -> 760 MB over a million deals' results, flat without)
        sql = schema.STAGED[name]
        con.execute(f"INSERT INTO {name} {sql}", _params(sql, values)).fetchall()
        del staged


def _insert_together(con: duckdb.DuckDBPyConnection,
                     pending: list[tuple[dict[str, pa.Table], int, int, int]]) -> None:
    """Several batches' tables, each table in one statement: each batch's file, first game and
    first number (the parameters of :func:`_insert`) as columns of its rows."""
    names = [name for name in schema.STAGED if any(name in tables for tables, *_ in pending)]
    for name in names:
        parts = []
        for tables, file_id, first_game, first_number in pending:
            part = tables.pop(name, None)
            if part is None:
                continue
            n = part.num_rows
            for column, value in (("_file", file_id), ("_game", first_game), ("_number", first_number)):
                part = part.append_column(column, pa.repeat(pa.scalar(value, pa.int64()), n))
            parts.append(part)
        staged = pa.concat_tables(parts)      # (read by its name, as in _insert)
        del parts
        sql = schema.STAGED[name].replace("$game", "_game").replace("$file", "_file").replace("$number", "_number")
        con.execute(f"INSERT INTO {name} {sql}").fetchall()
        del staged


#: a batch of fewer rows than this (a small file's: a game or a few) waits to be inserted with
#: the next: DuckDB spends about a millisecond on a statement, nine a batch, so an archive of a
#: file a night took 27 s for 1,500 files of one game each, against 1 s for the same games in
#: one file (a full batch, some 1,000 deals, has some 65,000 rows and is inserted alone)
SMALL_ROWS = 20_000


class _Stager:
    """The batches read, inserted alone when large and together when small (:data:`SMALL_ROWS`),
    with a commit every :data:`COMMIT_EVERY` inserts."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.pending: list[tuple[dict[str, pa.Table], int, int, int]] = []
        self.rows = 0
        self.inserts = 0

    def add(self, tables: dict[str, pa.Table], file_id: int, first_game: int, first_number: int) -> None:
        self.pending.append((tables, file_id, first_game, first_number))
        self.rows += sum(t.num_rows for t in tables.values())
        if self.rows >= SMALL_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        pending, self.pending, self.rows = self.pending, [], 0
        if len(pending) == 1:
            _insert(self.con, *pending[0])
        else:
            _insert_together(self.con, pending)
        del pending
        self.inserts += 1
        if self.inserts % COMMIT_EVERY == 0:
            _run(self.con, "COMMIT")
            _run(self.con, "BEGIN")


def _delete_file(con: duckdb.DuckDBPyConnection, file_id: int, first: Optional[int], last: Optional[int]) -> None:
    if first is not None and last is not None and last >= first:
        for table in schema.GAME_TABLES:
            _run(con, f"DELETE FROM {table} WHERE game_id BETWEEN ? AND ?", [first, last])
    _run(con, "DELETE FROM errors WHERE file_id = ?", [file_id])


def _statements(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    for statement in sql.split(";\n"):
        if statement.strip():
            _run(con, statement)


def _create(con: duckdb.DuckDBPyConnection) -> None:
    _run(con, "BEGIN")
    _statements(con, schema.TABLES + schema.VIEWS)
    _run(con, "INSERT INTO meta VALUES ('schema_version', ?), ('dehlanote', ?), ('rating', ?)",
                [str(schema.VERSION), __version__, ratings.METHOD])
    _run(con, "COMMIT")


def replayer(reg: Registry) -> str:
    """What the rows were read under: this dehlanote and every rule profile and option known to the
    build (the package's and ``--rules``'), as a SHA-256. A database built under another is read
    again whole: the same file replays otherwise under another profile (a ``Rules`` tag unknown
    before, a streak changed)."""
    known = (__version__, sorted(reg.profiles.items()), sorted(reg.options.items()))
    return hashlib.sha256(repr(known).encode("utf-8")).hexdigest()


def _replayer_of(con: duckdb.DuckDBPyConnection) -> Optional[str]:
    rows = con.execute("SELECT value FROM meta WHERE key = 'replayer'").fetchall()
    return rows[0][0] if rows else None


def schema_version(con: duckdb.DuckDBPyConnection) -> Optional[int]:
    try:
        rows = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
    except duckdb.CatalogException:     # no meta table: not a database of db build
        return None                     # (anything else, out of memory, is not a verdict on the file)
    return int(rows[0][0]) if rows else None


@contextmanager
def opened(path: str, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
    """The database at ``path``, with its spill files (DuckDB writes them when a query outgrows
    its memory) in a private folder made for them (0700, a new name) and removed after: not in
    ``PATH.tmp`` beside the database, where another user who can write that folder could have
    put a link to a folder of theirs and read what spilled there (a ``db query`` on a database in
    a shared folder wrote its spill files into the linked folder). Raises duckdb.Error."""
    from ..files import private_folder
    with private_folder("dehlanote-duckdb-") as spill:
        con = duckdb.connect(path, read_only=read_only, config={"temp_directory": spill})
        try:
            yield con
        finally:
            con.close()


def _configure(con: duckdb.DuckDBPyConnection, jobs: int, memory: str) -> None:
    _run(con, f"SET threads = {max(1, int(jobs))}")
    _run(con, "SET memory_limit = ?", [memory])
    _run(con, "SET preserve_insertion_order = false")
    _run(con, "SET enable_progress_bar = false")


#: DuckDB's memory limit while the workers read (the builder's own Python and the batches in
#: flight come on top). DuckDB keeps the table blocks it wrote cached up to about two thirds of
#: it: on a million deals 166 MB with 256MB (the builder at 370-385 MB, the whole tree up to
#: 510 MB), 101-110 MB with 192MB (the builder at 300-316 MB, the tree at most 448 MB). What ran
#: out of memory at the lower limits (160MB, 200MB, and once 256MB) was not the reading but what
#: comes after it under the same limit: the reading's last commit and the ratings' sort, hence
#: the limit is raised to :data:`RATINGS_MEMORY` before that commit, once the workers are gone.
MEMORY = "192MB"

#: DuckDB's limit for the reading's last commit and the ratings (after the workers are gone,
#: about 80 MB freed); the ratings' events are sorted in time order by narrow keys (see
#: ratings._EVENTS). A build given ``memory`` uses it for both.
RATINGS_MEMORY = "256MB"


class Plan(NamedTuple):
    """What a build has to do, found before anything is written."""

    removed: list[tuple[str, int, Optional[int], Optional[int]]]      # path, file_id, first and last game
    read: list[tuple[str, Optional[tuple[Any, ...]], str, int, Optional[int]]]  # path, old row, sha256, size, mtime
    touched: list[tuple[int, int, Optional[int]]]                     # file_id, size, mtime_ns: same bytes
    unchanged: list[str]


def stored_path(path: str) -> str:
    """A file's path as ``files.path`` holds it: as given (:func:`ratings.file_key`), but the bytes
    of a name that are not UTF-8 (``caf\xe9.dpn`` from an old archive, kept by Python as lone
    surrogates, which DuckDB refuses: the whole build failed, called "not-a-database") written as
    ``\xe9``, one text for one name."""
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        pass
    try:
        raw = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return path.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


#: a file modified less than this before it was read may be modified again within the same tick
#: of its file system's clock (2 s on FAT, a second on some others; a few milliseconds on ext4),
#: its size unchanged (two cards swapped), and keep the time that was recorded
RACY_NS = 2_000_000_000


def _settled(st: os.stat_result, seen: int) -> Optional[int]:
    """The modification time recorded for a file read at ``seen`` (ns): None (its bytes hashed
    again at the next build) when it was modified less than :data:`RACY_NS` before, as git does
    with its "racy" files: a second edit of the same size in that tick kept the recorded time, so
    the next build called the file unchanged and kept the old games for good."""
    return st.st_mtime_ns if st.st_mtime_ns <= seen - RACY_NS else None


def _plan(con: Optional[duckdb.DuckDBPyConnection], paths: list[str], again: bool = False) -> Plan:
    """``again``: every file is read again (the database was built under other rules)."""
    known: dict[str, tuple[Any, ...]] = {}
    if con is not None:
        known = {row[0]: row[1:] for row in con.execute(
            "SELECT path, file_id, sha256, size, mtime_ns, first_game, last_game FROM files").fetchall()}
    named = {stored_path(path) for path in paths}
    removed = [(path, row[0], row[4], row[5]) for path, row in known.items() if path not in named]
    read, touched, unchanged = [], [], []
    for path in paths:
        try:
            st = os.stat(path)
            old = known.get(stored_path(path))
            if not again and old is not None and (old[2], old[3]) == (st.st_size, st.st_mtime_ns):
                unchanged.append(path)
                continue
            seen = time.time_ns()
            digest = file_digest(path)
        except OSError as exc:
            raise FileProblem(path, (exc.strerror or str(exc)).lower()) from None
        if not again and old is not None and old[1] == digest:
            touched.append((old[0], st.st_size, _settled(st, seen)))
            unchanged.append(path)
        else:
            read.append((path, old, digest, st.st_size, _settled(st, seen)))
    return Plan(removed, read, touched, unchanged)


def build(specs: Sequence[str], dest: str, reg: Registry, *, jobs: int = 1, registry_files: Sequence[str] = (),
          memory: Optional[str] = None, on_file: Optional[Callable[[str, str], None]] = None,
          force: bool = False) -> BuildSummary:
    """Bring the database ``dest`` up to date with the files ``specs`` (see the module's text).

    ``on_file(path, what)`` is told of each file: ``read``, ``unchanged``, ``removed``. With
    ``jobs`` over 1 the workers are spawned (:data:`START_METHOD`): a script that calls this
    runs its own code under ``if __name__ == "__main__":``, as Python's spawn requires.

    ``dest`` may be a symlink: the database it points at is built (the link stays). A
    read-only database is replaced only with ``force``.

    Raises:
        FileProblem: a file cannot be read (the database is left as it was).
        OutputRefused: ``dest`` is not a regular file (a directory, a FIFO, a device), or it
            is read-only and not ``force`` (:func:`dehlanote.files.database_target`).
        WriteError: the database's folder cannot be written (the database is left as it was).
        SchemaMismatch: ``dest`` is not a database this command made.
        dehlanote.lockfile.Busy: another build of the same database is under way (its
            ``holder``: ``PID dehlanote db build NAME``).
        duckdb.Error: the database cannot be opened or written.
        KeyboardInterrupt: Ctrl-C, even where DuckDB reported it as an error of its own
            (:func:`dehlanote.db.ctrl_c_told`); the database is left as it was.
    """
    with ctrl_c_told():
        return _build(specs, dest, reg, jobs=jobs, registry_files=registry_files, memory=memory, on_file=on_file,
                      force=force)


def _build(specs: Sequence[str], dest: str, reg: Registry, *, jobs: int, registry_files: Sequence[str],
           memory: Optional[str], on_file: Optional[Callable[[str, str], None]], force: bool) -> BuildSummary:
    rating_memory = memory or RATINGS_MEMORY
    memory = memory or MEMORY
    paths = list(dict.fromkeys(ratings.file_key(p) for p in specs))
    for path in paths:
        try:
            _regular(path)
            sniff(path)
        except OSError as exc:      # (NotText too: its sentence, without "[Errno 0]")
            raise FileProblem(path, why(exc)) from None
    from ..files import database_target
    from ..lockfile import FileLock
    shown, dest = dest, database_target(dest, force=force)     # (a link's database, a regular file)
    # one build of a database at a time: two at once both said "built" and the later rename won,
    # the other's work lost; the lock (".NAME.lock" beside it) is taken before the database is
    # read, and goes with its process (a build killed leaves no lock that holds)
    with FileLock(dest, f"dehlanote db build {shown}", 0o644):      # (others may take it once it is left)
        return _build_held(paths, shown, dest, reg, jobs=jobs, registry_files=registry_files, limits=(memory,
                           rating_memory), on_file=on_file)


def _build_held(paths: list[str], shown: str, dest: str, reg: Registry, *, jobs: int, registry_files: Sequence[str],
                limits: tuple[str, str], on_file: Optional[Callable[[str, str], None]]) -> BuildSummary:
    from ..files import build_beside, copy_file
    memory, rating_memory = limits
    check_log(dest)
    exists = os.path.exists(dest)
    if exists:
        with opened(dest) as con:
            _configure(con, jobs, memory)
            older = _check_schema(con)
            plan = _plan(con, paths, again=_replayer_of(con) != replayer(reg))
            if not plan.removed and not plan.read and not older:
                # nothing to read again: only the times of files saved with the same bytes, in one
                # small transaction on the database itself
                _run(con, "BEGIN")
                for file_id, size, mtime in plan.touched:
                    _run(con, "UPDATE files SET size = ?, mtime_ns = ? WHERE file_id = ?", [size, mtime, file_id])
                _statements(con, schema.VIEWS)      # (the views of this dehlanote: they hold no rows)
                _run(con, "COMMIT")
                for path in plan.unchanged:
                    if on_file:
                        on_file(path, "unchanged")
                return _summary(con, shown, (0, len(plan.unchanged), 0))
    else:
        plan = _plan(None, paths)
    # the work is done on a private copy (or a new file) beside the database, renamed over it when
    # complete: killed at any point, the database is the previous build's
    mode = stat.S_IMODE(os.stat(dest).st_mode) if exists else None
    with build_beside(dest, mode) as tmp:     # a private folder beside dest, renamed over it when whole
        if exists:
            copy_file(dest, tmp)
        summary = _update(plan, tmp, reg, jobs, tuple(registry_files), (memory, rating_memory), on_file,
                          fresh=not exists)
    return summary._replace(path=shown)


def _regular(path: str) -> None:
    """Refuse a FIFO, a device or a socket (``<(...)`` in a shell is a pipe), without opening it:
    a build reads each file twice (its SHA-256, then its games) and again at the next build, so a
    pipe was hashed whole and then gave no game, a database of 0 games said to be built (and a
    FIFO with no writer would be waited on for good). A directory is said by the reading."""
    from ..files import kind_of
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        raise FileProblem(path, f"it is {kind_of(st)}, not a file: a database knows each file by its name and "
                                f"reads it again at the next build (save it to a file first)")


def _check_schema(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the database is of an older version this build brings up to date (:func:`_upgrade`).

    Raises:
        SchemaMismatch: not a database of db build, or of a version that cannot be upgraded.
    """
    version = schema_version(con)
    if version is None:
        raise SchemaMismatch("it is not a database made by dehlanote db build")
    if version in schema.UPGRADES:
        return True
    if version != schema.VERSION:
        raise SchemaMismatch(f"it holds schema version {version}, this dehlanote writes version "
                             f"{schema.VERSION}: build a new database (another -o) from the archive")
    return False


def _upgrade(con: duckdb.DuckDBPyConnection) -> None:
    """Bring a database of an older version to this one, a step at a time (:data:`schema.UPGRADES`;
    on the private copy a build works on, so it is all or nothing)."""
    version = schema_version(con)
    while version in schema.UPGRADES:
        _run(con, schema.UPGRADES[version])
        version = version + 1
        _run(con, "UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(version)])


def _summary(con: duckdb.DuckDBPyConnection, dest: str, counts: tuple[int, int, int]) -> BuildSummary:
    files, games, deals, errors = con.execute(
        "SELECT count(*), coalesce(sum(games), 0), coalesce(sum(deals), 0), coalesce(sum(errors), 0) "
        "FROM files").fetchall()[0]
    return BuildSummary(dest, files, *counts, games, deals, errors)


#: batches inserted between two commits of the private copy (DuckDB holds a transaction's
#: rows in memory until it commits: measured, one transaction for 118,751 deals grew to
#: 1.1 GB, a commit every 20 batches stayed under 300 MB; every 16 batches the builder swung
#: by 100 MB between commits, so now every 4)
COMMIT_EVERY = 4


def _update(plan: Plan, dest: str, reg: Registry, jobs: int, registry_files: tuple[str, ...], limits: tuple[str, str],
            on_file: Optional[Callable[[str, str], None]], *, fresh: bool) -> BuildSummary:
    memory, rating_memory = limits
    with opened(dest) as con:
        _configure(con, jobs, memory)
        if fresh:
            _create(con)
        else:
            if _check_schema(con):
                _upgrade(con)
            _statements(con, schema.VIEWS)      # (the views of this dehlanote: they hold no rows)
        # (stopped by Ctrl-C or an error, its workers are terminated at once: dehlanote.workers)
        workers = worker_pool(jobs, multiprocessing.get_context(START_METHOD), pool._init_worker,
                              (registry_files, os.getpid())) if jobs > 1 and plan.read else nullcontext()
        with workers as executor:
            _run(con, "BEGIN")
            counts = _sync(con, plan, reg, jobs, registry_files, executor, on_file)
            _run(con, "INSERT OR REPLACE INTO meta VALUES ('replayer', ?), ('dehlanote', ?)",
                 [replayer(reg), __version__])
        _run(con, "SET memory_limit = ?", [rating_memory])
        _run(con, "COMMIT")
        _run(con, "BEGIN")
        ratings.rebuild(con)        # (the workers gone: their memory is free again)
        _run(con, "COMMIT")
        _run(con, "CHECKPOINT")
        return _summary(con, dest, counts)


def _sync(con: duckdb.DuckDBPyConnection, plan: Plan, reg: Registry, jobs: int,
          registry_files: tuple[str, ...], executor: Optional[ProcessPoolExecutor],
          on_file: Optional[Callable[[str, str], None]]) -> tuple[int, int, int]:
    for path, file_id, first, last in plan.removed:
        _delete_file(con, file_id, first, last)
        _run(con, "DELETE FROM files WHERE file_id = ?", [file_id])
        if on_file:
            on_file(path, "removed")
    for file_id, size, mtime in plan.touched:
        _run(con, "UPDATE files SET size = ?, mtime_ns = ? WHERE file_id = ?", [size, mtime, file_id])
    for path in plan.unchanged:
        if on_file:
            on_file(path, "unchanged")
    next_game = con.execute("SELECT coalesce(max(last_game), -1) + 1 FROM files").fetchall()[0][0]
    next_file = con.execute("SELECT coalesce(max(file_id), 0) + 1 FROM files").fetchall()[0][0]
    stager = _Stager(con)
    for path, old, digest, size, mtime in plan.read:
        if old is not None:
            file_id = old[0]
            _delete_file(con, file_id, old[4], old[5])
            _run(con, "DELETE FROM files WHERE file_id = ?", [file_id])
        else:
            file_id = next_file
            next_file += 1
        first = next_game
        games = deals = errors = 0
        try:
            for batch in _file_batches(path, reg, jobs, executor):
                tables = {name: _table(name, columns) for name, columns in batch.tables.items()}
                batch.tables.clear()        # (its values are in Arrow now)
                stager.add(tables, file_id, next_game, games + 1)
                next_game += batch.games
                games += batch.games
                deals += batch.deals
                errors += batch.errors
        except OSError as exc:
            raise FileProblem(path, (exc.strerror or str(exc)).lower()) from None
        _run(con, "INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
             [file_id, stored_path(path), digest, size, mtime, first, next_game - 1, games, deals,
              errors])
        if on_file:
            on_file(path, "read")
    stager.flush()
    return len(plan.read), len(plan.unchanged), len(plan.removed)
