"""The console script: quiet on Ctrl-C even while the program is still loading."""

from __future__ import annotations

import os
import signal


def main() -> None:
    # until the command line installs its own handling, Ctrl-C ends quietly (status 130)
    signal.signal(signal.SIGINT, lambda *_: os._exit(130))
    from .cli import main as cli_main
    signal.signal(signal.SIGINT, signal.default_int_handler)
    cli_main()
