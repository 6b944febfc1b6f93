"""The record replayer: a written game driven through the per-card core, match -> deal -> trick.

``start_match`` makes a :class:`MatchState`; ``start_deal`` a
:class:`~dehlanote.replay.core.DealState` from a written deal (numbering, dealer, hands,
trump); ``play_tricks`` checks the written tricks (their numbers, leaders and sizes here,
each card through :func:`~dehlanote.replay.core.play_card`, whole plain tricks through the
core's bulk path) and ``finish_deal`` scores the deal and moves the match on. Nothing is
mutated: each step returns new values, so a stepper can keep every state and walk back.
The engine reads the profile's parameters and never its name.

A claim is judged by whoever hands a judge to the replay (the analysis layer's double-dummy
check, :func:`dehlanote.analysis.claim.claim_judge`); without one a claim's soundness stays
unknown.
"""

# mypy: strict-equality
from __future__ import annotations

import re
from operator import itemgetter
from typing import Any, Callable, Iterable, NamedTuple, Optional, cast

from ..errors import DpnError
from ..rules.profile import Rules
from ..deck import CARD_INDEX, DECK, TENS
from ..syntax.model import Claim, Deal, Trick, Word
from .core import (BIT, CARD, SEATS, SHIFT, SIDES, DealState, Params, never_played,
                   new_state, play_card, play_plain, plain_case, skip_trick)
from .checks import check_set_trump, resolve_pending
from .facts import ClaimFact, DealFact, Kot, Streak, TrumpFact
from .methods import trump_method

#: a judge of claims: (the state at the claim, the claimer's seat index) -> sound (True/False) or
#: None when it cannot tell
ClaimJudge = Callable[[DealState, int], Optional[bool]]

_SEATS = SEATS
_SIDES = SIDES
#: a written seat (a Word's value, typed object) to its index
_SEAT_INDEX: dict[int, dict[object, int]] = {
    n: {seat: i for i, seat in enumerate(seats)} for n, seats in _SEATS.items()}


#: the tens in the deck's order (TENS is a set: its order changes with the hash seed, and a
#: claim's tens are written in this order)
_TEN_ORDER = tuple(card for card in DECK if card in TENS)


def _dealt_hands(deal: Deal, explicit: tuple[bool, ...], seats: str) -> dict[str, tuple[str, ...]]:
    """The hands written in the record that were taken (``explicit``), in seat order, each in
    deck order (a seat's first ``hands`` entry is the one taken, and a hand is taken only whole)."""
    written: dict[str, tuple[str, ...]] = {}
    for hand in deal.hands or ():
        if hand.seat not in written:
            written[hand.seat] = tuple(sorted(map(_CARD_OF, hand.cards), key=CARD_INDEX.__getitem__))
    return {seat: written[seat] for seat, taken in zip(seats, explicit) if taken}


#: builds a NamedTuple from a tuple of its fields in order, without the class's __new__
_new = tuple.__new__
#: a written card's name (CardRef.card)
_CARD_OF = itemgetter(0)
#: the high bit of every card's count: set when a card is counted twice
_TWOS = sum(2 << shift for shift in SHIFT.values())


class MatchState(NamedTuple):
    rules: Rules
    deals_seen: int = 0
    dealer: Optional[int] = None        # dealer of the next deal, when the rules give it
    dealer_reason: str = ""
    streak_side: Optional[int] = None
    streak_len: int = 0
    kots: tuple[int, int] = (0, 0)      # kots stated (certain ones)
    points: tuple[int, int] = (0, 0)    # coat points from the deals whose outcome is known
    finished: bool = False              # the match certainly ended
    winner: Optional[int] = None
    prev_winner: Optional[int] = None
    known: bool = True                  # False once a deal's outcome could not be told
    ended_at: int = 0                   # the deal that ended the match
    prev_known: bool = True             # the outcome of the deal just before is known
    run_exact: bool = True              # the current run began after a known deal (not after an unknown one)
    streak_known: bool = True           # False after a deal whose outcome is unknown, until a side wins one


def _count(n: int, word: str) -> str:
    """``n`` and ``word``, in the plural but for one ("1 card", "3 tens")."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def _err(code: str, message: str, node, deal: Optional[int], trick: Optional[int] = None) -> DpnError:
    return DpnError(code, message, node.line, node.column, deal=deal, trick=trick)


# ---- match ---------------------------------------------------------------------------

def start_match(rules: Rules) -> MatchState:
    """The state before the first deal."""
    return MatchState(rules)


def _word(w: Word) -> str:
    """A seat, side or suit the parser read (a Word's value is typed ``object``)."""
    return cast(str, w.value)


def _number(w: Word) -> int:
    return cast(int, w.value)


def _infer_dealer(deal: Deal, rules: Rules, seats: str) -> Optional[int]:
    n = rules.seats
    t = deal.trump
    if t is not None and t.by is not None and _word(t.by) in seats:
        offset = trump_method(rules).announcer
        if offset is not None:
            return (seats.index(_word(t.by)) - offset) % n
    first = deal.tricks[0].leader if deal.tricks else None
    if first is not None and _word(first) in seats:
        return (seats.index(_word(first)) - 1) % n
    return None


def start_deal(match: MatchState, deal: Deal) -> tuple[Optional[DealState], list[DpnError]]:
    """Set up a written deal: numbering, dealer, hands, trump. None if it cannot be played.

    Returns the deal state (or None when the deal cannot be replayed: after the end of the
    match, or with no way to tell the dealer) and the errors found so far.
    """
    rules = match.rules
    n = rules.seats
    seats = _SEATS[n]
    number = match.deals_seen + 1
    errors: list[DpnError] = []
    if deal.number is not None and deal.number.value != number:
        errors.append(_err("deal-number", f"this is deal {number} of the game, not deal {deal.number.value}",
                           deal.number, number))
    if match.finished:
        errors.append(_err("after-match", f"the match was over after deal {match.ended_at}: no deal may follow it",
                           deal, number))
        return None, errors

    stated: Optional[int] = None
    if deal.dealer is not None:
        stated = _SEAT_INDEX[n].get(deal.dealer.value)
        if stated is None:
            errors.append(_err("wrong-dealer", f"{deal.dealer.value} is not a seat at this {n}-player table",
                               deal.dealer, number))
    dealer = match.dealer
    if dealer is None:
        if match.deals_seen == 0 and deal.dealer is None:
            errors.append(_err("wrong-dealer", "the first deal of a game must name its dealer: deal 1 dealer X",
                               deal, number))
        dealer = stated if stated is not None else _infer_dealer(deal, rules, seats)
        if dealer is None:
            return None, errors
    elif stated is not None and stated != dealer:
        errors.append(_err("wrong-dealer", f"the dealer of deal {number} is {seats[dealer]}"
                           f"{match.dealer_reason}, not {seats[stated]}", deal.dealer, number))

    explicit = [False] * n
    hands = [0] * n
    five: list[int] = [0] * n
    has_split = [False] * n
    if deal.hands:
        deck = 0
        decks = rules.decks
        seen: set[str] = set()
        for hand in deal.hands:
            if hand.seat not in seats:
                errors.append(_err("hand-size", f"there is no seat {hand.seat} at this {n}-player table",
                                   hand, number))
                continue
            if hand.seat in seen:
                errors.append(_err("hand-size", f"{hand.seat}'s hand is given twice", hand, number))
                continue
            seen.add(hand.seat)
            s = seats.index(hand.seat)
            ok = True
            held = 0
            first = 0
            split = hand.split
            if decks == 1:
                # the common case at once: the hand's bits added up, then checked for a card
                # given twice (a count of 2 in its bits) or dealt to another hand already
                refs = hand.cards
                held = sum(map(BIT.__getitem__, map(_CARD_OF, refs)))
                if not held & _TWOS and not held & deck and len(refs) == rules.hand_size:
                    deck += held
                    if split is not None:
                        if split != 5:
                            errors.append(_err("hand-size", f"the | in {hand.seat}'s hand must stand after "
                                               f"the first five cards dealt, not after {split}", hand, number))
                        else:
                            five[s] = sum(map(BIT.__getitem__, map(_CARD_OF, refs[:split])))
                            has_split[s] = True
                    explicit[s] = True
                    hands[s] = held
                    continue
                held = 0
            for i, ref in enumerate(hand.cards):
                shift = SHIFT[ref.card]
                if (deck >> shift) & 3 >= decks:
                    others = [h.seat for h in deal.hands if h is not hand and h.seat in seen
                              and any(c.card == ref.card for c in h.cards)]
                    times = "twice" if decks == 1 else f"{decks + 1} times"    # those written so far, and this one
                    errors.append(_err("duplicate-card", f"{ref.card} is dealt {times}: "
                                       + (f"{others[0]}'s hand has it too" if others and decks == 1 else
                                          "there is only one of each card" if decks == 1
                                          else f"there are only {decks} of each card"), ref, number))
                    ok = False
                    continue
                bit = 1 << shift
                deck += bit
                held += bit
                if split is not None and i < split:
                    first += bit
            if len(hand.cards) != rules.hand_size:
                errors.append(_err("hand-size", f"{hand.seat}'s hand has {_count(len(hand.cards), 'card')}; "
                                   f"each player is dealt {rules.hand_size}", hand, number))
                ok = False
            if hand.split is not None and hand.split != 5:
                errors.append(_err("hand-size", f"the | in {hand.seat}'s hand must stand after the first "
                                   f"five cards dealt, not after {hand.split}", hand, number))
            elif hand.split is not None:
                five[s] = first
                has_split[s] = True
            if ok:
                explicit[s] = True
                hands[s] = held

    if deal.hands and len(seen) == n and any(e.code == "duplicate-card" for e in errors):
        # every hand written: the cards no hand has are the ones a copied card stands for
        # counted per card, not in the 2-bit fields of a hand: a fourth copy would carry into the next card
        counted: dict[str, int] = {}
        for hand in deal.hands:
            for ref in hand.cards:
                counted[ref.card] = counted.get(ref.card, 0) + 1
        missing = [c for c in DECK for _ in range(decks - counted.get(c, 0))][:12]
        if missing:
            lack = "no hand has" if decks == 1 else "the hands are a copy short of"     # a card once per copy short
            errors[:] = [DpnError(e.code, e.message + f"; {lack} {' '.join(missing)}", e.line, e.column,
                                  deal=e.deal, trick=e.trick) if e.code == "duplicate-card" else e for e in errors]

    # trump
    method = trump_method(rules)
    t = deal.trump
    trump: Optional[str] = None
    hidden: Optional[str] = None
    trump_fact: Optional[TrumpFact] = None
    unknown = False
    if method.secret_by_void:
        # the setter is whoever first cannot follow suit (found in play): the record states the
        # suit, needed only once trump is revealed; by and at are checked after the play
        if t is not None and t.drawn is not None:
            errors.append(_err("trump-mismatch", "trump is never drawn in this game: the first player "
                               "unable to follow suit chooses it in secret", t, number))
        elif t is not None and t.suit is not None:
            hidden = str(t.suit.value)
        trump_fact = TrumpFact(hidden, None, None, "closed", closed=True)
    elif method.announcer is not None:
        announcer = (dealer + method.announcer) % n
        who = method.announcer_role
        if t is None or t.suit is None:
            if t is None:
                errors.append(_err("missing-trump", f"deal {number} has no trump line: {who} "
                                   f"({seats[announcer]}) sets trump before play, e.g. "
                                   f"trump H by {seats[announcer]}", deal, number))
            else:
                errors.append(_err("trump-mismatch", "trump is not drawn in this game: "
                                   f"{who} ({seats[announcer]}) sets it", t, number))
            unknown = True
        else:
            if t.by is not None and t.by.value != seats[announcer]:
                errors.append(_err("wrong-announcer", f"trump is set by {who}, {seats[announcer]}, "
                                   f"not {t.by.value}", t.by, number))
            suit = str(t.suit.value)
            if method.secret:
                hidden = suit
                trump_fact = TrumpFact(suit, seats[announcer], None, method.name, closed=True)
            else:
                if t.at is not None:
                    errors.append(_err("trump-mismatch", "trump is announced before play here, so "
                                       f"'at {t.at.value}' does not apply", t.at, number))
                if t.closed:
                    errors.append(_err("trump-mismatch", "trump is announced openly in this game, "
                                       "not closed", t, number))
                trump = suit
                trump_fact = TrumpFact(suit, seats[announcer], None, method.name)

    phase = method.five_phase
    # the first five cards of each seat whose hand is written with the | (None: not known,
    # so following suit in the five-card phase is not judged for that seat: no guessing)
    five_t: Optional[tuple[Optional[int], ...]] = None
    notes: list[str] = []
    if phase and any(explicit[s] and has_split[s] for s in range(n)):
        five_t = tuple(five[s] if explicit[s] and has_split[s] else None for s in range(n))

    params: Params = (n, rules.decks, rules.tricks_per_deal, method, rules.capture == "immediate")
    state = new_state(rules, params, number, dealer, trump=trump, trump_fact=trump_fact, hidden=hidden,
                      trump_unknown=unknown, explicit=tuple(explicit), hands=tuple(hands), five=five_t,
                      notes=tuple(notes), deal=deal)
    return state, errors


# ---- tricks --------------------------------------------------------------------------

def play_trick(state: DealState, trick: Trick) -> DealState:
    """Check one written trick against the rules and return the state after it.

    Errors go into the returned state's ``errors``. A trick that cannot be followed (the
    wrong number of cards, a winner that hangs on a trump the record does not state)
    marks the deal broken; later tricks are then not replayed.
    """
    return play_tricks(state, (trick,))


def play_tricks(state: DealState, written: Iterable[Trick]) -> DealState:
    """Check written tricks in order: the state after them (``play_trick`` on each in turn).

    Each trick's number, leader and size are checked here; its cards go through the core one
    by one (:func:`~dehlanote.replay.core.play_card`), which words every problem at the
    card's line and column. The common case (no hands written or all, trump announced, one
    deck) first goes through the core's bulk path, which gives up, keeping nothing, at the
    first thing it does not handle or the first error.
    """
    tricks = written if isinstance(written, tuple) else tuple(written)
    if plain_case(state):
        fast = play_plain(state, tricks)
        if fast is not None:
            return fast
    return _play_written(state, tricks)


_TRICK_IN_COMMENT = re.compile(r"\n[ \t]*[0-9]+\.?[ \t]*(?:[A-F][ \t]*:)?[ \t]*(?:10|[2-9AKQJT])[SHDC♠♥♦♣♤♡♢♧]",
                               re.I)


def _swallowed(deal: Optional[Deal], previous: Optional[Trick]) -> str:
    """What to add to a gap in the tricks when the comment written just before it runs over
    lines that read as tricks (a ``{`` whose ``}`` was left out, closed by a later comment's):
    the tricks are in that comment, not missing."""
    if previous is not None:
        said = (*(c for p in previous.plays for c in p.comments), *previous.comments)
        where = f"after trick {previous.number}"
    elif deal is not None:
        said = (*deal.comments, *(deal.trump.comments if deal.trump is not None else ()),
                *(c for h in deal.hands or () for c in h.comments))
        where = "before the first trick"
    else:
        return ""
    if any(_TRICK_IN_COMMENT.search(c) for c in said):
        return f" (the comment {where} runs over lines that read as tricks: is its }} missing?)"
    return ""


def _play_written(state: DealState, written: Iterable[Trick]) -> DealState:
    """The written tricks card by card: the structural checks of each trick, then its cards."""
    if state.broken:
        return state
    n, _decks, tricks_per_deal, _method, _immediate = state.params
    seats = _SEATS[n]
    deal = state.deal
    deal_no = state.number
    errors: list[DpnError] = []
    notes: tuple[str, ...] = ()
    indices: dict[int, int] = {}   # a written trick's index in the deal, made at the first misnumbered one
    before: Optional[Trick] = None     # the written trick before this one
    for trick in written:
        if state.current:       # a trick left unfinished (the record writes whole tricks)
            break
        number, plays, written_leader = trick.number, trick.plays, trick.leader
        expected = state.tricks_done + 1
        before, previous = trick, before
        if number != expected:
            # a structural fault is told once, and what follows only from it is not
            kind = _misnumbered(deal, trick, expected, indices)
            if kind == "repeat":
                errors.append(_err("trick-number", f"trick {number} is written twice: the repeated line is "
                                   "left out", trick, deal_no, number))
                continue
            if kind == "gap":
                missing = f"trick {expected} is" if number == expected + 1 else \
                    f"tricks {expected}-{number - 1} are"
                went = f"goes from trick {expected - 1} to" if expected > 1 else "starts at"
                errors.append(_err("trick-number", f"{missing} missing: the record {went} trick {number}"
                                   + _swallowed(deal, previous), trick, deal_no, expected))
                notes += (f"deal {deal_no} could not be followed from trick {expected}: {missing} missing, so "
                          "who played what after it is unknown",)
                state = state._replace(broken=True)
                break
        if expected > tricks_per_deal:
            errors.append(_err("trick-number", f"a deal has only {tricks_per_deal} tricks", trick, deal_no, number))
            state = state._replace(broken=True)
            break
        if number != expected:
            errors.append(_err("trick-number", f"this is trick {expected} of the deal, not trick {number}",
                               trick, deal_no, expected))
        leader = state.leader
        if state.unsettled and state.unsettled == state.tricks_done:
            # the trick before had the wrong number of cards: who won it, and so who leads now,
            # is what the record says
            if written_leader is None or cast(str, written_leader.value) not in seats:
                notes += (f"deal {deal_no} could not be followed from trick {expected}: trick {expected - 1} "
                          "has the wrong number of cards, and who leads after it is not written",)
                state = state._replace(broken=True)
                break
            leader = seats.index(cast(str, written_leader.value))
            state = state._replace(leader=leader, last_winner=None, run=0)
        elif written_leader is not None and written_leader.value != seats[leader]:
            why = "the dealer's right leads the first trick" if expected == 1 else "the winner of the last trick leads"
            errors.append(_err("wrong-leader", f"{seats[leader]} leads trick {expected} ({why}), "
                               f"not {written_leader.value}", written_leader, deal_no, expected))
        if len(plays) != n:
            got = "only one card" if len(plays) == 1 else f"{len(plays)} cards"
            errors.append(_err("trick-size", f"trick {expected} has {got}; each of the {n} "
                               "players plays one", trick, deal_no, expected))
            # go on checking: the cards count as played, the next trick's written leader leads
            state = skip_trick(state._replace(errors=state.errors + tuple(errors)), plays, trick)
            errors = []
            continue
        turned = _lead_order(state, trick, plays, errors)
        if turned is not plays:
            plays, trick = turned, trick._replace(plays=turned)
        if errors:
            # the trick's own errors stand before those of its cards, as they are written
            state = state._replace(errors=state.errors + tuple(errors))
            errors = []
        for play in plays:
            state, _events = play_card(state, play, trick)
        if state.broken:
            break
    if errors:
        state = state._replace(errors=state.errors + tuple(errors))
    if notes:
        state = state._replace(notes=state.notes + notes)
    return state


def _lead_order(state: DealState, trick: Trick, plays: tuple, errors: list[DpnError]) -> tuple:
    """A trick whose cards are every one held, but by the seats in another order than the
    lead's (written in seat order, say): told once, and played in the lead's order (every
    hand known; otherwise nothing can show it)."""
    n = state.params[0]
    if not state.any_explicit or not all(state.explicit) or state.phase or len(plays) != n:
        return plays
    hands = state.hands

    def misplaced(order: tuple) -> int:
        return sum(1 for k, p in enumerate(order) if p.card not in CARD
                   or not (hands[(state.leader + k) % n] >> SHIFT[p.card]) & 3)

    if misplaced(plays) < 2:
        return plays
    for r in range(1, n):
        turned = plays[r:] + plays[:r]
        if not misplaced(turned):
            seats = _SEATS[n]
            order = " ".join(f"{seats[(state.leader + k) % n]} {p.card}" for k, p in enumerate(turned))
            errors.append(_err("not-in-hand", f"the cards of trick {state.tricks_done + 1} are written in the "
                               f"wrong order: {seats[state.leader]} leads, and the hands say {order}",
                               plays[0], state.number, state.tricks_done + 1))
            return turned
    return plays


def _amended(state: DealState) -> tuple[DpnError, ...]:
    """The deal's errors, with what the whole deal tells: a card played twice, or a trick of
    the wrong size, is said with the cards of the deal that were never played."""
    errors = state.errors
    if not any(e.code in ("duplicate-card", "trick-size") for e in errors) or state.broken or \
            state.tricks_done != state.params[2]:
        return errors
    missing = never_played(state)
    if not missing:
        return errors
    shown = " ".join(missing[:12]) + (f" and {len(missing) - 12} more" if len(missing) > 12 else "")
    tail = f"; never played in this deal: {shown}" if state.params[1] == 1 else \
        f"; not played as often as the decks hold them: {shown}"       # a card once per copy not played
    out = []
    for e in errors:
        if e.code in ("duplicate-card", "trick-size") and e.deal == state.number and tail not in e.message:
            e = DpnError(e.code, e.message + tail, e.line, e.column, deal=e.deal, trick=e.trick)
        out.append(e)
    return tuple(out)


def _misnumbered(deal: Optional[Deal], trick: Trick, expected: int, indices: dict[int, int]) -> str:
    """What a trick written with an unexpected number is: ``repeat`` (the line before it again,
    same number and cards), ``gap`` (tricks missing: this one and all after it count on from
    its number), or ``typo`` (a wrong number on the right trick).

    ``indices`` maps the written tricks (by identity) to their index in the deal; it is
    filled at the first call, so a deal of many repeated lines is replayed in linear time
    (the index was searched for each, quadratic: 14,600 repeated lines took 3 s).
    """
    tricks = deal.tricks if deal is not None else ()
    if not indices:
        indices.update((id(t), i) for i, t in enumerate(tricks))
    index = indices.get(id(trick))
    if index is not None and tricks[index] is not trick:
        index = None
    if index is None:
        return "typo"
    if index and tricks[index - 1].number == trick.number and \
            [p.card for p in tricks[index - 1].plays] == [p.card for p in trick.plays]:
        return "repeat"
    if trick.number > expected and all(t.number == trick.number + j for j, t in enumerate(tricks[index:])):
        return "gap"
    return "typo"


# ---- claims ---------------------------------------------------------------------------

def claim_deal(state: DealState, claim: Claim, judge: Optional[ClaimJudge] = None) -> DealState:
    """``claim X`` after the last trick played (DPN 1.1): X's side takes every trick left,
    the centre and every card still in hand, so the deal is complete without its last tricks.

    No hands are needed: the cards still in hand are those not played yet. When every hand is
    written and a ``judge`` is given, the claim is judged by it (``ClaimFact.sound``;
    ``unsound-claim`` unless X's side wins every remaining trick against any defence: the
    analysis layer's double-dummy check), else ``sound`` stays None.
    """
    if state.broken or state.claim is not None:
        return state
    n, decks, tricks_per_deal, _method, _immediate = state.params
    seats = _SEATS[n]
    if claim.seat not in seats:
        error = DpnError("unsound-claim", f"there is no seat {claim.seat} at this {n}-player table to claim",
                         claim.line, claim.column, deal=state.number)
        return state._replace(errors=state.errors + (error,))
    side = seats.index(claim.seat) % 2
    left = (tricks_per_deal - state.tricks_done) * n
    unplayed = tuple(ten for ten in _TEN_ORDER for _ in range(decks - ((state.played >> SHIFT[ten]) & 3)))
    tens = state.centre_tens + unplayed
    cards = state.centre + left
    fact = ClaimFact(claim.seat, _SIDES[n][side], claim.line, claim.column, state.tricks_done + 1, cards, tens)
    if judge is not None and state.any_explicit and all(state.explicit):
        # every hand is known: the claim is judged (double dummy)
        sound = judge(state, seats.index(claim.seat))
        fact = fact._replace(sound=sound)
        if sound is False:
            state = state._replace(errors=state.errors + (DpnError(
                "unsound-claim", unsound_message(claim.seat, fact.side), claim.line, claim.column,
                deal=state.number),))
    piles = list(state.pile_cards)
    pile_tens = list(state.pile_tens)
    tricks = list(state.pile_tricks)
    piles[side] += cards
    pile_tens[side] += tens
    tricks[side] += cards // n
    return state._replace(centre=0, centre_tens=(), pile_cards=(piles[0], piles[1]),
                          pile_tens=(pile_tens[0], pile_tens[1]), pile_tricks=(tricks[0], tricks[1]), claim=fact)


def unsound_message(seat: str, side: str) -> str:
    """What ``unsound-claim`` says of a claim the other side could beat."""
    return (f"{seat} claims every trick left for {side}, but with these hands the other side can "
            f"take a trick whatever {side} plays")


# ---- end of deal ---------------------------------------------------------------------

def _score(rules: Rules, tens: tuple[int, int], pile_cards: tuple[int, int], pile_tricks: tuple[int, int],
           dealing: int) -> tuple[Optional[int], Optional[Kot], dict]:
    """The deal's winning side (index), its kot, and the side totals the profile counts
    (from the tens, cards and tricks each side took)."""
    sides = _SIDES[rules.seats]
    if rules.score == "points":
        a = 2 * tens[0] + pile_cards[0] - tens[0]
        b = 2 * tens[1] + pile_cards[1] - tens[1]
        extra = {sides[0]: a, sides[1]: b}
    elif rules.score == "tricks":
        a, b = pile_tricks
        extra = {sides[0]: a, sides[1]: b}
    else:
        a, b = tens
        extra = {}
    total = a + b
    if 2 * a > total:
        winner: Optional[int] = 0
    elif 2 * b > total:
        winner = 1
    else:
        winner = None if rules.level == "none" else 1 - dealing
    kot = None
    if rules.score == "tricks":
        for s in (0, 1):
            if pile_tricks[s] == rules.tricks_per_deal:
                kot, winner = Kot(sides[s], "all-tricks"), s
    else:
        for s in (0, 1):
            if tens[s] == rules.total_tens:
                kot, winner = Kot(sides[s], "all-tens"), s
    return winner, kot, extra


def finish_deal(match: MatchState, state: Optional[DealState], deal: Deal, *, last: bool,
                unfinished_ok: bool, errors: list[DpnError], dealt_hands: bool = True) -> tuple[MatchState, DealFact]:
    """Score a deal (when complete), check its claims and move the match on.

    ``last`` says whether it is the game's last deal and ``unfinished_ok`` whether the
    record is marked unfinished (``Result "*"``), the only case where it may stop early.
    Errors found are appended to ``errors``. With ``dealt_hands`` False the fact's
    ``dealt`` is left empty (the written hands sorted to deck order: work a check that
    wants only the errors does not need).
    """
    rules = match.rules
    n = rules.seats
    seats = _SEATS[n]
    sides = _SIDES[n]
    number = match.deals_seen + 1
    if state is None:
        # after the match, or a dealer nobody can tell: nothing to score
        fact = DealFact(number, _word(deal.dealer) if deal.dealer else None, len(deal.misdeals), {}, None, (),
                        {}, {}, {}, None, None, None, None, False, deal,
                        () if match.finished else (f"deal {number} could not be replayed: its dealer is unknown",),
                        rules=rules, next_streak_known=False, before=match)
        if match.finished:
            return match._replace(deals_seen=number, dealer=None), fact
        return _unknown_outcome(match, number), fact

    errors.extend(_amended(state))
    written_out = not state.broken and state.tricks_done == rules.tricks_per_deal
    played_out = written_out and not state.unsettled
    # a claim ends a deal, but not one with a trick of the wrong number of cards: who won that
    # trick is unknown, so the deal is not scored (as the note below says)
    complete = played_out or (not state.broken and not state.unsettled and state.claim is not None)
    if state.unsettled:
        notes = state.notes + (f"deal {number} was not scored: trick {state.unsettled} has the wrong number "
                               "of cards, so who won it cannot be told",)
        state = state._replace(notes=notes)
    if not complete and not state.broken and not state.unsettled and not (last and unfinished_ok):
        errors.append(_err("incomplete-deal", f"deal {number} stops after {state.tricks_done} trick"
                           f"{'s' if state.tricks_done != 1 else ''}; a deal has {rules.tricks_per_deal} "
                           "(only an unfinished record, Result \"*\", may stop early)", deal, number))
    # (after a claim the cards still in hand are not known: checks that need them stay open)
    if state.pending:
        errors.extend(resolve_pending(state, played_out))
    if deal.trump is not None and not state.params[3].open:
        errors.extend(check_set_trump(state, played_out))

    # the written hands; DealFact.hands adds the played ones of a complete deal on demand
    hands = _dealt_hands(deal, state.explicit, seats) if state.any_explicit and dealt_hands else {}

    tens_count = {sides[0]: len(state.pile_tens[0]), sides[1]: len(state.pile_tens[1])}
    tens_cards = {sides[0]: state.pile_tens[0], sides[1]: state.pile_tens[1]}
    claimed: Optional[dict[Any, Any]] = None
    if deal.tens is not None:
        # its form, whether or not the deal is complete (a deal the record stops in ignored
        # its tens line: "tens AC 1 AC 2", or sides of another table, said nothing)
        claimed = {}
        for side_w, count_w in deal.tens.counts:
            if side_w.value not in sides or side_w.value in claimed:
                errors.append(_err("tens-mismatch", f"the tens line must name each side once: {sides[0]} "
                                   f"and {sides[1]}", side_w, number))
                claimed = None
                break
            claimed[side_w.value] = count_w.value
    if not complete:
        if claimed is not None:
            # the split is not known yet: the line can still be wrong about what is
            counted = sum(claimed.values())
            short = [k for k in sides if claimed[k] < tens_count[k]]
            if counted != rules.total_tens:
                errors.append(_err("tens-mismatch", f"the tens line counts {_count(counted, 'ten')}: a deal has "
                                   f"{rules.total_tens}", deal.tens, number))
            elif short:
                taken = _count(tens_count[short[0]], "ten")
                errors.append(_err("tens-mismatch", f"{short[0]} has taken {taken} already, "
                                   f"not {claimed[short[0]]}", deal.tens, number))
        # unknown is not invented: no winner, no streak, no next dealer (NOTATION 1.1)
        fact = DealFact(number, seats[state.dealer], len(deal.misdeals), hands, state.trump_fact, state.tricks,
                        tens_count if state.tricks else {}, tens_cards if state.tricks else {}, {}, None, None,
                        None, None, False, deal, state.notes, claim=state.claim, rules=rules,
                        next_streak_known=False, before=match)
        if last and unfinished_ok and not state.broken:
            # an unfinished record: the match simply was not over when the record stops
            return match._replace(deals_seen=number, dealer=None, prev_known=False), fact
        return _unknown_outcome(match, number), fact

    if claimed is not None and claimed != tens_count:
        errors.append(_err("tens-mismatch", f"the tens split is {sides[0]} {tens_count[sides[0]]} "
                           f"{sides[1]} {tens_count[sides[1]]}, not " + " ".join(
                               f"{k} {v}" for k, v in claimed.items()), deal.tens, number))

    new, winner, kot, extra, streak, next_dealer, reason, finished, next_streak, streak_known = settle(
        match, number, state.dealer, (len(state.pile_tens[0]), len(state.pile_tens[1])), state.pile_cards,
        state.pile_tricks)
    fact = DealFact(number, seats[state.dealer], len(deal.misdeals), hands, state.trump_fact, state.tricks,
                    tens_count, tens_cards, extra, sides[winner] if winner is not None else None, kot, streak,
                    seats[next_dealer] if next_dealer is not None else None, True, deal, state.notes, finished,
                    state.claim, rules, next_streak,
                    streak_known, reason.strip().removeprefix("(").removesuffix(")"), match)
    return new, fact


def settle(match: MatchState, number: int, dealer: int, tens: tuple[int, int], pile_cards: tuple[int, int],
           pile_tricks: tuple[int, int]) -> tuple[MatchState, Optional[int], Optional[Kot], dict, Optional[Streak],
                                                  Optional[int], str, bool, Optional[Streak], bool]:
    """A complete deal scored and the match moved on: from the deal's number, its dealer and
    what each side took (tens, cards, tricks). Returns the match after it, the winning side
    (index), the kot, the side totals the profile counts, the streak, the next dealer and
    why, whether the match is over, the run the next deal continues and whether it is known.
    The one scoring of a deal: :func:`finish_deal` and the quick check of whole games
    (:mod:`.quick`) both call it."""
    rules = match.rules
    n = rules.seats
    sides = _SIDES[n]
    dealing = dealer % 2
    winner, kot, extra = _score(rules, tens, pile_cards, pile_tricks, dealing)
    streak_side, streak_len, exact = match.streak_side, match.streak_len, match.run_exact
    if winner is not None:
        if streak_side == winner:
            streak_len += 1
        else:
            # a run that follows a known win of the other side began here for certain; one
            # that follows an unknown deal may be longer than counted
            exact = exact or streak_side is not None
            streak_side, streak_len = winner, 1
        # a run counted afresh after an unknown deal makes a certain kot when one kot ends the
        # match (an earlier kot would have ended it, and the record goes on); in a session of
        # several kots an earlier, unseen kot may have restarted the run: no kot is stated
        if kot is None and rules.streak and streak_len == rules.streak and (exact or rules.kots == 1):
            kot = Kot(sides[winner], "streak")
    kots = list(match.kots)
    points = list(match.points)
    finished = False
    match_winner = None
    if winner is not None and rules.match_points:
        points[winner] += 1
        if points[winner] >= rules.match_points:
            finished, match_winner = True, winner
    if kot is not None:
        s = sides.index(kot.side)
        kots[s] += 1
        # the sweep kot (all the tens; all the tricks under court-piece) is what all_tens governs
        sweep = kot.reason != "streak"
        if (sweep and rules.all_tens == "match") or (rules.kots and kots[s] >= rules.kots):
            finished, match_winner = True, s
    streak = _new(Streak, (sides[streak_side], streak_len)) if streak_side is not None else None

    # the next dealer
    right = (dealer + 1) % n
    if finished:
        next_dealer = None
        reason = ""
    elif kot is not None and kot.reason != "streak" and rules.dealer_after_all_tens == "partner":
        what = "tricks" if kot.reason == "all-tricks" else "tens"
        if winner == dealing:
            next_dealer, reason = right, (f" (the dealing side took all the {what} in deal {number}, so the "
                                          "deal passes right)")
        else:
            next_dealer = (dealer + 2) % n
            reason = f" (the other side took all the {what} in deal {number}, so the dealer's partner deals)"
    elif winner is None and rules.level_dealer == "previous" and not match.prev_known:
        next_dealer = None
        reason = ""
    elif winner is None:
        dealer_lost = match.prev_winner is not None and match.prev_winner != dealing
        if rules.level_dealer == "same" or (rules.level_dealer == "previous" and dealer_lost):
            next_dealer, reason = dealer, (f" (deal {number} was level and the dealing side lost the deal "
                                           "before, so the same dealer deals again)")
        else:
            next_dealer, reason = right, f" (deal {number} was level, so the deal passes right)"
    elif winner == dealing:
        next_dealer, reason = right, f" (the dealing side won deal {number}, so the deal passes right)"
    else:
        next_dealer, reason = dealer, f" (the non-dealing side won deal {number}, so the same dealer deals again)"

    if kot is not None and rules.streak_reset_after_kot and not finished:
        streak_side, streak_len, exact = None, 0, True
    # the run the next deal continues: unknown after an unknown deal until a side wins one
    streak_known = match.streak_known or winner is not None or (kot is not None and rules.streak_reset_after_kot)
    # (the fields in MatchState's order, built positionally: bulk checking runs this once a deal)
    new = _new(MatchState, (rules, number, next_dealer, reason, streak_side, streak_len, (kots[0], kots[1]),
                            (points[0], points[1]), finished, match_winner, winner, match.known,
                            number if finished else match.ended_at, True, exact, streak_known))
    next_streak = _new(Streak, (sides[streak_side], streak_len)) if streak_side is not None else None
    return new, winner, kot, extra, streak, next_dealer, reason, finished, next_streak, streak_known


def _unknown_outcome(match: MatchState, number: int) -> MatchState:
    """The match after a deal whose outcome cannot be known (NOTATION 1.1, unknown is not
    invented): no next dealer (the next deal's written dealer is taken as given), no
    previous winner to look back at, runs counted afresh from the next known deal."""
    return match._replace(deals_seen=number, dealer=None, dealer_reason="", known=False, prev_winner=None,
                          prev_known=False, streak_side=None, streak_len=0, run_exact=False, streak_known=False)


def replay_deal(match: MatchState, deal: Deal, *, last: bool = True, unfinished_ok: bool = False,
                dealt_hands: bool = True, judge: Optional[ClaimJudge] = None
                ) -> tuple[MatchState, DealFact, list[DpnError]]:
    """Replay one written deal from a match state: the next state, the facts, the errors
    (``dealt_hands``: see :func:`finish_deal`)."""
    errors: list[DpnError] = []
    state, start_errors = start_deal(match, deal)
    errors.extend(start_errors)
    if state is not None:
        state = play_tricks(state, deal.tricks)
        if deal.claim is not None:
            state = claim_deal(state, deal.claim, judge)
    match, fact = finish_deal(match, state, deal, last=last, unfinished_ok=unfinished_ok, errors=errors,
                              dealt_hands=dealt_hands)
    return match, fact, errors
