"""Random playouts: every legal match replays valid, with the facts an independent referee states.

The matches come from ``dehlanote.oracle.playout``, a second, independent implementation of
RULES.md written as a test oracle. Each replay is also checked against the rule text
directly (the count rule, all cards captured, the tens) and round-tripped through JSON.
``DEHLANOTE_PROPERTY_EXAMPLES`` raises the number of matches per profile (default 80, about 1,100 matches in all).
"""

from __future__ import annotations

import functools
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dehlanote.output.jsonout import game_from_json, game_json
from dehlanote.oracle.playout import Style, generate_match
from dehlanote.replay import explicit, replay_game
from dehlanote.syntax import parse_string, write_game
from dehlanote.syntax.parser import paused_gc

EXAMPLES = int(os.environ.get("DEHLANOTE_PROPERTY_EXAMPLES", "80"))

PROFILES = [
    ("standard", None), ("standard", {"streak": 3}), ("standard", {"trump": "closed"}),
    ("standard", {"trump": "partner"}), ("standard", {"double-sar": True}), ("standard", {"coat": True}),
    ("standard", {"six-player": True}), ("standard", {"court-piece": True}),
    ("pagat", {"kots": 3}), ("pagat", {"kots": 2, "trump": "first-void-five"}), ("pagat", {"kots": 0}),
    ("hukum", None), ("hukum", {"streak": 5}), ("hukum", {"trump": "closed"}),
]

styles = st.builds(Style, hands=st.booleans(), leaders=st.booleans(), tens=st.booleans(),
                   result=st.booleans(), loose=st.booleans(), withdrawn=st.sampled_from([0.0, 0.3]))


def _strip_positions(obj):
    if isinstance(obj, dict):
        return {k: _strip_positions(v) for k, v in obj.items()
                if k not in ("line", "column") and not k.startswith("written_")}
    if isinstance(obj, list):
        return [_strip_positions(v) for v in obj]
    return obj


def collector_paused(check):
    """``check`` run with the garbage collector paused (and restored after it, failed or not).

    A match of 40 deals is tens of thousands of objects (its facts, its JSON three times over,
    its texts), freed by reference counting; the collector rescanning them again and
    again as they were made took 40% of these tests' time (a cycle, if any, is collected
    once it runs again). Nothing checked changes."""
    @functools.wraps(check)
    def run(*args, **kwargs):
        with paused_gc():
            return check(*args, **kwargs)
    return run


@collector_paused
def check_match(profile, options, seed, style, bias):
    text, oracle = generate_match(random.Random(seed), profile, options, style=style, max_deals=40, bias=bias)
    games = parse_string(text)
    assert len(games) == 1
    facts = replay_game(games[0])
    assert facts.errors == (), [str(e) for e in facts.errors[:3]]
    rules = facts.rules
    assert len(facts.deals) == len(oracle["deals"])
    for deal, od in zip(facts.deals, oracle["deals"]):
        assert deal.complete
        assert deal.dealer == od["dealer"]
        # every card ends captured; the tens sum to four a deck
        assert sum(t.capture.cards for t in deal.tricks if t.capture) == 52 * rules.decks
        assert sum(deal.tens.values()) == 4 * rules.decks
        assert deal.tricks[-1].centre_cards == 0
        # the count rule, recomputed from the trick winners alone
        last, run = None, 0
        for t, ot in zip(deal.tricks, od["tricks"]):
            assert (t.leader, [p.card for p in t.plays], t.winner) == (ot["leader"], ot["cards"], ot["winner"])
            if rules.capture == "centre":
                run = run + 1 if t.winner == last else 1
                last = t.winner
                if run == 2:
                    assert t.capture is not None and t.capture.reason == "two-in-a-row"
                    run = 0
                elif t.number == rules.tricks_per_deal:
                    assert t.capture is not None and t.capture.reason == "last-trick"
                else:
                    assert t.capture is None
            else:
                assert t.capture is not None and t.capture.reason == "trick"
            assert t.centre_cards == ot["centre_after"]
        trump = None if deal.trump is None else {"suit": deal.trump.suit, "by": deal.trump.by,
                                                 "trick": deal.trump.trick}
        if od["trump"] is not None:
            assert trump == {k: od["trump"][k] for k in ("suit", "by", "trick")}
        assert dict(deal.tens) == od["tens"]
        assert deal.winner == od["winner"]
        assert (None if deal.kot is None else dict(deal.kot._asdict())) == od["kot"]
        assert (None if deal.streak is None else dict(deal.streak._asdict())) == od["streak"]
        assert deal.next_dealer == od["next_dealer"]
    r = oracle["result"]
    assert (facts.result.winner, facts.result.kots, facts.result.finished) == (r["winner"], r["kots"], r["finished"])
    # JSON -> DPN gives the canonical text, and DPN -> JSON again is stable
    doc = game_json(facts)
    canonical = write_game(explicit(facts))
    assert write_game(game_from_json(doc)) == canonical
    again = replay_game(parse_string(canonical)[0])
    assert again.errors == ()
    assert _strip_positions(game_json(again)) == _strip_positions(doc)
    assert write_game(explicit(again)) == canonical
    doc2 = game_json(again)
    assert write_game(game_from_json(doc2)) == canonical
    third = replay_game(parse_string(write_game(game_from_json(doc2)))[0])
    assert game_json(third) == doc2


def _property(profile, options):
    # pagat without kots never ends a match early: each of its matches runs the whole 40 deals
    # (pagat to three kots 8.6 on average, standard 2.4), so a quarter of the examples still checks
    # more deals (20 x 40) than any other profile's 80 examples do (about 690 and 190)
    examples = max(10, EXAMPLES // 4) if (options or {}).get("kots") == 0 else EXAMPLES

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(seed=st.integers(0, 2**32 - 1), style=styles, bias=st.sampled_from([0.0, 0.0, 0.4, 0.7]))
    def test(seed, style, bias):
        check_match(profile, options, seed, style, bias)
    test.__name__ = f"test_playouts_{profile}_" + "_".join(f"{k}-{v}" for k, v in (options or {}).items())
    return test


for _profile, _options in PROFILES:
    _t = _property(_profile, _options)
    globals()[_t.__name__.replace("=", "-")] = _t


# seeds (found by search) whose biased playouts end in a seven-deal streak kot
STREAK_SEEDS = [(0.25, 72), (0.25, 244), (0.25, 311), (0.3, 26), (0.3, 354), (0.35, 50), (0.35, 185), (0.35, 253)]


def test_seven_deal_streak_matches_replay_with_the_oracles_facts():
    for bias, seed in STREAK_SEEDS:
        for style in (Style(), Style(loose=True, hands=True, leaders=False)):
            check_match("standard", None, seed, style, bias)
        text, _ = generate_match(random.Random(seed), "standard", None, max_deals=40, bias=bias)
        facts = replay_game(parse_string(text)[0])
        last = facts.deals[-1]
        assert last.kot is not None and last.kot.reason == "streak" and last.streak.length == 7
        assert [d.winner for d in facts.deals[-7:]] == [last.kot.side] * 7


# ---- an unknown deal in the middle of random matches (NOTATION 1.1) -------------------------------

def _with_unknown_deal(game, number: int, keep: int, dealer: str):
    """The game with deal ``number`` stopped after ``keep`` tricks (its tens claim dropped) and
    the next deal's dealer written (after an unknown deal the rules cannot give it)."""
    from dehlanote.syntax.model import Word
    deals = list(game.deals)
    deals[number - 1] = deals[number - 1]._replace(tricks=deals[number - 1].tricks[:keep], tens=None)
    following = deals[number]
    if following.dealer is None:
        deals[number] = following._replace(dealer=Word(dealer, following.line, following.column))
    return game._replace(deals=tuple(deals))


@collector_paused
def check_unknown_deal(profile, options, seed, style, bias):
    from dehlanote.oracle.playout import blind_facts, make_rules
    rng = random.Random(seed)
    text, oracle = generate_match(rng, profile, options, style=style, max_deals=40, bias=bias)
    count = len(oracle["deals"])
    if count < 3:
        return False
    u = rng.randrange(1, count - 1)               # never the first or the last deal
    game = _with_unknown_deal(parse_string(text)[0], u + 1, rng.randrange(0, 12), oracle["deals"][u + 1]["dealer"])
    facts = replay_game(game)
    assert [e.code for e in facts.errors] == ["incomplete-deal"], [str(e) for e in facts.errors]
    rules = make_rules(profile, options)
    blind, result = blind_facts(rules, oracle["deals"], {u})
    assert len(facts.deals) == len(blind)
    for deal, od, expect in zip(facts.deals, oracle["deals"], blind):
        assert deal.dealer == od["dealer"]
        assert deal.winner == expect["winner"]
        assert (None if deal.kot is None else dict(deal.kot._asdict())) == expect["kot"], deal.number
        assert (None if deal.streak is None else dict(deal.streak._asdict())) == expect["streak"], deal.number
        assert deal.next_dealer == expect["next_dealer"], deal.number
    r = facts.result
    assert (r.winner, r.finished, r.kots) == (result["winner"], result["finished"], result["kots"])
    if "points" in result:
        assert r.points == result["points"]
    return True


def _unknown_property(profile, options):
    @settings(max_examples=max(10, EXAMPLES // 4), deadline=None, suppress_health_check=list(HealthCheck),
              derandomize=True)
    @given(seed=st.integers(0, 2**32 - 1), style=styles, bias=st.sampled_from([0.0, 0.4, 0.7]))
    def test(seed, style, bias):
        check_unknown_deal(profile, options, seed, style, bias)
    test.__name__ = f"test_unknown_deal_{profile}_" + "_".join(f"{k}-{v}" for k, v in (options or {}).items())
    return test


for _profile, _options in PROFILES + [("standard", {"coat": True}), ("hukum", {"coat": True})]:
    _t = _unknown_property(_profile, _options)
    globals()[_t.__name__.replace("=", "-")] = _t


def test_unknown_deals_are_exercised():
    # the checks above really run (not all skipped): count the matches that qualify
    done = sum(check_unknown_deal("standard", None, seed, Style(), 0.0) for seed in range(60))
    assert done >= 10


# ---- options in every order (NOTATION 1.1) --------------------------------------------------------

ORDERED = [("pagat", {"kots": 2, "trump": "first-void-five", "streak": 5, "double-sar": True}),
           ("hukum", {"streak": 3, "six-player": True, "court-piece": True}),
           ("standard", {"trump": "closed", "coat": True, "six-player": True}),
           ("pagat", {"kots": 0, "trump": "partner", "court-piece": True, "streak": 3})]


def test_options_in_every_order_replay_the_same_match():
    import itertools
    import re
    for i, (profile, options) in enumerate(ORDERED):
        text, oracle = generate_match(random.Random(i), profile, options, Style(hands=i % 2 == 0), max_deals=6)
        label = re.search(r'\[Rules "([^"]*)"\]', text).group(1)
        name, *words = label.split()
        docs = set()
        for order in itertools.permutations(words):
            shuffled = text.replace(f'[Rules "{label}"]', f'[Rules "{" ".join((name, *order)).upper()}"]')
            facts = replay_game(parse_string(shuffled)[0])
            assert facts.errors == (), [str(e) for e in facts.errors[:3]]
            doc = game_json(facts)
            doc.pop("tags")
            docs.add(repr(doc))
        assert len(docs) == 1, (profile, options)
        assert [d.winner for d in facts.deals] == [d["winner"] for d in oracle["deals"]]


def test_conflicting_options_are_refused_in_every_order():
    import itertools
    for words in (["coat", "streak=5", "kots=2"], ["double-sar", "court-piece", "six-player"],
                  ["trump=closed", "trump=closed"]):
        for order in itertools.permutations(words):
            text = f'[Rules "pagat {" ".join(order)}"]\n[Result "*"]\n\ndeal 1 dealer D\n'
            facts = replay_game(parse_string(text)[0])
            assert [e.code for e in facts.errors] == ["unknown-rules"]


# ---- claims (NOTATION 1.1): a true claim gives the facts of the play it replaces ----------------

def test_true_claims_replay_with_the_oracles_facts():
    from dehlanote.oracle.playout import Style as S
    claimed = 0
    for i, (profile, options) in enumerate(PROFILES):
        for seed in range(6):
            # no hands: with every hand written a claim is judged double dummy, and one that the
            # random play happened to bear out may still lose to a better defence (the oracle has
            # no solver, by design); tests/analysis/test_analysis_claim.py covers claims with hands
            style = S(hands=False, loose=seed % 3 == 0, claims=0.8)
            text, oracle = generate_match(random.Random(1000 * i + seed), profile, options, style=style,
                                          max_deals=8)
            facts = replay_game(parse_string(text)[0])
            assert facts.errors == (), [str(e) for e in facts.errors[:3]]
            for deal, od in zip(facts.deals, oracle["deals"]):
                assert deal.complete and dict(deal.tens) == od["tens"]
                assert (deal.winner, deal.next_dealer) == (od["winner"], od["next_dealer"])
                assert (None if deal.kot is None else dict(deal.kot._asdict())) == od["kot"]
                assert (None if deal.streak is None else dict(deal.streak._asdict())) == od["streak"]
                if "claim" in od:
                    assert (deal.claim.by, deal.claim.trick) == (od["claim"]["by"], od["claim"]["trick"])
                    assert len(deal.tricks) == od["claim"]["trick"] - 1
                    claimed += 1
            r = oracle["result"]
            assert (facts.result.winner, facts.result.finished) == (r["winner"], r["finished"])
    assert claimed >= 50
