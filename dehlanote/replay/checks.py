"""The checks a deal's end decides: what only the whole deal shows.

Cards withdrawn from a hand the record does not write (was the card a legal one after all,
did the player hold it?) and a trump line against what the play established (trump set by
the first void, a closed trump revealed, a drawn card).
"""

# mypy: strict-equality
from __future__ import annotations

from operator import itemgetter
from typing import Optional, cast

from ..errors import DpnError
from ..syntax.model import Word
from .core import SEATS as _SEATS, SUIT_WORD, DealState, needless
from .facts import TrumpFact, trick_numbered


def _err(code: str, message: str, node, deal: Optional[int], trick: Optional[int] = None) -> DpnError:
    return DpnError(code, message, node.line, node.column, deal=deal, trick=trick)


def _word(w: Word) -> str:
    return cast(str, w.value)


def _number(w: Word) -> int:
    return cast(int, w.value)


def resolve_pending(state: DealState, complete: bool) -> list[DpnError]:
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
            errors.append(DpnError("needless-correction", needless(card, 0 if led is None else 1,
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
            errors.append(DpnError("needless-correction", needless(card, 1, led, seats[seat]),
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


def check_set_trump(state: DealState, complete: bool) -> list[DpnError]:
    """Compare a trump line with what the play established (trump set by play or revealed).

    A claim is checked as far as the record goes: ``at N`` once trick N has been replayed,
    even in an unfinished record, where the tricks written already contradict it.
    """
    t = state.deal.trump if state.deal is not None else None
    method = state.params[3]
    if t is None or method.open:
        return []
    errors = []
    fact = state.trump_fact
    n = state.number
    reached = len(state.tricks)
    past = t.at is not None and (complete or reached >= _number(t.at))   # the record reached trick N
    span = "trick 1" if reached == 1 else f"tricks 1-{reached}"
    if method.secret:
        if method.secret_by_void and t.by is not None and fact is not None:
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
                elif method.secret_by_void:
                    why = (f"{fact.by} chose trump at trick {fact.set_at} and did not fail to follow suit again "
                           f"in {span}")
                else:
                    why = f"the setter ({fact.by}) did not fail to follow suit in {span}"
                errors.append(_err("trump-mismatch", f"{why}, so trump was not revealed at trick {t.at.value}",
                                   t.at, n))
            elif fact.trick is not None and fact.trick != t.at.value:
                first = "next" if method.secret_by_void else "first"
                errors.append(_err("trump-mismatch", f"trump was revealed at trick {fact.trick}, when {fact.by} "
                                   f"{first} could not follow suit, not at trick {t.at.value}", t.at, n))
        return errors
    # first-void and first-void-five
    if t.drawn is not None:
        if not method.five_phase:
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
    trick = None if fact.trick is None else trick_numbered(state.tricks, fact.trick)
    if trick is None:
        return "card"
    for p in trick.plays:
        if p.seat == fact.by and p.card[-1] == fact.suit:
            return p.card
    return "card"
