"""A recording session: a game entered element by element, each checked before it is kept.

The recording is DPN text. Each line typed is a DPN fragment (``trump H``, a whole trick
``AH 10H 3H 7H`` with its leader implied, single cards, ``misdeal``, ``hands …``,
``tens …``, ``-7C 8H`` for a taken-back card, a ``{comment}``) or ``undo``. The fragment is
put in its place in the text of the deal in progress, that deal is parsed and replayed with
the library (from the match state the earlier deals left), and the line is refused, with the
errors ``validate`` would print, when the candidate shows any error. Nothing else is kept:
a kept element turns the candidate into the new canonical text.

DPN has whole tricks only. The cards of the trick in progress are held here and written in
a comment after the last line (``{unfinished trick 5, not yet in the record: 7D AD}``),
from which :meth:`Session.resume` puts them back. Each of them is checked by the per-card
core as it is typed (:func:`~dehlanote.replay.core.play_card` on the core's state at the
start of the trick, from :class:`~dehlanote.replay.table.Table`): no card is invented for
the seats still to play, and undo inside a trick is the core's state before the last card.

Nothing here touches a file or a terminal: :attr:`Session.text` is the file's text after
each element (always valid DPN, ``Result "*"`` while unfinished), and the caller writes it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional

from ..analysis.judge import claim_judge
from ..errors import DpnError
from ..output.notes import deal_result_text
from ..replay import GameFacts, explicit, replay_game
from ..replay.game import RULINGS, before_trump, read_date, ruled_revokes
from ..replay.core import DealState, play_card
from ..replay.engine import MatchState, replay_deal, start_match
from ..replay.table import Table
from ..replay.facts import DealFact, trick_numbered
from ..rules.profile import Registry, registry as default_registry
from ..syntax import Deal, Game, Tag, Trick, parse_string
from ..syntax.model import Revoke, make_revoke
from ..deck import seats_for, sides_for
from ..syntax.writer import ordered_tags, write_deal, write_play, write_tag
from .state import (COMMENT, INTERNAL, MARKER, NOTE, Checked, Expect, Outcome, RecordError, State, marker,
                    marker_notes, normalise, prefix_of, trick_words, without_marker)
from .undo import TagLine, Undoing
from .words import loosen, stray_word, unknown_word

__all__ = ["Session", "Outcome", "Expect", "RecordError", "INTERNAL"]

_WORD = re.compile(r"\s*(\S+)")
_SEAT_COLON = re.compile(r"^([A-F])\s*:")
_NUMBERED = re.compile(r"^\d+\.?(?:\s|$)")
#: a rank, a space, a suit that no seat is spelt as ("2 ♠", "10 h"): a card with a space in it
_SPACED_CARD = re.compile(r"^(10|[2-9])\s+([\u2660-\u2667]\ufe0f?|[SsHh])$")
_REVOKE = re.compile(r"revoke\s+([A-Fa-f])\s+(?:at\s+)?(\d+)\s+(stands|penalty)", re.IGNORECASE)
_TAG_NAME = re.compile(r"\[\s*([A-Za-z0-9_]+)")     # where a tag of a typed line starts, and its name
_COMMENTS_ONLY = re.compile(r"(?:\{[^}]*\}\s*)+")     # a line of comments, nothing else


class Session(Undoing):
    """One game being recorded. :meth:`feed` a line, read :attr:`text`, :meth:`expect`.

    ``prefix`` is the text of the games before this one in the same file, kept as it is.
    """

    def __init__(self, rules: str = "standard", tags: tuple[tuple[str, str], ...] = (), *,
                 reg: Optional[Registry] = None, prefix: str = "", path: str = "") -> None:
        self.reg = reg or default_registry()
        self.path = path
        self.prefix = prefix
        resolved = self.reg.resolve(rules)   # raises DpnError unknown-rules
        tag_nodes = tuple(Tag(k, v, 0, 0) for k, v in tags if k not in ("Rules", "Result"))
        tag_nodes += (Tag("Rules", resolved.label(), 0, 0),)
        self.state = State(tag_nodes, resolved, match=start_match(resolved))
        self._revoked: Optional[str] = None    # the last line refused for a revoke
        #: a resumed file's waiting cards (its comment on the trick under way) that no longer fit
        #: the record, and why: left out, to be said (they went without a word)
        self.left_out: Optional[tuple[int, str, str]] = None

    def left_out_note(self, name: str, again: str = "type them again") -> Optional[str]:
        """The sentence that says a resumed file's waiting cards were left out (None: none were);
        ``name``: the file as the reader knows it."""
        if self.left_out is None:
            return None
        number, cards, reason = self.left_out
        return (f"the cards of trick {number} waiting in {name}'s comment ({cards}) do not fit the record "
                f"({reason}): they are left out; {again}")

    def checkpoint(self) -> tuple[State, Optional[str], tuple[TagLine, ...]]:
        """The session as it is now, for :meth:`rollback` (its states are never changed in place)."""
        return self.state, self._revoked, self._tag_lines

    def rollback(self, mark: tuple[State, Optional[str], tuple[TagLine, ...]]) -> None:
        """Back to a :meth:`checkpoint`: every line fed since is forgotten (a line kept by the
        session that its caller could not keep, a record grown too long or not saved)."""
        self.state, self._revoked, self._tag_lines = mark

    # ---- loading ------------------------------------------------------------------------------

    @classmethod
    def resume(cls, text: str, *, reg: Optional[Registry] = None, path: str = "") -> tuple["Session", bool]:
        """A session over a file's text: its unfinished last game, or a new game after the others.

        Returns the session and whether it resumed an unfinished game.

        Raises:
            RecordError: the last game has errors (the file must be fixed first).
        """
        reg = reg or default_registry()
        games = parse_string(text, keep_source=True)
        if not games:
            return cls(reg=reg, prefix=prefix_of(text), path=path), False
        last, pending = without_marker(games[-1])
        facts = replay_game(last, reg, judge=claim_judge)
        if facts.errors and last.tag_node("Result") is None and all(
                e.code in ("incomplete-deal", "missing-trump") and e.deal == len(last.deals) for e in facts.errors):
            # a last deal short of its tricks, with no Result: an unfinished game, so marked
            marked = last._replace(tags=last.tags + (Tag("Result", "*", 0, 0),))
            again = replay_game(marked, reg, judge=claim_judge)
            if not again.errors:
                last, facts = marked, again
        if facts.errors:
            errors = tuple(e.with_context(path=path, source_line=last.line_text(e.line)) for e in facts.errors)
            raise RecordError(f"{path or 'the file'} has errors in its last game: fix them first "
                              "(dehlanote validate shows them)", errors)
        result = (last.tag("Result") or "").strip()
        over = result not in ("", "*") or (result == "" and facts.result is not None and facts.result.finished)
        if over:
            return cls(reg=reg, prefix=prefix_of(text), path=path), False
        start = last.source_line if last.source is not None else 1
        lines = text.split("\n")
        prefix = "\n".join(lines[: start - 1]).rstrip("\n")
        session = cls(reg=reg, prefix=prefix + "\n" if prefix else "", path=path)
        session.state = session._load(last, facts)
        if pending is not None:
            # checked as if typed again; left out (and said) when they no longer fit
            if session.state.cur is None or pending[0] != session._trick_number(session.state):
                where = (f"the trick under way is trick {session._trick_number(session.state)}"
                         if session.state.cur is not None else "no deal is under way")
                session.left_out = (pending[0], pending[1], f"{where}, not trick {pending[0]}")
            else:
                outcome = session.feed(pending[1])
                if not outcome.accepted:
                    why = (f"{outcome.errors[0].code}: {outcome.errors[0].message}" if outcome.errors
                           else outcome.reason)
                    session.left_out = (pending[0], pending[1], why)
        return session, True

    def _load(self, game: Game, facts: GameFacts) -> State:
        """The state of a valid game as read (complete deals and the one in progress)."""
        assert facts.rules is not None
        rules = facts.rules
        tags = tuple(t for t in game.tags if t.name != "Result")
        said = tuple(c for t in game.tags if t.name == "Result" for c in t.comments)
        if not any(t.name == "Rules" for t in tags):
            tags += (Tag("Rules", rules.label(), 0, 0),)
        canon = explicit(facts)
        deals = canon.deals
        match = start_match(rules)
        done: list[Deal] = []
        done_facts: list[DealFact] = []
        before: list[MatchState] = []
        cur: Optional[Deal] = None
        for deal, fact in zip(deals, facts.deals):
            if fact.complete:
                before.append(match)
                match, _, _ = replay_deal(match, deal, last=False, judge=claim_judge)
                done.append(deal)
                done_facts.append(fact)
            else:
                cur = deal
        result = None
        if match.finished:
            result = sides_for(rules.seats)[match.winner] if match.winner is not None else "="
        state = State(tags, rules, tuple(done), tuple(done_facts), tuple(before), match, None, None,
                       result=result, comments=game.comments, result_comments=said)
        state = replace(state, done_lines=self._deal_lines(state.done))
        if cur is not None:
            # renumber the lines: the canonical text may differ from what was read
            checked = self._check_deal(state, write_deal(cur), unfinished=True)
            if checked.errors:
                raise RecordError("the deal in progress cannot be recorded into", checked.errors)
            state = replace(state, cur=checked.deal, cur_fact=checked.fact, cur_errors=checked.soft)
        return state

    # ---- the text -----------------------------------------------------------------------------

    def _head_lines(self, state: State) -> list[str]:
        tags = ordered_tags(state.tags + (Tag("Result", state.result or "*", 0, 0, state.result_comments),))
        return ["{" + c.replace("}", ")") + "}" for c in state.comments] + [write_tag(t) for t in tags]

    @staticmethod
    def _deal_lines(deals: tuple[Deal, ...]) -> tuple[str, ...]:
        out: list[str] = []
        for deal in deals:
            out.append("")
            out.extend(write_deal(deal))
        return tuple(out)

    def _prefix_lines(self) -> int:
        return self.prefix.count("\n") + 1 if self.prefix else 0   # + the blank line between games

    def _cur_start(self, state: State) -> int:
        """The file line where the deal in progress starts."""
        # counted in text lines: a comment may span several
        return self._prefix_lines() + "\n".join(self._head_lines(state) + list(state.done_lines)).count("\n") + 3

    def game_text(self, state: Optional[State] = None) -> str:
        """The game as it stands on disk: valid DPN, the trick in progress left out."""
        state = state or self.state
        lines = self._head_lines(state) + list(state.done_lines)
        cur, waiting = self._writable(state)
        if cur:
            if waiting:
                # the cards of the trick under way (or of a trick the record cannot hold yet), in a
                # comment: valid DPN, and resumed from
                at = len(cur) - 1 - (len(state.cur.revokes) if state.cur is not None else 0)
                number = len(state.cur.tricks) if state.cur is not None and state.cur_errors else \
                    self._trick_number(state)
                cur[at] += "".join(" {" + text + "}" for text in [marker(number, waiting)]
                                   + marker_notes(number, waiting))
            lines += [""] + cur
        return "\n".join(lines) + "\n"

    @property
    def text(self) -> str:
        """The whole file: the earlier games as they were, then this game."""
        return (self.prefix + "\n" if self.prefix else "") + self.game_text()

    def _writable(self, state: State) -> tuple[list[str], tuple[str, ...]]:
        """The lines of the deal in progress that are valid DPN now (maybe none), and the cards
        to keep in the comment after them (the trick under way, or a trick held back)."""
        if state.cur is None:
            return [], ()
        if not state.cur_errors:
            return write_deal(state.cur), state.partial
        if before_trump(state.cur, state.rules) and all(e.code == "missing-trump" for e in state.cur_errors):
            # an unfinished record may stop before the trump line is due: the dealer, the
            # hands and the misdeals typed so far are on disk, and resumed
            return write_deal(state.cur), ()
        if state.cur.tricks:
            # the last trick needs a trump line still to come (first-void-five waiting for the
            # drawn card, a closed trump revealed in it): the deal up to the trick before, and
            # that trick's cards in the comment, so that they are on disk too
            shorter = state.cur._replace(tricks=state.cur.tricks[:-1])
            checked = self._check_deal(state, write_deal(shorter))
            if not checked.errors and not checked.soft:
                return write_deal(shorter), tuple(write_play(p) for p in state.cur.tricks[-1].plays)
        return [], ()

    # ---- checking -----------------------------------------------------------------------------

    def _check_deal(self, state: State, lines: list[str], *, unfinished: bool = False) -> "Checked":
        """Parse and replay the deal in progress written as ``lines``, from the match state.

        ``missing-trump`` is *soft* (the trump line may still come). ``unfinished``: a revoke
        line may wait for the card that shows its revoke (in the trick under way, when resumed).
        """
        start = self._cur_start(state)
        source = "\n" * (start - 1) + "\n".join(lines) + "\n"
        games = parse_string(source)
        if not games or games[0].errors or len(games[0].deals) != 1:
            errors: tuple[DpnError, ...] = games[0].errors if games else ()
            if not errors:
                errors = (DpnError("syntax", "one deal at a time: this line starts another deal or game",
                                   start, 1),)
            return Checked(None, None, self._located(errors, source), ())
        deal = games[0].deals[0]
        match = state.match or start_match(state.rules)
        after, fact, found = replay_deal(match, deal, last=True, unfinished_ok=True, judge=claim_judge)
        if deal.revokes:     # a revoke the table ruled on is a fact; its trick may still be under way
            found = ruled_revokes(deal, fact, found, [], pending_ok=True, unfinished=unfinished)
        hard = tuple(e for e in found if e.code != "missing-trump")
        soft = tuple(e for e in found if e.code == "missing-trump")
        return Checked(deal, fact, self._located(hard, source), self._located(soft, source), after)

    def _located(self, errors: tuple[DpnError, ...] | list[DpnError], source: str) -> tuple[DpnError, ...]:
        lines = source.split("\n")
        out = []
        for e in errors:
            text = lines[e.line - 1] if 0 < e.line <= len(lines) else None
            out.append(e.with_context(path=self.path or None, source_line=text))
        return tuple(out)

    # ---- feeding ------------------------------------------------------------------------------

    def feed(self, line: str) -> Outcome:
        """Take one typed line: keep it when the record stays valid, else refuse it and say why.

        Never raises: a line the recorder cannot handle is refused (``reason`` starts with
        ``INTERNAL``) and the session is left as it was, so a game at the table goes on.
        """
        state = self.state
        try:
            outcome = self._feed(line)
            revoke = next((e for e in outcome.errors if e.code == "revoke"), None)
            if not outcome.accepted and revoke is not None and not line.strip().lower().startswith("revoke"):
                self._revoked = line            # the line a revoke line may keep as played
                seat = re.match(r"([A-F]) ", revoke.message)
                outcome = replace(outcome, reason=(outcome.reason + " " if outcome.reason else "") + (
                    "If it was played so and the table ruled, type: revoke "
                    f"{seat.group(1) if seat else 'SEAT'} at {revoke.trick or 'TRICK'} stands (or penalty)"))
            elif outcome.accepted or line.strip():
                self._revoked = None
            return outcome
        except Exception as exc:   # noqa: BLE001 (the scorer's game must survive a recorder bug)
            self.state = state
            return Outcome(False, reason=f"{INTERNAL}: this line could not be handled ({type(exc).__name__}: "
                           f"{exc}); the record is unchanged")

    def _feed(self, line: str) -> Outcome:
        text = loosen(normalise(line))
        if any(MARKER.fullmatch(c.strip()) or NOTE.fullmatch(c.lstrip()) for c in COMMENT.findall(text)):
            # resumed, it would be taken for the trick under way (on a line of its own, or after
            # a card, a trump line ...: the last comment of the deal is where the marker goes)
            return Outcome(False, reason="that comment has the very form the recorder gives the trick under "
                           "way: word it otherwise")
        if not text:
            default = self.expect().default
            if default is None:
                return Outcome(False, reason="")
            text = default
        if len(text) == 1 and text.upper() in seats_for(self.state.rules.seats) and self.expect().kind == "dealer":
            text = f"dealer {text.upper()}"     # the answer to "who deals first?"
        word = text.split(None, 1)[0].lower()
        if word == "undo":
            return self._undo()
        if self.state.result is not None and word != "tens" and not text.startswith(("{", "[")):
            return Outcome(False, reason=f"the match is over ({self._result_words()}): nothing more to record")
        if text.startswith("["):
            return self._tags(text)
        if text.startswith("{"):
            return self._comment(text)
        if word in ("deal", "dealer"):
            return self._deal_head(text)
        if word == "misdeal":
            return self._misdeal(text)
        if word == "hands" or (_SEAT_COLON.match(text) and self._in_hands()):
            return self._hands(text)
        if word == "trump":
            return self._trump(text)
        if word == "tens":
            return self._tens(text)
        if word == "end":
            return self._end()
        if word == "claim":
            return self._claim(text)
        if word == "revoke":
            return self._revoke(text)
        stray = stray_word(text)
        if stray is not None:
            expect = self.expect()
            return Outcome(False, reason=unknown_word(stray, expect.kind, expect.seat, self.state.rules.seats))
        return self._plays(text)

    def _commit(self, state: State, notes: tuple[str, ...] = ()) -> Outcome:
        old = self.game_text()
        self.state = state
        return Outcome(True, notes=notes, saved=self.game_text() != old)

    # -- deals ----------------------------------------------------------------------------------

    def _next_number(self, state: State) -> int:
        return len(state.done) + 1

    def _open(self, state: State) -> tuple[State, Optional[Outcome]]:
        """The state with a deal in progress (a new one started when between deals)."""
        if state.cur is not None:
            return state, None
        match = state.match
        if match is not None and match.finished:
            return state, Outcome(False, reason=f"the match is over ({self._result_words()})")
        checked = self._check_deal(state, [f"deal {self._next_number(state)}"])
        if checked.errors:
            return state, Outcome(False, checked.errors)
        return replace(state, cur=checked.deal, cur_fact=checked.fact, cur_errors=checked.soft), None

    def _before_play(self, refusal: str, *, unless_trump_unset: bool = False
                     ) -> tuple[State, Deal, Optional[Outcome]]:
        """The open deal for a line written before its first card, or the refusal once cards are played.

        ``unless_trump_unset``: the line is still accepted after cards when the deal has no trump yet.
        """
        state, refused = self._open(self.state)
        cur = state.cur
        if refused or cur is None:
            return state, cur or Deal(0, 0), refused  # the deal is not used when refused
        if (cur.tricks or state.partial) and not (unless_trump_unset and cur.trump is None):
            return state, cur, Outcome(False, reason=refusal)
        return state, cur, None

    def _deal_head(self, text: str) -> Outcome:
        state = self.state
        if state.cur is not None and (state.cur.tricks or state.partial or state.cur.trump or state.cur.hands):
            return Outcome(False, reason=f"deal {state.cur_fact.number if state.cur_fact else '?'} is being "
                           "played: a new deal starts after its last trick (undo to go back)")
        if text.split(None, 1)[0].lower() == "dealer":
            text = f"deal {self._next_number(state)} {text}"
        elif re.fullmatch(r"(?i)deal", text.split("{", 1)[0].strip()):
            text = text.replace(text[:4], f"deal {self._next_number(state)}", 1)
        if state.match is not None and state.match.finished:
            return Outcome(False, reason=f"the match is over ({self._result_words()})")
        checked = self._check_deal(state, [text])
        if checked.errors:
            return Outcome(False, checked.errors)
        fact = checked.fact
        return self._commit(replace(state, cur=self._canon(checked), cur_fact=fact, cur_errors=checked.soft))

    def _canon(self, checked: "Checked") -> Deal:
        """The deal with what the replay established written in (dealer, leaders, tens)."""
        assert checked.deal is not None and checked.fact is not None
        facts = GameFacts(Game((), (checked.deal,), 0, 0), self.state.rules, (checked.fact,), None, ())
        return explicit(facts).deals[0]

    def _misdeal(self, text: str) -> Outcome:
        state, cur, refused = self._before_play("a misdeal voids a deal before its first card: undo the cards "
                                                "played first")
        if refused:
            return refused
        notes = ("the hands and trump of the voided deal are dropped",) if cur.hands or cur.trump else ()
        base = cur._replace(hands=None, trump=None)
        lines = write_deal(base) + [text]
        return self._try_deal(state, lines, notes)

    def _try_deal(self, state: State, lines: list[str], notes: tuple[str, ...] = ()) -> Outcome:
        checked = self._check_deal(state, lines)
        if checked.errors:
            return Outcome(False, checked.errors)
        new = replace(state, cur=self._canon(checked), cur_fact=checked.fact, cur_errors=checked.soft)
        return self._commit(new, notes)

    def _in_hands(self) -> bool:
        cur = self.state.cur
        return cur is not None and bool(cur.hands) and not cur.tricks and not self.state.partial

    def _hands(self, text: str) -> Outcome:
        state, cur, refused = self._before_play("the hands are written before the first card: undo the cards "
                                                "played to add them")
        if refused:
            return refused
        if text[:5].lower() == "hands":
            body = text[5:].strip()
        else:
            body = text
        lines = write_deal(cur._replace(trump=None))
        if cur.hands:
            lines.append("      " + body)
        else:
            lines.append("hands " + body)
        if cur.trump is not None:
            lines += write_deal(cur._replace(hands=None, misdeals=(), tricks=(), tens=None))[1:]
        return self._try_deal(state, lines)

    def _trump(self, text: str) -> Outcome:
        state, cur, refused = self._before_play("trump is already set and cards are played: undo back to the "
                                                "trump line to change it", unless_trump_unset=True)
        if refused:
            return refused
        head = write_deal(cur._replace(trump=None, tricks=(), tens=None))
        tricks = write_deal(cur._replace(trump=None, hands=None, misdeals=(), tens=None))[1:]
        outcome = self._try_deal(state, head + [text] + tricks)
        if outcome.accepted and self.state.partial:
            self._recheck_partial()
        return outcome

    def _tens(self, text: str) -> Outcome:
        state = self.state
        if state.cur is not None or state.partial:
            return Outcome(False, reason="the tens are counted after the deal's last trick")
        if not state.done:
            return Outcome(False, reason="no deal has been played yet")
        # check the claim against the last complete deal, replayed from the state before it
        last = state.done[-1]
        before = replace(state, done=state.done[:-1], done_facts=state.done_facts[:-1], before=state.before[:-1],
                         match=state.before[-1], done_lines=self._deal_lines(state.done[:-1]), result=None)
        lines = write_deal(last._replace(tens=None)) + [text]
        checked = self._check_deal(before, lines)
        if checked.errors:
            return Outcome(False, checked.errors)
        return self._finish_deal(before, checked)

    def _claim(self, text: str) -> Outcome:
        """``claim X`` after the last trick played: X's side takes every trick left."""
        state = self.state
        if state.cur is None or not state.cur.tricks and not state.cur.trump and not state.cur.hands:
            return Outcome(False, reason="a claim comes during a deal, after the last trick played")
        if state.partial:
            return Outcome(False, reason=f"trick {self._trick_number(state)} is under way: a claim comes "
                           "after the last trick played (finish the trick or undo its cards)")
        checked = self._check_deal(state, write_deal(state.cur) + [text])
        if checked.errors:
            return Outcome(False, checked.errors)
        if checked.fact is None or not checked.fact.complete:
            return Outcome(False, reason="claims are not replayed by this version yet: play the remaining "
                           "tricks out")
        return self._finish_deal(state, checked)

    def _revoke(self, text: str) -> Outcome:
        """``revoke C at 4 stands``: a revoke the table ruled on, and the card refused for it kept.

        Typed after a card was refused as a revoke (C played 2C on spades, and a spade now),
        the revoke line goes in the deal and that card is played as it was: both, or neither.
        """
        m = _REVOKE.fullmatch(text.split("{", 1)[0].strip())
        state = self.state
        number = self._trick_number(state)
        if m is None:
            return Outcome(False, reason=f"a revoke is written: revoke SEAT at TRICK stands (or penalty), e.g. "
                           f"revoke C at {max(1, number - 1)} stands")
        seat, trick, ruling = m.group(1).upper(), int(m.group(2)), m.group(3).lower()
        cur = state.cur
        if cur is None or not (cur.tricks or state.partial):
            return Outcome(False, reason="a revoke is recorded during a deal, once its cards are played")
        if not 0 < trick <= number:
            return Outcome(False, reason=f"trick {trick} is not played yet: a revoke names a trick played "
                           f"(1 to {number})")
        comment = text[text.index("{"):] if "{" in text else ""
        found = make_revoke(seat, trick, ruling, 0, 0, (comment[1:comment.index("}")],) if "}" in comment else ())
        revoked = cur._replace(revokes=cur.revokes + (found,))
        with_revoke = replace(state, cur=revoked)
        pending = self._revoked
        if pending is None:
            if state.partial:
                outcome = self._partial_try(replace(with_revoke, partial=()), state.partial, ())
            else:
                outcome = self._try_deal(with_revoke, write_deal(revoked))
            if not outcome.accepted:
                return outcome
            return Outcome(True, notes=(f"the revoke of {seat} in trick {trick} is in the record",), saved=True)
        self.state = with_revoke
        outcome = self._feed(pending)
        if not outcome.accepted:
            self.state = state
            return outcome
        return Outcome(True, notes=(f"the revoke of {seat} in trick {trick} is in the record ({RULINGS[ruling]}); "
                                    f"{pending.strip()} kept as played",) + outcome.notes, saved=True)

    def _end(self) -> Outcome:
        state = self.state
        if state.rules.kots != 0:
            return Outcome(False, reason="this match ends by itself (a kot): to stop recording, quit; the "
                           "record stays unfinished (Result *) and can be resumed")
        if state.cur is not None or state.partial or not state.done:
            return Outcome(False, reason="an open session ends between deals, after at least one deal")
        sides = sides_for(state.rules.seats)
        assert state.match is not None
        a, b = state.match.kots
        result = sides[0] if a > b else sides[1] if b > a else "="
        return self._commit(replace(state, result=result), (f"the session ends: {self._words(result)}",))

    # -- tags and comments ----------------------------------------------------------------------

    def _tag_line(self, state: State, names: list[str]) -> int:
        """The file line the last of the tags ``names`` (those of a typed line up to it) takes in
        the record (its place in the canonical order of the game's tags), where a refusal of the
        typed tag line is placed: as a card line's refusal is placed on the record line it would
        have become, not on "line 1" of the line typed."""
        typed = {n.lower() for n in names}
        tags = tuple(t for t in state.tags if t.name.lower() not in typed) + tuple(Tag(n, "", 0, 0) for n in names)
        head = self._head_lines(replace(state, tags=tags))
        name = names[-1].lower()
        ours = [i for i, t in enumerate(head) if t.lower().startswith(f"[{name} ")]
        at = ours[-1] if ours else len(head) - 1
        return self._prefix_lines() + 1 + sum(h.count("\n") + 1 for h in head[:at])

    def _tag_errors(self, state: State, errors: tuple[DpnError, ...] | list[DpnError],
                    text: str) -> tuple[DpnError, ...]:
        """Errors of a typed tag line (placed on its line 1), each on the record line of the tag
        it is in (the last ``[Name`` before its column; no name: after the others)."""
        out = []
        for e in errors:
            names = [m.group(1) for m in _TAG_NAME.finditer(text) if m.start() < max(e.column, 1)] or ["\uffff"]
            out.append(DpnError(e.code, e.message, self._tag_line(state, names), e.column, deal=e.deal,
                                trick=e.trick, source_line=text, path=self.path or None))
        return tuple(out)

    def _tags(self, text: str) -> Outcome:
        games = parse_string(text)
        if not games or games[0].errors or games[0].deals or not games[0].tags:
            errors = games[0].errors if games else ()
            return Outcome(False, self._tag_errors(self.state, errors, text),
                           reason="" if errors else "a tag is [Name \"value\"]")
        state = self.state
        tags = list(state.tags)
        for tag in games[0].tags:
            if tag.name == "Result":
                return Outcome(False, reason="the recorder writes the Result itself (end closes an open session)")
            if tag.name == "Rules":
                cur = state.cur
                if state.done or state.partial or (cur is not None and (cur.misdeals or cur.hands or cur.trump
                                                                        or cur.tricks)):
                    return Outcome(False, reason="the rules cannot change once a deal is under way")
                try:
                    rules = self.reg.resolve(tag.value)
                except DpnError as exc:
                    return Outcome(False, self._tag_errors(state, (DpnError("unknown-rules", exc.message, 1,
                                                                            tag.column),), text))
                state = replace(state, rules=rules, match=start_match(rules))
                if cur is not None:
                    # only the first dealer is given: set the deal up again under these rules
                    checked = self._check_deal(state, write_deal(cur))
                    if checked.errors:
                        return Outcome(False, checked.errors)
                    state = replace(state, cur=checked.deal, cur_fact=checked.fact, cur_errors=checked.soft)
                tag = tag._replace(value=rules.label())
            if tag.name == "Date":
                _, why = read_date(tag.value)
                if why:         # (the record would have an error validate reports, and never resume)
                    return Outcome(False, self._tag_errors(state, (DpnError(
                        "bad-tag", f'the Date "{tag.value[:40]}" {why}', 1, tag.column),), text))
            # a repeat is judged ignoring case: [foo "x"] replaces [Foo "y"] (kept both, the record
            # had a tag given twice, an error that stopped it from being resumed)
            tags = [t for t in tags if t.name.lower() != tag.name.lower()] + [tag._replace(line=0, column=0)]
        return self._keep_tags(replace(state, tags=tuple(tags)), games[0].tags)

    def _comment(self, text: str) -> Outcome:
        if "}" not in text:
            return Outcome(False, reason="a comment ends with }")
        if not _COMMENTS_ONLY.fullmatch(text):
            # what follows a comment on its line would be kept as part of the deal's text,
            # unchecked as an element of its own (a claim, a trick past the one under way)
            return Outcome(False, reason="a comment line holds only the comment: type what follows it on a "
                           "line of its own")
        state = self.state
        if state.partial:
            plays = state.partial[:-1] + (state.partial[-1] + " " + text,)
            return self._partial_try(replace(state, partial=()), plays, ())
        if state.cur is not None:
            lines = write_deal(state.cur)
            lines[-1] += " " + text
            return self._try_deal(state, lines)
        if state.done:
            last = state.done[-1]
            before = replace(state, done=state.done[:-1], done_facts=state.done_facts[:-1],
                             before=state.before[:-1], match=state.before[-1],
                             done_lines=self._deal_lines(state.done[:-1]), result=None)
            lines = write_deal(last)
            lines[-1] += " " + text
            checked = self._check_deal(before, lines)
            if checked.errors:
                return Outcome(False, checked.errors)
            return self._finish_deal(before, checked, keep_result=state.result)
        tags = list(state.tags)
        if not tags:
            return Outcome(False, reason="nothing to attach the comment to yet")
        # before the first deal: on the tag typed last (a tag typed again goes to the end), or
        # the last the game began with. (It was looked for among ordered_tags' copies, never
        # found, and the comment was answered as kept and dropped.)
        said = tuple(COMMENT.findall(text))
        tags[-1] = tags[-1]._replace(comments=tags[-1].comments + said)
        return self._commit(replace(state, tags=tuple(tags)))

    # -- cards ----------------------------------------------------------------------------------

    def _plays(self, text: str) -> Outcome:
        state, refused = self._open(self.state)
        if refused:
            return refused
        if state.cur_errors:
            return Outcome(False, state.cur_errors)
        if _SEAT_COLON.match(text) and not state.partial:
            text = f"{self._trick_number(state)} {text}"     # "B: 4S 5S 7S 9S": a trick with its leader
        numbered = bool(_NUMBERED.match(text))
        if numbered and state.partial:
            spaced = _SPACED_CARD.match(text.strip())
            hint = (f" (a card is written without a space: {spaced.group(1)}{spaced.group(2)})" if spaced else "")
            return Outcome(False, reason=f"trick {self._trick_number(state)} is under way: type its "
                           "remaining cards without a number" + hint)
        # a first parse to see how many cards the line holds
        plays, trick_head, probe = self._probe(state, text, numbered)
        if probe is not None:
            return probe
        n = state.rules.seats
        room = n - len(state.partial)
        if numbered or len(plays) <= room:
            return self._partial_try(state, state.partial + tuple(plays), (), trick_head if numbered else None)
        # more cards than the trick needs: fill it, then go on with the next tricks, all or nothing
        saved = self.state
        notes: list[str] = []
        self.state = state
        rest = list(plays)
        while rest:
            if self.state.cur is None:     # the deal is over and cards are left: the next deal
                following, refused = self._open(self.state)
                if refused is None and following.cur_errors:
                    refused = Outcome(False, following.cur_errors)
                if refused is not None:
                    self.state = saved
                    return refused
                self.state = following
            room = n - len(self.state.partial)
            chunk, rest = rest[:room], rest[room:]
            outcome = self._partial_try(self.state, self.state.partial + tuple(chunk), ())
            if not outcome.accepted:
                self.state = saved
                return outcome
            notes.extend(outcome.notes)
        changed = self.game_text() != self._game_text_of(saved)
        return Outcome(True, notes=tuple(notes), saved=changed)

    def _game_text_of(self, state: State) -> str:
        return self.game_text(state)

    def _probe(self, state: State, text: str, numbered: bool
               ) -> tuple[list[str], Optional[str], Optional[Outcome]]:
        """The plays a cards line holds (canonical text), and its written head when numbered."""
        assert state.cur is not None
        number = self._trick_number(state)
        line = text if numbered else f"{number:>2} {self._leader(state)}: " + " ".join(state.partial + (text,))
        base = write_deal(state.cur._replace(revokes=()))
        lines = base + [line] + write_deal(state.cur)[len(base):]
        start = self._cur_start(state)
        source = "\n" * (start - 1) + "\n".join(lines) + "\n"
        games = parse_string(source)
        if not games or games[0].errors or len(games[0].deals) != 1 or len(games[0].deals[0].tricks) <= len(
                state.cur.tricks):
            errors = games[0].errors if games else ()
            if not errors:
                return [], None, Outcome(False, reason="expected cards (or a DPN element: trump, hands, "
                                         "misdeal, tens, undo)")
            return [], None, Outcome(False, self._located(errors, source))
        tricks = games[0].deals[0].tricks[len(state.cur.tricks):]
        if len(tricks) > 1:
            return [], None, Outcome(False, reason="one trick at a time when the tricks are numbered")
        trick = tricks[0]
        plays = [write_play(p) for p in trick.plays]
        if not numbered:
            plays = plays[len(state.partial):]
        head = None
        if numbered:
            head = f"{trick.number:>2}" + (f" {trick.leader.value}:" if trick.leader is not None else "")
            if trick.comments:
                head += "".join(" {" + c + "}" for c in trick.comments)
        return plays, head, None

    def _partial_try(self, state: State, plays: tuple[str, ...], notes: tuple[str, ...],
                     head: Optional[str] = None) -> Outcome:
        """Check the trick in progress with ``plays``; keep it, or the whole trick when complete."""
        cur = state.cur
        assert cur is not None
        n = state.rules.seats
        number = self._trick_number(state)
        if head is None:
            head = f"{number:>2} {self._leader(state)}:"
        real = head + " " + " ".join(plays)
        base = write_deal(cur._replace(revokes=()))
        after = write_deal(cur)[len(base):]     # the revoke lines come after the tricks
        if len(plays) >= n:
            checked = self._check_deal(state, base + [real] + after)
            if checked.errors:
                return Outcome(False, checked.errors)
            return self._trick_done(state, checked)
        # the trick under way: each card checked by the core as it is typed, no card invented
        source = "\n" * (self._cur_start(state) - 1) + "\n".join(base + [real] + after) + "\n"
        games = parse_string(source)
        if not games or games[0].errors or len(games[0].deals) != 1:
            errors = games[0].errors if games else ()
            return Outcome(False, self._located(errors, source), reason="" if errors else "expected cards")
        deal = games[0].deals[0]
        written = deal.tricks[-1]
        at = self._trick_start(state)
        found: list[DpnError] = []
        states: list[DealState] = []
        for play in written.plays:
            before = len(at.errors)
            at, _events = play_card(at, play)
            found += at.errors[before:]
            states.append(at)
        places = self._revoke_places(state, deal, written)
        ruled = {where for _, where in places if where is not None}
        errors = tuple(e for e in found if e.code != "missing-trump" and not (
            e.code == "revoke" and (e.line, e.column) in ruled))
        revoked = {(e.line, e.column) for e in at.errors if e.code == "revoke"}
        errors += tuple(DpnError("revoke", f"the record says {r.seat} revoked in trick {r.trick}, but the replay "
                                 f"finds no revoke by {r.seat} there", r.line, r.column, deal=state.cur_fact.number
                                 if state.cur_fact is not None else None)
                        for r, where in places if where is not None and where not in revoked)
        if errors:
            return Outcome(False, self._located(errors, source))
        new = replace(state, partial=plays, partial_states=tuple(states))
        return self._commit(new, notes)

    def _trick_start(self, state: State) -> DealState:
        """The core's state at the start of the trick under way (the complete tricks replayed)."""
        fact = state.cur_fact
        assert fact is not None
        return Table.from_deal(fact, trick=fact.next_trick).state

    def _revoke_places(self, state: State, deal: Deal, written: Trick
                       ) -> list[tuple[Revoke, Optional[tuple[int, int]]]]:
        """Each revoke line of the deal and the place of the card it rules on (None: that seat
        has not played yet in the trick under way)."""
        fact = state.cur_fact
        assert fact is not None
        seats = seats_for(state.rules.seats)
        leader = seats.index(self._leader(state))
        order = [seats[(leader + k) % state.rules.seats] for k in range(state.rules.seats)]
        out: list[tuple[Revoke, Optional[tuple[int, int]]]] = []
        for r in deal.revokes:
            where: Optional[tuple[int, int]] = None
            if r.trick == fact.next_trick:
                if r.seat in order and order.index(r.seat) < len(written.plays):
                    play = written.plays[order.index(r.seat)]
                    where = (play.line, play.column)
            elif (t := trick_numbered(fact.tricks, r.trick)) is not None:
                where = (0, 0)     # a seat that did not play there: no revoke can be found
                if r.seat in t.order and t.order.index(r.seat) < len(t.trick.plays):
                    p = t.trick.plays[t.order.index(r.seat)]
                    where = (p.line, p.column)
            out.append((r, where))
        return out

    def _recheck_partial(self) -> None:
        state = self.state
        plays = state.partial
        outcome = self._partial_try(replace(state, partial=()), plays, ())
        if not outcome.accepted:
            self.state = replace(state, partial=(), partial_states=())

    def _trick_done(self, state: State, checked: "Checked") -> Outcome:
        assert checked.fact is not None
        fact = checked.fact
        trick = fact.tricks[-1] if fact.tricks else None
        notes: list[str] = []
        if trick is not None:
            notes.append(trick_words(trick, state.rules))
        if fact.complete:
            outcome = self._finish_deal(state, checked)
            return Outcome(outcome.accepted, outcome.errors, outcome.reason, tuple(notes) + outcome.notes,
                           outcome.saved)
        new = replace(state, cur=self._canon(checked), cur_fact=fact, cur_errors=checked.soft, partial=(),
                      partial_states=())
        if checked.soft:
            notes.append(checked.soft[0].message)
        return self._commit(new, tuple(notes))

    def _finish_deal(self, state: State, checked: "Checked", keep_result: Optional[str] = None) -> Outcome:
        """A deal complete: it joins the done deals; the whole game is re-read from its text."""
        assert checked.fact is not None and checked.after is not None
        deal = self._canon(checked)
        done = state.done + (deal,)
        match = checked.after
        result = keep_result
        if match.finished:
            result = sides_for(state.rules.seats)[match.winner] if match.winner is not None else "="
        interim = replace(state, done=done, done_facts=state.done_facts + (checked.fact,),
                          before=state.before + (state.match or start_match(state.rules),), match=match, cur=None,
                          cur_fact=None, cur_errors=(), partial=(), partial_states=(), result=result,
                          done_lines=self._deal_lines(done))
        # the canonical text of the whole game, checked as validate would check it
        text = self.game_text(interim)
        games = parse_string(text)
        facts = replay_game(games[0], self.reg, judge=claim_judge)
        if facts.errors:   # never expected: each part was checked; refuse rather than write a bad file
            return Outcome(False, self._located(facts.errors, text))
        new = self._load(games[0], facts)
        new = replace(new, result=result)
        notes = tuple(f"deal {checked.fact.number}: {line}" for line in
                      deal_result_text(facts.deals[-1], state.rules, facts))
        return self._commit(new, notes)
