"""The work of ``dehlanote json``, without the command line's library.

:func:`run` is what the command does once its options are read: the Typer command
(:mod:`.json_cmd`) calls it, and so does the console script's direct path for a plain
``dehlanote json [--compact] [--force] [-o OUT] FILE...`` (``dehlanote._launch``), which reads
those options itself and never loads typer (a third of a one-deal run's start). Nothing here
imports typer.
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Optional

from ..files import OutputRefused
from ..output.jsonstream import write_document
from ..batch.check import sniff
from ..syntax.model import Game, Loose
from .common import (STDIN, Exit, display_name, emit, expand, fail, load_registry, open_records,
                     refuse_input_output,
                     replacing, spare_collector, why)

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


def _looked_at(spec: str) -> "str | Iterator[Game | Loose]":
    """A regular file's name once it is known to be readable text (opened, its first bytes read,
    closed); the games of anything else, opened now (it can be read only once)."""
    if spec != STDIN:
        try:
            if stat.S_ISREG(os.stat(spec).st_mode):
                sniff(spec)
                return spec
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            raise fail(f"cannot read {display_name(spec)}: {why(exc)}")
    return open_records(spec)


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
    # every file is looked at before anything is written (one that cannot be read stops the
    # command with nothing written), then read one at a time: holding every file open at once
    # ran out of file descriptors past the limit (1,024 or 256: 'json club/*.dpn' of 300 files
    # failed, "too many open files"). A stream that can be read only once (standard input, a
    # FIFO) is opened at once, as before.
    sources = [_looked_at(spec) for spec in specs]
    games = (game for source in sources for game in (open_records(source) if isinstance(source, str) else source))
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
