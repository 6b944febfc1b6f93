"""The parser's tables are never loaded from a place another user can write (issue 22 item 4).

Lark's tables are a pickle: whoever can put a file where they are read from runs code in
the reader's process. A hostile pickle (one that makes a marker file when it is loaded) is
planted where the tables were once kept, the shared temporary folder, and in the per-user
cache folder in every unsafe way (writable by others, the folder open to others, another
owner, a link); a record with a syntax error (which needs Lark's fine parser) is then read
in a fresh process. The marker must never appear, and the record must read as usual. A
positive control shows that a file of the user's own, in the private folder, is what gets
loaded: the negative cases are not passing only because nothing is ever read.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from dehlanote.syntax import terms

ROOT = Path(__file__).resolve().parents[2]
BAD = '[Event "x"]\ndeal 1 dealer D\n 1 A AH 10H 3H 7H\n'


class _Marker:
    """Unpickling this makes the file ``path`` (what a hostile pickle could do, and worse)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (open, (self.path, "w"))


def _hostile(marker: Path) -> bytes:
    return pickle.dumps(_Marker(str(marker)))


def _names() -> dict[str, str]:
    """Where each table was kept before (in the temporary folder) and is kept now (in the cache folder)."""
    out = {}
    for variant in ("whole", "fine"):
        digest = terms._digest(variant, terms._EDITS)
        out[f".dehlanote-lark-{variant}-{digest}.tmp"] = terms._cache_name(f"lark-{variant}", digest, ".pickle")
    return out


def _read_bad_record(tmp: Path, cache_home: Path) -> subprocess.CompletedProcess[str]:
    record = tmp / "bad.dpn"
    record.write_text(BAD, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp / "shared"), "XDG_CACHE_HOME": str(cache_home)}
    return subprocess.run([sys.executable, "-m", "dehlanote", "validate", str(record)], capture_output=True,
                          text=True, env=env, timeout=120)


def _check_read_as_usual(run: subprocess.CompletedProcess[str]) -> None:
    assert run.returncode == 1, run.stderr
    assert "3:6: syntax: expected ':' after the seat, found the card AH" in run.stdout + run.stderr
    assert "Traceback" not in run.stderr


def test_a_pickle_planted_in_the_shared_temporary_folder_is_never_loaded(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    marker = tmp_path / "ran"
    for old in _names():
        # Lark's own cache layout: a digest line, then pickles (the first is loaded unchecked)
        (shared / old).write_bytes(b"0" * 64 + b"\n" + _hostile(marker))
        os.chmod(shared / old, 0o644)
    _check_read_as_usual(_read_bad_record(tmp_path, tmp_path / "cache"))
    assert not marker.exists()


def _plant(folder: Path, marker: Path, mode: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for new in _names().values():
        (folder / new).write_bytes(_hostile(marker))
        os.chmod(folder / new, mode)


def test_unsafe_files_in_the_cache_folder_are_never_loaded(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    marker = tmp_path / "ran"
    home = tmp_path / "cache"
    folder = home / "dehlanote"
    # writable by the group and by others
    _plant(folder, marker, 0o666)
    os.chmod(folder, 0o700)
    _check_read_as_usual(_read_bad_record(tmp_path, home))
    assert not marker.exists()
    # the folder open to others (each file itself looks safe)
    _plant(folder, marker, 0o644)
    os.chmod(folder, 0o777)
    _check_read_as_usual(_read_bad_record(tmp_path, home))
    assert not marker.exists()
    # the folder a link to a folder that someone else made
    os.chmod(folder, 0o700)
    elsewhere = tmp_path / "elsewhere"
    folder.rename(elsewhere)
    folder.symlink_to(elsewhere, target_is_directory=True)
    _check_read_as_usual(_read_bad_record(tmp_path, home))
    assert not marker.exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_file_of_another_owner_in_the_cache_folder_is_never_loaded(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    marker = tmp_path / "ran"
    folder = tmp_path / "cache" / "dehlanote"
    _plant(folder, marker, 0o644)
    os.chmod(folder, 0o700)
    for new in _names().values():
        os.chown(folder / new, 12345, 12345)
    _check_read_as_usual(_read_bad_record(tmp_path, tmp_path / "cache"))
    assert not marker.exists()


def test_the_tables_are_kept_privately_and_read_back(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    home = tmp_path / "cache"
    _check_read_as_usual(_read_bad_record(tmp_path, home))
    folder = home / "dehlanote"
    assert folder.is_dir() and not folder.is_symlink() and folder.stat().st_mode & 0o777 == 0o700
    kept = {p.name for p in folder.iterdir()}
    assert set(_names().values()) <= kept
    for name in kept:
        assert not (folder / name).stat().st_mode & 0o022
    assert not list((tmp_path / "shared").iterdir())      # nothing left in the shared folder
    # the positive control: a file of this user's own, in the private folder, is what is loaded
    marker = tmp_path / "ran"
    _plant(folder, marker, 0o644)
    _read_bad_record(tmp_path, home)
    assert marker.exists()


def test_a_link_planted_in_the_cache_folder_is_replaced_not_written_through(tmp_path: Path, monkeypatch) -> None:
    # the cache read refused links but its write followed one: a link planted at a cache file's
    # name (the review's judgements, the parser tables) had the file it points at overwritten
    from dehlanote import cache
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    cache.folder.cache_clear()
    try:
        where = cache.folder()
        assert where is not None
        victim = tmp_path / "victim.txt"
        victim.write_text("mine", encoding="utf-8")
        os.symlink(victim, os.path.join(where, "review-x.json"))
        assert cache.write("review-x.json", b"{}")
        assert victim.read_text(encoding="utf-8") == "mine"
        kept = Path(where, "review-x.json")
        assert not kept.is_symlink() and kept.read_bytes() == b"{}" and kept.stat().st_mode & 0o777 == 0o600
        assert cache.read("review-x.json") == b"{}"
    finally:
        cache.folder.cache_clear()
