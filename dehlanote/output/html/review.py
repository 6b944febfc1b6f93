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

from pathlib import Path
from typing import IO, Any, Callable, Optional

from ...analysis.review import DealReview, Decision, Options, PlayerReview, cache_key, from_analysis, judged_how, \
    player_names, players
from ...files import Folder
from ...replay import DealFact
from ...rules.profile import Rules
from ...syntax import iter_games
from ...i18n import N_, catalog, translator
from .page import escape, isolated, name_html, render_index, script_json, template
from .site import PER_PAGE, GamePages, PageNames

__all__ = ["SiteReview", "TOP"]

#: the costliest decisions of each player on the review and drill pages
TOP = 10

Tr = Callable[[str], str]


class SiteReview:
    """Collects the decisions of each deal the site analyses, then writes the pages."""

    def __init__(self, analyser: Any, *, top: int = TOP, per_page: int = PER_PAGE,
                 opener: Callable[[str], IO[bytes]] = lambda p: open(p, "rb"),
                 shown: Callable[[str], str] = str, lang: str = "en") -> None:
        self.options = Options(dd=analyser.dd, worlds=analyser.worlds, seed=analyser.seed,
                               from_trick=analyser.from_trick, time_limit=analyser.time_limit)
        analyser.on_solved = self._solved
        self.top, self.per_page, self._open, self.shown, self.lang = top, per_page, opener, shown, lang
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
        _ = translator(self.lang)
        words = catalog(self.lang)
        with Folder(out, create=True) as site, site.folder("players") as folder:
            for name, p in people.items():
                slug = slugs.get(name)
                if slug is None:
                    continue
                worst = p.costliest(self.top)
                with folder.write(f"{slug}-review.html") as stream:
                    stream.write(render_index(_("{name}: mistake review").format(name=isolated(name)),
                                              review_body(p, worst, links, slug, _), lang=self.lang))
                with folder.write(f"{slug}-drill.html") as stream:
                    stream.write(render_index(_("{name}: what would you play here?").format(name=isolated(name)),
                                              drill_body(p, worst, links, slug, _, words), script=template("drill.js"),
                                              lang=self.lang))
                extra[name] = player_section(p, slug, self.options, _)
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

#: the units of the score, one and several
_UNITS = {"tens": (N_("{n} ten"), N_("{n} tens")), "points": (N_("{n} point"), N_("{n} points")),
          "tricks": (N_("{n} trick"), N_("{n} tricks"))}


def card_text(card: str) -> str:
    return card[:-1] + _SUIT.get(card[-1], card[-1])


def _link(links: dict[tuple[str, int, int], str], d: Decision) -> str:
    base = links.get((d.source, d.game, d.deal), "")
    return f"{base}&trick={d.trick}&card={d.place}" if base else ""


def _value(_: Tr, d: Decision, v: float) -> str:
    a, b = d.sides
    if d.exact and float(v).is_integer():
        return f"{a} {v:.0f}\u2013{d.total - v:.0f} {b}"
    return _("{split} expected").format(split=f"{a} {v:.1f}\u2013{d.total - v:.1f} {b}")


def _amount(_: Tr, n: float, unit: str) -> str:
    one, many = _UNITS.get(unit, _UNITS["tens"])
    return _(one if abs(n - 1) < 1e-9 else many).format(n=f"{n:.2f}")


def _loss(_: Tr, d: Decision) -> str:
    amount = _amount(_, d.loss, d.score)
    if not d.single:
        return _("{loss} (double dummy)").format(loss=amount)
    if d.exact:
        if d.worlds == 1:
            return _("{loss} on the only deal the player could not tell apart").format(loss=amount)
        return _("{loss} over all {n} deals the player could not tell apart").format(loss=amount, n=d.worlds)
    if d.worlds == 1:
        return _("{loss} \u00b1{error} on 1 sampled deal").format(loss=amount, error=f"{d.stderr:.2f}")
    return _("{loss} \u00b1{error} over {n} sampled deals").format(loss=amount, error=f"{d.stderr:.2f}", n=d.worlds)


def _figures(_: Tr, p: PlayerReview) -> str:
    items = [("decisions", p.decisions, _("decisions judged")), ("dubious", p.dubious, _("marked ?")),
             ("blunders", p.blunders, _("marked ??")), ("deals", p.deals, _("deals")),
             ("per_deal", f"{p.per_deal:.2f}", _("tens lost a deal (expected)"))]
    return '<ul class="figures">' + "".join(
        f'<li><span data-stat="{k}" data-value="{escape(str(v))}">{escape(str(v))}</span> {escape(label)}</li>'
        for k, v, label in items) + "</ul>"


def player_section(p: PlayerReview, slug: str, options: Options, _: Tr = str) -> str:
    """The section a player's page gains: the review's figures and links to both pages, in the
    site's language."""
    how = _("Judged {how}.").format(how=judged_how(options.dd, options.worlds, _))
    head, costliest, drill = _("Mistake review"), _("The costliest decisions"), _("Drill: what would you play here?")
    return (f'<section aria-labelledby="h-review"><h2 id="h-review">{escape(head)}</h2>' + _figures(_, p)
            + f'<p>{escape(how)} <a href="{escape(slug)}-review.html">{escape(costliest)}</a> \u00b7 '
            f'<a href="{escape(slug)}-drill.html">{escape(drill)}</a></p></section>')


def _where(_: Tr, d: Decision) -> str:
    return _("{source} game {game}, deal {deal}, trick {trick}, card {card}").format(
        source=d.source, game=d.game, deal=d.deal, trick=d.trick, card=d.place + 1)


def review_body(p: PlayerReview, worst: list[Decision], links: dict[tuple[str, int, int], str], slug: str,
                _: Tr = str) -> str:
    out = ['<header><h1>', escape(_("{name}: mistake review")).format(name=name_html(p.name)),
           '</h1><a class="back" href="', escape(slug), '.html">\u2190 ', name_html(p.name), '</a></header><main>',
           '<section aria-labelledby="h-figures"><h2 id="h-figures">', escape(_("Figures")), '</h2>',
           _figures(_, p), '</section>',
           '<section aria-labelledby="h-costliest"><h2 id="h-costliest">', escape(_("The costliest decisions")),
           '</h2>']
    if not worst:
        none = _("No decision marked ? or ??.")
        out.append(f"<p>{escape(none)}</p>")
    else:
        drill = _("Drill these positions: what would you play here?")
        out.append(f'<p><a href="{escape(slug)}-drill.html">{escape(drill)}</a></p>')
        heads = ("#", _("position"), _("played"), _("would have kept the value"), _("expected loss"))
        out.append("<div class='scroll'><table id='costliest'><thead><tr>" + "".join(
            f"<th scope='col'>{escape(h)}</th>" for h in heads) + "</tr></thead><tbody>")
        or_ = " " + _("or") + " "      # (Babel does not read the words marked inside an f-string)
        for i, d in enumerate(worst, 1):
            where = _where(_, d)
            link = _link(links, d)
            cell = f'<a href="{escape(link)}">{escape(where)}</a>' if link else escape(where)
            better = [card_text(c) for c in d.best if c != d.card]
            kept = f"{or_.join(better)}: {_value(_, d, d.best_value)}"
            out.append(f"<tr><td>{i}</td><td>{cell}</td><td>{escape(d.seat)} {escape(card_text(d.card))}"
                       f"{escape(d.mark)} ({escape(_value(_, d, d.value))})</td><td>{escape(kept)}</td>"
                       f"<td>{escape(_loss(_, d))}</td></tr>")
        out.append("</tbody></table></div>")
    out.append("</section></main>")
    return "".join(out)


def drill_positions(worst: list[Decision], links: dict[tuple[str, int, int], str],
                    _: Tr = str) -> list[dict[str, Any]]:
    """The drill's data: each costly position as its player saw it, and every legal card's judgement."""
    out = []
    for d in worst:
        if d.seen is None or not d.cards:
            continue
        out.append({"where": _("{source} game {game}, deal {deal}, trick {trick}").format(
                        source=d.source, game=d.game, deal=d.deal, trick=d.trick),
                    "seat": d.seat, "player": d.player, "played": d.card, "mark": d.mark, "unit": d.score,
                    "sides": list(d.sides), "worlds": d.worlds, "exact": d.exact, "single": d.single,
                    "link": _link(links, d),
                    "trick": d.trick, "seen": d.seen.to_json(),
                    "cards": [{"card": c.card, "loss": c.loss, "stderr": c.stderr, "mark": c.mark} for c in d.cards]})
    return out


def drill_body(p: PlayerReview, worst: list[Decision], links: dict[tuple[str, int, int], str], slug: str,
               _: Tr = str, words: Optional[dict[str, str]] = None) -> str:
    data = {"player": p.name, "words": words or {}, "positions": drill_positions(worst, links, _)}
    return "".join([
        '<header><h1>', escape(_("{name}: what would you play here?")).format(name=name_html(p.name)),
        '</h1><a class="back" href="', escape(slug), '-review.html">\u2190 ', escape(_("the mistake review")),
        '</a></header><main id="drill">',
        '<p class="drill-intro">', escape(_("Each position is one where {name} lost value. You see what they saw: "
                                            "their hand, the cards played, trump as far as they knew it. Choose "
                                            "the card you would play.")).format(name=name_html(p.name)), '</p>',
        '<noscript><p>', escape(_("The drill needs JavaScript.")), ' <a href="', escape(slug), '-review.html">',
        escape(_("The review lists the same positions.")), '</a></p></noscript>',
        '<div id="drill-box" hidden>',
        '<nav class="drill-nav" aria-label="', escape(_("positions")), '"><button type="button" id="d-prev">\u2190 ',
        escape(_("previous")), '</button> <span id="d-count" aria-live="polite"></span> '
        '<button type="button" id="d-next">', escape(_("next")), ' \u2192</button></nav>',
        '<section id="d-position" aria-labelledby="d-where"><h2 id="d-where"></h2>',
        '<p id="d-you"></p><ul id="d-facts" class="figures"></ul>',
        '<div class="d-trick"><h3>', escape(_("This trick")), '</h3><p id="d-trick"></p></div>',
        '<details id="d-earlier-box"><summary>', escape(_("The tricks before")),
        '</summary><ol id="d-earlier"></ol></details>',
        '<h3 id="d-ask">', escape(_("What would you play here?")), '</h3>',
        '<div id="d-hand" class="d-hand" role="group" aria-labelledby="d-ask"></div>',
        '<p id="d-answer" class="d-answer" role="status" aria-live="polite"></p>',
        '<div id="d-after" hidden><div class="scroll"><table id="d-losses"><caption></caption><thead><tr>'
        '<th scope="col">', escape(_("card")), '</th><th scope="col">', escape(_("expected loss")),
        '</th><th scope="col">', escape(_("mark")), '</th><th scope="col"></th></tr></thead><tbody></tbody>'
        '</table></div>',
        '<p><a id="d-replay" href="#">', escape(_("See this position in the replay")), '</a></p></div>',
        '</section></div>',
        '<p id="d-none" hidden>', escape(_("No costly position to drill.")), '</p>',
        '<script type="application/json" id="drill-data">', script_json(data), '</script>',
        '</main>'])
