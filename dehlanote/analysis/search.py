"""The exact double-dummy search: alpha-beta by zero-window tests, a transposition table.

The question asked of the tree is always "can side 0 (AC) still gain at least ``target``
from here?" (a zero-window search); the exact value comes from a few such tests (a binary
search between bounds). The tests are fail-soft: the answer is a bound, at least
``target`` when the gain is at least that much, so each test can narrow the range by more
than one step and the table keeps the tightest bounds seen (-4 % nodes on 8-trick
endings). A gain is what side 0 captures from now on, in the profile's unit, so it does
not depend on what was captured before: that is what lets one transposition table serve
every position of a deal.

Speed comes from:

* **the transposition table**, looked up at the start of each trick, holding a lower and
  an upper bound of the gain and the lead that last proved a bound. Its key is what the
  rest of the deal depends on: each suit as the owners of its remaining cards by
  *relative* rank (a 9 that is now the highest heart out is an ace), the ten marked
  (it carries the score), the non-trump suits sorted (they are interchangeable), the
  leader and whether the leader is one win from a sweep, and the centre's tens (and
  tricks, when they score), packed in one integer. The table has a size limit, kept in
  two generations: when the current one is full it becomes the old one (the previous old
  one is dropped) and entries found in the old one move to the current one.
* **equivalent cards merged**: cards of one hand that are adjacent among the cards still
  out (or in the current trick) win the same tricks, so only one of them is searched;
  a ten is never merged with another card when tens score.
* **cheap bounds**: nothing to gain, or more asked than the tens (points, tricks) left.
* **move ordering that knows the game**: the lead that proved the last bound first; a
  follower beats the card winning the trick as cheaply as it can when the other side is
  winning it, plays low when its partner is; a ten is thrown on partner's trick only when
  that trick sweeps the centre, and otherwise kept back; discards come from the lowest
  cards of the longest plain suit.

Cards inside the search are (suit, rank) with rank 0 for a two up to 12 for an ace; a
hand is one integer per (seat, suit) with two bits per rank (a count, up to three decks).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ..deck import STRENGTH, SUITS
from .position import PlayRules, Position, check_position, is_ten
from .tricks import leading

_csearch: ModuleType | None
try:
    from . import _csearch     # the same search compiled (built at install when a C compiler is there)
except ImportError:            # pragma: no cover - depends on the build
    _csearch = None

SCORE_CODE = {"tens": 0, "points": 1, "tricks": 2}

TEN = 8
HINTS = [None] + [(s, r) for s in range(4) for r in range(16)]   # a lead packed as suit * 16 + rank + 1
CHECK_EVERY = 4096
# A node limit past this is no limit in practice (tens of thousands of years of card plays) and stays within
# the compiled search's 64-bit count: a larger one is taken as this one
NODES_MOST = 1 << 62
NO_RANKS: tuple[int, ...] = ()
OTHERS = ((1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2))
ONES = int("01" * 13, 2)
RANK_NAME = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def card_of(suit: int, rank: int) -> str:
    return RANK_NAME[rank] + SUITS[suit]


def parts(card: str) -> tuple[int, int]:
    return SUITS.index(card[-1]), STRENGTH[card]


class OutOfTime(Exception):
    """The node limit was reached before the position was solved."""


class Solver:
    """A double-dummy solver for one game (rules) and one trump set-up; its table is kept
    between calls, so solving the positions of one deal one after the other is cheap.
    """

    def __init__(self, game: PlayRules, *, table_limit: int = 1_000_000, compiled: bool | None = None) -> None:
        """``compiled``: use the compiled search where it applies (None: when it is built)."""
        self.game = game
        if compiled and _csearch is None:
            raise RuntimeError("the compiled search is not built (reinstall with a C compiler)")
        self.compiled = _csearch is not None if compiled is None else compiled
        self._engine: Any = None
        self.table_limit = table_limit
        self.nodes = 0
        self.node_limit: int | None = None
        self.deadline: float | None = None
        self.check_at = 1 << 62
        self._table: dict = {}
        self._old: dict = {}
        self._rel: dict = {}
        self._cuts: dict = {}
        self._old_cuts: dict = {}
        self._classes: dict = {}
        self._config: tuple = ()

    # ---- public ---------------------------------------------------------------------------

    def value(self, pos: Position, guess: int | None = None) -> int:
        """Side 0's final score under best play from ``pos``. ``guess``: a likely value, tested
        first (the value is the same; a right guess saves tests). Raises ValueError when ``pos``
        is not a position a deal can reach (a card held twice, a hand of the wrong size ...: see
        :func:`~dehlanote.analysis.position.check_position`)."""
        self._check(pos)
        if pos.over:
            return pos.score()[0]
        return pos.score()[0] + self._gain(pos, None if guess is None else guess - pos.score()[0])

    def card_values(self, pos: Position) -> dict[str, int]:
        """Side 0's final score after each legal card of the player to move (best play after)."""
        self._check(pos)
        out: dict[str, int] = {}
        for group in pos.groups():
            v = self.value(pos.play(group[0]))
            for card in group:
                out[card] = v
        return out

    def judge(self, pos: Position, played: str, guess: int | None = None) -> tuple[int, int, tuple[str, ...]]:
        """The value after ``played``, the best value the mover could have had, and the cards
        that give it. Cheaper than every card's value: the value after ``played`` bounds the
        position's value on the mover's side, so the position is valued from it (one test when
        ``played`` was best); then every other card is told equal to the best or worse in one
        test. ``guess``: a likely value after ``played`` (see :meth:`value`)."""
        self._check(pos)
        if played not in pos.legal():
            raise ValueError(f"{played} is not a legal card here")
        groups = pos.groups()
        mover_side0 = pos.turn % 2 == 0
        after = self.value(pos.play(played), guess)
        base = pos.score()[0]
        if mover_side0:
            best = base + self._gain(pos, after + 1 - base, lo=after - base)
        else:
            best = base + self._gain(pos, after - base, hi=after - base)
        best_cards: list[str] = []
        for group in groups:
            if played in group:
                if after == best:
                    best_cards.extend(group)
                continue
            nxt = pos.play(group[0])
            # the mover's side reaches best with this card (side 0: at least best; side 1: at most)
            if (self._test(nxt, best) >= best if mover_side0 else self._test(nxt, best + 1) <= best):
                best_cards.extend(group)
        order = {c: i for i, c in enumerate(pos.legal())}
        return after, best, tuple(sorted(best_cards, key=order.__getitem__))

    def at_least(self, pos: Position, target: int) -> bool:
        """Whether side 0's final score can reach ``target`` under best play (one test)."""
        self._check(pos)
        if isinstance(target, bool) or not isinstance(target, int):
            raise ValueError(f"the target must be a whole number, not {target!r}")
        return self._test(pos, target) >= target

    def _test(self, pos: Position, target: int) -> int:
        """One fail-soft test: side 0's final score is at least the result when it is ``target``
        or more, at most the result when it is less."""
        if pos.over:
            return pos.score()[0]
        return pos.score()[0] + self._setup(pos)(target - pos.score()[0])

    def limit(self, nodes: int | None, seconds: float | None) -> None:
        """Stop (raise :class:`OutOfTime`) after ``nodes`` more nodes or ``seconds`` more CPU seconds.

        None is no limit. 0 stops at the first check (every 4,096 nodes), in both searches; a
        negative limit is refused (ValueError), so "no limit" is only ever said with None."""
        if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 0):
            raise ValueError(f"the node limit must be a whole number of 0 or more, or None, not {nodes!r}")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or not seconds >= 0):
            raise ValueError(f"the time limit must be a number of seconds of 0 or more, or None, not {seconds!r}")
        self.node_limit = None if nodes is None else min(self.nodes + nodes, NODES_MOST)
        self.deadline = None if seconds is None else time.process_time() + seconds
        self.check_at = self.nodes + CHECK_EVERY if nodes is not None or seconds is not None else 1 << 62

    def tick(self) -> None:
        """The periodic check of the limits (every few thousand nodes)."""
        self.check_at = self.nodes + CHECK_EVERY
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise OutOfTime
        if self.deadline is not None and time.process_time() > self.deadline:
            raise OutOfTime

    def _check(self, pos: Position) -> None:
        if not isinstance(pos, Position):
            raise ValueError(f"a position to solve must be a Position, not {type(pos).__name__}")
        if pos.game != self.game:
            raise ValueError(f"this solver is for {self.game}, not for a position of {pos.game}")
        check_position(pos)

    # ---- the search -----------------------------------------------------------------------

    def _setup_compiled(self, pos: Position) -> Callable[[int], int]:
        """:meth:`_setup` for the compiled search (its table kept in ``_engine``)."""
        assert _csearch is not None
        if self._engine is None:
            self._engine = _csearch.Engine(4 * self.table_limit)
        engine = self._engine
        g = self.game
        masks = [0] * (4 * g.seats)
        for seat, hand in enumerate(pos.hands):
            for card in hand:
                s, r = parts(card)
                masks[seat * 4 + s] += 1 << (2 * r)     # a count of each rank, 2 bits a rank
        cards = [s * 16 + r for s, r in map(parts, pos.trick)]
        tens = sum(1 for c in pos.trick if is_ten(c)) + sum(1 for h in pos.hands for c in h if is_ten(c))
        wK = {"tens": 0, "points": g.seats, "tricks": 1}[g.score]
        wT = 0 if g.score == "tricks" else 1
        self._upper = (tens + pos.centre_tens) * wT + (pos.centre_tricks + pos.left) * wK
        trump = SUITS.index(pos.trump) if pos.trump is not None else -1
        # the run matters only to the centre (a second win in a row sweeps it)
        run = pos.run if pos.last_winner == pos.leader and not g.immediate else 0
        hidden, setter = (SUITS.index(pos.closed[0]), pos.closed[1]) if pos.closed is not None else (-1, -1)
        first_void = pos.first_void and trump < 0

        def test(target: int) -> int:
            if self.nodes >= self.check_at:     # the engine checks within one call: the limits hold over many
                self.tick()
            res, self.nodes = engine.test(masks, cards, trump, pos.leader, run, pos.centre_tens, pos.centre_tricks,
                                          pos.left, SCORE_CODE[g.score], g.immediate, target, self.nodes,
                                          -1 if self.node_limit is None else self.node_limit,
                                          self.deadline or 0.0, g.seats, g.decks, first_void, hidden, setter)
            if res < 0:
                raise OutOfTime
            return res
        return test

    def _gain(self, pos: Position, guess: int | None = None, *, lo: int = 0, hi: int | None = None) -> int:
        """Side 0's gain from ``pos`` under best play; ``lo`` and ``hi``: bounds already known."""
        run = self._setup(pos)
        steer = 0 if guess is None else 2
        hi = self._upper if hi is None else min(hi, self._upper)
        while lo < hi:
            mid = (lo + hi + 1) // 2 if not steer else min(max(guess or 0, lo + 1), hi)
            g = run(mid)
            lo, hi = (g, hi) if g >= mid else (lo, g)
            # the guess, then the test next to the bound it gave (a right guess is so proved), then halves
            steer, guess = max(steer - 1, 0), lo + 1 if g >= mid else hi
        return lo

    def uses_compiled(self, pos: Position) -> bool:
        """Whether ``pos`` is searched by the compiled search: every position, when it is built
        (and not turned off with ``compiled=False``)."""
        return self.compiled

    def _setup(self, pos: Position) -> Callable[[int], int]:
        """Load ``pos`` into the search state; returns the test "gain >= target?", fail-soft:
        a result ``g >= target`` means the gain is at least ``g``, ``g < target`` at most ``g``."""
        if self.uses_compiled(pos):
            return self._setup_compiled(pos)
        g = self.game
        n = g.seats
        tens_score = g.score != "tricks"
        wK = {"tens": 0, "points": n, "tricks": 1}[g.score]
        wT = 0 if g.score == "tricks" else 1
        immediate = g.immediate
        # the trump set-up: a change of it makes the table's entries meaningless
        hidden = -1
        setter = -1
        if pos.closed is not None:
            hidden = SUITS.index(pos.closed[0])
            setter = pos.closed[1]
        config = (hidden,)
        if len(self._rel) > 400_000:
            self._rel = {}
            self._table, self._old = {}, {}
            self._cuts, self._old_cuts = {}, {}
        if config != self._config:
            self._table, self._old = {}, {}
            self._cuts, self._old_cuts = {}, {}
            self._config = config
        table = self._table
        old = self._old
        cuts_now = self._cuts
        cuts_old = self._old_cuts
        rel = self._rel
        classes_memo = self._classes
        limit = self.table_limit
        solver = self
        # the node count and the next limit check, kept in the closure (cheaper than the solver's
        # attributes at every node) and handed back to the solver after each test
        count = self.nodes
        check_at = self.check_at

        H = [0] * (4 * n)
        R = [0] * 4
        hand_tens = 0
        for seat, hand in enumerate(pos.hands):
            for card in hand:
                s, r = parts(card)
                H[seat * 4 + s] += 1 << (2 * r)
                if r == TEN:
                    hand_tens += 1
        for s in range(4):
            R[s] = sum(H[s::4])
        stack: list[tuple[int, int]] = []
        for card in pos.trick:
            s, r = parts(card)
            R[s] += 1 << (2 * r)
            stack.append((s, r))
        trump = SUITS.index(pos.trump) if pos.trump is not None else -1
        fv = pos.first_void and trump < 0
        closed_pending = hidden >= 0 and trump < 0
        last_cut: list = [None]
        cut_holder = last_cut
        sure_rel = [0]
        relv = 0     # set by each call of the search: the cards its answer depended on
        trick_tens = sum(1 for c in pos.trick if is_ten(c))
        self._upper = (hand_tens + trick_tens + pos.centre_tens) * wT + (pos.centre_tricks + pos.left) * wK

        # several decks: entries for the exact position only (partition by ranks tried there made
        # six-player endings slower, equal cards of several decks being one rank for many owners)
        exact = g.decks > 1
        four = n == 4
        tenx = TEN if tens_score else -1    # the ten as a card apart (not under court piece)

        def suit_info(masks: tuple) -> tuple:
            """A suit's remaining cards: (id of its lengths and ten owner per hand, its ranks high to low,
            ids of the owners of its top 0, 1, 2, ... ranks, the ten marked, the order of suits).
            Ids are packed in 24 bits in the table's keys: ``rel`` is emptied past 400,000 entries
            between searches, and one search would need gigabytes to reach 2 ** 24."""
            got = rel.get(masks)
            if got is None:
                lens = tuple((m & ONES).bit_count() + 2 * ((m >> 1) & ONES).bit_count() for m in masks)
                tens_at = tuple((m >> 2 * TEN) & 3 for m in masks) if tens_score else ()
                ranks = []
                prefix = [0]
                for r in range(12, -1, -1):
                    sh = 2 * r
                    owners = tuple((m >> sh) & 3 for m in masks)
                    if any(owners):
                        ranks.append(r)
                        prefix.append(rel.setdefault(("pre", prefix[-1], owners, r == TEN and tens_score), len(rel)))
                # the count of ranks too: with two packs (six players) equal lengths may hold fewer
                # ranks, and a cut stored for one position must index the other's prefixes
                lenid = rel.setdefault(("len", lens, tens_at, len(ranks)), len(rel))
                got = (lenid, tuple(ranks), tuple(prefix), lenid << 24 | prefix[-1])
                rel[masks] = got
            return got

        def classes(m: int, rs: int) -> tuple:
            """One rank per class of equivalent cards of a holding ``m`` (high to low)."""
            key = m | (rs << 26)
            got = classes_memo.get(key)
            if got is not None:
                return got
            out = []
            in_run = False
            rep = False
            for r in range(12, -1, -1):
                sh = 2 * r
                c = (rs >> sh) & 3
                if not c:
                    continue
                mine = (m >> sh) & 3
                if mine == c:
                    if not in_run:
                        in_run, rep = True, False
                    if r == TEN and tens_score:
                        out.append(r)
                    elif not rep:
                        out.append(r)
                        rep = True
                else:
                    in_run = False
                    if mine:
                        out.append(r)
            got = tuple(out)
            if len(classes_memo) > 200_000:
                classes_memo.clear()
            classes_memo[key] = got
            return got

        def sure(leader: int, need: int) -> int:
            """How many tricks running the leader can surely win by leading one suit (up to ``need``)."""
            best, lb, late = 0, leader * 4, int(closed_pending and setter < 0)
            for s in range(4):
                m = H[lb + s]
                if not m:
                    continue
                rs = R[s]
                top_rank = rs.bit_length() - 1 >> 1
                sh = 2 * top_rank
                if not (m >> sh) & 3:
                    continue
                t = 0
                low = top_rank
                for r in range(top_rank, -1, -1):
                    sh = 2 * r
                    c = (rs >> sh) & 3
                    if not c:
                        continue
                    low = r
                    mine = (m >> sh) & 3
                    if mine == c:
                        t += mine
                        if t >= need:
                            break
                        continue
                    if t == 0:
                        t = 1
                    break
                t = min(t, need)
                for o in range(n):
                    # who may beat a top card: a trump holder; with trump still to be set by play, any
                    # void (first void) or closed trump's setter, void (no setter yet: the next trick on)
                    if o == leader or not (s != trump and H[o * 4 + trump] if trump >= 0 else fv or (
                            closed_pending and s != hidden and (setter < 0 or o == setter))):
                        continue
                    om = H[o * 4 + s]     # its length in the suit (a count a rank, 2 bits each), +1 for a new setter
                    t = min(t, (om & ONES).bit_count() + 2 * (om >> 1 & ONES).bit_count() + late)
                if t > best:
                    best = t
                    if best >= need:
                        sure_rel[0] = 1 << (16 * s + low)
                        return best
            return best

        rel_get = rel.get

        def canon() -> tuple:
            """The suits' infos in the table's order (trump, or closed trump, first; the other suits
            are interchangeable, so sorted) and that order."""
            m0: tuple[int, ...]
            m1: tuple[int, ...]
            m2: tuple[int, ...]
            m3: tuple[int, ...]
            if n == 4:
                m0, m1, m2, m3 = (H[0], H[4], H[8], H[12]), (H[1], H[5], H[9], H[13]), \
                    (H[2], H[6], H[10], H[14]), (H[3], H[7], H[11], H[15])
            else:
                m0, m1, m2, m3 = tuple(H[0::4]), tuple(H[1::4]), tuple(H[2::4]), tuple(H[3::4])
            infos = [rel_get(m0) or suit_info(m0), rel_get(m1) or suit_info(m1), rel_get(m2) or suit_info(m2),
                     rel_get(m3) or suit_info(m3)]
            special = trump if trump >= 0 else hidden if closed_pending else -1
            if special >= 0:
                # the three other suits sorted (stable) by a network of three compare-and-swaps
                a, b, c = OTHERS[special]
                fa, fb, fc = infos[a][3], infos[b][3], infos[c][3]
                if fb < fa:
                    a, b, fa, fb = b, a, fb, fa
                if fc < fb:
                    b, c, fb = c, b, fc
                    if fb < fa:
                        a, b = b, a
                return infos, (special, a, b, c), special
            fulls = [infos[0][3], infos[1][3], infos[2][3], infos[3][3]]
            return infos, sorted((0, 1, 2, 3), key=fulls.__getitem__), special

        def trick(leader: int, run: int, ctens: int, ctricks: int, left: int, target: int) -> int:
            """Side 0's gain from the start of a trick (fail-soft against ``target``). Sets ``relv`` to
            the cards whose owners the answer depended on (partition search, as DDS does it): the
            answer holds for every position with the same suit lengths and ten owners per hand and
            the same owners of each suit's cards down to the lowest of those."""
            nonlocal table, old, cuts_now, cuts_old, relv, count, check_at
            if target <= 0:
                relv = 0
                return 0
            if count >= check_at:
                solver.nodes = count
                solver.tick()
                check_at = solver.check_at
            top = (ctens + hand_tens) * wT + (ctricks + left) * wK
            if target > top:
                relv = 0
                return top
            if left == 1 and not fv and not closed_pending:
                # the last trick plays itself: one card each
                count += n
                bseat = -1
                bs = br = -1
                ttens = 0
                seat = leader
                suits = 0
                for _ in range(n):
                    base = seat * 4
                    for cs in range(4):
                        m = H[base + cs]
                        if m:
                            cr = m.bit_length() - 1 >> 1
                            break
                    if cr == TEN:
                        ttens += 1
                    suits += 1 << 4 * cs
                    if bseat < 0 or (cs == bs and cr > br) or (cs == trump and bs != trump):
                        bseat, bs, br = seat, cs, cr
                    seat += 1
                    if seat == n:
                        seat = 0
                # the winner's rank matters only against other cards of its suit
                relv = 1 << (16 * bs + br) if suits >> 4 * bs & 15 > 1 else 0
                if bseat & 1:
                    return 0
                if immediate:
                    return ttens * wT + wK
                return (ctens + ttens) * wT + (ctricks + 1) * wK
            if not immediate and (ctens * wT or ctricks * wK) and trump >= -1:
                need = 1 if run or left == 1 else 2
                if need <= sure(leader, need):
                    got = ctens * wT + (ctricks + need) * wK
                    if not (leader & 1):
                        if target <= got:
                            relv = sure_rel[0]
                            return got
                    elif target > top - got:
                        relv = sure_rel[0]
                        return top - got
            infos, order, special = canon()
            i0, i1, i2, i3 = infos[order[0]], infos[order[1]], infos[order[2]], infos[order[3]]
            small = (leader | run << 3 | (ctens if wT else 0) << 4 | (ctricks if wK else 0) << 9 | fv << 14
                     | ((setter if closed_pending else -2) + 2) << 15 | (special + 1) << 18)
            okey = (((i0[0] << 24 | i1[0]) << 24 | i2[0]) << 24 | i3[0]) << 24 | small
            cuts = cuts_now.get(okey)
            if cuts is None:
                cuts = cuts_old.get(okey)
                if cuts is not None:
                    cuts = cuts_now[okey] = list(cuts)
            hint = None
            if cuts is not None:
                p0, p1, p2, p3 = i0[2], i1[2], i2[2], i3[2]
                for cut in cuts:
                    key = ((((okey << 16 | cut) << 24 | p0[cut & 15]) << 24 | p1[cut >> 4 & 15]) << 24
                           | p2[cut >> 8 & 15]) << 24 | p3[cut >> 12]
                    entry = table.get(key)
                    if entry is None:
                        entry = old.get(key)
                        if entry is None:
                            continue
                        table[key] = entry
                    # an entry: lower bound | upper bound << 7 | (the lead that proved one + 1) << 14
                    bound = entry & 127
                    if bound >= target:
                        relv = rel_of(cut, infos, order)
                        return bound
                    bound = entry >> 7 & 127
                    if bound < target:
                        relv = rel_of(cut, infos, order)
                        return bound
                    if entry >> 14:
                        hint = HINTS[entry >> 14]
            cut_holder[0] = None
            res = play(0, leader, -1, 0, -1, -1, 0, target, leader, run, ctens, ctricks, left, hint)
            best = cut_holder[0]
            # the cut: per suit (in the table's order) how many of its top ranks the answer needed
            got_rel = relv
            cut = 0
            for i in range(4):
                bits = got_rel >> 16 * order[i] & 0xFFFF
                if exact:
                    cut |= len(infos[order[i]][1]) << 4 * i
                elif bits:
                    low = (bits & -bits).bit_length() - 1
                    c = 0
                    for r in infos[order[i]][1]:
                        if r < low:
                            break
                        c += 1
                    cut |= c << 4 * i
            key = ((((okey << 16 | cut) << 24 | i0[2][cut & 15]) << 24 | i1[2][cut >> 4 & 15]) << 24
                   | i2[2][cut >> 8 & 15]) << 24 | i3[2][cut >> 12]
            entry = table.get(key)
            if entry is None:
                if len(table) >= limit:
                    # two generations: the older half goes, the recent one is kept
                    old, table = table, {}
                    cuts_old, cuts_now = cuts_now, {}
                    solver._table, solver._old = table, old
                    solver._cuts, solver._old_cuts = cuts_now, cuts_old
                    cuts = None
                if cuts is None:
                    cuts = cuts_now.get(okey)
                    if cuts is None:
                        cuts = cuts_now[okey] = []
                if cut not in cuts:
                    # the newest cut first: it is the likeliest to be found again soon
                    cuts.insert(0, cut)
                lo, hi, h = 0, top, 0
            else:
                lo, hi, h = entry & 127, entry >> 7 & 127, entry >> 14
            if res >= target:
                if res > lo:
                    lo = res
            elif res < hi:
                hi = res
            if best is not None:
                h = best[0] * 16 + best[1] + 1
            table[key] = lo | hi << 7 | h << 14
            relv = got_rel
            return res

        def rel_of(cut: int, infos: list, order: tuple) -> int:
            """The cards an entry's answer depended on, in this position: the lowest of the top ranks kept."""
            bits = 0
            for i in range(4):
                c = cut >> 4 * i & 15
                if c:
                    s = order[i]
                    bits |= 1 << (16 * s + infos[s][1][c - 1])
            return bits

        def finish(bk: int, bs: int, br: int, ttens: int, target: int, leader: int, run: int, ctens: int,
                   ctricks: int, left: int) -> int:
            nonlocal relv
            winner = (leader + bk) % n
            side = winner & 1
            # the winning card matters, and so do the cards of its hand equivalent to it (the search
            # tried one of them only): the lowest of them is kept
            low = br
            if four:
                saved = c0, c1, c2, c3 = stack[-4:]
                s0, s1, s2, s3 = c0[0], c1[0], c2[0], c3[0]
                same = (s0 == bs) + (s1 == bs) + (s2 == bs) + (s3 == bs)
            else:
                saved = stack[-n:]
                same = 0
                for cs, _ in saved:
                    if cs == bs:
                        same += 1
            if same == 1:
                # the only card of its suit in the trick (a ruff, or all the others discarded):
                # it wins whatever its rank
                low = -1
            elif br != tenx:
                wm = H[winner * 4 + bs]
                rs = R[bs]
                r = br - 1
                while r >= 0:
                    sh = 2 * r
                    c = (rs >> sh) & 3
                    if c:
                        if (wm >> sh) & 3 != c:
                            break
                        if r != tenx:
                            low = r
                    r -= 1
            wbit = 1 << (16 * bs + low) if low >= 0 else 0
            if immediate:
                gain = ttens * wT + wK
                nrun = 0
                ctens2 = ctricks2 = 0
            else:
                ctens2 = ctens + ttens
                ctricks2 = ctricks + 1
                nrun = run + 1 if winner == leader else 1
                if nrun == 2 or left == 1:
                    gain = ctens2 * wT + ctricks2 * wK
                    ctens2 = ctricks2 = 0
                    nrun = 0
                else:
                    gain = 0
            if side:
                gain = 0
            if left == 1 or target <= gain:
                relv = wbit
                return gain
            # the next trick's cards go on top of this one's (left on the stack: only the
            # current trick's cards are ever read from it)
            if four:
                b0, b1, b2, b3 = 1 << 2 * c0[1], 1 << 2 * c1[1], 1 << 2 * c2[1], 1 << 2 * c3[1]
                R[s0] -= b0
                R[s1] -= b1
                R[s2] -= b2
                R[s3] -= b3
                res = trick(winner, nrun, ctens2, ctricks2, left - 1, target - gain)
                R[s0] += b0
                R[s1] += b1
                R[s2] += b2
                R[s3] += b3
            else:
                for s, r in saved:
                    R[s] -= 1 << (2 * r)
                res = trick(winner, nrun, ctens2, ctricks2, left - 1, target - gain)
                for s, r in saved:
                    R[s] += 1 << (2 * r)
            relv |= wbit
            return res + gain

        def play(k: int, seat: int, led: int, bk: int, bsuit: int, brank: int, ttens: int, target: int,
                 leader: int, run: int, ctens: int, ctricks: int, left: int, hint) -> int:
            nonlocal hand_tens, trump, fv, closed_pending, setter, relv, count
            count += 1
            base = seat * 4
            ac = not (seat & 1)
            # ---- the moves, in order ----
            if k:
                held = H[base + led]
                if held:
                    if not held & (held - 1):
                        # one card of the suit: no choice
                        moves = [(led, held.bit_length() - 1 >> 1)]
                        cls = NO_RANKS
                    else:
                        cls = classes(held, R[led])
                    if len(cls) < 2:
                        if cls:
                            moves = [(led, cls[0])]
                    else:
                        partner = not ((leader + bk - seat) & 1)
                        if partner:
                            sweeping = immediate or left == 1 or (run and (leader + bk) % n == leader)
                            low = [(led, r) for r in reversed(cls) if r != tenx]
                            if tenx in cls:
                                moves = [(led, TEN)] + low if sweeping else low + [(led, TEN)]
                            else:
                                moves = low
                            if k == n - 2 and bsuit == led:
                                # third hand high when the last player would beat partner's card
                                nm = H[(seat + 1) % n * 4 + led]
                                if nm:
                                    ntop = nm.bit_length() - 1 >> 1
                                    if ntop > brank and cls[0] > ntop:
                                        over = [mv for mv in moves if mv[1] > ntop]
                                        moves = over + [mv for mv in moves if mv[1] <= ntop]
                        elif bsuit == led:
                            win = [(led, r) for r in reversed(cls) if r > brank]
                            lose = [(led, r) for r in reversed(cls) if r <= brank and r != tenx]
                            if tenx in cls and TEN <= brank:
                                lose.append((led, TEN))
                            moves = win + lose
                        else:
                            moves = [(led, r) for r in reversed(cls) if r != tenx]
                            if tenx in cls:
                                moves.append((led, TEN))
                else:
                    # a void: ruff when the other side is winning, else throw low cards
                    partner = not ((leader + bk - seat) & 1)
                    moves = []
                    ruffs = []
                    tenmoves = []
                    highs = []
                    for s in range(4):
                        m = H[base + s]
                        if not m:
                            continue
                        cls = classes(m, R[s])
                        if s == trump and not partner:
                            for r in reversed(cls):
                                if bsuit != trump or r > brank:
                                    ruffs.append((s, r))
                                else:
                                    highs.append((s, r))
                            continue
                        first = True
                        for r in reversed(cls):
                            if r == TEN and tens_score:
                                tenmoves.append((s, r))
                            elif first:
                                moves.append((s, r))
                                first = False
                            else:
                                highs.append((s, r))
                    sweeping = partner and (immediate or left == 1 or (run and (leader + bk) % n == leader))
                    moves = tenmoves + moves + highs if sweeping else ruffs + moves + highs + tenmoves
            else:
                moves = []
                tenmoves = []
                lows: list[tuple[int, int]] = []
                to_partner: list[tuple[int, int]] = []
                pbase = (seat + 2) % n * 4
                for s in range(4):
                    m = H[base + s]
                    if not m:
                        continue
                    cls = classes(m, R[s])
                    rs = R[s]
                    top_rank = rs.bit_length() - 1 >> 1
                    # a low lead to a suit partner heads: partner wins it
                    into = to_partner if (H[pbase + s] >> 2 * top_rank) & 3 else lows
                    for i, r in enumerate(cls):
                        if r == TEN and tens_score:
                            tenmoves.append((s, r))
                        elif i == 0 and r == top_rank:
                            moves.append((s, r))
                        else:
                            into.append((s, r))
                lows.reverse()
                to_partner.reverse()
                moves = moves + to_partner + lows + tenmoves
                if hint is not None and hint in moves:
                    moves.remove(hint)
                    moves.insert(0, hint)
            # ---- try them ----
            nxt = seat + 1
            if nxt == n:
                nxt = 0
            best = -1 if ac else 1 << 20
            acc = 0
            last = k + 1 == n
            for mv in moves:
                s, r = mv
                bit = 1 << (2 * r)
                H[base + s] -= bit
                ten = r == TEN
                if ten:
                    hand_tens -= 1
                undo = 0
                if k == 0:
                    nled, nbk, nbs, nbr = s, 0, s, r
                else:
                    nled = led
                    if s == bsuit:
                        if r > brank:
                            nbk, nbs, nbr = k, s, r
                        else:
                            nbk, nbs, nbr = bk, bsuit, brank
                    elif s == trump:
                        nbk, nbs, nbr = k, s, r
                    elif s != led and closed_pending and setter < 0:
                        # the first void chooses closed trump in secret: no trump yet
                        undo = 2
                        setter = seat
                        nbk, nbs, nbr = bk, bsuit, brank
                    elif s != led and trump < 0 and (fv or (closed_pending and seat == setter)):
                        undo = 1
                        saved_flags = (fv, closed_pending)
                        if fv:
                            trump = s
                            nbk, nbs, nbr = k, s, r
                        else:
                            trump = hidden
                            nbk, nbs, nbr = leading(stack[-k:] + [(s, r)], trump)
                        fv = closed_pending = False
                    else:
                        nbk, nbs, nbr = bk, bsuit, brank
                stack.append(mv)
                if last:
                    res = finish(nbk, nbs, nbr, ttens + ten, target, leader, run, ctens, ctricks, left)
                else:
                    res = play(k + 1, nxt, nled, nbk, nbs, nbr, ttens + ten, target, leader, run, ctens, ctricks,
                               left, None)
                stack.pop()
                if undo:
                    if undo == 1:
                        trump = -1
                        fv, closed_pending = saved_flags
                    else:
                        setter = -1
                if ten:
                    hand_tens += 1
                H[base + s] += bit
                if ac:
                    if res >= target:
                        if k == 0:
                            cut_holder[0] = mv
                        return res
                    if res > best:
                        best = res
                else:
                    if res < target:
                        if k == 0:
                            cut_holder[0] = mv
                        return res
                    if res < best:
                        best = res
                acc |= relv
            relv = acc
            return best

        # the root: the trick in progress, or a new trick
        n0 = len(pos.trick)
        ctens0, ctricks0, left0 = pos.centre_tens, pos.centre_tricks, pos.left
        lead0 = pos.leader
        run0 = pos.run if pos.last_winner == pos.leader else 0
        ttens0 = sum(1 for c in pos.trick if parts(c)[1] == TEN)

        def counted(search: Callable[[int], int]) -> Callable[[int], int]:
            def test(target: int) -> int:
                nonlocal count, check_at
                count, check_at = solver.nodes, solver.check_at
                try:
                    return search(target)
                finally:
                    solver.nodes = count
            return test

        if n0 == 0:
            def test(target: int) -> int:
                return trick(lead0, run0, ctens0, ctricks0, left0, target)
            return counted(test)

        # replay the trick so far into (best index, suit, rank), trump set by it included
        led0 = parts(pos.trick[0])[0]
        bk0, bs0, br0 = leading([parts(c) for c in pos.trick], trump)

        def test_mid(target: int) -> int:
            if target <= 0:
                return 0
            return play(n0, pos.turn, led0, bk0, bs0, br0, ttens0, target, lead0, run0, ctens0, ctricks0,
                        left0, None)
        return counted(test_mid)
