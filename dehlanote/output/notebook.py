"""How replayed facts show in Jupyter (and any front end that asks for ``_repr_html_``).

``GameFacts._repr_html_`` is :func:`game_html`: the game's heading and one row a deal
(dealer, trump, tricks played, captures, tens per side, result), then the match result and
the errors. ``DealFact._repr_html_`` is :func:`deal_html`: one row a trick (leader, cards
with the winner's in bold, winner, centre after it, capture, the running tens). Both are
small HTML tables with every record string escaped; their ``__repr__`` is one line
(:func:`game_repr`, :func:`deal_repr`) instead of every nested fact.

The facts classes (``dehlanote.replay.facts``) call these only when a front end asks for
them, so the replay layer does not load this module to replay.
"""

from __future__ import annotations

from typing import Optional

from ..deck import SUIT_SYMBOLS, sides_for
from ..replay.facts import DISPLAY, DealFact, GameFacts, TrickFact
from .html.page import escape, name_html
from .notes import deal_heading

__all__ = ["deal_html", "deal_repr", "game_html", "game_repr"]

_RED = {"H", "D"}
_STYLE = ("<style>.dehlanote-facts table{border-collapse:collapse;font-size:90%}"
          ".dehlanote-facts th,.dehlanote-facts td{padding:2px 8px;text-align:left;"
          "border-bottom:1px solid #ddd}.dehlanote-facts .red{color:#c00}"
          ".dehlanote-facts .num{text-align:right}.dehlanote-facts .err{color:#c00}</style>")


def _e(text: object) -> str:
    """Record text escaped as the pages escape it: its bidirectional controls shown as U+FFFD
    (a U+202E in a name reversed the rest of its line)."""
    return escape(str(text), quote=True)


def _card(card: str, bold: bool = False) -> str:
    """A card as ``A♥`` (red suits red), escaped."""
    suit = card[-1]
    text = f"{_e(card[:-1])}{SUIT_SYMBOLS.get(suit, _e(suit))}"
    cls = ' class="red"' if suit in _RED else ""
    inner = f"<b>{text}</b>" if bold else text
    return f"<span{cls}>{inner}</span>"


def _sides(deal: DealFact) -> tuple[str, str]:
    if deal.rules is not None:       # (a six-player deal not played yet has no trick to count seats by)
        return sides_for(deal.rules.seats)
    if deal.tricks:
        return sides_for(len(deal.tricks[0].order))
    return sides_for(max(4, len(deal.dealt)))


def deal_result(deal: DealFact) -> str:
    """The deal's outcome in a few words: ``AC wins``, ``kot AC (all-tens)``, ``no result``."""
    if not deal.complete:
        return f"stops after trick {len(deal.tricks)}" if deal.tricks else "not played"
    if deal.kot is not None:
        return f"kot {deal.kot.side} ({deal.kot.reason})"
    if deal.winner is None:
        return "no result"
    return f"{deal.winner} wins" + (" (claim)" if deal.claim is not None else "")


def _trump(deal: DealFact) -> str:
    tf = deal.trump
    if tf is None or tf.suit is None:
        return "—"
    by = f" by {_e(tf.by)}" if tf.by else ""
    how = " closed" if tf.closed else ""
    return f'<span class="{"red" if tf.suit in _RED else ""}">{SUIT_SYMBOLS.get(tf.suit, _e(tf.suit))}</span>{by}{how}'


def _captures(deal: DealFact, sides: tuple[str, str]) -> str:
    count = {side: 0 for side in sides}
    for t in deal.tricks:
        if t.capture is not None:
            count[t.capture.side] = count.get(t.capture.side, 0) + 1
    return " · ".join(f"{_e(side)} {n}" for side, n in count.items())


def _tens(deal: DealFact, side: str) -> str:
    if deal.complete:
        return str(deal.tens.get(side, 0))
    return "?"


def _game_title(facts: GameFacts) -> str:
    tags: dict[str, str] = {}
    for t in facts.game.tags:
        tags.setdefault(t.name, t.value)      # (a tag given twice: the first is the one read)
    title = tags.get("Event") or "Game"
    parts = [f"<b>{name_html(title)}</b>"]           # (each name isolated: one right to left moves no other)
    if tags.get("Date"):
        parts.append(_e(tags["Date"]))
    if facts.rules is not None:
        parts.append(f"rules {_e(facts.rules.name)}")
    players = [f"{_e(seat)} {name_html(tags[seat])}" for seat in "ABCDEF" if tags.get(seat)]
    if players:
        parts.append(", ".join(players))
    return " · ".join(parts)


def _match_result(facts: GameFacts) -> Optional[str]:
    r = facts.result
    if r is None:
        return None
    if r.winner:
        return f"match: {r.winner} wins"
    if r.finished is False:
        return "match: not finished"
    if r.finished:
        return "match: level"
    return "match: unknown"


def game_html(facts: GameFacts, *, max_errors: int = 20) -> str:
    """A game's facts as a compact HTML table, one row a deal."""
    sides = _sides(facts.deals[0]) if facts.deals else ("AC", "BD")
    head = ("<tr><th>deal</th><th>dealer</th><th>trump</th><th class=\"num\">tricks</th><th>captures</th>"
            f"<th class=\"num\">tens {_e(sides[0])}</th><th class=\"num\">tens {_e(sides[1])}</th>"
            "<th>result</th></tr>")
    rows = []
    for d in facts.deals:
        rows.append(f"<tr><td class=\"num\">{d.number}</td><td>{_e(d.dealer or '?')}</td><td>{_trump(d)}</td>"
                    f"<td class=\"num\">{len(d.tricks)}</td><td>{_captures(d, sides)}</td>"
                    f"<td class=\"num\">{_tens(d, sides[0])}</td><td class=\"num\">{_tens(d, sides[1])}</td>"
                    f"<td>{_e(deal_result(d))}</td></tr>")
    parts = [_STYLE, '<div class="dehlanote-facts">', f"<p>{_game_title(facts)}</p>",
             f"<table><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"]
    result = _match_result(facts)
    if result:
        parts.append(f"<p>{_e(result)}</p>")
    if facts.errors:
        items = "".join(f"<li><code>{_e(e.code)}</code> line {e.line}, column {e.column}: {_e(e.message)}</li>"
                        for e in facts.errors[:max_errors])
        more = len(facts.errors) - max_errors
        tail = f"<li>… {more} more</li>" if more > 0 else ""
        n = len(facts.errors)
        parts.append(f'<p class="err">{n} error{"s" if n != 1 else ""}:</p><ul class="err">{items}{tail}</ul>')
    parts.append("</div>")
    return "".join(parts)


def _trick_row(t: TrickFact, running: dict[str, int], sides: tuple[str, str]) -> str:
    cards = " ".join(_card(p.card, bold=p.seat == t.winner) for p in t.plays)
    capture = ""
    if t.capture is not None:
        c = t.capture
        for ten in c.tens:
            running[c.side] = running.get(c.side, 0) + 1
        tens = " ".join(_card(ten) for ten in c.tens)
        capture = f"{_e(c.by)} → {_e(c.side)}, {c.cards} cards" + (f" {tens}" if tens else "")
    centre = str(t.centre_cards) + (" (" + " ".join(_card(x) for x in t.centre_tens) + ")" if t.centre_tens else "")
    return (f"<tr><td class=\"num\">{t.number}</td><td>{_e(t.leader)}</td><td>{cards}</td><td>{_e(t.winner)}</td>"
            f"<td class=\"num\">{centre}</td><td>{capture}</td>"
            f"<td class=\"num\">{running.get(sides[0], 0)}</td><td class=\"num\">{running.get(sides[1], 0)}</td></tr>")


def deal_html(deal: DealFact) -> str:
    """A deal's facts as a compact HTML table, one row a trick."""
    sides = _sides(deal)
    head = ("<tr><th>#</th><th>lead</th><th>cards (winner bold)</th><th>won</th><th class=\"num\">centre</th>"
            f"<th>capture</th><th class=\"num\">tens {_e(sides[0])}</th><th class=\"num\">tens {_e(sides[1])}</th>"
            "</tr>")
    running: dict[str, int] = {}
    rows = "".join(_trick_row(t, running, sides) for t in deal.tricks)
    tens = f"tens {sides[0]} {_tens(deal, sides[0])} {sides[1]} {_tens(deal, sides[1])}"
    return "".join([_STYLE, '<div class="dehlanote-facts">', f"<p><b>{_e(deal_heading(deal))}</b></p>",
                    f"<table><thead>{head}</thead><tbody>{rows}</tbody></table>",
                    f"<p>{_e(deal_result(deal))} · {_e(tens)}</p></div>"])


def game_repr(facts: GameFacts) -> str:
    """``GameFacts(event='Worked example', rules='standard', deals=1, errors=0)``: the facts' own repr."""
    return repr(facts)


def deal_repr(deal: DealFact) -> str:
    """``DealFact(number=1, dealer='D', trump='D', tricks=13, ...)``: the fact's own repr."""
    return repr(deal)


# the facts' notebook view (they know nothing of drawing: this layer hands it to them)
DISPLAY["game"] = game_html
DISPLAY["deal"] = deal_html
