"""``dehlanote db``: the archive as a DuckDB database (``db build``) and questions in SQL (``db query``).

A group of commands (cli.py adds it with ``app.add_typer``). DuckDB and pyarrow come with
the ``db`` extra; without them each command says how to install them (``missing-duckdb``,
exit 2). Errors are one line, ``dehlanote: CODE: sentence``, exit 2: ``missing-duckdb``,
``no-database``, ``not-a-database``, ``out-of-memory`` (DuckDB's limit while building, ``--memory``),
``sql-error``, ``unreadable``, ``no-folder``, ``bad-memory`` (a ``--memory`` that is no size), ``read-only``
(a read-only database, without ``--force``), ``locked`` (in use by another program), ``disk-full``,
``cannot-write`` (the database's folder), ``no-permission``, ``foreign-log`` (another user's log of changes
beside the database).
"""

from __future__ import annotations

import contextlib
import csv
import datetime
import decimal
import enum
import errno
import io
import itertools
import json
import math
import os
import re
import stat
import textwrap
import uuid
from pathlib import Path
from typing import Any, Iterator, Optional

import typer

from .common import (RULES_OPTION, Exit, display_name, emit, err_console, expand, fail, load_registry, once_each,
                     out_console, output_path, database_path, refuse_input_output)
from ..errors import missing_folder, why
from ..files import OutputRefused, ReadOnly, kind_of
from ..lockfile import Busy
from ..db import ctrl_c_told
from .plainhelp import PlainCommand, PlainGroup

db_app = typer.Typer(
    cls=PlainGroup,
    name="db",
    help="The archive as a DuckDB database: build it, then ask it questions in SQL.\n\n"
         "Example: dehlanote db build samples/*.dpn -o club.duckdb",
    no_args_is_help=True,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)

INSTALL = "pip install 'dehlanote[db]'"


class QueryFormat(str, enum.Enum):
    table = "table"
    csv = "csv"
    json = "json"


def _duckdb() -> Any:
    try:
        import duckdb
        import pyarrow  # noqa: F401
    except ImportError:
        raise fail(f"missing-duckdb: the db commands need DuckDB and pyarrow: {INSTALL}") from None
    return duckdb


def _out_of_memory(duckdb: Any, exc: BaseException) -> bool:
    """DuckDB ran out of its memory limit (it says so as an out-of-memory error, or as a
    commit that could not allocate a block)."""
    text = str(exc)
    return isinstance(exc, duckdb.OutOfMemoryException) or "Out of Memory" in text or "could not allocate" in text


#: a --memory size as DuckDB reads it: a number and its unit (1000 or 1024 based)
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*", re.IGNORECASE)
_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12, "kib": 1 << 10, "mib": 1 << 20,
          "gib": 1 << 30, "tib": 1 << 40}
#: the largest --memory taken (DuckDB refuses sizes past 2^64 bytes, as a parser error)
MAX_MEMORY_TB = 9_000_000


def memory_size(text: str) -> str:
    """A ``--memory`` value: a number and its unit, as DuckDB reads them (an empty one, a
    negative one, one without its unit or one too large for DuckDB is refused in words before
    the database is opened)."""
    m = _SIZE.fullmatch(text)
    if m is None:
        raise fail(f"bad-memory: --memory {text!r}: give a size with its unit, e.g. 300MB or 2GiB")
    if float(m.group(1)) * _UNITS[m.group(2).lower()] > MAX_MEMORY_TB * 10**12:
        raise fail(f"bad-memory: --memory {text!r}: too large a size (at most {MAX_MEMORY_TB}TB), e.g. 300MB or 2GiB")
    return text.strip()


def _trouble(duckdb: Any, exc: BaseException, path: str) -> Optional[str]:
    """What a DuckDB error that is not about the database's content says, as ``code: sentence``
    (None: the file is not a database DuckDB can read)."""
    text = str(exc)
    if "Could not set lock" in text or "Conflicting lock" in text:
        pid = re.search(r"\(PID (\d+)\)", text)
        by = f" (process {pid.group(1)})" if pid else ""
        return (f"locked: {path}: the database is in use by another program{by}: try again once it has "
                f"finished or closed it")
    if "No space left on device" in text or "Disk full" in text:
        return f"disk-full: {path}: the disk is full (no space left on device): free some space and try again"
    if "Permission denied" in text:
        return f"no-permission: {path}: permission denied"
    return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


@db_app.command("build", cls=PlainCommand)
def build_command(
    files: list[str] = typer.Argument(..., metavar="FILE", help="DPN files or glob patterns."),
    output: Path = typer.Option(..., "--output", "-o", parser=output_path, metavar="DB",
                                help="The database file (made or brought up to date)."),
    jobs: int = typer.Option(0, "--jobs", "-j", min=0,
                             help="Processes reading the games (0: one per core; never more than the cores)."),
    memory: Optional[str] = typer.Option(None, "--memory", metavar="SIZE", parser=memory_size,
                                         help="DuckDB's memory limit while building, e.g. 300MB (default: 192MB while "
                                              "the files are read, 256MB for the ratings)."),
    rules: Optional[Path] = RULES_OPTION,
    force: bool = typer.Option(False, "--force", help="Replace a read-only database too."),
) -> None:
    """Every game, deal, trick, card, capture, ten and error of FILE... in a DuckDB database.

    Again on the same database, only what changed is done: a file unchanged since the last
    build is not read again, a changed file's rows are replaced, a file no longer named has
    its rows removed. The build is one transaction: stopped at any point, the database stays
    as the previous build left it, and a second build of it meanwhile is refused (locked).
    DB may be a symbolic link: the database it points at is
    built and the link kept. A read-only database is refused without --force; a FIFO, a
    device or a folder is never a database. The schema is in docs/db.md.

    Exit status: 0 built (games with errors are in the errors table), 2 usage, an unreadable
    file or database.

    Example: dehlanote db build samples/*.dpn -o club.duckdb
    """
    duckdb = _duckdb()
    from ..db.build import FileProblem, ForeignLog, SchemaMismatch, build

    reg = load_registry(rules)
    specs = once_each(expand(files))
    if "-" in specs:
        raise fail("usage: db build reads files (a database remembers them by name): not standard input")
    cores = os.cpu_count() or 1
    # more workers than cores only cost memory (each some 40 MB; -j 24 on two cores: 505 MB for a
    # 2 MB file, against 279 MB with -j 2), as validate --jobs has it
    workers = min(jobs or cores, cores)
    target = os.fspath(output)
    if target == "-":       # (to every other command, - is standard output)
        raise fail("usage: db build writes a database file, not standard output: give its name after -o")
    specs = _without_the_database(specs, target)
    if not specs:       # (built from nothing, the database would lose every file's rows)
        raise fail(f"usage: the only file named is the database {display_name(target)} itself: name the "
                   f"records (e.g. club/*.dpn)")
    refuse_input_output(target, [*specs, rules])
    if os.path.isdir(target):
        raise fail(f"not-a-database: {target}: it is a directory")
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise fail(f"no-folder: cannot write {display_name(target)}: the folder {display_name(folder)} "
                   f"{missing_folder(folder)}")
    try:
        os.stat(target)
    except FileNotFoundError:
        pass        # (made by the build)
    except OSError as exc:      # a loop of links: no database, and nothing to do with its folder
        raise fail(f"not-a-database: {target}: {why(exc)}") from None
    unchanged = "the database is unchanged"
    try:
        summary = build(specs, target, reg, jobs=workers, registry_files=[os.fspath(rules)] if rules else [],
                        memory=memory, force=force)
    except FileProblem as exc:
        raise fail(f"unreadable: cannot read {display_name(exc.path)}: {exc.why} ({unchanged})")
    except ReadOnly:
        raise fail(f"read-only: {target}: the database is read-only: it is left as it is (--force replaces it "
                   f"all the same)") from None
    except OutputRefused as exc:
        raise fail(f"not-a-database: {target}: {exc}") from None
    except SchemaMismatch as exc:
        raise fail(f"not-a-database: {target}: {exc}")
    except ForeignLog as exc:
        raise fail(_foreign(exc) + f" ({unchanged})") from None
    except Busy as exc:
        pid = exc.holder.split(" ", 1)[0]
        by = f" (process {pid})" if pid.isdigit() else ""
        raise fail(f"locked: {target}: another dehlanote db build is building this database{by}: try again "
                   f"once it has finished (this build changed nothing)") from None
    except duckdb.Error as exc:
        if _out_of_memory(duckdb, exc):
            limit = f"--memory {memory}" if memory else "its default limits (192MB reading, 256MB rating)"
            raise fail(f"out-of-memory: {target}: DuckDB needed more than {limit}: build again with a "
                       f"larger --memory ({unchanged})")
        said = _trouble(duckdb, exc, target)
        if said is not None:
            raise fail(f"{said} ({unchanged})")
        raise fail(f"not-a-database: {target}: {_first_line(exc)}")
    except OSError as exc:      # the database's folder: the private copy, the rename (files.WriteError)
        if isinstance(exc, BrokenPipeError):
            raise
        if exc.errno == errno.ENOSPC:
            raise fail(f"disk-full: {target}: the disk is full (no space left on device): free some space and "
                       f"try again ({unchanged})") from None
        raise fail(f"cannot-write: {target}: cannot write beside it: {why(exc)} ({unchanged})") from None
    err_console().print(
        f"{target}: {summary.files} files ({summary.read} read, {summary.unchanged} unchanged, "
        f"{summary.removed} removed), {summary.games} games, {summary.deals} deals, {summary.errors} errors",
        markup=False, highlight=False)
    raise typer.Exit(Exit.OK)


def _without_the_database(specs: list[str], target: str) -> list[str]:
    """The files named but the database itself, with a note: a database kept among its records
    (``db build 'club/*' -o club/club.duckdb``) was refused at the second build as an output that
    is an input, "writing it would lose the record"."""
    try:
        database = os.stat(target)
        if not stat.S_ISREG(database.st_mode):      # (a FIFO is not opened: it would be waited on)
            return specs
        with open(target, "rb") as head:        # (a record named as the output is refused as such)
            if head.read(12)[8:] != b"DUCK":    # (DuckDB's mark, after its checksum)
                return specs
    except OSError:
        return specs
    out = []
    for spec in specs:
        try:
            same = spec != "-" and os.path.samestat(os.stat(spec), database)
        except OSError:
            same = False
        if same:
            err_console().print(f"dehlanote: note: {display_name(spec)} is the database itself: not read as a "
                                f"record", markup=False, highlight=False)
        else:
            out.append(spec)
    return out


def _foreign(exc: Any) -> str:
    log = display_name(os.path.basename(exc.log))
    return (f"foreign-log: {log}, beside the database, belongs to another user (or is a link): DuckDB would "
            f"read its changes into the database; remove it if you did not make it")


def _duration(value: datetime.timedelta) -> str:
    """An interval as an ISO 8601 duration in days and time: ``P686D``, ``PT1H30M``, ``P33DT5S``,
    ``-PT1H30M``, ``PT0.5S``, ``PT0S`` (DuckDB hands Python a month as 30 days)."""
    micros = (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
    sign, micros = ("-", -micros) if micros < 0 else ("", micros)
    days, micros = divmod(micros, 86_400_000_000)
    hours, micros = divmod(micros, 3_600_000_000)
    minutes, micros = divmod(micros, 60_000_000)
    seconds, micros = divmod(micros, 1_000_000)
    time = "".join(f"{n}{unit}" for n, unit in ((hours, "H"), (minutes, "M")) if n)
    if seconds or micros:
        time += f"{seconds}.{micros:06d}".rstrip("0") + "S" if micros else f"{seconds}S"
    text = (f"{days}D" if days else "") + (f"T{time}" if time else "")
    return f"{sign}P{text or 'T0S'}"


#: floats JSON has no number for (the names the JSON mapping of Protocol Buffers gives them)
_NOT_FINITE = {math.inf: "Infinity", -math.inf: "-Infinity"}


def _cell(value: Any) -> Any:
    """A value as JSON holds it (docs/db.md: every DuckDB type has its JSON form)."""
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return _duration(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (list, tuple)):
        return [_cell(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _cell(v) for k, v in value.items()}
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    if isinstance(value, float) and not math.isfinite(value):
        return _NOT_FINITE.get(value, "NaN")
    return value


def unique_names(names: list[str]) -> list[str]:
    """Column names made distinct as DuckDB makes them in a table of such a query: a name met
    again gets ``_1`` (``_2``, ... while taken), so ``line, line, line_1`` are ``line, line_1,
    line_1_1`` (the keys of a JSON object are distinct: one of two ``line`` columns was lost)."""
    taken: set[str] = set()
    out = []
    for name in names:
        if name in taken:
            k = 1
            while f"{name}_{k}" in taken:
                k += 1
            name = f"{name}_{k}"
        taken.add(name)
        out.append(name)
    return out


def _text(value: Any) -> str:
    value = _cell(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) < 1e15 else repr(value)
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


#: what a spreadsheet reads as the start of a formula (OWASP's "CSV injection")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(value: Any) -> str:
    """A cell of ``--format csv``: its text, after a ``'`` when it would start a formula in a
    spreadsheet (``=HYPERLINK(...)``, ``+1``, ``@SUM``), as OWASP advises; numbers as they are."""
    text = _text(value)
    number = isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool)
    if number and isinstance(value, (float, decimal.Decimal)) and not math.isfinite(value):
        number = False      # "-Infinity" is no number to a spreadsheet, and starts as a formula does
    if text.startswith(_FORMULA) and not number:
        return "'" + text
    return text


@db_app.command("query", cls=PlainCommand)
def query_command(
    database: Path = typer.Argument(..., metavar="DB", parser=database_path,
                                    help="A database made by dehlanote db build."),
    sql: str = typer.Argument(..., metavar="SQL", help="One SQL query (DuckDB's dialect)."),
    format: QueryFormat = typer.Option(QueryFormat.table, "--format", "-f",
                                       help="table: for a terminal; csv: a header line, then one line a row; "
                                            "json: one array of objects."),
) -> None:
    """Answer a question in SQL: the rows of one query on a database of db build.

    The database is opened read-only. Tables and views: docs/db.md (games, deals, tricks,
    plays, captures, tens, errors, seats, ratings; deal_results, player_deals, partnerships,
    tens_lost, standings, player_ratings).

    Exit status: 0 answered, 2 an SQL error or a database that cannot be opened.

    Example: dehlanote db query club.duckdb "select winner, count(*) from deals group by 1"
    """
    duckdb = _duckdb()
    path = os.fspath(database)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise fail(f"no-database: {path}: no such file (make it with dehlanote db build FILE... -o {path})") from None
    except OSError as exc:      # (a loop of links is no missing file)
        raise fail(f"unreadable: cannot read {path}: {why(exc)}") from None
    if stat.S_ISDIR(st.st_mode):
        raise fail(f"not-a-database: {path}: it is a directory")
    if not stat.S_ISREG(st.st_mode):      # (DuckDB would wait on a FIFO for good)
        raise fail(f"not-a-database: {path}: it is {kind_of(st)}: a database is a regular file")
    from ..db.build import ForeignLog, check_log, opened
    try:
        check_log(path)
    except ForeignLog as exc:
        raise fail(_foreign(exc)) from None
    with contextlib.ExitStack() as stack:
        try:
            con = stack.enter_context(opened(path, read_only=True))
            # a question reads the database and nothing else: no file is read or written by SQL
            con.execute("SET enable_external_access = false").fetchall()
            con.execute("SET lock_configuration = true").fetchall()
        except duckdb.Error as exc:
            said = _trouble(duckdb, exc, path)
            raise fail(said if said is not None else f"not-a-database: {path}: {_first_line(exc)}")
        with ctrl_c_told():     # (DuckDB's "Query interrupted" is the Ctrl-C it comes from)
            try:
                count = len(duckdb.extract_statements(sql))
                if count > 1:       # (DuckDB would run them all and answer the last alone)
                    raise fail(f"sql-error: the query holds {count} statements: give one at a time (only the "
                               f"last one's rows would be shown)")
                result = con.execute(sql)
                if result is None:      # nothing but spaces, semicolons or comments
                    raise fail('sql-error: the query holds no SQL statement (e.g. "select * from standings")')
                names = [d[0] for d in result.description] if result.description else []
                if format is QueryFormat.table:
                    _print_table(names, result.fetchall())
                else:
                    # CSV and JSON a page of rows at a time: all the rows as Python tuples took
                    # 929 MB for the 2.5 million plays of 48,000 deals (a million deals' plays:
                    # some 19 GB); DuckDB holds the answer in its columns meanwhile
                    pages = iter(lambda: result.fetchmany(PAGE_ROWS), [])
                    (_emit_json if format is QueryFormat.json else _emit_csv)(names, pages)
            except duckdb.Error as exc:
                raise fail(f"sql-error: {_first_line(exc)}")
    raise typer.Exit(Exit.OK)


#: the rows of a query written at a time in CSV and JSON
PAGE_ROWS = 10_000


def _emit_csv(names: list[str], pages: Iterator[list[tuple[Any, ...]]]) -> None:
    header = True
    for rows in itertools.chain([[]], pages):
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        if header:
            writer.writerow([_csv_cell(n) for n in names])
            header = False
        for row in rows:
            writer.writerow([_csv_cell(v) for v in row])
        emit(buf.getvalue())


def _emit_json(names: list[str], pages: Iterator[list[tuple[Any, ...]]]) -> None:
    """The rows as one JSON array of objects, a key a column (:func:`unique_names`), a page at a
    time: always valid JSON (no NaN or Infinity; a value of a type not met before is given as its
    text rather than failing), laid out as ``json.dumps(rows, indent=1)`` lays it out."""
    keys = unique_names(names)
    first = True
    for rows in pages:
        text = ",\n".join(textwrap.indent(json.dumps(dict(zip(keys, map(_cell, row))), ensure_ascii=False, indent=1,
                                                       allow_nan=False, default=str), " ") for row in rows)
        emit(("[\n" if first else ",\n") + text)
        first = False
    emit("[]\n" if first else "\n]\n")


def _print_table(names: list[str], rows: list[tuple[Any, ...]]) -> None:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    numeric = [bool(rows) and all(isinstance(r[i], (int, float, decimal.Decimal)) and not isinstance(r[i], bool)
                                  for r in rows if r[i] is not None) for i in range(len(names))]
    for name, right in zip(names, numeric):
        table.add_column(Text(name), justify="right" if right else "left", overflow="fold")
    for row in rows:
        table.add_row(*(Text(_text(v)) for v in row))
    out = out_console()
    out.print(table)
    out.print(f"{len(rows)} row{'s' if len(rows) != 1 else ''}", markup=False, highlight=False)
