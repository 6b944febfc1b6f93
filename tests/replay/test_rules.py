"""Rules tests for the standard profile, named after RULES.md's numbered rules.

Each table row is a small record (unfinished, ``Result "*"``, so it may stop early) and
the facts the rule says must follow: trick winners, what lies in the centre, captures.
Whole-deal rules (scoring, streaks, dealers) are checked on generated matches, against
the rule text itself rather than against another implementation.
"""

from __future__ import annotations

import random

import pytest

from dehlanote.oracle.playout import generate_match
from dehlanote.replay import replay_game
from dehlanote.syntax import parse_string

HEAD = '[Event "rules test"]\n[Result "*"]\n\ndeal 1 dealer D\ntrump D by A\n'


def replay(body: str, head: str = HEAD):
    games = parse_string(head + body)
    assert len(games) == 1
    return replay_game(games[0])


def tricks_of(facts):
    return [
        (t.winner, t.centre_cards,
         None if t.capture is None
         else (t.capture.by, t.capture.cards, tuple(sorted(t.capture.tens)), t.capture.reason))
        for t in facts.deals[0].tricks
    ]


# ---- rule 3: play -------------------------------------------------------------------------

RULE3 = [
    ("highest card of the suit led wins", " 1 A: 2H KH 3H 4H\n", "B"),
    ("a trump beats the suit led", " 1 A: AH 2D 3H 4H\n", "B"),
    ("the highest trump wins", " 1 A: AH 2D 3D 4H\n", "C"),
    ("an off-suit card that is not trump never wins", " 1 A: 2H AS 3H 4C\n", "C"),
    ("no duty to trump or to beat: a discard is legal", " 1 A: AH 2S 3H 4H\n", "A"),
]


@pytest.mark.parametrize("name,body,winner", RULE3, ids=[r[0] for r in RULE3])
def test_rule_3_play(name, body, winner):
    facts = replay(body)
    assert facts.errors == ()
    assert facts.deals[0].tricks[0].winner == winner


def test_rule_3_follow_suit_is_checked_from_later_play():
    # B discards a spade on a heart lead, then plays a heart in trick 2: a revoke at 2S
    facts = replay(" 1 A: AH 2S 3H 4H\n 2 A: KH 5H 6H 7H\n")
    assert [(e.code, e.line, e.column) for e in facts.errors] == [("revoke", 6, 10)]


def test_rule_3_follow_suit_with_hands_written():
    hands = ("hands A: AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S\n"
             "      B: AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H\n"
             "      C: AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D\n"
             "      D: AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C\n")
    head = '[Result "*"]\ndeal 1 dealer D\n' + hands + "trump D by A\n"
    ok = replay(" 1 A: AS AH AD AC\n", head)
    assert ok.errors == () and ok.deals[0].tricks[0].winner == "C"
    bad = replay(" 1 A: AS AH AD 2H\n", head)
    assert [(e.code, e.line, e.column) for e in bad.errors] == [("not-in-hand", 8, 16)]


# ---- rule 4: the centre -------------------------------------------------------------------

RULE4 = [
    ("two in a row by the same player sweeps the whole centre (seeds' worked example)",
     " 1 A: AH 10H 3H 7H\n 2 A: AS QS 2S 10S\n",
     [("A", 4, None), ("A", 0, ("A", 8, ("10H", "10S"), "two-in-a-row"))]),
    ("partners winning in turn do not combine",
     " 1 A: AH 10H 3H 7H\n 2 A: 2S QS AS 10S\n",
     [("A", 4, None), ("C", 8, None)]),
    ("a sweep restarts the count: the third win stays, the fourth sweeps",
     " 1 A: AH 2H 3H 4H\n 2 A: KH 5H 6H 7H\n 3 A: QH 8H 9H 10H\n 4 A: AS 2S 3S 4S\n",
     [("A", 4, None), ("A", 0, ("A", 8, (), "two-in-a-row")), ("A", 4, None),
      ("A", 0, ("A", 8, ("10H",), "two-in-a-row"))]),
    ("another player's win in between restarts the count",
     " 1 A: AH 2H 3H 4H\n 2 A: 5H KH 6H 7H\n 3 B: 10H 8H AS 9H\n",
     [("A", 4, None), ("B", 8, None), ("B", 0, ("B", 12, ("10H",), "two-in-a-row"))]),
    ("a lone trick holding a ten does not make the ten yours",
     " 1 A: AH 10H 3H 7H\n 2 A: 2S AS 3S 4S\n 3 B: KS 10S 5S 6S\n",
     [("A", 4, None), ("B", 8, None), ("B", 0, ("B", 12, ("10H", "10S"), "two-in-a-row"))]),
]


@pytest.mark.parametrize("name,body,expected", RULE4, ids=[r[0] for r in RULE4])
def test_rule_4_centre(name, body, expected):
    facts = replay(body)
    assert facts.errors == ()
    assert tricks_of(facts) == expected


# ---- whole deals and matches, on generated records ---------------------------------------

def _matches(count: int, **kw):
    rng = random.Random(20261129)
    for _ in range(count):
        text, _facts = generate_match(rng, "standard", None, max_deals=40, **kw)
        facts = replay_game(parse_string(text)[0])
        assert facts.errors == (), [str(e) for e in facts.errors]
        yield facts


def test_rule_4_last_trick_takes_what_is_left_and_every_card_is_captured():
    for facts in _matches(20):
        for deal in facts.deals:
            last = deal.tricks[-1]
            assert last.centre_cards == 0 and last.capture is not None
            if last.capture.reason == "last-trick":
                assert deal.tricks[-2].winner != last.winner or deal.tricks[-2].capture is not None
            moved = sum(t.capture.cards for t in deal.tricks if t.capture)
            assert moved == 52
            assert sum(deal.tens.values()) == 4


def test_rule_5_scoring():
    seen = set()
    for facts in _matches(30):
        for deal in facts.deals:
            dealing = "AC" if deal.dealer in "AC" else "BD"
            other = "BD" if dealing == "AC" else "AC"
            split = deal.tens[dealing], deal.tens[other]
            if 4 in split:
                assert deal.kot is not None and deal.kot.reason == "all-tens"
                assert deal.winner == (dealing if split[0] == 4 else other)
                seen.add("kot")
            elif 3 in split:
                assert deal.winner == (dealing if split[0] == 3 else other)
                seen.add("3-1")
            else:
                assert split == (2, 2) and deal.winner == other  # the dealing side needs 3
                seen.add("2-2")
    assert seen == {"kot", "3-1", "2-2"}


def test_rule_6_seven_straight_deal_wins_are_a_kot():
    streak_kots = 0
    for facts in _matches(40, bias=0.5):
        run = None
        for deal in facts.deals:
            run = (deal.winner, run[1] + 1) if run and run[0] == deal.winner else (deal.winner, 1)
            assert (deal.streak.side, deal.streak.length) == run
            if deal.kot is not None and deal.kot.reason == "streak":
                assert run[1] == 7
                streak_kots += 1
    assert streak_kots > 0


def test_rule_7_next_dealer_and_rule_8_one_kot_ends_the_match():
    for facts in _matches(30):
        deals = facts.deals
        for deal, following in zip(deals, deals[1:]):
            dealing = "AC" if deal.dealer in "AC" else "BD"
            right = "ABCD"[("ABCD".index(deal.dealer) + 1) % 4]
            assert deal.next_dealer == (right if deal.winner == dealing else deal.dealer)
            assert following.dealer == deal.next_dealer
            assert deal.kot is None
        assert deals[-1].kot is not None and deals[-1].next_dealer is None
        assert facts.result.finished and facts.result.winner == deals[-1].kot.side


# ---- rule 9: irregularities ---------------------------------------------------------------

def test_rule_9_misdeal_does_not_count_as_a_deal():
    facts = replay(" 1 A: AH 2H 3H 4H\n", '[Result "*"]\ndeal 1 dealer D\nmisdeal\nmisdeal\ntrump D by A\n')
    assert facts.errors == () and facts.deals[0].number == 1 and facts.deals[0].misdeals == 2


def test_rule_9_a_corrected_illegal_card_is_accepted():
    # B first put down 2S on a heart lead while holding hearts, took it back, played 3H
    facts = replay(" 1 A: AH -2S 3H 4H 5H\n 2 A: KH 6H 7H 8H\n 3 A: 2S QS 9H 10S\n")
    assert facts.errors == ()
    assert facts.deals[0].tricks[0].plays[1].card == "3H"


def test_rule_9_withdrawing_a_legal_card_is_needless():
    facts = replay(" 1 A: AH -3H 2H 4H 5H\n 2 A: KH 3H 6H 7H\n")
    assert [(e.code, e.line, e.column) for e in facts.errors] == [("needless-correction", 6, 10)]


# ---- issue 10, defect 1: an unknown deal never produces invented facts ---------------------

def won_deal(number: int, dealer: str, side: str, profile: str = "standard", *, seed: int = 0,
             level: bool = False, options: dict | None = None, write_dealer: bool = True) -> str:
    """A complete deal's DPN text, played by the independent generator, that ``side`` wins
    without a kot (``level``: a 2-2 split instead)."""
    from dehlanote.oracle import playout
    rules = playout.make_rules(profile, options or {})
    rng = random.Random(seed * 1000 + number)
    while True:
        choose = playout.random_chooser(rng, rules, 0.0 if level else 0.5, side)
        deal = playout.play_deal(rng, rules, number, dealer, choose=choose)
        tens, _score, winner, kot = playout.judge_deal(rules, deal)
        if kot is not None:
            continue
        if (level and sorted(tens.values()) == [2, 2]) or (not level and winner == side
                                                           and max(tens.values()) == 3):
            break
    lines = [f"deal {number}" + (f" dealer {dealer}" if write_dealer else "")]
    info = deal["trump"]
    if info["suit"] is not None and not info.get("trick"):
        lines.append(f"trump {info['suit']} by {info['by']}")
    for t in deal["tricks"]:
        lines.append(f"{t['number']:>2} {t['leader']}: " + " ".join(t["cards"]))
    return "\n".join(lines) + "\n\n"


def unknown_match(rules: str, result: str, deals: list[str]) -> str:
    return f'[Event "unknown"]\n[Rules "{rules}"]\n[Result "{result}"]\n\n' + "".join(deals)


def codes(facts) -> list[str]:
    return [e.code for e in facts.errors]


def test_defect_1_unknown_deal_invents_no_winner_streak_dealer_or_kot():
    # deal 1 won by AC, deal 2 empty, deals 3-5 won by AC: only deal 5 can be a kot for certain
    text = unknown_match("standard streak=3", "AC", [
        won_deal(1, "D", "AC"), "deal 2 dealer D\n\n",
        won_deal(3, "B", "AC"),               # any written dealer is taken as given after it
        won_deal(4, "B", "AC"), won_deal(5, "B", "AC")])
    facts = replay_game(parse_string(text)[0])
    assert codes(facts) == ["missing-trump", "incomplete-deal"]
    d = facts.deals
    assert (d[1].winner, d[1].streak, d[1].next_dealer, d[1].complete) == (None, None, None, False)
    assert d[2].dealer == "B"
    assert [(x.streak.side, x.streak.length) for x in d[2:]] == [("AC", 1), ("AC", 2), ("AC", 3)]
    assert [x.kot for x in d[2:4]] == [None, None]
    assert d[4].kot is not None and (d[4].kot.side, d[4].kot.reason) == ("AC", "streak")
    assert facts.result.finished and facts.result.winner == "AC"


def test_defect_1_no_after_match_after_an_uncertain_end():
    # today's replay saw a kot at deal 4 and reported deal 5 as after-match
    text = unknown_match("standard streak=3", "*", [
        won_deal(1, "D", "AC"), "deal 2 dealer D\n 1 A: AH 2H 3H\n\n",
        won_deal(3, "B", "AC"), won_deal(4, "B", "AC")])
    facts = replay_game(parse_string(text)[0])
    assert "after-match" not in codes(facts) and "result-mismatch" not in codes(facts)
    assert codes(facts) == ["missing-trump", "trick-size"]
    # the match may have ended at deal 3 or 4 (had AC won deal 2): its end is unknown
    assert facts.result.finished is None and facts.result.winner is None
    assert [x.kot for x in facts.deals] == [None] * 4


def test_defect_1_an_unfinished_last_deal_has_no_streak_and_no_next_dealer():
    facts = replay(" 1 A: AH 2H 3H 4H\n")
    deal = facts.deals[0]
    assert (deal.winner, deal.streak, deal.next_dealer) == (None, None, None)
    assert facts.result.finished is False


def test_defect_1_hukum_two_two_after_an_unknown_deal_leaves_the_next_dealer_unknown():
    # deal 2 is level: the same dealer deals again only if the dealing side lost deal 1,
    # which nobody can tell; deal 3's written dealer is then taken as given, either seat
    for third in ("A", "B"):
        text = unknown_match("hukum", "*", [
            "deal 1 dealer D\n 1 A: AH 2H 3H\n\n", won_deal(2, "D", "AC", "hukum", level=True),
            won_deal(3, third, "AC", "hukum")])
        facts = replay_game(parse_string(text)[0])
        assert codes(facts) == ["trick-size"], [str(e) for e in facts.errors]
        assert facts.deals[1].winner is None and facts.deals[1].complete
        assert facts.deals[1].next_dealer is None and facts.deals[1].streak is None
        assert facts.deals[2].dealer == third


def test_defect_1_hukum_two_two_rule_still_applies_after_a_known_deal():
    text = unknown_match("hukum", "*", [won_deal(1, "D", "AC", "hukum"),
                                        won_deal(2, "D", "AC", "hukum", level=True)])
    facts = replay_game(parse_string(text)[0])
    assert facts.errors == ()
    assert facts.deals[1].next_dealer == "D"   # the dealing side BD lost deal 1


def test_defect_1_coat_points_after_an_unknown_deal_are_unknown():
    text = unknown_match("standard coat", "*", [
        won_deal(1, "D", "AC"), "deal 2 dealer D\n\n", won_deal(3, "D", "AC")])
    facts = replay_game(parse_string(text)[0])
    assert codes(facts) == ["missing-trump", "incomplete-deal"]
    assert facts.result.points is None and facts.result.finished is None


def test_defect_1_a_deal_after_a_certain_end_is_after_match():
    text = unknown_match("standard streak=3", "AC", [
        won_deal(1, "D", "AC"), "deal 2 dealer D\n\n", won_deal(3, "B", "AC"), won_deal(4, "B", "AC"),
        won_deal(5, "B", "AC"), won_deal(6, "B", "AC")])
    facts = replay_game(parse_string(text)[0])
    assert codes(facts) == ["missing-trump", "incomplete-deal", "after-match"]


def test_defect_1_pagat_a_run_counted_afresh_makes_no_kot_in_a_session_of_several():
    # an unseen kot in deal 2 would have restarted the run: no kot is certain at deal 5
    text = unknown_match("pagat kots=3 streak=3", "*", [
        won_deal(1, "D", "AC", "pagat"), "deal 2 dealer D\n\n", won_deal(3, "B", "AC", "pagat"),
        won_deal(4, "B", "AC", "pagat"), won_deal(5, "B", "AC", "pagat"), won_deal(6, "B", "BD", "pagat"),
        won_deal(7, "C", "BD", "pagat"), won_deal(8, "C", "BD", "pagat")])
    facts = replay_game(parse_string(text)[0])
    assert codes(facts) == ["missing-trump", "incomplete-deal"]
    assert [x.kot for x in facts.deals[2:5]] == [None] * 3
    # BD's run starts after a known AC win: exact, so its third win is a kot
    assert facts.deals[7].kot is not None and facts.deals[7].kot.side == "BD"


def test_defect_1_unknown_facts_are_null_in_json_and_unknown_in_text():
    import jsonschema

    from dehlanote.output import jsonout
    from dehlanote.output.notes import deal_result_text
    text = unknown_match("standard coat", "*", [
        won_deal(1, "D", "AC"), "deal 2 dealer D\ntrump S by A\n 1 A: AH 2H 3H 4H\n\n", won_deal(3, "D", "AC")])
    facts = replay_game(parse_string(text)[0])
    doc = {"format": "dpn-json/1", "games": [jsonout.game_json(facts)]}
    jsonschema.validate(doc, jsonout.schema())
    deal = doc["games"][0]["deals"][1]
    assert (deal["winner"], deal["streak"], deal["next_dealer"], deal["complete"]) == (None, None, None, False)
    assert doc["games"][0]["result"]["finished"] is None and doc["games"][0]["result"]["points"] is None
    lines = deal_result_text(facts.deals[1], facts.rules, facts)
    assert lines[1:] == ["streak: unknown", "next dealer: unknown"] and "winner unknown" in lines[0]


# ---- DPN 1.1: claims ------------------------------------------------------------------------------

CLAIM_PLAY = (" 1 A: AH 10H 3H 7H\n"       # A wins, centre 4 cards with 10H
              " 2 A: AS QS 2S 10S\n"       # A again: sweeps 8 cards, 10H 10S to AC
              " 3 A: 4S 5S 7S 9S\n")       # D wins: centre 4 cards


def test_claim_takes_every_remaining_trick_the_centre_and_the_cards_in_hand():
    facts = replay(CLAIM_PLAY + "claim B\n", '[Event "claim"]\n[Result "*"]\n\ndeal 1 dealer D\ntrump D by A\n')
    assert facts.errors == ()
    deal = facts.deals[0]
    assert deal.complete and len(deal.tricks) == 3
    claim = deal.claim
    assert (claim.by, claim.side, claim.trick, claim.cards, claim.sound) == ("B", "BD", 4, 4 + 40, None)
    assert sorted(claim.tens) == ["10C", "10D"]
    assert deal.tens == {"AC": 2, "BD": 2} and deal.winner == "AC"     # 2-2: the non-dealers
    assert deal.next_dealer == "D"


def test_claim_makes_the_deal_complete_and_its_tens_claim_is_checked():
    head = '[Event "claim"]\n[Result "*"]\n\ndeal 1 dealer D\ntrump D by A\n'
    facts = replay(CLAIM_PLAY + "claim A\ntens AC 4 BD 0\n", head.replace('"*"', '"AC"'))
    assert facts.errors == () and facts.deals[0].kot.reason == "all-tens"
    facts = replay(CLAIM_PLAY + "claim A\ntens AC 3 BD 1\n", head.replace('"*"', '"AC"'))
    assert [e.code for e in facts.errors] == ["tens-mismatch"]
    # without the claim the deal stops after trick 3 (an unfinished record may)
    facts = replay(CLAIM_PLAY, head)
    assert not facts.deals[0].complete and facts.deals[0].claim is None


def test_claim_under_immediate_capture_and_in_json():
    import jsonschema

    from dehlanote.output import jsonout
    from dehlanote.syntax import write_game
    text = '[Rules "hukum"]\n[Result "AC"]\n\ndeal 1 dealer D\n 1 A: AH 10H 3H 7H\nclaim C {the rest is ours}\n'
    facts = replay_game(parse_string(text)[0])
    assert facts.errors == ()
    deal = facts.deals[0]
    assert deal.tens == {"AC": 4, "BD": 0} and deal.kot is not None     # A took 10H; C claims the rest
    doc = {"format": "dpn-json/1", "games": [jsonout.game_json(facts)]}
    jsonschema.validate(doc, jsonout.schema())
    claim = doc["games"][0]["deals"][0]["claim"]
    assert {k: claim[k] for k in ("by", "line", "column", "sound")} == {"by": "C", "line": 6, "column": 1,
                                                                          "sound": None}
    back = write_game(jsonout.game_from_json(doc["games"][0]))
    assert "claim C {the rest is ours}" in back
    assert replay_game(parse_string(back)[0]).deals[0].claim.by == "C"


# ---- issue 11 item 3: outputs read engine facts; streaming -----------------------------------------

def test_the_engine_names_the_card_that_set_or_revealed_trump():
    from dehlanote.output.stepper import snapshots
    text = '[Rules "hukum trump=closed"]\n[Result "*"]\n\ndeal 1 dealer D\ntrump D by B at 3 closed\n' \
           ' 1 A: AH 2H 3H 4H\n 2 A: 7H 2C QH 6H\n 3 C: AS 5C 4C 3D\n'
    facts = replay_game(parse_string(text)[0])
    tf = facts.deals[0].trump
    assert (tf.set_at, tf.set_play, tf.trick, tf.play) == (2, 1, 3, 3)    # B's 2C, then B's 3D
    snaps = snapshots(facts.deals[0], facts.rules)
    # the trump is shown from the revealing card on, not before
    assert [s.trump for s in snaps[9:13]] == [None, None, None, "D"]
    facts = replay_game(parse_string('[Rules "hukum"]\n[Result "*"]\n\ndeal 1 dealer D\n'
                                     ' 1 A: AH 2H 3H 4H\n 2 A: 7H 2C QH 6H\n')[0])
    assert (facts.deals[0].trump.trick, facts.deals[0].trump.play) == (2, 1)


def test_iter_replay_streams_each_deal_then_the_games_facts():
    from dehlanote.replay import DealFact, GameFacts, iter_replay
    text, _ = generate_match(random.Random(4), "standard", None, max_deals=40)
    game = parse_string(text)[0]
    replay_ = iter_replay(game)
    assert replay_.rules is not None and replay_.rules.name == "standard"
    items = list(replay_)
    assert all(isinstance(i, DealFact) for i in items[:-1]) and isinstance(items[-1], GameFacts)
    whole = replay_game(game)
    assert items[-1].deals == () and items[-1].result == whole.result and items[-1].errors == whole.errors
    assert tuple(items[:-1]) == whole.deals
    bad = iter_replay(parse_string('[Rules "bridge"]\n\ndeal 1 dealer D\n')[0])
    assert bad.rules is None and [e.code for e in list(bad)[-1].errors] == ["unknown-rules"]


def test_play_tricks_rebuilds_every_field_of_the_deal_state_in_place():
    # play_tricks rebuilds DealState from a bare tuple (speed): no field may move
    from dehlanote.replay.engine import DealState, play_tricks, start_deal, start_match
    from dehlanote.rules.profile import registry
    for label in ("standard", "hukum trump=closed", "pagat trump=first-void-five kots=2"):
        text, _ = generate_match(random.Random(8), label.split()[0],
                                 dict(w.split("=") for w in label.split()[1:]) or None, max_deals=1)
        deal = parse_string(text)[0].deals[0]
        state, _errors = start_deal(start_match(registry().resolve(label)), deal)
        for k in (0, 3, 13):
            state = play_tricks(state, deal.tricks[:k]) if k == 0 else state
            again = play_tricks(state, ())
            assert isinstance(again, DealState) and again == state
            state = play_tricks(state, deal.tricks[state.tricks_done:k])
            assert state.tricks_done == k and state.deal is deal and state.rules == registry().resolve(label)


def test_annotate_tells_the_secret_choice_and_the_reveal_of_hukum_closed_trump():
    from dehlanote.output.notes import trick_notes
    from dehlanote.output.stepper import snapshots
    text = '[Rules "hukum trump=closed"]\n[Result "*"]\n\ndeal 1 dealer D\ntrump D by B at 3 closed\n' \
           ' 1 A: AH 2H 3H 4H\n 2 A: 7H 2C QH 6H\n 3 C: AS 5C 4C 3D\n'
    facts = replay_game(parse_string(text)[0])
    events = [n.trump_event for n in trick_notes(facts.deals[0], facts.rules)]
    assert events == [None, "B cannot follow: chooses trump in secret", "B cannot follow: trump revealed, diamonds"]
    snaps = snapshots(facts.deals[0], facts.rules)
    assert snaps[6].event == "B cannot follow: chooses trump in secret" and snaps[6].trump is None
