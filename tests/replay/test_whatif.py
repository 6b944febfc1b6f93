"""What-if lines saved as records (dehlanote.replay.whatif): the record a line gives validates,
and replaying it (the record replayer: its bulk path where it applies) gives the facts the
Table reached card by card; the comment says where the line left the game; an illegal card
is refused with the core's code.
"""

from __future__ import annotations

import glob
import random
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dehlanote
from dehlanote import IllegalCard
from dehlanote.replay.whatif import WHATIF_TAG, departure, play_on, whatif_comment, whatif_record
from dehlanote.replay import explicit
from dehlanote.syntax import parse_string
from dehlanote.syntax.writer import write_game

ROOT = Path(__file__).resolve().parents[2]


@lru_cache(maxsize=None)
def _deals() -> list:
    """(game facts, deal) for every sample deal whose hands are all known and that has tricks."""
    out = []
    for path in sorted(glob.glob(str(ROOT / "samples" / "*.dpn"))):
        for game in dehlanote.read_games(path):
            for d in game.deals:
                if d.rules is not None and len(d.hands) == d.rules.seats and d.tricks:
                    out.append((path, game, d))
    return out


def _replay(text: str):
    games = parse_string(text)
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return dehlanote.replay_game(games[0])


def _trick_facts(tricks) -> list:
    return [(t.number, t.leader, t.winner, t.trump, t.capture, t.run, t.centre_cards, t.centre_tens,
             tuple(p.card for p in t.trick.plays)) for t in tricks]


def test_every_sample_deal_has_a_what_if_case():
    files = {path for path, _g, _d in _deals()}
    assert len(_deals()) >= 25 and len(files) >= 8


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_a_random_line_from_a_random_point_saves_a_valid_record_with_the_tables_facts(data):
    _path, game, deal = data.draw(st.sampled_from(_deals()), label="deal")
    trick = data.draw(st.integers(1, len(deal.tricks)), label="trick")
    card = data.draw(st.integers(1, len(deal.tricks[trick - 1].plays)), label="card")
    table = deal.table(trick=trick, card=card)
    stop = data.draw(st.integers(0, 60), label="cards")
    for _ in range(stop):
        legal = table.legal_cards()
        if not legal:
            break
        table.play(data.draw(st.sampled_from(legal)))
    _check_line(game, deal, table, trick, card)


def _name(i: int) -> str:
    return f"{Path(_deals()[i][0]).stem}-{_deals()[i][2].number}"


@pytest.mark.parametrize("index", range(len(_deals())), ids=_name)
def test_every_sample_deal_gives_valid_what_if_records(index):
    """Every sample deal with hands, from three points chosen by a seeded random, played on
    by random legal cards to a random stop (the end of the deal, mostly)."""
    _path, game, deal = _deals()[index]
    rng = random.Random(index)
    for _ in range(3):
        trick = rng.randint(1, len(deal.tricks))
        card = rng.randint(1, len(deal.tricks[trick - 1].plays))
        table = deal.table(trick=trick, card=card)
        while table.to_play is not None and rng.random() < 0.98:
            table.play(rng.choice(table.legal_cards()))
        _check_line(game, deal, table, trick, card)


def _check_line(game, deal, table, trick: int, card: int) -> None:
    left = departure(deal, table)
    if left is None:
        return                                         # the line is the record's own
    assert (left.trick, left.card) >= (trick, card)
    text = whatif_record(game, deal, left.trick, left.card, left.recorded, left.chosen, table)
    again = _replay(text)
    assert again.errors == (), [(e.code, e.message) for e in again.errors]
    [fact] = again.deals
    assert _trick_facts(fact.tricks) == _trick_facts(table.state.tricks)
    # trump as the whole tricks state it (set in the trick in progress: the comment's)
    assert fact.trump == table.history[-1 - len(table.current)].trump_fact
    assert fact.dealer == deal.dealer
    # the game's tags that still hold, and where the line left the game
    assert again.game.tag(WHATIF_TAG) == f"deal {deal.number}, trick {left.trick}, card {left.card}"
    for name in ("Event", "Date", "A", "B", "Rules"):
        assert again.game.tag(name) == game.game.tag(name)
    assert fact.deal.comments[0] == whatif_comment(deal.number, left.trick, left.card, left.seat,
                                                   left.recorded, left.chosen)
    if table.over:
        assert fact.complete and table.facts is not None
        assert (fact.tens, fact.tens_cards, fact.winner, fact.points) == \
            (table.facts.tens, table.facts.tens_cards, table.facts.winner, table.facts.points)
    else:
        assert not fact.complete and again.game.tag("Result") == "*"
        # the trick in progress is the comment's, and the table of the record plays on from it
        resumed = fact.table(trick=len(fact.tricks) + 1)
        for _seat, c in table.current:
            resumed.play(str(c))
        assert resumed.tens == table.tens and resumed.centre == table.centre
        assert resumed.legal_cards() == table.legal_cards()
        if table.current:
            assert fact.deal.comments[-1] == table.in_progress()
    # the text is canonical: what fmt writes for it, the replay's facts filled in
    assert write_game(explicit(again)) == text
    if table.over:
        assert f"\ntens {' '.join(f'{s} {len(t)}' for s, t in table.tens.items())}\n" in text


def _worked():
    game = next(dehlanote.read_games(str(ROOT / "samples" / "worked-example.dpn")))
    return game, game.deals[0]


def test_the_record_says_where_it_left_the_game_and_plays_the_new_line():
    game, deal = _worked()
    recorded = deal.tricks[7].plays[3].card           # trick 8, card 4: C's 2C in the game
    table = play_on(deal, 8, 4, ["3S"])
    text = whatif_record(game, deal, 8, 4, recorded, "3S", table)
    assert "{what-if on deal 1: left the game at trick 8, card 4: C plays 3S where the game has 2C}" in text
    assert '[WhatIf "deal 1, trick 8, card 4"]' in text and '[Result "*"]' in text
    lines = text.splitlines()
    assert " 8 D: 8D 9D 3D 3S" in lines
    # the tricks before the point keep their comments; the first seven are the game's
    assert any(line.startswith(" 7 C: 8S 10D? KS JS {") for line in lines)
    fact = _replay(text).deals[0]
    assert [t.winner for t in fact.tricks[:7]] == [t.winner for t in deal.tricks[:7]]


def test_a_finished_line_states_its_result_and_a_trick_in_progress_is_a_comment():
    game, deal = _worked()
    # another lead at trick 12, then the first legal card each time to the end
    table = play_on(deal, 12, 1, [])
    first = next(c for c in table.legal_cards() if c != deal.tricks[11].plays[0].card)
    leader = table.to_play
    table.play(first)
    text = whatif_record(game, deal, 12, 1, deal.tricks[11].plays[0].card, str(first), table)
    assert f"trick 12 in progress: {leader} {first}}}" in text and '[Result "*"]' in text
    while not table.over:
        table.play(table.legal_cards()[0])
    text = whatif_record(game, deal, 12, 1, deal.tricks[11].plays[0].card, str(first), table)
    fact = _replay(text).deals[0]
    assert fact.complete and fact.tens == table.facts.tens and "in progress" not in text


def test_an_illegal_choice_is_refused_with_the_cores_code():
    _game, deal = _worked()
    # trick 1: A leads AH; B holds hearts, so a spade is a revoke
    with pytest.raises(IllegalCard) as caught:
        play_on(deal, 1, 2, ["QS"])
    assert caught.value.code == "revoke"
    with pytest.raises(IllegalCard) as caught:
        play_on(deal, 1, 2, ["2C"])                    # C's card, not B's
    assert caught.value.code == "not-in-hand"
    with pytest.raises(IllegalCard) as caught:
        play_on(deal, 2, 1, ["AH"])                    # played in trick 1
    assert caught.value.code == "duplicate-card"


def test_a_point_the_line_does_not_leave_at_is_refused():
    game, deal = _worked()
    table = play_on(deal, 8, 4, ["3S"])
    with pytest.raises(ValueError, match="does not leave the game at trick 8, card 3"):
        whatif_record(game, deal, 8, 3, "3D", "3D", table)
    same = deal.table(trick=8, card=4)
    same.play(deal.tricks[7].plays[3].card)
    assert departure(deal, same) is None
    with pytest.raises(ValueError, match="follows the record"):
        whatif_record(game, deal, 8, 4, "2C", "2C", same)


def test_a_line_past_the_end_of_an_unfinished_record():
    _game, whole = _worked()
    table = whole.table(trick=7)                       # the record stopped after six tricks
    game = _replay(table.to_dpn())
    deal = game.deals[0]
    assert not deal.complete and len(deal.tricks) == 6
    table = deal.table(trick=7)
    card = table.legal_cards()[-1]
    seat = table.to_play
    table.play(card)
    left = departure(deal, table)
    assert left == (7, 1, seat, None, card)
    text = whatif_record(game, deal, 7, 1, None, str(card), table)
    assert f"left the game at trick 7, card 1: {seat} plays {card} where the record stops" in text
    assert _replay(text).ok


def test_the_docs_example_is_the_bytes_the_function_writes():
    """docs/analysis.md specifies the text for the html replay to write the same: its example
    is exactly what whatif_record gives for that line."""
    doc = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    section = doc[doc.index("## What-if"):]
    shown = section[section.index("```dpn\n") + len("```dpn\n"):]
    shown = shown[:shown.index("```")]
    game, deal = _worked()
    table = play_on(deal, 12, 1, ["6D", "QC"])
    left = departure(deal, table)
    assert left == (12, 1, "D", "AC", "6D")
    assert whatif_record(game, deal, 12, 1, "AC", "6D", table, note="A played on by hand") == shown
    assert _replay(shown).ok
