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
from ._launch import FALLBACKS, _fallback, _plain_fallbacks, guarded  # noqa: F401
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
    ``head`` expects); see :func:`dehlanote._launch.guarded`.
    """
    guarded(lambda: app(args=argv, prog_name="dehlanote"))


if __name__ == "__main__":
    main()
