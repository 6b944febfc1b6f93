"""The work of ``dehlanote validate``, without the command line's library.

:func:`run` is what the command does once its options are read: the Typer command
(:mod:`.validate`) calls it, and so does the console script's direct path for a plain
``dehlanote validate FILE...`` (``dehlanote._launch``), which reads those options itself
and never loads typer (about 35 ms of a one-file run's start). Nothing here imports typer.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Optional

from ..errors import DpnError
from .common import (
    PROGRESS_MIN_FILES,
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
    load_registry,
    out_console,
    plural,
    print_summary,
    progress_bar,
    spare_collector,
)

__all__ = ["MAX_ERRORS", "run"]

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


def run(files: list[str], format: OutputFormat = OutputFormat.text, brief: bool = False,
        progress: Optional[bool] = None, rules: Optional[Path] = None, jobs: int = 0, force_jobs: bool = False,
        max_errors: int = MAX_ERRORS) -> int:
    """Check ``files`` as ``dehlanote validate`` does, the options as the command reads them;
    the exit status (0 all valid, 1 some invalid). A usage problem or an unreadable rules
    file raises what :func:`~dehlanote.commands.common.fail` makes."""
    reg = load_registry(rules)
    spare_collector()
    cores = os.cpu_count() or 1
    jobs = jobs or cores
    if jobs > cores and not force_jobs:
        jobs = cores        # more workers than cores only cost memory (32 workers: 1.1 GB)
    specs = expand(files)
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
    return exit_status(reports)

