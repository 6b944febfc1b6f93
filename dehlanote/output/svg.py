"""A table position as one SVG picture: the seats with their hands, the trick on the table,
the centre, each side's captured pile and tens, trump and whose turn it is.

Drawn as the replay page draws it (the felt, the seats around it with A at the bottom and
play going anticlockwise, the tens on gold), and standalone: no font is needed for the
suits (they are the page's own drawings) and nothing is loaded from anywhere. Every record
string (names, the title) is escaped.

:func:`table_svg` takes the position as plain values, so that the per-card ``Table``
(``Table._repr_svg_``), a replayed deal (:func:`snapshot_svg`, for ``dehlanote image``) and
anything else can draw with it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Mapping, Optional, Sequence, Union
from xml.sax import saxutils

from ..replay.facts import DISPLAY
from ..deck import SUIT_NAMES, sides_for, side_of, sort_key
from .html.page import SUIT_SYMBOLS as SUIT_DRAWINGS
from ..text import printable
from .stepper import Snapshot, seat_layout

__all__ = ["snapshot_svg", "table_svg", "xml_text"]

#: what :func:`printable` leaves that XML 1.0 cannot hold: lone surrogates (a file name's bytes
#: that are not UTF-8) and the two noncharacters U+FFFE, U+FFFF
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """Record text as an SVG can hold it, shown as the other outputs show it: control
    characters as their pictures (``␛``, ``␁``), bidirectional overrides and what XML
    cannot hold as ``\ufffd``; tabs kept."""
    return _NOT_XML.sub("\ufffd", printable(text))


def escape(text: str) -> str:
    return saxutils.escape(xml_text(text))


def quoteattr(text: str) -> str:
    return saxutils.quoteattr(xml_text(text))

WIDTH, HEIGHT = 960, 680
_FELT_BOTTOM = 590
_CW, _CH = 42, 60            # a card in a hand
_STEP = 22                   # a hand's cards overlap, each corner (a ten's "10" too) in sight
_TW, _TH = 58, 82            # a card on the table
_RED = {"H", "D"}
_INK, _RED_INK = "#1b1b1b", "#c8102e"
_SIDE_FILL = ("#d9e8ff", "#ffe7c2")


class _Geometry:
    """Where things go for four or six seats: each hand's centre and each trick card's."""

    def __init__(self, n: int) -> None:
        if n == 6:
            self.height, self.felt, self.limit, self.middle = 830, 740, 9, 360
            self.seat = {"S": (480, 612), "N": (480, 78), "NE": (795, 200), "SE": (795, 500),
                         "SW": (165, 500), "NW": (165, 200)}
            self.trick = {"S": (480, 470), "N": (480, 250), "NE": (580, 305), "SE": (580, 415),
                          "SW": (380, 415), "NW": (380, 305)}
        else:
            self.height, self.felt, self.limit, self.middle = HEIGHT, _FELT_BOTTOM, 13, 300
            self.seat = {"S": (480, 512), "N": (480, 78), "E": (815, 300), "W": (145, 300)}
            self.trick = {"S": (480, 372), "N": (480, 228), "E": (572, 300), "W": (388, 300)}

Cards = Sequence[str]


def _rank(card: str) -> str:
    return card[:-1]


def _suit(card: str) -> str:
    return card[-1]


def _colour(suit: str) -> str:
    return _RED_INK if suit in _RED else _INK


def _card(card: str, x: float, y: float, w: int, h: int, *, label: bool = True) -> str:
    """One card face, its top-left at (x, y): the rank and suit in its corner (a ten on gold)."""
    suit, rank = _suit(card), _rank(card)
    ten = rank == "10"
    fill, stroke = ("#fff6d5", "#b8860b") if ten else ("#ffffff", "#555555")
    size = 15 if w < 50 else 20
    spacing = ' letter-spacing="-1"' if ten else ""
    parts = [f'<g class="card{" ten" if ten else ""}" data-card="{card}"'
             + (f' aria-label="{card}"' if label else "") + ">",
             f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" rx="4" fill="{fill}" stroke="{stroke}"'
             f' stroke-width="{2 if ten else 1}"/>',
             f'<text x="{x + 3:.1f}" y="{y + size:.1f}" font-family="DejaVu Sans, Arial, sans-serif" '
             f'font-size="{size}" font-weight="bold" fill="{_colour(suit)}"{spacing}>{rank}</text>',
             f'<use href="#suit-{suit}" x="{x + 3:.1f}" y="{y + size + 3:.1f}" width="{size - 2}" height="{size - 2}"'
             f' fill="{_colour(suit)}"/>']
    if w >= 50:
        big = w * 0.55
        parts.append(f'<use href="#suit-{suit}" x="{x + w - big - 4:.1f}" y="{y + h - big - 4:.1f}" '
                     f'width="{big:.1f}" height="{big:.1f}" fill="{_colour(suit)}"/>')
    parts.append("</g>")
    return "".join(parts)


def _back(x: float, y: float) -> str:
    return (f'<rect class="back" x="{x:.1f}" y="{y:.1f}" width="{_CW}" height="{_CH}" rx="4" fill="#2b4c8c" '
            'stroke="#ffffff" stroke-width="1.5"/>')


def _text(x: float, y: float, text: str, *, size: int = 16, weight: str = "normal", fill: str = "#ffffff",
          anchor: str = "start", cls: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    return (f'<text{c} x="{x:.1f}" y="{y:.1f}" font-family="DejaVu Sans, Arial, sans-serif" font-size="{size}" '
            f'font-weight="{weight}" fill="{fill}" text-anchor="{anchor}">{escape(text)}</text>')


def _em(ch: str, bold: bool) -> float:
    """The width of one character, in ems (see :func:`_advance`)."""
    if unicodedata.combining(ch) or ch in "\u200d\ufe0e\ufe0f":
        return 0.0
    if unicodedata.east_asian_width(ch) in "WF":
        return 1.0
    if ch.isupper() or ch in "mwMW@%":
        return 0.82 if bold else 0.75
    if ch in " .,:;'|!ijlt\u00b7":
        return 0.38 if bold else 0.34
    return 0.68 if bold else 0.6


def _advance(text: str, size: int, bold: bool = False) -> float:
    """The width ``text`` takes at ``size`` pixels, a generous estimate for DejaVu Sans (no font
    is at hand to measure with): wide letters (East Asian, emoji) a whole em, capitals and
    m / w 0.82 em (0.75 regular), spaces and thin marks 0.38 (0.34), other letters 0.68 (0.6);
    joiners and combining marks nothing."""
    return sum(_em(ch, bold) for ch in text) * size


#: characters of a text drawn at most: marks and joiners take no room, and a name of a million
#: accents (all of them "fitting") was drawn whole, 2 MB of SVG and 20 s of cairo for its PNG
_LONGEST = 200


def _fit(text: str, room: float, size: int, bold: bool = False) -> str:
    """``text``, or as much of it as fits in ``room`` pixels (and in :data:`_LONGEST`
    characters) followed by "…" (measured in one pass: a name of 40,000 letters, measured
    again for each letter taken off, took 90 s)."""
    if len(text) <= _LONGEST and _advance(text, size, bold) <= room:
        return text
    room = room / size - _em("\u2026", bold)       # in ems, the ellipsis's own width set aside
    cut, width, solid = 1, 0.0, 0.0                  # solid: the width without the spaces at the end
    for i, ch in enumerate(text[:_LONGEST]):
        width += _em(ch, bold)
        if not ch.isspace():
            solid = width
        if solid > room:
            break
        cut = i + 1
    return text[:max(cut, 1)].rstrip() + "\u2026"


def _hand(seat_cards: Optional[Cards], unknown: int, cx: float, top: float, limit: int) -> tuple[str, float]:
    """A hand fanned in rows of at most ``limit`` cards, each card's corner visible (tens whole)."""
    cards = sorted(seat_cards or (), key=sort_key)
    n = len(cards) + unknown
    if n == 0:
        return "", 0.0
    step = _STEP
    rows = [list(range(i, min(i + limit, n))) for i in range(0, n, limit)]
    out = []
    for r, row in enumerate(rows):
        width = (len(row) - 1) * step + _CW
        x0 = cx - width / 2
        y = top + r * (_CH * 0.55)
        for k, i in enumerate(row):
            x = x0 + k * step
            out.append(_card(cards[i], x, y, _CW, _CH) if i < len(cards) else _back(x, y))
    return "".join(out), (len(rows) - 1) * _CH * 0.55 + _CH


def table_svg(seats: str, hands: Optional[Mapping[str, Optional[Cards]]], current: Sequence[tuple[str, str]],
              centre: Union[Cards, int], piles: Mapping[str, int], tens: Mapping[str, Cards],
              to_play: Optional[str], trump: Optional[str], *, names: Optional[Mapping[str, str]] = None,
              dealer: Optional[str] = None, title: Optional[str] = None,
              unknown: Optional[Mapping[str, int]] = None, centre_tens: Optional[Cards] = None,
              winner: Optional[str] = None, over: str = "the deal is over") -> str:
    """The position as an SVG document.

    ``seats``: the seat letters ("ABCD"); ``hands``: each seat's cards still held (None, or a
    seat missing: not recorded); ``unknown``: cards held that the record does not name, drawn
    face down; ``current``: the trick on the table, (seat, card) in playing order; ``centre``:
    the cards in the centre pile (or their count), ``centre_tens`` the tens among them (found
    in ``centre`` when it holds cards); ``piles``: cards captured per side; ``tens``: the tens
    each side captured; ``to_play``: whose turn (None: the deal is over); ``trump``: the suit
    in force (None: none yet, or secret); ``winner``: the seat winning the trick shown, when
    it is complete; ``over``: what is said when no one is to play.
    """
    n = len(seats)
    layout = seat_layout(n)
    sides = sides_for(n)
    names = names or {}
    unknown = unknown or {}
    centre_count = centre if isinstance(centre, int) else len(centre)
    if centre_tens is None:
        centre_tens = () if isinstance(centre, int) else tuple(c for c in centre if _rank(c) == "10")
    geo = _Geometry(n)
    limit, height, felt = geo.limit, geo.height, geo.felt
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
           f'height="{height}" role="img" aria-label={quoteattr(title or "a Dehla Pakad table")}>',
           f"<title>{escape(title or 'Dehla Pakad table')}</title>",
           f"<defs>{SUIT_DRAWINGS}<radialGradient id=\"felt\" cx=\"50%\" cy=\"50%\" r=\"65%\">"
           '<stop offset="0%" stop-color="#1f6b45"/><stop offset="100%" stop-color="#17533a"/></radialGradient>'
           "</defs>",
           f'<rect width="{WIDTH}" height="{height}" fill="#fbfaf6"/>',
           f'<rect x="6" y="6" width="{WIDTH - 12}" height="{felt - 6}" rx="14" fill="url(#felt)"/>']
    # the seats
    for seat in seats:
        pos = layout[seat]
        cx, cy = geo.seat[pos]
        held = (hands or {}).get(seat)
        box_w = max(220, (min(limit, max(1, len(held or ()) + unknown.get(seat, 0))) - 1) * _STEP + _CW + 20)
        cx = int(min(max(cx, box_w / 2 + 10), WIDTH - box_w / 2 - 10))      # the whole box on the felt
        hand_svg, hand_h = _hand(held, unknown.get(seat, 0), cx, cy - 12, limit)
        box_h = 34 + (hand_h if hand_h else 24) + 8
        top = cy - 40
        turn = seat == to_play
        out.append(f'<g class="seat" data-seat="{seat}">')
        out.append(f'<rect x="{cx - box_w / 2:.1f}" y="{top:.1f}" width="{box_w:.1f}" height="{box_h:.1f}" rx="10" '
                   f'fill="#000000" fill-opacity="0.18" stroke="{"#ffd54a" if turn else "none"}" stroke-width="3"/>')
        label = seat + (f" {names[seat]}" if names.get(seat) else "")
        side = side_of(seat, n)
        badges = [side] + (["dealer"] if seat == dealer else []) + (["to play"] if turn else [])
        badge = " · ".join(badges)
        room = box_w - 20 - _advance(badge, 13) - 8          # the name ends before the badges
        out.append(_text(cx - box_w / 2 + 10, top + 22, _fit(label, room, 17, bold=True), size=17, weight="bold",
                         cls="name"))
        out.append(_text(cx + box_w / 2 - 10, top + 22, badge, size=13,
                         fill="#ffd54a" if turn else "#e8efe9", anchor="end", cls="badges"))
        if hand_svg:
            out.append(hand_svg)
        elif held is None:
            out.append(_text(cx, cy + 10, "hand not recorded", size=14, fill="#e8efe9", anchor="middle"))
        else:
            out.append(_text(cx, cy + 10, "no cards left", size=14, fill="#e8efe9", anchor="middle"))
        out.append("</g>")
    # the trick
    out.append('<g class="trick">')
    shown = {seat: card for seat, card in current}
    for seat in seats:
        tx, ty = geo.trick[layout[seat]]
        if seat in shown:
            face = _card(shown[seat], tx - _TW / 2, ty - _TH / 2, _TW, _TH)
            out.append(f'<g data-played-by="{seat}">{face}</g>')
            if seat == winner:
                out.append(f'<rect x="{tx - _TW / 2 - 3:.1f}" y="{ty - _TH / 2 - 3:.1f}" width="{_TW + 6}" '
                           f'height="{_TH + 6}" rx="6" fill="none" stroke="#ffd54a" stroke-width="3"/>')
        else:
            out.append(f'<rect x="{tx - _TW / 2:.1f}" y="{ty - _TH / 2:.1f}" width="{_TW}" height="{_TH}" rx="6" '
                       'fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-dasharray="5 4"/>')
    if current:
        out.append(_text(480, geo.middle + 5, f"{current[0][0]} led", size=13, fill="#e8efe9", anchor="middle"))
    out.append("</g>")
    # trump, the centre, whose turn: top left of the felt
    out.append('<g class="info">')
    if trump:
        out.append(f'<rect x="22" y="17" width="24" height="24" rx="5" fill="#ffffff"/>'
                   f'<use href="#suit-{trump}" x="25" y="20" width="18" height="18" fill="{_colour(trump)}"/>')
        out.append(_text(54, 35, f"trump {SUIT_NAMES.get(trump, trump)}", size=17, weight="bold"))
    else:
        out.append(_text(24, 35, "no trump yet", size=17, weight="bold"))
    out.append(_text(24, 62, f"centre: {centre_count} card{'s' if centre_count != 1 else ''}"
                     + (", tens in it:" if centre_tens else ""), size=16))
    step = min(34.0, (300 - 30) / (len(centre_tens) - 1)) if len(centre_tens) > 1 else 34.0
    for k, ten in enumerate(centre_tens):          # (fanned to end before the top seat's box)
        out.append(_card(ten, 24 + k * step, 72, 30, 44))
    out.append(_text(24, 140 if centre_tens else 88, f"{to_play} to play" if to_play else _fit(over, 320, 16, True),
                     size=16, weight="bold", fill="#ffd54a" if to_play else "#ffffff"))
    out.append("</g>")
    # the captured piles
    half = (WIDTH - 36) / 2
    for i, side in enumerate(sides):
        x = 12 + i * (half + 12)
        taken = tuple(tens.get(side, ()))
        out.append(f'<g class="pile" data-side="{side}">')
        out.append(f'<rect x="{x:.1f}" y="{felt + 10}" width="{half:.1f}" height="74" rx="10" '
                   f'fill="{_SIDE_FILL[i]}"/>')
        count = piles.get(side, 0)
        out.append(_text(x + 14, felt + 36, f"{side} captured {count} card{'s' if count != 1 else ''}",
                         size=16, weight="bold", fill=_INK))
        out.append(_text(x + 14, felt + 60, f"{len(taken)} ten{'s' if len(taken) != 1 else ''}"
                         + ("" if taken else ": no tens"), size=14, fill=_INK))
        # the tens fanned to fit the box (a side of six players may take all twelve: they ran
        # off the picture), each its suit in sight
        step = min(34.0, (half - 260 - 30) / (len(taken) - 1)) if len(taken) > 1 else 34.0
        for k, ten in enumerate(taken):
            out.append(_card(ten, x + 250 + k * step, felt + 17, 30, 44))
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def snapshot_svg(snap: Snapshot, seats: str, *, names: Optional[Mapping[str, str]] = None,
                 title: Optional[str] = None) -> str:
    """The table of a replayed deal after ``snap.played`` cards, as :func:`table_svg` draws it."""
    deal = snap.deal
    over = "the deal is over"
    if snap.trick is not None and snap.shown and not snap.complete:
        order = snap.trick.order
        to_play: Optional[str] = order[len(snap.shown)]
    elif snap.trick is not None and snap.complete:
        number = snap.trick.number
        later = [t for t in deal.tricks if t.number > number]
        to_play = later[0].leader if later else (None if deal.complete else snap.trick.winner)
        if not later and deal.claim is not None:
            # the last position holds the claim's cards in its piles (as the stepper's does):
            # "the deal is over" left the cards still in hand counted twice, unexplained
            over = f"{deal.claim.by} claimed the rest"
    else:
        to_play = deal.tricks[0].leader if deal.tricks else None
    hands: dict[str, Optional[Cards]] = {}
    for seat in seats:
        hands[seat] = snap.hands.get(seat, ())
    known = set(deal.hands)
    unknown = {seat: count for seat, count in snap.unknown.items() if seat not in known}
    return table_svg(seats, hands, tuple((p.seat, p.card) for p in snap.shown), snap.centre_cards,
                     snap.piles, snap.pile_tens, to_play, snap.trump, names=names, dealer=deal.dealer, title=title,
                     unknown=unknown, centre_tens=snap.centre_tens,
                     winner=snap.trick.winner if snap.trick is not None and snap.complete else None, over=over)


def position_svg(table: Any) -> str:
    """A :class:`dehlanote.Table`'s position as SVG (its notebook view)."""
    hands = {seat: table.hand(seat) for seat in table.seats}
    return table_svg(table.seats, hands, table.current, table.centre, table.piles, table.tens, table.to_play,
                     table.trump, dealer=table.dealer, centre_tens=table.centre_tens,
                     title=f"deal {table.number}, trick {table.trick_number}")


# the table's notebook view (the core knows nothing of drawing: this layer hands it to it)
DISPLAY["table"] = position_svg
