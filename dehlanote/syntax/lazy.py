"""The deals of a very long game, read from its text one at a time (issue 27 item 3).

A game of 10,000 deals held as its model is about 90 MB (every card a node with its
line and column); the commands read a game's deals in order and let each go, so a long
plain game keeps its text and where each deal starts instead, and each deal is read again
from its lines when it is asked for. :class:`LazyDeals` is what ``Game.deals`` then holds:
a sequence with the tuple's operations (length, iteration, indexing and slices, equality
with a tuple, ``+``), each deal the very node the whole reading built.

Only a game the whole-element reading read without any error and without a comment is
read this way (:meth:`.whole.WholeReader._game_whole`): that reading has already built,
checked and let go every deal once, so reading one again meets no error and gives the
same node; a game with a comment or any error is held as before.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Union, overload

if TYPE_CHECKING:
    from .model import Deal

__all__ = ["LAZY_DEALS", "LazyDeals"]

#: a game of more deals than this is read one deal at a time (below it the model is small)
LAZY_DEALS = 400


class LazyDeals(Sequence["Deal"]):
    """A game's deals, each read from ``text`` when asked for: deal ``i`` is the text from
    ``starts[i]`` to the line end before ``starts[i + 1]``, at file line ``ln +
    lines[i]`` (column ``col`` on the token's first line, else 1)."""

    __slots__ = ("_text", "_starts", "_lines", "_ln", "_col", "_make", "_reader", "_last")

    def __init__(self, text: str, starts: array, lines: array, ln: int, col: int, make: Any) -> None:
        """``make()``: a reader of its own (nothing shared with a parse under way), made when the
        first deal is read: its ``lazy_deal(text, line, column)`` reads the deal of one piece
        (a :class:`.whole.WholeReader` for a game of whole deals, a :class:`.parser.PieceReader`
        for one read piece by piece)."""
        self._make = make
        self._text = text
        self._starts = starts
        self._lines = lines
        self._ln = ln
        self._col = col
        self._reader: Any = None
        self._last: tuple[int, Deal] | None = None

    def __len__(self) -> int:
        return len(self._starts)

    def _deal(self, i: int) -> Deal:
        last = self._last
        if last is not None and last[0] == i:
            return last[1]
        if self._reader is None:
            self._reader = self._make()
        starts = self._starts
        end = starts[i + 1] - 1 if i + 1 < len(starts) else len(self._text)
        at = self._lines[i]
        deal = self._reader.lazy_deal(self._text[starts[i]:end], self._ln + at, self._col if at == 0 else 1)
        self._last = (i, deal)
        return deal

    def __iter__(self) -> Iterator[Deal]:
        for i in range(len(self._starts)):
            yield self._deal(i)

    @overload
    def __getitem__(self, index: int) -> Deal: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Deal, ...]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Deal, tuple[Deal, ...]]:
        if isinstance(index, slice):
            return tuple(self._deal(i) for i in range(*index.indices(len(self))))
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("deal index out of range")
        return self._deal(index)

    def __bool__(self) -> bool:
        return len(self._starts) > 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, LazyDeals)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __add__(self, other: object) -> tuple[Deal, ...]:
        if isinstance(other, (tuple, LazyDeals)):
            return tuple(self) + tuple(other)
        return NotImplemented

    def __radd__(self, other: object) -> tuple[Deal, ...]:
        if isinstance(other, tuple):
            return other + tuple(self)
        return NotImplemented

    def __repr__(self) -> str:
        return f"LazyDeals({len(self)} deals)"
