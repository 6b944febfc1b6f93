"""``dehlanote json``: records as dpn-json/1."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..output.files import OutputRefused
from ..replay import replay_game
from .app import app
from .common import (
    RULES_OPTION,
    Exit,
    emit,
    fail,
    load_registry,
    open_games,
    replacing,
    why,
    write_document,
)


@app.command("json")
def json_command(
    file: str = typer.Argument(..., metavar="FILE", help="A DPN file; - reads standard input."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="OUT.json",
                                          help="Write to this file instead of standard output."),
    compact: bool = typer.Option(False, "--compact", help="One line, no indentation."),
    force: bool = typer.Option(False, "--force", help="With -o, replace a read-only file too."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Convert a record to JSON (dpn-json/1).

    Every game is written with its replayed facts and its errors. A game with errors is
    still written, with its errors in "errors".
    Exit status: 0, or 1 when a game has errors, 2 when the file cannot be read.

    Example: dehlanote json samples/worked-example.dpn -o worked.json
    """
    reg = load_registry(rules)
    games = open_games(file)
    facts = (replay_game(g, reg) for g in games)
    indent = None if compact else 2
    if output is None:
        valid = write_document(emit, facts, indent=indent)
    else:
        try:
            with replacing(output, force=force) as stream:
                valid = write_document(stream.write, facts, indent=indent)
        except OutputRefused as exc:
            raise fail(f"will not write {output}: {exc}")
        except OSError as exc:
            raise fail(f"cannot write {output}: {why(exc)}")
    raise typer.Exit(Exit.OK if valid else Exit.INVALID)


