"""A record of the served folder named as a table that the server cannot keep (errors in its last
game, not UTF-8, a link, a folder) is left alone, and the organiser is told which and why when the
server starts: it was skipped without a word ("1 table(s) found"), the table simply missing."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="dehlanote serve needs the serve extra (pip install -e '.[test]')")

from serve_helpers import ROOT, WORKED, read_url  # noqa: E402

from dehlanote.serve.tables import Tables  # noqa: E402


def _night(tmp_path: Path) -> Path:
    night = tmp_path / "night"
    night.mkdir()
    shutil.copy(ROOT / "docs" / "examples" / "bad.dpn", night / "table-1.dpn")
    shutil.copy(WORKED, night / "table-2.dpn")
    (night / "table-3.dpn").write_bytes(b"\xff\xfe[Event")
    (night / "table-4.dpn").symlink_to(WORKED)
    (night / "table-5.dpn").mkdir()
    (night / "notes.txt").write_text("not a table")
    # kept, but the cards waiting in its comment no longer fit (AH is in trick 1): they are left out
    (night / "table-6.dpn").write_text('[Result "*"]\n\ndeal 1 dealer D\ntrump D by A\n 1 A: AH 10H 3H 7H '
                                       '{unfinished trick 2, not yet in the record: AS AH}\n', encoding="utf-8")
    return night


WAITING = ("table-6.dpn: the cards of trick 2 waiting in table-6.dpn's comment (AS AH) do not fit the record "
           "(duplicate-card: AH has already been played in this deal")


def test_the_records_left_alone_are_known_with_why(tmp_path: Path) -> None:
    tables = Tables(_night(tmp_path), sync=False)
    try:
        assert sorted(tables.tables) == [2, 6]
        assert len(tables.notes) == 1 and tables.notes[0].startswith(WAITING[len("table-6.dpn: "):])
        assert tables.notes[0].endswith("they are left out; enter them again at the table")
        assert tables.left_alone == [
            ("table-1.dpn", "its last game has errors (dehlanote validate shows them)"),
            ("table-3.dpn", "it is not UTF-8 text"), ("table-4.dpn", "it is a link"),
            ("table-5.dpn", "it is not a file")]
    finally:
        tables.close()


def test_the_server_says_which_records_it_leaves_alone(tmp_path: Path) -> None:
    night = _night(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "dehlanote", "serve", str(night), "--host", "127.0.0.1", "--port",
                             "0", "--no-sync"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    lines: list[str] = []
    try:
        read_url(proc, 20.0)
        assert proc.stderr is not None
        while not lines or "Ctrl-C stops" not in lines[-1]:      # (said after the address)
            line = proc.stderr.readline()
            if not line:
                break
            lines.append(line)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, rest = proc.communicate(timeout=20)
    err = "".join(lines) + rest
    assert "dehlanote: note: table-1.dpn is left alone, not served: its last game has errors (dehlanote validate " \
           "shows them)" in err
    assert "dehlanote: note: table-4.dpn is left alone, not served: it is a link" in err
    assert "notes.txt" not in err and "table-2.dpn" not in err
    assert "(2 table(s) found)" in err
    # the waiting cards were dropped without a word (the record said it, serve did not)
    assert "dehlanote: note: " + WAITING[len("table-6.dpn: "):] in err
