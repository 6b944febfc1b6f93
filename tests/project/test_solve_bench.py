"""The solver's benchmark script (``benchmarks/solve_bench.py``, the figures of docs/analysis.md):
it runs, and a profile it does not know is refused with a usage message, not a traceback
(``--profiles six`` ended in ``KeyError: 'six'``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "solve_bench.py"


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


def test_a_profile_it_does_not_know_is_refused_with_the_names_it_knows():
    done = bench("--profiles", "standard,six", "--deals", "1")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "no profile 'six' here: --profiles takes standard, pagat, hukum" in done.stderr
    assert "six-player" in done.stderr and done.stdout == ""


def test_it_solves_endings_of_each_profile_asked_for_and_gives_a_row_each():
    done = bench("--endings", "2", "--ending-tricks", "3", "--deals", "0", "--profiles", "standard,six-player")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith(("| standard |", "| six-player |"))]
    assert len(rows) == 2
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1:4] == ["3", "2", "2"], row        # tricks left, positions, solved
