"""Comments attach to the element they follow: the parser's targeted search (bisection to
the deal, a few comparisons inside it) against the plain definition, every element an
anchor sorted by position, the comment going to the last anchor before it.

Checked on every sample file, on generated loose matches (comments everywhere) and on
records where Hypothesis puts comments in any gap between two words.
"""

from __future__ import annotations

import bisect
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dehlanote.oracle.playout import Style, iter_matches
from dehlanote.syntax import parser
from dehlanote.syntax.model import Game
from dehlanote.syntax.parser import parse_chunk
from dehlanote.syntax.reader import split_games

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("samples/*.dpn"), *ROOT.glob("tests/**/*.dpn")})


def reference_attach(game: Game, comments: list[tuple[int, int, str]]) -> Game:
    """The definition: every element is an anchor; a comment goes to the last anchor
    before it (the game, before any); every node is rebuilt."""
    anchors: list[tuple[tuple[int, int], tuple[Any, ...]]] = []
    for i, tag in enumerate(game.tags):
        anchors.append(((tag.line, tag.column), ("tag", i)))
    for d, deal in enumerate(game.deals):
        anchors.append(((deal.line, deal.column), ("deal", d)))
        for m, mis in enumerate(deal.misdeals):
            anchors.append(((mis.line, mis.column), ("misdeal", d, m)))
        for h, hand in enumerate(deal.hands or ()):
            anchors.append(((hand.line, hand.column), ("hand", d, h)))
        if deal.trump is not None:
            anchors.append(((deal.trump.line, deal.trump.column), ("trump", d)))
        for t, trick in enumerate(deal.tricks):
            anchors.append(((trick.line, trick.column), ("trick", d, t)))
            for p, play in enumerate(trick.plays):
                first = play.withdrawn[0] if play.withdrawn else play
                anchors.append(((first.line, first.column), ("play", d, t, p)))
        if deal.claim is not None:
            anchors.append(((deal.claim.line, deal.claim.column), ("claim", d)))
        if deal.tens is not None:
            anchors.append(((deal.tens.line, deal.tens.column), ("tens", d)))
    anchors.sort(key=lambda a: a[0])
    keys = [a[0] for a in anchors]
    found: dict[tuple[Any, ...], list[str]] = {}
    for line, column, text in comments:
        i = bisect.bisect_left(keys, (line, column)) - 1
        found.setdefault(anchors[i][1] if i >= 0 else ("game",), []).append(text)

    def add(node: Any, key: tuple[Any, ...]) -> Any:
        extra = found.get(key)
        return node._replace(comments=node.comments + tuple(extra)) if extra else node

    deals = []
    for d, deal in enumerate(game.deals):
        tricks = []
        for t, trick in enumerate(deal.tricks):
            plays = tuple(add(p, ("play", d, t, i)) for i, p in enumerate(trick.plays))
            tricks.append(add(trick._replace(plays=plays), ("trick", d, t)))
        hands = deal.hands
        if hands is not None:
            hands = tuple(add(h, ("hand", d, i)) for i, h in enumerate(hands))
        deal = deal._replace(
            misdeals=tuple(add(m, ("misdeal", d, i)) for i, m in enumerate(deal.misdeals)), hands=hands,
            trump=add(deal.trump, ("trump", d)) if deal.trump is not None else None, tricks=tuple(tricks),
            tens=add(deal.tens, ("tens", d)) if deal.tens is not None else None,
            claim=add(deal.claim, ("claim", d)) if deal.claim is not None else None)
        deals.append(add(deal, ("deal", d)))
    tags = tuple(add(t, ("tag", i)) for i, t in enumerate(game.tags))
    return add(game._replace(tags=tags, deals=tuple(deals)), ("game",))


def both_ways(text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """Parse ``text`` with the parser's attachment and with the reference; assert they
    agree; the number of comments found."""
    chunks = list(split_games(text))
    ours = [g for c in chunks for w in (True, False) for g in parse_chunk(c, whole=w)]
    with monkeypatch.context() as m:
        m.setattr(parser, "attach_comments", reference_attach)
        ref = [g for c in chunks for w in (True, False) for g in parse_chunk(c, whole=w)]
    assert ours == ref
    return text.count("{")


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    both_ways(path.read_text(encoding="utf-8", errors="replace"), monkeypatch)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_loose(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    style = Style(loose=True, hands=True, withdrawn=0.3)
    text = "".join(t for t, _ in iter_matches(seed, 20, "standard", None, style, max_deals=3))
    assert both_ways(text, monkeypatch) >= 10


BASE = "".join(t for t, _ in iter_matches(5, 2, "standard", None, Style(hands=True, withdrawn=0.3), max_deals=2))
GAPS = [m.start() for m in re.finditer(r"(?<=\S)\s", BASE)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(where=st.lists(st.integers(0, len(GAPS) - 1), min_size=1, max_size=12, unique=True))
def test_comments_anywhere(where: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    text = BASE
    for n, i in enumerate(sorted(where, reverse=True)):
        at = GAPS[i]
        text = text[:at] + f" {{c{n}}}" + text[at:]
    assert both_ways(text, monkeypatch) == len(where) + BASE.count("{")
