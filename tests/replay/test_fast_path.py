"""The core's bulk path (``core.play_plain``) against card-by-card play (``core.play_card``,
driven by the record replayer's ``engine._play_written``).

``play_tricks`` tries the bulk path first for the common case (trump announced before play,
one deck, every hand written or none) and falls back to the full loop at the first thing the
lean one does not handle or the first error. Both must give the same state, field for
field: on legal matches from the independent playout generator (where the lean loop must
not give up) and on the same deals with one mistake put in (a card changed, two cards
swapped, a leader or a number wrong, a card left out, a withdrawn card), where it may.
"""

from __future__ import annotations

import random

import pytest

from dehlanote.oracle.playout import Style, generate_match
from dehlanote.deck import DECK
from dehlanote.replay import core, engine
from dehlanote.replay.engine import play_tricks, start_deal, start_match
from dehlanote.rules.profile import registry
from dehlanote.syntax import parse_string
from dehlanote.syntax.model import CardRef, Deal, Word

PROFILES = [("standard", None), ("standard", {"trump": "partner"}), ("standard", {"six-player": True}),
            ("standard", {"court-piece": True}), ("standard", {"double-sar": True}),
            ("standard", {"trump": "closed"}), ("pagat", {"kots": 2, "trump": "first-void-five"}),
            ("hukum", None)]
STYLES = [Style(), Style(hands=True), Style(leaders=False, withdrawn=0.5), Style(hands=True, withdrawn=0.5),
          Style(loose=True)]


def _deals(seed: int, profile: str, options, style: Style) -> tuple[str, list[Deal]]:
    text, _ = generate_match(random.Random(seed), profile, options, style=style, max_deals=6)
    game = parse_string(text)[0]
    assert not game.errors
    label = " ".join([profile, *(f"{k}={v}" if v is not True else k for k, v in (options or {}).items())])
    return label, list(game.deals)


def _mutations(deal: Deal, rng: random.Random) -> list[Deal]:
    """The deal with one mistake, several ways."""
    tricks = list(deal.tricks)
    out = []
    t = rng.randrange(len(tricks))
    plays = list(tricks[t].plays)
    k = rng.randrange(len(plays))
    other = rng.choice([c for c in DECK if c != plays[k].card])
    changed = plays[:k] + [plays[k]._replace(card=other)] + plays[k + 1:]
    out.append(tricks[:t] + [tricks[t]._replace(plays=tuple(changed))] + tricks[t + 1:])
    # two cards of different tricks swapped
    u = rng.randrange(len(tricks))
    if u != t:
        a, b = tricks[t].plays[k], tricks[u].plays[k % len(tricks[u].plays)]
        swap = list(tricks)
        swap[t] = swap[t]._replace(plays=tuple(b if p is a else p for p in swap[t].plays))
        swap[u] = swap[u]._replace(plays=tuple(a if p is b else p for p in swap[u].plays))
        out.append(swap)
    # a wrong leader, a wrong number, a card left out, a trick repeated
    seat = Word(rng.choice("ABCD"), tricks[t].line, tricks[t].column)
    out.append(tricks[:t] + [tricks[t]._replace(leader=seat)] + tricks[t + 1:])
    out.append(tricks[:t] + [tricks[t]._replace(number=tricks[t].number + 1)] + tricks[t + 1:])
    out.append(tricks[:t] + [tricks[t]._replace(plays=tricks[t].plays[:-1])] + tricks[t + 1:])
    out.append(tricks[:t + 1] + [tricks[t]] + tricks[t + 1:])
    out.append(tricks[:t])
    # a withdrawn card before a card (legal or not)
    w = CardRef(rng.choice(DECK), plays[k].line, plays[k].column)
    marked = plays[:k] + [plays[k]._replace(withdrawn=(w,))] + plays[k + 1:]
    out.append(tricks[:t] + [tricks[t]._replace(plays=tuple(marked))] + tricks[t + 1:])
    return [deal._replace(tricks=tuple(ts)) for ts in out]


def _both(label: str, deal: Deal):
    rules = registry().resolve(label)
    state, _ = start_deal(start_match(rules), deal)
    if state is None:
        return None, None, None
    full = engine._play_written(state, deal.tricks)
    return state, full, play_tricks(state, deal.tricks)


@pytest.mark.parametrize("profile,options", PROFILES, ids=lambda v: str(v))
def test_the_lean_loop_gives_the_full_loops_state_on_legal_and_broken_deals(profile, options):
    rng = random.Random(11)
    lean_used = 0
    for seed in range(6):
        for style in STYLES:
            label, deals = _deals(seed, profile, options, style)
            for deal in deals:
                state, full, fast = _both(label, deal)
                assert fast == full
                lean = core.play_plain(state, deal.tricks) if state and core.plain_case(state) else None
                if lean is not None:
                    lean_used += 1
                    assert lean == full
                for bad in _mutations(deal, rng):
                    state, full, fast = _both(label, bad)
                    assert fast == full, (label, style)
                # trick by trick, as the stepper replays, gives the same as all at once
                state, full, _ = _both(label, deal)
                if state is not None:
                    for trick in deal.tricks:
                        state = play_tricks(state, (trick,))
                    assert state == full
    rules = registry().resolve(label)
    if rules.trump in ("announce", "partner") and rules.decks == 1:
        assert lean_used > 0    # the case it is there for does not fall back


def test_legal_deals_of_the_common_styles_never_fall_back():
    # legal records with trump announced: the lean loop takes every deal, hands or not
    for seed in range(4):
        for style in STYLES:
            label, deals = _deals(seed, "standard", None, style)
            for deal in deals:
                state, _ = start_deal(start_match(registry().resolve(label)), deal)
                assert state is not None and core.plain_case(state)
                assert core.play_plain(state, deal.tricks) is not None, style


@pytest.mark.parametrize("profile,options", PROFILES[:4] + PROFILES[6:], ids=lambda v: str(v))
def test_a_check_without_the_dealt_hands_finds_the_same_errors(profile, options):
    # validate replays with dealt_hands=False: every error the same, only DealFact.dealt empty
    from dehlanote.replay import replay_game
    from dehlanote.syntax.model import Game
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        for style in (Style(hands=True), Style(hands=True, withdrawn=0.5), Style()):
            text, _ = generate_match(random.Random(seed), profile, options, style=style, max_deals=4)
            game = parse_string(text)[0]
            games = [game] + [game._replace(deals=(*game.deals[:-1], bad))
                              for bad in _mutations(game.deals[-1], rng)]
            for g in games:
                assert isinstance(g, Game)
                full, lean = replay_game(g), replay_game(g, dealt_hands=False)
                assert lean.errors == full.errors and lean.result == full.result and lean.notes == full.notes
                assert [d._replace(dealt={}) for d in full.deals] == list(lean.deals)
                checked += bool(style.hands and any(d.dealt for d in full.deals))
    assert checked > 0
