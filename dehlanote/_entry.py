"""The console script: quiet on Ctrl-C even while the program is still loading."""

from __future__ import annotations

import atexit
import os
import signal
import sys
from typing import Optional


#: the command line being run, read by :mod:`dehlanote.cli` as it loads: it then imports
#: only the module of the command named (start-up time), not every command's
launching: Optional[list[str]] = None


def main() -> None:
    global launching
    # until the command line installs its own handling, Ctrl-C ends quietly (status 130)
    signal.signal(signal.SIGINT, lambda *_: os._exit(130))
    # registered first, so run last at exit: after it the interpreter only tears itself down,
    # and it first puts back the system's default for SIGINT, under which a Ctrl-C landing in
    # those last milliseconds killed the process by the signal (seen in about 1 run in 20 with
    # the Ctrl-C timed at the end of validate --jobs 2)
    atexit.register(signal.signal, signal.SIGINT, signal.SIG_IGN)
    sys.unraisablehook = _stop_again
    launching = sys.argv[1:]
    if launching in (["--version"], ["-V"]) and _version():
        return
    if launching[:1] in (["validate"], ["json"]) and "_DEHLANOTE_COMPLETE" not in os.environ:
        # a plain validate FILE... or json FILE... without building the Typer app (see dehlanote._launch)
        from . import _launch
        run = getattr(_launch, "direct_" + launching[0])(launching[1:])
        if run is not None:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            _launch.guarded(run)
            return
    recorder = None
    if launching in (["--help"], ["-h"]):
        # the list of commands as the last run wrote it, when nothing it depends on changed
        from .helpcache import serve
        recorder = serve(launching)
    from .cli import main as cli_main
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if recorder is None:
        cli_main()
        return
    recorder.start()
    try:
        cli_main()
    except SystemExit as exc:
        if exc.code in (0, None):
            recorder.keep()
        raise
    finally:
        recorder.stop()


def _stop_again(info: "sys.UnraisableHookArgs") -> None:
    """A stop (Ctrl-C, or a hang-up or termination a command turns into an exception) that lands
    while Python runs code that cannot pass an exception on (a weak reference's callback while
    a module loads, an object's finaliser) is dropped there, with "Exception ignored in ...
    KeyboardInterrupt" and a traceback printed, and the program goes on as if nothing was
    asked (the recorder kept waiting for the next line). It is sent again instead, to land in
    the program's own code: the program stops as asked, and nothing is printed. Any other
    exception there is told as Python tells it."""
    exc = info.exc_value
    signum = signal.SIGINT if isinstance(exc, KeyboardInterrupt) else getattr(exc, "signum", None)
    dropped = _dropped_stop(exc)
    if dropped is not None:
        # a stop that came with another one, left for after it, and meanwhile set to be
        # ignored (the recorder ignores every stop after the first): Python says so with a
        # traceback ("Signal 15 ignored due to race condition"); ignored, as asked, and unsaid
        if signal.getsignal(dropped) == signal.SIG_IGN:
            return
        signum = dropped
    if not isinstance(signum, int):
        sys.__unraisablehook__(info)
        return
    import threading
    if isinstance(exc, BaseException) and dropped is None:
        _raise_again_on(signum, exc)
    # sent from here, its handler would run inside this hook, where the exception is dropped
    # again: sent a moment later to the main thread (where a read it waits in is interrupted);
    # landing in such a place again, it comes back here and is sent again
    later = threading.Timer(0.05, signal.pthread_kill, (threading.main_thread().ident, signum))
    later.daemon = True
    try:
        later.start()
    except RuntimeError:        # the interpreter is shutting down: nothing left to stop
        pass


def _raise_again_on(signum: int, exc: BaseException) -> None:
    """Where the program set the stops to be ignored as it acted on this one (the recorder acts
    on the first stop only), the stop sent again would be ignored too, and the program would go
    on as if never asked (a program whose Ctrl-C handler ignores the later stops, its
    KeyboardInterrupt raised inside a finaliser, went on to its end; the recorder was once seen
    waiting for the next line after a Ctrl-C and a SIGTERM sent together on a busy machine).
    The next such signal then raises this very exception again, once."""
    try:
        if signal.getsignal(signum) != signal.SIG_IGN:
            return

        def again(num: int, _frame: object) -> None:
            signal.signal(num, signal.SIG_IGN)
            raise exc

        signal.signal(signum, again)
    except (ValueError, OSError):       # pragma: no cover - not the main thread
        pass


def _dropped_stop(exc: Optional[BaseException]) -> Optional[int]:
    """The stop Python dropped because its handler was put back or set to ignore between
    its coming and the moment its handler was due (Python's own words, as of 3.8 to 3.13)."""
    if type(exc) is not OSError or len(exc.args) != 1 or not isinstance(exc.args[0], str):
        return None
    words = exc.args[0].split()
    if len(words) != 7 or words[0] != "Signal" or " ".join(words[2:]) != "ignored due to race condition":
        return None
    stops = (signal.SIGHUP, signal.SIGINT, signal.SIGTERM)
    return int(words[1]) if words[1].isdigit() and int(words[1]) in stops else None


def _version() -> bool:
    """``dehlanote --version`` without loading the command line (its libraries and every
    command's modules took about 160 ms): the same line as the Typer option prints; False
    when standard output is closed (the command line says so, exit 2)."""
    if sys.stdout is None:
        return False
    try:
        os.fstat(1)
    except OSError:
        return False
    from .version import __version__
    try:
        sys.stdout.write(f"dehlanote {__version__}\n")
        sys.stdout.flush()
    except OSError as exc:
        from .files import silence
        silence(1)      # (so that the flush at exit cannot fail again)
        if isinstance(exc, BrokenPipeError):
            sys.exit(1)
        print(f"dehlanote: cannot write the output: {(exc.strerror or str(exc)).lower()}", file=sys.stderr)
        sys.exit(2)
    return True
