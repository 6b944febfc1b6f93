"""The sentences a player reads when the table refuses something, one for each code.

The code is the one ``validate`` reports (``revoke``, ``not-in-hand`` ...) or one of the
server's own (``unconfirmed-trick``, ``too-long`` ...); the page shows the sentence in the
reader's language, with the code and the record's own message beside it.
"""

from __future__ import annotations

from typing import Callable

from ..i18n import N_

__all__ = ["REFUSALS", "refusal_sentence"]

REFUSALS: dict[str, str] = {
    "revoke": N_("That seat still holds a card of the suit led, so it must play one."),
    "not-in-hand": N_("That card is not in this player's hand."),
    "duplicate-card": N_("That card has already been played or is in another hand."),
    "bad-card": N_("That is not a card of the deck."),
    "hand-size": N_("A hand must have the right number of cards."),
    "missing-trump": N_("Trump has not been named yet: name it first."),
    "wrong-leader": N_("It is another player's turn to lead."),
    "wrong-dealer": N_("That is not the dealer the rules give."),
    "wrong-announcer": N_("That player does not name trump under these rules."),
    "trump-mismatch": N_("That does not agree with how trump was set."),
    "tens-mismatch": N_("The tens counted do not match the tricks played: count them again."),
    "trick-size": N_("A trick has one card from every player."),
    "trick-number": N_("That trick number is out of order."),
    "incomplete-deal": N_("The deal is not finished yet."),
    "unsound-claim": N_("The claim does not hold: the other side can still win a trick."),
    "after-match": N_("The match is already over."),
    "needless-correction": N_("There is nothing to correct there."),
    "deal-number": N_("That deal number is out of order."),
    "first-void": N_("Trump is set by the first player who cannot follow suit."),
    "first-void-five": N_("Trump is set from the first five cards."),
    "unknown-rules": N_("These rules are not known: choose a profile from the list."),
    "bad-tag": N_("That tag is not written as the record needs it."),
    "result-mismatch": N_("That result does not agree with the deals played."),
    "encoding": N_("That text could not be read: type it again."),
    "syntax": N_("That could not be read as an element of the record."),
    "refused": N_("That cannot be entered at this point of the game."),
    "unconfirmed-trick": N_("The last trick waits for the other side to confirm it on their phone."),
    "nothing-to-confirm": N_("No trick waits for a confirmation."),
    "same-phone": N_("The trick must be confirmed from the other side's phone."),
    "too-long": N_("That is too long for the record."),
    "too-large": N_("That request is too large."),
    "record-full": N_("This record is full: start a new match."),
    "too-many-tables": N_("The folder already has as many tables as a night may have."),
    "cannot-save": N_("The record could not be saved: tell the organiser."),
    "busy": N_("Another recorder holds this record."),
    "own-tag": N_("The table's own settings are chosen when the table is made."),
    "no-table": N_("There is no such table."),
    "bad-request": N_("The page sent something the table does not understand: reload it."),
    "no-key": N_("This page needs the whole address with its key."),
    "stale": N_("The table has changed on another phone: look again, then tap."),
    "record-changed": N_("The record was changed on the organiser's computer: look again, then tap."),
    "record-unreadable": N_("The record was changed on the organiser's computer and cannot be read now: "
                            "tell the organiser."),
    "trump-secret": N_("The record holds the closed trump's secret suit: it is shown once the trump is "
                        "revealed or the deal is over."),
    "not-found": N_("There is nothing at this address."),
    "method": N_("This address only shows a page; it takes no change."),
    "not-json": N_("The page sent something the table does not understand: reload it."),
    "wrong-host": N_("This server answers only at its own address."),
    "too-slow": N_("The connection is too slow: try again."),
}


def refusal_sentence(code: str, _: Callable[[str], str]) -> str:
    """The player's sentence for ``code`` in the reader's language."""
    return _(REFUSALS.get(code, REFUSALS["refused"]))
