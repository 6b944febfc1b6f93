"""A page per player for a site: ``SITE/players/NAME.html``, and the ratings that draw on it.

:class:`PlayerBook` follows each game as the site replays it (``game(...)`` then, per deal,
``deal(fact)`` and at the end ``end(facts)``, beside the archive statistics) and keeps, per
game, only the seats' names, its date and the winner of each deal, in a spool file. After the
last file, :func:`write_player_pages` rates everyone by Elo (the method and figures of ``dehlanote db``,
:mod:`dehlanote.db.ratings`, computed here without a database) and writes one page per
named player: deals, wins, kots, tens captured and lost (from the site's
:class:`~dehlanote.stats.ArchiveStats`), partners, the rating over time as an inline SVG
chart, and the games with links to their replay pages.
"""

from __future__ import annotations

import functools
import itertools
import pickle
import re
from array import array
from pathlib import Path
from typing import IO, Any, BinaryIO, Callable, Iterable, Iterator, Optional, cast

from ...db.ratings import START, Elo
from ...deck import seats_for, side_of
from ...replay import DealFact, GameFacts
from ...rules.profile import Rules
from ...stats import date_parts, player_name
from ...syntax.model import Game
from ...files import Folder, record_spool
from ...i18n import N_, speaking_words as _
from .page import escape, html_table as _table, index_frame, isolated, name_html, table_parts

__all__ = ["PlayerBook", "Rating", "rating_chart", "write_player_pages", "player_slugs", "player_parts",
           "write_parts"]


class _GameEntry:
    __slots__ = ("book", "index", "names", "n", "winners", "href", "title", "date", "sort", "source", "number")

    def __init__(self, book: "PlayerBook", game: Game, rules: Optional[Rules], source: str, number: int,
                 href: str, title: str) -> None:
        self.book, self.source, self.number, self.href, self.title = book, source, number, href, title
        self.n = rules.seats if rules is not None else 4
        seats = seats_for(self.n)[: self.n]
        self.names = {s: player_name(game, s) or "" for s in seats} if rules is not None else {}
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
    """What the player pages need, gathered game by game as a site is built.

    Each game's record (its link, title, date, seats' names, the winner of each deal, its
    result) waits pickled in a spool file, not in memory: memory keeps where each record
    starts, per player the games they sat in (an array of numbers) and, per rated game, its
    place in time (three numbers). So the book of an archive of any size is a few bytes a game.
    """

    def __init__(self) -> None:
        self._spool: Optional[BinaryIO] = None
        self._starts = array("q")             # where each game's record starts in the spool
        #: name -> game index * 8 + seat position, one a seat the name sat in, game by game
        self.played: dict[str, array] = {}
        self._rated = array("q")              # the games rated (every seat named), in order
        self._date = array("q")               # ... each its sort date's id,
        self._source = array("q")             # its source's id
        self._number = array("q")             # and its number in its file
        self._dates: dict[Optional[str], int] = {}
        self._sources: dict[str, int] = {}

    def game(self, game: Game, rules: Optional[Rules], source: str, number: int, href: str,
             title: str) -> _GameEntry:
        return _GameEntry(self, game, rules, source, number, href, title)

    def _end(self, e: _GameEntry, finished: bool, winner: Optional[str]) -> None:
        if self._spool is None:
            self._spool = record_spool()
        e.index = index = len(self._starts)
        self._starts.append(self._spool.seek(0, 2))
        pickle.dump((e.href, e.title, e.date, e.sort, e.n, e.names, e.winners, finished, winner), self._spool,
                    protocol=pickle.HIGHEST_PROTOCOL)
        if e.names and all(e.names.values()):
            self._rated.append(index)
            self._date.append(self._dates.setdefault(e.sort, len(self._dates)))
            self._source.append(self._sources.setdefault(e.source, len(self._sources)))
            self._number.append(e.number)
        for position, name in enumerate(e.names.values()):
            if name:
                self.played.setdefault(name, array("q")).append(index * 8 + position)

    def close(self) -> None:
        if self._spool is not None:
            self._spool.close()
            self._spool = None

    def _record(self, index: int) -> tuple[Any, ...]:
        assert self._spool is not None
        self._spool.seek(self._starts[index])
        return cast("tuple[Any, ...]", pickle.load(self._spool))

    def games_of(self, name: str) -> Iterator[dict[str, Any]]:
        """The games ``name`` played, one entry a seat they sat in, in the order the site read them."""
        last, record = -1, cast("tuple[Any, ...]", ())
        for code in self.played.get(name, ()):
            index, position = divmod(code, 8)
            if index != last:
                last, record = index, self._record(index)
            href, title, date, _sort, n, names, winners, finished, winner = record
            seat = list(names)[position]
            side = side_of(seat, n)
            outcome = N_("unfinished")
            if finished:
                outcome = N_("level") if winner is None else (N_("won") if winner == side else N_("lost"))
            yield {"href": href, "title": title, "date": date, "seat": seat, "result": outcome,
                   "deals": len(winners), "won": sum(w == side for w in winners),
                   "partners": [m for s, m in names.items() if s != seat and side_of(s, n) == side and m]}

    def ratings(self) -> dict[str, "Rating"]:
        """Each player's Elo after each of their results, the results taken in time order (the
        games' sort dates, games without a date last, then source and number: the order of
        :func:`dehlanote.db.ratings.rate`), game by game."""
        dates = {d: rank for rank, d in enumerate(sorted(self._dates, key=lambda d: (d is None, d or "")))}
        date_rank = [dates[d] for d in sorted(self._dates, key=self._dates.__getitem__)]
        sources = {s: rank for rank, s in enumerate(sorted(self._sources))}
        source_rank = [sources[s] for s in sorted(self._sources, key=self._sources.__getitem__)]
        date_of, source_of, number_of = self._date, self._source, self._number
        order = sorted(range(len(self._rated)),
                       key=lambda j: (date_rank[date_of[j]], source_rank[source_of[j]], number_of[j]))
        elo = Elo()
        out: dict[str, Rating] = {}
        for j in order:
            _href, _title, _date, sort, n, names, winners, finished, winner = self._record(self._rated[j])
            sides: dict[str, list[str]] = {}
            for seat, name in names.items():
                sides.setdefault(side_of(seat, n), []).append(name)
            if len(sides) != 2:
                continue
            (_a, names_a), (_b, names_b) = sorted(sides.items())
            events: list[tuple[Any, ...]] = [(j, k, sort, None, w, "deal", names_a, names_b)
                                             for k, w in enumerate(winners, 1) if w is not None]
            if finished:
                events.append((j, None, sort, None, winner, "match", names_a, names_b))
            for row in elo.feed(events):
                if row[0] == "player":
                    rating = out.get(row[1])
                    if rating is None:
                        rating = out[row[1]] = Rating()
                    rating.add(row[5], row[9])
        return out


class Rating:
    """One player's rating after each of their results (what the chart draws), and the first
    and last dates among them."""

    __slots__ = ("values", "first", "last")

    def __init__(self) -> None:
        self.values = array("d")
        self.first: Optional[str] = None
        self.last: Optional[str] = None

    def add(self, when: Optional[str], value: float) -> None:
        self.values.append(value)
        if when:
            self.last = when
            if self.first is None:
                self.first = when

    @classmethod
    def of(cls, points: list[tuple[int, Optional[str], float]]) -> "Rating":
        """From (result number, sort date, rating) points."""
        rating = cls()
        for _seq, when, value in points:
            rating.add(when, value)
        return rating


#: the pages a player's name stands for: ``SLUG.html``, and on an analysed site ``SLUG-review.html``
#: and ``SLUG-drill.html`` (:mod:`.review`)
PLAYER_PAGES = ("", "-review", "-drill")
#: the longest slug kept from a name: a name of hundreds of characters made a file name the
#: system refuses ("file name too long"), and the whole site stopped
SLUG_CHARS = 60


def player_slugs(names: list[str]) -> dict[str, str]:
    """A file name for each player (ASCII letters, digits and dashes, at most
    :data:`SLUG_CHARS` and a ``-N``; unique without regard to case). Every page a slug
    stands for (:data:`PLAYER_PAGES`) is unique too: a player called "Asha Review" never
    takes the name of Asha's mistake review (``asha-review.html``); theirs is
    ``asha-review-2.html``."""
    taken: set[str] = set()
    out = {}
    for i, name in enumerate(sorted(names), 1):
        base = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()[:SLUG_CHARS].strip("-") or f"player-{i}"
        slug, n = base, 2
        while any(slug + page in taken for page in PLAYER_PAGES):
            slug = f"{base}-{n}"
            n += 1
        taken.update(slug + page for page in PLAYER_PAGES)
        out[name] = slug
    return out


def rating_chart(points: "list[tuple[int, Optional[str], float]] | Rating", *, width: int = 640,
                 height: int = 220) -> str:
    """The rating over time as an inline SVG line chart (results along, rating up), with the
    start line, the lowest and highest ratings and the first and last dates written on it;
    ``points``: (result number, sort date, rating), or a :class:`Rating`."""
    rating = points if isinstance(points, Rating) else Rating.of(points)
    count = len(rating.values)
    if not count:
        return ('<p class="chart-note">' + escape(_("No rated results (a game is rated when every seat is named)."))
                + '</p>')
    left, right, top, bottom = 56, 12, 14, 30
    values = array("d", [START])
    values.extend(rating.values)
    low, high = min(values), max(values)
    if high - low < 20:
        low, high = low - 10, high + 10
    w, h = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + w * i / max(count, 1)

    def y(v: float) -> float:
        return top + h * (high - v) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    first, last = rating.first, rating.last
    final = values[-1]
    caption = escape(_("Rating over time (Elo; {n} results, now {rating})")).format(
        n=count, rating=f'<span class="now">{final:.0f}</span>')
    label = _("Rating over time: from {start} to {rating} after {n} results, lowest {low}, highest {high}").format(
        start=f"{START:.0f}", rating=f"{final:.0f}", n=count, low=f"{low:.0f}", high=f"{high:.0f}")
    first_said, last_said = first or _("first result"), last or _("latest result")
    parts = [f'<figure class="chart rating"><figcaption>{caption}</figcaption>',
             f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(label)}">',
             f'<line x1="{left}" x2="{width - right}" y1="{y(START):.1f}" y2="{y(START):.1f}" class="start"/>',
             f'<text x="{left - 6}" y="{y(START) + 4:.1f}" text-anchor="end" class="label">{START:.0f}</text>',
             *(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" class="label">{v:.0f}</text>'
               for v in (high, low) if abs(y(v) - y(START)) > 14),
             f'<polyline points="{line}" class="line"/>',
             f'<circle cx="{x(count):.1f}" cy="{y(final):.1f}" r="3.5" class="dot"/>',
             f'<text x="{left}" y="{height - 8}" class="label">{escape(first_said)}</text>',
             f'<text x="{width - right}" y="{height - 8}" text-anchor="end" class="label">'
             f'{escape(last_said)}</text>',
             "</svg></figure>"]
    return "".join(parts)


def player_body(name: str, figures: dict[str, Any], games: list[dict[str, Any]],
                rating: list[tuple[int, Optional[str], float]], slugs: dict[str, str], extra: str = "") -> str:
    """The body of one player's page (every record string escaped); ``extra``: HTML added after
    the record (the mistake review's section, already escaped)."""
    return "".join(player_parts(name, figures, lambda: iter(games), Rating.of(rating), slugs, extra))


def player_parts(name: str, figures: dict[str, Any], games: Callable[[], Iterable[dict[str, Any]]],
                 rating: Rating, slugs: dict[str, str], extra: str = "") -> Iterator[str]:
    """:func:`player_body` in pieces, its games taken as they come (``games()`` gives them
    afresh: once for the partners, once for the table of games)."""
    f = figures
    out = ['<header><h1>', name_html(name), '</h1><a class="back" href="../index.html">\u2190 ', escape(_("all games")),
           '</a></header><main>', '<section aria-labelledby="h-record"><h2 id="h-record">', escape(_("Record")),
           '</h2><ul class="figures">']
    for key, label in (("games", _("games")), ("matches_won", _("matches won")), ("deals", _("deals")),
                       ("deals_won", _("deals won")), ("deals_lost", _("deals lost")), ("kots", _("kots")),
                       ("tens", _("tens captured")), ("tens_lost", _("tens lost")), ("sweeps", _("sweeps"))):
        value = f.get(key, 0)
        out.append(f'<li><span data-stat="{key}" data-value="{value}">{value}</span> {escape(label)}</li>')
    out.append("</ul></section>")
    out.append(extra)
    out.append('<section aria-labelledby="h-rating"><h2 id="h-rating">' + escape(_("Rating")) + '</h2>')
    out.append(rating_chart(rating))
    out.append("</section>")
    partners = sorted(f.get("partners", {}).items(), key=lambda kv: (-kv[1], kv[0]))
    if partners:
        together: dict[str, list[int]] = {}
        for g in games():
            for p in g["partners"]:
                row = together.setdefault(p, [0, 0, 0])
                row[0] += 1
                row[1] += g["deals"]
                row[2] += g["won"]
        out.append('<section aria-labelledby="h-partners"><h2 id="h-partners">' + escape(_("Partners")) + '</h2>')
        out.append(_table([_("partner"), _("games"), _("deals together"), _("deals won together")],
                          [[(p, f"{slugs[p]}.html") if p in slugs else p, together.get(p, [0])[0], n,
                            together.get(p, [0, 0, 0])[2]] for p, n in partners]))
        out.append("</section>")
    out.append('<section aria-labelledby="h-games"><h2 id="h-games">' + escape(_("Games")) + '</h2>')
    yield "".join(out)
    yield from table_parts([_("game"), _("date"), _("seat"), _("partners"), _("result"), _("deals won")],
                           ([(g["title"], f"../{g['href']}"), g["date"], g["seat"], list(g["partners"]),
                             _(g["result"]), _("{n} of {m}").format(n=g["won"], m=g["deals"])] for g in games()))
    yield "</section></main>"


def write_parts(stream: IO[str], parts: Iterable[str], block: int = 1 << 16) -> None:
    """``parts`` written to ``stream`` a block of about ``block`` characters at a time."""
    held: list[str] = []
    size = 0
    for part in parts:
        held.append(part)
        size += len(part)
        if size >= block:
            stream.write("".join(held))
            held.clear()
            size = 0
    if held:
        stream.write("".join(held))


def write_player_pages(out: Path, book: PlayerBook, players: dict[str, Any],
                       extra: Optional[dict[str, str]] = None, lang: str = "en") -> dict[str, str]:
    """``out/players/SLUG.html`` for every named player; returns name -> page (relative to ``out``).
    ``extra``: name -> HTML added to that player's page (the mistake review's section); ``lang``:
    the pages' language (their words come from the :func:`~dehlanote.i18n.speaking` block around).
    Each page is written in pieces, its games read back from the book one at a time."""
    if not book.played:
        return {}
    slugs = player_slugs(list(book.played))
    ratings = book.ratings()
    pages = {}
    with Folder(out, create=True) as site, site.folder("players") as folder:   # a planted link is never followed
        for name in book.played:
            head, tail = index_frame(isolated(name), lang=lang)
            parts = player_parts(name, players.get(name, {}), functools.partial(book.games_of, name),
                                 ratings.get(name) or Rating(), slugs, (extra or {}).get(name, ""))
            with folder.write(f"{slugs[name]}.html") as stream:
                write_parts(stream, itertools.chain((head,), parts, (tail,)))
            pages[name] = f"players/{slugs[name]}.html"
    return pages
