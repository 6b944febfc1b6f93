"""The per-card core and its Table: legal cards, one-card checks, events, undo, to_dpn.

The core is checked against independent paths: the record replayer's bulk path (every deal
of the samples and of random matches from the independent generator replayed card by card
through a Table gives the same trick facts, captures and score), annotate's account of the
tens (which ten changed sides), and the generator's own facts.
"""

from __future__ import annotations

import glob
import io
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dehlanote
from dehlanote import IllegalCard, Table
from dehlanote.oracle.playout import Style, generate_match
from dehlanote.replay import events as ev
from dehlanote.syntax import parse_string

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(glob.glob(str(ROOT / "samples" / "*.dpn"))) + \
    sorted(glob.glob(str(ROOT / "tests" / "data" / "*.dpn")))
PROFILES = [("standard", None), ("standard", {"trump": "partner"}), ("standard", {"six-player": True}),
            ("standard", {"court-piece": True}), ("standard", {"double-sar": True}),
            ("standard", {"trump": "closed"}), ("pagat", {"kots": 2}),
            ("pagat", {"kots": 2, "trump": "first-void-five"}),
            ("hukum", None), ("hukum", {"trump": "closed"}), ("standard", {"coat": True}),
            ("standard", {"streak": 3})]


def _worked():
    with open(ROOT / "samples" / "worked-example.dpn") as f:
        return dehlanote.read_game(f)


# ---- the worked example, as docs/api.md shows it -------------------------------------------

def test_the_worked_example_at_the_table():
    deal = _worked().deals[0]
    table = deal.table()
    assert table.to_play == "A" and len(table.legal_cards()) == 13
    events = table.play("AH")
    assert events == (ev.CardPlayed("A", "AH", 1, 0),)
    assert table.to_play == "B" and [str(c) for c in table.legal_cards()] == ["QH", "10H", "5H"]
    with pytest.raises(IllegalCard) as caught:
        table.play("QS")
    assert caught.value.code == "revoke" and isinstance(caught.value, ValueError)
    assert "QH 10H 5H" in caught.value.message
    assert table.to_play == "B" and table.current == (("A", "AH"),)      # nothing changed
    table.undo()
    assert table.to_play == "A" and table.current == () and len(table.legal_cards()) == 13
    with pytest.raises(IndexError):
        table.undo()


def test_the_worked_examples_first_two_tricks_sweep_the_centre():
    table = Table.new("standard", dealer="D", trump="D")
    for card in "AH 10H 3H 7H".split():
        events = table.play(card)
    assert events[-1] == ev.TrickWon(1, "A", "A", ("AH", "10H", "3H", "7H"))
    assert table.centre == ("AH", "10H", "3H", "7H") and table.centre_tens == ("10H",) and table.run == ("A", 1)
    for card in "AS QS 2S 10S".split():
        events = table.play(card)
    assert ev.CentreTaken("A", "AC", 8, ("10H", "10S"), "two-in-a-row") in events
    assert table.centre == () and table.tens == {"AC": ("10H", "10S"), "BD": ()} and table.piles == {"AC": 8, "BD": 0}
    assert table.run == ("A", 0) and table.score == {"AC": 2, "BD": 0}


def test_a_table_mid_deal_and_a_whole_deal_give_the_records_facts():
    deal = _worked().deals[0]
    table = deal.table(trick=7, card=2)
    assert table.to_play == "D" and table.current == (("C", "8S"),)
    assert table.trump == "D" and table.tens == {"AC": ("10H", "10S"), "BD": ()}
    whole = deal.table()
    for trick in deal.tricks:
        for p in trick.plays:
            events = whole.play(p.card)
    assert whole.over and whole.to_play is None and whole.legal_cards() == ()
    scored = [e for e in events if isinstance(e, ev.DealScored)]
    assert scored == [ev.DealScored(1, "AC", {"AC": 3, "BD": 1}, {}, True)] == [deal.events()[0]]
    assert ev.NextDealer("D", "the non-dealing side won deal 1, so the same dealer deals again") in events
    assert whole.check("AS").code == "trick-number"


def test_to_dpn_reads_back_as_the_same_deal():
    deal = _worked().deals[0]
    table = deal.table()
    for trick in deal.tricks[:5]:
        for p in trick.plays:
            table.play(p.card)
    table.play("6H")
    text = table.to_dpn()
    assert "trick 6 in progress: A 6H" in text
    again = dehlanote.replay_game(parse_string(text)[0])
    assert again.ok, again.errors
    assert [t.winner for t in again.deals[0].tricks] == [t.winner for t in deal.tricks[:5]]
    assert again.deals[0].tricks[-1].capture == deal.tricks[4].capture


def test_bad_input_to_a_table_is_refused_with_a_sentence():
    with pytest.raises(ValueError, match="names trump before play"):
        Table.new("standard", dealer="D")
    with pytest.raises(ValueError, match="no seat"):
        Table.new("standard", dealer="E", trump="H")
    with pytest.raises(ValueError):
        Table.new("bridge", trump="H")
    with pytest.raises(ValueError, match="dealt 13"):
        Table.new("standard", trump="H", hands={"A": "AH KH"})
    table = Table.new("standard", trump="H")
    with pytest.raises(IllegalCard) as caught:
        table.play("1H")
    assert caught.value.code == "bad-card"
    table.play("ah")                      # any spelling the notation reads
    with pytest.raises(IllegalCard) as caught:
        table.play("AH")
    assert caught.value.code == "duplicate-card"


def test_a_hand_not_known_shows_every_card_not_seen_and_the_voids():
    table = Table.new("standard", trump="S", hands={"A": "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2C"})
    assert len(table.legal_cards()) == 13
    table.play("AH")
    cards = table.legal_cards()
    assert len(cards) == 39 and cards[0] == "2H"          # the one heart not in A's hand, first
    assert table.check("KH").code == "not-in-hand"
    for card in ("AS", "2S", "3S"):                        # B shows out of hearts and wins
        table.play(card)
    assert table.to_play == "B"
    assert "2H" not in table.legal_cards() and len(table.legal_cards()) == 48 - 12 - 1
    problem = table.check("2H")
    assert problem.code == "revoke" and "AS" in problem.message and "trick 1" in problem.message


def test_undo_copy_and_history_keep_states():
    table = Table.new("standard", trump="H")
    first = table.state
    table.play("2C")
    other = table.copy()
    other.play("3C")
    assert len(table.history) == 2 and len(other.history) == 3 and table.history[0] is first
    table.undo()
    assert table.state is first and other.current == (("A", "2C"), ("B", "3C"))


# ---- against the record replayer, on every sample and random matches -------------------------

def _replay_through_tables(facts):
    """Each complete deal card by card through a Table: the facts it ends with."""
    out = []
    for deal in facts.deals:
        if not deal.complete or deal.claim is not None or not deal.tricks:
            continue
        table = deal.table()
        crossed: list[ev.TenChangedSides] = []
        for trick in deal.tricks:
            for k, p in enumerate(trick.trick.plays):
                if deal.dealt or facts.ok:
                    assert p.card in table.legal_cards(), (deal.number, trick.number, p.card)
                    for c in table.legal_cards():
                        assert table.check(c) is None
                got = table.play(p.card) if table.check(p.card) is None else table._push(p, trick.trick)
                crossed += [e for e in got if isinstance(e, ev.TenChangedSides)]
        out.append((deal, table, crossed))
    return out


def _same_facts(deal, table, crossed):
    from dehlanote.output.notes import ten_stories
    st_ = table.state
    assert [(t.number, t.winner, t.capture, t.centre_cards, t.centre_tens, t.run) for t in st_.tricks] == \
        [(t.number, t.winner, t.capture, t.centre_cards, t.centre_tens, t.run) for t in deal.tricks]
    assert table.facts is not None
    assert (table.facts.winner, table.facts.tens, table.facts.kot) == (deal.winner, deal.tens, deal.kot)
    # the tens that changed sides, as annotate tells them from the trick facts (another path)
    stories = [(s.card, s.won_side, s.taken_side) for s in ten_stories(deal, st_.rules.seats) if s.crossed]
    assert Counter((e.ten, e.won_by, e.taken_by) for e in crossed) == Counter(stories)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: Path(p).name)
def test_every_sample_deal_card_by_card_gives_the_replayers_facts(path):
    for facts in dehlanote.read_games(path):
        for deal, table, crossed in _replay_through_tables(facts):
            _same_facts(deal, table, crossed)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), which=st.integers(0, len(PROFILES) - 1), hands=st.booleans())
def test_random_matches_card_by_card_give_the_generators_facts(seed, which, hands):
    profile, options = PROFILES[which]
    text, facts_expected = generate_match(random.Random(seed), profile, options, style=Style(hands=hands),
                                          max_deals=3)
    facts = dehlanote.replay_game(parse_string(text)[0])
    assert facts.ok, facts.errors
    for deal, table, crossed in _replay_through_tables(facts):
        _same_facts(deal, table, crossed)
        # every card's events in order: one CardPlayed a card, one TrickWon a trick
        kinds = Counter(type(e).__name__ for e in table.events)
        assert kinds["CardPlayed"] == len(deal.tricks) * st_seats(table) and kinds["TrickWon"] == len(deal.tricks)
        taken = [t for e in table.events if isinstance(e, ev.CentreTaken) for t in e.tens]
        assert sorted(taken) == sorted(t for side in deal.tens_cards.values() for t in side)


def st_seats(table):
    return table.rules.seats


def test_trump_set_by_play_is_an_event():
    text, _ = generate_match(random.Random(3), "hukum", None, style=Style(hands=True), max_deals=1)
    deal = dehlanote.replay_game(parse_string(text)[0]).deals[0]
    table = deal.table()
    assert table.trump is None
    seen = []
    for trick in deal.tricks:
        for p in trick.trick.plays:
            seen += [e for e in table.play(p.card) if isinstance(e, ev.TrumpSet)]
    assert seen == [ev.TrumpSet(deal.trump.suit, deal.trump.by, deal.trump.trick, "first-void")]


# ---- the public names ------------------------------------------------------------------------

def test_the_package_lists_its_public_names_and_is_typed():
    names = dir(dehlanote)
    for name in ("read_game", "read_games", "Table", "IllegalCard", "Card", "DpnError", "replay_game"):
        assert name in names
    assert (ROOT / "dehlanote" / "py.typed").exists()
    assert "py.typed" in (ROOT / "pyproject.toml").read_text()


def test_read_game_streams_one_game_at_a_time():
    text = (ROOT / "samples" / "worked-example.dpn").read_text() + "\n\n" + \
        (ROOT / "samples" / "match.dpn").read_text()
    stream = io.StringIO(text)
    first = dehlanote.read_game(stream)
    second = dehlanote.read_game(stream)
    assert first.game.tag("Event") == "Worked example" and second is not None and second.deals
    assert dehlanote.read_game(stream) is None
    assert [g.game.tag("Event") for g in dehlanote.read_games(io.StringIO(text))] == \
        [first.game.tag("Event"), second.game.tag("Event")]


def test_a_table_draws_itself_for_a_notebook():
    from xml.etree import ElementTree
    table = _worked().deals[0].table(trick=2, card=3)
    svg = table._repr_svg_()
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "C to play" in svg and "deal 1, trick 2" in svg


@pytest.mark.parametrize("wrong", ["samples/worked-example.dpn", b"deal 1", Path("samples/worked-example.dpn")])
def test_read_game_refuses_what_is_not_a_stream_with_a_clear_message(wrong):
    # a text or a path given to read_game used to fail deep inside with "cannot create weak reference"
    with pytest.raises(TypeError, match="open file or stream"):
        dehlanote.read_game(wrong)


@pytest.mark.parametrize("where, said", [
    # the table was set up elsewhere, quietly: card 1 for card 0, the deal's end for card 2 of the
    # trick after the last, the deal's start for a card without its trick
    (dict(trick=13, card=0), "there is no card 0 of trick 13"),
    (dict(trick=14, card=2), "there is no card 2 of trick 14"),
    (dict(trick=14, card=4), "there is no card 4 of trick 14"),
    (dict(card=3), "card 3 of which trick? Give trick= with card="),
])
def test_a_table_asked_for_a_card_the_deal_does_not_have_is_refused(where, said):
    deal = _worked().deals[0]
    with pytest.raises(ValueError, match=re.escape(said)):
        deal.table(**where)
    # what it has: its end (the trick after the last, before any card), and every card recorded
    assert deal.table(trick=14).state.over
    assert deal.table(trick=13, card=4).to_play == "C"
