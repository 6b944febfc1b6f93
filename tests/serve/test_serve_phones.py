"""What each phone of a table is offered, and what the session index and the record say, through
the ASGI test client: the phone that entered a trick is not offered its confirmation."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="dehlanote serve needs the serve extra (pip install -e '.[test]')")

from test_serve_http import client_for, do, start  # noqa: E402


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    night = tmp_path / "night"
    night.mkdir()
    return night


def test_the_phone_that_entered_a_trick_is_told_another_phone_confirms_it(folder: Path) -> None:
    c, tables = client_for(folder)
    try:
        start(c, confirm=True)
        do(c, 1, do="trump", suit="D")
        for card in ["AH", "10H", "3H"]:
            do(c, 1, do="card", card=card, device="phone1")
        st = do(c, 1, do="card", card="8H", device="phone1")
        assert st["awaiting"] == 1 and st["entered_here"] is True      # the answer to the tap itself
        assert c.get("/api/t/1?device=phone1").json()["entered_here"] is True
        assert c.get("/api/t/1?device=phone2").json()["entered_here"] is False
        assert c.get("/api/t/1").json()["entered_here"] is False
        assert c.get("/api/t/1?device=bad%20id").json()["entered_here"] is False
        st = do(c, 1, do="confirm", device="phone2")
        assert st["awaiting"] is None and st["entered_here"] is False
        assert c.get("/api/t/1?device=phone1").json()["entered_here"] is False
    finally:
        tables.close()
