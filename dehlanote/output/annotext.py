"""``annotate``'s deal tables written directly: Rich's layout of :func:`.render.deal_table`
without building a Rich table.

Rich lays a deal's table out in about 10 ms (each of its hundred cells measured, padded,
split into segments and cropped), which held ``annotate`` to 80-100 deals a second. The
table has a fixed shape: one line a cell, its columns as wide as their widest cell (or
their minimum), so the text can be written at once. :class:`DealWriter` writes the
heading, the table (its columns, header lines aligned to the bottom, the header's rule),
the result line and the footnotes exactly as Rich would: piped, the same characters byte
for byte (``tests/cli/test_annotate_direct.py`` compares the two on every sample and on
random games at many widths); on a terminal, the same characters in the same styles, the
styles rendered by Rich's own console (its colour system, ``NO_COLOR``, its guard against
control characters).

Where the table does not fit the width at its natural size, the columns are narrowed the
way Rich narrows them (the widest wrappable column first) and a cell too long for its
column is wrapped by Rich's own :meth:`rich.text.Text.wrap`. When even that is not enough
(a console narrower than the columns' minimums) or the console cannot show the table's
characters (an encoding other than UTF-8), :meth:`DealWriter.deal` returns False and the
caller prints :func:`.render.deal_table` through Rich.

The content (which card is bold, which ten is marked) is built here again from the same
facts, independently of ``deal_table``: the differential test is what keeps the two equal.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, NamedTuple, Optional

from ..deck import SUIT_SYMBOLS
from ..deck import side_of
from ..replay.facts import DealFact, GameFacts, TrickFact
from ..replay.methods import capture_mode
from ..rules.profile import Rules
from ..text import printable_block
from .notes import deal_heading, deal_result_text, trump_event

if TYPE_CHECKING:
    from rich.console import Console
    from rich.style import Style
    from rich.text import Text

__all__ = ["DealWriter"]

#: the styles over a piece of text, outermost first (as Rich stacks a Text's spans)
Stack = tuple[str, ...]
#: a piece of text and its styles
Run = tuple[str, Stack]
NONE: Stack = ()


class _Column(NamedTuple):
    header: tuple[str, ...]     # the header's lines
    right: bool                 # justified right
    min_width: int
    no_wrap: bool


_CARD_RUNS: dict[tuple[str, bool, str], Run] = {}


def _card(card: str, symbols: bool, style: str = "") -> Run:
    """:func:`.render.card_text` as a run."""
    key = (card, symbols, style)
    run = _CARD_RUNS.get(key)
    if run is None:
        suit = card[-1]
        shown = card[:-1] + (SUIT_SYMBOLS[suit] if symbols else suit)
        full = " ".join(s for s in ("red" if suit in "HD" else "", style) if s)
        run = _CARD_RUNS[key] = (shown, (full,) if full else NONE)
    return run


class _Runs(dict[str, "tuple[Run, ...]"]):
    """Each card's runs in a trick: as played (``style`` ""), or the winner's with its ``*``."""

    def __init__(self, symbols: bool, won: bool) -> None:
        super().__init__()
        self.symbols, self.won = symbols, won

    def __missing__(self, card: str) -> tuple[Run, ...]:
        runs = ((_card(card, self.symbols, "bold underline"), ("*", ("bold",))) if self.won
                else _card(card, self.symbols))
        self[card] = runs               # type: ignore[assignment]
        return runs


_PLAIN_RUNS: dict[bool, Any] = {True: _Runs(True, False), False: _Runs(False, False)}
_WON_RUNS: dict[bool, Any] = {True: _Runs(True, True), False: _Runs(False, True)}
_SPACE: Run = (" ", NONE)


def _cards(trick: TrickFact, symbols: bool, marks: set[str], cross: str,
           analysis: dict[int, str]) -> list[Run]:
    """:func:`.render._trick_cards` as runs."""
    out: list[Run] = []
    winner = trick.winner
    if not marks and not analysis:      # (the common case, from two tables of runs)
        plain, won = _PLAIN_RUNS[symbols], _WON_RUNS[symbols]
        for seat, p in zip(trick.order, trick.trick.plays):
            if out:
                out.append(_SPACE)
            if seat == winner:
                out += won[p.card]
            else:
                out.append(plain[p.card])
        return out
    for i, (seat, p) in enumerate(zip(trick.order, trick.trick.plays)):
        card = p.card
        if i:
            out.append((" ", NONE))
        win = seat == winner
        marked = card in marks
        if win:
            out.append(_card(card, symbols, "bold underline reverse" if marked else "bold underline"))
        else:
            out.append(_card(card, symbols, "reverse" if marked else ""))
        if i in analysis:
            out.append((analysis[i], ("bold magenta",)))
        if win:
            out.append(("*", ("bold",)))
        if marked:
            out.append((cross, ("bold yellow",)))
    return out


_SHOWN: dict[tuple[str, bool], str] = {}


def _cards_plain(trick: TrickFact, symbols: bool, marks: set[str], cross: str, analysis: dict[int, str]) -> str:
    """The text of :func:`_cards` alone."""
    parts = []
    winner = trick.winner
    for i, (seat, p) in enumerate(zip(trick.order, trick.trick.plays)):
        card = p.card
        shown = _SHOWN.get((card, symbols))
        if shown is None:
            shown = _SHOWN[card, symbols] = _card(card, symbols)[0]
        if i in analysis:
            shown += analysis[i]
        if seat == winner:
            shown += "*"
        if card in marks:
            shown += cross
        parts.append(shown)
    return " ".join(parts)


#: a ten that changed sides: its card, the trick it was won in, that trick's winner and side,
#: the seat and side of the capture that took it
_Crossed = tuple[str, int, str, str, str, str]


def _tens(deal: DealFact, seats: int) -> tuple[dict[int, list[_Crossed]], dict[int, set[str]]]:
    """The tens that changed sides (:func:`.notes.ten_stories`' crossed ones): by the trick of
    their capture, (card, trick won, its winner, winner's side, capture's seat, capture's side) in
    playing order; and by the trick they were won in, their cards."""
    pending: list[tuple[str, int, str]] = []
    crossed: dict[int, list[_Crossed]] = {}
    lost: dict[int, set[str]] = {}
    for t in deal.tricks:
        for p in t.trick.plays:
            if p.card.startswith("10"):
                pending.append((p.card, t.number, t.winner))
        cap = t.capture
        if cap is None or not cap.tens:
            continue
        taken: dict[str, int] = {}
        for ten in cap.tens:
            taken[ten] = taken.get(ten, 0) + 1
        keep = []
        for card, number, winner in pending:
            if taken.get(card, 0) > 0:
                taken[card] -= 1
                won_side = side_of(winner, seats)
                if won_side != cap.side:
                    crossed.setdefault(t.number, []).append((card, number, winner, won_side, cap.by, cap.side))
                    lost.setdefault(number, set()).add(card)
            else:
                keep.append((card, number, winner))
        pending = keep
    return crossed, lost


#: characters of the tables' own text that are one cell wide (so that a line of them and
#: of ASCII is as wide as it is long without asking Rich: checked by DealWriter.usable)
_NARROW = dict.fromkeys(map(ord, "·♠♥♦♣†→─═"))


def _cell_len(text: str) -> int:
    if text.isascii() or text.translate(_NARROW).isascii():
        return len(text)
    from rich.cells import cell_len
    return cell_len(text)


class _Content(NamedTuple):
    heading: list[Run]
    columns: list[_Column]
    rows: list[list[list[Run]]]
    after: list[list[Run]]      # the lines under the table


def deal_content(deal: DealFact, rules: Rules, facts: Optional[GameFacts], symbols: bool,
                 lost_value: Optional[dict[tuple[int, int], str]], styled: bool = True) -> _Content:
    """What :func:`.render.deal_table` shows, as runs of styled text (each cell one run of its
    text unless ``styled``)."""
    sides = rules.sides
    centre_rule = not capture_mode(rules).immediate
    cross = "†" if symbols else "!"
    columns = [_Column(("#",), True, 0, False), _Column(("lead",), False, 4, False),
               _Column(("cards (winner *)",), False, 0, True), _Column(("won",), False, 3, True)]
    if centre_rule:
        columns.append(_Column(("centre", "after"), True, 6, False))
    columns += [_Column(("capture" if centre_rule else "taken",), False, 9, False),
                _Column(("tens", sides[0]), True, 4, False), _Column(("tens", sides[1]), True, 4, False)]
    rows: list[list[list[Run]]] = []
    footnotes: list[list[Run]] = []
    by_trick: dict[int, dict[int, str]] = {}
    for (n, k), mark in (lost_value or {}).items():
        by_trick.setdefault(n, {})[k] = mark
    crossed_by, lost_by = _tens(deal, rules.seats)
    tens = {side: 0 for side in sides}
    no_marks: set[str] = set()
    no_analysis: dict[int, str] = {}
    for t in deal.tricks:
        c = t.capture
        if c is not None:
            tens[c.side] = tens.get(c.side, 0) + len(c.tens)
        crossed = crossed_by.get(t.number, ())
        marks = lost_by.get(t.number, no_marks)
        analysis = by_trick.get(t.number, no_analysis)
        row = [[(str(t.number), NONE)], [(t.leader, NONE)],
               _cards(t, symbols, marks, cross, analysis) if styled else
               [(_cards_plain(t, symbols, marks, cross, analysis), NONE)], [(t.winner, NONE)]]
        if centre_rule:
            centre: list[Run] = [(str(t.centre_cards), NONE)]
            if t.centre_tens:
                centre.append((" (", NONE))
                for i, ten in enumerate(t.centre_tens):
                    if i:
                        centre.append((" ", NONE))
                    centre.append(_card(ten, symbols))
                centre.append((")", NONE))
            row.append(centre if styled else [("".join([t for t, _ in centre]), NONE)])
        cap: list[Run] = []
        if c is not None:
            if c.reason == "trick":
                cap.append((f"{c.by} → {c.side}", NONE))
            elif c.reason == "last-trick":
                cap.append((f"{c.by} takes last {c.cards} → {c.side}", NONE))
            else:
                cap.append((f"{c.by} sweeps {c.cards} → {c.side}", NONE))
            marked = {story[0] for story in crossed}
            for ten in c.tens:
                cap.append((" ", NONE))
                cap.append(_card(ten, symbols, "bold"))
                if ten in marked:
                    cap.append((cross, ("bold yellow",)))
            if not styled:
                cap = [("".join([t for t, _ in cap]), NONE)]
        row.append(cap)
        row.append([(str(tens.get(sides[0], 0)), NONE)])
        row.append([(str(tens.get(sides[1], 0)), NONE)])
        rows.append(row)
        event = trump_event(t, deal.trump)
        if event:
            footnotes.append([("  ", NONE), (f"trick {t.number}: {_short_event(t.trump, event, symbols)}",
                                             ("magenta",))])
        for card, number, won_by, won_side, taken_by, taken_side in crossed:
            shown, style = _card(card, symbols, "bold")
            footnotes.append([("  ", NONE), (f"trick {t.number}: ", ("yellow",)), (shown, ("yellow",) + style),
                              (cross, ("yellow", "bold yellow")),
                              (f" won by {won_by} ({won_side}) in trick {number}, swept by {taken_by} "
                               f"to {taken_side}", ("yellow", "yellow"))])
    result = deal_result_text(deal, rules, facts)
    footer: list[Run] = [("  ", NONE), (result[0], ("bold",))]
    for extra in result[1:]:
        footer.append((" · " + extra, NONE))
    after = [footer, *footnotes]
    if lost_value:
        after.append([("  ? and ??: the analysis's marks, cards that lost value (how it judged them and "
                       "what would have kept it is under the game)", ("dim",))])
    if centre_rule and deal.complete and not crossed_by:
        after.append([("  every ten ended with the side that won its trick", ("dim",))])
    return _Content([(deal_heading(deal), ("bold",))], columns, rows, after)


class _Shown(dict[str, str]):
    """Each card's text as :func:`.render.card_text` writes it (``--symbols`` or ``--letters``)."""

    def __init__(self, symbols: bool) -> None:
        super().__init__()
        self.symbols = symbols

    def __missing__(self, card: str) -> str:
        shown = self[card] = _card(card, self.symbols)[0]
        return shown


_SHOWN_BY = {True: _Shown(True), False: _Shown(False)}


def _shown(symbols: bool) -> _Shown:
    return _SHOWN_BY[symbols]


def _plain_table(deal: DealFact, rules: Rules, facts: Optional[GameFacts], symbols: bool,
                 lost_value: Optional[dict[tuple[int, int], str]], width: int) -> Optional[str]:
    """The deal's piped text (:meth:`DealWriter._piped` of :func:`deal_content`) built as
    strings at once, for a table at its natural width whose lines all fit ``width``; None
    otherwise."""
    sides = rules.sides
    side_a, side_b = sides
    centre_rule = not capture_mode(rules).immediate
    cross = "†" if symbols else "!"
    shown = _shown(symbols)
    by_trick: dict[int, dict[int, str]] = {}
    for (n, k), mark in (lost_value or {}).items():
        by_trick.setdefault(n, {})[k] = mark
    crossed_by, lost_by = _tens(deal, rules.seats)
    tens_a = tens_b = 0
    numbers, leads, cards, wons, centres, caps, as_, bs = [], [], [], [], [], [], [], []
    footnotes: list[str] = []
    tf = deal.trump
    for t in deal.tricks:
        number = t.number
        c = t.capture
        if c is not None:
            if c.side == side_a:
                tens_a += len(c.tens)
            elif c.side == side_b:
                tens_b += len(c.tens)
        crossed = crossed_by.get(number)
        marks = lost_by.get(number)
        analysis = by_trick.get(number)
        numbers.append(str(number))
        leads.append(t.leader)
        if marks is None and analysis is None:
            parts = [shown[p.card] for p in t.trick.plays]
            at = t.order.find(t.winner) if t.winner else -1
            if 0 <= at < len(parts):
                parts[at] += "*"
            cards.append(" ".join(parts))
        else:
            cards.append(_cards_plain(t, symbols, marks or set(), cross, analysis or {}))
        wons.append(t.winner)
        if centre_rule:
            if t.centre_tens:
                centres.append(f"{t.centre_cards} ({' '.join([shown[ten] for ten in t.centre_tens])})")
            else:
                centres.append(str(t.centre_cards))
        if c is None:
            caps.append("")
        else:
            if c.reason == "trick":
                cap = f"{c.by} → {c.side}"
            elif c.reason == "last-trick":
                cap = f"{c.by} takes last {c.cards} → {c.side}"
            else:
                cap = f"{c.by} sweeps {c.cards} → {c.side}"
            if c.tens:
                marked = {story[0] for story in crossed} if crossed else ()
                cap += "".join([" " + shown[ten] + (cross if ten in marked else "") for ten in c.tens])
            caps.append(cap)
        as_.append(str(tens_a))
        bs.append(str(tens_b))
        if tf is not None and (tf.trick is not None or tf.set_at is not None):
            event = trump_event(t, tf)
            if event:
                footnotes.append(f"  trick {number}: {_short_event(t.trump, event, symbols)}")
        if crossed:
            for card, won_in, won_by, won_side, taken_by, taken_side in crossed:
                footnotes.append(f"  trick {number}: {shown[card]}{cross} won by {won_by} ({won_side}) in trick "
                                 f"{won_in}, swept by {taken_by} to {taken_side}")
    if centre_rule:
        data = [numbers, leads, cards, wons, centres, caps, as_, bs]
        heads = [("", "#"), ("", "lead"), ("", "cards (winner *)"), ("", "won"), ("centre", "after"),
                 ("", "capture"), ("tens", side_a), ("tens", side_b)]
        rights = (True, False, False, False, True, False, True, True)
        mins = (0, 4, 0, 3, 6, 9, 4, 4)
    else:
        data = [numbers, leads, cards, wons, caps, as_, bs]
        heads = [("", "#"), ("", "lead"), ("", "cards (winner *)"), ("", "won"), ("", "taken"),
                 ("tens", side_a), ("tens", side_b)]
        rights = (True, False, False, False, False, True, True)
        mins = (0, 4, 0, 3, 9, 4, 4)
    inner = [max(m, len(h[0]), len(h[1]), max(map(len, col), default=0))
             for col, h, m in zip(data, heads, mins)]
    table_width = sum(inner) + 3 * len(inner) - 3
    if table_width > width - 2:
        return None
    result = deal_result_text(deal, rules, facts)
    after = ["  " + " · ".join(result), *footnotes]
    if lost_value:
        after.append("  ? and ??: the analysis's marks, cards that lost value (how it judged them and "
                     "what would have kept it is under the game)")
    if centre_rule and deal.complete and not crossed_by:
        after.append("  every ten ended with the side that won its trick")
    heading = deal_heading(deal)
    for line in (heading, *after):
        if len(line) > width and (not line.isascii() or _cell_len(line) > width) or "\n" in line or "\t" in line:
            return None
    padded = [[s.rjust(w) for s in col] if right else [s.ljust(w) for s in col]
              for col, w, right in zip(data, inner, rights)]
    top = "  " + "   ".join([(h[0].rjust(w) if right else h[0].ljust(w))
                             for h, w, right in zip(heads, inner, rights)])
    bottom = "  " + "   ".join([(h[1].rjust(w) if right else h[1].ljust(w))
                                for h, w, right in zip(heads, inner, rights)])
    out = [heading.rstrip(), top.rstrip(), bottom.rstrip(), "  " + "─" * table_width]
    out += ["  " + "   ".join(row) for row in zip(*padded)]
    if not rights[-1]:
        out[4:] = [line.rstrip() for line in out[4:]]
    out += [line.rstrip() for line in after]
    return "\n".join(out) + "\n"


def _short_event(suit: Optional[str], event: str, symbols: bool) -> str:
    """:func:`.render._short_event`."""
    if "drawn" in event:
        return event.split(": ", 1)[-1]
    shown = (SUIT_SYMBOLS[suit] if symbols else suit) if suit else "?"
    verb = "revealed" if "revealed" in event else "set"
    return f"trump {shown} {verb} by {event.split(' ', 1)[0]}"


# ---- the layout ---------------------------------------------------------------------------------

#: a laid-out line: runs of text, each with its styles (the cell's own first)
Line = list[Run]
#: the styles of a header cell (Rich's table.header), under the cell's own
HEADER: Stack = ("table.header",)


def _one_cell_wide(chars: str) -> bool:
    from rich.cells import cell_len
    return all(cell_len(c) == 1 for c in chars)


class DealWriter:
    """Writes deal tables to ``console`` the way Rich lays out :func:`.render.deal_table`.

    ``piped``: the text only, each line without its trailing spaces (what
    :class:`~dehlanote.commands.common.TextOut` makes of Rich's output when piped); else
    through the console with its styles."""

    def __init__(self, console: Console, piped: bool) -> None:
        self.console = console
        self.piped = piped
        # every character of a table cell (digits, seats, cards, marks, arrows) is one cell
        # wide in Rich's reckoning, so a cell's width is its length
        self.usable = (console.encoding or "").lower().replace("-", "").startswith("utf") \
            and _one_cell_wide("·♠♥♦♣†→─═")
        self._styles: dict[Stack, Optional[Style]] = {}
        self._width: Optional[int] = None
        self._held: list[str] = []
        self._watched = False
        self._size = 0
        self._ansi: dict[Run, str] = {}      # a styled run as written to the terminal
        self._tops: dict[object, str] = {}   # a table's header and rule on the terminal, by its widths

    def deal(self, deal: DealFact, rules: Rules, facts: Optional[GameFacts] = None, *, symbols: bool = True,
             lost_value: Optional[dict[tuple[int, int], str]] = None, blank: bool = False) -> bool:
        """Write the deal's table (with a newline at its end, as ``console.print`` does; after a
        blank line with ``blank``); False, with nothing written, when Rich must lay it out.
        The text is held until :meth:`flush` (or until some is gathered)."""
        if not self.usable:
            return False
        if self.piped:
            if self._width is None:
                self._width = self.console.width     # (a pipe's width does not change)
            width = self._width
            text = _plain_table(deal, rules, facts, symbols, lost_value, width)
            if text is None:        # narrowed or wrapped: the general layout
                text = self._piped(deal_content(deal, rules, facts, symbols, lost_value, styled=False), width)
                if text is None:
                    return False
        else:
            text = self._terminal(deal_content(deal, rules, facts, symbols, lost_value), self._console_width())
            if text is None:
                return False
        self.write("\n" + text if blank else text)
        return True

    def write(self, text: str) -> None:
        """Write ``text`` after what is held (in pieces of about 16 KB: a write to a terminal costs)."""
        self._held.append(text)
        self._size += len(text)
        if self._size > 16384:
            self.flush()

    def flush(self) -> None:
        """Write what is held (before anything else writes to the console)."""
        if self._held:
            file = self.console.file
            file.write("".join(self._held))
            self._held.clear()
            self._size = 0
            if not self.piped:
                file.flush()

    def _console_width(self) -> int:
        """The console's width: a pipe's read once, a terminal's each time (once, and again
        after each resize, while :meth:`watching`)."""
        if self._width is None:
            if not self.piped and not self._watched:
                return self.console.width
            self._width = self.console.width
        return self._width

    @contextmanager
    def watching(self) -> Iterator[None]:
        """On a terminal, while in the block: its width read once and again after a resize
        (``SIGWINCH``) instead of for every table (Rich asks the terminal each time)."""
        import signal
        import threading
        winch = getattr(signal, "SIGWINCH", None)
        if self.piped or winch is None or threading.current_thread() is not threading.main_thread():
            yield
            return
        before = signal.getsignal(winch)

        def resized(signum: int, frame: object) -> None:
            self._width = None
            if callable(before):
                before(signum, frame)

        signal.signal(winch, resized)
        self._watched, self._width = True, None
        try:
            yield
        finally:
            signal.signal(winch, before)
            self._watched, self._width = False, None

    def blank(self) -> None:
        """``console.print()``: an empty line."""
        self.write("\n")

    def text(self, text: Text) -> bool:
        """``console.print(text)`` of a Rich Text that fits on one line (False, with nothing
        written, when it does not: Rich wraps it)."""
        plain = text.plain
        if "\n" in plain or "\t" in plain or "\r" in plain or _cell_len(plain) > self._console_width():
            return False
        if self.piped:
            self.write(plain.rstrip() + "\n")
            return True
        if self.console.legacy_windows or self.console.color_system is None:
            return False
        self.write(self._render([_runs_of(text)], printable=True))
        return True

    def rule(self, title: Text, characters: str) -> bool:
        """``console.rule(title, align="left", characters=characters)`` on a terminal (Rich's
        :class:`rich.rule.Rule`: the title, a space and the line to the edge), or False."""
        plain = title.plain
        if "\n" in plain or "\t" in plain or "\r" in plain or _cell_len(characters) != 1:
            return False
        width = self._console_width()
        if self.piped:              # (TextOut.rule: the title, a line as long)
            n = _cell_len(plain)
            if n > width:
                return False
            self.write(plain.rstrip() + "\n" + (characters * min(n, width)).rstrip() + "\n")
            return True
        if _cell_len(plain) > width - 2:
            return False            # (Rich truncates it)
        from rich.text import Text
        line = Text(end="\n")
        line.append(title)
        line.append(" ")
        line.append(characters * (width - line.cell_len), "rule.line")
        return self.text(line)

    # ---- on a terminal: the text with Rich's styles ----

    def _terminal(self, content: _Content, width: int) -> Optional[str]:
        """The deal as Rich writes it to the terminal (each run in its style), or None."""
        console = self.console
        if console.legacy_windows or console.color_system is None:
            return None         # (Rich writes styles through the console API there, or none at all)
        plains = [[cell[0][0] if len(cell) == 1 else "".join([t for t, _ in cell]) if cell else ""
                   for cell in row] for row in content.rows]
        text = self._grid_ansi(content, plains, width)
        if text is not None:
            return text
        lines = self.lines(content, width)
        if lines is None:
            return None
        return self._render(lines)

    def _ansi_run(self, run: Run) -> str:
        """A styled run as Rich writes it to the terminal."""
        got = self._ansi.get(run)
        if got is None:
            got = self._render([[run]])[:-1]
        return got

    def _grid_ansi(self, content: _Content, plains: list[list[str]], width: int) -> Optional[str]:
        """:meth:`_render` of :meth:`_grid`, each cell rendered as it is laid out."""
        columns = content.columns
        inner = self._inner(columns, plains, width - 2)
        if inner is None:
            return None
        count = len(columns)
        table_width = sum(inner) + 3 * count - 3
        fill = " " * (width - 2 - table_width) if table_width + 2 < width else ""
        key = (tuple(columns), tuple(inner), fill)
        top = self._tops.get(key)
        if top is None:
            height = max(len(c.header) for c in columns)
            lines: list[Line] = []
            for k in range(height):
                line: Line = [("  ", NONE)]
                for i, (col, w) in enumerate(zip(columns, inner)):
                    if i:
                        line += [(" ", HEADER), (" ", NONE), (" ", HEADER)]
                    j = k - (height - len(col.header))
                    h = col.header[j] if j >= 0 else ""
                    line.append((h.rjust(w) if col.right else h.ljust(w), HEADER))
                lines.append(line + [(fill, NONE)])
            lines.append([("  " + "─" * table_width + fill, NONE)])
            top = self._tops[key] = self._render(lines)
        out = [self._render(self._text(content.heading, width)), top]
        ansi = self._ansi
        tail = fill + "\n"
        rights = [c.right for c in columns]
        for row, texts in zip(content.rows, plains):
            cells = []
            for cell, text, right, w in zip(row, texts, rights, inner):
                gap = w - len(text)
                if gap < 0:
                    break
                if len(cell) == 1:
                    run = cell[0]
                    shown = run[0] if not run[1] else ansi.get(run) or self._ansi_run(run)
                else:
                    shown = "".join([run[0] if not run[1] else ansi.get(run) or self._ansi_run(run)
                                     for run in cell])
                if gap:
                    shown = " " * gap + shown if right else shown + " " * gap
                cells.append(shown)
            else:
                out.append("  " + "   ".join(cells) + tail)
                continue
            tall: list[list[Line]] = [[] for _ in columns]
            for i, (cell, text, col, w) in enumerate(zip(row, texts, columns, inner)):
                if len(text) > w:
                    if col.no_wrap or max(map(len, text.split())) > w:
                        return None
                    tall[i] = _wrapped(cell, text, w, col.right, NONE)
            out.append(self._render(_tall_row(row, texts, tall, columns, inner, [(fill, NONE)] if fill else [])))
        for runs in content.after:
            out.append(self._render(self._text(runs, width)))
        return "".join(out)

    def _render(self, lines: list[Line], printable: bool = False) -> str:
        """The lines with Rich's escape sequences (each run's text made printable first with
        ``printable``, as Rich's safe console does with text that is not the table's own)."""
        cache = self._ansi
        out = []
        for line in lines:
            for run in line:
                text, stack = run
                if not stack or not text:
                    out.append(printable_block(text) if printable else text)
                    continue
                got = cache.get(run)
                if got is None:
                    from rich.console import COLOR_SYSTEMS
                    style = self._style(stack)
                    shown = printable_block(text) if printable else text
                    got = shown if style is None else style.render(
                        shown, color_system=COLOR_SYSTEMS[self.console.color_system])
                    if len(text) <= 24:
                        cache[run] = got
                out.append(got)
            out.append("\n")
        return "".join(out)

    def _grid(self, content: _Content, plains: list[list[str]], width: int) -> Optional[list[Line]]:
        """:meth:`lines` where every header fits its column and every cell fits or wraps at
        spaces (Rich's own places): the table at its natural width, or narrowed as Rich
        narrows it; None otherwise (the general layout)."""
        columns = content.columns
        inner = self._inner(columns, plains, width - 2)
        if inner is None:
            return None
        out: list[Line] = []
        out += self._text(content.heading, width)
        count = len(columns)
        table_width = sum(inner) + 3 * count - 3
        fill = [(" " * (width - 2 - table_width), NONE)] if table_width + 2 < width else []
        height = max(len(c.header) for c in columns)
        for k in range(height):
            line: Line = [("  ", NONE)]
            for i, (col, w) in enumerate(zip(columns, inner)):
                if i:
                    line += [(" ", HEADER), (" ", NONE), (" ", HEADER)]
                j = k - (height - len(col.header))
                h = col.header[j] if j >= 0 else ""
                line.append((h.rjust(w) if col.right else h.ljust(w), HEADER))
            out.append(line + fill)
        out.append([("  " + "─" * table_width, NONE), *fill])
        for row, texts in zip(content.rows, plains):
            tall: Optional[list[list[Line]]] = None
            line = [("  ", NONE)]
            for i, (cell, text, col, w) in enumerate(zip(row, texts, columns, inner)):
                gap = w - len(text)
                if gap < 0:
                    if col.no_wrap or max(map(len, text.split())) > w:
                        return None
                    if tall is None:
                        tall = [[] for _ in columns]
                    tall[i] = _wrapped(cell, text, w, col.right, NONE)
                if i:
                    line.append(("   ", NONE))
                if gap > 0 and col.right:
                    line.append((" " * gap, NONE))
                line += cell
                if gap > 0 and not col.right:
                    line.append((" " * gap, NONE))
            if tall is None:
                out.append(line + fill)
                continue
            out += _tall_row(row, texts, tall, columns, inner, fill)
        for runs in content.after:
            out += self._text(runs, width)
        return out

    @staticmethod
    def _inner(columns: list[_Column], plains: list[list[str]], max_width: int) -> Optional[list[int]]:
        """Each column's width inside its padding as Rich's ``Table`` sets it (its natural
        width, or narrowed by Rich's own collapse), or None where Rich would crop the table or
        wrap a header."""
        count = len(columns)
        if plains:
            natural = [max(max(map(len, col.header)), max(map(len, cells)))
                       for col, cells in zip(columns, zip(*plains))]
        else:
            natural = [max(map(len, col.header)) for col in columns]
        inner = [max(n, c.min_width) for n, c in zip(natural, columns)]
        if sum(inner) + 3 * count - 3 <= max_width:
            return inner
        pads = [(0 if i == 0 else 1) + (0 if i == count - 1 else 1) for i in range(count)]
        widths = [w + p for w, p in zip(inner, pads)]
        room = max_width - (count - 1)          # the dividers
        if room < count:
            return None
        from rich.table import Table
        widths = Table._collapse_widths(widths, [not c.no_wrap for c in columns], room)
        if sum(widths) > room:
            return None                         # every column narrowed (Rich's last resort)
        inner = [max(min(n + p, w), c.min_width + p) - p for n, w, c, p in zip(natural, widths, columns, pads)]
        if sum(inner) + 3 * count - 3 > max_width or min(inner) < 1:
            return None
        if any(len(h) > w for c, w in zip(columns, inner) for h in c.header):
            return None
        return inner

    def _style(self, stack: Stack) -> Optional[Style]:
        try:
            return self._styles[stack]
        except KeyError:
            from rich.style import Style
            get = self.console.get_style
            style = Style.combine(s.style if isinstance(s, _StyleName) else get(s) for s in stack)
            if self.console.no_color:
                style = style.without_color          # NO_COLOR: bold stays, colours go (as Rich does)
            self._styles[stack] = style or None
            return style or None

    # ---- piped: the text alone ----

    def _piped(self, content: _Content, width: int) -> Optional[str]:
        """The deal's text as TextOut writes Rich's when piped (no trailing spaces), or None."""
        plains = [[cell[0][0] if len(cell) == 1 else "".join([t for t, _ in cell]) if cell else ""
                   for cell in row] for row in content.rows]
        lines = self._grid(content, plains, width)
        if lines is None:
            lines = self.lines(content, width)
        if lines is None:
            return None
        return "".join("".join([t for t, _ in line]).rstrip() + "\n" for line in lines)

    # ---- the general layout, with styles ----

    def lines(self, content: _Content, width: Optional[int] = None) -> Optional[list[Line]]:
        """The deal's lines as Rich would write them, or None when Rich must lay it out."""
        width = self.console.width if width is None else width
        out: list[Line] = []
        for runs in (content.heading,):
            out += self._text(runs, width)
        table = self._table(content.columns, content.rows, width - 2)
        if table is None:
            return None
        for line in table:
            used = sum(_cell_len(t) for t, _ in line)
            if used > width - 2:
                line = _crop(line, width - 2)
                used = width - 2
            line.insert(0, ("  ", NONE))
            if used + 2 < width:
                line.append((" " * (width - 2 - used), NONE))
            out.append(line)
        for runs in content.after:
            out += self._text(runs, width)
        return out

    def _text(self, runs: list[Run], width: int) -> list[Line]:
        """A line of text as ``console.print(Text)`` writes it: wrapped by Rich when too long."""
        plain = "".join(t for t, _ in runs)
        if _cell_len(plain) <= width and "\n" not in plain and "\t" not in plain:
            return [runs]
        return [self._from_text(line) for line in _rich_text(runs).wrap(
            self.console, width, justify="default", overflow="fold", tab_size=8, no_wrap=False)]

    def _from_text(self, text, base: Stack = NONE) -> Line:
        """A Rich Text's runs (its spans flattened; the styles of Rich's segments)."""
        line: Line = []
        for seg in text.render(self.console, end=""):
            line.append((seg.text, base + (_StyleName(seg.style),) if seg.style else base))
        return line

    def _table(self, columns: list[_Column], rows: list[list[list[Run]]], max_width: int) -> Optional[list[Line]]:
        """The table's lines (without the indent): Rich's ``Table(box=SIMPLE_HEAD, show_edge=False,
        pad_edge=False)`` with the default padding of one space each side."""
        count = len(columns)
        pads = [(0 if i == 0 else 1, 0 if i == count - 1 else 1) for i in range(count)]
        plains = [["".join(t for t, _ in cell) for cell in row] for row in rows]
        widths = []
        natural = []
        wrapable = []
        for i, col in enumerate(columns):
            pad = pads[i][0] + pads[i][1]
            longest = max(len(h) for h in col.header)
            for row in plains:
                n = len(row[i])
                if n > longest:
                    longest = n
            natural.append(longest + pad)
            widths.append(max(longest, col.min_width) + pad)
            wrapable.append(not col.no_wrap)
        max_width -= count - 1          # the dividers
        if max_width < count:
            return None
        if sum(widths) > max_width:
            from rich._ratio import ratio_reduce
            from rich.table import Table
            widths = Table._collapse_widths(widths, wrapable, max_width)
            if sum(widths) > max_width:     # Rich's last resort: every column narrowed
                widths = ratio_reduce(sum(widths) - max_width, [1] * count, widths, widths)
            widths = [max(min(n, w), c.min_width + p[0] + p[1])
                      for n, w, c, p in zip(natural, widths, columns, pads)]
            if any(w - p[0] - p[1] < 1 for w, p in zip(widths, pads)):
                return None
        header = [self._cell([[(h, NONE)] for h in col.header], col, w, p, HEADER)
                  for col, w, p in zip(columns, widths, pads)]
        out = self._row(header, widths, HEADER, top=False)
        out.append([("─" * (sum(widths) + count - 1), NONE)])
        for runs in rows:
            cells = [self._cell([cell], col, w, p, NONE) for cell, col, w, p in zip(runs, columns, widths, pads)]
            out += self._row(cells, widths, NONE, top=True)
        return out

    def _cell(self, lines: list[list[Run]], col: _Column, width: int, pad: tuple[int, int], base: Stack) -> list[Line]:
        """A cell's lines, each ``width`` wide: padded, justified (wrapped by Rich when too long)."""
        inner = width - pad[0] - pad[1]
        out: list[Line] = []
        for runs in lines:
            if base:
                runs = [(t, base + s) for t, s in runs]
            n = sum(len(t) for t, _ in runs)
            if n <= inner:
                filler = (" " * (inner - n), base)
                out.append(self._padded([filler, *runs] if col.right else [*runs, filler], inner, pad, base))
                continue
            plain = "".join([t for t, _ in runs])
            if not col.no_wrap and max(map(len, plain.split())) <= inner:
                for part in _wrapped(runs, plain, inner, col.right, base):
                    out.append(self._padded(part, inner, pad, base))
                continue
            wrapped = _rich_text(runs).wrap(self.console, inner, justify="right" if col.right else "left",
                                            overflow="ellipsis", tab_size=8, no_wrap=col.no_wrap)
            for part in wrapped:
                out.append(self._padded(self._from_text(part, base), inner, pad, base))
        return out

    @staticmethod
    def _padded(pieces: Line, inner: int, pad: tuple[int, int], base: Stack) -> Line:
        got = sum(_cell_len(t) for t, _ in pieces)
        if got < inner:
            pieces = [*pieces, (" " * (inner - got), base)]
        line: Line = [(" " * pad[0], base)] if pad[0] else []
        line += pieces
        if pad[1]:
            line.append((" " * pad[1], base))
        return line

    @staticmethod
    def _row(cells: list[list[Line]], widths: list[int], base: Stack, *, top: bool) -> list[Line]:
        """A row's lines: each cell's lines, its blank lines below (``top``) or above."""
        height = max(len(c) for c in cells)
        lines: list[Line] = []
        for k in range(height):
            line: Line = []
            for i, (cell, w) in enumerate(zip(cells, widths)):
                if i:
                    line.append((" ", NONE))
                blank = height - len(cell)
                j = k if top else k - blank
                if 0 <= j < len(cell):
                    line += cell[j]
                else:
                    line.append((" " * w, base))
            lines.append(line)
        return lines


def _tall_row(row: list[list[Run]], texts: list[str], tall: list[list[Line]], columns: list[_Column],
              inner: list[int], fill: Line) -> list[Line]:
    """A row of which some cells are wrapped (``tall``: their lines), as Rich's table writes it:
    each cell's lines from the top, the blank below a shorter cell filled with spaces."""
    cells: list[list[Line]] = []
    for cell, text, col, w, lines in zip(row, texts, columns, inner, tall):
        if lines:
            cells.append(lines)
            continue
        gap = w - len(text)
        if not gap:
            cells.append([list(cell)])
        elif col.right:
            cells.append([[(" " * gap, NONE), *cell]])
        else:
            cells.append([[*cell, (" " * gap, NONE)]])
    height = max(len(c) for c in cells)
    out: list[Line] = []
    for k in range(height):
        line: Line = [("  ", NONE)]
        for i, (cell_lines, w) in enumerate(zip(cells, inner)):
            if i:
                line.append(("   ", NONE))
            if k < len(cell_lines):
                line += cell_lines[k]
            else:
                line.append((" " * w, NONE))
        out.append(line + fill)
    return out


def _wrapped(runs: list[Run], plain: str, width: int, right: bool, base: Stack) -> list[Line]:
    """Rich's ``Text.wrap`` of a cell none of whose words is longer than ``width`` (at Rich's
    places, from its own ``divide_line``), justified: a right-justified line without its
    trailing spaces, a left-justified one without those past the width, then filled."""
    from rich._wrap import divide_line
    bounds = [0, *divide_line(plain, width, fold=False), len(plain)]
    lines: list[Line] = []
    for a, b in zip(bounds, bounds[1:]):
        text = plain[a:b]
        keep = len(text.rstrip()) if right else min(len(text), width)
        line = _slice(runs, a, a + keep)
        if keep < width:
            fill = (" " * (width - keep), base)
            line = [fill, *line] if right else [*line, fill]
        lines.append(line)
    return lines


def _slice(runs: list[Run], start: int, end: int) -> Line:
    """The runs' text from ``start`` to ``end`` (character offsets), with their styles."""
    out: Line = []
    at = 0
    for text, stack in runs:
        n = len(text)
        if at + n > start and at < end:
            out.append((text[max(0, start - at):end - at], stack))
        at += n
        if at >= end:
            break
    return out


def _crop(line: Line, width: int) -> Line:
    """The line cut at ``width`` cells (as Rich crops a line to the console)."""
    out: Line = []
    left = width
    for text, stack in line:
        if left <= 0:
            break
        if len(text) > left:
            text = text[:left]
        out.append((text, stack))
        left -= len(text)
    return out


def _runs_of(text: Text) -> Line:
    """The runs of a Rich Text as ``console.print`` renders it: its own style a span under
    the others (as Text.__rich_console__ joins its lines), cut at every span's ends, each
    piece with the styles of the spans over it in their order (Rich's ``Text.render``)."""
    plain = text.plain
    spans = [(0, len(plain), text.style)] if text.style else []
    spans += [(s.start, s.end, s.style) for s in text.spans]
    if not spans:
        return [(plain, NONE)]
    cuts = sorted({0, len(plain), *[a for a, _, _ in spans], *[b for _, b, _ in spans]})
    return [(plain[a:b], tuple([st for s, e, st in spans if s <= a and e >= b and st]))
            for a, b in zip(cuts, cuts[1:]) if b <= len(plain)]


class _StyleName(str):
    """A Rich Style carried in a run's stack where the names of styles go (from text Rich wrapped)."""

    style: "Style"

    def __new__(cls, style: "Style") -> "_StyleName":
        self = super().__new__(cls, str(style))
        self.style = style
        return self


def _rich_text(runs: list[Run]):
    """The runs as a Rich Text (each style of a run's stack a span, outermost first)."""
    from rich.text import Span, Text
    spans = []
    at = 0
    for piece, stack in runs:
        end = at + len(piece)
        for s in stack:
            spans.append(Span(at, end, s.style if isinstance(s, _StyleName) else s))
        at = end
    return Text("".join(t for t, _ in runs), spans=spans)
