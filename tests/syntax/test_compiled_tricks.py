"""The compiled trick lines (``dehlanote/syntax/_ctricks.c``) against the whole reader's Python.

``WholeReader._tricks`` asks the extension first and reads the lines itself when it answers
NotImplemented (a word its table does not hold, a limit, anything unusual). Every answer the
extension gives must be the Python reading's node for node (numbers, cards, glyphs, withdrawn
cards, leaders, lines and columns), and a whole reading with the extension must be the reading
without it: on every sample, test and invalid record, the fuzz harness's seeds as they are and
mutated, random matches of every profile and writing style (with comments between the cards, on
several lines, emoji suits, odd white space), and lines the table does not hold.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dehlanote.oracle.playout import Style, generate_match
from dehlanote.syntax import parse_string, whole

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "output"))

import dpnfuzz as F  # noqa: E402
from test_json_compact import commented, emoji  # noqa: E402

ctricks = pytest.importorskip("dehlanote.syntax._ctricks", reason="the compiled trick lines are not built")

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("samples/*.dpn"), *ROOT.glob("tests/**/*.dpn")})
SPACES = ("\t", "  ", "\x0c", "\u2003", "\x85", "\xa0", " \r")


class Tally:
    """WholeReader._tricks with the extension's answer checked against the Python reading's on
    every call (the Python reading's answer is the one kept)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.answered = self.declined = 0
        self.python = whole.WholeReader._tricks
        spy = self

        def tricks(reader, lines, ln, off, out):
            assert not out
            got = ctricks.tricks(list(lines), ln, off, not reader.joined)
            saved = whole._ctricks
            whole._ctricks = None
            try:
                spy.python(reader, lines, ln, off, out)
            finally:
                whole._ctricks = saved
            if got is NotImplemented:
                spy.declined += 1
            else:
                spy.answered += 1
                assert got == out, (lines, ln, off)
                assert [[type(p) for p in t.plays] for t in got] == [[type(p) for p in t.plays] for t in out]
        monkeypatch.setattr(whole.WholeReader, "_tricks", tricks)


@pytest.fixture
def tally(monkeypatch: pytest.MonkeyPatch) -> Tally:
    return Tally(monkeypatch)


def same_without(text: str) -> None:
    """The whole reading with the extension and without it: the same games, node for node."""
    compiled = parse_string(text)
    saved = whole._ctricks
    whole._ctricks = None
    try:
        python = parse_string(text)
    finally:
        whole._ctricks = saved
    assert compiled == python
    assert [list(g.deals) for g in compiled] == [list(g.deals) for g in python]


def variants(text: str, rng: random.Random) -> list[str]:
    """``text`` as written, with comments between the cards, emoji suits (with a comma and a
    space between the cards, and packed: ``4♥️,6♥️``, words the table does not hold), and odd
    white space between the words of its trick lines."""
    def spaced(m: re.Match[str]) -> str:
        return re.sub(" ", lambda _: rng.choice(SPACES), m.group(0))
    odd = re.sub(r"(?m)^ ?\d+ [A-F]: .*$", spaced, text)
    return [text, commented(text, rng), emoji(text), emoji(text).replace(", ", ","), odd]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_test_and_invalid_record(path: Path, tally: Tally) -> None:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    same_without(text)


def test_the_fuzz_seeds_and_their_variants(tally: Tally) -> None:
    rng = random.Random(3)
    for _name, text in F.seeds():
        for variant in variants(text, rng):
            parse_string(variant)
            same_without(variant)
    # most lines are answered; lines the table does not hold (odd white space is still read
    # word by word) are left to the Python reading
    assert tally.answered > 100


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**9), st.sampled_from([name for name, _ in F.seeds()]))
def test_the_fuzz_seeds_mutated(seed: int, name: str) -> None:
    text = F.apply(F.seed_text(name), F.random_mutations(random.Random(seed)))
    same_without(text)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**9), st.sampled_from(F.PROFILES), st.sampled_from(F.STYLES))
def test_random_matches_of_every_profile_and_style(seed: int, rules, style: Style) -> None:
    rng = random.Random(seed)
    text = generate_match(rng, rules[0], rules[1], style=style, max_deals=3)[0]
    for variant in variants(text, rng):
        same_without(variant)


def test_each_answer_is_the_python_readings(tally: Tally) -> None:
    rng = random.Random(11)
    for profile, options in F.PROFILES:
        for style in F.STYLES:
            text = generate_match(rng, profile, options, style=style, max_deals=2)[0]
            for variant in variants(text, rng):
                parse_string(variant)
    assert tally.answered > 500 and tally.declined > 0


LINES = [
    ["1 B: 4H 6H KH JH", " 2 D: 7C 5C 8C 2C"],              # the common line (a seat, four cards)
    ["1 4H 6H KH JH", "2 7C 5C 8C 2C 3 QS 2S AS 7S"],       # no seat; two tricks on a line
    ["1 B: 4H! -5S 6H KH JH??", "2 D 7C, 5C, 8C, 2C"],      # glyphs, a withdrawn card, commas
    ["4H 6H 1 B: KH JH 2C"],                                # cards before the first number
    ["1 B:  4H 6H\tKH JH ", "2\u2003D: 7C 5C 8C 2C"],        # other white space
    ["1 B: 4H 6H", "KH JH", "2 D: 7C 5C 8C 2C -3D"],         # a trick over lines; a withdrawn card left
    ["1. B: 4\u2665\ufe0f, 6\u2665\ufe0f, K\u2665\ufe0f, J\u2665\ufe0f"],   # emoji suits
    ["1 B: 4H 6H KH JH", ""],
    [""],
]


@pytest.mark.parametrize("lines", LINES, ids=range(len(LINES)))
@pytest.mark.parametrize("joined", [False, True])
def test_lines_read_directly(lines: list[str], joined: bool) -> None:
    reader = whole.WholeReader.__new__(whole.WholeReader)
    reader.joined = joined
    got = ctricks.tricks(list(lines), 7, 3, not joined)
    out: list = []
    saved = whole._ctricks
    whole._ctricks = None
    try:
        whole.WholeReader._tricks(reader, list(lines), 7, 3, out)
    finally:
        whole._ctricks = saved
    assert got == out


def test_what_it_leaves_to_the_python_reading() -> None:
    # a word not in the table, a limit passed, a line of many words, a value of another type
    many = " ".join(["4H"] * 300)
    for lines in (["1 B: 4H 6H KH JH xyz"], ["1 " + " ".join(["-4H"] * 65) + " 4S"], ["1 " + many],
                  ["1 B: 4H " + "x" * 100_001], [b"1 B: 4H"], [f"{i} 4H 6H KH JH" for i in range(1, 300)]):
        assert ctricks.tricks(list(lines), 1, 1, True) is NotImplemented
    with pytest.raises(TypeError):
        ctricks.tricks(("1 B: 4H",), 1, 1, True)


HAND_LINES = ["B: QS 6S 5S 4S 3S AH KH", "   C: 10D JD", "A:", "D: 2C 3C\r", "B: QS  6S", "B: QS 6S ", "B:QS",
              "B: Q\u2660\ufe0f 6\u2660", "B: QS 6S | 5S", "B: QS C: 4H", "\tB: QS", "B: QS!",
              "E: " + " ".join(["2C"] * 64), "E: " + " ".join(["2C"] * 65), "b: qs 6s", "B: 10S TS 1OS"]


def _python_hand(line: str, ln: int, off: int) -> list:
    reader = whole.WholeReader.__new__(whole.WholeReader)
    reader.hand_columns = {}
    out: list = []
    saved = whole._ctricks
    whole._ctricks = None
    try:
        reader._hand_line(line, ln, off, out)
    finally:
        whole._ctricks = saved
    return out


def _hand_lines(text: str) -> list[str]:
    return re.findall(r"(?m)^[ \t]*[A-Fa-f]:.*$", text)


def test_hand_lines_read_directly() -> None:
    rng = random.Random(5)
    lines = list(HAND_LINES)
    for _name, text in F.seeds():
        lines += _hand_lines(text)
    for profile, options in F.PROFILES:
        text = generate_match(rng, profile, options, style=Style(hands=True), max_deals=2)[0]
        lines += _hand_lines(text) + _hand_lines(emoji(text))
    answered = declined = 0
    for line in lines:
        for ln, off in ((3, 1), (12, 9)):
            got = ctricks.hand(line, ln, off)
            if got is NotImplemented:
                declined += 1
            else:
                answered += 1
                assert [got] == _python_hand(line, ln, off), line
    assert answered > 100 and declined > 10
    with pytest.raises(TypeError):
        ctricks.hand(b"B: QS", 1, 1)
