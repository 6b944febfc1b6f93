"""The rule profiles for the command line (``dehlanote rules`` and ``rules NAME``): the
list of profiles and options, and one profile's parameters and decisions, as Rich renderables.
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..rules.profile import PARAMS, Option, Registry, Rules


# ---- rules -----------------------------------------------------------------------------------

def rules_listing(reg: Registry) -> RenderableType:
    """Every profile and option with its whole description (wrapped to the width, never cut)."""
    profiles = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    profiles.add_column("profile", style="bold", no_wrap=True)
    profiles.add_column("what it is")
    for name, rules in reg.profiles.items():
        profiles.add_row(name, Text(" ".join(rules.description.split())))
    options = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    options.add_column("option", style="bold", no_wrap=True)
    options.add_column("what it does")
    for name, opt in reg.options.items():
        options.add_row(_short_usage(opt), Text(" ".join(opt.description.split())))
    hint = Text('In a record: [Rules "pagat kots=3 trump=first-void-five"]. One profile: dehlanote rules NAME',
                style="dim")
    return Group(Text("Rule profiles", style="bold underline"), profiles, Text(""),
                 Text("Options", style="bold underline"), options, Text(""), hint)


def _option_usage(opt: Option) -> str:
    if opt.param is None:
        return opt.name
    if opt.choices:
        return f"{opt.name}={'|'.join(str(c) for c in opt.choices)}"
    return f"{opt.name}=N"


def _short_usage(opt: Option) -> str:
    usage = _option_usage(opt)
    return usage if len(usage) <= 24 else f"{opt.name}=METHOD"


def profile_view(rules: Rules, label: str, reg: Registry | None = None) -> RenderableType:
    """A profile's description, source, parameters and decisions; with options applied, the
    description is the profile's own (so named) and each option says what it changes (from
    ``reg``, the registry it was resolved in)."""
    params = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    params.add_column("parameter", style="bold", no_wrap=True)
    params.add_column("value", no_wrap=True)
    params.add_column("meaning", style="dim")
    for name, param in PARAMS.items():
        params.add_row(name, str(getattr(rules, name)), param.meaning)
    parts: list[RenderableType] = [Text(label, style="bold underline")]
    if rules.description:
        if rules.options:
            parts.append(Text(f"{rules.name}, before its options: ", style="bold").append(Text(rules.description)))
        else:
            parts.append(Text(rules.description))
    if rules.source:
        parts.append(Text("Source: ", style="bold").append(Text(rules.source)))
    if rules.options:
        parts.append(Text("Options applied: ", style="bold").append(
            ", ".join(k if v is True else f"{k}={v}" for k, v in rules.options)))
        known = reg.options if reg is not None else {}
        changes = Table.grid(padding=(0, 1))
        changes.add_column(no_wrap=True)
        changes.add_column()
        for k, v in rules.options:
            opt = known.get(k)
            if opt is not None and opt.description:
                changes.add_row("•", Text(k if v is True else f"{k}={v}", style="bold").append(
                    Text(": " + " ".join(opt.description.split()), style="")))
        if changes.row_count:
            parts.append(changes)
    parts += [Text(""), params]
    if rules.decisions:
        decisions = Table.grid(padding=(0, 1))
        decisions.add_column(no_wrap=True)
        decisions.add_column()
        for d in rules.decisions:
            decisions.add_row("•", Text(d))
        parts += [Text(""), Text("Decisions (where the sources are silent or ambiguous)", style="bold"),
                  decisions]
    return Group(*parts)


__all__ = ["rules_listing", "profile_view"]
