"""Help text in a card player's words: plain metavars (``FILE...``, ``N``), no Python types.

Typer shows each parameter's Python type in ``--help`` (``<bool>``, ``<list[str]>``,
``<int range> [x>=1]``) and writes a required argument as ``{FILE}``. The command and
group classes here make every parameter show its metavar instead: ``FILE...`` for a list
of files, the metavar given with ``metavar=`` for an option that takes a value, its
choices (``text|json``) when it has no metavar, and nothing for a flag. The ranges stay
enforced; the help sentence says them in words ("from 1").
"""

from __future__ import annotations

from typing import Any, Optional

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from .lightparams import use_light

__all__ = ["PlainCommand", "PlainGroup", "plain_params"]


#: what a value of each Python type is called in the help
_PLAIN_TYPES = {"int": "N", "float": "NUMBER", "str": "TEXT", "Path": "PATH", "path": "PATH", "file": "FILE"}


def _bare(name: str) -> str:
    return name[:-3] if name.endswith("...") else name


class PlainArgument(TyperArgument):
    """An argument shown as its metavar: ``FILE...`` (several) or ``[NAME]`` (optional)."""

    def _plain_name(self) -> str:
        name = _bare(self.metavar or (self.name or "").upper())
        return name + "..." if self.nargs != 1 else name

    @property
    def display_name_raw(self) -> str:
        return self._plain_name()

    def _rich_display_name(self) -> str:
        return self._plain_name()

    def _usage_display_name(self) -> str:
        name = self._plain_name()
        return name if self.required else f"[{name}]"

    def make_metavar(self, ctx: Any = None) -> str:
        return self._plain_name()

    def display_type_rich(self, ctx: Any) -> Optional[str]:
        return None

    def _get_number_range_help_str(self) -> Optional[str]:
        return None


class PlainOption(TyperOption):
    """An option shown with its metavar (``--jobs N``), its choices, or nothing for a flag."""

    def display_type_rich(self, ctx: Any) -> Optional[str]:
        if getattr(self, "is_flag", False) or getattr(self, "count", False):
            return None
        if self.metavar is not None:
            return self.metavar
        shown = (super().display_type_rich(ctx) or "").strip("<>")
        if shown in ("bool", ""):
            return None
        if "|" in shown:                            # choices: text|json
            return shown
        return _PLAIN_TYPES.get(shown.replace(" range", ""), "VALUE")

    def _get_number_range_help_str(self) -> Optional[str]:
        return None


def plain_params(params: list[Any]) -> list[Any]:
    """Turn typer's parameters into their plain-help versions (in place; idempotent), whose
    values are converted without pydantic when they are plain (:mod:`.lightparams`)."""
    for param in params:
        if type(param) is TyperArgument:
            param.__class__ = PlainArgument
        elif type(param) is TyperOption:
            param.__class__ = PlainOption
        use_light(param)
    return params


class PlainCommand(TyperCommand):
    """A command whose help shows plain metavars."""

    def get_params(self, ctx: Any) -> list[Any]:
        return plain_params(super().get_params(ctx))


class PlainGroup(TyperGroup):
    """The top-level group, with the same plain help (``--version``, completion options)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return plain_params(super().get_params(ctx))
