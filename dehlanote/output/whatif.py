"""What-if play in the terminal stepper: "play on from here".

:class:`WhatIf` is a line played on from a position of the stepper: a
:class:`~dehlanote.Table` at that card, the cards of the line (each chosen by hand or the
solver's), the place shown in it (back and forward keep the line, a card chosen elsewhere
starts a new one from there), who plays (the double-dummy solver answers every card
after yours, or you play every seat), the save prompt. :class:`LineView` shows the table as
the stepper's screen draws a position (:func:`table_snapshot`). Nothing here reads keys or
draws: :mod:`.keys` applies the keys, :mod:`.stepper_view` draws.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple, Optional

from ..analysis.best import Best, best_card, why_not_solvable
from ..analysis.search import Solver
from ..analysis.position import PlayRules
from ..deck import SUIT_NAMES, sort_key
from ..errors import DpnError
from ..files import OutputRefused, ReadOnly, WriteError, regular_or_missing, same_file, write_file
from ..replay.events import TrumpRevealed, TrumpSet
from ..replay.facts import DealFact, GameFacts, PlayFact, TrickFact
from ..replay.table import IllegalCard, Table
from ..replay.whatif import Departure, departure, whatif_record
from ..rules.profile import Registry
from ..syntax.cards import card_of
from ..syntax.model import Trick
from .stepper import MatchStanding, Snapshot, Stepper

__all__ = ["WhatIf", "LineView", "table_snapshot", "LABELS", "SOLVER_SECONDS"]

#: the keys that choose the legal cards, in order (the what-if mode's other keys are not among them)
LABELS = "1234567890abdfgijkortvxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: the CPU seconds the solver may take for one card
SOLVER_SECONDS = 5.0


_CODED = re.compile(r"^[a-z]+(-[a-z]+)+: |^[a-z]+: ")


class Step(NamedTuple):
    card: str
    by: str            # "hand" | "solver"


def table_snapshot(table: Table, deal: DealFact, played: int) -> Snapshot:
    """The stepper's snapshot of ``table``: the trick in progress (or the one just won), the
    hands still held (the known ones), the centre, the piles, the run, trump as it stands."""
    st = table.state
    rules = table.rules
    sides = table.sides
    n = len(table.seats)
    shown_deal = table.facts if table.facts is not None else deal._replace(
        tricks=st.tricks, trump=st.trump_fact if st.trump_fact is not None else deal.trump, complete=False,
        claim=None)
    trick: Optional[TrickFact] = None
    shown: tuple[PlayFact, ...] = ()
    complete = False
    capture = None
    if st.current:
        leader = table.current[0][0]
        start = table.seats.index(leader)
        order = "".join(table.seats[(start + k) % n] for k in range(n))
        trick = TrickFact(table.trick_number, leader, order, "", st.trump, st.centre, st.centre_tens, None,
                          st.run, Trick(table.trick_number, 0, 0, tuple(st.current)))
        shown = trick.plays
    elif st.tricks:
        trick = st.tricks[-1]
        shown = trick.plays
        complete = True
        capture = trick.capture
    hands: dict[str, tuple[str, ...]] = {}
    unknown: dict[str, int] = {}
    played_by = {s: 0 for s in table.seats}
    for f in st.tricks:
        for p in f.plays:
            played_by[p.seat] += 1
    for seat, _card in table.current:
        played_by[seat] += 1
    for seat in table.seats:
        held = table.hand(seat)
        hands[seat] = tuple(sorted((str(c) for c in held), key=sort_key)) if held is not None else ()
        unknown[seat] = 0 if held is not None else max(0, rules.hand_size - played_by[seat])
    run = (table.seats[st.last_winner], st.run) if st.last_winner is not None else None
    event = None
    trick_cards = len(st.current) if st.current else (len(trick.trick.plays) if trick is not None else 0)
    for e in table.events[-trick_cards:] if trick_cards else ():
        if isinstance(e, TrumpSet):
            event = f"{e.by} sets trump: {SUIT_NAMES[e.suit]}" if e.suit else f"{e.by} chooses trump in secret"
        elif isinstance(e, TrumpRevealed):
            event = f"{e.by} reveals trump: {SUIT_NAMES[e.suit]}" if e.suit else f"{e.by} reveals trump"
    return Snapshot(shown_deal, played, trick, shown, complete, hands, unknown, st.centre, st.centre_tens,
                    dict(zip(sides, st.pile_cards)), dict(zip(sides, st.pile_tens)), st.trump, run, capture,
                    event, (), False, table.to_play, True)


class LineView:
    """What the stepper's screen reads of a position (as of a :class:`Stepper`), for a line."""

    def __init__(self, whatif: WhatIf) -> None:
        self.whatif = whatif
        self.rules = whatif.stepper.rules
        self.flags: list = []
        self.deal = 0

    @property
    def deals(self) -> tuple[DealFact, ...]:
        return (self.snap.deal,)

    @property
    def snap(self) -> Snapshot:
        w = self.whatif
        return table_snapshot(w.table, w.deal_fact, w.start_played + w.pos)

    def where(self) -> str:
        w = self.whatif
        t = w.table
        parts = [f"What-if on deal {w.deal_fact.number} from trick {w.start[0]}, card {w.start[1]}"]
        if t.over:
            parts.append("the deal is over")
        else:
            parts.append(f"trick {t.trick_number} · card {len(t.current) + 1}")
        return " · ".join(parts)

    def match(self) -> MatchStanding:
        return self.whatif.stepper.match()

    def flags_here(self) -> list:
        return []

    def at_end(self) -> bool:
        return self.whatif.table.over

    @property
    def deal_over(self) -> bool:
        return self.whatif.table.over


class WhatIf:
    """A line played on from the stepper's position (see the module's text).

    Raises ValueError (from :meth:`start`) when the deal cannot be played on there."""

    def __init__(self, stepper: Stepper, facts: Optional[GameFacts] = None, source: Optional[str] = None,
                 reg: Optional[Registry] = None) -> None:
        self.stepper = stepper
        self.facts = facts
        self.source = source
        self.reg = reg
        self.deal_fact = stepper.deals[stepper.deal]
        self.start_played = stepper.played
        self.start = _point(self.deal_fact, stepper.played)
        self.table = self.deal_fact.table(trick=self.start[0], card=self.start[1])
        self.line: list[Step] = []
        self.pos = 0                          # cards of the line on the table
        self.by_hand = False                  # True: the user plays every seat
        self.running = False                  # the solver plays on to the end, a card a tick
        self.message = ""
        self.prompt: Optional[str] = None     # the file name being typed (save)
        self.card_prompt: Optional[str] = None  # a card being typed (c)
        self.confirm: Optional[str] = None    # the path to overwrite, waiting for y / n
        self.saved: Optional[str] = None
        self.outlook = ""                     # the solver's last value of the deal, in words
        self._solver: Optional[Solver] = None
        self.view = LineView(self)
        self.cannot = why_not_solvable(self.table) if not self.table.over else ""
        if self.cannot and "every hand" in self.cannot:
            self.by_hand = True

    # ---- what is shown ------------------------------------------------------------------------
    def choices(self) -> list[tuple[str, str]]:
        """(key, card) for each legal card of the seat to play, as many as there are keys."""
        return list(zip(LABELS, (str(c) for c in self.table.legal_cards())))

    @property
    def problem(self) -> str:
        """The last message when it is a problem (``code: sentence``, as ``save-refused: …``), else ""."""
        return self.message if _CODED.match(self.message) else ""

    def left(self) -> Optional[Departure]:
        """Where the line on the table leaves the game (None: it is still the game's)."""
        return departure(self.deal_fact, self.table)

    def who_plays(self) -> str:
        if self.by_hand:
            return "you play every seat"
        return "the solver answers"

    # ---- moves -----------------------------------------------------------------------------------
    def choose(self, card: str, by: str = "hand") -> bool:
        """Play ``card`` for the seat to play (a new line from here); then, unless you play
        every seat, the solver plays to the end of the trick. False with a message when refused."""
        self.running = False
        seat = self.table.to_play
        if seat is None:
            self.message = "the deal is over: ← goes back, s saves the line"
            return False
        name = card_of(card) or card
        try:
            self.table.play(name)
        except IllegalCard as exc:
            self.message = f"{exc.code}: {exc.message}"
            return False
        del self.line[self.pos:]
        self.line.append(Step(name, by))
        self.pos += 1
        said = f"{seat} plays {name}"
        if by == "hand" and not self.by_hand:
            answers = []
            while self.table.current and not self.table.over:
                mover = self.table.to_play
                if not self.solver_card():
                    break
                answers.append(f"{mover} {self.line[-1].card}")
            if answers:
                said += "; the solver answers " + ", ".join(answers)
            if self.message and not self.message.startswith("the solver plays"):
                said += f" ({self.message})"     # why the solver stopped
            elif answers:
                said += f" ({self.outlook})"
        self.message = said
        return True

    def solver_card(self) -> bool:
        """The solver plays the seat to play's best card (False with the reason when it cannot)."""
        seat = self.table.to_play
        if seat is None:
            self.message = "the deal is over"
            return False
        best = self._best()
        if best.card is None:
            self.running = False
            self.message = best.reason
            return False
        del self.line[self.pos:]
        self.table.play(best.card)
        self.line.append(Step(best.card, "solver"))
        self.pos += 1
        side = self.table.seats.index(seat) % 2
        total = PlayRules.of(self.table.rules).total
        value = best.value if best.value is not None else 0
        split = (value, total - value) if side == 0 else (total - value, value)
        unit = {"points": "points", "tricks": "tricks"}.get(self.table.rules.score, "tens")
        a, b = self.table.sides
        self.outlook = f"with best play the deal ends {a} {split[0]} {b} {split[1]} {unit}"
        self.message = f"the solver plays {best.card} for {seat}: {self.outlook}"
        return True

    def _best(self) -> Best:
        if self._solver is None:
            self._solver = Solver(PlayRules.of(self.table.rules))
        return best_card(self.table, seconds=SOLVER_SECONDS, solver=self._solver)

    def forward(self) -> bool:
        """One card on: the line's next card, or past its end the solver's."""
        if self.pos < len(self.line):
            self.table.play(self.line[self.pos].card)
            self.pos += 1
            self.message = ""
            return True
        return self.solver_card()

    def back(self) -> bool:
        """One card back (the line is kept: forward plays it again)."""
        self.running = False
        if self.pos == 0:
            self.message = "the start of the line: w or Esc goes back to the game"
            return False
        self.table.undo()
        self.pos -= 1
        self.message = ""
        return True

    def play_out(self) -> None:
        """The solver plays on to the end of the deal, a card at each :meth:`tick`."""
        if self.table.over:
            self.message = "the deal is over"
            return
        self.running = True
        self.message = "the solver plays on to the end (any key stops it)"

    def tick(self) -> None:
        """One card of :meth:`play_out`."""
        if not self.running:
            return
        if self.table.over or not self.forward():
            self.running = False
            if self.table.over:
                self.message = "the deal is over: s saves the line"

    def toggle(self) -> None:
        self.by_hand = not self.by_hand
        if not self.by_hand and self.cannot and "every hand" in self.cannot:
            self.by_hand = True
            self.message = self.cannot
            return
        self.message = "you play every seat" if self.by_hand else "the solver answers each card you choose"

    # ---- saving -------------------------------------------------------------------------------
    def default_name(self) -> str:
        """Beside the record: ``NAME-whatif-deal3.dpn`` (``-2``, ``-3`` ... when that one exists)."""
        base = Path(self.source) if self.source else Path("game.dpn")
        stem = base.stem or "game"
        n = self.deal_fact.number
        for k in range(1, 1000):
            name = base.with_name(f"{stem}-whatif-deal{n}{'' if k == 1 else f'-{k}'}.dpn")
            if not os.path.lexists(name):
                return str(name)
        return str(base.with_name(f"{stem}-whatif-deal{n}.dpn"))

    def record(self) -> str:
        """The record of the line (raises ValueError when the line is still the game's, DpnError
        when it would not be valid)."""
        left = departure(self.deal_fact, self.table)
        if left is None:
            raise ValueError("the line is still the game's: choose another card before saving")
        if self.facts is None:
            raise ValueError("the game's record is not at hand")
        upto = self.line[:self.pos]
        hand = sum(1 for s in upto if s.by == "hand")
        solver = len(upto) - hand
        note = "the line: " + ", ".join(part for part in (
            f"{hand} card{'s' if hand != 1 else ''} chosen by hand" if hand else "",
            (f"{solver} played by the double-dummy solver" if hand else
             f"{solver} card{'s' if solver != 1 else ''} played by the double-dummy solver") if solver else "")
            if part)
        return whatif_record(self.facts, self.deal_fact, left.trick, left.card, left.recorded, left.chosen,
                             self.table, note=note, reg=self.reg)

    def ask_save(self) -> None:
        """Open the save prompt with the default name (refused when there is nothing to save)."""
        if departure(self.deal_fact, self.table) is None:
            self.message = "nothing-to-save: the line is still the game's; choose another card first"
            return
        self.prompt = self.default_name()

    def save(self, path: str, *, overwrite: bool = False) -> bool:
        """Write the record to ``path`` (asking first when it exists: :attr:`confirm`)."""
        self.prompt = None
        self.confirm = None
        path = os.path.expanduser(path.strip())
        if not path:
            self.message = "save-refused: no file name"
            return False
        refused = self._refused(path)
        if refused:
            self.message = f"save-refused: {path}: {refused}"
            return False
        if os.path.lexists(path) and not overwrite:
            self.confirm = path
            return False
        try:
            text = self.record()
        except DpnError as exc:
            self.message = f"{exc.code}: {exc.message}"
            return False
        except ValueError as exc:
            self.message = f"nothing-to-save: {exc}"
            return False
        refused = self._refused(path)       # (again: it may have changed while y / n was asked)
        if refused:
            self.message = f"save-refused: {path}: {refused}"
            return False
        try:
            write_file(path, text)
        except ReadOnly:        # (it said "--force writes it all the same": the stepper has no --force)
            self.message = f"save-refused: {path}: it is read-only: save the line under another name"
            return False
        except OutputRefused as exc:
            self.message = f"save-refused: {path}: {exc}"
            return False
        except (WriteError, OSError) as exc:
            self.message = f"write-failed: {path}: {exc.strerror or exc}"
            return False
        self.saved = path
        self.message = f"saved the line as {path}"
        return True

    def _refused(self, path: str) -> str:
        """Why ``path`` will not be saved to, before anything is opened ("" when it may be): the
        record being replayed (also through a link), or anything but a regular file (a FIFO would
        hold the stepper in ``open`` for good, a device would take the text, a folder cannot)."""
        if self.source and same_file(path, [self.source]) is not None:
            return "it is the record being replayed: save the line under another name"
        try:
            regular_or_missing(path)
        except OutputRefused as exc:
            return str(exc)
        except OSError as exc:
            return exc.strerror or str(exc)
        return ""


def _point(deal: DealFact, played: int) -> tuple[int, int]:
    """(trick, card) of the card after ``played`` cards of the deal."""
    done = 0
    for t in deal.tricks:
        if played < done + len(t.plays):
            return t.number, played - done + 1
        done += len(t.plays)
    return deal.next_trick, 1
