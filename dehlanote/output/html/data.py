"""The replay page's data: one game's replay facts as plain, compact JSON-ready values.

Everything the page shows comes from the engine's facts (:mod:`dehlanote.replay.facts`)
through the same helpers as ``annotate`` (:func:`~dehlanote.output.notes.trick_notes`,
:func:`~dehlanote.output.notes.capture_text`, the deal result sentences). The page's
script only does bookkeeping on these facts (which cards are still held after N plays,
which tricks are complete); it never decides a winner, a capture or a trump.

Keys are short because a match page has a size budget; :data:`KEYS` says what each means.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional

from ...errors import DpnError
from ...i18n import speaking_words as _
from ...replay.table import core_walk
from ...replay.events import TrumpRevealed, TrumpSet
from ...replay.facts import DealFact, GameFacts, TrickFact
from ...replay.game import GameReplay
from ...replay.methods import capture_mode, method_of_fact
from ...rules.profile import Rules
from ...deck import SUIT_NAMES, seats_for, side_of
from ...syntax.model import Play
from ..notes import Streamed, capture_text, deal_heading, deal_result_text, trick_notes, trump_event, trump_text
from ..stepper import deal_start_state
from ...files import drain, spool as spool_file
from .page import script_json
from .whatif import whatif_deal, whatif_rules, whatif_tags, whatif_text

__all__ = ["game_data", "game_summary", "write_game_data", "KEYS", "trump_changes"]

#: what the short keys of the page data mean (documentation, and the page script's contract)
KEYS = {
    "game": "n: number in the file, title, tags [[name, value]], players {seat: name}, seats, sides, "
            "rules (the Rules tag as replayed), hand (cards per hand), centre (true: deferred centre "
            "capture), comments, errors [error], notes, result [sentences], deals [deal]",
    "deal": "n: number, dealer, misdeals, head (heading sentence), trump (sentence), hands {seat: cards "
            "known at the start}, recorded [seats whose hands were written], unknown {seat: cards never "
            "seen}, open (trump known to all from the start, or null), tk [[cards played, suit]] trump "
            "changes, ev [[cards played, sentence]] trump events, closed (seat that chose a secret trump), "
            "secret (that trump: shown only in that seat's view until revealed), tricks [trick], "
            "unplayed [[number, cards]] written tricks not replayed (not reached, or of the wrong size), sk "
            "[[place, cards]] the cards of tricks of the wrong size, counted as played before the trick at "
            "that place of tricks, result "
            "[sentences], complete, winner, kot, streak, next, tens {side: n}, score {side: kots} after "
            "the deal, points {side: n} after the deal (match points), claim [by, side, first trick not "
            "played, cards, tens, sentence] when a claim ended the deal, comments, ec: the comments of the "
            "claim, revoke and tens lines (told with the result), errors [error]",
    "trick": "n: number, l: leader, o: seats in playing order, p: [[card, glyph, comment, withdrawn]], "
             "w: winner, c: [centre cards, centre tens] after the trick, x: capture [by, side, cards, tens, "
             "reason] or null, r: the winner's run, t: trump in force, s: story [[kind, sentence]], "
             "d: {side: tens captured so far}, m: the trick's notes (its comments, and those written after "
             "its last card), e: [error]",
    "error": "[code, message, line, column, deal, trick]",
    "what-if": "game wr: the rules as the page's engine takes them, wt: the tags of a what-if record; deal wi: its "
               "start {dealer, hands, trump, hidden, setter, drawn} or why what-if is not offered, wh: the "
               "pieces of its what-if record (dehlanote/output/html/whatif.py)",
}

_RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine", "8": "eight",
          "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}


def card_name(card: str) -> str:
    """A card in words, as a screen reader should say it: ``10H`` -> ``ten of hearts``."""
    return f"{_RANKS.get(card[:-1], card[:-1])} of {SUIT_NAMES.get(card[-1], card[-1])}"


def _error(e: DpnError) -> list[Any]:
    return [e.code, e.message, e.line, e.column, e.deal, e.trick]


def _play(play: Play) -> list[Any]:
    """``[card, glyph, comment, withdrawn]``, trailing empties dropped."""
    if play.glyph is None and not play.comments and not play.withdrawn:
        return [play.card]          # nearly every card: the short path
    out: list[Any] = [play.card, play.glyph or "", " \u00b7 ".join(play.comments),   # several: apart
                      [w.card for w in play.withdrawn]]
    while len(out) > 1 and not out[-1]:
        out.pop()
    return out


def trump_changes(deal: DealFact) -> tuple[Optional[str], list[list[Any]], list[list[Any]]]:
    """The trump as the players know it: known from the start (or None), its changes as
    ``[cards played, suit]`` and its events as ``[cards played, sentence]``.

    Read from the per-card core: the deal's cards are played on its state and the suit in
    force after each card is the trump known then (announced trump from the start, a trump
    set by the first void or a closed trump revealed at that card, a drawn trump once the
    five opening tricks are played); the events are the trump set, revealed or drawn.
    """
    tf = deal.trump
    state = deal_start_state(deal)
    if state is None:
        return None, [], []
    known = state.trump
    changes: list[list[Any]] = []
    events: list[list[Any]] = []
    fact = state.trump_fact
    if known is not None and fact is not None and not state.phase and not (
            state.method.secret_by_void and fact.trick is None):
        # trump known from the start and nothing left to set it: the core changes the trump
        # only while it is not set (the first void, the five-card phase's draw, a closed trump's
        # reveal, hukum's void that is still to reveal it), so the cards need not be played
        return known, changes, events
    current = known
    played = 0
    for t, _k, state, happened, _counted in core_walk(deal, state):
        played += 1
        if any(isinstance(e, TrumpRevealed) or (isinstance(e, TrumpSet) and e.how != "secret")
               for e in happened):
            event = trump_event(t, tf)
            if event:
                events.append([played, event])
        if state.trump is not None and state.trump != current:
            current = state.trump
            changes.append([played, current])
    return known, changes, events


def _story(t: TrickFact, note: Any, rules: Rules) -> list[list[str]]:
    """The trick's line in the deal's story: [[kind, sentence]], kinds: win, trump, capture,
    sweep, cross (a ten that changed sides, the † case), centre."""
    out: list[list[str]] = [["win", _("{seat} wins").format(seat=t.winner)]]
    if note.trump_event:
        out.append(["trump", note.trump_event])
    if t.capture is not None:
        kind = "sweep" if t.capture.reason == "two-in-a-row" else "capture"
        out.append([kind, capture_text(t.capture)])
    if not capture_mode(rules).immediate and t.centre_cards:
        centre = _("centre {n}").format(n=t.centre_cards)
        if t.centre_tens:
            centre = _("centre {n} with {tens}").format(n=t.centre_cards, tens=" ".join(t.centre_tens))
        out.append(["centre", centre])
    for s in note.crossed:
        out.append(["cross", _("{card} was won by {seat} ({side}) in trick {n} but {by} swept it to {to}").format(
            card=s.card, seat=s.won_by, side=s.won_side, n=s.trick, by=s.taken_by, to=s.taken_side)])
    return out


def _trick(t: TrickFact, note: Any, rules: Rules, sides: tuple[str, str]) -> dict[str, Any]:
    cap = t.capture
    out: dict[str, Any] = {
        "n": t.number, "l": t.leader, "o": t.order, "p": [_play(p) for p in t.trick.plays],
        "w": t.winner, "c": [t.centre_cards, list(t.centre_tens)],
        "x": None if cap is None else [cap.by, cap.side, cap.cards, list(cap.tens), cap.reason],
        "r": t.run, "t": t.trump, "s": _story(t, note, rules),
        "d": {s: note.tens_after.get(s, 0) for s in sides},
    }
    # a comment written after the trick's last card is the trick's note (the JSON output keeps it on
    # that play, as the notation says; a reader takes it as said of the trick)
    last = t.trick.plays[-1] if t.trick.plays else None
    said = list(t.trick.comments) + (list(last.comments) if last is not None else [])
    if last is not None and last.comments:
        out["p"][-1] = _play(last._replace(comments=()))
    if said:
        out["m"] = said
    return out


def _deal(d: DealFact, rules: Rules, facts: Optional[GameFacts], score: dict[str, int],
          points: dict[str, int]) -> dict[str, Any]:
    """One deal's data (``facts``: the game's, for its last deal only)."""
    seats = rules.seat_letters
    sides = rules.sides
    played: dict[str, list[str]] = {s: [] for s in seats}
    for t in d.tricks:
        for seat, p in zip(t.order, t.trick.plays):
            played.setdefault(seat, []).append(p.card)
    recorded = [s for s in seats if d.dealt.get(s)]
    hands: dict[str, list[str]] = {}
    unknown: dict[str, int] = {}
    for s in seats:
        if s in recorded:
            hands[s] = list(d.dealt[s])
            unknown[s] = 0
        else:
            # not written: the cards the seat goes on to play, never a guess at the rest
            hands[s] = list(played.get(s, ()))
            unknown[s] = max(0, rules.hand_size - len(hands[s]))
    known, changes, events = trump_changes(d)
    notes = trick_notes(d, rules)
    tf = d.trump
    out: dict[str, Any] = {
        "n": d.number, "dealer": d.dealer, "misdeals": d.misdeals, "head": deal_heading(d),
        "trump": trump_text(tf), "hands": hands, "recorded": recorded, "unknown": unknown,
        "open": known, "tk": changes, "ev": events,
        "closed": tf.by if tf is not None and (tf.closed or method_of_fact(tf.method).secret) else None,
        "secret": tf.suit if tf is not None and (tf.closed or method_of_fact(tf.method).secret) else None,
        "tricks": [_trick(t, n, rules, sides) for t, n in zip(d.tricks, notes)],
        "unplayed": [[t.number, [p.card for p in t.plays]] for t in d.unreplayed],
        "result": deal_result_text(d, rules, facts),
        "complete": d.complete, "winner": d.winner,
        "kot": None if d.kot is None else [d.kot.side, d.kot.reason],
        "streak": None if d.streak is None else [d.streak.side, d.streak.length],
        "next": d.next_dealer, "tens": dict(d.tens), "score": dict(score),
    }
    claim = d.claim
    if claim is not None:
        said = (_("{seat} claims the rest: {side} takes {cards} cards with {tens}") if claim.tens
                else _("{seat} claims the rest: {side} takes {cards} cards, no ten")).format(
            seat=claim.by, side=claim.side, cards=claim.cards, tens=" ".join(claim.tens))
        if claim.sound is False:
            said = _("{claim} (the claim is not sound)").format(claim=said)
        out["claim"] = [claim.by, claim.side, claim.trick, claim.cards, list(claim.tens), said]
    if points:
        out["points"] = dict(points)
    counted = d.counted_before
    if counted:     # tricks of the wrong size: their cards were played, before the trick at that place
        out["sk"] = [[i, [p.card for w in ws for p in w.plays]] for i, ws in sorted(counted.items())]
    start = whatif_deal(d)
    out["wi"] = start
    if isinstance(start, dict):
        out["wh"] = whatif_text(d)
    # the comments of the lines before the play, in the record's order (the trump line's, the
    # hands' and the misdeals' were never shown); the tens line's would give the result away
    w = d.deal
    said_before = [*w.comments, *(c for m in w.misdeals or () for c in m.comments),
                   *(c for h in w.hands or () for c in h.comments), *(w.trump.comments if w.trump is not None else ())]
    if said_before:
        out["comments"] = said_before
    # ... and those of the lines after it (the claim's, the revokes', the tens line's), told with
    # the deal's result (they were on no page)
    said_after = [*(w.claim.comments if w.claim is not None else ()), *(c for r in w.revokes for c in r.comments),
                  *(w.tens.comments if w.tens is not None else ())]
    if said_after:
        out["ec"] = said_after
    return out


def _title(facts: GameFacts, number: int) -> str:
    return facts.game.tag("Event") or _("Game {n}").format(n=number)


def game_summary(facts: GameFacts, number: int, deals: Optional[int] = None) -> dict[str, Any]:
    """One line of a game chooser or an index: number, title, date, players, result, deals, errors
    (``deals``: how many, when ``facts`` does not hold them: a game replayed deal by deal)."""
    game = facts.game
    rules = facts.rules
    seats = seats_for(rules.seats if rules else 4)
    players = {s: game.tag(s) for s in seats if game.tag(s)}
    result = facts.result
    if result is None:
        outcome = _("not replayed")
    elif result.finished:
        outcome = _("{side} wins").format(side=result.winner) if result.winner else _("level")
    elif result.finished is None:
        outcome = _("result unknown")
    else:
        outcome = _("unfinished")
    return {"n": number, "title": _title(facts, number), "date": game.tag("Date") or "",
            "players": players, "rules": rules.label() if rules else (game.tag("Rules") or ""),
            "result": outcome, "deals": len(facts.deals) if deals is None else deals, "errors": len(facts.errors)}


def game_data(facts: GameFacts, number: int = 1) -> dict[str, Any]:
    """Everything the replay page needs of one replayed game (see :data:`KEYS`).
    (:func:`write_game_data` writes the same as JSON, deal by deal.)"""
    rules = facts.rules
    out = _head(facts, number, len(facts.deals))
    if rules is None:
        out.update(_tail(facts))
        return out
    deals = _Deals(rules)
    out["deals"] = [deals.add(d, facts if i == len(facts.deals) - 1 else None, facts.errors)
                    for i, d in enumerate(facts.deals)]
    out.update(_tail(facts))
    return out


def _head(facts: GameFacts, number: int, deals: int) -> dict[str, Any]:
    """The game's data before its deals."""
    game = facts.game
    summary = game_summary(facts, number, deals)
    return {
        "n": number, "title": summary["title"], "summary": summary,
        "tags": [[t.name, t.value] for t in game.tags], "players": summary["players"],
        "comments": list(game.comments), "tag_comments": [[t.name, c] for t in game.tags for c in t.comments],
        "errors": [_error(e) for e in facts.errors],
        "notes": list(facts.notes), "deals": [],
    }


def _tail(facts: GameFacts) -> dict[str, Any]:
    """The game's data after its deals: the table, the result."""
    game = facts.game
    rules = facts.rules
    if rules is None:
        return dict(seats="ABCD", sides=["AC", "BD"], rules=game.tag("Rules") or "", hand=13, centre=True,
                    result=["this game could not be replayed"])
    sides = rules.sides
    seats = rules.seat_letters
    out: dict[str, Any] = dict(seats=seats, sides=list(sides), rules=rules.label(), hand=rules.hand_size,
                               centre=not capture_mode(rules).immediate)
    result = facts.result
    lines = []
    if result is not None:
        kots = " · ".join(s + " " + (_("1 kot") if result.kots.get(s, 0) == 1 else _("{n} kots")).format(
            n=result.kots.get(s, 0)) for s in sides)
        if result.finished:
            lines.append(_("{side} wins the match ({kots})").format(side=result.winner, kots=kots) if result.winner
                         else _("level ({kots})").format(kots=kots))
        elif result.finished is None:
            lines.append(_("the match result is unknown: a deal's outcome is not known ({kots})").format(kots=kots))
        else:
            lines.append(_("the match is not finished ({kots})").format(kots=kots))
        if result.points:
            lines.append(_("deals won:") + " " + " · ".join(f"{s} {result.points.get(s, 0)}" for s in sides))
    out["result"] = lines
    # seats that are never named in a 6-seat game keep their letters; sides as written
    out["sideOf"] = {s: side_of(s, rules.seats) for s in seats}
    out["wr"] = whatif_rules(rules)
    out["wt"] = whatif_tags(facts)
    return out


class _Deals:
    """The deals' data one after the other: the match score so far, each deal's errors."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        sides = rules.sides
        self.score = {s: 0 for s in sides}
        self.points = {s: 0 for s in sides} if rules.match_points else {}

    def add(self, d: DealFact, facts: Optional[GameFacts], errors: Iterable[DpnError]) -> dict[str, Any]:
        """Deal ``d`` (``facts``: the game's, for its last deal); ``errors``: the game's,
        in file order, or at least all of this deal's."""
        if d.kot is not None:
            self.score[d.kot.side] = self.score.get(d.kot.side, 0) + 1
        if self.points and d.winner is not None:
            self.points[d.winner] = self.points.get(d.winner, 0) + 1
        deal = _deal(d, self.rules, facts, self.score, self.points)
        by_trick: dict[int, list[list[Any]]] = {}
        mine: list[list[Any]] = []
        for e in errors:
            if e.deal != d.number:
                continue
            if e.trick is not None:
                by_trick.setdefault(e.trick, []).append(_error(e))
            else:
                mine.append(_error(e))
        deal["errors"] = mine
        for t in deal["tricks"]:
            errs = by_trick.get(t["n"])
            if errs:
                t["e"] = errs
        for number_, _cards in deal["unplayed"]:
            deal["errors"].extend(by_trick.get(number_, []))
        return deal


def write_game_data(write: Callable[[str], object], replay: GameReplay, number: int = 1, *,
                    on_deal: Optional[Callable[[DealFact], object]] = None,
                    extend_deal: Optional[Callable[[DealFact, Rules, dict[str, Any]], object]] = None,
                    spool: int = 8 << 20) -> tuple[GameFacts, int]:
    """What ``script_json(game_data(replay_game(game), number))`` gives, written to ``write``
    deal by deal with one deal in memory (``replay``: :func:`~dehlanote.replay.iter_replay`
    of the game). The game's errors and summary come before its deals in the data, and are
    known only at its end: the deals wait in a spool file (in memory up to ``spool``
    characters). ``on_deal`` sees each deal's facts in turn (the archive statistics);
    ``extend_deal(facts, rules, data)`` may add to each deal's data (the analysis).
    Returns the game's facts (``deals`` empty) and its number of deals."""
    rules = replay.rules
    stream = Streamed(replay)
    if rules is None:
        for _ in stream:
            pass
        facts = stream.facts
        assert facts is not None
        write(script_json(game_data(facts, number)))
        return facts, 0
    deals = _Deals(rules)
    count = 0
    pending: list[DpnError] = []        # errors not yet placed: this deal's or a later one's
    seen = 0
    with spool_file(spool) as held:
        for d, final in stream:
            if on_deal is not None:
                on_deal(d)
            errors = replay.errors
            pending = [e for e in pending + errors[seen:] if e.deal is not None and e.deal >= d.number]
            seen = len(errors)
            mine = sorted(dict.fromkeys(e for e in pending if e.deal == d.number), key=lambda e: (e.line, e.column))
            data = deals.add(d, final, mine)
            if extend_deal is not None:
                extend_deal(d, rules, data)
            held.write(("," if count else "") + script_json(data))
            count += 1
        facts = stream.facts
        assert facts is not None
        head = script_json(_head(facts, number, count))
        assert head.endswith(',"deals":[]}')
        write(head[: -len("]}")])
        drain(held, write)
        write("]," + script_json(_tail(facts))[1:])
    return facts, count
