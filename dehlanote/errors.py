"""The one error type of dehlanote, with the stable codes of the notation (docs/notation.md)."""

from __future__ import annotations

import errno
import os
from typing import Any

from .text import printable

__all__ = ["CODES", "READING_CODES", "DpnError", "printable"]

#: every stable error code, as docs/notation.md lists them
CODES: tuple[str, ...] = (
    "syntax", "bad-card", "bad-tag", "unknown-rules", "duplicate-card", "hand-size",
    "not-in-hand", "revoke", "needless-correction", "trick-size", "trick-number",
    "wrong-leader", "incomplete-deal", "deal-number", "wrong-dealer", "missing-trump",
    "wrong-announcer", "trump-mismatch", "tens-mismatch", "result-mismatch", "after-match",
    "unsound-claim", "encoding",
)

#: the codes of the errors that stop the reading of a game (its deals are not replayed; a
#: writer keeps its text as written): syntax, cards that are no cards, bytes that are not
#: UTF-8, and a trick, hand or deal past the reader's limits (a line of millions of cards)
READING_CODES: frozenset[str] = frozenset({"syntax", "bad-card", "encoding", "trick-size", "hand-size",
                                           "trick-number"})

#: how much of a line a caret display shows before and after the column
CARET_BEFORE = 60
CARET_AFTER = 40


class DpnError(Exception):
    """A problem in a record: a stable ``code``, a sentence for a card player, and where.

    ``line`` and ``column`` are 1-based positions in the file of the token at fault (for
    ``encoding``, ``column`` is 1 and ``offset`` holds the byte offset). ``deal`` and
    ``trick`` are the deal and trick numbers the error belongs to, when it belongs to one.
    ``source_line`` is the text of the offending line, when known, for a caret display.
    """

    def __init__(
        self,
        code: str,
        message: str,
        line: int = 0,
        column: int = 0,
        *,
        deal: int | None = None,
        trick: int | None = None,
        source_line: str | None = None,
        path: str | None = None,
        offset: int | None = None,
        source_column: int = 1,
        source_cut: bool = False,
    ) -> None:
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.deal = deal
        self.trick = trick
        self.source_line = source_line
        self.path = path
        self.offset = offset
        # source_line may be a window of a long line: the column of its first character, and
        # whether the line goes on after it
        self.source_column = source_column
        self.source_cut = source_cut

    def __str__(self) -> str:
        where = f"{printable(self.path or '<string>')}:{self.line}:{self.column}"
        return f"{where}: {self.code}: {printable(self.message)}"

    def __repr__(self) -> str:
        return (f"DpnError({self.code!r}, {self.message!r}, line={self.line}, "
                f"column={self.column}, deal={self.deal}, trick={self.trick})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DpnError):
            return NotImplemented
        return self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple[Any, ...]:
        """What identifies the error: position, code and message."""
        return (self.line, self.column, self.code, self.message, self.deal, self.trick)

    def with_context(self, *, path: str | None = None, source_line: str | None = None,
                     deal: int | None = None, trick: int | None = None,
                     source_column: int | None = None, source_cut: bool | None = None) -> "DpnError":
        """A copy with the file path, the source line (or a window of it: ``source_column``
        is the column of its first character, ``source_cut`` that the line goes on), deal or
        trick filled in."""
        new_source = source_line is not None
        return DpnError(
            self.code, self.message, self.line, self.column,
            deal=self.deal if deal is None else deal,
            trick=self.trick if trick is None else trick,
            source_line=source_line if new_source else self.source_line,
            path=self.path if path is None else path,
            offset=self.offset,
            source_column=(source_column or 1) if new_source else self.source_column,
            source_cut=bool(source_cut) if new_source else self.source_cut,
        )

    def caret(self) -> str:
        """The offending source line with a caret under the column ('' if unknown).

        A long line is shown as a window of it around the column, ``…`` where it is cut:
        whatever the line's length, the caret display is a few dozen characters (a file of
        one 1 MB line with many errors printed 1 GB of padding before).
        """
        if self.source_line is None or self.column < 1:
            return ""
        text = self.source_line.rstrip("\r\n")
        at = self.column - self.source_column          # the column's index in text
        if not 0 <= at <= len(text):
            return ""
        start = max(0, at - CARET_BEFORE)
        end = min(len(text), at + CARET_AFTER)
        left = "…" if start > 0 or self.source_column > 1 else ""
        right = "…" if end < len(text) or (self.source_cut and end == len(text)) else ""
        shown = printable(text[start:end])
        # keep tabs so the caret lines up under them in a terminal
        pad = "".join("\t" if ch == "\t" else " " for ch in left + shown[: at - start])
        return f"{left}{shown}{right}\n{pad}^"

    def to_json(self) -> dict[str, Any]:
        """The error as the notation's (docs/notation.md) JSON ``error`` object."""
        return {
            "code": self.code,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "deal": self.deal,
            "trick": self.trick,
        }


def why(exc: OSError) -> str:
    """Why a file could not be read, in a few words a user understands ("no such file"); a
    sentence of ours (errno 0, e.g. binary data refused) as it is."""
    if exc.errno == 0:
        return exc.strerror or "it is not a text file"
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return "is a directory (give the files in it, e.g. DIR/*.dpn)"
    if isinstance(exc, PermissionError):
        return "permission denied"
    # a folder of its path at fault is named (it was "not a directory", or "it is a loop" of the
    # file when the loop was its folder), as the writers name it
    folder = os.path.dirname(exc.filename) if isinstance(exc.filename, str) else ""
    if exc.errno == errno.ENOTDIR and folder:
        return f"the folder {printable(folder)} {missing_folder(folder)}"
    if exc.errno == errno.ELOOP and exc.strerror == os.strerror(errno.ELOOP):    # ("too many levels of ...")
        if folder and is_loop(folder):
            return f"the folder {printable(folder)} {missing_folder(folder)}"
        return "it is a loop of symbolic links (a link that leads back to itself, never to a file)"
    return (exc.strerror or str(exc)).lower()


def is_loop(path: str) -> bool:
    """Whether ``path`` leads round a loop of symbolic links (``ln -s a b; ln -s b a``)."""
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def missing_folder(path: str) -> str:
    """What a folder that cannot be found is, in words: "does not exist", a loop of links, a link
    that leads nowhere, or a file (it, or a folder above it: record said "the folder x.dpn does
    not exist" of a file)."""
    if is_loop(path):
        return "is a loop of symbolic links (a link that leads back to itself)"
    if os.path.islink(path) and not os.path.exists(path):       # (it was said not to exist)
        try:
            return f"is a link to {printable(os.readlink(path))}, which does not exist"
        except OSError:
            pass
    above = path
    while above and not os.path.lexists(above):
        above = os.path.dirname(above.rstrip("/"))
    if above and os.path.exists(above) and not os.path.isdir(above):
        return "is a file, not a folder" if above == path else f"cannot be: {above} is a file, not a folder"
    return "does not exist"
