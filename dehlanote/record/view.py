"""Where a recording stands, in words and as a table: what the prompt and the screen show."""

from __future__ import annotations

from collections import Counter
from typing import Optional

from ..deck import DECK, SUIT_NAMES, seats_for, sides_for
from ..output.stepper import Snapshot, snapshots
from ..replay.engine import play_tricks, start_deal
from ..rules.profile import Rules
from .state import Expect, Outcome, State, card_of

__all__ = ["SessionView"]

_SHIFT = {card: 2 * i for i, card in enumerate(DECK)}


class SessionView:
    """The questions a :class:`~dehlanote.record.Session` answers without changing anything."""

    state: State

    def _open(self, state: State) -> tuple[State, Optional[Outcome]]:
        raise NotImplementedError

    def _trick_number(self, state: State) -> int:
        return (len(state.cur.tricks) if state.cur is not None else 0) + 1

    def _leader(self, state: State) -> str:
        fact = state.cur_fact
        assert fact is not None and fact.dealer is not None
        if fact.tricks:
            return fact.tricks[-1].winner
        seats = seats_for(state.rules.seats)
        return seats[(seats.index(fact.dealer) + 1) % state.rules.seats]

    def _result_words(self) -> str:
        return self._words(self.state.result)

    @staticmethod
    def _words(result: Optional[str]) -> str:
        if result is None:
            return "unfinished"
        return "level" if result == "=" else f"{result} wins"

    # ---- where the game stands ----------------------------------------------------------------

    def expect(self) -> Expect:
        """What comes next, in words: who deals, who names trump, whose card it is."""
        state = self.state
        rules = state.rules
        seats = seats_for(rules.seats)
        if state.result is not None:
            return Expect("over", None, f"the match is over: {self._result_words()}")
        match = state.match
        if state.cur is None:
            if match is None or (not state.done and match.dealer is None):
                return Expect("dealer", None, "deal 1: who deals first? (A, B, C or D)"
                              if rules.seats == 4 else "deal 1: who deals first? (A … F)")
            dealer = seats[match.dealer] if match.dealer is not None else "?"
            opened, _ = self._open(state)     # does the next deal need a trump line before its first card?
            needs = opened.cur is None or bool(opened.cur_errors)
            return Expect(*self._trump_or_lead(state, len(state.done) + 1, dealer, needs))
        fact = state.cur_fact
        assert fact is not None
        number = fact.number
        if state.cur_errors:
            message = state.cur_errors[0].message
            if "drawn" in message:
                return Expect("drawn", None, f"deal {number}: five tricks followed: trump drawn CARD")
            return Expect(*self._trump_or_lead(state, number, fact.dealer or "?", True))
        trick = len(fact.tricks) + 1
        leader = self._leader(state)
        k = len(state.partial)
        seat = seats[(seats.index(leader) + k) % rules.seats]
        if k == 0:
            text = f"deal {number}, trick {trick}: {seat} leads"
        else:
            led = card_of(state.partial[0])[-1]
            text = f"deal {number}, trick {trick}: {seat} plays ({SUIT_NAMES[led]} led)"
        default = self._only_card(state, seat)
        if default is not None:
            text += f" [Enter: {default}]"
        return Expect("card", seat, text, default)

    def _trump_or_lead(self, state: State, number: int, dealer: str, needs_trump: bool
                       ) -> tuple[str, Optional[str], str]:
        """The prompt at a deal's start: who names trump (when the replay wants the line) or leads."""
        rules = state.rules
        seats = seats_for(rules.seats)
        if dealer not in seats:
            return ("trump", None, f"deal {number}: trump S, H, D or C")
        d = seats.index(dealer)
        if needs_trump:
            who = seats[(d + (2 if rules.trump == "partner" else 1)) % rules.seats]
            closed = " closed" if rules.trump == "closed" else ""
            return ("trump", who, f"deal {number}, dealer {dealer}: {who} names trump (trump H{closed})")
        lead = seats[(d + 1) % rules.seats]
        return ("card", lead, f"deal {number}, dealer {dealer}: {lead} leads trick 1")

    def _only_card(self, state: State, seat: str) -> Optional[str]:
        """The one legal card of ``seat`` when its hand is known and it has just one."""
        cur = state.cur
        if cur is None or not cur.hands or state.match is None:
            return None
        ds, _ = start_deal(state.match, cur)
        if ds is None:
            return None
        ds = play_tricks(ds, cur.tricks)
        seats = seats_for(state.rules.seats)
        s = seats.index(seat)
        if not ds.explicit[s]:
            return None
        holding = ds.hands[s]
        first_five = ds.five[s] if ds.phase and ds.five is not None else None
        if first_five is not None:
            holding = first_five
        held = [c for c in DECK if (holding >> _SHIFT[c]) & 3]
        for p in state.partial:
            card = card_of(p)
            if card in held:
                held.remove(card)
        if state.partial:
            led = card_of(state.partial[0])[-1]
            follow = [c for c in held if c[-1] == led]
            held = follow or held
        return held[0] if len(set(held)) == 1 else None

    def position(self) -> dict[str, object]:
        """Where the game stands, as plain data (deal, trick, cards of the trick in progress)."""
        state = self.state
        fact = state.cur_fact
        return {
            "deal": fact.number if fact is not None else len(state.done) + (0 if state.cur is None else 1),
            "deals_done": len(state.done),
            "tricks": len(state.cur.tricks) if state.cur is not None else 0,
            "partial": [card_of(p) for p in state.partial],
            "result": state.result,
        }

    def score_words(self) -> str:
        """Deals won, the streak and the kots so far, in one line."""
        state = self.state
        sides = sides_for(state.rules.seats)
        won = Counter(f.winner for f in state.done_facts if f.winner is not None)
        parts = ["deals won " + " ".join(f"{s} {won.get(s, 0)}" for s in sides)]
        streak = state.done_facts[-1].streak if state.done_facts else None
        parts.append(f"streak {streak.side} {streak.length}" if streak is not None else "no streak")
        if state.match is not None:
            parts.append("kots " + " ".join(f"{s} {k}" for s, k in zip(sides, state.match.kots)))
        return " · ".join(parts)

    def snapshot(self) -> Optional[Snapshot]:
        """The table now, for the stepper's renderer (None before the first deal is played)."""
        state = self.state
        n = state.rules.seats
        fact = state.partial_fact if state.partial else state.cur_fact
        if fact is None:
            if not state.done_facts:
                return None
            fact = state.done_facts[-1]
        snaps = snapshots(fact, state.rules)
        total = sum(len(t.plays) for t in fact.tricks)
        played = total - (n - len(state.partial)) if state.partial else total
        snap = snaps[min(played, len(snaps) - 1)]
        if state.partial:
            # the padding is nobody's hand: a seat whose hand is not written shows none
            seats = seats_for(n)[:n]
            count = Counter(p.seat for t in fact.tricks[:-1] for p in t.plays)
            count.update(p.seat for p in snap.shown)
            hands = {s: snap.hands.get(s, ()) if s in fact.dealt else () for s in seats}
            unknown = {s: 0 if s in fact.dealt else state.rules.hand_size - count.get(s, 0) for s in seats}
            snap = snap._replace(hands=hands, unknown=unknown)
        return snap

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def names(self) -> dict[str, str]:
        seats = seats_for(self.state.rules.seats)
        return {t.name: t.value for t in self.state.tags if t.name in seats}

    @property
    def finished(self) -> bool:
        return self.state.result is not None
