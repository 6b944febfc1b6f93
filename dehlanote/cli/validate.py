"""``dehlanote validate``: check records against their rules."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from ..errors import DpnError
from ..output import jsonout
from ..output.render import (
    error_text,
)
from .app import app
from .common import (
    PROGRESS_MIN_FILES,
    RULES_OPTION,
    STDIN,
    FileReport,
    OutputFormat,
    check_file,
    emit,
    err_console,
    exit_status,
    expand,
    fail,
    load_registry,
    out_console,
    print_summary,
    progress_bar,
)


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

    Every card, trick, deal and claim is checked under each game's rules. Prints
    path:line:col: code: message for each error, then a summary.
    Exit status: 0 all valid, 1 some invalid, 2 usage or an unreadable file.

    Example: dehlanote validate samples/*.dpn
    """
    reg = load_registry(rules)
    specs = expand(files)
    if specs.count(STDIN) > 1:
        raise fail("standard input (-) can be read only once")
    out = stdout_console = out_console(soft_wrap=True)
    errors_to = err_console()
    as_json = format is OutputFormat.json
    show = progress if progress is not None else (sys.stderr.isatty() and len(specs) >= PROGRESS_MIN_FILES)
    reports: list[FileReport] = []

    def print_error(err: DpnError) -> None:
        if brief:
            out.print(str(err), markup=False)
        else:
            out.print(error_text(err, err.path or ""))

    with progress_bar(len(specs), show) as (step, above):
        if above is not None:
            errors_to = above
            if sys.stdout.isatty():
                out = above     # the same terminal: print above the bar
        for spec in specs:
            step(spec)
            report = check_file(spec, reg, None if as_json else print_error, keep=as_json,
                                jobs=jobs or os.cpu_count() or 1, rules_file=rules)
            if report.unreadable is not None:
                errors_to.print(f"dehlanote: cannot read {escape(report.path)}: {escape(report.unreadable)}",
                                  style="red" if sys.stderr.isatty() else None)
            reports.append(report)
            step(None)
    if as_json:
        emit(jsonout.dumps({"files": [r.json() for r in reports]}) + "\n")
    else:
        print_summary(stdout_console, reports)
    raise typer.Exit(exit_status(reports))

