"""A lock file left by another user's process that was killed (``kill -9``: the file stays, its
``flock`` went with the process) does not block the next user for good: it is opened read-only
(an ``flock`` needs no more) and taken. It was opened for writing only, refused ("permission
denied"), and no one but its owner could record into the file or build the database again.
Needs root (to make the other user's file) and a Python that user can run: skipped otherwise."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = "/usr/bin/python3"


def _as_nobody(code: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["su", "nobody", "-s", "/bin/sh", "-c", f"{PYTHON} -c '{code}'"], cwd=cwd,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                          timeout=60)


@pytest.fixture
def shared() -> Iterator[Path]:
    if os.geteuid() != 0 or shutil.which("su") is None or not os.path.exists(PYTHON):
        pytest.skip("needs root, su and a system Python")
    # (pytest's own temporary folders are root's only: the other user could not reach this one)
    folder = Path(tempfile.mkdtemp(prefix="dehlanote-shared-", dir="/tmp"))
    try:
        os.chmod(folder, 0o777)       # a folder the club shares
        probe = _as_nobody("import dehlanote.lockfile", folder)
        if probe.returncode != 0:
            pytest.skip(f"the other user cannot run the package here: {probe.stderr[-200:]}")
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_lock_left_by_another_users_killed_process_is_taken(shared: Path) -> None:
    old = os.umask(0o077)       # (made under a strict umask: still readable by others)
    try:
        from dehlanote.lockfile import FileLock
        mine = FileLock(shared / "club.duckdb", "dehlanote db build club.duckdb")
        mine.acquire()
        os.close(mine._fd)      # as kill -9 leaves it: the file stays, the lock is gone
        mine._fd = None
    finally:
        os.umask(old)
    lock = shared / ".club.duckdb.lock"
    assert lock.exists() and lock.stat().st_uid == 0 and lock.stat().st_mode & 0o044
    done = _as_nobody("from dehlanote.lockfile import FileLock; f = FileLock(\"club.duckdb\", \"x\"); "
                      "f.acquire(); print(f.held); f.release()", shared)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
    assert not lock.exists()


def test_a_lock_another_user_holds_is_still_refused(shared: Path) -> None:
    from dehlanote.lockfile import FileLock
    with FileLock(shared / "club.duckdb", "dehlanote db build club.duckdb"):
        done = _as_nobody("from dehlanote.lockfile import Busy, FileLock\n"
                          "try:\n    FileLock(\"club.duckdb\", \"x\").acquire()\nexcept Busy as e:\n"
                          "    print(\"busy\", e.holder)", shared)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"busy {os.getpid()} dehlanote db build"), done.stdout
