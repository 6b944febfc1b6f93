"""The DPN syntax layer against NOTATION.md: lexical rules, grammar, errors, streaming, writer.

Tables drive the tests: each row is one spelling, construct or mistake, with what the
parser must make of it. Nothing here knows the rules of the game.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dehlanote.errors import DpnError
from dehlanote.syntax import (
    Game,
    iter_games,
    iter_path,
    parse_path,
    parse_string,
    write_game,
    write_games,
)
from dehlanote.deck import DECK
from dehlanote.syntax.cards import CARD_SPELLINGS

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))
INVALID = sorted((ROOT / "tests" / "invalid").glob("*.dpn"))

#: every name Lark gives a terminal: none may reach a player's eyes
LARK_NAMES = re.compile(
    r"\b(CARD|INT|SEAT|SIDE|SUIT|NAME|STRING|RSQB|LSQB|COLON|PIPE|WITHDRAWN|DEALER|DEAL|MISDEAL"
    r"|HANDS|TRUMP|BY|AT|CLOSED|DRAWN|TENS|CLAIM|DOTTED_INT|COMMA|COMMENT|WS)\b|__ANON|\$END|END-OF-FILE|Token\(")


# ---- helpers ---------------------------------------------------------------------------

def short(value: Any) -> str | None:
    """A readable test id for a record: one line, at most 40 characters."""
    if not isinstance(value, (str, bytes)):
        return None
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    text = text.replace("\r", "\\r").replace("\n", "/")
    return text if len(text) <= 40 else text[:37] + "..."


def one(text: str) -> Game:
    """The one game of a text, which must read without errors."""
    games = parse_string(text)
    assert len(games) == 1, games
    assert games[0].errors == (), games[0].errors
    return games[0]


def first_error(text: str) -> DpnError:
    errors = [e for g in parse_string(text) for e in g.errors]
    assert errors, f"no error in {text!r}"
    return errors[0]


def where(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based line and column of the ``nth`` occurrence of ``needle`` in ``text``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def plays(game: Game, deal: int = 0, trick: int = 0) -> list[str]:
    return [p.card for p in game.deals[deal].tricks[trick].plays]


def facts(game: Game) -> Any:
    """What a record says, without where it says it (hands as sets: the writer sorts them)."""
    def hand(h):
        return (h.seat, frozenset(c.card for c in h.cards[: h.split]),
                frozenset(c.card for c in h.cards[h.split:]) if h.split is not None else None,
                h.comments)

    def trump(t):
        if t is None:
            return None
        return (t.suit and t.suit.value, t.by and t.by.value, t.at and t.at.value, t.closed,
                t.drawn and t.drawn.card, t.comments)

    def trick(t):
        return (t.number, t.leader and t.leader.value, t.comments,
                tuple((p.card, tuple(w.card for w in p.withdrawn), p.glyph, p.comments) for p in t.plays))

    deals = tuple(
        (d.number and d.number.value, d.dealer and d.dealer.value, d.comments,
         tuple(m.comments for m in d.misdeals),
         None if d.hands is None else frozenset(hand(h) for h in d.hands),
         trump(d.trump), tuple(trick(t) for t in d.tricks),
         d.tens and (tuple((s.value, n.value) for s, n in d.tens.counts), d.tens.comments),
         d.claim and (d.claim.seat, d.claim.comments))
        for d in game.deals)
    return (game.comments, frozenset((t.name, t.value, t.comments) for t in game.tags), deals)


DEAL = "deal 1 dealer D\n"
TRICK1 = " 1 A: AH 10H 3H 7H\n"


# ---- cards -----------------------------------------------------------------------------

CARD_ROWS = [
    # spelling, canonical
    ("10H", "10H"), ("10h", "10H"), ("TH", "10H"), ("th", "10H"), ("Td", "10D"), ("tC", "10C"),
    ("AS", "AS"), ("as", "AS"), ("aS", "AS"), ("As", "AS"), ("KH", "KH"), ("kh", "KH"),
    ("QD", "QD"), ("qd", "QD"), ("JC", "JC"), ("jc", "JC"), ("9S", "9S"), ("2c", "2C"),
    ("A♠", "AS"), ("K♥", "KH"), ("Q♦", "QD"), ("J♣", "JC"), ("10♠", "10S"), ("t♥", "10H"),
    ("A♤", "AS"), ("K♡", "KH"), ("Q♢", "QD"), ("J♧", "JC"), ("T♤", "10S"), ("2♧", "2C"),
    ("5♢", "5D"), ("8♡", "8H"),
]


@pytest.mark.parametrize("spelling,canonical", CARD_ROWS, ids=short)
def test_card_spelling_in_a_trick(spelling: str, canonical: str) -> None:
    game = one(f"{DEAL} 1 A: {spelling} 2S 3S 4S\n")
    assert plays(game)[0] == canonical


@pytest.mark.parametrize("spelling,canonical", CARD_ROWS, ids=short)
def test_card_spelling_in_hands_and_drawn(spelling: str, canonical: str) -> None:
    game = one(f"{DEAL}hands A: {spelling}\ntrump drawn {spelling}\n")
    assert game.deals[0].hands[0].cards[0].card == canonical
    assert game.deals[0].trump.drawn.card == canonical


@pytest.mark.parametrize("suit", "SHDCshdc♠♥♦♣♤♡♢♧", ids=short)
def test_every_rank_in_every_suit_spelling(suit: str) -> None:
    ranks = ["A", "K", "Q", "J", "10", "T", "9", "8", "7", "6", "5", "4", "3", "2",
             "a", "k", "q", "j", "t"]
    spellings = [r + suit for r in ranks]
    game = one(DEAL + " 1 " + " ".join(spellings) + "\n")
    assert plays(game) == [CARD_SPELLINGS[s] for s in spellings]
    assert set(plays(game)) <= set(DECK)


def test_card_table_is_complete() -> None:
    # 13 ranks, A K Q J also in lowercase, T and t; 4 suits in 4 spellings (letter in both cases, two symbols)
    assert len(CARD_SPELLINGS) == (13 + 4 + 2) * 16
    assert set(CARD_SPELLINGS.values()) == set(DECK)


BAD_CARD_ROWS = [
    # record text, the bad token, a word the message must hold
    (DEAL + " 1 A: AH 1H 3H 7H\n", "1H", "10 or T"),
    (DEAL + " 1 A: AH 11S 3H 7H\n", "11S", "ranks"),
    (DEAL + " 1 A: AH ZS 3H 7H\n", "ZS", "ranks"),
    (DEAL + " 1 A: AH AX 3H 7H\n", "AX", "suits"),
    (DEAL + " 1 A: AH 1♥ 3H 7H\n", "1♥", "10 or T"),
    (DEAL + " 1 A: AH 10X 3H 7H\n", "10X", "suits"),
    (DEAL + " 1 A: AH 0h 3H 7H\n", "0h", "ranks"),
    (DEAL + " 1 1S 2S 3S 4S\n", "1S", "10 or T"),
    (DEAL + " 1 A: AH 10H 3H 11H!\n", "11H!", "ranks"),
    (DEAL + " 1 A: AH -1H 10H 3H 7H\n", "-1H", "10 or T"),
    (DEAL + "hands A: AS KS 11S\n", "11S", "ranks"),
    (DEAL + "hands A: AS KS | ZS\n", "ZS", "ranks"),
    (DEAL + "trump drawn 1D\n", "1D", "10 or T"),
    (DEAL + "trump drawn AX\n", "AX", "suits"),
]


@pytest.mark.parametrize("text,token,hint", BAD_CARD_ROWS, ids=short)
def test_bad_card(text: str, token: str, hint: str) -> None:
    error = first_error(text)
    assert error.code == "bad-card"
    assert (error.line, error.column) == where(text, token)
    assert f'"{token}"' in error.message and hint in error.message


def test_bad_card_position_is_exact() -> None:
    error = first_error("[Event \"x\"]\n\ndeal 1 dealer D\ntrump D by A\n 1 A: AH 10H 3H 7H\n 2 A: AS 11S 2S 10S\n")
    assert (error.code, error.line, error.column) == ("bad-card", 6, 10)
    assert error.source_line == " 2 A: AS 11S 2S 10S"


# ---- seats and sides ---------------------------------------------------------------------

@pytest.mark.parametrize("seat", "ABCDEF", ids=short)
def test_seat(seat: str) -> None:
    game = one(f"deal 1 dealer {seat}\nhands {seat}: AS\ntrump S by {seat}\n 1 {seat}: AS\n")
    deal = game.deals[0]
    assert deal.dealer.value == seat
    assert deal.hands[0].seat == seat
    assert deal.trump.by.value == seat
    assert deal.tricks[0].leader.value == seat


@pytest.mark.parametrize("text", [
    "deal 1 dealer G\n", "deal 1 dealer a\n", DEAL + " 1 a: AH\n", DEAL + "hands g: AS\n",
    DEAL + "trump S by b\n",
], ids=short)
def test_bad_seat_is_a_syntax_error(text: str) -> None:
    error = first_error(text)
    assert error.code == "syntax"
    assert "seat" in error.message


@pytest.mark.parametrize("first,second", [("AC", "BD"), ("BD", "AC"), ("ACE", "BDF"), ("BDF", "ACE")], ids=short)
def test_sides_in_tens(first: str, second: str) -> None:
    game = one(f"{DEAL}{TRICK1}tens {first} 3 {second} 1\n")
    counts = game.deals[0].tens.counts
    assert [(s.value, n.value) for s, n in counts] == [(first, 3), (second, 1)]


@pytest.mark.parametrize("text,token", [
    (DEAL + "tens AB 3 CD 1\n", "AB"), (DEAL + "tens AC 3 XX 1\n", "XX"),
    (DEAL + "tens ac 3 bd 1\n", "ac"), (DEAL + "tens AC three BD 1\n", "three"),
], ids=short)
def test_bad_tens(text: str, token: str) -> None:
    error = first_error(text)
    assert error.code == "syntax"
    assert (error.line, error.column) == where(text, token)


# ---- tags ------------------------------------------------------------------------------------

TAG_ROWS = [
    # tag as written, name, value
    ('[Event "Friday club"]', "Event", "Friday club"),
    ('[Event ""]', "Event", ""),
    (r'[Event "the \"Friday\" club"]', "Event", 'the "Friday" club'),
    (r'[Site "C:\\cards\\dehla"]', "Site", r"C:\cards\dehla"),
    (r'[Annotator "a \\\" b"]', "Annotator", r'a \" b'),
    ('[ Round   "3" ]', "Round", "3"),
    ('[Custom_tag2 "x"]', "Custom_tag2", "x"),
    ('[rules "pagat kots=3"]', "Rules", "pagat kots=3"),     # known names read in any case
    ('[RESULT "*"]', "Result", "*"),
    ('[White "{not a comment}"]', "White", "{not a comment}"),
    ('[Note "[deal 1]"]', "Note", "[deal 1]"),
    ('[Players "Asha, Bilal; Chitra & Dev"]', "Players", "Asha, Bilal; Chitra & Dev"),
    ('[Event "चाय पार्टी"]', "Event", "चाय पार्टी"),
]


@pytest.mark.parametrize("tag,name,value", TAG_ROWS, ids=short)
def test_tag(tag: str, name: str, value: str) -> None:
    game = one(tag + "\n" + DEAL)
    assert [(t.name, t.value) for t in game.tags] == [(name, value)]
    assert (game.tags[0].line, game.tags[0].column) == (1, 1)


BAD_TAG_ROWS = [
    # record, code, line, column, words in the message
    ('[Event Friday]\ndeal\n', "bad-tag", 1, 8, "double quotes"),
    ('[Event "Friday]\ndeal\n', "bad-tag", 1, 8, "never closed"),
    ('[Event "Friday"\ndeal\n', "bad-tag", 1, 16, "not closed"),
    ('[Event "Friday" x]\ndeal\n', "bad-tag", 1, 17, "not closed"),
    ('[Event "Friday"\n[Site "home"]\ndeal\n', "bad-tag", 1, 16, "not closed"),
    ('["Friday"]\ndeal\n', "bad-tag", 1, 2, "no name"),
    ('[2Event "x"]\ndeal\n', "bad-tag", 1, 2, "tag name"),
    ('[Ev#ent "x"]\ndeal\n', "bad-tag", 1, 2, "tag name"),
    ('[Event', "bad-tag", 1, 7, "not finished"),
    ('[Event "x"]\n[Date "2026.01.01"]\n[Event "y"]\ndeal\n', "bad-tag", 3, 1, "twice"),
    ('[Event "x"]\n[event "y"]\ndeal\n', "bad-tag", 2, 1, "twice"),
    ('[Zeta "x"] [Zeta "x"]\ndeal\n', "bad-tag", 1, 12, "twice"),
]


@pytest.mark.parametrize("text,code,line,column,words", BAD_TAG_ROWS, ids=short)
def test_bad_tag(text: str, code: str, line: int, column: int, words: str) -> None:
    error = first_error(text)
    assert (error.code, error.line, error.column) == (code, line, column), error
    assert words in error.message


def test_repeated_tag_does_not_stop_the_game() -> None:
    games = parse_string('[Event "x"]\n[Event "y"]\n' + DEAL + TRICK1)
    assert len(games) == 1
    assert [e.code for e in games[0].errors] == ["bad-tag"]
    assert plays(games[0]) == ["AH", "10H", "3H", "7H"]
    assert [t.value for t in games[0].tags] == ["x", "y"]


def test_broken_tag_keeps_the_tags_read_before_it() -> None:
    # (and reading goes on after it, issue 22 item 19: the broken tag is left out)
    games = parse_string('[Event "x"]\n[Site y]\n' + DEAL + TRICK1)
    assert games[0].tag("Event") == "x" and games[0].tag("Site") is None
    assert [(e.code, e.line, e.column) for e in games[0].errors] == [("bad-tag", 2, 7)]
    assert plays(games[0]) == ["AH", "10H", "3H", "7H"]


# ---- games -----------------------------------------------------------------------------------

GAME_ROWS = [
    # text, [(tags, deals) per game]
    ("", []),
    ("\n\n  \t\n", []),
    ("deal 1 dealer D\n", [(0, 1)]),
    ("deal 1 dealer D\ndeal\ndeal\n", [(0, 3)]),
    ('[Event "a"]\n', [(1, 0)]),
    ('[Event "a"]\n[Site "b"]\n', [(2, 0)]),
    ('[Event "a"]\ndeal 1 dealer D\n[Event "b"]\ndeal 1 dealer A\n', [(1, 1), (1, 1)]),
    ('deal 1 dealer D\n[Event "b"]\ndeal 1 dealer A\ndeal\n', [(0, 1), (1, 2)]),
    ('[Event "a"]\ndeal 1 dealer D\ndeal 2\n[Event "b"]\n[Site "s"]\n\n[Round "3"]\ndeal 1 dealer B\n',
     [(1, 2), (3, 1)]),
    ('[Event "a"] deal 1 dealer D 1 AH [Event "b"] deal 1 dealer A', [(1, 1), (1, 1)]),
    ('[Event "deal"]\n{a [Site "x"] in a comment}\ndeal 1 dealer D {[Event "no"]}\n', [(1, 1)]),
    ('deal 1 dealer D {\n[Event "still a comment"]\n}\n[Event "b"]\ndeal 1 dealer C\n', [(0, 1), (1, 1)]),
]


@pytest.mark.parametrize("text,shape", GAME_ROWS, ids=short)
def test_games_of_a_file(text: str, shape: list[tuple[int, int]]) -> None:
    games = parse_string(text)
    assert [(len(g.tags), len(g.deals)) for g in games] == shape
    assert all(g.errors == () for g in games)


def test_game_positions_are_file_positions() -> None:
    text = 'deal 1 dealer D\n 1 AH\n[Event "b"]\ndeal 1 dealer A\n 1 B: 2C\n'
    first, second = parse_string(text)
    assert (first.line, first.column) == (1, 1)
    assert (second.line, second.column) == (3, 1)
    trick = second.deals[0].tricks[0]
    assert (trick.line, trick.column, trick.plays[0].line, trick.plays[0].column) == (5, 2, 5, 7)


def test_positions_on_the_line_where_a_game_starts() -> None:
    text = '[Event "a"] deal 1 dealer D 1 AH [Event "b"] deal 1 dealer A 1 B: 2C'
    second = parse_string(text)[1]
    assert (second.line, second.column) == where(text, '[Event "b"]')
    assert (second.deals[0].tricks[0].plays[0].line, second.deals[0].tricks[0].plays[0].column) == where(text, "2C")


# ---- deals -----------------------------------------------------------------------------------

@pytest.mark.parametrize("line,number,dealer", [
    ("deal", None, None), ("deal 3", 3, None), ("deal dealer B", None, "B"),
    ("deal 2 dealer C", 2, "C"), ("DEAL 1 DEALER A", 1, "A"), ("Deal 12 Dealer F", 12, "F"),
], ids=short)
def test_deal_line(line: str, number: int | None, dealer: str | None) -> None:
    deal = one(line + "\n").deals[0]
    assert (deal.number and deal.number.value) == number
    assert (deal.dealer and deal.dealer.value) == dealer
    assert (deal.line, deal.column) == (1, 1)
    if number is not None:
        assert (deal.number.line, deal.number.column) == (1, 6)


@pytest.mark.parametrize("count", [0, 1, 3], ids=short)
def test_misdeal(count: int) -> None:
    deal = one(DEAL + "misdeal\n" * count + TRICK1).deals[0]
    assert len(deal.misdeals) == count
    assert [(m.line, m.column) for m in deal.misdeals] == [(2 + i, 1) for i in range(count)]


HANDS_ROWS = [
    # hands text, [(seat, cards, split)]
    ("hands A: AS KS\n", [("A", ["AS", "KS"], None)]),
    ("hands A: as ks B: 2c\n", [("A", ["AS", "KS"], None), ("B", ["2C"], None)]),
    ("hands A: AS KS QS JS 10S | 9S 8S\n      B: AH | KH\n",
     [("A", ["AS", "KS", "QS", "JS", "10S", "9S", "8S"], 5), ("B", ["AH", "KH"], 1)]),
    ("hands A: AS|KS\n", [("A", ["AS", "KS"], 1)]),
    ("hands A: " + " ".join(DECK[:13]) + "\n B: " + " ".join(DECK[13:26]) + "\n C: "
     + " ".join(DECK[26:39]) + "\n D: " + " ".join(DECK[39:]) + "\n",
     [("A", list(DECK[:13]), None), ("B", list(DECK[13:26]), None), ("C", list(DECK[26:39]), None),
      ("D", list(DECK[39:]), None)]),
    # six players: 26 cards a hand, the deck three times over, five before the |
    ("hands " + "\n".join(f"{s}: " + " ".join(DECK[i * 26 % 52: i * 26 % 52 + 5]) + " | "
                          + " ".join(DECK[i * 26 % 52 + 5: i * 26 % 52 + 26]) for i, s in enumerate("ABCDEF")) + "\n",
     [(s, list(DECK[i * 26 % 52: i * 26 % 52 + 26]), 5) for i, s in enumerate("ABCDEF")]),
]


@pytest.mark.parametrize("text,expected", HANDS_ROWS, ids=short)
def test_hands(text: str, expected: list[tuple[str, list[str], int | None]]) -> None:
    hands = one(DEAL + text).deals[0].hands
    assert [(h.seat, [c.card for c in h.cards], h.split) for h in hands] == expected


def test_hands_positions() -> None:
    text = DEAL + "hands A: AS KS\n      B: 2C\n"
    hands = one(text).deals[0].hands
    assert (hands[0].line, hands[0].column) == (2, 7)
    assert [(c.line, c.column) for c in hands[0].cards] == [(2, 10), (2, 13)]
    assert (hands[1].line, hands[1].column, hands[1].cards[0].column) == (3, 7, 10)


TRUMP_ROWS = [
    # line, suit, by, at, closed, drawn
    ("trump D", "D", None, None, False, None),
    ("trump d", "D", None, None, False, None),
    ("trump ♦", "D", None, None, False, None),
    ("trump ♢", "D", None, None, False, None),
    ("trump ♠ by A", "S", "A", None, False, None),
    ("trump H at 3", "H", None, 3, False, None),
    ("trump C closed", "C", None, None, True, None),
    ("trump S by B at 4", "S", "B", 4, False, None),
    ("trump S by B closed", "S", "B", None, True, None),
    ("trump h at 7 closed", "H", None, 7, True, None),
    ("trump D by A at 12 closed", "D", "A", 12, True, None),
    ("TRUMP D BY A AT 2 CLOSED", "D", "A", 2, True, None),
    ("trump drawn 5H", None, None, None, False, "5H"),
    ("trump drawn t♤", None, None, None, False, "10S"),
]


@pytest.mark.parametrize("line,suit,by,at,closed,drawn", TRUMP_ROWS, ids=short)
def test_trump(line: str, suit: str | None, by: str | None, at: int | None, closed: bool,
               drawn: str | None) -> None:
    trump = one(DEAL + line + "\n" + TRICK1).deals[0].trump
    assert (trump.line, trump.column) == (2, 1)
    assert (trump.suit and trump.suit.value) == suit
    assert (trump.by and trump.by.value) == by
    assert (trump.at and trump.at.value) == at
    assert trump.closed is closed
    assert (trump.drawn and trump.drawn.card) == drawn


@pytest.mark.parametrize("line,token", [
    ("trump X", "X"), ("trump closed", "closed"), ("trump D closed by A", "by"),
    ("trump D at 3 by A", "by"), ("trump drawn", None), ("trump drawn D", "D"),
    ("trump D by", None), ("trump D at A", "A"), ("trump AH", "AH"),
], ids=short)
def test_bad_trump(line: str, token: str | None) -> None:
    text = DEAL + line + "\n" + (TRICK1 if token is None else "")
    error = first_error(text)
    assert error.code == "syntax"
    if token is not None:
        assert (error.line, error.column) == where(text, token, text.count(token) - 1)


TRICK_ROWS = [
    # tricks as written, [(number, leader, cards)]
    (" 1 A: AH 10H 3H 7H\n", [(1, "A", ["AH", "10H", "3H", "7H"])]),
    (" 1 AH 10H 3H 7H\n", [(1, None, ["AH", "10H", "3H", "7H"])]),
    ("1 A:AH 10H 3H 7H\n", [(1, "A", ["AH", "10H", "3H", "7H"])]),
    (" 1 A: AH 10H 3H 7H  2 A: AS QS 2S 10S\n",
     [(1, "A", ["AH", "10H", "3H", "7H"]), (2, "A", ["AS", "QS", "2S", "10S"])]),
    ("1 ah th 3h 7h 2 as qs 2s ts 3 4s 5s 7s 9s\n",
     [(1, None, ["AH", "10H", "3H", "7H"]), (2, None, ["AS", "QS", "2S", "10S"]),
      (3, None, ["4S", "5S", "7S", "9S"])]),
    (" 1 A: AH\n 10H\n 3H 7H\n", [(1, "A", ["AH", "10H", "3H", "7H"])]),
    (" 1 A: AH 10H 3H 7H 9H 2H\n", [(1, "A", ["AH", "10H", "3H", "7H", "9H", "2H"])]),
    (" 1 AH\n", [(1, None, ["AH"])]),
    (" 7 C: KS\n 3 KD\n", [(7, "C", ["KS"]), (3, None, ["KD"])]),
    ("".join(f"{n:>2} {'ABCD'[n % 4]}: {DECK[n]} {DECK[n + 13]} {DECK[n + 26]} {DECK[n + 39]}\n" for n in range(1, 13)),
     [(n, "ABCD"[n % 4], [DECK[n], DECK[n + 13], DECK[n + 26], DECK[n + 39]]) for n in range(1, 13)]),
]


@pytest.mark.parametrize("text,expected", TRICK_ROWS, ids=short)
def test_tricks(text: str, expected: list[tuple[int, str | None, list[str]]]) -> None:
    tricks = one(DEAL + text).deals[0].tricks
    assert [(t.number, t.leader and t.leader.value, [p.card for p in t.plays]) for t in tricks] == expected


def test_trick_positions() -> None:
    text = DEAL + " 1 A: AH 10H 3H 7H  2 AS QS\n"
    first, second = one(text).deals[0].tricks
    assert (first.line, first.column, first.leader.line, first.leader.column) == (2, 2, 2, 4)
    assert [(p.line, p.column) for p in first.plays] == [(2, 7), (2, 10), (2, 14), (2, 17)]
    assert (second.line, second.column, second.leader) == (2, 21, None)
    assert [(p.line, p.column) for p in second.plays] == [(2, 23), (2, 26)]


WITHDRAWN_ROWS = [
    # trick, [(card, withdrawn)]
    (" 1 A: AH -KS 10H 3H 7H\n", [("AH", []), ("10H", ["KS"]), ("3H", []), ("7H", [])]),
    (" 1 A: AH -KS -2C 10H 3H 7H\n", [("AH", []), ("10H", ["KS", "2C"]), ("3H", []), ("7H", [])]),
    (" 1 A: -KS AH -t♣ 10H 3H -qd 7H\n", [("AH", ["KS"]), ("10H", ["10C"]), ("3H", []), ("7H", ["QD"])]),
    (" 1 A: AH -KS 10H! 3H 7H\n", [("AH", []), ("10H", ["KS"]), ("3H", []), ("7H", [])]),
]


@pytest.mark.parametrize("text,expected", WITHDRAWN_ROWS, ids=short)
def test_withdrawn_cards(text: str, expected: list[tuple[str, list[str]]]) -> None:
    trick = one(DEAL + text).deals[0].tricks[0]
    assert [(p.card, [w.card for w in p.withdrawn]) for p in trick.plays] == expected


def test_withdrawn_card_position() -> None:
    text = DEAL + " 1 A: AH -KS 10H 3H 7H\n"
    play = one(text).deals[0].tricks[0].plays[1]
    assert (play.withdrawn[0].line, play.withdrawn[0].column) == where(text, "-KS")
    assert (play.line, play.column) == where(text, "10H")


@pytest.mark.parametrize("text,token,words", [
    (DEAL + " 1 A: AH -KS\n", None, "ends too soon"),
    (DEAL + " 1 A: AH -KS! 10H\n", "-KS!", "withdrawn"),
    (DEAL + " 1 A: AH - KS 10H\n", "-", "withdrawn"),
    (DEAL + " 1 A: AH -KS\ntens AC 1 BD 3\n", "tens", "card"),
], ids=short)
def test_bad_withdrawn(text: str, token: str | None, words: str) -> None:
    error = first_error(text)
    assert error.code == "syntax"
    assert words in error.message
    if token is not None:
        assert (error.line, error.column) == where(text, token)


@pytest.mark.parametrize("glyph", ["!", "?", "!!", "??", "!?", "?!"], ids=short)
def test_glyph(glyph: str) -> None:
    text = DEAL + f" 1 A: AH 10H{glyph} 3h{glyph} 7♥{glyph}\n"
    trick = one(text).deals[0].tricks[0]
    assert [(p.card, p.glyph) for p in trick.plays] == [("AH", None), ("10H", glyph), ("3H", glyph), ("7H", glyph)]
    assert (trick.plays[1].line, trick.plays[1].column) == where(text, "10H")


@pytest.mark.parametrize("text,token,words", [
    (DEAL + " 1 A: AH 10H!!! 3H\n", "10H!!!", "glyph"),
    (DEAL + " 1 A: AH 10H!?! 3H\n", "10H!?!", "glyph"),
    (DEAL + " 1 A: AH 10H ! 3H\n", "!", "no space"),
    (DEAL + "hands A: AS! KS\n", "!", "glyph"),
    (DEAL + "trump drawn AS?\n", "?", "glyph"),
], ids=short)
def test_bad_glyph(text: str, token: str, words: str) -> None:
    error = first_error(text)
    assert error.code == "syntax"
    assert words in error.message
    assert (error.line, error.column) == where(text, token)


# ---- comments ----------------------------------------------------------------------------------

COMMENT_ROWS = [
    # text with one comment {c}, where it must be attached
    ("{c}\n[Event \"x\"]\n" + DEAL, lambda g: g.comments),
    ("{c}\n" + DEAL, lambda g: g.comments),
    ("[Event \"x\"] {c}\n" + DEAL, lambda g: g.tags[0].comments),
    ("[Event \"x\"]\n[Site \"y\"] {c}\n" + DEAL, lambda g: g.tags[1].comments),
    ("deal 1 dealer D {c}\n", lambda g: g.deals[0].comments),
    ("deal {c} 1 dealer D\n", lambda g: g.deals[0].comments),
    (DEAL + "misdeal {c}\nmisdeal\n", lambda g: g.deals[0].misdeals[0].comments),
    (DEAL + "hands A: AS KS {c}\n      B: 2C\n", lambda g: g.deals[0].hands[0].comments),
    (DEAL + "hands A: AS {c} | KS\n", lambda g: g.deals[0].hands[0].comments),
    (DEAL + "hands A: AS\n      B: 2C {c}\ntrump S\n", lambda g: g.deals[0].hands[1].comments),
    (DEAL + "trump D by A {c}\n", lambda g: g.deals[0].trump.comments),
    (DEAL + "trump drawn 5H {c}\n", lambda g: g.deals[0].trump.comments),
    (DEAL + " 1 {c} A: AH 10H\n", lambda g: g.deals[0].tricks[0].comments),
    (DEAL + " 1 A: {c} AH 10H\n", lambda g: g.deals[0].tricks[0].comments),
    (DEAL + " 1 A: AH {c} 10H\n", lambda g: g.deals[0].tricks[0].plays[0].comments),
    (DEAL + " 1 A: AH 10H! {c}\n", lambda g: g.deals[0].tricks[0].plays[1].comments),
    (DEAL + " 1 A: AH 10H{c}\n", lambda g: g.deals[0].tricks[0].plays[1].comments),
    (DEAL + " 1 A: AH -KS {c} 10H\n", lambda g: g.deals[0].tricks[0].plays[1].comments),
    (DEAL + TRICK1 + "tens AC 3 BD 1 {c}\n", lambda g: g.deals[0].tens.comments),
    (DEAL + TRICK1 + "tens {c} AC 3 BD 1\n", lambda g: g.deals[0].tens.comments),
    (DEAL + TRICK1 + "{c}\ndeal\n", lambda g: g.deals[0].tricks[0].plays[3].comments),
    (DEAL + "deal {c}\n", lambda g: g.deals[1].comments),
]


@pytest.mark.parametrize("text,target", COMMENT_ROWS, ids=short)
def test_comment_attached_to_the_element_it_follows(text: str, target) -> None:
    games = parse_string(text)
    assert games[0].errors == ()
    assert target(games[0]) == ("c",)


def test_comment_spanning_lines_and_between_games() -> None:
    text = (DEAL + " 1 A: AH {first line\n  second line\r\nthird} 10H\n{before the next game's tags}\n"
            '[Event "b"]\ndeal 1 dealer A\n 1 B: 2C\n')
    first, second = parse_string(text)
    assert first.deals[0].tricks[0].plays[0].comments == ("first line\n  second line\nthird",)
    assert first.deals[0].tricks[0].plays[1].comments == ("before the next game's tags",)
    assert plays(first) == ["AH", "10H"]
    assert (second.deals[0].line, second.deals[0].tricks[0].line) == (7, 8)


def test_a_stray_line_between_two_games_costs_only_the_game_before() -> None:
    """What is left of a game cut short between two whole ones (the end of its first tag and
    a [ alone on its line): the game before reports both lines, the game after reads valid."""
    from dehlanote.replay import replay_game

    game = (Path(__file__).parents[2] / "samples" / "hukum-closed-trump.dpn").read_text()
    before = game.count("\n") + 1
    text = game + "\n" + ' "Random playout 78401"]\n[' + "\n" + game
    first, second = parse_string(text)
    assert [(e.code, e.line, e.column) for e in first.errors] == [("syntax", before + 1, 2), ("bad-tag", before + 2, 2)]
    assert first.errors[1].message == "the tag is not finished: expected a tag name before the next game"
    assert second.errors == () and not replay_game(second).errors
    assert [(t.name, t.value, t.line) for t in second.tags] == [(t.name, t.value, t.line + before + 2)
                                                                for t in parse_string(game)[0].tags]


def test_several_comments_keep_their_order() -> None:
    game = one(DEAL + " 1 A: AH {one} {two}\n{three} 10H\n")
    assert game.deals[0].tricks[0].plays[0].comments == ("one", "two", "three")


def test_unclosed_comment() -> None:
    text = DEAL + " 1 A: AH {runs to the end\n 2 A: AS\n"
    error = first_error(text)
    assert (error.code, error.line, error.column) == ("syntax", 2, 10)
    assert "never closed" in error.message


# ---- tens --------------------------------------------------------------------------------------

def test_tens_claim_positions() -> None:
    text = DEAL + TRICK1 + "tens AC 3 BD 1\n"
    tens = one(text).deals[0].tens
    assert (tens.line, tens.column) == (3, 1)
    (s1, n1), (s2, n2) = tens.counts
    assert [(w.line, w.column) for w in (s1, n1, s2, n2)] == [(3, 6), (3, 9), (3, 11), (3, 14)]


def test_tens_ends_the_deal() -> None:
    error = first_error(DEAL + TRICK1 + "tens AC 3 BD 1\n 2 A: AS\n")
    assert (error.code, error.line, error.column) == ("syntax", 4, 2)
    assert "'deal'" in error.message


# ---- layout: line ends, byte-order mark, tabs, encoding, empty -------------------------------------

LAYOUT_TEXT = '[Event "x"]\n\ndeal 1 dealer D\ntrump D by A\n 1 A: AH 10H 3H 7H {c}\n'


@pytest.mark.parametrize("text", [
    LAYOUT_TEXT,
    LAYOUT_TEXT.replace("\n", "\r\n"),
    "\ufeff" + LAYOUT_TEXT,
    "\ufeff" + LAYOUT_TEXT.replace("\n", "\r\n"),
    LAYOUT_TEXT.rstrip("\n"),
], ids=short)
def test_line_ends_and_byte_order_mark(text: str) -> None:
    expected = one(LAYOUT_TEXT)
    assert one(text) == expected
    assert list(iter_games(io.BytesIO(text.encode("utf-8")))) == [expected]


def test_crlf_positions() -> None:
    text = DEAL.replace("\n", "\r\n") + " 1 A: AH 11H\r\n"
    error = first_error(text)
    assert (error.code, error.line, error.column) == ("bad-card", 2, 10)
    assert error.source_line.rstrip("\r") == " 1 A: AH 11H"


def test_byte_order_mark_does_not_shift_columns() -> None:
    text = "\ufeffdeal 1 dealer D 1 A: AH 11H\n"
    error = first_error(text)
    assert (error.line, error.column) == where(text[1:], "11H") == (1, 25)
    error = next(iter_games(io.BytesIO(text.encode("utf-8")))).errors[0]
    assert (error.line, error.column) == (1, 25)


def test_tabs_separate_tokens_and_count_one_column() -> None:
    text = "deal\t1\tdealer\tD\n\t1\tA:\tAH\t10H\t3H\t7H\n"
    game = one(text)
    trick = game.deals[0].tricks[0]
    assert [p.card for p in trick.plays] == ["AH", "10H", "3H", "7H"]
    assert (trick.line, trick.column, trick.plays[1].column) == (2, 2, 10)


ENCODING_ROWS = [
    # bytes, line, column, byte offset
    (b'[Event "caf\xe9"]\ndeal 1 dealer D\n', 1, 12, 11),
    (b'\xef\xbb\xbf[Event "caf\xe9"]\ndeal 1 dealer D\n', 1, 12, 14),
    (b'deal 1 dealer D\n 1 A: AH 10H {\xff\xfe} 3H\n', 2, 15, 30),
    (b'deal 1 dealer D\r\n 1 A: AH 10H \x80\n', 2, 14, 30),
    (b'[Event "\xe2\x99\xa0 ok"]\n{caf\xc3\xa9 \xe9}\ndeal 1 dealer D\n', 2, 7, 24),
]


@pytest.mark.parametrize("data,line,column,offset", ENCODING_ROWS, ids=short)
def test_encoding(data: bytes, line: int, column: int, offset: int) -> None:
    games = list(iter_games(io.BytesIO(data)))
    error = games[0].errors[0]
    assert (error.code, error.line, error.column, error.offset) == ("encoding", line, column, offset)
    assert f"byte offset {offset}" in error.message
    assert data[offset] >= 0x80


def test_a_run_of_bad_bytes_is_one_encoding_error() -> None:
    """One character saved wrongly (a three-byte sequence that is not UTF-8, a UTF-16 mark) is
    one mistake: one error at its first byte naming the bytes (it was an error a byte); bad
    bytes apart are told apart."""
    data = b'[Event "\xed\xa0\x80"]\n[Site "\xff\xfe x \xc3"]\n'
    (game,) = iter_games(io.BytesIO(data))
    assert [(e.code, e.line, e.column, e.offset, e.message) for e in game.errors] == [
        ("encoding", 1, 9, 8, "byte 0xED at byte offset 8 is not UTF-8, nor are the 2 bytes after it (0xA0 0x80): "
                              "save the file as UTF-8"),
        ("encoding", 2, 8, 21, "byte 0xFF at byte offset 21 is not UTF-8, nor is the byte after it (0xFE): save the "
                               "file as UTF-8"),
        ("encoding", 2, 13, 26, "byte 0xC3 at byte offset 26 is not UTF-8: save the file as UTF-8")]


def test_encoding_error_in_one_game_leaves_the_next_alone() -> None:
    data = b'deal 1 dealer D\n 1 A: AH \xff 3H\n[Event "b"]\ndeal 1 dealer A\n 1 B: 2C\n'
    first, second = iter_games(io.BytesIO(data))
    assert [e.code for e in first.errors] == ["encoding"]
    assert second.errors == () and plays(second) == ["2C"]


def test_encoding_error_in_a_path(tmp_path: Path) -> None:
    path = tmp_path / "latin1.dpn"
    path.write_bytes(b'[Event "caf\xe9"]\ndeal 1 dealer D\n')
    (game,) = parse_path(path)
    assert [(e.code, e.offset) for e in game.errors] == [("encoding", 11)]
    with pytest.raises(DpnError) as raised:
        parse_path(path, strict=True)
    assert raised.value.code == "encoding"


@pytest.mark.parametrize("data", [b"", b"\n", b"\xef\xbb\xbf", b"  \r\n\t\n"], ids=short)
def test_empty_file_holds_no_games(data: bytes, tmp_path: Path) -> None:
    assert list(iter_games(io.BytesIO(data))) == []
    assert parse_string(data.decode("utf-8")) == []
    path = tmp_path / "empty.dpn"
    path.write_bytes(data)
    assert parse_path(path) == []


# ---- syntax errors -------------------------------------------------------------------------------

SYNTAX_ROWS = [
    # record, the token at fault (None: the end), words the message must hold
    ("hello\n", "hello", "expected 'deal' or a tag"),
    ("deal 1 dealer D\n AH\n", "AH", "trick number"),
    ("deal 1 dealer D\n 1 A:\n", None, "expected a card"),
    ("deal 1 dealer D\n 1 A\n", None, "':' after the seat"),
    ("deal 1 dealer D\n 1 A: AH x\n", "x", "expected a card, a trick number"),
    ("deal 1 dealer D\n 1 A: AH,, 10H\n", ",", "expected a card"),
    ("deal 1 dealer D\n 1 A: AH10H\n", "AH10H", "space between"),
    ("deal 1 dealer D\n 1 A: AH 10 H\n", "H", "expected a card"),
    ("deal 1 dealer\n", None, "seat"),
    ("deal 1 dealer D\n 1 A: AH\ntrump H\n", "trump", "before the first trick"),
    ("deal 1 dealer D\n 1 A: AH\nhands A: AS\n", "hands", "before the first trick"),
    ("deal 1 dealer D\nhands A: AS\ntrump H\nhands B: KS\n", "hands", "one hands line per deal"),
    ("deal 1 dealer D\nhands A: AS\nmisdeal\n", "misdeal", "expected"),
    ("deal 1 dealer D\nhands A: AS | | KS\n", "|", "expected a card"),
    ("deal 1 dealer D\nhands A AS\n", "AS", "':' after the seat"),
    ("deal 1 dealer D\ntens AC 3 BD\n", None, "number of tens"),
    ("deal 1 dealer D\n 1 A: AH\n[Site \"x\"] 2 A: AS\n", "2", "expected 'deal' or a tag"),
    ("deal 1 dealer D\n 1 A: AH 10H 3H 7H }\n", "}", "expected"),
    ("[Event \"x\"]\ndeal 1 dealer D\ntrump D by trump\n", "trump", "seat"),
    ("deal x\n", "x", "deal number"),
    ("deal 1 dealer D\n 1 a: AH\n", "a:", "capitals"),
]


@pytest.mark.parametrize("text,token,words", SYNTAX_ROWS, ids=short)
def test_syntax_error(text: str, token: str | None, words: str) -> None:
    error = first_error(text)
    assert error.code == "syntax", error
    assert words in error.message, error.message
    assert not LARK_NAMES.search(error.message), error.message
    if token is None:      # something missing at the end: just after the last token
        body = text.rstrip()
        assert (error.line, error.column) == (body.count("\n") + 1, len(body) - body.rfind("\n"))
    else:
        assert (error.line, error.column) == where(text, token, text.count(token) - 1)
    assert error.source_line is not None


def test_syntax_error_message_is_in_words_for_any_mistake() -> None:
    """Random damage to a rich record: no crash, no Lark name, positions inside the file."""
    base = (Path(SAMPLES[0]).read_text(encoding="utf-8") if SAMPLES else "") + (
        '\n[Event "x"]\ndeal 1 dealer D\nmisdeal\nhands A: AS KS | QS\ntrump D by A at 3 closed\n'
        " 1 A: AH -KS 10H! 3H 7H {c}\ntens AC 3 BD 1\ndeal\ntrump drawn 5H\n 1 AH\n")
    pieces = ["[", "]", '"', "{", "}", ":", "|", "-", "!", "?", "A", "10", "1", "X", "deal", "hands",
              "trump", "tens", "AC", "E", "\n", " ", "by", "at", "closed", "drawn", "misdeal", "dealer",
              "\\", "♠", "11S", "#", "\t", "é"]
    rng = random.Random(2024)
    lines = base.count("\n") + 2
    for _ in range(400):
        text = list(base)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text))
            choice = rng.random()
            if choice < 0.4:
                text.insert(at, rng.choice(pieces))
            elif choice < 0.8:
                del text[at]
            else:
                text[at] = rng.choice(pieces)
        for game in parse_string("".join(text)):
            for error in game.errors:
                assert error.code in ("syntax", "bad-card", "bad-tag"), error
                assert not LARK_NAMES.search(error.message), error.message
                assert 1 <= error.line <= lines + 3 and error.column >= 1, error


def test_strict_mode_raises_the_first_error() -> None:
    with pytest.raises(DpnError) as raised:
        parse_string(DEAL + " 1 A: AH 11S\n", strict=True)
    assert (raised.value.code, raised.value.line, raised.value.column) == ("bad-card", 2, 10)
    assert parse_string(DEAL + TRICK1, strict=True)[0].ok


THREE_GAMES = (
    '[Event "one"]\n[Date "2026.01.01"]\n\ndeal 1 dealer D\ntrump D by A\n'
    " 1 A: AH 10H 3H 7H\n 2 A: AS QS 2S 10S\n\n"
    '[Event "two"]\n\ndeal 1 dealer B\ntrump S by C\n 1 C: 7H 2H 6H 3H\n 2 C: AD 10D Q 8D\n 3 C: KH\n\n'
    '[Event "three"]\n\ndeal 1 dealer A\ntrump H by B\n 1 B: KC 5C 4C 9C\ntens AC 2 BD 2\n'
)


def test_syntax_error_stops_only_its_own_game() -> None:
    one_, two, three = parse_string(THREE_GAMES)
    assert one_.errors == () and three.errors == ()
    assert one_.tag("Event") == "one" and one_.tag("Date") == "2026.01.01"
    assert [plays(one_, 0, i) for i in range(2)] == [["AH", "10H", "3H", "7H"], ["AS", "QS", "2S", "10S"]]
    assert three.tag("Event") == "three" and plays(three) == ["KC", "5C", "4C", "9C"]
    assert three.deals[0].tens is not None and (three.line, three.deals[0].line) == (17, 19)
    # reading goes on after the error (issue 22 item 19): the line at fault is left out
    assert two.tag("Event") == "two" and [t.number for t in two.deals[0].tricks] == [1, 3]
    (error,) = two.errors
    assert (error.code, error.line, error.column) == ("syntax", 14, 14)
    assert error.source_line == " 2 C: AD 10D Q 8D"
    assert "expected a card" in error.message and '"Q"' in error.message


def test_game_that_breaks_off_before_the_next_games_tags() -> None:
    text = '[Event "a"]\ndeal 1 dealer\n[Event "b"]\ndeal 1 dealer A\n'
    first, second = parse_string(text)
    (error,) = first.errors
    assert (error.code, error.line, error.column) == ("syntax", 2, 14)
    assert "next game" in error.message and "seat" in error.message
    assert second.errors == () and second.deals[0].dealer.value == "A"


# ---- streaming ----------------------------------------------------------------------------------

STREAM_TEXTS = [THREE_GAMES, LAYOUT_TEXT.replace("\n", "\r\n"), "\ufeff" + THREE_GAMES, ""] + [
    p.read_text(encoding="utf-8") for p in SAMPLES]


@pytest.mark.parametrize("text", STREAM_TEXTS, ids=short)
def test_streams_give_the_games_of_parse_string(text: str) -> None:
    expected = parse_string(text)
    data = text.encode("utf-8")
    assert list(iter_games(text)) == expected
    assert list(iter_games(io.StringIO(text, newline=""))) == expected
    assert list(iter_games(io.BytesIO(data))) == expected
    assert list(iter_games(io.BufferedReader(io.BytesIO(data)))) == expected
    assert list(iter_games(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline=""))) == expected


def test_iter_path_and_parse_path(tmp_path: Path) -> None:
    path = tmp_path / "three.dpn"
    path.write_text(THREE_GAMES, encoding="utf-8")
    assert list(iter_path(path)) == parse_path(path) == parse_string(THREE_GAMES)
    assert parse_path(str(path)) == parse_string(THREE_GAMES)
    with pytest.raises(OSError):
        parse_path(tmp_path / "missing.dpn")


def _generated_deal(n: int) -> str:
    rng = random.Random(n)
    deck = list(DECK)
    rng.shuffle(deck)
    tricks = "".join(f"{t + 1:>2} {' '.join(deck[t * 4: t * 4 + 4])}\n" for t in range(13))
    return f'[Event "generated {n}"]\n[Round "{n}"]\n\ndeal 1 dealer A\ntrump S by B\n{tricks}tens AC 2 BD 2\n\n'


class _GeneratedStream(io.RawIOBase):
    """A binary stream made on demand from a generator, counting the bytes handed out."""

    def __init__(self, pieces: Iterator[bytes]) -> None:
        self.pieces = pieces
        self.pending = b""
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while len(self.pending) < len(buffer):
            piece = next(self.pieces, None)
            if piece is None:
                break
            self.pending += piece
        size = min(len(buffer), len(self.pending))
        buffer[:size] = self.pending[:size]
        self.pending = self.pending[size:]
        self.served += size
        return size


GENERATED_GAMES = 20_000   # about 6 MB


@pytest.mark.parametrize("kind", ["binary", "text"], ids=short)
def test_iter_games_is_lazy_over_megabytes(kind: str) -> None:
    raw = _GeneratedStream(_generated_deal(n).encode("utf-8") for n in range(GENERATED_GAMES))
    total = sum(len(_generated_deal(n).encode("utf-8")) for n in range(GENERATED_GAMES))
    assert total > 5_000_000
    stream: Any = io.BufferedReader(raw)
    if kind == "text":
        stream = io.TextIOWrapper(stream, encoding="utf-8")
    games = iter_games(stream)
    first = next(games)
    assert first.tag("Event") == "generated 0" and len(first.deals[0].tricks) == 13
    assert raw.served < total / 2, "the whole input was read before the first game"
    second = next(games)
    assert second.tag("Round") == "1" and second.errors == ()
    assert raw.served < total / 2


# ---- a rank without its suit ---------------------------------------------------------------------
# The commonest slip when jotting cards: "8" for "8S" is read as a trick number. When a trick is
# short and a lone number stands where a card should be, that number is a bad-card, at its token.

BARE_RANK_ROWS = [
    # text, the token at fault (its last occurrence), what the player wrote
    (DEAL + " 5 A: AD 8 3D QD\n", "8", "8"),
    (DEAL + " 9 A: 7S 4H 5S 10\n10 B: 2S 3S 4S 5S\n", "10\n", "10"),
    (DEAL + " 9 A: 7S 4H 5S 10\n", "10", "10"),
    (DEAL + " 9 A: 7S 4H 5S 10 {hm}\ntens AC 1 BD 3\n", "10 {", "10"),
    (DEAL + " 5 A: AD 6 3D QD\n", "6", "6"),
    (DEAL + " 1 AH 10H 3H 7H 2 2S 2 4S 5S\n", "2 4S", "2"),
    (DEAL + "5. A: AD, 8, 3D, QD\n", "8", "8"),
    (DEAL + "hands A: AS KS QS 10 JS\n", "10", "10"),
    (DEAL + "hands A: AS KS 7 JS\n", "7", "7"),
]


@pytest.mark.parametrize("text,token,word", BARE_RANK_ROWS, ids=short)
def test_bare_rank_is_a_card_without_its_suit(text: str, token: str, word: str) -> None:
    games = parse_string(text)
    errors = [e for g in games for e in g.errors]
    assert len(errors) == 1, errors
    error = errors[0]
    rank = {"T": "10"}.get(word.upper(), word.upper())
    assert error.code == "bad-card"
    assert error.message == f'"{word}" has no suit: write {rank}S, {rank}H, {rank}D or {rank}C'
    assert (error.line, error.column) == where(text, token, text.count(token) - 1)
    assert "1 cards" not in error.message and not LARK_NAMES.search(error.message)


@pytest.mark.parametrize("text,token,rank", [
    (DEAL + " 5 A: AD K 3D QD\n", "K", "K"),
    (DEAL + " 5 A: q 3D QD\n", "q", "Q"),
    (DEAL + " 5 A: AD -J 3D QD\n", "J", "J"),
    (DEAL + " 5 A: AD t, 3D QD\n", "t", "10"),
], ids=short)
def test_a_lone_letter_rank_is_a_syntax_error_with_the_hint(text: str, token: str, rank: str) -> None:
    """A letter never reads as a trick number: the syntax error says what was meant."""
    error = first_error(text)
    assert error.code == "syntax" and (error.line, error.column) == where(text, token)
    assert f'found "{token}", which has no suit: write {rank}S, {rank}H, {rank}D or {rank}C' in error.message


@pytest.mark.parametrize("text", [
    DEAL + " 5 A: AD 10H 3D\n 6 2S 3S 4S 5S\n",      # a card left out: the replay says trick-size
    DEAL + " 5 A: AD 10H 3D 6 2S 3S 4S 5S\n",        # the same, two tricks to a line
    DEAL + " 1 AH 10H 3H 7H 2 2S 3S 4S 5S\n",         # two full tricks to a line
    DEAL + "hands A: AS KS\n 1 A: AH 10H 3H 7H\n",
], ids=short)
def test_a_short_trick_before_a_real_one_is_not_a_bare_rank(text: str) -> None:
    assert one(text).deals[0].tricks


def test_bare_rank_is_never_a_trick_size_error() -> None:
    """End to end: the replay never sees the slip, so never says "trick 5 has 1 cards"."""
    import subprocess
    import sys
    text = '[Rules "standard"]\n[Result "*"]\n\n' + DEAL + " 1 A: AH 10H 3H 7H\n 2 C: AD 8 3D QD\n"
    out = subprocess.run([sys.executable, "-m", "dehlanote", "validate", "-"], input=text,
                         capture_output=True, text=True, check=False)
    assert out.returncode == 1
    assert "bad-card" in out.stdout and '"8" has no suit' in out.stdout and ":6:10:" in out.stdout
    assert "trick-size" not in out.stdout and "1 cards" not in out.stdout


# ---- DPN 1.1: the spellings of hand-written records ---------------------------------------------
# Each row: a record in a 1.1 spelling, and the same record in version 1. They must read to the
# same facts, and the canonical form (which stays version 1) of both must be the same text.

V11_ROWS = [
    # emoji suits: a symbol with U+FE0F or U+FE0E
    (DEAL + " 1 A: A\u2665\ufe0f 10\u2665\ufe0f 3\u2665\ufe0e 7\u2661\ufe0f\n", DEAL + " 1 A: AH 10H 3H 7H\n"),
    (DEAL + "trump \u2666\ufe0f\n" + TRICK1, DEAL + "trump D\n" + TRICK1),
    (DEAL + "trump \u2663\ufe0e by A at 2 closed\n" + TRICK1, DEAL + "trump C by A at 2 closed\n" + TRICK1),
    (DEAL + "trump drawn 5\u2660\ufe0f\n" + TRICK1, DEAL + "trump drawn 5S\n" + TRICK1),
    (DEAL + "hands A: A\u2660\ufe0f K\u2660\ufe0e\n", DEAL + "hands A: AS KS\n"),
    (DEAL + " 1 A: AH -K\u2660\ufe0f 10\u2665\ufe0f!? 3H 7H\n", DEAL + " 1 A: AH -KS 10H!? 3H 7H\n"),
    # trump before hands
    (DEAL + "trump S\nhands A: AS KS\n" + TRICK1, DEAL + "hands A: AS KS\ntrump S\n" + TRICK1),
    (DEAL + "misdeal\ntrump drawn 5H\nhands A: AS\n", DEAL + "misdeal\nhands A: AS\ntrump drawn 5H\n"),
    # several | in a hand: only the first counts
    (DEAL + "hands A: AS KS QS JS 10S | 9S 8S 7S 6S | 5S 4S 3S 2S\n",
     DEAL + "hands A: AS KS QS JS 10S | 9S 8S 7S 6S 5S 4S 3S 2S\n"),
    (DEAL + "hands A: AS | KS | QS | JS\n", DEAL + "hands A: AS | KS QS JS\n"),
    # a dot after the trick number
    (DEAL + "1. A: AH 10H 3H 7H\n2. 2S 3S 4S 5S\n", DEAL + " 1 A: AH 10H 3H 7H\n 2 2S 3S 4S 5S\n"),
    (DEAL + "10.A: AH 10H 3H 7H 11. 2S 3S 4S 5S\n", DEAL + "10 A: AH 10H 3H 7H\n11 2S 3S 4S 5S\n"),
    # commas between cards
    (DEAL + " 1 A: AH, 10H, 3H,7H\n", DEAL + TRICK1),
    (DEAL + " 1 A: AH!,10H , -2S 3H, 7H\n", DEAL + " 1 A: AH! 10H -2S 3H 7H\n"),
    (DEAL + "hands A: AS, KS | QS,JS\n", DEAL + "hands A: AS KS | QS JS\n"),
    # claim after the last trick played, before tens
    (DEAL + TRICK1 + "claim A\n", DEAL + TRICK1 + "claim A\n"),
    (DEAL + TRICK1 + "CLAIM C {all mine}\ntens AC 4 BD 0\n", DEAL + TRICK1 + "claim C {all mine}\ntens AC 4 BD 0\n"),
    # all at once, as a phone writes it
    (('[Event "x"]\ndeal 1 dealer D\ntrump \u2665\ufe0f\n'
      "hands A: A\u2660\ufe0f, K\u2660\ufe0f | Q\u2660\ufe0f | J\u2660\ufe0f\n"
      "1. A: A\u2665\ufe0f, 10\u2665\ufe0f, 3\u2665\ufe0f, 7\u2665\ufe0f\nclaim A\n"),
     '[Event "x"]\ndeal 1 dealer D\nhands A: AS KS | QS JS\ntrump H\n 1 A: AH 10H 3H 7H\nclaim A\n'),
]


@pytest.mark.parametrize("loose,plain", V11_ROWS, ids=short)
def test_v11_spelling_reads_as_version_1(loose: str, plain: str) -> None:
    assert facts(one(loose)) == facts(one(plain))


@pytest.mark.parametrize("loose,plain", V11_ROWS, ids=short)
def test_v11_canonical_form_is_version_1(loose: str, plain: str) -> None:
    text = write_game(one(loose))
    assert text == write_game(one(plain))
    assert "\ufe0f" not in text and "\ufe0e" not in text and "," not in text
    assert not re.search(r"^\s*[0-9]+\.", text, re.MULTILINE)
    assert all(line.count("|") <= 1 for line in text.splitlines())
    head = text.splitlines()
    if "hands" in text and "trump" in text:
        assert min(i for i, x in enumerate(head) if x.startswith("hands")) < \
            min(i for i, x in enumerate(head) if x.startswith("trump"))
    assert write_game(one(text)) == text


def test_v11_positions() -> None:
    text = DEAL + "trump \u2666\ufe0f\nhands A: AS, KS | QS | JS\n1. A: A\u2665\ufe0f, 10H\nclaim B\n"
    deal = one(text).deals[0]
    assert (deal.trump.line, deal.trump.column, deal.trump.suit.column) == (2, 1, 7)
    hand = deal.hands[0]
    assert hand.split == 2 and [c.column for c in hand.cards] == [10, 14, 19, 24]
    trick = deal.tricks[0]
    assert (trick.number, trick.line, trick.column, trick.leader.column) == (1, 4, 1, 4)
    assert [(p.card, p.column) for p in trick.plays] == [("AH", 7), ("10H", 12)]
    assert deal.claim is not None and (deal.claim.seat, deal.claim.line, deal.claim.column) == ("B", 5, 1)


def test_claim_comment_is_kept() -> None:
    deal = one(DEAL + TRICK1 + "claim A {the rest are mine}\n").deals[0]
    assert deal.claim is not None and deal.claim.comments == ("the rest are mine",)
    assert "claim A {the rest are mine}" in write_game(one(DEAL + TRICK1 + "claim A {the rest are mine}\n"))


V11_ERROR_ROWS = [
    # text, token at fault (last occurrence), words in the message
    (DEAL + TRICK1 + "claim\n", None, "a seat"),
    (DEAL + TRICK1 + "claim A\n 2 2S 3S 4S 5S\n", "2 2S", "expected"),
    (DEAL + TRICK1 + "claim A\nclaim B\n", "claim", "expected"),
    (DEAL + "claim A\ntrump S\n", "trump", "before the first trick"),
    (DEAL + " 1 A: AH 10H 3H 7H,\n", None, "a card"),
    (DEAL + " 1 A: , AH\n", ",", "a card"),
    (DEAL + "hands A: AS |\n", None, "a card"),
    (DEAL + "1.. A: AH\n", "..", "expected"),
    (DEAL + "trump S\nhands A: AS\ntrump H\n", "trump", "expected"),
]


@pytest.mark.parametrize("text,token,words", V11_ERROR_ROWS, ids=short)
def test_v11_errors(text: str, token: str | None, words: str) -> None:
    error = first_error(text)
    assert error.code == "syntax", error
    assert words in error.message, error.message
    assert not LARK_NAMES.search(error.message), error.message
    if token is None:
        body = text.rstrip()
        assert (error.line, error.column) == (body.count("\n") + 1, len(body) - body.rfind("\n"))
    else:
        assert (error.line, error.column) == where(text, token, text.count(token) - 1)


# ---- the canonical writer -------------------------------------------------------------------------

#: every valid record of this file, for the round-trip tests
VALID_RECORDS = sorted(
    {row[0] for row in COMMENT_ROWS + GAME_ROWS}
    | {DEAL + row[0] for row in HANDS_ROWS + TRICK_ROWS + WITHDRAWN_ROWS}
    | {DEAL + row[0] + "\n" + TRICK1 for row in TRUMP_ROWS}
    | {row[0] + "\n" + DEAL for row in TAG_ROWS}
    | {LAYOUT_TEXT, THREE_GAMES.replace(" Q ", " QD "), "\ufeff" + LAYOUT_TEXT.replace("\n", "\r\n")}
    | {DEAL + f" 1 A: AH 10H{g} 3h{g} 7♥{g}\n" for g in ["!", "?", "!!", "??", "!?", "?!"]}
    | {row[0] for row in V11_ROWS}
)
assert all(not g.errors for text in VALID_RECORDS for g in parse_string(text)), "a record meant valid is not"

WRITER_INPUTS = [p.read_text(encoding="utf-8") for p in SAMPLES] + VALID_RECORDS


@pytest.mark.parametrize("text", WRITER_INPUTS, ids=short)
def test_writer_is_idempotent_and_keeps_everything(text: str) -> None:
    games = parse_string(text)
    once = write_games(games)
    again = parse_string(once)
    assert all(g.errors == () for g in again)
    assert write_games(again) == once
    assert [facts(g) for g in again] == [facts(g) for g in games]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_samples_are_valid(path: Path) -> None:
    from dehlanote.rules.profile import rules_from_tag

    games = parse_path(path)
    assert games and all(g.errors == () for g in games)
    for game in games:
        rules = rules_from_tag(game.tag("Rules"))
        for deal in game.deals:
            assert len(deal.tricks) == rules.tricks_per_deal
            assert all(len(t.plays) == rules.seats for t in deal.tricks)
            cards = [p.card for t in deal.tricks for p in t.plays]
            assert sorted(cards) == sorted(DECK * rules.decks)


def test_worked_example_is_canonical() -> None:
    path = ROOT / "samples" / "worked-example.dpn"
    text = path.read_text(encoding="utf-8")
    (game,) = parse_string(text)
    assert write_game(game) == text
    deal = game.deals[0]
    assert [[p.card for p in t.plays] for t in deal.tricks[:2]] == [
        ["AH", "10H", "3H", "7H"], ["AS", "QS", "2S", "10S"]]
    assert (deal.dealer.value, deal.trump.suit.value, deal.trump.by.value) == ("D", "D", "A")


MESSY = (
    '{before all}\n[Result "*"] [Zeta "z"] [rules "standard"] [Event "Club \\"night\\""]\n'
    '[Alpha "a"] [D "Dev"] [A "Asha"] [Kots "1"] [Site "home"] [Round "2"] [Date "2026.??.??"]\n'
    "deal   1   dealer D {first}\nmisdeal {redealt}\nmisdeal\n"
    "hands D: 2d 10s ac td | 3h kc\n  A: 2S kh AS 9h | 4c\n"
    "trump ♦ by A at 3 closed {t}\n"
    "1 A: ah th 3h 7h  2 as -kc qs?! 2s ts {swept}\n3 4s 5s 7s 9s 4 kc 5c 4c 9c 5 7d ad 5d 2h\n"
    "6 6h qh kh 8h 7 8s td ks js 8 8d 9d 3d 2c 9 jh 5h 6c 4h 10 jd 4d 3s 2d\n"
    "tens AC 3 BD 1\n"
    "deal {second}\ntrump drawn t♤\n1 2s\n"
)

CANONICAL = (
    "{before all}\n"
    '[Event "Club \\"night\\""]\n[Site "home"]\n[Date "2026.??.??"]\n[Round "2"]\n[A "Asha"]\n[D "Dev"]\n'
    '[Rules "standard"]\n[Kots "1"]\n[Result "*"]\n[Zeta "z"]\n[Alpha "a"]\n'
    "\n"
    "deal 1 dealer D {first}\n"
    "misdeal {redealt}\n"
    "misdeal\n"
    "hands A: AS 2S KH 9H | 4C\n"
    "      D: 10S 10D 2D AC | 3H KC\n"
    "trump D by A at 3 closed {t}\n"
    " 1 A: AH 10H 3H 7H\n"
    " 2 AS -KC QS?! 2S 10S {swept}\n"
    " 3 4S 5S 7S 9S\n"
    " 4 KC 5C 4C 9C\n"
    " 5 7D AD 5D 2H\n"
    " 6 6H QH KH 8H\n"
    " 7 8S 10D KS JS\n"
    " 8 8D 9D 3D 2C\n"
    " 9 JH 5H 6C 4H\n"
    "10 JD 4D 3S 2D\n"
    "tens AC 3 BD 1\n"
    "\n"
    "deal {second}\n"
    "trump drawn 10S\n"
    " 1 2S\n"
)


def test_canonical_layout() -> None:
    (game,) = parse_string(MESSY)
    assert game.errors == ()
    assert write_game(game) == CANONICAL


def test_hands_sorted_by_suit_then_rank_with_the_split_kept() -> None:
    game = one(DEAL + "hands B: 2c ac 10d 3d kd 9s 2s | ah 2h qh th js 5c\n"
               "A: 10s ks 7h qh jd 3c 8c 9c 2d ad 6s 4h 5h\n")
    text = write_game(game)
    assert "hands A: KS 10S 6S QH 7H 5H 4H AD JD 2D 9C 8C 3C\n" in text
    assert "      B: 9S 2S KD 10D 3D AC 2C | JS AH QH 10H 2H 5C\n" in text


def test_trick_numbers_right_aligned() -> None:
    tricks = "".join(f"{n} {'ABCD'[n % 4]}: {DECK[n]}\n" for n in range(1, 14))
    lines = write_game(one(DEAL + tricks)).splitlines()[1:]
    assert lines[0] == " 1 B: KS" and lines[8] == " 9 B: 5S" and lines[9] == "10 C: 4S" and lines[12] == "13 B: AH"


def test_blank_lines_between_deals_and_games() -> None:
    text = '[Event "a"]\ndeal 1 dealer D\n 1 AH\ndeal\n 1 KH\n[Event "b"]\ndeal 1 dealer A\ndeal 1 dealer B\n 1 2C'
    assert write_games(parse_string(text)) == (
        '[Event "a"]\n\ndeal 1 dealer D\n 1 AH\n\ndeal\n 1 KH\n\n'
        '[Event "b"]\n\ndeal 1 dealer A\n\ndeal 1 dealer B\n 1 2C\n')


def test_untagged_game_starts_with_its_deal() -> None:
    assert write_game(one("deal 1 dealer D\n 1 A: ah\n")) == "deal 1 dealer D\n 1 A: AH\n"


def test_writer_keeps_six_player_hands_and_sides() -> None:
    text = ("deal 1 dealer F\nhands " + "\n".join(f"{s}: {DECK[i]} | {DECK[i + 6]}" for i, s in enumerate("FEDCBA"))
            + "\ntrump S by A\n 1 A: AS KS QS JS 10S 9S\ntens ACE 1 BDF 0\n")
    written = write_game(one(text))
    assert written.splitlines()[1:7] == [
        "hands A: 9S | 3S", "      B: 10S | 4S", "      C: JS | 5S", "      D: QS | 6S",
        "      E: KS | 7S", "      F: AS | 8S"]
    assert "tens ACE 1 BDF 0\n" in written


# ---- invalid files ---------------------------------------------------------------------------------

_EXPECT = re.compile(rb"\{expect: ([a-z-]+) (\d+):(\d+)(?: offset (\d+))?\}")


def test_every_invalid_file_states_what_it_expects() -> None:
    assert len(INVALID) >= 10
    for path in INVALID:
        assert _EXPECT.search(path.read_bytes()), path.name


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_invalid_file(path: Path) -> None:
    match = _EXPECT.search(path.read_bytes())
    code, line, column = match.group(1).decode(), int(match.group(2)), int(match.group(3))
    assert path.name.startswith(code + "-")
    errors = [e for g in parse_path(path) for e in g.errors]
    assert errors, f"{path.name}: no error"
    error = errors[0]
    assert (error.code, error.line, error.column) == (code, line, column), error
    if match.group(4) is not None:
        assert error.offset == int(match.group(4))
    assert not LARK_NAMES.search(error.message)


# ---- threads ----------------------------------------------------------------------------------

def test_parsing_on_several_threads_gives_the_single_thread_result() -> None:
    """No per-parse state is shared: 300 parses on 6 threads, each written back canonically,
    all equal the single-thread reading (comments kept, positions exact)."""
    from concurrent.futures import ThreadPoolExecutor

    text = (ROOT / "samples" / "loose-style.dpn").read_text(encoding="utf-8")
    expected_games = parse_string(text)
    expected = write_games(expected_games)
    assert "{" in expected              # comments: what the shared state used to lose

    def once(i: int) -> tuple[str, bool]:
        # every other parse goes through the fine reading too (a record with a mistake)
        games = parse_string(text if i % 2 else text + '\n[Event "bad"]\ndeal 1 dealer A\n 1 A: AH 1H\n')
        good = [g for g in games if not g.errors]
        return write_games(good), good == expected_games

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(once, range(300)))
    assert all(out == expected for out, _ in results)
    assert all(same for _, same in results)


def test_blank_lines_around_a_broken_game_are_read_in_linear_time() -> None:
    """A run of blank lines before a game whose whole-game token fails (here a card written
    "2 H") once made the white-space-and-comments pattern around GAME_WHOLE backtrack in
    every way of splitting the run: 22 lines took 13 s, each more doubled it. With 300 lines
    the check must end (well) within the timeout, with the one real error."""
    import subprocess
    import sys
    text = "\n" * 300 + '[Event "x"]\n\ndeal 1 dealer D\ntrump D by A\n 1 A: AH 10H 3H 7H\n 2 A: 2 H\n' + "\n" * 300
    result = subprocess.run([sys.executable, "-m", "dehlanote", "validate", "--brief", "-"], input=text.encode(),
                            capture_output=True, timeout=120, cwd=ROOT, check=False,
                            env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 1
    assert b"<stdin>:306:7: bad-card" in result.stdout, result.stdout


def test_an_indented_deal_keyword_is_placed_at_its_column_on_every_route():
    """A deal written after a space is at column 2 whether the element is read whole or token by token."""
    from dehlanote.syntax import parse_string

    whole = '[R ""]\n deal dealer D\n3 4S 4D\ntens AC 2 BD 2\n'
    fine = '[R ""]\n deal dealer D {x}\n3 4S 4D\ntens AC 2 BD 2\n'
    for text in (whole, fine):
        (game,) = list(parse_string(text))
        assert (game.deals[0].line, game.deals[0].column) == (2, 2), text


@pytest.mark.parametrize("value", ["a{b", "{", "x{y{z", "{{}"])
def test_a_comment_after_a_tag_value_holding_a_brace_is_kept(value: str) -> None:
    """The comments outside the whole-game tokens were found by matching ``{...}`` over the
    whole text and dropping the matches that start in a token: a ``{`` in a tag's value matched
    on to the ``}`` of the comment after it, so that comment was dropped, and ``fmt --write``
    deleted it from the file."""
    text = (f'[Event "{value}"]\n[Result "*"] {{real note}}\n\ndeal 1 dealer D {{the deal}}\ntrump D by A\n'
            " 1 A: AH 10H 3H 7H\n")
    game = parse_string(text)[0]
    assert not game.errors
    assert [t.comments for t in game.tags] == [(), ("real note",)]
    assert [t.value for t in game.tags] == [value, "*"]
    assert "{real note}" in write_game(game) and "{the deal}" in write_game(game)


def test_a_tag_value_of_many_braces_is_read_in_linear_time() -> None:
    """Each ``{`` of a tag's value was matched as a comment on to the end of the text: a valid
    record with 200,000 of them in its Event took 17 s to validate and 38 s to format."""
    import time
    text = ('[Event "' + "{" * 300_000 + '"]\n[Result "*"] {a note}\n\n'
            "deal 1 dealer D\ntrump D by A\n 1 A: AH 10H 3H 7H\n")
    began = time.monotonic()
    game = parse_string(text)[0]
    assert time.monotonic() - began < 10
    assert not game.errors and game.tags[1].comments == ("a note",)
