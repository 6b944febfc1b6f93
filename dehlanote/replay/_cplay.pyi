# The core's bulk path compiled (_cplay.c), built at install when a C compiler is there.
# play(): core._play_plain_py's answer (a DealState or None), or NotImplemented where the Python
# function must answer; hands(): each seat's cards of a complete deal's tricks, sorted in the
# deck's order, or NotImplemented. setup(): core.py's tables, once.
from typing import Any

def setup(card_index: dict[str, int], cards: tuple[tuple[int, int, bool], ...], seats: tuple[str, str],
          orders: tuple[tuple[str, ...], tuple[str, ...]], sides: tuple[tuple[str, str], tuple[str, str]],
          suits: tuple[str, ...], no_shown: tuple[tuple[Any, ...], tuple[Any, ...]], words: tuple[str, str, str, str],
          types: tuple[type, type, type, type], /) -> None: ...
def play(state: Any, written: tuple[Any, ...], /) -> Any: ...
def hands(tricks: tuple[Any, ...], seats: str, /) -> Any: ...
