"""dehlanote: record and check Dehla Pakad games in DPN, the Dehla Pakad Notation.

The layers, each in its own package: ``syntax`` (DPN text <-> model, no rules),
``rules`` (profiles as YAML data), ``replay`` (the rules engine), ``output`` (JSON),
and the command line in ``cli``.
"""

from .errors import CODES, DpnError
from .replay import GameFacts, explicit, replay_game, replay_games
from .rules.profile import Registry, Rules, registry, rules_from_tag
from .syntax import Game, iter_games, iter_path, parse_path, parse_string, write_game, write_games

__version__ = "0.1.0"

__all__ = [
    "CODES", "DpnError", "Game", "GameFacts", "Registry", "Rules", "explicit", "iter_games", "iter_path",
    "parse_path", "parse_string", "registry", "replay_game", "replay_games", "rules_from_tag",
    "write_game", "write_games", "__version__",
]
