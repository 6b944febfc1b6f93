"""The per-card core: the state of a deal, the legal cards, a check of one card, playing it.

In the manner of a poker engine's state machine: :func:`legal_cards` lists what the seat to
play may play, :func:`check_card` says what would be wrong with a card (the coded problem
``validate`` reports, without a position: whoever knows where the card was written adds
it), :func:`play_card` plays one card and returns the new state and the events it caused
(:mod:`.events`). States are immutable, so undo is keeping the previous state. Every part
that replays (the record replayer, the recorder, the stepper, annotate, the pages, the
analysis) builds its states here; :class:`~dehlanote.replay.table.Table` wraps it for
people.

How a deal's rules differ is chosen once, from the resolved rules, as small strategy
objects (:mod:`.methods`): the trump method, the capture mode, the score.

Hands are integers with two bits per card (a count of 0 to 3, for up to three decks), so
holding, removing and "has this suit" are single integer operations. When the record has
no hand for a seat, its hand is what it plays: whether a card that did not follow suit was
a revoke is decided when the same player later plays the suit led (the error then points at
the revoking card), and cards withdrawn from such a hand are decided at the end of the deal.

Bulk checking goes through :func:`play_plain`, the same rules specialised for the common
case (trump announced before play, one deck, every hand written or none): it shares the
trick's end (:func:`_take`) with the per-card path and gives up, keeping nothing, at the
first card it does not handle; tests replay every sample and random matches both ways.
"""

# mypy: strict-equality
from __future__ import annotations

from types import ModuleType
from typing import Any, NamedTuple, Optional

from ..deck import CARD_INDEX, DECK, STRENGTH, SUIT_NAMES, SUITS, TENS, seats_for, sides_for
from ..errors import DpnError
from ..rules.profile import Rules
from ..syntax.model import Deal, Play, Trick
from .events import CardPlayed, CentreTaken, TenChangedSides, TrickWon, TrumpRevealed, TrumpSet
from . import facts as _facts
from .facts import Capture, ClaimFact, TrickFact, TrumpFact
from .methods import TrumpMethod

__all__ = ["DealState", "Pending", "Problem", "legal_cards", "check_card", "play_card", "play_plain",
           "plain_case", "to_play", "SHIFT", "SUIT_MASK"]

SHIFT: dict[str, int] = {card: 2 * i for card, i in CARD_INDEX.items()}
SUIT_MASK: dict[str, int] = {
    s: sum(3 << (2 * CARD_INDEX[c]) for c in DECK if c[-1] == s) for s in SUITS
}
SUIT_WORD = SUIT_NAMES
SUIT_NUMBER = {s: i for i, s in enumerate(SUITS)}
SEATS = {4: seats_for(4), 6: seats_for(6)}
SIDES = {4: sides_for(4), 6: sides_for(6)}
#: no show-outs pending (shared, so that "none" is an identity test)
NO_SHOWN = {n: ((),) * (4 * n) for n in (4, 6)}
#: the seats in playing order from each leader
ORDER = {n: tuple(seats[i:] + seats[:i] for i in range(n)) for n, seats in SEATS.items()}
#: canonical card -> its bit in a hand (a count of one)
BIT: dict[str, int] = {card: 1 << shift for card, shift in SHIFT.items()}
#: canonical card -> (suit, its bit, strength, is a ten, suit number)
CARD = {card: (card[-1], 1 << SHIFT[card], STRENGTH[card], card in TENS, SUITS.index(card[-1])) for card in DECK}
# builds a NamedTuple from a tuple without the Python-level __new__ of the class: the
# bulk path makes a few of these per trick, in archives of millions of cards
_new = tuple.__new__

#: (seats, decks, tricks per deal, trump method, immediate capture): what the play reads of
#: the rules, unpacked once a deal
Params = tuple[int, int, int, TrumpMethod, bool]


class Problem(NamedTuple):
    """What is wrong with a card: validate's code and a sentence for a card player."""

    code: str
    message: str


class Pending(NamedTuple):
    """A check that needs the whole deal (hands not written): decided by later plays."""

    kind: str            # revoke | withdrawn
    seat: int
    suit: Optional[str]  # the suit led (None: the withdrawn card was a lead)
    trick_index: int     # trick index (0-based) where it happened
    card: str            # the card played (revoke) or withdrawn
    line: int
    column: int
    trick: int           # trick number, for the error


class DealState(NamedTuple):
    """A deal between two cards: everything the rest of the deal and its score depend on."""

    rules: Rules
    params: Params
    number: int
    dealer: int
    leader: int                         # the leader of the trick in progress (or the next)
    tricks_done: int = 0
    trump: Optional[str] = None         # the suit in force now
    trump_fact: Optional[TrumpFact] = None
    hidden: Optional[str] = None        # closed trump before its reveal
    trump_unknown: bool = False         # announced trump the record does not state
    phase: bool = False                 # first-void-five: still on the first five cards
    explicit: tuple[bool, ...] = ()     # which seats' hands are known
    any_explicit: bool = False
    hands: tuple[int, ...] = ()         # remaining cards of the seats whose hands are known
    five: Optional[tuple[Optional[int], ...]] = None   # first-void-five: the first five still held
    dealt: tuple[int, ...] = ()
    played: int = 0
    centre: int = 0                     # cards in the centre
    centre_tens: tuple[str, ...] = ()   # the tens among them
    last_winner: Optional[int] = None
    run: int = 0
    pile_cards: tuple[int, int] = (0, 0)
    pile_tens: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    pile_tricks: tuple[int, int] = (0, 0)
    phase_cards: tuple[str, ...] = ()
    pending: tuple[Pending, ...] = ()
    shown_out: tuple[tuple, ...] = ()   # per seat*4+suit: cards played on that suit led, not following
    tricks: tuple[TrickFact, ...] = ()
    errors: tuple[DpnError, ...] = ()
    notes: tuple[str, ...] = ()
    broken: bool = False                # the deal cannot be followed further
    deal: Optional[Deal] = None         # the written deal
    claim: Optional[ClaimFact] = None   # ``claim X``: X's side took the rest
    current: tuple[Play, ...] = ()      # the cards of the trick in progress
    #: a trick of the wrong size was written (its number): the deal is checked on from the next
    #: trick's written leader, but its winner, and so the deal's score, cannot be told
    unsettled: int = 0

    @property
    def method(self) -> TrumpMethod:
        return self.params[3]

    @property
    def over(self) -> bool:
        """No card can be played any more: every trick played, a claim, or a deal that cannot be followed."""
        return self.broken or self.claim is not None or self.tricks_done >= self.params[2]


def new_state(rules: Rules, params: Params, number: int, dealer: int, *, trump: Optional[str] = None,
              trump_fact: Optional[TrumpFact] = None, hidden: Optional[str] = None, trump_unknown: bool = False,
              explicit: tuple[bool, ...] = (), hands: tuple[int, ...] = (),
              five: Optional[tuple[Optional[int], ...]] = None, notes: tuple[str, ...] = (),
              deal: Optional[Deal] = None) -> DealState:
    """The state before the first card of a deal."""
    n = params[0]
    return DealState(rules, params, number, dealer, (dealer + 1) % n, 0, trump, trump_fact, hidden, trump_unknown,
                     params[3].five_phase, explicit, any(explicit), hands, five, hands, 0, 0, (), None, 0, (0, 0),
                     ((), ()), (0, 0), (), (), NO_SHOWN[n], (), (), notes, False, deal, None, (), 0)


def to_play(state: DealState) -> Optional[int]:
    """The seat (index) to play the next card; None when the deal is over."""
    if state.over:
        return None
    return (state.leader + len(state.current)) % state.params[0]


# ---- legal cards and the check of one card -------------------------------------------------

def _holding(state: DealState, seat: int) -> tuple[int, bool]:
    """The cards ``seat`` may play from (the first five in the five-card phase, when written)
    and whether following suit is judged on them."""
    five = state.five
    if state.phase and five is not None:
        first = five[seat]
        if first is not None:
            return first, True
    return state.hands[seat], not state.phase


def _cards_of(bits: int, decks: int = 1) -> tuple[str, ...]:
    return tuple(card for card in DECK if (bits >> SHIFT[card]) & 3)


def legal_cards(state: DealState) -> tuple[str, ...]:
    """The cards the seat to play may play, in deck order (the suit led first).

    With the seat's hand known: its cards, only those of the suit led when it holds any.
    Without: every card not yet seen (not played the full number of times, not in a known
    hand), less the suits the seat has shown it does not hold.
    """
    seat = to_play(state)
    if seat is None:
        return ()
    n, decks = state.params[0], state.params[1]
    led = state.current[0].card[-1] if state.current else None
    if state.any_explicit and state.explicit[seat]:
        holding, judged = _holding(state, seat)
        if led is not None and judged and holding & SUIT_MASK[led]:
            holding &= SUIT_MASK[led]
        cards = _cards_of(holding)
    else:
        known = 0
        if state.any_explicit:
            for s in range(n):
                if state.explicit[s]:
                    known += state.hands[s]
        shown = state.shown_out
        void = {SUITS[i] for i in range(4) if shown and shown[seat * 4 + i]}
        cards = tuple(card for card in DECK
                      if ((state.played >> SHIFT[card]) & 3) + ((known >> SHIFT[card]) & 3) < decks
                      and card[-1] not in void)
    if led is None:
        return cards
    return tuple(c for c in cards if c[-1] == led) + tuple(c for c in cards if c[-1] != led)


def check_card(state: DealState, card: str) -> Optional[Problem]:
    """What would be wrong with the seat to play playing ``card`` (None: nothing).

    The problems are those ``validate`` reports for the same card in a record:
    ``duplicate-card``, ``not-in-hand``, ``revoke`` (also for a card that shows an earlier
    card of the same player was a revoke), ``trick-number`` when the deal is over.
    """
    seat = to_play(state)
    seats = SEATS[state.params[0]]
    if seat is None:
        return Problem("trick-number", f"the deal is over: all {state.params[2]} tricks are played"
                       if not state.broken and state.claim is None else "the deal is over")
    if card not in CARD:
        return Problem("bad-card", f"{card} is not a card")
    n, decks = state.params[0], state.params[1]
    shift = SHIFT[card]
    if (state.played >> shift) & 3 >= decks:
        return Problem("duplicate-card", played_out(card, decks))
    who = seats[seat]
    led = state.current[0].card[-1] if state.current else None
    if state.any_explicit and state.explicit[seat]:
        holding, judged = _holding(state, seat)
        if not (holding >> shift) & 3:
            where = "among the first five cards" if state.phase and (state.hands[seat] >> shift) & 3 else "in the hand"
            return Problem("not-in-hand", f"{who} plays {card}, which is not {where} of {who}")
        if led is not None and card[-1] != led and judged and holding & SUIT_MASK[led]:
            return Problem("revoke", f"{who} must follow suit ({SUIT_WORD[led]} led) and holds "
                           f"{_one_of(holding, led)}, but plays {card}")
        return None
    if state.any_explicit:
        for s in range(n):
            if s != seat and state.explicit[s] and (state.hands[s] >> shift) & 3 and \
                    ((state.played >> shift) & 3) + _known_count(state, shift) >= decks:
                return Problem("not-in-hand", f"{who} plays {card}, which is in {seats[s]}'s hand")
    shown = state.shown_out
    if shown is not NO_SHOWN[n] and shown[seat * 4 + SUIT_NUMBER[card[-1]]]:
        earlier, _line, _column, trick = shown[seat * 4 + SUIT_NUMBER[card[-1]]][0]
        suit = SUIT_WORD[card[-1]]
        return Problem("revoke", f"{who} played {earlier} on {suit} led in trick {trick}, so {who} had no "
                       f"{suit} then: playing {card} now would make that card a revoke")
    return None


def where_played(state: DealState, card: str) -> str:
    """Where ``card`` was played before in the deal: `` (in trick 3, line 9)``, or nothing; with
    several decks every copy: `` (in trick 1, line 14, and twice in trick 3, line 16)``."""
    places: dict[str, tuple[int, int]] = {}         # where -> (copies, line), in the order played
    for fact in state.tricks:
        for p in fact.trick.plays:
            if p.card == card:
                n, _ = places.get(f"trick {fact.number}", (0, 0))
                places[f"trick {fact.number}"] = (n + 1, p.line)
    for p in state.current:
        if p.card == card:
            n, _ = places.get("this trick", (0, 0))
            places["this trick"] = (n + 1, p.line)
    said = [("" if n == 1 else "twice " if n == 2 else f"{n} times ")
            + ("earlier in this trick" if where == "this trick" else f"in {where}") + (f", line {line}" if line else "")
            for where, (n, line) in places.items()]
    if not said:
        return ""
    return " (" + (said[0] if len(said) == 1 else ", ".join(said[:-1]) + ", and " + said[-1]) + ")"


def played_out(card: str, decks: int) -> str:
    """A card played once more than the decks hold, in words."""
    if decks == 1:
        return f"{card} has already been played in this deal"
    return f"all {decks} copies of {card} have already been played in this deal"


def never_played(state: DealState) -> tuple[str, ...]:
    """The cards of the deal's decks not played, in deck order: with several decks a card once for
    each of its copies not played."""
    decks = state.params[1]
    return tuple(card for card in DECK for _ in range(decks - ((state.played >> SHIFT[card]) & 3)))


def skip_trick(state: DealState, plays: tuple[Play, ...], written: Trick) -> DealState:
    """A written trick of the wrong size: its cards count as played (a later copy of one is a
    ``duplicate-card``, and they leave the known hands that hold them), its winner cannot be
    told, and the deal goes on from the next trick's written leader (``unsettled``)."""
    n, decks = state.params[0], state.params[1]
    played = state.played
    hands = list(state.hands) if state.any_explicit else None
    errors: list[DpnError] = []
    for play in plays:
        card = play.card
        if card not in CARD:
            continue
        shift = SHIFT[card]
        if (played >> shift) & 3 >= decks:
            errors.append(DpnError("duplicate-card", played_out(card, decks) + where_played(state, card),
                                   play.line, play.column, deal=state.number, trick=state.tricks_done + 1))
            continue
        played += 1 << shift
        if hands is not None:
            for s in range(n):
                if state.explicit[s] and (hands[s] >> shift) & 3:
                    hands[s] -= 1 << shift
                    break
    return state._replace(played=played, hands=tuple(hands) if hands is not None else state.hands,
                          tricks_done=state.tricks_done + 1, current=(), unsettled=state.unsettled or written.number,
                          errors=state.errors + tuple(errors) if errors else state.errors)


def _known_count(state: DealState, shift: int) -> int:
    return sum((h >> shift) & 3 for s, h in enumerate(state.hands) if state.explicit[s])


def _one_of(hand: int, suit: str) -> str:
    cards = [c for c in DECK if c[-1] == suit and (hand >> SHIFT[c]) & 3]
    return cards[0] if len(cards) == 1 else f"{len(cards)} {SUIT_WORD[suit]} ({' '.join(cards)})"


# ---- playing one card ------------------------------------------------------------------------

def play_card(state: DealState, play: Play, written: Optional[Trick] = None) -> tuple[DealState, tuple]:
    """Play one card (a :class:`~dehlanote.syntax.model.Play`: the card, where it was
    written, the cards withdrawn before it) and return the state after it and its events.

    The card is played whatever is wrong with it, as a record states what happened: the
    problems go into the state's ``errors`` at the play's line and column (use
    :func:`check_card` first to refuse a card). ``written`` is the trick as the record
    writes it, kept in the trick's facts when this card ends it (a trick of the cards
    played is made when it is None).
    """
    if state.over:
        return state, ()
    n, decks, _tricks_per_deal, method, _immediate = state.params
    seats = SEATS[n]
    current = state.current
    k = len(current)
    seat = (state.leader + k) % n
    expected = state.tricks_done + 1
    card = play.card
    suit = card[-1]
    led = current[0].card[-1] if k else suit
    deal_no = state.number
    errors: list[DpnError] = []
    events: list = [CardPlayed(seats[seat], card, expected, k)]
    explicit, any_explicit, in_phase = state.explicit, state.any_explicit, state.phase
    hands = list(state.hands) if any_explicit else None
    five: Any = list(state.five) if state.five is not None else None
    pending = state.pending
    shown: Any = state.shown_out
    played = state.played
    trump, trump_fact, hidden, trump_unknown = state.trump, state.trump_fact, state.hidden, state.trump_unknown

    if play.withdrawn:
        pending = _check_withdrawn(play, k, seat, led, state, hands, five, in_phase, pending, errors, expected,
                                   state.tricks_done)
    shift = SHIFT[card]
    if (played >> shift) & 3 >= decks:
        errors.append(DpnError("duplicate-card", played_out(card, decks) + where_played(state, card),
                               play.line, play.column, deal=deal_no, trick=expected))
    else:
        played += 1 << shift
        if hands is not None and explicit[seat]:
            phase_hand = in_phase and five is not None and five[seat] is not None
            holding = five[seat] if phase_hand else hands[seat]
            if not (holding >> shift) & 3:
                where = "among the first five cards" if phase_hand and (hands[seat] >> shift) & 3 else "in the hand"
                errors.append(DpnError("not-in-hand", f"{seats[seat]} plays {card}, which is not {where} "
                                       f"of {seats[seat]}", play.line, play.column, deal=deal_no, trick=expected))
            else:
                if k and suit != led and holding & SUIT_MASK[led] and (phase_hand or not in_phase):
                    errors.append(DpnError("revoke", f"{seats[seat]} must follow suit ({SUIT_WORD[led]} led) "
                                           f"and holds {_one_of(holding, led)}, but plays {card}",
                                           play.line, play.column, deal=deal_no, trick=expected))
                hands[seat] -= 1 << shift
                if phase_hand:
                    five[seat] -= 1 << shift
        elif shown is not NO_SHOWN[n]:
            # a hand that is not written: a card that did not follow suit was a revoke if the
            # same player plays the suit led later, as now
            slot = seat * 4 + SUIT_NUMBER[suit]
            if shown[slot]:
                shown = _revokes(shown, slot, seats[seat], suit, expected, errors, deal_no)
    if suit != led:   # (never the lead)
        if not in_phase and (hands is None or not explicit[seat]):
            shown = list(shown)
            shown[seat * 4 + SUIT_NUMBER[led]] += ((card, play.line, play.column, expected),)
            shown = tuple(shown)
        if trump_fact is None:
            if method.by_void and not trump_unknown:
                trump = suit
                trump_fact = TrumpFact(suit, seats[seat], expected, method.name, play=k)
                events.append(TrumpSet(suit, seats[seat], expected, "first-void"))
        elif trump is None and trump_fact.trick is None and method.secret and not method.secret_by_void \
                and seats[seat] == trump_fact.by:
            trump = hidden
            trump_fact = trump_fact._replace(trick=expected, play=k)
            events.append(TrumpRevealed(hidden, seats[seat], expected))
        elif method.secret_by_void and trump_fact.trick is None:
            if trump_fact.by is None:
                # the first player unable to follow writes trump in secret (no trump yet)
                trump_fact = trump_fact._replace(by=seats[seat], set_at=expected, set_play=k)
                events.append(TrumpSet(None, seats[seat], expected, "secret"))
            elif seats[seat] == trump_fact.by:
                # ... and reveals it the next time they cannot follow
                trump_fact = trump_fact._replace(trick=expected, play=k)
                if hidden is None:
                    trump_unknown = True
                    deal = state.deal
                    errors.append(DpnError("missing-trump", f"{seats[seat]} reveals the secret trump in "
                                           f"trick {expected}, but the record does not say which suit: "
                                           f"write it, e.g. trump S by {seats[seat]} at {expected} closed",
                                           (deal or play).line, (deal or play).column, deal=deal_no,
                                           trick=expected))
                trump = hidden
                events.append(TrumpRevealed(hidden, seats[seat], expected))

    state = state._replace(
        hands=tuple(hands) if hands is not None else state.hands,
        five=tuple(five) if five is not None else None, played=played, pending=pending, shown_out=shown,
        trump=trump, trump_fact=trump_fact, trump_unknown=trump_unknown, current=current + (play,),
        errors=state.errors + tuple(errors) if errors else state.errors)
    if k + 1 == n:
        state = _finish_trick(state, written, events)
    return state, tuple(events)


def _finish_trick(state: DealState, written: Optional[Trick], events: list) -> DealState:
    """The trick in progress is complete: its winner, the centre, the five-card phase's end."""
    n, _decks, tricks_per_deal, method, immediate = state.params
    seats = SEATS[n]
    plays = state.current
    expected = state.tricks_done + 1
    cards = [p.card for p in plays]
    trump, trump_fact = state.trump, state.trump_fact
    unknown_trump = state.trump_unknown or (trump is None and method.secret and trump_fact is not None
                                            and trump_fact.trick == expected)
    best = 0
    best_card = cards[0]
    for k in range(1, n):
        c = cards[k]
        if c[-1] == best_card[-1]:
            if STRENGTH[c] > STRENGTH[best_card]:
                best, best_card = k, c
        elif c[-1] == trump and trump is not None:
            best, best_card = k, c
        elif unknown_trump:
            return state._replace(broken=True, current=(), notes=state.notes + (
                f"deal {state.number} could not be followed from trick {expected}: its winner depends "
                "on a trump suit the record does not give",))
    if written is None:
        written = Trick(expected, 0, 0, plays)
    winner = (state.leader + best) % n
    trick_tens = tuple(c for c in cards if c in TENS)
    run = state.run + 1 if state.last_winner == winner else 1
    centre, centre_tens = state.centre, state.centre_tens
    pile_cards, pile_tens, pile_tricks = state.pile_cards, state.pile_tens, state.pile_tricks
    capture = None
    if immediate or run == 2 or expected == tricks_per_deal:
        capture, run, centre, centre_tens, pile_cards, pile_tens, pile_tricks = _take(
            immediate, n, tricks_per_deal, expected, winner, run, centre, centre_tens, trick_tens, pile_cards,
            pile_tens, pile_tricks)
    else:
        centre, centre_tens = centre + n, centre_tens + trick_tens
    fact = _new(TrickFact, (expected, seats[state.leader], ORDER[n][state.leader], seats[winner], trump, centre,
                            centre_tens, capture, run, written))
    events.append(TrickWon(expected, seats[winner], seats[state.leader], tuple(cards)))
    if capture is not None:
        events.append(CentreTaken(capture.by, capture.side, capture.cards, capture.tens, capture.reason))
        events.extend(_crossed_tens(state.tricks + (fact,), capture, n))
    state = state._replace(leader=winner, last_winner=winner, tricks_done=expected, run=run, centre=centre,
                           centre_tens=centre_tens, pile_cards=pile_cards, pile_tens=pile_tens,
                           pile_tricks=pile_tricks, tricks=state.tricks + (fact,), current=())
    if state.phase:
        state = _phase_step(state, cards, events)
    return state


def _take(immediate: bool, n: int, tricks_per_deal: int, number: int, winner: int, run: int, centre: int,
          centre_tens: tuple[str, ...], trick_tens: tuple[str, ...], pile_cards: tuple[int, int],
          pile_tens: tuple[tuple[str, ...], tuple[str, ...]], pile_tricks: tuple[int, int]):
    """Trick ``number`` (its tens ``trick_tens``), won by ``winner`` with ``run`` wins in a row,
    is taken: under immediate capture by its winner; else with the centre, by two wins in a row
    (the run starts again) or the last trick. Returns the capture, the run, the centre and the
    piles after it. Both paths call this only when a capture is due, and otherwise
    add the trick to the centre themselves (the bulk path saves the call)."""
    side = winner % 2
    if immediate:
        moved, tens, reason = n, trick_tens, "trick"
    else:
        moved, tens = centre + n, centre_tens + trick_tens
        reason = "two-in-a-row" if run == 2 else "last-trick"
        if run == 2:
            run = 0
    capture = _new(Capture, (SEATS[n][winner], SIDES[n][side], moved, tens, reason))
    if side:
        return (capture, run, 0, (), (pile_cards[0], pile_cards[1] + moved), (pile_tens[0], pile_tens[1] + tens),
                (pile_tricks[0], pile_tricks[1] + moved // n))
    return (capture, run, 0, (), (pile_cards[0] + moved, pile_cards[1]), (pile_tens[0] + tens, pile_tens[1]),
            (pile_tricks[0] + moved // n, pile_tricks[1]))


def _crossed_tens(tricks: tuple[TrickFact, ...], capture: Capture, n: int) -> list[TenChangedSides]:
    """The tens of ``capture`` (the last trick's) that were won in a trick by the other side."""
    if not capture.tens:
        return []
    sides = SIDES[n]
    seats = SEATS[n]
    events = []
    start = len(tricks) - 1
    while start > 0 and tricks[start - 1].capture is None:
        start -= 1
    for t in tricks[start:]:
        won = sides[seats.index(t.winner) % 2]
        for p in t.trick.plays:
            if p.card in TENS and won != capture.side:
                events.append(TenChangedSides(p.card, won, capture.side, t.number))
    return events


def _phase_step(state: DealState, cards: list[str], events: list) -> DealState:
    """first-void-five: after a trick of the five-card phase, the phase ends once trump is set
    or five tricks are played (then a card drawn from them sets trump)."""
    phase_cards = state.phase_cards + tuple(cards)
    if state.trump_fact is None and state.tricks_done != 5:
        return state._replace(phase_cards=phase_cards)
    state = state._replace(phase=False, phase_cards=phase_cards, notes=state.notes + _phase_notes(state))
    if state.trump_fact is None:
        trump, fact, problem = _drawn_trump(state, phase_cards)
        if fact is not None:
            events.append(TrumpSet(trump, None, 6, "drawn"))
        state = state._replace(trump=trump, trump_fact=fact, trump_unknown=trump is None,
                               errors=state.errors + ((problem,) if problem is not None else ()))
    return state


def _phase_notes(state: DealState) -> tuple[str, ...]:
    """What the five-card phase (first-void-five) could not check, said plainly.

    Following suit there is judged on the five cards held, which only a ``hands`` line with
    the ``|`` gives. For a seat without it, each card that did not follow suit is named
    (was it a revoke? unknown), and a written hand without the ``|`` cannot show that the
    cards played came from the first five.
    """
    seats = SEATS[state.rules.seats]
    five = state.five
    known = [five is not None and five[s] is not None for s in range(len(seats))]
    if all(known):
        return ()
    notes = []
    tricks = state.tricks
    last = tricks[-1].number
    span = "trick 1" if last == 1 else f"tricks 1-{last}"
    for t in tricks:
        led = t.plays[0].card[-1]
        for p in t.plays[1:]:
            if p.card[-1] != led and not known[seats.index(p.seat)]:
                notes.append(f"deal {state.number}, trick {t.number}: {p.seat} did not follow suit "
                             f"({SUIT_WORD[led]} led) in the five-card phase; whether {p.seat} held "
                             f"{SUIT_WORD[led]} among the first five cards could not be checked: it needs "
                             f"{p.seat}'s hand written with the | after the first five cards")
    unsplit = [seats[s] for s in range(len(seats)) if state.explicit[s] and not known[s]]
    if unsplit:
        who = ", ".join(unsplit)
        notes.append(f"deal {state.number}: that the cards played in the five-card phase ({span}) "
                     f"came from the first five cards dealt could not be checked for {who}: "
                     "the hands are written without the | after the first five cards")
    return tuple(notes)


def _drawn_trump(state: DealState, phase_cards: tuple[str, ...]):
    """Trump after five followed opening tricks: the card the record says was drawn.

    Returns (suit or None, TrumpFact or None, error or None).
    """
    deal = state.deal
    t = deal.trump if deal is not None else None
    if t is None or t.drawn is None:
        node: Any = t if t is not None else deal
        code = "missing-trump" if t is None else "trump-mismatch"
        return None, None, DpnError(code, "every player followed suit in the five opening tricks, so a card "
                                    "drawn from them sets trump: the record needs trump drawn CARD",
                                    node.line if node is not None else 0, node.column if node is not None else 0,
                                    deal=state.number)
    card = t.drawn.card
    fact = TrumpFact(card[-1], None, 6, state.rules.trump, drawn=card)
    if card not in phase_cards:
        return card[-1], fact, DpnError("trump-mismatch", f"the drawn card must come from the five opening "
                                        f"tricks, and {card} was not played in them", t.drawn.line,
                                        t.drawn.column, deal=state.number)
    return card[-1], fact, None


def _revokes(shown, slot: int, seat: str, suit: str, trick: int, errors: list, deal: int):
    """Report the cards ``seat`` played on ``suit`` led without following, now that it plays one."""
    for card, line, column, at in shown[slot]:
        errors.append(DpnError("revoke", f"{seat} must follow suit ({SUIT_WORD[suit]} led) but plays {card}; "
                               f"{seat} still held {SUIT_WORD[suit]} (played in trick {trick})",
                               line, column, deal=deal, trick=at))
    shown = list(shown)
    shown[slot] = ()
    return tuple(shown) if any(shown) else NO_SHOWN[len(shown) // 4]


def _check_withdrawn(play: Play, k: int, seat: int, led: str, state: DealState, hands: Optional[list[int]],
                     five: Optional[list[Optional[int]]], in_phase: bool, pending: tuple[Pending, ...],
                     errors: list[DpnError], trick_no: int, done: int) -> tuple[Pending, ...]:
    """The cards withdrawn before ``play`` (``-X``): each must be in the hand and must have
    been illegal (a revoke put right); with the hand not written, decided at the deal's end."""
    seats = SEATS[state.rules.seats]
    for w in play.withdrawn:
        card = w.card
        if state.explicit[seat] and hands is not None:
            full = hands[seat]
            if not (full >> SHIFT[card]) & 3:
                errors.append(DpnError("not-in-hand", f"{seats[seat]} withdraws {card}, which is not in "
                                       f"{seats[seat]}'s hand", w.line, w.column, deal=state.number, trick=trick_no))
                continue
            first = five[seat] if in_phase and five is not None else None
            holding = first if first is not None else full
            if not (holding >> SHIFT[card]) & 3:
                # dealt later (after the five-card phase): it could not have been put down, as a
                # card played there would not be
                errors.append(DpnError("not-in-hand", f"{seats[seat]} withdraws {card}, which is not among the "
                                       f"first five cards of {seats[seat]}", w.line, w.column,
                                       deal=state.number, trick=trick_no))
                continue
            if k == 0 or card[-1] == led or not holding & SUIT_MASK[led]:
                errors.append(DpnError("needless-correction", needless(card, k, led, seats[seat]),
                                       w.line, w.column, deal=state.number, trick=trick_no))
        elif not in_phase:
            pending += (Pending("withdrawn", seat, led if k else None, done, card,
                                w.line, w.column, trick_no),)
    return pending


def needless(card: str, k: int, led: str, seat: str) -> str:
    """Why a withdrawn card needed no correction."""
    if k == 0:
        return f"{card} was a legal lead: any card may lead, so nothing needed correcting"
    if card[-1] == led:
        return f"{card} followed suit and was legal: nothing needed correcting"
    return f"{card} was legal: {seat} had no {SUIT_WORD[led]}, so nothing needed correcting"


# ---- the bulk path -------------------------------------------------------------------------

def plain_case(state: DealState) -> bool:
    """Whether :func:`play_plain` may take the deal on from ``state``: trump announced before
    play and known, one deck, no five-card phase, no show-outs pending, no trick in progress,
    not broken."""
    params = state.params
    return state.trump is not None and not state.phase and not state.trump_unknown and params[1] == 1 \
        and params[3].open and state.shown_out is NO_SHOWN[params[0]] and not state.broken and not state.current \
        and not state.unsettled


def play_plain(state: DealState, written: tuple[Trick, ...]) -> Optional[DealState]:
    """Whole written tricks of a deal in the :func:`plain_case`: :func:`_play_plain_py`'s
    answer, made by the compiled ``_cplay`` when it is built (it answers NotImplemented for
    anything it does not follow exactly; then the Python function runs)."""
    if _cplay is not None:
        got = _cplay.play(state, written)
        if got is not NotImplemented:
            return got
    return _play_plain_py(state, written)


def _play_plain_py(state: DealState, written: tuple[Trick, ...]) -> Optional[DealState]:
    """Whole written tricks of a deal in the :func:`plain_case`, checked with the rules that
    case needs: the state after them, as card-by-card play gives it, or None at the first
    trick or card that is unusual (a trick numbered out of order, a leader, a card count, a
    card played twice or not held, a revoke, a needless correction): then nothing is kept
    and the card-by-card path, which words every error, replays the tricks. Withdrawn cards
    of hands not written are noted for the end of the deal (``Pending``) as there; no
    per-card objects are made."""
    (rules, params, deal_no, dealer, leader, done, trump, trump_fact, hidden, trump_unknown, in_phase,
     explicit, any_explicit, held, five_held, dealt, played, centre, centre_tens, last_winner, run,
     pile_cards, pile_tens, pile_tricks, phase_cards, pending, shown_out, tricks, old_errors, notes,
     broken, deal, claim, _current, unsettled) = state
    n, _decks, tricks_per_deal, _method, immediate = params
    seats = SEATS[n]
    order = ORDER[n]
    card_info = CARD
    suit_mask = SUIT_MASK
    # every hand written (their cards are checked), or none (show-outs are kept for later)
    hands: Optional[list[int]] = list(held) if any_explicit else None
    if hands is not None and not all(explicit):
        return None
    shown: Any = None
    facts: list[TrickFact] = []
    for trick in written:
        number, _line, _column, plays, written_leader, _comments = trick
        expected = done + 1
        if number != expected or expected > tricks_per_deal or len(plays) != n or \
                (written_leader is not None and written_leader.value != seats[leader]):
            return None
        trick_tens: tuple[str, ...] = ()
        led = plays[0][0][-1]
        best = k = 0
        best_suit = led
        best_strength = -1
        seat = leader
        for play in plays:
            card = play[0]
            try:
                suit, bit, strength, ten, suit_no = card_info[card]
            except KeyError:
                return None
            if played & bit:
                return None                     # played twice
            played |= bit
            if hands is not None:
                holding = hands[seat]
                if play[3]:   # cards withdrawn before this one: only a revoke put right passes
                    for w in play[3]:
                        if not k or w.card[-1] == led or not holding & suit_mask[led] \
                                or not holding & card_info[w.card][1]:
                            return None
                if not holding & bit or (suit != led and holding & suit_mask[led]):
                    return None                 # not held, or a revoke
                hands[seat] = holding - bit
            else:
                if play[3]:   # cards withdrawn before this one: decided at the end of the deal
                    for w in play[3]:
                        pending += (_new(Pending, ("withdrawn", seat, led if k else None, done, w[0], w[1],
                                                   w[2], expected)),)
                if shown is not None and shown[seat * 4 + suit_no]:
                    return None                 # a revoke: this player did not follow this suit before
                if suit != led:
                    if shown is None:
                        shown = list(shown_out)
                    shown[seat * 4 + SUIT_NUMBER[led]] += ((card, play[1], play[2], expected),)
            if suit == best_suit:
                if strength > best_strength:
                    best, best_strength = k, strength
            elif suit == trump:
                best, best_suit, best_strength = k, suit, strength
            if ten:
                trick_tens += (card,)
            k += 1
            seat += 1
            if seat == n:
                seat = 0
        winner = (leader + best) % n
        run = run + 1 if last_winner == winner else 1
        capture = None
        if immediate or run == 2 or expected == tricks_per_deal:
            capture, run, centre, centre_tens, pile_cards, pile_tens, pile_tricks = _take(
                immediate, n, tricks_per_deal, expected, winner, run, centre, centre_tens, trick_tens, pile_cards,
                pile_tens, pile_tricks)
        else:
            centre += n
            if trick_tens:
                centre_tens += trick_tens
        facts.append(_new(TrickFact, (expected, seats[leader], order[leader], seats[winner], trump, centre,
                                      centre_tens, capture, run, trick)))
        leader = last_winner = winner
        done = expected
    # the fields in DealState's order (the unpacking above): a bare tuple, as this runs once
    # a deal in bulk checking; a test checks that no field moves
    return _new(DealState, (
        rules, params, deal_no, dealer, leader, done, trump, trump_fact, hidden, trump_unknown, in_phase,
        explicit, any_explicit, held if hands is None else tuple(hands), five_held, dealt, played, centre,
        centre_tens, last_winner, run, pile_cards, pile_tens, pile_tricks, phase_cards, pending,
        shown_out if shown is None else (tuple(shown) if any(shown) else NO_SHOWN[n]),
        tricks + tuple(facts), old_errors, notes, broken, deal, claim, (), unsettled))


_cplay: Optional[ModuleType]
try:
    from . import _cplay        # play_plain compiled (built at install with a C compiler)
except ImportError:             # pragma: no cover - the Python function then
    _cplay = None
if _cplay is not None:
    # the fields it reads and writes by index, and core.py's tables
    if DealState._fields[4:6] + DealState._fields[11:14] + DealState._fields[16:28] + DealState._fields[33:] != (
            "leader", "tricks_done", "explicit", "any_explicit", "hands", "played", "centre", "centre_tens",
            "last_winner", "run", "pile_cards", "pile_tens", "pile_tricks", "phase_cards", "pending", "shown_out",
            "tricks", "current", "unsettled") or len(TrickFact._fields) != 10 or len(Pending._fields) != 8 \
            or len(Capture._fields) != 5:
        _cplay = None       # pragma: no cover
    else:
        try:
            _cplay.setup(dict(CARD_INDEX), tuple((SUITS.index(c[-1]), STRENGTH[c], c in TENS) for c in DECK),
                         (SEATS[4], SEATS[6]), (ORDER[4], ORDER[6]), (SIDES[4], SIDES[6]), tuple(SUITS),
                         (NO_SHOWN[4], NO_SHOWN[6]), ("trick", "two-in-a-row", "last-trick", "withdrawn"),
                         (TrickFact, Capture, Pending, DealState))
            if not (hasattr(_cplay, "play") and hasattr(_cplay, "hands")):
                raise AttributeError("play")
        except (AttributeError, TypeError, ValueError):
            # a build of another version (not rebuilt since): the Python play, and DealFact.hands's
            _cplay = None
            _facts._cplay = None
