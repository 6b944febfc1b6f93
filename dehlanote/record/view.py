"""Where a recording stands, in words and as a table: what the prompt and the screen show."""

from __future__ import annotations

from collections import Counter
from typing import Optional

from ..deck import SUIT_NAMES, seats_for, sides_for
from ..output.stepper import Snapshot, snapshots
from ..replay.table import Table
from ..rules.profile import Rules
from .state import Expect, Outcome, State, card_of

__all__ = ["SessionView"]


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
            t = fact.trump
            if t is not None and t.by is not None and t.suit is None and t.trick is not None:
                # a trump chosen in secret and revealed by play (hukum's closed trump): its setter
                # says the suit (the prompt said the dealer's right "names trump", before play)
                return Expect("trump", t.by, f"deal {number}, trick {t.trick}: {t.by} reveals the trump chosen "
                              "in secret (trump H)")
            return Expect(*self._trump_or_lead(state, number, fact.dealer or "?", True))
        trick = fact.next_trick
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
        """The one legal card of ``seat`` when its hand is known and it has just one (the core says)."""
        cur = state.cur
        if cur is None or not cur.hands or state.cur_fact is None:
            return None
        table = self.table(state)
        if table is None or table.to_play != seat or table.hand(seat) is None:
            return None
        legal = set(table.legal_cards())
        return str(legal.pop()) if len(legal) == 1 else None

    def table(self, state: Optional[State] = None) -> Optional[Table]:
        """The core's table now: the deal in progress, the cards of the trick under way played."""
        state = state or self.state
        if state.partial and state.partial_state is not None:
            return Table(state.partial_state)
        fact = state.cur_fact
        if state.cur is None or fact is None or state.cur_errors:
            return None
        try:
            return Table.from_deal(fact, trick=fact.next_trick)
        except ValueError:
            return None

    def trick_under_way(self) -> Optional[tuple[int, tuple[tuple[str, str], ...]]]:
        """The number of the trick under way and its cards so far (seat, card), when one is."""
        state = self.state
        if not state.partial:
            return None
        seats = seats_for(state.rules.seats)
        leader = seats.index(self._leader(state))
        return self._trick_number(state), tuple((seats[(leader + k) % state.rules.seats], card_of(p))
                                                 for k, p in enumerate(state.partial))

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
        """The table now, for the stepper's renderer (None before the first deal is played):
        the replay's snapshot after the complete tricks, with the trick under way from the core."""
        state = self.state
        fact = state.cur_fact
        if fact is None:
            if not state.done_facts:
                return None
            fact = state.done_facts[-1]
        snap = snapshots(fact, state.rules)[-1]
        if not state.partial or state.partial_state is None:
            return snap
        table = Table(state.partial_state)
        n = state.rules.seats
        seats = seats_for(n)[:n]
        count = Counter(p.seat for t in fact.tricks for p in t.plays)
        count.update(seat for seat, _ in table.current)
        hands = {s: tuple(str(c) for c in table.hand(s) or ()) for s in seats}
        unknown = {s: 0 if table.hand(s) is not None else state.rules.hand_size - count.get(s, 0) for s in seats}
        run_seat, run = table.run
        return snap._replace(trick=None, shown=(), complete=False, hands=hands, unknown=unknown,
                             centre_cards=len(table.centre), centre_tens=tuple(table.centre_tens),
                             piles=dict(table.piles), pile_tens={k: tuple(v) for k, v in table.tens.items()},
                             run=(run_seat, run) if run_seat is not None else None, capture=None, event=None)

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
