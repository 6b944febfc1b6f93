"""The replay layer: rebuild every deal of a record and check it against a rule profile."""

from .engine import DealState, MatchState, finish_deal, play_trick, replay_deal, start_deal, start_match
from .facts import Capture, DealFact, GameFacts, Kot, PlayFact, ResultFact, Streak, TrickFact, TrumpFact
from .game import explicit, replay_game, replay_games

__all__ = [
    "DealState", "MatchState", "start_match", "start_deal", "play_trick", "finish_deal", "replay_deal",
    "Capture", "DealFact", "GameFacts", "Kot", "PlayFact", "ResultFact", "Streak", "TrickFact", "TrumpFact",
    "explicit", "replay_game", "replay_games",
]
