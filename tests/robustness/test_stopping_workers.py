"""Stopping a command that runs worker processes: Ctrl-C ends it at once, whatever it was doing,
with status 130 (or the command's own status when it had finished), nothing printed, and no
worker left behind.

Each case runs in a fresh Python process (the harness below), so that what is checked is what
the console script does from its start to the very end of the interpreter's exit. A Ctrl-C is
timed into the moment it once went wrong in, by raising it where it would land:

* while ``validate --jobs 2``'s reports are being taken (the pool was left to the
  interpreter's exit, which could wait for ever on workers told nothing);
* while a worker is busy with a long piece of work (the pool waited for it);
* in the last milliseconds of the exit, after Python has put back the system's default for
  SIGINT (the process was killed by the signal).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "worked-example.dpn"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def harness(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=ENV, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def big_record(tmp_path: Path, mistake: bool = False) -> Path:
    """3 MB of games, each with a mistake (a card played twice in the last trick) if asked."""
    game = SAMPLE.read_bytes() + b"\n"
    if mistake:
        game = game.replace(b"13 D: 6D 9H 6S 8C", b"13 D: 6D 9H 6S 6S")
    path = tmp_path / "big.dpn"
    path.write_bytes(game * (3 * (1 << 20) // len(game)))
    return path


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signals")
def test_ctrl_c_while_reports_are_taken_leaves_no_worker_running(tmp_path):
    # the Ctrl-C lands in the code that takes the reports (here: as the first error is told),
    # not in the pool's: the workers must be stopped there, not at the interpreter's exit
    run = harness(f"""
        import multiprocessing
        from dehlanote.batch.check import check_file
        from dehlanote.batch.profiles import load_registry

        def ctrl_c(error):
            assert error.code == "duplicate-card", error.code
            raise KeyboardInterrupt

        try:
            check_file({str(big_record(tmp_path, mistake=True))!r}, load_registry(()), jobs=2, on_error=ctrl_c)
        except KeyboardInterrupt:
            print("stopped; workers still running:", len(multiprocessing.active_children()))
        """)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "stopped; workers still running: 0"
    assert run.stderr == ""


def test_a_pool_stopped_early_does_not_wait_for_the_work_its_workers_are_on():
    # a worker busy for ten minutes: leaving the block by an exception (Ctrl-C) terminates it
    run = harness("""
        import time
        from dehlanote.workers import worker_pool

        try:
            with worker_pool(2) as pool:
                busy = [pool.submit(time.sleep, 600) for _ in range(3)]
                time.sleep(0.5)         # (the workers have taken their work)
                raise KeyboardInterrupt
        except KeyboardInterrupt:
            print("stopped:", {type(f.exception(timeout=0)).__name__ for f in busy})
        """, timeout=60)
    assert run.returncode == 0, run.stderr
    # every piece of work ended at once, without its result (the ten minutes not waited for)
    assert run.stdout.strip() == "stopped: {'BrokenProcessPool'}", run.stdout
    assert run.stderr == ""


def test_a_pool_that_finished_gives_every_result():
    run = harness("""
        from dehlanote.workers import worker_pool

        with worker_pool(2) as pool:
            squares = list(pool.map(pow, range(50), [2] * 50))
        print(sum(squares))
        """)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(sum(n * n for n in range(50)))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_in_the_last_moments_of_the_exit_keeps_the_commands_status(tmp_path, jobs):
    # an object torn down with the modules, after Python put back SIGINT's default action,
    # sends the Ctrl-C: the command had finished, so its status (0) stands, nothing printed
    record = big_record(tmp_path) if jobs == "2" else SAMPLE
    run = harness(f"""
        import os, signal, sys, types

        class CtrlCAtTheEnd:
            def __del__(self, kill=os.kill, pid=os.getpid(), ctrl_c=signal.SIGINT):
                kill(pid, ctrl_c)

        # (a module of its own: the script's globals outlive the exit of a script that ends in
        # SystemExit, and would never be torn down)
        sys.modules["ctrl_c_at_the_end"] = types.ModuleType("ctrl_c_at_the_end")
        sys.modules["ctrl_c_at_the_end"].late = CtrlCAtTheEnd()
        sys.argv = ["dehlanote", "validate", "--jobs", {jobs!r}, "--force-jobs", {str(record)!r}]
        from dehlanote._entry import main
        main()
        """)
    assert run.returncode == 0, (run.returncode, run.stderr)
    assert "valid" in run.stdout
    assert run.stderr == ""
