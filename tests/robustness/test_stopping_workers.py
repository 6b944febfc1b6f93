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
  SIGINT (the process was killed by the signal);
* while spawned workers are still starting their Python (each printed a traceback);
* while a worker sends a large result (the pool waited for the rest of it for ever);
* while DuckDB runs a query (its "Query interrupted" came out as a traceback).
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


def test_a_forked_worker_ends_on_termination_whatever_its_parent_handled():
    # a command that turns SIGTERM into an exit (the safe writer, the recorder) hands that
    # handling down to the workers it forks; abandoning the pool terminates them (SIGTERM),
    # and each must end then, not only when it is killed 10 s later
    run = harness("""
        import multiprocessing, signal, sys, time
        from dehlanote.workers import worker_pool

        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
        try:
            with worker_pool(2, multiprocessing.get_context("fork")) as pool:
                busy = [pool.submit(time.sleep, 600) for _ in range(2)]
                time.sleep(0.5)
                workers = multiprocessing.active_children()
                raise KeyboardInterrupt
        except KeyboardInterrupt:
            print("ended by:", sorted({w.exitcode for w in workers}))
        """, timeout=60)
    assert run.stdout.strip() == f"ended by: [{-signal.SIGTERM}]", run.stdout + run.stderr


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


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="child processes are found in /proc")
def test_ctrl_c_while_spawned_workers_start_prints_nothing():
    # as a terminal does, the Ctrl-C goes to the whole group, sent as soon as a worker exists
    # (its Python is then starting); the harness runs in a session of its own, and its thread
    # that sends the Ctrl-C may be the one the system gives it to
    run = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import os, signal, threading, time
        from dehlanote.commands.dealpool import run_deals

        def worker_started():
            me = os.getpid()
            with open(f"/proc/{me}/task/{me}/children") as f:
                for child in f.read().split():
                    try:
                        with open(f"/proc/{child}/cmdline", "rb") as c:
                            if b"spawn_main" in c.read():     # (not Python's resource tracker)
                                return True
                    except OSError:
                        pass
            return False

        def ctrl_c_once_a_worker_starts():
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not worker_started():
                time.sleep(0.001)
            os.killpg(os.getpgid(0), signal.SIGINT)

        threading.Thread(target=ctrl_c_once_a_worker_starts, daemon=True).start()
        try:
            run_deals("solving", [2.0] * 4, time.sleep, lambda item, step: None, str, jobs=2)
        except KeyboardInterrupt:
            print("stopped")
        """)], env=ENV, capture_output=True, text=True, timeout=120, cwd=ROOT, start_new_session=True)
    assert run.stdout.strip() == "stopped", (run.returncode, run.stdout, run.stderr)
    assert run.stderr == ""


def test_a_pool_stopped_while_a_worker_sends_a_large_result_does_not_hang():
    # a 400 MB result takes a while to go through the pipe: the worker is terminated half-way
    run = harness("""
        import time
        from dehlanote.workers import worker_pool

        try:
            with worker_pool(1) as pool:
                big = pool.submit(bytes, 400_000_000)
                time.sleep(1.0)
                raise KeyboardInterrupt
        except KeyboardInterrupt:
            print("stopped:", big.done())
        """, timeout=90)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "stopped: True", run.stdout
    assert run.stderr == ""


def test_ctrl_c_while_duckdb_reads_rows_from_python_is_the_ctrl_c():
    # db build hands DuckDB its rows as Arrow data read from Python: a Ctrl-C landing there came
    # out as DuckDB's "Invalid Input Error: ... KeyboardInterrupt" (and db build said the database
    # was not one); in a query, as "RuntimeError: Query interrupted" (a traceback)
    pytest.importorskip("duckdb")
    run = harness("""
        import os, signal, threading, time
        import duckdb, pyarrow as pa
        from dehlanote.db import ctrl_c_told

        def batches():
            for n in range(3000):
                time.sleep(0.01)
                yield pa.record_batch([pa.array(range(100))], names=["n"])

        rows = pa.RecordBatchReader.from_batches(pa.schema([("n", pa.int64())]), batches())
        con = duckdb.connect()
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            with ctrl_c_told():
                con.execute("select sum(n) from rows").fetchall()
            print("finished")
        except KeyboardInterrupt:
            print("Ctrl-C")
        except Exception as exc:
            print("error:", type(exc).__name__, exc)
        """)
    assert run.stdout.strip() == "Ctrl-C", run.stdout + run.stderr


def test_a_held_ctrl_c_that_another_thread_receives_lands_only_as_the_hold_ends():
    # the hold under the safe writer's temporary files and a pool's starting workers: the
    # system gives a signal blocked in one thread to another, and Python then ran its handler
    # in the held thread all the same, half-way through what was held
    run = harness("""
        import os, signal, threading, time
        from dehlanote.stops import stops_held

        # a thread started before the hold (a thread takes the blocked signals of the thread
        # that starts it): the system gives it the Ctrl-C, blocked where the hold is
        go = threading.Event()

        def send():
            go.wait()
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1.0)

        threading.Thread(target=send, daemon=True).start()
        steps = []
        try:
            with stops_held():
                go.set()
                time.sleep(0.3)         # (Python runs a pending handler between two steps)
                steps.append("held to the end")
            steps.append("not stopped")
        except KeyboardInterrupt:
            steps.append("stopped after it")
        print(steps)
        """)
    assert run.stdout.strip() == "['held to the end', 'stopped after it']", run.stdout + run.stderr


@pytest.mark.parametrize("ignored_after", [True, False])
def test_a_stop_python_drops_in_a_finaliser_still_stops_the_program(ignored_after):
    # Python drops an exception raised inside a finaliser. The console script's hook sends the
    # stop again; but a program that ignores every stop after the first (the recorder) ignored
    # the one sent again too, and went on to its end ("went on")
    run = harness(f"""
        import os, signal, sys, time
        from dehlanote import _entry

        sys.unraisablehook = _entry._stop_again      # as the console script sets it

        def on_stop(signum, frame):
            if {ignored_after}:
                for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                    signal.signal(s, signal.SIG_IGN)
            raise KeyboardInterrupt

        signal.signal(signal.SIGINT, on_stop)

        class Finalised:
            def __del__(self):
                os.kill(os.getpid(), signal.SIGINT)
                for _ in range(1000):       # the handler runs here, and its exception is dropped
                    pass

        try:
            Finalised()
            end = time.monotonic() + 5
            while time.monotonic() < end:
                time.sleep(0.01)
            print("went on")
        except KeyboardInterrupt:
            print("stopped")
        """, timeout=60)
    assert run.stdout.strip() == "stopped", run.stdout + run.stderr
    assert run.stderr == ""
