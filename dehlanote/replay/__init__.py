"""The replay layer: rebuild every deal of a record and check it against a rule profile."""

from .engine import (
    DealState,
    MatchState,
    claim_deal,
    finish_deal,
    play_trick,
    play_tricks,
    replay_deal,
    start_deal,
    start_match,
)
from .facts import (
    Capture,
    ClaimFact,
    DealFact,
    GameFacts,
    Kot,
    PlayFact,
    ResultFact,
    Streak,
    TrickFact,
    TrumpFact,
)
from .game import GameReplay, as_written, canonical_text, explicit, iter_replay, replay_game, replay_games
from .table import Card, IllegalCard, Table  # (its loading gives DealFact.table its Table)

__all__ = [
    "Card", "IllegalCard", "Table",
    "Capture", "ClaimFact", "DealFact", "DealState", "GameFacts", "GameReplay", "Kot", "MatchState", "PlayFact",
    "ResultFact", "Streak", "TrickFact", "TrumpFact", "as_written", "canonical_text", "claim_deal", "explicit",
    "finish_deal", "iter_replay",
    "play_trick", "play_tricks", "replay_deal", "replay_game", "replay_games", "start_deal", "start_match",
]
