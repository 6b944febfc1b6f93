"""The solver against a brute-force reference: plain minimax, no pruning, no table.

The reference below is written from the rules alone (follow suit, trump, the deferred
centre with two in a row, the run restarting after a sweep, the last trick sweeping,
immediate capture, trump set by the first void or revealed under closed trump, equal
cards: the first played wins) and shares no code with the solver or its ``Position.play``.
Endings of 1-4 tricks come from random legal play of random deals in every profile.
"""

from __future__ import annotations

import random

import pytest

from dehlanote.analysis import Game, Position, Solver
from dehlanote.syntax.cards import DECK, STRENGTH

GAMES = {
    "standard": Game(),
    "hukum": Game(immediate=True),
    "double-sar": Game(score="points"),
    "court-piece": Game(score="tricks"),
    "hukum double-sar": Game(immediate=True, score="points"),
    "hukum court-piece": Game(immediate=True, score="tricks"),
    "six-player": Game(seats=6, decks=3),
}


class Ref:
    """A deal's state as plain values: a straight reading of the rules."""

    def __init__(self, pos: Position) -> None:
        g = pos.game
        self.n = g.seats
        self.total_tricks = g.tricks_per_deal
        self.immediate = g.immediate
        self.score = g.score
        self.hands = [list(h) for h in pos.hands]
        self.leader = pos.leader
        self.trick = list(pos.trick)
        self.trump = pos.trump
        self.closed = pos.closed
        self.first_void = pos.first_void
        self.last = pos.last_winner
        self.run = pos.run
        self.centre = [pos.centre_tricks, pos.centre_tens]
        self.piles = [[pos.tricks[0], pos.tens[0]], [pos.tricks[1], pos.tens[1]]]
        self.done = pos.done

    def value(self) -> int:
        """Side 0's final score under best play, by exhaustive minimax."""
        if self.done == self.total_tricks:
            t, x = self.piles[0]
            return x if self.score == "tens" else t if self.score == "tricks" else self.n * t + x
        seat = (self.leader + len(self.trick)) % self.n
        hand = self.hands[seat]
        cards = sorted(set(hand))
        if self.trick:
            follow = [c for c in cards if c[-1] == self.trick[0][-1]]
            cards = follow or cards
        results = []
        for card in cards:
            saved = (self.leader, list(self.trick), self.trump, self.closed, self.first_void, self.last,
                     self.run, list(self.centre), [list(p) for p in self.piles], self.done)
            hand.remove(card)
            self.step(card)
            results.append(self.value())
            hand.append(card)
            (self.leader, self.trick, self.trump, self.closed, self.first_void, self.last, self.run,
             self.centre, self.piles, self.done) = saved
        return max(results) if seat % 2 == 0 else min(results)

    def step(self, card: str) -> None:
        seat = (self.leader + len(self.trick)) % self.n
        if self.trick and card[-1] != self.trick[0][-1] and self.trump is None:
            if self.first_void:
                self.trump, self.first_void = card[-1], False
            elif self.closed is not None and self.closed[1] == -1:
                self.closed = (self.closed[0], seat)   # hukum: the first void sets trump in secret
            elif self.closed is not None and self.closed[1] == seat:
                self.trump, self.closed = self.closed[0], None
        self.trick.append(card)
        if len(self.trick) < self.n:
            return
        win = 0
        for k in range(1, self.n):
            c, w = self.trick[k], self.trick[win]
            if (c[-1] == w[-1] and STRENGTH[c] > STRENGTH[w]) or (c[-1] == self.trump and w[-1] != self.trump):
                win = k
        winner = (self.leader + win) % self.n
        tens = sum(c.startswith("10") for c in self.trick)
        self.done += 1
        self.run = self.run + 1 if self.last == winner else 1
        self.last = self.leader = winner
        self.trick = []
        pile = self.piles[winner % 2]
        if self.immediate:
            pile[0] += 1
            pile[1] += tens
            return
        self.centre[0] += 1
        self.centre[1] += tens
        if self.run == 2 or self.done == self.total_tricks:
            if self.run == 2:
                self.run = 0
            pile[0] += self.centre[0]
            pile[1] += self.centre[1]
            self.centre = [0, 0]


def random_ending(rng: random.Random, game: Game, tricks_left: int, trump_mode: str) -> Position:
    """A random deal played at random to ``tricks_left`` tricks (maybe into a trick)."""
    deck = list(DECK) * game.decks
    rng.shuffle(deck)
    size = len(deck) // game.seats
    hands = tuple(tuple(deck[i * size:(i + 1) * size]) for i in range(game.seats))
    suit: str | None = rng.choice("SHDC")
    extra: dict = {}
    if trump_mode == "first-void":
        suit, extra = None, {"first_void": True}
    elif trump_mode == "closed":
        extra = {"closed": (suit, rng.randrange(-1, game.seats))}
        suit = None
    elif trump_mode == "none":
        suit = None
    pos = Position(game, hands, rng.randrange(game.seats), trump=suit, **extra)
    while pos.left > tricks_left:
        pos = pos.play(rng.choice(pos.legal()))
    for _ in range(rng.randrange(game.seats)):
        pos = pos.play(rng.choice(pos.legal()))
    return pos


def _endings(seed: int, count: int, max_left: int):
    rng = random.Random(seed)
    names = sorted(GAMES)
    for i in range(count):
        name = names[i % len(names)]
        game = GAMES[name]
        mode = rng.choice(["known", "known", "first-void", "closed", "none"])
        left = rng.randint(1, 2 if game.seats == 6 else max_left)
        yield name, mode, random_ending(rng, game, left, mode)


@pytest.mark.parametrize("seed", range(6))
def test_solver_equals_brute_force_on_random_endings(seed: int) -> None:
    checked = 0
    for name, mode, pos in _endings(seed, 350, 3):
        solver = Solver(pos.game)
        assert solver.value(pos) == Ref(pos).value(), (name, mode, pos)
        checked += 1
    assert checked == 350


def test_solver_equals_brute_force_on_four_trick_endings() -> None:
    for name, mode, pos in _endings(99, 60, 4):
        if pos.left < 4 and pos.game.seats == 4:
            continue
        assert Solver(pos.game).value(pos) == Ref(pos).value(), (name, mode, pos)


def test_one_solver_serves_a_whole_deal_table_and_all() -> None:
    """The table is kept between positions: values stay exact along a played deal."""
    rng = random.Random(7)
    for name in ("standard", "hukum", "double-sar", "court-piece"):
        game = GAMES[name]
        pos = random_ending(rng, game, 4, "known")
        solver = Solver(game)
        while not pos.over:
            assert solver.value(pos) == Ref(pos).value(), (name, pos)
            pos = pos.play(rng.choice(pos.legal()))


def test_a_warm_table_answers_as_a_fresh_solver_on_six_trick_endings() -> None:
    """The table stores each bound with only the ranks it depended on (partition search), so
    one entry answers for other positions: a solver that has already solved many positions of
    other deals gives the same values as a fresh one (checked against the brute force on
    shorter endings above; here deeper, where the partition matters most)."""
    rng = random.Random(15)
    for name in ("standard", "hukum", "double-sar", "court-piece"):
        game = GAMES[name]
        warm = Solver(game)
        for i in range(12):
            pos = random_ending(rng, game, 6, "known" if i % 3 else "first-void")
            assert warm.value(pos) == Solver(game).value(pos), (name, pos)
