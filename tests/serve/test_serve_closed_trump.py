"""A closed trump (band hukum) is the setter's secret until it is revealed: no page, API answer or
record served shows its suit before then (the record on disk keeps it, as the notation needs)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="dehlanote serve needs the serve extra (pip install -e '.[test]')")

from test_serve_http import client_for, do, start  # noqa: E402

# trick 1 B wins with AH, B leads clubs in trick 2: A (the setter) cannot follow, and the trump is revealed
BEFORE = ["2H", "AH", "3H", "4H", "KC", "2C", "3C"]
REVEAL = "5D"


def _games(page: str) -> Any:
    block = re.search(r'<script type="application/json" id="dpn-data">(.*?)</script>', page, re.S)
    assert block is not None
    return json.loads(html.unescape(block.group(1)) if "&quot;" in block.group(1) else block.group(1))["games"]


def _says_spades(obj: Any) -> bool:
    text = json.dumps(obj, ensure_ascii=False).lower()
    return "spade" in text or "काली" in text or '"secret": "s"' in text


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_closed_trump_is_not_shown_before_its_reveal(folder: Path, lang: str) -> None:
    c, tables = client_for(folder)
    try:
        start(c, rules="standard trump=closed")
        do(c, 1, do="trump", suit="S")
        assert "trump S by A closed" in (folder / "table-1.dpn").read_text(encoding="utf-8")   # the file keeps it
        for card in BEFORE:
            st = do(c, 1, do="card", card=card)
        for state in (st, c.get("/api/t/1").json(), c.get("/api/tables").json()["tables"][0]):
            assert state.get("trump") is None and state["trump_secret"] == "A"
        games = _games(c.get(f"/t/1/replay?lang={lang}").text)
        assert not _says_spades(games)
        deal = games[0]["deals"][-1]
        assert deal["secret"] is None and isinstance(deal["wi"], str)
        if lang == "en":
            assert "closed trump set by A, not yet revealed" in deal["head"]
        r = c.get(f"/t/1/record.dpn?lang={lang}")
        assert r.status_code == 403 and "trump-secret" in r.text and "trump S" not in r.text
        # A cannot follow clubs: the trump is revealed, to everyone, from that card on
        st = do(c, 1, do="card", card=REVEAL)
        assert st["trump"] == "S" and st["trump_secret"] is None
        assert c.get("/api/tables").json()["tables"][0]["trump_secret"] is None
        assert _says_spades(_games(c.get(f"/t/1/replay?lang={lang}").text))
        r = c.get("/t/1/record.dpn")
        assert r.status_code == 200 and "trump S by A at 2 closed" in r.text
    finally:
        tables.close()


def test_an_open_trump_is_shown_as_before(folder: Path) -> None:
    c, tables = client_for(folder)
    try:
        start(c)
        st = do(c, 1, do="trump", suit="S")
        assert st["trump"] == "S" and st["trump_secret"] is None
        assert c.get("/t/1/record.dpn").status_code == 200
    finally:
        tables.close()


def test_a_closed_trump_is_shown_from_the_card_that_reveals_it(folder: Path) -> None:
    c, tables = client_for(folder)
    try:
        start(c, rules="standard trump=closed")
        do(c, 1, do="trump", suit="S")
        for card in ["2H", "3H", "4H", "AH", "KC"]:      # D wins trick 1 and leads a club
            st = do(c, 1, do="card", card=card)
        assert st["trump"] is None and st["trump_secret"] == "A"
        st = do(c, 1, do="card", card="5D")       # A cannot follow: revealed in the trick under way
        assert st["trick"]["cards"] == [["D", "KC"], ["A", "5D"]]
        assert st["trump"] == "S" and st["trump_secret"] is None
        assert _games(c.get("/t/1/replay").text)[0]["deals"][-1]["tricks"][-1]["t"] == "S"   # the live replay too
        assert c.get("/t/1/record.dpn").status_code == 200
    finally:
        tables.close()
