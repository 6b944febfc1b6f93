"""Single-dummy judgement (dehlanote.analysis.single) against independent paths.

* on endings small enough to list every deal the player cannot tell apart (brute force here:
  every permutation of the unseen cards, filtered by the voids, with its own averaging),
  the judgement with enough worlds equals the exact average, card by card;
* a card best in every world has no loss and no mark;
* when the player can tell only one world (the voids pin every unseen card), the judgement
  is the double-dummy one;
* the sampler is uniform among the consistent deals, by rejection and by the constrained
  dealing alike; a seed gives one judgement.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dehlanote.analysis import PlayRules, Position, Solver
from dehlanote.analysis import single
from dehlanote.analysis.single import View, enumerate_worlds, judge_view, sample_world, view_of

from test_solve_reference import random_ending

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = {"standard": PlayRules(), "hukum": PlayRules(immediate=True), "double-sar": PlayRules(score="points"),
         "court-piece": PlayRules(score="tricks")}


def _voids(rng: random.Random, pos: Position) -> frozenset[tuple[int, str]]:
    """Some voids true of the deal (a seat holding no card of the suit), for the seats other than the mover."""
    out = set()
    for seat in range(pos.game.seats):
        if seat == pos.turn:
            continue
        for suit in "SHDC":
            if not any(c[-1] == suit for c in pos.hands[seat]) and rng.random() < 0.5:
                out.add((seat, suit))
    return frozenset(out)


@st.composite
def views(draw: st.DrawFn, max_left: int = 3) -> View:
    game = GAMES[draw(st.sampled_from(sorted(GAMES)))]
    mode = draw(st.sampled_from(["known", "known", "first-void", "closed", "none"]))
    left = draw(st.integers(1, max_left))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    pos = random_ending(rng, game, left, mode)
    return view_of(pos, _voids(rng, pos))


def brute_force(view: View) -> dict[str, float]:
    """Side 0's average value after each legal card over every consistent deal, by plain permutation."""
    pos = view.pos
    others = [s for s in range(pos.game.seats) if s != pos.turn]
    unseen = [c for s in others for c in pos.hands[s]]
    sizes = [len(pos.hands[s]) for s in others]
    deals = set()
    for perm in itertools.permutations(unseen):
        hands, at = [], 0
        for k in sizes:
            hands.append(frozenset(perm[at:at + k]))
            at += k
        if all((s, c[-1]) not in view.voids for s, h in zip(others, hands) for c in h):
            deals.add(tuple(hands))
    suits = [pos.closed] if view.trump_known or pos.closed is None else [(s, pos.closed[1]) for s in "SHDC"]
    totals: dict[str, float] = {c: 0.0 for c in pos.legal()}
    n = 0
    for hands in deals:
        for closed in suits:
            full = list(pos.hands)
            for s, h in zip(others, hands):
                full[s] = tuple(sorted(h))
            world = Position(pos.game, tuple(full), pos.leader, pos.trick, pos.trump, closed, pos.first_void,
                             pos.last_winner, pos.run, pos.centre_tricks, pos.centre_tens, pos.tens, pos.tricks,
                             pos.done)
            solver = Solver(pos.game)
            for card in pos.legal():
                totals[card] += solver.value(world.play(card))
            n += 1
    return {c: v / n for c, v in totals.items()}


def _small(view: View) -> bool:
    pos = view.pos
    return sum(len(pos.hands[s]) for s in range(pos.game.seats) if s != pos.turn) <= 7


@SETTINGS
@given(views(max_left=3))
def test_all_worlds_give_the_exact_average(view: View) -> None:
    assume(_small(view))
    exact = brute_force(view)
    j = judge_view(view, view.pos.legal()[0], worlds=10_000)
    assert j.exact and j.worlds == len(enumerate_worlds(view) or [])
    for c in j.cards:
        assert c.value == pytest.approx(exact[c.card])
        assert c.stderr == 0.0
    mover = view.pos.turn % 2
    mine = {k: v if mover == 0 else view.pos.game.total - v for k, v in exact.items()}
    top = max(mine.values())
    for c in j.cards:
        assert c.loss == pytest.approx(top - mine[c.card], abs=1e-9)


@SETTINGS
@given(views(max_left=3), st.integers(1, 12), st.integers(0, 99))
def test_a_card_best_in_every_world_has_no_loss(view: View, worlds: int, seed: int) -> None:
    rng = random.Random(seed)
    pos = view.pos
    mover = pos.turn % 2
    chosen = [sample_world(view, rng) for _ in range(worlds)]
    table = []
    for w in chosen:
        vals = Solver(pos.game).card_values(w)
        table.append({c: v if mover == 0 else pos.game.total - v for c, v in vals.items()})
    always = [c for c in pos.legal() if all(row[c] == max(row.values()) for row in table)]
    # the same worlds, drawn again from the same seed inside judge_view when it samples
    j = judge_view(view, pos.legal()[0], worlds=worlds, rng=random.Random(seed))
    if not j.exact:
        for card in always:
            got = next(c for c in j.cards if c.card == card)
            assert got.loss == 0.0 and got.stderr == 0.0
            assert single.mark(got.loss, got.stderr, j.unit) == ""
    # whatever the worlds: a card best in every consistent world has no loss
    every = enumerate_worlds(view)
    if every is not None and j.exact:
        rows = [Solver(pos.game).card_values(w) for w in every]
        for card in pos.legal():
            mine = [(r[card] if mover == 0 else pos.game.total - r[card]) for r in rows]
            best = [max((v if mover == 0 else pos.game.total - v) for v in r.values()) for r in rows]
            if mine == best:
                assert next(c for c in j.cards if c.card == card).loss == 0.0


def _pinned(rng: random.Random, game: PlayRules, left: int, mode: str) -> View:
    """An ending where the voids pin every unseen card: each other seat void in every suit it lacks,
    tried until no suit is shared by two of them (then only one deal fits)."""
    while True:
        pos = random_ending(rng, game, left, mode)
        others = [s for s in range(game.seats) if s != pos.turn]
        held = [{c[-1] for c in pos.hands[s]} for s in others]
        if all(not (a & b) for a, b in itertools.combinations(held, 2)):
            voids = frozenset((s, suit) for s, h in zip(others, held) for suit in "SHDC" if suit not in h)
            return View(pos, voids, True)


@SETTINGS
@given(st.sampled_from(sorted(GAMES)), st.integers(1, 3), st.integers(0, 2**32 - 1),
       st.sampled_from(["known", "first-void", "none"]))
def test_one_world_is_the_double_dummy_judgement(name: str, left: int, seed: int, mode: str) -> None:
    view = _pinned(random.Random(seed), GAMES[name], left, mode)
    pos = view.pos
    assert enumerate_worlds(view) is not None and len(enumerate_worlds(view) or []) == 1
    dd = Solver(pos.game).card_values(pos)
    for played in pos.legal():
        j = judge_view(view, played, worlds=32)
        assert j.worlds == 1 and j.exact
        after, best_value, best = Solver(pos.game).judge(pos, played)
        sign = 1 if pos.turn % 2 == 0 else -1
        assert j.expected_loss == sign * (best_value - after)
        assert set(j.best) == set(best)
        assert {c.card: c.value for c in j.cards} == dd


def _chi2(view: View, draws_each: int, tag: str) -> tuple[float, int]:
    every = enumerate_worlds(view) or []
    canon = Counter(tuple(tuple(sorted(h)) for h in w.hands) for w in every)
    assert all(n == 1 for n in canon.values())
    draws = draws_each * len(canon)
    got = Counter(tuple(tuple(sorted(h)) for h in sample_world(view, random.Random(f"{tag}:{i}")).hands)
                  for i in range(draws))
    assert set(got) <= set(canon)
    return sum((got[k] - draws_each) ** 2 / draws_each for k in canon), len(canon) - 1


@pytest.mark.parametrize("rejections", [single.REJECTIONS, 0], ids=["rejection", "constrained"])
def test_the_sampler_is_uniform_among_the_consistent_deals(monkeypatch, rejections: int) -> None:
    """C to lead with three clubs; B has shown no heart. B then holds three of the five spades,
    A and D the other two with the four hearts: 200 deals, B's spades and A's share of the rest
    weighted 4, 12, 4 (a dealing that drew the shares alike would favour the rare ones)."""
    monkeypatch.setattr(single, "REJECTIONS", rejections)
    hands = (("AS", "AH", "KH"), ("KS", "QS", "JS"), ("2C", "3C", "4C"), ("9S", "QH", "JH"))
    pos = Position(PlayRules(), hands, 2, trump="D", last_winner=2, run=1, centre_tricks=1, tens=(4, 0),
                   tricks=(9, 0), done=10)
    view = view_of(pos, frozenset({(1, "H")}))
    assert len(enumerate_worlds(view) or []) == 200
    chi2, df = _chi2(view, 40, f"fixed{rejections}")
    assert chi2 < df + 5 * (2 * df) ** 0.5, chi2      # about df when uniform


def test_the_sampler_is_uniform_on_random_endings(monkeypatch) -> None:
    rng = random.Random(7)
    done = 0
    while done < 3:
        pos = random_ending(rng, PlayRules(), 3, "known")
        view = view_of(pos, _voids(rng, pos))
        every = enumerate_worlds(view)
        if not view.voids or every is None or not 6 <= len(every) <= 60:
            continue
        for rejections in (single.REJECTIONS, 0):
            monkeypatch.setattr(single, "REJECTIONS", rejections)
            chi2, df = _chi2(view, 60, f"r{done}:{rejections}")
            assert chi2 < df + 5 * (2 * df) ** 0.5, chi2
        done += 1


def test_a_seed_gives_one_judgement_and_another_seed_may_differ() -> None:
    rng = random.Random(3)
    pos = random_ending(rng, PlayRules(), 5, "known")
    view = view_of(pos, frozenset())
    a = judge_view(view, pos.legal()[0], worlds=6, rng=random.Random("s1"))
    b = judge_view(view, pos.legal()[0], worlds=6, rng=random.Random("s1"))
    assert a == b and a.worlds == 6 and not a.exact


def test_closed_trump_unknown_to_all_but_the_setter() -> None:
    rng = random.Random(11)
    pos = random_ending(rng, PlayRules(), 2, "known")
    setter = (pos.turn + 1) % 4
    from dataclasses import replace
    hidden = replace(pos, trump=None, closed=("S", setter))
    assert not view_of(hidden).trump_known
    worlds = enumerate_worlds(view_of(hidden))
    assert worlds is not None and {w.closed for w in worlds} == {(s, setter) for s in "SHDC"}
    mine = replace(pos, trump=None, closed=("S", pos.turn))
    assert view_of(mine).trump_known
    assert {w.closed for w in enumerate_worlds(view_of(mine)) or []} == {("S", pos.turn)}


def test_sampling_agrees_with_the_exact_average_within_its_error() -> None:
    """Where more deals fit than are sampled, the sampled losses stay within a few standard
    errors of the exact ones (every world solved), card by card."""
    rng = random.Random(21)
    while True:
        pos = random_ending(rng, PlayRules(), 4, "known")
        view = view_of(pos, frozenset())
        every = enumerate_worlds(view)
        if every is not None and 300 <= len(every) and len(pos.legal()) >= 3:
            break
    exact = judge_view(view, pos.legal()[0], worlds=len(every))
    sampled = judge_view(view, pos.legal()[0], worlds=150, rng=random.Random(5))
    assert exact.exact and not sampled.exact and sampled.worlds == 150
    assert any(c.loss > 0 for c in exact.cards)
    for e, s in zip(exact.cards, sampled.cards):
        assert e.card == s.card
        assert abs(e.loss - s.loss) <= 4 * s.stderr + 0.15, (e, s)


def test_the_time_limit_is_the_whole_deals_not_one_for_each_of_its_two_analyses(monkeypatch) -> None:
    """``--time-limit`` is a deal's CPU seconds: the single-dummy judgement gets what the
    double-dummy analysis left. (It got a whole limit of its own: `review` of the six-player
    sample with --time-limit 10 took 49.8 CPU s for its 2 deals; now 19.3 s.) A clock that
    the double-dummy analysis runs out leaves every card without a single-dummy judgement,
    said as not judged in time."""
    from pathlib import Path
    from types import SimpleNamespace

    from dehlanote import iter_path, replay_game

    facts = replay_game(next(iter(iter_path(Path(__file__).resolve().parents[2] / "samples" / "worked-example.dpn"))))
    fact, rules = facts.deals[0], facts.rules
    clock = [0.0]
    monkeypatch.setattr(single, "time", SimpleNamespace(process_time=lambda: clock[0]))
    real = single.analyse_deal

    def dd_taking_most_of_the_limit(*args, **kwargs):
        got = real(*args, **kwargs)
        clock[0] += 9.5         # the double-dummy analysis took 9.5 of the deal's 10 s
        return got

    monkeypatch.setattr(single, "analyse_deal", dd_taking_most_of_the_limit)
    given: list = []
    real_solvers = single.Solvers

    def solvers(game, *, seconds=None, nodes=None):
        given.append(seconds)
        return real_solvers(game, seconds=seconds, nodes=nodes)

    monkeypatch.setattr(single, "Solvers", solvers)
    a = single.analyse(fact, rules, worlds=2, from_trick=12, time_limit=10.0)
    assert given == [pytest.approx(0.5)]
    clock[0] = 0.0
    a = single.analyse(fact, rules, worlds=2, from_trick=12, time_limit=9.0)
    assert given[-1] == 0.0
    assert not a.solved and a.reason == "single dummy: not judged in time"
    assert all(p.single is None for t in a.tricks for p in t.plays)
    clock[0] = 0.0
    a = single.analyse(fact, rules, worlds=2, from_trick=12, time_limit=None)
    assert given[-1] is None and all(p.single is not None for t in a.tricks for p in t.plays)


def test_a_huge_number_of_worlds_is_bounded_by_the_time_limit() -> None:
    """``solve --from-trick 9 --worlds 1000000000000 --time-limit 3`` ran past a minute and
    filled the memory: every world was drawn before the first was solved, and the clock was
    looked at only inside the searches. The worlds are now drawn as they are solved, the
    clock looked at between two."""
    import time

    from dehlanote.analysis import OutOfTime
    from dehlanote.analysis.single import Solvers

    pos = random_ending(random.Random(4), PlayRules(), 10, "known")
    view = view_of(pos, frozenset())
    began = time.process_time()
    with pytest.raises(OutOfTime):
        judge_view(view, pos.legal()[0], worlds=150_000, rng=random.Random(1),
                   solvers=Solvers(pos.game, seconds=0.05))
    assert time.process_time() - began < 1.0
