"""``db build`` reads the very file named: ``link/../a.dpn``, after a symbolic link to a folder,
is the ``a.dpn`` beside the folder the link points at, not the ``a.dpn`` of the working folder
(the path was normalised as text, ``..`` taken out, and the build read another file than the
one validate and stats read under the same name)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from db_helpers import ROOT, run  # noqa: E402

from dehlanote.db.ratings import file_key  # noqa: E402


def test_a_path_through_a_link_and_up_is_the_file_it_names(tmp_path: Path) -> None:
    far = tmp_path / "far"
    (far / "deep").mkdir(parents=True)
    (far / "x.dpn").write_text((ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8"),
                               encoding="utf-8")                                     # 1 deal
    (tmp_path / "x.dpn").write_text((ROOT / "samples" / "match.dpn").read_text(encoding="utf-8"),
                                    encoding="utf-8")                                # 7 deals
    (tmp_path / "lnk").symlink_to("far/deep")
    code, _, err = run("db", "build", "lnk/../x.dpn", "-o", "club.duckdb", cwd=tmp_path)
    assert code == 0, err
    code, out, err = run("db", "query", "club.duckdb", "select path, deals from files", "--format", "json",
                         cwd=tmp_path)
    assert code == 0, err
    assert json.loads(out) == [{"path": "lnk/../x.dpn", "deals": 1}]
    code, out, _ = run("stats", "lnk/../x.dpn", "--format", "json", cwd=tmp_path)
    assert json.loads(out)["deals"] == 1


@pytest.mark.parametrize("given, key", [("./a.dpn", "a.dpn"), ("a//b/./c.dpn", "a/b/c.dpn"),
                                        ("a/../b.dpn", "a/../b.dpn"), ("/x/./y.dpn", "/x/y.dpn"), ("a.dpn", "a.dpn")])
def test_a_files_key_takes_out_only_what_cannot_change_the_file(given: str, key: str) -> None:
    assert file_key(given) == key



def test_a_spill_folder_left_by_a_killed_query_is_removed_by_the_next_one(tmp_path: Path) -> None:
    # killed by SIGTERM (timeout, kill), a query ends at once, without its clean-up: its private
    # spill folder, dehlanote-duckdb-XXXXXXXX, stayed in the temporary folder for good. The next
    # query (or build) removes those of processes that are gone; a running one's is left alone
    import os
    import signal
    import subprocess
    import sys
    import time
    assert run("db", "build", str(ROOT / "samples" / "match.dpn"), "-o", "club.duckdb", cwd=tmp_path)[0] == 0
    spill = tmp_path / "tmp"
    spill.mkdir()
    env = dict(os.environ, TMPDIR=str(spill), PYTHONPATH=str(ROOT))
    slow = "select count(*) from range(3000000000) a, range(10) b where a.range % 7 = b.range"
    running = []
    for _ in range(2):
        running.append(subprocess.Popen([sys.executable, "-m", "dehlanote", "db", "query", "club.duckdb", slow],
                                        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env))
    deadline = time.monotonic() + 60
    while len(list(spill.iterdir())) < 2 and time.monotonic() < deadline:     # both queries have begun
        time.sleep(0.05)
    killed, alive = running
    killed.send_signal(signal.SIGTERM)
    killed.communicate(timeout=60)
    assert killed.returncode == -signal.SIGTERM
    left = [p.name for p in spill.iterdir()]
    assert sorted(n.split("-")[2] for n in left) == sorted([str(killed.pid), str(alive.pid)]), left
    planted = spill / "dehlanote-duckdb-999999999-x"     # no such process, but another name's: a file
    planted.write_text("mine", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "dehlanote", "db", "query", "club.duckdb", "select 1 as one"],
                          cwd=tmp_path, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    kept = sorted(p.name for p in spill.iterdir())
    alive.kill()
    alive.communicate(timeout=60)
    assert kept == sorted([f"dehlanote-duckdb-{alive.pid}-" + n.split("-", 3)[3] for n in left
                           if n.split("-")[2] == str(alive.pid)] + [planted.name]), kept
