"""What ``annotate``'s deal tables show, for :mod:`.annotext`: each cell as runs of styled
text (:func:`deal_content`, the content of :func:`.render.deal_table` built again from the
same facts), and the piped table of a deal that fits its width as strings at once
(:func:`plain_table`).
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from ..deck import SUIT_SYMBOLS
from ..deck import TENS, side_of
from ..replay.facts import DealFact, GameFacts, TrickFact
from ..replay.methods import capture_mode
from ..rules.profile import Rules
from .notes import deal_heading, deal_result_text, record_words, trump_event

__all__ = ["NONE", "Run", "Stack", "deal_content", "plain_table"]

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


class _PlainRuns(dict[str, Run]):
    """Each card's run in a trick as played (not the winner's, not marked)."""

    def __init__(self, symbols: bool) -> None:
        super().__init__()
        self.symbols = symbols

    def __missing__(self, card: str) -> Run:
        run = self[card] = _card(card, self.symbols)
        return run


class _WonRuns(dict[str, "tuple[Run, Run]"]):
    """Each card's runs as the winner of a trick (not marked): the card, then its ``*``."""

    def __init__(self, symbols: bool) -> None:
        super().__init__()
        self.symbols = symbols

    def __missing__(self, card: str) -> tuple[Run, Run]:
        runs = self[card] = (_card(card, self.symbols, "bold underline"), ("*", ("bold",)))
        return runs


_PLAIN_RUNS = {True: _PlainRuns(True), False: _PlainRuns(False)}
_WON_RUNS = {True: _WonRuns(True), False: _WonRuns(False)}
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
            if p.card in TENS:
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
    after = [footer, *footnotes, *([("  " + words, NONE)] for words in record_words(deal, symbols))]
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


def plain_table(deal: DealFact, rules: Rules, facts: Optional[GameFacts], symbols: bool,
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
        rights: tuple[bool, ...] = (True, False, False, False, True, False, True, True)
        mins: tuple[int, ...] = (0, 4, 0, 3, 6, 9, 4, 4)
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
    after = ["  " + " · ".join(result), *footnotes, *("  " + words for words in record_words(deal, symbols))]
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
