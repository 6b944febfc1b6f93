"""The stepper's facts: the table as it stood after each card of a deal
(:func:`snapshots`), the match as it stands before and after each deal, the errors placed at
the card where they happened, and :class:`Stepper`, which moves through a game card by card.
Nothing here draws anything (:mod:`.stepper_view` does); the sentences come from :mod:`.notes`.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import NamedTuple, Optional, Sequence, Union

from ..errors import DpnError, printable
from ..replay.events import TrumpRevealed, TrumpSet
from ..replay.table import Table, core_walk
from ..replay.facts import Capture, DealFact, GameFacts, PlayFact, ResultFact, Streak, TrickFact
from ..rules.profile import Rules
from ..deck import sort_key
from .notes import TenStory, tens_split, trick_notes, trump_event

__all__ = [
    "Snapshot", "snapshots", "seat_layout", "Stepper", "MatchStanding", "match_state", "match_text",
    "match_parts", "Flag", "place_errors", "flag_text", "deal_start_state",
]


# ---- the table after each card, for the stepper -----------------------------------------------

class Snapshot(NamedTuple):
    """The table after ``played`` cards of a deal (0: dealt, nothing played)."""

    deal: DealFact
    played: int
    trick: Optional[TrickFact]          # the trick in progress or just completed
    shown: tuple[PlayFact, ...]         # its cards on the table so far
    complete: bool                      # the shown trick is complete (winner decided)
    hands: dict[str, tuple[str, ...]]   # cards still held (known ones), grouped S H D C
    unknown: dict[str, int]             # cards held that the record does not name
    centre_cards: int
    centre_tens: tuple[str, ...]
    piles: dict[str, int]               # captured cards per side
    pile_tens: dict[str, tuple[str, ...]]
    trump: Optional[str]                # the suit in force, as the players know it
    run: Optional[tuple[str, int]]      # (seat, consecutive wins) after the last complete trick
    capture: Optional[Capture]          # what the trick just completed captured
    event: Optional[str]                # trump set / revealed at this step
    crossed: tuple["TenStory", ...] = ()  # tens that capture took from a trick the other side won
    event_now: bool = False             # the event happened at this very card (not earlier in the trick)
    to_play: Optional[str] = None       # a line played on (what-if): the seat to play next
    live: bool = False                  # a line played on (what-if), not the record's


def seat_layout(n: int) -> dict[str, str]:
    """Where each seat sits: playing order goes anticlockwise from A at the bottom."""
    if n == 6:
        return {"A": "S", "B": "SE", "C": "NE", "D": "N", "E": "NW", "F": "SW"}
    return {"A": "S", "B": "E", "C": "N", "D": "W"}


def _dealt(deal: DealFact, rules: Rules) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Each seat's dealt hand as far as known, and how many of its cards are unknown."""
    seats = rules.seat_letters
    plays: dict[str, list[str]] = {s: [] for s in seats}
    for t in deal.tricks:
        for p in t.plays:
            plays.setdefault(p.seat, []).append(p.card)
    hands: dict[str, list[str]] = {}
    unknown: dict[str, int] = {}
    for s in seats:
        if s in deal.hands:
            hands[s] = list(deal.hands[s])
            unknown[s] = 0
        else:
            hands[s] = list(plays[s])
            unknown[s] = max(0, rules.hand_size - len(plays[s]))
    return hands, unknown


def snapshots(deal: DealFact, rules: Rules) -> list[Snapshot]:
    """The table after 0, 1, 2 … cards of the deal, one snapshot per card played.

    The table is the per-card core's (:mod:`dehlanote.replay.core`): each written card is
    played on the deal's state, and the centre, the piles, the tens, the run and trump (as the
    players know it: closed trump only once revealed) are read from the state after it, the
    trump events from the events it caused. The hands shown are the record's: as written, or
    the cards each seat is seen to play.
    """
    sides = rules.sides
    seats = rules.seat_letters
    dealt, unknown = _dealt(deal, rules)
    held = {s: list(c) for s, c in dealt.items()}
    tf = deal.trump

    def grouped() -> dict[str, tuple[str, ...]]:
        return {s: tuple(sorted(c, key=sort_key)) for s, c in held.items()}

    state = deal_start_state(deal)
    trump = state.trump if state is not None else None
    out = [Snapshot(deal, 0, None, (), False, grouped(), dict(unknown), 0, (), {s: 0 for s in sides},
                    {s: () for s in sides}, trump, None, None, None)]
    if state is None:
        return out
    played = 0
    notes = {n.fact.number: n for n in trick_notes(deal, rules)}
    event: Optional[str] = None     # a trump set or revealed stays shown to the trick's end
    for t, k, state, events, counted in core_walk(deal, state):
        if k == 0:
            event = None
        for card in counted:        # a trick of the wrong size before this one: its cards were played
            seat = next((s for s, cards in held.items() if card in cards), None)
            if seat is not None:
                held[seat].remove(card)
        p = t.plays[k]
        played += 1
        before = event
        if p.card in held.get(p.seat, []):
            held[p.seat].remove(p.card)
        if any(isinstance(e, (TrumpSet, TrumpRevealed)) for e in events):
            event = trump_event(t, tf) or event
        done = k == len(t.plays) - 1
        run = (seats[state.last_winner], state.run) if state.last_winner is not None else None
        out.append(Snapshot(deal, played, t, t.plays[: k + 1], done, grouped(), dict(unknown),
                            state.centre, state.centre_tens, dict(zip(sides, state.pile_cards)),
                            dict(zip(sides, state.pile_tens)), state.trump, run,
                            t.capture if done else None, event, notes[t.number].crossed if done else (),
                            event is not None and event != before))
    claim = deal.claim
    if claim is not None and len(out) > 1:
        # the claim ends the deal after its last written trick: the claiming side takes the rest
        piles = dict(out[-1].piles)
        pile_tens = dict(out[-1].pile_tens)
        piles[claim.side] = piles.get(claim.side, 0) + claim.cards
        pile_tens[claim.side] = pile_tens.get(claim.side, ()) + claim.tens
        out[-1] = out[-1]._replace(piles=piles, pile_tens=pile_tens, centre_cards=0, centre_tens=())
    return out


def deal_start_state(deal: DealFact):
    """The core's state at the start of a replayed deal (None when it cannot be set up)."""
    try:
        return Table.from_deal(deal).state
    except ValueError:
        return None



# ---- the match as it stands ---------------------------------------------------------------------

#: a fact the record does not allow to know (a deal whose outcome is unknown came before)
UNKNOWN = "unknown"


class MatchStanding(NamedTuple):
    """The match before a deal (or after it): what the replay states, never a guess."""

    kots: dict[str, int]                   # kots made so far (the certain ones)
    points: dict[str, int]                 # coat: deals won per side ({} otherwise)
    streak: Union[Streak, None, str]       # the run going into the next deal; UNKNOWN after an unknown deal
    unknown: tuple[int, ...]               # numbers of the deals so far whose outcome is unknown
    over: bool                             # the match certainly ended
    winner: Optional[str]                  # who won it (None: level, or not over)
    deals: int                             # deals counted


def match_state(deals: Sequence[DealFact], upto: int, rules: Rules,
                result: Optional[ResultFact] = None) -> MatchStanding:
    """The match after the first ``upto`` deals of ``deals`` (0: before any), from the deal facts.

    The run is the one the next deal continues: an unknown deal makes it unknown (runs then
    count afresh from the next known deal), a kot restarts it where the profile says so.
    """
    sides = rules.sides
    kots = {s: 0 for s in sides}
    points = {s: 0 for s in sides} if rules.match_points else {}
    streak: Union[Streak, None, str] = None
    unknown: list[int] = []
    over, winner = False, None
    for d in deals[:upto]:
        if d.kot is not None:
            kots[d.kot.side] = kots.get(d.kot.side, 0) + 1
        if points and d.winner is not None:
            points[d.winner] = points.get(d.winner, 0) + 1
        if not d.complete and not over:
            unknown.append(d.number)
        # the run the next deal continues, as the engine counted it (a kot's restart included)
        streak = d.next_streak if d.next_streak_known else UNKNOWN
        if d.ends_match and not over:
            over = True
            if result is not None and result.finished:
                winner = result.winner
            elif d.kot is not None:
                winner = d.kot.side
            else:
                winner = d.winner
    if not over and upto >= len(deals) and result is not None and result.finished:
        over, winner = True, result.winner          # an open session ends with the record
    return MatchStanding(kots, points, streak, tuple(unknown), over, winner, min(upto, len(deals)))


def match_parts(state: MatchStanding, rules: Rules) -> list[str]:
    """The match in parts, most important first: ``kots AC 0 BD 1``, ``streak BD 2``, ...,
    then what wins (``1 kot wins the match``, ``7 deal wins in a row make a kot``)."""
    sides = rules.sides
    parts = []
    if state.over:
        parts.append(f"match over: {state.winner} wins" if state.winner else "match over: level")
    parts.append(f"kots {tens_split(state.kots, sides)}")
    if state.points:
        parts.append(f"deals won {tens_split(state.points, sides)}")
    if not state.over and rules.streak and not rules.match_points:
        if isinstance(state.streak, str):
            parts.append("streak unknown")
        elif state.streak is None:
            parts.append("no streak")
        else:
            parts.append(f"streak {state.streak.side} {state.streak.length}")
    if state.unknown:
        listed = ", ".join(str(n) for n in state.unknown)
        parts.append(f"deal{'s' if len(state.unknown) != 1 else ''} {listed} unknown")
    if not state.over:
        if rules.match_points:
            parts.append(f"{rules.match_points} deal wins take the match")
        if rules.kots:
            parts.append(f"{rules.kots} kot{' wins' if rules.kots == 1 else 's win'} the match")
        elif not rules.match_points:
            parts.append("an open session")
        if rules.streak and not rules.match_points:
            parts.append(f"{rules.streak} deal wins in a row make a kot")
    return parts


def match_text(state: MatchStanding, rules: Rules) -> str:
    """``kots AC 0 BD 1 · streak BD 2 · 1 kot wins the match · 7 deal wins in a row make a kot``."""
    return " · ".join(match_parts(state, rules))


# ---- errors where they happened ------------------------------------------------------------------

class Flag(NamedTuple):
    """An error placed where it happened in the play, for the stepper and ``replay --plain``."""

    error: DpnError
    deal: int                  # index into the deals
    played: int                # the snapshot (cards played) where it shows
    trick: Optional[int]       # the trick it belongs to (None: the deal or the match)
    card: Optional[int]        # the card at fault, by its place in the trick (None: the trick itself)
    at_end: bool = False       # a claim about the whole deal or match: shown with the deal's result


#: errors about a claim on the whole deal or match: shown where the deal's result is
_END_CODES = frozenset({"tens-mismatch", "result-mismatch", "incomplete-deal", "unsound-claim"})


def place_errors(deals: Sequence[DealFact], errors: Sequence[DpnError]) -> list[Flag]:
    """Each error at the card, trick or deal it concerns (by its position in the record).

    A card's error (revoke, not in hand, a card withdrawn wrongly) marks that card; a trick's
    (wrong leader, trick number or size) the trick's first card; a claim about the deal
    (tens, incomplete) or the match (Result) its end; anything else the start of its deal.
    """
    flags: list[Flag] = []
    if not deals:
        return flags
    lines = [d.deal.line for d in deals]
    ordered = all(a <= b for a, b in zip(lines, lines[1:]))
    by_number: dict[int, int] = {}
    for i, d in enumerate(deals):
        by_number.setdefault(d.number, i)
    for err in errors:
        index = by_number.get(err.deal) if err.deal is not None else None
        if index is None:
            at = bisect_right(lines, err.line) - 1 if ordered else \
                max((i for i, line in enumerate(lines) if line <= err.line), default=-1)
            if at < 0:
                # before the first deal: the tags (the Result claim is judged at the end)
                if err.code == "result-mismatch":
                    last = len(deals) - 1
                    flags.append(Flag(err, last, _cards(deals[last]), None, None, True))
                else:
                    flags.append(Flag(err, 0, 0, None, None))
                continue
            index = at
        flags.append(_place(err, index, deals[index]))
    flags.sort(key=lambda f: (f.deal, f.played, f.at_end))
    return flags


def _cards(deal: DealFact) -> int:
    return sum(len(t.plays) for t in deal.tricks)


def _place(err: DpnError, index: int, deal: DealFact) -> Flag:
    at = (err.line, err.column)
    played = 0
    for t in deal.tricks:
        trick = t.trick
        shown = len(t.plays)              # the cards the replay placed (a long trick: its first ones)
        for j, play in enumerate(trick.plays):
            if (play.line, play.column) == at or any((w.line, w.column) == at for w in play.withdrawn):
                return Flag(err, index, played + min(j + 1, shown), t.number, j if j < shown else None)
        leader = trick.leader
        if (trick.line, trick.column) == at or (leader is not None and (leader.line, leader.column) == at):
            return Flag(err, index, played + 1 if shown else played, t.number, None)
        played += shown
    end = _cards(deal)
    if err.code in _END_CODES:
        return Flag(err, index, end, None, None, True)
    tf = deal.trump
    if err.code == "trump-mismatch" and tf is not None and tf.trick is not None and tf.drawn is None:
        # a trump claim the play contradicts: shown at the card that really set (or revealed) trump
        start = 0
        for t in deal.tricks:
            if t.number == tf.trick:
                card = tf.play if tf.play is not None and tf.play < len(t.plays) else None
                return Flag(err, index, start + (card + 1 if card is not None else len(t.plays)), t.number, card)
            start += len(t.plays)
    if err.trick is not None:
        start = 0
        for t in deal.tricks:
            if t.number == err.trick:
                return Flag(err, index, start + 1 if t.plays else start, t.number, None)
            start += len(t.plays)
        return Flag(err, index, end, err.trick, None)          # a trick the replay could not reach
    return Flag(err, index, 0, None, None)


def flag_text(flag: Flag) -> str:
    """``revoke at 20:10: B must follow suit ...``"""
    err = flag.error
    return f"{err.code} at {err.line}:{err.column}: {printable(err.message)}"


# ---- moving through a game, card by card -------------------------------------------------------

class Stepper:
    """A position in a game's deals (deal index, cards played) and the moves of the stepper.

    Every move returns False when there is nowhere to go, and leaves the position as it was.
    Snapshots are computed per deal when first needed.
    """

    def __init__(self, deals: "list[DealFact] | tuple[DealFact, ...]", rules: Rules,
                 errors: Sequence[DpnError] = (), result: Optional[ResultFact] = None) -> None:
        if not deals:
            raise ValueError("a stepper needs at least one replayed deal")
        self.deals = tuple(deals)
        self.rules = rules
        self.result = result
        self.flags = place_errors(self.deals, errors)
        self.deal = 0
        self.played = 0
        self._snaps: dict[int, list[Snapshot]] = {}

    @classmethod
    def of(cls, facts: GameFacts) -> "Stepper":
        """A stepper over a replayed game, its errors placed where they happened."""
        if facts.rules is None:
            raise ValueError("a game without rules cannot be stepped through")
        return cls(facts.deals, facts.rules, facts.errors, facts.result)

    # -- what is shown ------------------------------------------------------------------------
    def snaps(self, deal: Optional[int] = None) -> list[Snapshot]:
        i = self.deal if deal is None else deal
        if i not in self._snaps:
            self._snaps[i] = snapshots(self.deals[i], self.rules)
        return self._snaps[i]

    @property
    def snap(self) -> Snapshot:
        return self.snaps()[self.played]

    def last(self, deal: Optional[int] = None) -> int:
        return len(self.snaps(deal)) - 1

    def ends(self, deal: Optional[int] = None) -> list[int]:
        """Cards played at the end of each trick: ``[0, 4, 8, …]`` (index = trick number)."""
        out = [0]
        for t in self.deals[self.deal if deal is None else deal].tricks:
            out.append(out[-1] + len(t.plays))
        return out

    def where(self) -> str:
        """``Deal 2 of 5 · trick 3 of 13 · card 2 of 4``."""
        d = self.deals[self.deal]
        parts = [f"Deal {d.number} of {self.deals[-1].number}" if len(self.deals) > 1 else f"Deal {d.number}"]
        snap = self.snap
        total = len(d.tricks)
        if total == 0:
            parts.append("no trick in the record")
        elif snap.trick is None:
            parts.append(f"before trick 1 of {total}")
        else:
            parts.append(f"trick {snap.trick.number} of {total}")
            parts.append(f"card {len(snap.shown)} of {len(snap.trick.plays)}")
        return " · ".join(parts)

    @property
    def deal_over(self) -> bool:
        """At the last card of a deal played to its end (its result is known)."""
        return self.played == self.last() and self.deals[self.deal].complete

    def at_end(self) -> bool:
        """At the last card the record gives for this deal."""
        return self.played == self.last()

    def match(self) -> MatchStanding:
        """The match as it stands here: before this deal, or after it once it is over."""
        upto = self.deal + 1 if self.at_end() else self.deal
        return match_state(self.deals, upto, self.rules, self.result)

    def trick_start(self) -> int:
        """Cards played before the trick shown now (0 before trick 1)."""
        ends = self.ends()
        before = [e for e in ends if e < self.played]
        return before[-1] if before else 0

    def flags_here(self) -> list[Flag]:
        """The errors of what is on the table: the shown trick up to this card (its deal's at the start,
        the claims about the deal at its end)."""
        start = self.trick_start() if self.played else -1
        return [f for f in self.flags if f.deal == self.deal and start < f.played <= self.played
                and (not f.at_end or self.at_end())]

    def next_error(self) -> bool:
        """To the next place with an error (False: none after here)."""
        for f in self.flags:
            if (f.deal, f.played) > (self.deal, self.played):
                return self._go(f.deal, f.played)
        return False

    def prev_error(self) -> bool:
        """To the previous place with an error (False: none before here)."""
        for f in reversed(self.flags):
            if (f.deal, f.played) < (self.deal, self.played):
                return self._go(f.deal, f.played)
        return False

    def first_error(self) -> bool:
        return bool(self.flags) and self._go(self.flags[0].deal, self.flags[0].played)

    # -- moves ----------------------------------------------------------------------------------
    def _go(self, deal: int, played: int) -> bool:
        if (deal, played) == (self.deal, self.played):
            return False
        self.deal, self.played = deal, played
        return True

    def next_card(self) -> bool:
        if self.played < self.last():
            return self._go(self.deal, self.played + 1)
        if self.deal + 1 < len(self.deals):
            return self._go(self.deal + 1, 0)
        return False

    def prev_card(self) -> bool:
        if self.played > 0:
            return self._go(self.deal, self.played - 1)
        if self.deal > 0:
            return self._go(self.deal - 1, self.last(self.deal - 1))
        return False

    def next_trick(self) -> bool:
        for end in self.ends():
            if end > self.played:
                return self._go(self.deal, end)
        if self.deal + 1 < len(self.deals):
            return self._go(self.deal + 1, 0)
        return False

    def prev_trick(self) -> bool:
        before = [end for end in self.ends() if end < self.played]
        if before:
            return self._go(self.deal, before[-1])
        if self.deal > 0:
            return self._go(self.deal - 1, self.ends(self.deal - 1)[-1])
        return False

    def next_deal(self) -> bool:
        return self.deal + 1 < len(self.deals) and self._go(self.deal + 1, 0)

    def prev_deal(self) -> bool:
        if self.played > 0:
            return self._go(self.deal, 0)
        return self.deal > 0 and self._go(self.deal - 1, 0)

    def start(self) -> bool:
        return self._go(self.deal, 0)

    def end(self) -> bool:
        return self._go(self.deal, self.last())

    def jump(self, trick: int) -> bool:
        """To the end of trick ``trick`` of this deal (False if the deal has no such trick)."""
        ends = self.ends()
        if not 1 <= trick < len(ends):
            return False
        self._go(self.deal, ends[trick])
        return True

    def goto(self, deal_number: Optional[int] = None, trick: Optional[int] = None) -> bool:
        """To deal ``deal_number`` (its place in the game, from 1), at the end of ``trick``."""
        if deal_number is not None:
            for i, d in enumerate(self.deals):
                if d.number == deal_number:
                    self.deal, self.played = i, 0
                    break
            else:
                return False
        if trick is not None:
            return self.jump(trick)
        return True
