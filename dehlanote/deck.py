"""The cards, suits, seats and sides of Dehla Pakad: the one home of these game facts.

A card is a canonical string, rank then suit letter, uppercase, with ``10`` for ten:
``10H``, ``AS``, ``2C``. How a record may spell a card (``10h``, ``T♥``, ``A♥️``) is the
syntax layer's business (:mod:`dehlanote.syntax.cards`, derived from the grammar); what
the cards are, how strong they are, which are the tens and who sits where is here.
"""

from __future__ import annotations

SUITS = "SHDC"  # canonical suit order: spades, hearts, diamonds, clubs
#: ranks high to low, as a card is written
RANK_NAMES = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

#: canonical cards, in deck order (spades A..2, hearts, diamonds, clubs)
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANK_NAMES)
#: canonical card -> index 0..51 in DECK
CARD_INDEX: dict[str, int] = {card: i for i, card in enumerate(DECK)}
#: canonical card -> suit letter
SUIT_OF: dict[str, str] = {card: card[-1] for card in DECK}
#: canonical card -> strength, 12 for the ace down to 0 for the two
STRENGTH: dict[str, int] = {card: 12 - RANK_NAMES.index(card[:-1]) for card in DECK}
#: the four tens, the cards the game is about
TENS: frozenset[str] = frozenset(card for card in DECK if card.startswith("10"))

SEATS4 = "ABCD"
SEATS6 = "ABCDEF"


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
