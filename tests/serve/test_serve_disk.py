"""dehlanote serve and its records on disk: one changed while the server runs (the organiser
fixing a name in an editor) is read, never written over (a tap made on the table as it was
before the edit is refused, an edit that cannot be read leaves the file alone); a finished
match comes back finished; the players' tens check follows an undo; the pages' ways back keep
their language."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette", reason="dehlanote serve needs the serve extra (pip install -e '.[test]')")
try:  # the ASGI test client: httpx2 (Starlette 1.10 and later) or httpx
    import httpx2  # noqa: F401
except ImportError:
    pytest.importorskip("httpx", reason="the ASGI test client needs httpx2 or httpx")

from starlette.testclient import TestClient  # noqa: E402

from dehlanote.serve import Tables, create_app  # noqa: E402

KEY = "k3y-for-tests"
HEAD = {"X-Dehlanote-Key": KEY}
NAMES = {"A": "Asha", "B": "Bilal", "C": "Chitra", "D": "Dev"}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    folder = tmp_path / "night"
    folder.mkdir()
    tables = Tables(folder, sync=False)
    yield TestClient(create_app(tables, secret=KEY, hosts=("testserver",), stream_seconds=0.5)), folder
    tables.close()


def do(c: TestClient, status: int = 200, **body: Any) -> dict[str, Any]:
    r = c.post("/api/t/1", json=body, headers=HEAD)
    assert r.status_code == status, r.text
    return r.json()


def started(c: TestClient, folder: Path) -> tuple[Path, dict[str, Any]]:
    r = c.post("/api/tables", json={"rules": "standard", "names": NAMES, "dealer": "D"}, headers=HEAD)
    assert r.status_code == 200, r.text
    do(c, do="trump", suit="D")
    do(c, do="card", card="AH")
    return folder / "table-1.dpn", do(c, do="card", card="10H")


def edit(record: Path, old: str, new: str) -> str:
    text = record.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new)
    record.write_text(text, encoding="utf-8")
    os.utime(record, ns=(1, 1))        # (another time than the server's write, whatever the clock's grain)
    return text


def test_an_edit_on_disk_is_read_never_written_over(served: tuple[TestClient, Path]) -> None:
    c, folder = served
    record, st = started(c, folder)
    edited = edit(record, '[D "Dev"]', '[D "Devendra"]')
    # a tap made on the table as the page showed it: the server wrote its own text over the edit
    refused = do(c, 409, do="card", card="3H", version=st["version"])
    assert refused["code"] == "record-changed" and refused["sentence"]
    assert record.read_text(encoding="utf-8") == edited
    now = c.get("/api/t/1").json()
    assert now["names"]["D"] == "Devendra" and now["version"] != st["version"]
    assert [card for _seat, card in now["trick"]["cards"]] == ["AH", "10H"]    # the trick under way kept
    now = do(c, do="card", card="3H", version=now["version"])
    text = record.read_text(encoding="utf-8")
    assert '[D "Devendra"]' in text and "3H" in text
    assert [card for _seat, card in now["trick"]["cards"]] == ["AH", "10H", "3H"]


def test_the_pages_show_an_edit_without_a_tap(served: tuple[TestClient, Path]) -> None:
    c, folder = served
    record, _st = started(c, folder)
    edit(record, '[B "Bilal"]', '[B "Bilal Khan"]')
    assert c.get("/api/tables").json()["tables"][0]["names"]["B"] == "Bilal Khan"
    assert "Bilal Khan" in c.get("/t/1/record.dpn").text


def test_an_edit_that_is_not_a_record_is_left_alone(served: tuple[TestClient, Path]) -> None:
    c, folder = served
    record, st = started(c, folder)
    good = record.read_text(encoding="utf-8")
    broken = edit(record, "trump D", "trump Z")       # half-way through an edit
    for body in ({"do": "card", "card": "3H"}, {"do": "undo"}, {"do": "comment", "text": "hi"}):
        refused = do(c, 409, **body)
        assert refused["code"] == "record-unreadable" and refused["sentence"]
        assert record.read_text(encoding="utf-8") == broken
    now = c.get("/api/t/1").json()      # the pages show the table as it was, flagged
    assert now["trick"] == st["trick"] and now["unreadable"] is True
    record.write_text(good, encoding="utf-8")                       # put right: the table goes on
    assert [card for _seat, card in do(c, do="card", card="3H")["trick"]["cards"]] == ["AH", "10H", "3H"]


def test_a_record_touched_but_not_changed_is_no_edit(served: tuple[TestClient, Path]) -> None:
    c, folder = served
    record, st = started(c, folder)
    os.utime(record, ns=(1, 1))
    assert do(c, do="card", card="3H", version=st["version"])["trick"]["cards"][-1] == ["C", "3H"]


def test_a_finished_match_comes_back_finished_after_a_restart(tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    sample = Path(__file__).resolve().parents[2] / "samples" / "hukum-match.dpn"
    text = sample.read_text(encoding="utf-8").replace('[Result "BD"]', '[Table "1"]\n[Result "BD"]')
    record = folder / "table-1.dpn"
    record.write_text(text, encoding="utf-8")
    tables = Tables(folder, sync=False)
    try:
        c = TestClient(create_app(tables, secret=KEY, hosts=("testserver",), stream_seconds=0.5))
        # it came back as an empty game of the standard rules, no names, no score, open to play
        listed = c.get("/api/tables").json()["tables"][0]
        assert listed["over"] and listed["rules"] == "hukum" and listed["names"]["A"] == "Imran"
        assert listed["score"]["result"] == "BD" and listed["deal"] > 1
        st = c.get("/api/t/1").json()
        assert st["over"] and st["expect"]["kind"] == "over"
        for body in ({"do": "dealer", "seat": "A"}, {"do": "trump", "suit": "S"}, {"do": "card", "card": "AS"}):
            assert c.post("/api/t/1", json=body, headers=HEAD).status_code == 422
        assert record.read_text(encoding="utf-8") == text         # no second game written into it
    finally:
        tables.close()


def test_an_undo_of_the_last_card_takes_back_the_tens_check(served: tuple[TestClient, Path]) -> None:
    import re
    c, folder = served
    sample = Path(__file__).resolve().parents[2] / "samples" / "worked-example.dpn"
    plays = [line.split(":")[1].split("{")[0].replace("?", "").split()
             for line in sample.read_text(encoding="utf-8").splitlines() if re.match(r"^\s*\d+ [A-D]:", line)]
    assert c.post("/api/tables", json={"names": NAMES, "dealer": "D"}, headers=HEAD).status_code == 200
    do(c, do="trump", suit="D")
    for card in [card for trick in plays for card in trick]:
        st = do(c, do="card", card=card)
    assert st["tens_due"] == 1
    assert do(c, do="tens", tens={"AC": 3, "BD": 1})["tens_due"] is None
    do(c, do="undo")                                   # the last card back: the deal is open again
    st = do(c, do="card", card=plays[-1][-1])          # and ended again: its tens are checked anew
    assert st["tens_due"] == 1


def test_the_way_back_from_a_page_keeps_its_language(served: tuple[TestClient, Path]) -> None:
    import html
    import re
    c, folder = served
    assert c.post("/api/tables", json={"names": NAMES, "dealer": "D"}, headers=HEAD).status_code == 200
    for path in ("/t/1/replay?lang=hi", "/t/9?lang=hi"):          # the live replay, a table not there
        page = c.get(path).text
        links = [html.unescape(h) for h in re.findall(r'<a[^>]* href="(/[^"]*)"', page)]
        # the replay page chosen in Hindi led back to "/", an index in the browser's language
        assert links and all("lang=hi" in h for h in links), (path, links)
