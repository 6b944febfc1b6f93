# The quick check's play of a deal (_cquick.c), built at install when a C compiler is there:
# quick.play_py compiled, the same answer from the same bytes.

def play(cards: bytes, n: int, tricks: int, dealer: int, trump: int, immediate: bool, /
         ) -> tuple[bytes, bytes, int, int, int, int] | None: ...
