"""Analysing a recorded deal: the value before each trick and the cost of each card played.

Positions are built from the replayer's facts (the hands as dealt, trump, the leader of
trick 1) and stepped card by card with :meth:`Position.play`; after each trick the
position is checked against the replayer's trick facts (winner, centre, run), so the
analysis never drifts from the replay.

Trump set by play: under ``first-void`` the suit the record shows is taken as known from
the start (a double-dummy question about the deal that was played); under ``closed``
trump the suit is known and in force from its reveal, as in play. Under
``first-void-five`` the five-card phase is not analysed: analysis starts once trump is set.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..i18n import N_
from ..replay import DealFact
from ..replay.core import play_card
from ..replay.methods import trump_method
from ..rules.profile import Rules
from .position import PlayRules, Position, describe, position_from_state
from .search import OutOfTime, Solver


TIMEOUT = N_("not solved in time")


class NotAnalysable(Exception):
    """A deal whose hands or trump are not known, so it cannot be solved."""


class IllegalCard(NotAnalysable):
    """A card of the record that the rules do not allow where it was played (a revoke, a card
    out of turn): its trick is not analysed, the tricks before and after it are."""

    def __init__(self, trick: int, seat: str, card: str) -> None:
        super().__init__(f"trick {trick}: {seat}'s {card} is not a legal card here")
        self.trick = trick


def check_legal(pos: Position, seats: str, trick: int, seat: str, card: str) -> None:
    """Raises :class:`IllegalCard` unless ``seat`` may play ``card`` in ``pos``."""
    if seats[pos.turn] != seat or card not in pos.legal():
        raise IllegalCard(trick, seat, card)


def past_fault(fact: DealFact, rules: Rules, fault: IllegalCard) -> Position | None:
    """The position after the trick holding an illegal card, where the analysis goes on: the
    deal as it went on is the one the replay follows (the tricks after the fault are positions
    of it, each card in them legal or a fault of its own). None when nothing follows or the
    position cannot be set up (the analysis then ends before the fault)."""
    if fault.trick >= len(fact.tricks):
        return None
    try:
        return position_at(fact, rules, fault.trick + 1)
    except NotAnalysable:
        return None


@dataclass
class PlayAnalysis:
    seat: str
    card: str
    value: int                 # side 0's final score after the card, best play after
    loss: int                  # what the player's side gave away against its best card
    best: tuple[str, ...]      # the cards that keep the most (the card played among them if best)
    best_value: int
    single: Any = None         # the single-dummy judgement (analysis.single.SingleJudgement), when judged


@dataclass
class TrickAnalysis:
    number: int
    value: int                 # side 0's final score under best play from the start of the trick
    plays: list[PlayAnalysis] = field(default_factory=list)


@dataclass
class DealAnalysis:
    number: int
    game: PlayRules
    value: int | None = None   # from the first analysed position
    tricks: list[TrickAnalysis] = field(default_factory=list)
    solved: bool = True
    reason: str = ""           # why not (not analysable, not solved in time), or a trick left out
    faults: tuple[int, ...] = ()   # tricks left out for a card the rules do not allow (IllegalCard)
    nodes: int = 0
    seconds: float = 0.0
    single_dummy: bool = False # judged single dummy too (each play's ``single``; analysis.single)

    def to_json(self, game_index: int, single: bool = False) -> dict[str, Any]:
        """``single``: each play gains ``single_dummy`` (None when not judged in time)."""
        g = self.game
        out: dict[str, Any] = {"game": game_index, "deal": self.number,
                               "value": describe(g, self.value) if self.value is not None else None,
                               "solved": self.solved}
        if self.reason:
            out["reason"] = self.reason
        out["nodes"] = self.nodes
        out["tricks"] = [{
            "number": t.number,
            "value": describe(g, t.value),
            "plays": [{"seat": p.seat, "card": p.card, "value": describe(g, p.value), "loss": p.loss,
                       "best": list(p.best),
                       **({} if not single else {"single_dummy": p.single.to_json() if p.single else None})}
                      for p in t.plays],
        } for t in self.tricks]
        return out


def known_hands(fact: DealFact, rules: Rules) -> dict[str, tuple[str, ...]] | None:
    """Every seat's hand as dealt, when known (written, or every card of a complete deal played)."""
    seats = rules.seat_letters
    hands = fact.hands if fact.complete else dict(fact.dealt)
    if any(len(hands.get(s, ())) != rules.hand_size for s in seats):
        return None
    return {s: tuple(hands[s]) for s in seats}


def start_position(fact: DealFact, rules: Rules) -> tuple[Position, int]:
    """The position before the first analysable trick, and that trick's number.

    Built from the per-card core: the deal's state at its start (every hand known), played
    on through the five-card phase of ``first-void-five`` (which is not analysed), then
    turned into the solver's position.

    Raises:
        NotAnalysable: hands or trump unknown, no trick recorded, or a trick of the wrong size.
    """
    hands = known_hands(fact, rules)
    if hands is None:
        raise NotAnalysable("the hands are not known: write them with hands, or record every card")
    if not fact.tricks:
        raise NotAnalysable("no trick was played")
    if fact.skipped_trick:      # counted, not replayed: no position after it can be set up
        raise NotAnalysable(f"trick {fact.skipped_trick} has the wrong number of cards, so the deal cannot be "
                            "followed past it")
    tf = fact.trump
    method = trump_method(rules)
    if method.open and (tf is None or tf.suit is None):
        raise NotAnalysable("the trump suit is not known")
    if method.secret and (tf is None or tf.suit is None):
        raise NotAnalysable("the closed trump suit is not known")
    if method.secret and not method.secret_by_void and tf is not None and tf.by is None:
        raise NotAnalysable("the closed trump setter is not known")
    start = 1
    if method.five_phase:   # the phase on five cards is not analysed
        if tf is None or tf.suit is None or tf.trick is None:
            raise NotAnalysable("trump was never set, and the five-card phase is not analysed")
        start = tf.trick + 1 if tf.drawn is None else tf.trick
    return position_at(fact, rules, start), start


def position_at(fact: DealFact, rules: Rules, trick: int) -> Position:
    """The solver's position before trick ``trick`` of a replayed deal, from the per-card
    core's state there (the record's cards played on the deal's start state).

    Raises:
        NotAnalysable: the position cannot be set up (hands or trump unknown).
    """
    try:
        state = fact.table().state
    except ValueError as exc:
        raise NotAnalysable(str(exc)) from None
    for t in fact.tricks[:trick - 1]:
        for play in t.trick.plays:
            state, _events = play_card(state, play, t.trick)
    pos = position_from_state(state)
    if pos is None:
        raise NotAnalysable("the position cannot be set up from the record")
    tf = fact.trump
    method = trump_method(rules)
    if pos.first_void and not method.five_phase and tf is not None and tf.suit is not None:
        # the suit the record shows is taken as known from the start (see the module's text)
        pos = replace(pos, trump=tf.suit, first_void=False)
    return pos


def _check(pos: Position, t: Any, rules: Rules) -> None:
    seats = rules.seat_letters
    centre = pos.centre_tricks * rules.seats
    if seats[pos.leader] != t.winner or (rules.capture != "immediate" and centre != t.centre_cards):
        raise NotAnalysable(f"trick {t.number} replays differently here (a record the solver cannot follow)")


def analyse_deal(fact: DealFact, rules: Rules, *, from_trick: int = 1, solver: Solver | None = None,
                 node_limit: int | None = None, time_limit: float | None = None,
                 progress: Callable[[int, int], None] | None = None) -> DealAnalysis:
    """Value every card played in a recorded deal (from trick ``from_trick`` on).

    Never raises for a deal that cannot be analysed or solved in time: the result says so
    (``solved`` False and a ``reason``), keeping what was solved before the limit.
    """
    game = PlayRules.of(rules)
    out = DealAnalysis(fact.number, game)
    try:
        pos, start = start_position(fact, rules)
    except NotAnalysable as exc:
        out.solved, out.reason = False, str(exc)
        return out
    seats = rules.seat_letters
    solver = solver or Solver(game)
    begin = time.perf_counter()
    nodes0 = solver.nodes
    solver.limit(node_limit, time_limit)
    first = max(start, from_trick)
    if first > len(fact.tricks):
        out.solved = False
        out.reason = (f"no trick {first} to start from: the record has {len(fact.tricks)}" if first == from_trick
                      else f"the analysis starts at trick {first}, after the five-card phase")
        return out
    try:
        if first > start:
            pos = position_at(fact, rules, first)
        # every position first (cheap, checked against the replay), then solved from the last
        # trick back: a limit then leaves the later tricks solved, and the table built on
        # them speeds up the earlier ones
        # (a trick holding a card the rules do not allow is left out: the tricks before it are
        # judged up to the legal position at its start, those after it from the position after it)
        line: list[tuple[Any, list[Position]]] = []
        before_fault: set[int] = set()      # tricks followed by a fault: the value after them is solved
        for t in fact.tricks[first - 1:]:
            before = []
            try:
                for p in t.plays:
                    check_legal(pos, seats, t.number, p.seat, p.card)
                    before.append(pos)
                    pos = pos.play(p.card)
            except IllegalCard as fault:
                if line:
                    before_fault.add(line[-1][0].number)
                out.faults += (fault.trick,)
                out.reason = "; ".join(filter(None, (out.reason, str(fault))))
                resumed = past_fault(fact, rules, fault)
                if resumed is None:
                    break
                pos = resumed
                continue
            _check(pos, t, rules)
            line.append((t, before))
        if not line:
            raise NotAnalysable(out.reason or "no trick was played")
        total = len(line)
        # the cards are judged from the last one back: the value after a card is the value
        # before the next one (the best its mover could have), known when it is judged, and
        # the value before the first card of a trick is the trick's (the same values as
        # solving each trick's start on its own, without that search)
        known: int | None = pos.score()[0] if pos.over else None
        for done, (t, before) in enumerate(reversed(line)):
            if progress is not None:
                progress(done, total)
            if t.number in before_fault:    # the position after it (the fault's trick's start) is solved
                known = None
            plays: list[PlayAnalysis] = []
            for p, at in reversed(list(zip(t.plays, before))):
                after, best_value, best = solver.judge(at, p.card, known)
                sign = 1 if at.turn % 2 == 0 else -1
                plays.insert(0, PlayAnalysis(p.seat, p.card, after, sign * (best_value - after), best, best_value))
                known = best_value
            out.tricks.insert(0, TrickAnalysis(t.number, plays[0].best_value, plays))
        if out.tricks:
            out.value = out.tricks[0].value
        if progress is not None:
            progress(total, total)
    except OutOfTime:
        out.solved = False
        out.reason = TIMEOUT
    except NotAnalysable as exc:
        out.solved, out.reason = False, str(exc)
    finally:
        solver.limit(None, None)
        out.nodes = solver.nodes - nodes0
        out.seconds = time.perf_counter() - begin
    return out


# ---- what a loss means to a player ---------------------------------------------------------

def outcome(game: PlayRules, rules: Rules, dealer: int, value: int) -> tuple[int | None, bool]:
    """Who wins a deal that ends with side 0 on ``value``, and whether it is a sweep kot."""
    a, b = value, game.total - value
    if 2 * a > game.total:
        winner: int | None = 0
    elif 2 * b > game.total:
        winner = 1
    else:
        winner = None if rules.level == "none" else 1 - dealer % 2
    sweep = False
    if game.score == "tricks":
        sweep = value in (0, game.total)
    elif game.score == "tens":
        sweep = value in (0, game.total)
    # points: all the tens to one side cannot be told from the points alone
    return winner, sweep


def glyph(play: PlayAnalysis, game: PlayRules, rules: Rules, dealer: int) -> str:
    """``?`` for a card that gave something away, ``??`` when it cost the deal's outcome."""
    if play.loss <= 0:
        return ""
    if outcome(game, rules, dealer, play.value) != outcome(game, rules, dealer, play.best_value):
        return "??"
    return "?"


def split(game: PlayRules, value: int) -> str:
    """A final score as ``2–2`` (side 0 first)."""
    return f"{value}\u2013{game.total - value}"


def either(cards: list[str], _: Callable[[str], str] = str) -> str:
    """Up to three cards a player could have played: ``QD or JD``, ``AH or KH or 9H ...``."""
    return (" " + _("or") + " ").join(cards[:3]) + (" ..." if len(cards) > 3 else "")


def advice(play: PlayAnalysis, game: PlayRules, _: Callable[[str], str] = str) -> str:
    """What would have kept the value: ``B should have played 10S: AC 2–2 instead of 1–3``
    (``_``: the words of a page's language)."""
    cards = either([c for c in play.best if c != play.card], _)
    return _("{seat} should have played {cards}: {side} {best} instead of {value}").format(
        seat=play.seat, cards=cards, side=game.sides[0], best=split(game, play.best_value),
        value=split(game, play.value))
