"""What a scorer types, read as the notation writes it, and what to say when it is not.

A line typed at the table is looser than a record: suit words (``trump hearts``), seats in
lower case (``b: QS JS …``, ``dealer d``, ``claim b``, ``tens ac 3 bd 1``). :func:`loosen`
turns such a line into the DPN the session checks; nothing inside a ``{comment}`` or a
``[tag]`` is touched. A word the recorder does not know (``clear``, ``hlep``) is answered
with what can be typed at that point (:func:`unknown_word`), not with an error about a
line the scorer never wrote.
"""

from __future__ import annotations

import difflib
import re
from typing import Optional

from ..deck import seats_for, side_of, sides_for

__all__ = ["HELP_LINES", "KEYWORDS", "help_lines", "stray_word", "loosen", "seat_picture", "unknown_word"]

_SUIT_WORDS = {"spade": "S", "spades": "S", "heart": "H", "hearts": "H", "diamond": "D", "diamonds": "D",
               "club": "C", "clubs": "C"}
_SUIT_WORD = re.compile(r"\b(" + "|".join(sorted(_SUIT_WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_LEAD_SEAT = re.compile(r"^((?:hands\s+)?(?:\d+\.?\s+)?)([a-f])(\s*:)", re.IGNORECASE)
_AFTER = re.compile(r"\b(dealer|by|claim|revoke)(\s+)([a-f])\b", re.IGNORECASE)
_SIDES = re.compile(r"\b(ace|bdf|ac|bd)\b", re.IGNORECASE)

#: the words the recorder knows at the start of a line, besides cards
KEYWORDS = ("deal", "dealer", "trump", "hands", "misdeal", "tens", "claim", "revoke", "undo", "end", "help", "quit",
            "seats")



def loosen(text: str) -> str:
    """The line with suit words as letters and seats and sides in capitals (comments and tags as typed)."""
    if text.startswith(("{", "[")):
        return text
    head, brace, rest = text.partition("{")
    word = head.split(None, 1)[0].lower() if head.split() else ""
    if word == "trump":
        head = _SUIT_WORD.sub(lambda m: _SUIT_WORDS[m.group(1).lower()], head)
    head = _LEAD_SEAT.sub(lambda m: m.group(1) + m.group(2).upper() + m.group(3), head)
    head = _AFTER.sub(lambda m: m.group(1) + m.group(2) + m.group(3).upper(), head)
    if word == "tens":
        head = _SIDES.sub(lambda m: m.group(1).upper(), head)
    if word in ("trump", "deal", "dealer", "hands", "misdeal", "tens", "claim", "revoke"):
        head = word + head[len(word):] if head.lower().startswith(word) else head
    return head + brace + rest


def stray_word(text: str) -> Optional[str]:
    """The first word when it is a word, not a card nor a DPN keyword (``clear``, ``hlep``):
    a line of cards, even a wrong card (``1H``, ``ZS``), is the notation's to judge."""
    words = text.split("{", 1)[0].split()
    if not words:
        return None
    first = words[0]
    if len(first) >= 3 and first.isalpha() and first.lower() not in KEYWORDS:
        return first
    return None


def unknown_word(word: str, kind: str, seat: Optional[str], seats: int) -> str:
    """The answer to a word that is neither a card nor a DPN element: what can be typed now."""
    close = difflib.get_close_matches(word.lower(), KEYWORDS, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]}?)" if close else ""
    letters = seats_for(seats)[:seats]
    now = {
        "dealer": f"the first dealer ({', '.join(letters)})",
        "trump": "trump S, H, D or C (trump hearts), hands A: …, misdeal",
        "drawn": "trump drawn CARD (the card drawn for trump)",
        "card": f"{seat}'s card (e.g. AH), a whole trick, -7C 8H (a card taken back)",
        "over": "a tag, a {comment}",
    }.get(kind, "a DPN element")
    return f"'{word}' is not a card or a word the recorder knows{hint}. Now: {now}; undo, help, quit."


HELP_LINES = (
    "One DPN element a line (each checked at once; a refused line changes nothing):",
    "  trump H            trump (trump hearts, trump H by A: checked)",
    "  AH 10H 3H 7H       a whole trick, leader implied; or one card a line",
    "  B: 4S 5S 7S 9S     a trick with its leader (checked)",
    "  -7C 8H             a card taken back (7C) and the card played (8H)",
    "  hands A: AS KS …   a hand, then B: …, C: …, before the first card",
    "  misdeal            the deal is void, dealt again by the same dealer",
    "  revoke C at 4 stands",
    "                     C revoked in trick 4; the table let the play stand (or",
    "                     penalty): the card refused just before is kept as played",
    "  tens AC 3 BD 1     after a deal's last trick: the tens, checked",
    "  claim B            B's side takes every trick left",
    "  dealer D           the first deal's dealer (later: the rules say who)",
    "  {a comment}        kept with the element before it",
    "  [Event \"Friday\"]   a tag",
    "  undo               take back the last card or line (a tag line too)",
    "  Enter              play the only legal card (when the hands are known)",
    "  seats              who sits where",
    "  end                end an open-ended session (kots=0) between deals",
    "  quit               stop; the record stays unfinished and resumes",
)


def help_lines() -> tuple[str, ...]:
    return HELP_LINES


def seat_picture(seats: int, names: dict[str, str]) -> list[str]:
    """Who sits where, seen from above, and the order of play (anticlockwise), in 80 columns."""
    letters = seats_for(seats)[:seats]

    def who(s: str) -> str:
        name = names.get(s, "")
        return f"{s} {name[:16]}".strip() + f" ({side_of(s, seats)})"

    sides = sides_for(seats)
    if seats == 4:
        a, b, c, d = (who(s) for s in letters)
        rows = [c.center(60).rstrip(), (d.ljust(30) + b.rjust(30)).rstrip(), a.center(60).rstrip()]
        order = "A, then B on A's right, C, D"
        partners = "A and C, B and D"
    else:
        a, b, c, d, e, f = (who(s) for s in letters)
        rows = [d.center(60).rstrip(), (e.ljust(30) + c.rjust(30)).rstrip(), (f.ljust(30) + b.rjust(30)).rstrip(),
                a.center(60).rstrip()]
        order = "A, then B on A's right, C, D, E, F"
        partners = "every other seat"
    return [f"Seats from above; play goes anticlockwise: {order}.",
            f"Partners: {partners} (sides {' and '.join(sides)}).",
            *rows]
