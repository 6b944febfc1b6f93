"""What every command shares: consoles, reading files and standard input, exit statuses.

Library work (checking a file, writing JSON) is called from here; the commands themselves
live one per module in this package.
"""

from __future__ import annotations

import enum
import glob
import os
import stat
import sys
import unicodedata
from contextlib import contextmanager
from pathlib import Path, PosixPath
from typing import IO, TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence, TypeVar

from ..version import __version__
from ..errors import DpnError, missing_folder
from ..files import digest as file_digest
from ..batch.check import (  # noqa: F401 (the commands take these from here)
    PARALLEL_MIN_BYTES,
    STDIN,
    STDIN_NAME,
    FileReport,
    check_file,
    display_name,
    games_of,
    located,
    parallel_reports,
    records_of,
    why,
)
from ..text import safe_console

if TYPE_CHECKING:
    from rich.console import Console

    from ..files import Snapshot
    from ..replay import GameFacts
    from ..rules.profile import Registry
    from ..syntax import Game
    from ..syntax.model import Loose

# Rich, the writers and the output formats are imported where they are used: a command
# loads what it needs (validate on a clean archive prints one line), start-up stays short.

def validate_hint(spec: str) -> str:
    """The command that lists the errors of the input ``spec`` (as given on the command line),
    as it can be typed: ``dehlanote validate -`` for standard input (``<stdin>`` typed in a
    shell reads a file named stdin), a name with spaces or quotes quoted for the shell."""
    import shlex
    return "dehlanote validate " + ("-" if spec == STDIN else shlex.quote(display_name(spec)))


#: files from which ``validate`` shows a progress bar (on a terminal)
PROGRESS_MIN_FILES = 4


class Exit(enum.IntEnum):
    OK = 0
    INVALID = 1
    USAGE = 2


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"


class AnnotateFormat(str, enum.Enum):
    text = "text"
    dpn = "dpn"


# ---- consoles and small helpers ----------------------------------------------------------------

class OutputFailed(Exception):
    """Standard output could not be written (a full disk, an I/O error): not a file to read
    that failed, and not something a command should go on after. ``main`` says it in one line."""

    def __init__(self, exc: OSError) -> None:
        super().__init__((exc.strerror or str(exc)).lower())
        self.errno = exc.errno


class _Guarded:
    """Standard output for a console: a failed write raises OutputFailed (a broken pipe stays
    BrokenPipeError, which ends the command quietly)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputFailed(exc) from exc

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputFailed(exc) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class LazyConsole:
    """A console made on first use: Rich takes about 15 ms to load, and ``validate`` of files
    without errors, piped, writes only its summary line (:func:`print_summary` writes it
    itself when Rich would write the bare text)."""

    def __init__(self, make: Callable[[], "Console"]) -> None:
        self._make = make
        self._console: Optional["Console"] = None

    @property
    def made(self) -> bool:
        return self._console is not None

    def real(self) -> "Console":
        if self._console is None:
            self._console = self._make()
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real(), name)


def plain_pipe() -> bool:
    """Standard output is a file or a pipe that Rich would give the bare text: not a
    terminal, and neither ``FORCE_COLOR`` nor ``TTY_COMPATIBLE=1`` makes Rich treat it as one."""
    return (not os.environ.get("FORCE_COLOR") and os.environ.get("TTY_COMPATIBLE", "") != "1"
            and not sys.stdout.isatty())


def out_console(**kw) -> Console:
    """The standard output console (colour only on a terminal; NO_COLOR is respected)."""
    width = None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 120
    kw.setdefault("file", _Guarded(sys.stdout))
    return safe_console(highlight=False, width=width, **kw)


#: the width text reports are laid out in when piped: wide enough that nothing wraps or is cut
PIPE_WIDTH = 1000
#: the width prose (descriptions in sentences) is wrapped at when piped: a readable line
PROSE_WIDTH = 100


class TextOut:
    """Standard output for text reports (tables, listings).

    On a terminal: the terminal's width, long text wrapped at word boundaries. Piped (or
    redirected): lines as long as their content, never padded with trailing spaces and never
    cut; ``COLUMNS`` sets a width when wanted.
    """

    def __init__(self, pipe_width: int = PIPE_WIDTH) -> None:
        self.piped = not sys.stdout.isatty()
        width = None if not self.piped or os.environ.get("COLUMNS") else pipe_width
        self.console = safe_console(highlight=False, width=width, file=_Guarded(sys.stdout))
        self._width: Optional[int] = None
        #: :meth:`text` writes a Text that fits at once (False: every Text through Rich)
        self.fast = True

    @property
    def encoding(self) -> str:
        return self.console.encoding

    def print(self, *objects: object, **kw: Any) -> None:
        if not self.piped:
            self.console.print(*objects, **kw)
            return
        with self.console.capture() as capture:
            self.console.print(*objects, **kw)
        text = "\n".join(line.rstrip() for line in capture.get().split("\n"))
        self.console.file.write(text)

    def text(self, text: Any) -> None:
        """``print(text)`` of a Rich Text; piped, when each of its lines fits the width, its
        lines written at once (what Rich writes then, without a Rich print's cost)."""
        if self.piped and self.fast:
            plain = text.plain
            if "\t" not in plain and "\r" not in plain:
                from rich.cells import cell_len
                if self._width is None:
                    self._width = self.console.width     # (a pipe's width does not change)
                lines = plain.split("\n")
                if all(cell_len(line) <= self._width for line in lines):
                    self.console.file.write("".join(line.rstrip() + "\n" for line in lines))
                    return
        self.print(text)

    def blank(self) -> None:
        """``print()``: an empty line."""
        if self.piped:
            self.console.file.write("\n")
        else:
            self.console.print()

    def rule(self, title: Any, characters: str = "─") -> None:
        """A heading with a line: across the terminal, or as long as the heading when piped."""
        if not self.piped:
            self.console.rule(title, align="left", characters=characters)
            return
        from rich.text import Text
        text = title if isinstance(title, Text) else Text(str(title))
        self.text(text)
        self.text(Text(characters * min(text.cell_len, self.console.width)))


def err_console() -> Console:
    return safe_console(stderr=True, highlight=False, soft_wrap=True)


def say(message: str) -> None:
    """``dehlanote: message`` on standard error, in red on a terminal: an error the command goes on
    after (an unreadable file among several), or the one it stops with (:func:`fail`)."""
    from rich.markup import escape
    err_console().print(f"dehlanote: {escape(message)}", style="red" if sys.stderr.isatty() else None)


def fail(message: str, code: int = Exit.USAGE) -> BaseException:
    """Say ``message`` on standard error; what to raise to end the command with ``code``:
    typer's Exit under the command line, SystemExit on the console script's direct path
    (where typer is not loaded; both end the process with ``code``)."""
    say(message)
    typer = sys.modules.get("typer")
    if typer is None:
        return SystemExit(code)
    return typer.Exit(code)


def lang_code(value: str) -> str:
    """``--lang``'s value as the catalogs name it: a language tag is the same in any case (BCP 47),
    so ``HI`` is ``hi`` (it was "no catalog for the language 'HI'")."""
    return value.lower()


def check_lang(lang: str) -> None:
    """A usage error unless the pages can speak ``lang`` (``html --lang``, ``share --lang``)."""
    from ..i18n import LanguageUnavailable, catalog
    try:
        catalog(lang)
    except LanguageUnavailable as exc:
        raise fail(f"--lang {lang}: {exc}")


def emit(text: str, *, coloured: bool = False) -> None:
    """Write record text (DPN, JSON) to standard output as UTF-8, whatever the locale
    (``coloured``: text already made printable, with the lexer's colours)."""
    if sys.stdout.isatty() and not coloured:
        from ..text import printable_block
        text = printable_block(text)     # a record's strings never drive the terminal
    try:
        buf = getattr(sys.stdout, "buffer", None)
        if buf is None:
            sys.stdout.write(text)
            return
        sys.stdout.flush()
        buf.write(text.encode("utf-8", "replace"))
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputFailed(exc) from exc


class DpnOut:
    """Where a command writes DPN (``fmt``, ``annotate --format dpn``): :func:`emit`, coloured
    by the ``dpn`` lexer on a terminal that shows colour (see :mod:`dehlanote.output.lexer`);
    to a file or a pipe the bytes are those of the text. Call :meth:`close` at the end."""

    def __init__(self) -> None:
        self._colour: Optional[Callable[[str], None]] = None
        self._close: Callable[[], None] = lambda: None
        if sys.stdout.isatty():
            from ..output.lexer import ColourWriter, colour_wanted

            if colour_wanted(sys.stdout):
                writer = ColourWriter(lambda text: emit(text, coloured=True), colour=True)
                self._colour, self._close = writer, writer.close

    def __call__(self, text: str) -> None:
        if self._colour is None:
            emit(text)
        else:
            self._colour(text)

    def close(self) -> None:
        self._close()


def spare_collector() -> None:
    """Tune the garbage collector for a command that reads records as a stream.

    The model is NamedTuples: the collector tracks every one (a deal makes a few hundred)
    though they never form cycles and are freed by reference counting. Checking 5,000
    deals ran the collector 485 times and it freed nothing. So what start-up loaded is
    frozen (never scanned again) and the youngest generation is collected every 10,000
    new objects instead of 700: validate --jobs 1, CPU, 5,000 deals, interleaved median of
    7, 2-5 % less (hands 1.126 -> 1.099 s, plain 0.883 -> 0.839 s, glyphs 1.114 -> 1.055 s).
    Memory is not held longer: what a game leaves behind is freed as before, at once.
    """
    import gc
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)


def load_registry(rules_file: Optional[Path]) -> Registry:
    """The rule profiles: the package's, plus those of ``--rules FILE.yaml``."""
    from ..rules.profile import default_registry, registry
    if rules_file is None:
        return registry()
    reg = default_registry()
    try:
        reg.load_path(rules_file)
    except IsADirectoryError:
        raise fail(f"cannot read the rules file {rules_file}: it is a folder; give the .yaml file of rule profiles")
    except OSError as exc:
        raise fail(f"cannot read the rules file {rules_file}: {why(exc)}")
    except UnicodeDecodeError:
        raise fail(f"cannot read the rules file {rules_file}: it is not UTF-8 text")
    except DpnError as exc:
        raise fail(f"unknown-rules: {exc.message}")
    return reg


def expand(specs: list[str]) -> list[str]:
    """Arguments with globs expanded (for shells that do not, or quoted patterns).

    Every command that reads files takes them through here: standard input (``-``) given
    twice is refused here, for all of them (a usage error, exit 2).
    """
    if specs.count(STDIN) > 1:
        raise fail("standard input (-) can be read only once")
    out: list[str] = []
    for spec in specs:
        if spec != STDIN and not os.path.exists(spec) and glob.has_magic(spec):
            found = sorted(glob.glob(spec, recursive=True))
            out.extend(found if found else [spec])
        else:
            out.append(spec)
    return out


def once_each(specs: list[str]) -> list[str]:
    """The files of an archive, each once, for the commands that count over an archive (stats,
    review, db build): a file named again, by the same path, another spelling of it
    (``./a.dpn``, ``/club/a.dpn``) or a link to it (the same file on disk), and a copy of a file
    named before (the same bytes: ``night3 (1).dpn`` downloaded twice, a backup beside it), is
    left out after its first naming, with a note on standard error; a game is counted once
    however often the archive holds its file. Only files of the same size are read to compare
    them. A name that cannot be looked at is kept (its reading says why)."""
    seen: dict[Any, str] = {}
    sizes: dict[int, list[Any]] = {}          # (the files' keys in seen)
    out: list[str] = []

    def note(spec: str, what: str) -> None:
        err_console().print(f"dehlanote: note: {display_name(spec)} is {what}: its games are counted once",
                            markup=False, highlight=False)

    for spec in specs:
        if spec == STDIN:
            out.append(spec)
            continue
        try:
            st = os.stat(spec)
            key: Any = (st.st_dev, st.st_ino)
        except OSError:
            st, key = None, os.path.normpath(spec)
        if key in seen:
            first = seen[key]
            if first != spec and os.path.islink(first) and not os.path.islink(spec):
                # the file itself rather than a link to it (club/latest.dpn -> night0.dpn, listed
                # first by a glob): its name stays when the link is pointed at the next night's
                out[out.index(first)] = seen[key] = spec
                spec, first = first, spec
            note(spec, "named twice" if first == spec else f"the same file as {display_name(first)}")
            continue
        seen[key] = spec
        out.append(spec)
        if st is not None and stat.S_ISREG(st.st_mode) and st.st_size:
            sizes.setdefault(st.st_size, []).append(key)
    copies: set[str] = set()
    for group in sizes.values():
        digests: dict[str, str] = {}
        for spec in (seen[key] for key in group) if len(group) > 1 else ():
            try:
                digest = file_digest(spec)
            except OSError:
                continue
            if digest in digests:
                note(spec, f"a copy of {display_name(digests[digest])} (the same bytes)")
                copies.add(spec)
            else:
                digests[digest] = spec
    return [spec for spec in out if spec not in copies]


def _options() -> dict[str, Any]:
    import typer
    return {
        "RULES_OPTION": typer.Option(
            None, "--rules", metavar="FILE.yaml", parser=rules_path,
            help="Load extra rule profiles and options from a YAML file (as the package's own profiles)."),
        "ANALYSE_FROM_OPTION": typer.Option(
            None, "--analyse-from", min=1, metavar="K",
            help="Implies --analyse: analyse each deal from trick K on (the end of a deal is solved in a blink)."),
    }


def __getattr__(name: str) -> Any:
    # RULES_OPTION and ANALYSE_FROM_OPTION, the options several commands share, made (once)
    # when a command's module asks for them: this module does not load typer, which the
    # console script's direct path for validate does without
    if name in ("RULES_OPTION", "ANALYSE_FROM_OPTION"):
        globals().update(_options())
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _version(value: bool) -> None:
    if value:
        import typer
        typer.echo(f"dehlanote {__version__}")
        raise typer.Exit()


# ---- what several commands say -----------------------------------------------------------------

def deal_span(deals: "Sequence[Any]") -> str:
    """The deals a game has, for a message about a deal number it has not: ``deals 1 to 7``."""
    return f"deals {deals[0].number} to {deals[-1].number}" if deals else "no deal"


class FolderName(PosixPath):
    """A name written with a final ``/`` (``-o out/``): a folder's, which a ``Path`` forgets."""


def _named_path(empty: str, *, file: Optional[str] = None) -> Callable[[str], Path]:
    """A parser of a file or folder name that refuses an empty one, saying ``empty``: an empty
    name (``-o "$OUT"`` with the variable unset) is the current folder to the system. A name
    ending in ``/`` is a folder's: ``file`` (a name that must be one file's, to write or to read,
    named so in the message: ``--output``, ``the database``) refuses it unless the folder exists
    (then the command says it is a folder), else it is a :class:`FolderName` (``-o out/`` wrote
    a file named ``out``)."""
    def parse(text: str) -> Path:
        if not text.strip():
            raise fail(f"{empty} (is a shell variable unset?)")
        if text.endswith("/") and not os.path.isdir(text):
            if file is not None:
                folder = text.rstrip("/") or "/"
                raise fail(f"{file} {display_name(text)}: a name that ends in / is a folder's, and the folder "
                           f"{display_name(folder)} {missing_folder(folder)}: give the file's name")
            return FolderName(text)
        return Path(text)
    return parse


#: a rules file's name (``--rules``, serve's ``--rules-file``): ``r.yaml/`` read the file r.yaml
rules_path = _named_path("the rules file's name is empty: give the .yaml file of rule profiles",
                         file="the rules file")
#: an ``--output`` value (the pages or the file would go to the current folder): one file
output_path = _named_path("--output is empty: give a file or folder name", file="--output")
#: the folder ``serve`` serves (``serve "$NIGHT"`` with the variable unset served the current folder)
served_folder = _named_path("the folder's name is empty: give the folder of the night's records")
#: the file ``record`` writes (``record out/`` made a file named ``out``; an empty name, the folder)
record_path = _named_path("the record's name is empty: give the .dpn file to record into", file="record")
#: html's ``--output``: a page, a folder to put it in, or a site's folder (made if missing)
output_place = _named_path("--output is empty: give a file or folder name")
#: a database's name (``db query DB``: an empty one was "not-a-database: .: it is a directory", and
#: ``x.duckdb/`` read the file x.duckdb, a ``Path`` forgetting the final ``/``)
database_path = _named_path("the database's name is empty: give the file db build made", file="the database")


def refuse_input_output(output: "os.PathLike[str] | str", inputs: "Sequence[Any]") -> None:
    """A usage error (``output-is-input``, nothing written) when the output a command was told
    to write is one of the files it reads (the same file, also through a symlink or a hard
    link, or standard input read from it): every command with input files and ``-o`` checks
    here before it writes. ``inputs``: the record files (``-`` for standard input) and any
    other file read (a ``--rules`` file); None among them is skipped."""
    from ..files import same_file
    hit = same_file(output, [os.fspath(i) for i in inputs if i is not None])
    if hit is None:
        return
    shown = display_name(os.fspath(output))
    what = ("standard input" if hit == STDIN else display_name(hit))
    same = "an input of this command" if what == shown else f"the same file as {what}, an input of this command"
    raise fail(f"output-is-input: {shown} is {same}: writing it would lose the record; "
               "give another output file (nothing was written)")


def no_trick(deal: Any, trick: int) -> str:
    """The message for a trick number a deal has not: ``deal 1 has no trick 14 (tricks 1 to
    13)``; the tricks counted are those the replay could follow."""
    numbers = [t.number for t in deal.tricks]
    if any(t.number == trick for t in getattr(deal, "unreplayed", ())):
        # (it said "deal 1 has no trick 3 (tricks 1 to 13)" of a trick 3 written with 3 cards)
        return (f"deal {deal.number} has a trick {trick} written, but it could not be replayed "
                "(validate says why)")
    if not numbers:
        return f"deal {deal.number} has no trick played"
    return f"deal {deal.number} has no trick {trick} (tricks {numbers[0]} to {numbers[-1]})"


def wanted_player(player: Optional[str]) -> Optional[str]:
    """A ``--player`` name as the commands match it, in any case with the spaces around it
    ignored, in Unicode's composed form as :func:`dehlanote.replay.game.player_name` gives the
    names (None: every player); an empty name is refused."""
    if player is None:
        return None
    wanted = unicodedata.normalize("NFC", player.strip()).casefold()
    if not wanted:
        raise fail("--player: give a name, as the records' seat tags write it")
    return wanted


# ---- validate ----------------------------------------------------------------------------------

def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class Meter:
    """What a progress bar is told: the file being read, the bytes read of it, its end.
    (This one shows nothing: no bar.)"""

    def file(self, path: str, size: int) -> None:
        pass

    def read(self, count: int) -> None:
        pass

    def done(self) -> None:
        pass


def bar_columns(verb: str, *middle: Any) -> tuple[Any, ...]:
    """A progress bar's columns: ``verb``, a bar of 20 cells, the ``middle`` columns, the clock
    (at least 7 cells), then the item's name, which alone gives way when the line is short
    (see :func:`bar_name`): a long path used to squeeze the clock to '0:00…'."""
    from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
    from rich.table import Column

    return (TextColumn(verb), BarColumn(bar_width=20), *middle,
            TimeElapsedColumn(table_column=Column(no_wrap=True, min_width=7)),
            TextColumn("{task.description}", table_column=Column(no_wrap=True, overflow="ellipsis")))


def bar_name(text: str, room: int) -> str:
    """``text`` for a bar's name column of ``room`` cells, escaped for Rich: cut from its start
    (a path's end, its file and deal, is what tells one item from the next)."""
    from rich.markup import escape

    room = max(12, room)
    return escape(text if len(text) <= room else "…" + text[len(text) - room + 1:])


class _BarMeter(Meter):
    def __init__(self, progress: Any, task: Any) -> None:
        self.progress, self.task = progress, task
        self.base = 0       # bytes of the files before this one
        self.size = 0

    def file(self, path: str, size: int) -> None:
        self.size = size
        room = self.progress.console.width - len("checking") - 21 - 15 - 8 - 2     # the bar, its bytes, the clock
        self.progress.update(self.task, description=bar_name(path, room), completed=self.base)

    def read(self, count: int) -> None:
        self.progress.advance(self.task, count)

    def done(self) -> None:
        self.base += self.size
        self.progress.update(self.task, completed=self.base)


@contextmanager
def progress_bar(total_bytes: int, enabled: bool) -> Iterator[tuple[Meter, Optional[Console]]]:
    """A progress bar on standard error counting bytes read (or nothing), and the console
    that prints above it: a 10 MB file among 40 small ones no longer sits at 40/41.

    Anything printed to the terminal while the bar is drawn must go through that console
    (rich consoles write past a redirected ``sys.stdout``), else lines land on the bar.
    """
    if not enabled:
        yield Meter(), None
        return
    from rich.progress import DownloadColumn, Progress

    progress = Progress(
        *bar_columns("checking", DownloadColumn()),
        console=safe_console(stderr=True, highlight=False), transient=True,
        redirect_stdout=False, redirect_stderr=False,
    )
    task = progress.add_task("", total=max(total_bytes, 1))
    with progress:
        yield _BarMeter(progress, task), progress.console


class AnalysisMeter:
    """What the analysis progress is told: a deal started (its label), then tricks solved of a
    total. (This one shows nothing: no bar.)"""

    def deal(self, label: str) -> Callable[[int, int], None]:
        return lambda done, total: None


class _AnalysisBar(AnalysisMeter):
    def __init__(self, progress: Any, task: Any) -> None:
        self.progress, self.task = progress, task

    def deal(self, label: str) -> Callable[[int, int], None]:
        room = self.progress.console.width - len("analysing") - 21 - 8 - 7 - 8 - 2   # the bar, count, clock
        self.progress.update(self.task, description=bar_name(label, room), completed=0, total=None)

        def step(done: int, total: int) -> None:
            self.progress.update(self.task, completed=done, total=max(total, 1))
        return step


@contextmanager
def analysis_progress(enabled: bool) -> Iterator[AnalysisMeter]:
    """A progress bar on standard error while deals are solved (``--analyse``), or nothing:
    the deal being solved and its tricks solved so far (a full deal can take a minute)."""
    if not enabled:
        yield AnalysisMeter()
        return
    from rich.progress import MofNCompleteColumn, Progress, TextColumn

    progress = Progress(
        *bar_columns("analysing", MofNCompleteColumn(), TextColumn("tricks")),
        console=safe_console(stderr=True, highlight=False), transient=True,
        redirect_stdout=False, redirect_stderr=False,
    )
    task = progress.add_task("", total=None)
    with progress:
        yield _AnalysisBar(progress, task)


def exit_status(reports: list[FileReport], invalid: Optional[Callable[[FileReport], bool]] = None) -> int:
    if any(r.unreadable is not None for r in reports):
        return Exit.USAGE
    if any((invalid(r) if invalid else r.count > 0) for r in reports):
        return Exit.INVALID
    return Exit.OK


def print_summary(out: "Console | LazyConsole", reports: list[FileReport]) -> None:
    files = len(reports)
    games = sum(r.games for r in reports)
    deals = sum(r.deals for r in reports)
    errors = sum(r.count for r in reports)
    bad = sum(1 for r in reports if r.count)
    unreadable = sum(1 for r in reports if r.unreadable is not None)
    text = f"{plural(files, 'file')}, {plural(games, 'game')}, {plural(deals, 'deal')}: "
    if errors:
        text += f"{plural(errors, 'error')} in {plural(bad, 'file')}"
    elif unreadable:
        text += "no errors in the files read"
    else:
        text += "all valid"
    if unreadable:
        text += f"; {unreadable} could not be read"
    if isinstance(out, LazyConsole) and not out.made and plain_pipe():
        # what Rich writes for this text when piped (no emoji name, tab or control character in
        # it, and soft wrapping), without loading Rich
        guarded = _Guarded(sys.stdout)
        guarded.write(text + "\n")
        guarded.flush()
        return
    style = "bold red" if errors or unreadable else "bold green"
    out.print(text, style=style, markup=False)


# ---- json --------------------------------------------------------------------------------------

def open_games(spec: str) -> Iterator[Game]:
    """The games of a file; an unreadable file fails here, before anything is written."""
    return _opened(spec, games_of)


def games_or_say(spec: str, unreadable: list[str]) -> Iterator[Game]:
    """The games of a file, for a command that goes on to the next file when one cannot be read
    (solve, review: one missing file hid every other file's deals): the error is said on standard
    error at once and ``unreadable`` gains its file (the command then ends with status 2)."""
    try:
        yield from games_of(spec)
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        path = display_name(spec)
        unreadable.append(path)
        say(f"cannot read {path}: {why(exc)}")


def open_records(spec: str) -> Iterator["Game | Loose"]:
    """The games of a file and the comments in no game (:func:`records_of`), as
    :func:`open_games` opens them."""
    return _opened(spec, records_of)


_R = TypeVar("_R")


def _opened(spec: str, read: Callable[[str], Iterator[_R]]) -> Iterator[_R]:
    # read(spec) inside the try: games_of looks at the file's first bytes before it yields
    try:
        games = read(spec)
        first = next(games, None)
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        raise fail(f"cannot read {display_name(spec)}: {why(exc)}")

    def chain() -> Iterator[_R]:
        if first is None:
            return
        yield first
        try:
            yield from games
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            raise fail(f"cannot read {display_name(spec)} to the end: {why(exc)}")
    return chain()


@contextmanager
def replacing(target: Path, *, force: bool = False, expect: Optional[Snapshot] = None) -> Iterator[IO[str]]:
    """A stream whose text becomes ``target`` when the block succeeds (see
    :func:`dehlanote.files.write_target`: a regular file is replaced by a rename in
    its real directory, keeping mode, owner and group; a device or FIFO is written as it
    is). Raises OutputRefused or OSError."""
    from ..files import write_target
    with write_target(target, force=force, expect=expect) as stream:
        yield stream


def canonical_text(game: Game, facts: GameFacts) -> str:
    """The canonical DPN of a game; a game the reader found faults in is kept as written
    (:func:`dehlanote.replay.canonical_text`)."""
    from ..replay import canonical_text as canonical
    return canonical(game, facts)

