"""What a table's page shows, as plain JSON-ready data: drawn from the recorder's session.

The table (deal, trump, the trick on the table, the centre, each side's pile and tens, the
match score) comes from :meth:`Session.snapshot`, the replay's own table; the cards that
can be tapped come from :func:`tappable`, the per-card core's legal cards.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Optional

from ..deck import DECK, seats_for, sides_for
from ..record import Session
from ..replay.methods import method_of_fact
from .tables import Table, core_table

__all__ = ["core_table", "hidden_trump", "table_state", "tappable", "seen_adapter", "summary"]

_ORDER = {card: i for i, card in enumerate(DECK)}


def tappable(session: Session) -> tuple[list[str], bool]:
    """The cards the seat to play may be given, and whether its hand is known: the per-card
    core's legal cards (the hand's legal cards when it is known, else every card not yet
    seen, the led suit first). The record's check is still the session's: a card offered
    here is played only when the replay keeps it."""
    expect = session.expect()
    if expect.kind != "card" or expect.seat is None:
        return [], False
    table = core_table(session)
    if table is None or table.to_play != expect.seat:
        return seen_adapter(session)
    return [str(c) for c in table.legal_cards()], table.hand(expect.seat) is not None


def seen_adapter(session: Session) -> tuple[list[str], bool]:
    """The same from the session's snapshot, where the core cannot set the deal up: the known
    hand's cards of the led suit (or all of them), else the cards not yet seen, led suit first."""
    expect = session.expect()
    snap = session.snapshot()
    if expect.kind != "card" or expect.seat is None:
        return [], False
    rules = session.rules
    seat = expect.seat
    fact = snap.deal if snap is not None and session.state.cur is not None else None
    trick_cards = partial_cards(session)
    led = trick_cards[0][-1] if trick_cards else None
    if snap is not None and fact is not None and seat in fact.dealt and snap.unknown.get(seat, 0) == 0 \
            and snap.hands.get(seat):
        held = list(snap.hands[seat])
        follow = [c for c in held if led is not None and c[-1] == led]
        return sorted(follow or held, key=_ORDER.__getitem__), True
    seen: Counter[str] = Counter()
    if fact is not None and snap is not None:
        for t in fact.tricks:
            for p in t.plays:
                seen[p.card] += 1
        if session.state.partial:
            # the snapshot's deal holds the complete tricks: the trick under way is added
            seen.update(trick_cards)
        for s, cards in fact.dealt.items():
            if s != seat:
                seen.update(cards)
    free = [c for c in DECK if seen[c] < rules.decks]
    free.sort(key=lambda c: (0 if led is not None and c[-1] == led else 1, _ORDER[c]))
    return free, False


def hidden_trump(session: Session) -> Optional[str]:
    """The seat that chose the deal's closed trump while its suit is still a secret (the deal in
    progress, no reveal yet, the trick under way included), else None. The record holds the suit
    (the notation needs it); the pages and the API do not show it before the reveal."""
    state = session.state
    fact = state.cur_fact
    if state.cur is None or fact is None or fact.trump is None:
        return None
    tf = fact.trump
    if tf.suit is None or not (tf.closed or method_of_fact(tf.method).secret):
        return None
    return None if known_trump(session) is not None else (tf.by or "?")


def known_trump(session: Session) -> Optional[str]:
    """The trump as the players know it now, the trick under way included (a closed trump revealed,
    or a trump set by a first void, at its card: the snapshot knows it only at the trick's end)."""
    core = core_table(session)
    if core is not None:
        return core.trump
    snap = session.snapshot()
    return snap.trump if snap is not None else None


def partial_cards(session: Session) -> list[str]:
    """The cards of the trick under way."""
    partial = session.position()["partial"]
    return [str(c) for c in partial] if isinstance(partial, list) else []


def _score(session: Session) -> dict[str, Any]:
    state = session.state
    sides = sides_for(state.rules.seats)
    won = Counter(f.winner for f in state.done_facts if f.winner is not None)
    streak = state.done_facts[-1].streak if state.done_facts else None
    kots = dict(zip(sides, state.match.kots)) if state.match is not None else {s: 0 for s in sides}
    return {
        "won": {s: won.get(s, 0) for s in sides},
        "kots": kots,
        "streak": [streak.side, streak.length] if streak is not None else None,
        "deals": [{"n": f.number, "winner": f.winner, "tens": dict(f.tens),
                   "kot": f.kot.side if f.kot is not None else None} for f in state.done_facts],
        "result": state.result,
    }


def summary(table: Table) -> dict[str, Any]:
    """A table on the session index: number, players, where it stands, the score."""
    session = table.session
    pos = session.position()
    return {"table": table.number, "file": table.path.name, "names": session.names,
            "rules": session.rules.label(), "deal": pos["deal"], "tricks": pos["tricks"],
            "score": _score(session), "over": session.finished, "version": table.version,
            "unreadable": table.unreadable, "trump_secret": hidden_trump(session)}


def table_state(table: Table) -> dict[str, Any]:
    """Everything the phone page draws, for one table now."""
    session = table.session
    rules = session.rules
    n = rules.seats
    seats = seats_for(n)[:n]
    sides = sides_for(n)
    expect = session.expect()
    snap = session.snapshot()
    state = session.state
    pos = session.position()
    legal, known = tappable(session)
    out: dict[str, Any] = {
        "table": table.number, "file": table.path.name, "version": table.version,
        "rules": rules.label(), "seats": list(seats), "sides": list(sides), "names": session.names,
        "capture": rules.capture, "trump_method": rules.trump, "hand_size": rules.hand_size, "decks": rules.decks,
        "expect": {"kind": expect.kind, "seat": expect.seat, "text": expect.text},
        "deal": pos["deal"], "deals_done": pos["deals_done"],
        "legal": legal, "known": known, "hands_wanted": table.hands, "confirm": table.confirm,
        "awaiting": table.awaiting(), "notes": list(table.notes), "score": _score(session),
        "over": session.finished, "result": state.result,
        "can_hands": _can_hands(session), "can_claim": _can_claim(session),
        "tens_due": _tens_due(table), "unreadable": table.unreadable,
    }
    match = state.match
    if state.cur is None and match is not None and match.dealer is not None:
        out["dealer"] = seats[match.dealer]
    if snap is None:
        out.update(trump=None, trump_secret=None, trick=None, centre={"cards": 0, "tens": []},
                   piles={s: 0 for s in sides}, tens={s: [] for s in sides}, hands={}, unknown={}, run=None)
        return out
    deal = snap.deal
    fresh = state.cur is None      # the last deal is over: the table shows its end until the next card
    out["dealer"] = out.get("dealer") if fresh else deal.dealer
    out["shown_deal"] = deal.number
    secret = hidden_trump(session)
    if fresh and deal.complete:
        # the deal is over: its closed trump, never revealed, is the record's (the setter shows it)
        out["trump"] = snap.trump or (deal.trump.suit if deal.trump is not None else None)
    else:
        out["trump"] = None if secret else (known_trump(session) if state.cur is not None else snap.trump)
    out["trump_by"] = deal.trump.by if deal.trump is not None else None
    out["trump_secret"] = secret     # the setter of a closed trump not yet revealed (never its suit)
    trick = None
    under = session.trick_under_way()
    if under is not None:      # the trick under way, from the recorder's core table
        trick = {"n": under[0], "leader": under[1][0][0], "cards": [[seat, card] for seat, card in under[1]],
                 "complete": False, "winner": None, "capture": None}
    elif snap.trick is not None:
        t = snap.trick
        trick = {"n": t.number, "leader": t.leader, "cards": [[p.seat, p.card] for p in snap.shown],
                 "complete": snap.complete, "winner": t.winner if snap.complete else None,
                 "capture": None}
        if snap.complete and snap.capture is not None:
            trick["capture"] = {"by": snap.capture.by, "cards": snap.capture.cards,
                                "tens": list(snap.capture.tens)}
    out["trick"] = trick
    out["trick_number"] = (len(state.cur.tricks) + 1) if state.cur is not None else None
    out["centre"] = {"cards": snap.centre_cards, "tens": list(snap.centre_tens)}
    out["piles"] = dict(snap.piles)
    out["tens"] = {s: list(v) for s, v in snap.pile_tens.items()}
    out["hands"] = {s: list(v) for s, v in snap.hands.items() if v}
    out["unknown"] = dict(snap.unknown)
    out["run"] = list(snap.run) if snap.run is not None else None
    if fresh and deal.complete:
        out["last_deal"] = {"n": deal.number, "winner": deal.winner, "tens": dict(deal.tens),
                            "kot": deal.kot.side if deal.kot is not None else None,
                            "next": deal.next_dealer}
    return out


def _can_hands(session: Session) -> bool:
    """Hands may be entered until the deal's first card."""
    state = session.state
    if state.result is not None or state.partial:
        return False
    if state.cur is None:
        return state.match is not None and (state.match.dealer is not None or bool(state.done))
    return not state.cur.tricks


def _can_claim(session: Session) -> bool:
    state = session.state
    return state.cur is not None and not state.partial and bool(state.cur.tricks)


def _tens_due(table: Table) -> Optional[int]:
    """The deal whose tens the players may check now (just ended, not yet checked), or None."""
    state = table.session.state
    if state.cur is not None or state.partial or not state.done:
        return None
    number = state.done_facts[-1].number
    return None if number in table.tens_checked else number


def unseen_order(cards: list[str]) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)
