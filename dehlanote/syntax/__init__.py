"""The syntax layer: DPN text to the data model and back. Nothing here knows the rules."""

from .model import (
    CardRef,
    Claim,
    Deal,
    Game,
    Hand,
    Misdeal,
    Play,
    Revoke,
    Tag,
    Tens,
    Trick,
    Trump,
    Word,
)
from .parser import iter_games, iter_path, parse_path, parse_string
from .writer import write_game, write_games

__all__ = [
    "CardRef", "Claim", "Deal", "Game", "Hand", "Misdeal", "Play", "Revoke", "Tag", "Tens", "Trick", "Trump", "Word",
    "iter_games", "iter_path", "parse_path", "parse_string", "write_game", "write_games",
]
