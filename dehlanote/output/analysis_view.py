"""The double-dummy analysis as the replays show it: the value before each trick and, for each
card that lost value, its mark (``?``/``??``) and what would have kept the value.

``dehlanote html --analyse`` and ``dehlanote replay --analyse`` (terminal and ``--plain``)
read the same :class:`DealView`, built from :func:`dehlanote.analysis.deal.analyse_deal` with
the same glyphs and sentences as ``annotate --analyse`` (:func:`~dehlanote.analysis.deal.glyph`,
:func:`~dehlanote.analysis.deal.advice`). :class:`Analyser` solves each deal once per run: a
deal met again (the same file given twice, a game copied) comes from its cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..analysis.commentary import DEAL_SECONDS
from ..analysis import Solver
from ..analysis.deal import TIMEOUT, DealAnalysis, analyse_deal, known_hands
from ..analysis.single import WORLDS, judge_deal, play_advice, play_mark, time_left
from ..i18n import N_
from ..analysis.position import PlayRules
from ..replay.facts import DealFact
from ..rules.profile import Rules

__all__ = ["HANDS_UNKNOWN", "TrickView", "DealView", "deal_view", "value_text", "Analyser"]

#: what a deal whose hands are not all known says, once
HANDS_UNKNOWN = N_("not analysed: hands unknown")

#: a value under best play, in the deal's unit
_BEST = {"tens": N_("best play: {a} {x} \u2013 {b} {y} tens"), "points": N_("best play: {a} {x} \u2013 {b} {y} points"),
         "tricks": N_("best play: {a} {x} \u2013 {b} {y} tricks")}

Words = Callable[[str], str]

Progress = Callable[[int, int], None]

#: deals an :class:`Analyser` remembers (the oldest is forgotten first)
CACHE_DEALS = 2048


def value_text(game: PlayRules, value: int, _: Words = str) -> str:
    """A value under best play as the replays say it: ``best play: AC 3 – BD 1 tens`` (``_``: the
    words of a page's language)."""
    a, b = game.sides
    return _(_BEST[game.score]).format(a=a, x=value, b=b, y=game.total - value)


@dataclass
class TrickView:
    """One trick's analysis: its value before the first card, and the cards that lost value."""

    number: int
    value: str                                   # "best play: AC 3 – BD 1 tens"
    marks: dict[int, tuple[str, str]] = field(default_factory=dict)   # play index -> (glyph, sentence)


@dataclass
class DealView:
    """A deal's analysis as shown: a note for the deal (why not, or not all of it), and its tricks."""

    number: int
    note: str = ""                               # "" when every trick was analysed
    tricks: dict[int, TrickView] = field(default_factory=dict)

    @property
    def analysed(self) -> bool:
        return bool(self.tricks)

    def to_json(self) -> dict[str, Any]:
        """The page's compact form: ``{"note": str, "t": {trick: [value, [[play index, glyph, sentence]]]}}``."""
        out: dict[str, Any] = {}
        if self.note:
            out["note"] = self.note
        out["t"] = {str(n): [t.value, [[k, g, s] for k, (g, s) in sorted(t.marks.items())]]
                    for n, t in self.tricks.items()}
        return out


def _dealer(fact: DealFact, rules: Rules) -> int:
    seats = rules.seat_letters
    return seats.index(fact.dealer) if fact.dealer and fact.dealer in seats else 0


def deal_view(fact: DealFact, rules: Rules, analysis: DealAnalysis, _: Words = str) -> DealView:
    """What the replays show of one deal's analysis (``_``: the words of a page's language; the
    solver's reasons for not going on stay English but for the commonest, the time limit)."""
    view = DealView(fact.number)
    game = analysis.game
    if not analysis.tricks:
        reason = analysis.reason or N_("no trick to analyse")
        view.note = (_(HANDS_UNKNOWN) if reason.startswith("the hands are not known")
                     else _("not analysed: {reason}").format(reason=_(reason)))
        return view
    dealer = _dealer(fact, rules)
    for t in analysis.tricks:
        tv = TrickView(t.number, value_text(game, t.value, _))
        for k, p in enumerate(t.plays):
            mark = play_mark(analysis, p, rules, dealer)
            if mark:
                tv.marks[k] = (mark, play_advice(analysis, p, _))
        view.tricks[t.number] = tv
    first = analysis.tricks[0].number
    # a trick left out for a card the rules do not allow: "not analysed: trick 8: B's 5S is not a
    # legal card here" (the tricks before and after it are)
    reason = _(analysis.reason) if analysis.reason else ""     # (gettext of "" is the catalog's header)
    fault = _("not analysed: {reason}").format(reason=reason) if analysis.faults else ""
    start = _("analysed from trick {n}").format(n=first)
    if first == 1:
        view.note = fault or reason
    elif analysis.reason == TIMEOUT:    # "earlier tricks not solved in time"
        view.note = _("analysed from trick {n}: earlier tricks {reason}").format(n=first, reason=reason)
    elif fault:
        view.note = start + "; " + fault
    elif analysis.reason:               # any other reason is a sentence of its own
        view.note = _("analysed from trick {n}: {reason}").format(n=first, reason=reason)
    else:
        view.note = start
    return view


class Analyser:
    """Solves deals for display, each deal once per run (a cache keyed on the deal's cards).

    ``from_trick``: start each deal's analysis there (the end of a deal is solved in a blink,
    its start can take a minute); ``time_limit``: CPU seconds a deal at most (the later
    tricks are solved first, so a deal stopped by the limit still shows them).
    """

    def __init__(self, *, from_trick: int = 1, time_limit: Optional[float] = DEAL_SECONDS, dd: bool = True,
                 worlds: int = WORLDS, seed: int = 0, words: Words = str) -> None:
        """``dd``: the double-dummy view only; else each card is judged single dummy too
        (``worlds`` a decision, ``seed``), in ``time_limit`` more CPU seconds; ``words``: the
        views' sentences in a page's language (:func:`dehlanote.i18n.translator`)."""
        self.words = words
        self.from_trick = from_trick
        self.time_limit = time_limit
        self.dd, self.worlds, self.seed = dd, worlds, seed
        self._cache: dict[Any, DealView] = {}
        #: told each deal's analysis as it is solved (the site's mistake review reads it)
        self.on_solved: Optional[Callable[[DealFact, Rules, DealAnalysis], None]] = None
        self.solved = 0          # deals solved (not from the cache)
        self.unknown = 0         # deals met whose hands are not known
        self.refused = 0         # deals with hands not analysed all the same (the view says why)

    @staticmethod
    def needs_solving(fact: DealFact, rules: Rules) -> bool:
        """False for a deal that is shown as not analysed at once (hands unknown, no trick)."""
        return bool(fact.tricks) and known_hands(fact, rules) is not None

    def _key(self, fact: DealFact, rules: Rules) -> Any:
        plays = tuple((p.seat, p.card) for t in fact.tricks for p in t.plays)
        return (repr(rules), fact.dealer, tuple(sorted(fact.dealt.items())), plays, repr(fact.trump),
                self.from_trick, self.time_limit, self.dd, self.worlds, self.seed)

    def cached(self, fact: DealFact, rules: Rules) -> Optional[DealView]:
        """The deal's view if it needs no solving (or was solved already), else None."""
        if not self.needs_solving(fact, rules):
            return self._unsolved(fact, rules)
        view = self._cache.get(self._key(fact, rules))
        return None if view is None else _renumbered(view, fact.number)

    def _unsolved(self, fact: DealFact, rules: Rules) -> DealView:
        _ = self.words
        if not fact.tricks:
            return DealView(fact.number, _("not analysed: no trick was played"))
        return DealView(fact.number, _(HANDS_UNKNOWN))

    def view(self, fact: DealFact, rules: Rules, progress: Optional[Progress] = None,
             partial: Optional[Callable[[DealView], None]] = None) -> DealView:
        """The deal's view, solving it if this run has not yet: ``progress(done, total)`` after each
        trick solved, ``partial(view)`` with the tricks solved so far (the last ones first)."""
        if not self.needs_solving(fact, rules):
            if fact.tricks:
                self.unknown += 1
            return self._unsolved(fact, rules)
        key = self._key(fact, rules)
        view = self._cache.get(key)
        if view is None:
            analysis: Optional[DealAnalysis] = None
            try:
                analysis = self._solve(fact, rules, progress, partial)
                view = deal_view(fact, rules, analysis, self.words)
            except (KeyboardInterrupt, _Stopped, _Preempted):
                raise
            except Exception as exc:  # noqa: BLE001 - a solver fault costs this deal's analysis, not the page
                _ = self.words
                view = DealView(fact.number, _("not analysed: the solver failed ({why})").format(
                    why=f"{type(exc).__name__}: {exc}"))
            if len(self._cache) >= CACHE_DEALS:     # bounded: a run of any size keeps the memory of a few
                del self._cache[next(iter(self._cache))]
            self._cache[key] = view
            if view.tricks:
                self.solved += 1
            else:
                self.refused += 1
            if analysis is not None and self.on_solved is not None:
                self.on_solved(fact, rules, analysis)
        return _renumbered(view, fact.number)

    def _solve(self, fact: DealFact, rules: Rules, progress: Optional[Progress],
               partial: Optional[Callable[[DealView], None]]) -> DealAnalysis:
        """The deal solved from its last trick back, one trick more each round, with one solver:
        each round's table makes the next round's later tricks nearly free (on the worked
        example from trick 4: 2.66 CPU s against 2.60 s in one go, 490,005 nodes against
        489,107), and every round gives the tricks solved so far to show."""
        import time

        solver = Solver(PlayRules.of(rules))
        started = time.process_time()
        last = len(fact.tricks)
        total = last - self.from_trick + 1
        best: Optional[DealAnalysis] = None
        for k in range(last, self.from_trick - 1, -1):
            if progress is not None:
                progress(last - k, total)
            left = None if self.time_limit is None else self.time_limit - (time.process_time() - started)
            if left is not None and left <= 0:
                if best is not None:
                    best.solved, best.reason = False, TIMEOUT
                break
            a = analyse_deal(fact, rules, from_trick=k, solver=solver, time_limit=left)
            if not a.tricks and best is None and a.reason != TIMEOUT:
                # no position to start from here (past a card the rules do not allow, after which
                # the hands no longer fit): the tricks before it, from an earlier start
                continue
            if not a.tricks or (not a.solved and best is not None):
                if best is not None:       # stopped by the limit: keep the tricks solved before
                    best.solved, best.reason = False, a.reason
                else:
                    best = a
                break
            best = a
            if partial is not None:
                partial(deal_view(fact, rules, a, self.words))
            if not a.solved or (a.tricks[0].number > k and k not in a.faults):
                break       # the limit, or nothing before (five-card phase); a fault's trick is passed over
        if best is None:
            best = analyse_deal(fact, rules, from_trick=self.from_trick, solver=solver, time_limit=self.time_limit)
        if not self.dd and best.tricks:
            best.single_dummy = True
            if partial is not None:     # the double-dummy values while the cards are judged
                partial(deal_view(fact, rules, best, self.words))
            shown = max(total - 1, 0)
            judge_deal(fact, rules, best, worlds=self.worlds, seed=self.seed,
                       time_limit=time_left(self.time_limit, started),     # the deal's limit, not a second one
                       progress=None if progress is None else (lambda done, todo: progress(shown, total)))
        if progress is not None:
            progress(total, total)
        return best


def _renumbered(view: DealView, number: int) -> DealView:
    return view if view.number == number else DealView(number, view.note, view.tricks)


class _Stopped(Exception):
    """Raised from the progress callback to stop a solve when the stepper quits."""


class _Preempted(Exception):
    """Raised from the progress callback when another deal is on screen: that one is solved first."""


class BackgroundAnalysis:
    """The stepper's analysis: deals solved in a background thread, the deal on screen first,
    then the following ones, so that the keys never wait for the solver.

    The screen asks :meth:`view` (None until solved) and :meth:`status` (what is being
    solved, tricks done, seconds) for the deal it shows; :attr:`version` grows each time
    there is something new to draw. :meth:`stop` ends the thread at the next trick solved.
    """

    def __init__(self, deals: "tuple[DealFact, ...] | list[DealFact]", rules: Rules, analyser: Analyser,
                 start: int = 0) -> None:
        import threading

        self.deals = tuple(deals)
        self.rules = rules
        self.analyser = analyser
        self.version = 0
        self._views: dict[int, DealView] = {}
        self._partial: dict[int, DealView] = {}
        for i, fact in enumerate(self.deals):      # hands unknown: said at once, nothing to solve
            view = analyser.cached(fact, rules)
            if view is not None:
                self._views[i] = view
        self._wanted = start        # the deal the stepper opens on (--deal): solved first, not deal 1
        self._busy: Optional[int] = None
        self._done = (0, 0)
        self._started = 0.0
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="dehlanote-analysis", daemon=True)
        self._thread.start()

    def want(self, index: int) -> None:
        """The deal now on screen: solved next (after the trick being solved now, if another deal's)."""
        if index != self._wanted:
            self._wanted = index
            self._wake.set()

    def view(self, index: int) -> Optional[DealView]:
        """The deal's analysis: whole once solved, else the tricks solved so far (or None)."""
        with self._lock:
            return self._views.get(index) or self._partial.get(index)

    def finished(self, index: int) -> bool:
        return index in self._views

    def solving(self, index: int) -> bool:
        return self._busy == index

    def status(self, index: int) -> str:
        """``analysis: solving deal 2 … 5 of 13 tricks solved, 12 s`` (or waiting for another deal)."""
        import time

        number = self.deals[index].number
        if self._busy == index:
            done, total = self._done
            seconds = time.monotonic() - self._started
            return (f"analysis: solving deal {number}\u2026 {done} of {total} tricks, {seconds:.0f} s"
                    if total else f"analysis: solving deal {number}\u2026")
        if self._busy is not None:
            return f"analysis: deal {number} waits for deal {self.deals[self._busy].number} to be solved"
        return f"analysis: deal {number} not solved yet"

    def stop(self) -> None:
        self._stop = True
        self._wake.set()

    def _next(self) -> Optional[int]:
        order = list(range(self._wanted, len(self.deals))) + list(range(0, self._wanted))
        for i in order:
            if i not in self._views:
                return i
        return None

    def _run(self) -> None:
        import time

        while not self._stop:
            i = self._next()
            if i is None:
                self._wake.wait()
                self._wake.clear()
                continue
            self._busy, self._done, self._started = i, (0, 0), time.monotonic()
            self.version += 1

            def step(done: int, total: int, i: int = i) -> None:
                if self._stop:
                    raise _Stopped
                wanted = self._wanted
                if wanted != i and wanted not in self._views:
                    raise _Preempted     # the deal on screen first: this one is solved again later
                self._done = (done, total)
                self.version += 1

            def partial(view: DealView, i: int = i) -> None:
                with self._lock:
                    self._partial[i] = view
                self.version += 1

            try:
                view = self.analyser.view(self.deals[i], self.rules, step, partial)
            except _Stopped:
                return
            except _Preempted:
                self._busy = None
                continue
            with self._lock:
                self._views[i] = view
                self._busy = None
            self.version += 1
