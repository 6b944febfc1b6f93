"""The ``dehlanote`` command line: a thin layer over the library.

One module per command (``validate``, ``json_cmd``, ``fmt``, ``rules``, ``annotate``,
``replay``, ...), each registering on the Typer ``app`` of :mod:`.app`; what they share is
in :mod:`.common`. Exit statuses: 0 all valid, 1 some record has errors, 2 a usage problem
or a file that cannot be read. To add a command: a new module here with an
``@app.command()`` function, named with its module in ``COMMANDS`` below (the console
script imports only the module of the command it runs, so a command module imports its
heavy libraries inside the command function; tests/cli/test_startup.py checks the table).
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Optional, Sequence

from .app import app
from .common import OutputFailed

__all__ = ["COMMANDS", "app", "main"]

#: each command's name and the module here that defines it (registering it on ``app``)
COMMANDS = {
    "annotate": "annotate", "fmt": "fmt", "generate": "generate", "html": "html", "json": "json_cmd",
    "record": "record", "replay": "replay", "rules": "rules", "solve": "solve", "stats": "stats",
    "validate": "validate",
}


def command_modules(argv: Optional[Sequence[str]]) -> list[str]:
    """The command modules a command line needs: only the named command's when it names one
    (``dehlanote validate ...``: the group's options take no value), none for ``--version``,
    else all of them (``--help`` lists every command; a misspelt one is answered with the
    names)."""
    for arg in argv or ():
        if not arg.startswith("-"):
            module = COMMANDS.get(arg)
            return [module] if module is not None else sorted(set(COMMANDS.values()))
        if arg in ("-V", "--version"):
            return []
        if arg in ("-h", "--help") or arg.startswith("--install") or arg.startswith("--show"):
            break
    return sorted(set(COMMANDS.values()))


def _register(argv: Optional[Sequence[str]]) -> None:
    for module in command_modules(argv):
        importlib.import_module(f".{module}", __name__)


# The console script (dehlanote._entry) names the command line it runs before this package
# loads: only that command's module is imported (validate does not load the terminal
# stepper, the HTML pages or the solver). Imported any other way, every command is there.
_launch = getattr(sys.modules.get("dehlanote._entry"), "launching", None)
_register(_launch if _launch is not None and "_DEHLANOTE_COMPLETE" not in os.environ else None)


def main(argv: Optional[list[str]] = None) -> None:
    """The ``dehlanote`` console script: whatever happens to its output, one clear line.

    Exit statuses: those of the commands; 2 when the output cannot be written (a full
    disk, a closed standard output); 130 on Ctrl-C; 1, silently, on a broken pipe (as
    ``head`` expects).
    """
    if sys.stdout is None or not _is_open(1):
        _say("standard output is closed: send it to a file, a pipe or /dev/null")
        sys.exit(2)
    try:
        app(args=argv, prog_name="dehlanote")
    except SystemExit as exc:
        _finish(exc.code)
        raise
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except OutputFailed as exc:
        _silence_stdout()
        _say(f"cannot write the output: {exc}")
        sys.exit(2)
    except OSError as exc:
        _silence_stdout()
        _say(f"cannot write the output: {(exc.strerror or str(exc)).lower()}")
        sys.exit(2)


def _finish(code: object) -> None:
    """Flush standard output before exiting: a failure (a full disk) is said in one line,
    exit 2, rather than Python's "Exception ignored" at shutdown."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(1)
    except OSError as exc:
        _silence_stdout()
        _say(f"cannot write the output: {(exc.strerror or str(exc)).lower()}")
        sys.exit(2)


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _say(message: str) -> None:
    if sys.stderr is not None:
        try:
            print(f"dehlanote: {message}", file=sys.stderr)
        except OSError:
            pass


def _silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so that the final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
