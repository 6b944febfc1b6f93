"""``dehlanote fmt``: canonical DPN, checked or written in place."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.console import Console
from rich.markup import escape

from ..analysis.judge import claim_judge
from ..batch.check import records_of
from ..files import OutputRefused, named_spool, snapshot
from ..replay import as_written, explicit, replay_game
from ..syntax.writer import reads_back
from ..rules.profile import Registry
from ..syntax.model import Loose
from .common import (
    RULES_OPTION,
    STDIN,
    DpnOut,
    FileReport,
    canonical_text,
    display_name,
    err_console,
    exit_status,
    expand,
    fail,
    load_registry,
    out_console,
    plural,
    replacing,
    validate_hint,
    why,
)


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


class NotReadBack(Exception):
    """The canonical text of a game would not read back as the same game."""


def _canonical_pieces(spec: str, reg: Registry, report: FileReport) -> Iterator[str]:
    """The canonical text of each game, each checked to read back as the same game (a
    game whose canonical text would not is written as it was, and NotReadBack raised
    at the end, for --write to refuse the file)."""
    first = True
    lost: list[int] = []
    for game in records_of(spec):
        if isinstance(game, Loose):        # comments alone, in no game: kept as written
            yield ("" if first else "\n") + game.text + "\n"
            first = False
            continue
        facts = replay_game(game, reg, judge=claim_judge)
        report.games += 1
        report.deals += len(game.deals)
        report.count += len(facts.errors)
        text = canonical_text(game, facts)
        if not facts.errors and not game.errors and not reads_back(explicit(facts), text):
            lost.append(report.games)
            text = as_written(game.source or text)
        yield ("" if first else "\n") + text
        first = False
    if lost:
        raise NotReadBack(f"the canonical form of game {', '.join(map(str, lost))} would not read back as the "
                          "same record (a bug: please report it), so it is written as it was")


def fmt(
    files: list[str] = typer.Argument(..., metavar="FILE", help="DPN files; - reads standard input."),
    check: bool = typer.Option(False, "--check", help="Write nothing; list the files that are not canonical "
                                                     "and exit 1 if there are any."),
    write: bool = typer.Option(False, "--write", "-w", help="Rewrite each file in place (not files whose "
                                                           "games have errors)."),
    force: bool = typer.Option(False, "--force", help="With --write, rewrite read-only files too."),
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
        raise fail("use --check or --write, not both")
    specs = expand(files)
    if write and STDIN in specs:
        raise fail("--write rewrites files in place: it cannot rewrite standard input")
    reg = load_registry(rules)
    err = err_console()
    out = out_console(soft_wrap=True)
    reports: list[FileReport] = []
    changed: list[str] = []
    wrote = False           # games already written: the next file's first game needs a blank line
    dpn = DpnOut()          # in colour on a terminal
    for spec in specs:
        report = FileReport(display_name(spec))
        reports.append(report)
        try:
            if check or write:
                same = _fmt_file(spec, reg, report, write, err, force)
                if not same:
                    changed.append(report.path)
            else:
                # a blank line between one file's text and the next's, whatever each begins
                # with (comments alone after another file's game stuck to its last line, and
                # read back as that line's comment)
                for index, piece in enumerate(_canonical_pieces(spec, reg, report)):
                    dpn(("\n" if wrote and index == 0 else "") + piece)
                    wrote = True
                dpn.close()
        except (OutputRefused, NotReadBack) as exc:
            report.unreadable = str(exc)
            verb = "rewrite" if write else "format"
            err.print(f"dehlanote: will not {verb} {escape(report.path)}: {escape(str(exc))}"
                      + (" (the file is unchanged)" if write else ""))
            continue
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            report.unreadable = why(exc)
            # --write replaces a file only once its new text is whole: a failure leaves it as it was
            verb = "rewrite" if write and os.path.isfile(spec) else "read"
            err.print(f"dehlanote: cannot {verb} {escape(report.path)}: {escape(report.unreadable)}"
                      + (" (the file is unchanged)" if verb == "rewrite" else ""))
            continue
        if report.count and check:
            # --check writes nothing: it says why the file fails the check
            err.print(f"{escape(report.path)}: {plural(report.count, 'error')}, so it is not canonical "
                      f"DPN ({escape(validate_hint(spec))} lists them)")
        elif report.count and not write:
            err.print(f"{escape(report.path)}: {plural(report.count, 'error')}: games with errors are "
                      f"written as they are ({escape(validate_hint(spec))} lists them)")
    dpn.close()
    readable = [r for r in reports if r.unreadable is None]
    if check:
        # a file with errors is not canonical, and --write leaves it untouched: it is said apart
        # (above, and counted below), never "would reformat" (the count said 0 files would be)
        erred = {r.path for r in reports if r.count}
        for path in changed:
            if path not in erred:
                out.print(f"would reformat {path}", markup=False)
        with_errors = sum(1 for r in readable if r.count)
        n = len([p for p in changed if p not in erred])
        canonical = len(readable) - n - with_errors
        out.print((f"{plural(n, 'file')} would be reformatted, {canonical} already canonical"
                   if n or with_errors else f"{plural(len(readable), 'file')} already canonical")
                  + (f", {plural(with_errors, 'file')} with errors (not canonical)" if with_errors else ""),
                  markup=False)
        status = exit_status(reports, lambda r: r.count > 0 or r.path in changed)
    elif write:
        done = [p for p in changed if not any(r.path == p and r.count for r in reports)]
        out.print(f"{plural(len(done), 'file')} reformatted, "
                  f"{len([r for r in readable if r.path not in changed and not r.count])} already canonical"
                  + (f", {plural(sum(1 for r in readable if r.count), 'file')} with errors left untouched"
                     if any(r.count for r in readable) else ""), markup=False)
        status = exit_status(reports)
    else:
        status = exit_status(reports)
    raise typer.Exit(status)


def _fmt_file(spec: str, reg: Registry, report: FileReport, write: bool, err: Console,
              force: bool = False) -> bool:
    """Compare (and with ``write`` replace) one file with its canonical form; True if it was canonical."""
    if spec == STDIN:
        # standard input is read twice (games, then bytes to compare): spool it to a file first
        with named_spool(".dpn") as (spool, name):
            shutil.copyfileobj(sys.stdin.buffer, spool)
            spool.flush()
            return _fmt_file(name, reg, report, False, err)
    compare = _Compare(spec)
    try:
        if not write:
            for piece in _canonical_pieces(spec, reg, report):
                compare.feed(piece)
            return compare.close()
        if not os.path.isfile(spec):
            raise OutputRefused("it is not a regular file (--write rewrites files)")
        before = snapshot(spec)     # an editor's save while fmt runs is not overwritten
        try:
            with replacing(Path(spec), force=force, expect=before) as stream:
                for piece in _canonical_pieces(spec, reg, report):
                    compare.feed(piece)
                    stream.write(piece)
                same = compare.close()
                if same or report.count:
                    raise _Keep()
        except _Keep:
            if report.count:
                err.print(f"{escape(report.path)}: left untouched: {plural(report.count, 'error')} "
                          f"({escape(validate_hint(spec))} lists them)")
            return same
        out_console(soft_wrap=True).print(f"reformatted {report.path}", markup=False)
        return False
    finally:
        if not compare.stream.closed:
            compare.stream.close()


class _Keep(Exception):
    """Raised inside a replacement to keep the original file."""


