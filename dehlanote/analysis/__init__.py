"""Double-dummy analysis: the exact value of a deal under best play, card by card.

``Position`` is a position of a deal seen double dummy (every hand known); ``Solver``
values it exactly in the profile's unit (tens, points for double-sar, tricks for court
piece). ``deal_positions`` builds positions from the replayer's states, ``analyse_deal``
values every card of a recorded deal, and ``claim_is_sound`` checks a claim.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {"PlayRules": "position", "Position": "position", "describe": "position", "position_for": "position",
            "OutOfTime": "search", "Solver": "search"}

#: worlds a single-dummy decision samples, by default (here, not in .single: the command line's
#: options name it without loading the solver)
WORLDS = 32

__all__ = sorted([*_EXPORTS, "WORLDS"])


def __getattr__(name: str) -> Any:
    # imported on first use: the claim judge (.judge) is handed to every replay, and loading
    # it must not load the solver
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dehlanote.analysis' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
