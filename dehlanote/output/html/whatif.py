"""What the replay page's "what if" needs: the deal's rules as a few flags, each deal's start.

The page plays on from any position with a JavaScript port of the per-card rules
(``templates/whatif.js``); it never reads a profile. Here the resolved rules become the
flags that port reads (:func:`whatif_rules`, from :mod:`dehlanote.replay.methods`), and each
deal with every hand known (written, or played out in a complete deal) gives its start:
dealer, hands, trump as the core starts it (:func:`whatif_deal`), or the sentence saying why
"what if" is not offered for it.
"""

from __future__ import annotations

from typing import Any, Optional, Union

from ...deck import seats_for
from ...i18n import N_
from ...replay.engine import MatchState
from ...replay.facts import DealFact, GameFacts, trick_numbered
from ...replay.methods import capture_mode, score_mode, trump_method
from ...replay.whatif import WHATIF_TAG
from ...rules.profile import Rules
from ...syntax.model import Tag
from ...syntax.writer import ordered_tags, write_deal, write_play, write_tag
from ..stepper import deal_start_state

__all__ = ["whatif_rules", "whatif_deal", "whatif_text", "whatif_tags"]


def whatif_rules(rules: Rules) -> dict[str, Any]:
    """The rules as the page's engine takes them (see the top of ``templates/whatif.js``)."""
    method = trump_method(rules)
    return {"n": rules.seats, "decks": rules.decks, "tricks": rules.tricks_per_deal,
            "imm": capture_mode(rules).immediate, "score": score_mode(rules).name, "level": rules.level,
            "void": method.by_void, "five": method.five_phase, "secret": method.secret,
            "svoid": method.secret_by_void, "kots": rules.kots, "mp": rules.match_points,
            "match": rules.all_tens == "match"}


def whatif_deal(deal: DealFact) -> Union[dict[str, Any], str]:
    """The start of ``deal`` for the page's engine: ``{dealer, trump, hidden, setter, drawn,
    tf}`` (seats as indices; the hands are the deal data's; drawn: the card drawn after five
    followed opening tricks; tf: the core's trump fact at the start as ``[suit, by, trick,
    drawn]``, which the record's trump line states; five: under first-void-five each seat's
    first five cards, null when not written; sk: for each side, whether its win of the deal
    would be a streak kot), or why a what-if cannot start from it
    (a sentence)."""
    rules = deal.rules
    state = deal_start_state(deal) if rules is not None else None
    if rules is None or state is None or deal.dealer is None:
        return N_("this deal cannot be set up again (its rules or dealer are unknown)")
    seats = seats_for(rules.seats)
    # the hands the stepper's table starts from: as written, or for a complete deal the cards
    # each seat played (the page's deal data hold the same cards)
    known = deal.hands
    if not all(known.get(s) for s in seats):
        return N_("what-if needs every hand, and the record does not write them all")
    method = trump_method(rules)
    tf = deal.trump
    if state.trump_unknown or (method.open and state.trump is None):
        return N_("what-if needs the trump suit, and the record does not give it")
    if method.secret and state.hidden is None:
        return N_("what-if needs the closed trump's suit, and the record does not give it")
    setter = None
    if method.secret and not method.secret_by_void and tf is not None and tf.by is not None:
        setter = seats.index(tf.by)
    start = state.trump_fact
    fact = None if start is None else [start.suit, start.by, start.trick, start.drawn]
    out: dict[str, Any] = {"dealer": seats.index(deal.dealer), "trump": state.trump,
                           "hidden": state.hidden if method.secret else None, "setter": setter,
                           "drawn": tf.drawn if tf is not None and tf.drawn else None, "tf": fact}
    out["sk"] = [_streak_kot(deal, side) for side in (0, 1)]
    if method.five_phase:
        # following suit in the five-card phase is judged on the first five cards, when written
        split = {h.seat: [c.card for c in h.cards[:h.split]] for h in deal.deal.hands or () if h.split is not None}
        out["five"] = [split.get(s) for s in seats]
    return out


def _streak_kot(deal: DealFact, side: int) -> bool:
    """Whether a win of ``side`` in ``deal`` would make a streak kot (the run the deal continues,
    as the match replay counts it)."""
    rules = deal.rules
    before = deal.before
    if rules is None or not rules.streak or not isinstance(before, MatchState):
        return False
    same = before.streak_side == side
    length = before.streak_len + 1 if same else 1
    exact = before.run_exact or (not same and before.streak_side is not None)
    return length == rules.streak and (exact or rules.kots == 1)


def _comments(comments: Any) -> str:
    """Comments as the writer puts them after an element (a ``}`` in one becomes ``)``)."""
    return "".join(" {" + c.replace("}", ")") + "}" for c in comments)


def _trump_key(suit: Optional[str], by: Optional[str], at: Optional[str], closed: bool,
               drawn: Optional[str]) -> str:
    """A trump line's facts as one string (the page's script builds the same key)."""
    return f"{suit or ''}|{by or ''}|{at or ''}|{'c' if closed else ''}|{drawn or ''}"


def whatif_text(deal: DealFact) -> dict[str, Any]:
    """What the page cannot tell from the deal's data when it writes the what-if record
    (docs/analysis.md, "What-if"), only where there is something: ``mis``, the misdeal lines;
    ``split``, each seat's cards before the ``|`` of its hand (null: no ``|``); ``tricks``,
    ``{index: [the head "NN X:" with the trick's comments, {card index: the play as
    written}]}`` for the tricks and plays that are more than their bare cards; ``tw``, the
    written trump line as ``[key, comments]`` (kept when the line states the same trump);
    ``rv``, the revoke rulings as ``[trick, card of the seat in it, line]``."""
    out: dict[str, Any] = {}
    written = deal.deal
    if written.misdeals or any(h.split is not None for h in written.hands or ()):
        # (the deal at its start as the stepper's table writes it: its misdeals and hands are
        # the written ones, each hand's | where it was written; nothing to say without them)
        model = deal.table().to_game().deals[0]
        if model.misdeals:
            out["mis"] = "\n".join(write_deal(model._replace(hands=None, trump=None, tricks=(), revokes=(),
                                                            claim=None, tens=None, comments=()))[1:])
        if model.hands and any(h.split is not None for h in model.hands):
            by_seat = {h.seat: h for h in model.hands}
            out["split"] = [[c.card for c in by_seat[s].cards[:by_seat[s].split]]
                            if s in by_seat and by_seat[s].split is not None else None
                            for s in seats_for(len(by_seat))]
    tricks: dict[str, Any] = {}
    for i, t in enumerate(deal.tricks):
        head = f"{t.number:>2} {t.leader}:" + _comments(t.trick.comments)
        plays = {str(k): write_play(p) for k, p in enumerate(t.trick.plays) if write_play(p) != p.card}
        if t.trick.comments or plays:
            tricks[str(i)] = [head if t.trick.comments else None, plays]
    if tricks:
        out["tricks"] = tricks
    line = deal.deal.trump
    if line is not None and line.comments:
        out["tw"] = [_trump_key(str(line.suit.value) if line.suit else None, str(line.by.value) if line.by else None,
                                str(line.at.value) if line.at else None, line.closed,
                                line.drawn.card if line.drawn else None),
                     _comments(line.comments)]
    revokes = []
    for r in deal.deal.revokes:
        ruled = trick_numbered(deal.tricks, r.trick)
        order = ruled.order if ruled is not None else ""
        at = order.index(r.seat) + 1 if r.seat in order else 99
        revokes.append([r.trick, at, f"revoke {r.seat} at {r.trick} {r.ruling}" + _comments(r.comments)])
    if revokes:
        out["rv"] = revokes
    return out


def whatif_tags(facts: GameFacts) -> str:
    """The tag lines of a what-if record of a deal of ``facts``: the game's tags but ``Result``
    and ``WhatIf``, with ``[Result "*"]`` in its place (the page puts the line's result there)
    and the ``WhatIf`` tag to follow."""
    tags = tuple(t for t in facts.game.tags if t.name not in ("Result", WHATIF_TAG)) + (Tag("Result", "*", 0, 0),)
    return "\n".join(write_tag(t) for t in ordered_tags(tags))
