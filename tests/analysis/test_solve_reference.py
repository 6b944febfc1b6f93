"""The solver against a brute-force reference: plain minimax, no pruning, no table.

The reference below is written from the rules alone (follow suit, trump, the deferred
centre with two in a row, the run restarting after a sweep, the last trick sweeping,
immediate capture, trump set by the first void or revealed under closed trump, equal
cards: the first played wins) and shares no code with the solver or its ``Position.play``.
Endings of 1-4 tricks come from random legal play of random deals in every profile.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import replace
from functools import lru_cache

import pytest

from dehlanote.analysis import PlayRules, Position, Solver
from dehlanote.analysis.search import _csearch
from dehlanote.deck import DECK, STRENGTH

# both searches: the compiled one (every position) and the pure-Python one, the reference,
# which serves every machine without a compiler
SEARCHES = [pytest.param(False, id="python"),
            pytest.param(True, id="compiled",
                         marks=pytest.mark.skipif(_csearch is None, reason="the compiled search is not built"))]

GAMES = {
    "standard": PlayRules(),
    "hukum": PlayRules(immediate=True),
    "double-sar": PlayRules(score="points"),
    "court-piece": PlayRules(score="tricks"),
    "hukum double-sar": PlayRules(immediate=True, score="points"),
    "hukum court-piece": PlayRules(immediate=True, score="tricks"),
    "six-player": PlayRules(seats=6, decks=3),
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


def random_ending(rng: random.Random, game: PlayRules, tricks_left: int, trump_mode: str) -> Position:
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


@lru_cache(maxsize=None)
def reference(pos: Position) -> int:
    """``Ref(pos).value()``, worked out once for a position: the compiled and the Python search
    are checked against it on the same positions (half the time of these tests was the
    brute force, done twice)."""
    return Ref(pos).value()


@lru_cache(maxsize=None)
def endings(seed: int, count: int, max_left: int) -> tuple[tuple[str, str, Position], ...]:
    """:func:`_endings`, made once for both searches (positions are immutable)."""
    return tuple(_endings(seed, count, max_left))


def _endings(seed: int, count: int, max_left: int):
    rng = random.Random(seed)
    names = sorted(GAMES)
    for i in range(count):
        name = names[i % len(names)]
        game = GAMES[name]
        mode = rng.choice(["known", "known", "first-void", "closed", "none"])
        left = rng.randint(1, 2 if game.seats == 6 else max_left)
        yield name, mode, random_ending(rng, game, left, mode)


@pytest.mark.parametrize("compiled", SEARCHES)
@pytest.mark.parametrize("seed", range(6))
def test_solver_equals_brute_force_on_random_endings(seed: int, compiled: bool) -> None:
    checked = by_compiled = 0
    for name, mode, pos in endings(seed, 350, 3):
        solver = Solver(pos.game, compiled=compiled)
        assert solver.value(pos) == reference(pos), (name, mode, pos)
        checked += 1
        by_compiled += solver.uses_compiled(pos)
    assert checked == 350
    # the compiled search takes every position: six players, trump still to be set by play included
    assert by_compiled == (checked if compiled else 0)


@pytest.mark.parametrize("compiled", SEARCHES)
def test_solver_equals_brute_force_on_four_trick_endings(compiled: bool) -> None:
    for name, mode, pos in endings(99, 60, 4):
        if pos.left < 4 and pos.game.seats == 4:
            continue
        assert Solver(pos.game, compiled=compiled).value(pos) == reference(pos), (name, mode, pos)


@pytest.mark.parametrize("compiled", SEARCHES)
def test_one_solver_serves_a_whole_deal_table_and_all(compiled: bool) -> None:
    """The table is kept between positions: values stay exact along a played deal, with trump
    known or still to be set by play (the first void, closed trump), six players included."""
    rng = random.Random(7)
    for name, mode, left in (("standard", "known", 4), ("hukum", "known", 4), ("double-sar", "known", 4),
                             ("court-piece", "known", 4), ("standard", "first-void", 4), ("standard", "closed", 4),
                             ("hukum", "closed", 4), ("six-player", "known", 2), ("six-player", "first-void", 2),
                             ("six-player", "closed", 2)):
        game = GAMES[name]
        pos = random_ending(rng, game, left, mode)
        solver = Solver(game, compiled=compiled)
        while not pos.over:
            assert solver.value(pos) == reference(pos), (name, mode, pos)
            pos = pos.play(rng.choice(pos.legal()))


MODES = ("known", "none", "first-void", "closed")


@pytest.mark.skipif(_csearch is None, reason="the compiled search is not built")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_compiled_search_equals_the_python_one_on_deeper_endings(name: str, mode: str) -> None:
    """Past what the brute force can check: 5-7 tricks left (six players: 3-5), mid-trick
    starts included, in every profile and trump method (known, none, set by the first void,
    closed with its setter known or still to be chosen by the first void). A tiny table (a few
    hundred entries: outlines evicted, none growing) must give the same values as a large one."""
    rng = random.Random(zlib.crc32(f"{name} {mode}".encode()))
    game = GAMES[name]
    tiny = Solver(game, compiled=True, table_limit=100)
    for i in range(6):
        pos = random_ending(rng, game, (3 if game.seats == 6 else 5) + i % 3, mode)
        want = Solver(game, compiled=False).value(pos)
        fast = Solver(game, compiled=True)
        assert fast.uses_compiled(pos)
        assert fast.value(pos) == want, (name, pos)
        assert tiny.value(pos) == want, (name, pos)
        if not pos.trick and i % 2 == 0:
            assert fast.card_values(pos) == Solver(game, compiled=False).card_values(pos), (name, pos)


def _nodes(game: PlayRules, pos: Position) -> int:
    solver = Solver(game, compiled=True)
    solver.value(pos)
    return solver.nodes


def _low_card_variants(rng: random.Random, pos: Position, count: int) -> list[Position]:
    """Positions that differ from ``pos`` only in who holds the lowest cards of one suit (each
    hand keeps its length in every suit, so voids and the lengths the table's key holds stay)."""
    out = []
    for _ in range(count):
        suit = rng.choice("SHDC")
        held = sorted(((STRENGTH[c], seat, i, c) for seat, hand in enumerate(pos.hands) for i, c in enumerate(hand)
                       if c[-1] == suit and not c.startswith("10")))[:4]
        if len({seat for _, seat, _, _ in held}) < 2:
            continue
        owners = [seat for _, seat, _, _ in held]
        rng.shuffle(owners)
        gone = {(seat, i) for _, seat, i, _ in held}
        hands = [[c for i, c in enumerate(hand) if (seat, i) not in gone] for seat, hand in enumerate(pos.hands)]
        for (_, _, _, card), seat in zip(held, owners):
            hands[seat].append(card)
        if [sorted(h) for h in hands] != [sorted(h) for h in pos.hands]:
            out.append(replace(pos, hands=tuple(tuple(h) for h in hands)))
    return out


@pytest.mark.skipif(_csearch is None, reason="the compiled search is not built")
@pytest.mark.parametrize("mode", MODES)
def test_six_players_partition_table_shares_entries_across_low_cards_and_keeps_every_value(mode: str) -> None:
    """Six players' table serves a position with the entries of another that differs only in
    cards below the ranks its answer needed: endings that differ only in who holds the lowest
    cards of a suit, solved one after the other by one solver, each get the value the Python
    search gives (a wrong share would show here first), and the solver that saw the first one
    searches less for the others than fresh solvers do."""
    rng = random.Random(zlib.crc32(f"partition {mode}".encode()))
    game = GAMES["six-player"]
    warm = Solver(game, compiled=True)
    warm_nodes = fresh_nodes = checked = 0
    for _ in range(8):
        base = random_ending(rng, game, 4, mode)
        while base.trick:
            base = base.play(rng.choice(base.legal()))
        warm.value(base)
        for variant in _low_card_variants(rng, base, 4):
            want = Solver(game, compiled=False).value(variant)
            before = warm.nodes
            assert warm.value(variant) == want, variant
            warm_nodes += warm.nodes - before
            fresh = Solver(game, compiled=True)
            assert fresh.value(variant) == want, variant
            fresh_nodes += fresh.nodes
            checked += 1
    assert checked >= 10, checked
    assert warm_nodes < fresh_nodes, (warm_nodes, fresh_nodes)


@pytest.mark.skipif(_csearch is None, reason="the compiled search is not built")
@pytest.mark.parametrize("mode", MODES)
def test_six_players_exact_table_grows_as_it_fills_and_keeps_every_value(mode: str) -> None:
    """Six players' partition table starts at a quarter of its room and doubles, in
    place, when three quarters are used: the entries moved must still be found (the same values
    as the Python search, and as a solver with a table too big to grow), and it stops at its room."""
    rng = random.Random(zlib.crc32(f"grow {mode}".encode()))
    game = GAMES["six-player"]
    small = Solver(game, compiled=True, table_limit=300)
    rooms = []
    for i in range(5):
        pos = random_ending(rng, game, 4 + i % 2, mode)
        want = Solver(game, compiled=False).value(pos)
        assert small.value(pos) == want, pos
        assert Solver(game, compiled=True).value(pos) == want, pos
        rooms.append(small._engine.exact_room)
    # then endings the search in its default table checks (itself checked against the Python one)
    for i in range(12):
        pos = random_ending(rng, game, 5, mode)
        assert small.value(pos) == Solver(game, compiled=True).value(pos), pos
        rooms.append(small._engine.exact_room)
    # 300 asks for 2,400 entries' room of 24 bytes: 400 positions of 144 bytes at most, 100 at first
    assert rooms == sorted(rooms) and rooms[0] == 100 and rooms[-1] == 400, rooms
    # the positions found before it grew are found after it: an ending solved while the table
    # is small, then other endings until it grows, then the first again, answered from the table
    again = Solver(game, compiled=True, table_limit=4000)
    start = max((random_ending(rng, game, 5, "known") for _ in range(8)),
                key=lambda p: _nodes(game, p))
    value = again.value(start)
    before, room = again.nodes, again._engine.exact_room
    for _ in range(200):
        if again._engine.exact_room > room:
            break
        again.value(random_ending(rng, game, 4, "known"))
    assert again._engine.exact_room > room
    nodes = again.nodes
    # (a fifth: the ending may start inside a trick, whose cards are searched again before the table answers)
    assert again.value(start) == value and again.nodes - nodes < (before + 4) // 5, (before, again.nodes - nodes)
    # a search that does not fill its table keeps the small one it started with: a quarter of
    # its room (the default room: 8,000,000 entries of 24 bytes, 1.3 million positions of 144)
    roomy = Solver(game, compiled=True)
    roomy.value(next(p for p in (random_ending(rng, game, 4, mode) for _ in range(50)) if _nodes(game, p) > 0))
    assert roomy._engine.exact_room == 333_333 // 4 * 4, roomy._engine.exact_room


def test_the_compiled_search_is_built_where_a_compiler_is() -> None:
    """The install builds it when a C compiler is there (setup.py); without one the solver
    falls back to the Python search, slower but the same values."""
    import shutil
    import sysconfig
    from pathlib import Path
    headers = Path(sysconfig.get_paths()["include"], "Python.h").exists()
    if not (shutil.which("cc") or shutil.which("gcc")) or not headers:
        pytest.skip("no C compiler or Python headers here: the Python search serves")
    assert _csearch is not None, "a C compiler is here but the compiled search was not built"
    assert Solver(PlayRules()).compiled


@pytest.mark.skipif(_csearch is None, reason="the compiled search is not built")
def test_the_compiled_search_stops_at_its_limits_and_on_a_signal() -> None:
    """A node limit and a CPU deadline raise OutOfTime; a signal handler's exception (Ctrl-C)
    comes through at once; the solver stays usable after each, with exact values."""
    import signal

    from dehlanote.analysis import OutOfTime
    rng = random.Random(3)
    game = GAMES["standard"]
    deal = random_ending(rng, game, 13, "known")
    solver = Solver(game)
    solver.limit(5000, None)
    with pytest.raises(OutOfTime):
        solver.value(deal)
    assert 5000 <= solver.nodes < 5000 + 2 * 4096 + 52
    # full deals enough to take far longer than the limits below, whatever the machine (one
    # deal alone may be solved within them, and a table warm from it solves it sooner still)
    deals = [deal] + [random_ending(rng, game, 13, "known") for _ in range(40)]
    solver.limit(None, 0.05)
    with pytest.raises(OutOfTime):
        for d in deals:
            solver.value(d)

    class Stop(Exception):
        pass

    def stop(*_):
        raise Stop

    old = signal.signal(signal.SIGALRM, stop)
    try:
        solver.limit(None, None)
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(Stop):
            for d in deals:
                solver.value(d)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    ending = random_ending(rng, game, 3, "known")
    assert solver.value(ending) == Ref(ending).value()


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


def test_a_warm_table_answers_the_same_hands_with_another_centre() -> None:
    """The compiled table leaves the centre out of its key: an entry keeps the centre's value it
    was found with and answers for another centre within what that centre can change (the next
    sweep takes the whole centre, so a centre worth d more adds at most d to AC's gain and takes
    nothing away). The same hands with every centre the deal allows, in a random order, solved
    by one warm solver, give the Python search's values, four and six players, every trump method."""
    from dataclasses import replace
    rng = random.Random(31)
    checked = 0
    for name, tricks in (("standard", 5), ("double-sar", 4), ("court-piece", 4), ("six-player", 3)):
        game = GAMES[name]
        warm = Solver(game)
        for i in range(8):
            pos = random_ending(rng, game, tricks, ("known", "first-void", "closed", "none")[i % 4])
            cards = [c for h in pos.hands for c in h] + list(pos.trick)
            free = 4 * game.decks - sum(c.startswith("10") for c in cards)     # tens in the centre or captured
            variants = []
            for ctens in range(free + 1):
                a = rng.randint(0, free - ctens)
                ctricks = rng.randint(0, pos.done)
                k = rng.randint(0, pos.done - ctricks)
                variants.append(replace(pos, centre_tens=ctens, tens=(a, free - ctens - a), centre_tricks=ctricks,
                                        tricks=(k, pos.done - ctricks - k)))
            rng.shuffle(variants)
            for v in variants:
                assert warm.value(v) == Solver(game, compiled=False).value(v), (name, v)
                checked += 1
    assert checked > 80


@pytest.mark.skipif(_csearch is None, reason="the compiled search is not built")
@pytest.mark.parametrize("name,tricks", [("standard", 6), ("six-player", 3)])
def test_all_or_nothing_found_with_a_centre_answers_any_centre_at_once(name: str, tricks: int) -> None:
    """AC taking every ten still to be won, with a ten in the centre, means AC has a way to take
    all the play brings and the first capture on every line: that holds whatever the centre.
    So after such a position, the same hands with a captured ten put back into the centre (a
    centre worth more, and AC still to take everything, or nothing when that was the answer)
    are answered from the table without a card played, with the Python search's value. The
    rule before it (a centre worth d more adds at most d) left those to be searched again."""
    rng = random.Random(zlib.crc32(f"all or nothing {name}".encode()))
    game = GAMES[name]
    extremes = 0
    for _ in range(400):
        pos = random_ending(rng, game, tricks, "known")
        captured = sum(pos.tens)
        if pos.trick or not pos.centre_tens or not captured:
            continue
        warm = Solver(game, compiled=True)
        value = warm.value(pos)
        most = pos.tens[0] + 4 * game.decks - captured     # AC's tens and every ten still to be won
        if value not in (pos.tens[0], most):
            continue
        side = 0 if pos.tens[0] else 1
        more = replace(pos, centre_tens=pos.centre_tens + 1,
                       tens=(pos.tens[0] - (side == 0), pos.tens[1] - (side == 1)))
        before = warm.nodes
        got = warm.value(more)
        assert got == Solver(game, compiled=False).value(more), (name, more)
        assert got == more.tens[0] + (0 if value == pos.tens[0] else 4 * game.decks - sum(more.tens)), (name, more)
        assert warm.nodes == before, (name, more, warm.nodes - before)
        extremes += 1
        if extremes == 12:
            break
    assert extremes == 12


def test_six_players_warm_lead_slots_answer_as_the_python_search() -> None:
    """For six players the compiled search tries first the lead last found best at a trick
    start with the same suit lengths, leader and centre, kept in the engine across
    positions: a solver warmed by other deals (its slots holding leads of other hands, often
    cards the leader does not hold) gives the Python search's values, every trump method."""
    rng = random.Random(24)
    game = GAMES["six-player"]
    warm = Solver(game)
    for i in range(16):
        pos = random_ending(rng, game, 4, ("known", "first-void", "closed", "none")[i % 4])
        assert warm.value(pos) == Solver(game, compiled=False).value(pos), pos


@pytest.mark.skipif(_csearch is None, reason="the compiled search is not built")
def test_the_compiled_search_lets_other_threads_run() -> None:
    """The replay's stepper solves in a background thread while its keys are read: the
    compiled search must not hold the interpreter meanwhile. A second search on the same
    solver from another thread is refused, not raced."""
    import threading
    import time

    from dehlanote.analysis import OutOfTime
    game = GAMES["standard"]
    deal = random_ending(random.Random(3), game, 13, "known")
    solver = Solver(game)
    solver.limit(None, 1.0)
    done = threading.Event()

    def solve() -> None:
        try:
            solver.value(deal)
        except OutOfTime:
            pass
        done.set()

    worker = threading.Thread(target=solve)
    worker.start()
    turns = 0
    refused = False
    while not done.is_set():
        time.sleep(0.01)
        turns += 1
        if not refused and not done.is_set():
            try:
                solver._engine.test([1, 0, 0, 0] * 4, [], 0, 0, 0, 0, 0, 1, 0, False, 1, 0, -1, 0.0)
            except RuntimeError as e:
                refused = "already searching" in str(e)
    worker.join()
    # the deal needs over a CPU second, so the worker ran to its limit while this thread ran too
    assert turns >= 5
    assert refused


# Positions where the compiled search's move order puts a ten (or a sure winner) first: a
# follower on a trick its partner surely wins, a follower whose ten (or higher card) surely
# beats the other side's, a void ruffing with the ten of trump, a void discarding its ten on
# partner's sure trick, a leader leading its ten into partner's ace, a void ruffing partner's
# card that may lose with its lowest trump that surely wins. Three tricks left, hearts trump;
# every card's value must be the brute force's (the order changes no value).
ORDERED = {
    "ten on partner's sure trick": ((("AS", "KD", "2C"), ("4S", "QD", "3C"), ("10S", "3S", "4C"),
                                     ("5S", "JD", "5C")), ("AS", "4S")),
    "ten that surely wins": ((("9S", "KD", "2C"), ("10S", "2S", "3C"), ("4S", "QD", "4C"),
                              ("5S", "JD", "5C")), ("9S",)),
    "the lowest sure winner": ((("9S", "KD", "2C"), ("AS", "JS", "3C"), ("4S", "QD", "4C"),
                                ("QS", "JD", "5C")), ("9S",)),
    "ruff with the ten of trump": ((("AS", "KD", "2C"), ("10H", "2H", "3C"), ("4S", "QD", "4C"),
                                    ("5S", "JD", "5C")), ("AS",)),
    "ten thrown on partner's sure trick": ((("AS", "KD", "2C"), ("4S", "QD", "3C"), ("10D", "3D", "4C"),
                                            ("5S", "JD", "5C")), ("AS", "4S")),
    "ten led into partner's ace": ((("10S", "3S", "2C"), ("KS", "QD", "3C"), ("AS", "4D", "4C"),
                                    ("JS", "JD", "5C")), ()),
    "a ruff that secures partner's trick": ((("KS", "KD", "2C"), ("4S", "QD", "3C"), ("5H", "2H", "4C"),
                                             ("AS", "JD", "5C")), ("KS", "4S")),
}


@pytest.mark.parametrize("compiled", SEARCHES)
@pytest.mark.parametrize("name,centre", [("standard", "empty"), ("standard", "a ten, leader one win from a sweep"),
                                         ("hukum", "empty")])
@pytest.mark.parametrize("case", sorted(ORDERED))
def test_every_card_is_valued_right_where_the_order_puts_a_ten_first(case: str, name: str, centre: str,
                                                                      compiled: bool) -> None:
    hands, trick = ORDERED[case]
    extra: dict = {}
    if centre != "empty":
        extra = {"last_winner": 0, "run": 1, "centre_tricks": 1, "centre_tens": 1}
    pos = Position(GAMES[name], hands, 0, trump="H", done=10, **extra)
    for card in trick:
        pos = pos.play(card)
    solver = Solver(pos.game, compiled=compiled)
    got = solver.card_values(pos)
    want = {card: Ref(pos.play(card)).value() for card in pos.legal()}
    assert got == want
