"""db build's output follows the package's write rules (links, read-only files, FIFOs), and
db build and db query say each failure with its own code (a lock, a full disk, a bad size,
binary input), never "not-a-database" for what is not about the database."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

duckdb = pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from db_helpers import run  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WORKED = str(ROOT / "samples" / "worked-example.dpn")
OTHER = str(ROOT / "samples" / "hukum-match.dpn")


def files_in(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("select count(*) from files").fetchall()[0][0]
    finally:
        con.close()


def test_a_link_to_a_database_is_built_through_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.duckdb"
    assert run("db", "build", WORKED, "-o", str(real), "-j", "1")[0] == 0
    link = tmp_path / "link.duckdb"
    link.symlink_to("real.duckdb")
    code, _, err = run("db", "build", WORKED, OTHER, "-o", str(link), "-j", "1")
    assert code == 0, err
    assert err.startswith(f"{link}: 2 files (1 read, 1 unchanged, 0 removed)"), err
    assert link.is_symlink() and os.readlink(link) == "real.duckdb"      # the link kept, pointing at
    assert files_in(real) == 2                                            # the database brought up to date
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.duckdb", "real.duckdb"]   # no scratch left
    # a link to nothing yet: the database is made where it points
    dangling = tmp_path / "new.duckdb"
    dangling.symlink_to("made.duckdb")
    assert run("db", "build", WORKED, "-o", str(dangling), "-j", "1")[0] == 0
    assert dangling.is_symlink() and files_in(tmp_path / "made.duckdb") == 1


def test_a_read_only_database_is_refused_without_force(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert run("db", "build", WORKED, "-o", str(db), "-j", "1")[0] == 0
    db.chmod(0o444)
    before = db.read_bytes()
    code, _, err = run("db", "build", WORKED, OTHER, "-o", str(db), "-j", "1")
    assert code == 2 and err == (f"dehlanote: read-only: {db}: the database is read-only: it is left as it is "
                                 f"(--force replaces it all the same)\n"), err
    assert db.read_bytes() == before
    code, _, err = run("db", "build", WORKED, OTHER, "-o", str(db), "-j", "1", "--force")
    assert code == 0, err
    assert files_in(db) == 2 and stat.S_IMODE(db.stat().st_mode) == 0o444       # replaced, still read-only


def test_a_fifo_is_never_taken_for_a_database(tmp_path: Path) -> None:
    fifo = tmp_path / "p.duckdb"
    os.mkfifo(fifo)
    for args in (("db", "build", WORKED, "-o", str(fifo), "-j", "1"), ("db", "query", str(fifo), "select 1")):
        # (in a process of its own, with a timeout: it used to wait on the FIFO for good)
        proc = subprocess.run([sys.executable, "-m", "dehlanote", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=30)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(f"dehlanote: not-a-database: {fifo}: it is a FIFO: a database is a regular file")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_database_held_by_another_program_is_said_to_be_locked(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert run("db", "build", WORKED, "-o", str(db), "-j", "1")[0] == 0
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time\n"
                               f"con = duckdb.connect({str(db)!r}); print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for args in (("db", "build", WORKED, OTHER, "-o", str(db), "-j", "1"), ("db", "query", str(db), "select 1")):
            code, _, err = run(*args)
            assert code == 2 and "Traceback" not in err, err
            assert err.startswith(f"dehlanote: locked: {db}: the database is in use by another program "
                                  f"(process {holder.pid}): try again once it has finished or closed it"), err
    finally:
        holder.kill()
        holder.wait()
    time.sleep(0.1)
    assert files_in(db) == 1


def test_a_full_disk_is_said_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dehlanote.db.build as build

    db = tmp_path / "club.duckdb"

    def duckdb_full(*args: object, **kwargs: object) -> None:
        raise duckdb.IOException(f'IO Error: Could not write file "{db}.wal": No space left on device')
    monkeypatch.setattr(build, "_update", duckdb_full)
    code, _, err = run("db", "build", WORKED, "-o", str(db), "-j", "1")
    assert code == 2 and err == (f"dehlanote: disk-full: {db}: the disk is full (no space left on device): free "
                                 f"some space and try again (the database is unchanged)\n"), err
    monkeypatch.undo()
    assert run("db", "build", WORKED, "-o", str(db), "-j", "1")[0] == 0
    before = db.read_bytes()

    def copy_full(src: object, dst: object) -> None:        # the private copy of the database
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dst))
    monkeypatch.setattr("dehlanote.files.copy_file", copy_full)
    code, _, err = run("db", "build", WORKED, OTHER, "-o", str(db), "-j", "1")
    assert code == 2 and err.startswith(f"dehlanote: disk-full: {db}: the disk is full"), err
    assert db.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["club.duckdb"]


def test_a_folder_that_cannot_be_written_is_not_called_a_bad_database(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(tmp_path))
    monkeypatch.setattr("tempfile.mkdtemp", refused)
    db = tmp_path / "club.duckdb"
    code, _, err = run("db", "build", WORKED, "-o", str(db), "-j", "1")
    assert code == 2 and err.startswith(f"dehlanote: cannot-write: {db}: cannot write beside it: permission denied")


def test_too_large_a_memory_size_is_refused_before_the_database_is_opened(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    for size in ("99999999TB", "9000001TB", "10000000000000GiB"):
        code, _, err = run("db", "build", WORKED, "-o", str(db), "--memory", size)
        assert code == 2 and err == (f"dehlanote: bad-memory: --memory {size!r}: too large a size (at most "
                                     f"9000000TB), e.g. 300MB or 2GiB\n"), err
        assert not db.exists()
    assert run("db", "build", WORKED, "-o", str(db), "-j", "1", "--memory", "9000000TB")[0] == 0


def test_binary_input_is_said_without_an_errno(tmp_path: Path) -> None:
    prog = tmp_path / "prog.dpn"
    prog.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4)
    db = tmp_path / "club.duckdb"
    code, _, err = run("db", "build", str(prog), "-o", str(db))
    assert code == 2 and "Errno" not in err, err
    assert err.startswith(f"dehlanote: unreadable: cannot read {prog}: it is not a text file"), err
    assert err.endswith("(the database is unchanged)\n") and not db.exists()


def test_more_jobs_than_cores_start_no_more_workers_than_cores(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """db build -j 64 on two cores started 64 worker processes (some 40 MB each, nothing gained):
    as validate --jobs, the workers are at most the cores."""
    import dehlanote.db.build as builder
    asked: list[int] = []
    real = builder.build

    def build(*args, **kw):
        asked.append(kw["jobs"])
        return real(*args, **kw)
    monkeypatch.setattr(builder, "build", build)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    for jobs, workers in (("64", 2), ("3", 2), ("1", 1), ("0", 2)):
        code, _, err = run("db", "build", str(ROOT / "samples" / "match.dpn"), "-o", str(tmp_path / "club.duckdb"),
                           "--jobs", jobs)
        assert code == 0, err
        assert asked.pop() == workers


def test_a_pipe_is_refused_not_built_as_an_empty_file(tmp_path: Path) -> None:
    """``db build <(cat club.dpn)``: the build read the pipe to hash it, then found no game in
    it, and said "1 files (1 read ...), 0 games". A pipe cannot be read again: refused, nothing
    made."""
    read, write = os.pipe()
    os.write(write, Path(WORKED).read_bytes())
    os.close(write)
    db = tmp_path / "club.duckdb"
    try:
        code, out, err = run("db", "build", f"/dev/fd/{read}", "-o", str(db), "--jobs", "1")
    finally:
        os.close(read)
    assert code == 2, err
    assert err.startswith(f"dehlanote: unreadable: cannot read /dev/fd/{read}: it is a FIFO, not a file"), err
    assert not db.exists()


def test_a_fifo_among_the_files_is_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "night.dpn"
    os.mkfifo(fifo)
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "db", "build", WORKED, str(fifo), "-o",
                           str(tmp_path / "club.duckdb")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "it is a FIFO, not a file" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "club.duckdb").exists()


def test_a_file_name_that_is_not_utf8_is_built_and_known_again(tmp_path: Path) -> None:
    """An old archive's ``caf\\xe9.dpn`` (Latin-1): DuckDB refused the name, and the whole build
    failed as "not-a-database: ... cannot encode str as UTF-8"."""
    folder = os.fsencode(tmp_path)
    odd = os.fsdecode(folder + b"/caf\xe9.dpn")
    Path(odd).write_bytes(Path(WORKED).read_bytes())
    db = str(tmp_path / "club.duckdb")
    code, _, err = run("db", "build", odd, OTHER, "-o", db, "--jobs", "1")
    assert code == 0, err
    code, out, err = run("db", "query", db, "select path, games from files order by file_id", "--format", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert rows[0]["path"].endswith("/caf\\xe9.dpn") and rows[0]["games"] == 1
    code, _, err = run("db", "build", odd, OTHER, "-o", db, "--jobs", "1")
    assert code == 0 and "(0 read, 2 unchanged, 0 removed)" in err, err
    code, _, err = run("db", "build", OTHER, "-o", db, "--jobs", "1")
    assert code == 0 and "(0 read, 1 unchanged, 1 removed)" in err, err


def test_standard_output_is_no_database_and_an_empty_name_is_said(tmp_path: Path) -> None:
    """``db build ... -o -`` made a database file named "-" (to every other command, - is standard
    output); ``db query "" SQL`` (a shell variable unset) said "not-a-database: .: it is a
    directory"."""
    code, out, err = run("db", "build", WORKED, "-o", "-", "--jobs", "1", cwd=tmp_path)
    assert code == 2 and "not standard output" in err, err
    assert not (tmp_path / "-").exists()
    code, out, err = run("db", "query", "", "select 1", cwd=tmp_path)
    assert code == 2 and "the database's name is empty" in err, err


def test_a_database_kept_among_its_records_is_left_out_of_a_glob(tmp_path: Path) -> None:
    """``db build 'club/*' -o club/club.duckdb``: the second build was refused, "output-is-input
    ... writing it would lose the record", the database being one of the files the glob lists.
    It is left out with a note; named alone, it is refused rather than emptied."""
    club = tmp_path / "club"
    club.mkdir()
    for source in (WORKED, OTHER):
        (club / Path(source).name).write_bytes(Path(source).read_bytes())
    for _ in range(2):
        code, _, err = run("db", "build", "club/*", "-o", "club/club.duckdb", "--jobs", "1", cwd=tmp_path)
        assert code == 0, err
    assert "club/club.duckdb is the database itself" in err
    assert "2 files (0 read, 2 unchanged, 0 removed)" in err
    code, _, err = run("db", "build", "club/club.duckdb", "-o", "club/club.duckdb", "--jobs", "1", cwd=tmp_path)
    assert code == 2 and "the only file named is the database" in err, err
    code, out, err = run("db", "query", "club/club.duckdb", "select count(*) as n from files", "-f", "json",
                         cwd=tmp_path)
    assert json.loads(out) == [{"n": 2}]
