"""A page per player for a site: ``SITE/players/NAME.html``, and the ratings that draw on it.

:class:`PlayerBook` follows each game as the site replays it (``game(...)`` then, per deal,
``deal(fact)`` and at the end ``end(facts)``, beside the archive statistics) and keeps, per
game, only the seats' names, its date and the winner of each deal. After the last file,
:func:`write_player_pages` rates everyone by Elo (the method and figures of ``dehlanote db``,
:mod:`dehlanote.db.ratings`, computed here without a database) and writes one page per
named player: deals, wins, kots, tens captured and lost (from the site's
:class:`~dehlanote.stats.ArchiveStats`), partners, the rating over time as an inline SVG
chart, and the games with links to their replay pages.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any, Optional

from ...db.ratings import START, rate
from ...deck import seats_for, side_of
from ...replay import DealFact, GameFacts
from ...rules.profile import Rules
from ...stats import date_parts
from ...syntax.model import Game
from ...files import Folder
from .page import html_table as _table, render_index

__all__ = ["PlayerBook", "rating_chart", "write_player_pages", "player_slugs"]


class _GameEntry:
    __slots__ = ("book", "index", "names", "n", "winners", "href", "title", "date", "sort", "source", "number")

    def __init__(self, book: "PlayerBook", game: Game, rules: Optional[Rules], source: str, number: int,
                 href: str, title: str) -> None:
        self.book, self.source, self.number, self.href, self.title = book, source, number, href, title
        self.n = rules.seats if rules is not None else 4
        seats = seats_for(self.n)[: self.n]
        self.names = {s: (game.tag(s) or "").strip() for s in seats} if rules is not None else {}
        self.date = game.tag("Date") or ""
        self.sort = date_parts(self.date)[2]
        self.winners: list[Optional[str]] = []
        self.index = -1

    def deal(self, deal: DealFact) -> None:
        if deal.complete:
            self.winners.append(deal.winner)

    def end(self, facts: GameFacts) -> None:
        result = facts.result
        finished = result is not None and bool(result.finished)
        winner = result.winner if result is not None else None
        self.book._end(self, finished, winner)


class PlayerBook:
    """What the player pages need, gathered game by game as a site is built."""

    def __init__(self) -> None:
        self.games: list[tuple[Any, ...]] = []   # (sort, source, number, sides, winners, finished, winner)
        self.played: dict[str, list[dict[str, Any]]] = {}

    def game(self, game: Game, rules: Optional[Rules], source: str, number: int, href: str,
             title: str) -> _GameEntry:
        return _GameEntry(self, game, rules, source, number, href, title)

    def _end(self, e: _GameEntry, finished: bool, winner: Optional[str]) -> None:
        sides: dict[str, list[str]] = {}
        for seat, name in e.names.items():
            sides.setdefault(side_of(seat, e.n), []).append(name)
        named = bool(e.names) and all(e.names.values())
        e.index = len(self.games)
        self.games.append((e.sort, e.source, e.number, sides if named else None, e.winners, finished, winner))
        for seat, name in e.names.items():
            if not name:
                continue
            side = side_of(seat, e.n)
            outcome = "unfinished"
            if finished:
                outcome = "level" if winner is None else ("won" if winner == side else "lost")
            self.played.setdefault(name, []).append({
                "href": e.href, "title": e.title, "date": e.date, "seat": seat, "result": outcome,
                "deals": len(e.winners), "won": sum(w == side for w in e.winners),
                "partners": [n for s, n in e.names.items() if s != seat and side_of(s, e.n) == side and n]})

    def ratings(self) -> dict[str, list[tuple[int, Optional[str], float]]]:
        """Each player's Elo after each of their results: (result number, sort date, rating)."""
        order = sorted(range(len(self.games)), key=lambda i: (self.games[i][0] is None, self.games[i][0] or "",
                                                             self.games[i][1], self.games[i][2]))
        events: list[tuple[Any, ...]] = []
        sides: dict[int, dict[str, list[str]]] = {}
        for i in order:
            sort, _source, _number, two, winners, finished, winner = self.games[i]
            if two is None:
                continue
            sides[i] = two
            events.extend((i, k, sort, None, w, "deal") for k, w in enumerate(winners, 1) if w is not None)
            if finished:
                events.append((i, None, sort, None, winner, "match"))
        history = rate(events, sides)
        out: dict[str, list[tuple[int, Optional[str], float]]] = {}
        for kind, name, seq, when, value in zip(history["kind"], history["name"], history["seq"],
                                                history["sort_date"], history["rating"]):
            if kind == "player":
                out.setdefault(name, []).append((seq, when, value))
        return out


def player_slugs(names: list[str]) -> dict[str, str]:
    """A file name for each player (ASCII letters, digits and dashes; unique without regard to case)."""
    taken: set[str] = set()
    out = {}
    for i, name in enumerate(sorted(names), 1):
        base = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or f"player-{i}"
        slug, n = base, 2
        while slug in taken:
            slug = f"{base}-{n}"
            n += 1
        taken.add(slug)
        out[name] = slug
    return out


def rating_chart(points: list[tuple[int, Optional[str], float]], *, width: int = 640, height: int = 220) -> str:
    """The rating over time as an inline SVG line chart (results along, rating up), with the
    start line, the lowest and highest ratings and the first and last dates written on it."""
    if not points:
        return '<p class="chart-note">No rated results (a game is rated when every seat is named).</p>'
    left, right, top, bottom = 56, 12, 14, 30
    values = [START] + [p[2] for p in points]
    low, high = min(values), max(values)
    if high - low < 20:
        low, high = low - 10, high + 10
    w, h = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + w * i / max(len(points), 1)

    def y(v: float) -> float:
        return top + h * (high - v) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    first = next((p[1] for p in points if p[1]), None)
    last = next((p[1] for p in reversed(points) if p[1]), None)
    final = values[-1]
    parts = [f'<figure class="chart rating"><figcaption>Rating over time (Elo; {len(points)} results, now '
             f'<span class="now">{final:.0f}</span>)</figcaption>',
             f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
             f'aria-label="Rating over time: from {START:.0f} to {final:.0f} after {len(points)} results, '
             f'lowest {low:.0f}, highest {high:.0f}">',
             f'<line x1="{left}" x2="{width - right}" y1="{y(START):.1f}" y2="{y(START):.1f}" class="start"/>',
             f'<text x="{left - 6}" y="{y(START) + 4:.1f}" text-anchor="end" class="label">{START:.0f}</text>',
             *(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" class="label">{v:.0f}</text>'
               for v in (high, low) if abs(y(v) - y(START)) > 14),
             f'<polyline points="{line}" class="line"/>',
             f'<circle cx="{x(len(points)):.1f}" cy="{y(final):.1f}" r="3.5" class="dot"/>',
             f'<text x="{left}" y="{height - 8}" class="label">{escape(first or "first result")}</text>',
             f'<text x="{width - right}" y="{height - 8}" text-anchor="end" class="label">'
             f'{escape(last or "latest result")}</text>',
             "</svg></figure>"]
    return "".join(parts)


def player_body(name: str, figures: dict[str, Any], games: list[dict[str, Any]],
                rating: list[tuple[int, Optional[str], float]], slugs: dict[str, str], extra: str = "") -> str:
    """The body of one player's page (every record string escaped); ``extra``: HTML added after
    the record (the mistake review's section, already escaped)."""
    f = figures
    out = ['<header><h1>', escape(name), '</h1><a class="back" href="../index.html">\u2190 all games</a></header>',
           '<main>', '<section aria-labelledby="h-record"><h2 id="h-record">Record</h2><ul class="figures">']
    for key, label in (("games", "games"), ("matches_won", "matches won"), ("deals", "deals"),
                       ("deals_won", "deals won"), ("deals_lost", "deals lost"), ("kots", "kots"),
                       ("tens", "tens captured"), ("tens_lost", "tens lost"), ("sweeps", "sweeps")):
        value = f.get(key, 0)
        out.append(f'<li><span data-stat="{key}" data-value="{value}">{value}</span> {escape(label)}</li>')
    out.append("</ul></section>")
    out.append(extra)
    out.append('<section aria-labelledby="h-rating"><h2 id="h-rating">Rating</h2>')
    out.append(rating_chart(rating))
    out.append("</section>")
    partners = sorted(f.get("partners", {}).items(), key=lambda kv: (-kv[1], kv[0]))
    if partners:
        together: dict[str, list[int]] = {}
        for g in games:
            for p in g["partners"]:
                row = together.setdefault(p, [0, 0, 0])
                row[0] += 1
                row[1] += g["deals"]
                row[2] += g["won"]
        out.append('<section aria-labelledby="h-partners"><h2 id="h-partners">Partners</h2>')
        out.append(_table(["partner", "games", "deals together", "deals won together"],
                          [[(p, f"{slugs[p]}.html") if p in slugs else p, together.get(p, [0])[0], n,
                            together.get(p, [0, 0, 0])[2]] for p, n in partners]))
        out.append("</section>")
    out.append('<section aria-labelledby="h-games"><h2 id="h-games">Games</h2>')
    out.append(_table(["game", "date", "seat", "partners", "result", "deals won"],
                      [[(g["title"], f"../{g['href']}"), g["date"], g["seat"], ", ".join(g["partners"]),
                        g["result"], f"{g['won']} of {g['deals']}"] for g in games]))
    out.append("</section></main>")
    return "".join(out)


def write_player_pages(out: Path, book: PlayerBook, players: dict[str, Any],
                       extra: Optional[dict[str, str]] = None) -> dict[str, str]:
    """``out/players/SLUG.html`` for every named player; returns name -> page (relative to ``out``).
    ``extra``: name -> HTML added to that player's page (the mistake review's section)."""
    if not book.played:
        return {}
    slugs = player_slugs(list(book.played))
    ratings = book.ratings()
    pages = {}
    with Folder(out, create=True) as site, site.folder("players") as folder:   # a planted link is never followed
        for name, games in book.played.items():
            body = player_body(name, players.get(name, {}), games, ratings.get(name, []), slugs,
                               (extra or {}).get(name, ""))
            with folder.write(f"{slugs[name]}.html") as stream:
                stream.write(render_index(name, body))
            pages[name] = f"players/{slugs[name]}.html"
    return pages
