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
    if not isinstance(signum, int):
        sys.__unraisablehook__(info)
        return
    import threading
    # sent from here, its handler would run inside this hook, where the exception is dropped
    # again: sent a moment later to the main thread (where a read it waits in is interrupted);
    # landing in such a place again, it comes back here and is sent again
    later = threading.Timer(0.05, signal.pthread_kill, (threading.main_thread().ident, signum))
    later.daemon = True
    try:
        later.start()
    except RuntimeError:        # the interpreter is shutting down: nothing left to stop
        pass


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
