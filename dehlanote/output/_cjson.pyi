# The compact JSON of a deal's tricks (_cjson.c), built at install when a C compiler is there.
# tricks(): the bytes orjson writes for deal_json's "tricks" list (the TrickFacts, then the written
# Tricks the replay did not reach), or None when a value is one the Python path must write.
from typing import Any

def tricks(played: tuple[Any, ...], unplayed: tuple[Any, ...], /) -> bytes | None: ...
