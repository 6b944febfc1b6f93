"""``dehlanote validate``: check records against their rules.

The command's options, for Typer; its work is :func:`dehlanote.commands.validating.run`
(which the console script also calls directly for a plain ``validate FILE...``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .common import RULES_OPTION, OutputFormat
from .validating import MAX_ERRORS, run

__all__ = ["MAX_ERRORS", "validate"]


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
    raise typer.Exit(run(files, format=format, brief=brief, progress=progress, rules=rules, jobs=jobs,
                         force_jobs=force_jobs, max_errors=max_errors))
