"""What the recorder shows after each element: a few lines, not a full screen.

The scorer types line after line and wants the scroll-back intact, so the table is printed
below the last line rather than redrawn over the terminal: the deal and trump, the known
hands, the trick so far (whose turn next), the centre, each side's pile and tens, the run,
and the score of the match. It is drawn from the replay's own table (the stepper's
:func:`~dehlanote.output.stepper.snapshots`) with the shared card renderers.
"""

from __future__ import annotations

from typing import Optional

from rich.console import Group, RenderableType
from rich.text import Text

from ..deck import SUIT_NAMES, SUITS, SUIT_SYMBOLS, seats_for, side_of, sides_for
from ..output.render import card_text, cards_text
from .session import Session

__all__ = ["table_view"]


def _hand(cards: tuple[str, ...], unknown: int, symbols: bool) -> Text:
    out = Text()
    for suit in SUITS:
        ranks = [c[:-1] for c in cards if c[-1] == suit]
        if not ranks:
            continue
        if out:
            out.append("  ")
        out.append((SUIT_SYMBOLS[suit] if symbols else suit) + " ", style="red" if suit in "HD" else "bold")
        out.append(" ".join(ranks))
    if unknown:
        if out:
            out.append("  ")
        out.append(f"{unknown} card{'s' if unknown != 1 else ''}", style="dim")
    return out


def table_view(session: Session, *, symbols: bool = True) -> RenderableType:
    """The table now: deal, trump, hands, the trick so far, centre and piles, the score."""
    rules = session.rules
    n = rules.seats
    seats = seats_for(n)[:n]
    sides = sides_for(n)
    names = session.names
    snap = session.snapshot()
    lines: list[Text] = []
    expect = session.expect()
    if snap is not None:
        deal = snap.deal
        head = Text(f"Deal {deal.number}", style="bold")
        head.append(f" · dealer {deal.dealer}")
        head.append(" · trump ")
        if snap.trump is not None:
            head.append(SUIT_SYMBOLS[snap.trump] + " " if symbols else "", style="red" if snap.trump in "HD" else "")
            head.append(SUIT_NAMES[snap.trump], style="red" if snap.trump in "HD" else "")
            tf = deal.trump
            if tf is not None and tf.by:
                head.append(f" (by {tf.by})", style="dim")
        elif deal.trump is not None and deal.trump.closed:
            head.append(f"closed, chosen by {deal.trump.by}", style="dim")
        else:
            head.append("not set yet", style="dim")
        lines.append(head)
        if any(snap.hands.get(s) for s in seats):
            for s in seats:
                row = Text(f"  {s} ", style="bold")
                if names.get(s):
                    row.append(f"{names[s]} ", style="dim")
                row.append_text(_hand(snap.hands.get(s, ()), snap.unknown.get(s, 0), symbols))
                lines.append(row)
        trick = Text()
        under = session.trick_under_way()
        if under is not None:
            trick.append(f"Trick {under[0]}: ", style="bold")
            for i, (seat, card) in enumerate(under[1]):
                if i:
                    trick.append("  ")
                trick.append(f"{seat} ", style="dim")
                trick.append_text(card_text(card, symbols, style="bold"))
            lines.append(trick)
        elif snap.trick is not None:
            t = snap.trick
            trick.append(f"Trick {t.number}: ", style="bold")
            for i, p in enumerate(snap.shown):
                if i:
                    trick.append("  ")
                trick.append(f"{p.seat} ", style="dim")
                won = snap.complete and p.seat == t.winner
                trick.append_text(card_text(p.card, symbols, style="bold reverse" if won else "bold"))
            if snap.complete:
                trick.append(f"  {t.winner} wins", style="bold")
                if snap.capture is not None:
                    trick.append(f"; {snap.capture.by} takes {snap.capture.cards} cards", style="")
                    if snap.capture.tens:
                        trick.append(" with ")
                        trick.append_text(cards_text(snap.capture.tens, symbols))
            lines.append(trick)
        table = Text()
        if rules.capture == "centre":
            table.append("Centre ", style="bold")
            table.append(f"{snap.centre_cards} cards")
            if snap.centre_tens:
                table.append(" (")
                table.append_text(cards_text(snap.centre_tens, symbols))
                table.append(")")
            table.append(" · ")
        for i, side in enumerate(sides):
            if i:
                table.append(" · ")
            table.append(f"{side} ", style="bold")
            table.append(f"{snap.piles.get(side, 0)} cards, tens ")
            tens = snap.pile_tens.get(side, ())
            if tens:
                table.append_text(cards_text(tens, symbols))
            else:
                table.append("—")
        if rules.capture == "centre" and snap.run is not None and snap.run[1]:
            table.append(f" · run {snap.run[0]} {snap.run[1]}")
        lines.append(table)
    score = Text(session.score_words(), style="cyan")
    lines.append(score)
    turn = _turn(expect.seat, names, n)
    if turn is not None:
        lines.append(turn)
    return Group(*lines)


def _turn(seat: Optional[str], names: dict[str, str], n: int) -> Optional[Text]:
    if seat is None:
        return None
    out = Text("◀ ", style="bold yellow")
    out.append(seat, style="bold yellow")
    if names.get(seat):
        out.append(f" {names[seat]}", style="yellow")
    out.append(f" ({side_of(seat, n)})", style="dim")
    return out
