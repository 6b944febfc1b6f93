"""Shared by the serve tests: a real server in a subprocess, bound to 127.0.0.1, always stopped."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "samples" / "worked-example.dpn"


@contextmanager
def running(folder: Path, *args: str, timeout: float = 20.0) -> Iterator[tuple[subprocess.Popen, str]]:
    """``dehlanote serve folder --host 127.0.0.1 --port 0 args``: the process and its printed URL."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "dehlanote", "serve", str(folder), "--host", "127.0.0.1",
                             "--port", "0", "--no-sync", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    try:
        url = read_url(proc, timeout)
        yield proc, url
    finally:
        stop(proc)


def read_url(proc: subprocess.Popen, timeout: float) -> str:
    assert proc.stdout is not None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            line = proc.stdout.readline()
            if line.startswith("http://"):
                return line.strip()
            if not line:
                break
        if proc.poll() is not None:
            break
    err = proc.stderr.read() if proc.stderr is not None and proc.poll() is not None else ""
    raise AssertionError(f"the server printed no URL: {err}")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
