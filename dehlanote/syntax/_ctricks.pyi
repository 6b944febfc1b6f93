# The whole reader's trick lines compiled (_ctricks.c), built at install when a C compiler is there.
# tricks(): the Trick nodes WholeReader._tricks makes of lines of tricks, or NotImplemented where it
# must read them itself; hand(): the Hand of a hand line of the common shape, or NotImplemented;
# setup(): whole.py's tables, once.
from typing import Any

def setup(cards: dict[str, str], kinds: dict[str, tuple[Any, ...]], numbers: dict[str, int], seats: dict[str, str],
          names: tuple[str, str, str, str], types: tuple[type, type, type, type, type], limits: tuple[int, int, int],
          /) -> None: ...
def tricks(lines: list[str], ln: int, off: int, whole_lines: bool, /) -> Any: ...
def hand(line: str, ln: int, off: int, /) -> Any: ...
