"""Cards, seats and sides: spellings and their canonical forms.

Nothing here knows the rules of any game; it only says what the notation accepts.
A card's canonical spelling is rank then suit letter, uppercase, with ``10`` for ten:
``10H``, ``AS``, ``2C``.
"""

from __future__ import annotations

import sys

SUITS = "SHDC"  # canonical suit order: spades, hearts, diamonds, clubs
RANKS = "AKQJ" + "T98765432"  # high to low; T is written 10
RANK_NAMES = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")

SUIT_SPELLINGS: dict[str, str] = {
    "S": "S", "H": "H", "D": "D", "C": "C",
    "s": "S", "h": "H", "d": "D", "c": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

_RANK_SPELLINGS: dict[str, str] = {}
for _r in RANK_NAMES:
    _RANK_SPELLINGS[_r] = _r
    _RANK_SPELLINGS[_r.lower()] = _r
_RANK_SPELLINGS["T"] = "10"
_RANK_SPELLINGS["t"] = "10"

#: every accepted spelling of every card, mapped to its canonical form
CARD_SPELLINGS: dict[str, str] = {
    r + s: rank + suit
    for r, rank in _RANK_SPELLINGS.items()
    for s, suit in SUIT_SPELLINGS.items()
}

#: canonical cards, in deck order (spades A..2, hearts, diamonds, clubs)
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANK_NAMES)
#: canonical card -> index 0..51 in DECK
CARD_INDEX: dict[str, int] = {card: i for i, card in enumerate(DECK)}
#: canonical card -> suit letter
SUIT_OF: dict[str, str] = {card: card[-1] for card in DECK}
#: canonical card -> strength, 12 for the ace down to 0 for the two
STRENGTH: dict[str, int] = {card: 12 - RANK_NAMES.index(card[:-1]) for card in DECK}
TENS: frozenset[str] = frozenset(card for card in DECK if card.startswith("10"))

#: the regular expression (without anchors) of one card spelling
CARD_PATTERN = r"(?:10|[2-9AKQJTakqjt])[SHDCshdc♠♥♦♣♤♡♢♧]"
GLYPHS = ("!!", "??", "!?", "?!", "!", "?")
#: the regular expression of the inside of a tag value: no ``"``, ``\`` or newline, except
#: ``\`` and a character. Written as an unrolled loop, possessive where Python has it
#: (3.11): ``(?:[^"\\\n]|\\.)*`` kept backtracking state for every character, 120 bytes
#: each, so that a tag value of a megabyte took 240 MB to read.
STRING_BODY = (r'[^"\\\n]*+(?:\\.[^"\\\n]*+)*+' if sys.version_info >= (3, 11)
               else r'[^"\\\n]*(?:\\.[^"\\\n]*)*')

SEATS4 = "ABCD"
SEATS6 = "ABCDEF"


def canonical_card(spelling: str) -> str | None:
    """The canonical form of a card spelling, or None if it is not a card."""
    return CARD_SPELLINGS.get(spelling)


def canonical_suit(spelling: str) -> str | None:
    """The suit letter for a suit spelling (``h``, ``♥``, ``♡`` -> ``H``), or None."""
    return SUIT_SPELLINGS.get(spelling)


def seats_for(count: int) -> str:
    """Seat letters in playing order for a table of ``count`` players (4 or 6)."""
    return SEATS6 if count == 6 else SEATS4


def sides_for(count: int) -> tuple[str, str]:
    """The two partnerships for ``count`` players: ``("AC", "BD")`` or ``("ACE", "BDF")``."""
    seats = seats_for(count)
    return seats[0::2], seats[1::2]


def side_of(seat: str, count: int = 4) -> str:
    """The partnership a seat belongs to."""
    first, second = sides_for(count)
    return first if seat in first else second


def sort_key(card: str) -> tuple[int, int]:
    """Sort key putting cards in the canonical order: suits S H D C, high to low."""
    return SUITS.index(card[-1]), -STRENGTH[card]


def describe_card(card: str) -> str:
    """A card as a player would say it in a sentence: ``10♥``."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]
