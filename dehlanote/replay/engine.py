"""The replayer: pure step functions over immutable states, match -> deal -> trick -> play.

``start_match`` makes a :class:`MatchState`; ``start_deal`` a :class:`DealState` from a
written deal; ``play_trick`` checks one written trick card by card and returns the next
state with the trick's facts; ``finish_deal`` scores the deal and returns the next match
state. Nothing is mutated: each step returns new values, so a stepper can keep every
state and walk back. The engine reads the profile's parameters and never its name.

Hands are kept as integers with two bits per card (a count of 0 to 3, for up to three
decks), so holding, removing and "has this suit" are single integer operations.

When the record has no ``hands`` for a seat, its hand is what it plays; whether a card
that did not follow suit was a revoke is then decided at the end of the deal (did the
player later play the suit led?), and the error still points at the revoking card.
"""

# mypy: strict-equality
from __future__ import annotations

from operator import itemgetter
from typing import Any, Iterable, Literal, NamedTuple, Optional, cast

from ..errors import DpnError
from ..rules.profile import Rules
from ..deck import CARD_INDEX, DECK, STRENGTH, SUITS, TENS, seats_for, sides_for
from ..syntax.model import Claim, Deal, Play, Trick, Word
from .facts import Capture, ClaimFact, DealFact, Kot, Streak, TrickFact, TrumpFact

SHIFT: dict[str, int] = {card: 2 * i for card, i in CARD_INDEX.items()}
SUIT_MASK: dict[str, int] = {
    s: sum(3 << (2 * CARD_INDEX[c]) for c in DECK if c[-1] == s) for s in SUITS
}
SUIT_WORD = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SEATS = {4: seats_for(4), 6: seats_for(6)}
_SIDES = {4: sides_for(4), 6: sides_for(6)}
# a written seat (a Word's value, typed object) to its index
_SEAT_INDEX: dict[int, dict[object, int]] = {
    n: {seat: i for i, seat in enumerate(seats)} for n, seats in _SEATS.items()}
_NO_SHOWN = {n: ((),) * (4 * n) for n in (4, 6)}
# the seats in playing order from each leader
_ORDER = {n: tuple(seats[i:] + seats[:i] for i in range(n)) for n, seats in _SEATS.items()}


def _shown_tuple(shown: list, n: int) -> tuple:
    """The show-outs as a tuple; the shared empty one when nothing is pending."""
    return tuple(shown) if any(shown) else _NO_SHOWN[n]


def _revokes(shown, slot: int, seat: str, suit: str, trick: int, errors: list, deal: int):
    """Report the cards ``seat`` played on ``suit`` led without following, now that it plays one."""
    for card, line, column, at in shown[slot]:
        errors.append(DpnError("revoke", f"{seat} must follow suit ({SUIT_WORD[suit]} led) but plays {card}; "
                               f"{seat} still held {SUIT_WORD[suit]} (played in trick {trick})",
                               line, column, deal=deal, trick=at))
    shown = list(shown)
    shown[slot] = ()
    return shown


def _dealt_hands(deal: Deal, explicit: tuple[bool, ...], seats: str) -> dict[str, tuple[str, ...]]:
    """The hands written in the record that were taken (``explicit``), in seat order, each in
    deck order: what ``_cards_of`` gives of the dealt hands, read from the written cards
    (a seat's first ``hands`` entry is the one taken, and a hand is taken only whole)."""
    written: dict[str, tuple[str, ...]] = {}
    for hand in deal.hands or ():
        if hand.seat not in written:
            written[hand.seat] = tuple(sorted(map(_CARD_OF, hand.cards), key=CARD_INDEX.__getitem__))
    return {seat: written[seat] for seat, taken in zip(seats, explicit) if taken}


#: a written card's name (CardRef.card)
_CARD_OF = itemgetter(0)
#: canonical card -> its bit in a hand (a count of one)
_BIT: dict[str, int] = {card: 1 << shift for card, shift in SHIFT.items()}
#: the high bit of every card's count: set when a card is counted twice
_TWOS = sum(2 << shift for shift in SHIFT.values())
SUIT_NUMBER = {s: i for i, s in enumerate(SUITS)}
# builds a NamedTuple from a tuple without the Python-level __new__ of the class: the
# trick step makes a few of these per card, in archives of millions of cards
_new = tuple.__new__


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


# the trump method as the engine plays it (closed-void: hukum's closed trump, set by the first void)
EngineTrump = Literal["announce", "partner", "first-void", "first-void-five", "closed", "closed-void"]
# what play_tricks reads of the rules, unpacked once a deal
Params = tuple[int, int, int, EngineTrump, bool]


class DealState(NamedTuple):
    rules: Rules
    params: Params                      # (seats, decks, tricks per deal, trump method, immediate capture)
    number: int
    dealer: int
    leader: int
    tricks_done: int = 0
    trump: Optional[str] = None         # the suit in force now
    trump_fact: Optional[TrumpFact] = None
    hidden: Optional[str] = None        # closed trump before its reveal
    trump_unknown: bool = False         # announced trump the record does not state
    phase: bool = False                 # first-void-five: still on the first five cards
    explicit: tuple[bool, ...] = ()
    any_explicit: bool = False
    hands: tuple[int, ...] = ()         # remaining cards of the seats whose hands are written
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
    shown_out: tuple[tuple, ...] = ()    # per seat*4+suit: cards played on that suit led, not following
    tricks: tuple[TrickFact, ...] = ()
    errors: tuple[DpnError, ...] = ()
    notes: tuple[str, ...] = ()
    broken: bool = False                # the deal cannot be followed further
    deal: Optional[Deal] = None         # the written deal
    claim: Optional[ClaimFact] = None   # ``claim X``: X's side took the rest


def _state(rules: Rules, params: Params, number: int, dealer: int, leader: int, tricks_done: int,
           trump: Optional[str], trump_fact: Optional[TrumpFact], hidden: Optional[str], trump_unknown: bool,
           phase: bool, explicit: tuple[bool, ...], any_explicit: bool, hands: tuple[int, ...],
           five: Optional[tuple[Optional[int], ...]], dealt: tuple[int, ...], played: int, centre: int,
           centre_tens: tuple[str, ...], last_winner: Optional[int], run: int, pile_cards: tuple[int, int],
           pile_tens: tuple[tuple[str, ...], tuple[str, ...]], pile_tricks: tuple[int, int],
           phase_cards: tuple[str, ...], pending: tuple[Pending, ...], shown_out: tuple[tuple, ...],
           tricks: tuple[TrickFact, ...], errors: tuple[DpnError, ...], notes: tuple[str, ...], broken: bool,
           deal: Optional[Deal], claim: Optional[ClaimFact]) -> DealState:
    """How a :class:`DealState` is built: every field, positionally (keywords cost more than
    a trick's rules in bulk checking; the parameters are checked against the fields below).
    ``play_tricks`` mirrors this order in its unpacking and rebuild."""
    return _new(DealState, (
        rules, params, number, dealer, leader, tricks_done, trump, trump_fact, hidden, trump_unknown, phase,
        explicit, any_explicit, hands, five, dealt, played, centre, centre_tens, last_winner, run, pile_cards,
        pile_tens, pile_tricks, phase_cards, pending, shown_out, tricks, errors, notes, broken, deal, claim))


assert _state.__code__.co_varnames[:_state.__code__.co_argcount] == DealState._fields


def _err(code: str, message: str, node, deal: Optional[int], trick: Optional[int] = None) -> DpnError:
    return DpnError(code, message, node.line, node.column, deal=deal, trick=trick)


# ---- match ---------------------------------------------------------------------------

def start_match(rules: Rules) -> MatchState:
    """The state before the first deal."""
    return MatchState(rules)


def _method(rules: Rules) -> EngineTrump:
    """The trump method as the engine plays it: ``closed-void`` is closed trump set in secret by
    the first player unable to follow (hukum), ``closed`` the dealer's right's secret choice."""
    return "closed-void" if rules.trump == "closed" and rules.closed_setter == "first-void" else rules.trump


def _word(w: Word) -> str:
    """A seat, side or suit the parser read (a Word's value is typed ``object``)."""
    return cast(str, w.value)


def _number(w: Word) -> int:
    return cast(int, w.value)


def _infer_dealer(deal: Deal, rules: Rules, seats: str) -> Optional[int]:
    n = rules.seats
    t = deal.trump
    if t is not None and t.by is not None and _word(t.by) in seats:
        offset = {"announce": 1, "partner": 2, "closed": 1}.get(_method(rules))
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
                held = sum(map(_BIT.__getitem__, map(_CARD_OF, refs)))
                if not held & _TWOS and not held & deck and len(refs) == rules.hand_size:
                    deck += held
                    if split is not None:
                        if split != 5:
                            errors.append(_err("hand-size", f"the | in {hand.seat}'s hand must stand after "
                                               f"the first five cards dealt, not after {split}", hand, number))
                        else:
                            five[s] = sum(map(_BIT.__getitem__, map(_CARD_OF, refs[:split])))
                            has_split[s] = True
                    explicit[s] = True
                    hands[s] = held
                    continue
                held = 0
            for i, ref in enumerate(hand.cards):
                shift = SHIFT[ref.card]
                if (deck >> shift) & 3 >= decks:
                    errors.append(_err("duplicate-card", f"{ref.card} is dealt twice: "
                                       + ("there is only one of each card" if decks == 1
                                          else f"there are only {decks} of each card"), ref, number))
                    ok = False
                    continue
                bit = 1 << shift
                deck += bit
                held += bit
                if split is not None and i < split:
                    first += bit
            if len(hand.cards) != rules.hand_size:
                errors.append(_err("hand-size", f"{hand.seat}'s hand has {len(hand.cards)} cards; "
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

    # trump
    method: EngineTrump = rules.trump if rules.trump != "closed" else _method(rules)
    t = deal.trump
    trump: Optional[str] = None
    hidden: Optional[str] = None
    trump_fact: Optional[TrumpFact] = None
    unknown = False
    if method == "closed-void":
        # the setter is whoever first cannot follow suit (found in play): the record states the
        # suit, needed only once trump is revealed; by and at are checked after the play
        if t is not None and t.drawn is not None:
            errors.append(_err("trump-mismatch", "trump is never drawn in this game: the first player "
                               "unable to follow suit chooses it in secret", t, number))
        elif t is not None and t.suit is not None:
            hidden = str(t.suit.value)
        trump_fact = TrumpFact(hidden, None, None, "closed", closed=True)
    elif method in ("announce", "partner", "closed"):
        announcer = (dealer + (2 if method == "partner" else 1)) % n
        who = "the dealer's partner" if method == "partner" else "the dealer's right"
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
            if method == "closed":
                hidden = suit
                trump_fact = TrumpFact(suit, seats[announcer], None, method, closed=True)
            else:
                if t.at is not None:
                    errors.append(_err("trump-mismatch", "trump is announced before play here, so "
                                       f"'at {t.at.value}' does not apply", t.at, number))
                if t.closed:
                    errors.append(_err("trump-mismatch", "trump is announced openly in this game, "
                                       "not closed", t, number))
                trump = suit
                trump_fact = TrumpFact(suit, seats[announcer], None, method)

    phase = method == "first-void-five"
    # the first five cards of each seat whose hand is written with the | (None: not known,
    # so following suit in the five-card phase is not judged for that seat: no guessing)
    five_t: Optional[tuple[Optional[int], ...]] = None
    notes: list[str] = []
    if phase and any(explicit[s] and has_split[s] for s in range(n)):
        five_t = tuple(five[s] if explicit[s] and has_split[s] else None for s in range(n))

    params = (n, rules.decks, rules.tricks_per_deal, method, rules.capture == "immediate")
    dealt = tuple(hands)
    state = _state(rules, params, number, dealer, (dealer + 1) % n, 0, trump, trump_fact, hidden, unknown, phase,
                   tuple(explicit), any(explicit), dealt, five_t, dealt, 0, 0, (), None, 0, (0, 0), ((), ()), (0, 0),
                   (), (), _NO_SHOWN[n], (), (), tuple(notes), False, deal, None)
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

    The state is unpacked once and rebuilt once, whatever the number of tricks: reading
    NamedTuple fields and building them cost more than the rules in bulk checking. The
    common case (no hands written, trump announced, one deck) goes through a lean loop
    first, :func:`_play_plain`, which gives up at the first thing it does not handle or the
    first error; the full loop then replays the tricks from the same state.
    """
    tricks = written if isinstance(written, tuple) else tuple(written)
    if _plain_case(state):
        fast = _play_plain(state, tricks)
        if fast is not None:
            return fast
    return _play_tricks(state, tricks)


def _plain_case(state: DealState) -> bool:
    """Whether the lean loop may take the deal on from ``state``: trump announced before play
    and known, one deck, no five-card phase, no show-outs pending, not broken."""
    params = state.params
    return state.trump is not None and not state.phase and not state.trump_unknown and params[1] == 1 \
        and (params[3] == "announce" or params[3] == "partner") and state.shown_out is _NO_SHOWN[params[0]] \
        and not state.broken


#: canonical card -> (suit, its bit in a hand or in the cards played, strength, is a ten, suit number)
_CARD = {card: (card[-1], 1 << SHIFT[card], STRENGTH[card], card in TENS, SUITS.index(card[-1])) for card in DECK}


def _play_plain(state: DealState, written: tuple[Trick, ...]) -> Optional[DealState]:
    """The tricks of a deal with trump announced before play, one deck, and every hand
    written or none, checked with the rules that case needs: the state after them, as
    :func:`_play_tricks` gives it, or None at the first trick or card that is unusual (a
    trick numbered out of order, a leader, a card count, a card played twice or not held,
    a revoke, a needless correction): then nothing is kept and the full loop, which words
    every error, replays the tricks. Withdrawn cards of hands not written are noted for the
    end of the deal as the full loop notes them (``Pending``); no per-card objects are made."""
    (rules, params, deal_no, dealer, leader, done, trump, trump_fact, hidden, trump_unknown, in_phase,
     explicit, any_explicit, held, five_held, dealt, played, centre, centre_tens, last_winner, run,
     pile_cards, pile_tens, pile_tricks, phase_cards, pending, shown_out, tricks, old_errors, notes,
     broken, deal, claim) = state
    n, _decks, tricks_per_deal, _method, immediate = params
    seats = _SEATS[n]
    order = _ORDER[n]
    sides = _SIDES[n]
    card_info = _CARD
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
        side = winner % 2
        capture = None
        run = run + 1 if last_winner == winner else 1
        if immediate:
            centre = 0
            centre_tens = ()
            moved = n
            tens = trick_tens
            capture = _new(Capture, (seats[winner], sides[side], n, tens, "trick"))
        else:
            centre += n
            if trick_tens:
                centre_tens += trick_tens
            reason = None
            if run == 2:
                reason = "two-in-a-row"
                run = 0
            elif expected == tricks_per_deal:
                reason = "last-trick"
            if reason is not None:
                tens = centre_tens
                moved = centre
                capture = _new(Capture, (seats[winner], sides[side], moved, tens, reason))
                centre = 0
                centre_tens = ()
        if capture is not None:
            if side:
                pile_cards = (pile_cards[0], pile_cards[1] + moved)
                pile_tens = (pile_tens[0], pile_tens[1] + tens)
                pile_tricks = (pile_tricks[0], pile_tricks[1] + moved // n)
            else:
                pile_cards = (pile_cards[0] + moved, pile_cards[1])
                pile_tens = (pile_tens[0] + tens, pile_tens[1])
                pile_tricks = (pile_tricks[0] + moved // n, pile_tricks[1])
        facts.append(_new(TrickFact, (expected, seats[leader], order[leader], seats[winner], trump, centre,
                                      centre_tens, capture, run, trick)))
        leader = last_winner = winner
        done = expected
    return _new(DealState, (
        rules, params, deal_no, dealer, leader, done, trump, trump_fact, hidden, trump_unknown, in_phase,
        explicit, any_explicit, held if hands is None else tuple(hands), five_held, dealt, played, centre,
        centre_tens, last_winner, run, pile_cards, pile_tens, pile_tricks, phase_cards, pending,
        shown_out if shown is None else _shown_tuple(shown, n),
        tricks + tuple(facts), old_errors, notes, broken, deal, claim))


def _play_tricks(state: DealState, written: Iterable[Trick]) -> DealState:
    """The full loop of :func:`play_tricks`: every rule, every error worded."""
    (rules, params, deal_no, dealer, leader, done, trump, trump_fact, hidden, trump_unknown, in_phase,
     explicit, any_explicit, held, five_held, dealt, played, centre, centre_tens, last_winner, run,
     pile_cards, pile_tens, pile_tricks, phase_cards, pending, shown_out, tricks, old_errors, notes,
     broken, deal, claim) = state
    if broken:
        return state
    n, decks, tricks_per_deal, method, immediate = params
    seats = _SEATS[n]
    errors: list[DpnError] = []
    # the written hands, when any: the common archive has none, and then this is skipped
    hands: Optional[list[int]] = list(held) if any_explicit else None
    # (typed Any: a seat's entry is None when its first five are not written, and the phase
    # checks below read it only when it is not)
    five: Any = list(five_held) if five_held is not None else None
    # the show-outs stay the shared tuple until the first one is added (then a list)
    shown: Any = shown_out
    any_shown = shown is not _NO_SHOWN[n] and any(shown)
    indices: dict[int, int] = {}   # a written trick's index in the deal, made at the first misnumbered one
    for trick in written:
        number, _line, _column, plays, written_leader, _comments = trick
        expected = done + 1
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
                errors.append(_err("trick-number", f"{missing} missing: the record {went} trick {number}",
                                   trick, deal_no, expected))
                notes += (f"deal {deal_no} could not be followed from trick {expected}: {missing} missing, so "
                          "who played what after it is unknown",)
                broken = True
                break
        if expected > tricks_per_deal:
            errors.append(_err("trick-number", f"a deal has only {tricks_per_deal} tricks", trick, deal_no, number))
            broken = True
            break
        if number != expected:
            errors.append(_err("trick-number", f"this is trick {expected} of the deal, not trick {number}",
                               trick, deal_no, expected))
        if written_leader is not None and written_leader.value != seats[leader]:
            why = "the dealer's right leads the first trick" if expected == 1 else "the winner of the last trick leads"
            errors.append(_err("wrong-leader", f"{seats[leader]} leads trick {expected} ({why}), "
                               f"not {written_leader.value}", written_leader, deal_no, expected))
        if len(plays) != n:
            got = "only one card" if len(plays) == 1 else f"{len(plays)} cards"
            errors.append(_err("trick-size", f"trick {expected} has {got}; each of the {n} "
                               "players plays one", trick, deal_no, expected))
            broken = True
            break
        cards = []
        trick_tens: tuple[str, ...] = ()
        led = plays[0][0][-1]
        seat = leader
        for k, play in enumerate(plays):
            card = play[0]
            cards.append(card)
            if card in TENS:
                trick_tens += (card,)
            suit = card[-1]
            if play[3]:   # cards withdrawn before this one
                pending = _check_withdrawn(play, k, seat, led, state, hands, five, in_phase, pending, errors,
                                           expected, done)
            shift = SHIFT[card]
            if (played >> shift) & 3 >= decks:
                errors.append(DpnError("duplicate-card", f"{card} has already been played in this deal",
                                       play.line, play.column, deal=deal_no, trick=expected))
            else:
                played += 1 << shift
                if hands is not None and explicit[seat]:
                    phase_hand = in_phase and five is not None and five[seat] is not None
                    holding = five[seat] if phase_hand else hands[seat]
                    if not (holding >> shift) & 3:
                        where = "among the first five cards" if phase_hand and (hands[seat] >> shift) & 3 \
                            else "in the hand"
                        errors.append(DpnError("not-in-hand", f"{seats[seat]} plays {card}, which is not {where} "
                                               f"of {seats[seat]}", play.line, play.column, deal=deal_no,
                                               trick=expected))
                    else:
                        if k and suit != led and holding & SUIT_MASK[led] and (phase_hand or not in_phase):
                            errors.append(DpnError("revoke", f"{seats[seat]} must follow suit ({SUIT_WORD[led]} led) "
                                                   f"and holds {_one_of(holding, led)}, but plays {card}",
                                                   play.line, play.column, deal=deal_no, trick=expected))
                        hands[seat] -= 1 << shift
                        if phase_hand:
                            five[seat] -= 1 << shift
                elif any_shown:
                    # a hand that is not written: a card that did not follow suit was a revoke
                    # if the same player plays the suit led later, as now
                    slot = seat * 4 + SUIT_NUMBER[suit]
                    if shown[slot]:
                        shown = _revokes(shown, slot, seats[seat], suit, expected, errors, deal_no)
            if suit != led:   # (never the lead)
                if not in_phase and (hands is None or not explicit[seat]):
                    if type(shown) is tuple:
                        shown = list(shown)
                    shown[seat * 4 + SUIT_NUMBER[led]] += ((card, play.line, play.column, expected),)
                    any_shown = True
                if trump_fact is None:
                    if method in ("first-void", "first-void-five") and not trump_unknown:
                        trump = suit
                        trump_fact = TrumpFact(suit, seats[seat], expected, method, play=k)
                elif trump is None and trump_fact.trick is None and method == "closed" \
                        and seats[seat] == trump_fact.by:
                    trump = hidden
                    trump_fact = trump_fact._replace(trick=expected, play=k)
                elif method == "closed-void" and trump_fact.trick is None:
                    if trump_fact.by is None:
                        # the first player unable to follow writes trump in secret (no trump yet)
                        trump_fact = trump_fact._replace(by=seats[seat], set_at=expected, set_play=k)
                    elif seats[seat] == trump_fact.by:
                        # ... and reveals it the next time they cannot follow
                        trump_fact = trump_fact._replace(trick=expected, play=k)
                        if hidden is None:
                            trump_unknown = True
                            errors.append(_err("missing-trump", f"{seats[seat]} reveals the secret trump in "
                                               f"trick {expected}, but the record does not say which suit: "
                                               f"write trump S by {seats[seat]} at {expected} closed",
                                               deal if deal is not None else play, deal_no, expected))
                        trump = hidden
            seat += 1
            if seat == n:
                seat = 0

        # the winner: highest trump, else highest card of the suit led; of equal cards the first
        unknown_trump = trump_unknown or (trump is None and method in ("closed", "closed-void")
                                          and trump_fact is not None and trump_fact.trick == expected)
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
                broken = True
                notes += (f"deal {deal_no} could not be followed from trick {expected}: its winner depends "
                          "on a trump suit the record does not give",)
                break
        if broken:
            break
        winner = (leader + best) % n
        side = winner % 2
        capture = None
        run = run + 1 if last_winner == winner else 1
        if immediate:
            centre = 0
            centre_tens = ()
            moved = n
            tens = trick_tens
            capture = _new(Capture, (seats[winner], _SIDES[n][side], n, tens, "trick"))
        else:
            centre += n
            if trick_tens:
                centre_tens += trick_tens
            reason = None
            if run == 2:
                reason = "two-in-a-row"
                run = 0
            elif expected == tricks_per_deal:
                reason = "last-trick"
            if reason is not None:
                tens = centre_tens
                moved = centre
                capture = _new(Capture, (seats[winner], _SIDES[n][side], moved, tens, reason))
                centre = 0
                centre_tens = ()
        if capture is not None:
            if side:
                pile_cards = (pile_cards[0], pile_cards[1] + moved)
                pile_tens = (pile_tens[0], pile_tens[1] + tens)
                pile_tricks = (pile_tricks[0], pile_tricks[1] + moved // n)
            else:
                pile_cards = (pile_cards[0] + moved, pile_cards[1])
                pile_tens = (pile_tens[0] + tens, pile_tens[1])
                pile_tricks = (pile_tricks[0] + moved // n, pile_tricks[1])
        fact = _new(TrickFact, (expected, seats[leader], _ORDER[n][leader], seats[winner], trump, centre,
                                centre_tens, capture, run, trick))
        tricks += (fact,)

        if in_phase:
            phase_cards += tuple(cards)
            if trump_fact is not None or expected == 5:
                in_phase = False
                notes += _phase_notes(state, tricks)
                if trump_fact is None:
                    trump, trump_fact, problem = _drawn_trump(state, phase_cards)
                    if problem is not None:
                        errors.append(problem)
                    trump_unknown = trump is None
        leader = last_winner = winner
        done = expected
    # the fields in the order of the unpacking above (that of _state, DealState's builder):
    # a bare tuple here, as this runs once a deal in bulk checking and a call of _state costs
    # about 4,600 instructions more (callgrind); tests check that no field moves
    return _new(DealState, (
        rules, params, deal_no, dealer, leader, done, trump, trump_fact, hidden, trump_unknown, in_phase,
        explicit, any_explicit, tuple(hands) if hands is not None else state.hands,
        tuple(five) if five is not None else None, dealt, played, centre, centre_tens, last_winner, run,
        pile_cards, pile_tens, pile_tricks, phase_cards, pending,
        shown if type(shown) is tuple else _shown_tuple(shown, n),
        tricks, old_errors + tuple(errors) if errors else old_errors, notes, broken, deal, claim))


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


def _phase_notes(state: DealState, tricks: tuple[TrickFact, ...]) -> tuple[str, ...]:
    """What the five-card phase (first-void-five) could not check, said plainly.

    Following suit there is judged on the five cards held, which only a ``hands`` line with
    the ``|`` gives. For a seat without it, each card that did not follow suit is named
    (was it a revoke? unknown), and a written hand without the ``|`` cannot show that the
    cards played came from the first five.
    """
    seats = _SEATS[state.rules.seats]
    five = state.five
    known = [five is not None and five[s] is not None for s in range(len(seats))]
    if all(known):
        return ()
    notes = []
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


def _one_of(hand: int, suit: str) -> str:
    cards = [c for c in DECK if c[-1] == suit and (hand >> SHIFT[c]) & 3]
    return cards[0] if len(cards) == 1 else f"{len(cards)} {SUIT_WORD[suit]} ({' '.join(cards)})"


def _drawn_trump(state: DealState, phase_cards: tuple[str, ...]):
    """Trump after five followed opening tricks: the card the record says was drawn.

    Returns (suit or None, TrumpFact or None, error or None).
    """
    deal = state.deal
    t = deal.trump if deal is not None else None
    if t is None or t.drawn is None:
        node = t if t is not None else deal
        code = "missing-trump" if t is None else "trump-mismatch"
        return None, None, _err(code, "every player followed suit in the five opening tricks, so a card "
                                "drawn from them sets trump: the record needs trump drawn CARD", node,
                                state.number)
    card = t.drawn.card
    fact = TrumpFact(card[-1], None, 6, state.rules.trump, drawn=card)
    if card not in phase_cards:
        return card[-1], fact, _err("trump-mismatch", f"the drawn card must come from the five opening "
                                    f"tricks, and {card} was not played in them", t.drawn, state.number)
    return card[-1], fact, None


def _check_withdrawn(play: Play, k: int, seat: int, led: str, state: DealState, hands: Optional[list[int]],
                     five: Optional[list[Optional[int]]], in_phase: bool, pending: tuple[Pending, ...],
                     errors: list[DpnError], trick_no: int, done: int) -> tuple[Pending, ...]:
    seats = seats_for(state.rules.seats)
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
                # card played there would not be (issue 10, defect 4)
                errors.append(DpnError("not-in-hand", f"{seats[seat]} withdraws {card}, which is not among the "
                                       f"first five cards of {seats[seat]}", w.line, w.column,
                                       deal=state.number, trick=trick_no))
                continue
            if k == 0 or card[-1] == led or not holding & SUIT_MASK[led]:
                errors.append(DpnError("needless-correction", _needless(card, k, led, seats[seat]),
                                       w.line, w.column, deal=state.number, trick=trick_no))
        elif not in_phase:
            pending += (Pending("withdrawn", seat, led if k else None, done, card,
                                w.line, w.column, trick_no),)
    return pending


def _needless(card: str, k: int, led: str, seat: str) -> str:
    if k == 0:
        return f"{card} was a legal lead: any card may lead, so nothing needed correcting"
    if card[-1] == led:
        return f"{card} followed suit and was legal: nothing needed correcting"
    return f"{card} was legal: {seat} had no {SUIT_WORD[led]}, so nothing needed correcting"


# ---- claims ---------------------------------------------------------------------------

def claim_deal(state: DealState, claim: Claim) -> DealState:
    """``claim X`` after the last trick played (DPN 1.1): X's side takes every trick left,
    the centre and every card still in hand, so the deal is complete without its last tricks.

    No hands are needed: the cards still in hand are those not played yet. When every hand is
    written the claim is checked double dummy (``ClaimFact.sound``; ``unsound-claim`` unless
    X's side wins every remaining trick against any defence), else ``sound`` stays None.
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
    unplayed = tuple(ten for ten in TENS for _ in range(decks - ((state.played >> SHIFT[ten]) & 3)))
    tens = state.centre_tens + unplayed
    cards = state.centre + left
    fact = ClaimFact(claim.seat, _SIDES[n][side], claim.line, claim.column, state.tricks_done + 1, cards, tens)
    if state.any_explicit and all(state.explicit):
        # every hand is known: the claim is checked double dummy (the solver loads only here)
        from ..analysis.claim import claim_state_sound, unsound_message
        sound = claim_state_sound(state, seats.index(claim.seat))
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


# ---- end of deal ---------------------------------------------------------------------

def _resolve_pending(state: DealState, complete: bool) -> list[DpnError]:
    """Decide the deferred checks of seats whose hands come from the play."""
    if not state.pending:
        return []
    seats = _SEATS[state.rules.seats]
    errors = []
    later: Optional[list[list[str]]] = None     # each seat's cards, trick by trick
    suits: Optional[list[str]] = None           # ... and their suits, as one string a seat
    for _kind, seat, led, index, card, line, column, trick in state.pending:
        # a lead, or a card of the suit led, was legal whatever the hand held
        if led is None or card[-1] == led:
            errors.append(DpnError("needless-correction", _needless(card, 0 if led is None else 1,
                                                                    led or "S", seats[seat]),
                                   line, column, deal=state.number, trick=trick))
            continue
        if later is None:
            later = _cards_by_seat(state)
        mine = later[seat]
        # a withdrawn card stays in the hand, so the player must play it later (searched
        # from the next trick on, without copying the rest of the seat's cards)
        try:
            mine.index(card, index + 1)
        except ValueError:
            if complete:
                errors.append(DpnError("not-in-hand", f"{seats[seat]} withdraws {card} but never "
                                       f"plays it: it was not in {seats[seat]}'s hand", line,
                                       column, deal=state.number, trick=trick))
            continue
        # illegal only if the player still held the suit led (the replacement or a later card;
        # the replacement, most often, is looked at first)
        if not complete or (index < len(mine) and mine[index][-1] == led):
            continue
        if suits is None:
            suits = ["".join(map(_LAST_CHAR, cards)) for cards in later]
        if suits[seat].find(led, index) < 0:
            errors.append(DpnError("needless-correction", _needless(card, 1, led, seats[seat]),
                                   line, column, deal=state.number, trick=trick))
    return errors


def _cards_by_seat(state: DealState) -> list[list[str]]:
    """Each seat's cards in the tricks replayed, in trick order (every trick replayed holds one
    card of every seat, so a seat's card of trick i is at index i)."""
    n = state.rules.seats
    index = _SEATS[n].index
    rows = []
    for fact in state.tricks:
        plays = fact.trick.plays    # turned to seat order: seat s played (s - leader) % n
        cut = n - index(fact.leader)
        rows.append(plays[cut:] + plays[:cut])
    if not rows:
        return [[] for _ in range(n)]
    return [list(map(_CARD_NAME, column)) for column in zip(*rows)]


#: a play's card (Play.card), and a card's suit (its last character)
_CARD_NAME = itemgetter(0)
_LAST_CHAR = itemgetter(-1)


def _check_set_trump(state: DealState, complete: bool) -> list[DpnError]:
    """Compare a trump line with what the play established (trump set by play or revealed).

    A claim is checked as far as the record goes: ``at N`` once trick N has been replayed,
    even in an unfinished record, where the tricks written already contradict it.
    """
    t = state.deal.trump if state.deal is not None else None
    method = state.params[3]
    if t is None or method in ("announce", "partner"):
        return []
    errors = []
    fact = state.trump_fact
    n = state.number
    reached = len(state.tricks)
    past = t.at is not None and (complete or reached >= _number(t.at))   # the record reached trick N
    span = "trick 1" if reached == 1 else f"tricks 1-{reached}"
    if method in ("closed", "closed-void"):
        if method == "closed-void" and t.by is not None and fact is not None:
            if fact.by is not None and fact.by != t.by.value:
                errors.append(_err("wrong-announcer", f"trump is chosen in secret by the first player unable to "
                                   f"follow suit: {fact.by} (trick {fact.set_at}), not {t.by.value}", t.by, n))
            elif fact.by is None and complete:
                errors.append(_err("wrong-announcer", "every player followed suit all deal, so nobody chose "
                                   f"trump (not {t.by.value})", t.by, n))
        if t.at is not None and fact is not None:
            if fact.trick is None and past:
                if fact.by is None:
                    why = f"every player followed suit in {span}"
                elif method == "closed-void":
                    why = (f"{fact.by} chose trump at trick {fact.set_at} and did not fail to follow suit again "
                           f"in {span}")
                else:
                    why = f"the setter ({fact.by}) did not fail to follow suit in {span}"
                errors.append(_err("trump-mismatch", f"{why}, so trump was not revealed at trick {t.at.value}",
                                   t.at, n))
            elif fact.trick is not None and fact.trick != t.at.value:
                first = "next" if method == "closed-void" else "first"
                errors.append(_err("trump-mismatch", f"trump was revealed at trick {fact.trick}, when {fact.by} "
                                   f"{first} could not follow suit, not at trick {t.at.value}", t.at, n))
        return errors
    # first-void and first-void-five
    if t.drawn is not None:
        if method != "first-void-five":
            errors.append(_err("trump-mismatch", "trump is never drawn in this game: the first player unable "
                               "to follow suit sets it", t, n))
        elif fact is not None and fact.drawn is None:
            errors.append(_err("trump-mismatch", f"trump was set at trick {fact.trick} by {fact.by}, who could "
                               f"not follow suit, so no card was drawn", t, n))
        return errors
    if t.closed:
        errors.append(_err("trump-mismatch", "trump is not closed in this game", t, n))
    if fact is None:
        if complete:
            errors.append(_err("trump-mismatch", "every player followed suit all deal, so no trump was set",
                               t.suit or t, n))
        elif past and t.at is not None and not state.trump_unknown:   # (a missing drawn card is told)
            errors.append(_err("trump-mismatch", f"every player followed suit in {span}, so trump was not set "
                               f"at trick {t.at.value}", t.at, n))
        return errors
    if fact.drawn is not None:
        return errors  # reported when the drawn card was needed
    if t.suit is not None and fact.suit is not None and _word(t.suit) != fact.suit:
        errors.append(_err("trump-mismatch", f"trump was set to {SUIT_WORD[fact.suit]} by {fact.by}'s "
                           f"{_void_card(state, fact)} at trick {fact.trick}, not {SUIT_WORD[_word(t.suit)]}",
                           t.suit, n))
    if t.by is not None and t.by.value != fact.by:
        errors.append(_err("wrong-announcer", f"trump was set by {fact.by}, the first player unable to follow "
                           f"suit, not {t.by.value}", t.by, n))
    if t.at is not None and t.at.value != fact.trick:
        errors.append(_err("trump-mismatch", f"trump was set at trick {fact.trick}, not at trick {t.at.value}",
                           t.at, n))
    return errors


def _void_card(state: DealState, fact: TrumpFact) -> str:
    if fact.trick is None:
        return "card"
    for p in state.tricks[fact.trick - 1].plays:
        if p.seat == fact.by and p.card[-1] == fact.suit:
            return p.card
    return "card"


def _score(rules: Rules, state: DealState, dealing: int) -> tuple[Optional[int], Optional[Kot], dict]:
    """The deal's winning side (index), its kot, and the side totals the profile counts."""
    sides = _SIDES[rules.seats]
    tens = (len(state.pile_tens[0]), len(state.pile_tens[1]))
    if rules.score == "points":
        a = 2 * tens[0] + state.pile_cards[0] - tens[0]
        b = 2 * tens[1] + state.pile_cards[1] - tens[1]
        extra = {sides[0]: a, sides[1]: b}
    elif rules.score == "tricks":
        a, b = state.pile_tricks
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
            if state.pile_tricks[s] == rules.tricks_per_deal:
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
                        () if match.finished else (f"deal {number} could not be replayed: its dealer is unknown",))
        if match.finished:
            return match._replace(deals_seen=number, dealer=None), fact
        return _unknown_outcome(match, number), fact

    errors.extend(state.errors)
    played_out = not state.broken and state.tricks_done == rules.tricks_per_deal
    complete = played_out or (not state.broken and state.claim is not None)
    if not complete and not state.broken and not (last and unfinished_ok):
        errors.append(_err("incomplete-deal", f"deal {number} stops after {state.tricks_done} trick"
                           f"{'s' if state.tricks_done != 1 else ''}; a deal has {rules.tricks_per_deal} "
                           "(only an unfinished record, Result \"*\", may stop early)", deal, number))
    # (after a claim the cards still in hand are not known: checks that need them stay open)
    if state.pending:
        errors.extend(_resolve_pending(state, played_out))
    if deal.trump is not None and state.params[3] not in ("announce", "partner"):
        errors.extend(_check_set_trump(state, played_out))

    # the written hands; DealFact.hands adds the played ones of a complete deal on demand
    hands = _dealt_hands(deal, state.explicit, seats) if state.any_explicit and dealt_hands else {}

    dealing = state.dealer % 2
    tens_count = {sides[0]: len(state.pile_tens[0]), sides[1]: len(state.pile_tens[1])}
    tens_cards = {sides[0]: state.pile_tens[0], sides[1]: state.pile_tens[1]}
    if not complete:
        # unknown is not invented: no winner, no streak, no next dealer (NOTATION 1.1)
        fact = DealFact(number, seats[state.dealer], len(deal.misdeals), hands, state.trump_fact, state.tricks,
                        tens_count if state.tricks else {}, tens_cards if state.tricks else {}, {}, None, None,
                        None, None, False, deal, state.notes)
        if last and unfinished_ok and not state.broken:
            # an unfinished record: the match simply was not over when the record stops
            return match._replace(deals_seen=number, dealer=None, prev_known=False), fact
        return _unknown_outcome(match, number), fact

    if deal.tens is not None:
        claimed: dict[object, object] = {}
        for side_w, count_w in deal.tens.counts:
            if side_w.value not in sides or side_w.value in claimed:
                errors.append(_err("tens-mismatch", f"the tens line must name each side once: {sides[0]} "
                                   f"and {sides[1]}", side_w, number))
                break
            claimed[side_w.value] = count_w.value
        else:
            if claimed != tens_count:
                errors.append(_err("tens-mismatch", f"the tens split is {sides[0]} {tens_count[sides[0]]} "
                                   f"{sides[1]} {tens_count[sides[1]]}, not " + " ".join(
                                       f"{k} {v}" for k, v in claimed.items()), deal.tens, number))

    winner, kot, extra = _score(rules, state, dealing)
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
    streak = Streak(sides[streak_side], streak_len) if streak_side is not None else None

    # the next dealer
    right = (state.dealer + 1) % n
    if finished:
        next_dealer = None
        reason = ""
    elif kot is not None and kot.reason != "streak" and rules.dealer_after_all_tens == "partner":
        what = "tricks" if kot.reason == "all-tricks" else "tens"
        if winner == dealing:
            next_dealer, reason = right, (f" (the dealing side took all the {what} in deal {number}, so the "
                                          "deal passes right)")
        else:
            next_dealer = (state.dealer + 2) % n
            reason = f" (the other side took all the {what} in deal {number}, so the dealer's partner deals)"
    elif winner is None and rules.level_dealer == "previous" and not match.prev_known:
        next_dealer = None
        reason = ""
    elif winner is None:
        dealer_lost = match.prev_winner is not None and match.prev_winner != dealing
        if rules.level_dealer == "same" or (rules.level_dealer == "previous" and dealer_lost):
            next_dealer, reason = state.dealer, (f" (deal {number} was level and the dealing side lost the deal "
                                                 "before, so the same dealer deals again)")
        else:
            next_dealer, reason = right, f" (deal {number} was level, so the deal passes right)"
    elif winner == dealing:
        next_dealer, reason = right, f" (the dealing side won deal {number}, so the deal passes right)"
    else:
        next_dealer, reason = state.dealer, f" (the non-dealing side won deal {number}, so the same dealer deals again)"

    if kot is not None and rules.streak_reset_after_kot and not finished:
        streak_side, streak_len, exact = None, 0, True
    fact = DealFact(number, seats[state.dealer], len(deal.misdeals), hands, state.trump_fact, state.tricks,
                    tens_count, tens_cards, extra, sides[winner] if winner is not None else None, kot, streak,
                    seats[next_dealer] if next_dealer is not None else None, True, deal, state.notes, finished,
                    state.claim)
    new = match._replace(
        deals_seen=number, dealer=next_dealer, dealer_reason=reason, streak_side=streak_side,
        streak_len=streak_len, kots=(kots[0], kots[1]), points=(points[0], points[1]), finished=finished,
        winner=match_winner, prev_winner=winner, ended_at=number if finished else match.ended_at,
        prev_known=True, run_exact=exact,
    )
    return new, fact


def _unknown_outcome(match: MatchState, number: int) -> MatchState:
    """The match after a deal whose outcome cannot be known (NOTATION 1.1, unknown is not
    invented): no next dealer (the next deal's written dealer is taken as given), no
    previous winner to look back at, runs counted afresh from the next known deal."""
    return match._replace(deals_seen=number, dealer=None, dealer_reason="", known=False, prev_winner=None,
                          prev_known=False, streak_side=None, streak_len=0, run_exact=False)


def replay_deal(match: MatchState, deal: Deal, *, last: bool = True, unfinished_ok: bool = False,
                dealt_hands: bool = True) -> tuple[MatchState, DealFact, list[DpnError]]:
    """Replay one written deal from a match state: the next state, the facts, the errors
    (``dealt_hands``: see :func:`finish_deal`)."""
    errors: list[DpnError] = []
    state, start_errors = start_deal(match, deal)
    errors.extend(start_errors)
    if state is not None:
        state = play_tricks(state, deal.tricks)
        if deal.claim is not None:
            state = claim_deal(state, deal.claim)
    match, fact = finish_deal(match, state, deal, last=last, unfinished_ok=unfinished_ok, errors=errors,
                              dealt_hands=dealt_hands)
    return match, fact, errors
