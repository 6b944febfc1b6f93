"""Single-dummy judgement: each card valued over the deals its player could not tell apart.

Double dummy (:mod:`dehlanote.analysis.deal`) judges a card as if its player saw all four
hands. Here a card is judged from what its player knew when playing it: their own hand,
every card played so far, every void shown (a player who did not follow suit holds none of
the suit led), and trump as far as they knew it (closed trump before its reveal: only the
setter knows the suit). The unseen cards are dealt to the other seats in every way that
fits (hand sizes and shown voids): the *worlds*. Each world is solved double dummy by the
compiled search (:class:`~dehlanote.analysis.search.Solver`); a card's single-dummy value
is its average over the worlds.

Worlds are enumerated when there are few (at most the number asked for, counted exactly on
small endings); otherwise sampled uniformly with replacement: a plain shuffle of the unseen
cards into the hands, rejected while it breaks a shown void (rejection keeps the draw
uniform among the consistent deals); when rejection keeps failing (many voids), a
constrained dealing that stays uniform: the suits are dealt one after the other, each
seat's share of a suit drawn with probability proportional to the number of consistent
deals that share leaves (counted exactly). Every draw comes from a generator seeded by
the seed, the deal, the trick and the card, so a judgement does not depend on the order
cards are judged in or on ``--jobs``.

For each legal card: the expected final score of side 0 (as ``value`` in the double-dummy
view), the expected loss against the best card (in the mover's favour, the card with the
highest average), its standard error (of the paired differences with the best card, over
the worlds; 0 when every world was enumerated) and the number of worlds. A card is marked
``?`` when ``loss - 2 * stderr > 0.25`` of a unit (a ten; two points under ``points``; a
trick under ``tricks``), ``??`` when ``loss - 2 * stderr > 1`` unit.

Simplifications (said in docs/analysis.md): worlds are uniform, so nothing is inferred from
how others bid or played (an announcer's choice of trump says something of their first
five cards: not used); the five-card phase of ``first-void-five`` is not judged (as in the
double-dummy view) and a card not followed there shows no void; a closed trump's suit, for
a player who does not know it, is any of the four suits alike.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..deck import SUITS
from ..i18n import N_
from ..replay import DealFact
from ..rules.profile import Rules
from .deal import (DealAnalysis, IllegalCard, NotAnalysable, PlayAnalysis, advice, analyse_deal, check_legal, either,
                   glyph, past_fault, start_position)
from .position import PlayRules, Position
from .search import OutOfTime, Solver
from . import WORLDS  # worlds a decision, by default (defined where the options read it)

ENUMERATE = 20000    # enumerate the deals consistent with what is seen when there are at most this many raw deals
REJECTIONS = 200     # shuffles tried before the constrained dealing takes over
MARK = 0.25          # units above twice the error for ``?``
BLUNDER = 1.0        # units above twice the error for ``??``


@dataclass(frozen=True)
class CardJudgement:
    card: str
    value: float         # side 0's expected final score after the card (best play after, in each world)
    loss: float          # the mover's expected loss against the best card (0 for the best)
    stderr: float        # standard error of ``loss``


@dataclass(frozen=True)
class SingleJudgement:
    """The single-dummy judgement of one decision: every legal card, over ``worlds`` worlds."""

    seat: str
    card: str                          # the card played
    cards: tuple[CardJudgement, ...]   # every legal card, in the order of the hand's legal cards
    worlds: int
    exact: bool                        # every consistent world was solved (no sampling)
    unit: float                        # what a ten is worth in the score (the marks' scale)

    @property
    def played(self) -> CardJudgement:
        return next(c for c in self.cards if c.card == self.card)

    @property
    def best(self) -> tuple[str, ...]:
        return tuple(c.card for c in self.cards if c.loss <= 1e-9)

    @property
    def expected_loss(self) -> float:
        return self.played.loss

    @property
    def stderr(self) -> float:
        return self.played.stderr

    @property
    def mark(self) -> str:
        return mark(self.played.loss, self.played.stderr, self.unit)

    def to_json(self) -> dict[str, Any]:
        p = self.played
        return {"expected_loss": round(p.loss, 4), "stderr": round(p.stderr, 4), "worlds": self.worlds,
                "exact": self.exact, "value": round(p.value, 4), "mark": self.mark, "best": list(self.best),
                "cards": [{"card": c.card, "value": round(c.value, 4), "loss": round(c.loss, 4),
                           "stderr": round(c.stderr, 4)} for c in self.cards]}


def mark(loss: float, stderr: float, unit: float = 1.0) -> str:
    """``?`` when the expected loss is clearly above its error, ``??`` when by a whole unit."""
    sure = loss - 2 * stderr
    if sure > BLUNDER * unit:
        return "??"
    if sure > MARK * unit:
        return "?"
    return ""


def unit_of(game: PlayRules) -> float:
    return 2.0 if game.score == "points" else 1.0


# ---- what the player knew -------------------------------------------------------------------

@dataclass(frozen=True)
class View:
    """What the player to move in ``pos`` knows: the position itself (true), the voids shown
    (seat, suit) and whether the trump suit is known to them."""

    pos: Position
    voids: frozenset[tuple[int, str]]
    trump_known: bool = True


def view_of(pos: Position, voids: frozenset[tuple[int, str]] = frozenset()) -> View:
    """The player to move's view of ``pos`` given the ``voids`` shown in the tricks before (those
    of the trick in progress are added here); a closed trump's suit is known to its setter only."""
    known = pos.closed is None or pos.closed[1] == pos.turn
    if pos.trick:
        led = pos.trick[0][-1]
        shown = {((pos.leader + k) % pos.game.seats, led) for k, c in enumerate(pos.trick) if c[-1] != led}
        voids = frozenset(voids | shown)
    return View(pos, voids, known)


def _multinomial(sizes: Sequence[int]) -> int:
    out, n = 1, 0
    for k in sizes:
        n += k
        out *= math.comb(n, k)
    return out


def _fits(hands: Sequence[Sequence[str]], seats: Sequence[int], voids: frozenset[tuple[int, str]]) -> bool:
    return not any((seat, card[-1]) in voids for seat, hand in zip(seats, hands) for card in hand)


def _trumps(view: View) -> list[tuple[str, int] | None]:
    """The closed trump set-ups the player cannot tell apart (one: the true one, when known)."""
    closed = view.pos.closed
    if view.trump_known or closed is None:
        return [closed]
    return [(s, closed[1]) for s in SUITS]


def _world(view: View, seats: Sequence[int], hands: Sequence[Sequence[str]], closed: Any) -> Position:
    pos = view.pos
    full = list(pos.hands)
    for seat, hand in zip(seats, hands):
        full[seat] = tuple(hand)
    return replace(pos, hands=tuple(full), closed=closed)


def _others(view: View) -> tuple[list[int], list[str], list[int]]:
    pos = view.pos
    seats = [s for s in range(pos.game.seats) if s != pos.turn]
    unseen = sorted(c for s in seats for c in pos.hands[s])
    sizes = [len(pos.hands[s]) for s in seats]
    return seats, unseen, sizes


def enumerate_worlds(view: View, limit: int = ENUMERATE) -> list[Position] | None:
    """Every deal consistent with ``view`` (each once), or None when the raw deals exceed ``limit``."""
    seats, unseen, sizes = _others(view)
    trumps = _trumps(view)
    if _multinomial(sizes) * len(trumps) > limit:
        return None
    out: list[Position] = []
    seen: set[tuple[tuple[str, ...], ...]] = set()
    for hands in _splits(unseen, sizes):
        key = tuple(tuple(sorted(h)) for h in hands)
        if key in seen:          # several decks: copies of a card are one world
            continue
        seen.add(key)
        if _fits(hands, seats, view.voids):
            out.extend(_world(view, seats, hands, t) for t in trumps)
    return out


def _splits(cards: list[str], sizes: list[int]) -> Iterator[list[tuple[str, ...]]]:
    if not sizes:
        yield []
        return
    idx = range(len(cards))
    for pick in itertools.combinations(idx, sizes[0]):
        chosen = set(pick)
        rest = [cards[i] for i in idx if i not in chosen]
        for tail in _splits(rest, sizes[1:]):
            yield [tuple(cards[i] for i in pick)] + tail


def sample_world(view: View, rng: random.Random) -> Position:
    """One deal drawn uniformly among those consistent with ``view``.

    Raises NotAnalysable when no deal fits (a record whose voids contradict its hands)."""
    seats, unseen, sizes = _others(view)
    closed = rng.choice(_trumps(view))
    cards = list(unseen)
    for _ in range(REJECTIONS):
        rng.shuffle(cards)
        hands, at = [], 0
        for k in sizes:
            hands.append(tuple(cards[at:at + k]))
            at += k
        if _fits(hands, seats, view.voids):
            return _world(view, seats, hands, closed)
    return _world(view, seats, _constrained(seats, unseen, sizes, view.voids, rng), closed)


def _constrained(seats: list[int], unseen: list[str], sizes: list[int], voids: frozenset[tuple[int, str]],
                 rng: random.Random) -> list[tuple[str, ...]]:
    """A uniform consistent deal, suit by suit, each share drawn in proportion to the deals it leaves."""
    suits = [s for s in SUITS if any(c[-1] == s for c in unseen)]
    counts = tuple(sum(1 for c in unseen if c[-1] == s) for s in suits)
    allowed = tuple(tuple(j for j, seat in enumerate(seats) if (seat, s) not in voids) for s in suits)

    @lru_cache(maxsize=None)
    def ways(i: int, caps: tuple[int, ...]) -> int:
        if i == len(suits):
            return 1 if not any(caps) else 0
        return sum(_multinomial(d) * ways(i + 1, tuple(c - x for c, x in zip(caps, d)))
                   for d in _shares(counts[i], allowed[i], caps))

    caps = tuple(sizes)
    if ways(0, caps) == 0:
        raise NotAnalysable("no deal fits the voids shown: the record contradicts itself")
    hands: list[list[str]] = [[] for _ in seats]
    for i, suit in enumerate(suits):
        options = [(d, _multinomial(d) * ways(i + 1, tuple(c - x for c, x in zip(caps, d))))
                   for d in _shares(counts[i], allowed[i], caps)]
        pick = rng.randrange(sum(w for _, w in options))
        for d, w in options:
            if pick < w:
                break
            pick -= w
        cards = [c for c in unseen if c[-1] == suit]
        rng.shuffle(cards)
        at = 0
        for j, k in enumerate(d):
            hands[j].extend(cards[at:at + k])
            at += k
        caps = tuple(c - x for c, x in zip(caps, d))
    return [tuple(h) for h in hands]


def _shares(n: int, allowed: tuple[int, ...], caps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to give ``n`` cards of a suit to the allowed seats within their capacities."""
    def go(k: int, left: int) -> Iterator[tuple[int, ...]]:
        if k == len(caps):
            if left == 0:
                yield ()
            return
        top = min(left, caps[k]) if k in allowed else 0
        for x in range(top, -1, -1):
            for rest in go(k + 1, left - x):
                yield (x,) + rest
    return go(0, n)


# ---- judging ------------------------------------------------------------------------------------

class Solvers:
    """One double-dummy solver per trump set-up seen in the worlds (each keeps its table), all
    under one deadline (CPU seconds) and each under the node limit."""

    def __init__(self, game: PlayRules, *, seconds: float | None = None, nodes: int | None = None) -> None:
        self.game = game
        self._by: dict[Any, Solver] = {}
        self.deadline = None if seconds is None else time.process_time() + seconds
        self.nodes = nodes

    def __call__(self, pos: Position) -> Solver:
        key = (pos.trump, pos.closed, pos.first_void)
        got = self._by.get(key)
        if got is None:
            got = Solver(self.game)
            if self.deadline is not None or self.nodes is not None:
                left = None if self.deadline is None else max(0.0, self.deadline - time.process_time())
                got.limit(self.nodes, left)
            self._by[key] = got
        return got

    def release(self) -> None:
        for s in self._by.values():
            s.limit(None, None)

    @property
    def searched(self) -> int:
        return sum(s.nodes for s in self._by.values())


def judge_view(view: View, played: str, *, worlds: int = WORLDS, rng: random.Random | None = None,
               solvers: Solvers | None = None, seat: str = "") -> SingleJudgement:
    """The single-dummy judgement of ``played`` (and of every legal card) from ``view``."""
    pos = view.pos
    legal = pos.legal()
    if played not in legal:
        raise ValueError(f"{played} is not a legal card here")
    if worlds < 1:
        raise ValueError("at least one world is needed")
    rng = rng or random.Random(0)
    solvers = solvers or Solvers(pos.game)
    every = enumerate_worlds(view)
    exact = every is not None and len(every) <= worlds
    # drawn one at a time as solved, the clock looked at between two: a huge --worlds is bounded by
    # the time limit, where drawing them all first filled the memory and never looked at the clock
    chosen = iter(every) if exact and every is not None else (sample_world(view, rng) for _ in range(worlds))
    mover = pos.turn % 2
    total = pos.game.total
    values: dict[str, list[int]] = {c: [] for c in legal}
    n = 0
    for world in chosen:
        if solvers.deadline is not None and time.process_time() >= solvers.deadline:
            raise OutOfTime
        got = solvers(world).card_values(world)
        for c in legal:
            values[c].append(got[c])
        n += 1
    mine = {c: [v if mover == 0 else total - v for v in vs] for c, vs in values.items()}
    means = {c: sum(vs) / n for c, vs in mine.items()}
    top = max(means.values())
    best = next(c for c in legal if means[c] >= top - 1e-9)
    out = []
    for c in legal:
        diffs = [b - x for b, x in zip(mine[best], mine[c])]
        loss = max(0.0, top - means[c])
        if exact or n < 2 or loss <= 1e-9:
            err = 0.0
        else:
            mean = sum(diffs) / n
            err = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        out.append(CardJudgement(c, sum(values[c]) / n, 0.0 if loss <= 1e-9 else loss, err))
    return SingleJudgement(seat or pos.game.seat_names[pos.turn], played, tuple(out), n, exact, unit_of(pos.game))


def _seed_rng(seed: int, deal: int, trick: int, place: int) -> random.Random:
    return random.Random(f"dehlanote-single:{seed}:{deal}:{trick}:{place}")


def judge_deal(fact: DealFact, rules: Rules, analysis: DealAnalysis, *, worlds: int = WORLDS, seed: int = 0,
               time_limit: float | None = None, node_limit: int | None = None,
               progress: Callable[[int, int], None] | None = None) -> dict[tuple[int, int], SingleJudgement]:
    """The single-dummy judgement of every card the double-dummy ``analysis`` judged, by (trick, place);
    set on each of its plays as ``single``. Judged from the last trick back; a limit leaves the
    earlier cards unjudged (``single`` None) and says so in ``analysis.reason``."""
    out: dict[tuple[int, int], SingleJudgement] = {}
    if not analysis.tricks:
        return out
    try:
        line = _line(fact, rules)
    except NotAnalysable:
        return out
    wanted = {t.number for t in analysis.tricks}
    todo = [(key, item) for key, item in line.items() if key[0] in wanted]
    solvers = Solvers(PlayRules.of(rules), seconds=time_limit, nodes=node_limit)
    try:
        for done, ((trick, place), (pos, voids, card)) in enumerate(reversed(todo)):
            if progress is not None:
                progress(done, len(todo))
            if solvers.deadline is not None and time.process_time() >= solvers.deadline:
                raise OutOfTime     # the worlds are drawn in Python: the search is not the only clock
            view = view_of(pos, voids)
            out[(trick, place)] = judge_view(view, card, worlds=worlds, rng=_seed_rng(seed, fact.number, trick, place),
                                             solvers=solvers, seat=rules.seat_letters[pos.turn])
    except OutOfTime:
        analysis.reason = analysis.reason or "single dummy: not judged in time"
        analysis.solved = False
    finally:
        solvers.release()
        analysis.nodes += solvers.searched
    for t in analysis.tricks:
        for place, p in enumerate(t.plays):
            p.single = out.get((t.number, place))
    return out


def decision_line(fact: DealFact, rules: Rules) -> dict[tuple[int, int], tuple[Position, frozenset[tuple[int, str]],
                                                                              str]]:
    """Every decision of the record as its player saw it: (trick, place) -> (the position before
    the card, with trump still unset under first-void until the first void; the voids shown in
    the tricks before; the card played). Raises NotAnalysable (hands unknown, a card the solver
    cannot follow)."""
    return _line(fact, rules)


def _line(fact: DealFact, rules: Rules) -> dict[tuple[int, int], tuple[Position, frozenset[tuple[int, str]], str]]:
    """Every judged decision of the record: (trick, place) -> (position before it, voids shown, card)."""
    pos, start = start_position(fact, rules)
    seats = rules.seat_letters
    first_void = rules.trump == "first-void"
    voids: set[tuple[int, str]] = set()
    shown = False       # a void shown: under first-void, trump is set from then on
    out = {}
    for t in fact.tricks[start - 1:]:
        led = ""
        try:
            for place, p in enumerate(t.plays):
                check_legal(pos, seats, t.number, p.seat, p.card)
                here = pos
                if first_void and not shown:
                    here = replace(pos, trump=None, first_void=True)    # trump still to be set by the first void
                out[(t.number, place)] = (here, frozenset(voids), p.card)
                if place == 0:
                    led = p.card[-1]
                elif p.card[-1] != led:
                    voids.add((pos.turn, led))
                    shown = True
                voids.discard((pos.turn, p.card[-1]))     # (a revoker's void, belied by a later card)
                pos = pos.play(p.card)
        except IllegalCard as fault:
            # the fault's trick is not judged (as the double-dummy analysis leaves it out); its
            # cards are seen all the same: a revoker shows the void the others then believe in
            for place, p in enumerate(t.plays):
                out.pop((t.number, place), None)
                if place and p.card[-1] != t.plays[0].card[-1] and p.seat in seats:
                    voids.add((seats.index(p.seat), t.plays[0].card[-1]))
                    shown = True
            resumed = past_fault(fact, rules, fault)
            if resumed is None:
                break
            pos = resumed
    return out


__all__ = ["WORLDS", "time_left", "CardJudgement", "SingleJudgement", "View", "view_of", "enumerate_worlds",
           "sample_world", "judge_view", "judge_deal", "mark", "analyse", "play_mark", "play_advice", "decision_line"]


# ---- the deal's judgement, as the commands show it ---------------------------------------------

def analyse(fact: DealFact, rules: Rules, *, dd: bool = False, worlds: int = WORLDS, seed: int = 0,
            from_trick: int = 1, time_limit: float | None = None, node_limit: int | None = None,
            solver: Solver | None = None, progress: Callable[[int, int], None] | None = None) -> DealAnalysis:
    """A deal analysed double dummy and, unless ``dd``, judged single dummy on top (each play's
    ``single``); ``time_limit`` (CPU seconds) is the whole deal's, the judgement getting what the
    double-dummy analysis left of it; ``node_limit`` applies to each of the two."""
    started = time.process_time()
    a = analyse_deal(fact, rules, from_trick=from_trick, solver=solver, node_limit=node_limit,
                     time_limit=time_limit, progress=progress if dd else None)
    if not dd:
        a.single_dummy = True
        judge_deal(fact, rules, a, worlds=worlds, seed=seed, time_limit=time_left(time_limit, started),
                   node_limit=node_limit, progress=progress)
    return a


def time_left(limit: float | None, started: float) -> float | None:
    """What is left of ``limit`` CPU seconds counted from ``started`` (``time.process_time()``);
    None: no limit. Never below 0."""
    return None if limit is None else max(0.0, limit - (time.process_time() - started))


def play_mark(a: DealAnalysis, p: PlayAnalysis, rules: Rules, dealer: int) -> str:
    """The card's mark: single dummy when the deal was judged so (none for a card not judged in
    time), else the double-dummy glyph."""
    if a.single_dummy:
        return p.single.mark if p.single is not None else ""
    return glyph(p, a.game, rules, dealer)


def over_deals(worlds: int, exact: bool, stderr: float, _: Callable[[str], str] = str) -> str:
    """Over which deals a single-dummy figure was found: ``over all 12 deals``, ``over the only
    deal``, ``±0.40 over 32 sampled deals`` (``1 sampled deal``); ``_``: a page's words."""
    if exact:
        return _("over the only deal") if worlds == 1 else _("over all {n} deals").format(n=worlds)
    if worlds == 1:
        return _("\u00b1{error} over 1 sampled deal").format(error=f"{stderr:.2f}")
    return _("\u00b1{error} over {n} sampled deals").format(error=f"{stderr:.2f}", n=worlds)


#: a single-dummy loss, in the deal's unit
_MORE = {"tens": N_("{seat} should have played {cards}: {n} tens more expected ({over} {seat} could not tell apart)"),
         "points": N_("{seat} should have played {cards}: {n} points more expected ({over} {seat} could not tell "
                      "apart)"),
         "tricks": N_("{seat} should have played {cards}: {n} tricks more expected ({over} {seat} could not tell "
                      "apart)")}


def play_advice(a: DealAnalysis, p: PlayAnalysis, _: Callable[[str], str] = str) -> str:
    """What would have kept the value, in the view the deal was judged in:
    ``A should have played QD or JD: 1.60 tens more expected (±0.40 over 32 sampled deals A could
    not tell apart)``; ``_``: the words of a page's language."""
    sd = p.single
    if not a.single_dummy or sd is None:
        return advice(p, a.game, _)
    cards = either([c for c in sd.best if c != p.card], _)
    return _(_MORE[a.game.score]).format(seat=p.seat, cards=cards, n=f"{sd.expected_loss:.2f}",
                                         over=over_deals(sd.worlds, sd.exact, sd.stderr, _))
