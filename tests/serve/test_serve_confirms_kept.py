"""A trick waiting for the other side's confirmation still waits after a restart of the server,
and the phone that entered it still may not confirm it: the confirmations are kept beside the
record (``.table-N.dpn.confirm``, through the safe writer). They were kept in memory only, so a
restart counted every trick on file as confirmed, the one still waiting included."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="dehlanote serve needs the serve extra (pip install -e '.[test]')")

from test_serve_http import do, served, start  # noqa: E402


def _first_trick(c) -> None:
    start(c, confirm=True)
    do(c, 1, do="trump", suit="D")
    for card in ["AH", "10H", "3H", "7H"]:
        st = do(c, 1, do="card", card=card, device="phone1")
    assert st["awaiting"] == 1


def test_a_trick_waiting_for_its_confirmation_still_waits_after_a_restart(folder: Path) -> None:
    with served(folder) as c:
        _first_trick(c)
    with served(folder) as c:      # the server started again
        st = c.get("/api/t/1?device=phone1").json()
        assert st["awaiting"] == 1 and st["entered_here"] is True
        assert do(c, 1, 422, do="card", card="AS", device="phone1")["code"] == "unconfirmed-trick"
        assert do(c, 1, 422, do="confirm", device="phone1")["code"] == "same-phone"
        assert do(c, 1, do="confirm", device="phone2")["awaiting"] is None
    with served(folder) as c:      # and the confirmation given holds after another restart
        assert c.get("/api/t/1").json()["awaiting"] is None
        do(c, 1, do="card", card="AS", device="phone2")


def test_the_kept_confirmations_hold_no_phone_id_and_go_with_the_record_as_it_is(folder: Path) -> None:
    with served(folder) as c:
        _first_trick(c)
    kept = folder / ".table-1.dpn.confirm"
    assert "phone1" not in kept.read_text(encoding="utf-8")
    assert json.loads(kept.read_text(encoding="utf-8"))["confirmed"] == 0
    assert oct(kept.stat().st_mode & 0o777) == "0o600"
    # the record edited while the server was down: the kept confirmations are void, every trick on
    # file counts as confirmed (as an edit read while the server runs)
    record = folder / "table-1.dpn"
    record.write_text(record.read_text(encoding="utf-8").replace('[Result "*"]', '[Result "*"] {edited}'),
                      encoding="utf-8")
    with served(folder) as c:
        assert c.get("/api/t/1").json()["awaiting"] is None


@pytest.mark.parametrize("junk", [b"", b"{", b"[]", b'{"record": 1}', b"\xff\xfe", b"x" * 10000])
def test_a_damaged_confirmations_file_is_no_trouble(folder: Path, junk: bytes) -> None:
    with served(folder) as c:
        _first_trick(c)
    kept = folder / ".table-1.dpn.confirm"
    kept.write_bytes(junk)
    with served(folder) as c:
        assert c.get("/api/t/1").json()["awaiting"] is None     # as before the file was kept
    os.unlink(kept)


def test_a_confirmations_file_others_may_write_is_not_read(folder: Path) -> None:
    with served(folder) as c:
        _first_trick(c)
    os.chmod(folder / ".table-1.dpn.confirm", 0o666)
    with served(folder) as c:
        assert c.get("/api/t/1").json()["awaiting"] is None
