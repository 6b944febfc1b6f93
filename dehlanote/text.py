"""The one sanitiser between a record (or a profile, or a file name) and a terminal.

A record's tag values, names and comments, a profile's name and description from a
``--rules`` YAML file, and a file's name are text from someone else: on a terminal,
control characters in them would move the cursor, clear the screen, retitle the window
(OSC 0) or write the clipboard (OSC 52). Every such string reaches a terminal through
this module: control characters (C0 but tab, DEL, C1) become their visible pictures
(``␛``, ``␀``, one character each, so that carets stay aligned) and the bidirectional
overrides that reorder what is shown become ``�``.

* :func:`printable`: one line (a newline becomes ``␊``).
* :func:`printable_block`: text of several lines (newlines and tabs kept; a CR before a
  newline kept as the line end).
* :func:`safe_console`: a Rich console that passes every piece of text it writes to a
  terminal through :func:`printable_block` (its own styles and cursor controls are kept).
  To a file or a pipe it writes text as it is: a record is written as it was. It never
  reads Rich's emoji codes (``:fire:``, ``:100:``) in what it writes.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from rich.console import Console

_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_PICTURES: dict[int, int] = (
    {c: 0x2400 + c for c in range(0x20) if c != 0x09}
    | {0x7F: 0x2421}
    | {c: 0xFFFD for c in range(0x80, 0xA0)}
    | {c: 0xFFFD for c in _BIDI}
    | {0x2028: 0x2424, 0x2029: 0x2424}
)
_BLOCK = {k: v for k, v in _PICTURES.items() if k not in (0x0A, 0x0D)}
_LONE_CR = re.compile("\r(?!\n)")


def printable(text: str) -> str:
    """``text`` for one line of a terminal: control characters (but tabs) as pictures."""
    return text.translate(_PICTURES)


def printable_block(text: str) -> str:
    """``text`` of several lines for a terminal: newlines and tabs kept, CRLF line ends kept,
    every other control character as its picture."""
    text = text.translate(_BLOCK)
    return _LONE_CR.sub("\u240d", text) if "\r" in text else text


_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")


def one_line_name(text: str) -> str:
    """A name typed by someone for a record's tag (a player, an event): control characters
    (C0, tab and line ends included, DEL, C1) become spaces, runs of spaces one, none at
    either end. What ``record --names`` and ``serve``'s table form keep."""
    return " ".join(_CONTROLS.sub(" ", text).split())


def needs_care(text: str) -> bool:
    """Whether ``text`` holds anything :func:`printable_block` would change."""
    return printable_block(text) != text


def safe_console(**kw: Any) -> "Console":
    """A Rich console that never lets a control character of the content reach a terminal.

    Only the text of the content is changed, and only when writing to a terminal: Rich's
    own styles (colours) and control segments (cursor moves, the alternate screen) are
    kept, and a file or a pipe gets the text as it is. (Rich is imported here, not when
    the library imports :func:`printable`.)
    """
    # a record's text, a file's name, a line:column (":100:", ":1234:") is never read as one of
    # Rich's emoji codes: "x.dpn:100:1:" was written "x.dpn💯1:", a comment ":fire:" as 🔥
    kw.setdefault("emoji", False)
    console = _safe_console_class()(**kw)
    if console.width < MIN_WIDTH:
        console.width = MIN_WIDTH     # COLUMNS=1: Rich's tables cannot share out a width of one
    return console


#: the narrowest a console is laid out (a narrower terminal wraps the lines itself)
MIN_WIDTH = 20


@lru_cache(maxsize=1)
def _safe_console_class() -> type:
    from rich.console import Console
    from rich.segment import Segment

    class SafeConsole(Console):
        def _render_buffer(self, buffer: Iterable[Segment]) -> str:
            if self.is_terminal:
                buffer = [seg if seg.control else Segment(printable_block(seg.text), seg.style, seg.control)
                          for seg in buffer]
            return super()._render_buffer(buffer)

    return SafeConsole
