"""Benchmark: ``dehlanote record`` fed from a pipe, and its session per element.

    python benchmarks/record_bench.py               # a 30-deal session, a 7-deal match
    python benchmarks/record_bench.py --deals 60    # a longer session

What is measured (CPU and wall time, median of ``--repeat`` runs):
  session      the library alone: every line of an open-ended session (pagat kots=0) fed to
               :class:`dehlanote.record.Session` one trick a line, then one card a line; the
               time per line, first and last deal (does it grow with the game? it should
               not: only the deal in progress is replayed per element)
  cli sync     ``dehlanote record FILE < lines`` end to end, saving with fsync
  cli no-sync  the same with ``--no-sync`` (the rename is still atomic)
  save         :func:`dehlanote.record.save` of the finished file, with and without fsync
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dehlanote import parse_string, replay_game, write_game  # noqa: E402
from dehlanote.oracle.playout import generate_match  # noqa: E402
from dehlanote.record import Session, save  # noqa: E402
from dehlanote.replay import explicit  # noqa: E402


def lines_of(text: str, one_card: bool = False) -> list[str]:
    """The lines a scorer types: tags, deal lines, tricks without number and leader."""
    import re
    head = re.compile(r"^\s*\d+\s+[A-F]:\s*")
    facts = replay_game(parse_string(text)[0])
    out = []
    for line in write_game(explicit(facts)).split("\n"):
        s = line.strip()
        if not s or s.startswith("[Result"):
            continue
        if head.match(line):
            body = head.sub("", line)
            out.extend(body.split() if one_card else [body])
        else:
            out.append(s)
    return out


def time_session(lines: list[str]) -> tuple[float, float, list[float]]:
    session = Session()
    per: list[float] = []
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for line in lines:
        t = time.perf_counter()
        outcome = session.feed(line)
        per.append(time.perf_counter() - t)
        assert outcome.accepted, (line, outcome)
    return time.process_time() - cpu0, time.perf_counter() - wall0, per


def time_cli(lines: list[str], *args: str) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rec.dpn"
        start = time.perf_counter()
        before = os.times()
        subprocess.run([sys.executable, "-m", "dehlanote", "record", str(path), *args],
                       input="\n".join(lines) + "\n", text=True, check=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
        after = os.times()
        wall = time.perf_counter() - start
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        return cpu, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    session_text, _ = generate_match(random.Random(1), "pagat", {"kots": 0}, max_deals=args.deals)
    match_text, facts = generate_match(random.Random(26), "standard", None, bias=0.3, first_dealer="B")
    for label, text, one in ((f"session {args.deals} deals, a trick a line", session_text, False),
                             (f"session {args.deals} deals, a card a line", session_text, True)):
        lines = lines_of(text, one)
        runs = [time_session(lines) for _ in range(args.repeat)]
        cpu = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        per = runs[0][2]
        tenth = max(1, len(per) // 10)
        print(f"{label}: {len(lines)} lines, CPU {cpu:.2f} s, wall {wall:.2f} s, "
              f"{1000 * cpu / len(lines):.2f} ms CPU a line; first tenth {1000 * statistics.mean(per[:tenth]):.2f} "
              f"ms, last tenth {1000 * statistics.mean(per[-tenth:]):.2f} ms a line (wall)")
    lines = lines_of(match_text)
    for label, extra in (("cli sync", ()), ("cli no-sync", ("--no-sync",))):
        runs = [time_cli(lines, *extra) for _ in range(args.repeat)]
        print(f"{label}: {len(facts['deals'])}-deal match, {len(lines)} lines: CPU "
              f"{statistics.median(r[0] for r in runs):.2f} s, wall {statistics.median(r[1] for r in runs):.2f} s")
    final = Session()
    for line in lines_of(session_text):
        final.feed(line)
    with tempfile.TemporaryDirectory() as tmp:
        for sync in (True, False):
            start = time.perf_counter()
            for _ in range(50):
                save(Path(tmp) / "x.dpn", final.text, sync=sync)
            print(f"save {len(final.text.encode())} bytes, sync={sync}: "
                  f"{1000 * (time.perf_counter() - start) / 50:.1f} ms")


if __name__ == "__main__":
    main()
