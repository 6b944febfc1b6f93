"""The stop signals (Ctrl-C, SIGTERM, SIGHUP) where a stop must not cut work in half: held
back around the making of a file or the start of a worker, or turned into an exit that runs
the ``finally`` clauses. The safe writer (:mod:`dehlanote.files`), the worker pools
(:mod:`dehlanote.workers`), the recorder and the server use them."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator

__all__ = ["STOPS", "signal_exit", "signals_clean_up", "stops_held"]


def signal_exit(signum: int) -> SystemExit:
    """The exit a stop signal's handler raises: status 128 + the signal, and the signal kept
    (``signum``), so that the console script can send it again if Python drops the exit where
    it landed (see ``dehlanote._entry``)."""
    stop = SystemExit(128 + signum)
    stop.signum = signum  # type: ignore[attr-defined]
    return stop


@contextmanager
def signals_clean_up() -> Iterator[None]:
    """SIGTERM and SIGHUP raise SystemExit(128 + signal) inside the block, so that the
    ``finally`` clauses run (outside the main thread, handlers cannot be set: nothing done)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise signal_exit(signum)

    old = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            old[sig] = signal.signal(sig, handler)
        except (ValueError, OSError):   # pragma: no cover - not the main thread after all
            pass
    try:
        yield
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


#: the signals a command turns into a stop: Ctrl-C, and termination and hang-up (the recorder,
#: the stepper and this writer), held back where a stop must not land (see dehlanote.workers)
STOPS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
@contextmanager
def stops_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP held back inside the block; the first one sent meanwhile
    lands as the block ends.

    Two holds, as a signal reaches a process two ways. The stops are blocked in this thread,
    which a process it starts inherits (a spawned one too). And the stops Python handles (Ctrl-C;
    SIGTERM and SIGHUP where a command turned them into an exit) are noted, not acted on: the
    system delivers a signal blocked in one thread to another thread of the process (a
    progress bar's, a pool's), and Python then runs its handler in this thread all the
    same (a KeyboardInterrupt raised half-way through starting a worker, which printed
    "EOFError: Ran out of input"). Handlers are set only from the main thread: elsewhere only
    the first hold applies."""
    noted: list[tuple[int, Any]] = []
    handlers: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in STOPS:
            handler = signal.getsignal(sig)
            if callable(handler):
                handlers[sig] = handler
                signal.signal(sig, lambda signum, frame: noted.append((signum, frame)))
    try:
        try:
            # (the mask as it is, first: blocking acts on a stop that came just before only
            # once the mask is changed, which would leave the stops blocked)
            held = signal.pthread_sigmask(signal.SIG_BLOCK, ())
        except (AttributeError, ValueError, OSError):     # pragma: no cover - not POSIX
            held = None
        try:
            if held is not None:
                signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
            yield
        finally:
            if held is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
    finally:
        for stop, handler in handlers.items():
            signal.signal(stop, handler)
        if noted:
            signum, frame = noted[0]
            handlers[signum](signum, frame)
