"""Rich rendering for the command line: errors with carets, deal tables, rule profiles, and
the stepper's screen. Every function returns a renderable or text and prints nothing, so
tests can render into a fixed-width ``Console(file=StringIO())``.

Text that comes from a record (names, comments, messages) is always passed as plain
``Text``, never as markup: DPN tags use ``[...]``, which rich would read as markup.
"""

from __future__ import annotations

from typing import Iterable, Optional

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..errors import DpnError
from ..replay.facts import DealFact, GameFacts, PlayFact
from ..rules.profile import Option, Registry, Rules, param_names
from ..syntax.cards import SUIT_SYMBOLS, SUITS, seats_for, side_of, sides_for
from .annotate import (
    Snapshot, capture_text, deal_heading, deal_result_text, seat_layout, ten_stories, trick_notes, trump_text,
)

RED_SUITS = "HD"
SUIT_LETTERS = {s: s for s in SUITS}

#: the keys of the stepper, as the help screen lists them
KEYS = (
    ("→  n", "next card"),
    ("←  p", "previous card"),
    ("↓  N", "next trick"),
    ("↑  P", "previous trick"),
    ("]  [", "next / previous deal"),
    ("t 7 ⏎", "jump to the end of trick 7"),
    ("g  G", "start / end of the deal"),
    ("?", "this help"),
    ("q  Ctrl-C", "quit"),
)


# ---- cards ---------------------------------------------------------------------------------

def card_text(card: str, symbols: bool = True, *, style: str = "") -> Text:
    """A card, red for hearts and diamonds, with a suit symbol when the terminal can show it."""
    suit = card[-1]
    shown = card[:-1] + (SUIT_SYMBOLS[suit] if symbols else suit)
    colour = "red" if suit in RED_SUITS else ""
    return Text(shown, style=" ".join(s for s in (colour, style) if s))


def suit_text(suit: Optional[str], symbols: bool = True) -> Text:
    if suit is None:
        return Text("none")
    shown = f"{SUIT_SYMBOLS[suit]} " if symbols else ""
    from ..syntax.cards import SUIT_NAMES
    return Text(shown + SUIT_NAMES[suit], style="red" if suit in RED_SUITS else "")


def cards_text(cards: Iterable[str], symbols: bool = True, sep: str = " ") -> Text:
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(card, symbols))
    return out


def hand_lines(cards: Iterable[str], symbols: bool = True, unknown: int = 0) -> Text:
    """A hand grouped by suit, one line per suit (S H D C), ranks high to low."""
    by_suit: dict[str, list[str]] = {s: [] for s in SUITS}
    for card in cards:
        by_suit[card[-1]].append(card[:-1])
    out = Text()
    first = True
    for suit in SUITS:
        if not first:
            out.append("\n")
        first = False
        label = SUIT_SYMBOLS[suit] if symbols else suit
        out.append(label, style="red" if suit in RED_SUITS else "bold")
        out.append(" " + (" ".join(by_suit[suit]) if by_suit[suit] else "—"))
    if unknown:
        out.append(f"\n+ {unknown} not in the record", style="dim")
    return out


# ---- errors ----------------------------------------------------------------------------------

def error_text(err: DpnError, path: str) -> Text:
    """``path:line:col: code: message`` then the source line and a caret (when known)."""
    out = Text()
    out.append(f"{path}:{err.line}:{err.column}:", style="bold")
    out.append(" ")
    out.append(f"{err.code}:", style="bold red")
    out.append(" " + err.message)
    caret = err.caret()
    if caret:
        text, _, mark = caret.partition("\n")
        out.append("\n    " + text.replace("\t", "    "))
        out.append("\n    " + mark.replace("\t", "    "), style="bold green")
    return out


# ---- annotate ----------------------------------------------------------------------------------

def _trick_cards(plays: tuple[PlayFact, ...], winner: str, symbols: bool, marks: set[str]) -> Text:
    out = Text()
    for i, p in enumerate(plays):
        if i:
            out.append(" ")
        win = p.seat == winner
        style = "bold underline" if win else ""
        if p.card in marks:
            style += " reverse"
        out.append_text(card_text(p.card, symbols, style=style.strip()))
        if win:
            out.append("*", style="bold")
    return out


def deal_table(deal: DealFact, rules: Rules, facts: Optional[GameFacts] = None, *,
               symbols: bool = True) -> RenderableType:
    """One deal trick by trick: leader, cards (winner's marked *), winner, centre, capture, tens."""
    sides = sides_for(rules.seats)
    centre_rule = rules.capture == "centre"
    notes = trick_notes(deal, rules)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    table.add_column("#", justify="right")
    table.add_column("lead")
    table.add_column("cards (winner *)", no_wrap=True)
    table.add_column("won")
    if centre_rule:
        table.add_column("centre", justify="right")
    table.add_column("capture" if centre_rule else "taken")
    table.add_column(f"tens {sides[0]}", justify="right")
    table.add_column(f"tens {sides[1]}", justify="right")
    table.add_column("note")
    for note in notes:
        t = note.fact
        marks = {s.card for s in note.lost}
        row: list[RenderableType] = [str(t.number), t.leader, _trick_cards(t.plays, t.winner, symbols, marks),
                                     t.winner]
        if centre_rule:
            centre = Text(str(t.centre_cards))
            if t.centre_tens:
                centre.append(" (")
                centre.append_text(cards_text(t.centre_tens, symbols))
                centre.append(")")
            row.append(centre)
        cap = Text()
        if t.capture is not None:
            c = t.capture
            if c.reason == "trick":
                cap.append(f"{c.by} → {c.side}")
            else:
                word = "last trick" if c.reason == "last-trick" else "sweep"
                cap.append(f"{c.by} {word} {c.cards} → {c.side}")
            if c.tens:
                cap.append(" ")
                crossed = {s.card for s in note.crossed}
                for i, ten in enumerate(c.tens):
                    if i:
                        cap.append(" ")
                    cap.append_text(card_text(ten, symbols, style="bold reverse" if ten in crossed else "bold"))
        row.append(cap)
        row += [str(note.tens_after.get(sides[0], 0)), str(note.tens_after.get(sides[1], 0))]
        remarks = []
        if note.trump_event:
            remarks.append(note.trump_event)
        for s in note.crossed:
            remarks.append(f"{s.card} swept from {s.won_side} (won by {s.won_by} in trick {s.trick})")
        for s in note.lost:
            if s.taken_at != t.number:
                remarks.append(f"{s.card} won here, swept by {s.taken_side} at trick {s.taken_at}")
        row.append(Text("; ".join(remarks), style="yellow" if remarks else ""))
        table.add_row(*row)
    heading = Text(deal_heading(deal), style="bold")
    result = deal_result_text(deal, rules, facts)
    lines = [heading, Padding(table, (0, 0, 0, 2))]
    footer = Text("  ")
    footer.append(result[0], style="bold")
    for extra in result[1:]:
        footer.append(" · " + extra)
    lines.append(footer)
    crossed = [s for s in ten_stories(deal, rules.seats) if s.crossed]
    if crossed:
        text = Text("  tens that changed sides: ", style="yellow")
        text.append("; ".join(f"{s.card} won by {s.won_by} ({s.won_side}) in trick {s.trick}, swept by "
                              f"{s.taken_by} to {s.taken_side} in trick {s.taken_at}" for s in crossed))
        lines.append(text)
    elif centre_rule and deal.complete:
        lines.append(Text("  every ten ended with the side that won its trick", style="dim"))
    return Group(*lines)


def game_heading(facts: GameFacts, index: int) -> Text:
    game = facts.game
    title = game.tag("Event") or f"Game {index}"
    out = Text(f"Game {index}: ", style="bold")
    out.append(title, style="bold")
    rules = facts.rules
    if rules is not None:
        out.append(f" · rules {rules.label()}")
    players = [f"{s} {game.tag(s)}" for s in seats_for(rules.seats if rules else 4) if game.tag(s)]
    if players:
        out.append(" · " + ", ".join(players))
    return out


def game_result_text(facts: GameFacts) -> Text:
    r = facts.result
    if r is None:
        return Text("not replayed", style="red")
    kots = ", ".join(f"{side} {n}" for side, n in r.kots.items())
    if r.finished:
        text = f"{r.winner} wins the match" if r.winner else "the session ends level"
    else:
        text = "the match is not finished"
    return Text(f"Result: {text} (kots {kots})", style="bold")


# ---- rules -----------------------------------------------------------------------------------

def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    for end in (". ", "; "):
        i = text.find(end)
        if 0 < i < 110:
            return text[: i + 1].rstrip(";") if end == ". " else text[:i]
    return text if len(text) <= 110 else text[:107] + "…"


def rules_listing(reg: Registry) -> RenderableType:
    """Every profile and option with a one-line description."""
    profiles = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    profiles.add_column("profile", style="bold", no_wrap=True)
    profiles.add_column("what it is")
    for name, rules in reg.profiles.items():
        profiles.add_row(name, Text(first_sentence(rules.description)))
    options = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    options.add_column("option", style="bold", no_wrap=True)
    options.add_column("what it does")
    for name, opt in reg.options.items():
        options.add_row(_option_usage(opt), Text(first_sentence(opt.description)))
    hint = Text('Use them in a record\'s Rules tag: [Rules "pagat kots=3 trump=first-void-five"]. '
                "`dehlanote rules NAME` shows one profile.", style="dim")
    return Group(Text("Rule profiles", style="bold underline"), profiles, Text(""),
                 Text("Options", style="bold underline"), options, Text(""), hint)


def _option_usage(opt: Option) -> str:
    if opt.param is None:
        return opt.name
    if opt.choices:
        return f"{opt.name}={'|'.join(str(c) for c in opt.choices)}"
    return f"{opt.name}=N"


def profile_view(rules: Rules, label: str) -> RenderableType:
    """A profile's description, source, parameters and decisions."""
    params = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    params.add_column("parameter", style="bold")
    params.add_column("value")
    for name in param_names():
        params.add_row(name, str(getattr(rules, name)))
    parts: list[RenderableType] = [Text(label, style="bold underline")]
    if rules.description:
        parts.append(Text(rules.description))
    if rules.source:
        parts.append(Text("Source: ", style="bold").append(Text(rules.source)))
    if rules.options:
        parts.append(Text("Options applied: ", style="bold").append(
            ", ".join(k if v is True else f"{k}={v}" for k, v in rules.options)))
    parts += [Text(""), Text("Parameters", style="bold"), params]
    if rules.decisions:
        parts.append(Text("Decisions", style="bold"))
        for d in rules.decisions:
            parts.append(Text("  • " + d))
    return Group(*parts)


# ---- the stepper -------------------------------------------------------------------------------

def _seat_title(seat: str, snap: Snapshot, names: dict[str, str], n: int) -> Text:
    out = Text(seat, style="bold")
    name = names.get(seat)
    if name:
        out.append(f" {name}")
    out.append(f" ({side_of(seat, n)})", style="dim")
    if snap.deal.dealer == seat:
        out.append(" dealer", style="cyan")
    t = snap.trick
    if t is not None and not snap.complete and snap.shown and len(snap.shown) < len(t.plays):
        if t.plays[len(snap.shown)].seat == seat:
            out.append(" ◀ to play" if True else "", style="bold yellow")
    return out


def _seat_box(seat: str, snap: Snapshot, names: dict[str, str], n: int, symbols: bool) -> RenderableType:
    body = Text()
    body.append_text(_seat_title(seat, snap, names, n))
    body.append("\n")
    body.append_text(hand_lines(snap.hands.get(seat, ()), symbols, snap.unknown.get(seat, 0)
                                if snap.played == 0 else _unknown_left(snap, seat)))
    return body


def _unknown_left(snap: Snapshot, seat: str) -> int:
    return snap.unknown.get(seat, 0)


def _trick_box(snap: Snapshot, n: int, symbols: bool) -> RenderableType:
    """The trick on the table: each seat's card on its side, the winner's highlighted."""
    layout = seat_layout(n)
    t = snap.trick
    cards: dict[str, Text] = {}
    for p in snap.shown:
        style = "bold reverse" if snap.complete and t is not None and p.seat == t.winner else "bold"
        text = Text(f"{p.seat} ", style="dim")
        text.append_text(card_text(p.card, symbols, style=style))
        cards[p.seat] = text
    where = {pos: seat for seat, pos in layout.items()}

    def at(pos: str) -> Text:
        seat = where.get(pos)
        return cards.get(seat, Text("")) if seat else Text("")

    grid = Table.grid(padding=(0, 2))
    for _ in range(3):
        grid.add_column(justify="center", min_width=6)
    if n == 6:
        grid.add_row(at("NW"), at("N"), at("NE"))
        grid.add_row(at("SW"), at("S"), at("SE"))
    else:
        grid.add_row(Text(""), at("N"), Text(""))
        grid.add_row(at("W"), Text(""), at("E"))
        grid.add_row(Text(""), at("S"), Text(""))
    if t is None:
        title = "no card played yet"
    else:
        title = f"trick {t.number} · {t.leader} leads"
    caption = Text()
    if t is not None and snap.complete:
        caption.append(f"{t.winner} wins", style="bold")
        if snap.capture is not None:
            caption.append(" · " + capture_text(snap.capture))
    if snap.event:
        if caption:
            caption.append("\n")
        caption.append(snap.event, style="bold magenta")
    return Panel(Group(grid, caption) if caption else grid, title=title, box=box.ROUNDED, padding=(0, 1),
                 width=46)


def _info(snap: Snapshot, rules: Rules, symbols: bool) -> RenderableType:
    sides = sides_for(rules.seats)
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    trump = Text()
    if snap.trump is not None:
        trump.append_text(suit_text(snap.trump, symbols))
    elif snap.deal.trump is not None and snap.deal.trump.suit is not None and (
            snap.deal.trump.closed or snap.deal.trump.method == "closed"):
        trump.append("closed: chosen in secret, not revealed yet")
    elif rules.trump in ("first-void", "first-void-five"):
        trump.append("none yet: the first player unable to follow sets it")
    else:
        trump.append("none")
    tf = snap.deal.trump
    if snap.trump is not None and tf is not None:
        trump.append(Text(f"  ({trump_text(tf)})", style="dim"))
    table.add_row("Trump", trump)
    table.add_row("Dealer", Text(str(snap.deal.dealer or "?")))
    if rules.capture == "centre":
        centre = Text(f"{snap.centre_cards} card{'s' if snap.centre_cards != 1 else ''}")
        if snap.centre_tens:
            centre.append(", tens ")
            centre.append_text(cards_text(snap.centre_tens, symbols))
        table.add_row("Centre", centre)
    else:
        table.add_row("Centre", Text("none: each trick goes straight to its winner (immediate capture)"))
    for side in sides:
        pile = Text(f"{snap.piles.get(side, 0)} cards")
        tens = snap.pile_tens.get(side, ())
        pile.append(f", {len(tens)} ten{'s' if len(tens) != 1 else ''}")
        if tens:
            pile.append(" ")
            pile.append_text(cards_text(tens, symbols))
        table.add_row(f"{side} pile", pile)
    if rules.capture == "centre":
        if snap.run is None:
            run = Text("—")
        elif snap.run[1] == 0:
            run = Text(f"{snap.run[0]} just swept: the count starts again")
        else:
            run = Text(f"{snap.run[0]} has won {snap.run[1]} in a row"
                       + (" (one more sweeps the centre)" if snap.run[1] == 1 else ""))
        table.add_row("Run", run)
    return table


def stepper_screen(snap: Snapshot, rules: Rules, *, names: dict[str, str], where: str,
                   symbols: bool = True, help_shown: bool = False, prompt: Optional[str] = None,
                   message: Optional[str] = None) -> RenderableType:
    """The stepper's whole screen for one snapshot."""
    n = rules.seats
    layout = seat_layout(n)
    by_pos = {pos: seat for seat, pos in layout.items()}

    def seat(pos: str) -> RenderableType:
        s = by_pos.get(pos)
        return _seat_box(s, snap, names, n, symbols) if s else Text("")

    table = Table.grid(padding=(0, 3))
    table.add_column(vertical="middle")
    table.add_column(vertical="middle")
    table.add_column(vertical="middle")
    if n == 6:
        table.add_row(seat("NW"), seat("N"), seat("NE"))
        table.add_row(Text(""), _trick_box(snap, n, symbols), Text(""))
        table.add_row(seat("SW"), seat("S"), seat("SE"))
    else:
        table.add_row(Text(""), seat("N"), Text(""))
        table.add_row(seat("W"), _trick_box(snap, n, symbols), seat("E"))
        table.add_row(Text(""), seat("S"), Text(""))
    head = Text(where, style="bold")
    parts: list[RenderableType] = [head, table]
    if help_shown:
        keys = Table(box=box.SIMPLE, show_edge=False, title="Keys", title_justify="left")
        keys.add_column("key", style="bold")
        keys.add_column("does")
        for k, v in KEYS:
            keys.add_row(k, v)
        parts.append(keys)
    else:
        parts.append(_info(snap, rules, symbols))
    status = Text()
    if prompt is not None:
        status.append(f"jump to trick: {prompt}", style="bold yellow")
        status.append("▏  (Enter to go, Esc to cancel)", style="dim")
    elif message:
        status.append(message, style="yellow")
    else:
        status.append("→/n ←/p card · ↓/N ↑/P trick · ]/[ deal · t jump · ? help · q quit", style="dim")
    parts.append(status)
    return Group(*parts)


def plain_step_lines(snap: Snapshot, rules: Rules) -> list[str]:
    """The text ``replay --plain`` prints for one step (after the card just played)."""
    if snap.trick is None:
        return []
    t = snap.trick
    p = snap.shown[-1]
    lines = [f"  {p.seat} plays {p.card}" + (" (leads)" if len(snap.shown) == 1 else "")]
    if snap.event:
        lines.append(f"    {snap.event}")
    if snap.complete:
        sides = sides_for(rules.seats)
        text = f"  {t.winner} wins trick {t.number}"
        if snap.capture is not None:
            text += f"; {capture_text(snap.capture)}"
        lines.append(text)
        if rules.capture == "centre":
            centre = f"    centre: {snap.centre_cards} cards"
            if snap.centre_tens:
                centre += " (" + " ".join(snap.centre_tens) + ")"
            lines.append(centre)
        piles = "; ".join(
            f"{s} pile {snap.piles.get(s, 0)} cards, tens {' '.join(snap.pile_tens.get(s, ())) or 'none'}"
            for s in sides)
        lines.append(f"    {piles}")
    return lines


def plain_hands(snap: Snapshot, rules: Rules) -> list[str]:
    lines = []
    for seat in seats_for(rules.seats)[: rules.seats]:
        cards = snap.hands.get(seat, ())
        groups = []
        for suit in SUITS:
            ranks = [c[:-1] for c in cards if c[-1] == suit]
            groups.append(f"{suit} {' '.join(ranks) if ranks else '-'}")
        extra = f"  (+{snap.unknown[seat]} not in the record)" if snap.unknown.get(seat) else ""
        lines.append(f"  {seat}: " + "  ".join(groups) + extra)
    return lines


__all__ = [
    "card_text", "cards_text", "hand_lines", "error_text", "deal_table", "game_heading", "game_result_text",
    "rules_listing", "profile_view", "stepper_screen", "plain_step_lines", "plain_hands", "KEYS", "trump_text",
]
