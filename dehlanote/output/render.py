"""Rich rendering for the command line: errors with carets, deal tables, rule profiles, and
the stepper's screen. Every function returns a renderable or text and prints nothing, so
tests can render into a fixed-width ``Console(file=StringIO())``.

Text that comes from a record (names, comments, messages) is always passed as plain
``Text``, never as markup: DPN tags use ``[...]``, which rich would read as markup.
"""

from __future__ import annotations

from typing import Iterable, Optional

from rich import box
from rich.align import Align
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..errors import DpnError, printable
from ..replay.facts import DealFact, GameFacts, PlayFact
from ..rules.profile import Option, Registry, Rules, param_names
from ..deck import SUIT_SYMBOLS, SUITS, seats_for, side_of, sides_for
from .annotate import (
    Snapshot, capture_text, deal_heading, deal_result_text, seat_layout, ten_stories, trick_notes, trump_text,
)

RED_SUITS = "HD"

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
    from ..deck import SUIT_NAMES
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
    out.append(" " + printable(err.message))
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
        if p.card in marks:
            out.append(_cross_mark(symbols), style="bold yellow")
    return out


def _cross_mark(symbols: bool) -> str:
    """The mark of a ten won in a trick by one side but swept by the other."""
    return "†" if symbols else "!"


def deal_table(deal: DealFact, rules: Rules, facts: Optional[GameFacts] = None, *,
               symbols: bool = True) -> RenderableType:
    """One deal trick by trick: leader, cards (winner's marked *), winner, centre, capture, tens."""
    sides = sides_for(rules.seats)
    centre_rule = rules.capture == "centre"
    notes = trick_notes(deal, rules)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    table.add_column("#", justify="right")
    table.add_column("lead", min_width=4)
    table.add_column("cards (winner *)", no_wrap=True)
    table.add_column("won", min_width=3)
    if centre_rule:
        table.add_column("centre\nafter", justify="right", no_wrap=True)
    table.add_column("capture" if centre_rule else "taken", ratio=1)
    table.add_column(f"tens\n{sides[0]}", justify="right", min_width=4)
    table.add_column(f"tens\n{sides[1]}", justify="right", min_width=4)
    footnotes: list[Text] = []
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
            elif c.reason == "last-trick":
                cap.append(f"{c.by} takes last {c.cards} → {c.side}")
            else:
                cap.append(f"{c.by} sweeps {c.cards} → {c.side}")
            crossed = {s.card for s in note.crossed}
            for ten in c.tens:
                cap.append(" ")
                cap.append_text(card_text(ten, symbols, style="bold"))
                if ten in crossed:
                    cap.append(_cross_mark(symbols), style="bold yellow")
        row.append(cap)
        row += [str(note.tens_after.get(sides[0], 0)), str(note.tens_after.get(sides[1], 0))]
        table.add_row(*row)
        if note.trump_event:
            footnotes.append(Text(f"trick {t.number}: {_short_event(note, symbols)}", style="magenta"))
        for s in note.crossed:
            text = Text(f"trick {t.number}: ", style="yellow")
            text.append_text(card_text(s.card, symbols, style="bold"))
            text.append(_cross_mark(symbols), style="bold yellow")
            text.append(f" won by {s.won_by} ({s.won_side}) in trick {s.trick}, swept by {s.taken_by} "
                        f"to {s.taken_side}", style="yellow")
            footnotes.append(text)
    heading = Text(deal_heading(deal), style="bold")
    result = deal_result_text(deal, rules, facts)
    lines: list[RenderableType] = [heading, Padding(table, (0, 0, 0, 2))]
    footer = Text("  ")
    footer.append(result[0], style="bold")
    for extra in result[1:]:
        footer.append(" · " + extra)
    lines.append(footer)
    for text in footnotes:
        lines.append(Text("  ").append_text(text))
    if centre_rule and deal.complete and not any(s.crossed for s in ten_stories(deal, rules.seats)):
        lines.append(Text("  every ten ended with the side that won its trick", style="dim"))
    return Group(*lines)


def _short_event(note, symbols: bool) -> str:
    """A trump event in a few words: ``trump ♣ set by A``."""
    tf_event = note.trump_event or ""
    t = note.fact
    if "drawn" in tf_event:
        return tf_event.split(": ", 1)[-1]
    suit = t.trump
    shown = (SUIT_SYMBOLS[suit] if symbols else suit) if suit else "?"
    seat = tf_event.split(" ", 1)[0]
    verb = "revealed" if "revealed" in tf_event else "set"
    return f"trump {shown} {verb} by {seat}"


def game_heading(facts: GameFacts, index: int) -> Text:
    game = facts.game
    title = printable(game.tag("Event") or f"Game {index}")
    out = Text(f"Game {index}: ", style="bold")
    out.append(title, style="bold")
    rules = facts.rules
    if rules is not None:
        out.append(f" · rules {rules.label()}")
    players = [f"{s} {printable(game.tag(s) or '')}" for s in seats_for(rules.seats if rules else 4) if game.tag(s)]
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
    elif r.finished is None:
        text = "unknown: a deal whose outcome is unknown may have ended the match"
    else:
        text = "the match is not finished"
    return Text(f"Result: {text} (kots {kots})", style="bold")


# ---- rules -----------------------------------------------------------------------------------

def first_sentence(text: str, limit: int = 100) -> str:
    """A description cut to one line: its first sentence, or as many of its clauses as fit."""
    text = " ".join(text.split())
    end = text.find(". ")
    if 0 < end <= limit:
        return text[: end + 1]
    clauses = text.split("; ")
    out = clauses[0]
    for clause in clauses[1:]:
        if len(out) + 2 + len(clause) > limit:
            break
        out += "; " + clause
    if out.count("(") > out.count(")"):
        out = out[: out.rfind(" (")]
    if len(out) > limit:
        out = out[: limit - 1].rsplit(" ", 1)[0] + "…"
    return out


#: what each parameter of a profile means, for ``rules NAME``
PARAM_HELP = {
    "seats": "players at the table (partners sit opposite)",
    "decks": "52-card decks shuffled together",
    "trump": "how trump is set: announce, partner, first-void, first-void-five, closed",
    "capture": "centre: two tricks in a row sweep the centre; immediate: each trick to its winner",
    "score": "what decides a deal: tens, points (tens 2, other cards 1) or tricks",
    "level": "a level split goes to the non-dealers, or is no result (none)",
    "all_tens": "all the tens in one deal: a kot, or the match at once",
    "streak": "consecutive deal wins that make a kot (0: none)",
    "kots": "kots that win the match (0: an open-ended session)",
    "match_points": "deals won (not in a row) that win the match (0: off)",
    "streak_reset_after_kot": "both sides' runs restart after a kot",
    "dealer_after_all_tens": "after an all-tens kot: rule 7, or the dealer's partner deals",
    "level_dealer": "who deals after a no-result deal",
}


def rules_listing(reg: Registry) -> RenderableType:
    """Every profile and option with its whole description (wrapped to the width, never cut)."""
    profiles = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    profiles.add_column("profile", style="bold", no_wrap=True)
    profiles.add_column("what it is")
    for name, rules in reg.profiles.items():
        profiles.add_row(name, Text(" ".join(rules.description.split())))
    options = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    options.add_column("option", style="bold", no_wrap=True)
    options.add_column("what it does")
    for name, opt in reg.options.items():
        options.add_row(_short_usage(opt), Text(" ".join(opt.description.split())))
    hint = Text('In a record: [Rules "pagat kots=3 trump=first-void-five"]. One profile: dehlanote rules NAME',
                style="dim")
    return Group(Text("Rule profiles", style="bold underline"), profiles, Text(""),
                 Text("Options", style="bold underline"), options, Text(""), hint)


def _option_usage(opt: Option) -> str:
    if opt.param is None:
        return opt.name
    if opt.choices:
        return f"{opt.name}={'|'.join(str(c) for c in opt.choices)}"
    return f"{opt.name}=N"


def _short_usage(opt: Option) -> str:
    usage = _option_usage(opt)
    return usage if len(usage) <= 24 else f"{opt.name}=METHOD"


def profile_view(rules: Rules, label: str) -> RenderableType:
    """A profile's description, source, parameters and decisions."""
    params = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    params.add_column("parameter", style="bold", no_wrap=True)
    params.add_column("value", no_wrap=True)
    params.add_column("meaning", style="dim")
    for name in param_names():
        params.add_row(name, str(getattr(rules, name)), PARAM_HELP.get(name, ""))
    parts: list[RenderableType] = [Text(label, style="bold underline")]
    if rules.description:
        parts.append(Text(rules.description))
    if rules.source:
        parts.append(Text("Source: ", style="bold").append(Text(rules.source)))
    if rules.options:
        parts.append(Text("Options applied: ", style="bold").append(
            ", ".join(k if v is True else f"{k}={v}" for k, v in rules.options)))
    parts += [Text(""), params]
    if rules.decisions:
        decisions = Table.grid(padding=(0, 1))
        decisions.add_column(no_wrap=True)
        decisions.add_column()
        for d in rules.decisions:
            decisions.add_row("•", Text(d))
        parts += [Text(""), Text("Decisions (where the sources are silent or ambiguous)", style="bold"),
                  decisions]
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
    if t is not None and not snap.complete and len(snap.shown) < len(t.plays):
        if t.plays[len(snap.shown)].seat == seat:
            out.append(" ◀ to play", style="bold yellow")
    elif snap.complete and t is not None and t.winner == seat and snap.played < _deal_cards(snap):
        out.append(" ◀ leads next", style="bold yellow")
    elif snap.trick is None and snap.deal.tricks and snap.deal.tricks[0].leader == seat:
        out.append(" ◀ leads", style="bold yellow")
    return out


def _deal_cards(snap: Snapshot) -> int:
    return sum(len(t.plays) for t in snap.deal.tricks)


def _seat_box(seat: str, snap: Snapshot, names: dict[str, str], n: int, symbols: bool) -> RenderableType:
    body = _seat_title(seat, snap, names, n)
    body.append("\n")
    body.append_text(hand_lines(snap.hands.get(seat, ()), symbols, snap.unknown.get(seat, 0)))
    return body


def _capture_rich(cap, symbols: bool) -> Text:
    """A capture in words, its tens as cards."""
    out = Text()
    if cap.reason == "trick":
        out.append(f"{cap.by} takes the trick")
    elif cap.reason == "last-trick":
        out.append(f"{cap.by} takes the last {cap.cards} cards")
    else:
        out.append(f"{cap.by} sweeps {cap.cards} cards (two in a row)")
    if cap.tens:
        out.append(" with ")
        out.append_text(cards_text(cap.tens, symbols))
    return out


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
    title = "no card played yet" if t is None else f"trick {t.number} · {t.leader} leads"
    caption = Text(justify="center")
    if t is not None and snap.complete:
        caption.append(f"{t.winner} wins", style="bold")
        if snap.capture is not None:
            caption.append("\n")
            caption.append_text(_capture_rich(snap.capture, symbols))
        for story in snap.crossed:
            caption.append("\n")
            caption.append_text(card_text(story.card, symbols, style="bold"))
            caption.append(f" was won by {story.won_by} ({story.won_side}) in trick {story.trick}",
                           style="yellow")
    if snap.event:
        if caption:
            caption.append("\n")
        caption.append(snap.event, style="bold magenta")
    body: RenderableType = Align.center(grid)
    if caption:
        body = Group(body, caption)
    return Panel(body, title=title, box=box.ROUNDED, padding=(0, 1), width=40)


def _pile(count: int, tens: tuple[str, ...], symbols: bool) -> Text:
    out = Text(f"{count} card{'s' if count != 1 else ''}")
    if tens:
        out.append(", tens ")
        out.append_text(cards_text(tens, symbols))
    return out


def _info(snap: Snapshot, rules: Rules, symbols: bool) -> RenderableType:
    """Trump, dealer and the run on the left; the centre and the captured piles on the right."""
    sides = sides_for(rules.seats)
    left = Table.grid(padding=(0, 2))
    left.add_column(style="bold", no_wrap=True)
    left.add_column()
    tf = snap.deal.trump
    trump = Text()
    if snap.trump is not None:
        trump.append_text(suit_text(snap.trump, symbols))
        how = trump_text(tf) if tf is not None else ""
        if how.startswith("trump "):
            how = how[len("trump "):]
        if tf is not None and tf.suit == snap.trump and ", " in how:
            trump.append(", " + how.split(", ", 1)[1], style="dim")
    elif tf is not None and tf.suit is not None and (tf.closed or tf.method == "closed"):
        trump.append(f"closed: chosen in secret by {tf.by}, not revealed yet")
    elif rules.trump in ("first-void", "first-void-five"):
        trump.append("none yet: the first player unable to follow sets it")
    else:
        trump.append("none")
    left.add_row("Trump", trump)
    left.add_row("Dealer", Text(str(snap.deal.dealer or "?")))
    if rules.capture == "centre":
        if snap.run is None:
            run = Text("—")
        elif snap.run[1] == 0:
            run = Text(f"{snap.run[0]} just swept: the count starts again")
        else:
            run = Text(f"{snap.run[0]} {snap.run[1]} in a row"
                       + (", one more sweeps the centre" if snap.run[1] == 1 else ""))
        left.add_row("Run", run)
    else:
        left.add_row("Capture", Text("each trick goes straight to its winner"))
    right = Table.grid(padding=(0, 2))
    right.add_column(style="bold", no_wrap=True)
    right.add_column()
    if rules.capture == "centre":
        right.add_row("Centre", _pile(snap.centre_cards, snap.centre_tens, symbols))
    for side in sides:
        right.add_row(f"{side} pile", _pile(snap.piles.get(side, 0), snap.pile_tens.get(side, ()), symbols))
    both = Table.grid(padding=(0, 4))
    both.add_column()
    both.add_column()
    both.add_row(left, right)
    return both


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
    parts: list[RenderableType] = [head]
    if help_shown:
        keys = Table(box=box.SIMPLE, show_edge=False, title="Keys (? again to close)", title_justify="left")
        keys.add_column("key", style="bold")
        keys.add_column("does")
        for k, v in KEYS:
            keys.add_row(k, v)
        parts.append(keys)
    else:
        parts += [table, _info(snap, rules, symbols)]
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
    if snap.event and snap.event_now:
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
