"""Issue 27 item 3: a long game that is not one plain GAME_WHOLE token (a deal without its
tens line, comments, hands written over lines...) is read deal by deal (``parser._read_pieces``)
and keeps its text instead of its model; what it gives is what reading the whole game token
by token gives (the reference reading): the same nodes at the same positions, the same
comments on the same elements, the same errors.

The thresholds are lowered here (``PIECES_FROM`` 0 characters, ``LAZY_DEALS`` 1 deal) so
that every game of two deals or more of every sample, of generated matches in every
writing style and of mutated records goes through the piecewise reading.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dehlanote import replay_game
from dehlanote.oracle.playout import Style, generate_match, iter_matches
from dehlanote.syntax import parse_string, parser
from dehlanote.syntax.lazy import LazyDeals
from dehlanote.syntax.parser import parse_chunk, paused_gc
from dehlanote.syntax.reader import split_games

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("samples/*.dpn"), *ROOT.glob("tests/**/*.dpn")})


@pytest.fixture(autouse=True)
def _collector_paused():
    """Each test here runs with the garbage collector paused (restored after it): the readings'
    nodes are freed by reference counting, and the collector rescanned them as they were built."""
    with paused_gc():
        yield


@pytest.fixture
def pieces(monkeypatch):
    monkeypatch.setattr(parser, "PIECES_FROM", 0)
    monkeypatch.setattr(parser, "LAZY_DEALS", 1)


def compare(text: str) -> tuple[int, int, int]:
    """Every chunk of ``text`` read with the piecewise reading allowed against the token by
    token reading: (games of two deals or more, games read piece by piece, those of the
    first that are one GAME_WHOLE token without comments: the whole reading's own lazy game)."""
    long = lazy = plain = 0
    for chunk in split_games(text):
        fine = parse_chunk(chunk, whole=False)
        got = parse_chunk(chunk)
        assert got == fine
        for g, f in zip(got, fine):
            assert g.errors == f.errors and g.comments == f.comments and g.tags == f.tags
            assert list(g.deals) == list(f.deals) and list(g.deals) == list(f.deals)    # (read twice)
        assert parse_chunk(chunk, keep_source=True) == parse_chunk(chunk, keep_source=True, whole=False)
        long += sum(len(g.deals) > 1 for g in fine)
        lazy += sum(isinstance(g.deals, LazyDeals) for g in got)
        if "{" not in chunk.text and parser.whole_span(chunk.text) is not None:
            plain += sum(len(g.deals) > 1 for g in fine)
    return long, lazy, plain


def corpus(profile: str, options, style: Style, seed: int, deals: int = 30) -> str:
    return "".join(text for text, _ in iter_matches(seed, deals, profile, options, style, max_deals=6))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_file(path: Path, pieces) -> None:
    compare(path.read_text(encoding="utf-8", errors="replace"))


STYLES = {
    "loose": ("standard", None, Style(loose=True, hands=True)),
    "no-tens": ("pagat", {"kots": 0}, Style(tens=False)),
    "no-tens-no-leaders": ("standard", None, Style(hands=True, leaders=False, tens=False, result=False)),
    "hands": ("hukum", None, Style(hands=True, withdrawn=0.5)),
    "six-player-loose": ("standard", {"six-player": True}, Style(loose=True)),
    "claims": ("standard", {"trump": "closed"}, Style(claims=0.5, withdrawn=0.3)),
}


@pytest.mark.parametrize("style", sorted(STYLES))
def test_generated_matches(style: str, pieces) -> None:
    profile, options, how = STYLES[style]
    text = corpus(profile, options, how, seed=17)
    long, lazy, plain = compare(text)
    # every game of several deals is read piece by piece (a plain one with its tens lines
    # and no comment is one GAME_WHOLE token: its own lazy reading, not this one)
    assert long >= 4 and lazy == long - plain, (long, lazy, plain)
    crlf = text.replace("\n", "\r\n")
    assert compare(crlf)[1] == lazy


def _session(deals: int = 40) -> str:
    text, _ = generate_match(random.Random(9), "pagat", {"kots": 0}, style=Style(tens=False), max_deals=deals)
    return text


@pytest.mark.parametrize("edit", [
    "comment-between-deals", "comment-holding-a-deal-line", "comment-on-deal-line", "comment-before-tags",
    "comment-at-the-end", "upper-case-deal", "indented-deal", "untagged", "untagged-after-blank-lines",
    "blank-lines-between-deals", "tens-on-some", "hands-over-lines", "tag-between-deals"])
def test_edge_shapes_read_as_the_whole_game(edit: str, pieces) -> None:
    text = _session()
    if edit == "comment-between-deals":
        text = text.replace("\n\ndeal 5", "\n{the fifth deal next}\n\ndeal 5")
        text = text.replace("\n\ndeal 7", " {late}\n\ndeal 7")
    elif edit == "comment-holding-a-deal-line":
        text = text.replace("\n\ndeal 5", "\n{not a deal:\ndeal 99 dealer A\n}\ndeal 5")
    elif edit == "comment-on-deal-line":
        text = re.sub(r"(deal \d+ dealer [A-D])", r"\1 {on the deal}", text)
    elif edit == "comment-before-tags":
        text = "{a file note}\n" + text
    elif edit == "comment-at-the-end":
        text = text.rstrip("\n") + "\n{the end}\n\n"
    elif edit == "upper-case-deal":
        text = text.replace("\ndeal 3", "\nDEAL 3").replace("\ndeal 4", "\nDeal 4")
    elif edit == "indented-deal":
        text = text.replace("\ndeal 3", "\n  deal 3").replace("\ndeal 6", "\n\tdeal 6")
    elif edit == "untagged":
        text = text[text.index("deal 1"):]
    elif edit == "untagged-after-blank-lines":
        text = "\n\n" + text[text.index("deal 1"):]
    elif edit == "blank-lines-between-deals":
        text = text.replace("\n\ndeal ", "\n\n\n  \n\ndeal ")
    elif edit == "tens-on-some":
        text = text.replace("\n\ndeal 4", "\ntens AC 2 BD 2\n\ndeal 4")
    elif edit == "hands-over-lines":
        hands, _ = generate_match(random.Random(9), "pagat", {"kots": 0}, style=Style(hands=True, tens=False),
                                  max_deals=12)
        text = re.sub(r"\n      ([A-D]:)", r"\n\1", hands)
    elif edit == "tag-between-deals":       # (a tag after a deal starts the next game)
        text = text.replace("\n\ndeal 12", '\n[Note "x"]\n\ndeal 12')
    long, lazy, _ = compare(text)
    games = 2 if edit == "tag-between-deals" else 1
    assert long == games and lazy == games


@pytest.mark.parametrize("mistake", ["card", "tens", "head", "unclosed-comment", "two-deals-a-line"])
def test_a_mistake_anywhere_reads_the_whole_game(mistake: str, pieces) -> None:
    """A piece with an error, or that is not one deal, sends the whole game to the usual
    reading: its errors are that reading's, and its deals a tuple."""
    text = _session()
    if mistake == "card":
        text = text.replace("\n\ndeal 30", "\n\ndeal 30", 1)
        at = text.index("\n\ndeal 30")
        text = text[:at] + " 4X" + text[at:]
    elif mistake == "tens":
        text = text.replace("\n\ndeal 12", "\ntens AC 9\n\ndeal 12")
    elif mistake == "head":
        text = text.replace('[Result', '[Result "x"]\n[Result', 1)
    elif mistake == "unclosed-comment":
        text = text.replace("\n\ndeal 20", " {never closed\n\ndeal 20")
    elif mistake == "two-deals-a-line":
        text = text.replace("\n\ndeal 20", " deal 20")
    for chunk in split_games(text):
        fine = parse_chunk(chunk, whole=False)
        got = parse_chunk(chunk)
        assert got == fine
        assert not any(isinstance(g.deals, LazyDeals) for g in got)
    if mistake in ("card", "tens", "head", "unclosed-comment"):
        assert any(g.errors for g in fine)


def test_a_long_game_read_in_pieces_replays_as_the_whole_game(monkeypatch) -> None:
    """At the real thresholds: a session of 600 deals without tens lines, a comment on every
    tenth trick, is read piece by piece and replays to the same facts as the whole reading."""
    text, _ = generate_match(random.Random(4), "pagat", {"kots": 0}, style=Style(tens=False), max_deals=600)
    count = 0

    def note(m: re.Match) -> str:
        nonlocal count
        count += 1
        return m.group(0) + (" {a note}" if count % 10 == 0 else "")

    text = re.sub(r"^ ?\d+ [A-D]: \S+", note, text, flags=re.MULTILINE)
    (game,) = parse_string(text)
    with monkeypatch.context() as m:
        m.setattr(parser, "PIECES_FROM", 1 << 60)
        (whole,) = parse_string(text)
    assert isinstance(game.deals, LazyDeals) and type(whole.deals) is tuple and len(whole.deals) == 600
    assert game == whole
    assert sum(len(p.comments) for d in game.deals for t in d.tricks for p in t.plays) == count // 10
    a, b = replay_game(game), replay_game(whole)
    assert not a.errors and (a.errors, a.result, a.deals) == (b.errors, b.result, b.deals)


_TOKEN = re.compile(r"\s+|\{[^}]*\}|[^\s{]+")
BASES = [_session(4), corpus("standard", None, Style(loose=True, hands=True), seed=5, deals=6),
         _session(3).replace("\n\ndeal 2", "\n{a note}\n\ndeal 2")]
MUTATION = st.tuples(st.sampled_from(["delete", "duplicate", "swap", "case", "newline", "join"]),
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
        elif kind == "case":
            tokens[i] = tokens[i].swapcase()
        elif kind == "newline" and spaces:
            tokens[spaces[b % len(spaces)]] = "\n"
        elif kind == "join" and spaces:
            tokens[spaces[b % len(spaces)]] = ""
    return "".join(tokens)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(base=st.sampled_from(range(len(BASES))), mutations=st.lists(MUTATION, min_size=1, max_size=4))
def test_mutated_records(base: int, mutations: list[tuple[str, int, int]], pieces) -> None:
    compare(mutate(BASES[base], mutations))
