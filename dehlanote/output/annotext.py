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
from types import FrameType
from typing import TYPE_CHECKING, Iterator, Optional

from ..replay.facts import DealFact, GameFacts
from ..rules.profile import Rules
from ..text import printable_block
from .annocontent import NONE, Run, Stack, _cell_len, _Column, _Content, deal_content, plain_table

if TYPE_CHECKING:
    from rich.console import Console
    from rich.style import Style
    from rich.text import Text

__all__ = ["DealWriter"]

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
            text = plain_table(deal, rules, facts, symbols, lost_value, width)
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

        def resized(signum: int, frame: Optional[FrameType]) -> None:
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
            lines: list[Line] = _header_lines(columns, inner, [(fill, NONE)])
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
                    system = self.console.color_system
                    assert system is not None       # (no colour system: Rich writes the tables)
                    got = shown if style is None else style.render(shown, color_system=COLOR_SYSTEMS[system])
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
        out += _header_lines(columns, inner, fill)
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
    return [(plain[a:b], tuple([st if isinstance(st, str) else _StyleName(st)
                                for s, e, st in spans if s <= a and e >= b and st]))
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


def _header_lines(columns: "list[_Column]", inner: list[int], tail: Line) -> list[Line]:
    """A table's header rows, bottom-aligned (a header of fewer lines starts lower), each ended by ``tail``."""
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
        lines.append(line + tail)
    return lines
