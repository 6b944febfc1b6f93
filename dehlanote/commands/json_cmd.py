"""``dehlanote json``: records as dpn-json/1."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Optional

import typer

from ..files import OutputRefused
from ..output.jsonstream import write_document
from .common import (
    RULES_OPTION,
    Exit,
    emit,
    fail,
    load_registry,
    STDIN,
    expand,
    open_games,
    replacing,
    spare_collector,
    why,
)


#: characters of JSON gathered before they are written (the writer gives a few per deal)
JOIN_CHARS = 1 << 16


@contextmanager
def _joined(write: Callable[[str], object]) -> Iterator[Callable[[str], None]]:
    """``write`` called with the pieces given to the writer it yields, joined into blocks of
    about JOIN_CHARS characters (73,000 writes for 5,000 deals become a few hundred). What
    is gathered is written when the block ends normally; after an error it is dropped with
    the rest of the document."""
    parts: list[str] = []
    size = 0

    def add(text: str) -> None:
        nonlocal size
        parts.append(text)
        size += len(text)
        if size >= JOIN_CHARS:
            write("".join(parts))
            parts.clear()
            size = 0

    yield add
    if parts:
        write("".join(parts))


def json_command(
    files: list[str] = typer.Argument(..., metavar="FILE...",
                                      help="DPN files or glob patterns; - reads standard input."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="OUT.json",
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
    reg = load_registry(rules)
    spare_collector()
    specs = expand(files)
    if specs.count(STDIN) > 1:
        raise fail("standard input (-) can be read only once")
    # every file is opened (and its first game read) before anything is written
    opened = [open_games(spec) for spec in specs]
    games = (game for source in opened for game in source)
    indent = None if compact else 2
    if output is None:
        with _joined(emit) as write:
            valid = write_document(write, games, reg, indent=indent)
    else:
        try:
            with replacing(output, force=force) as stream, _joined(stream.write) as write:
                valid = write_document(write, games, reg, indent=indent)
        except OutputRefused as exc:
            raise fail(f"will not write {output}: {exc}")
        except OSError as exc:
            raise fail(f"cannot write {output}: {why(exc)}")
    raise typer.Exit(Exit.OK if valid else Exit.INVALID)
