"""How long a site of generated games takes to build, and whether ``stats`` streams.

    python benchmarks/html_site.py [--games 1000] [--files 10] [--site-only]
    python benchmarks/html_site.py --games 47300 --files 20 --site-only    # the site of 100,000 deals

Writes ``--games`` random legal standard matches (the independent generator in
``dehlanote.oracle.playout``; every other game with ``hands``, every third in the loose style)
into ``--files`` files in a temporary folder, then times, each in a fresh process:
``dehlanote html FILES -o SITE`` (wall and CPU seconds, peak memory, pages written) and
``dehlanote stats`` on that archive and on one ten times larger, whose peak memory should
be about the same (the statistics pass keeps counters, not games); ``--site-only``: the site alone.
The peak is the whole ``html`` command's (issue 27 item 3: 80 MB for a site of 100,000 deals;
47,300 of these games are 99,133 deals).
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dehlanote.oracle.playout import Style, generate_match


def write_archive(folder: Path, games: int, files: int, seed: int) -> int:
    rng = random.Random(seed)
    deals = 0
    per = max(1, games // files)
    for f in range(files):
        with open(folder / f"archive-{f:03d}.dpn", "w", encoding="utf-8") as out:
            for g in range(per):
                text, facts = generate_match(rng, "standard", None, Style(hands=g % 2 == 0, loose=g % 3 == 0))
                out.write(text + "\n")
                deals += len(facts["deals"])
    return deals


def run(args: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak resident kilobytes of one command in a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "dehlanote", *args], check=False, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--site-only", action="store_true", help="only the site, not the stats runs")
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        small = folder / "small"
        small.mkdir()
        deals = write_archive(small, ns.games, ns.files, ns.seed)
        files = sorted(str(p) for p in small.glob("*.dpn"))
        wall, cpu, peak = run(["html", *files, "-o", str(folder / "site")])
        size = sum(p.stat().st_size for p in (folder / "site").rglob("*.html"))
        print(f"html: {ns.games} games, {deals} deals in {ns.files} files -> "
              f"{len(list((folder / 'site').rglob('*.html')))} pages ({size / 1e6:.1f} MB): "
              f"{wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak / 1024:.0f} MB")
        if ns.site_only:
            return
        wall, cpu, peak_small = run(["stats", *files])
        print(f"stats: {ns.games} games: {wall:.1f} s wall, {cpu:.1f} s CPU")
        big = folder / "big.dpn"
        with open(big, "w", encoding="utf-8") as out:
            for _ in range(10):
                for f in files:
                    out.write(Path(f).read_text(encoding="utf-8"))
        # RUSAGE_CHILDREN's peak is the largest child so far: measure the big one alone
        code = ("import resource, subprocess, sys; subprocess.run([sys.executable, '-m', 'dehlanote', 'stats', "
                f"{str(big)!r}], stdout=subprocess.DEVNULL); "
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
        peak_big = int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
        code_small = code.replace(repr(str(big)), ", ".join(repr(f) for f in files))
        peak_small = int(subprocess.run([sys.executable, "-c", code_small], capture_output=True, text=True).stdout)
        print(f"stats peak memory: {ns.games} games {peak_small / 1024:.0f} MB, "
              f"{10 * ns.games} games {peak_big / 1024:.0f} MB")


if __name__ == "__main__":
    main()
