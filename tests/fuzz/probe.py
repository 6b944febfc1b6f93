"""Read one file the way the tools do, in a fresh process, and report what it cost.

    python tests/fuzz/probe.py FILE [--block N] [--collector-paused]

Streams the file through ``iter_path`` (one game at a time), replays every game, builds
its JSON and its canonical text, and prints one JSON object: seconds, peak resident memory
(``ru_maxrss``, MB) and the baseline before reading, the number of games and deals, the
error count by code and the first errors. The peak counts everything held at once for
the largest game: its model, its facts, its JSON (as a Python object) and its text.
``tests/robustness/test_hostile.py`` runs it on hostile files so that each measurement starts from a
clean process.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import sys
import time
from collections import Counter


def _rss_mb() -> float:
    """The peak resident memory of this process so far (MB): VmHWM, the high-water mark of
    this program since it started (ru_maxrss also counts the parent's memory copied by the
    fork that started it, so a probe run from a big pytest looked big)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # KB on Linux


def _current_mb() -> float:
    """The resident memory now (MB): the baseline (the peak may be higher, from building Lark)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize() / (1 << 20)
    except OSError:
        return _rss_mb()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--block", type=int, default=None)
    # the garbage collector paused while a game is read, and run after each game on what it
    # left: for a game of thousands of valid deals, whose objects the collector rescanned
    # again and again as they were made (64% of the time for 10,000 deals) and which are
    # freed by reference counting (the peak is the same). Not for a broken game: the error's
    # traceback is a cycle that would hold its text (a 10 MB line) until the game's end.
    parser.add_argument("--collector-paused", action="store_true")
    args = parser.parse_args()

    from dehlanote.output.jsonout import game_json
    from dehlanote.replay import explicit, replay_game
    from dehlanote.syntax import iter_games, iter_path, write_game
    from dehlanote.syntax import reader

    if args.block:
        reader.BLOCK = args.block
    list(iter_games("deal {warm the parser up}"))        # build Lark before the baseline
    baseline = _current_mb()
    if args.collector_paused:
        gc.freeze()     # (what is there before the first game is left out of the scans after each)
        gc.disable()
    start = time.perf_counter()
    games = deals = 0
    codes: Counter = Counter()
    first = []
    largest_message = 0
    for game in iter_path(args.file):
        facts = replay_game(game)
        json.dumps(game_json(facts))
        write_game(explicit(facts))
        games += 1
        deals += len(game.deals)
        for e in facts.errors:
            codes[e.code] += 1
            largest_message = max(largest_message, len(e.message))
            if len(first) < 5:
                first.append({"code": e.code, "line": e.line, "column": e.column, "message": e.message[:200],
                              "offset": e.offset})
        if args.collector_paused:
            del facts
            gc.collect()
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": round(seconds, 3), "peak_mb": round(_rss_mb(), 1), "baseline_mb": round(baseline, 1),
                      "games": games, "deals": deals, "codes": dict(codes), "first": first,
                      "largest_message": largest_message}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
