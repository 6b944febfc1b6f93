"""``dehlanote validate``: check records against their rules."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from ..errors import DpnError
from .common import (
    PROGRESS_MIN_FILES,
    RULES_OPTION,
    STDIN,
    FileReport,
    LazyConsole,
    OutputFormat,
    check_file,
    display_name,
    emit,
    err_console,
    exit_status,
    expand,
    fail,
    load_registry,
    out_console,
    plural,
    print_summary,
    progress_bar,
    spare_collector,
)


#: errors shown per file unless --max-errors says otherwise (a binary file or a broken
#: archive printed hundreds of megabytes)
MAX_ERRORS = 200


def _size(spec: str) -> int:
    """A file's size for the progress bar (0 for standard input or what cannot be read)."""
    if spec == STDIN:
        return 0
    try:
        return os.path.getsize(spec)
    except OSError:
        return 0


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
                                  "boundaries; 0 (the default): one per core, and never more than the "
                                  "cores. The output is the same as with --jobs 1."),
    force_jobs: bool = typer.Option(False, "--force-jobs", help="Start --jobs N workers even beyond the cores."),
    max_errors: int = typer.Option(MAX_ERRORS, "--max-errors", min=0, metavar="N",
                                   help="Show at most N errors per file, then how many more (0: all). "
                                        "The summary and --format json count them all."),
) -> None:
    """Check records against their rules and list every error.

    Every card, trick, deal and claim is checked under each game's rules. Prints
    path:line:col: code: message for each error, then a summary.
    Exit status: 0 all valid, 1 some invalid, 2 usage or an unreadable file.

    Example: dehlanote validate samples/*.dpn
    """
    reg = load_registry(rules)
    spare_collector()
    cores = os.cpu_count() or 1
    jobs = jobs or cores
    if jobs > cores and not force_jobs:
        jobs = cores        # more workers than cores only cost memory (32 workers: 1.1 GB)
    specs = expand(files)
    if specs.count(STDIN) > 1:
        raise fail("standard input (-) can be read only once")
    # (made on first use: a piped run whose files have no errors writes its summary without Rich)
    out: Any = LazyConsole(lambda: out_console(soft_wrap=True))
    stdout_console = out
    errors_to: Any = LazyConsole(err_console)
    as_json = format is OutputFormat.json
    show = progress if progress is not None else (sys.stderr.isatty() and len(specs) >= PROGRESS_MIN_FILES)
    reports: list[FileReport] = []

    shown = [0]     # errors shown of the current file

    def print_error(err: DpnError) -> None:
        shown[0] += 1
        if max_errors and shown[0] > max_errors:
            return
        if brief:
            out.print(str(err), markup=False)
        else:
            from ..output.render import error_text
            out.print(error_text(err, err.path or ""))

    sizes = [_size(spec) for spec in specs]
    with progress_bar(sum(sizes), show) as (meter, above):
        if above is not None:
            errors_to = above
            if sys.stdout.isatty():
                out = above     # the same terminal: print above the bar
        for spec, size in zip(specs, sizes):
            meter.file(display_name(spec), size)
            shown[0] = 0
            report = check_file(spec, reg, None if as_json else print_error, keep=as_json,
                                jobs=jobs, rules_file=rules, on_bytes=meter.read if show else None)
            if report.unreadable is not None:
                from rich.markup import escape
                verb = "stopped checking" if report.stopped else "cannot read"
                errors_to.print(f"dehlanote: {verb} {escape(report.path)}: {escape(report.unreadable)}",
                                style="red" if sys.stderr.isatty() else None)
            if not as_json:
                for fact in report.ruled:     # a revoke the table ruled on: said, not counted as an error
                    out.print(f"{fact.path or report.path}:{fact.line}:{fact.column}: revoke ruled at the table: "
                              f"{fact.message}", markup=False, highlight=False)
            if not as_json and max_errors and report.count > max_errors:
                out.print(f"{report.path}: and {plural(report.count - max_errors, 'more error')} "
                          f"(--max-errors 0 shows them all)", markup=False)
            reports.append(report)
            meter.done()
    if as_json:
        from ..output import jsonout
        emit(jsonout.dumps({"files": [r.json() for r in reports]}) + "\n")
    else:
        print_summary(stdout_console, reports)
    raise typer.Exit(exit_status(reports))

