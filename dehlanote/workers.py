"""Worker processes, started and stopped one way: what ``validate --jobs``, ``db build --jobs``,
``solve --jobs`` and ``review --jobs`` share.

:func:`worker_pool` gives a :class:`concurrent.futures.ProcessPoolExecutor` for a block, and
ends it whatever ends the block:

* the block **finished**: every result was taken, the workers are idle; they are told to
  stop and waited for (a moment);
* **anything else** (Ctrl-C, a stop signal turned into an exit, an error, a generator
  closed before its end, a worker lost): the work still queued is cancelled and the workers
  are terminated at once, without waiting for the work they are on (nobody wants it).
  Stopping is done with Ctrl-C, SIGTERM and SIGHUP held back, so that a second Ctrl-C
  cannot land half-way through it; held back, it lands right after.

Before this module each command ended its pool its own way: ``validate`` waited for the
ranges the workers were reading, and a Ctrl-C that landed while its reports were being
taken left the pool to the interpreter's exit, where it could wait forever on workers that
had been told nothing (seen once in 150 runs with the Ctrl-C timed near the end of the
work).
"""

from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

__all__ = ["STOPS", "abandon", "stops_held", "worker_pool"]

#: the signals a command turns into a stop (Ctrl-C; termination and hang-up in the recorder,
#: the stepper and the safe writer)
STOPS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


@contextmanager
def stops_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP held back inside the block; one sent meanwhile lands as the
    block ends. (Outside the main thread, or without ``pthread_sigmask``: nothing held.)"""
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    except (AttributeError, ValueError, OSError):     # pragma: no cover - not POSIX
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextmanager
def worker_pool(jobs: int, mp_context: Any = None, initializer: Optional[Callable[..., None]] = None,
                initargs: tuple = ()) -> Iterator["ProcessPoolExecutor"]:
    """A pool of ``jobs`` worker processes for the block, stopped as the module says."""
    from concurrent.futures import ProcessPoolExecutor     # (loaded only by a command that uses it)

    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=mp_context, initializer=initializer,
                               initargs=initargs)
    try:
        yield pool
        pool.shutdown(wait=True, cancel_futures=True)   # (a Ctrl-C landing in this wait: abandoned too)
    except BaseException:
        abandon(pool)
        raise


def abandon(pool: "ProcessPoolExecutor", wait: float = 10.0) -> None:
    """Stop a pool now: the work not started is cancelled, and the workers are terminated
    (SIGTERM) without waiting for what they are doing; then the pool's own thread, which sees
    them gone, is given up to ``wait`` seconds to end."""
    with stops_held():
        # (private attributes, as the standard library's own terminate_workers, new in
        # Python 3.14, reads them: they must be taken before shutdown forgets them)
        processes = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            try:
                if process.is_alive():
                    process.terminate()
            except (ValueError, OSError):    # closed, or ended meanwhile
                pass
    # Left running, that thread raced the interpreter's exit, which wakes it through a pipe
    # the thread may be closing: "Exception ignored in: <module 'threading'> ... OSError"
    # printed after a Ctrl-C (seen once in 300 runs). Not held: a second Ctrl-C ends the wait.
    if manager is not None:
        manager.join(wait)
