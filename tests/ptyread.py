"""Everything a program writes to a pseudo terminal, read one way in every test that needs it."""

from __future__ import annotations

import os
import select
import subprocess
import time


def read_all(master: int, proc: subprocess.Popen, seconds: float = 120, keys: bytes = b"") -> bytes:
    """What ``proc`` writes to the pseudo terminal whose master end is ``master`` (the slave end
    already closed here), until the terminal closes, the process ends with nothing left to read,
    or ``seconds`` pass; then ``master`` is closed and the process waited for. ``keys``: typed
    once, when the program has written something and is waiting."""
    out = b""
    sent = False
    deadline = time.time() + seconds
    while time.time() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:           # Linux: the slave end closed
                break
            if not data:
                break
            out += data
        elif keys and not sent and out:
            os.write(master, keys)
            sent = True
        elif proc.poll() is not None:
            break
    os.close(master)
    proc.wait(timeout=60)
    return out
