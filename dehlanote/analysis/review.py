"""The mistake review: each player's judged decisions across an archive, and the costliest.

A deal whose hands are known is analysed (:func:`dehlanote.analysis.single.analyse`: single
dummy by default, double dummy with ``dd``) and each card of it where its player had a
choice (more than one legal card) becomes a :class:`Decision`: what was played, its
expected loss against the best card (in the score's unit), the error of that figure, the
worlds it was judged over, the cards that would have kept the value, and for the marked
ones (``?``, ``??``) what the player could see at that point (:class:`Seen`, for the drill
page) and the loss of every legal card. A forced card (one legal card) is no decision.

Players are the names the game tags give the seats (``[A "Asha"]``), stripped, as the
site's player pages and the database take them; a seat without a name is nobody's.

A deal's decisions depend only on the deal's cards and the options, so they are kept in
the per-user cache folder (:mod:`dehlanote.cache`, as JSON: nothing loaded from it can
run) under a key of both and of the analysis code itself: reviewing the same file again
solves nothing. A deal stopped by a time limit is not kept (another run may get further).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..replay import DealFact
from ..replay.game import player_name
from ..rules.profile import Rules
from .deal import TIMEOUT, DealAnalysis, NotAnalysable, glyph, outcome, position_at
from .position import PlayRules, Position
from .search import OutOfTime, Solver
from .single import analyse, decision_line, mark as sd_mark

__all__ = ["Options", "Seen", "CardLoss", "Decision", "DealReview", "PlayerReview", "review_deal", "from_analysis",
           "players", "player_names", "cache_key", "cached", "keep", "verdict"]

#: the format of what is kept in the cache (a change makes the old entries unread)
CACHE_FORMAT = 2


@dataclass(frozen=True)
class Options:
    """How the deals are judged (everything a judgement depends on but the deal)."""

    dd: bool = False
    worlds: int = 32
    seed: int = 0
    from_trick: int = 1
    time_limit: float | None = 60.0
    node_limit: int | None = None


@dataclass(frozen=True)
class Seen:
    """What the player to move could see: their hand, the trick so far, the tricks before,
    trump as far as they knew it, the centre and each side's tens."""

    hand: tuple[str, ...]
    legal: tuple[str, ...]
    trick: tuple[tuple[str, str], ...]              # (seat, card) of the trick so far
    earlier: tuple[tuple[str, tuple[str, ...]], ...]  # each trick before: its leader, its cards in order
    trump: str | None                               # the suit in force, as far as the player knew
    trump_note: str                                 # how trump stands, in words
    trump_how: str                                  # set | closed-own | closed-hidden | closed-unchosen |
    #                                                 first-void | none
    setter: str                                     # the closed trump's setter (closed-hidden), else ""
    centre: int                                     # cards waiting in the centre
    centre_tens: int
    tens: dict[str, int]                            # tens captured per side so far
    tricks_done: int

    def to_json(self) -> dict[str, Any]:
        return {"hand": list(self.hand), "legal": list(self.legal), "trick": [list(p) for p in self.trick],
                "earlier": [[lead, list(cards)] for lead, cards in self.earlier], "trump": self.trump,
                "trump_note": self.trump_note, "trump_how": self.trump_how, "setter": self.setter,
                "centre": self.centre, "centre_tens": self.centre_tens, "tens": dict(self.tens),
                "tricks_done": self.tricks_done}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Seen:
        return cls(tuple(d["hand"]), tuple(d["legal"]), tuple((s, c) for s, c in d["trick"]),
                   tuple((lead, tuple(cards)) for lead, cards in d["earlier"]), d["trump"], str(d["trump_note"]),
                   str(d["trump_how"]), str(d["setter"]), int(d["centre"]), int(d["centre_tens"]),
                   {str(k): int(v) for k, v in d["tens"].items()}, int(d["tricks_done"]))


@dataclass(frozen=True)
class CardLoss:
    card: str
    loss: float       # the mover's expected loss against the best card (score units)
    stderr: float
    mark: str


@dataclass(frozen=True)
class Decision:
    """One judged card of a player who had a choice."""

    trick: int
    place: int                  # 0 for the lead
    seat: str
    card: str
    legal: int                  # legal cards the player had
    loss: float                 # expected loss against the best card, in the score's unit
    stderr: float
    worlds: int                 # 1 double dummy
    exact: bool                 # every world solved (or double dummy)
    mark: str                   # "", "?" or "??"
    best: tuple[str, ...]       # the cards that keep the most
    value: float                # side 0's (expected) final score after the card played
    best_value: float           # ... after the best card
    unit: float                 # what a ten is worth in the score (2 points under double-sar)
    score: str = "tens"         # the score's unit: tens, points (double-sar) or tricks (court-piece)
    sides: tuple[str, str] = ("AC", "BD")
    total: int = 4              # the score both sides share
    single: bool = True         # judged single dummy (else double dummy)
    cards: tuple[CardLoss, ...] = ()   # every legal card's loss (the marked decisions)
    seen: Seen | None = None           # what the player saw (the marked decisions)
    # where it is (set when read, not part of the deal's judgement)
    source: str = ""
    game: int = 0
    deal: int = 0
    player: str = ""

    @property
    def tens(self) -> float:
        """The expected loss in tens (a trick under court-piece)."""
        return self.loss / self.unit

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["cards"] = [asdict(c) for c in self.cards]
        d["seen"] = self.seen.to_json() if self.seen is not None else None
        d["best"] = list(self.best)
        d["sides"] = list(self.sides)
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Decision:
        cards = tuple(CardLoss(str(c["card"]), float(c["loss"]), float(c["stderr"]), str(c["mark"]))
                      for c in d.get("cards", ()))
        seen = Seen.from_json(d["seen"]) if d.get("seen") else None
        return cls(int(d["trick"]), int(d["place"]), str(d["seat"]), str(d["card"]), int(d["legal"]),
                   float(d["loss"]), float(d["stderr"]), int(d["worlds"]), bool(d["exact"]), str(d["mark"]),
                   tuple(d["best"]), float(d["value"]), float(d["best_value"]), float(d["unit"]), str(d["score"]),
                   (str(d["sides"][0]), str(d["sides"][1])), int(d["total"]), bool(d["single"]), cards, seen)

    def at(self, source: str, game: int, deal: int, player: str) -> Decision:
        from dataclasses import replace
        return replace(self, source=source, game=game, deal=deal, player=player)


@dataclass
class DealReview:
    """A deal's decisions, or why it could not be judged (``skipped``); ``partial`` when a limit
    stopped the judgement before every trick was judged."""

    decisions: list[Decision] = field(default_factory=list)
    skipped: str = ""
    partial: str = ""
    first_trick: int = 0        # the first trick judged
    cached: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"decisions": [d.to_json() for d in self.decisions], "skipped": self.skipped, "partial": self.partial,
                "first_trick": self.first_trick}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> DealReview:
        return cls([Decision.from_json(x) for x in d["decisions"]], str(d["skipped"]), str(d["partial"]),
                   int(d["first_trick"]))


# ---- judging a deal --------------------------------------------------------------------------

def review_deal(fact: DealFact, rules: Rules, options: Options,
                progress: Callable[[int, int], None] | None = None) -> DealReview:
    """The deal analysed (single dummy unless ``options.dd``) and its decisions."""
    a = analyse(fact, rules, dd=options.dd, worlds=options.worlds, seed=options.seed,
                from_trick=options.from_trick, time_limit=options.time_limit, node_limit=options.node_limit,
                progress=progress)
    return from_analysis(fact, rules, a, time_limit=options.time_limit)


def from_analysis(fact: DealFact, rules: Rules, a: DealAnalysis, *, time_limit: float | None = None) -> DealReview:
    """The decisions of an analysed deal (``a`` from :func:`~dehlanote.analysis.single.analyse`)."""
    out = DealReview()
    if not a.tricks:
        out.skipped = a.reason or "no trick to judge"
        return out
    out.first_trick = a.tricks[0].number
    if not a.solved:
        out.partial = a.reason or TIMEOUT
    try:
        line = decision_line(fact, rules)
    except NotAnalysable as exc:
        out.skipped = str(exc)
        return out
    seats = rules.seat_letters
    dealer = seats.index(fact.dealer) if fact.dealer and fact.dealer in seats else 0
    dd_solver: Solver | None = None
    shape = (a.game.score, a.game.sides, a.game.total)
    for t in a.tricks:
        for place, p in enumerate(t.plays):
            got = line.get((t.number, place))
            if got is None:
                continue
            pos = got[0]
            legal = pos.legal()
            if len(legal) < 2:
                continue
            if a.single_dummy:
                sd = p.single
                if sd is None:          # not judged in time
                    continue
                by = {c.card: c for c in sd.cards}
                best = sd.best
                decision = Decision(t.number, place, p.seat, p.card, len(legal), sd.expected_loss, sd.stderr,
                                    sd.worlds, sd.exact, sd.mark, best, sd.played.value, by[best[0]].value, sd.unit,
                                    *shape)
                if decision.mark:
                    losses = tuple(CardLoss(c.card, round(c.loss, 4), round(c.stderr, 4),
                                            sd_mark(c.loss, c.stderr, sd.unit)) for c in sd.cards)
                    decision = _with_seen(decision, fact, rules, pos, losses)
            else:
                unit = 2.0 if a.game.score == "points" else 1.0
                g = glyph(p, a.game, rules, dealer)
                decision = Decision(t.number, place, p.seat, p.card, len(legal), float(p.loss), 0.0, 1, True, g,
                                    tuple(p.best), float(p.value), float(p.best_value), unit, *shape, False)
                if g:
                    if dd_solver is None:
                        dd_solver = Solver(PlayRules.of(rules))
                    losses = _dd_losses(fact, rules, t.number, place, dd_solver, a, dealer, time_limit)
                    decision = _with_seen(decision, fact, rules, pos, losses)
            out.decisions.append(decision)
    return out


def _dd_losses(fact: DealFact, rules: Rules, trick: int, place: int, solver: Solver, a: DealAnalysis,
               dealer: int, time_limit: float | None) -> tuple[CardLoss, ...]:
    """Every legal card's double-dummy loss at a decision (the position the double-dummy view
    judged: trump set by play taken as known); () when not solved within the limit."""
    pos = position_at(fact, rules, trick)
    for p in fact.tricks[trick - 1].plays[:place]:
        pos = pos.play(p.card)
    solver.limit(None, time_limit)
    try:
        values = solver.card_values(pos)
    except OutOfTime:
        return ()
    finally:
        solver.limit(None, None)
    mover = pos.turn % 2
    mine = {c: (v if mover == 0 else a.game.total - v) for c, v in values.items()}
    top = max(mine.values())
    best = outcome(a.game, rules, dealer, next(values[c] for c in values if mine[c] == top))
    out = []
    for c in pos.legal():
        loss = top - mine[c]
        mark = "" if loss <= 0 else ("??" if outcome(a.game, rules, dealer, values[c]) != best else "?")
        out.append(CardLoss(c, float(loss), 0.0, mark))     # the marks of the double-dummy view (deal.glyph)
    return tuple(out)


def _with_seen(d: Decision, fact: DealFact, rules: Rules, pos: Position, losses: tuple[CardLoss, ...]) -> Decision:
    from dataclasses import replace
    return replace(d, cards=losses, seen=seen_at(fact, rules, pos, d.trick))


_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def seen_at(fact: DealFact, rules: Rules, pos: Position, trick: int) -> Seen:
    """What the player to move in ``pos`` (before a card of trick ``trick``) could see: a
    closed trump's suit only when they set it (or once it is revealed)."""
    seats = rules.seat_letters
    me = pos.turn
    trump: str | None = pos.trump
    setter = ""
    if trump is None and pos.closed is not None:
        suit, who = pos.closed
        if who == me:
            trump, how = suit, "closed-own"
            note = f"closed trump: {_SUIT_NAMES.get(suit, suit)}, set by you, not yet revealed"
        elif who < 0:
            how, note = "closed-unchosen", "closed trump, its setter not yet known"
        else:
            setter = seats[who]
            how, note = "closed-hidden", f"closed trump set by {setter}, not yet revealed"
    elif trump is None:
        how = "first-void" if pos.first_void else "none"
        note = "no trump yet: the first player who cannot follow suit sets it" if pos.first_void else "no trump"
    else:
        how, note = "set", f"trump: {_SUIT_NAMES.get(trump, trump)}"
    here = tuple((seats[(pos.leader + k) % len(seats)], c) for k, c in enumerate(pos.trick))
    earlier = tuple((t.leader, tuple(p.card for p in t.plays)) for t in fact.tricks[:trick - 1])
    sides = pos.game.sides
    return Seen(tuple(sorted(pos.hands[me], key=_card_order)), pos.legal(), here, earlier, trump, note, how, setter,
                pos.centre_tricks * pos.game.seats, pos.centre_tens, {sides[0]: pos.tens[0], sides[1]: pos.tens[1]},
                pos.done)


_ORDER = "23456789TJQKA"


def _card_order(card: str) -> tuple[int, int]:
    rank = card[:-1].replace("10", "T")
    return ("SHCD".index(card[-1]) if card[-1] in "SHCD" else 4, -_ORDER.index(rank) if rank in _ORDER else 0)


def verdict(d: Decision, card: str) -> tuple[str, float]:
    """What playing ``card`` at decision ``d`` would have done: ``best``, ``kept`` (a loss
    within the judgement's error, not marked) or ``lost``, with its expected loss."""
    for c in d.cards:
        if c.card == card:
            if c.loss <= 1e-9:
                return "best", 0.0
            return ("lost" if c.mark else "kept"), c.loss
    raise ValueError(f"{card} is not a legal card at this decision")


# ---- players --------------------------------------------------------------------------------

def judged_how(dd: bool, worlds: int, _: Callable[[str], str] = str) -> str:
    """How the cards were judged, as the review's pages and text say it: ``double dummy``,
    ``single dummy, 32 worlds a decision`` (``1 world``); ``_``: the words of a page's language."""
    if dd:
        return _("double dummy")
    if worlds == 1:
        return _("single dummy, 1 world a decision")
    return _("single dummy, {n} worlds a decision").format(n=worlds)


def player_names(game: Any, rules: Rules | None) -> dict[str, str]:
    """Each named seat's player (:func:`dehlanote.replay.game.player_name`, as the site's player
    pages and the database name them); seats without a name are left out."""
    if rules is None:
        return {}
    out = {}
    for s in rules.seat_letters:
        name = player_name(game, s)
        if name:
            out[s] = name
    return out


@dataclass
class PlayerReview:
    name: str
    decisions: int = 0
    dubious: int = 0          # ``?``
    blunders: int = 0         # ``??``
    deals: int = 0            # deals with at least one judged decision of the player
    lost: float = 0.0         # expected tens lost, in all
    marked: list[Decision] = field(default_factory=list)

    @property
    def per_deal(self) -> float:
        return self.lost / self.deals if self.deals else 0.0

    def costliest(self, top: int) -> list[Decision]:
        """The marked decisions, costliest first (then in the order played)."""
        order = sorted(self.marked, key=lambda d: (-d.tens, d.source, d.game, d.deal, d.trick, d.place))
        return order[:top]


def players(decisions: Iterable[Decision]) -> dict[str, PlayerReview]:
    """Each named player's figures, from the decisions (each with its ``player`` and deal set)."""
    out: dict[str, PlayerReview] = {}
    seen: set[tuple[str, str, int, int]] = set()
    for d in decisions:
        if not d.player:
            continue
        p = out.setdefault(d.player, PlayerReview(d.player))
        p.decisions += 1
        p.dubious += d.mark == "?"
        p.blunders += d.mark == "??"
        p.lost += d.tens
        key = (d.player, d.source, d.game, d.deal)
        if key not in seen:
            seen.add(key)
            p.deals += 1
        if d.mark:
            p.marked.append(d)
    return out


# ---- the cache ------------------------------------------------------------------------------

@cache
def _code() -> str:
    """A fingerprint of the analysis code (its sources and compiled search): a changed solver
    never reads an older judgement."""
    h = hashlib.sha256()
    root = resources.files("dehlanote.analysis")
    for item in sorted(root.iterdir(), key=lambda p: p.name):
        if item.name.endswith((".py", ".c", ".h", ".so", ".pyd")) and item.is_file():
            h.update(item.name.encode())
            h.update(item.read_bytes())
    return h.hexdigest()[:16]


def cache_key(fact: DealFact, rules: Rules, options: Options) -> str:
    """The cache file's name for a deal judged with ``options``."""
    from ..version import __version__
    plays = [(p.seat, p.card) for t in fact.tricks for p in t.plays]
    what = json.dumps([CACHE_FORMAT, __version__, _code(), repr(rules), fact.dealer, sorted(fact.dealt.items()),
                       sorted(fact.hands.items()) if fact.complete else None, plays, repr(fact.trump),
                       asdict(options)], default=str)
    return "review-" + hashlib.sha256(what.encode()).hexdigest()[:32] + ".json"


def cached(key: str) -> DealReview | None:
    """A deal's decisions kept by an earlier run, or None (missing, unsafe or not readable)."""
    from .. import cache as store
    data = store.read(key)
    if data is None:
        return None
    try:
        review = DealReview.from_json(json.loads(data.decode("utf-8")))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    review.cached = True
    return review


def keep(key: str, review: DealReview) -> bool:
    """Keep a deal's decisions for later runs (not a deal a limit stopped)."""
    if review.partial:
        return False
    from .. import cache as store
    return store.write(key, json.dumps(review.to_json(), ensure_ascii=False).encode("utf-8"))
