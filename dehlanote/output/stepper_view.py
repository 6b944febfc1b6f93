"""The stepper's screen (``dehlanote replay``): a fixed frame drawn from a
:class:`~dehlanote.output.stepper.Stepper` at a position, and its plain-text form for a
terminal that cannot show it. Every function returns a renderable or text and prints nothing.

Text that comes from a record (names, comments, messages) is always passed as plain
``Text``, never as markup: DPN tags use ``[...]``, which rich would read as markup.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple, Optional, Sequence

from rich import box
from rich.align import Align
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.layout import Layout
from rich.padding import Padding
from rich.segment import Segment
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..replay.methods import capture_mode, method_of_fact, trump_method
from ..errors import printable
from ..replay.facts import Capture, TrumpFact
from ..rules.profile import Rules
from ..deck import SUIT_SYMBOLS, SUITS, side_of
from .notes import capture_text, deal_result_text
from .stepper import Flag, Snapshot, Stepper, flag_text, match_parts, seat_layout
from .keys import STEPPER_KEYS, WHATIF_KEYS, help_rows, key_hints
from .render import RED_SUITS, card_text, cards_text, hand_lines, suit_ranks, suit_text

if TYPE_CHECKING:
    from .analysis_view import DealView
    from .keys import StepperKeys
    from .whatif import WhatIf

# ---- the stepper -------------------------------------------------------------------------------
#
# The screen is a fixed frame: every region has a size that depends on the terminal's size only,
# never on the step, so nothing moves as the cards are played. From the top: where we are, the
# match, the table (hands around the trick box), trump / run / piles, notes (errors here, trump
# events, tens that changed sides, the deal's result), and the key line, always the last row.
# Text that is too long for its place loses whole words or parts (a name, a hint), never letters.

ERROR_MARK = "✗"


def fit_parts(parts: Sequence[str], width: int, sep: str = " · ", keep_last: int = 0) -> str:
    """As many of ``parts`` (in order) as fit in ``width`` cells; the last ``keep_last`` always."""
    tail = list(parts[len(parts) - keep_last:]) if keep_last else []
    head = list(parts[: len(parts) - keep_last]) if keep_last else list(parts)
    out: list[str] = []
    for part in head:
        if Text(sep.join(out + [part] + tail)).cell_len <= width:
            out.append(part)
    return sep.join(out + tail)


#: the most of one word a message on screen shows (a file name typed at the save prompt can be
#: hundreds of characters: "save-refused: NAME: why" then left no room for the why)
LONG_WORD = 40


def _long_words_cut(text: str) -> str:
    """``text`` with each word longer than :data:`LONG_WORD` shown as its end after an ellipsis
    (a file name's end is the part that tells it)."""
    return " ".join(w if len(w) <= LONG_WORD else "\u2026" + w[-(LONG_WORD - 1):] for w in text.split(" "))


def _words_fitting(text: str, width: int) -> str:
    """The first words of ``text`` that fit in ``width`` cells; a word too long for the room
    left is cut, with an ellipsis (a long name after the code left nothing but the code)."""
    out = ""
    for word in text.split():
        candidate = f"{out} {word}".strip()
        if Text(candidate).cell_len > width:
            room = width - Text(out).cell_len - (1 if out else 0) - 1
            if room >= 4:
                cut = word
                while cut and Text(cut).cell_len > room:
                    cut = cut[:-1]
                out = f"{out} {cut}\u2026".strip()
            break
        out = candidate
    return out


class ScreenSize(NamedTuple):
    width: int
    height: int


class _Frame(NamedTuple):
    """The sizes of the screen's regions for a terminal size and a number of seats."""

    compact: bool          # north and south as two lines each (small terminals)
    side: int              # width of the west and east hands
    box: int               # width of the trick box
    box_height: int
    seat_height: int       # lines of a hand beside the box (and of every hand when not compact)
    table: int             # lines of the table region
    notes: int             # lines for the notes


def _frame(size: ScreenSize, n: int) -> _Frame:
    width, height = size
    fixed = 1 + 1 + 3 + 1                       # where, match, info, keys
    if n == 6:
        box = max(30, min(44, width - 4))
        full_seat, full_box = 6, 7
        full = 2 * full_seat + full_box
        if height - fixed - full >= 3:
            return _Frame(False, (width - 4) // 3, box, full_box, full_seat, full, height - fixed - full)
        seat, box_h = 5, 5
        table = 2 * seat + box_h
        return _Frame(True, (width - 4) // 3, box, box_h, seat, table, max(1, height - fixed - table))
    box = 40 if width >= 100 else max(30, min(36, width - 40))
    # the hands beside the box get what is left, however little: a wider column than the screen has
    # is squeezed by the layout, and a hand's lines then wrap out of their places
    side = max(6, min(30, (width - box - 4) // 2))
    box_h = 8
    full = 6 + box_h + 6
    if height - fixed - full >= 3:
        return _Frame(False, side, box, box_h, 6, full, height - fixed - full)
    table = 2 + box_h + 2
    return _Frame(True, side, box, box_h, 6, table, max(1, height - fixed - table))


def _seat_marker(seat: str, snap: Snapshot) -> str:
    t = snap.trick
    if snap.live:                       # a line played on (what-if): the table says who is next
        if seat != snap.to_play:
            return ""
        return "◀ leads" if t is None else ("◀ leads next" if snap.complete else "◀ to play")
    if t is not None and not snap.complete and len(snap.shown) < len(t.plays):
        if t.plays[len(snap.shown)].seat == seat:
            return "◀ to play"
    elif snap.complete and t is not None and t.winner == seat and snap.played < _deal_cards(snap):
        return "◀ leads next"
    elif snap.trick is None and snap.deal.tricks and snap.deal.tricks[0].leader == seat:
        return "◀ leads"
    return ""


def _seat_title(seat: str, snap: Snapshot, names: dict[str, str], n: int, width: int) -> Text:
    """``A Asha (AC) dealer``: where the place is narrow the side goes first, then the name's last words."""
    side = f" ({side_of(seat, n)})"
    dealer = " dealer" if snap.deal.dealer == seat else ""
    room = width - len(seat) - len(dealer) - 1
    name = _words_fitting(printable(names.get(seat, "")), room) if room > 0 else ""
    out = Text(seat, style="bold")
    if name:
        out.append(f" {name}")
    if Text(f"{seat} {name}{side}{dealer}").cell_len <= width:
        out.append(side, style="dim")
    if dealer:
        out.append(dealer, style="cyan")
    return out


def _deal_cards(snap: Snapshot) -> int:
    return sum(len(t.plays) for t in snap.deal.tricks)


def _seat_lines(seat: str, snap: Snapshot, names: dict[str, str], n: int, symbols: bool, width: int,
                *, one_line: bool = False, inline: bool = False) -> Text:
    """A hand: title, a line for "◀ to play" and the unseen cards, then a line per suit.

    ``one_line``: the title and marker on one line and the hand on the next (north and south of
    a small terminal); ``inline``: the title and marker on one line, then a line per suit.
    """
    marker = _seat_marker(seat, snap)
    unseen = snap.unknown.get(seat, 0)
    extra = Text()
    if marker:
        extra.append(marker, style="bold yellow")
    if unseen:
        extra.append((" · " if marker else "") + f"{unseen} unseen", style="dim")
    if (one_line or inline) and extra.cell_len + 2 + len(seat) > width:
        extra = Text(marker, style="bold yellow")
    title = _seat_title(seat, snap, names, n, width - (extra.cell_len + 2 if one_line or inline else 0))
    cards = snap.hands.get(seat, ())
    if inline:
        if extra:
            title.append("  ")
            title.append_text(extra)
        title.append("\n")
        title.append_text(hand_lines(cards, symbols, width=width))
        return title
    if one_line:
        line = title
        if extra:
            line.append("  ")
            line.append_text(extra)
        line.append("\n")
        line.append_text(_hand_one_line(cards, symbols, width))
        return line
    out = title
    out.append("\n")
    out.append_text(extra)
    out.append("\n")
    out.append_text(hand_lines(cards, symbols, width=width))
    return out


def _hand_one_line(cards: Iterable[str], symbols: bool, width: Optional[int] = None) -> Text:
    """A hand on one line, suit after suit; where that is wider than ``width``, each suit's ranks
    run together, then the longest suits are cut (``KJ109…+3``) rather than the line wrap out of
    its place."""
    by_suit: dict[str, list[str]] = {s: [] for s in SUITS}
    for card in cards:
        by_suit[card[-1]].append(card[:-1])
    labels = {suit: SUIT_SYMBOLS[suit] if symbols else suit for suit in SUITS}
    fixed = sum(Text(labels[suit]).cell_len + 1 for suit in SUITS)
    rooms: dict[str, Optional[int]] = {suit: None for suit in SUITS}
    sep = "  "
    if width is not None and fixed + 2 * 3 + sum(len(suit_ranks(by_suit[s])) for s in SUITS) > width:
        sep = " "
        rooms = {suit: len("".join(by_suit[suit])) or 1 for suit in SUITS}
        while fixed + 3 + sum(len(suit_ranks(by_suit[s], rooms[s])) for s in SUITS) > width:
            longest = max(SUITS, key=lambda s: rooms[s] or 0)
            if (rooms[longest] or 0) <= 3:
                break
            rooms[longest] = (rooms[longest] or 0) - 1
    out = Text()
    for i, suit in enumerate(SUITS):
        if i:
            out.append(sep)
        out.append(labels[suit], style="red" if suit in RED_SUITS else "bold")
        out.append(" " + suit_ranks(by_suit[suit], rooms[suit]))
    return out


def _short_capture(cap: Capture, symbols: bool, winner: str) -> Text:
    """A capture in a few words for the trick box: ``sweeps 8 cards with 10♥ 10♠``."""
    out = Text()
    who = "" if cap.by == winner else f"{cap.by} "
    if cap.reason == "trick":
        out.append(f"{who}takes the trick")
    elif cap.reason == "last-trick":
        out.append(f"{who}takes the last {cap.cards} cards")
    else:
        out.append(f"{who}sweeps {cap.cards} cards")
    if cap.tens:
        out.append(" with ")
        out.append_text(cards_text(cap.tens, symbols))
    return out


def _trick_box(snap: Snapshot, n: int, symbols: bool, frame: _Frame, flags: Sequence[Flag],
               marks: Optional[dict[int, str]] = None) -> RenderableType:
    """The trick on the table, each card on its seat's side; a card at fault marked ✗, a card that
    lost value (the analysis) marked ? or ??."""
    layout = seat_layout(n)
    t = snap.trick
    bad_cards = {f.card for f in flags if f.card is not None and t is not None and f.trick == t.number}
    bad_trick = any(f.card is None and t is not None and f.trick == t.number for f in flags)
    cards: dict[str, Text] = {}
    for i, p in enumerate(snap.shown):
        style = "bold reverse" if snap.complete and t is not None and p.seat == t.winner else "bold"
        text = Text(f"{p.seat} ", style="dim")
        text.append_text(card_text(p.card, symbols, style=style))
        if i in bad_cards:
            text.append(ERROR_MARK, style="bold red")
        if marks and i in marks:
            text.append(marks[i], style="bold yellow")
        cards[p.seat] = text
    where = {pos: seat for seat, pos in layout.items()}

    def at(pos: str) -> Text:
        seat = where.get(pos)
        return cards.get(seat, Text("")) if seat else Text("")

    grid = Table.grid(padding=(0, 1), expand=True)
    for _ in range(3):
        grid.add_column(justify="center", ratio=1)
    if n == 6:
        grid.add_row(at("NW"), at("N"), at("NE"))
        grid.add_row(at("SW"), at("S"), at("SE"))
    else:
        grid.add_row(Text(""), at("N"), Text(""))
        grid.add_row(at("W"), Text(""), at("E"))
        grid.add_row(Text(""), at("S"), Text(""))
    title = Text("no card played yet" if t is None else f"trick {t.number} · {t.leader} leads")
    if bad_trick:
        title.append(f" {ERROR_MARK}", style="bold red")
    caption = Text(justify="center")
    if t is not None and snap.complete:
        caption.append(f"{t.winner} wins", style="bold")
        if snap.capture is not None:
            caption.append(", ")
            caption.append_text(_short_capture(snap.capture, symbols, t.winner))
    return Panel(Group(grid, caption), title=title, box=box.ROUNDED, padding=(0, 1), width=frame.box,
                 height=frame.box_height)


def _pile(count: int, tens: tuple[str, ...], symbols: bool, width: int = 80) -> Text:
    out = Text(f"{count} card{'s' if count != 1 else ''}")
    if tens:
        listed = Text(", tens ").append_text(cards_text(tens, symbols))
        if out.cell_len + listed.cell_len <= width:
            out.append_text(listed)
        else:
            out.append(f", {len(tens)} tens")
    return out


def _trump_row(snap: Snapshot, rules: Rules, symbols: bool, room: int = 80) -> Text:
    """Trump as the players know it at this step, in at most ``room`` cells when it can be said shorter."""
    tf = snap.deal.trump
    trump = Text()
    if snap.trump is not None:
        trump.append_text(suit_text(snap.trump, symbols))
        how = _trump_how(tf) if tf is not None else ""
        if how and trump.cell_len + 2 + len(how) <= room:
            trump.append(", " + how, style="dim")
        elif tf is not None and tf.by and trump.cell_len + 5 + len(tf.by) <= room:
            trump.append(f", by {tf.by}", style="dim")
    elif tf is not None and tf.suit is not None and (tf.closed or method_of_fact(tf.method).secret):
        who = tf.by or "the first player unable to follow"   # hukum: nobody may have chosen yet
        long, short = f"closed: chosen in secret by {who}, not revealed yet", f"closed: chosen by {who}"
        trump.append(long if len(long) <= room else short)
    elif trump_method(rules).by_void:
        long, short = "none yet: the first player unable to follow sets it", "none yet: the first void sets it"
        trump.append(long if len(long) <= room else short)
    elif tf is None:
        trump.append("unknown")
    else:
        trump.append("none")
    return trump


def _trump_how(tf: TrumpFact) -> str:
    """How trump was set, in a few words: ``announced by A``, ``set by D at trick 5``."""
    if tf.drawn is not None:
        return f"{tf.drawn} drawn after trick {tf.trick - 1 if tf.trick else '?'}"
    if tf.closed or method_of_fact(tf.method).secret:
        return f"revealed by {tf.by} at trick {tf.trick}" if tf.trick else f"chosen by {tf.by}"
    if method_of_fact(tf.method).by_void:
        return f"set by {tf.by} at trick {tf.trick}"
    if method_of_fact(tf.method).announcer == 2:
        return f"announced by {tf.by} (partner)"
    return f"announced by {tf.by}"


def _run_row(snap: Snapshot, stepper_over: bool, at_end: bool, room: int = 80) -> Text:
    """The run of tricks toward a sweep, said shorter when the place is narrow."""
    if stepper_over:
        return Text("the deal is over", style="bold")
    if at_end and snap.played:
        return Text("the record stops here", style="bold")
    if snap.run is None:
        return Text("—")
    seat, count = snap.run
    if count == 0:
        long, short = f"{seat} just swept: count starts again", f"{seat} just swept"
    elif count == 1:
        long, short = f"{seat} 1 in a row, one more sweeps the centre", f"{seat} 1 in a row"
    else:
        long = short = f"{seat} {count} in a row"
    return Text(long if len(long) <= room else short)


def _info(snap: Snapshot, rules: Rules, symbols: bool, width: int, *, over: bool, at_end: bool) -> RenderableType:
    """Trump, dealer and the run on the left; the centre and the captured piles on the right."""
    sides = rules.sides
    right_w = max(26, min(40, width * 2 // 5 - 2))
    left_w = min(width - right_w - 2, 60)
    left = Table.grid(padding=(0, 1))
    left.add_column(style="bold", no_wrap=True, width=7)
    left.add_column(width=max(8, left_w - 8))
    left.add_row("Trump", _trump_row(snap, rules, symbols, max(8, left_w - 8)))
    left.add_row("Dealer", Text(str(snap.deal.dealer or "unknown")))
    if not capture_mode(rules).immediate:
        left.add_row("Run", _run_row(snap, over, at_end, max(8, left_w - 8)))
    else:
        left.add_row("Capture", Text("the deal is over", style="bold") if over
                     else Text("each trick to its winner"))
    right = Table.grid(padding=(0, 1))
    label_w = max(len(s) for s in sides) + 5
    right.add_column(style="bold", no_wrap=True, width=label_w)
    right.add_column(width=max(8, right_w - label_w - 1))
    room = right_w - label_w - 1
    if not capture_mode(rules).immediate:
        right.add_row("Centre", _pile(snap.centre_cards, snap.centre_tens, symbols, room))
    for side in sides:
        right.add_row(f"{side} pile", _pile(snap.piles.get(side, 0), snap.pile_tens.get(side, ()), symbols, room))
    both = Table.grid(padding=(0, 2))
    both.add_column(width=left_w)
    both.add_column(width=right_w)
    both.add_row(left, right)
    return both


class AnalysisShown(NamedTuple):
    """The analysis of the deal on screen (``replay --analyse``): its view once solved, else
    what the solver is doing (``analysis: solving deal 2… 5 of 13 tricks solved, 12 s``)."""

    view: Optional["DealView"]
    status: str = ""


def _analysis_trick(snap: Snapshot) -> Optional[int]:
    """The trick whose value is shown: the one on the table, or the first before any card."""
    if snap.trick is not None:
        return snap.trick.number
    return snap.deal.tricks[0].number if snap.deal.tricks else None


def analysis_marks(snap: Snapshot, analysis: Optional[AnalysisShown]) -> dict[int, str]:
    """The glyphs of the cards on the table that lost value, by their place in the trick."""
    if analysis is None or analysis.view is None or snap.trick is None:
        return {}
    tv = analysis.view.tricks.get(snap.trick.number)
    if tv is None:
        return {}
    return {k: g for k, (g, _) in tv.marks.items() if k < len(snap.shown)}


def analysis_items(snap: Snapshot, analysis: AnalysisShown, symbols: bool) -> list[Text]:
    """The analysis at this step: the value under best play before the trick, then each card of it
    played so far that lost value, with what would have kept it."""
    view = analysis.view
    status = [Text(analysis.status, style="dim")] if analysis.status else []
    if view is None:
        return status or [Text("analysis: waiting for the solver", style="dim")]
    number = _analysis_trick(snap)
    tv = view.tricks.get(number) if number is not None else None
    if tv is None:
        # still being solved (the later tricks come first), or not analysed
        return status or [Text(f"analysis: {view.note or 'not analysed'}", style="dim")]
    out = [Text(f"Before trick {tv.number}, {tv.value}", style="cyan")]
    if snap.trick is not None:
        for k, (glyph, sentence) in sorted(tv.marks.items()):
            if k >= len(snap.shown):
                continue
            p = snap.shown[k]
            text = Text(f"{p.seat} ")
            text.append_text(card_text(p.card, symbols, style="bold"))
            text.append(glyph, style="bold yellow")
            text.append(f" {sentence}")
            out.append(text)
    return out + status


def _notes(stepper: Stepper, snap: Snapshot, rules: Rules, symbols: bool, width: int, height: int,
           flags: Sequence[Flag], analysis: Optional[AnalysisShown] = None,
           lead: Sequence[Text] = ()) -> RenderableType:
    """What happened here, most important first; what does not fit is counted, never cut.

    At a deal's end its result comes first, then the claims about the deal that are wrong; then
    the errors of the trick shown, the trump event, the tens that changed sides.
    """
    items: list[Text] = list(lead)
    deal = stepper.deals[stepper.deal]
    if stepper.at_end() and (snap.played or not deal.tricks):
        lines = deal_result_text(deal, rules)
        head = Text(f"Deal {deal.number} over: " if deal.complete else f"Deal {deal.number}: ", style="bold")
        head.append(lines[0], style="bold")
        items.append(head)
        if len(lines) > 1:
            items.append(Text(" · ".join(lines[1:])))
    for f in sorted(flags, key=lambda f: not f.at_end):
        text = Text(f"{ERROR_MARK} ", style="bold red")
        text.append(flag_text(f), style="red")
        items.append(text)
    if analysis is not None:
        items.extend(analysis_items(snap, analysis, symbols))
    for seat, card, glyph, said in record_notes(snap):
        if card:
            text = Text(f"{seat} ")
            text.append_text(card_text(card, symbols, style="bold"))
            text.append(glyph, style="bold")
            if said:
                text.append(": " + said, style="italic")
        else:
            text = Text(seat + ": ", style="bold")
            text.append(said, style="italic")
        items.append(text)
    if snap.event:
        items.append(Text(snap.event, style="bold magenta"))
    for story in snap.crossed:
        text = card_text(story.card, symbols, style="bold")
        text.append(f" was won by {story.won_by} ({story.won_side}) in trick {story.trick}, swept by "
                    f"{story.taken_by} to {story.taken_side}", style="yellow")
        items.append(text)
    out: list[Text] = []
    used = 0
    for i, item in enumerate(items):
        need = max(1, len(item.wrap(_measure_console(), width)))
        rest = len(items) - i - 1
        if used + need > height - (1 if rest else 0):
            left = len(items) - i
            more = Text(f"… {left} more note{'s' if left != 1 else ''} here", style="dim")
            if flags:
                more.append(" (dehlanote validate lists every error)", style="dim")
            out.append(more)
            break
        out.append(item)
        used += need
    return Group(*out)


_MEASURE: list[Console] = []


def record_notes(snap: Snapshot) -> list[tuple[str, str, str, str]]:
    """The record's glyphs and comments at the step shown: ``(seat, card, glyph, comments)`` for
    each card on the table that carries any, then ``("Trick N", "", "", comment)`` for the
    trick's notes once its last card is down. A comment written after the trick's last card is
    the trick's note, not a remark on that card (as the replay page shows it)."""
    if snap.trick is None:
        return []
    plays = snap.trick.trick.plays
    out: list[tuple[str, str, str, str]] = []
    for k, shown in enumerate(snap.shown[:len(plays)]):
        play = plays[k]
        said = play.comments if k < len(plays) - 1 else ()
        if play.glyph or said:
            out.append((shown.seat, play.card, play.glyph or "", " · ".join(said)))
    if plays and len(snap.shown) >= len(plays):
        for c in (*snap.trick.trick.comments, *plays[-1].comments):
            out.append((f"Trick {snap.trick.number}", "", "", c))
    return out


def _measure_console() -> Console:
    """A console used only to measure how text wraps."""
    if not _MEASURE:
        _MEASURE.append(Console(width=200, file=io.StringIO(), color_system=None))
    return _MEASURE[0]


def _keys_line(control: Optional["StepperKeys"], width: int) -> Text:
    status = Text()
    whatif = control.whatif if control is not None else None
    if whatif is not None:
        return whatif_keys_line(whatif, width)
    if control is not None and control.prompt is not None:
        status.append(f"jump to trick: {control.prompt}", style="bold yellow")
        status.append("▏  (Enter to go, Esc to cancel)", style="dim")
    elif control is not None and control.message:
        # the message first, the keys still after it (at least ? help and q quit)
        status.append(control.message, style="yellow")
        status.append(" · " + fit_parts(key_hints(), max(0, width - len(control.message) - 3), keep_last=2),
                      style="dim")
    else:
        status.append(fit_parts(key_hints(), width, keep_last=2), style="dim")
    return status


def stepper_screen(stepper: Stepper, *, names: dict[str, str], title: str = "", symbols: bool = True,
                   control: Optional["StepperKeys"] = None,
                   size: ScreenSize = ScreenSize(120, 40),
                   analysis: Optional[AnalysisShown] = None) -> RenderableType:
    """The stepper's whole screen at a position: exactly ``size.height`` rows, the keys on the last.

    ``analysis`` (``replay --analyse``): the value before the trick and the cards that lost value
    among the notes, their ? or ?? in the trick box."""
    whatif = control.whatif if control is not None else None
    view: Any = whatif.view if whatif is not None else stepper
    snap = view.snap
    rules = stepper.rules
    n = rules.seats
    width, height = size
    frame = _frame(size, n)
    if whatif is not None:
        analysis = None                 # the game's analysis is not the line's
    flags = view.flags_here()
    layout = seat_layout(n)
    by_pos = {pos: seat for seat, pos in layout.items()}

    where = view.where()
    if title and Text(f"{title} · {where}").cell_len <= width:
        where = f"{title} · {where}"
    head = Text(_words_fitting(where, width) or where, style="bold")
    errors = [f"{ERROR_MARK} {plural_word(len(stepper.flags), 'error')} (e: next)"] if stepper.flags else []
    match = fit_parts(match_parts(stepper.match(), rules) + errors, width, keep_last=len(errors))
    status = Text(match, style="cyan") if whatif is None else whatif_status(whatif, width)

    def seat(pos: str, w: int, one_line: bool = False) -> RenderableType:
        s = by_pos.get(pos)
        inline = n == 6 and frame.compact
        return _seat_lines(s, snap, names, n, symbols, w, one_line=one_line, inline=inline) if s else Text("")

    box_ = _trick_box(snap, n, symbols, frame, flags, analysis_marks(snap, analysis))
    if n == 6:
        w = frame.side
        top = Table.grid(padding=(0, 2))
        bottom = Table.grid(padding=(0, 2))
        for grid in (top, bottom):
            for _ in range(3):
                grid.add_column(width=w)
        top.add_row(seat("NW", w), seat("N", w), seat("NE", w))
        bottom.add_row(seat("SW", w), seat("S", w), seat("SE", w))
        table: RenderableType = Group(_Fixed(top, frame.seat_height), _Fixed(Align.center(box_), frame.box_height),
                                      _Fixed(bottom, frame.seat_height))
    else:
        middle = Table.grid(padding=(0, 2))
        middle.add_column(width=frame.side, vertical="middle")
        middle.add_column(width=frame.box)
        middle.add_column(width=frame.side, vertical="middle")
        middle.add_row(seat("W", frame.side), box_, seat("E", frame.side))
        margin = max(0, (width - 2 * frame.side - frame.box - 4) // 2)
        if frame.compact:
            # from the trick box's left edge, so that the hand does not move as it shrinks
            pad = margin + frame.side + 2
            north: RenderableType = Padding(seat("N", width - pad, one_line=True), (0, 0, 0, pad))
            south: RenderableType = Padding(seat("S", width - pad, one_line=True), (0, 0, 0, pad))
            seat_h = 2
        else:
            north = Padding(seat("N", frame.box), (0, 0, 0, margin + frame.side + 2))
            south = Padding(seat("S", frame.box), (0, 0, 0, margin + frame.side + 2))
            seat_h = frame.seat_height
        table = Group(_Fixed(north, seat_h), _Fixed(Padding(middle, (0, 0, 0, margin)), frame.box_height),
                      _Fixed(south, seat_h))

    root = Layout()
    regions = [Layout(head, size=1), Layout(status, size=1)]
    if control is not None and control.help:
        keys = Table(box=box.SIMPLE, show_edge=False, title="Keys (? again to close)", title_justify="left")
        keys.add_column("key", style="bold", no_wrap=True)
        keys.add_column("does")
        for k, v in help_rows(WHATIF_KEYS if whatif is not None else STEPPER_KEYS):
            keys.add_row(k, v)
        regions.append(Layout(keys, ratio=1))
    else:
        # a terminal too small for everything loses the table first, then the info: never the keys
        avail = max(0, height - 3)
        table_h = frame.table if avail >= frame.table + 3 else 0
        info_h = 3 if avail - table_h >= 3 else 0
        notes_h = avail - table_h - info_h
        if table_h:
            regions.append(Layout(table, size=table_h))
        if info_h:
            info = _info(snap, rules, symbols, width, over=view.deal_over, at_end=view.at_end())
            regions.append(Layout(info, size=info_h))
        if notes_h:
            lead = whatif_notes(whatif, symbols) if whatif is not None else []
            notes = _notes(view, snap, rules, symbols, width, notes_h, flags, analysis, lead)
            if not table_h:
                notes = Group(Text(f"(a terminal of at least {max(width, 80)} by {frame.table + 6} "
                                   "shows the table)", style="dim"), notes)
            regions.append(Layout(notes, size=notes_h))
    regions.append(Layout(_keys_line(control, width), size=1))
    root.split_column(*regions)
    return root


# ---- what-if mode (w): the line played on ----------------------------------------------------

def whatif_status(whatif: "WhatIf", width: int) -> Text:
    """The second line in what-if mode: who plays, where the line left the game."""
    parts = [f"what-if: {whatif.who_plays()}"]
    left = whatif.left()
    if left is not None:
        instead = f"for {left.recorded}" if left.recorded else "past the record's end"
        parts.append(f"left the game at trick {left.trick} card {left.card}: {left.seat} {left.chosen} {instead}")
    return Text(fit_parts(parts, width), style="cyan")


def whatif_notes(whatif: "WhatIf", symbols: bool) -> list[Text]:
    """The cards to choose from (each with its key), then what just happened."""
    out: list[Text] = []
    table = whatif.table
    if table.to_play is not None:
        line = Text(f"{table.to_play} to play: ", style="bold")
        choices = whatif.choices()
        for i, (key, card) in enumerate(choices):
            if i:
                line.append("  ")
            line.append(key + ":", style="bold yellow")        # one word: a wrap never parts them
            line.append_text(card_text(card, symbols, style="bold"))
        more = len(table.legal_cards()) - len(choices)
        if more > 0:
            line.append(f"  … {more} more: c types a card", style="dim")
        out.append(line)
    if whatif.message:
        out.append(Text(_long_words_cut(whatif.message), style="yellow"))
    return out


def whatif_keys_line(whatif: "WhatIf", width: int) -> Text:
    """The last line in what-if mode: a prompt, or the keys."""
    status = Text()
    if whatif.confirm is not None:
        status.append(f"{whatif.confirm} exists: overwrite it? y / n", style="bold yellow")
    elif whatif.prompt is not None:
        shown = whatif.prompt[-max(10, width - 40):]
        status.append(f"save as: {shown}", style="bold yellow")
        status.append("▏  (Enter saves, Esc cancels)", style="dim")
    elif whatif.card_prompt is not None:
        status.append(f"card to play: {whatif.card_prompt}", style="bold yellow")
        status.append("▏  (Enter plays it, Esc cancels)", style="dim")
    elif whatif.problem:
        # the problem first (its code and the words that fit: the notes hold it whole), the keys after
        hints = fit_parts(key_hints(WHATIF_KEYS)[-3:], max(0, width // 3), keep_last=2)
        said = _words_fitting(_long_words_cut(whatif.problem), max(10, width - Text(hints).cell_len - 3))
        status.append(said, style="bold red")
        status.append(" · " + hints, style="dim")
    else:
        status.append(fit_parts(key_hints(WHATIF_KEYS), width, keep_last=2), style="dim")
    return status


class _Fixed:
    """Render ``renderable`` in exactly ``height`` lines."""

    def __init__(self, renderable: RenderableType, height: int) -> None:
        self.renderable = renderable
        self.height = height

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = console.render_lines(self.renderable, options.update(height=None), pad=True)
        blank = [Segment(" " * options.max_width)]
        lines = (lines + [blank] * self.height)[: self.height]
        for line in lines:
            yield from line
            yield Segment.line()


def plural_word(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def plain_step_lines(snap: Snapshot, rules: Rules) -> list[str]:
    """The text ``replay --plain`` prints for one step (after the card just played)."""
    if snap.trick is None:
        return []
    t = snap.trick
    p = snap.shown[-1]
    lines = [f"  {p.seat} plays {p.card}" + (" (leads)" if len(snap.shown) == 1 else "")]
    if snap.event and snap.event_now:
        lines.append(f"    {snap.event}")
    notes = record_notes(snap)
    for seat, card, glyph, said in notes:
        if card == p.card and seat == p.seat:
            lines.append(f"    {seat} {card}{glyph}" + (f": {said}" if said else ""))
    if snap.complete:
        sides = rules.sides
        text = f"  {t.winner} wins trick {t.number}"
        if snap.capture is not None:
            text += f"; {capture_text(snap.capture)}"
        lines.append(text)
        if not capture_mode(rules).immediate:
            centre = f"    centre: {snap.centre_cards} cards"
            if snap.centre_tens:
                centre += " (" + " ".join(snap.centre_tens) + ")"
            lines.append(centre)
        piles = "; ".join(
            f"{s} pile {snap.piles.get(s, 0)} cards, tens {' '.join(snap.pile_tens.get(s, ())) or 'none'}"
            for s in sides)
        lines.append(f"    {piles}")
        lines.extend(f"    {seat}: {said}" for seat, card, _glyph, said in notes if not card)
    return lines


def plain_hands(snap: Snapshot, rules: Rules) -> list[str]:
    lines = []
    for seat in rules.seat_letters:
        cards = snap.hands.get(seat, ())
        groups = []
        for suit in SUITS:
            ranks = [c[:-1] for c in cards if c[-1] == suit]
            groups.append(f"{suit} {' '.join(ranks) if ranks else '-'}")
        extra = f"  (+{snap.unknown[seat]} not in the record)" if snap.unknown.get(seat) else ""
        lines.append(f"  {seat}: " + "  ".join(groups) + extra)
    return lines


__all__ = [
    "stepper_screen", "plain_step_lines", "plain_hands", "ScreenSize", "fit_parts", "AnalysisShown",
    "analysis_items", "analysis_marks", "ERROR_MARK",
]
