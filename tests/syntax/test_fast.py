"""The two readings of the one grammar give the same games: whole-element tokens against
token by token.

The grammar's ``*_WHOLE`` terminals read plain elements (and whole plain deals) as one token;
the fine parser (those terminals off) reads every token on its own and is the reference.
When the whole reading meets no error, its games must equal the fine reading's node for
node: values, positions, comments. Whenever the fine reading finds an error, the whole
reading must not answer, so errors keep the fine reading's positions and wording. Checked
on every sample file, on generated matches of every profile in the plain and the loose
style (comments, glyphs, withdrawn cards, hands, several tricks to a line), on DPN 1.1
spellings and on records mutated by Hypothesis.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dehlanote.oracle.playout import Style, iter_matches
from dehlanote.syntax import terms
from dehlanote.deck import DECK
from dehlanote.syntax.cards import CARD_SPELLINGS, GLYPHS, SUIT_SPELLINGS
from dehlanote.syntax.parser import iter_games, parse_chunk, paused_gc, read_whole
from dehlanote.syntax.reader import Chunk, split_games

ROOT = Path(__file__).resolve().parents[2]
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
    """Assert the whole reading agrees with the fine one on ``chunk``; True when it answered.

    (Read with the garbage collector paused: the readings' nodes are freed by reference
    counting, and the collector rescanned them as they were built.)"""
    with paused_gc():
        return _compare(chunk)


def _compare(chunk: Chunk) -> bool:
    fine = parse_chunk(chunk, whole=False)
    whole = read_whole(chunk)
    assert parse_chunk(chunk) == fine
    assert parse_chunk(chunk, keep_source=True) == parse_chunk(chunk, keep_source=True, whole=False)
    if any(g.errors for g in fine):
        assert whole is None, f"the fine reading finds {fine[0].errors[0]!r} but the whole one answered"
    if whole is None:
        return False
    assert whole == fine
    return True


def compare_text(text: str) -> tuple[int, int]:
    """Compare every chunk of ``text``: (chunks, chunks the whole reading answered)."""
    chunks = list(split_games(text))
    return len(chunks), sum(compare(c) for c in chunks)


def corpus(profile: str, options, style: Style, seed: int, deals: int = 12) -> str:
    return "".join(text for text, _ in iter_matches(seed, deals, profile, options, style, max_deals=4))


def without_comments_and_glyphs(text: str) -> str:
    """The loose style with its comments and glyphs gone: mixed spellings, several tricks to
    a line, leaders and numbers left out, hands with ``|``."""
    return _GLYPH.sub("", _COMMENT.sub(" ", text))


# ---- the spelling tables against the grammar ------------------------------------------

def _grammar_accepts(name: str, text: str) -> bool:
    return re.fullmatch(terms.pattern(name), text) is not None


def test_card_table_is_what_the_grammar_accepts() -> None:
    """Every string of a rank and a suit spelling the grammar's CARD accepts is in the
    table, and nothing else: the table adds meanings, never spellings."""
    chars = sorted({c for s in CARD_SPELLINGS for c in s} | set("0123456789bBeEfFgGxX★"))
    candidates = {a + b for a in chars for b in chars} | {"10" + b for b in chars}
    accepted = {c for c in candidates if _grammar_accepts("CARD", c)}
    assert accepted == set(CARD_SPELLINGS)
    # ranks: A K Q J in two cases, 10 9 ... 2, T t; suits: S H D C, s h d c, two sets of symbols
    assert len(CARD_SPELLINGS) == (4 * 2 + 9 + 2) * 16
    assert set(CARD_SPELLINGS.values()) == set(DECK)
    for spelling, card in (("10h", "10H"), ("Td", "10D"), ("A♠", "AS"), ("k♡", "KH"), ("t♧", "10C")):
        assert CARD_SPELLINGS[spelling] == card


def test_suit_table_is_what_the_grammar_accepts() -> None:
    chars = sorted(set(SUIT_SPELLINGS) | set("xXaAzZ★♚"))
    assert {c for c in chars if _grammar_accepts("SUIT", c)} == set(SUIT_SPELLINGS)
    for c in "♠♥♦♣♤♡♢♧":      # DPN 1.1: with an emoji selector too
        assert _grammar_accepts("SUIT", c + "\ufe0f") and _grammar_accepts("SUIT", c + "\ufe0e")


def test_keywords_come_from_the_grammar() -> None:
    assert set(terms.KEYWORDS.values()) == {"deal", "dealer", "misdeal", "hands", "trump", "by", "at",
                                            "closed", "drawn", "tens", "claim", "revoke", "stands",
                                            "penalty"}


@pytest.mark.skipif(sys.version_info < (3, 11), reason="possessive quantifiers need Python 3.11")
def test_atomic_makes_quantifiers_possessive_only() -> None:
    assert terms.atomic(r"[ \t]*(?:\{[^}]*\}[ \t]*)*") == r"[ \t]*+(?:\{[^}]*+\}[ \t]*+)*+"
    # lazy and possessive ones, group extensions, escapes and classes stay as they are
    assert terms.atomic(r"a*?b++(?:c)?(?!d)\(?[]*+?]+\\.") == r"a*?b++(?:c)?+(?!d)\(?+[]*+?]++\\."
    assert terms.atomic("x{1,2}y{3}") == "x{1,2}+y{3}+"
    # and the whole terminals read the same text as before: every generated game is whole
    whole = terms.make_lark(whole=True, transformer=None, lexer_callbacks={})
    greedy = re.compile(terms.pattern("GAME_WHOLE")).fullmatch
    atomic = re.compile(whole.get_terminal("GAME_WHOLE").pattern.to_regexp()).fullmatch
    text = corpus("standard", None, LOOSE, seed=2) + corpus("standard", None, Style(hands=True, withdrawn=0.5), seed=2)
    chunks = [chunk.text.strip() for chunk in split_games(text)]
    assert [bool(greedy(c)) for c in chunks] == [bool(atomic(c)) for c in chunks]
    assert sum(bool(atomic(c)) for c in chunks) >= len(chunks) // 2


# ---- files ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_file(path: Path) -> None:
    with open(path, "rb") as stream:
        for chunk in split_games(stream):
            compare(chunk)
    # and the whole file the way every command reads it
    with open(path, "rb") as a, open(path, "rb") as b:
        assert list(iter_games(a)) == [g for c in split_games(b) for g in parse_chunk(c, whole=False)]


# ---- generated matches ---------------------------------------------------------------

@pytest.mark.parametrize("profile,options", PROFILES, ids=lambda v: str(v))
def test_generated_plain(profile: str, options) -> None:
    text = corpus(profile, options, PLAIN, seed=7)
    chunks, answered = compare_text(text)
    assert answered == chunks      # the writer's layout: every game read with whole tokens
    crlf = text.replace("\n", "\r\n")
    assert compare_text(crlf)[1] == chunks


@pytest.mark.parametrize("profile,options", PROFILES, ids=lambda v: str(v))
def test_generated_loose(profile: str, options) -> None:
    text = corpus(profile, options, LOOSE, seed=11)
    chunks, answered = compare_text(text)    # comments and glyphs too: no game left to the fine path
    assert answered == chunks
    chunks, answered = compare_text(without_comments_and_glyphs(text))
    assert answered == chunks


@pytest.mark.parametrize("withdrawn", [0.3, 1.0])
def test_generated_withdrawn_cards(withdrawn: float) -> None:
    text = corpus("standard", None, Style(hands=True, withdrawn=withdrawn), seed=13)
    chunks, answered = compare_text(text)
    assert answered == chunks


def test_generated_without_leaders_hands_or_tens() -> None:
    style = Style(hands=True, leaders=False, tens=False, result=False)
    text = corpus("standard", None, style, seed=3)
    chunks, answered = compare_text(text)
    assert answered == chunks


def test_game_starting_mid_line() -> None:
    """Columns on the first line of a chunk that starts after another game's last token."""
    text = corpus("standard", None, PLAIN, seed=5, deals=3)
    one = text.rstrip("\n")
    tail = one.split("\n\n", 1)[1].split("deal 1 dealer", 1)[1].split("\n", 1)[1]
    glued = one + ' [Event "x"] [A "y"]\ndeal 1 dealer A\n' + tail
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
    # DPN 1.1, claims, comments in odd places
    ("deal 1 dealer A\ntrump \u2665\ufe0f\nhands A: A\u2660\ufe0f, K\u2660 | Q\u2660 | J\u2660\n"
     "1. A: AH, 10H, 3H, 7H\nclaim A\n"),
    # emoji suits with a selector in tricks (read word by word from the table, not scanned)
    "deal 1 dealer A\ntrump \u2665\ufe0f by B\n1. B: A\u2665\ufe0f, 10\u2665\ufe0e, 3\u2661\ufe0f!?, 7\u2665\n"
    " 2. C: -2\u2663\ufe0f 4\u2660\ufe0f?, -3\u2666\ufe0e K\u2660\ufe0f 5\u2660\ufe0f!, 6\u2660\ufe0f\n",
    "deal 1 dealer A\n1. A: A\u2665\ufe0f\ufe0f 10\u2665\ufe0f 3\u2665\ufe0f 7\u2665\ufe0f\n",
    "deal 1 dealer A\ntrump S\nhands A: AS KS\n 1 A: AH 10H 3H 7H\n", "deal\n1. AH 10H 3H 7H 2. 2S 3S 4S 5S\n",
    "deal 1 dealer A\n 1 A: AH {a\nb} 10H 3H 7H {c}\n {d} 2 A: 2S 3S 4S 5S\n",
    "deal 1 dealer A {x}\ntrump S {y}\n 1 A: AH 10H 3H 7H\ntens AC 1 BD 0 {z}\n",
    "[Event \"{not a comment}\"] {a comment} [Site \"x\"]\ndeal 1 dealer A\n 1 A: AH 10H 3H 7H\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H\n 2 A: 2S\n", "deal 1 dealer A\n 1 A: AH\n 2 A: 2S\n",
    "deal 1 dealer A\n 5 A: AD 8 3D QD\n", "deal 1 dealer A\n 9 A: 7S 4H 5S 10\n10 B: 2S 3S 4S 5S\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H\nclaim B\ntens AC 0 BD 4\n", "deal 1\n 1 A: AH 10H 3H 7H\n",
    # DPN 1.2: revokes the table ruled on, alone, with comments, before a claim and tens, misplaced
    "deal 1 dealer A\n 1 A: AH 10H 2S 7H\nrevoke C at 1 stands\nrevoke B at 1 PENALTY {fine}\nclaim B\n"
    "tens AC 0 BD 4\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H {x} revoke\nD at 1 stands {y}\n", "deal 1 dealer A\nrevoke C at 1 stands\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H\nrevoke C at 1 stands\n 2 A: 2S 3S 4S 5S\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H\nrevoke C 1 stands\n", "deal 1 dealer A\n 1 A: AH\nrevoke C at 1 redeal\n",
    "deal 1 dealer A\ntrump S\n 1 A: AH 10H 3H 7H\ntrump H\n", "deal 1 dealer A\n 1 A: AH 10H 3H 7H\n 3H\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H\n 2 A: 2S -3S 4S 5S 6S\n 3 2h 3h 4h 5h\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H\n 2 A: 2S 3S 4S 5S 3 3S 4S 5S 6S\n 4 B: 2h 3h 4h 5h\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H {a ten\n falls} 2H 4H\n 2 B: 2S 3S 4S 5S 6S 7S\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H {a\n\n b}\n 2 B: 2S 3S 4S 5S\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H {a\n\n b} 2H 4H\n 2 B: 2S 3S 4S 5S 6S 7S\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H 7H {a\n\n b}\n 2 B: 2S 3S 4S 5S 3 C: 2D 3D {c\n d} 4D 5D\n",
    "deal 1 dealer A\n 1 A: AH 10H 3H {a\n\n b}\n\n -7H! 7H\n 2 B: 2S 3S 4S 5S\n",
    '[Event "a"]\n\n  [Site "b"] [Date "c"]\ndeal 1 dealer A\n 1 A: AH 10H 3H 7H\ntens AC 1 BD 0\n',
    '[Event "a"]\n\n\t[Site "b\\"c"]  \r\n[Date "c"]\r\ndeal 1 dealer A\r\n 1 A: AH 10H 3H 7H\r\ntens AC 1 BD 0\n',
]


@pytest.mark.parametrize("text", HAND_WRITTEN)
def test_hand_written_shapes(text: str) -> None:
    compare_text(text)
    compare(Chunk(text, 1, 1))          # even a chunk the reader would have cut
    compare(Chunk(text, 40, 9))         # and positions shifted to the middle of a file


def test_answers_the_common_shapes() -> None:
    """Not just "never wrong": the whole reading must answer every valid shape above."""
    valid = [t for t in HAND_WRITTEN if not any(g.errors for g in parse_chunk(Chunk(t, 1, 1), whole=False))]
    assert len(valid) >= 25
    # an element split over lines is the one shape left to the fine reading (its game only)
    assert [t for t in valid if read_whole(Chunk(t, 1, 1)) is None] == [
        "deal 1 dealer A\n 1 A: AH 10H\n 3H 7H\n", "deal 1\ndealer A\n",
        "deal 1 dealer A\n 1 A: AH 10H 3H 7H\n 3H\n"]


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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(range(len(BASES))), mutations=st.lists(MUTATION, min_size=1, max_size=4))
def test_mutated_records(base: int, mutations: list[tuple[str, int, int]]) -> None:
    text = mutate(BASES[base], mutations)
    for chunk in split_games(text):
        compare(chunk)


# ---- the collector -------------------------------------------------------------------

def test_paused_gc_restores_the_collector() -> None:
    import gc

    from dehlanote.syntax.parser import paused_gc

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


# ---- the reader's plain games --------------------------------------------------------

def _cuts(text: str) -> list[tuple[str, int, int, bool]]:
    return [(c.text, c.line, c.column, c.last) for c in split_games(text)]


def _scan_only(monkeypatch: pytest.MonkeyPatch, text: str) -> list[tuple[str, int, int, bool]]:
    """The chunks of ``text`` as the scan alone cuts them (no plain-game match)."""
    from dehlanote.syntax import reader
    with monkeypatch.context() as m:
        m.setattr(reader, "GAME_WHOLE_AT", re.compile(r"(?!x)x").match)
        return _cuts(text)


READER_TEXTS = [
    corpus("standard", None, PLAIN, seed=21),
    corpus("standard", None, LOOSE, seed=22),
    corpus("standard", None, Style(hands=True, withdrawn=0.5), seed=23),
    # cut where the scan cuts: a deal numbered 1 after another, a tag holding the word
    # deal, a comment holding a [ or a blank line, comments after the last deal
    '[Event "a"]\ndeal 1 dealer A\n 1 A: AH 10H 3H 7H\ntens AC 1 BD 0\ndeal 1 dealer B\n 1 B: 2S 3S 4S 5S\n'
    'tens AC 0 BD 0\n\n[Event "b"]\ndeal 1\n',
    '[deal "x"]\ndeal 1 dealer A\n 1 A: AH 10H 3H 7H\ntens AC 1 BD 0\n\n[Event "b"]\ndeal 1\n',
    '[Event "a"]\ndeal 1 dealer A {x\n\n[Event "c"] y}\n 1 A: AH 10H 3H 7H\ntens AC 1 BD 0\n\n[Event "b"]\ndeal 1\n',
    '[Event "a"]\ndeal 1 dealer A\n 1 A: AH 10H 3H 7H\ntens AC 1 BD 0 {x} {y}\n\n{z}\n[Event "b"]\ndeal 1\n',
    '[Event "a"]\ndeal 1 dealer A\n 1 A: AH 10H 3H 7H\ntens AC 1 BD 0\n\n\n  [Event "b"]\r\ndeal 1\n',
    '[Event "a"]\r\ndeal 1 dealer A\r\n 1 A: AH 10H 3H 7H\r\ntens AC 1 BD 0\r\n\r\n[Event "b"]\r\ndeal 1\r\n',
    '[Event "a"]\ndeal 1 dealer A\n 1 A: AH 10H 3H 7H\ntens AC 1 BD 0\n[Event "b"]\ndeal 1\n',
    '\n\n[Event "a"][Site "{"]\ndeal 2 dealer A\n 1 A: AH 10H 3H 7H\ntens AC 1 BD 0\n\n[Event "b"]\n',
    # a [ alone on its line after a blank line, before another [: it stays with the game
    # before (fuzz seed 4927: the plain game was cut before it, the scan after it)
    '[t""]\ndeal dealer C\n1 8\u2665\ntens AC 4 BD 0\n\n[\n[',
    '[Event "a"]\ndeal 1 dealer A\n 1 A: AH 10H 3H 7H\ntens AC 1 BD 0\n\n[ \t\n\n  [Event "b"]\ndeal 1\n',
    # a deal numbered 1 after other white space than a space before it (the plain-game
    # test looks for it from the line end when the game holds no comment), in any case
    *('[Event "a"]\ndeal 1 dealer A\n 1 A: AH 10H 3H 7H\ntens AC 1 BD 0\n' + gap + 'DeAl\t01 dealer B\n'
      ' 1 B: 2S 3S 4S 5S\ntens AC 0 BD 0\n\n[Event "b"]\ndeal 1\n'
      for gap in ("", "\n", "\t", "\x0c", "\u2003", "\r\n \t")),
]


@pytest.mark.parametrize("text", READER_TEXTS)
def test_reader_cuts_plain_games_where_the_scan_does(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _cuts(text) == _scan_only(monkeypatch, text)
    compare_text(text)


def test_reader_hands_the_whole_token_on() -> None:
    chunks = list(split_games(READER_TEXTS[0]))
    assert sum(c.whole is not None for c in chunks) == len(chunks) - 1     # all but the last
    for c in chunks:
        if c.whole is not None:
            assert re.fullmatch(terms.whole_pattern("GAME_WHOLE"), c.text[c.whole[0]:c.whole[1]])
            assert not c.text[:c.whole[0]].strip() and not c.text[c.whole[1]:].strip()
            # a hint, not part of what the chunk is (a piece of a file cannot see the next tags)
            assert c == c._replace(whole=None) and hash(c) == hash(c._replace(whole=None))
            assert c != c._replace(line=c.line + 1)


def test_whole_pattern_is_the_whole_parsers() -> None:
    whole = terms.make_lark(whole=True, transformer=None, lexer_callbacks={})
    for name in ("GAME_WHOLE", "TRICKS_WHOLE", "TAGS_WHOLE"):
        assert terms.whole_pattern(name) == whole.get_terminal(name).pattern.to_regexp()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(base=st.sampled_from(range(len(BASES))), mutations=st.lists(MUTATION, min_size=1, max_size=4))
def test_reader_cuts_mutated_records_where_the_scan_does(base: int, mutations: list[tuple[str, int, int]],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    text = mutate(BASES[base] + BASES[(base + 1) % len(BASES)], mutations)
    assert _cuts(text) == _scan_only(monkeypatch, text)


SPACES = ["\x0c", "\x0b", "\u2003", "\x1c", "\x85", "\xa0", " \x0c\t"]


@pytest.mark.parametrize("space", SPACES)
def test_any_white_space_at_line_starts_reads_the_same(space: str) -> None:
    # campaign finding: a form feed before "deal" hid the deal from the whole reading (its
    # lines were taken for the tags, and the deal silently lost; some layouts raised IndexError)
    # Each space is tried on a third of the samples in turn, each sample under two or three
    # of the spaces (every sample under every space took 13 s of the suite, the fine reading's)
    turn = SPACES.index(space) % 3
    for path in sorted(ROOT.glob("samples/*.dpn"))[turn::3]:
        text = path.read_text(encoding="utf-8")
        for variant in (text.replace("\n", "\n" + space), text.replace("\ndeal", "\n" + space + "deal"),
                        text.replace("\n ", "\n" + space + " ")):
            compare_text(variant)
    found = '[t""]\n\x0cdeal dealer B\n3 5S\ntens AC 2 BD 2\ndeal dealer B\n1 7C\ntens AC 2 BD 2'
    assert compare_text(found) == (1, 1)
    (game,) = iter_games(found)
    assert [d.line for d in game.deals] == [2, 5]


# ---- every construct, generated ------------------------------------------------------
# A record built from every construct of the notation, each in its spellings and layouts:
# tags (escapes, any layout), deal lines (keywords in any case, numbers with zeros, the
# dealer or not), misdeals, hands (one seat or several a line, commas, | splits, symbols
# with and without emoji selectors), trump lines (suit, by, at, closed, drawn), tricks
# (plain and dotted numbers, leaders or none, withdrawn cards, glyphs, commas, several to a
# line), claims, tens lines (two, four and six players' sides), comments anywhere, tabs,
# CRLF, and now and then an element split over lines or two on one line. Whatever the
# whole reading reads must be what the fine reading reads, and it must decline whatever
# the fine reading finds wrong: the grammar's whole terminals and its fine rules cannot
# disagree on any construct without this failing.

_SEATS4 = "ABCD"
_SPELLINGS = sorted(CARD_SPELLINGS)
_SYMBOLS = "♠♥♦♣♤♡♢♧"


def _record(pick) -> str:   # pick(options) -> one of them
    def gap() -> str:
        return pick([" "] * 16 + ["  ", "\t", " {c} ", " {a\nb} "])

    def end() -> str:
        return pick(["\n", "\n", "\n", "\r\n", "\n\n", " {note}\n", "\n{own line}\n"])

    def card(glyph: bool = False) -> str:
        c = pick(_SPELLINGS)
        if c[-1] in _SYMBOLS:
            c += pick(["", "", "\ufe0f", "\ufe0e"])
        if glyph:
            c += pick(["", "", "", "", *GLYPHS])
        return c

    def word(w: str) -> str:
        return pick([w, w, w.upper(), w.capitalize()])

    out = []
    if pick([True, True, False]):
        for _ in range(pick([1, 2, 3])):
            name = pick(["Event", "Site", "Date", "A", "rules", "Result", "X_1", "Note9"])
            value = pick(["x", "a \\\"b\\\"", "c \\\\ d", "{not a comment}", "", "deal 1"])
            out.append(f"[{pick(['', ' '])}{name}{pick([' ', '', '  '])}\"{value}\"{pick(['', ' '])}]"
                       + pick(["\n", " ", "\n\n"]))
        out.append(pick(["\n", "\n\n"]))
    for number in range(1, pick([1, 2, 3]) + 1):
        head = word("deal")
        if pick([True, True, False]):
            head += gap() + pick([str(number), f"0{number}"])
        if pick([True, True, False]):
            head += gap() + word("dealer") + gap() + pick(_SEATS4)
        out.append(head + end())
        for _ in range(pick([0, 0, 0, 1, 2])):
            out.append(word("misdeal") + end())
        trump = None
        if pick([True, True, False]):
            if pick([True, True, True, False]):
                trump = word("trump") + gap() + pick(["S", "h", "♦", "♣\ufe0f", "d"])
                if pick([True, False]):
                    trump += gap() + word("by") + gap() + pick(_SEATS4)
                if pick([True, False, False]):
                    trump += gap() + word("at") + gap() + pick(["1", "3", "05"])
                if pick([True, False, False]):
                    trump += gap() + word("closed")
            else:
                trump = word("trump") + gap() + word("drawn") + gap() + card()
        hands = None
        if pick([True, False]):
            lines = []
            for seat in pick([_SEATS4, "AB", "C"]):
                cards = [card() for _ in range(pick([1, 3, 5, 9]))]
                if len(cards) > 1 and pick([True, False]):
                    at = pick(list(range(1, len(cards))))
                    cards[at] = pick(["|", " | ", "|"]) + cards[at]
                sep = pick([" ", " ", ",", ", ", " ,"])
                lines.append(f"{seat}:{pick([' ', '', '  '])}" + sep.join(cards).replace(sep + "|", "|")
                             .replace(sep + " | ", " | "))
            joiner = pick(["\n      ", " ", "\n"])
            hands = word("hands") + gap() + joiner.join(lines)
        first = pick([True, False])
        for element in ((hands, trump) if first else (trump, hands)):
            if element is not None:
                out.append(element + end())
        tricks = pick([0, 1, 3, 5])
        line = []
        for t in range(1, tricks + 1):
            number = pick([f"{t:2d}", str(t), f"{t}.", f"{t}. ", f"0{t}"])
            text = number + (" " if not number.endswith(" ") and not number.endswith(".") else "")
            if number.endswith(".") and pick([True, False]):
                text = number + " "
            if pick([True, True, False]):
                text += pick(_SEATS4) + pick([":", ": ", " : ", ":\t"]) + pick(["", " "])
            plays = []
            for _ in range(pick([4, 4, 4, 3, 1])):
                play = card(glyph=True)
                if pick([False, False, False, True]):
                    play = "-" + card() + pick([" ", "  "]) + play
                plays.append(play)
            text += pick([" ", " ", ", ", ","]).join(plays) if pick([True, True, False]) else " ".join(plays)
            line.append(text)
            if pick([True, True, False]) or t == tricks:
                out.append(pick(["", " ", "  "]) + "  ".join(line) + end())
                line = []
        if tricks and pick([False, False, True]):
            out.append(word("claim") + gap() + pick(_SEATS4) + end())
        if pick([True, True, False]):
            side1, side2 = pick([("AC", "BD"), ("BD", "AC"), ("ACE", "BDF")])
            out.append(word("tens") + gap() + side1 + gap() + pick(["0", "2", "4"]) + gap() + side2 + gap()
                       + pick(["0", "2", "04"]) + end())
    text = "".join(out)
    # now and then an element split over lines, or two elements on one line
    if pick([False, False, False, True]):
        spaces = [i for i, c in enumerate(text) if c == " "]
        if spaces:
            i = pick(spaces)
            text = text[:i] + "\n" + text[i + 1:]
    if pick([False, False, False, True]):
        ends = [i for i, c in enumerate(text) if c == "\n" and 0 < i < len(text) - 1]
        if ends:
            i = pick(ends)
            text = text[:i] + " " + text[i + 1:]
    return text


#: one strategy per list of options, made once: a new sampled_from for each of the 200 choices
#: of a record (and its validation) was a third of the drawing; the same values are drawn
_CHOICES: dict[tuple, st.SearchStrategy] = {}


def _choice(options: list) -> st.SearchStrategy:
    key = tuple(options)
    strategy = _CHOICES.get(key)
    if strategy is None:
        strategy = _CHOICES[key] = st.sampled_from(key)
    return strategy


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_construct_reads_the_same_both_ways(data: st.DataObject) -> None:
    text = _record(lambda options: data.draw(_choice(options)))
    for chunk in split_games(text):
        compare(chunk)


def test_the_generated_constructs_are_read_whole() -> None:
    """The generator is no test unless the whole reading answers its records, and each
    construct occurs in a record the whole reading answered (so that both readings of it
    were compared)."""
    import random

    seen: set[str] = set()
    answered = total = 0
    for seed in range(400):
        rng = random.Random(seed)
        for chunk in split_games(_record(rng.choice)):
            total += 1
            games = read_whole(chunk)
            if games is None:
                continue
            assert games == parse_chunk(chunk, whole=False)
            answered += 1
            text = chunk.text
            for game in games:
                seen.update(k for k, present in (("tags", game.tags), ("comments", "{" in text)) if present)
                for deal in game.deals:
                    trump = deal.trump
                    plays = [p for t in deal.tricks for p in t.plays]
                    for kind, present in (
                            ("misdeal", deal.misdeals), ("hands", deal.hands),
                            ("split", any(h.split is not None for h in deal.hands or ())),
                            ("several hands a line", len({h.line for h in deal.hands or ()}) < len(deal.hands or ())),
                            ("trump suit", trump is not None and trump.suit is not None),
                            ("trump by", trump is not None and trump.by is not None),
                            ("trump at", trump is not None and trump.at is not None),
                            ("closed", trump is not None and trump.closed),
                            ("drawn", trump is not None and trump.drawn is not None),
                            ("leader", any(t.leader for t in deal.tricks)),
                            ("no leader", any(t.leader is None for t in deal.tricks)),
                            ("withdrawn", any(p.withdrawn for p in plays)), ("glyph", any(p.glyph for p in plays)),
                            ("several tricks a line", len({t.line for t in deal.tricks}) < len(deal.tricks)),
                            ("dotted", "." in text), ("comma", "," in text), ("crlf", "\r" in text),
                            ("symbol", any(s in text for s in _SYMBOLS)), ("selector", "\ufe0f" in text),
                            ("claim", deal.claim), ("tens", deal.tens), ("six-player sides", "ACE" in text),
                            ("tab", "\t" in text)):
                        if present:
                            seen.add(kind)
    assert answered >= total // 3, (answered, total)
    assert seen >= {"tags", "comments", "misdeal", "hands", "split", "several hands a line", "trump suit",
                    "trump by", "trump at", "closed", "drawn", "leader", "no leader", "withdrawn", "glyph",
                    "several tricks a line", "dotted", "comma", "crlf", "symbol", "selector", "claim", "tens",
                    "six-player sides", "tab"}, seen
