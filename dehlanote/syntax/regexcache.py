"""The largest regular expressions compiled once per user, not at every start.

Python's ``re`` keeps no compiled pattern between processes: the grammar's whole-game
terminal (about 6,600 characters) took about 30 ms of CPU to compile at every start of
``validate``, a fifth of its start-up. :func:`compile` keeps what the compiler makes of a
pattern (its opcodes, a list of integers, and its groups) as JSON in the per-user cache
folder (:mod:`dehlanote.cache`: read only from a folder and a file of this user's that no
one else may write), and builds the pattern from it on later runs with the engine's own
constructor, which checks the opcodes as it does for any pattern. The file's name is a
digest of the pattern, its flags and the exact Python build (the opcodes change between
versions). Anything unexpected (another Python, a damaged file, a missing constructor)
compiles the pattern as ``re.compile`` does: the result is the same pattern either way.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from typing import Any

from .. import cache as user_cache

__all__ = ["compile"]


def _name(pattern: str, flags: int) -> str:
    import _sre
    key = "\0".join((pattern, str(flags), sys.version, str(getattr(_sre, "MAGIC", ""))))
    return f"regex-{hashlib.sha256(key.encode('utf-8', 'surrogatepass')).hexdigest()[:24]}.json"


def _build(pattern: str, data: dict[str, Any]) -> re.Pattern[str]:
    import _sre
    groupindex = {str(k): int(v) for k, v in data["groupindex"].items()}
    indexgroup = tuple(None if g is None else str(g) for g in data["indexgroup"])
    code = [int(c) for c in data["code"]]
    got: re.Pattern[str] = _sre.compile(pattern, int(data["flags"]), code, int(data["groups"]), groupindex,
                                        indexgroup)
    return got


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001 - re.compile's name
    """``re.compile(pattern, flags)``, its compiled form kept in the per-user cache."""
    try:
        name = _name(pattern, flags)
        kept = user_cache.read(name)
        if kept is not None:
            return _build(pattern, json.loads(kept))
        from re import _compiler, _parser  # type: ignore[attr-defined]
        parsed = _parser.parse(pattern, flags)
        code = _compiler._code(parsed, flags)
        state = parsed.state
        indexgroup: list[str | None] = [None] * state.groups
        for k, i in state.groupdict.items():
            indexgroup[i] = k
        data = {"flags": flags | state.flags, "code": list(code), "groups": state.groups - 1,
                "groupindex": dict(state.groupdict), "indexgroup": indexgroup}
        built = _build(pattern, data)
        user_cache.write(name, json.dumps(data, separators=(",", ":")).encode("utf-8"))
        return built
    except Exception:  # noqa: BLE001 - any surprise: the standard way, which gives the same pattern
        return re.compile(pattern, flags)
