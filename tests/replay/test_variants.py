"""Rules tests for the other rule systems: ``pagat`` (seed 002), ``hukum`` and the variants
of seed 004, named after the source's clause (or the RULES.md / profile **Decision** they test).

Small hand-written deals (unfinished records, ``Result "*"``, may stop early) check play:
who sets trump and when, who wins each trick, what is captured, what is an error and where.
Whole deals and matches (scoring, streaks, kots, dealers, results) are checked on matches
from the independent generator :mod:`dehlanote.oracle.playout`, against the rule text itself.
The variant samples in ``samples/`` are checked to replay valid and to show their events.
"""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import dehlanote.oracle.playout as playout
from dehlanote.cli import app
from dehlanote.oracle.playout import Style, generate_match
from dehlanote.replay import replay_game
from dehlanote.rules.profile import registry
from dehlanote.syntax import parse_string
from dehlanote.deck import DECK, SUITS, sort_key

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


# ---- helpers ---------------------------------------------------------------------------------

def replay(text: str):
    games = parse_string(text)
    assert len(games) == 1
    return replay_game(games[0])


def errors(facts):
    return [(e.code, e.line, e.column) for e in facts.errors]


def head(rules: str, dealer: str = "D", result: str = "*") -> str:
    return f'[Rules "{rules}"]\n[Result "{result}"]\n\ndeal 1 dealer {dealer}\n'


def pos(text: str, line_start: str, token: str, nth: int = 1) -> tuple[int, int]:
    """(line, column) of the ``nth`` ``token`` on the first line starting with ``line_start``."""
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith(line_start):
            column = -1
            for _ in range(nth):
                column = line.index(token, column + 1)
            return number, column + 1
    raise AssertionError(f"no line starts with {line_start!r}")


def trick_view(deal):
    """(winner, trump in force, capture (by, cards, tens, reason) or None) per trick."""
    return [(t.winner, t.trump, None if t.capture is None else
             (t.capture.by, t.capture.cards, tuple(sorted(t.capture.tens)), t.capture.reason))
            for t in deal.tricks]


def side_of(seat: str, n: int = 4) -> str:
    seats = "ABCDEF"[:n]
    return seats[0::2] if seat in seats[0::2] else seats[1::2]


def right_of(seat: str, n: int = 4) -> str:
    seats = "ABCDEF"[:n]
    return seats[(seats.index(seat) + 1) % n]


def partner_of(seat: str, n: int = 4) -> str:
    seats = "ABCDEF"[:n]
    return seats[(seats.index(seat) + 2) % n]


@functools.lru_cache(maxsize=None)
def match(profile: str, options: tuple = (), seed: int = 0, bias: float = 0.0, max_deals=40,
          hands: bool = False, loose: bool = False):
    """A generated match (text, replay facts, oracle facts); it must replay without errors."""
    text, oracle = generate_match(random.Random(seed), profile, dict(options), Style(hands=hands, loose=loose),
                                  max_deals=max_deals, bias=bias)
    facts = replay(text)
    assert facts.errors == (), [str(e) for e in facts.errors[:3]]
    return text, facts, oracle


def matches(profile: str, options: tuple = (), count: int = 20, bias: float = 0.0, first: int = 0, **kw):
    for seed in range(first, first + count):
        yield match(profile, options, seed, bias, **kw)


# ---- seed 002, pagat: sessions of several kots -----------------------------------------------

PAGAT3 = ("pagat", (("kots", 3),))


def _pagat_sessions(count=40):
    for bias in (0.0, 0.15, 0.25):
        yield from matches(*PAGAT3, count=count, bias=bias)


def test_seed002_session_plays_to_the_agreed_number_of_kots():
    for _text, facts, _ in _pagat_sessions():
        kots = {"AC": 0, "BD": 0}
        for deal in facts.deals:
            assert max(kots.values()) < 3          # no deal after a side reached three
            if deal.kot is not None:
                kots[deal.kot.side] += 1
        assert facts.result.kots == kots and facts.result.finished
        assert kots[facts.result.winner] == 3 and facts.deals[-1].next_dealer is None


def test_seed002_all_tens_kot_by_non_dealers_passes_deal_to_dealers_partner():
    seen = 0
    for _text, facts, _ in _pagat_sessions():
        for deal, following in zip(facts.deals, facts.deals[1:]):
            if deal.kot is not None and deal.kot.reason == "all-tens" and deal.kot.side != side_of(deal.dealer):
                assert deal.next_dealer == following.dealer == partner_of(deal.dealer)
                seen += 1
    assert seen >= 5


def test_seed002_all_tens_kot_by_dealing_side_passes_deal_right():
    seen = 0
    for _text, facts, _ in _pagat_sessions():
        for deal, following in zip(facts.deals, facts.deals[1:]):
            if deal.kot is not None and deal.kot.reason == "all-tens" and deal.kot.side == side_of(deal.dealer):
                assert deal.next_dealer == following.dealer == right_of(deal.dealer)
                seen += 1
    assert seen >= 5


def test_seed002_non_dealers_with_two_or_three_tens_win_and_the_same_dealer_deals_again():
    seen = set()
    for _text, facts, _ in _pagat_sessions():
        for deal in facts.deals[:-1]:
            if deal.kot is not None:
                continue
            dealing = side_of(deal.dealer)
            other = "BD" if dealing == "AC" else "AC"
            if deal.tens[other] >= 2:
                assert deal.winner == other and deal.next_dealer == deal.dealer
                seen.add(deal.tens[other])
            else:
                assert deal.tens[dealing] == 3 and deal.winner == dealing
                assert deal.next_dealer == right_of(deal.dealer)
                seen.add("dealers")
    assert seen == {2, 3, "dealers"}


def test_seed002_count_of_consecutive_deals_resets_to_zero_after_an_all_tens_kot():
    seen = 0
    for _text, facts, _ in _pagat_sessions():
        for deal, following in zip(facts.deals, facts.deals[1:]):
            if deal.kot is not None and deal.kot.reason == "all-tens":
                assert following.streak.length == 1 and following.streak.side == following.winner
                seen += 1
    assert seen >= 10


def test_decision_pagat_runs_reset_after_a_seven_deal_kot_too_and_rule_7_names_the_dealer():
    _text, facts, _ = match(*PAGAT3, seed=311, bias=0.25)
    kot = facts.deals[6]
    assert (kot.kot.reason, kot.streak.length, kot.kot.side) == ("streak", 7, "AC")
    assert [d.winner for d in facts.deals[:7]] == ["AC"] * 7
    # AC (non-dealers; D deals) won: the same dealer deals again, and both runs restart
    assert kot.dealer == "D" and kot.next_dealer == "D"
    assert facts.deals[7].streak.length == 1


def test_decision_all_tens_on_the_nth_straight_win_makes_one_kot():
    # pagat kots=3 streak=3, seed 8, bias 0.1: deal 4 is all four tens and the third straight win
    _text, facts, _ = match("pagat", (("kots", 3), ("streak", 3)), seed=8, bias=0.1)
    deal, following = facts.deals[3], facts.deals[4]
    assert deal.streak.length == 3 and deal.kot.reason == "all-tens"
    # one kot, counted once, and the all-tens dealer rule (not rule 7) names the next dealer
    assert sum(facts.result.kots.values()) == sum(d.kot is not None for d in facts.deals)
    took = deal.kot.side == side_of(deal.dealer)
    assert deal.next_dealer == (right_of(deal.dealer) if took else partner_of(deal.dealer)) == following.dealer
    assert following.streak.length == 1


def test_seed002_open_ended_session_the_side_with_more_kots_wins():
    seen = set()
    for seed in range(40):
        _text, facts, _ = match("pagat", (("kots", 0),), seed=seed, bias=0.15, max_deals=None)
        kots = {"AC": 0, "BD": 0}
        for deal in facts.deals:
            if deal.kot is not None:
                kots[deal.kot.side] += 1
        assert facts.result.finished and facts.result.kots == kots
        a, b = kots["AC"], kots["BD"]
        assert facts.result.winner == ("AC" if a > b else "BD" if b > a else None)
        seen.add(facts.result.winner)
    assert seen == {"AC", "BD", None}


def test_seed002_open_ended_level_session_is_result_equals():
    text, facts, _ = match("pagat", (("kots", 0),), seed=118, bias=0.15, max_deals=None)
    assert facts.result.kots == {"AC": 2, "BD": 2} and facts.result.winner is None
    assert '[Result "="]' in text
    bad = text.replace('[Result "="]', '[Result "AC"]')
    assert errors(replay(bad)) == [("result-mismatch", *pos(bad, "[Result", "["))]
    # an open-ended record may also be left unfinished
    assert replay(text.replace('[Result "="]', '[Result "*"]')).errors == ()


def test_seed002_result_equals_needs_a_level_open_ended_session():
    text, facts, _ = match(*PAGAT3, seed=311, bias=0.25)
    bad = text.replace('[Result "AC"]', '[Result "="]')
    assert errors(replay(bad)) == [("result-mismatch", *pos(bad, "[Result", "["))]


def test_seed002_no_deal_after_the_session_is_won():
    text, facts, _ = match(*PAGAT3, seed=311, bias=0.25)
    extra = text.rstrip("\n") + "\n\ndeal\n"
    facts = replay(extra)
    assert errors(facts) == [("after-match", extra.count("\n"), 1)]
    assert facts.errors[0].deal == 12


def test_seed002_wrong_dealer_after_all_tens_names_the_dealers_partner():
    text, facts, _ = match(*PAGAT3, seed=311, bias=0.25)
    assert facts.deals[7].kot.reason == "all-tens" and facts.deals[8].dealer == "B"
    bad = text.replace("deal 9 dealer B", "deal 9 dealer D")
    (error, *_rest) = replay(bad).errors
    assert (error.code, error.line, error.column) == ("wrong-dealer", *pos(bad, "deal 9 dealer", "D"))
    assert "dealer's partner" in error.message


# ---- seed 002 method 1: pagat trump=first-void-five --------------------------------------------

FVF = "pagat trump=first-void-five"
# first five | the rest. Trick 1 is followed; at trick 2 B and D have no heart among their
# first five (each holds hearts among the eight dealt later)
SPLIT = ("hands A: AH KH QH AD KD | JH 10H QD JD 10D 9D 8D 7D\n"
         "      B: 3H 2S 3S 4S 6S | 5H 6H 7H 10S JS QS KS AS\n"
         "      C: 9H 8H 9C 8C 7C | AC KC QC JC 10C 6C 5C 4C\n"
         "      D: 4H 5S 7S 8S 9S | 2H 3C 2C 6D 5D 4D 3D 2D\n")
FVF_PLAY = " 1 A: AH 3H 9H 4H\n 2 A: KH 2S 8H 5S\n 3 D: 7S QD 3S 7C\n"


def test_seed002_method1_play_starts_without_trumps_on_five_cards():
    facts = replay(head(FVF) + SPLIT + " 1 A: AH 3H 9H 4H\n")
    assert facts.errors == ()
    assert trick_view(facts.deals[0]) == [("A", None, None)]
    assert facts.deals[0].trump is None


def test_seed002_method1_first_player_unable_to_follow_sets_trump_with_the_suit_played():
    facts = replay(head(FVF) + SPLIT + FVF_PLAY)
    assert facts.errors == () and facts.notes == ()
    deal = facts.deals[0]
    assert (deal.trump.suit, deal.trump.by, deal.trump.trick) == ("S", "B", 2)
    # trick 2: B sets spades with 2S, D (also void) over-trumps with 5S; trick 3: D's 7S
    # trump wins again, two in a row: D sweeps the centre
    assert trick_view(deal) == [("A", None, None), ("D", "S", None), ("D", "S", ("D", 12, (), "two-in-a-row"))]


def test_decision_first_void_five_trump_is_in_force_at_once_and_the_setter_can_win_that_trick():
    # B (void in hearts among its five) sets spades with 6S: a trump at once, it beats D's 5S ...
    facts = replay(head(FVF) + SPLIT + " 1 A: AH 3H 9H 4H\n 2 A: KH 6S 8H 5S\n")
    assert facts.errors == () and facts.deals[0].tricks[1].winner == "B"
    # ... and D, void too, may over-trump it with 9S
    facts = replay(head(FVF) + SPLIT + " 1 A: AH 3H 9H 4H\n 2 A: KH 6S 8H 9S\n")
    assert facts.errors == () and facts.deals[0].tricks[1].winner == "D"
    assert facts.deals[0].trump.by == "B"


def test_seed002_method1_the_rest_is_dealt_after_the_trick_that_set_trump():
    # a card of the last eight may not be played while the five are held ...
    early = head(FVF) + SPLIT + " 1 A: AH 5H 9H 4H\n"
    assert errors(replay(early)) == [("not-in-hand", *pos(early, " 1 A:", "5H"))]
    # ... and may be once trump is set (trick 3: A's QD and C's 7C; later B's hearts)
    ok = head(FVF) + SPLIT + FVF_PLAY + " 4 D: 2H JH 5H AC\n"
    assert replay(ok).errors == ()


def test_seed002_method1_following_suit_is_judged_on_the_five_cards_held():
    # B holds hearts among the last eight only: not a revoke. With 5H among the first five, it is.
    revoke = SPLIT.replace("B: 3H 2S 3S 4S 6S | 5H 6H", "B: 3H 5H 2S 3S 4S | 6S 6H")
    text = head(FVF) + revoke + FVF_PLAY
    facts = replay(text)
    assert errors(facts) == [("revoke", *pos(text, " 2 A:", "2S"))]
    assert "5H" in facts.errors[0].message


def test_seed002_method1_without_the_split_the_checks_that_could_not_be_made_are_named():
    # hands written without the |: nothing is guessed (B's hearts may all be among the last eight)
    text = head(FVF) + SPLIT.replace(" | ", " ") + FVF_PLAY
    facts = replay(text)
    assert facts.errors == ()
    notes = facts.deals[0].notes
    assert notes == facts.notes and len(notes) == 3
    assert "trick 2: B did not follow suit (hearts led)" in notes[0] and "could not be checked" in notes[0]
    assert "trick 2: D did not follow suit" in notes[1]
    assert "tricks 1-2" in notes[2] and "A, B, C, D" in notes[2] and "|" in notes[2]
    # no hands at all: the same two plays are named; nothing else was checkable
    facts = replay(head(FVF) + FVF_PLAY)
    assert facts.errors == () and len(facts.notes) == 2
    # a real revoke cannot be told without the split either: noted, not reported
    revoke = SPLIT.replace("B: 3H 2S 3S 4S 6S | 5H 6H", "B: 3H 5H 2S 3S 4S | 6S 6H").replace(" | ", " ")
    facts = replay(head(FVF) + revoke + FVF_PLAY)
    assert facts.errors == () and "B did not follow suit" in facts.notes[0]
    # with the split for some seats only, those seats are judged and the others noted
    part = SPLIT.replace("D: 4H 5S 7S 8S 9S | 2H", "D: 4H 5S 7S 8S 9S 2H")
    facts = replay(head(FVF) + part + FVF_PLAY)
    assert facts.errors == ()
    assert facts.notes[0].startswith("deal 1, trick 2: D did not follow suit")
    assert len(facts.notes) == 2 and "checked for D:" in facts.notes[1]


def test_seed002_method1_trump_claims_are_checked():
    good = head(FVF) + SPLIT + "trump S by B at 2\n" + FVF_PLAY
    assert replay(good).errors == ()
    wrong_suit = good.replace("trump S by B at 2", "trump H by B at 2")
    assert errors(replay(wrong_suit)) == [("trump-mismatch", *pos(wrong_suit, "trump", "H"))]
    wrong_by = good.replace("trump S by B at 2", "trump S by D at 2")
    assert errors(replay(wrong_by)) == [("wrong-announcer", *pos(wrong_by, "trump", "D"))]
    wrong_at = good.replace("trump S by B at 2", "trump S by B at 1")
    assert errors(replay(wrong_at)) == [("trump-mismatch", *pos(wrong_at, "trump", "1"))]
    drawn = good.replace("trump S by B at 2", "trump drawn AH")
    assert errors(replay(drawn)) == [("trump-mismatch", *pos(drawn, "trump", "trump"))]


# five tricks all followed: every first five holds two spades, two hearts and a diamond
EVEN = ("hands A: AS KS AH KH AD | 6S 5S 4S 3S 2S 6H 5H 4H\n"
        "      B: QS JS QH JH KD | 3H 2H 10D 9D 8D 7D 6D 5D\n"
        "      C: 10S 9S 10H 9H QD | 4D 3D 2D AC KC QC JC 10C\n"
        "      D: 8S 7S 8H 7H JD | 9C 8C 7C 6C 5C 4C 3C 2C\n")
FIVE = (" 1 A: AS QS 10S 8S\n 2 A: KS JS 9S 7S\n 3 A: AH QH 10H 8H\n 4 A: KH JH 9H 7H\n"
        " 5 A: AD KD QD JD\n")
SIXTH = " 6 A: 6S 2H 4D 2C\n"


def test_seed002_method1_all_five_tricks_followed_a_card_drawn_from_them_sets_trump():
    text = head(FVF) + EVEN + "trump drawn 10H\n" + FIVE + SIXTH
    facts = replay(text)
    assert facts.errors == () and facts.notes == ()
    deal = facts.deals[0]
    assert (deal.trump.suit, deal.trump.drawn, deal.trump.by, deal.trump.trick) == ("H", "10H", None, 6)
    assert [t.trump for t in deal.tricks] == [None] * 5 + ["H"]
    assert deal.tricks[5].winner == "B"                 # 2H, a trump from trick 6


def test_seed002_method1_missing_trump_drawn_when_all_five_opening_tricks_were_followed():
    text = head(FVF) + EVEN + FIVE + SIXTH
    facts = replay(text)
    assert errors(facts) == [("missing-trump", *pos(text, "deal 1", "deal"))]
    assert "trump drawn" in facts.errors[0].message
    # the trick that hangs on the unknown trump is not guessed: the replay says where it stopped
    assert any("trick 6" in n for n in facts.notes)


def test_seed002_method1_a_suit_claimed_when_all_five_were_followed_is_a_trump_mismatch():
    text = head(FVF) + EVEN + "trump H by B at 2\n" + FIVE
    assert errors(replay(text)) == [("trump-mismatch", *pos(text, "trump", "trump"))]


def test_seed002_method1_the_drawn_card_must_come_from_the_five_tricks():
    text = head(FVF) + EVEN + "trump drawn 2H\n" + FIVE + SIXTH
    assert errors(replay(text)) == [("trump-mismatch", *pos(text, "trump", "2H"))]


def test_seed002_method1_revoke_in_the_five_card_phase_with_split_hands():
    # C follows spades in trick 1 but plays a diamond on trick 2's spade lead holding 9S
    text = head(FVF) + EVEN + " 1 A: AS QS 10S 8S\n 2 A: KS JS QD 7S\n"
    assert errors(replay(text)) == [("revoke", *pos(text, " 2 A:", "QD"))]


def _even_first_fives(rng, rules, dealer):
    """A shuffle whose first fives all hold two spades, two hearts and a diamond."""
    deck = list(DECK)
    rng.shuffle(deck)
    pools = {s: [c for c in deck if c[-1] == s] for s in SUITS}
    fives = {seat: [pools["S"].pop(), pools["S"].pop(), pools["H"].pop(), pools["H"].pop(), pools["D"].pop()]
             for seat in rules.seats}
    used = {c for f in fives.values() for c in f}
    rest = [c for c in deck if c not in used]
    return {seat: sorted(fives[seat], key=sort_key) + sorted(rest[8 * i:8 * i + 8], key=sort_key)
            for i, seat in enumerate(rules.seats)}


def test_seed002_method1_generated_drawn_deals_replay_with_the_oracles_facts(monkeypatch):
    monkeypatch.setattr(playout, "deal_hands", _even_first_fives)
    for seed in range(12):
        for style in (Style(hands=True), Style(), Style(loose=True, hands=True, leaders=False)):
            text, oracle = generate_match(random.Random(seed), "pagat", {"kots": 2, "trump": "first-void-five"},
                                          style, max_deals=3, bias=0.3)
            facts = replay(text)
            assert facts.errors == (), [str(e) for e in facts.errors[:3]]
            for deal, od in zip(facts.deals, oracle["deals"]):
                assert od["trump"]["drawn"] == deal.trump.drawn and deal.trump.suit == od["trump"]["suit"]
                assert deal.trump.trick == 6            # the trump fact: in force from trick 6
                assert [t.winner for t in deal.tricks] == [t["winner"] for t in od["tricks"]]
                assert (deal.tens, deal.winner, deal.next_dealer) == (od["tens"], od["winner"], od["next_dealer"])
                assert (None if deal.kot is None else deal.kot._asdict()) == od["kot"]


def test_seed002_method1_generated_sessions_set_trump_at_the_first_void():
    at = set()
    for text, facts, oracle in matches("pagat", (("kots", 2), ("trump", "first-void-five")), count=25,
                                       bias=0.2, hands=True):
        assert facts.notes == ()                        # the split makes every check possible
        for deal in facts.deals:
            n = deal.trump.trick
            for t in deal.tricks[:n - 1]:               # followed all round before trick n
                assert all(p.card[-1] == t.plays[0].card[-1] for p in t.plays)
                assert t.trump is None
            setting = deal.tricks[n - 1]
            first_off = next(p for p in setting.plays if p.card[-1] != setting.plays[0].card[-1])
            assert (first_off.seat, first_off.card[-1]) == (deal.trump.by, deal.trump.suit)
            at.add(n)
    assert {1, 2, 3} <= at


# ---- seed 004, hukum ---------------------------------------------------------------------------

HUKUM = "hukum"
HUKUM_PLAY = " 1 A: AH 10H 3H 4H\n 2 A: KH 5H 2S 6H\n 3 C: 7D 9D 2C 10D\n"


def test_seed004_first_player_unable_to_follow_sets_trump_for_the_rest_of_the_deal():
    facts = replay(head(HUKUM) + HUKUM_PLAY)
    assert facts.errors == ()
    deal = facts.deals[0]
    assert (deal.trump.suit, deal.trump.by, deal.trump.trick) == ("S", "C", 2)
    # trick 3: A cannot follow either, but trump stays spades: A's club does not win
    assert [(t.winner, t.trump) for t in deal.tricks] == [("A", None), ("C", "S"), ("B", "S")]


def test_seed004_the_trick_winner_takes_the_cards_at_once():
    facts = replay(head(HUKUM) + HUKUM_PLAY)
    assert trick_view(facts.deals[0]) == [
        ("A", None, ("A", 4, ("10H",), "trick")),    # a lone trick's ten is the winner's (no centre)
        ("C", "S", ("C", 4, (), "trick")),
        ("B", "S", ("B", 4, ("10D",), "trick")),
    ]
    assert all(t.centre_cards == 0 for t in facts.deals[0].tricks)


def test_decision_hukum_a_later_player_unable_to_follow_may_over_trump_the_setter():
    facts = replay(head(HUKUM) + " 1 A: KH 5H 2S 3S\n")
    assert facts.errors == () and facts.deals[0].tricks[0].winner == "D"
    assert facts.deals[0].trump.by == "C"


def test_seed004_the_player_to_dealers_right_leads():
    text = head(HUKUM) + " 1 B: AH 2H 3H 4H\n"
    assert errors(replay(text)) == [("wrong-leader", *pos(text, " 1 B", "B"))]


def test_seed004_trump_line_is_optional_and_checked_when_written():
    good = head(HUKUM) + "trump S by C at 2\n" + HUKUM_PLAY
    assert replay(good).errors == ()
    wrong = good.replace("trump S by C at 2", "trump H by C at 2")
    assert errors(replay(wrong)) == [("trump-mismatch", *pos(wrong, "trump", "H"))]
    wrong = good.replace("trump S by C at 2", "trump S by A at 2")
    assert errors(replay(wrong)) == [("wrong-announcer", *pos(wrong, "trump", "A"))]
    wrong = good.replace("trump S by C at 2", "trump S by C at 3")
    assert errors(replay(wrong)) == [("trump-mismatch", *pos(wrong, "trump", "3"))]
    wrong = good.replace("trump S by C at 2", "trump drawn 10H")
    assert errors(replay(wrong)) == [("trump-mismatch", *pos(wrong, "trump", "trump"))]


def _hukum_matches(count=40, bias=0.0, **kw):
    return matches(HUKUM, (), count=count, bias=bias, **kw)


def test_seed004_three_or_four_tens_win_the_deal():
    seen = set()
    for _text, facts, _ in _hukum_matches():
        for deal in facts.deals:
            split = sorted(deal.tens.values())
            if split == [2, 2]:
                assert deal.winner is None
            else:
                assert deal.tens[deal.winner] in (3, 4)
                seen.add(deal.tens[deal.winner])
    assert seen == {3, 4}


def test_seed004_two_two_is_no_result_streak_unchanged():
    seen = 0
    for _text, facts, _ in _hukum_matches():
        before = None
        for deal in facts.deals:
            if sorted(deal.tens.values()) == [2, 2]:
                assert deal.winner is None and deal.kot is None
                assert deal.streak == before            # neither grows nor resets
                seen += 1
            before = deal.streak
    assert seen >= 20


def test_seed004_a_loss_resets_the_streak_and_a_win_extends_it():
    for _text, facts, _ in _hukum_matches():
        run = None
        for deal in facts.deals:
            if deal.winner is not None:
                run = (deal.winner, run[1] + 1 if run and run[0] == deal.winner else 1)
            assert (None if deal.streak is None else tuple(deal.streak)) == run


def test_seed004_all_four_tens_sirr_wins_the_match_at_once():
    seen = 0
    for _text, facts, _ in _hukum_matches(bias=0.2):
        for deal in facts.deals:
            if 4 in deal.tens.values():
                assert deal.kot.reason == "all-tens" and deal is facts.deals[-1]
                assert facts.result.winner == deal.kot.side and deal.next_dealer is None
                seen += 1
    assert seen >= 20


def test_seed004_seven_straight_deal_wins_win_the_match():
    for seed, bias in ((23, 0.2), (16, 0.3), (72, 0.3)):
        _text, facts, _ = match(HUKUM, (), seed, bias)
        last = facts.deals[-1]
        assert last.kot.reason == "streak" and last.streak.length == 7
        decided = [d.winner for d in facts.deals if d.winner is not None]
        assert decided[-7:] == [last.kot.side] * 7
        assert facts.result.winner == last.kot.side and facts.result.finished


def test_seed004_dealer_rotation_with_the_two_two_rule():
    seen = set()
    for _text, facts, _ in _hukum_matches(count=60):
        previous = "none"
        for deal, following in zip(facts.deals, facts.deals[1:]):
            dealing = side_of(deal.dealer)
            if deal.winner == dealing:
                expected = right_of(deal.dealer)
                seen.add("won: right")
            elif deal.winner is not None:
                expected = deal.dealer
                seen.add("lost: same")
            elif previous not in ("none", None) and previous != dealing:
                expected = deal.dealer
                seen.add("2-2 after a loss: same")
            else:
                expected = right_of(deal.dealer)
                seen.add("2-2, first or after 2-2: right")
            assert deal.next_dealer == following.dealer == expected
            previous = deal.winner
    assert len(seen) == 4


def test_decision_hukum_two_two_on_the_first_deal_passes_right():
    for seed in (2, 6, 7, 8, 10):
        text, facts, _ = match(HUKUM, (), seed, 0.0, max_deals=1)
        deal = facts.deals[0]
        assert deal.winner is None and deal.next_dealer == right_of(deal.dealer)


def test_seed004_two_two_deal_with_a_result_claiming_a_side_is_a_result_mismatch():
    text, facts, _ = match(HUKUM, (), 2, 0.0, max_deals=1)
    assert facts.deals[0].winner is None and '[Result "*"]' in text
    for claim in ("AC", "BD", "="):
        bad = text.replace('[Result "*"]', f'[Result "{claim}"]')
        assert errors(replay(bad)) == [("result-mismatch", *pos(bad, "[Result", "["))], claim


def test_seed004_after_a_sirr_no_deal_may_follow():
    text, facts, _ = match(HUKUM, (), 45, 0.0)
    assert facts.deals[-1].kot.reason == "all-tens"
    extra = text.rstrip("\n") + "\n\ndeal 6\n 1 C: AH 2H 3H 4H\n"
    facts = replay(extra)
    assert [e.code for e in facts.errors] == ["after-match"]
    assert facts.errors[0].line == extra.count("\n") - 1 and facts.errors[0].deal == 6
    # and the Result of the sirr's side stands
    bad = text.replace('[Result "BD"]', '[Result "AC"]')
    assert errors(replay(bad)) == [("result-mismatch", *pos(bad, "[Result", "["))]


# ---- seed 004 variants: streak=3|5 ---------------------------------------------------------------

@pytest.mark.parametrize("profile,length,seeds", [
    ("hukum", 5, [(145, 0.1), (134, 0.2), (247, 0.2)]),
    ("standard", 3, [(212, 0.3), (24, 0.1), (44, 0.1)]),
])
def test_seed004_informal_shorter_kot_streaks(profile, length, seeds):
    for seed, bias in seeds:
        _text, facts, _ = match(profile, (("streak", length),), seed, bias)
        last = facts.deals[-1]
        assert last.kot.reason == "streak" and last.streak.length == length
        assert all(d.streak is None or d.streak.length < length for d in facts.deals[:-1])
        assert facts.result.winner == last.kot.side


# ---- seed 004 variants: closed trump ------------------------------------------------------------
# Under standard (and pagat) the dealer's right chooses closed trump from the first five cards
# (RULES.md's Decision); under hukum the first player unable to follow chooses it in secret and
# reveals it the next time they cannot follow (issue 10, defect 5).

CLOSED = "standard trump=closed"
HUKUM_CLOSED = "hukum trump=closed"
CLOSED_PLAY = " 1 A: AH 2H 3H 4H\n 2 A: 7H 2C QH 6H\n 3 C: AS 5C 4C 4S\n"


def test_seed004_closed_trump_no_suit_is_trump_before_the_reveal():
    facts = replay(head(CLOSED) + "trump C by A closed\n" + CLOSED_PLAY)
    assert facts.errors == ()
    deal = facts.deals[0]
    # trick 2: B's 2C is of the secret suit, but trump is not revealed yet: C's QH wins
    assert [(t.winner, t.trump) for t in deal.tricks[:2]] == [("A", None), ("C", None)]


def test_seed004_closed_trump_is_revealed_when_the_setter_first_cannot_follow():
    facts = replay(head(CLOSED) + "trump C by A at 3 closed\n" + CLOSED_PLAY)
    assert facts.errors == ()
    deal = facts.deals[0]
    assert (deal.trump.suit, deal.trump.by, deal.trump.trick, deal.trump.closed) == ("C", "A", 3, True)
    assert deal.tricks[2].trump == "C"


def test_decision_closed_trump_the_revealed_suit_counts_for_the_whole_trick_of_the_reveal():
    # trick 3: D (not the setter) discards 5C on the spade lead before A reveals clubs with
    # 4C: D's 5C is a trump too, and the higher one
    facts = replay(head(CLOSED) + "trump C by A at 3 closed\n" + CLOSED_PLAY)
    assert facts.deals[0].tricks[2].winner == "D"


def test_seed004_closed_trump_reveal_at_the_wrong_trick_is_a_trump_mismatch():
    text = head(CLOSED) + "trump C by A at 2 closed\n" + CLOSED_PLAY
    assert errors(replay(text)) == [("trump-mismatch", *pos(text, "trump", "2"))]


def test_seed004_closed_trump_setter_is_the_dealers_right_and_the_record_states_the_suit():
    text = head(CLOSED) + "trump C by B closed\n" + CLOSED_PLAY
    assert errors(replay(text)) == [("wrong-announcer", *pos(text, "trump", "B"))]
    text = head(CLOSED) + CLOSED_PLAY
    assert errors(replay(text)) == [("missing-trump", *pos(text, "deal 1", "deal"))]


def test_seed004_closed_trump_never_revealed_in_a_complete_deal():
    # a generated deal where the setter always followed suit, with a claimed reveal
    for seed in range(60):
        text, facts, _ = match("standard", (("trump", "closed"),), seed, 0.0, max_deals=1)
        deal = facts.deals[0]
        if deal.trump.trick is None:
            break
    else:
        pytest.skip("no unrevealed deal among the seeds")
    assert all(t.trump is None for t in deal.tricks)
    line = re.search(r"^trump [SHDC] by [A-D]", text, re.M).group(0)
    bad = text.replace(line, line + " at 5")
    assert errors(replay(bad)) == [("trump-mismatch", *pos(bad, "trump", "5"))]


# hukum: B is the first unable to follow (2C, trick 2): B chooses trump then, and reveals it in
# trick 3, the next time B cannot follow; A's void in trick 3 (4C) sets nothing
HUKUM_CLOSED_PLAY = " 1 A: AH 2H 3H 4H\n 2 A: 7H 2C QH 6H\n 3 C: AS 5C 4C 3D\n"


def test_defect_5_hukum_closed_trump_is_chosen_by_the_first_player_unable_to_follow():
    facts = replay(head(HUKUM_CLOSED) + "trump D by B at 3 closed\n" + HUKUM_CLOSED_PLAY)
    assert facts.errors == (), [str(e) for e in facts.errors]
    deal = facts.deals[0]
    assert (deal.trump.suit, deal.trump.by, deal.trump.set_at, deal.trump.trick) == ("D", "B", 2, 3)
    # trick 2: B's 2C is no trump (nothing is trump before the reveal): C's QH wins;
    # trick 3: B reveals diamonds with 3D, which wins over C's AS
    assert [(t.winner, t.trump) for t in deal.tricks] == [("A", None), ("C", None), ("B", "D")]


def test_defect_5_hukum_closed_trump_by_the_dealers_right_is_a_wrong_announcer():
    text = head(HUKUM_CLOSED) + "trump D by A at 3 closed\n" + HUKUM_CLOSED_PLAY
    assert errors(replay(text)) == [("wrong-announcer", *pos(text, "trump", "A"))]
    assert "first player unable to follow" in replay(text).errors[0].message


def test_defect_5_hukum_closed_trump_reveal_is_the_setters_next_void():
    text = head(HUKUM_CLOSED) + "trump D by B at 2 closed\n" + HUKUM_CLOSED_PLAY
    assert errors(replay(text)) == [("trump-mismatch", *pos(text, "trump", "2"))]


def test_defect_5_hukum_closed_trump_the_suit_is_needed_only_at_the_reveal():
    # no trump line: fine until B reveals in trick 3, whose winner then hangs on the suit
    text = head(HUKUM_CLOSED) + " 1 A: AH 2H 3H 4H\n 2 A: 7H 2C QH 6H\n"
    assert replay(text).errors == ()
    text = head(HUKUM_CLOSED) + HUKUM_CLOSED_PLAY
    assert [e[0] for e in errors(replay(text))] == ["missing-trump"]


def test_defect_5_hukum_closed_generated_reveals():
    seen = 0
    for _text, facts, oracle in matches(HUKUM, (("trump", "closed"),), count=20, max_deals=3):
        for deal, od in zip(facts.deals, oracle["deals"]):
            tf = deal.trump
            assert (tf.suit, tf.by, tf.trick, tf.set_at) == (od["trump"]["suit"], od["trump"]["by"],
                                                             od["trump"]["trick"], od["trump"].get("set_at"))
            voids = [(t.number, p.seat) for t in deal.tricks for p in t.plays[1:]
                     if p.card[-1] != t.plays[0].card[-1]]
            if not voids:
                assert tf.by is None and tf.trick is None
                continue
            assert (tf.set_at, tf.by) == voids[0]                  # the first player unable to follow
            again = [n for n, seat in voids[1:] if seat == tf.by]
            assert tf.trick == (again[0] if again else None)      # ... reveals at their next void
            n = tf.trick or 14
            assert all(t.trump is None for t in deal.tricks[: n - 1])
            assert all(t.trump == tf.suit for t in deal.tricks[n - 1:])
            seen += tf.trick is not None
    assert seen >= 20


# ---- seed 004 variants: open trump (trump=partner) ----------------------------------------------

def test_seed004_open_trump_the_dealers_partner_declares_trump_before_play():
    text = head("standard trump=partner") + "trump S by B\n 1 A: AH 2S 3H 4H\n"
    facts = replay(text)
    assert facts.errors == ()
    assert (facts.deals[0].trump.by, facts.deals[0].tricks[0].winner) == ("B", "B")
    wrong = text.replace("trump S by B", "trump S by A")
    assert errors(replay(wrong)) == [("wrong-announcer", *pos(wrong, "trump", "A"))]
    missing = text.replace("trump S by B\n", "")
    assert errors(replay(missing)) == [("missing-trump", *pos(missing, "deal 1", "deal"))]
    assert "dealer's partner" in replay(missing).errors[0].message


def test_seed004_open_trump_generated_matches():
    for _text, facts, _ in matches("standard", (("trump", "partner"),), count=15):
        for deal in facts.deals:
            assert deal.trump.by == partner_of(deal.dealer) and deal.tricks[0].leader == right_of(deal.dealer)


# ---- seed 004 variants: double sar -------------------------------------------------------------

def test_seed004_double_sar_tens_count_two_and_other_cards_one():
    seen = set()
    for bias in (0.0, 0.2):
        for _text, facts, _ in matches("standard", (("double-sar", True),), count=25, bias=bias):
            for deal in facts.deals:
                cards = {s: sum(t.capture.cards for t in deal.tricks if t.capture and t.capture.side == s)
                         for s in ("AC", "BD")}
                points = {s: cards[s] + deal.tens[s] for s in cards}
                assert deal.points == points and sum(points.values()) == 56
                if deal.kot is not None:
                    assert deal.tens[deal.kot.side] == 4 and deal.winner == deal.kot.side
                    seen.add("kot")
                    continue
                assert points[deal.winner] > 28
                if deal.tens[deal.winner] < 2:
                    seen.add("fewer tens")
    assert seen == {"kot", "fewer tens"}


def test_decision_double_sar_a_28_28_split_with_four_players_is_always_an_all_tens_kot():
    # captured cards come in whole tricks (4 cards), so 28 points = 24 cards + 4 tens
    _text, facts, _ = match("standard", (("double-sar", True),), 92, 0.0)
    deal = facts.deals[2]
    assert deal.points == {"AC": 28, "BD": 28} and deal.kot.reason == "all-tens" and deal.winner == "BD"


# ---- seed 004 variants: coat -------------------------------------------------------------------

def test_seed004_coat_one_point_per_deal_won_first_to_seven():
    ended_on_points = 0
    runs = [match("standard", (("coat", True),), seed) for seed in (716, 1015, 2480)]
    for _text, facts, _ in [*runs, *matches("standard", (("coat", True),), count=20)]:
        points = {"AC": 0, "BD": 0}
        for deal in facts.deals:
            assert deal.kot is None or deal.kot.reason == "all-tens"     # no streak kots
            points[deal.winner] += 1
        assert facts.result.points == points
        last = facts.deals[-1]
        if last.kot is None:
            assert points[last.winner] == 7 and facts.result.winner == last.winner
            ended_on_points += 1
        assert max(points.values()) <= 7
    assert ended_on_points >= 3


# ---- seed 004 variants: six players, three decks -------------------------------------------------

SIX = "standard six-player"


def test_seed004_six_players_equal_cards_the_first_played_wins():
    text = head(SIX, dealer="F") + "trump S by A\n 1 A: AH AH 3H 4H 5H 6H\n 2 A: KH 2S 2S 7H 8H 9H\n"
    facts = replay(text)
    assert facts.errors == ()
    assert [t.winner for t in facts.deals[0].tricks] == ["A", "B"]
    assert facts.deals[0].tricks[0].leader == "A"


def test_seed004_six_players_three_decks_26_cards_each():
    for _text, facts, _ in matches("standard", (("six-player", True),), count=3, hands=True):
        for deal in facts.deals:
            assert sorted(deal.hands) == list("ABCDEF")
            assert all(len(h) == 26 for h in deal.hands.values())
            assert len(deal.tricks) == 26 and all(len(t.plays) == 6 for t in deal.tricks)
            assert set(deal.tens) == {"ACE", "BDF"} and sum(deal.tens.values()) == 12
            if deal.kot is None:
                winner_tens = deal.tens[deal.winner]
                assert winner_tens >= 7 or (winner_tens == 6 and deal.winner != side_of(deal.dealer, 6))


def test_decision_six_players_six_six_goes_to_the_non_dealers():
    _text, facts, _ = match("standard", (("six-player", True),), 21, 0.0, hands=True)
    first, second = facts.deals
    assert first.tens == {"ACE": 6, "BDF": 6} and first.dealer == "F" and first.winner == "ACE"
    assert first.next_dealer == "F"
    assert second.kot.reason == "all-tens" and second.tens["BDF"] == 12 and facts.result.winner == "BDF"


def test_seed004_six_players_a_seventh_player_is_an_error():
    text = head(SIX, dealer="F") + "trump S by A\n 1 A: AH 2H 3H 4H 5H 6H 7H\n"
    assert errors(replay(text)) == [("trick-size", *pos(text, " 1 A:", "1"))]
    text = head(SIX, dealer="F") + "trump S by A\n 1 A: AH 2H 3H 4H 5H 6H\n 2 G: AS 2S 3S 4S 5S 6S\n"
    facts = replay(text)
    assert [e.code for e in facts.errors] == ["syntax"]
    assert (facts.errors[0].line, facts.errors[0].column) == pos(text, " 2 G:", "G")


def test_seed004_six_players_a_hand_of_25_cards_is_a_hand_size_error():
    text, facts, _ = match("standard", (("six-player", True),), 21, 0.0, hands=True)
    hand = re.search(r"^( +B: )(\S+) ", text, re.M)
    bad = text[: hand.start(2)] + text[hand.end(2) + 1:]            # B's first card removed
    first = replay(bad).errors[0]
    assert (first.code, first.line, first.column) == ("hand-size", *pos(bad, "      B:", "B"))
    assert "26" in first.message and "25" in first.message


def test_seed004_six_players_a_fourth_copy_of_a_card_is_a_duplicate():
    text, facts, _ = match("standard", (("six-player", True),), 21, 0.0, hands=True)
    f_line = re.search(r"^      F: (.*)$", text, re.M)
    held = f_line.group(1).split()
    extra = next(c for c in DECK if c not in held)                  # three copies are elsewhere
    bad = text[: f_line.start(1)] + " ".join([extra] + held[1:]) + text[f_line.end(1):]
    first = replay(bad).errors[0]
    assert (first.code, first.line, first.column) == ("duplicate-card", *pos(bad, "      F:", extra))
    assert "three" in first.message or "3" in first.message
    # a fourth copy played: the same code at the card
    play = head(SIX, dealer="F") + "trump S by A\n 1 A: AH AH AH 4H 5H 6H\n 2 A: AH 2H 3H 7H 8H 9H\n"
    assert errors(replay(play)) == [("duplicate-card", *pos(play, " 2 A:", "AH"))]


def test_seed004_six_players_sides_are_ace_and_bdf():
    text = head(SIX, dealer="F", result="AC") + "trump S by A\n"
    first = replay(text).errors[0]
    assert (first.code, first.line, first.column) == ("bad-tag", *pos(text, "[Result", "["))
    assert "ACE" in first.message and "BDF" in first.message


# ---- seed 004 variants: court piece --------------------------------------------------------------

def test_seed004_court_piece_tricks_not_tens_are_counted():
    seen = set()
    for bias in (0.0, 0.2):
        for _text, facts, _ in matches("standard", (("court-piece", True),), count=25, bias=bias):
            for deal in facts.deals:
                tricks = {s: sum(t.capture.cards for t in deal.tricks if t.capture and t.capture.side == s) // 4
                          for s in ("AC", "BD")}
                assert deal.points == tricks and sum(tricks.values()) == 13
                assert tricks[deal.winner] >= 7
                if deal.kot is not None:
                    assert deal.kot.reason == "all-tricks" and tricks[deal.kot.side] == 13
                    seen.add("all-tricks")
                elif 4 in deal.tens.values() and deal.tens[deal.winner] != 4:
                    seen.add("all tens, deal lost")
    assert seen == {"all-tricks", "all tens, deal lost"}


def test_decision_court_piece_all_tricks_kot_passes_the_deal_as_all_tens_does_in_pagat():
    seen = 0
    for _text, facts, _ in matches("pagat", (("kots", 2), ("court-piece", True)), count=20):
        for deal in facts.deals[:-1]:
            if deal.kot is not None and deal.kot.reason == "all-tricks":
                took = deal.kot.side == side_of(deal.dealer)
                assert deal.next_dealer == (right_of(deal.dealer) if took else partner_of(deal.dealer))
                seen += 1
    assert seen >= 5


# ---- the profiles as data: every row of RULES.md's table, with its decisions ---------------------

@pytest.mark.parametrize("label,params", [
    ("pagat kots=3", {"kots": 3, "dealer_after_all_tens": "partner", "streak_reset_after_kot": True}),
    ("pagat kots=0", {"kots": 0}),
    ("pagat trump=first-void-five", {"trump": "first-void-five"}),
    ("hukum", {"trump": "first-void", "capture": "immediate", "level": "none", "all_tens": "match",
               "level_dealer": "previous"}),
    ("hukum streak=5", {"streak": 5}),
    ("standard streak=3", {"streak": 3}),
    ("hukum trump=closed", {"trump": "closed"}),
    ("standard trump=partner", {"trump": "partner"}),
    ("standard double-sar", {"score": "points"}),
    ("standard coat", {"match_points": 7, "streak": 0}),
    ("standard six-player", {"seats": 6, "decks": 3}),
    ("standard court-piece", {"score": "tricks"}),
])
def test_rules_tag_names_each_profile_and_option(label, params):
    rules = registry().resolve(label)
    assert {k: getattr(rules, k) for k in params} == params


@pytest.mark.parametrize("label,phrases", [
    ("pagat", ["restart from zero", "makes one kot", "rule 7", "kots=0", "dealer's partner"]),
    ("pagat trump=first-void-five", ["trump at once", "over-trump", "|", "trump drawn", "trick 6"]),
    ("hukum", ["first void", "previous deal", "first-deal 2-2", "neither grows nor resets", "sirr"]),
    ("hukum trump=closed", ["trump=closed: The setter is the dealer's right", "no suit is trump",
                            "whole of that trick", "at N names the trick of the reveal",
                            "the first player unable to follow suit chooses trump in secret"]),
    ("standard trump=partner", ["trump=partner: The dealer's partner declares trump"]),
    ("standard double-sar", ["double-sar: Points: 2 for each ten", "28-28", "whatever its points"]),
    ("standard coat", ["coat: Each deal won", "no streak kots"]),
    ("standard six-player", ["ACE and BDF", "fourth copy", "played first wins", "6-6"]),
    ("standard court-piece", ["Tricks, not tens", "all-tricks"]),
    ("hukum streak=5", ["streak=5: The kot falls on exactly the N-th"]),
])
def test_every_decision_of_rules_md_is_in_the_profile_data(label, phrases):
    text = "\n".join(registry().resolve(label).decisions)
    for phrase in phrases:
        assert phrase in text, phrase


def test_rules_command_shows_each_profile_and_options_decisions():
    runner = CliRunner()
    for label, phrase in (("pagat", "dealer's partner"), ("hukum", "previous deal"),
                          ("pagat trump=first-void-five", "trump drawn"),
                          ("hukum trump=closed", "whole of that trick"),
                          ("standard six-player", "played first wins"),
                          ("standard coat court-piece", "all-tricks")):
        result = runner.invoke(app, ["rules", label])
        assert result.exit_code == 0, result.output
        flat = " ".join(result.stdout.split())
        assert "Decisions" in flat and phrase in flat, (label, phrase)


# ---- the samples -----------------------------------------------------------------------------------

VARIANT_SAMPLES = sorted(p for p in SAMPLES.glob("*.dpn") if p.name.startswith(("pagat-", "hukum-", "standard-")))


def sample(name: str):
    text = (SAMPLES / name).read_text(encoding="utf-8")
    return text, replay(text)


def test_there_is_a_sample_for_every_profile_and_option():
    rules = {replay(p.read_text(encoding="utf-8")).rules.label() for p in VARIANT_SAMPLES}
    words = {w for label in rules for w in label.split()}
    for needed in ("pagat", "hukum", "kots=3", "kots=0", "trump=first-void-five", "trump=closed", "trump=partner",
                   "streak=3", "streak=5", "double-sar", "coat", "six-player", "court-piece"):
        assert needed in words, needed


@pytest.mark.parametrize("path", VARIANT_SAMPLES, ids=lambda p: p.name)
def test_variant_sample_replays_without_errors(path):
    facts = replay(path.read_text(encoding="utf-8"))
    assert facts.errors == () and facts.notes == ()
    assert facts.result.finished and all(d.complete for d in facts.deals)


def test_variant_samples_validate_on_the_command_line():
    result = CliRunner().invoke(app, ["validate", *map(str, VARIANT_SAMPLES)])
    assert result.exit_code == 0, result.output


def test_sample_pagat_session_shows_kots_and_the_partner_dealing():
    _text, facts = sample("pagat-session.dpn")
    assert facts.result.kots == {"AC": 3, "BD": 1} and facts.result.winner == "AC"
    reasons = [d.kot.reason for d in facts.deals if d.kot]
    assert reasons.count("all-tens") >= 2 and "streak" in reasons
    assert any(d.kot and d.kot.reason == "all-tens" and d.kot.side != side_of(d.dealer)
               and d.next_dealer == partner_of(d.dealer) for d in facts.deals)


def test_sample_pagat_first_void_five_sets_trump_at_trick_2_and_draws_it_once():
    text, facts = sample("pagat-first-void-five.dpn")
    assert any(d.trump.trick in (2, 3) and d.trump.drawn is None for d in facts.deals)
    assert any(d.trump.drawn is not None for d in facts.deals)
    # the split matters: a trump setter held the suit led among the last eight cards
    deal = next(d for d in facts.deals if d.trump.trick == 2)
    led = deal.tricks[1].plays[0].card[-1]
    assert any(c[-1] == led for c in deal.hands[deal.trump.by])
    # without the split the replay still finds no error, and says what it could not check
    loose = replay(text.replace(" | ", " "))
    assert loose.errors == () and any("could not be checked" in n for n in loose.notes)


def test_sample_hukum_match_shows_two_two_deals_and_a_sirr():
    _text, facts = sample("hukum-match.dpn")
    level = [d for d in facts.deals if d.winner is None]
    assert len(level) >= 2
    assert {d.next_dealer == d.dealer for d in level} == {True, False}
    assert facts.deals[-1].kot.reason == "all-tens"


def test_sample_closed_trump_shows_a_reveal():
    _text, facts = sample("hukum-closed-trump.dpn")
    assert any(d.trump.closed and d.trump.trick is not None for d in facts.deals)


def test_sample_six_player_deal():
    _text, facts = sample("standard-six-player.dpn")
    deal = facts.deals[0]
    assert len(deal.tricks) == 26 and len(deal.hands) == 6 and sum(deal.tens.values()) == 12


# ---- issue 10, defect 2: options never depend on their order ------------------------------------

CONFLICTS = [
    ("standard coat streak=3", "coat", "streak=3", "streak"),
    ("standard streak=3 coat", "streak=3", "coat", "streak"),
    ("standard court-piece double-sar", "court-piece", "double-sar", "score"),
    ("standard double-sar court-piece", "double-sar", "court-piece", "score"),
    ("hukum streak=3 streak=5", "streak=3", "streak=5", "twice"),
    ("pagat trump=closed kots=2 trump=partner", "trump=closed", "trump=partner", "twice"),
    ("standard coat coat", "coat", "coat", "twice"),
]


@pytest.mark.parametrize("label,first,second,what", CONFLICTS, ids=[c[0] for c in CONFLICTS])
def test_defect_2_options_that_set_the_same_parameter_are_unknown_rules(label, first, second, what):
    text = f'[Event "x"]\n[Rules "{label}"]\n[Result "*"]\n\ndeal 1 dealer D\n'
    facts = replay(text)
    assert [(e.code, e.line, e.column) for e in facts.errors] == [("unknown-rules", 2, 1)]
    message = facts.errors[0].message
    assert f'"{first}"' in message and f'"{second}"' in message and what in message, message
    assert facts.deals == ()


@pytest.mark.parametrize("value", ["", "   "])
def test_an_empty_rules_tag_is_unknown_rules_not_standard(value, tmp_path):
    # [Rules ""] was replayed as standard without a word: a blank tag names no rules
    text = f'[Event "x"]\n[Rules "{value}"]\n[Result "*"]\n\ndeal 1 dealer D\n'
    facts = replay(text)
    assert [(e.code, e.line, e.column) for e in facts.errors] == [("unknown-rules", 2, 1)]
    assert "empty" in facts.errors[0].message and "standard" in facts.errors[0].message
    path = tmp_path / "g.dpn"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1 and "unknown-rules" in result.output, result.output
    from dehlanote.rules.profile import rules_from_tag
    with pytest.raises(Exception, match="empty"):
        rules_from_tag(value)
    assert rules_from_tag(None).name == "standard"


def test_an_option_written_without_its_profile_says_to_name_the_profile_first():
    # [Rules "six-player"] said only '"six-player" is not a known rule profile'
    facts = replay('[Rules "Six-Player kots=3"]\n[Result "*"]\n\ndeal 1 dealer D\n')
    assert [(e.code, e.line) for e in facts.errors] == [("unknown-rules", 1)]
    assert '"Six-Player" is an option, not a rule profile: name the profile first ("standard Six-Player kots=3"' \
        in facts.errors[0].message
    assert "is not a known rule profile" in replay('[Rules "sixer"]\n\ndeal 1 dealer D\n').errors[0].message


def test_defect_2_the_conflict_check_is_the_option_tables_data():
    reg = registry()
    assert reg.options["coat"].params == ("match_points", "streak")
    assert reg.options["double-sar"].params == ("score",) and reg.options["court-piece"].params == ("score",)
    # an option loaded from YAML takes part by what it declares
    reg2 = playout_registry_with('options:\n  sprint:\n    description: "short"\n    sets: {streak: 3}\n')
    with pytest.raises(Exception, match='"sprint" .* and "streak=5" .* both set'):
        reg2.resolve("standard sprint streak=5")


def playout_registry_with(yaml_text: str):
    from dehlanote.rules.profile import default_registry
    reg = default_registry()
    reg.load_text(yaml_text, "extra.yaml")
    return reg


@pytest.mark.parametrize("label", ["Standard", "STANDARD streak=3", "Pagat Kots=3", "hukum Trump=Closed",
                                   "standard Six-Player", "pagat kots=0 TRUMP=FIRST-VOID-FIVE"])
def test_dpn_1_1_profile_and_option_names_are_case_insensitive(label):
    rules = registry().resolve(label)
    assert rules.label() == label.lower()


def test_defect_2_disjoint_options_in_any_order_give_the_same_rules():
    import itertools
    options = ["kots=3", "streak=5", "trump=first-void-five", "double-sar", "six-player"]
    labels = {registry().resolve("pagat " + " ".join(p)) for p in itertools.permutations(options)}
    params = {tuple(getattr(r, k) for k in ("kots", "streak", "trump", "score", "seats", "decks")) for r in labels}
    assert len(params) == 1


# ---- issue 10, defect 3: trump ... at N is checked as far as the record goes -------------------

def test_defect_3_hukum_at_n_when_everyone_followed_in_trick_n_is_a_trump_mismatch():
    play = " 1 A: AH 2H 3H 4H\n 2 A: KH 5H 6H 7H\n 3 A: QH 8H 9H 10H\n"
    text = head("hukum") + "trump S by B at 2\n" + play
    facts = replay(text)
    assert errors(facts) == [("trump-mismatch", *pos(text, "trump", "2"))]
    assert "tricks 1-3" in facts.errors[0].message
    # trick 2 not yet written: nothing to say
    text = head("hukum") + "trump S by B at 2\n" + " 1 A: AH 2H 3H 4H\n"
    assert errors(replay(text)) == []


def test_defect_3_closed_reveal_at_a_trick_the_setter_led_is_a_trump_mismatch():
    play = " 1 A: AH 2H 3H 4H\n 2 A: KH 5H 6H 7H\n 3 A: QH 8H 9H 10H\n"
    text = head("standard trump=closed") + "trump C by A at 3 closed\n" + play
    assert errors(replay(text)) == [("trump-mismatch", *pos(text, "trump", "3"))]


def test_defect_3_first_void_five_at_n_is_checked_in_an_unfinished_record():
    text = head(FVF) + SPLIT + "trump S by B at 1\n" + " 1 A: AH 3H 9H 4H\n"
    assert errors(replay(text)) == [("trump-mismatch", *pos(text, "trump", "1"))]


# ---- issue 10, defect 4: a withdrawn card must have been dealt -----------------------------------

def test_defect_4_a_card_withdrawn_in_the_five_card_phase_must_be_among_the_first_five():
    # 5H is among B's last eight cards, not yet dealt in trick 2: it cannot have been put down
    text = head(FVF) + SPLIT + " 1 A: AH 3H 9H 4H\n 2 A: KH -5H 2S 8H 5S\n"
    facts = replay(text)
    assert errors(facts) == [("not-in-hand", *pos(text, " 2 A:", "-5H"))]
    assert "first five" in facts.errors[0].message
    # playing it there gives the same code
    text = head(FVF) + SPLIT + " 1 A: AH 3H 9H 4H\n 2 A: KH 5H 8H 5S\n"
    assert [e[0] for e in errors(replay(text))] == ["not-in-hand"]


def test_defect_4_a_withdrawn_card_already_played_is_not_in_hand():
    # A led 2S in trick 1, then "withdraws" it in trick 2
    text = head("standard") + HANDS_BY_SUIT + "trump D by A\n 1 A: 2S 2H 2D 2C\n 2 C: KD 3C -2S 3S 3H\n"
    assert errors(replay(text)) == [("not-in-hand", *pos(text, " 2 C:", "-2S"))]


HANDS_BY_SUIT = ("hands A: AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S\n"
                 "      B: AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H\n"
                 "      C: AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D\n"
                 "      D: AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C\n")
