"""What-if: a deal played on from a point of its record, and that line saved as a new record.

The line starts from the replayed deal (:meth:`DealFact.table` before trick K, card J) and
plays other cards from there on a :class:`~dehlanote.replay.table.Table`; who chose them (a
person, the solver) does not matter here. :func:`departure` finds where a table's line leaves
the game (the first card that is not the record's); :func:`play_on` plays a line from a
point, refusing an illegal card with the core's coded problem; :func:`whatif_record` writes
the new record: one game of one deal, which ``dehlanote validate`` accepts when the line is
legal, and whose replay gives the table's facts. The exact text is specified in
docs/analysis.md ("What-if"), so that the html replay writes the same bytes.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple, Optional

from ..errors import DpnError
from ..rules.profile import Registry, registry
from ..syntax.model import Game, Tag, Tens, Word
from ..syntax.parser import parse_string
from ..syntax.writer import write_game
from .facts import DealFact, GameFacts, trick_numbered
from .game import replay_game, result_value
from .table import Table

__all__ = ["Departure", "departure", "play_on", "whatif_comment", "whatif_record", "WHATIF_TAG"]

#: the tag that marks a record as a what-if line, and says where it left which deal
WHATIF_TAG = "WhatIf"


class Departure(NamedTuple):
    """Where a line leaves the game: card ``card`` (1-based) of trick ``trick``, played by
    ``seat``; ``recorded`` is the record's card there (None: the record stops before it),
    ``chosen`` the line's."""

    trick: int
    card: int
    seat: str
    recorded: Optional[str]
    chosen: str


def _line(table: Table) -> list[tuple[int, int, str, str]]:
    """(trick, card, seat, card played) of every card on ``table`` so far."""
    out = []
    st = table.state
    seats = table.seats
    n = len(seats)
    for f in st.tricks:
        lead = seats.index(f.leader)
        out += [(f.number, k + 1, seats[(lead + k) % n], p.card) for k, p in enumerate(f.trick.plays)]
    out += [(table.trick_number, k + 1, seat, str(card)) for k, (seat, card) in enumerate(table.current)]
    return out


def _recorded(deal: DealFact) -> list[tuple[int, int, str, str]]:
    return [(t.number, k + 1, p.seat, p.card) for t in deal.tricks for k, p in enumerate(t.plays)]


def departure(deal: DealFact, table: Table) -> Optional[Departure]:
    """The first card of ``table``'s line that is not the record's (None: the line so far
    is the record's own, or a part of it)."""
    written = _recorded(deal)
    for i, (trick, card, seat, played) in enumerate(_line(table)):
        if i >= len(written):
            return Departure(trick, card, seat, None, played)
        if written[i][3] != played:
            return Departure(trick, card, seat, written[i][3], played)
    return None


def play_on(deal: DealFact, trick: int, card: int, cards: Iterable[str]) -> Table:
    """The table of ``deal`` before card ``card`` of trick ``trick``, with ``cards`` played
    from there.

    Raises:
        ValueError: the deal cannot be set up, or has no such card.
        IllegalCard: a card of ``cards`` may not be played (its ``code`` is validate's:
            ``revoke``, ``not-in-hand``, ``duplicate-card``, ``trick-number``, ``bad-card``).
    """
    table = deal.table(trick=trick, card=card)
    for c in cards:
        table.play(c)
    return table


def whatif_comment(deal_number: int, trick: int, card: int, seat: str, recorded: Optional[str], chosen: str) -> str:
    """``what-if on deal 3: left the game at trick 5, card 3: C plays KS where the game has 9S``
    (``... where the record stops`` when it has no card there)."""
    instead = f"where the game has {recorded}" if recorded is not None else "where the record stops"
    return (f"what-if on deal {deal_number}: left the game at trick {trick}, card {card}: "
            f"{seat} plays {chosen} {instead}")


def whatif_record(game: GameFacts, deal: DealFact, trick: int, card: int, recorded: Optional[str], chosen: str,
                  table: Table, *, note: str = "", reg: Optional[Registry] = None) -> str:
    """The DPN text of a new record of ``deal`` (a deal of ``game``) played as ``table``'s line,
    which leaves the game at card ``card`` of trick ``trick``, where ``chosen`` was played
    instead of the record's ``recorded`` (None: the record stops there).

    The record is one game of one deal (numbered 1, so it stands alone): the game's tags but
    ``Result`` (``Result`` is ``"*"`` unless the line finishes the match), then
    ``[WhatIf "deal N, trick K, card J"]``; the deal's dealer, the hands, the trump line as the
    line states it, every whole trick of the line (those before the point with their glyphs
    and comments), the ``tens`` line once the line finishes the deal, and on the deal line the
    comment :func:`whatif_comment` (then ``note``, then a trick in progress). The text is
    canonical (what ``dehlanote fmt`` writes). Format: docs/analysis.md, "What-if".

    Raises:
        ValueError: the line does not leave the game at that point (see :func:`departure`).
        DpnError: the record would not replay without error (its code and sentence: a card
            recorded wrongly before the point, a drawn trump the line no longer allows).
    """
    left = departure(deal, table)
    if left is None or (left.trick, left.card, left.recorded, left.chosen) != (trick, card, recorded, chosen):
        point = f"trick {trick}, card {card}: {chosen} for {recorded}"
        found = "it follows the record" if left is None else \
            f"it leaves it at trick {left.trick}, card {left.card}: {left.chosen} for {left.recorded}"
        raise ValueError(f"the line does not leave the game at {point}: {found}")
    model = table.to_game()
    comment = whatif_comment(deal.number, trick, card, left.seat, recorded, chosen)
    # the deal's own comments spoke of the game as played: the what-if's replace them
    said = (comment,) + ((note,) if note else ()) + ((table.in_progress(),) if table.current else ())
    new_deal = model.deals[0]._replace(comments=said,
                                       revokes=_revokes_before(deal, trick, card))
    tags = tuple(t for t in game.game.tags if t.name not in ("Result", WHATIF_TAG))
    where = Tag(WHATIF_TAG, f"deal {deal.number}, trick {trick}, card {card}", 0, 0)
    result = "*"
    text = write_game(Game(tags + (Tag("Result", result, 0, 0), where), (new_deal,), 0, 0))
    facts = _replayed(text, reg)
    if table.over and facts.deals and facts.deals[0].complete:
        # a finished line states its outcome: the tens line (as fmt writes it) and the Result
        # when this one deal ends a match
        fact = facts.deals[0]
        counts = tuple((Word(side, 0, 0), Word(fact.tens[side], 0, 0)) for side in table.sides)
        new_deal = new_deal._replace(tens=Tens(counts, 0, 0))
        result = result_value(facts.result)
        text = write_game(Game(tags + (Tag("Result", result, 0, 0), where), (new_deal,), 0, 0))
        facts = _replayed(text, reg)
    if facts.errors:
        first = facts.errors[0]
        raise DpnError(first.code, f"the what-if record would not be valid: {first.message}", first.line,
                       first.column, deal=first.deal, trick=first.trick)
    return text


def _revokes_before(deal: DealFact, trick: int, card: int) -> tuple:
    """The game's revoke rulings that concern a card played before the point."""
    kept = []
    for r in deal.deal.revokes:
        if r.trick < trick:
            kept.append(r)
        elif r.trick == trick and (t := trick_numbered(deal.tricks, trick)) is not None:
            if r.seat in t.order and t.order.index(r.seat) + 1 < card:
                kept.append(r)
    return tuple(kept)


def _replayed(text: str, reg: Optional[Registry]) -> GameFacts:
    games = parse_string(text)
    return replay_game(games[0], reg if reg is not None else registry())
