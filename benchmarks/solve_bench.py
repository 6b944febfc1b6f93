"""The double-dummy solver's speed: endings and full deals of random deals, per profile.

Each position is a random deal (random trump, known; under ``closed``, closed trump with a random
setter, in force from its first void) played at random to the number of
tricks asked; the solver gives its exact value from there (one fresh solver a position,
so nothing carries over). Times are CPU seconds of the process that solved the position;
positions are spread over ``--jobs`` processes. Prints min / median / max, the share
solved within the limit, node counts (card plays searched) and the peak memory of a worker.

    python benchmarks/solve_bench.py --endings 100 --deals 100 --jobs 2 --limit 60

Six players' "full deals" start at trick ``--six-from`` (default 19 of 26: the whole deal is
far past a minute). Full deals are interleaved across profiles (a deal of each in turn), so a run stopped early by
``--until`` (a wall-clock time, HH:MM UTC: no new position is started after it) still
reports every profile on the same number of deals; ``--from-log FILE`` prints the tables of a
log written by ``--log``.

``--anchor N`` adds an outside anchor measured in the same run: N random bridge deals (random
trump suit and opening leader) solved by DDS, the bridge double-dummy solver, through the
``endplay`` package (``pip install endplay``, or ``pip install -e '.[bench]'``), asked for the
value and one best card (``SolveMode.OptimalOne``: what ``Solver.value`` gives here), one call a
deal on one core, with DDS's own node count. The last line gives each profile's median time over
DDS's.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import resource
import statistics
import time
from typing import Any

from dehlanote.analysis import PlayRules, OutOfTime, Position, Solver
from dehlanote.analysis.search import _csearch
from dehlanote.deck import DECK

PROFILES = {
    "standard": PlayRules(),
    # pagat plays the same cards as standard (the centre, tens, trump known to the solver): its own
    # random deals (another range of seeds), so that its figures are a second sample of the same game
    "pagat": PlayRules(),
    "hukum": PlayRules(immediate=True),
    "double-sar": PlayRules(score="points"),
    "court-piece": PlayRules(score="tricks"),
    "six-player": PlayRules(seats=6, decks=3),
    # closed trump: the suit and its setter chosen at random, in force from the setter's first void
    "closed": PlayRules(),
}


def position(seed: int, game: PlayRules, left: int, name: str = "standard") -> Position:
    rng = random.Random(seed + SEED_OFFSET.get(name, 0))
    deck = list(DECK) * game.decks
    rng.shuffle(deck)
    size = len(deck) // game.seats
    hands = tuple(tuple(deck[i * size:(i + 1) * size]) for i in range(game.seats))
    if name == "closed":
        leader, suit = rng.randrange(game.seats), rng.choice("SHDC")
        pos = Position(game, hands, leader, closed=(suit, rng.randrange(game.seats)))
    else:
        pos = Position(game, hands, rng.randrange(game.seats), trump=rng.choice("SHDC"))
    while pos.left > left:
        pos = pos.play(rng.choice(pos.legal()))
    return pos


SEED_OFFSET = {"pagat": 500_000, "closed": 700_000}


Job = tuple[str, int, int, float, 'float | None', 'bool | None']

#: the outside anchor's rows (--anchor); its peak memory is not told apart from the worker's
ANCHOR = "dds-bridge"


def bridge_deal(seed: int) -> "Any":
    """A random bridge deal for DDS (endplay's Deal): random hands, trump suit and opening leader."""
    from endplay.types import Deal, Denom, Player
    rng = random.Random(seed + 900_000)
    cards = [card[-1] + card[:-1].replace("10", "T") for card in DECK]     # "SA", "HT", ...
    rng.shuffle(cards)
    hands = [".".join("".join(c[1] for c in cards[13 * i:13 * i + 13] if c[0] == suit) for suit in "SHDC")
             for i in range(4)]
    deal = Deal.from_pbn("N:" + " ".join(hands))
    deal.trump = rng.choice([Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs])
    deal.first = rng.choice([Player.north, Player.east, Player.south, Player.west])
    return deal


def solve_bridge(seed: int) -> tuple[float, int]:
    """CPU seconds and DDS's node count for the value and one best card of bridge_deal(seed)."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    deal = bridge_deal(seed)
    start = time.process_time()
    board = solve_board(deal, SolveMode.OptimalOne)
    # DDS's node count is in the futureTricks it filled, which endplay keeps as _data (0.5.12)
    return time.process_time() - start, int(getattr(getattr(board, "_data", None), "nodes", 0))


def solve_one(job: Job) -> tuple[str, int, bool, float, int, int, int] | None:
    name, left, seed, limit, until, compiled = job
    if until is not None and time.time() > until:
        return None
    if name == ANCHOR:
        spent, nodes = solve_bridge(seed)
        return name, left, True, spent, nodes, 0, seed
    game = PROFILES[name]
    pos = position(seed, game, left, name)
    solver = Solver(game, compiled=compiled)
    solver.limit(None, limit)
    start = time.process_time()
    try:
        solver.value(pos)
        ok = True
    except OutOfTime:
        ok = False
    spent = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return name, left, ok, spent, solver.nodes, peak, seed


def report(name: str, left: int, rows: list[tuple[bool, float, int, int]], limit: float) -> str:
    times = sorted(t for _, t, _, _ in rows)
    solved = [r for r in rows if r[0]]
    nodes = sorted(n for ok, _, n, _ in rows if ok)
    under = sum(1 for ok, t, _, _ in rows if ok and t < 60)
    ten = sum(1 for ok, t, _, _ in rows if ok and t <= 10)
    med_nodes = f"{statistics.median(nodes) / 1000:,.0f} k" if nodes else "-"
    max_nodes = f"{max(nodes) / 1000:,.0f} k" if nodes else "-"
    return (f"| {name} | {left} | {len(rows)} | {len(solved)} | {ten * 100 // len(rows)} % | "
            f"{under * 100 // len(rows)} % | "
            f"{times[0]:.3f} / {statistics.median(times):.3f} / {times[-1]:.3f} | {med_nodes} / {max_nodes} | "
            f"{peak_text(max(p for *_, p in rows))} |")


def peak_text(mb: int) -> str:
    return f"{mb} MB" if mb else "-"


def table(names: list[str], results: dict[tuple[str, int], list], limit: float) -> None:
    print("| profile | tricks left | positions | solved | within 10 s | under 60 s | CPU s min / median / max | "
          "nodes median / max (solved) | peak memory (a worker) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        for (n, left), rows in sorted(results.items(), key=lambda kv: kv[0][1]):
            if n == name:
                print(report(name, left, rows, limit), flush=True)


def ratios(names: list[str], results: dict[tuple[str, int], list]) -> None:
    """Each profile's median CPU seconds on full deals over DDS's on bridge deals (when both ran)."""
    anchor = [t for (n, _), rows in results.items() if n == ANCHOR for _, t, _, _ in rows]
    if not anchor:
        return
    base = statistics.median(anchor)
    full = {n: max(left for (m, left) in results if m == n) for n in names if any(m == n for m, _ in results)}
    parts = [f"{n} {statistics.median(t for _, t, _, _ in results[(n, full[n])]) / base:.1f}x" for n in full]
    print(f"median CPU s over DDS's ({base * 1000:.1f} ms, {len(anchor)} bridge deals): " + ", ".join(parts))


def until_time(text: str | None) -> float | None:
    """``HH:MM`` (UTC, today or, if already past, tomorrow) as a time stamp."""
    if not text:
        return None
    hours, minutes = (int(x) for x in text.split(":"))
    now = time.time()
    day = now - now % 86_400
    at = day + hours * 3600 + minutes * 60
    return at if at > now else at + 86_400


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--endings", type=int, default=100, help="8-trick endings per profile")
    ap.add_argument("--ending-tricks", type=int, default=8)
    ap.add_argument("--deals", type=int, default=100, help="full deals per profile (0: none)")
    ap.add_argument("--limit", type=float, default=60.0, help="CPU seconds per position")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--profiles", default="standard,pagat,hukum")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--log", help="also write each position's result to this file as it comes")
    ap.add_argument("--until", help="HH:MM UTC: start no position after this time")
    ap.add_argument("--from-log", help="print the tables of a log written by --log, and stop")
    ap.add_argument("--six-from", type=int, default=19,
                    help="six players: the \"full deals\" start at this trick of 26 (default 19: 8 tricks left)")
    ap.add_argument("--python", action="store_true",
                    help="the pure-Python search everywhere (default: the compiled one)")
    ap.add_argument("--anchor", type=int, default=0,
                    help="also this many random bridge deals solved by DDS (the endplay package), in the same run")
    args = ap.parse_args()
    if args.anchor:
        try:
            import endplay.dds  # noqa: F401
        except ImportError:
            ap.error("--anchor needs the endplay package (DDS for Python): pip install endplay")
    names = args.profiles.split(",")
    unknown = [n for n in names if n not in PROFILES]
    if unknown:
        ap.error(f"no profile {', '.join(map(repr, unknown))} here: --profiles takes {', '.join(PROFILES)}")
    results: dict[tuple[str, int], list] = {}
    if args.from_log:
        with open(args.from_log, encoding="utf-8") as f:
            for line in f:
                w = line.split()
                results.setdefault((w[0], int(w[1])), []).append((w[2] == "True", float(w[3]), int(w[4]), int(w[5])))
        table([n for n in names + [ANCHOR] if any(k[0] == n for k in results)], results, args.limit)
        ratios(names, results)
        return
    until = until_time(args.until)
    compiled = False if args.python else None
    jobs = []
    for name in names:
        game = PROFILES[name]
        full = game.tricks_per_deal
        jobs += [(name, min(args.ending_tricks, full), args.seed + i, args.limit, until, compiled)
                 for i in range(args.endings)]
    for i in range(max(args.deals, args.anchor)):
        # full deals interleaved across profiles (and the anchor): a run stopped early is still balanced
        for name in names if i < args.deals else []:
            game = PROFILES[name]
            # six players: a random deal played at random to the start of trick --six-from
            left = game.tricks_per_deal if game.seats == 4 else game.tricks_per_deal - args.six_from + 1
            jobs.append((name, left, args.seed + 10_000 + i, args.limit, until, compiled))
        if i < args.anchor:
            jobs.append((ANCHOR, 13, args.seed + 10_000 + i, args.limit, until, compiled))
    log = open(args.log, "w", encoding="utf-8") if args.log else None
    with multiprocessing.get_context("spawn").Pool(args.jobs, maxtasksperchild=20) as pool:
        for got in pool.imap_unordered(solve_one, jobs):
            if got is None:
                continue
            name, left, ok, spent, nodes, peak, seed = got
            results.setdefault((name, left), []).append((ok, spent, nodes, peak))
            if log is not None:
                # the seed last: a slow position can be run again (position(seed, game, left, name))
                print(name, left, ok, f"{spent:.3f}", nodes, peak, seed, file=log, flush=True)
    search = ("pure-Python" if args.python else "compiled" if _csearch is not None
              else "pure-Python (not built)")
    print(f"limit {args.limit:g} CPU s a position, {args.jobs} processes, seed {args.seed}, search: {search}")
    table(names + ([ANCHOR] if args.anchor else []), results, args.limit)
    ratios(names, results)


if __name__ == "__main__":
    main()
