"""Replay pages for files, and a site: a folder of pages with an index of statistics.

Files are read one game at a time and each game is replayed once, deal by deal: the same
facts feed the page data and the archive statistics (:class:`~dehlanote.stats.ArchiveStats`).
The pages' data waits in a spool file, not in memory (a file with more than ``per_page``
games is split into several pages), so a site of any size, and a game of any length, is
built in bounded memory.
"""

from __future__ import annotations

import functools
import html
import itertools
import pickle
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote
from typing import IO, Any, Callable, Iterable, Iterator, Optional, Protocol

from ...analysis.judge import claim_judge
from ...deck import SUITS, sides_for
from ...db.ratings import file_key
from ...errors import DpnError, why
from ...files import Folder, WriteError, drain, record_spool, spool, write_target
from ...i18n import N_, speaking, speaking_words as _
from ...replay import DealFact, GameFacts, iter_replay, replay_game
from ...rules.profile import Registry, Rules
from ...stats import ArchiveStats
from ...syntax import iter_games
from ...syntax.model import Loose
from ...syntax.parser import records
from ...syntax.reader import split_games
from .charts import PATTERNS, Bar, bar_chart
from .data import game_summary, write_game_data
from .page import (escape, html_table as _table, index_frame, name_html, render_replay, script_json, table_parts,
                   template)
from .players import PlayerBook, player_slugs, write_parts, write_player_pages

__all__ = ["PageReport", "SiteReport", "replay_games_of", "write_page", "build_site", "index_body", "index_parts",
           "PER_PAGE", "PageNames", "IndexRows"]

#: games on one page of a site before a file is split into several pages
PER_PAGE = 100

#: ``extend(game number, deal facts, rules, deal data)``: adds to a deal's page data (the analysis)
Extend = Callable[[int, DealFact, Rules, dict[str, Any]], object]


class Rows(Protocol):
    """Where :func:`write_page` puts the index row of each game: a list, or :class:`IndexRows`."""

    def append(self, row: dict[str, Any], /) -> None: ...


@dataclass
class PageReport:
    """What one input gave: its games, deals and errors, the pages written, or why not."""

    path: str
    games: int = 0
    deals: int = 0
    errors: int = 0
    pages: list[str] = field(default_factory=list)
    unreadable: Optional[str] = None
    first_errors: list[DpnError] = field(default_factory=list)   # a few, to show
    comments: list[str] = field(default_factory=list)   # a file of no game: the comments it holds
    href: str = ""                                      # its (first) page, as the site links it


@dataclass
class SiteReport:
    files: list[PageReport] = field(default_factory=list)
    index: Optional[str] = None
    stats: Optional[ArchiveStats] = None


def replay_games_of(stream: IO[bytes], reg: Registry) -> Iterator[GameFacts]:
    """Each game of a binary stream, replayed, one at a time."""
    for game in iter_games(stream):
        yield replay_game(game, reg, judge=claim_judge)


class PageNames:
    """The page names of a site's folder, each given once (case folded, as a case-insensitive
    disk would): a file's pages are ``x``, ``x-2`` ...; a name already given (a file named
    ``x-2.dpn`` beside a file split into pages) gets the next free ``-N``, so no page is ever
    written twice and every index row links to its own game."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def claim(self, base: str) -> str:
        name, n = base, 2
        while name.lower() in self.taken:
            name = f"{base}-{n}"
            n += 1
        self.taken.add(name.lower())
        return name

    def for_file(self, path: str) -> str:
        """The first page's name (no suffix) for an input path (any bytes: only letters,
        digits and ``._-`` are kept)."""
        base = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(path).stem).strip("-.")[:80] or "games"
        return self.claim(base)


class GamePages:
    """The replay page (in a site's ``games/``) of each game of one input, named as
    :func:`build_site` names them: the inputs taken in the same order with the same
    ``names``, game ``n`` is on part ``(n - 1) // per_page + 1`` (its name claimed when its
    first game comes, as :func:`write_page` does). For links into a site (``dehlanote review``)."""

    def __init__(self, names: PageNames, path: str, per_page: int = PER_PAGE) -> None:
        self.names, self.per_page = names, per_page
        self.base = names.for_file(path)
        self.parts = {1: self.base}

    def page(self, game: int) -> str:
        """``x.html`` for game ``game`` (1-based; asked in order)."""
        part = (game - 1) // self.per_page + 1 if self.per_page else 1
        if part not in self.parts:
            self.parts[part] = self.names.claim(f"{self.base}-{part}")
        return self.parts[part] + ".html"

    def link(self, game: int, deal: int, trick: int, card: int) -> str:
        """The position before card ``card`` (0: the lead) of a trick: ``x.html#game=..&card=..``,
        as the replay page reads it."""
        return f"{quote(self.page(game))}#game={game}&deal={deal}&trick={trick}&card={card}"


def _title(path: str, summaries: list[dict[str, Any]]) -> str:
    if len(summaries) == 1:
        return str(summaries[0]["title"])
    # (standard input is named "<stdin>" here, never "-": its page was titled "<stdin>")
    return Path(path).name if path not in ("-", "<stdin>") else _("DPN games")


def _quoted(page: str) -> str:
    """A page's name in a link: a name that is not UTF-8 (a file's, read with surrogate escapes)
    as its own bytes, %-escaped."""
    return quote(page, errors="surrogateescape")


def write_page(stream: IO[bytes], path: str, target: Path, reg: Registry, *, four_colour: bool = False,
               stats: Optional[ArchiveStats] = None, back: Optional[str] = None,
               on_game: Optional[Callable[[], None]] = None, per_page: int = 0,
               rows: Optional[Rows] = None, link_base: str = "",
               extend: Optional[Extend] = None, lang: str = "en",
               book: Optional[PlayerBook] = None, folder: Optional[Folder] = None,
               names: Optional[PageNames] = None, force: bool = False, source: Optional[str] = None) -> PageReport:
    """Write the replay page(s) of one input, its words and the story of its deals in ``lang``
    (see :func:`_write_page`)."""
    with speaking(lang):
        return _write_page(stream, path, target, reg, four_colour=four_colour, stats=stats, back=back,
                           on_game=on_game, per_page=per_page, rows=rows, link_base=link_base, extend=extend,
                           lang=lang, book=book, folder=folder, names=names, force=force, source=source)


def _write_page(stream: IO[bytes], path: str, target: Path, reg: Registry, *, four_colour: bool = False,
                stats: Optional[ArchiveStats] = None, back: Optional[str] = None,
                on_game: Optional[Callable[[], None]] = None, per_page: int = 0,
                rows: Optional[Rows] = None, link_base: str = "",
                extend: Optional[Extend] = None, lang: str = "en",
                book: Optional[PlayerBook] = None, folder: Optional[Folder] = None,
                names: Optional[PageNames] = None, force: bool = False, source: Optional[str] = None) -> PageReport:
    """Write the replay page(s) of one input to ``target`` (``name.html``, ``name-2.html`` ...
    when ``per_page`` splits it); count its games in ``stats``; add one index row per game
    to ``rows``. ``extend(game number, deal facts, rules, deal data)`` may add to each deal's
    page data (the analysis). ``book`` gathers what the player pages need, the file known
    to it by ``source`` (the ratings' order among files, :func:`dehlanote.db.ratings.file_key`;
    default ``path``).

    Without ``folder``, ``target`` is the user's path, written by
    :func:`dehlanote.files.write_target`; in a site, the pages are written by name in
    ``folder`` (:class:`dehlanote.files.Folder`) and the names of later parts are taken
    from ``names``.

    Each game is replayed, counted and written deal by deal: the page's data waits in a
    spool file (the page's title and each game's summary come first, and are known only at
    the end), so a game of thousands of deals needs the memory of one.

    Raises:
        OutputRefused, WriteError: a page cannot be written (see :mod:`dehlanote.files`).
    """
    report = PageReport(path)
    part = 1
    summaries: list[dict[str, Any]] = []
    held: Optional[IO[str]] = None
    names = names if names is not None else PageNames()
    page = target.name
    report.href = f"{link_base}{_quoted(page)}"
    loose: list[str] = []     # comments in no game: the page of a file with no game shows them

    def flush() -> None:
        nonlocal part, held, summaries
        if not summaries and part > 1:
            return
        title = _title(path, summaries)
        if per_page and part > 1:
            title += f" (part {part})"
        report.comments = loose if not report.games else []
        head, tail = _page_parts(title, back=back, four_colour=four_colour, lang=lang, comments=report.comments)
        place = write_target(target, force=force) if folder is None else folder.write(page, force=force)
        with place as stream:
            stream.write(head)
            if held is not None:
                drain(held, stream.write)
                held.close()
            stream.write(tail)
        report.pages.append(str(target) if folder is None else folder.join(page))
        part += 1
        held = None
        summaries = []

    try:
        for game in records(split_games(stream)):
            if isinstance(game, Loose):
                loose.extend(game.comments)
                continue
            report.games += 1
            if per_page and len(summaries) >= per_page:
                flush()
                page = names.claim(f"{target.stem}-{part}") + target.suffix
            if held is None:
                held = spool()
            elif summaries:
                held.write(",")
            replay = iter_replay(game, reg, claim_judge)
            count = stats.game(game, replay.rules, path, report.games) if stats is not None else None
            entry = None
            if book is not None:
                entry = book.game(game, replay.rules, source or path, report.games,
                                  f"{link_base}{_quoted(page)}#game={report.games}",
                                  game.tag("Event") or f"{Path(path).name} game {report.games}")
            on_deal: Optional[Callable[[DealFact], object]] = count.deal if count is not None else None
            if entry is not None:
                on_deal = _both(on_deal, entry.deal)
            facts, deals = write_game_data(
                held.write, replay, report.games, on_deal=on_deal,
                extend_deal=None if extend is None else functools.partial(extend, report.games))
            if count is not None:
                count.end(facts)
            if entry is not None:
                entry.end(facts)
            report.deals += deals
            report.errors += len(facts.errors)
            if len(report.first_errors) < 20:
                report.first_errors.extend(facts.errors[: 20 - len(report.first_errors)])
            summary = game_summary(facts, report.games, deals)
            summaries.append(summary)
            if rows is not None:
                row = dict(summary)
                row["file"] = path
                row["href"] = f"{link_base}{_quoted(page)}#game={report.games}"
                rows.append(row)
            if on_game is not None:
                on_game()
        flush()
    finally:
        if held is not None:
            held.close()
    return report


def _both(first: Optional[Callable[[DealFact], object]],
          second: Callable[[DealFact], object]) -> Callable[[DealFact], None]:
    def call(deal: DealFact) -> None:
        if first is not None:
            first(deal)
        second(deal)
    return call


def _page_parts(title: str, *, back: Optional[str], four_colour: bool, lang: str = "en",
                comments: Optional[list[str]] = None) -> tuple[str, str]:
    """The replay page around its games' data: what comes before the first game's JSON,
    and what follows the last (the page of no games, cut where its list of games is).
    ``comments``: those of a file with no game, which the page shows in place of games."""
    from ...i18n import catalog
    data: dict[str, Any] = {"format": "dehlanote-replay/1", "four": four_colour, "words": catalog(lang)}
    if comments:
        data["comments"] = comments
    data["games"] = []
    empty = script_json(data)
    page = render_replay([], title, back=back, four_colour=four_colour, lang=lang, comments=comments)
    at = page.find(empty)
    if at < 0 or page.find(empty, at + 1) >= 0:
        raise AssertionError("the replay page's data block is not where it is expected")
    cut = at + len(empty) - len("]}")
    return page[:cut], page[cut:]


def build_site(paths: list[str], out: Path, reg: Registry, *, title: str = N_("DPN games"),
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
    through. The index is written last, by a rename once whole: never left empty or torn.

    Memory stays flat with the archive's size: the games' rows wait in spool files
    (:class:`IndexRows`, :class:`~.players.PlayerBook`), and the index and the player pages
    are written in pieces as their rows are read back.

    Raises:
        OutputRefused, WriteError: a page or the index cannot be written.
    """
    stats = ArchiveStats()
    book = PlayerBook()
    report = SiteReport(stats=stats)
    rows = IndexRows()
    names = PageNames()
    try:
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
                                          names=names, force=force, source=file_key(path))
                except WriteError:
                    raise
                except OSError as exc:
                    if isinstance(exc, BrokenPipeError):
                        raise
                    page.unreadable = why(exc)
                report.files.append(page)
            figures = stats.to_json()
            extra = review(out, player_slugs(list(book.played))) if review is not None and book.played else {}
            with speaking(lang):        # the players' pages and the index in the site's language
                pages = write_player_pages(out, book, figures["players"], extra=extra, lang=lang)
                site_title = _(title)
                head, tail = index_frame(site_title, script=template("index.js"), lang=lang)
                with site.write("index.html", force=force) as index:
                    write_parts(index, itertools.chain((head,), index_parts(
                        site_title, figures, rows, report.files, four_colour=four_colour, player_pages=pages),
                        (tail,)))
            report.index = site.join("index.html")
    finally:
        rows.close()
        book.close()
    return report


class IndexRows:
    """The index's row of every game, waiting pickled in a spool file (not in memory) until
    the index is written: :meth:`append` takes a row as :func:`write_page` makes it, iterating
    gives the rows back in order, as dicts of the same keys and values."""

    _KEYS = ("file", "n", "title", "href", "date", "players", "rules", "result", "deals", "errors")

    def __init__(self) -> None:
        self._spool: Optional[IO[bytes]] = None
        self.count = 0

    def append(self, row: dict[str, Any]) -> None:
        if self._spool is None:
            self._spool = record_spool()
        pickle.dump(tuple(row[k] for k in self._KEYS), self._spool, protocol=pickle.HIGHEST_PROTOCOL)
        self.count += 1

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if self._spool is None:
            return
        self._spool.seek(0)
        for _row in range(self.count):
            yield dict(zip(self._KEYS, pickle.load(self._spool)))

    def close(self) -> None:
        if self._spool is not None:
            self._spool.close()
            self._spool = None


# ---- the index ---------------------------------------------------------------------------------

def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "–"


def _side(name: str) -> int:
    """0 for the first side (A, C, E and their sides), 1 for the second."""
    return 0 if name[:1] in sides_for(6)[0] else 1     # AC and ACE: the first seat of A C E


#: the reasons for a kot, as the statistics name them
KOT_REASONS = {"all-tens": N_("all the tens"), "streak": N_("a streak"), "all-tricks": N_("every trick")}


def _markup(text: str, values: dict[str, str]) -> str:
    """A sentence of the page's language (escaped) with markup put in its blanks: ``{n} games``
    with ``n`` a figure's ``<span>``. The blanks are filled in one pass, never searched again."""
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), escape(text))


def _stat(key: str, value: Any) -> str:
    return f'<span data-stat="{escape(key)}" data-value="{escape(str(value))}">{escape(str(value))}</span>'


def index_body(title: str, s: dict[str, Any], rows: Iterable[dict[str, Any]], files: list[PageReport], *,
               four_colour: bool = False, player_pages: Optional[dict[str, str]] = None) -> str:
    """The index page's body: headline figures, every game (with a filter box), players,
    charts, streaks. ``player_pages``: name -> the player's page, linked from the tables."""
    return "".join(index_parts(title, s, rows, files, four_colour=four_colour, player_pages=player_pages))


def index_parts(title: str, s: dict[str, Any], rows: Iterable[dict[str, Any]], files: list[PageReport], *,
                four_colour: bool = False, player_pages: Optional[dict[str, str]] = None) -> Iterator[str]:
    """:func:`index_body` in pieces: the table of games a row at a time, as ``rows`` gives them."""
    pages = player_pages or {}
    checked = " checked" if four_colour else ""
    four = escape(_("four-colour deck"))
    out: list[str] = [PATTERNS, '<header><h1>', escape(title), '</h1>',
                      f'<label class="check"><input type="checkbox" id="four"{checked}> {four}</label>'
                      '</header>',
                      '<main>']
    matches = s["matches"]
    out.append('<section aria-labelledby="h-summary"><h2 id="h-summary">' + escape(_("The archive")) +
               '</h2><ul class="figures">')
    figures = [
        (_("{n} file") if s["files"] == 1 else _("{n} files"), {"n": _stat("files", s["files"])}),
        (_("{n} game") if s["games"] == 1 else _("{n} games"), {"n": _stat("games", s["games"])}),
        (_("{n} deal ({complete} complete)") if s["deals"] == 1 else _("{n} deals ({complete} complete)"),
         {"n": _stat("deals", s["deals"]), "complete": _stat("complete", s["complete"])}),
        (_("{n} trick") if s["tricks"] == 1 else _("{n} tricks"), {"n": _stat("tricks", s["tricks"])}),
        (_("{finished} match finished, {unfinished} unfinished") if matches["finished"] == 1
         else _("{finished} matches finished, {unfinished} unfinished"),
         {"finished": _stat("matches.finished", matches["finished"]),
          "unfinished": _stat("matches.unfinished", matches["unfinished"])}),
        (_("{n} game with errors") if s["games_with_errors"] == 1 else _("{n} games with errors"),
         {"n": _stat("games_with_errors", s["games_with_errors"])})]
    out.append("".join(f"<li>{_markup(text, values)}</li>" for text, values in figures) + "</ul></section>")
    yield "".join(out)
    out = []
    yield from _games(rows, files, pages)
    players = s["players"]
    if players:
        out.append('<section aria-labelledby="h-players"><h2 id="h-players">' + escape(_("Players")) + '</h2>')
        out.append(_table([_("player"), _("games"), _("matches won"), _("deals"), _("deals won"), _("kots"),
                           _("tens"), _("tens lost"), _("sweeps")],
                          [[(name, pages[name]) if name in pages else name,
                            *(str(p[k]) for k in ("games", "matches_won", "deals", "deals_won", "kots", "tens",
                                                  "tens_lost", "sweeps"))]
                           for name, p in sorted(players.items(), key=lambda kv: (-kv[1]["deals_won"], kv[0]))]))
        out.append("</section>")
    charts: list[str] = []
    tables = s["by_table"]
    for size, tb in tables.items():
        at = _(" ({n} players)").format(n=size) if len(tables) > 1 else ""
        won = tb["won"]
        charts.append(bar_chart(_("Deal wins by side") + at, [
            *[Bar(side, n, cls=f"c{_side(side)}", pattern=_side(side), stat=f"by_table.{size}.won.{side}")
              for side, n in won.items()],
            Bar(_("no result"), tb["no_result"], cls="c2", pattern=2, stat=f"by_table.{size}.no_result")]))
        decided = tb["dealing_side_won"] + tb["other_side_won"]
        dealing, other = tb["dealing_side_won"], tb["other_side_won"]
        dealer_bars = [
            Bar(_("dealing side"), dealing, f'{dealing} ({_pct(dealing, decided)})', cls="c0", pattern=0,
                stat=f"by_table.{size}.dealing_side_won"),
            Bar(_("other side"), other, f'{other} ({_pct(other, decided)})', cls="c1", pattern=1,
                stat=f"by_table.{size}.other_side_won")]
        for i, (seat, d) in enumerate(tb["dealer"].items()):
            dealer_bars.append(Bar(_("{seat} deals: dealing side").format(seat=seat), d["dealing_side_won"],
                                   _("{n} of {m}").format(n=d["dealing_side_won"], m=d["deals"]), cls=f"c{2 + i % 4}",
                                   pattern=2 + i % 4, stat=f"by_table.{size}.dealer.{seat}.dealing_side_won"))
        charts.append(bar_chart(_("Deal wins by dealer position") + at, dealer_bars,
                                note=_("Deals won by the dealer's side and by the other side, then per dealing seat.")))
    charts.append(bar_chart(_("Kots by reason"), [
        Bar(_(KOT_REASONS.get(reason, reason)), n, cls=f"c{i + 2}", pattern=i + 1, stat=f"kots.{reason}")
        for i, (reason, n) in enumerate(s["kots"].items())]))
    by_player = s["tens_by_player"]
    if by_player:
        top = sorted(by_player.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
        charts.append(bar_chart(_("Tens captured per player"), [
            Bar(name, n, cls="c0", pattern=0) for name, n in top],
            note=_("Tens taken by each player's captures; the top 20.")))
    for size, tb in tables.items():
        charts.append(bar_chart(_("Tens captured per seat ({n} players)").format(n=size), [
            Bar(seat, n, cls=f"c{_side(seat)}", pattern=_side(seat), stat=f"by_table.{size}.tens_by_seat.{seat}")
            for seat, n in tb["tens_by_seat"].items()],
            note=_("A seat is a place at the table: across games it is different people (by name: Players).")))
    sweeps = s["sweeps"]
    charts.append(bar_chart(_("Centre sweeps by size ({n} sweeps)").format(n=sweeps["count"]), [
        Bar(_("{n} cards").format(n=size), n, cls="c3", pattern=3, stat=f"sweeps.size.{size}")
        for size, n in sweeps["size"].items()]))
    charts.append(bar_chart(_("Tens in a sweep"), [
        Bar((_("1 ten") if tens == "1" else _("{n} tens").format(n=tens)), n, cls="c4", pattern=4,
            stat=f"sweeps.tens.{tens}")
        for tens, n in sweeps["tens"].items()]))
    trump = s["trump"]
    charts.append(bar_chart(_("Trump suits"), [
        Bar(_(t["name"]), t["deals"], cls=f"suit-{suit}" if suit in SUITS else "c2", pattern=i,
            stat=f"trump.{suit}.deals") for i, (suit, t) in enumerate(trump.items())]))
    charts.append(bar_chart(_("How often the trump side won"), [
        Bar(_(t["name"]), 100 * t["trump_side_won"] / t["decided"] if t["decided"] else 0,
            _("{n} of {m} ({share})").format(n=t["trump_side_won"], m=t["decided"],
                                             share=_pct(t["trump_side_won"], t["decided"])),
            cls=f"suit-{suit}" if suit in SUITS else "c2", pattern=i, stat=None)
        for i, (suit, t) in enumerate(trump.items()) if suit != "none"],
        note=_("Deals won by the side whose player set trump, of the deals with a result.")))
    out.append('<section aria-labelledby="h-charts"><h2 id="h-charts">' + escape(_("Charts")) +
               '</h2><div class="charts">')
    out.extend(charts)
    out.append("</div></section>")
    largest = sweeps.get("largest")
    if largest:
        out.append("<p>" + _markup(_(
            "The largest sweep: {cards} cards by {seat} ({tens}), {file} game {game} deal {deal} trick {trick}. "
            "Last tricks took the rest of the centre {last} times; {claims} deals ended with a claim."), {
                "cards": _stat("sweeps.largest.cards", largest["cards"]), "seat": name_html(str(largest["by"])),
                "tens": escape(" ".join(largest["tens"])) or escape(_("no tens")),
                "file": escape(str(largest["source"])), "game": str(largest["game"]), "deal": str(largest["deal"]),
                "trick": str(largest["trick"]), "last": _stat("last_trick.count", s["last_trick"]["count"]),
                "claims": _stat("claims.count", s["claims"]["count"])}) + "</p>")
    out.append('<section aria-labelledby="h-streaks"><h2 id="h-streaks">' + escape(_("Longest streaks")) + '</h2>')
    out.append(_table([_("deals in a row"), _("side"), _("players"), _("file"), _("game"), _("ending at deal")],
                      [[str(st["length"]), st["side"], list(st["players"]), st["source"], str(st["game"]),
                        str(st["deal"])] for st in s["streaks"]]))
    out.append("</section></main>")
    yield "".join(out)


def _games(rows: Iterable[dict[str, Any]], files: list[PageReport], pages: dict[str, str]) -> Iterator[str]:
    """The list of every game, first on the index, with a filter box (the page's script shows
    it and hides the rows whose text does not hold what is typed; without script, all rows)."""
    out = ['<section aria-labelledby="h-games"><h2 id="h-games">', escape(_("Games")), '</h2>',
           '<p class="filter" id="filter-box" hidden><label for="filter">', escape(_("Filter the games")), '</label> ',
           '<input type="search" id="filter" placeholder="', escape(_("a player, an event, a date, a file...")),
           '" autocomplete="off"> <span id="shown" aria-live="polite" data-some="', escape(_("{n} of {m} games")),
           '" data-all="', escape(_("{m} games")), '"></span></p>']
    head = [_("file"), "#", _("event"), _("date"), _("players"), _("rules"), _("result"), _("deals"), _("errors")]

    def body() -> Iterator[list[Any]]:
        for r in rows:
            people = [(f"{k} {v}", pages[v]) if v in pages else f"{k} {v}" for k, v in r["players"].items()]
            yield [r["file"], str(r["n"]), (r["title"], r["href"]), r["date"], people, r["rules"], r["result"],
                   str(r["deals"]), str(r["errors"]) if r["errors"] else ""]
    yield "".join(out)
    out = []
    yield from table_parts(head, body(), table_id="games")
    bad = [f for f in files if f.unreadable]
    if bad:
        not_read = "; ".join(f"{escape(f.path)} ({escape(f.unreadable or '')})" for f in bad)
        out.append("<p class='errors'>" + escape(_("Not read:")) + f" {not_read}</p>")
    # a file with no game is in no row: said here, linked to its page (which shows its comments)
    empty = [f for f in files if not f.unreadable and not f.games and f.href]
    if empty:
        said = "; ".join(f'<a href="{html.escape(f.href)}">{escape(f.path)}</a>'
                         + (" (" + escape(_("only comments")) + ")" if f.comments else "") for f in empty)
        out.append("<p class='no-game'>" + escape(_("No game in:")) + f" {said}</p>")
    out.append("</section>")
    yield "".join(out)
