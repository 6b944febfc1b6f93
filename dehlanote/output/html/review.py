"""A site's mistake review: a review page and a drill page per player, beside the player pages.

Built when the site is analysed (``dehlanote html --site --analyse``): :class:`SiteReview`
is told each deal's analysis as the site solves it (:attr:`Analyser.on_solved
<dehlanote.output.analysis_view.Analyser.on_solved>`), keeps its decisions
(:func:`dehlanote.analysis.review.from_analysis`, the figures ``dehlanote review`` gives)
and, once every file is read, writes for each named player who had a judged decision:

- ``players/SLUG-review.html``: decisions judged, ``?`` and ``??`` counts, tens lost per
  deal, and the costliest decisions with what would have kept the value, each linked to its
  position in the replay;
- ``players/SLUG-drill.html``: each costly position as the player saw it (their hand, the
  trick so far, the tricks before, trump as far as they knew it; never the hidden hands),
  "what would you play here?": a card clicked is checked against the judgement (the best,
  a loss within the judgement's error, or a loss) and every legal card's judged loss shown,
  with a link to the replay at that position. The page's script (``templates/drill.js``)
  reads its positions from a JSON block and writes every string with ``textContent``.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import IO, Any, Callable, Optional

from ...analysis.review import DealReview, Decision, Options, PlayerReview, cache_key, from_analysis, player_names, \
    players
from ...files import Folder
from ...replay import DealFact
from ...rules.profile import Rules
from ...syntax import iter_games
from .page import render_index, script_json, template
from .site import PER_PAGE, GamePages, PageNames

__all__ = ["SiteReview", "TOP"]

#: the costliest decisions of each player on the review and drill pages
TOP = 10


class SiteReview:
    """Collects the decisions of each deal the site analyses, then writes the pages."""

    def __init__(self, analyser: Any, *, top: int = TOP, per_page: int = PER_PAGE,
                 opener: Callable[[str], IO[bytes]] = lambda p: open(p, "rb"),
                 shown: Callable[[str], str] = str) -> None:
        self.options = Options(dd=analyser.dd, worlds=analyser.worlds, seed=analyser.seed,
                               from_trick=analyser.from_trick, time_limit=analyser.time_limit)
        analyser.on_solved = self._solved
        self.top, self.per_page, self._open, self.shown = top, per_page, opener, shown
        self.paths: list[str] = []                   # the inputs read, in order
        self._memo: dict[str, DealReview] = {}       # a deal met again (copied) is not judged again
        self._last: Optional[tuple[DealFact, DealReview]] = None
        self.deals: list[tuple[int, int, int, DealReview]] = []   # (input index, game, deal, review)
        self.rules: dict[tuple[int, int], Rules] = {}

    def opener(self, path: str) -> IO[bytes]:
        """Opens an input for the site (and notes it: the deals that follow are its)."""
        stream = self._open(path)
        self.paths.append(path)
        return stream

    def _solved(self, fact: DealFact, rules: Rules, analysis: Any) -> None:
        self._last = (fact, from_analysis(fact, rules, analysis, time_limit=self.options.time_limit))

    def deal(self, game: int, fact: DealFact, rules: Rules) -> None:
        """After the site's analysis of a deal (solved or from its cache): keep its decisions."""
        key = cache_key(fact, rules, self.options)
        if self._last is not None and self._last[0] is fact:
            self._memo[key] = self._last[1]
        self._last = None
        review = self._memo.get(key)
        if review is not None and self.paths:
            self.deals.append((len(self.paths) - 1, game, fact.number, review))
            self.rules[(len(self.paths) - 1, game)] = rules

    # ---- the pages ------------------------------------------------------------------------

    def write(self, out: Path, slugs: dict[str, str]) -> dict[str, str]:
        """``players/SLUG-review.html`` and ``players/SLUG-drill.html`` for each named player with
        a judged decision; returns name -> the section their player page adds (links to both)."""
        decisions, links = self._located()
        people = players(decisions)
        extra: dict[str, str] = {}
        if not people:
            return extra
        with Folder(out, create=True) as site, site.folder("players") as folder:
            for name, p in people.items():
                slug = slugs.get(name)
                if slug is None:
                    continue
                worst = p.costliest(self.top)
                with folder.write(f"{slug}-review.html") as stream:
                    stream.write(render_index(f"{name}: mistake review", review_body(p, worst, links, slug)))
                with folder.write(f"{slug}-drill.html") as stream:
                    stream.write(render_index(f"{name}: what would you play here?", drill_body(p, worst, links, slug),
                                              script=template("drill.js")))
                extra[name] = player_section(p, slug, self.options)
        return extra

    def _located(self) -> tuple[list[Decision], dict[tuple[str, int, int], str]]:
        names = PageNames()
        seats: dict[tuple[int, int], dict[str, str]] = {}
        pages: dict[tuple[int, int], str] = {}
        from urllib.parse import quote

        for i, path in enumerate(self.paths):
            gp = GamePages(names, path, self.per_page)
            try:
                with self._open(path) as stream:
                    for n, game in enumerate(iter_games(stream), 1):
                        pages[(i, n)] = gp.page(n)
                        seats[(i, n)] = player_names(game, self.rules.get((i, n)))
            except OSError:
                continue
        out: list[Decision] = []
        links: dict[tuple[str, int, int], str] = {}
        for i, g, d, review in self.deals:
            source = self.shown(self.paths[i])
            page = pages.get((i, g))
            if page is not None:
                links[(source, g, d)] = f"../games/{quote(page)}#game={g}&deal={d}"
            who = seats.get((i, g), {})
            out.extend(x.at(source, g, d, who.get(x.seat, "")) for x in review.decisions)
        return out, links


# ---- what the pages say ----------------------------------------------------------------------

_SUIT = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def card_text(card: str) -> str:
    return card[:-1] + _SUIT.get(card[-1], card[-1])


def _link(links: dict[tuple[str, int, int], str], d: Decision) -> str:
    base = links.get((d.source, d.game, d.deal), "")
    return f"{base}&trick={d.trick}&card={d.place}" if base else ""


def _value(d: Decision, v: float) -> str:
    a, b = d.sides
    if d.worlds == 1 and float(v).is_integer():
        return f"{a} {v:.0f}\u2013{d.total - v:.0f} {b}"
    return f"{a} {v:.1f}\u2013{d.total - v:.1f} {b} expected"


def _loss(d: Decision) -> str:
    unit = d.score[:-1] if d.loss == 1 else d.score
    if d.worlds == 1:
        return f"{d.loss:.2f} {unit} (double dummy)"
    return f"{d.loss:.2f} {unit} \u00b1{d.stderr:.2f} over {d.worlds} deals"


def _figures(p: PlayerReview) -> str:
    items = [("decisions", p.decisions, "decisions judged"), ("dubious", p.dubious, "marked ?"),
             ("blunders", p.blunders, "marked ??"), ("deals", p.deals, "deals"),
             ("per_deal", f"{p.per_deal:.2f}", "tens lost a deal (expected)")]
    return '<ul class="figures">' + "".join(
        f'<li><span data-stat="{k}" data-value="{escape(str(v))}">{escape(str(v))}</span> {escape(label)}</li>'
        for k, v, label in items) + "</ul>"


def player_section(p: PlayerReview, slug: str, options: Options) -> str:
    """The section a player's page gains: the review's figures and links to both pages."""
    how = "double dummy" if options.dd else f"single dummy, {options.worlds} worlds a decision"
    return ('<section aria-labelledby="h-review"><h2 id="h-review">Mistake review</h2>' + _figures(p)
            + f'<p>Judged {escape(how)}. <a href="{escape(slug)}-review.html">The costliest decisions</a> \u00b7 '
            f'<a href="{escape(slug)}-drill.html">Drill: what would you play here?</a></p></section>')


def review_body(p: PlayerReview, worst: list[Decision], links: dict[tuple[str, int, int], str], slug: str) -> str:
    out = ['<header><h1>', escape(p.name), ': mistake review</h1><a class="back" href="', escape(slug),
           '.html">\u2190 ', escape(p.name), '</a></header><main>',
           '<section aria-labelledby="h-figures"><h2 id="h-figures">Figures</h2>', _figures(p), '</section>',
           '<section aria-labelledby="h-costliest"><h2 id="h-costliest">The costliest decisions</h2>']
    if not worst:
        out.append("<p>No decision marked ? or ??.</p>")
    else:
        out.append(f'<p><a href="{escape(slug)}-drill.html">Drill these positions: what would you play '
                   'here?</a></p>')
        out.append("<div class='scroll'><table id='costliest'><thead><tr>" + "".join(
            f"<th scope='col'>{h}</th>" for h in ("#", "position", "played", "would have kept the value",
                                                 "expected loss")) + "</tr></thead><tbody>")
        for i, d in enumerate(worst, 1):
            where = f"{d.source} game {d.game}, deal {d.deal}, trick {d.trick}, card {d.place + 1}"
            link = _link(links, d)
            cell = f'<a href="{escape(link)}">{escape(where)}</a>' if link else escape(where)
            better = [c for c in d.best if c != d.card]
            kept = f"{' or '.join(card_text(c) for c in better)}: {_value(d, d.best_value)}"
            out.append(f"<tr><td>{i}</td><td>{cell}</td><td>{escape(d.seat)} {escape(card_text(d.card))}"
                       f"{escape(d.mark)} ({escape(_value(d, d.value))})</td><td>{escape(kept)}</td>"
                       f"<td>{escape(_loss(d))}</td></tr>")
        out.append("</tbody></table></div>")
    out.append("</section></main>")
    return "".join(out)


def drill_positions(worst: list[Decision], links: dict[tuple[str, int, int], str]) -> list[dict[str, Any]]:
    """The drill's data: each costly position as its player saw it, and every legal card's judgement."""
    out = []
    for d in worst:
        if d.seen is None or not d.cards:
            continue
        out.append({"where": f"{d.source} game {d.game}, deal {d.deal}, trick {d.trick}", "seat": d.seat,
                    "player": d.player, "played": d.card, "mark": d.mark, "unit": d.score, "sides": list(d.sides),
                    "worlds": d.worlds, "exact": d.exact, "link": _link(links, d), "trick": d.trick,
                    "seen": d.seen.to_json(),
                    "cards": [{"card": c.card, "loss": c.loss, "stderr": c.stderr, "mark": c.mark} for c in d.cards]})
    return out


def drill_body(p: PlayerReview, worst: list[Decision], links: dict[tuple[str, int, int], str], slug: str) -> str:
    data = {"player": p.name, "positions": drill_positions(worst, links)}
    return "".join([
        '<header><h1>', escape(p.name), ': what would you play here?</h1><a class="back" href="', escape(slug),
        '-review.html">\u2190 the mistake review</a></header><main id="drill">',
        '<p class="drill-intro">Each position is one where ', escape(p.name), ' lost value. You see what they '
        'saw: their hand, the cards played, trump as far as they knew it. Choose the card you would play.</p>',
        '<noscript><p>The drill needs JavaScript; <a href="', escape(slug), '-review.html">the review</a> lists '
        'the same positions with their answers.</p></noscript>',
        '<div id="drill-box" hidden>',
        '<nav class="drill-nav" aria-label="positions"><button type="button" id="d-prev">\u2190 previous</button> '
        '<span id="d-count" aria-live="polite"></span> <button type="button" id="d-next">next \u2192</button></nav>',
        '<section id="d-position" aria-labelledby="d-where"><h2 id="d-where"></h2>',
        '<p id="d-you"></p><ul id="d-facts" class="figures"></ul>',
        '<div class="d-trick"><h3>This trick</h3><p id="d-trick"></p></div>',
        '<details id="d-earlier-box"><summary>The tricks before</summary><ol id="d-earlier"></ol></details>',
        '<h3 id="d-ask">What would you play here?</h3>',
        '<div id="d-hand" class="d-hand" role="group" aria-labelledby="d-ask"></div>',
        '<p id="d-answer" class="d-answer" role="status" aria-live="polite"></p>',
        '<div id="d-after" hidden><div class="scroll"><table id="d-losses"><caption>Every legal card, judged'
        '</caption><thead><tr><th scope="col">card</th><th scope="col">expected loss</th><th scope="col">mark'
        '</th><th scope="col"></th></tr></thead><tbody></tbody></table></div>',
        '<p><a id="d-replay" href="#">See this position in the replay</a></p></div>',
        '</section></div>',
        '<p id="d-none" hidden>No costly position to drill.</p>',
        '<script type="application/json" id="drill-data">', script_json(data), '</script>',
        '</main>'])
