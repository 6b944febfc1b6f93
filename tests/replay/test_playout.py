"""Tests of the random playout generator (dehlanote.oracle.playout).

The generator is an oracle for the replayer, so it is checked here against RULES.md by
hand-computed cases and by an independent re-derivation (written separately below, not
reusing the module's helpers) of every fact it states about generated matches.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from dehlanote.oracle import playout
from dehlanote.oracle.playout import (
    Centre,
    Style,
    generate_corpus,
    generate_match,
    judge_deal,
    make_rules,
    next_dealer,
    parse_rules_text,
    play_deal,
    rules_text,
    trick_winner,
)
from dehlanote.deck import DECK, sort_key
from dehlanote.syntax.cards import CARD_SPELLINGS

RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]

COMBOS = [
    ("standard", {}),
    ("standard", {"trump": "partner"}),
    ("standard", {"trump": "closed"}),
    ("standard", {"double-sar": True}),
    ("standard", {"court-piece": True}),
    ("standard", {"coat": True}),
    ("standard", {"streak": 3}),
    ("pagat", {}),
    ("pagat", {"kots": 3}),
    ("pagat", {"kots": 0}),
    ("pagat", {"kots": 2, "trump": "first-void-five"}),
    ("hukum", {}),
    ("hukum", {"streak": 5}),
    ("hukum", {"trump": "closed"}),
    ("hukum", {"double-sar": True}),
    ("hukum", {"coat": True}),
    ("standard", {"six-player": True}),
    ("hukum", {"six-player": True, "court-piece": True}),
    ("pagat", {"six-player": True, "trump": "first-void-five", "kots": 0}),
]


# --------------------------------------------------------------------------------------
# Small independent helpers


def strength(card: str) -> int:
    return RANK_ORDER.index(card[:-1])


def suit(card: str) -> str:
    return card[-1]


def ref_winner(cards: list, trump) -> int:
    """Independent trick winner: the first-played card among the best ones."""
    led = suit(cards[0])
    trumps = [i for i, c in enumerate(cards) if suit(c) == trump]
    pool = trumps if trumps else [i for i, c in enumerate(cards) if suit(c) == led]
    top = max(strength(cards[i]) for i in pool)
    return min(i for i in pool if strength(cards[i]) == top)


def seats_of(n: int) -> str:
    return "ABCDEF"[:n]


def side(seat: str, n: int) -> str:
    return "ACE"[: n // 2] if seat in "ACE" else "BDF"[: n // 2]


def scripted(rng: random.Random, script: list):
    """A chooser that plays the scripted cards first, then random legal cards."""
    queue = list(script)

    def choose(seat, hand, legal, led, trump):
        if queue:
            card = queue.pop(0)
            assert card in legal, (seat, card, legal)
            return card
        return rng.choice(legal)

    return choose


def build_hands(fixed: dict, rng: random.Random, dealer: str = "D") -> dict:
    """Complete the given cards of each seat to 13 with the rest of the deck."""
    rest = [c for c in DECK if not any(c in cards for cards in fixed.values())]
    rng.shuffle(rest)
    hands = {}
    for seat in "ABCD":
        cards = list(fixed.get(seat, []))
        need = 13 - len(cards)
        cards += rest[:need]
        rest = rest[need:]
        hands[seat] = cards
    return hands


# --------------------------------------------------------------------------------------
# Hand-computed cases


def test_worked_example_two_in_a_row_sweeps_eight_cards():
    """RULES.md worked example: diamonds trump, A wins AH-10H-3H-7H then AS-QS-2S-10S."""
    rng = random.Random(7)
    rules = make_rules("standard")
    hands = build_hands({"A": ["AH", "AS"], "B": ["10H", "QS"], "C": ["3H", "2S"],
                         "D": ["7H", "10S"]}, rng)
    script = ["AH", "10H", "3H", "7H", "AS", "QS", "2S", "10S"]
    deal = play_deal(rng, rules, 1, "D", hands=hands, choose=scripted(rng, script),
                     trump_suit="D")
    assert deal["trump"] == {"suit": "D", "by": "A", "trick": None}
    t1, t2 = deal["tricks"][:2]
    assert t1["leader"] == "A" and t1["cards"] == ["AH", "10H", "3H", "7H"]
    assert t1["winner"] == "A" and t1["capture"] is None and t1["centre_after"] == 4
    assert t1["centre_tens"] == ["10H"]
    assert t2["leader"] == "A" and t2["winner"] == "A"
    assert t2["capture"] == {"by": "A", "side": "AC", "cards": 8, "tens": ["10H", "10S"],
                             "reason": "two-in-a-row"}
    assert t2["centre_after"] == 0


def test_worked_example_partner_winning_does_not_sweep():
    """Had C won the second trick, the centre would have stayed common."""
    rng = random.Random(3)
    rules = make_rules("standard")
    # C has no spades: C trumps the second trick with a diamond
    others = [c for c in DECK if suit(c) != "S" and c not in ("AH", "10H", "3H", "7H", "2D")]
    hands = build_hands({"A": ["AH", "AS"], "B": ["10H", "QS"],
                         "C": ["3H", "2D"] + others[:11],
                         "D": ["7H", "10S"]}, rng)
    script = ["AH", "10H", "3H", "7H", "AS", "QS", "2D", "10S"]
    deal = play_deal(rng, rules, 1, "D", hands=hands, choose=scripted(rng, script),
                     trump_suit="D")
    t2 = deal["tricks"][1]
    assert t2["winner"] == "C" and t2["capture"] is None
    assert t2["centre_after"] == 8 and sorted(t2["centre_tens"]) == ["10H", "10S"]


def test_trick_winner_cases():
    assert trick_winner(["AH", "10H", "3H", "7H"], "D") == 0
    assert trick_winner(["AS", "QS", "2D", "10S"], "D") == 2       # a trump beats the ace
    assert trick_winner(["5C", "AS", "KH", "6C"], "D") == 3        # off-suit cards never win
    assert trick_winner(["5C", "2D", "3D", "6C"], "D") == 2        # over-trump
    assert trick_winner(["5C", "2D", "3D", "6C"], None) == 3       # no trump: highest of suit led
    assert trick_winner(["KS", "AS", "QS", "AS", "2S", "JS"], "H") == 1   # equal cards: first wins
    assert trick_winner(["KS", "3H", "AS", "3H", "2S", "JS"], "H") == 1


def test_centre_count_rule_by_hand():
    def run(winners, n=13):
        centre, out = Centre(), []
        for t, w in enumerate(winners, 1):
            got = centre.add([f"{t}"] * 4, w, t == n)
            out.append(None if got is None else (len(got[0]), got[1]))
        return out

    # four wins in a row: sweeps on the 2nd and the 4th, the 3rd stays in the centre
    assert run("AAAA") == [None, (8, "two-in-a-row"), None, (8, "two-in-a-row")]
    # partners alternating never sweep
    assert run("ACAC") == [None, None, None, None]
    assert run("ABAB") == [None, None, None, None]
    # last trick takes what is left; as a 2nd consecutive win it is two-in-a-row
    winners = "ABCDABCDABCDA"
    got = run(winners)
    assert got[:12] == [None] * 12 and got[12] == (52, "last-trick")
    got = run("ABCDABCDABCDD")
    assert got[11] is None and got[12] == (52, "two-in-a-row")
    got = run("ABCDABCDABCCC")
    assert got[11] == (48, "two-in-a-row") and got[12] == (4, "last-trick")


def test_closed_trump_reveal_counts_for_the_whole_trick():
    """Secret diamonds by A; C (not the setter) plays 2D void before A reveals in trick 2."""
    rng = random.Random(11)
    rules = make_rules("standard", {"trump": "closed"})
    no_hearts = [c for c in DECK if suit(c) not in "HC" and c not in ("2S", "AS", "KS", "QS", "2D")]
    hands = {
        "A": ["2S"] + [c for c in DECK if suit(c) == "C"][:12],   # no hearts: reveals in trick 2
        "B": ["AS", "AH", "2H"] + [c for c in DECK if suit(c) == "H"][1:11],
        "C": ["KS", "2D"] + no_hearts[:11],                       # no hearts either
        "D": ["QS", "3H"],
    }
    used = {c for cards in hands.values() for c in cards}
    hands["D"] += [c for c in DECK if c not in used][:11]
    assert sorted(c for h in hands.values() for c in h) == sorted(DECK)
    script = ["2S", "AS", "KS", "QS", "AH", "2D", "3H", "3C"]
    deal = play_deal(rng, rules, 1, "D", hands=hands, choose=scripted(rng, script),
                     trump_suit="D")
    t1, t2 = deal["tricks"][:2]
    assert t1["winner"] == "B"
    assert t2["cards"] == ["AH", "2D", "3H", "3C"]
    assert t2["winner"] == "C"                     # 2D is trump in the reveal trick
    assert deal["trump"] == {"suit": "D", "by": "A", "trick": 2, "closed": True}


def test_closed_trump_before_reveal_no_suit_is_trump():
    """Secret diamonds by A: D, void in spades but not the setter, plays 2D; B's AS wins."""
    rng = random.Random(5)
    rules = make_rules("standard", {"trump": "closed"})
    no_spades = [c for c in DECK if suit(c) != "S" and c != "2D"]
    rng.shuffle(no_spades)
    hands = {"D": ["2D"] + no_spades[:12]}
    rest = [c for c in DECK if c not in hands["D"] and c not in ("2S", "AS", "KS")]
    rng.shuffle(rest)
    hands["A"] = ["2S"] + rest[:12]
    hands["B"] = ["AS"] + rest[12:24]
    hands["C"] = ["KS"] + rest[24:36]
    deal = play_deal(rng, rules, 1, "D", hands=hands,
                     choose=scripted(rng, ["2S", "AS", "KS", "2D"]), trump_suit="D")
    assert deal["tricks"][0]["winner"] == "B"
    assert deal["trump"]["by"] == "A" and deal["trump"]["suit"] == "D"


def test_first_void_five_all_followed_draws_trump():
    """Identical suit shapes in the first five: every trick is followed, a card is drawn."""
    rng = random.Random(21)
    rules = make_rules("pagat", {"trump": "first-void-five"})
    spades = [c for c in DECK if suit(c) == "S"]
    hearts = [c for c in DECK if suit(c) == "H"]
    fives = {seat: spades[3 * i:3 * i + 3] + hearts[2 * i:2 * i + 2] for i, seat in enumerate("ABCD")}
    rest = [c for c in DECK if not any(c in f for f in fives.values())]
    rng.shuffle(rest)
    hands = {seat: fives[seat] + rest[8 * i:8 * i + 8] for i, seat in enumerate("ABCD")}
    deal = play_deal(rng, rules, 1, "D", hands=hands)
    info = deal["trump"]
    assert info["by"] is None and info["trick"] is None
    played5 = [c for t in deal["tricks"][:5] for c in t["cards"]]
    assert info["drawn"] in played5 and info["suit"] == suit(info["drawn"])
    for trick in deal["tricks"][:5]:
        assert len({suit(c) for c in trick["cards"]}) == 1
    for trick in deal["tricks"]:
        cards = trick["cards"]
        expect = ref_winner(cards, info["suit"] if trick["number"] > 5 else None)
        assert trick["winner"] == "ABCD"[("ABCD".index(trick["leader"]) + expect) % 4]


def test_first_void_five_sets_trump_at_once():
    rng = random.Random(2)
    rules = make_rules("pagat", {"trump": "first-void-five"})
    # A leads AS; B has no spade in the first five and plays 2H; C over-trumps with 3H
    five = {"A": ["AS", "KS", "QS", "JS", "9S"], "B": ["2H", "4H", "5H", "6H", "7H"],
            "C": ["3H", "8H", "9H", "JH", "QH"], "D": ["2S", "3S", "4S", "5S", "6S"]}
    rest = [c for c in DECK if not any(c in f for f in five.values())]
    rng.shuffle(rest)
    hands = {s: five[s] + rest[8 * i:8 * i + 8] for i, s in enumerate("ABCD")}
    deal = play_deal(rng, rules, 1, "D", hands=hands,
                     choose=scripted(rng, ["AS", "2H", "3H", "2S"]))
    assert deal["trump"] == {"suit": "H", "by": "B", "trick": 1}
    assert deal["tricks"][0]["winner"] == "C"


def test_six_player_uses_three_decks():
    _, facts = generate_match(random.Random(4), "standard", {"six-player": True}, max_deals=3)
    for deal in facts["deals"]:
        cards = Counter(c for h in deal["hands"].values() for c in h)
        assert cards == Counter(DECK * 3)
        assert all(len(h) == 26 for h in deal["hands"].values())
        assert len(deal["tricks"]) == 26
        assert sum(deal["tens"].values()) == 12
        assert set(deal["tens"]) == {"ACE", "BDF"}


def _fake_deal(dealer: str, captures: list) -> dict:
    tricks = [{"capture": {"by": s[0], "side": s, "cards": n, "tens": ["10S"] * t, "reason": "x"}}
              for s, n, t in captures]
    return {"dealer": dealer, "tricks": tricks}


def test_scoring_by_hand():
    std = make_rules("standard")
    hk = make_rules("hukum")
    two_two = _fake_deal("A", [("AC", 26, 2), ("BD", 26, 2)])
    assert judge_deal(std, two_two)[2] == "BD"           # 2-2 to the non-dealers
    assert judge_deal(std, _fake_deal("B", [("AC", 26, 2), ("BD", 26, 2)]))[2] == "AC"
    assert judge_deal(hk, two_two)[2] is None            # hukum: no result
    three = _fake_deal("A", [("AC", 10, 3), ("BD", 42, 1)])
    assert judge_deal(std, three)[2] == "AC" and judge_deal(std, three)[3] is None
    four = _fake_deal("A", [("BD", 8, 4), ("AC", 44, 0)])
    assert judge_deal(std, four)[3] == {"side": "BD", "reason": "all-tens"}
    # double-sar: points are cards + tens (a ten counts 2)
    ds = make_rules("standard", {"double-sar": True})
    d = _fake_deal("A", [("AC", 30, 1), ("BD", 22, 3)])     # AC 31, BD 25
    assert judge_deal(ds, d)[1] == {"AC": 31, "BD": 25} and judge_deal(ds, d)[2] == "AC"
    d = _fake_deal("A", [("AC", 27, 1), ("BD", 25, 3)])     # 28-28: like 2-2
    assert judge_deal(ds, d)[2] == "BD"
    assert judge_deal(make_rules("hukum", {"double-sar": True}), d)[2] is None
    d = _fake_deal("A", [("AC", 20, 4), ("BD", 32, 0)])     # all tens: a kot, despite 24-32
    assert judge_deal(ds, d)[3] == {"side": "AC", "reason": "all-tens"} and judge_deal(ds, d)[2] == "AC"
    # court-piece: tricks count, 7 of 13 wins, all 13 a kot
    cp = make_rules("standard", {"court-piece": True})
    d = _fake_deal("A", [("AC", 28, 0), ("BD", 24, 4)])     # 7 tricks to 6
    assert judge_deal(cp, d)[1] == {"AC": 7, "BD": 6} and judge_deal(cp, d)[2] == "AC"
    assert judge_deal(cp, d)[3] is None
    d = _fake_deal("A", [("BD", 52, 4)])
    assert judge_deal(cp, d)[3] == {"side": "BD", "reason": playout.ALL_TRICKS}


def test_next_dealer_by_hand():
    std, pg, hk = make_rules("standard"), make_rules("pagat"), make_rules("hukum")
    assert next_dealer(std, "A", "AC", None, None) == "B"     # dealing side won: passes
    assert next_dealer(std, "A", "BD", None, None) == "A"     # non-dealers won: same dealer
    assert next_dealer(std, "D", "BD", None, None) == "A"
    kot_ac = {"side": "AC", "reason": "all-tens"}
    kot_bd = {"side": "BD", "reason": "all-tens"}
    assert next_dealer(pg, "A", "AC", kot_ac, None) == "B"    # dealing side's kot: passes
    assert next_dealer(pg, "A", "BD", kot_bd, None) == "C"    # non-dealers' kot: dealer's partner
    assert next_dealer(pg, "B", "AC", kot_ac, None) == "D"
    assert next_dealer(pg, "A", "BD", {"side": "BD", "reason": "streak"}, None) == "A"
    assert next_dealer(hk, "A", None, None, None) == "B"      # first-deal 2-2 passes
    assert next_dealer(hk, "A", None, None, "BD") == "A"      # dealing side lost before
    assert next_dealer(hk, "A", None, None, "AC") == "B"
    assert next_dealer(hk, "A", "BD", None, "AC") == "A"
    six = make_rules("pagat", {"six-player": True})
    assert next_dealer(six, "F", "BDF", None, None) == "A"
    assert next_dealer(six, "A", "BDF", {"side": "BDF", "reason": "all-tens"}, None) == "C"


def test_rules_text_round_trip():
    text = rules_text("pagat", {"kots": 3, "trump": "first-void-five", "coat": True})
    assert text == "pagat kots=3 trump=first-void-five coat"
    assert parse_rules_text(text) == ("pagat", {"kots": 3, "trump": "first-void-five", "coat": True})
    with pytest.raises(ValueError):
        make_rules("standard", {"kots": 2})
    with pytest.raises(ValueError):
        make_rules("nope")
    with pytest.raises(ValueError):
        make_rules("hukum", {"trump": "sideways"})


# --------------------------------------------------------------------------------------
# An independent referee over generated matches


def check_deal(profile: str, options: dict, deal: dict) -> None:
    """Re-derive every fact of one generated deal from its hands and plays."""
    n = 6 if options.get("six-player") else 4
    seats = seats_of(n)
    sides = ("ACE", "BDF") if n == 6 else ("AC", "BD")
    ntricks = 52 * (3 if n == 6 else 1) // n
    nxt = {s: seats[(i + 1) % n] for i, s in enumerate(seats)}
    dealer = deal["dealer"]
    hands = deal["hands"]
    # every card of the deck(s) exactly once
    assert Counter(c for h in hands.values() for c in h) == Counter(DECK * (3 if n == 6 else 1))
    assert all(len(h) == ntricks for h in hands.values())
    assert len(deal["tricks"]) == ntricks
    method = options.get("trump", "first-void" if profile == "hukum" else "announce")
    five = method == "first-void-five"
    held = {s: Counter(hands[s][:5] if five else hands[s]) for s in seats}
    info = deal["trump"]
    if method == "announce":
        assert info["by"] == nxt[dealer] and info["trick"] is None
    if method == "partner":
        assert info["by"] == nxt[nxt[dealer]] and info["trick"] is None
    closed_void = method == "closed" and profile == "hukum"   # hukum: the first void sets it
    if method == "closed" and not closed_void:
        assert info["by"] == nxt[dealer] and info["closed"] is True
    trump = info["suit"] if method in ("announce", "partner") else None
    setter = None
    leader = nxt[dealer]
    last, centre = None, []
    captured = {s: [] for s in sides}
    prev_swept = True
    for t, trick in enumerate(deal["tricks"], 1):
        assert trick["number"] == t and trick["leader"] == leader
        cards = trick["cards"]
        assert len(cards) == n
        led = suit(cards[0])
        order = [seats[(seats.index(leader) + k) % n] for k in range(n)]
        for seat, card, gone in zip(order, cards, trick["withdrawn"]):
            assert held[seat][card] > 0, (t, seat, card)          # comes from the hand
            could = any(suit(c) == led and k for c, k in held[seat].items())
            if seat != leader and could:
                assert suit(card) == led, (t, seat, card)          # follows suit when able
            for bad in gone:                                       # withdrawn: illegal, held
                assert held[seat][bad] > 0 and could and suit(bad) != led
            if seat != leader and not could:
                if method in ("first-void", "first-void-five") and trump is None:
                    trump = suit(card)
                    assert info == {"suit": trump, "by": seat, "trick": t}
                if closed_void and trump is None:
                    if setter is None:
                        setter = seat
                        assert (info["by"], info["set_at"]) == (seat, t)
                    elif seat == setter:
                        trump = info["suit"]
                        assert info["trick"] == t
                elif method == "closed" and trump is None and seat == info["by"]:
                    trump = info["suit"]
                    assert info["trick"] == t
            held[seat][card] -= 1
        win = order[ref_winner(cards, trump)]
        assert trick["winner"] == win
        # centre and capture
        if profile == "hukum":
            assert trick["capture"] == {"by": win, "side": side(win, n), "cards": n,
                                        "tens": [c for c in cards if c.startswith("10")],
                                        "reason": "trick"}
            captured[side(win, n)] += cards
            assert trick["centre_after"] == 0
        else:
            centre += cards
            second = win == last and not prev_swept
            if second or t == ntricks:
                cap = trick["capture"]
                assert cap is not None and cap["by"] == win and cap["side"] == side(win, n)
                assert cap["cards"] == len(centre)
                assert sorted(cap["tens"]) == sorted(c for c in centre if c.startswith("10"))
                assert cap["reason"] == ("two-in-a-row" if second else "last-trick")
                captured[side(win, n)] += centre
                centre = []
            else:
                assert trick["capture"] is None
            prev_swept = second
            assert trick["centre_after"] == len(centre)
            assert sorted(trick["centre_tens"]) == sorted(c for c in centre if c.startswith("10"))
        last = win
        leader = win
        if five and t <= 5 and (trump is not None or t == 5):
            if trump is None:
                trump = info["suit"]
                assert info["drawn"] in [c for tr in deal["tricks"][:5] for c in tr["cards"]]
            for s in seats:
                held[s].update(hands[s][5:])
            five = False
    if method == "closed" and trump is None:
        assert info["trick"] is None
    assert all(sum(h.values()) == 0 for h in held.values())
    assert sum(len(v) for v in captured.values()) == 52 * (3 if n == 6 else 1)
    tens = {s: sum(c.startswith("10") for c in captured[s]) for s in sides}
    assert deal["tens"] == tens and sum(tens.values()) == (12 if n == 6 else 4)
    # the deal's result
    if options.get("court-piece"):
        score = {s: len(captured[s]) // n for s in sides}
        total, reason = ntricks, playout.ALL_TRICKS
        sweeper = [s for s in sides if score[s] == ntricks]
    else:
        score = ({s: len(captured[s]) + tens[s] for s in sides} if options.get("double-sar")
                 else dict(tens))
        total = sum(score.values())
        reason = "all-tens"
        sweeper = [s for s in sides if tens[s] == (12 if n == 6 else 4)]
    assert deal["score"] == score
    if sweeper:
        assert deal["winner"] == sweeper[0]
        assert deal["kot"] == {"side": sweeper[0], "reason": reason}
    else:
        more = [s for s in sides if 2 * score[s] > total]
        if more:
            assert deal["winner"] == more[0]
        elif profile == "hukum":
            assert deal["winner"] is None
        else:
            assert deal["winner"] != side(dealer, n)
        assert deal["kot"] is None or deal["kot"]["reason"] == "streak"


def check_match(profile: str, options: dict, facts: dict, max_deals=None) -> None:
    """The match-level facts: streaks, kots, dealers, the end and the result."""
    n = 6 if options.get("six-player") else 4
    seats = seats_of(n)
    sides = ("ACE", "BDF") if n == 6 else ("AC", "BD")
    nxt = {s: seats[(i + 1) % n] for i, s in enumerate(seats)}
    need = options.get("kots", 1)
    streak_len = None if options.get("coat") else options.get("streak", 7)
    assert facts["profile"] == profile
    kots = {s: 0 for s in sides}
    points = {s: 0 for s in sides}
    run = None
    previous = None
    deals = facts["deals"]
    for i, deal in enumerate(deals):
        check_deal(profile, options, deal)
        assert deal["number"] == i + 1
        w = deal["winner"]
        if w is not None:
            run = (w, run[1] + 1 if run and run[0] == w else 1)
            points[w] += 1
        assert deal["streak"] == ({"side": run[0], "length": run[1]} if run else None)
        kot = deal["kot"]
        if kot is None and streak_len and run and run[1] == streak_len:
            pytest.fail(f"missing streak kot in deal {i + 1}")
        if kot is not None and kot["reason"] == "streak":
            assert run == (kot["side"], streak_len)
        if kot:
            kots[kot["side"]] += 1
        ends = bool(kot and need and kots[kot["side"]] == need) or bool(
            options.get("coat") and w and points[w] == 7)
        if ends:
            assert i == len(deals) - 1 and deal["next_dealer"] is None
            assert facts["result"]["finished"] and facts["result"]["winner"] in (w, kot and kot["side"])
            break
        dealing = side(deal["dealer"], n)
        if kot and kot["reason"] != "streak" and profile == "pagat":
            expect = nxt[deal["dealer"]] if kot["side"] == dealing else nxt[nxt[deal["dealer"]]]
        elif w is None:
            lost = previous is not None and previous != dealing
            expect = deal["dealer"] if lost else nxt[deal["dealer"]]
        else:
            expect = nxt[deal["dealer"]] if w == dealing else deal["dealer"]
        assert deal["next_dealer"] == expect
        if i + 1 < len(deals):
            assert deals[i + 1]["dealer"] == expect
        previous = w
        if kot:
            run = None
    else:
        if need == 0:
            assert facts["result"]["finished"]
            a, b = kots[sides[0]], kots[sides[1]]
            assert facts["result"]["winner"] == (None if a == b else sides[0] if a > b else sides[1])
        else:
            assert max_deals is not None and len(deals) == max_deals
            assert not facts["result"]["finished"] and facts["result"]["winner"] is None
    assert facts["result"]["kots"] == kots


@pytest.mark.parametrize("profile,options", COMBOS, ids=[rules_text(p, o) for p, o in COMBOS])
def test_generated_matches_obey_the_rules(profile, options):
    for seed in range(25):
        max_deals = 8 if seed % 3 else None
        style = Style(hands=seed % 2 == 0, loose=seed % 4 == 1, withdrawn=0.1 * (seed % 3))
        _, facts = generate_match(random.Random(seed), profile, options, style,
                                  max_deals=max_deals, bias=0.3 * (seed % 4))
        check_match(profile, options, facts, max_deals)


def test_facts_shape():
    _, facts = generate_match(random.Random(0), "hukum", {"streak": 5})
    assert set(facts) >= {"profile", "options", "deals", "result"}
    assert set(facts["result"]) >= {"winner", "kots", "finished"}
    deal = facts["deals"][0]
    assert set(deal) >= {"number", "dealer", "trump", "hands", "tricks", "tens", "winner",
                         "kot", "streak", "next_dealer"}
    assert set(deal["trump"]) >= {"suit", "by", "trick"}
    assert set(deal["tricks"][0]) >= {"number", "leader", "cards", "winner", "centre_after", "capture"}
    assert facts["options"] == {"streak": 5}


# --------------------------------------------------------------------------------------
# Kots over seeds, sessions, reproducibility


def test_streak_and_all_tens_kots_both_occur_with_bias():
    reasons = Counter()
    lengths = set()
    for seed in range(400):
        _, facts = generate_match(random.Random(seed), "hukum", None, bias=0.6, max_deals=30)
        kot = facts["deals"][-1]["kot"]
        if kot:
            reasons[kot["reason"]] += 1
            if kot["reason"] == "streak":
                lengths.add(facts["deals"][-1]["streak"]["length"])
        if reasons["streak"] >= 2 and reasons["all-tens"] >= 2:
            break
    assert reasons["streak"] >= 2 and reasons["all-tens"] >= 2
    assert lengths == {7}
    found = Counter()
    for seed in range(400):
        _, facts = generate_match(random.Random(seed), "standard", None, bias=0.8, max_deals=40)
        found[facts["deals"][-1]["kot"]["reason"]] += 1
        if found["streak"] and found["all-tens"]:
            break
    assert found["streak"] and found["all-tens"]


def test_bias_favours_its_side():
    wins = Counter()
    for seed in range(60):
        _, facts = generate_match(random.Random(seed), "pagat", {"kots": 0}, bias=0.9,
                                  max_deals=5, bias_side="BD")
        wins.update(d["winner"] for d in facts["deals"])
    assert wins["BD"] > 2 * wins["AC"]


def test_pagat_sessions():
    for seed in range(20):
        _, facts = generate_match(random.Random(seed), "pagat", {"kots": 3})
        assert max(facts["result"]["kots"].values()) == 3
        assert facts["result"]["winner"] == max(facts["result"]["kots"], key=facts["result"]["kots"].get)
        text, facts = generate_match(random.Random(seed), "pagat", {"kots": 0}, max_deals=6)
        assert len(facts["deals"]) == 6 and facts["result"]["finished"]
        kots = facts["result"]["kots"]
        want = "=" if kots["AC"] == kots["BD"] else facts["result"]["winner"]
        assert f'[Result "{want}"]' in text


def test_unfinished_match_writes_star():
    for seed in range(50):
        text, facts = generate_match(random.Random(seed), "hukum", None, max_deals=1)
        if facts["deals"][0]["kot"] is None:
            assert '[Result "*"]' in text and not facts["result"]["finished"]
            break
    else:
        pytest.fail("no unfinished one-deal hukum match")


def test_corpus_is_reproducible():
    a = list(generate_corpus(5, 60))
    b = list(generate_corpus(5, 60))
    c = list(generate_corpus(6, 60))
    assert a == b and a != c
    assert all(text.endswith("\n\n") and not text.endswith("\n\n\n") for text in a)
    deals = sum(len(re.findall(r"^deal\b", t, re.M)) for t in a)
    assert 60 <= deals < 60 + 20


def test_style_does_not_change_the_play():
    facts = []
    for style in (Style(), Style(hands=True, loose=True, leaders=False, withdrawn=0.5)):
        _, f = generate_match(random.Random(9), "pagat", {"kots": 2}, style)
        for deal in f["deals"]:
            for trick in deal["tricks"]:
                trick.pop("withdrawn")
        facts.append(f)
    assert facts[0] == facts[1]


# --------------------------------------------------------------------------------------
# The text agrees with the facts (a small tolerant reader, independent of the parser)


def read_dpn(text: str) -> tuple[dict, list]:
    """Tags and deals of one generated game: a minimal reader for these tests."""
    tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, re.M))
    body = re.sub(r'^\[.*\]$', "", text, flags=re.M)
    body = re.sub(r"\{[^}]*\}", " ", body)
    toks = body.split()
    deals, i = [], 0

    def card(tok):
        tok = tok.rstrip("!?")
        got = CARD_SPELLINGS.get(tok)
        assert got, tok
        return got

    while i < len(toks):
        assert toks[i] == "deal", toks[i:i + 5]
        i += 1
        deal = {"number": None, "dealer": None, "hands": None, "trump": None, "tricks": [],
                "tens": None}
        # ``deal 1 AH ...`` (no number, no dealer, no trump line): the 1 is a trick number
        after = toks[i + 1] if i + 1 < len(toks) else ""
        trick_next = after.endswith(":") or after.startswith("-") or after.rstrip("!?") in CARD_SPELLINGS
        if toks[i].isdigit() and not trick_next:
            deal["number"] = int(toks[i])
            i += 1
        if i < len(toks) and toks[i] == "dealer":
            deal["dealer"] = toks[i + 1]
            i += 2
        if i < len(toks) and toks[i] == "hands":
            i += 1
            deal["hands"] = {}
            while i < len(toks) and toks[i].endswith(":") and not toks[i][:-1].isdigit():
                seat = toks[i][:-1]
                i += 1
                cards, split = [], None
                while i < len(toks) and (toks[i] == "|" or toks[i] in CARD_SPELLINGS):
                    if toks[i] == "|":
                        split = len(cards)
                    else:
                        cards.append(card(toks[i]))
                    i += 1
                deal["hands"][seat] = (cards, split)
        if i < len(toks) and toks[i] == "trump":
            words = []
            i += 1
            while i < len(toks) and not toks[i].isdigit() or (words and words[-1] == "at"):
                words.append(toks[i])
                i += 1
            deal["trump"] = words
        while i < len(toks) and toks[i].isdigit():
            trick = {"number": int(toks[i]), "leader": None, "cards": [], "withdrawn": []}
            i += 1
            if toks[i].endswith(":"):
                trick["leader"] = toks[i][:-1]
                i += 1
            while i < len(toks) and not toks[i].isdigit() and toks[i] not in ("tens", "deal"):
                if toks[i].startswith("-"):
                    trick["withdrawn"].append(card(toks[i][1:]))
                else:
                    trick["cards"].append(card(toks[i]))
                i += 1
            deal["tricks"].append(trick)
        if i < len(toks) and toks[i] == "tens":
            deal["tens"] = {toks[i + 1]: int(toks[i + 2]), toks[i + 3]: int(toks[i + 4])}
            i += 5
        deals.append(deal)
    return tags, deals


SUIT_WORDS = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}


@pytest.mark.parametrize("style", [
    Style(),
    Style(hands=True),
    Style(hands=True, loose=True, withdrawn=0.3),
    Style(leaders=False, tens=False, result=False, loose=True),
], ids=["plain", "hands", "loose", "bare"])
@pytest.mark.parametrize("profile,options", [
    ("standard", {}), ("pagat", {"kots": 2, "trump": "first-void-five"}),
    ("hukum", {"trump": "closed"}), ("hukum", {}), ("standard", {"six-player": True}),
])
def test_text_agrees_with_facts(style, profile, options):
    for seed in range(6):
        text, facts = generate_match(random.Random(seed), profile, options, style, max_deals=6)
        tags, deals = read_dpn(text)
        assert tags["Rules"] == facts["rules"]
        if style.result:
            r = facts["result"]
            assert tags["Result"] == (r["winner"] or ("=" if r["finished"] else "*"))
        else:
            assert "Result" not in tags
        assert len(deals) == len(facts["deals"])
        for written, deal in zip(deals, facts["deals"]):
            assert written["number"] in (None, deal["number"])
            assert written["dealer"] in (None, deal["dealer"])
            if deal["number"] == 1 or not style.loose:
                assert written["dealer"] == deal["dealer"]
            if not style.loose:
                assert written["number"] == deal["number"]
            if style.hands:
                for seat, cards in deal["hands"].items():
                    got, split = written["hands"][seat]
                    # the dealt order (first five first) where it says something (a split, or the
                    # loose style's hand-written look), else by suit, as the canonical layout
                    assert got == (cards if split or style.loose else sorted(cards, key=sort_key))
                    assert split == deal.get("split")
            else:
                assert written["hands"] is None
            info = deal["trump"]
            words = written["trump"]
            if words is not None:
                if "drawn" in info:
                    assert words == ["drawn", info["drawn"]] or CARD_SPELLINGS[words[1]] == info["drawn"]
                else:
                    assert SUIT_WORDS[words[0]] == info["suit"]
                    if "by" in words:
                        assert words[words.index("by") + 1] == info["by"]
                    if "at" in words:
                        assert int(words[words.index("at") + 1]) == info["trick"]
                    assert ("closed" in words) == bool(info.get("closed"))
            else:
                assert style.loose or info["suit"] is None
            assert [t["number"] for t in written["tricks"]] == [t["number"] for t in deal["tricks"]]
            for wt, ft in zip(written["tricks"], deal["tricks"]):
                assert wt["cards"] == ft["cards"]
                assert wt["leader"] == (ft["leader"] if style.leaders else None)
                assert wt["withdrawn"] == [c for g in ft["withdrawn"] for c in g]
            assert written["tens"] == (deal["tens"] if style.tens else None)


def test_loose_text_looks_hand_written():
    text = "".join(generate_corpus(3, 40, style=Style(loose=True, hands=True, withdrawn=0.2)))
    assert re.search(r"\b(10|[2-9akqjt])[shdc]\b", text)       # lowercase cards
    assert re.search(r"\b[Tt][SHDCshdc♠♥♦♣]", text)            # T for ten
    assert any(sym in text for sym in "♠♥♦♣")
    assert "{" in text and re.search(r"[SHDCshdc♠♥♦♣][!?]", text)
    assert re.search(r"^deal\s*$", text, re.M) or re.search(r"^deal \d+\s*$", text, re.M)
    assert re.search(r" -\S+ ", text)
    assert re.search(r"^\s*\d+ [A-D]: (\S+ ){4}.*\d+ [A-D]:", text, re.M)   # tricks share a line


def test_the_rare_cases_are_reached():
    """The referee above only proves what the seeds exercise: make sure the cases occur."""
    seen = Counter()
    for seed in range(150):
        rng = random.Random(seed)
        _, f = generate_match(rng, "hukum", None, Style(withdrawn=0.2), max_deals=10, bias=0.3)
        for i, d in enumerate(f["deals"]):
            if d["winner"] is None:
                seen["hukum level"] += 1
                if i and f["deals"][i - 1]["winner"] not in (None, d["dealer"] in "AC" and "AC" or "BD"):
                    seen["hukum level after a lost deal"] += 1
            if any(any(g) for t in d["tricks"] for g in t["withdrawn"]):
                seen["withdrawn"] += 1
        _, f = generate_match(rng, "pagat", {"kots": 4}, bias=0.3 * (seed % 3))
        for d in f["deals"]:
            if d["kot"] and d["kot"]["side"] != ("AC" if d["dealer"] in "AC" else "BD"):
                seen["pagat kot by non-dealers"] += 1
            if d["kot"] and d["kot"]["reason"] == "streak":
                seen["pagat streak kot"] += 1
        _, f = generate_match(rng, "hukum", {"coat": True})
        if f["deals"][-1]["kot"] is None:
            seen["coat ended by points"] += 1
        _, f = generate_match(rng, "hukum", {"trump": "closed"}, max_deals=3)
        for d in f["deals"]:
            seen["closed revealed" if d["trump"]["trick"] else "closed never revealed"] += 1
        _, f = generate_match(rng, "pagat", {"trump": "first-void-five", "kots": 0}, max_deals=3)
        for d in f["deals"]:
            if d["trump"]["trick"] and d["trump"]["trick"] > 1:
                seen["first-void-five set after trick 1"] += 1
    for case in ("hukum level", "hukum level after a lost deal", "withdrawn",
                 "pagat kot by non-dealers", "pagat streak kot", "coat ended by points",
                 "closed revealed", "closed never revealed", "first-void-five set after trick 1"):
        assert seen[case], case


# --------------------------------------------------------------------------------------
# dehlanote generate: the oracle as a command


def _generate(*args: str) -> str:
    from typer.testing import CliRunner

    from dehlanote.cli import app
    result = CliRunner().invoke(app, ["generate", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("profile,options", COMBOS, ids=[rules_text(p, o) for p, o in COMBOS])
def test_generate_writes_legal_dpn_for_every_profile(profile, options):
    from dehlanote.replay import replay_game
    from dehlanote.syntax import parse_string
    label = rules_text(profile, options)
    for seed, extra in ((1, ()), (2, ("--hands", "--style", "loose"))):
        text = _generate("--rules", label, "--games", "3", "--seed", str(seed), *extra)
        games = parse_string(text)
        assert len(games) == 3
        for game in games:
            facts = replay_game(game)
            assert facts.errors == (), [str(e) for e in facts.errors[:3]]
            assert sorted(facts.rules.label().split()) == sorted(label.split())
            # played to its end, or stopped (Result "*") after the command's limit of deals
            from dehlanote.commands.generate import MAX_DEALS
            assert facts.result.finished or len(facts.deals) == MAX_DEALS


def test_generate_is_deterministic_for_a_seed_and_checks_its_rules(tmp_path):
    from typer.testing import CliRunner

    from dehlanote.cli import app
    first = _generate("--rules", "Pagat Kots=3", "--games", "2", "--seed", "9", "--hands")
    assert first == _generate("--rules", "pagat kots=3", "--games", "2", "--seed", "9", "--hands")
    assert first != _generate("--rules", "pagat kots=3", "--games", "2", "--seed", "10", "--hands")
    assert first.count("[Event ") == 2 and "hands A:" in first
    out = tmp_path / "g.dpn"
    _generate("--rules", "hukum", "--seed", "3", "-o", str(out))
    assert out.read_text(encoding="utf-8") == _generate("--rules", "hukum", "--seed", "3")
    bad = CliRunner().invoke(app, ["generate", "--rules", "standard coat streak=3"])
    assert bad.exit_code == 2 and "coat" in bad.output and "streak" in bad.output
    bad = CliRunner().invoke(app, ["generate", "--rules", "bridge"])
    assert bad.exit_code == 2 and "bridge" in bad.output
