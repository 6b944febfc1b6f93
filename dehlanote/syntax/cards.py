"""How the notation spells cards and suits, and their canonical forms.

The game facts (the deck, strength, tens, seats and sides) live in :mod:`dehlanote.deck`
(import them from there: this module holds only what is syntax). Nothing here knows the rules
of any game; it only says what the notation accepts. A suit symbol may carry an emoji
variation selector (U+FE0F or U+FE0E, DPN 1.1): :func:`card_of` and :func:`suit_of`
ignore it.
"""

from __future__ import annotations

from ..deck import RANK_NAMES
from . import terms

SUIT_SPELLINGS: dict[str, str] = {
    "S": "S", "H": "H", "D": "D", "C": "C",
    "s": "S", "h": "H", "d": "D", "c": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}

_RANK_SPELLINGS: dict[str, str] = {}
for _r in RANK_NAMES:
    _RANK_SPELLINGS[_r] = _r
    _RANK_SPELLINGS[_r.lower()] = _r
_RANK_SPELLINGS["T"] = "10"
_RANK_SPELLINGS["t"] = "10"

#: every version-1 spelling of every card, mapped to its canonical form
CARD_SPELLINGS: dict[str, str] = {
    r + s: rank + suit
    for r, rank in _RANK_SPELLINGS.items()
    for s, suit in SUIT_SPELLINGS.items()
}

GLYPHS = ("!!", "??", "!?", "?!", "!", "?")
#: the emoji variation selectors a suit symbol may carry (DPN 1.1)
SELECTORS = ("\ufe0f", "\ufe0e")
#: the tags that mean something, by lowercase name: read in any case, kept in this spelling
#: (so that ``game.tag("Rules")`` finds ``[rules "pagat"]``); the canonical order of tags
TAG_ORDER = ("Event", "Site", "Date", "Round", "Annotator", "A", "B", "C", "D", "E", "F",
             "Rules", "Kots", "Result")
TAG_NAMES = {name.lower(): name for name in TAG_ORDER}
#: the regular expression of the inside of a tag value (the grammar's ``STRING`` without its
#: quotes), possessive where Python has it: see :func:`dehlanote.syntax.terms.possessive`
STRING_BODY = terms.possessive(terms.pattern("STRING"))[1:-1]


def _unselect(text: str) -> str:
    return text.replace("\ufe0f", "").replace("\ufe0e", "")


def card_of(spelling: str) -> str | None:
    """The canonical card of a spelling (``10h``, ``T♥``, ``A♥️``), or None."""
    card = CARD_SPELLINGS.get(spelling)
    return card if card is not None else CARD_SPELLINGS.get(_unselect(spelling))


def suit_of(spelling: str) -> str | None:
    """The suit letter of a suit spelling (``h``, ``♥``, ``♡``, ``♦️``), or None."""
    suit = SUIT_SPELLINGS.get(spelling)
    return suit if suit is not None else SUIT_SPELLINGS.get(_unselect(spelling))
