# The compiled search (_csearch.c), built at install when a C compiler is there.
# test(): hands is one mask a (seat, suit), 2 bits a rank (the count held); node_limit -1 is none
# (any other negative is refused); deadline 0.0 is none; a result of -1 means out of time. Every
# input is checked first: ValueError for a position no deal can reach.
from collections.abc import Sequence

class Engine:
    stored: int
    exact_room: int

    def __init__(self, entries: int = ...) -> None: ...
    def test(self, hands: Sequence[int], trick: Sequence[int], trump: int, leader: int, run: int, ctens: int,
             ctricks: int, left: int, score: int, immediate: bool, target: int, nodes: int, node_limit: int,
             deadline: float, seats: int = 4, decks: int = 1, first_void: bool = False, hidden: int = -1,
             setter: int = -1, /) -> tuple[int, int]: ...
