"""The console script: quiet on Ctrl-C even while the program is still loading."""

from __future__ import annotations

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
