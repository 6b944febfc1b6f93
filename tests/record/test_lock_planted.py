"""Something planted where a lock file goes (a link, a folder, a FIFO at ``.NAME.lock``) is named
in the refusal: the recorder said "cannot record into g.dpn: it is a symbolic link" of a record
that was no link, and db build "cannot write beside it: is a directory", never saying which file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def plant(path: Path, kind: str) -> None:
    if kind == "link":
        path.symlink_to("/etc/hostname")
    elif kind == "hard link":
        # another file of the user's, linked at the lock's name: the lock was written into it
        victim = path.with_name("precious.dpn")
        victim.write_bytes((ROOT / "samples" / "match.dpn").read_bytes())
        os.link(victim, path)
    elif kind == "folder":
        path.mkdir()
    else:
        os.mkfifo(path)


WHAT = {"link": "it is a symbolic link", "folder": "it is a directory", "fifo": "it is a FIFO, not a regular file",
        "hard link": "it is a hard link to another file"}


def untouched(folder: Path, kind: str) -> None:
    if kind == "hard link":
        victim = folder / "precious.dpn"
        assert victim.read_bytes() == (ROOT / "samples" / "match.dpn").read_bytes()
        assert victim.stat().st_mode & 0o777 != 0o600


@pytest.mark.parametrize("kind", ["link", "folder", "fifo", "hard link"])
def test_the_recorder_names_the_lock_file_in_the_way(tmp_path: Path, kind: str) -> None:
    plant(tmp_path / ".g.dpn.lock", kind)
    done = subprocess.run([sys.executable, "-m", "dehlanote", "record", "g.dpn", "--names", "a,b,c,d", "--dealer",
                           "D", "--no-sync"], input="quit\n", capture_output=True, text=True, env=env(), timeout=60,
                          cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"dehlanote: cannot record into g.dpn: the lock file beside it, .g.dpn.lock, is "
                                   f"taken by something else ({WHAT[kind]}): remove .g.dpn.lock if you did not "
                                   f"make it")
    assert not (tmp_path / "g.dpn").exists()
    untouched(tmp_path, kind)


@pytest.mark.parametrize("kind", ["link", "folder", "fifo", "hard link"])
def test_db_build_names_the_lock_file_in_the_way(tmp_path: Path, kind: str) -> None:
    pytest.importorskip("duckdb")
    plant(tmp_path / ".club.duckdb.lock", kind)
    done = subprocess.run([sys.executable, "-m", "dehlanote", "db", "build", str(ROOT / "samples" / "match.dpn"),
                           "-o", "club.duckdb"], capture_output=True, text=True, env=env(), timeout=120, cwd=tmp_path)
    assert done.returncode == 2
    assert (f"the lock file beside it, .club.duckdb.lock, is taken by something else ({WHAT[kind]}): remove "
            f".club.duckdb.lock if you did not make it") in done.stderr, done.stderr
    assert not (tmp_path / "club.duckdb").exists()
    untouched(tmp_path, kind)
