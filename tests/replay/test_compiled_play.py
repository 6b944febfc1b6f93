"""The compiled bulk play (``dehlanote/replay/_cplay.c``) against the Python code it stands for.

``core.play_plain`` asks the extension first and runs ``core._play_plain_py`` when it answers
NotImplemented; ``DealFact.hands`` reads its columns from it. Every answer the extension gives
must be the Python function's, field for field (the new DealState, its TrickFacts, captures,
pending withdrawals and show-outs, or None where the Python code gives up), and a whole replay
with the extension must be the replay without it (facts, errors, hands and the JSON text): on
every sample and invalid record, the fuzz harness's seeds as they are and mutated, random matches
of every profile and writing style (immediate capture too), and deals with one mistake put in.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dehlanote.analysis.judge import claim_judge
from dehlanote.oracle.playout import Style, generate_match
from dehlanote.output.jsonout import document, dumps
from dehlanote.replay import core, engine, facts, replay_game
from dehlanote.replay.engine import start_deal, start_match
from dehlanote.rules.profile import registry
from dehlanote.syntax import parse_string

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import dpnfuzz as F  # noqa: E402
from test_fast_path import _mutations  # noqa: E402

cplay = pytest.importorskip("dehlanote.replay._cplay", reason="the compiled play is not built (no C compiler)")

ROOT = Path(__file__).resolve().parents[2]
REG = registry()
RECORDS = sorted((ROOT / "samples").glob("*.dpn")) + sorted((ROOT / "tests" / "invalid").glob("*.dpn"))
#: every profile of the fuzz harness, and immediate capture with trump announced (the one way
#: the bulk path meets it: hukum's own trump is the first void, which it does not take)
PROFILES = [*F.PROFILES, ("hukum", {"trump": "announce"})]


class Tally:
    """engine.play_plain checking the extension's answer against the Python function's on every
    call, and counting what it answered."""

    def __init__(self) -> None:
        self.states = self.nones = self.declined = 0

    def __call__(self, state, written):
        got = cplay.play(state, written)
        want = core._play_plain_py(state, written)
        if got is NotImplemented:
            self.declined += 1
        else:
            assert got == want
            assert type(got) is type(want)
            if got is None:
                self.nones += 1
            else:
                self.states += 1
                assert [type(t) for t in got.tricks] == [type(t) for t in want.tricks]
                assert got.shown_out is want.shown_out or got.shown_out == want.shown_out
        return want


@pytest.fixture
def tally(monkeypatch: pytest.MonkeyPatch) -> Tally:
    spy = Tally()
    monkeypatch.setattr(engine, "play_plain", spy)
    return spy


def replayed(text: str) -> list:
    return [replay_game(g, REG, judge=claim_judge) for g in parse_string(text)]


def same_without(text: str) -> None:
    """The whole replay with the extension and without it: the same facts, hands and JSON."""
    compiled = replayed(text)
    saved = core._cplay, facts._cplay
    core._cplay = facts._cplay = None
    try:
        python = replayed(text)
        python_hands = [[d.hands for d in g.deals] for g in python]
    finally:
        core._cplay, facts._cplay = saved
    assert compiled == python
    assert [[d.hands for d in g.deals] for g in compiled] == python_hands
    assert [[list(d.hands) for d in g.deals] for g in compiled] == [[list(h) for h in g] for g in python_hands]
    assert dumps(document(compiled), indent=None) == dumps(document(python), indent=None)


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.name)
def test_every_sample_and_invalid_record(record: Path, tally: Tally) -> None:
    text = record.read_text(encoding="utf-8", errors="surrogateescape")
    same_without(text)


def test_the_fuzz_seeds(tally: Tally) -> None:
    for _name, text in F.seeds():
        same_without(text)
    assert tally.states > 50 and tally.declined == 0


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**9), st.sampled_from([name for name, _ in F.seeds()]))
def test_the_fuzz_seeds_mutated(seed: int, name: str) -> None:
    text = F.apply(F.seed_text(name), F.random_mutations(random.Random(seed)))
    same_without(text)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**9), st.sampled_from(PROFILES), st.sampled_from(F.STYLES))
def test_random_matches_of_every_profile_and_style(seed: int, rules, style: Style) -> None:
    text = generate_match(random.Random(seed), rules[0], rules[1], style=style, max_deals=3)[0]
    same_without(text)


@pytest.mark.parametrize("profile,options", PROFILES, ids=lambda v: str(v))
def test_each_answer_is_the_python_functions_on_legal_and_broken_deals(profile, options, tally: Tally) -> None:
    rng = random.Random(7)
    for seed in range(4):
        for style in F.STYLES:
            text = generate_match(random.Random(seed), profile, options, style=style, max_deals=4)[0]
            game = parse_string(text)[0]
            rules = REG.resolve(" ".join([profile, *(f"{k}={v}" if v is not True else k
                                                    for k, v in (options or {}).items())]))
            for deal in game.deals:
                for written in [deal, *_mutations(deal, rng)]:
                    state, _ = start_deal(start_match(rules), written)
                    if state is not None and core.plain_case(state):
                        tally(state, written.tricks)
    if rules.trump in ("announce", "partner") and rules.decks == 1:
        # the legal deals are answered, and the broken ones are given up on, not declined
        assert tally.states > 0 and tally.nones > 0 and tally.declined == 0


def test_values_it_does_not_follow_are_left_to_the_python_function() -> None:
    text = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    deal = parse_string(text)[0].deals[0]
    state, _ = start_deal(start_match(REG.resolve("standard")), deal)
    assert state is not None and core.plain_case(state)
    tricks = deal.tricks
    assert cplay.play(state, tricks) == core._play_plain_py(state, tricks) is not None
    first = tricks[0]
    odd_card = first._replace(plays=(first.plays[0]._replace(card=""), *first.plays[1:]))
    odd_number = first._replace(number=True)
    for state_odd, written in [(state._replace(played=2**200), tricks), (state._replace(played=-1), tricks),
                               (state, (odd_card, *tricks[1:])), (state, (odd_number, *tricks[1:])),
                               (state, list(tricks)), (state._replace(leader=7), tricks)]:
        assert cplay.play(state_odd, written) is NotImplemented
    # and play_plain then answers as the Python function does (here: raises as it does, or gives up)
    with pytest.raises(IndexError):
        core._play_plain_py(state, (odd_card, *tricks[1:]))
    with pytest.raises(IndexError):
        core.play_plain(state, (odd_card, *tricks[1:]))
    assert core.play_plain(state._replace(played=2**200), tricks) == core._play_plain_py(
        state._replace(played=2**200), tricks)


def test_the_hands_of_a_deal_whose_tricks_are_not_whole_are_the_python_codes() -> None:
    text = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    deal = replay_game(parse_string(text)[0], REG).deals[0]
    assert deal.complete and cplay.hands(deal.tricks, "ABCD") is not NotImplemented
    first = deal.tricks[0]
    short = first._replace(trick=first.trick._replace(plays=first.trick.plays[:3]))
    other = deal._replace(tricks=(short, *deal.tricks[1:]))
    assert cplay.hands(other.tricks, "ABCD") is NotImplemented
    saved = facts._cplay
    facts._cplay = None
    try:
        want = other.hands
    finally:
        facts._cplay = saved
    assert other.hands == want
