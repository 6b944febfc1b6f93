"""A worker process killed (what the out-of-memory killer does) while ``solve --jobs 2`` or
``validate --jobs 2`` runs (issue 22 item 14): one line says so, what was done is printed,
exit 2; never a hang, never a traceback. The worker is killed with SIGKILL from the test,
found among the command's own child processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def kill_a_worker(process: subprocess.Popen, is_worker, wait: float = 120) -> int:
    """SIGKILL the first child of ``process`` that ``is_worker(cmdline)``; its pid."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for child in children(process.pid):
            if is_worker(cmdline(child)):
                time.sleep(0.3)     # let the pool hand it work
                try:
                    os.kill(child, signal.SIGKILL)
                except ProcessLookupError:      # it was a passing process (or is gone): look again
                    continue
                return child
        if process.poll() is not None:
            pytest.fail(f"the command ended before a worker was seen: {process.communicate()}")
        time.sleep(0.05)
    pytest.fail("no worker process appeared")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="child processes are found in /proc")
def test_solve_jobs_2_reports_a_killed_worker_and_the_deals_solved(tmp_path):
    deals = tmp_path / "deals.dpn"
    gen = subprocess.run([sys.executable, "-m", "dehlanote", "generate", "--games", "6", "--seed", "11", "--hands",
                          "-o", str(deals)], env=ENV, capture_output=True, text=True, timeout=120)
    assert gen.returncode == 0, gen.stderr
    process = subprocess.Popen([sys.executable, "-m", "dehlanote", "solve", "--jobs", "2", "--from-trick", "3",
                                str(deals)], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        kill_a_worker(process, lambda line: "spawn_main" in line)
        out, err = process.communicate(timeout=300)
    finally:
        process.kill()
    assert "Traceback" not in err, err
    assert process.returncode == 2, err
    lines = [line for line in err.splitlines() if "worker process was lost" in line]
    assert len(lines) == 1, err
    done = int(lines[0].split(" after ")[1].split(" of ")[0])
    # each deal solved before the loss is printed, with its heading
    assert sum(1 for line in out.splitlines() if line.startswith(f"{deals}, game ")) == done


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="child processes are found in /proc")
def test_validate_jobs_2_reports_a_killed_worker_and_the_games_checked(tmp_path):
    big = tmp_path / "big.dpn"
    gen = subprocess.run([sys.executable, "-m", "dehlanote", "generate", "--games", "2500", "--seed", "4",
                          "-o", str(big)], env=ENV, capture_output=True, text=True, timeout=300)
    assert gen.returncode == 0, gen.stderr
    # (8 copies, 20,000 games: with the workers reading byte ranges, 2,500 games were checked
    # before the test could see a worker)
    big.write_bytes(big.read_bytes().rstrip(b"\n") + b"\n\n" + (big.read_bytes().rstrip(b"\n") + b"\n\n") * 7)
    process = subprocess.Popen([sys.executable, "-m", "dehlanote", "validate", "--jobs", "2", str(big)], env=ENV,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        kill_a_worker(process, lambda line: "resource_tracker" not in line and "dehlanote" in line)
        out, err = process.communicate(timeout=300)
    finally:
        process.kill()
    assert "Traceback" not in err and "BrokenProcessPool" not in err, err
    assert process.returncode == 2, err
    lines = [line for line in err.splitlines() if "worker process was lost" in line]
    assert len(lines) == 1 and lines[0].startswith(f"dehlanote: stopped checking {big}: "), err
    checked = int(lines[0].split(" after ")[1].split(" games")[0])
    assert 0 <= checked < 20000
    assert f"{checked} game" in out or f"{checked:,} game" in out      # the summary counts what was checked
