"""Worker processes, started and stopped one way: what ``validate --jobs``, ``db build --jobs``,
``solve --jobs`` and ``review --jobs`` share.

:func:`worker_pool` gives a :class:`concurrent.futures.ProcessPoolExecutor` for a block.

**Starting.** A Ctrl-C at a terminal goes to every process of the command, its workers
included; it is the parent's to handle (it stops the pool), so a worker ignores it. A worker
is started (forked, or spawned as a new Python) with Ctrl-C, SIGTERM and SIGHUP held back, and
its first step sets Ctrl-C aside before it lets them through: a Ctrl-C can never land while
it starts. Before, a Ctrl-C that reached a spawned worker while its Python was still
starting printed a traceback ("Fatal Python error: init_import_site", or a KeyboardInterrupt
in ``spawn_main``), 4 times in 60 runs of ``solve --jobs 2`` stopped in its first half second.
A SIGTERM sent meanwhile lands as that first step ends: the worker is terminated.

**Stopping**, whatever ends the block:

* the block **finished**: every result was taken, the workers are idle; they are told to
  stop and waited for (a moment);
* **anything else** (Ctrl-C, a stop signal turned into an exit, an error, a generator
  closed before its end, a worker lost): the work still queued is cancelled and the workers
  are terminated at once, without waiting for the work they are on (nobody wants it). This
  is done with the stops held back, so that a second Ctrl-C cannot land half-way through
  it; held back, it lands right after.

Before this module each command ended its pool its own way: ``validate`` waited for the
ranges the workers were reading, and a Ctrl-C that landed while its reports were being
taken left the pool to the interpreter's exit, where it could wait forever on workers that
had been told nothing (seen once in 150 runs with the Ctrl-C timed near the end of the
work).
"""

from __future__ import annotations

import signal
import time
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

from .stops import STOPS, stops_held

__all__ = ["worker_pool"]


def _start(initializer: Optional[Callable[..., None]], initargs: tuple) -> None:
    """A worker's first step (it starts with the stops held back, see :class:`_Pool`): Ctrl-C
    ignored, and termination and hang-up end it, whatever a forked worker took over from its
    parent's handlers (abandoning a pool terminates its workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # (a Ctrl-C held back meanwhile is dropped)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    except (AttributeError, ValueError, OSError):     # pragma: no cover - not POSIX
        pass
    if initializer is not None:
        initializer(*initargs)


class _Pool(ProcessPoolExecutor):
    """A pool whose workers start with the stops held back: the standard pool starts its
    workers inside ``submit`` (``map`` calls it), in the calling thread, and a new process
    takes that thread's held-back signals with it, across a spawn's new Python too."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        with stops_held():
            return super().submit(fn, *args, **kwargs)


@contextmanager
def worker_pool(jobs: int, mp_context: Any = None, initializer: Optional[Callable[..., None]] = None,
                initargs: tuple = ()) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` worker processes for the block, started and stopped as the module
    says; each worker runs ``initializer(*initargs)`` first (a module-level function when the
    workers are spawned)."""
    if mp_context is not None and mp_context.get_start_method() != "fork":
        # a spawned worker needs Python's resource tracker, started with the first worker if
        # not before; starting it, Python lets Ctrl-C and SIGTERM through (it unblocks them
        # where it should put back what was held), so a Ctrl-C landed while the first worker
        # was being handed its work, and that worker printed "EOFError: Ran out of input"
        from multiprocessing import resource_tracker
        resource_tracker.ensure_running()
    pool = _Pool(max_workers=jobs, mp_context=mp_context, initializer=_start, initargs=(initializer, initargs))
    try:
        yield pool
        pool.shutdown(wait=True, cancel_futures=True)   # (a Ctrl-C landing in this wait: abandoned too)
    except BaseException:
        _abandon(pool)
        raise


def _abandon(pool: ProcessPoolExecutor, wait: float = 10.0) -> None:
    """Stop a pool now: the work not started is cancelled, and the workers are terminated
    (SIGTERM; SIGKILL for one still there after ``wait`` seconds) without waiting for what
    they are doing; then the pool's own thread, which sees them gone, is given up to ``wait``
    seconds to end. A second Ctrl-C cuts the waits short, never the clean-up."""
    # (private attributes, as the standard library's own terminate_workers, new in Python
    # 3.14, reads them: they must be taken before shutdown forgets them)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    results = getattr(pool, "_result_queue", None)
    deadline = time.monotonic() + wait
    try:
        with stops_held():
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                try:
                    if process.is_alive():
                        process.terminate()
                except (ValueError, OSError):    # closed, or ended meanwhile
                    pass
        for process in processes:
            try:
                process.join(max(0.0, deadline - time.monotonic()))
                if process.is_alive():
                    process.kill()
                    process.join(1.0)
            except (ValueError, OSError):
                pass
    finally:
        # A worker terminated while it was sending its result (db build's are large) left part
        # of it in the pipe, and the pool's thread waited for the rest for ever (2 runs in 60
        # of db build --jobs 2 stopped with Ctrl-C). With every worker gone, this process holds
        # the pipe's last writing end: closed, the wait ends (the thread then ends the pool as
        # broken).
        if results is not None:
            try:
                results._writer.close()
            except (AttributeError, OSError):
                pass
    # Left running, that thread raced the interpreter's exit, which wakes it through a pipe
    # the thread may be closing: "Exception ignored in: <module 'threading'> ... OSError"
    # printed after a Ctrl-C (seen twice in 700 runs).
    if manager is not None:
        manager.join(max(0.0, deadline - time.monotonic()))
