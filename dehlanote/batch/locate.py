"""Where an error stands in its file: the error with the file's name and a window of its
source line, for the caret display; and an error as plain values to cross a process boundary.
Shared by the file checks (:mod:`.check`), the worker processes (:mod:`.pool`) and the range
checks (:mod:`.ranges`), which import it from here so that none imports the others.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from ..errors import DpnError
from ..syntax.model import Game


def rebuild_error(code: str, message: str, line: int, column: int, deal: Optional[int],
                  trick: Optional[int], source_line: Optional[str], path: Optional[str],
                  offset: Optional[int], source_column: int = 1, source_cut: bool = False) -> DpnError:
    """An error again from :func:`error_state` (DpnError does not pickle by itself)."""
    return DpnError(code, message, line, column, deal=deal, trick=trick, source_line=source_line,
                    path=path, offset=offset, source_column=source_column, source_cut=source_cut)


def error_state(e: DpnError) -> tuple:
    """An error as a tuple of plain values, to cross a process boundary."""
    return (e.code, e.message, e.line, e.column, e.deal, e.trick, e.source_line, e.path, e.offset,
            e.source_column, e.source_cut)


def located(err: DpnError, game: Game, path: Optional[str]) -> DpnError:
    """The error with the file's name and a window of its source line (for a caret display).

    Only a window of the line around the column is kept (the caret display shows less), and
    the line is found without splitting the game's text: with thousands of errors on one
    long line, splitting it for each cost time quadratic in its length.
    """
    source = game.source
    if source is None or err.line < game.source_line:
        return err.with_context(path=path)
    starts = _line_starts(source)
    i = err.line - game.source_line
    if i >= len(starts):
        return err.with_context(path=path)
    begin = starts[i]
    end = starts[i + 1] - 1 if i + 1 < len(starts) else len(source)
    lo = begin + max(0, err.column - 1 - WINDOW)
    hi = min(end, begin + max(0, err.column - 1) + WINDOW)
    text = source[lo:hi].rstrip("\r")
    return err.with_context(path=path, source_line=text, source_column=lo - begin + 1, source_cut=hi < end)


#: characters of a line kept on each side of an error's column
WINDOW = 200


@lru_cache(maxsize=2)
def _line_starts(source: str) -> list[int]:
    """Where each line of ``source`` starts (computed once per game's text)."""
    starts = [0]
    find = source.find
    i = find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = find("\n", i + 1)
    return starts
