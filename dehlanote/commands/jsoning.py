"""The work of ``dehlanote json``, without the command line's library.

:func:`run` is what the command does once its options are read: the Typer command
(:mod:`.json_cmd`) calls it, and so does the console script's direct path for a plain
``dehlanote json [--compact] [--force] [-o OUT] FILE...`` (``dehlanote._launch``), which reads
those options itself and never loads typer (a third of a one-deal run's start). Nothing here
imports typer.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Optional

from ..files import OutputRefused
from ..output.jsonstream import write_document
from .common import (Exit, emit, expand, fail, load_registry, open_games, refuse_input_output, replacing,
                     spare_collector, why)

__all__ = ["JOIN_CHARS", "run"]

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


def run(files: list[str], output: Optional[Path] = None, compact: bool = False, force: bool = False,
        rules: Optional[Path] = None) -> int:
    """Write ``files`` as ``dehlanote json`` does, the options as the command reads them; the
    exit status (0 every game valid, 1 some game with errors). A usage problem, a file that
    cannot be read or written raises what :func:`~dehlanote.commands.common.fail` makes."""
    reg = load_registry(rules)
    spare_collector()
    specs = expand(files)
    if output is not None:
        refuse_input_output(output, [*specs, rules])
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
    return Exit.OK if valid else Exit.INVALID
