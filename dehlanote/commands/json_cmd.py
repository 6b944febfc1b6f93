"""``dehlanote json``: records as dpn-json/1."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .common import RULES_OPTION, output_path
from .jsoning import run


def json_command(
    files: list[str] = typer.Argument(..., metavar="FILE...",
                                      help="DPN files or glob patterns; - reads standard input."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", parser=output_path, metavar="OUT.json",
                                          help="Write to this file instead of standard output."),
    compact: bool = typer.Option(False, "--compact", help="One line, no indentation."),
    force: bool = typer.Option(False, "--force", help="With -o, replace a read-only file too."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Convert records to JSON (dpn-json/1).

    Every game is written with its replayed facts and its errors. A game with errors is
    still written, with its errors in "errors". Several files (or a glob) make one document,
    their games one after the other. Written deal by deal: a game of thousands of deals
    needs the memory of one.
    Exit status: 0, or 1 when a game has errors, 2 when a file cannot be read.

    Example: dehlanote json samples/worked-example.dpn -o worked.json
    """
    # (the work is jsoning.run's, which the console script also calls without Typer)
    raise typer.Exit(run(files, output, compact, force, rules))
