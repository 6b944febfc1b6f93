"""``json --compact``'s fast path (the tricks' text from the compiled ``_cjson``, the rest of a
deal and a game's keys by one orjson call each) against the object path it replaced.

The reference is ``dumps(document(facts), indent)``: every game replayed, made into objects
by :mod:`dehlanote.output.jsonout` and made text whole. The streamed document must be that
text byte for byte, compact and indented, with the extension and without it (its Python
fallback), with orjson and without it: on every sample and invalid record, the fuzz
harness's seeds as they are and mutated, random matches of every profile in every writing
style (comments with quotes, backslashes, control characters and emoji among the cards),
and on the command line with its exit status.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dehlanote.analysis.judge import claim_judge
from dehlanote.cli import app
from dehlanote.oracle.playout import Style, generate_match
from dehlanote.output import jsonout, jsonstream
from dehlanote.output.jsonout import deal_json, deal_text, document, dumps, trick_json
from dehlanote.replay import DealFact, iter_replay, replay_game
from dehlanote.rules.profile import registry
from dehlanote.syntax import iter_path, parse_string

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import dpnfuzz as F  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REG = registry()
RECORDS = sorted((ROOT / "samples").glob("*.dpn")) + sorted((ROOT / "tests" / "invalid").glob("*.dpn"))
PROFILES, STYLES = F.PROFILES, F.STYLES      # every profile and writing style, for random matches
#: comments put after cards: what a string's escaping must get right
COMMENTS = ('a "quoted" word', "back\\slash", "tab\there", "nul\x00 and \x1f and \x7f", "\u2665\ufe0f emoji",
            "\U0001f0a1 beyond the BMP", "line\u2028sep", "\\u0041 is not A", "")
_CARD_END = re.compile(r"(?<=[0-9AKQJ][SHDC])(?=[ \n])")
_EMOJI = {"S": "\u2660\ufe0f", "H": "\u2665\ufe0f", "D": "\u2666\ufe0f", "C": "\u2663\ufe0f"}
_TRICK = re.compile(r"^( ?\d+) ([A-F]): (.*)$", re.MULTILINE)


def commented(text: str, rng: random.Random) -> str:
    """``text`` with a comment after about one card in five (so plays with one, two, none)."""
    return _CARD_END.sub(lambda m: f" {{{rng.choice(COMMENTS)}}}" if rng.random() < 0.2 else "", text)


def emoji(text: str) -> str:
    """The benchmark's emoji style: dotted trick numbers, emoji suits, commas between cards."""
    def trick(m: re.Match[str]) -> str:
        words = m.group(3).split(" ")
        if not all(re.fullmatch(r"(10|[2-9AKQJ])[SHDC]", w) for w in words):
            return m.group(0)
        return f"{m.group(1)}. {m.group(2)}: " + ", ".join(w[:-1] + _EMOJI[w[-1]] for w in words)
    return _TRICK.sub(trick, text)


def reference(text: str, indent) -> str:
    games = parse_string(text)
    return dumps(document([replay_game(g, REG, judge=claim_judge) for g in games]), indent=indent) + "\n"


def streamed(text: str, indent) -> tuple[str, bool]:
    pieces: list[str] = []
    valid = jsonstream.write_document(pieces.append, parse_string(text), REG, indent=indent)
    return "".join(pieces), valid


@pytest.fixture(params=["compiled", "python", "no-orjson"])
def path(request, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each way the package can be installed: with the extension, without it, without orjson."""
    if request.param == "compiled" and jsonout._cjson is None:
        pytest.skip("the extension is not built")
    if request.param != "compiled":
        monkeypatch.setattr(jsonout, "_cjson", None)
    if request.param == "no-orjson":
        monkeypatch.setattr(jsonout, "_orjson", None)
    return request.param


def same(text: str) -> None:
    for indent in (None, 2):
        got, valid = streamed(text, indent)
        assert got == reference(text, indent), (indent, text[:2000])


def same_deals(text: str) -> None:
    """Each deal's fast text against its objects' (and the tricks' bytes against orjson's)."""
    for game in parse_string(text):
        for item in iter_replay(game, REG, claim_judge):
            if isinstance(item, DealFact):
                assert deal_text(item) == dumps(deal_json(item), indent=None)
                if jsonout._cjson is not None:
                    unplayed = item.unreplayed
                    got = jsonout._cjson.tricks(item.tricks, unplayed)
                    if got is not None:    # (None: a value orjson would refuse, or not the model's)
                        assert got == orjson.dumps([trick_json(t) for t in item.tricks]
                                                   + [jsonout._unplayed_trick_json(t) for t in unplayed])


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.name)
def test_every_sample_and_invalid_record(record: Path, path: str) -> None:
    text = record.read_text(encoding="utf-8", errors="surrogateescape")
    same(text)
    same_deals(text)


def test_a_trick_of_the_wrong_size_is_the_trick_not_replayed(path: str) -> None:
    # trick 3 written with three cards is counted and not replayed: it is the trick the JSON
    # gives as not replayed (it gave trick 13, which was replayed, a second time)
    text = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    text = text.replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S 7S")
    same(text)
    same_deals(text)
    tricks = orjson.loads(streamed(text, None)[0])["games"][0]["deals"][0]["tricks"]
    assert [(t["number"], t.get("replayed", True)) for t in tricks] == (
        [(n, True) for n in (1, 2, *range(4, 14))] + [(3, False)])
    assert tricks[-1]["plays"][2]["card"] == "7S" and len(tricks[-1]["plays"]) == 3


def test_the_fuzz_seeds(path: str) -> None:
    for _name, text in F.seeds():
        same(text)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**9), st.sampled_from([name for name, _ in F.seeds()]))
def test_the_fuzz_seeds_mutated(seed: int, name: str) -> None:
    text = F.apply(F.seed_text(name), F.random_mutations(random.Random(seed)))
    for drop in (False, True):
        saved = jsonout._cjson
        if drop:
            jsonout._cjson = None
        try:
            same(text)
        finally:
            jsonout._cjson = saved
    same_deals(text)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**9), st.sampled_from(PROFILES), st.sampled_from(STYLES), st.sampled_from(["", "c", "e"]))
def test_random_matches_of_every_profile_and_style(seed: int, rules, style: Style, extra: str) -> None:
    rng = random.Random(seed)
    text = generate_match(rng, rules[0], rules[1], style=style, max_deals=3)[0]
    text = commented(text, rng) if extra == "c" else emoji(text) if extra == "e" else text
    same(text)
    same_deals(text)


def test_random_matches_without_the_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonout, "_cjson", None)
    rng = random.Random(27)
    for profile, options in PROFILES:
        text = commented(generate_match(rng, profile, options, style=rng.choice(STYLES), max_deals=3)[0], rng)
        same(text)


def test_a_string_is_escaped_as_orjson_does_for_every_character() -> None:
    if jsonout._cjson is None:
        pytest.skip("the extension is not built")
    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    text = "".join(chars)
    game = parse_string(WORKED_COMMENT)[0]
    deal = next(i for i in iter_replay(game, REG, claim_judge) if isinstance(i, DealFact))
    trick = deal.tricks[0]
    for block in range(0, len(text), 4096):
        piece = text[block:block + 4096]
        play = trick.trick.plays[0]._replace(comments=(piece, piece[::-1]))
        changed = trick._replace(trick=trick.trick._replace(plays=(play, *trick.trick.plays[1:])))
        assert jsonout._cjson.tricks((changed,), ()) == orjson.dumps([trick_json(changed)])


def test_what_the_extension_leaves_to_the_python_path() -> None:
    """A lone surrogate (a stray byte read with surrogateescape), an int beyond 64 bits, a
    value of another type: the extension answers None, and the deal's text is the object
    path's (which gives them to the standard library's encoder)."""
    if jsonout._cjson is None:
        pytest.skip("the extension is not built")
    game = parse_string(WORKED_COMMENT)[0]
    deal = next(i for i in iter_replay(game, REG, claim_judge) if isinstance(i, DealFact))
    trick = deal.tricks[0]
    plays = trick.trick.plays
    odd = [plays[0]._replace(comments=("bad \udcff byte",)), plays[0]._replace(line=2**70),
           plays[0]._replace(column=1.5), plays[0]._replace(comments=["a list"]), plays[0]._replace(card=None)]
    for play in odd:
        changed = trick._replace(trick=trick.trick._replace(plays=(play, *plays[1:])))
        assert jsonout._cjson.tricks((changed,), ()) is None
        other = deal._replace(tricks=(changed, *deal.tricks[1:]))
        assert deal_text(other) == dumps(deal_json(other), indent=None)
    assert jsonout._cjson.tricks([trick], ()) is None
    assert jsonout._cjson.tricks((trick,), ()) == orjson.dumps([trick_json(trick)])
    with pytest.raises(TypeError):
        jsonout._cjson.tricks((trick,))


WORKED_COMMENT = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8").replace(
    " 3 A: 4S 5S", " 3 A: 4S {a comment} 5S", 1)


@pytest.mark.parametrize("record", [ROOT / "samples" / "worked-example.dpn", ROOT / "samples" / "loose-style.dpn",
                                    *sorted((ROOT / "tests" / "invalid").glob("*.dpn"))], ids=lambda p: p.name)
def test_the_command_writes_the_same_and_exits_the_same(record: Path, path: str) -> None:
    result = CliRunner().invoke(app, ["json", "--compact", str(record)])
    facts = [replay_game(g, REG, judge=claim_judge) for g in iter_path(record)]     # (read as the command reads)
    if result.exit_code == 2:       # (a file that cannot be read: nothing is written)
        assert result.stdout == ""
        return
    assert result.exit_code == (0 if all(not f.errors for f in facts) else 1), result.output
    assert result.stdout_bytes == (dumps(document(facts), indent=None) + "\n").encode("utf-8", "replace")
