"""dehlanote serve refuses cleanly and keeps a table whole: each request a hostile pass over the
server got wrong (a refusal that undid the wrong element, text no file can hold, a save that
failed half-way, a link written through, taps made on a state the table had left, bodies that
broke the answer, idle connections holding every place, SIGTERM leaving the holds behind)."""

from __future__ import annotations

import os
import signal
import socket
import stat
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette", reason="dehlanote serve needs the serve extra (pip install -e '.[test]')")
try:  # the ASGI test client: httpx2 (Starlette 1.10 and later) or httpx
    import httpx2  # noqa: F401
except ImportError:
    pytest.importorskip("httpx", reason="the ASGI test client needs httpx2 or httpx")

from starlette.testclient import TestClient  # noqa: E402

from dehlanote import parse_string, replay_game  # noqa: E402
from dehlanote.serve import Limits, Tables, create_app  # noqa: E402

from serve_helpers import running  # noqa: E402

KEY = "k3y-for-tests"
HEAD = {"X-Dehlanote-Key": KEY}
NAMES = {"A": "Asha", "B": "Bilal", "C": "Chitra", "D": "Dev"}


def client_for(folder: Path, limits: Limits = Limits()) -> tuple[TestClient, Tables]:
    tables = Tables(folder, sync=False, limits=limits)
    return TestClient(create_app(tables, secret=KEY, hosts=("testserver",), stream_seconds=0.5)), tables


@pytest.fixture
def served(folder: Path) -> Iterator[tuple[TestClient, Tables]]:
    c, tables = client_for(folder)
    yield c, tables
    tables.close()


def start(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/tables", json={"rules": "standard", "names": NAMES, "dealer": "D", **body}, headers=HEAD)
    assert r.status_code == 200, r.text
    return r.json()


def do(c: TestClient, status: int = 200, table: int = 1, **body: Any) -> dict[str, Any]:
    r = c.post(f"/api/t/{table}", json=body, headers=HEAD)
    assert r.status_code == status, r.text
    return r.json()


def on_disk(folder: Path, table: int = 1) -> str:
    return (folder / f"table-{table}.dpn").read_text(encoding="utf-8")


def test_a_record_grown_past_its_limit_is_refused_and_loses_nothing(folder: Path) -> None:
    # the refusal took back the line with an undo: the trump line went, with every comment on it
    c, tables = client_for(folder, Limits(record=1500))
    try:
        start(c)
        do(c, do="trump", suit="H")
        r = None
        for i in range(40):
            r = c.post("/api/t/1", json={"do": "comment", "text": f"note {i} " + "x" * 60}, headers=HEAD)
            if r.status_code != 200:
                break
        assert r is not None and r.status_code == 422 and r.json()["code"] == "record-full"
        kept = on_disk(folder)
        assert "trump H" in kept and f"note {i - 1} " in kept and f"note {i} " not in kept
        assert c.get("/t/1/record.dpn").text == kept          # the table as the file holds it
        st = c.get("/api/t/1").json()
        assert st["trump"] and st["expect"]["kind"] == "card" and st["expect"]["seat"] == "A"
        assert not replay_game(parse_string(kept)[0]).errors
    finally:
        tables.close()


@pytest.mark.parametrize("line", ["{x} claim A", "{x} 1 A: AH KH QH JH"])
def test_a_comment_line_cannot_carry_an_element(served: tuple[TestClient, Tables], folder: Path, line: str) -> None:
    c, _ = served
    start(c, confirm=True)
    do(c, do="trump", suit="H")
    before = on_disk(folder)
    assert do(c, 422, do="line", line=line)["code"] == "refused"
    assert on_disk(folder) == before
    st = do(c, do="card", card="AH", device="phone1")
    assert st["expect"]["seat"] == "B"


def test_half_a_character_is_refused_and_the_table_goes_on(served: tuple[TestClient, Tables], folder: Path) -> None:
    # a lone surrogate ("\ud800": a phone's field cut in the middle of an emoji) was kept in
    # memory and every later request on the table, and the list of tables, answered 500
    c, _ = served
    start(c)
    do(c, do="trump", suit="H")
    raw = {**HEAD, "Content-Type": "application/json"}
    r = c.post("/api/t/1", content=b'{"do": "comment", "text": "x\\ud800y"}', headers=raw)
    assert r.status_code == 400 and r.json()["code"] == "bad-request"
    r = c.post("/api/tables", content=b'{"names": {"A": "\\udfff"}, "dealer": "D"}', headers=raw)
    assert r.status_code == 400 and r.json()["code"] == "bad-request"
    assert c.get("/api/tables").status_code == 200
    assert sorted(os.listdir(folder)) == [".table-1.dpn.lock", "table-1.dpn"]
    assert do(c, do="undo")["expect"]["kind"] == "trump"
    assert do(c, do="trump", suit="S")["trump"]


def test_a_save_that_fails_leaves_the_card_untaken(served: tuple[TestClient, Tables], folder: Path) -> None:
    c, _ = served
    start(c)
    do(c, do="trump", suit="H")
    record = folder / "table-1.dpn"
    before = record.read_text(encoding="utf-8")
    record.chmod(0o444)
    try:
        r = do(c, 507, do="card", card="AH")
        assert r["code"] == "cannot-save" and "read-only" in r["message"] and "--force" not in r["message"]
    finally:
        record.chmod(0o644)
    assert record.read_text(encoding="utf-8") == before
    st = do(c, do="card", card="AH")          # was refused as duplicate-card: kept in memory
    assert st["trick"]["cards"][0] == ["A", "AH"] and "AH" in record.read_text(encoding="utf-8")


def test_a_link_in_the_place_of_a_record_is_replaced_not_written_through(
        served: tuple[TestClient, Tables], folder: Path, tmp_path: Path) -> None:
    c, _ = served
    start(c)
    outside = tmp_path / "outside.txt"
    outside.write_text("not a record\n", encoding="utf-8")
    record = folder / "table-1.dpn"
    record.rename(folder / "moved.dpn")
    record.symlink_to(outside)
    do(c, do="trump", suit="H")
    assert outside.read_text(encoding="utf-8") == "not a record\n"
    assert stat.S_ISREG(os.lstat(record).st_mode) and "trump H" in record.read_text(encoding="utf-8")


def test_a_tap_made_on_a_state_the_table_left_is_refused(served: tuple[TestClient, Tables]) -> None:
    # two phones tapping for B: the second card went to C; an undo sent twice took back two cards
    c, _ = served
    st = start(c)
    st = do(c, do="trump", suit="H", version=st["version"])
    st = do(c, do="card", card="AH", version=st["version"])
    seen = st["version"]
    st = do(c, do="card", card="5H", version=seen)                 # the first phone, for B
    stale = do(c, 409, do="card", card="7H", version=seen)         # the second, for B too
    assert stale["code"] == "stale" and stale["sentence"]
    assert [x[1] for x in c.get("/api/t/1").json()["trick"]["cards"]] == ["AH", "5H"]
    seen = st["version"]
    do(c, do="undo", version=seen)
    assert do(c, 409, do="undo", version=seen)["code"] == "stale"   # sent again: not a second undo
    assert [x[1] for x in c.get("/api/t/1").json()["trick"]["cards"]] == ["AH"]
    assert do(c, 400, do="undo", version="3")["code"] == "bad-request"
    assert do(c, do="card", card="5H")["trick"]["cards"][1] == ["B", "5H"]   # no version: taken as it comes


def test_versions_start_anew_somewhere_else_after_a_restart(folder: Path) -> None:
    seen = set()
    for _ in range(2):
        c, tables = client_for(folder)
        try:
            if not os.listdir(folder):
                start(c)
            seen.add(c.get("/api/t/1").json()["version"])
        finally:
            tables.close()
    assert len(seen) == 2


def test_yes_or_no_fields_and_confirmations_say_what_they_mean(served: tuple[TestClient, Tables]) -> None:
    c, _ = served
    r = c.post("/api/tables", json={"names": NAMES, "dealer": "D", "hands": "false"}, headers=HEAD)
    assert r.status_code == 400 and r.json()["code"] == "bad-request"
    start(c, confirm=True)
    do(c, do="trump", suit="H")
    for card in ("AH", "5H", "7H", "3H"):
        do(c, do="card", card=card, device="phone1")
    assert do(c, 400, do="confirm")["code"] == "bad-request"      # no phone named: no check possible
    assert do(c, 422, do="confirm", device="phone1")["code"] == "same-phone"
    assert do(c, do="confirm", device="phone2")["awaiting"] is None
    assert do(c, 400, do="trump", suit="S", closed="yes")["code"] == "bad-request"
    # a count of tens is a number: true was written "tens AC True BD False" and refused as
    # a line of the record (422 syntax, or "not now") rather than as a request the page never sends
    for tens in ({"AC": True, "BD": False}, {"AC": 3.0, "BD": 1}, {"AC": "3", "BD": 1}):
        assert do(c, 400, do="tens", tens=tens)["code"] == "bad-request", tens


def test_a_long_name_is_refused_not_cut(served: tuple[TestClient, Tables], folder: Path) -> None:
    c, _ = served
    r = c.post("/api/tables", json={"names": {"A": "N" * 61}, "dealer": "D"}, headers=HEAD)
    assert r.status_code == 422 and r.json()["code"] == "too-long" and "60" in r.json()["message"]
    st = start(c, names={"A": "N" * 60})
    assert st and f'[A "{"N" * 60}"]' in on_disk(folder)



def test_a_new_tables_seats_are_read_as_record_reads_them(served: tuple[TestClient, Tables], folder: Path) -> None:
    # "d" was refused as wrong-dealer (record --dealer d takes it); a name for seat Z was dropped
    c, _ = served
    for names in ({"Z": "Zoya"}, {"E": "Esha"}, {"A": "Asha", "a": "Anil"}, {"": "x"}, {"AB": "x"}):
        r = c.post("/api/tables", json={"names": names, "dealer": "D"}, headers=HEAD)
        assert r.status_code == 400 and r.json()["code"] == "bad-request", (names, r.text)
        assert "seat" in r.json()["message"] and r.json()["sentence"]
    assert not list(folder.glob("table-*.dpn"))
    r = c.post("/api/tables", json={"dealer": "AB"}, headers=HEAD)
    assert r.status_code == 422 and r.json()["code"] == "wrong-dealer"
    st = start(c, dealer="d", names={"a": "Asha", " b ": "Bilal"}, event="   ")
    assert st["table"] == 1
    text = on_disk(folder)
    assert "dealer D" in text and '[A "Asha"]' in text and '[B "Bilal"]' in text
    assert "Event" not in text                       # a blank event is none ([Event ""] was written)


def test_a_revoke_found_later_can_be_ruled_and_its_card_kept(served: tuple[TestClient, Tables], folder: Path) -> None:
    # C plays 2C on spades in trick 2, then 7S in trick 3: the card was refused by the core
    # before the recorder saw it, so `revoke C at 2 stands` was refused too ("finds no revoke")
    # and the card really played could never be entered
    c, _ = served
    start(c)
    do(c, do="trump", suit="D")
    for card in "AH 10H 3H 7H AS QS 2C 10S 4S 5S".split():
        do(c, do="card", card=card)
    refused = do(c, 422, do="card", card="7S")
    assert refused["code"] == "revoke" and "revoke C at 2 stands" in refused["message"]
    st = do(c, do="line", line="revoke C at 2 stands")
    assert [card for _, card in st["trick"]["cards"]] == ["4S", "5S", "7S"]
    text = on_disk(folder)
    assert "revoke C at 2 stands" in text and "4S 5S 7S" in text
    assert not replay_game(parse_string(text)[0]).errors

def test_a_file_named_as_a_table_but_not_one_never_blocks_a_new_table(folder: Path) -> None:
    (folder / "table-1.dpn").write_text("junk\n", encoding="utf-8")
    c, tables = client_for(folder)
    try:
        assert start(c)["table"] == 2
        assert (folder / "table-1.dpn").read_text(encoding="utf-8") == "junk\n"
    finally:
        tables.close()
    (folder / "table-99999.dpn").write_text((folder / "table-2.dpn").read_text(encoding="utf-8"), encoding="utf-8")
    c, tables = client_for(folder)
    try:
        assert sorted(tables.tables) == [2, 99999]     # five digits: loaded again after a restart
        assert start(c)["table"] == 100000
    finally:
        tables.close()
    c, tables = client_for(folder)
    try:
        assert 100000 in tables.tables
    finally:
        tables.close()


def test_bodies_that_broke_the_answer_are_refused(served: tuple[TestClient, Tables]) -> None:
    c, _ = served
    start(c)
    deep = "[" * 4000 + "]" * 4000
    r = c.post("/api/t/1", content=deep, headers={**HEAD, "Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad-request"

    def pieces() -> Iterator[bytes]:
        for _ in range(10):
            yield b" " * 1000
    r = c.post("/api/t/1", content=pieces(), headers={**HEAD, "Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "too-large" and r.json()["sentence"]
    r = c.post("/api/t/1", content=b'{"do": "trump", "suit": "H"}',
               headers={**HEAD, "Content-Type": "Application/JSON; charset=UTF-8"})
    assert r.status_code == 200, r.text


def test_an_address_with_nothing_there_says_so_in_the_readers_language(served: tuple[TestClient, Tables]) -> None:
    c, _ = served
    start(c)
    page = c.get("/t/7", headers={"Accept-Language": "hi"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "ऐसी कोई मेज़ नहीं" in page.text or "मेज़" in page.text
    assert '<html lang="hi">' in page.text and "default-src 'none'" in page.headers["content-security-policy"]
    assert c.get("/api/t/7").json()["code"] == "no-table"
    r = c.post("/t/1", json={}, headers=HEAD)
    assert r.status_code == 405 and r.json()["code"] == "method"
    r = c.post("/api/t/1", json={"do": "undo"}, headers={"Accept-Language": "hi"})
    assert r.status_code == 403 and r.json()["code"] == "no-key" and r.json()["sentence"].startswith("इस")
    page = c.get("/t/1/replay?lang=hi").text
    keys = page[page.index('<section id="help"'):]
    keys = keys[:keys.index("</section>")]
    assert "show or hide these keys" not in keys and "forward one card" not in keys
    assert "ये कुंजियाँ दिखाएँ या छिपाएँ" in keys


def test_sigterm_lets_the_records_go(tmp_path: Path) -> None:
    import urllib.request
    folder = tmp_path / "night"
    folder.mkdir()
    with running(folder) as (proc, url):
        page = urllib.request.urlopen(url).read().decode("utf-8")
        key = page.split('"key":"', 1)[1].split('"', 1)[0]
        req = urllib.request.Request(url + "api/tables", data=b'{"dealer": "D"}', method="POST",
                                     headers={"Content-Type": "application/json", "X-Dehlanote-Key": key})
        assert urllib.request.urlopen(req).status == 200
        assert (folder / ".table-1.dpn.lock").exists()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 143
    assert sorted(os.listdir(folder)) == ["table-1.dpn"]     # no hold left behind


def test_a_connection_that_sends_nothing_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio
    import uvicorn
    from dehlanote.commands import serve as command
    monkeypatch.setattr(command, "REQUEST_SECONDS", 0.5)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, http=command._deadline_h11(), lifespan="off", log_level="warning"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    try:
        for _ in range(100):
            if server.started:
                break
            time.sleep(0.05)
        idle = socket.create_connection(("127.0.0.1", port), timeout=5)
        talker = socket.create_connection(("127.0.0.1", port), timeout=5)
        talker.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while not answer.endswith(b"ok"):
            answer += talker.recv(1000)
        assert answer.startswith(b"HTTP/1.1 200")
        t0 = time.monotonic()
        assert idle.recv(10) == b""                        # closed by the server
        assert 0.3 < time.monotonic() - t0 < 3
        assert talker.recv(10) == b""                      # idle after its answer: closed too
        idle.close()
        talker.close()
    finally:
        server.should_exit = True
        thread.join(10)


def test_the_bodys_deadline_is_for_the_whole_body_not_each_piece() -> None:
    # each piece restarted the 10 s: a client sending a byte every 7 s held its place for ever
    import asyncio
    from dehlanote.serve.security import Guard

    async def app(scope: Any, receive: Any, send: Any) -> None:     # never reached
        raise AssertionError("the app was given a body that did not come in time")

    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    async def receive() -> dict:
        await asyncio.sleep(0.15)                   # a piece, well within the deadline each time
        return {"type": "http.request", "body": b" ", "more_body": True}

    scope = {"type": "http", "method": "POST", "path": "/api/t/1", "query_string": b"",
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                         (b"x-dehlanote-key", KEY.encode())]}
    guard = Guard(app, secret=KEY, lan=False, hosts=("testserver",), body_seconds=0.6)
    t0 = time.monotonic()
    asyncio.run(asyncio.wait_for(guard(scope, receive, send), 5))
    assert time.monotonic() - t0 < 1.5
    assert sent[0]["status"] == 408


def test_a_stray_file_with_the_largest_table_number_does_not_stop_new_tables(folder: Path) -> None:
    (folder / "table-999999999.dpn").write_text("junk\n", encoding="utf-8")
    c, tables = client_for(folder)
    try:
        assert start(c)["table"] == 1
        assert start(c)["table"] == 2
    finally:
        tables.close()


@pytest.mark.parametrize("line", ['[Serve "confirm hands"]', '[Table "7"]', '[serve "confirm"]',
                                  '[Event "Friday"] [Table "2"]'])
def test_a_line_that_sets_the_tables_own_tags_is_refused(folder: Path, line: str) -> None:
    # accepted and written, the running table did not change, and a restart read the options
    # back: the table then asked for hands and confirmations nobody chose
    c, tables = client_for(folder)
    try:
        start(c)
        before = on_disk(folder)
        said = do(c, 422, do="line", line=line)
    finally:
        tables.close()
    assert said["code"] == "own-tag"
    assert said["sentence"] == "The table's own settings are chosen when the table is made."
    assert on_disk(folder) == before
    again = Tables(folder, sync=False)
    try:
        assert (again.tables[1].confirm, again.tables[1].hands) == (False, False)
    finally:
        again.close()


def test_every_code_a_refusal_can_carry_has_a_sentence_of_its_own() -> None:
    # bad-tag, result-mismatch and encoding fell back to "That cannot be entered at this point"
    from dehlanote import CODES
    from dehlanote.serve.words import REFUSALS
    assert [code for code in CODES if code not in REFUSALS] == []


def test_sigterm_ends_the_open_event_streams_at_once_and_quietly(tmp_path: Path) -> None:
    # the streams ran into the 2 s graceful limit and were cancelled: two "Exception in ASGI
    # application" tracebacks on the server's terminal
    import urllib.request
    folder = tmp_path / "night"
    folder.mkdir()
    with running(folder) as (proc, url):
        def listen() -> None:
            try:
                for _ in urllib.request.urlopen(url + "api/events?since=-1", timeout=30):
                    pass
            except OSError:
                pass
        listeners = [threading.Thread(target=listen, daemon=True) for _ in range(3)]
        for t in listeners:
            t.start()
        time.sleep(1.0)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 143
        assert time.monotonic() - t0 < 1.5
        assert proc.stderr is not None and "Exception in ASGI" not in proc.stderr.read()


def test_an_address_without_its_key_answers_a_page_in_the_readers_language(folder: Path) -> None:
    tables = Tables(folder, sync=False)
    try:
        c = TestClient(create_app(tables, secret=KEY, lan=True, hosts=("testserver",), stream_seconds=0.5))
        # the address typed without ?key=: the phone showed the JSON, its Hindi sentence as \u escapes
        r = c.get("/", headers={"Accept-Language": "hi"})
        assert r.status_code == 403 and r.headers["content-type"].startswith("text/html")
        assert "इस पेज के लिए कुंजी समेत पूरा पता चाहिए।" in r.text and "no-key" in r.text
        assert "default-src 'none'" in r.headers["content-security-policy"]
        assert r.headers["content-language"] == "hi"
        r = c.get("/t/1/replay", headers={"Host": "elsewhere.example"})         # another host: a page too
        assert r.status_code == 403 and "wrong-host" in r.text and r.headers["content-type"].startswith("text/html")
        head = c.head("/new")
        assert head.status_code == 403 and head.content == b""
        for path in ("/api/tables", "/api/t/1", "/api/events"):                  # the scripts' addresses: JSON
            r = c.get(path)
            assert r.status_code == 403 and r.json()["code"] == "no-key"
    finally:
        tables.close()


@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_every_address_at_once_is_refused_with_a_sentence(tmp_path: Path, host: str) -> None:
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "serve", str(tmp_path), "--host", host, "--port", "0"],
                          capture_output=True, text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(root)))
    # it listened, printed http://0.0.0.0:PORT/ (no phone can open it) and refused every
    # request as naming another host
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"--host {host}: give one address of this machine" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("line", ['[serve "confirm"]', '[table "1"]', '[SERVE "confirm"]'])
def test_the_tables_own_tags_typed_again_in_another_case_are_refused(folder: Path, line: str) -> None:
    # the recorder takes a tag typed again in another case for the same tag: [serve "confirm"]
    # replaced [Serve "confirm"], the same settings in the server's eyes, and a restart read no
    # Serve tag (the table no longer asked for confirmations)
    c, tables = client_for(folder)
    try:
        start(c, confirm=True)
        before = on_disk(folder)
        said = do(c, 422, do="line", line=line)
    finally:
        tables.close()
    assert said["code"] == "own-tag"
    assert on_disk(folder) == before
    again = Tables(folder, sync=False)
    try:
        assert again.tables[1].confirm is True
    finally:
        again.close()


def test_an_empty_folder_name_is_refused_not_taken_for_the_current_folder(tmp_path: Path) -> None:
    # serve "$NIGHT" with the variable unset served whatever folder it was started in
    import contextlib

    from typer.testing import CliRunner

    from dehlanote.cli import app

    with contextlib.chdir(tmp_path):
        res = CliRunner().invoke(app, ["serve", "", "--port", "99999"])    # (a wrong port: not served if it regresses)
    assert res.exit_code == 2
    assert "the folder's name is empty: give the folder of the night's records (is a shell variable unset?)" \
        in res.stderr.replace("\n", " ")
    assert not list(tmp_path.iterdir())          # nothing made in the folder it ran in
