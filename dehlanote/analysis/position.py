"""A double-dummy position: everything the rest of a deal depends on, and nothing else.

A :class:`Position` holds the cards each seat still has, the trick in progress, trump
(and whether it is still to be set by play), the centre and the run of consecutive wins
that decides the next sweep, and what each side has captured. ``play`` applies one card
by the rules; the solver (:mod:`dehlanote.analysis.search`) values positions.

Scores are in the profile's unit: tens (``score: tens``), points (``points``: a ten 2, any
other card 1) or tricks (``tricks``, court piece). Seats are indices in playing order
(0 = A); side 0 is AC (ACE with six players), side 1 BD (BDF).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..rules.profile import Rules
from ..deck import DECK, STRENGTH, SUITS, seats_for, sides_for

SCORES = ("tens", "points", "tricks")


def is_ten(card: str) -> bool:
    return card.startswith("10")


@dataclass(frozen=True)
class PlayRules:
    """The rules a position is played under, reduced to what the play and the score need."""

    seats: int = 4
    decks: int = 1
    immediate: bool = False     # each trick to its winner (no centre)
    score: str = "tens"         # tens | points | tricks

    @property
    def tricks_per_deal(self) -> int:
        return 52 * self.decks // self.seats

    @property
    def total(self) -> int:
        """The score both sides share at the end of a deal."""
        tens = 4 * self.decks
        if self.score == "tens":
            return tens
        if self.score == "points":
            return 52 * self.decks + tens
        return self.tricks_per_deal

    @property
    def sides(self) -> tuple[str, str]:
        return sides_for(self.seats)

    @property
    def seat_names(self) -> str:
        return seats_for(self.seats)

    @classmethod
    def of(cls, rules: Rules) -> PlayRules:
        return cls(rules.seats, rules.decks, rules.capture == "immediate", rules.score)

    def worth(self, tens: int, tricks: int) -> int:
        """What ``tricks`` tricks holding ``tens`` tens are worth in this unit."""
        if self.score == "tens":
            return tens
        if self.score == "points":
            return self.seats * tricks + tens
        return tricks


@dataclass(frozen=True)
class Position:
    """A position of a deal, seen double dummy.

    ``trump`` is the suit in force (None: no trump yet). ``closed`` is closed trump not yet
    revealed: (suit, setter seat); the suit becomes trump, for the whole trick, when the
    setter first cannot follow suit. A setter of -1 is not chosen yet (hukum): the first
    player unable to follow becomes the setter (that card is no trump) and reveals trump at
    their next void. ``first_void`` means trump is still to be set: the
    first player unable to follow makes the suit of the card played trump at once.
    ``last_winner``/``run`` are the centre's count of consecutive wins (the engine's).
    """

    game: PlayRules
    hands: tuple[tuple[str, ...], ...]
    leader: int
    trick: tuple[str, ...] = ()
    trump: str | None = None
    closed: tuple[str, int] | None = None
    first_void: bool = False
    last_winner: int | None = None
    run: int = 0
    centre_tricks: int = 0
    centre_tens: int = 0
    tens: tuple[int, int] = (0, 0)      # tens captured per side
    tricks: tuple[int, int] = (0, 0)    # tricks captured per side (cards / seats)
    done: int = 0                       # tricks finished

    @property
    def turn(self) -> int:
        """The seat to play."""
        return (self.leader + len(self.trick)) % self.game.seats

    @property
    def over(self) -> bool:
        return self.done == self.game.tricks_per_deal

    @property
    def left(self) -> int:
        """Tricks still to finish, the one in progress included."""
        return self.game.tricks_per_deal - self.done

    def score(self) -> tuple[int, int]:
        """What each side has captured so far, in the profile's unit."""
        g = self.game
        return g.worth(self.tens[0], self.tricks[0]), g.worth(self.tens[1], self.tricks[1])

    def legal(self) -> tuple[str, ...]:
        """The cards the player to move may play (each distinct card once)."""
        hand = self.hands[self.turn]
        if self.trick:
            led = self.trick[0][-1]
            follow = tuple(dict.fromkeys(c for c in hand if c[-1] == led))
            if follow:
                return follow
        return tuple(dict.fromkeys(hand))

    def groups(self) -> list[tuple[str, ...]]:
        """The legal cards in classes of equivalent ones: one suit, one hand, no card still out
        (in a hand or in the trick) between them, never a ten with another card when tens score.
        Equivalent cards have equal values, so one card of each class is enough to solve."""
        legal = self.legal()
        out = [c for h in self.hands for c in h] + list(self.trick)
        mine = self.hands[self.turn]
        tens_apart = self.game.score != "tricks"
        groups: list[list[str]] = []
        for suit in SUITS:
            cards = sorted((c for c in legal if c[-1] == suit), key=lambda c: -STRENGTH[c])
            if not cards:
                continue
            ranks = sorted({STRENGTH[c] for c in out if c[-1] == suit}, reverse=True)
            current: list[str] = []
            for r in ranks:
                here = [c for c in out if c[-1] == suit and STRENGTH[c] == r]
                card = here[0]
                owned = sum(1 for c in mine if c == card) == len(here)
                if not owned:
                    if current:
                        groups.append(current)
                        current = []
                    if card in mine:
                        groups.append([card])
                    continue
                if tens_apart and is_ten(card):
                    groups.append([card])
                    continue
                current.append(card)
            if current:
                groups.append(current)
        return [tuple(g) for g in groups]

    def play(self, card: str) -> Position:
        """The position after the player to move plays ``card`` (which must be legal)."""
        if card not in self.legal():
            raise ValueError(f"{card} is not a legal card here")
        n = self.game.seats
        seat = self.turn
        hand = list(self.hands[seat])
        hand.remove(card)
        hands = self.hands[:seat] + (tuple(hand),) + self.hands[seat + 1:]
        cards = self.trick + (card,)
        trump, closed, first_void = self.trump, self.closed, self.first_void
        if trump is None and self.trick and card[-1] != self.trick[0][-1]:
            # trump set by this first void, or closed trump revealed by its setter
            if first_void:
                trump, first_void = card[-1], False
            elif closed is not None and closed[1] < 0:
                closed = (closed[0], seat)      # the first void writes trump in secret
            elif closed is not None and closed[1] == seat:
                trump, closed = closed[0], None
        if len(cards) < n:
            return replace(self, hands=hands, trick=cards, trump=trump, closed=closed, first_void=first_void)
        best = 0
        for k in range(1, n):
            c, b = cards[k], cards[best]
            if c[-1] == b[-1]:
                if STRENGTH[c] > STRENGTH[b]:
                    best = k
            elif c[-1] == trump:
                best = k
        winner = (self.leader + best) % n
        side = winner % 2
        ttens = sum(1 for c in cards if is_ten(c))
        done = self.done + 1
        tens = list(self.tens)
        tricks = list(self.tricks)
        run = self.run + 1 if self.last_winner == winner else 1
        ctricks, ctens = self.centre_tricks, self.centre_tens
        if self.game.immediate:
            tens[side] += ttens
            tricks[side] += 1
        else:
            ctricks += 1
            ctens += ttens
            sweep = run == 2
            if sweep:
                run = 0
            if sweep or done == self.game.tricks_per_deal:
                tens[side] += ctens
                tricks[side] += ctricks
                ctricks = ctens = 0
        return replace(self, hands=hands, trick=(), leader=winner, trump=trump, closed=closed,
                       first_void=first_void, last_winner=winner, run=run, centre_tricks=ctricks,
                       centre_tens=ctens, tens=(tens[0], tens[1]), tricks=(tricks[0], tricks[1]), done=done)

    def final(self) -> tuple[int, int]:
        """The score of a finished deal."""
        return self.score()

    def check(self) -> None:
        """Raise ValueError, with a sentence saying what is wrong, unless this is a position a
        deal can reach: the solver calls it before every search (see :func:`check_position`)."""
        check_position(self)


SUIT_NAME = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
_CARDS = frozenset(DECK)


def _count(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _cards(k: int) -> str:
    return "1 card" if k == 1 else f"{k} cards"


def _tricks(k: int) -> str:
    return "1 trick is" if k == 1 else f"{k} tricks are"


def check_position(pos: Position) -> None:
    """Check that ``pos`` is a position a deal can reach, before any search looks at it.

    Raises ValueError with a sentence naming the first fault: a game other than four players
    (one deck) or six (any deck count that deals evenly, up to three); a card that is not a
    card, or held more often than the decks have it (with the trick in progress); a hand
    with more or fewer cards than the tricks left (less the card it has played to the trick
    in progress); a trick with a card for every seat, or a card played off suit while its
    player still held the suit led; a leader, a count of tricks or a centre out of range;
    trump that is not a suit, or trump still to be set by a void this trick has already
    shown; a score captured that the deal's cards cannot make.
    """
    g = pos.game
    if not isinstance(g, PlayRules):
        raise ValueError(f"a position's rules must be PlayRules, not {g!r}")
    if g.seats not in (4, 6):
        raise ValueError(f"the game must have 4 or 6 players, not {g.seats!r}")
    _count(g.decks, "the number of decks", 1, 3)
    if (52 * g.decks) % g.seats:
        raise ValueError(f"{g.decks} deck(s) cannot be dealt evenly to {g.seats} players")
    if g.score not in SCORES:
        raise ValueError(f"the score must be one of {', '.join(SCORES)}, not {g.score!r}")
    n = g.seats
    names = g.seat_names
    total = g.tricks_per_deal
    done = _count(pos.done, "the number of tricks finished", 0, total)
    leader = _count(pos.leader, "the leader", 0, n - 1)
    if not isinstance(pos.hands, tuple) or len(pos.hands) != n:
        raise ValueError(f"a position of {n} players needs {n} hands")
    if not isinstance(pos.trick, tuple):
        raise ValueError("the trick in progress must be a tuple of cards")
    held: dict[str, int] = {}
    for seat, hand in enumerate(pos.hands):
        if not isinstance(hand, tuple):
            raise ValueError(f"{names[seat]}'s hand must be a tuple of cards")
        for card in hand:
            if card not in _CARDS:
                raise ValueError(f"{names[seat]}'s hand holds {card!r}, which is not a card")
            held[card] = held.get(card, 0) + 1
    for card in pos.trick:
        if card not in _CARDS:
            raise ValueError(f"the trick in progress holds {card!r}, which is not a card")
        held[card] = held.get(card, 0) + 1
    for card, times in held.items():
        if times > g.decks:
            where = [names[s] for s, h in enumerate(pos.hands) if card in h] + \
                (["the trick in progress"] if card in pos.trick else [])
            decks = "one deck has" if g.decks == 1 else f"{g.decks} decks have"
            raise ValueError(f"{card} is there {times} times (in {', '.join(where)}), but {decks} it "
                             f"{'once' if g.decks == 1 else f'{g.decks} times'}")
    if len(pos.trick) >= n:
        raise ValueError(f"the trick in progress has {len(pos.trick)} cards: a trick of {n} players "
                         f"ends with the {n}th card")
    if done == total and pos.trick:
        raise ValueError("the deal is over, but a trick is in progress")
    left = total - done
    for seat, hand in enumerate(pos.hands):
        played = (seat - leader) % n < len(pos.trick)
        want = left - played
        if len(hand) != want:
            why = " (less the card played to this trick)" if played else ""
            raise ValueError(f"{names[seat]} holds {_cards(len(hand))}, but {_tricks(left)} left{why}: "
                             f"each player holds one card for each trick left, {want} here")
    if pos.trump is not None and pos.trump not in SUIT_NAME:
        raise ValueError(f"trump must be a suit (S, H, D or C) or None, not {pos.trump!r}")
    if pos.closed is not None:
        if (not isinstance(pos.closed, tuple) or len(pos.closed) != 2 or pos.closed[0] not in SUIT_NAME):
            raise ValueError(f"closed trump must be (suit, setter seat), not {pos.closed!r}")
        _count(pos.closed[1], "the closed trump setter", -1, n - 1)
        if pos.trump is not None:
            raise ValueError("trump is both in force and still closed")
        if pos.first_void:
            raise ValueError("trump cannot be both closed and still to be set by the first void")
    if pos.trick:
        led = pos.trick[0][-1]
        for k, card in enumerate(pos.trick[1:], 1):
            seat = (leader + k) % n
            if card[-1] == led:
                continue
            if any(c[-1] == led for c in pos.hands[seat]):
                raise ValueError(f"{names[seat]} played {card} to a {SUIT_NAME[led]} lead while holding a "
                                 f"{SUIT_NAME[led]}")
            if pos.trump is None and pos.first_void:
                raise ValueError(f"trump is still to be set by the first void, but {names[seat]}'s {card} in "
                                 f"the trick in progress was that void")
            if pos.trump is None and pos.closed is not None and pos.closed[1] == -1:
                raise ValueError(f"closed trump's setter is still to be chosen by the first void, but "
                                 f"{names[seat]}'s {card} in the trick in progress was that void")
    tens_out = sum(1 for h in pos.hands for c in h if is_ten(c)) + sum(1 for c in pos.trick if is_ten(c))
    if not isinstance(pos.tens, tuple) or not isinstance(pos.tricks, tuple) or len(pos.tens) != 2 \
            or len(pos.tricks) != 2:
        raise ValueError("tens and tricks captured are one number per side")
    for side in (0, 1):
        _count(pos.tens[side], "the tens a side captured", 0, 4 * g.decks)
        _count(pos.tricks[side], "the tricks a side captured", 0, done)
    ctens = _count(pos.centre_tens, "the tens in the centre", 0, 4 * g.decks)
    ctricks = _count(pos.centre_tricks, "the tricks in the centre", 0, done)
    if ctens + tens_out + pos.tens[0] + pos.tens[1] > 4 * g.decks:
        raise ValueError(f"the tens captured, in the centre and still out add up to more than the "
                         f"{4 * g.decks} of the deal")
    if ctricks + pos.tricks[0] + pos.tricks[1] > done:
        raise ValueError(f"the tricks captured and in the centre add up to more than the {done} finished")
    if g.immediate and (ctens or ctricks):
        raise ValueError("each trick goes to its winner here: the centre is always empty")
    if pos.last_winner is not None:
        _count(pos.last_winner, "the last trick's winner", 0, n - 1)
    _count(pos.run, "the run of wins in a row", 0, done if g.immediate else 1)
    if not isinstance(pos.first_void, bool):
        raise ValueError(f"first_void must be True or False, not {pos.first_void!r}")


def describe(game: PlayRules, value: int) -> dict[str, int]:
    """A value of side 0 as the JSON's ``{"AC": n, "BD": m}``."""
    a, b = game.sides
    return {a: value, b: game.total - value}


def position_for(rules: Rules, hands: dict[str, tuple[str, ...]] | tuple[tuple[str, ...], ...], leader: int,
                 trump: str | None, **fields) -> Position:
    """A position at the start of a trick from rules and hands (by seat letter or index)."""
    game = PlayRules.of(rules)
    if isinstance(hands, dict):
        names = seats_for(game.seats)
        held = tuple(tuple(hands.get(s, ())) for s in names)
    else:
        held = tuple(tuple(h) for h in hands)
    return Position(game, held, leader, trump=trump, **fields)


def position_from_state(state: Any) -> Position | None:
    """The double-dummy position of the per-card core's state (a
    :class:`~dehlanote.replay.core.DealState` at the start of a trick, every hand known):
    the cards each seat still holds, trump as it stands (closed trump with its setter,
    trump still to be set by the first void), the centre and the run. None when it cannot
    be told: a hand not known, trump not known, the five-card phase of ``first-void-five``.
    """
    from ..replay.methods import trump_method
    rules = state.rules
    n = rules.seats
    if not state.explicit or not all(state.explicit) or state.phase or state.trump_unknown or state.current:
        return None
    hands = tuple(_cards_of(h) for h in state.hands)
    if any(len(h) != rules.tricks_per_deal - state.tricks_done for h in hands):
        return None
    kw: dict[str, Any] = {}
    trump = state.trump
    method = trump_method(rules)
    if trump is None:
        if method.by_void:
            kw["first_void"] = True
        elif method.secret:
            if state.hidden is None:
                return None
            tf = state.trump_fact
            by = tf.by if tf is not None else None
            kw["closed"] = (state.hidden, seats_for(n).index(by) if by else -1)
    side_tens = (len(state.pile_tens[0]), len(state.pile_tens[1]))
    last = state.last_winner
    return Position(PlayRules.of(rules), hands, state.leader, trump=trump, done=state.tricks_done,
                    last_winner=last, run=state.run, centre_tricks=state.centre // n,
                    centre_tens=len(state.centre_tens), tens=side_tens,
                    tricks=(state.pile_tricks[0], state.pile_tricks[1]), **kw)


def _cards_of(hand: int) -> tuple[str, ...]:
    from ..deck import DECK
    out: list[str] = []
    for i, card in enumerate(DECK):
        out.extend([card] * ((hand >> (2 * i)) & 3))
    return tuple(out)
