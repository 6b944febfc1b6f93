"""``dehlanote review``: each player's mistakes across the games, judged card by card."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import typer

from ..analysis.judge import claim_judge
from ..analysis.single import over_deals
from ..analysis.review import Decision, DealReview, Options, PlayerReview, cache_key, cached, judged_how, keep, \
    player_names, players, review_deal
from ..errors import missing_folder
from ..files import kind_of
from ..replay import DealFact, replay_game
from ..rules.profile import Rules
from .dealpool import Step, run_deals
from .sdoptions import DD_OPTION, SEED_OPTION, WORLDS_OPTION, note_unused, seconds_limit
from .common import (
    RULES_OPTION,
    STDIN,
    Exit,
    OutputFormat,
    TextOut,
    display_name,
    emit,
    err_console,
    expand,
    fail,
    games_or_say,
    load_registry,
    located,
    once_each,
    plural,
    wanted_player,
)

#: how many names an unknown --player lists (as stats --player)
KNOWN_SHOWN = 30

#: why a deal was not judged, as the summary says it
_HANDS = "hands unknown"


@dataclass
class Task:
    source: str
    game: int
    fact: DealFact
    rules: Rules
    names: dict[str, str]
    link: str


def _work(args: tuple[DealFact, Rules, Options]) -> DealReview:
    fact, rules, options = args
    return review_deal(fact, rules, options)


def _one(args: tuple[DealFact, Rules, Options], step: Step) -> DealReview:
    fact, rules, options = args
    return review_deal(fact, rules, options, progress=step)


def _why(reason: str) -> str:
    """A skipped deal's reason, short enough to count in the summary line."""
    if reason.startswith("the hands are not known"):
        return _HANDS
    if reason.startswith("no trick ") and " to start from" in reason:
        # "no trick K to start from: the record has N" (N differs from deal to deal)
        return f"fewer than {reason.split()[2]} tricks"
    return reason


def _value(d: Decision, v: float, short: bool = False) -> str:
    """``AC 2–2 BD``, or ``AC 2.4–1.6 BD expected`` over sampled worlds (``short``: the side
    first only, the figures once said in full before)."""
    a, b = d.sides
    if d.exact and float(v).is_integer():
        return f"{a} {v:.0f}\u2013{d.total - v:.0f}" + ("" if short else f" {b}")
    return f"{a} {v:.1f}\u2013{d.total - v:.1f}" + ("" if short else f" {b} expected")


def _how(d: Decision) -> str:
    if not d.single:
        return "double dummy"
    if d.exact and d.worlds == 1:
        return "the only deal the player could not tell apart: every hand known to them"
    over = over_deals(d.worlds, d.exact, d.stderr)
    return f"{over} the player could not tell apart" if d.exact else over


def decision_json(d: Decision, link: str) -> dict[str, Any]:
    """One costly decision as ``review --format json`` gives it."""
    return {"source": d.source, "game": d.game, "deal": d.deal, "trick": d.trick, "card_in_trick": d.place + 1,
            "seat": d.seat, "player": d.player, "played": d.card, "mark": d.mark,
            "expected_loss": round(d.loss, 4), "stderr": round(d.stderr, 4), "unit": d.score,
            "tens": round(d.tens, 4), "worlds": d.worlds, "exact": d.exact, "best": list(d.best),
            "value": round(d.value, 4), "best_value": round(d.best_value, 4),
            "cards": [{"card": c.card, "expected_loss": c.loss, "stderr": c.stderr, "mark": c.mark} for c in d.cards],
            "link": link}


def player_json(p: PlayerReview, top: int, links: dict[tuple[str, int, int], str]) -> dict[str, Any]:
    return {"name": p.name, "decisions": p.decisions, "marks": {"?": p.dubious, "??": p.blunders}, "deals": p.deals,
            "tens_lost": round(p.lost, 4), "tens_lost_per_deal": round(p.per_deal, 4),
            "costliest": [decision_json(d, _link(links, d)) for d in p.costliest(top)]}


def _link(links: dict[tuple[str, int, int], str], d: Decision) -> str:
    page = links.get((d.source, d.game, d.deal), "")
    return f"{page}&trick={d.trick}&card={d.place}" if page else ""


def review_command(
    ctx: typer.Context,
    files: list[str] = typer.Argument(..., metavar="FILE...", help="DPN files (globs allowed); - reads standard "
                                                                    "input."),
    player: Optional[str] = typer.Option(None, "--player", metavar="NAME",
                                         help="Only this player (the name the seat tags give, as in "
                                              "[A \"Asha\"], in any case)."),
    top: int = typer.Option(5, "--top", min=0, metavar="N", help="The N costliest decisions of each player."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f", metavar="text|json",
                                        help="text: a section per player; json: one object."),
    site: Optional[Path] = typer.Option(None, "--site", metavar="DIR",
                                        help="The links go to the replays of the site in DIR (built with "
                                             "dehlanote html --site -o DIR from the same files, in the same order; "
                                             "refused when DIR lacks a page linked to)."),
    link_base: Optional[str] = typer.Option(None, "--link-base", metavar="URL",
                                            help="The links go to the site published at URL (its folder, "
                                                 "where its index.html is)."),
    per_page: int = typer.Option(100, "--games-per-page", min=1, metavar="N",
                                 help="As the site was built with (html --games-per-page)."),
    from_trick: int = typer.Option(1, "--from-trick", min=1, metavar="K",
                                   help="Judge each deal from trick K on (later tricks are much faster)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, metavar="N",
                             help="Judge N deals at a time (never more than the cores)."),
    time_limit: float = typer.Option(60.0, "--time-limit", parser=seconds_limit, metavar="SECONDS",
                                     help="CPU seconds a deal at most (0: no limit); the later tricks are judged "
                                          "first, so a deal stopped still counts them."),
    node_limit: Optional[int] = typer.Option(None, "--node-limit", min=1, metavar="N",
                                             help="Card plays searched a deal at most."),
    dd: bool = DD_OPTION,
    worlds: int = WORLDS_OPTION,
    seed: int = SEED_OPTION,
    no_cache: bool = typer.Option(False, "--no-cache", help="Judge every deal again (not from the judgements an "
                                                            "earlier run kept in the per-user cache folder)."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Review each player's play: the decisions judged, ? and ?? counts, tens lost a deal, and the costliest.

    Every deal whose hands are known (written with hands, or every card played) is judged
    card by card as solve judges it (single dummy: over the deals the player could not tell
    apart; --dd double dummy). A decision is a card played where its player had more than
    one legal card. Per player (by the name the seat tags give, the same name across games
    being the same player): decisions judged, how many were marked ? and ??, the expected
    tens lost per deal, and the --top costliest, each with the cards that would have kept
    the value and a link to that position in the html replay (a site built by dehlanote
    html --site from the same files). Judgements are kept in the per-user cache folder:
    reviewing the same files again solves nothing.

    Exit status: 0, 1 when a record has errors or a deal was not judged whole in time, 2 for an unreadable file,
    an unknown --player or a worker process that was lost.

    Example: dehlanote review samples/match.dpn --dd --from-trick 9
    """
    if site is not None and link_base is not None:
        raise fail("give --site or --link-base, not both")
    wanted = wanted_player(player)     # in any case, as stats --player

    def is_wanted(name: str) -> bool:
        return name.casefold() == wanted
    from urllib.parse import quote, urlsplit

    from ..output.html.site import GamePages, PageNames

    note_unused(ctx, dd)
    reg = load_registry(rules)
    specs = once_each(expand(files))
    options = Options(dd=dd, worlds=worlds, seed=seed, from_trick=from_trick, time_limit=time_limit or None,
                      node_limit=node_limit)
    if site is not None:
        _site_folder(site)
        prefix = quote(str(site).rstrip("/") + "/games/")
    elif link_base is not None:
        if not link_base.strip():
            # (the links began "/games/": the root of whatever server the report is read on)
            raise fail("usage: --link-base is empty: give the address of the site's folder (is a shell "
                       "variable unset?)")
        if "?" in link_base or "#" in link_base:
            # (the page and the position are added after it: "https://x.org/?a#b/games/..." led nowhere)
            raise fail(f"usage: --link-base {link_base}: give the address of the site's folder, without ? or #")
        try:
            scheme = urlsplit(link_base).scheme.lower()
        except ValueError:      # (a [ of a server's address never closed)
            raise fail(f"usage: --link-base {link_base} is not a well-formed address: give it as the browser "
                       "shows it, e.g. https://club.example/dpn/ (the site's folder)") from None
        if scheme and scheme not in ("http", "https", "file") and not (len(scheme) == 1 and scheme.isalpha()):
            # (as share --base: a javascript: or data: address went into every link)
            raise fail(f"usage: --link-base {link_base}: give an http, https or file address, or a path "
                       f"(not {scheme}:)")
        base = link_base[:-len("index.html")] if link_base.endswith("/index.html") else link_base
        base = quote(base, safe="/:@%~!$&'()*+,;=")      # (a space in it: %20, as a browser needs)
        prefix = base + ("" if base.endswith("/") else "/") + "games/"
    else:
        prefix = "games/"
    errors: list[str] = []
    unreadable: list[str] = []          # files that could not be read (said at once; the others are judged)
    tasks: list[Task] = []
    known: set[str] = set()
    skipped: Counter[str] = Counter()
    names_taken = PageNames()
    linked: dict[str, str] = {}         # a site's page linked to -> the file it shows
    for spec in specs:
        path = display_name(spec)
        pages = GamePages(names_taken, spec, per_page)
        for index, game in enumerate(games_or_say(spec, unreadable), 1):
            facts = replay_game(game, reg, judge=claim_judge)
            errors.extend(str(located(e, game, path)) for e in facts.errors)
            names = player_names(game, facts.rules)
            known.update(names.values())
            page = pages.page(index)
            if facts.rules is None or (wanted is not None and not any(map(is_wanted, names.values()))):
                continue
            for fact in facts.deals:
                if not fact.tricks:
                    skipped["no trick was played"] += 1
                    continue
                link = "" if spec == STDIN else f"{prefix}{quote(page)}#game={index}&deal={fact.number}"
                if link:
                    linked.setdefault(page, path)
                tasks.append(Task(path, index, fact, facts.rules, names, link))   # (no site of standard input)
    err = err_console()
    for line in errors:
        err.print(line, markup=False)
    if wanted is not None and not any(map(is_wanted, known)):
        everyone = sorted(known, key=str.casefold)
        # (the first few of a large archive's names, as stats --player gives them: not a line of thousands)
        more = f", and {len(everyone) - KNOWN_SHOWN} more" if len(everyone) > KNOWN_SHOWN else ""
        listed = ", ".join(everyone[:KNOWN_SHOWN]) + more if known else "none: no seat is named ([A \"name\"] tags)"
        raise fail(f"unknown-player: no game has a player called {player!r}; the players are: {listed}")

    if site is not None:
        _site_pages(site, linked)
    reviews = _judge(tasks, options, jobs, no_cache)
    if reviews is None:
        err.print("dehlanote: a worker process was lost (killed, out of memory?): run again with fewer --jobs",
                  markup=False)
        raise typer.Exit(Exit.USAGE)
    decisions: list[Decision] = []
    partial = from_cache = judged = 0
    links: dict[tuple[str, int, int], str] = {}
    for task, r in zip(tasks, reviews):
        if r.skipped:
            skipped[_why(r.skipped)] += 1
            continue
        judged += 1
        partial += bool(r.partial)
        from_cache += r.cached
        links[(task.source, task.game, task.fact.number)] = task.link
        for d in r.decisions:
            decisions.append(d.at(task.source, task.game, task.fact.number, task.names.get(d.seat, "")))
    people = players(decisions)
    if wanted is not None:
        # each spelling of the name the tags give (the same player when the same), or the first with no decision
        spelt = sorted(filter(is_wanted, known))
        people = {n: p for n, p in people.items() if is_wanted(n)} or {spelt[0]: PlayerReview(spelt[0])}
    unnamed = sum(1 for d in decisions if not d.player)
    order = sorted(people.values(), key=lambda p: (-p.per_deal, p.name))
    summary = {"judged": judged, "from_cache": from_cache, "partial": partial, "skipped": sum(skipped.values()),
               "skipped_why": dict(sorted(skipped.items())), "unnamed_decisions": unnamed}
    how = judged_how(dd, worlds) + ("" if dd else f", seed {seed}")
    if format.value == "json":
        emit(json.dumps({"judgement": "double-dummy" if dd else "single-dummy", "worlds": None if dd else worlds,
                         "seed": None if dd else seed, "from_trick": from_trick, "deals": summary,
                         "players": [player_json(p, top, links) for p in order]},
                        indent=2, ensure_ascii=False) + "\n")
    else:
        out = TextOut()
        _text(out, order, top, links, summary, how, from_trick,
              limit="the time or node limit" if node_limit is not None else "the time limit")
    if from_cache:
        err.print(f"review: {plural(from_cache, 'deal')} of {judged} from the cache (--no-cache judges them again)",
                  markup=False)
    if unreadable:
        raise typer.Exit(Exit.USAGE)
    if errors or partial:
        raise typer.Exit(Exit.INVALID)
    raise typer.Exit(Exit.OK)


def _text(out: TextOut, order: list[PlayerReview], top: int, links: dict[tuple[str, int, int], str],
          summary: dict[str, Any], how: str, from_trick: int, limit: str = "the time limit") -> None:
    start = f", from trick {from_trick}" if from_trick > 1 else ""
    line = f"{plural(summary['judged'], 'deal')} judged {how}{start}"
    if summary["partial"]:
        line += f" ({summary['partial']} not whole: stopped by {limit}, the later tricks judged)"
    if summary["skipped"]:
        why = ", ".join(f"{k}: {n}" for k, n in summary["skipped_why"].items())
        line += f"; {summary['skipped']} skipped ({why})"
    out.print(line, markup=False)
    if summary["unnamed_decisions"]:
        out.print(f"{plural(summary['unnamed_decisions'], 'decision')} of seats without a name are not listed",
                  markup=False)
    for p in order:
        out.print("", markup=False)
        out.print(f"{p.name}: {plural(p.decisions, 'decision')} judged in {plural(p.deals, 'deal')}, "
                  f"{p.dubious} marked ?, {p.blunders} ??, {p.per_deal:.2f} tens lost a deal", markup=False)
        worst = p.costliest(top)
        for i, d in enumerate(worst, 1):
            unit = d.score[:-1] if d.loss == 1 else d.score
            better = [c for c in d.best if c != d.card]
            cards = " or ".join(better[:3]) + (" ..." if len(better) > 3 else "")
            out.print(f"  {i}. {d.source} game {d.game}, deal {d.deal}, trick {d.trick}, card {d.place + 1}",
                      markup=False)
            out.print(f"     {d.seat} played {d.card}{d.mark}: expected to lose {d.loss:.2f} {unit} ({_how(d)})",
                      markup=False)
            out.print(f"     {cards} would have kept {_value(d, d.best_value)} (after {d.card}: "
                      f"{_value(d, d.value, short=True)})", markup=False)
            link = _link(links, d)
            if link:
                out.print(f"     {link}", markup=False)
        if not worst and top:
            out.print("  no decision marked ? or ??", markup=False)


def _site_folder(site: Path) -> None:
    """``--site DIR``: refused (usage, exit 2) unless DIR is a folder: the links go to its pages
    (a folder that did not exist, or a file, was taken without a word and every link led nowhere)."""
    shown = display_name(str(site))
    build = f"build it first with dehlanote html --site -o {shown} and the same files"
    if not site.exists():
        raise fail(f"usage: --site {shown}: the folder {missing_folder(str(site))}: {build}")
    if not site.is_dir():
        what = kind_of(site.stat()).replace("regular ", "")
        raise fail(f"usage: --site {shown}: it is {what}: give the folder of the site (dehlanote "
                   "html --site -o DIR, built from the same files)")


def _site_pages(site: Path, linked: dict[str, str]) -> None:
    """``--site DIR``: every replay page the links go to is in DIR (checked before any deal is
    judged), or the site was built from other files: usage, exit 2."""
    for page, source in linked.items():
        if not (site / "games" / page).is_file():
            shown = display_name(str(site))
            raise fail(f"usage: --site {shown}: the site has no page games/{page} for {source}: build it "
                       f"with dehlanote html --site -o {shown} and the same files, in the same order")

def _judge(tasks: list[Task], options: Options, jobs: int, no_cache: bool) -> Optional[list[DealReview]]:
    """Every task's review, from the cache when kept; None when a worker process was lost."""
    from ..analysis.deal import known_hands

    results: list[Optional[DealReview]] = [None] * len(tasks)
    keys: list[str] = [""] * len(tasks)
    todo: list[int] = []
    for i, t in enumerate(tasks):
        if known_hands(t.fact, t.rules) is None:
            results[i] = DealReview(skipped="the hands are not known")
            continue
        keys[i] = cache_key(t.fact, t.rules, options)
        got = None if no_cache else cached(keys[i])
        if got is not None:
            results[i] = got
        else:
            todo.append(i)

    def done(n: int, r: DealReview) -> None:
        results[todo[n]] = r
        keep(keys[todo[n]], r)

    args = [(tasks[i].fact, tasks[i].rules, options) for i in todo]

    def label(n: int) -> str:
        t = tasks[todo[n]]
        return f"{t.source} game {t.game} deal {t.fact.number}"

    if run_deals("judging", args, _work, _one, label, jobs, done=done).lost:
        return None
    return [r if r is not None else DealReview(skipped="not judged") for r in results]
