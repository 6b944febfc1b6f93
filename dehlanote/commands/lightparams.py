"""Command-line values turned into Python values without loading pydantic, when that is plain.

Typer turns every value given on the command line into its parameter's type through a
pydantic ``TypeAdapter``, and loading pydantic and building the adapters is most of the
command line's start-up (about 0.1 s of CPU, more than checking a thousand deals). The
parameters of these commands are plain (text, whole numbers, file paths, a list of files,
a choice, a flag, a value one of our own parsers reads), and for those the conversion is
done here directly, the way typer's adapter does it (its own choice and path helpers).
Anything else, and any value that does not convert cleanly here (a number out of range,
``--jobs x``, a choice not offered), goes to typer's own conversion, so every error message
is typer's, word for word.

It uses two of typer's private modules (``typer._coercion``, ``typer._param_types``, new in
typer 0.29, the first release that converts through pydantic), so pyproject.toml pins the
tested range, ``typer>=0.29,<0.30`` (tests/cli/test_startup.py checks the pin and the
installed typer). If typer's internals are not the ones this was written against, nothing is
changed.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args, get_origin

try:
    from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
    from typer._param_types import coerce_cli_choice, coerce_cli_path
except ImportError:    # pragma: no cover - another typer: its own conversion throughout
    RuntimeParam = None  # type: ignore[assignment,misc]

__all__ = ["convert", "use_light"]


class _Heavy(Exception):
    """This value is left to typer's own conversion."""


_WHOLE = re.compile(r"-?(?:0|[1-9][0-9]*)")


def _int(value: Any, info: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and _WHOLE.fullmatch(value):
        number = int(value)
    else:
        raise _Heavy
    if info.clamp or (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
        raise _Heavy
    return number


def convert(descriptor: Any, value: Any, param: Any, ctx: Any) -> Any:
    """``value`` converted as typer's adapter would, or _Heavy when that is left to it."""
    annotation = descriptor.annotation
    info = descriptor.parameter_info
    if info.parser is not None and descriptor.file_annotation is None and isinstance(value, str):
        return info.parser(value)       # (our own parsers: the empty names refused, a size checked)
    if info.parser is not None or descriptor.file_annotation is not None:
        raise _Heavy
    if annotation is str:
        if isinstance(value, str):
            return value
        raise _Heavy
    if annotation is int:
        return _int(value, info)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        try:
            return coerce_cli_choice(value, choices=tuple(annotation), case_sensitive=info.case_sensitive, ctx=ctx)
        except ValueError:
            raise _Heavy from None
    if annotation is Path and info.path_type is None and isinstance(value, str):
        return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
    if get_origin(annotation) is list and get_args(annotation) == (str,) and isinstance(value, (list, tuple)) \
            and all(isinstance(item, str) for item in value):
        return list(value)
    raise _Heavy


if RuntimeParam is not None:
    @dataclass(frozen=True)
    class _LightRuntimeParam(RuntimeParam):
        """Plain values converted here; the rest, and every error, by typer's adapter."""

        descriptor: TypeDescriptor

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                return convert(self.descriptor, value, param, ctx)
            except _Heavy:
                pass
            heavy = build_runtime_param(self.descriptor)
            return heavy._coerce_value(value, param=param, ctx=ctx)


def use_light(param: Any) -> None:
    """Have a typer parameter convert its values with :func:`convert` (typer's own conversion
    for the rest): set before typer builds its pydantic adapter, which it does on first use."""
    if RuntimeParam is not None and getattr(param, "_runtime_param", False) is None:
        desc = param.type_descriptor
        param._runtime_param = _LightRuntimeParam(parameter_info=desc.parameter_info, annotation=desc.annotation,
                                                  descriptor=desc)
