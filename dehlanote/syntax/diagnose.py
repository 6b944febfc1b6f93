"""What went wrong, in a card player's words: a Lark error turned into a coded DpnError.

The diagnosis is a table (:data:`TABLE`), in the manner of Lark's ``match_examples``: each
row names a typical mistake, gives the test that recognises it from what the parser saw
(the word it met, the word before, the terminals it expected), the error it makes, what
reading does after it (:attr:`Diagnosis.recover`) and example records that make it. The
first row whose test holds gives the error. ``tests/syntax/test_diagnose.py`` reads every
example and checks that it gives its row's error at the row's line and column, so a row
that no longer matches its examples, or a row that another row above it shadows, fails.

Positions point at the token at fault; when something is missing at the end of a game (the
text stops, or the next game's tags begin), just after the game's last token.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from ..errors import DpnError
from . import terms
from .cards import CARD_SPELLINGS, SUIT_SPELLINGS, card_of, suit_of

if TYPE_CHECKING:
    from lark.exceptions import UnexpectedInput

    from .reader import Chunk

__all__ = ["RANK_NUMBERS", "TABLE", "Diagnosis", "Seen", "clip", "diagnose", "no_suit"]

#: the numbers that are also ranks: a lone one where a card should be is a card without its suit
RANK_NUMBERS = frozenset(str(n) for n in range(2, 11))


def no_suit(word: str) -> str:
    """The message for a rank written without its suit (``8`` for ``8S``)."""
    rank = {"T": "10"}.get(word.upper(), word.upper())
    return f'"{word}" has no suit: write {rank}S, {rank}H, {rank}D or {rank}C'


#: characters that show as nothing (format characters: a byte order mark, zero-width spaces
#: and joiners, a soft hyphen): named in a message, or "found "BD"" shows nothing wrong
#: and an emoji selector that follows no suit symbol (after one it is part of what is seen, "A♠️")
_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]"
                        "|(?<![♠♥♦♣♤♡♢♧])[\ufe0e\ufe0f]")


def clip(word: str, size: int = 30) -> str:
    """A word as a message shows it: a long one cut short, an invisible character named
    (``B<U+FEFF>D``)."""
    word = word if len(word) <= size else word[: size - 3] + "..."
    return _INVISIBLE.sub(lambda m: f"<U+{ord(m.group()):04X}>", word) if not word.isascii() else word


_WORD = re.compile(r'[^\s\[\]{}"]+')
#: what a player meant as a card: a number or one letter then a suit, or a rank then a letter
_RANK, _SUIT, _GLYPH = terms.pattern("_RANK"), terms.pattern("_SUIT"), terms.pattern("_GLYPH")
_CARDLIKE = re.compile(f"-?(?:[0-9]{{1,3}}|[A-Za-z]){_SUIT}[!?]*|-?{_RANK}[A-Za-z][!?]*")
_KEYWORD_WORDS = set(terms.KEYWORDS.values())
_CARD_RUN = re.compile(f"(?:{_RANK}{_SUIT}{_GLYPH}?){{2,}}")
# runs scanned backwards from an error (see _run_back)
_SPACES = re.compile(r"\s*")
_WORD_CHARS = re.compile(r'[^\s\[\]{}"]*')
_NAME_CHARS = re.compile(r"[A-Za-z0-9_]*")
_LETTER = re.compile(r"[A-Za-z]")
_TAG_NAME_RULE = "a tag name is letters, digits and _, starting with a letter"


def _run_back(chars: re.Pattern[str], text: str, i: int, limit: int = 1 << 62) -> int:
    """Where the run of ``chars`` (a pattern ``[...]*``) that ends at ``i`` starts (scanning
    back at most about ``limit`` characters).

    Reversed slices are matched forwards: a pattern anchored with ``$`` and searched from the
    start of the text retries at every position of every run it passes, which took time
    quadratic in the length of a long tag value or comment before a syntax error.
    """
    start = i
    while i > 0 and start - i < limit:
        lo = max(0, i - 4096)
        piece = text[lo:i][::-1]
        m = chars.match(piece)
        n = m.end() if m is not None else 0
        i -= n
        if n < len(piece):
            break
    return i


def _previous_word_at(text: str, at: int) -> tuple[int, str]:
    """Where the word before ``at`` starts, past spaces and comments, and the word ('' when
    something else stands there). Only its last 64 characters: more than any word it is
    compared with."""
    i = at
    while True:
        i = _run_back(_SPACES, text, i)
        if i > 0 and text[i - 1] == "}":
            opening = text.find("{", text.rfind("}", 0, i - 1) + 1, i - 1)
            if opening < 0:
                return i, ""
            i = opening
            continue
        break
    start = max(_run_back(_WORD_CHARS, text, i, 64), i - 64)
    return start, text[start: i]


def _name_tail(text: str, at: int) -> int | None:
    """Where the tag name that runs into ``at`` starts (letters, digits and _, from a letter)."""
    m = _LETTER.search(text, _run_back(_NAME_CHARS, text, at), at)
    return m.start() if m is not None else None


# ---- the expected terminals, in words ---------------------------------------------------

_DESCRIBE = {
    "CARD": "a card", "WITHDRAWN": "a card", "INT": "a number", "SEAT": "a seat (A B C D, or A to F with six players)",
    "SIDE": "a side (AC or BD)", "SUIT": "a trump suit (S H D C)", "DEAL": "deal",
    "DEALER": "dealer", "MISDEAL": "misdeal", "HANDS": "hands", "TRUMP": "trump",
    "BY": "by", "AT": "at", "CLOSED": "closed", "DRAWN": "drawn", "TENS": "tens", "CLAIM": "claim",
    "REVOKE": "revoke", "STANDS": "stands", "PENALTY": "penalty",
    "DOTTED_INT": "a trick number", "COMMA": "','",
    "LSQB": "a tag", "NAME": "a tag name", "STRING": 'a tag value in double quotes',
    "RSQB": "']'", "COLON": "':' after the seat", "PIPE": "'|'", "$END": "the end of the file",
}
_ORDER = ["CARD", "INT", "SEAT", "SIDE", "SUIT", "NAME", "STRING", "RSQB", "COLON", "DEALER",
          "BY", "AT", "CLOSED", "DRAWN", "PIPE", "MISDEAL", "HANDS", "TRUMP", "CLAIM", "REVOKE", "STANDS",
          "PENALTY", "TENS", "DEAL", "LSQB", "$END"]
_KEYWORDS = set(terms.KEYWORDS)
#: terminals that can only be expected between two elements (a deal line, a trick, ...)
_BOUNDARY = {"TENS", "DEAL", "LSQB", "TRUMP", "HANDS", "MISDEAL", "CLAIM", "REVOKE"}


def _normalise_expected(expected: Iterable[str]) -> set[str]:
    """Lark's names of the expected terminals, with its anonymous ones named."""
    names = set()
    for e in expected:
        if e in ("RSQB", "__ANON_0") or e == "]":
            names.add("RSQB")
        elif e in ("COMMA", ","):
            names.add("COMMA")
        elif e.startswith("__ANON") or e in ("COLON", ":"):
            names.add("COLON")
        else:
            names.add(e)
    return names


def _expected_words(names: set[str], before: str) -> str:
    ordered = [n for n in _ORDER if n in names]
    words: list[str] = []
    for n in ordered:
        if n == "INT":
            prev = before.lower()
            if prev == "deal":
                text = "a deal number"
            elif prev == "at":
                text = "the number of the trick where trump was set"
            elif prev in ("ac", "bd", "ace", "bdf") and "CARD" not in names:
                text = "the number of tens"
            else:
                text = "a trick number"
        elif n in _KEYWORDS:
            text = f"'{_DESCRIBE[n]}'"
        else:
            text = _DESCRIBE[n]
        if text not in words:
            words.append(text)
    if not words:
        return "something else"
    if len(words) > 3:
        words = words[:3]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _card_problem(word: str) -> str:
    bare = word.lstrip("-").rstrip("!?")
    suit = bare[-1:]
    rank = bare[:-1]
    if suit not in SUIT_SPELLINGS:
        return f'"{word}" is not a card: suits are S H D C (or ♠ ♥ ♦ ♣)'
    if rank in ("1",):
        return f'"{word}" is not a card: a ten is written 10 or T'
    return f'"{word}" is not a card: ranks are A K Q J 10 9 8 7 6 5 4 3 2'


# ---- what the parser saw ------------------------------------------------------------------

class Seen:
    """What the parser saw where it stopped: the text, the index of the token at fault, the
    terminals it expected (``names``), the word there and the word before, and the chunk."""

    __slots__ = ("at", "bare", "before", "chunk", "first", "lone", "names", "shown", "text", "what", "word")

    def __init__(self, text: str, at: int, names: set[str], chunk: Chunk) -> None:
        self.text, self.at, self.names, self.chunk = text, at, names, chunk
        m = _WORD.match(text, at)
        self.word = m.group(0) if m else text[at: at + 1]
        self.before = _previous_word_at(text, at)[1]
        self.shown = clip(self.word)
        self.first = text[at: at + 1]
        self.what = _expected_words(names, self.before)
        self.bare = self.word.lstrip("-").rstrip("!?")
        self.lone = self.bare.rstrip(",")

    @property
    def at_end(self) -> bool:
        """Nothing but white space from the token at fault on: the text stops there."""
        return self.at >= len(self.text.rstrip())

    @property
    def in_tag(self) -> bool:
        return bool(self.names & {"NAME", "STRING", "RSQB"}) and "CARD" not in self.names

    @property
    def card(self) -> bool:
        """A card may stand where the parser stopped."""
        return "CARD" in self.names


#: what a row's test gives: the code, the message and the index of the text it points at
#: (None: the token at fault)
Found = tuple[str, str, "int | None"]


class Diagnosis(NamedTuple):
    """One row of the table: a typical mistake.

    ``recover`` says how reading goes on after it (see :mod:`.parser`): ``stop`` (nothing
    after it can be read: the text ends, a comment is never closed), ``skip`` (the element
    is left out and reading resumes at the next one), ``colon`` (the ``:`` after a leader
    seat is read as written in the space before the card), ``capital`` (a lower-case seat
    letter is read as the seat), ``comma`` (a comma after a trick's last card is read as
    the space it stands for) or ``suit`` (a trump suit written as its name, ``diamonds``, is
    read as its letter). The repairs keep every position: the record reads as it
    was surely meant, the error is reported all the same.
    ``examples``: records that make this error: (text, code, line, column).
    """

    name: str
    test: Callable[[Seen], "Found | None"]
    examples: tuple[tuple[str, str, int, int], ...]
    recover: str = "skip"


_TRICK_NUMBER = re.compile(r"[0-9]+\.?")
_LEADER_NEXT = re.compile(r"[ \t]*[A-F][ \t]*:")


def _comma_ends_trick(s: Seen) -> Found | None:
    # "1 A: AH, 10H, 3H, 7H,\n 2 A: AS ...": the comma asks for one more card, so the next
    # trick's number was read as a card without a suit (and the trick lost its last card)
    if not (s.card and s.before.endswith(",") and _TRICK_NUMBER.fullmatch(s.word)):
        return None
    start, _ = _previous_word_at(s.text, s.at)
    comma = start + len(s.before) - 1
    if "\n" in s.text[comma:s.at] or s.word.endswith(".") or _LEADER_NEXT.match(s.text, s.at + len(s.word)):
        return "syntax", "a comma goes between two cards of a trick: no card of this trick follows it", comma
    return None


def _bare_rank_before(s: Seen) -> Found | None:
    # "9 A: 7S 4H 5S 10": the 10 was read as a trick number, but a card was meant
    if s.card and s.before in RANK_NUMBERS and suit_of(s.word) is None:
        text = s.text
        start, _ = _previous_word_at(text, s.at)
        _, card = _previous_word_at(text, start)
        if card_of(card.rstrip("!?,")) is not None and "\n" not in text[start - len(card): start]:
            return "bad-card", no_suit(s.before), start
    return None


def _tag_ends_too_soon(s: Seen) -> Found | None:
    if s.at_end and s.in_tag:
        where = "the end of the file" if s.chunk.last else "the next game"
        return "bad-tag", f"the tag is not finished: expected {s.what} before {where}", None
    return None


def _ends_too_soon(s: Seen) -> Found | None:
    if s.at_end and s.chunk.last:
        return "syntax", f"the record ends too soon: expected {s.what}", None
    return None


def _breaks_off(s: Seen) -> Found | None:
    if s.at_end:
        return "syntax", f"the game breaks off before the next game's tags: expected {s.what}", None
    return None


def _open_comment(s: Seen) -> Found | None:
    return ("syntax", "this comment is never closed: a { needs a matching }", None) if s.first == "{" else None


def _not_utf8(s: Seen) -> Found | None:
    return ("syntax", "this character is not UTF-8 text", None) if s.first == "\ufffd" else None


def _in_tag(s: Seen) -> bool:
    return s.in_tag or (s.before == "[" and s.first != "[")


def _tag_without_name(s: Seen) -> Found | None:
    if _in_tag(s) and "NAME" in s.names and s.first == '"':
        return "bad-tag", 'the tag has no name: a tag is [Name "value"]', None
    return None


def _bad_tag_name(s: Seen) -> Found | None:
    if _in_tag(s) and "NAME" in s.names:
        return "bad-tag", f'"{s.shown}" is not a tag name: {_TAG_NAME_RULE}', None
    return None


def _open_tag_value(s: Seen) -> Found | None:
    if _in_tag(s) and "STRING" in s.names and s.first == '"':
        return "bad-tag", "the tag value is never closed: it needs a closing \" on the same line", None
    return None


def _glued_tag_name(s: Seen) -> Found | None:
    # '[Ev#ent "x"]': the name went on past what a name may hold
    text, at = s.text, s.at
    if _in_tag(s) and "STRING" in s.names and at > 0 and not text[at - 1].isspace():
        name = _name_tail(text, at)
        if name is not None:
            return "bad-tag", f'"{clip(text[name:at] + s.word)}" is not a tag name: {_TAG_NAME_RULE}', name
    return None


def _unquoted_tag_value(s: Seen) -> Found | None:
    if _in_tag(s) and "STRING" in s.names:
        return "bad-tag", f'the tag value must be in double quotes: [Name "value"], found "{s.shown}"', None
    return None


def _tag_not_closed_at_line_end(s: Seen) -> Found | None:
    if _in_tag(s):
        gap = len(s.text[:s.at].rstrip())
        if "\n" in s.text[gap:s.at]:
            return "bad-tag", "the tag is not closed: expected ']' after the value", gap
    return None


def _tag_not_closed(s: Seen) -> Found | None:
    if _in_tag(s):
        return "bad-tag", f"the tag is not closed: expected ']' after the value, found \"{s.shown}\"", None
    return None


def _minus(s: Seen) -> int:
    return s.at + s.word.startswith("-")


def _bare_rank(s: Seen) -> Found | None:
    if s.card and s.lone in RANK_NUMBERS:
        return "bad-card", no_suit(s.lone), _minus(s)
    return None


def _bare_letter_rank(s: Seen) -> Found | None:
    # a letter is no number, so it never began a trick: a syntax error, with the hint
    lone = s.lone
    if s.card and lone.upper() in ("A", "K", "Q", "J", "T") and not ("SEAT" in s.names and lone in "abcdef"):
        hint = no_suit(lone).split(" has no suit: ")[1]
        return "syntax", f'expected {s.what}, found "{lone}", which has no suit: {hint}', _minus(s)
    return None


def _not_a_card(s: Seen) -> Found | None:
    word = s.word
    if s.card and _CARDLIKE.fullmatch(word) and CARD_SPELLINGS.get(s.bare) is None \
            and word.lower() not in _KEYWORD_WORDS:
        return "bad-card", _card_problem(word), None
    return None


def _withdrawn_alone(s: Seen) -> Found | None:
    if s.card and s.before.startswith("-") and CARD_SPELLINGS.get(s.before[1:]):
        return "syntax", f'"{s.before}" must be followed by the card played instead, found "{s.shown}"', None
    return None


def _glyph_apart(s: Seen) -> Found | None:
    if s.first not in ("!", "?"):
        return None
    text, at = s.text, s.at
    start = at
    while start > 0 and not text[start - 1].isspace() and text[start - 1] not in '[]{}"':
        start -= 1
    if start < at:
        glued_at = _WORD.match(text, start)
        glued = clip(glued_at.group(0) if glued_at is not None else text[start:at + 1])
        return "syntax", f'"{glued}": a glyph is one of ! ? !! ?? !? ?!, right after the card', start
    return "syntax", f'"{s.shown}": a glyph goes right after its card, with no space between', None


def _withdrawn_glyph(s: Seen) -> Found | None:
    if s.card and s.word.startswith("-") and CARD_SPELLINGS.get(s.bare):
        return "syntax", (f'"{s.shown}": a withdrawn card takes no glyph and must be followed by '
                          "the card played instead"), None
    return None


def _bad_minus(s: Seen) -> Found | None:
    if s.first == "-" and s.card:
        return "syntax", f'"{s.shown}": a withdrawn card is written -X, a minus sign right before a card', None
    return None


def _boundary(s: Seen) -> bool:
    return bool(s.names & _BOUNDARY) or {"INT", "CARD"} <= s.names


def _late_trump(s: Seen) -> Found | None:
    if _boundary(s) and s.word.lower() == "trump" and "TRUMP" not in s.names:
        return "syntax", f"the trump line must come before the first trick: expected {s.what}", None
    return None


def _late_hands(s: Seen) -> Found | None:
    if _boundary(s) and s.word.lower() == "hands" and "HANDS" not in s.names:
        return "syntax", f"one hands line per deal, before the first trick: expected {s.what}", None
    return None


def _glued_cards(s: Seen) -> Found | None:
    word = s.word
    if s.card and (CARD_SPELLINGS.get(word[:2]) or CARD_SPELLINGS.get(word[:3])) \
            and len(word) <= 200 and _CARD_RUN.fullmatch(word):
        return "syntax", f'"{s.shown}": put a space between two cards', None
    return None


def _missing_colon(s: Seen) -> Found | None:
    # "3 A 4S 5S 7S 9S": the colon after the leader is left out (read as if written)
    if s.names == {"COLON"} and CARD_SPELLINGS.get(s.word.rstrip("!?,")) and s.at > 0 \
            and s.text[s.at - 1] in " \t":
        return "syntax", f"expected {s.what}, found the card {s.shown}", None
    return None


def _unexpected_card(s: Seen) -> Found | None:
    if CARD_SPELLINGS.get(s.word.rstrip("!?")) and not s.card:
        return "syntax", f"expected {s.what}, found the card {s.shown}", None
    return None


def _lower_case_seat(s: Seen) -> Found | None:
    word = s.word
    if len(word.rstrip(":")) == 1 and word[0] in "abcdef" and "SEAT" in s.names:
        return "syntax", f'seats are written in capitals: expected {s.what}, found "{s.shown}"', None
    return None


#: a trump suit written as its English name: the letter it stands for
SUIT_WORDS = {"spades": "S", "spade": "S", "hearts": "H", "heart": "H", "diamonds": "D", "diamond": "D",
              "clubs": "C", "club": "C"}


def _suit_in_words(s: Seen) -> Found | None:
    # "trump diamonds by A": the line was left out, and the deal then had "no trump line"
    letter = SUIT_WORDS.get(s.word.lower())
    if "SUIT" in s.names and letter is not None:
        return "syntax", f'a trump suit is written as its letter: {letter}, not "{s.shown}" (S H D C, or ♠ ♥ ♦ ♣)', None
    return None


def _anything_else(s: Seen) -> Found | None:
    return "syntax", f'expected {s.what}, found "{s.shown}"', None


_HEAD = '[Event "x"]\n'
_DEAL = _HEAD + "deal 1 dealer D\n"

#: the mistakes, in the order they are tried (the first whose test holds gives the error)
TABLE: tuple[Diagnosis, ...] = (
    Diagnosis("comma after a trick's last card", _comma_ends_trick,
              ((_DEAL + " 1 A: AH 10H 3H 7H,\n 2 A: AS\n", "syntax", 3, 19),
               (_DEAL + " 1 A: AH 10H 3H 7H, 2 A: AS\n", "syntax", 3, 19)), "comma"),
    Diagnosis("bare rank before", _bare_rank_before,
              ((_DEAL + " 1 A: AH 10H 3H 10\n", "bad-card", 3, 17),)),
    Diagnosis("tag ends too soon", _tag_ends_too_soon,
              (('[Event "x"', "bad-tag", 1, 11), ('[Event', "bad-tag", 1, 7)), "stop"),
    Diagnosis("record ends too soon", _ends_too_soon,
              ((_DEAL + " 1 A: AH 10H 3H 7H\ntens AC", "syntax", 4, 8), (_HEAD + "deal 1 dealer", "syntax", 2, 14)),
              "stop"),
    Diagnosis("game breaks off", _breaks_off,
              ((_DEAL + "trump\n\n" + _HEAD + "deal 1\n", "syntax", 3, 6),), "stop"),
    Diagnosis("comment never closed", _open_comment,
              ((_DEAL + " 1 A: AH {10H 3H 7H\n", "syntax", 3, 10),), "stop"),
    Diagnosis("not UTF-8", _not_utf8, ((_DEAL + " 1 A: AH \ufffd\n", "syntax", 3, 10),)),
    Diagnosis("tag without a name", _tag_without_name, (('[ "x"]\ndeal 1\n', "bad-tag", 1, 3),)),
    Diagnosis("bad tag name", _bad_tag_name, (('[9Event "x"]\ndeal 1\n', "bad-tag", 1, 2),)),
    Diagnosis("tag value never closed", _open_tag_value, (('[Event "x]\ndeal 1\n', "bad-tag", 1, 8),)),
    Diagnosis("tag name glued to a stray character", _glued_tag_name,
              (('[Ev#ent "x"]\ndeal 1\n', "bad-tag", 1, 2),)),
    Diagnosis("tag value without quotes", _unquoted_tag_value, (('[Event x]\ndeal 1\n', "bad-tag", 1, 8),)),
    Diagnosis("tag not closed at the line end", _tag_not_closed_at_line_end,
              (('[Event "x"\ndeal 1\n', "bad-tag", 1, 11),)),
    Diagnosis("tag not closed", _tag_not_closed, (('[Event "x" "y"]\ndeal 1\n', "bad-tag", 1, 12),)),
    Diagnosis("bare rank", _bare_rank, ((_DEAL + "hands A: 8 AS\n", "bad-card", 3, 10),
                                       (_DEAL + " 1 A: AH 10H -8 7H\n", "bad-card", 3, 15))),
    Diagnosis("bare letter rank", _bare_letter_rank, ((_DEAL + " 1 A: AH 10H K 7H\n", "syntax", 3, 14),)),
    Diagnosis("not a card", _not_a_card, ((_DEAL + " 1 A: AH 10H 1H 7H\n", "bad-card", 3, 14),
                                          (_DEAL + " 1 A: AH 10H 3X 7H\n", "bad-card", 3, 14))),
    Diagnosis("withdrawn card alone", _withdrawn_alone, ((_DEAL + " 1 A: AH -10H\ntens AC 0 BD 0\n",
                                                          "syntax", 4, 1),)),
    Diagnosis("glyph apart from its card", _glyph_apart, ((_DEAL + " 1 A: AH ! 10H 3H 7H\n", "syntax", 3, 10),
                                                          (_DEAL + " 1 A: AH 10H!!! 3H 7H\n", "syntax", 3, 10))),
    Diagnosis("withdrawn card with a glyph", _withdrawn_glyph, ((_DEAL + " 1 A: -AH! KH 10H 3H 7H\n",
                                                                 "syntax", 3, 7),)),
    Diagnosis("bad minus", _bad_minus, ((_DEAL + " 1 A: - AH 10H 3H 7H\n", "syntax", 3, 7),)),
    Diagnosis("trump after the tricks", _late_trump, ((_DEAL + " 1 A: AH 10H 3H 7H\ntrump S\n", "syntax", 4, 1),)),
    Diagnosis("hands after the tricks", _late_hands, ((_DEAL + " 1 A: AH 10H 3H 7H\nhands A: AS\n",
                                                       "syntax", 4, 1),)),
    Diagnosis("cards without a space", _glued_cards, ((_DEAL + " 1 A: AH 10H3H 7H\n", "syntax", 3, 10),)),
    Diagnosis("colon left out", _missing_colon, ((_DEAL + " 1 A AH 10H 3H 7H\n", "syntax", 3, 6),
                                                  (_HEAD + "deal 1\nhands A AS\n", "syntax", 3, 9)), "colon"),
    Diagnosis("card out of place", _unexpected_card, ((_DEAL + "trump AH\n", "syntax", 3, 7),)),
    Diagnosis("lower-case seat", _lower_case_seat, ((_DEAL + " 1 a: AH 10H 3H 7H\n", "syntax", 3, 4),), "capital"),
    Diagnosis("trump suit in words", _suit_in_words, ((_DEAL + "trump Diamonds by A\n", "syntax", 3, 7),), "suit"),
    Diagnosis("anything else", _anything_else, ((_DEAL + "trump S by X\n", "syntax", 3, 12),)),
)


def _position(text: str, index: int) -> tuple[int, int]:
    """1-based line and column in ``text`` of the character at ``index``."""
    return text.count("\n", 0, index) + 1, index - text.rfind("\n", 0, index)


def diagnose(exc: UnexpectedInput, chunk: Chunk, source: str | None = None) -> tuple[Diagnosis, DpnError]:
    """The row of :data:`TABLE` that explains a Lark error in ``chunk``, and its error.

    ``source``: the text the caret display shows, when the chunk's text is not the record's
    own (reading resumed after an earlier error, which left elements out, keeps every
    position: only the displayed line differs).
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken
    text = chunk.text
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        at = len(text.rstrip())
        expected = exc.expected
    elif isinstance(exc, UnexpectedToken):
        at = exc.token.start_pos if exc.token.start_pos is not None else 0
        expected = exc.expected
    else:
        assert isinstance(exc, UnexpectedCharacters)
        at = exc.pos_in_stream or 0
        expected = exc.allowed or set()
    seen = Seen(text, at, _normalise_expected(expected), chunk)
    for row in TABLE:
        found = row.test(seen)
        if found is not None:
            code, message, index = found
            return row, error_at(chunk, code, message, at if index is None else index, source)
    raise AssertionError("the last row of the table always holds")  # pragma: no cover


def error_at(chunk: Chunk, code: str, message: str, index: int, source: str | None = None) -> DpnError:
    """A DpnError at index ``index`` of the chunk's text, with its line for the caret display."""
    text = chunk.text if source is None else source
    line, column = _position(text, index)
    line_start = text.rfind("\n", 0, index) + 1
    line_end = text.find("\n", index)
    source_line = text[line_start: len(text) if line_end < 0 else line_end]
    if line == 1 and chunk.column > 1:
        source_line = " " * (chunk.column - 1) + source_line
        column += chunk.column - 1
    return DpnError(code, message, line + chunk.line - 1, column, source_line=source_line)
