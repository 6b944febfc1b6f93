"""One ``db build`` of a database at a time: a second one started while the first runs is
refused (``locked``) instead of both saying "built" and the later rename silently losing the
other's work; a lock left by a build that died holds nothing."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from db_helpers import ROOT, run  # noqa: E402

SAMPLE = str(ROOT / "samples" / "match.dpn")


def _games(db: Path) -> str:
    code, out, err = run("db", "query", str(db), "select count(*) as n from games", "--format", "csv")
    assert code == 0, err
    return out


def test_a_build_while_another_builds_the_same_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert run("db", "build", SAMPLE, "-o", str(db))[0] == 0
    before = db.read_bytes()
    lock = tmp_path / ".club.duckdb.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)       # another build, holding the database
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, b"4242 dehlanote db build club.duckdb\n")
        code, _, err = run("db", "build", SAMPLE, *[str(p) for p in sorted((ROOT / "samples").glob("*.dpn"))[:3]],
                           "-o", str(db))
    finally:
        os.close(fd)
    assert code == 2, err
    assert err.startswith(f"dehlanote: locked: {db}: another dehlanote db build is building this database "
                          f"(process 4242)"), err
    assert "Traceback" not in err
    assert db.read_bytes() == before


def test_a_link_to_the_database_is_held_by_the_same_lock(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    link = tmp_path / "link.duckdb"
    link.symlink_to(db.name)
    lock = tmp_path / ".club.duckdb.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        code, _, err = run("db", "build", SAMPLE, "-o", str(link))
    finally:
        os.close(fd)
    assert code == 2 and "locked:" in err, err
    assert not db.exists()


def test_a_lock_left_by_a_build_that_died_does_not_block(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    (tmp_path / ".club.duckdb.lock").write_text("999999 dehlanote db build club.duckdb\n")   # (killed: no flock)
    code, _, err = run("db", "build", SAMPLE, "-o", str(db))
    assert code == 0, err
    assert _games(db) != ""
    assert not (tmp_path / ".club.duckdb.lock").exists()      # removed by the build that held it
