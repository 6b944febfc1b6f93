"""A record given as a FIFO (or a pipe, ``<(command)``) is read once, whole, like a file."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from dehlanote.batch.check import check_file
from dehlanote.rules.profile import registry

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("payload", ["samples", "binary"])
def test_a_fifo_is_checked_as_the_file_it_carries(tmp_path, payload):
    data = b"\n\n".join(p.read_bytes() for p in SAMPLES) * 3 if payload == "samples" else bytes(range(256)) * 64
    plain = tmp_path / "plain.dpn"
    plain.write_bytes(data)
    fifo = tmp_path / "fifo.dpn"
    os.mkfifo(fifo)
    failed: list[BaseException] = []

    def feed() -> None:
        try:
            with open(fifo, "wb") as out:
                out.write(data)
        except BaseException as exc:   # a reader that closes early breaks the writer's pipe
            failed.append(exc)

    writer = threading.Thread(target=feed)
    writer.start()
    got = check_file(str(fifo), registry(), keep=True)
    writer.join(timeout=60)
    want = check_file(str(plain), registry(), keep=True)
    if payload == "binary":
        assert got.unreadable == want.unreadable and "not a text file" in (got.unreadable or "")
        return
    assert not failed
    assert (got.games, got.deals, got.count) == (want.games, want.deals, want.count) and got.games > 10
    assert [(e.code, e.line, e.column) for e in got.errors] == [(e.code, e.line, e.column) for e in want.errors]
