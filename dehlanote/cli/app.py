"""The Typer application every command registers on."""

from __future__ import annotations

from typing import Any, Callable

import typer

from .. import __version__
from .plainhelp import PlainCommand, PlainGroup


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

