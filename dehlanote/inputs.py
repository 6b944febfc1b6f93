"""The checks the public entry points make of their arguments' types (a ground module: the
types it checks against are given by the callers).

A wrong type is refused with a ``TypeError`` whose sentence says what the function takes and
what it was given (never an ``AttributeError`` from deep inside); a wrong value of the right
type is each function's own ``ValueError`` (or a ``DpnError`` with a code, where a record is
at fault).
"""

from __future__ import annotations

import io
import os
from typing import Any, Iterable, Iterator, Optional, TypeVar

T = TypeVar("T")

BYTES = (bytes, bytearray, memoryview)


def kind(value: object) -> str:
    """``value``'s type in words: ``None``, ``an int``, ``a list``."""
    if value is None:
        return "None"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def refuse(function: str, takes: str, value: object, advice: str = "") -> TypeError:
    """The TypeError for ``function`` given ``value``: what it takes, what it got, then ``advice``."""
    return TypeError(f"{function} takes {takes}, not {kind(value)}" + (f": {advice}" if advice else ""))


def need(value: Any, types: Any, function: str, takes: str) -> Any:
    """``value`` when it is one of ``types``; else a TypeError saying what ``function`` takes."""
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in _tuple(types)):
        raise refuse(function, takes, value)
    return value


def _tuple(types: Any) -> tuple:
    return types if isinstance(types, tuple) else (types,)


def is_stream(value: object) -> bool:
    return hasattr(value, "read") and not isinstance(value, (str, *BYTES, os.PathLike))


def source(value: Any, function: str) -> Any:
    """A text, a text or binary stream, or bytes (read as a binary stream, UTF-8: bytes that
    are not UTF-8 are ``encoding`` errors of the games, as in a file)."""
    if isinstance(value, BYTES):
        return io.BytesIO(bytes(value))
    if isinstance(value, str) or is_stream(value):
        return value
    raise refuse(function, "a DPN text (str, or UTF-8 bytes) or an open text or binary stream", value)


def registry(reg: Any, registry_type: type, function: str) -> Any:
    """``reg`` when it is None or a ``registry_type`` (the rule profiles' Registry)."""
    if reg is not None and not isinstance(reg, registry_type):
        raise refuse(function, "reg=None or a dehlanote.Registry (the rule profiles)", reg)
    return reg


def game(value: Any, game_type: type, function: str) -> Any:
    """``value`` when it is a ``game_type`` (the notation's parsed Game)."""
    if not isinstance(value, game_type):
        advice = "read one with dehlanote.parse_string(text)[0]" if isinstance(value, (str, *BYTES)) else ""
        raise refuse(function, "a parsed game (dehlanote.Game)", value, advice)
    return value


def games(values: Any, game_type: type, function: str) -> Iterator[Any]:
    """Each item of ``values`` checked to be a parsed game (an iterable, not a text)."""
    if isinstance(values, (str, *BYTES)) or not isinstance(values, Iterable):
        raise refuse(function, "an iterable of parsed games (dehlanote.Game), e.g. dehlanote.iter_games(text)",
                     values)
    return (game(g, game_type, function) for g in values)


def path(value: Any, function: str, advice: str = "") -> Any:
    if isinstance(value, (str, os.PathLike)):
        return value
    raise refuse(function, "a file's path (str or os.PathLike)", value, advice)


def optional(value: Optional[T], types: Any, function: str, takes: str) -> Optional[T]:
    return None if value is None else need(value, types, function, takes)
