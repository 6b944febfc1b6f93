"""dehlanote: record and check Dehla Pakad games in DPN, the Dehla Pakad Notation.

The layers, each in its own package: ``syntax`` (DPN text <-> model, no rules),
``rules`` (profiles as YAML data), ``replay`` (the rules engine), ``output`` (JSON),
and the command line in ``cli``. The names below are imported on first use, so that
``import dehlanote`` (and the command line's start) stays quick.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "CODES": "errors", "DpnError": "errors",
    "GameFacts": "replay", "explicit": "replay", "replay_game": "replay", "replay_games": "replay",
    "iter_replay": "replay",
    "Registry": "rules.profile", "Rules": "rules.profile", "registry": "rules.profile",
    "rules_from_tag": "rules.profile",
    "Game": "syntax", "iter_games": "syntax", "iter_path": "syntax", "parse_path": "syntax",
    "parse_string": "syntax", "write_game": "syntax", "write_games": "syntax",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dehlanote' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
