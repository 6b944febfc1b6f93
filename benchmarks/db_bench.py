"""Time ``dehlanote db build`` on a large archive, its memory, and queries over the deals table.

    python benchmarks/make_corpus.py --deals 1000000 --seed 1 -o benchmarks/out/corpus.dpn
    python benchmarks/db_bench.py benchmarks/out/corpus.dpn [--jobs 2] [--db benchmarks/out/bench.duckdb]

The build runs as the command line runs it (a fresh database, then a second build with
nothing changed); the memory is the largest resident set of the whole process tree (the
command, its workers and multiprocessing's resource tracker, summed), sampled every 0.2 s
from /proc, and so is the builder's own CPU time (its last sample: at least what it used). Each query is timed on
the finished database, median of 5, in one DuckDB connection (the command line adds its
start-up, about 0.3 s, also shown). The machine's load average is printed beside the
figures: the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

QUERIES = {
    "deals won per side": "SELECT winner, count(*) FROM deals GROUP BY winner ORDER BY 1",
    "kots by reason and dealer": "SELECT kot_reason, dealer, count(*) FROM deals WHERE kot_reason IS NOT NULL "
                                 "GROUP BY ALL ORDER BY ALL",
    "trump setter's side wins, by seat": "SELECT trump_by, count(*), count(*) FILTER (WHERE winner = trump_side) "
                                         "FROM deal_results WHERE trump_by IS NOT NULL AND winner IS NOT NULL "
                                         "GROUP BY 1 ORDER BY 1",
    "deals with a three-ten sweep": "SELECT count(DISTINCT (game_id, deal)) FROM captures "
                                    "WHERE reason = 'two-in-a-row' AND tens = 3",
    "longest streak per dealer": "SELECT dealer, max(streak_length) FROM deals GROUP BY 1 ORDER BY 1",
}


def _tree_rss(pid: int, cpu: dict[int, float] | None = None) -> int:
    """Resident bytes of ``pid`` and all its descendants (``cpu``: each one's CPU seconds so far)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    ticks: dict[int, float] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            ppid, pages = int(fields[1]), int(fields[21])
            ticks[int(name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(name))
        rss[int(name)] = pages * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        if cpu is not None and p in ticks:
            cpu[p] = ticks[p]
        todo.extend(children.get(p, ()))
    return total


def timed_build(archive: str, db: str, jobs: int) -> tuple[float, float, int, str, float]:
    """Wall seconds, CPU seconds (the command and its workers, user + system), peak memory, its
    line, and the CPU seconds of the command's own process (the builder, DuckDB's threads in it)."""
    import resource
    env = dict(os.environ, PYTHONPATH=ROOT)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "dehlanote", "db", "build", archive, "-o", db, "--jobs",
                             str(jobs)], env=env, stderr=subprocess.PIPE, text=True)
    peak = 0
    done = threading.Event()
    cpu_seen: dict[int, float] = {}

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid, cpu_seen))
            time.sleep(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    _, err = proc.communicate()
    done.set()
    watcher.join()
    if proc.returncode != 0:
        raise SystemExit(f"db build failed: {err}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, peak, err.strip(), cpu_seen.get(proc.pid, 0.0)


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive")
    parser.add_argument("--db", default=os.path.join(ROOT, "benchmarks", "out", "bench.duckdb"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    import duckdb

    if os.path.exists(args.db):
        os.remove(args.db)
    size = os.path.getsize(args.archive)
    print(f"archive: {args.archive}, {size / 1e6:.0f} MB; {os.cpu_count()} cores; --jobs {args.jobs}")
    print(f"load before: {load()}")
    seconds, cpu, peak, said, own = timed_build(args.archive, args.db, args.jobs)
    print(f"build: {seconds:.1f} s wall, {cpu:.1f} CPU s (all processes; the builder's own at least {own:.1f}), "
          f"peak memory {peak / 2**20:.0f} MB (load after: {load()})\n  {said}")
    print(f"  on {args.jobs} idle cores: about {max(cpu / max(1, args.jobs), own):.0f} s (the larger of the CPU "
          f"shared out and the builder's own)")
    again, cpu2, peak2, said2, _ = timed_build(args.archive, args.db, args.jobs)
    print(f"again, nothing changed: {again:.2f} s wall, {cpu2:.1f} CPU s, peak {peak2 / 2**20:.0f} MB\n  {said2}")
    print(f"database: {os.path.getsize(args.db) / 1e6:.0f} MB")
    con = duckdb.connect(args.db, read_only=True)
    counts = con.execute("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM deals), "
                         "(SELECT count(*) FROM tricks), (SELECT count(*) FROM plays)").fetchall()[0]
    print("games {:,}, deals {:,}, tricks {:,}, plays {:,}".format(*counts))
    for label, sql in QUERIES.items():
        times = []
        for _ in range(5):
            t = time.perf_counter()
            con.execute(sql).fetchall()
            times.append(time.perf_counter() - t)
        print(f"query {label}: median {statistics.median(times) * 1000:.0f} ms (load {load()})")
    con.close()
    env = dict(os.environ, PYTHONPATH=ROOT)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "dehlanote", "db", "query", args.db, QUERIES["deals won per side"],
                    "--format", "csv"], env=env, check=True, capture_output=True)
    print(f"dehlanote db query (start-up included): {time.perf_counter() - t:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
