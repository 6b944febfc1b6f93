"""Rich rendering for the command line: cards, errors with carets, deal tables and game
headings. Every function returns a renderable or text and prints nothing, so tests can render
into a fixed-width ``Console(file=StringIO())``. The rule profiles' views are in
:mod:`.rules_view`, the stepper's screen in :mod:`.stepper_view`.

Text that comes from a record (names, comments, messages) is always passed as plain
``Text``, never as markup: DPN tags use ``[...]``, which rich would read as markup.
"""

from __future__ import annotations

from typing import Iterable, Optional

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..replay.methods import capture_mode
from ..errors import DpnError, printable
from ..replay.facts import DealFact, GameFacts, PlayFact
from ..rules.profile import Rules
from ..deck import SUIT_SYMBOLS, SUITS, seats_for
from .notes import deal_heading, deal_result_text, record_words, ten_stories, trick_notes

RED_SUITS = "HD"

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


def suit_ranks(ranks: list[str], room: Optional[int] = None) -> str:
    """A suit's ranks for a line with ``room`` cells after its label: spaced (``K J 10 9``), run
    together where that is too wide (``KJ109``: no rank but the ten has a 1 or a 0, so it still
    reads one way), and cut to ``KJ109…+3`` only where even that does not fit."""
    if not ranks:
        return "—"
    spaced = " ".join(ranks)
    if room is None or len(spaced) <= room:
        return spaced
    joined = "".join(ranks)
    if len(joined) <= room:
        return joined
    for keep in range(len(ranks) - 1, 0, -1):
        cut = "".join(ranks[:keep]) + f"…+{len(ranks) - keep}"
        if len(cut) <= room:
            return cut
    return f"…+{len(ranks)}"


def hand_lines(cards: Iterable[str], symbols: bool = True, unknown: int = 0, width: Optional[int] = None) -> Text:
    """A hand grouped by suit, one line per suit (S H D C), ranks high to low; ``width``: the
    cells a line may take, a longer suit's ranks run together rather than wrap onto a line of
    their own (where a fixed number of lines would hide the suits after it)."""
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
        room = None if width is None else max(1, width - Text(label).cell_len - 1)
        out.append(" " + suit_ranks(by_suit[suit], room))
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

def _trick_cards(plays: tuple[PlayFact, ...], winner: str, symbols: bool, marks: set[str],
                 analysis: Optional[dict[int, str]] = None) -> Text:
    out = Text()
    for i, p in enumerate(plays):
        if i:
            out.append(" ")
        win = p.seat == winner
        style = "bold underline" if win else ""
        if p.card in marks:
            style += " reverse"
        out.append_text(card_text(p.card, symbols, style=style.strip()))
        if analysis and i in analysis:
            out.append(analysis[i], style="bold magenta")
        if win:
            out.append("*", style="bold")
        if p.card in marks:
            out.append(_cross_mark(symbols), style="bold yellow")
    return out


def _cross_mark(symbols: bool) -> str:
    """The mark of a ten won in a trick by one side but swept by the other."""
    return "†" if symbols else "!"


def deal_table(deal: DealFact, rules: Rules, facts: Optional[GameFacts] = None, *,
               symbols: bool = True, lost_value: Optional[dict[tuple[int, int], str]] = None) -> RenderableType:
    """One deal trick by trick: leader, cards (winner's marked *), winner, centre, capture, tens;
    ``lost_value`` (trick number, index in the trick) -> ``?``/``??``: the analysis's marks, after their card."""
    sides = rules.sides
    centre_rule = not capture_mode(rules).immediate
    notes = trick_notes(deal, rules)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    table.add_column("#", justify="right")
    table.add_column("lead", min_width=4)
    table.add_column("cards (winner *)", no_wrap=True)
    table.add_column("won", min_width=3, no_wrap=True)
    if centre_rule:
        table.add_column("centre\nafter", justify="right", min_width=6)
    table.add_column("capture" if centre_rule else "taken", min_width=9)
    table.add_column(f"tens\n{sides[0]}", justify="right", min_width=4)
    table.add_column(f"tens\n{sides[1]}", justify="right", min_width=4)
    footnotes: list[Text] = []
    for note in notes:
        t = note.fact
        marks = {s.card for s in note.lost}
        lost = {k: m for (n, k), m in (lost_value or {}).items() if n == t.number}
        row: list[RenderableType] = [str(t.number), t.leader,
                                     _trick_cards(t.plays, t.winner, symbols, marks, lost), t.winner]
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
    for words in record_words(deal, symbols):
        lines.append(Text("  " + words))
    if lost_value:
        lines.append(Text("  ? and ??: the analysis's marks, cards that lost value (how it judged them and "
                          "what would have kept it is under the game)", style="dim"))
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
    event = game.tag("Event")
    # (a game without an Event was headed "Game 1: Game 1")
    out = Text(f"Game {index}" + (": " if event else ""), style="bold")
    if event:
        out.append(printable(event), style="bold")
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


__all__ = [
    "card_text", "cards_text", "hand_lines", "suit_ranks", "suit_text", "error_text", "deal_table", "game_heading",
    "game_result_text", "RED_SUITS",
]
