"""``dehlanote rules``: the rule profiles and options."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import DpnError
from ..output.rules_view import (
    profile_view,
    rules_listing,
)
from .common import (
    RULES_OPTION,
    PROSE_WIDTH,
    Exit,
    fail,
    load_registry,
    TextOut,
)


def _complete_name(incomplete: str) -> list[str]:
    """Shell completion of NAME: the package's profiles and options."""
    from ..rules.profile import registry

    reg = registry()
    names = list(reg.profiles) + list(reg.options)
    return [n for n in names if n.startswith(incomplete)]


def rules_command(
    name: Optional[str] = typer.Argument(None, metavar="NAME", autocompletion=_complete_name,
                                         help='A profile, optionally with options: "pagat kots=3".'),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """List the rule profiles and options, or show one.

    With NAME: the profile's parameters, its source and the decisions taken for it.

    An option on its own (six-player, trump=closed) is shown on the standard profile.

    Example: dehlanote rules hukum
    """
    reg = load_registry(rules)
    out = TextOut(pipe_width=PROSE_WIDTH)     # descriptions are sentences: wrapped, also when piped
    if name is None:
        out.print(rules_listing(reg))
        raise typer.Exit(Exit.OK)
    label = " ".join(name.split())
    if not label:
        # (it showed standard; then, the rules being empty, a sentence about a Rules tag)
        known = ", ".join(sorted(reg.profiles))
        raise fail(f"the profile's name is empty: give one ({known}), or none for the list "
                   "(is a shell variable unset?)")
    first = label.split(" ")[0].partition("=")[0]
    if first not in reg.profiles and first in reg.options:
        # an option on its own: show what it does to the default profile
        label = f"standard {label}"
    try:
        resolved = reg.resolve(label)
    except DpnError as exc:
        raise fail(exc.message)
    out.print(profile_view(resolved, label, reg))


