"""``dehlanote solve``: single- and double-dummy analysis of deals whose hands are known."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

from ..analysis.judge import claim_judge
from ..analysis.deal import TIMEOUT, DealAnalysis, advice, glyph, split
from ..analysis.single import analyse, play_advice, play_mark
from ..replay import DealFact, replay_game
from ..rules.profile import Rules
from .dealpool import run_deals
from .sdoptions import DD_OPTION, SEED_OPTION, WORLDS_OPTION, note_unused, seconds_limit
from .common import (
    RULES_OPTION,
    Exit,
    OutputFormat,
    TextOut,
    deal_span,
    display_name,
    emit,
    err_console,
    expand,
    fail,
    games_or_say,
    load_registry,
    located,
)

Task = tuple[str, int, DealFact, Rules]


def _tasks(specs: list[str], reg: Any, only: int | None, errors: list[str], have: list[str],
           unreadable: list[str]) -> Iterator[Task]:
    """Each deal to solve; ``have`` gains, per game without deal ``only``, the deals it has, and
    ``unreadable`` each file that could not be read (said at once: the other files are solved)."""
    for spec in specs:
        path = display_name(spec)
        for index, game in enumerate(games_or_say(spec, unreadable), 1):
            facts = replay_game(game, reg, judge=claim_judge)
            errors.extend(str(located(e, game, path)) for e in facts.errors)
            if facts.rules is None:
                continue
            found = False
            for fact in facts.deals:
                if only is None or fact.number == only:
                    found = True
                    yield path, index, fact, facts.rules
            if not found and facts.deals:
                have.append(f"game {index} of {path}: {deal_span(facts.deals)}")


Args = tuple[Task, int, int | None, float | None, int | None, int]


def _analyse(args: Args, progress: Any = None) -> DealAnalysis:
    """The double-dummy analysis of one deal and, unless ``worlds`` is None, its single-dummy judgement."""
    (path, index, fact, rules), from_trick, nodes, seconds, worlds, seed = args
    return analyse(fact, rules, dd=worlds is None, worlds=worlds or 1, seed=seed, from_trick=from_trick,
                   node_limit=nodes, time_limit=seconds, progress=progress)


def _work(args: Args) -> DealAnalysis:
    return _analyse(args)


def _label(args: Args) -> str:
    path, index, fact, _ = args[0]
    return f"{path} game {index} deal {fact.number}"


def _text(out: TextOut, path: str, index: int, fact: DealFact, rules: Rules, a: DealAnalysis) -> None:
    g = a.game
    head = f"{path}, game {index}, deal {a.number} ({rules.label()})"
    sides = g.sides
    if not a.tricks:
        out.print(f"{head}: not analysed: {a.reason}", markup=False)
        return
    if a.value is None:
        out.print(f"{head}: {a.reason}; solved from trick {a.tricks[0].number}", markup=False)
    else:
        first = a.tricks[0].number      # (--from-trick, or after the five-card phase: not the deal's start)
        out.print(f"{head}: {sides[0]} {split(g, a.value)} {sides[1]} under best play"
                  + ("" if first == 1 else f" from trick {first}")
                  + (f" (stopped: {a.reason})" if not a.solved else f" (not analysed: {a.reason})" if a.reason
                     else ""), markup=False)
    dealer = rules.seat_letters.index(fact.dealer) if fact.dealer else 0
    unit = {"tens": "ten", "points": "point", "tricks": "trick"}[g.score]
    for t in a.tricks:
        if a.single_dummy:
            cards = "  ".join(f"{p.seat} {p.card}{play_mark(a, p, rules, dealer)}" for p in t.plays)
            out.print(f"  {t.number:>2}  {sides[0]} {split(g, t.value):<6} {cards}", markup=False)
            for p in t.plays:
                if play_mark(a, p, rules, dealer):
                    out.print(f"        {p.card}: {play_advice(a, p)}", markup=False)
            continue
        cards = "  ".join(f"{p.seat} {p.card}{glyph(p, g, rules, dealer)}" for p in t.plays)
        out.print(f"  {t.number:>2}  {sides[0]} {split(g, t.value):<6} {cards}", markup=False)
        for p in t.plays:
            if p.loss:
                what = f"{p.loss} {unit}{'s' if p.loss != 1 else ''}"
                out.print(f"        {p.card} cost {what}: {advice(p, g)}", markup=False)


def solve(
    ctx: typer.Context,
    files: list[str] = typer.Argument(..., metavar="FILE...",
                                      help="DPN files (globs allowed); - reads standard input."),
    deal: int | None = typer.Option(None, "--deal", min=1, metavar="N", help="Only deal N of each game."),
    from_trick: int = typer.Option(1, "--from-trick", min=1, metavar="K",
                                   help="Start the analysis at trick K (later tricks are much faster)."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f", metavar="text|json",
                                        help="text: a line per trick; json: one object (its schema ships "
                                             "with the package: dehlanote/analysis/solve.schema.json)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, metavar="N",
                             help="Solve N deals at a time (never more than the cores)."),
    time_limit: float = typer.Option(60.0, "--time-limit", parser=seconds_limit, metavar="SECONDS",
                                     help="Give up on a deal after this many CPU seconds: it is reported as not "
                                          "solved in time (0: no limit)."),
    node_limit: int | None = typer.Option(None, "--node-limit", min=1, metavar="N",
                                          help="Give up on a deal after N card plays searched."),
    dd: bool = DD_OPTION,
    worlds: int = WORLDS_OPTION,
    seed: int = SEED_OPTION,
    rules: Path | None = RULES_OPTION,
) -> None:
    """Solve deals: the value under best play before each trick, and what each card cost.

    For each deal whose hands are known (written with hands, or every card played): the
    value from the start and before each trick (each side's final tens; points under
    double-sar, tricks under court-piece), and for each card played, marked ? when it gave
    something away, the best cards instead. Each card is judged single dummy: over the deals
    its player could not tell apart (their own hand, the cards played, the voids shown, trump
    as far as they knew it), sampled with --worlds and --seed, each solved double dummy; ?
    when its expected loss is clearly above its error, ?? when by a whole ten. With --dd the
    double-dummy view only (?? when the card changed who wins the deal; trump set by play
    taken as known). Full deals can take a while: a progress bar shows
    on a terminal, Ctrl-C stops cleanly, and --time-limit caps each deal.

    Exit status: 0, 1 when a record has errors or a deal was not solved in time, 2 for an unreadable file,
    a --deal number that no game has, or a worker process that was lost (killed).

    Example: dehlanote solve samples/worked-example.dpn --from-trick 6
    """
    note_unused(ctx, dd)
    reg = load_registry(rules)
    specs = expand(files)
    errors: list[str] = []
    have: list[str] = []
    unreadable: list[str] = []
    tasks = list(_tasks(specs, reg, deal, errors, have, unreadable))
    if deal is not None and not tasks and have:
        # a deal asked for by number that no game has: said as such (as replay --deal does), not "no deal"
        for line in errors:
            err_console().print(line, markup=False)
        shown = "; ".join(have[:3]) + ("; ..." if len(have) > 3 else "")
        raise fail(f"no game has a deal {deal} ({shown})")
    seconds = time_limit or None
    args: list[Args] = [(t, from_trick, node_limit, seconds, None if dd else worlds, seed) for t in tasks]
    run = run_deals("solving", args, _work, _analyse, lambda n: _label(args[n]), jobs)
    results, lost = run.results, run.lost   # (after a lost worker, the deals solved before it are shown)

    unsolved = any(r.reason == TIMEOUT or r.reason.startswith("single dummy") for r in results)
    if format is OutputFormat.json:
        deals = []
        for (path, index, _fact, _rules), r in zip(tasks, results):
            deals.append({"path": path, **r.to_json(index, single=not dd)})
        emit(json.dumps({"deals": deals}, indent=2, ensure_ascii=False) + "\n")
    else:
        out = TextOut()
        for (path, index, fact, rules_), r in zip(tasks, results):
            _text(out, path, index, fact, rules_, r)
        if not tasks:
            out.print("no deal to solve", markup=False)
    err = err_console()
    for line in errors:
        err.print(line, markup=False)
    if lost:
        err.print(f"dehlanote: a worker process was lost (killed, out of memory?) after {len(results)} of "
                  f"{len(args)} deals: the deals solved are shown; run again with fewer --jobs", markup=False)
        raise typer.Exit(Exit.USAGE)
    if unreadable:
        raise typer.Exit(Exit.USAGE)
    if errors or unsolved:
        raise typer.Exit(Exit.INVALID)
    raise typer.Exit(Exit.OK)
