"""The ``dehlanote`` command line: the Typer application and the table of its commands.

The commands themselves live in :mod:`dehlanote.commands`, one module a command, each a
plain function with its Typer parameters; this module registers them on ``app`` and is the
console script's entry (:func:`main`). Exit statuses: 0 all valid, 1 some record has errors,
2 a usage problem or a file that cannot be read. To add a command: a module in
``dehlanote/commands/`` with its function, named with its module in ``COMMANDS`` below
(a module may instead hold a group, a ``typer.Typer`` of sub-commands, added with
``app.add_typer``; the console script imports only the module of the command it runs, so a command module
imports its heavy libraries inside the command function; tests/cli/test_startup.py checks
the table).
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any, Callable, Optional, Sequence

import typer

from .version import __version__
from .commands.common import OutputFailed
from .commands.plainhelp import PlainCommand, PlainGroup

__all__ = ["COMMANDS", "app", "main"]

#: each command's name, the module of dehlanote.commands that holds it and its function
COMMANDS: dict[str, tuple[str, str]] = {
    "annotate": ("annotate", "annotate"), "db": ("db", "db_app"),
    "fmt": ("fmt", "fmt"), "generate": ("generate", "generate_command"),
    "html": ("html", "html_command"), "image": ("image", "image_command"), "json": ("json_cmd", "json_command"),
    "lsp": ("lsp", "lsp_command"),
    "record": ("record", "record_command"), "replay": ("replay", "replay"), "review": ("review", "review_command"),
    "rules": ("rules", "rules_command"),
    "serve": ("serve", "serve_command"), "share": ("share", "share_command"), "solve": ("solve", "solve"),
    "stats": ("stats", "stats_command"),
    "validate": ("validate", "validate"),
}


class _Typer(typer.Typer):
    """A Typer app whose commands show plain metavars in --help (see :mod:`.plainhelp`)."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
        kwargs.setdefault("cls", PlainCommand)
        return super().command(*args, **kwargs)


app = _Typer(
    cls=PlainGroup,
    name="dehlanote",
    help="Record and check Dehla Pakad games in DPN, the Dehla Pakad Notation.\n\n"
         "Example: dehlanote validate samples/*.dpn",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"dehlanote {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                 help="Show the version and exit."),
) -> None:
    """Record and check Dehla Pakad games in DPN, the Dehla Pakad Notation.

    Example: dehlanote validate samples/*.dpn
    """



def command_modules(argv: Optional[Sequence[str]]) -> list[str]:
    """The commands a command line needs: only the named command when it names one
    (``dehlanote validate ...``: the group's options take no value), none for ``--version``,
    else all of them (``--help`` lists every command; a misspelt one is answered with the
    names)."""
    for arg in argv or ():
        if not arg.startswith("-"):
            return [arg] if arg in COMMANDS else sorted(COMMANDS)
        if arg in ("-V", "--version"):
            return []
        if arg in ("-h", "--help") or arg.startswith("--install") or arg.startswith("--show"):
            break
    return sorted(COMMANDS)


_registered: set[str] = set()


def _register(argv: Optional[Sequence[str]]) -> None:
    for name in command_modules(argv):
        if name in _registered:
            continue
        module, function = COMMANDS[name]
        command = getattr(importlib.import_module(f".commands.{module}", __package__), function)
        if isinstance(command, typer.Typer):    # a group of commands (dehlanote db build, db query)
            app.add_typer(command, name=name)
        else:
            app.command(name)(command)
        _registered.add(name)


# The console script (dehlanote._entry) names the command line it runs before this module
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
    _plain_fallbacks()
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


#: what a character the terminal's encoding lacks is written as, one character for one so that
#: tables keep their columns (anything else: ?)
FALLBACKS = {
    "\u00b7": ".", "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2192": ">", "\u2190": "<", "\u2191": "^",
    "\u2193": "v", "\u2022": "*", "\u2026": ".", "\u00d7": "x", "\u2018": "'", "\u2019": "'", "\u201c": '"',
    "\u201d": '"', "\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C", "\u2664": "S", "\u2661": "H",
    "\u2662": "D", "\u2667": "C", "\u2713": "v", "\u2717": "x", "\u25b6": ">", "\u25c0": "<", "\u2588": "#",
    "\u2591": ".", "\u2592": ":", "\u2593": "#", "\u2500": "-", "\u2501": "-", "\u2502": "|", "\u2503": "|",
    "\u2550": "=", "\u2551": "|", "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\ufffd": "?", "\u2264": "<",
    "\u2265": ">",
}


def _fallback(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start:error.end]
    out = []
    for ch in bad:
        if ch in FALLBACKS:
            out.append(FALLBACKS[ch])
        elif "\u2500" <= ch <= "\u257f":
            out.append("+")             # box corners and joints
        else:
            out.append("?")
    return "".join(out), error.end


def _plain_fallbacks() -> None:
    """On a terminal whose encoding lacks ``·``, ``–``, ``→``, ``•``, the suits ... (Latin-1,
    ASCII: ``PYTHONIOENCODING=latin-1``, ``LANG=C`` on an old system), write plain stand-ins
    (``.``, ``-``, ``->``, ``*``, ``S``) instead of ending in UnicodeEncodeError."""
    import codecs
    codecs.register_error("dehlanote-plain", _fallback)
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
        if stream is None or encoding in ("utf-8", "utf8", "utf-16", "utf-32") or not hasattr(stream, "reconfigure"):
            continue
        try:
            stream.reconfigure(errors="dehlanote-plain")
        except (ValueError, OSError):   # pragma: no cover - a stream that cannot be reconfigured
            pass


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
    from .files import silence
    try:
        silence(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    main()
