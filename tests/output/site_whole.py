"""The site builder as it was before it streamed (2 December 2026): every game's index row
and player entry held in memory, the index and each player page built as one string. Kept
only as the reference the streaming builder's pages are compared with, byte for byte
(``test_site_stream.py``); the game pages' writer, the page names, the statistics and the
charts are the package's own, shared by both."""

# ruff: noqa: E501
from __future__ import annotations

from pathlib import Path
from typing import IO, Any, Callable, Optional

from dehlanote.db.ratings import START, rate
from dehlanote.deck import SUITS, seats_for, side_of
from dehlanote.errors import why
from dehlanote.files import Folder, WriteError
from dehlanote.output.html.charts import PATTERNS, Bar, bar_chart
from dehlanote.output.html.page import escape, isolated, name_html, render_index, template
from dehlanote.output.html.players import player_slugs
from dehlanote.output.html.site import PER_PAGE, Extend, PageNames, PageReport, SiteReport, _pct, _side, _stat, write_page
from dehlanote.replay import DealFact, GameFacts
from dehlanote.rules.profile import Registry, Rules
from dehlanote.stats import ArchiveStats, date_parts
from dehlanote.syntax.model import Game


def _table(head: list[str], rows: list[list[Any]], table_id: str = "") -> str:
    """page.html_table as it was: the whole table, one string."""
    import html
    ident = f" id='{table_id}'" if table_id else ""
    out = [f"<div class='scroll'><table{ident}><thead><tr>", *(f"<th scope='col'>{html.escape(h)}</th>" for h in head),
           "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>")
        for cell in row:
            if isinstance(cell, tuple):
                out.append(f"<td><a href=\"{html.escape(cell[1])}\">{escape(cell[0])}</a></td>")
            elif isinstance(cell, list):     # names, each isolated
                out.append("<td>" + ", ".join(f"<a href=\"{html.escape(c[1])}\">{name_html(c[0])}</a>"
                                              if isinstance(c, tuple) else name_html(str(c)) for c in cell) + "</td>")
            else:
                out.append(f"<td>{escape(str(cell))}</td>")
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def build_site(paths: list[str], out: Path, reg: Registry, *, title: str = "DPN games",
               four_colour: bool = False, per_page: int = PER_PAGE,
               progress: Optional[Callable[[str, int], None]] = None,
               opener: Callable[[str], IO[bytes]] = lambda p: open(p, "rb"),
               extend: Optional[Extend] = None, lang: str = "en", force: bool = False,
               shown: Callable[[str], str] = str,
               review: Optional[Callable[[Path, dict[str, str]], dict[str, str]]] = None) -> SiteReport:
    """``out/index.html`` with a list of every game (a filter box above it) and the archive's
    statistics, one replay page per input in ``out/games/``, and one page per named player in
    ``out/players/``. ``progress(path, bytes_read)`` is called after each game;
    ``opener(path)`` opens an input (the command's refuses binary data up front);
    ``shown(path)`` is the name a file is given on the pages. ``review(out, slugs)`` (an
    analysed site: :class:`~.review.SiteReview`) writes the review and drill pages of the
    players (``slugs``: name -> page name) and returns the section each player's page adds.

    The folder is opened once and every page, and the index, is written relative to it
    (:class:`dehlanote.files.Folder`): a link planted in it is replaced, never written
    through. The index is written last, whole, by a rename: never left empty or torn.

    Raises:
        OutputRefused, WriteError: a page or the index cannot be written.
    """
    stats = ArchiveStats()
    book = PlayerBook()
    report = SiteReport(stats=stats)
    rows: list[dict[str, Any]] = []
    names = PageNames()
    with Folder(out, create=True) as site, site.folder("games") as games:
        for path in paths:
            name = shown(path)
            page = PageReport(name)
            try:
                with opener(path) as stream:
                    stats.add_file()
                    target = Path(names.for_file(path) + ".html")

                    def tick(path: str = path, stream: IO[bytes] = stream) -> None:
                        if progress is not None:
                            try:
                                progress(path, stream.tell())
                            except (OSError, ValueError):
                                progress(path, -1)
                    page = write_page(stream, name, target, reg, four_colour=four_colour, stats=stats,
                                      back="../index.html", on_game=tick, per_page=per_page, rows=rows,
                                      link_base="games/", extend=extend, lang=lang, book=book, folder=games,
                                      names=names, force=force)
            except WriteError:
                raise
            except OSError as exc:
                if isinstance(exc, BrokenPipeError):
                    raise
                page.unreadable = why(exc)
            report.files.append(page)
        figures = stats.to_json()
        extra = review(out, player_slugs(list(book.played))) if review is not None and book.played else {}
        pages = write_player_pages(out, book, figures["players"], extra=extra)
        text = render_index(title, index_body(title, figures, rows, report.files, four_colour=four_colour,
                                              player_pages=pages), script=template("index.js"))
        site.write_file("index.html", text, force=force)
        report.index = site.join("index.html")
    return report


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
    out = ['<header><h1>', name_html(name), '</h1><a class="back" href="../index.html">\u2190 all games</a></header>',
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
                      [[(g["title"], f"../{g['href']}"), g["date"], g["seat"], list(g["partners"]),
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
                stream.write(render_index(isolated(name), body))
            pages[name] = f"players/{slugs[name]}.html"
    return pages
def index_body(title: str, s: dict[str, Any], rows: list[dict[str, Any]], files: list[PageReport], *,
               four_colour: bool = False, player_pages: Optional[dict[str, str]] = None) -> str:
    """The index page's body: headline figures, every game (with a filter box), players,
    charts, streaks. ``player_pages``: name -> the player's page, linked from the tables."""
    pages = player_pages or {}
    checked = " checked" if four_colour else ""
    out: list[str] = [PATTERNS, '<header><h1>', escape(title), '</h1>',
                      f'<label class="check"><input type="checkbox" id="four"{checked}> four-colour deck</label>'
                      '</header>',
                      '<main>']
    matches = s["matches"]
    out.append('<section aria-labelledby="h-summary"><h2 id="h-summary">The archive</h2><ul class="figures">')
    def many(n: int, word: str) -> str:            # one file, two files; one match, two matches
        return word if n == 1 else word + ("es" if word.endswith("ch") else "s")
    out.append(f'<li>{_stat("files", s["files"])} {many(s["files"], "file")}</li>'
               f'<li>{_stat("games", s["games"])} {many(s["games"], "game")}</li>'
               f'<li>{_stat("deals", s["deals"])} {many(s["deals"], "deal")} '
               f'({_stat("complete", s["complete"])} complete)</li>'
               f'<li>{_stat("tricks", s["tricks"])} {many(s["tricks"], "trick")}</li>'
               f'<li>{_stat("matches.finished", matches["finished"])} {many(matches["finished"], "match")} finished, '
               f'{_stat("matches.unfinished", matches["unfinished"])} unfinished</li>'
               f'<li>{_stat("games_with_errors", s["games_with_errors"])} {many(s["games_with_errors"], "game")} '
               'with errors</li></ul></section>')
    out.append(_games(rows, files, pages))
    players = s["players"]
    if players:
        out.append('<section aria-labelledby="h-players"><h2 id="h-players">Players</h2>')
        out.append(_table(["player", "games", "matches won", "deals", "deals won", "kots", "tens", "tens lost",
                           "sweeps"],
                          [[(name, pages[name]) if name in pages else name,
                            *(str(p[k]) for k in ("games", "matches_won", "deals", "deals_won", "kots", "tens",
                                                  "tens_lost", "sweeps"))]
                           for name, p in sorted(players.items(), key=lambda kv: (-kv[1]["deals_won"], kv[0]))]))
        out.append("</section>")
    charts: list[str] = []
    tables = s["by_table"]
    for size, tb in tables.items():
        at = f" ({size} players)" if len(tables) > 1 else ""
        won = tb["won"]
        charts.append(bar_chart(f"Deal wins by side{at}", [
            *[Bar(side, n, cls=f"c{_side(side)}", pattern=_side(side), stat=f"by_table.{size}.won.{side}")
              for side, n in won.items()],
            Bar("no result", tb["no_result"], cls="c2", pattern=2, stat=f"by_table.{size}.no_result")]))
        decided = tb["dealing_side_won"] + tb["other_side_won"]
        dealing, other = tb["dealing_side_won"], tb["other_side_won"]
        dealer_bars = [
            Bar("dealing side", dealing, f'{dealing} ({_pct(dealing, decided)})', cls="c0", pattern=0,
                stat=f"by_table.{size}.dealing_side_won"),
            Bar("other side", other, f'{other} ({_pct(other, decided)})', cls="c1", pattern=1,
                stat=f"by_table.{size}.other_side_won")]
        for i, (seat, d) in enumerate(tb["dealer"].items()):
            dealer_bars.append(Bar(f"{seat} deals: dealing side", d["dealing_side_won"],
                                   f'{d["dealing_side_won"]} of {d["deals"]}', cls=f"c{2 + i % 4}",
                                   pattern=2 + i % 4, stat=f"by_table.{size}.dealer.{seat}.dealing_side_won"))
        charts.append(bar_chart(f"Deal wins by dealer position{at}", dealer_bars,
                                note="Deals won by the dealer's side and by the other side, then per dealing seat."))
    charts.append(bar_chart("Kots by reason", [
        Bar({"all-tens": "all the tens", "streak": "a streak", "all-tricks": "every trick"}.get(reason, reason), n,
            cls=f"c{i + 2}", pattern=i + 1, stat=f"kots.{reason}")
        for i, (reason, n) in enumerate(s["kots"].items())]))
    by_player = s["tens_by_player"]
    if by_player:
        top = sorted(by_player.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
        charts.append(bar_chart("Tens captured per player", [
            Bar(name, n, cls="c0", pattern=0) for name, n in top],
            note="Tens taken by each player's captures; the top 20."))
    for size, tb in tables.items():
        charts.append(bar_chart(f"Tens captured per seat ({size} players)", [
            Bar(seat, n, cls=f"c{_side(seat)}", pattern=_side(seat), stat=f"by_table.{size}.tens_by_seat.{seat}")
            for seat, n in tb["tens_by_seat"].items()],
            note="A seat is a place at the table: across games it is different people (by name: Players)."))
    sweeps = s["sweeps"]
    charts.append(bar_chart(f"Centre sweeps by size ({sweeps['count']} sweeps)", [
        Bar(f"{size} cards", n, cls="c3", pattern=3, stat=f"sweeps.size.{size}")
        for size, n in sweeps["size"].items()]))
    charts.append(bar_chart("Tens in a sweep", [
        Bar(f"{tens} ten{'s' if tens != '1' else ''}", n, cls="c4", pattern=4, stat=f"sweeps.tens.{tens}")
        for tens, n in sweeps["tens"].items()]))
    trump = s["trump"]
    charts.append(bar_chart("Trump suits", [
        Bar(f"{t['name']}", t["deals"], cls=f"suit-{suit}" if suit in SUITS else "c2", pattern=i,
            stat=f"trump.{suit}.deals") for i, (suit, t) in enumerate(trump.items())]))
    charts.append(bar_chart("How often the trump side won", [
        Bar(f"{t['name']}", 100 * t["trump_side_won"] / t["decided"] if t["decided"] else 0,
            f'{t["trump_side_won"]} of {t["decided"]} ({_pct(t["trump_side_won"], t["decided"])})',
            cls=f"suit-{suit}" if suit in SUITS else "c2", pattern=i, stat=None)
        for i, (suit, t) in enumerate(trump.items()) if suit != "none"],
        note="Deals won by the side whose player set trump, of the deals with a result."))
    out.append('<section aria-labelledby="h-charts"><h2 id="h-charts">Charts</h2><div class="charts">')
    out.extend(charts)
    out.append("</div></section>")
    largest = sweeps.get("largest")
    if largest:
        out.append(f'<p>The largest sweep: {_stat("sweeps.largest.cards", largest["cards"])} cards by '
                   f'{name_html(str(largest["by"]))} ({escape(" ".join(largest["tens"])) or "no tens"}), '
                   f'{escape(str(largest["source"]))} game {largest["game"]} deal {largest["deal"]} '
                   f'trick {largest["trick"]}. Last tricks took the rest of the centre '
                   f'{_stat("last_trick.count", s["last_trick"]["count"])} times; '
                   f'{_stat("claims.count", s["claims"]["count"])} deals ended with a claim.</p>')
    out.append('<section aria-labelledby="h-streaks"><h2 id="h-streaks">Longest streaks</h2>')
    out.append(_table(["deals in a row", "side", "players", "file", "game", "ending at deal"],
                      [[str(st["length"]), st["side"], list(st["players"]), st["source"], str(st["game"]),
                        str(st["deal"])] for st in s["streaks"]]))
    out.append("</section></main>")
    return "".join(out)


def _games(rows: list[dict[str, Any]], files: list[PageReport], pages: dict[str, str]) -> str:
    """The list of every game, first on the index, with a filter box (the page's script shows
    it and hides the rows whose text does not hold what is typed; without script, all rows)."""
    out = ['<section aria-labelledby="h-games"><h2 id="h-games">Games</h2>',
           '<p class="filter" id="filter-box" hidden><label for="filter">Filter the games</label> '
           '<input type="search" id="filter" placeholder="a player, an event, a date, a file..." '
           'autocomplete="off"> <span id="shown" aria-live="polite" data-some="{n} of {m} games" '
           'data-all="{m} games"></span></p>']
    head = ["file", "#", "event", "date", "players", "rules", "result", "deals", "errors"]
    body = []
    for r in rows:
        people = [(f"{k} {v}", pages[v]) if v in pages else f"{k} {v}" for k, v in r["players"].items()]
        body.append([r["file"], str(r["n"]), (r["title"], r["href"]), r["date"], people, r["rules"], r["result"],
                     str(r["deals"]), str(r["errors"]) if r["errors"] else ""])
    out.append(_table(head, body, table_id="games"))
    bad = [f for f in files if f.unreadable]
    if bad:
        out.append("<p class='errors'>Not read: " + "; ".join(f"{escape(f.path)} ({escape(f.unreadable or '')})"
                                                               for f in bad) + "</p>")
    out.append("</section>")
    return "".join(out)


