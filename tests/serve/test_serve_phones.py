"""What each phone of a table is offered, and what the session index and the record say, through
the ASGI test client: the phone that entered a trick is not offered its confirmation."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="dehlanote serve needs the serve extra (pip install -e '.[test]')")

from test_serve_http import client_for, do, start  # noqa: E402


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


def _links(page: str) -> list[str]:
    import html
    import re
    return [html.unescape(h) for h in re.findall(r'<a href="([^"]*)"', page)]


def test_a_refusal_page_offers_only_a_way_that_works(folder: Path) -> None:
    from starlette.testclient import TestClient

    from dehlanote.serve import Tables, create_app
    from test_serve_http import KEY

    tables = Tables(folder, sync=False)
    try:
        c = TestClient(create_app(tables, secret=KEY, lan=True, hosts=("testserver",), stream_seconds=0.5))
        # opened without its key: the "all tables" link led to the same refusal
        for path in ("/t/1", "/", "/t/1/replay?key=wrong"):
            r = c.get(path)
            assert r.status_code == 403 and "no-key" in r.text
            assert _links(r.text) == []
        r = c.get("/t/1", headers={"Accept-Language": "hi"})      # what works instead: the code, the address
        assert "कोड स्कैन करें" in r.text and _links(r.text) == []
        r = c.get("/t/1/replay", headers={"Host": "elsewhere.example"})
        assert r.status_code == 403 and _links(r.text) == []
        # with its key, a refusal's link keeps it, and it leads to the tables
        for path in (f"/t/9?key={KEY}&lang=hi", f"/t/1?key={KEY}&" + "x" * 3000):
            r = c.get(path)
            assert r.status_code in (404, 414)
            [home] = _links(r.text)
            assert c.get(home).status_code == 200
    finally:
        tables.close()
    c, tables = client_for(folder)       # without --lan: the index, which answers
    try:
        r = c.get("/t/1?" + "x" * 3000)
        assert r.status_code == 414
        [home] = _links(r.text)
        assert c.get(home).status_code == 200
    finally:
        tables.close()


def test_a_record_edited_into_errors_is_flagged_and_its_copy_named(folder: Path) -> None:
    import os
    c, tables = client_for(folder)
    try:
        start(c)
        do(c, 1, do="trump", suit="D")
        do(c, 1, do="card", card="AH")
        record = folder / "table-1.dpn"
        good = record.read_text(encoding="utf-8")
        r = c.get("/t/1/record.dpn")
        assert r.text == good and r.headers["x-dehlanote-copy"] == "file"
        assert c.get("/api/tables").json()["tables"][0]["unreadable"] is False
        broken = good.replace("trump D", "trump Z")
        record.write_text(broken, encoding="utf-8")
        os.utime(record, ns=(1, 1))
        # the index flagged nothing, and the record served was the last good one, as if it were the file
        assert c.get("/api/tables").json()["tables"][0]["unreadable"] is True
        r = c.get("/t/1/record.dpn")
        assert r.headers["x-dehlanote-copy"] == "last-good"
        first, rest = r.text.split("\n", 1)
        assert first.startswith("{this is the server's last good copy of table-1.dpn") and rest == good
        assert c.get("/api/t/1").json()["unreadable"] is True
        record.write_text(good, encoding="utf-8")            # put right: no flag, the file served
        assert c.get("/api/tables").json()["tables"][0]["unreadable"] is False
        r = c.get("/t/1/record.dpn")
        assert r.text == good and r.headers["x-dehlanote-copy"] == "file"
    finally:
        tables.close()


def _first_deal_cards() -> list[str]:
    import re

    from serve_helpers import WORKED
    deal = WORKED.read_text(encoding="utf-8").split("deal 2")[0]
    cards: list[str] = []
    for trick in re.findall(r"^\s*\d+ [A-D]: (.*)$", deal, re.M):
        cards += re.findall(r"(?:10|[AKQJ2-9])[SHDC]", re.sub(r"\{[^}]*\}", "", trick))
    return cards


@pytest.mark.parametrize("checked", [True, False])
def test_a_tens_check_outlives_a_restart(folder: Path, checked: bool) -> None:
    c, tables = client_for(folder)
    try:
        start(c)
        do(c, 1, do="trump", suit="D")
        for card in _first_deal_cards():
            st = do(c, 1, do="card", card=card)
        assert st["tens_due"] == 1
        if checked:
            assert do(c, 1, do="tens", tens={"AC": 3, "BD": 1})["tens_due"] is None
    finally:
        tables.close()
    c, tables = client_for(folder)       # the server started again: the players were asked again
    try:
        assert c.get("/api/t/1").json()["tens_due"] == (None if checked else 1)
        text = (folder / "table-1.dpn").read_text(encoding="utf-8")
        assert ("tens AC 3 BD 1 {tens counted at the table}" in text) is checked
    finally:
        tables.close()
    from dehlanote.record import Session
    assert Session.resume(text)[1]


def test_every_page_hears_of_a_record_made_unreadable_by_a_tap(folder: Path) -> None:
    import os
    c, tables = client_for(folder)
    try:
        start(c)
        st = do(c, 1, do="trump", suit="D")
        record = folder / "table-1.dpn"
        record.write_text(record.read_text(encoding="utf-8").replace("trump D", "trump Z"), encoding="utf-8")
        os.utime(record, ns=(1, 1))
        hub = c.app.app.state.hub        # (the app inside the guard)
        before = hub.version
        assert do(c, 1, 409, do="card", card="AH", version=st["version"])["code"] == "record-unreadable"
        assert hub.version != before        # the other phones and the index are told, and flag it
    finally:
        tables.close()
