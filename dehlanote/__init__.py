"""dehlanote: record and check Dehla Pakad games in DPN, the Dehla Pakad Notation.

Read a record and replay it, then play on from any point::

    import dehlanote
    with open("samples/worked-example.dpn") as f:
        game = dehlanote.read_game(f)
    table = game.deals[0].table(trick=1)
    table.legal_cards()          # A's 13 cards
    table.play("AH")

The layers, each in its own package: ``syntax`` (DPN text <-> model, no rules),
``rules`` (profiles as YAML data), ``replay`` (the per-card core and the record
replayer), ``analysis`` (the double-dummy solver), ``output`` (JSON, pages, text),
``batch``, ``record``, the commands and the command line (``cli``). The names below are
imported on first use, so that ``import dehlanote`` (and the command line's start) stays
quick; ``dir(dehlanote)`` lists them.
"""

from __future__ import annotations

import importlib
from typing import Any

from .version import __version__

_EXPORTS = {
    "read_game": "api", "read_games": "api", "replay_game": "api", "replay_games": "api", "iter_replay": "api",
    "Table": "api", "IllegalCard": "replay.table", "Card": "replay.table",
    "Problem": "replay.core", "events": "replay.events",
    "CODES": "errors", "DpnError": "errors",
    "GameFacts": "api", "DealFact": "api", "TrickFact": "replay", "explicit": "replay",
    "Registry": "rules.profile", "Rules": "rules.profile", "registry": "rules.profile",
    "rules_from_tag": "rules.profile",
    "Game": "syntax", "iter_games": "syntax", "iter_path": "syntax", "parse_path": "syntax",
    "parse_string": "syntax", "write_game": "syntax", "write_games": "syntax",
}

__all__ = sorted(_EXPORTS) + ["__version__"]

#: the modules of the notebook views of the facts and of a table, loaded when a front end first
#: asks for a view (the replay layer draws nothing itself and imports nothing above it: it reads
#: these names here, the package being the one place that knows every layer; see
#: dehlanote.replay.facts.drawer)
DISPLAY_MODULES = ("dehlanote.output.notebook", "dehlanote.output.svg")


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dehlanote' has no attribute {name!r}")
    target = importlib.import_module(f".{module}", __name__)
    value = target if name == "events" else getattr(target, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(__all__) | {"__version__"})
