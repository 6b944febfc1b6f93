"""The ``dehlanote`` command line: a thin layer over the library.

One module per command (``validate``, ``json_cmd``, ``fmt``, ``rules``, ``annotate``,
``replay``, ...), each registering on the Typer ``app`` of :mod:`.app`; what they share is
in :mod:`.common`. Exit statuses: 0 all valid, 1 some record has errors, 2 a usage problem
or a file that cannot be read. To add a command: a new module here with an
``@app.command()`` function, imported below.
"""

from __future__ import annotations

import os
import sys
from typing import Optional

from . import annotate, fmt, generate, html, json_cmd, record, replay, rules, solve, stats, validate  # noqa: F401,E402 (they register commands)
from .app import app

__all__ = ["app", "main"]


def main(argv: Optional[list[str]] = None) -> None:
    """The ``dehlanote`` console script."""
    try:
        app(args=argv, prog_name="dehlanote")
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
