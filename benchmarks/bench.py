"""Benchmark: parse, parse + replay and ``dehlanote validate`` in deals/s, MB/s and peak RSS.

    python benchmarks/bench.py                      # 20,000 deals and a file 10x that
    python benchmarks/bench.py --big-mb 1000        # also a ~1 GB archive (written in /tmp)
    python benchmarks/bench.py --deals 2000 --scale 3 --repeat 1   # a quick look
    python benchmarks/bench.py --styles-only        # every writing style, python-chess, start-up
    python benchmarks/bench.py --scaling            # validate --jobs 1 against --jobs 2 (wall time)
    python benchmarks/bench.py --dask               # Dask on 2 workers against --jobs 1 and --jobs 2
    python benchmarks/bench.py --annotate           # annotate piped and on a terminal, deals/s
    python benchmarks/bench.py --memory             # peak RSS of each command on one 10,000-deal game

The corpus is made by ``benchmarks/make_corpus.py`` (seeded random legal matches in the
writer's layout, so the same arguments give the same file) and kept in
``benchmarks/out/bench-<deals>-<seed>.dpn``. The larger files repeat it (``--scale``
times, or up to ``--big-mb`` MB in ``--tmp``): every game is still a legal record, and
repeating keeps making them cheap (generating costs ~700 deals/s).

Every measurement runs in a fresh Python process that reads the file as a stream, and
reports its wall time, its CPU time and its peak resident memory
(``resource.getrusage(...).ru_maxrss``); with ``--repeat N`` the median of N runs is kept.
Rates are given per wall second and per CPU second: on a shared machine the CPU figure is
the steadier one. Not part of the test suite.

What is measured:
  parse        split + parse (whole-element terminals, token by token where they do not
               match), one game at a time
  parse-fine   the same token by token only (the reference reading; base size only, --lark)
  replay       split + parse + replay, one game at a time (what validate does)
  validate     ``dehlanote validate --brief [--jobs 1] FILE`` end to end (skipped without the CLI)
  jobs N       :func:`dehlanote.batch.pool.validate_parallel` with N processes (peak RSS is
               the parent's and the largest worker's)

Writing styles (``--style-deals`` deals each, seeded; skip with ``--no-styles``): the
same kind of random legal standard matches written as users write them, each its own file
in ``benchmarks/out/``, each measured on its own (parse, parse + replay, ``validate --jobs
1`` and ``json --compact`` end to end with the command's start-up, CPU time, median of
``--repeat``):
  plain        the canonical layout
  hands        a ``hands`` block in every deal
  comments     a comment after the trump line and after the tens line of every deal
  glyphs       withdrawn cards (``-X``, half the chances) and a glyph on two cards a deal
  loose        the hand-written look of samples/loose-style.dpn: lowercase, ``T``, suit
               symbols, several tricks to a line, no leader seats, comments and glyphs
  emoji        DPN 1.1 as a phone writes it: ``1. A: A\u2665\ufe0f, 10\u2665\ufe0f, ...`` (a dot after the
               trick number, emoji suits with the U+FE0F selector, commas between the cards;
               the trump line's suit too)
and, in the same run, python-chess (``pip install chess``) reading and replaying random PGN
games (``chess.pgn.read_game``, then every move pushed on a board), for scale per megabyte.
Then the start-up: ``dehlanote --help`` (from the copy kept by the run before, see
``dehlanote/helpcache.py``), ``--version``, ``validate`` and ``json --compact`` on a one-deal
record, CPU time of the whole process.

Scaling (``--scaling``): ``validate --brief --jobs 1`` and ``--jobs 2`` on the base corpus
repeated ``--scaling-times`` times, run in turn (1 2 1 2 ...), the median wall time of
each; the load average before and after is printed, as the figure means something only
on an otherwise idle machine (``uptime``: run it when the load is near 0).

Dask (``--dask``): the same file checked by :func:`dehlanote.batch.distributed.validate_files`
on a ``LocalCluster`` of ``--dask-workers`` worker processes of one thread each (byte ranges,
shrinking towards the end of the file, :func:`~dehlanote.batch.ranges.guided_starts`),
interleaved with ``validate --jobs 1`` and ``--jobs 2``: wall time, and CPU time of the
client and scheduler (this process) plus the workers and their nannies (``psutil``). The
cluster is started, and its workers have imported the package and built the parser
(:func:`~dehlanote.batch.distributed.prepare_workers`), before the clock starts (as on a
cluster that is already running); the cluster has the workers' profiler off
(:data:`~dehlanote.batch.distributed.QUIET`).

Child processes run this checkout's package (``PYTHONPATH``), not an installed one, with
their bytecode cached in the temporary directory (``PYTHONPYCACHEPREFIX``) as an installed
package has it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))


# ---- one measurement, in its own process ---------------------------------------------

def _measure(kind: str, path: str, jobs: int) -> dict:
    """Run one measurement in this (fresh) process; returns deals, times and peak RSS."""
    # imports and the Lark parser are made before the clock starts (the CLI row has them)
    from dehlanote.batch.pool import validate_parallel
    from dehlanote.replay.game import replay_game
    from dehlanote.rules.profile import registry
    from dehlanote.syntax.parser import iter_path, parse_chunk, warm_up
    from dehlanote.syntax.reader import split_games
    warm_up()
    reg = registry()
    deals = games = errors = 0
    t0, c0 = time.perf_counter(), time.process_time()
    if kind == "chess":
        return _measure_chess(path)
    if kind == "dask":
        return _measure_dask(path, jobs)
    if kind in ("parse", "parse-fine"):
        whole = kind == "parse"
        with open(path, "rb") as stream:
            for chunk in split_games(stream):
                for game in parse_chunk(chunk, whole=whole):
                    games += 1
                    deals += len(game.deals)
                    errors += len(game.errors)
    elif kind == "replay":
        for game in iter_path(path):
            facts = replay_game(game, reg)
            games += 1
            deals += len(game.deals)
            errors += len(facts.errors)
    elif kind == "jobs":
        for report in validate_parallel(path, jobs):
            games += 1
            deals += report.deals
            errors += len(report.errors)
    else:
        raise SystemExit(f"unknown measurement {kind}")
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"games": games, "deals": deals, "errors": errors, "wall": wall,
            "cpu": cpu + kids.ru_utime + kids.ru_stime,
            "rss_mb": max(own.ru_maxrss, kids.ru_maxrss) / 1024}


def _measure_dask(path: str, workers: int) -> dict:
    """``validate_files`` on a local cluster of ``workers`` one-thread worker processes."""
    import psutil
    from dask.distributed import Client, LocalCluster

    from dehlanote.batch.distributed import QUIET, prepare_workers, validate_files
    from dehlanote.batch.ranges import plan_ranges

    import dask

    with dask.config.set(QUIET), \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address=None) as cluster, Client(cluster) as client:
        # the workers import the package, load the profiles and build the parser before the
        # clock (as on a cluster that is already running: what prepare_workers does once)
        prepare_workers(client)
        # every process of the cluster but this one (its CPU is process_time's): a LocalCluster's
        # nannies run in this process, so the workers' parent is this process, and listing it
        # and its children once a worker counted this process three times and the workers twice
        parents = [psutil.Process(pid) for pid in set(client.run(os.getppid).values())]
        found = {p.pid: p for parent in parents for p in [parent, *parent.children(recursive=True)]}
        found.pop(os.getpid(), None)
        procs = list(found.values())

        def cpu() -> float:
            return sum(t.user + t.system for t in (p.cpu_times() for p in procs))
        c0, p0, t0 = cpu(), time.process_time(), time.perf_counter()
        results = validate_files([path], client)
        wall = time.perf_counter() - t0
        used = cpu() - c0 + time.process_time() - p0
        pieces = len(plan_ranges(path, 0, workers=workers)) - 1       # (as validate_files plans them)
        # what the cluster burns doing nothing (heartbeats, event loops), a second: on a busy
        # machine a long run's wall time adds that much CPU to the work
        c1, p1, t1 = cpu(), time.process_time(), time.perf_counter()
        time.sleep(5)
        idle = (cpu() - c1 + time.process_time() - p1) / (time.perf_counter() - t1)
    r = results[0]
    return {"games": r.games, "deals": r.deals, "errors": len(r.errors), "wall": wall, "cpu": used,
            "pieces": pieces, "idle_cpu_per_s": idle,
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _measure_chess(path: str) -> dict:
    """python-chess reading and replaying every game of a PGN file (the scale)."""
    import chess.pgn
    games = moves = 0
    t0, c0 = time.perf_counter(), time.process_time()
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
                moves += 1
            games += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"games": games, "deals": games, "moves": moves, "errors": 0, "wall": wall, "cpu": cpu,
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


#: child processes run this checkout's package, whatever is installed, with its compiled
#: bytecode cached (in /tmp) as an installed package has it: with PYTHONDONTWRITEBYTECODE
#: set and no __pycache__, every start would compile the package's source again (~40 ms)
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
       "PYTHONPYCACHEPREFIX": os.path.join(tempfile.gettempdir(), "dehlanote-bench-pycache")}


def _measure_cli(path: str, extra: list[str], command: str = "validate") -> dict:
    """A ``dehlanote`` command in a child process: its wall time, CPU time and peak RSS.
    ``validate --brief EXTRA PATH``, ``json EXTRA PATH`` (output thrown away), or ``startup``:
    ``dehlanote EXTRA`` as given."""
    cmd = [sys.executable, "-m", "dehlanote"]
    args = {"validate": ["validate", "--brief", *extra, path], "json": ["json", *extra, path],
            "startup": extra}[command]
    t0 = time.perf_counter()
    proc = subprocess.run([*cmd, *args], stdout=subprocess.DEVNULL if command == "json" else subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=ENV)
    wall = time.perf_counter() - t0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        return {"skipped": (proc.stderr.strip().splitlines() or ["failed"])[-1][:200]}
    out = proc.stdout or ""
    summary = out.strip().splitlines()[-1] if out.strip() else ""
    return {"wall": wall, "cpu": kids.ru_utime + kids.ru_stime, "rss_mb": kids.ru_maxrss / 1024,
            "summary": summary}


def _child(kind: str, path: str, jobs: int, extra: list[str]) -> dict:
    """Run a measurement in a fresh interpreter (so its peak RSS is its own)."""
    args = [sys.executable, str(Path(__file__).resolve()), "--child", kind, "--file", path,
            "--jobs-child", str(jobs), "--cli-args", json.dumps(extra)]
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    if proc.returncode != 0:
        return {"skipped": (proc.stderr.strip().splitlines() or ["failed"])[-1][:200]}
    return json.loads(proc.stdout)


# ---- files ---------------------------------------------------------------------------

def base_corpus(deals: int, seed: int) -> Path:
    """The seeded corpus of about ``deals`` deals, made once by make_corpus.py."""
    out = HERE / "out" / f"bench-{deals}-{seed}.dpn"
    if not out.exists():
        tmp = out.with_suffix(".part")
        subprocess.run([sys.executable, str(HERE / "make_corpus.py"), "--deals", str(deals), "--seed", str(seed),
                        "-o", str(tmp)], check=True)
        tmp.replace(out)
    return out


def repeated(base: Path, dest: Path, *, times: int = 0, megabytes: int = 0) -> Path:
    """``base`` written ``times`` times, or until ``megabytes`` MB, into ``dest`` (kept)."""
    size = base.stat().st_size
    if megabytes:
        times = max(1, round(megabytes * 1e6 / size))
    if dest.exists() and dest.stat().st_size == size * times:
        return dest
    data = base.read_bytes()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(dest, "wb") as out:
        for _ in range(times):
            out.write(data)
    return dest


STYLES = ("plain", "hands", "comments", "glyphs", "loose", "emoji")
_TRUMP_LINE = re.compile(r"^(trump .*)$", re.MULTILINE)
#: DPN 1.1 as a phone writes it: a dot after the trick number, emoji suits, commas between cards
_PLAIN_TRICK = re.compile(r"^( ?\d+) ([A-F]): (.*)$", re.MULTILINE)
_TRUMP_SUIT = re.compile(r"^trump ([SHDC])", re.MULTILINE)
_EMOJI = {"S": "\u2660\ufe0f", "H": "\u2665\ufe0f", "D": "\u2666\ufe0f", "C": "\u2663\ufe0f"}


def _emoji_trick(m: re.Match[str]) -> str:
    cards = ", ".join(card[:-1] + _EMOJI[card[-1]] for card in m.group(3).split(" "))
    return f"{m.group(1)}. {m.group(2)}: {cards}"
_TENS_LINE = re.compile(r"^(tens .*)$", re.MULTILINE)
_TRICK_LINE = re.compile(r"^( ?[37] [A-F]: )([^\s-]\S*)(.*?)(\S+)$", re.MULTILINE)


def style_corpus(style: str, deals: int, seed: int) -> Path:
    """The seeded corpus of about ``deals`` deals written in ``style`` (see the docstring)."""
    out = HERE / "out" / f"style-{style}-{deals}-{seed}.dpn"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    args = {"plain": [], "hands": ["--hands"], "comments": [], "glyphs": ["--withdrawn", "0.5"],
            "loose": ["--loose", "--no-leaders"], "emoji": []}[style]
    tmp = out.with_suffix(".part")
    subprocess.run([sys.executable, str(HERE / "make_corpus.py"), "--deals", str(deals), "--seed", str(seed),
                    "-o", str(tmp), *args], check=True, stderr=subprocess.DEVNULL)
    text = tmp.read_text(encoding="utf-8")
    if style == "comments":
        text = _TRUMP_LINE.sub(r"\1 {called on the first five}", text)
        text = _TENS_LINE.sub(r"\1 {a good deal for the dealer's side}", text)
    elif style == "glyphs":
        text = _TRICK_LINE.sub(r"\1\2!\3\4?", text)
    elif style == "emoji":
        text = _PLAIN_TRICK.sub(_emoji_trick, text)
        text = _TRUMP_SUIT.sub(lambda m: "trump " + _EMOJI[m.group(1)], text)
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    return out


def chess_corpus(games: int, seed: int) -> Path | None:
    """Random legal chess games as PGN (python-chess), or None when it is not installed."""
    try:
        import random

        import chess
        import chess.pgn
    except ImportError:
        return None
    out = HERE / "out" / f"chess-{games}-{seed}.pgn"
    if out.exists():
        return out
    rng = random.Random(seed)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.with_suffix(".part"), "w", encoding="utf-8") as f:
        for i in range(games):
            board = chess.Board()
            while not board.is_game_over() and board.ply() < 160:
                board.push(rng.choice(list(board.legal_moves)))
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = f"Random game {i}"
            print(game, file=f, end="\n\n")
    out.with_suffix(".part").replace(out)
    return out


def deal_count(path: Path, base: Path, base_deals: int) -> int:
    return round(base_deals * path.stat().st_size / base.stat().st_size)


# ---- the report ----------------------------------------------------------------------

def run(kind: str, path: Path, repeat: int, jobs: int = 1, extra: list[str] | None = None, *,
        by: str = "wall") -> dict:
    """The median run (by wall or CPU time) of ``repeat``; peak RSS the largest."""
    results = [(_child(kind, str(path), jobs, extra or [])) for _ in range(repeat)]
    if any("skipped" in r for r in results):
        return next(r for r in results if "skipped" in r)
    keep = sorted(results, key=lambda r: r[by])[len(results) // 2]
    keep["rss_mb"] = max(r["rss_mb"] for r in results)
    return keep


def line(label: str, r: dict, deals: int, size: int) -> str:
    if "skipped" in r:
        return f"| {label} | skipped: {r['skipped']} | | | | |"
    mb = size / 1e6
    return (f"| {label} | {deals / r['wall']:,.0f} | {deals / r['cpu']:,.0f} | {mb / r['wall']:.2f} "
            f"| {r['wall']:.1f} | {r['rss_mb']:.0f} |")


def run_styles(args: argparse.Namespace) -> dict:
    """Every writing style on its own, and python-chess for scale: a table and the figures."""
    print(f"### Writing styles: {args.style_deals:,} deals each, CPU time, median of {args.repeat} runs "
          f"(load average {os.getloadavg()[0]:.2f} at the start)\n")
    print("| style | MB | parse deals/s | parse + replay deals/s | `validate --jobs 1` deals/s | MB/s "
          "| vs python-chess (MB/s) | `json --compact` deals/s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    chess_path = chess_corpus(args.chess_games, args.seed)
    chess_mbs = None
    rows: dict = {}
    if chess_path is not None:
        r = run("chess", chess_path, args.repeat)
        if "cpu" in r:
            chess_mbs = chess_path.stat().st_size / 1e6 / r["cpu"]
            rows["python-chess"] = {**r, "bytes": chess_path.stat().st_size, "mb_per_s": chess_mbs}
    for style in STYLES:
        path = style_corpus(style, args.style_deals, args.seed)
        size = path.stat().st_size
        got = {k: run(k, path, args.repeat, extra=["--jobs", "1"] if k == "validate" else None, by="cpu")
               for k in ("parse", "replay", "validate")}
        got["json"] = run("json", path, args.repeat, extra=["--compact"], by="cpu")
        deals = got["parse"].get("deals", args.style_deals)

        def rate(k: str) -> str:
            r = got[k]
            return f"{deals / r['cpu']:,.0f}" if "cpu" in r else "skipped"
        mbs = size / 1e6 / got["validate"]["cpu"] if "cpu" in got["validate"] else None
        ratio = f"{mbs / chess_mbs:.1f}x" if mbs and chess_mbs else "n/a"
        print(f"| {style} | {size / 1e6:.1f} | {rate('parse')} | {rate('replay')} | {rate('validate')} "
              f"| {mbs or 0:.2f} | {ratio} | {rate('json')} |", flush=True)
        rows[style] = {"path": str(path), "bytes": size, "deals": deals, **{k: v for k, v in got.items()}}
    if chess_path is not None and "python-chess" in rows:
        r = rows["python-chess"]
        print(f"\npython-chess 1.x reading and replaying {r['games']:,} random games ({r['moves']:,} moves, "
              f"{r['bytes'] / 1e6:.1f} MB): {r['games'] / r['cpu']:,.0f} games/s, {chess_mbs:.2f} MB/s (CPU)\n")
    else:
        print("\npython-chess is not installed (pip install chess): no comparison\n")
    return rows


SAMPLE = ROOT / "samples" / "worked-example.dpn"


def run_startup(args: argparse.Namespace) -> dict:
    """The command line's start-up: commands on a one-deal record, CPU time, median of 3x repeat."""
    rows = {}
    print(f"### Start-up: CPU time of the whole command, median of {3 * args.repeat} runs\n")
    print("| command | CPU ms | wall ms |")
    print("|---|---:|---:|")
    for label, extra in (("dehlanote --help", ["--help"]), ("dehlanote --version", ["--version"]),
                         ("dehlanote validate samples/worked-example.dpn", ["validate", str(SAMPLE)]),
                         ("dehlanote json --compact samples/worked-example.dpn",
                          ["json", "--compact", str(SAMPLE)])):
        r = run("startup", SAMPLE, 3 * args.repeat, extra=extra, by="cpu")
        rows[label] = r
        if "cpu" in r:
            print(f"| `{label}` | {r['cpu'] * 1000:.0f} | {r['wall'] * 1000:.0f} |", flush=True)
    print()
    return rows


def run_scaling(args: argparse.Namespace) -> dict:
    """``validate --jobs 1`` against ``--jobs 2`` on the base corpus repeated ``--scaling-times``
    times, interleaved (1 2 1 2 ...), ``--repeat`` pairs: wall time (the CPU time is the same
    work spread on two cores) and the load average around the runs."""
    base = base_corpus(args.deals, args.seed)
    path = repeated(base, Path(args.tmp) / f"dehlanote-bench-x{args.scaling_times}.dpn", times=args.scaling_times)
    deals = args.deals * args.scaling_times
    before = os.getloadavg()
    runs: dict[int, list[dict]] = {1: [], 2: []}
    for _ in range(args.repeat):
        for jobs in (1, 2):
            runs[jobs].append(_child("validate", str(path), 1, ["--jobs", str(jobs)]))
    after = os.getloadavg()
    if any("skipped" in r for rs in runs.values() for r in rs):
        print("scaling skipped\n")
        return {}
    med = {j: sorted(rs, key=lambda r: r["wall"])[len(rs) // 2] for j, rs in runs.items()}
    print(f"### `validate --jobs 2` against `--jobs 1`: {path.stat().st_size / 1e6:.0f} MB, {deals:,} deals, "
          f"median of {args.repeat} interleaved pairs; load average {before[0]:.2f} before, {after[0]:.2f} after\n")
    print("| | wall s | deals/s (wall) | CPU s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|")
    for jobs in (1, 2):
        r = med[jobs]
        print(f"| `validate --jobs {jobs}` | {r['wall']:.1f} | {deals / r['wall']:,.0f} | {r['cpu']:.1f} "
              f"| {r['rss_mb']:.0f} |")
    ratio = med[1]["wall"] / med[2]["wall"]
    print(f"\n`--jobs 2` is {ratio:.2f} times as fast as `--jobs 1` (wall time; every pair: "
          + ", ".join(f"{a['wall'] / b['wall']:.2f}" for a, b in zip(runs[1], runs[2])) + ")\n")
    return {"path": str(path), "deals": deals, "load_before": before, "load_after": after, "runs": runs,
            "speed_up": ratio}


def run_dask(args: argparse.Namespace) -> dict:
    """Dask on ``--dask-workers`` workers against ``validate --jobs 1`` and ``--jobs 2`` on the
    scaling file, interleaved, ``--repeat`` rounds: wall and CPU time, median of each."""
    base = base_corpus(args.deals, args.seed)
    path = repeated(base, Path(args.tmp) / f"dehlanote-bench-x{args.scaling_times}.dpn", times=args.scaling_times)
    deals = args.deals * args.scaling_times
    workers = args.dask_workers
    before = os.getloadavg()
    runs: dict[str, list[dict]] = {"jobs 1": [], "jobs 2": [], "dask": []}
    for _ in range(args.repeat):
        runs["jobs 1"].append(_child("validate", str(path), 1, ["--jobs", "1"]))
        runs["dask"].append(_child("dask", str(path), workers, []))
        runs["jobs 2"].append(_child("validate", str(path), 1, ["--jobs", "2"]))
    after = os.getloadavg()
    skipped = [r["skipped"] for rs in runs.values() for r in rs if "skipped" in r]
    if skipped:
        print(f"dask skipped: {skipped[0]}\n")
        return {}
    med = {k: {m: statistics.median(r[m] for r in rs) for m in ("wall", "cpu")} for k, rs in runs.items()}
    print(f"### Dask on {workers} workers against `validate --jobs 1` and `--jobs 2`: "
          f"{path.stat().st_size / 1e6:.0f} MB, {deals:,} deals, {runs['dask'][0]['pieces']} pieces, median of "
          f"{args.repeat} interleaved rounds; load average {before[0]:.2f} before, {after[0]:.2f} after\n")
    print("| | wall s | CPU s |")
    print("|---|---:|---:|")
    for label, key in (("`validate --jobs 1`", "jobs 1"), ("`validate --jobs 2`", "jobs 2"),
                       (f"Dask, {workers} workers (`validate_files`)", "dask")):
        print(f"| {label} | {med[key]['wall']:.1f} | {med[key]['cpu']:.1f} |")
    speed = med["jobs 1"]["wall"] / med["dask"]["wall"]
    cpu = med["dask"]["cpu"] / med["jobs 2"]["cpu"]
    print(f"\nDask is {speed:.2f} times as fast as `--jobs 1` (wall; every round: "
          + ", ".join(f"{a['wall'] / b['wall']:.2f}" for a, b in zip(runs["jobs 1"], runs["dask"]))
          + f"), with {cpu:.2f} times the CPU time of `--jobs 2`; the idle cluster burns "
          f"{statistics.median(r['idle_cpu_per_s'] for r in runs['dask']):.3f} CPU s a second\n")
    return {"path": str(path), "deals": deals, "workers": workers, "load_before": before, "load_after": after,
            "runs": runs, "speed_up": speed, "cpu_vs_jobs2": cpu}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20000, help="deals in the base corpus")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale", type=int, default=10, help="the larger file is the corpus this many times")
    ap.add_argument("--big-mb", type=int, default=0, help="also an archive of about this many MB")
    ap.add_argument("--tmp", default="/tmp", help="where the larger files are written")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement on the base corpus (median)")
    ap.add_argument("--jobs", default="1,2", help="process counts for the scaling table")
    ap.add_argument("--lark", action="store_true", help="also parse token by token only (slow)")
    ap.add_argument("--style-deals", type=int, default=5000, help="deals in each writing style's corpus")
    ap.add_argument("--chess-games", type=int, default=400, help="random PGN games for python-chess")
    ap.add_argument("--no-styles", action="store_true", help="skip the writing styles")
    ap.add_argument("--styles-only", action="store_true",
                    help="only the writing styles, python-chess and start-up")
    ap.add_argument("--scaling", action="store_true", help="only validate --jobs 1 against --jobs 2")
    ap.add_argument("--scaling-times", type=int, default=5,
                    help="the scaling file is the base corpus this many times (default 5: 100,000 deals)")
    ap.add_argument("--dask", action="store_true",
                    help="only Dask (validate_files on a local cluster) against --jobs 1 and --jobs 2")
    ap.add_argument("--dask-workers", type=int, default=2, help="worker processes of the Dask cluster")
    ap.add_argument("--annotate", action="store_true", help="only annotate's speed (see bench_memory.py)")
    ap.add_argument("--memory", action="store_true", help="only the peak memory on one long game")
    ap.add_argument("--shapes", default="tens,no-tens,comments,hands,six-player",
                    help="the shapes of game --memory measures (bench_memory.SHAPES)")
    ap.add_argument("--json", help="write the figures to this JSON file")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--file", help=argparse.SUPPRESS)
    ap.add_argument("--jobs-child", type=int, default=1, help=argparse.SUPPRESS)
    ap.add_argument("--cli-args", default="[]", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.child:
        if args.child in ("validate", "json", "startup"):
            result = _measure_cli(args.file, json.loads(args.cli_args), args.child)
        else:
            result = _measure(args.child, args.file, args.jobs_child)
        print(json.dumps(result))
        return 0

    figures: dict = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "files": []}
    # one run first, so that the bytecode cache is written before anything is measured
    _child("startup", str(SAMPLE), 1, ["--help"])     # keeps the copy of the help the next runs write
    _child("startup", str(SAMPLE), 1, ["validate", "--format", "json", str(SAMPLE)])
    _child("startup", str(SAMPLE), 1, ["json", "--compact", str(SAMPLE)])
    if args.dask:
        figures["dask"] = run_dask(args)
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        return 0
    if args.annotate or args.memory:
        import bench_memory
        if args.annotate:
            figures["annotate"] = bench_memory.run_annotate(style_corpus("plain", args.style_deals, args.seed),
                                                            args.style_deals, args.repeat)
        if args.memory:
            figures["memory"] = bench_memory.run_memory(Path(args.tmp), tuple(args.shapes.split(",")))
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        return 0
    if args.scaling:
        figures["scaling"] = run_scaling(args)
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        return 0
    if not args.no_styles:
        figures["styles"] = run_styles(args)
        figures["startup"] = run_startup(args)
    if args.styles_only:
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        return 0
    base = base_corpus(args.deals, args.seed)
    files = [base]
    if args.scale > 1:
        files.append(repeated(base, Path(args.tmp) / f"dehlanote-bench-x{args.scale}.dpn", times=args.scale))
    if args.big_mb:
        files.append(repeated(base, Path(args.tmp) / f"dehlanote-bench-{args.big_mb}mb.dpn",
                              megabytes=args.big_mb))
    cli_help = subprocess.run([shutil.which("dehlanote") or "dehlanote", "validate", "--help"],
                              capture_output=True, text=True) if shutil.which("dehlanote") else None
    cli_jobs = cli_help is not None and "--jobs" in cli_help.stdout
    print(f"Python {figures['python']}, {figures['cpus']} cores; median of {args.repeat} runs on the base "
          "corpus, 1 run on the larger files\n")
    for path in files:
        size = path.stat().st_size
        deals = deal_count(path, base, args.deals)
        repeat = args.repeat if path == base else 1
        print(f"### {path.name}: {size / 1e6:,.1f} MB, about {deals:,} deals\n")
        print("| measurement | deals/s (wall) | deals/s (CPU) | MB/s | seconds | peak RSS MB |")
        print("|---|---:|---:|---:|---:|---:|")
        rows = {}
        kinds = ["parse", *(["parse-fine"] if args.lark and path == base else []), "replay", "validate"]
        for kind in kinds:
            # the CLI checks large files on every core by default: the row is one process
            r = run(kind, path, repeat, extra=["--jobs", "1"] if kind == "validate" and cli_jobs else None)
            if "deals" in r:
                deals = r["deals"]
            rows[kind] = r
            print(line(kind, r, deals, size), flush=True)
        if path == base or path == files[1]:
            for n in [int(j) for j in args.jobs.split(",") if j]:
                r = run("jobs", path, repeat, jobs=n)
                rows[f"jobs {n}"] = r
                print(line(f"validate_parallel jobs={n}", r, deals, size), flush=True)
                if cli_jobs and n > 1:
                    r = run("validate", path, repeat, extra=["--jobs", str(n)])
                    rows[f"validate --jobs {n}"] = r
                    print(line(f"validate --jobs {n}", r, deals, size), flush=True)
        print()
        figures["files"].append({"path": str(path), "bytes": size, "deals": deals, "results": rows})
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
