# The compiled search (_csearch.c), built at install when a C compiler is there.
from collections.abc import Sequence

class Engine:
    stored: int

    def __init__(self, entries: int = ...) -> None: ...
    def test(self, hands: Sequence[int], trick: Sequence[int], trump: int, leader: int, run: int, ctens: int,
             ctricks: int, left: int, score: int, immediate: bool, target: int, nodes: int, node_limit: int,
             deadline: float, /) -> tuple[int, int]: ...
