"""Undo in a recording: the last card, or the last line kept (a trick's cards one by one, the
tens, trump, hands, misdeal and deal lines, a claim, a revoke line with its card, a tag line).

A tag line is taken back when it is the last thing kept: undo walks back through what was
typed, so ``[Event "Friday"]`` then ``undo`` takes the tag back (its earlier value, or none),
and a tag typed before cards is taken back once the cards after it are. A tag the record began
with (a file resumed, ``--names``) is changed by typing it again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

from ..deck import seats_for
from ..syntax import Deal, Tag
from ..syntax.writer import write_deal, write_play, write_tag
from .state import Checked, Outcome, State, card_of
from .view import SessionView

__all__ = ["Undoing", "TagLine"]

#: a tag line kept: the session before it, the game's text just after it, the tags it held
TagLine = tuple[State, str, tuple[Tag, ...]]


class Undoing(SessionView):
    """What ``undo`` does, for :class:`~dehlanote.record.session.Session`."""

    _tag_lines: tuple[TagLine, ...] = ()

    # (the session's own, below)
    def _commit(self, state: State, notes: tuple[str, ...] = ()) -> Outcome:
        raise NotImplementedError

    def game_text(self, state: Optional[State] = None) -> str:
        raise NotImplementedError

    def _check_deal(self, state: State, lines: list[str], *, unfinished: bool = False) -> Checked:
        raise NotImplementedError

    def _canon(self, checked: Checked) -> Deal:
        raise NotImplementedError

    def _try_deal(self, state: State, lines: list[str], notes: tuple[str, ...] = ()) -> Outcome:
        raise NotImplementedError

    def _partial_try(self, state: State, plays: tuple[str, ...], notes: tuple[str, ...],
                     head: Optional[str] = None) -> Outcome:
        raise NotImplementedError

    @staticmethod
    def _deal_lines(deals: tuple[Deal, ...]) -> tuple[str, ...]:
        raise NotImplementedError

    # -- a tag line ------------------------------------------------------------------------------

    def _keep_tags(self, state: State, typed: tuple[Tag, ...]) -> Outcome:
        """Keep the tags of a line (``state``), remembered so that ``undo`` can take them back."""
        before = self.state
        outcome = self._commit(state)
        self._tag_lines = self._tag_lines + ((before, self.game_text(), typed),)
        return outcome

    def _undo_tags(self) -> Outcome:
        """Take back the tag line kept last: the session as it was before it (a Rules tag's
        rules with it)."""
        before, _, typed = self._tag_lines[-1]
        self._tag_lines = self._tag_lines[:-1]
        was = {t.name: t for t in before.tags}
        words = []
        for tag in typed:
            old = was.get(tag.name)
            if old is None:
                words.append(f"took back {write_tag(tag)}")
            elif old.value != tag.value:
                words.append(f"took back {write_tag(tag)}: {write_tag(old)} again")
            else:
                words.append(f"took back {write_tag(tag)} (typed again: it stays)")
        return self._commit(before, tuple(words))

    # -- cards and lines ------------------------------------------------------------------------

    def _undo(self) -> Outcome:
        """Take back the last card (or the last line: tens, trump, hands, misdeal, the deal, a tag).

        A card kept by a revoke line goes with that line (the revoke it showed is gone)."""
        if self._tag_lines and self._tag_lines[-1][1] == self.game_text():
            return self._undo_tags()
        state = self.state
        if state.partial and state.cur is not None and state.cur.revokes:
            # the card a revoke line of this trick rules on goes with that line
            seats = seats_for(state.rules.seats)
            seat = seats[(seats.index(self._leader(state)) + len(state.partial) - 1) % state.rules.seats]
            number = self._trick_number(state)
            kept = tuple(r for r in state.cur.revokes if not (r.trick == number and r.seat == seat))
            if len(kept) < len(state.cur.revokes):
                self.state = replace(state, cur=state.cur._replace(revokes=kept))
                outcome = self._undo_once()
                if not outcome.accepted:
                    self.state = state
                    return outcome
                return replace(outcome, notes=outcome.notes + ("and the revoke line with it",), saved=True)
        outcome = self._undo_once()
        cur = state.cur if state.cur is not None else (state.done[-1] if state.done else None)
        if outcome.accepted or cur is None or not cur.revokes:
            return outcome
        if state.cur is not None:
            self.state = replace(state, cur=cur._replace(revokes=cur.revokes[:-1]))
        else:
            last = cur._replace(revokes=cur.revokes[:-1])
            self.state = replace(state, done=state.done[:-1] + (last,), done_lines=self._deal_lines(
                state.done[:-1] + (last,)))
        again = self._undo_once()
        if not again.accepted:
            self.state = state
            return outcome
        return replace(again, notes=again.notes + ("and the revoke line with it",), saved=True)

    def _undo_once(self) -> Outcome:
        state = self.state
        lost = ""
        if state.result is not None and state.rules.kots == 0 and state.cur is None and not state.partial:
            # an open-ended session ended by its end line: that line goes, the deals stay (it took
            # back the last deal's last card with it)
            return self._commit(replace(state, result=None), ("took back the end of the session",))
        if state.partial:
            plays = state.partial[:-1]
            new = replace(state, partial=plays, partial_states=state.partial_states[:-1])
            assert state.cur is not None
            if plays and not state.cur.revokes and len(state.partial_states) == len(state.partial):
                # undo is the core's state before the last card: nothing to check again
                return self._commit(new, (f"took back {card_of(state.partial[-1])}",))
            if plays:
                self.state = replace(state, partial=())
                outcome = self._partial_try(self.state, plays, ())
                if not outcome.accepted:
                    self.state = state
                    return outcome
                # the file follows: the card taken back leaves the comment of the trick under way
                return Outcome(True, notes=(f"took back {card_of(state.partial[-1])}",),
                               saved=self.game_text() != self.game_text(state))
            return self._commit(new, (f"took back {card_of(state.partial[-1])}",))
        if state.cur is None:
            if not state.done and self._tag_lines:
                # (the tags typed are held by the comment typed after them, which undo never takes back)
                return Outcome(False, reason="nothing to undo: a comment is not taken back, nor the tags before "
                                             "it (a tag is changed by typing it again, e.g. [A \"Asha\"])")
            if not state.done:
                return Outcome(False, reason="nothing to undo: no card, deal line or tag typed yet (a tag the "
                                             "record began with is changed by typing it again, e.g. [A \"Asha\"])")
            # reopen the last complete deal
            last = state.done[-1]
            before = replace(state, done=state.done[:-1], done_facts=state.done_facts[:-1], before=state.before[:-1],
                             match=state.before[-1], done_lines=self._deal_lines(state.done[:-1]), result=None)
            if last.claim is not None:
                # the claim was the deal's last line: it goes, and the tricks played before it stay
                return self._try_deal(before, write_deal(last._replace(claim=None, tens=None)),
                                      ("took back the claim",))
            checked = self._check_deal(before, write_deal(last._replace(tens=None)))
            state = replace(before, cur=self._canon(checked), cur_fact=checked.fact, cur_errors=checked.soft)
            if last.tens is not None and last.tens.comments:    # (written again, without it, when done)
                lost = ", and the tens line with its comment"
        cur = state.cur
        assert cur is not None
        if cur.tricks:
            trick = cur.tricks[-1]
            plays = tuple(write_play(p) for p in trick.plays)
            shorter = cur._replace(tricks=cur.tricks[:-1], tens=None)
            checked = self._check_deal(state, write_deal(shorter))
            base = replace(state, cur=self._canon(checked), cur_fact=checked.fact, cur_errors=checked.soft,
                           partial=())
            outcome = self._partial_try(base, plays[:-1], ())
            if not outcome.accepted:   # never expected
                return outcome
            return Outcome(True, notes=(f"took back {card_of(plays[-1])}{lost}",), saved=True)
        taken: Optional[tuple[Deal, str]] = None
        if cur.trump is not None:
            taken = cur._replace(trump=None), "the trump line"
        elif cur.hands:
            # one seat's hand a line: the last one typed goes, the others stay
            taken = cur._replace(hands=cur.hands[:-1] or None), f"{cur.hands[-1].seat}'s hand"
        elif cur.misdeals:
            taken = cur._replace(misdeals=cur.misdeals[:-1]), "the misdeal line"
        if taken is not None:
            return self._try_deal(state, write_deal(taken[0]), (f"took back {taken[1]}",))
        # only the deal line is left: the deal goes
        return self._commit(replace(state, cur=None, cur_fact=None, cur_errors=()), ("took back the deal line",))

