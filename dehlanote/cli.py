"""The ``dehlanote`` command line: a thin layer over the library.

Commands: ``validate``, ``json``, ``fmt``, ``annotate``, ``replay``, ``rules``. Exit
statuses follow NOTATION.md: 0 all valid, 1 some record has errors, 2 a usage problem or a
file that cannot be read. Records are read one game at a time (``iter_path``), so a large
archive is never held in memory. Rendering lives in :mod:`dehlanote.output.render`.
"""

from __future__ import annotations

import enum
import glob
import os
import select
import shutil
import signal
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable, Iterator, Optional

import typer
from rich.console import Console
from rich.markup import escape

from . import __version__
from .errors import DpnError
from .output import jsonout
from .output.annotate import Stepper, annotated_game, deal_heading, deal_result_text, snapshots
from .output.render import (
    deal_table, error_text, game_heading, game_result_text, plain_hands, plain_step_lines, profile_view,
    rules_listing, stepper_screen,
)
from .replay import GameFacts, explicit, replay_game
from .rules.profile import Registry, default_registry, registry
from .syntax import Game, iter_games, iter_path, write_game

STDIN = "-"
STDIN_NAME = "<stdin>"
#: files from which ``validate`` shows a progress bar (on a terminal)
PROGRESS_MIN_FILES = 4
_SYNTAX_CODES = {"syntax", "bad-card", "encoding"}


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


app = typer.Typer(
    name="dehlanote",
    help="Record and check Dehla Pakad games in DPN, the Dehla Pakad Notation.\n\n"
         "Example: dehlanote validate samples/*.dpn",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


# ---- consoles and small helpers ----------------------------------------------------------------

def _out(**kw) -> Console:
    """The standard output console (colour only on a terminal; NO_COLOR is respected)."""
    width = None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 120
    return Console(highlight=False, width=width, **kw)


def _err() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = Exit.USAGE) -> "typer.Exit":
    _err().print(f"dehlanote: {escape(message)}", style="red" if sys.stderr.isatty() else None)
    return typer.Exit(code)


def _emit(text: str) -> None:
    """Write record text (DPN, JSON) to standard output as UTF-8, whatever the locale."""
    buf = getattr(sys.stdout, "buffer", None)
    if buf is None:
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    buf.write(text.encode("utf-8", "replace"))


def _why(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return "is a directory (give the files in it, e.g. DIR/*.dpn)"
    if isinstance(exc, PermissionError):
        return "permission denied"
    return (exc.strerror or str(exc)).lower()


def _name(spec: str) -> str:
    return STDIN_NAME if spec == STDIN else spec


def _games(spec: str) -> Iterator[Game]:
    """The games of a file, or of standard input for ``-``, one at a time, with their text."""
    if spec == STDIN:
        return iter_games(sys.stdin.buffer, keep_source=True)
    if os.path.isdir(spec):
        raise IsADirectoryError(21, "Is a directory", spec)
    return iter_path(spec, keep_source=True)


def _registry(rules_file: Optional[Path]) -> Registry:
    """The rule profiles: the package's, plus those of ``--rules FILE.yaml``."""
    if rules_file is None:
        return registry()
    reg = default_registry()
    try:
        reg.load_path(rules_file)
    except OSError as exc:
        raise _fail(f"cannot read the rules file {rules_file}: {_why(exc)}")
    except UnicodeDecodeError:
        raise _fail(f"cannot read the rules file {rules_file}: it is not UTF-8 text")
    except DpnError as exc:
        raise _fail(f"unknown-rules: {exc.message}")
    return reg


def _expand(specs: list[str]) -> list[str]:
    """Arguments with globs expanded (for shells that do not, or quoted patterns)."""
    out: list[str] = []
    for spec in specs:
        if spec != STDIN and not os.path.exists(spec) and glob.has_magic(spec):
            found = sorted(glob.glob(spec, recursive=True))
            out.extend(found if found else [spec])
        else:
            out.append(spec)
    return out


def _located(err: DpnError, game: Game, path: str) -> DpnError:
    return err.with_context(path=path, source_line=game.line_text(err.line))


RULES_OPTION = typer.Option(
    None, "--rules", metavar="FILE.yaml",
    help="Load extra rule profiles and options from a YAML file (as the package's own profiles).")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"dehlanote {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                 help="Show the version and exit."),
) -> None:
    """Record and check Dehla Pakad games in DPN, the Dehla Pakad Notation.

    Example: dehlanote validate samples/*.dpn
    """


# ---- validate ----------------------------------------------------------------------------------

@dataclass
class FileReport:
    path: str
    games: int = 0
    deals: int = 0
    errors: list[DpnError] = field(default_factory=list)   # kept only when asked for
    count: int = 0                                          # errors found
    unreadable: Optional[str] = None

    def json(self) -> dict:
        out = {"path": self.path, "games": self.games, "deals": self.deals,
               "errors": [e.to_json() for e in self.errors]}
        if self.unreadable is not None:
            out["unreadable"] = self.unreadable
        return out


#: below this size a file is checked in one process: starting workers would cost more
PARALLEL_MIN_BYTES = 1 << 20


def _parallel_reports(spec: str, jobs: int, rules_file: Optional[Path], report: FileReport,
                      on_error: Optional[Callable[[DpnError], None]], keep: bool) -> bool:
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
    from .parallel import validate_parallel
    files = (rules_file,) if rules_file is not None else ()
    for game_report in validate_parallel(spec, jobs, files, name=report.path):
        report.games += 1
        report.deals += game_report.deals
        for err in game_report.errors:
            report.count += 1
            if keep:
                report.errors.append(err)
            if on_error is not None:
                on_error(err)
    return True


def check_file(spec: str, reg: Registry, on_error: Optional[Callable[[DpnError], None]] = None,
               keep: bool = True, jobs: int = 1, rules_file: Optional[Path] = None) -> FileReport:
    """Replay every game of a file, one at a time; report errors as they are found.

    With ``jobs`` > 1 a large file is split at game boundaries and checked on that many
    processes; the errors and their order are those of one process.
    """
    report = FileReport(_name(spec))
    try:
        if _parallel_reports(spec, jobs, rules_file, report, on_error, keep):
            return report
        for game in _games(spec):
            facts = replay_game(game, reg)
            report.games += 1
            report.deals += len(game.deals)
            for err in facts.errors:
                err = _located(err, game, report.path)
                report.count += 1
                if keep:
                    report.errors.append(err)
                if on_error is not None:
                    on_error(err)
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        report.unreadable = _why(exc)
    return report


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@contextmanager
def _progress(total: int, enabled: bool) -> Iterator[tuple[Callable[[Optional[str]], None], Optional[Console]]]:
    """A progress bar on standard error (or nothing), and the console that prints above it.

    Anything printed to the terminal while the bar is drawn must go through that console
    (rich consoles write past a redirected ``sys.stdout``), else lines land on the bar.
    """
    if not enabled:
        yield (lambda path: None), None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=Console(stderr=True, highlight=False), transient=True,
        redirect_stdout=False, redirect_stderr=False,
    )
    task = progress.add_task("", total=total)
    with progress:
        def advance(path: Optional[str]) -> None:
            if path is None:
                progress.advance(task)
            else:
                progress.update(task, description=escape(path))
        yield advance, progress.console


@app.command()
def validate(
    files: list[str] = typer.Argument(..., metavar="FILE",
                                      help="DPN files or glob patterns; - reads standard input."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f",
                                        help="text: one line per error with the source line and a "
                                             "caret; json: one JSON object."),
    brief: bool = typer.Option(False, "--brief", "-b", help="Only the path:line:col: code: message lines."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress",
                                            help="A progress bar on standard error (default: on a "
                                                 "terminal, from 4 files)."),
    rules: Optional[Path] = RULES_OPTION,
    jobs: int = typer.Option(0, "--jobs", "-j", min=0, metavar="N",
                             help="Worker processes for a large file (from 1 MB), split at game "
                                  "boundaries; 0 (the default): one per core. The output is the same "
                                  "as with --jobs 1."),
) -> None:
    """Check records against their rules and list every error.

    Every card, trick, deal and claim is checked under each game's rules. Prints path:line:col: code: message for each error, then a summary.
    Exit status: 0 all valid, 1 some invalid, 2 usage or an unreadable file.

    Example: dehlanote validate samples/*.dpn
    """
    reg = _registry(rules)
    specs = _expand(files)
    if specs.count(STDIN) > 1:
        raise _fail("standard input (-) can be read only once")
    out = stdout_console = _out(soft_wrap=True)
    err_console = _err()
    as_json = format is OutputFormat.json
    show = progress if progress is not None else (sys.stderr.isatty() and len(specs) >= PROGRESS_MIN_FILES)
    reports: list[FileReport] = []

    def print_error(err: DpnError) -> None:
        if brief:
            out.print(str(err), markup=False)
        else:
            out.print(error_text(err, err.path or ""))

    with _progress(len(specs), show) as (step, above):
        if above is not None:
            err_console = above
            if sys.stdout.isatty():
                out = above     # the same terminal: print above the bar
        for spec in specs:
            step(spec)
            report = check_file(spec, reg, None if as_json else print_error, keep=as_json,
                                jobs=jobs or os.cpu_count() or 1, rules_file=rules)
            if report.unreadable is not None:
                err_console.print(f"dehlanote: cannot read {escape(report.path)}: {escape(report.unreadable)}",
                                  style="red" if sys.stderr.isatty() else None)
            reports.append(report)
            step(None)
    if as_json:
        _emit(jsonout.dumps({"files": [r.json() for r in reports]}) + "\n")
    else:
        _summary(stdout_console, reports)
    raise typer.Exit(_status(reports))


def _status(reports: list[FileReport], invalid: Optional[Callable[[FileReport], bool]] = None) -> int:
    if any(r.unreadable is not None for r in reports):
        return Exit.USAGE
    if any((invalid(r) if invalid else r.count > 0) for r in reports):
        return Exit.INVALID
    return Exit.OK


def _summary(out: Console, reports: list[FileReport]) -> None:
    files = len(reports)
    games = sum(r.games for r in reports)
    deals = sum(r.deals for r in reports)
    errors = sum(r.count for r in reports)
    bad = sum(1 for r in reports if r.count)
    unreadable = sum(1 for r in reports if r.unreadable is not None)
    text = f"{_plural(files, 'file')}, {_plural(games, 'game')}, {_plural(deals, 'deal')}: "
    if errors:
        text += f"{_plural(errors, 'error')} in {_plural(bad, 'file')}"
    elif unreadable:
        text += "no errors in the files read"
    else:
        text += "all valid"
    if unreadable:
        text += f"; {unreadable} could not be read"
    style = "bold red" if errors or unreadable else "bold green"
    out.print(text, style=style, markup=False)


# ---- json --------------------------------------------------------------------------------------

def _open_games(spec: str) -> Iterator[Game]:
    """The games of a file; an unreadable file fails here, before anything is written."""
    try:
        games = _games(spec)
        first = next(games, None)
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        raise _fail(f"cannot read {_name(spec)}: {_why(exc)}")

    def chain() -> Iterator[Game]:
        if first is None:
            return
        yield first
        try:
            yield from games
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            raise _fail(f"cannot read {_name(spec)} to the end: {_why(exc)}")
    return chain()


def write_document(write: Callable[[str], None], facts: Iterator[GameFacts], *, indent: Optional[int] = 2) -> bool:
    """Write the ``dpn-json/1`` document game by game (the same text as ``jsonout.dumps``).

    Returns True when every game is valid.
    """
    import json

    valid = True
    if indent is None:
        write('{"format": "%s", "games": [' % jsonout.FORMAT)
        for i, f in enumerate(facts):
            valid &= not f.errors
            write((", " if i else "") + jsonout.dumps(jsonout.game_json(f), indent=None))
        write("]}\n")
        return valid
    pad = " " * (2 * indent)
    write("{\n" + " " * indent + f'"format": {json.dumps(jsonout.FORMAT)},\n' + " " * indent + '"games": [')
    count = 0
    for f in facts:
        valid &= not f.errors
        body = jsonout.dumps(jsonout.game_json(f), indent=indent)
        body = "\n".join(pad + line for line in body.split("\n"))
        write(("\n" if count == 0 else ",\n") + body)
        count += 1
    write(("\n" + " " * indent + "]\n}\n") if count else "]\n}\n")
    return valid


@contextmanager
def _replacing(target: Path) -> Iterator[IO[str]]:
    """A temporary file beside ``target`` that replaces it only when the block succeeds."""
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as stream:
            yield stream
        if target.exists():
            shutil.copymode(target, tmp)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@app.command("json")
def json_command(
    file: str = typer.Argument(..., metavar="FILE", help="A DPN file; - reads standard input."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="OUT.json",
                                          help="Write to this file instead of standard output."),
    compact: bool = typer.Option(False, "--compact", help="One line, no indentation."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Convert a record to JSON (dpn-json/1).

    Every game is written with its replayed facts and its errors. A game with errors is still written, with its errors in "errors".
    Exit status: 0, or 1 when a game has errors, 2 when the file cannot be read.

    Example: dehlanote json samples/worked-example.dpn -o worked.json
    """
    reg = _registry(rules)
    games = _open_games(file)
    facts = (replay_game(g, reg) for g in games)
    indent = None if compact else 2
    if output is None:
        valid = write_document(_emit, facts, indent=indent)
    else:
        try:
            with _replacing(output) as stream:
                valid = write_document(stream.write, facts, indent=indent)
        except OSError as exc:
            raise _fail(f"cannot write {output}: {_why(exc)}")
    raise typer.Exit(Exit.OK if valid else Exit.INVALID)


# ---- fmt ---------------------------------------------------------------------------------------

def canonical_text(game: Game, facts: GameFacts) -> str:
    """The canonical DPN of a game; a game that could not be read is kept as written."""
    if any(e.code in _SYNTAX_CODES for e in game.errors):
        text = game.source if game.source is not None else write_game(game)
        return text.strip("\n") + "\n"
    return write_game(explicit(facts))


class _Compare:
    """Compares text written piece by piece with a file's bytes, reading the file as it goes."""

    def __init__(self, path: str) -> None:
        self.stream = open(path, "rb")
        self.same = True

    def feed(self, text: str) -> None:
        if self.same:
            data = text.encode("utf-8", "replace")
            self.same = self.stream.read(len(data)) == data

    def close(self) -> bool:
        same = self.same and self.stream.read(1) == b""
        self.stream.close()
        return same


def _canonical_pieces(spec: str, reg: Registry, report: FileReport) -> Iterator[str]:
    first = True
    for game in _games(spec):
        facts = replay_game(game, reg)
        report.games += 1
        report.deals += len(game.deals)
        report.count += len(facts.errors)
        yield ("" if first else "\n") + canonical_text(game, facts)
        first = False


@app.command()
def fmt(
    files: list[str] = typer.Argument(..., metavar="FILE", help="DPN files; - reads standard input."),
    check: bool = typer.Option(False, "--check", help="Write nothing; list the files that are not canonical "
                                                     "and exit 1 if there are any."),
    write: bool = typer.Option(False, "--write", "-w", help="Rewrite each file in place (not files whose "
                                                           "games have errors)."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Write records in canonical DPN.

    Known tags first, one trick per line, dealers, leaders, trump and tens filled in from
    the replay; comments and glyphs are kept.

    Without options the canonical text goes to standard output.
    Exit status: 0, 1 when a game has errors (or with --check, a file is not canonical),
    2 for usage or an unreadable file.

    Example: dehlanote fmt --check samples/*.dpn
    """
    if check and write:
        raise _fail("use --check or --write, not both")
    specs = _expand(files)
    if write and STDIN in specs:
        raise _fail("--write rewrites files in place: it cannot rewrite standard input")
    if specs.count(STDIN) > 1:
        raise _fail("standard input (-) can be read only once")
    reg = _registry(rules)
    err = _err()
    out = _out(soft_wrap=True)
    reports: list[FileReport] = []
    changed: list[str] = []
    wrote = False           # games already written: the next file's first game needs a blank line
    for spec in specs:
        report = FileReport(_name(spec))
        reports.append(report)
        try:
            if check or write:
                same = _fmt_file(spec, reg, report, write, err)
                if not same:
                    changed.append(report.path)
            else:
                for piece in _canonical_pieces(spec, reg, report):
                    _emit(("\n" if wrote and not report.games - 1 else "") + piece)
                    wrote = True
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            report.unreadable = _why(exc)
            # --write replaces a file only once its new text is whole: a failure leaves it as it was
            verb = "rewrite" if write and os.path.isfile(spec) else "read"
            err.print(f"dehlanote: cannot {verb} {escape(report.path)}: {escape(report.unreadable)}"
                      + (" (the file is unchanged)" if verb == "rewrite" else ""))
            continue
        if report.count and not write:
            err.print(f"{escape(report.path)}: {_plural(report.count, 'error')}: games with errors are "
                      f"written as they are (dehlanote validate {escape(report.path)} lists them)")
    readable = [r for r in reports if r.unreadable is None]
    if check:
        for path in changed:
            out.print(f"would reformat {path}", markup=False)
        n = len(changed)
        out.print(f"{_plural(n, 'file')} would be reformatted, {len(readable) - n} already canonical"
                  if n else f"{_plural(len(readable), 'file')} already canonical", markup=False)
        status = _status(reports, lambda r: r.count > 0 or r.path in changed)
    elif write:
        done = [p for p in changed if not any(r.path == p and r.count for r in reports)]
        out.print(f"{_plural(len(done), 'file')} reformatted, "
                  f"{len([r for r in readable if r.path not in changed and not r.count])} already canonical"
                  + (f", {_plural(sum(1 for r in readable if r.count), 'file')} with errors left untouched"
                     if any(r.count for r in readable) else ""), markup=False)
        status = _status(reports)
    else:
        status = _status(reports)
    raise typer.Exit(status)


def _fmt_file(spec: str, reg: Registry, report: FileReport, write: bool, err: Console) -> bool:
    """Compare (and with ``write`` replace) one file with its canonical form; True if it was canonical."""
    if spec == STDIN:
        # standard input is read twice (games, then bytes to compare): spool it to a file first
        with tempfile.NamedTemporaryFile(prefix="dehlanote-", suffix=".dpn", delete=False) as spool:
            shutil.copyfileobj(sys.stdin.buffer, spool)
        try:
            return _fmt_file(spool.name, reg, report, False, err)
        finally:
            os.unlink(spool.name)
    compare = _Compare(spec)
    try:
        if not write:
            for piece in _canonical_pieces(spec, reg, report):
                compare.feed(piece)
            return compare.close()
        try:
            with _replacing(Path(spec)) as stream:
                for piece in _canonical_pieces(spec, reg, report):
                    compare.feed(piece)
                    stream.write(piece)
                same = compare.close()
                if same or report.count:
                    raise _Keep()
        except _Keep:
            if report.count:
                err.print(f"{escape(report.path)}: left untouched: {_plural(report.count, 'error')} "
                          f"(dehlanote validate {escape(report.path)} lists them)")
            return same
        _out(soft_wrap=True).print(f"reformatted {report.path}", markup=False)
        return False
    finally:
        if not compare.stream.closed:
            compare.stream.close()


class _Keep(Exception):
    """Raised inside a replacement to keep the original file."""


# ---- rules -------------------------------------------------------------------------------------

@app.command("rules")
def rules_command(
    name: Optional[str] = typer.Argument(None, metavar="NAME",
                                         help='A profile, optionally with options: "pagat kots=3".'),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """List the rule profiles and options, or show one.

    With NAME: the profile's parameters, its source and the decisions taken for it.

    An option on its own (six-player, trump=closed) is shown on the standard profile.

    Example: dehlanote rules hukum
    """
    reg = _registry(rules)
    out = _out()
    if name is None:
        out.print(rules_listing(reg))
        raise typer.Exit(Exit.OK)
    label = " ".join(name.split())
    first = label.split(" ")[0].partition("=")[0]
    if first not in reg.profiles and first in reg.options:
        # an option on its own: show what it does to the default profile
        label = f"standard {label}"
    try:
        resolved = reg.resolve(label)
    except DpnError as exc:
        raise _fail(exc.message)
    out.print(profile_view(resolved, label))


# ---- annotate ------------------------------------------------------------------------------------

@app.command()
def annotate(
    file: str = typer.Argument(..., metavar="FILE", help="A DPN file; - reads standard input."),
    format: AnnotateFormat = typer.Option(AnnotateFormat.text, "--format", "-f",
                                          help="text: a table per deal; dpn: the record with the "
                                               "facts as {} comments (itself valid DPN)."),
    symbols: bool = typer.Option(True, "--symbols/--letters", help="Suits as ♠♥♦♣ or as S H D C."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Show each deal trick by trick.

    For each trick: the cards (the winner's marked *), the winner, the centre, each capture
    with the tens it moved, the running ten count; a ten won in a trick by one side but
    swept by the other is marked. Then each deal's result, streak and next dealer.

    Exit status: as validate.

    Example: dehlanote annotate samples/worked-example.dpn
    """
    reg = _registry(rules)
    games = _open_games(file)
    path = _name(file)
    report = FileReport(path)
    if format is AnnotateFormat.dpn:
        err = _err()
        first = True
        for game in games:
            facts = replay_game(game, reg)
            report.count += len(facts.errors)
            if any(e.code in _SYNTAX_CODES for e in game.errors):
                text = canonical_text(game, facts)
            else:
                text = write_game(annotated_game(facts))
            _emit(("" if first else "\n") + text)
            first = False
            for e in facts.errors:
                err.print(str(_located(e, game, path)), markup=False)
        raise typer.Exit(_status([report]))
    out = _out()
    symbols = symbols and (out.encoding or "").lower().startswith("utf")
    for index, game in enumerate(games, 1):
        facts = replay_game(game, reg)
        if index > 1:
            out.print()
        out.rule(game_heading(facts, index), align="left", characters="═")
        if facts.rules is not None:
            for deal in facts.deals:
                out.print()
                out.print(deal_table(deal, facts.rules, facts, symbols=symbols))
            out.print()
            out.print(game_result_text(facts))
        for note in facts.notes:
            out.print(f"note: {note}", style="dim", markup=False)
        if facts.errors:
            out.print()
            out.print(f"{_plural(len(facts.errors), 'error')}:", style="bold red")
            for e in facts.errors:
                out.print(error_text(_located(e, game, path), path))
        report.count += len(facts.errors)
    raise typer.Exit(_status([report]))


# ---- replay --------------------------------------------------------------------------------------

def _load_game(spec: str, number: int, reg: Registry) -> GameFacts:
    games = _open_games(spec)
    count = 0
    for game in games:
        count += 1
        if count == number:
            return replay_game(game, reg)
    raise _fail(f"{_name(spec)} has {_plural(count, 'game')}: there is no game {number}")


@app.command()
def replay(
    file: str = typer.Argument(..., metavar="FILE", help="A DPN file."),
    game: int = typer.Option(1, "--game", "-g", min=1, help="Which game of the file (from 1)."),
    deal: Optional[int] = typer.Option(None, "--deal", "-d", min=1, help="Start at this deal."),
    trick: Optional[int] = typer.Option(None, "--trick", "-t", min=1,
                                        help="Start at the end of this trick."),
    plain: bool = typer.Option(False, "--plain", help="Print the steps as text, even on a terminal."),
    symbols: bool = typer.Option(True, "--symbols/--letters", help="Suits as ♠♥♦♣ or as S H D C."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Step through a game in the terminal, card by card.

    Forward and back by card, trick and deal: the four hands, the trick, the centre pile,
    each side's captured pile and tens, trump, dealer, the run of consecutive wins.

    Keys: → n / ← p card, ↓ N / ↑ P trick, ] [ deal, t then a number: trick, ? help, q quit.
    When standard output is not a terminal (or with --plain) the steps are printed as text;
    --deal and --trick then limit what is printed.

    Example: dehlanote replay samples/worked-example.dpn --trick 2
    """
    if file == STDIN:
        raise _fail("replay reads its keys from the terminal: give it a file, not standard input")
    reg = _registry(rules)
    facts = _load_game(file, game, reg)
    err = _err()
    if facts.rules is None or not facts.deals:
        for e in facts.errors:
            err.print(str(_located(e, facts.game, file)), markup=False)
        raise _fail(f"game {game} of {file} has no deal that can be replayed", Exit.INVALID)
    if facts.errors:
        err.print(f"dehlanote: game {game} has {_plural(len(facts.errors), 'error')}; "
                  f"showing what could be replayed (dehlanote validate {escape(file)} lists them)",
                  markup=False)
    stepper = Stepper(facts.deals, facts.rules)
    if deal is not None and not stepper.goto(deal):
        raise _fail(f"game {game} has no deal {deal} (deals {facts.deals[0].number} to {facts.deals[-1].number})")
    if trick is not None and not stepper.jump(trick):
        raise _fail(f"deal {stepper.deals[stepper.deal].number} has no trick {trick}")
    interactive = not plain and sys.stdin.isatty() and sys.stdout.isatty()
    if interactive:
        _interactive(stepper, facts, symbols)
    else:
        _plain_replay(stepper, facts, only_deal=deal is not None, only_trick=trick)
    raise typer.Exit(Exit.OK)


def _plain_replay(stepper: Stepper, facts: GameFacts, *, only_deal: bool, only_trick: Optional[int]) -> None:
    out = _out(soft_wrap=True)
    rules = facts.rules
    assert rules is not None
    indexes = [stepper.deal] if only_deal or only_trick is not None else range(len(stepper.deals))
    for n, i in enumerate(indexes):
        d = stepper.deals[i]
        snaps = snapshots(d, rules)
        if n:
            out.print()
        out.print(deal_heading(d), markup=False, style="bold")
        if only_trick is None:
            out.print("  hands:", markup=False)
            for line in plain_hands(snaps[0], rules):
                out.print("  " + line, markup=False)
        for snap in snaps[1:]:
            t = snap.trick
            if t is None or (only_trick is not None and t.number != only_trick):
                continue
            if len(snap.shown) == 1:
                out.print(f" trick {t.number}, {t.leader} leads", markup=False)
            for line in plain_step_lines(snap, rules):
                out.print(line, markup=False)
        if only_trick is None:
            for line in deal_result_text(d, rules, facts if i == len(stepper.deals) - 1 else None):
                out.print(f"  {line}", markup=False)


# -- the interactive stepper --

_KEYS = {
    b"\x1b[C": "next", b"\x1bOC": "next", b"n": "next", b"l": "next", b" ": "next",
    b"\x1b[D": "prev", b"\x1bOD": "prev", b"p": "prev", b"h": "prev",
    b"\x1b[B": "next-trick", b"\x1bOB": "next-trick", b"N": "next-trick", b"j": "next-trick",
    b"\x1b[A": "prev-trick", b"\x1bOA": "prev-trick", b"P": "prev-trick", b"k": "prev-trick",
    b"]": "next-deal", b"[": "prev-deal", b"\x1b[6~": "next-deal", b"\x1b[5~": "prev-deal",
    b"g": "start", b"\x1b[H": "start", b"G": "end", b"\x1b[F": "end",
    b"t": "jump", b"?": "help", b"q": "quit", b"Q": "quit", b"\x03": "quit", b"\x04": "quit",
    b"\r": "enter", b"\n": "enter", b"\x1b": "escape", b"\x7f": "backspace", b"\x08": "backspace",
}


def _read_key(fd: int, timeout: float) -> Optional[bytes]:
    """One key press (an escape sequence counts as one), or None after ``timeout`` seconds."""
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return None
    data = os.read(fd, 1)
    if data != b"\x1b":
        return data
    # an escape sequence arrives at once; a lone Esc does not continue
    while True:
        more, _, _ = select.select([fd], [], [], 0.03)
        if not more:
            return data
        data += os.read(fd, 1)
        if len(data) >= 3 and (data[-1:].isalpha() or data[-1:] == b"~"):
            return data
        if len(data) > 8:
            return data


def _interactive(stepper: Stepper, facts: GameFacts, symbols: bool) -> None:
    """Run the stepper in the terminal until q or Ctrl-C; the terminal is always restored."""
    import termios
    import tty

    console = Console(highlight=False)
    symbols = symbols and (console.encoding or "").lower().startswith("utf")
    rules = facts.rules
    assert rules is not None
    names = {s: facts.game.tag(s) for s in "ABCDEF" if facts.game.tag(s)}
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    old_term = signal.getsignal(signal.SIGTERM)
    old_hup = signal.getsignal(signal.SIGHUP)

    def stop(signum, frame):  # noqa: ARG001 - a signal handler's signature
        raise SystemExit(128 + signum)

    state = {"help": False, "prompt": None, "message": None}
    try:
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGHUP, stop)
        tty.setcbreak(fd, termios.TCSANOW)
        with console.screen(hide_cursor=True) as screen:
            size = None
            dirty = True
            while True:
                if dirty or console.size != size:
                    size = console.size
                    where = (f"{facts.game.tag('Event') or 'Game'} · " if facts.game.tag("Event") else "") \
                        + stepper.where()
                    screen.update(stepper_screen(
                        stepper.snap, rules, names=names, where=where, symbols=symbols,
                        help_shown=state["help"], prompt=state["prompt"], message=state["message"]))
                    dirty = False
                key = _read_key(fd, 0.25)
                if key is None:
                    continue
                dirty = True
                if _handle_key(key, stepper, state):
                    break
    except KeyboardInterrupt:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        signal.signal(signal.SIGTERM, old_term)
        signal.signal(signal.SIGHUP, old_hup)


def _handle_key(key: bytes, stepper: Stepper, state: dict) -> bool:
    """Apply one key to the stepper; True to quit."""
    action = _KEYS.get(key)
    state["message"] = None
    if state["prompt"] is not None:
        digits = state["prompt"]
        if key.isdigit():
            state["prompt"] = (digits + key.decode())[-3:]
        elif action == "backspace":
            state["prompt"] = digits[:-1]
        elif action == "enter":
            state["prompt"] = None
            if digits and not stepper.jump(int(digits)):
                state["message"] = f"this deal has no trick {digits}"
        elif action in ("escape", "quit") or key == b"t":
            state["prompt"] = None
        return False
    if action == "quit":
        return True
    if action == "help":
        state["help"] = not state["help"]
        return False
    if action == "escape":
        state["help"] = False
        return False
    if action == "jump":
        state["prompt"] = ""
        return False
    if key.isdigit():
        state["prompt"] = key.decode()
        return False
    moves = {
        "next": stepper.next_card, "prev": stepper.prev_card, "next-trick": stepper.next_trick,
        "prev-trick": stepper.prev_trick, "next-deal": stepper.next_deal, "prev-deal": stepper.prev_deal,
        "start": stepper.start, "end": stepper.end,
    }
    move = moves.get(action or "")
    if move is None:
        state["message"] = "press ? for the keys"
    elif not move():
        state["message"] = "the end of the record" if action and action.startswith("next") else \
            "the start of the record"
    return False


# ---- entry point -----------------------------------------------------------------------------------

def main(argv: Optional[list[str]] = None) -> None:
    """The ``dehlanote`` console script."""
    try:
        app(args=argv, prog_name="dehlanote")
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":  # pragma: no cover
    main()
