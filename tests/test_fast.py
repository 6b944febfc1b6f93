"""The regular-expression fast path against Lark: the same games, or no answer at all.

``parse_fast`` may decline any chunk (it returns None and the caller uses Lark), but when it
answers, its games must equal Lark's node for node: values, positions, comments (none).
Whenever Lark finds an error, the fast path must decline, so errors keep Lark's positions
and wording. Checked on every sample file, on generated matches of every profile in the
plain and the loose style, and on records mutated by Hypothesis.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dehlanote.playout import Style, iter_matches
from dehlanote.syntax.cards import CARD_SPELLINGS, DECK
from dehlanote.syntax.fast import CARD_TABLE, parse_fast
from dehlanote.syntax.parser import iter_games, parse_chunk
from dehlanote.syntax.reader import Chunk, split_games

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted({*ROOT.glob("samples/*.dpn"), *ROOT.glob("tests/**/*.dpn")})

PROFILES = [
    ("standard", None), ("standard", {"trump": "closed"}), ("standard", {"trump": "partner"}),
    ("standard", {"six-player": True}), ("standard", {"coat": True}), ("standard", {"court-piece": True}),
    ("pagat", {"kots": 3}), ("pagat", {"kots": 2, "trump": "first-void-five"}),
    ("hukum", None), ("hukum", {"trump": "closed"}),
]
PLAIN = Style()
LOOSE = Style(loose=True, hands=True)

_COMMENT = re.compile(r"\{[^}]*\}")
_GLYPH = re.compile(r"(?<=[SHDCshdc♠♥♦♣♤♡♢♧])(?:!!|\?\?|!\?|\?!|!|\?)")


def compare(chunk: Chunk) -> bool:
    """Assert the fast path agrees with Lark on ``chunk``; True when it answered."""
    lark = parse_chunk(chunk, fast=False)
    fast = parse_fast(chunk)
    if any(g.errors for g in lark):
        assert fast is None, f"Lark finds {lark[0].errors[0]!r} but the fast path answered"
    if fast is None:
        return False
    assert fast == lark
    assert parse_chunk(chunk) == lark
    assert parse_chunk(chunk, keep_source=True) == parse_chunk(chunk, keep_source=True, fast=False)
    return True


def compare_text(text: str) -> tuple[int, int]:
    """Compare every chunk of ``text``: (chunks, chunks the fast path answered)."""
    chunks = list(split_games(text))
    return len(chunks), sum(compare(c) for c in chunks)


def corpus(profile: str, options, style: Style, seed: int, deals: int = 12) -> str:
    return "".join(text for text, _ in iter_matches(seed, deals, profile, options, style, max_deals=4))


def without_comments_and_glyphs(text: str) -> str:
    """The loose style with its comments and glyphs gone: mixed spellings, several tricks to
    a line, leaders and numbers left out, hands with ``|``; the shapes the fast path reads."""
    return _GLYPH.sub("", _COMMENT.sub(" ", text))


# ---- the card table -----------------------------------------------------------------

def test_card_table_has_every_spelling() -> None:
    assert CARD_TABLE == CARD_SPELLINGS
    # ranks: A K Q J in two cases, 10 9 ... 2, T t; suits: S H D C, s h d c, two sets of symbols
    assert len(CARD_TABLE) == (4 * 2 + 9 + 2) * 16
    assert set(CARD_TABLE.values()) == set(DECK)
    for spelling, card in (("10h", "10H"), ("Td", "10D"), ("A♠", "AS"), ("k♡", "KH"), ("t♧", "10C")):
        assert CARD_TABLE[spelling] == card


# ---- files ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_file(path: Path) -> None:
    with open(path, "rb") as stream:
        for chunk in split_games(stream):
            compare(chunk)
    # and the whole file the way every command reads it
    with open(path, "rb") as a, open(path, "rb") as b:
        assert list(iter_games(a)) == [g for c in split_games(b) for g in parse_chunk(c, fast=False)]


# ---- generated matches ---------------------------------------------------------------

@pytest.mark.parametrize("profile,options", PROFILES, ids=lambda v: str(v))
def test_generated_plain(profile: str, options) -> None:
    text = corpus(profile, options, PLAIN, seed=7)
    chunks, answered = compare_text(text)
    assert answered == chunks      # the writer's layout is the fast path's bread and butter
    crlf = text.replace("\n", "\r\n")
    assert compare_text(crlf)[1] == chunks


@pytest.mark.parametrize("profile,options", PROFILES, ids=lambda v: str(v))
def test_generated_loose(profile: str, options) -> None:
    text = corpus(profile, options, LOOSE, seed=11)
    compare_text(text)         # comments and glyphs: mostly declined, never wrong
    chunks, answered = compare_text(without_comments_and_glyphs(text))
    assert answered >= chunks - 1


def test_generated_without_leaders_hands_or_tens() -> None:
    style = Style(hands=True, leaders=False, tens=False, result=False)
    text = corpus("standard", None, style, seed=3)
    chunks, answered = compare_text(text)
    assert answered == chunks


def test_game_starting_mid_line() -> None:
    """Columns on the first line of a chunk that starts after another game's last token."""
    text = corpus("standard", None, PLAIN, seed=5, deals=3)
    one = text.rstrip("\n")
    glued = one + ' [Event "x"] [A "y"]\ndeal 1 dealer A\n' + one.split("\n\n", 1)[1].split("deal 1 dealer", 1)[1].split("\n", 1)[1]
    chunks = list(split_games(glued))
    assert any(c.column > 1 for c in chunks)
    for chunk in chunks:
        compare(chunk)


HAND_WRITTEN = [
    "deal 1 dealer A\n1 ah th 3h 7h  2 A: as qs 2s Ts\n",
    "DEAL 1 DEALER B\nTRUMP ♠ BY C\n 1 C: 2h 3h 4h 5h\n",
    "deal dealer A\ntrump s closed\n1 A♤ K♤ Q♤ J♤\ntens AC 1 BD 0\n",
    "deal\nmisdeal\nmisdeal\n1 2c 3c 4c 5c\n",
    "deal 2\ntrump drawn 10h\n",
    "deal 1 dealer A\nhands A: AS KS | QS JS B: 2H 3H\n C: 4H\ntrump H at 3\n",
    "deal 1 dealer A\nhands A: AS|KS\n",
    "[Event \"a \\\"b\\\" \\\\ c\"][Site\"x\"]\n[Date \"2026.??.??\"]   \n\ndeal 1 dealer D\n 1 A:AH 10H 3H 7H\n",
    "\t deal 1 dealer A\t\n\t1\tA:\tAH\t10H\t3H\t7H\t\n",
    "deal 1\n 1 A: AH\n 2 B: 2H 3H 4H 5H 6H 7H 8H\ntens ACE 3 BDF 9\n",
    "deal 1 dealer A\n1 A: AH 10H 3H 7H\ndeal 2\n1 A: AH\ndeal\n",
    "[Event \"only tags\"]\n",
    "deal 007 dealer A\n 010 A: AH 2H 3H 4H\n",
    # declined or wrong: Lark decides
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H {c}\n", "deal 1 dealer A\n 1 A: AH! 10H 3H 7H\n",
    "deal 1 dealer A\n 1 A: -2C AH 10H 3H 7H\n", "deal 1 dealer A\n 1 A: 1H 10H 3H 7H\n",
    "deal 1 dealer A\n 1 A: AH 10H\n 3H 7H\n", "deal 1 dealer A\n 1 a: AH 10H 3H 7H\n",
    "deal 1 dealer A\n 1 A : AH 10H 3H 7H\n", "deal 1 dealer A\n 1 A: AH10H 3H 7H\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H\ntrump H\n", "deal 1 dealer A\ntens AC 1 BD 2\n 1 A: AH\n",
    "deal 1 dealer A\ntrump H\nhands A: AH\n", "deal 1 dealer A\n A: AH\n", "deal 1\ndealer A\n",
    "[Event \"x\"] [event \"y\"]\ndeal 1 dealer A\n", "[Event \"x\"] deal 1 dealer A\n",
    "deal 1 dealer A\nhands A: | AH\n", "deal 1 dealer A\nhands A: AH |\n B: 2H\n",
    "deal 1 dealer A\ntens AC 1\n", "deal 1 dealer A\ntrump H by A at\n",
    "deal 1 dealer A\n\u00a01 A: AH 10H 3H 7H\n", "deal 1 dealer A\n ١ A: AH 10H 3H 7H\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7Hx\n", "deal1 dealer A\n", "deal 1 dealer G\n",
    "deal 1 dealer A\ntrump ♠♠\n", "deal 1 dealer A\ntrump drawn AH!\n", "tens AC 1 BD 2\n",
    "deal 1 dealer A\nmisdeal misdeal\n", "deal 1 dealer A\n 1 A: AH 10H 3H 7H\nmisdeal\n",
    "deal 1 dealer A\n 1234567 A: AH 10H 3H 7H\n", "deal 1 dealer A\r\n 1 A: AH 10H 3H 7H\r\n",
    "\ufeffdeal 1 dealer A\n", "deal 1 dealer A\n 1 A: AH 10H 3H 7H\n[Event \"next\"]\ndeal 1 dealer B\n",
]


@pytest.mark.parametrize("text", HAND_WRITTEN)
def test_hand_written_shapes(text: str) -> None:
    compare_text(text)
    compare(Chunk(text, 1, 1))          # even a chunk the reader would have cut
    compare(Chunk(text, 40, 9))         # and positions shifted to the middle of a file


def test_answers_the_common_shapes() -> None:
    """Not just "never wrong": the fast path must answer the shapes it is for."""
    answered = [t for t in HAND_WRITTEN[:13] if parse_fast(Chunk(t, 1, 1)) is not None]
    assert answered == HAND_WRITTEN[:13]


# ---- mutated records -----------------------------------------------------------------

_TOKEN = re.compile(r"\S+|\s+")


def _base_texts() -> list[str]:
    texts = [corpus("standard", None, Style(hands=True), seed=s, deals=2) for s in (1, 2)]
    texts.append(without_comments_and_glyphs(corpus("pagat", {"kots": 2, "trump": "first-void-five"},
                                                    LOOSE, seed=3, deals=2)))
    texts.append(corpus("standard", {"six-player": True, "trump": "closed"}, Style(), seed=4, deals=1))
    return texts


BASES = _base_texts()
MUTATION = st.tuples(st.sampled_from(["delete", "duplicate", "swap", "swap-near", "case", "newline", "join"]),
                     st.integers(0, 10**6), st.integers(0, 10**6))


def mutate(text: str, mutations: list[tuple[str, int, int]]) -> str:
    tokens = _TOKEN.findall(text)
    for kind, a, b in mutations:
        words = [i for i, t in enumerate(tokens) if not t.isspace()]
        spaces = [i for i, t in enumerate(tokens) if t.isspace()]
        if not words:
            break
        i = words[a % len(words)]
        if kind == "delete":
            del tokens[i]
        elif kind == "duplicate":
            tokens[i:i + 1] = [tokens[i], " ", tokens[i]]
        elif kind == "swap":
            j = words[b % len(words)]
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == "swap-near":
            k = words.index(i)
            if k + 1 < len(words):
                j = words[k + 1]
                tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == "case":
            tokens[i] = tokens[i].swapcase()
        elif kind == "newline" and spaces:
            tokens[spaces[b % len(spaces)]] = "\n"
        elif kind == "join" and spaces:
            tokens[spaces[b % len(spaces)]] = ""
    return "".join(tokens)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(range(len(BASES))), mutations=st.lists(MUTATION, min_size=1, max_size=4))
def test_mutated_records(base: int, mutations: list[tuple[str, int, int]]) -> None:
    text = mutate(BASES[base], mutations)
    for chunk in split_games(text):
        compare(chunk)


# ---- the collector -------------------------------------------------------------------

def test_paused_gc_restores_the_collector() -> None:
    import gc

    from dehlanote.syntax.fast import paused_gc

    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with paused_gc():
            assert not gc.isenabled()
            raise RuntimeError
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()       # left as it was found
    finally:
        gc.enable()
