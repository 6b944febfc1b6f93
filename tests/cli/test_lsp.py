"""``dehlanote lsp`` spoken to as an editor does: a small JSON-RPC client of its own (not
pygls's) drives the real server over a subprocess's standard input and output: initialize,
didOpen, didChange, hover, completion, formatting, shutdown. Each answer is checked against an
independent path: ``validate --format json``, the replayed facts, ``dehlanote fmt``."""

from __future__ import annotations

import json
import re
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Optional

import pytest

from dehlanote import iter_path, replay_games
from dehlanote.langserver import completions, diagnostics, hover

pytest.importorskip("pygls", reason="the language server needs pygls (pip install -e '.[test]')")

ROOT = Path(__file__).resolve().parents[2]
BAD = ROOT / "docs" / "examples" / "bad.dpn"
WORKED = ROOT / "samples" / "worked-example.dpn"
LOOSE = ROOT / "samples" / "loose-style.dpn"
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


class Client:
    """LSP over a pipe: Content-Length framed JSON-RPC, requests answered in order of ids."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "dehlanote", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV, cwd=ROOT)
        self.inbox: "queue.Queue[dict[str, Any]]" = queue.Queue()
        self.log: list[dict[str, Any]] = []               # every message received, in order
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                header = out.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None
            message = json.loads(out.read(length))
            self.log.append(message)
            self.inbox.put(message)

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, data: bytes) -> None:
        """Bytes as they are, framed or not."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def answer(self, msg_id: Any, timeout: float = 60) -> dict[str, Any]:
        """The response to the request ``msg_id``, a result or an error."""
        while True:
            msg = self.wait(timeout=timeout)
            if msg.get("id") == msg_id and "method" not in msg:
                return msg

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        self._send({"id": self.next_id, "method": method, "params": params})
        while True:
            msg = self.wait()
            if msg.get("id") == self.next_id and "method" not in msg:
                assert "error" not in msg, msg
                return msg.get("result")

    def wait(self, method: Optional[str] = None, timeout: float = 60) -> dict[str, Any]:
        while True:
            msg = self.inbox.get(timeout=timeout)
            if method is None or msg.get("method") == method:
                return msg

    def diagnostics(self, uri: str) -> list[dict[str, Any]]:
        while True:
            msg = self.wait("textDocument/publishDiagnostics")
            if msg["params"]["uri"] == uri:
                return msg["params"]["diagnostics"]


@pytest.fixture(scope="module")
def client():
    c = Client()
    result = c.request("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(), "capabilities": {}})
    caps = result["capabilities"]
    assert caps["hoverProvider"] and caps["documentFormattingProvider"] and "completionProvider" in caps
    assert result["serverInfo"]["name"] == "dehlanote"
    c.notify("initialized", {})
    yield c
    assert c.request("shutdown", None) is None
    c.notify("exit", None)
    assert c.proc.wait(timeout=30) == 0


def _open(client: Client, path: Path, text: Optional[str] = None, uri: Optional[str] = None) -> str:
    uri = uri or path.as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "dpn", "version": 1,
                                                            "text": text if text is not None else
                                                            path.read_text(encoding="utf-8")}})
    return uri


def _validated(path: Path) -> list[tuple[str, int, int]]:
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "validate", "--format", "json", str(path)],
                          capture_output=True, text=True, env=ENV, cwd=ROOT)
    errors = json.loads(proc.stdout)["files"][0]["errors"]
    return [(e["code"], e["line"] - 1, e["column"] - 1) for e in errors]


def test_diagnostics_as_you_type(client):
    uri = _open(client, BAD)
    found = client.diagnostics(uri)
    assert [(d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in found] \
        == _validated(BAD)                          # validate's errors, at validate's places
    leader = next(d for d in found if d["code"] == "wrong-leader")
    assert leader["range"]["start"] == {"line": 7, "character": 3}          # bad.dpn:8:4, the seat B
    assert leader["range"]["end"] == {"line": 7, "character": 4}
    assert leader["severity"] == 1 and leader["source"] == "dehlanote" and "A leads trick 3" in leader["message"]
    # the player corrects the leader: the error goes, the other stays
    fixed = BAD.read_text(encoding="utf-8").replace(" 3 B: 4S", " 3 A: 4S")
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": fixed}]})
    assert [d["code"] for d in client.diagnostics(uri)] == ["tens-mismatch"]
    # a typo: a syntax error at the card
    typo = fixed.replace(" 6 A: 6H QH", " 6 A: 6H QX")
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                             "contentChanges": [{"text": typo}]})
    row = next(i for i, line in enumerate(typo.split("\n")) if line.startswith(" 6 A: 6H QX"))
    found = client.diagnostics(uri)
    assert any(d["code"] in ("bad-card", "syntax") and d["range"]["start"]["line"] == row for d in found), found


def test_hover_on_a_card_shows_the_position_after_it(client):
    uri = _open(client, WORKED)
    client.diagnostics(uri)
    lines = WORKED.read_text(encoding="utf-8").split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith(" 9 A:"))
    col = lines[row].index("5H")
    result = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": row, "character": col + 1}})
    text = result["contents"]["value"]
    facts = next(replay_games(iter_path(WORKED)))
    eight = facts.deals[0].tricks[7]                    # the centre after trick 8, then B plays 5H
    assert text.startswith("**B plays 5♥**: deal 1, trick 9, card 2 of 4")
    assert f"centre {eight.centre_cards} cards with 10♦" in text
    assert "the trick so far: A J♥, B 5♥" in text and "**C to play**" in text
    last = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": row, "character": lines[row].index("4H")}})
    assert "A wins the trick; A takes 20 cards to AC with 10♦" in last["contents"]["value"]
    assert "**A leads next**" in last["contents"]["value"]
    nothing = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                    "position": {"line": 0, "character": 2}})
    assert nothing is None


def test_completion_offers_the_legal_cards(client):
    lines = WORKED.read_text(encoding="utf-8").split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith(" 5 D:"))
    typing = " 5 D: 7D "
    text = "\n".join(lines[:row] + [typing] + lines[row + 1:])
    uri = _open(client, WORKED, text, uri="untitled:typing.dpn")
    client.diagnostics(uri)
    result = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": {"line": row, "character": len(typing)}})
    offered = [item["label"] for item in result["items"]]
    facts = next(replay_games(iter_path(WORKED)))
    deal = facts.deals[0]
    played_by_a = {p.card for t in deal.tricks[:4] for p in t.plays if p.seat == "A"}
    held = [c for c in deal.hands["A"] if c not in played_by_a]
    assert sorted(offered) == sorted(c for c in held if c.endswith("D"))    # A must follow diamonds
    assert "AD" in offered                                                   # what A really played
    assert next(i for i in result["items"] if i["label"] == "AD")["detail"] == "ace of diamonds"


def test_completion_after_a_trick_of_the_wrong_size_offers_nothing_rather_than_guesses(client):
    # trick 3 written with three cards is counted but not replayed (who won it is not known), so
    # no table can be set up after it from the tricks replayed: the one used to complete trick 6
    # was set up before trick 5, with trick 3's cards still in the hands and the wrong seat to
    # play, and offered cards by accident; now nothing is offered there, and completion before
    # the short trick works as ever
    lines = WORKED.read_text(encoding="utf-8").replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S 7S").split("\n")

    def offered(start: str, typing: str) -> list[str]:
        row = next(i for i, line in enumerate(lines) if line.startswith(start))
        uri = _open(client, WORKED, "\n".join(lines[:row] + [typing]), uri=f"untitled:short{row}.dpn")
        client.diagnostics(uri)
        result = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                            "position": {"line": row, "character": len(typing)}})
        return sorted(item["label"] for item in result["items"]) if result else []

    assert offered(" 6 A:", " 6 A: 6H ") == []
    assert offered(" 3 A:", " 3 A: 4S ") == ["5S", "6S", "JS"]      # B's spades left (QS went in trick 2)


def test_formatting_is_fmts(client):
    uri = _open(client, LOOSE)
    client.diagnostics(uri)
    edits = client.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                       "options": {"tabSize": 4, "insertSpaces": True}})
    fmt = subprocess.run([sys.executable, "-m", "dehlanote", "fmt", str(LOOSE)], capture_output=True, env=ENV,
                         cwd=ROOT).stdout.decode("utf-8")
    assert len(edits) == 1 and edits[0]["newText"] == fmt
    assert edits[0]["range"]["start"] == {"line": 0, "character": 0}
    canonical = _open(client, WORKED, fmt, uri="untitled:canonical.dpn")
    client.diagnostics(canonical)
    assert client.request("textDocument/formatting", {"textDocument": {"uri": canonical},
                                                      "options": {"tabSize": 4, "insertSpaces": True}}) == []


def test_without_pygls_lsp_says_how_to_get_it():
    code = ("import sys, runpy\nsys.modules['pygls'] = None\nsys.argv = ['dehlanote', 'lsp']\n"
            "runpy.run_module('dehlanote', run_name='__main__')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, cwd=ROOT,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode == 2
    assert "needs pygls: pip install 'dehlanote[lsp]'" in proc.stderr and "Traceback" not in proc.stderr


def test_completion_without_hands_offers_the_cards_not_seen_led_suit_first(client):
    lines = BAD.read_text(encoding="utf-8").split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith(" 5 D:"))
    typing = " 5 D: 7D "
    uri = _open(client, BAD, "\n".join(lines[:row] + [typing]), uri="untitled:nohands.dpn")
    client.diagnostics(uri)
    result = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": {"line": row, "character": len(typing)}})
    offered = [item["label"] for item in result["items"]]
    facts = next(replay_games(iter_path(BAD)))
    seen = {p.card for t in facts.deals[0].tricks[:4] for p in t.plays} | {"7D"}
    deck = {r + s for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")}
    assert set(offered) == deck - seen and len(offered) == len(deck - seen)
    diamonds = [c for c in offered if c.endswith("D")]
    assert offered[: len(diamonds)] == diamonds                 # the suit led first


def test_completion_in_a_six_player_hand_offers_a_card_while_a_copy_is_left():
    # six players deal three decks: a card is offered until its three copies are dealt (the
    # hands line used to be checked against one 52-card deck, so a card dealt once was gone)
    head = '[Rules "standard six-player"]\n\ndeal 1 dealer F\n'

    def offered(hands: str) -> list[str]:
        lines = (head + hands).split("\n")
        return completions(head + hands, len(lines) - 1, len(lines[-1]))

    assert "KS" in offered("hands A: AS KS\n      B: ") and "AS" in offered("hands A: AS KS\n      B: ")
    assert "KS" in offered("hands A: AS KS KS\n      B: ")
    assert "KS" not in offered("hands A: AS KS KS\n      B: KS ")           # the three copies dealt
    assert len(offered("hands A: AS KS KS\n      B: KS ")) == 51
    four = "deal 1 dealer D\nhands A: AS KS\n      B: "                     # one deck: dealt once is gone
    assert "KS" not in completions(four, 2, 9) and len(completions(four, 2, 9)) == 50


@pytest.mark.parametrize("end", ["\r", "\r\n"])
def test_positions_follow_lsps_line_ends_a_lone_cr_too(client, tmp_path, end):
    # LSP ends a line at \r\n, \r or \n; the reader at \n only (a lone \r is a space to it, so
    # validate puts every error of a CR-only file on its line 1): the errors are validate's,
    # placed on the editor's lines, where they are in the same file written with \n
    text = BAD.read_text(encoding="utf-8")
    written = tmp_path / "ends.dpn"
    written.write_bytes(text.replace("\n", end).encode("utf-8"))
    uri = _open(client, BAD, text.replace("\n", end), uri=f"untitled:ends{len(end)}.dpn")
    found = client.diagnostics(uri)
    assert [d["code"] for d in found] == [code for code, _, _ in _validated(written)]
    assert [(d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in found] \
        == _validated(BAD)
    leader = next(d for d in found if d["code"] == "wrong-leader")
    assert leader["range"] == {"start": {"line": 7, "character": 3}, "end": {"line": 7, "character": 4}}
    # hover and formatting count the same lines
    lines = WORKED.read_text(encoding="utf-8").split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith(" 9 A:"))
    worked = _open(client, WORKED, end.join(lines), uri=f"untitled:worked-ends{len(end)}.dpn")
    client.diagnostics(worked)
    result = client.request("textDocument/hover", {"textDocument": {"uri": worked},
                                                   "position": {"line": row, "character": lines[row].index("5H")}})
    assert result["contents"]["value"].startswith("**B plays 5♥**: deal 1, trick 9, card 2 of 4")
    edits = client.request("textDocument/formatting", {"textDocument": {"uri": worked},
                                                       "options": {"tabSize": 4, "insertSpaces": True}})
    assert edits and all(e["range"]["end"] == {"line": len(lines) - 1, "character": len(lines[-1])} for e in edits)


def test_a_document_not_open_is_empty_and_its_change_ignored(client):
    # requests on a document never opened (or closed) read it from the disk and answered with
    # FileNotFoundError and its traceback; a change before the didOpen popped up a KeyError
    seen = len(client.log)
    never = "file:///never.dpn"
    here = {"textDocument": {"uri": never}, "position": {"line": 0, "character": 0}}
    assert client.request("textDocument/hover", here) is None
    assert client.request("textDocument/completion", here)["items"] == []
    assert client.request("textDocument/formatting", {"textDocument": {"uri": never},
                                                      "options": {"tabSize": 4, "insertSpaces": True}}) == []
    client.notify("textDocument/didChange", {"textDocument": {"uri": never, "version": 2},
                                             "contentChanges": [{"text": BAD.read_text(encoding="utf-8")}]})
    client.notify("textDocument/didSave", {"textDocument": {"uri": WORKED.as_uri()}})    # on the disk, not open
    assert client.diagnostics(WORKED.as_uri()) == []
    closed = _open(client, BAD, uri="untitled:closed.dpn")
    assert client.diagnostics(closed)
    client.notify("textDocument/didClose", {"textDocument": {"uri": closed}})
    assert client.diagnostics(closed) == []
    assert client.request("textDocument/hover", {"textDocument": {"uri": closed},
                                                 "position": {"line": 7, "character": 6}}) is None
    assert not [m for m in client.log[seen:] if m.get("method") == "window/showMessage" or "error" in m]


def _started() -> Client:
    c = Client()
    c.request("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(), "capabilities": {}})
    c.notify("initialized", {})
    return c


def test_every_request_is_answered_even_with_params_that_do_not_read(client):
    # a hover at line -1, or without params, had no response at all (pygls logged "Invalid
    # Params" and popped it up): the editor waited for ever
    uri = {"uri": "untitled:params.dpn"}
    bad = [{"textDocument": uri, "position": {"line": -1, "character": 0}},
           {"textDocument": uri, "position": {"line": 0}}, None, "hover", MISSING]
    for n, params in enumerate(bad, start=1000):
        message = {"jsonrpc": "2.0", "id": n, "method": "textDocument/hover"}
        if params is not MISSING:
            message["params"] = params
        client.send(_framed(message))
        error = client.answer(n)["error"]
        assert error["code"] == -32602 and error["message"] == "invalid params for textDocument/hover"
        assert "data" not in error
    client.send(_framed({"id": "no-version", "method": "textDocument/hover", "params": None}))
    assert client.answer("no-version")["error"]["code"] == -32600
    client.send(_framed({"jsonrpc": "2.0", "id": True, "method": "textDocument/hover", "params": None}))
    assert client.request("textDocument/hover", {"textDocument": uri, "position": {"line": 0, "character": 0}}) \
        is None                                                                  # and it goes on
    assert not [m for m in client.log if m.get("id") is True]                   # true is no id to answer


def test_a_request_after_shutdown_is_refused_not_dropped():
    c = _started()
    assert c.request("shutdown", None) is None
    c.send(_framed({"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover",
                    "params": {"textDocument": {"uri": "untitled:x.dpn"}, "position": {"line": 0, "character": 0}}}))
    assert c.answer(99)["error"]["code"] == -32600
    c.notify("exit", None)
    assert c.proc.wait(timeout=30) == 0


MISSING = object()


def _framed(message: Any) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _answers(data: bytes) -> list[dict[str, Any]]:
    """What a fresh server answers to ``data`` (framed messages, ending with shutdown and exit),
    in order; the server must exit with status 0 and log no traceback."""
    done = subprocess.run([sys.executable, "-m", "dehlanote", "lsp"], input=data, capture_output=True,
                          timeout=60, env=ENV, cwd=ROOT)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-2000:]
    return [json.loads(body) for body in re.split(rb"Content-Length: \d+\r\n(?:[^\r\n]+\r\n)*\r\n", done.stdout)
            if body]


MISFRAMED = {"not-a-number": b"Content-Length: abc\r\n\r\n{}", "negative": b"Content-Length: -5\r\n\r\n{}",
             "no-length": b"Content-Type: application/json\r\n\r\n{}", "zero": b"Content-Length: 0\r\n\r\n",
             "overflow": b"Content-Length: 99999999999999999999\r\n\r\n",
             "over-64MB": b"Content-Length: 67108865\r\n\r\n" + b"x" * 100_000,
             "garbage": b"garbage, no header at all\r\n", "not-json": b"Content-Length: 1\r\n\r\n{"}


def test_a_misframed_message_is_skipped_and_the_next_one_answered():
    # after a header block without a usable Content-Length every later header came glued to
    # the previous body and nothing was answered again; a huge length was an OverflowError and
    # the server's end. Now the message is skipped (a length over 64 MB unread) and the server
    # is in step again at the next Content-Length header. One server takes them all, each
    # twice, one after the other (a server per kind took a second each)
    c = _started()
    hover = {"textDocument": {"uri": "untitled:frames.dpn"}, "position": {"line": 0, "character": 0}}
    for name, bad in MISFRAMED.items():
        for n in (1, 2):
            c.send(bad)
            c.send(_framed({"jsonrpc": "2.0", "id": f"{name}-{n}", "method": "textDocument/hover", "params": hover}))
            assert c.answer(f"{name}-{n}", timeout=20) == {"jsonrpc": "2.0", "id": f"{name}-{n}", "result": None}
    assert c.request("shutdown", None) is None
    c.notify("exit", None)
    assert c.proc.wait(timeout=30) == 0


def _popups(client: Client, since: int = 0) -> list[dict[str, Any]]:
    return [m for m in client.log[since:] if m.get("method") in ("window/showMessage", "window/logMessage")]


NOT_JSON = {"not-json": b"{", "not-utf8": b"\xff\xfe{}", "nested-too-deep": b"[" * 100_000 + b"]" * 100_000,
            "cut-short": b'{"jsonrpc": "2.0", "id": 1'}


def test_a_body_that_is_not_json_gets_a_parse_error_not_a_popup():
    # the editor's user got a popup "Error in server: Expecting property name enclosed in
    # double quotes: line 1 column 2 (char 1)", Python's JSON error; JSON-RPC answers a body
    # that does not parse with a parse error (-32700) whose id is null, and the server goes on
    # (one server takes each kind in turn)
    c = _started()
    for name, body in NOT_JSON.items():
        c.send(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        refused = c.answer(None, timeout=20)["error"]
        assert refused["code"] == -32700 and "data" not in refused, name
        assert "char" not in refused["message"] and "Error" not in refused["message"], name
        assert c.request("textDocument/hover", {"textDocument": {"uri": "untitled:x.dpn"},
                                                "position": {"line": 0, "character": 0}}) is None, name
        assert not _popups(c), name
    assert c.request("shutdown", None) is None
    c.notify("exit", None)
    assert c.proc.wait(timeout=30) == 0


def test_a_notification_whose_params_do_not_read_is_logged_not_popped_up(client):
    # a notification has no answer: pygls popped up "Error in server: Invalid Params" on the
    # editor's screen for each one (didOpen without a document, a cancel without an id, ...)
    seen = len(client.log)
    for method, params in [("textDocument/didOpen", {"textDocument": {"uri": 5}}), ("textDocument/didOpen", None),
                           ("textDocument/didChange", {"textDocument": {"uri": "untitled:n.dpn"}}),
                           ("$/cancelRequest", None), ("$/setTrace", {"value": "loud"}), ("initialized", 7)]:
        client.notify(method, params)
    client.send(_framed({"jsonrpc": "2.0", "id": "reply", "error": "not an error object"}))   # a bad response
    assert client.request("textDocument/hover", {"textDocument": {"uri": "untitled:n.dpn"},
                                                 "position": {"line": 0, "character": 0}}) is None
    assert not _popups(client, seen)


def test_a_request_the_server_cannot_take_is_refused_in_words_never_with_a_traceback():
    # a hover before initialize, or a request whose method is a number or null, was answered
    # -32603 with Python's error ("RuntimeError: The workspace is not available - has the
    # server been initialized?", "TypeError: can only concatenate str ...") and its traceback
    c = Client()
    hover = {"textDocument": {"uri": "untitled:early.dpn"}, "position": {"line": 0, "character": 0}}
    c.send(_framed({"jsonrpc": "2.0", "id": "early", "method": "textDocument/hover", "params": hover}))
    c.notify("textDocument/didOpen", {"textDocument": {"uri": "untitled:early.dpn", "languageId": "dpn",
                                                       "version": 1, "text": BAD.read_text(encoding="utf-8")}})
    early = c.answer("early", timeout=20)["error"]
    assert early["code"] == -32002 and early["message"] == "the server is not initialized yet"
    c.request("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(), "capabilities": {}})
    c.notify("initialized", {})
    assert c.request("textDocument/hover", hover) is None          # the didOpen before initialize was dropped
    for n, method in enumerate([12, None, ["textDocument/hover"], {"a": 1}]):
        c.send(_framed({"jsonrpc": "2.0", "id": n, "method": method, "params": hover}))
        error = c.answer(n, timeout=20)["error"]
        assert error["code"] == -32600 and error["message"] == "the method is not a string", error
    c.send(_framed({"jsonrpc": "2.0", "method": 12, "params": None}))        # a notification: nothing to answer
    assert c.request("shutdown", None) is None
    c.notify("exit", None)
    assert c.proc.wait(timeout=30) == 0
    assert not [m for m in c.log if "data" in m.get("error", {}) or m.get("method") == "window/showMessage"]


@pytest.mark.parametrize("offered", [["utf-8", "utf-16", "utf-32"], ["utf-8", "utf-32", "utf-16"], ["utf-32"]],
                         ids=["neovim", "helix", "utf-32-only"])
def test_positions_are_utf16_whatever_encodings_the_editor_offers(offered):
    # the server counts columns in UTF-16 code units, but pygls announced the editor's first
    # choice: Neovim and Helix offer utf-8 first, so they sent byte columns, and a hover on
    # "3♥" (after two ♥ of three bytes each) was answered about the 7♥ after it
    c = Client()
    result = c.request("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(),
                                      "capabilities": {"general": {"positionEncodings": offered}}})
    assert result["capabilities"].get("positionEncoding", "utf-16") == "utf-16"
    c.notify("initialized", {})
    text = WORKED.read_text(encoding="utf-8").replace(" 1 A: AH 10H 3H 7H", " 1 A: A♥ 10♥ 3♥ 7♥")
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if "A♥ 10♥" in line)
    uri = _open(c, WORKED, text, uri="untitled:suits.dpn")
    c.diagnostics(uri)
    hover = c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                             "position": {"line": row, "character": lines[row].index("3♥")}})
    assert hover["contents"]["value"].startswith("**C plays 3♥**")
    assert c.request("shutdown", None) is None
    c.notify("exit", None)
    assert c.proc.wait(timeout=30) == 0


@pytest.mark.parametrize("method, params", [
    ("initialized", {}),
    ("textDocument/didOpen", {"textDocument": {"uri": "untitled:asked.dpn", "languageId": "dpn", "version": 1,
                                               "text": "deal 1 dealer D\n"}}),
    ("textDocument/didClose", {"textDocument": {"uri": "untitled:asked.dpn"}}),
    ("$/cancelRequest", {"id": 5}),
    ("$/setTrace", {"value": "off"}),
], ids=["initialized", "didOpen", "didClose", "cancelRequest", "setTrace"])
def test_a_notification_sent_as_a_request_is_answered_not_dropped(client, method, params):
    # a notification's method sent with an id was taken as the notification, its id dropped:
    # the editor waited for ever for an answer JSON-RPC owes to every request
    client.send(_framed({"jsonrpc": "2.0", "id": f"asked-{method}", "method": method, "params": params}))
    error = client.answer(f"asked-{method}", timeout=20)["error"]
    assert error["code"] == -32601 and error["message"] == f"{method} is a notification: it is sent without an id"
    assert client.request("textDocument/hover", {"textDocument": {"uri": "untitled:asked.dpn"},
                                                 "position": {"line": 0, "character": 0}}) is None


def test_exit_sent_as_a_request_is_answered_and_stops_the_server():
    c = _started()
    assert c.request("shutdown", None) is None
    c.send(_framed({"jsonrpc": "2.0", "id": "bye", "method": "exit"}))
    assert c.answer("bye", timeout=20)["result"] is None
    assert c.proc.wait(timeout=30) == 0


def test_a_byte_order_mark_left_in_the_editors_text_moves_no_position_on_line_1():
    # the reader's columns on line 1 do not count the mark, the editor's do: every error and
    # hover on the first line of such a document was one column to the left of its token
    assert [(d.line, d.start, d.end) for d in diagnostics("\ufeff[Event x]\n")] == [(0, 8, 9)]
    assert [(d.code, d.start, d.end) for d in diagnostics("\ufeffdeal 1 dealer X\n")] == [("syntax", 15, 16)]
    assert [(d.code, d.start, d.end) for d in diagnostics("\ufeffdeal 1\n")][0] == ("wrong-dealer", 1, 5)
    lines = [line for line in WORKED.read_text(encoding="utf-8").split("\n") if not line.startswith("[")]
    one = " ".join(lines)                                  # the whole deal on one line
    at = one.index("10H 3H")
    assert hover(one, 0, at).startswith("**B plays 10♥**")
    assert hover("\ufeff" + one, 0, at + 1) == hover(one, 0, at)
    wrong = one.replace("10H 3H", "10H 9S")
    plain = diagnostics(wrong)
    assert plain[0].code == "not-in-hand" and plain[0].start == wrong.index("9S", at)
    assert diagnostics("\ufeff" + wrong) == [d._replace(start=d.start + 1, end=d.end + 1) for d in plain]


def test_exit_without_shutdown_exits_with_status_1_as_lsp_says():
    # pygls swallowed the status: the server always exited 0, so an editor could not tell an
    # orderly stop from one that skipped shutdown
    c = _started()
    c.notify("exit", None)
    assert c.proc.wait(timeout=30) == 1
    c = _started()
    assert c.request("shutdown", None) is None
    c.notify("exit", None)
    assert c.proc.wait(timeout=30) == 0


def test_formatting_a_document_of_comments_alone_keeps_them():
    # it holds no game, so formatting gave "": the editor replaced the notes by nothing
    from dehlanote.langserver import formatted

    assert formatted("{notes for the next club evening}\n\n{who brings the cards}\n") == \
        "{notes for the next club evening}\n\n{who brings the cards}\n"
    assert formatted("") == "" and formatted("\n\n") == ""


def _lexed_lengths(monkeypatch) -> list[int]:
    """The length of each text the DPN lexer is given from now on (in the test's process)."""
    from dehlanote.output.lexer import DpnLexer

    lexed: list[int] = []
    real = DpnLexer.get_tokens_unprocessed

    def counting(self, source, *args):
        lexed.append(len(source))
        return real(self, source, *args)

    monkeypatch.setattr(DpnLexer, "get_tokens_unprocessed", counting)
    return lexed


def test_a_hover_lexes_from_its_line_not_from_the_start_of_the_document(monkeypatch):
    # a hover lexed the whole document up to the card and replayed every game: near the end
    # of a 2 MB record it took 6 seconds; now its line (or the comment open there) and its game
    text = "\n".join([WORKED.read_text(encoding="utf-8")] * 40)
    lines = text.split("\n")
    row = max(i for i, line in enumerate(lines) if line.startswith("10 A: JD"))     # trick 10 of the last game
    at = lines[row].index("4D")
    lexed = _lexed_lengths(monkeypatch)
    assert hover(text, row, at).startswith("**B plays 4♦**: deal 1, trick 10")
    assert lexed and max(lexed) < 2000
    # a comment that spans lines, with card-like words and a { in it, is lexed from its start
    spanned = text.replace(" 9 A: JH 5H 6C 4H {A twice", " 9 A: JH 5H 6C 4H {a note {with\n10 A: QS KS\nand} {A twice")
    lines = spanned.split("\n")
    inside = max(i for i, line in enumerate(lines) if line == "10 A: QS KS")
    assert hover(spanned, inside, 3) is None                  # words in a comment are no cards
    row = inside + 2
    assert lines[row].startswith("10 A: JD") and hover(spanned, row, lines[row].index("4D")).startswith(
        "**B plays 4♦**: deal 1, trick 10")


def test_a_lone_surrogate_in_the_editors_text_costs_no_diagnostic():
    # JSON lets a client send "\ud800"; counting its UTF-16 columns raised UnicodeEncodeError,
    # and the server published no diagnostic at all for the document
    found = diagnostics('[Event "x"] \ud800 [Site x]\n')
    assert [(d.code, d.line, d.start, d.end) for d in found] == [("syntax", 0, 12, 13)]


def test_a_diagnostic_quotes_control_characters_as_the_command_line_does():
    """A message quoting the record's text held its control characters raw (an editor showing a
    NUL or an escape); they are the pictures validate prints (␁)."""
    found = diagnostics("deal 1 dealer Q\x01\x1b\n")
    assert found and all(not any(ord(ch) < 32 for ch in d.message) for d in found)
    assert any('found "Q\u2401\u241b"' in d.message for d in found), [d.message for d in found]


def test_a_ranged_change_is_applied_to_the_text_not_taken_as_the_whole(client):
    # the server asks for whole texts, but an editor may send ranges: "3 B" -> "3 A" sent as a
    # range replaced the whole document with "A" (one syntax error instead of tens-mismatch)
    text = BAD.read_text(encoding="utf-8").replace(" 3 B: 4S", "{\U0001d11e} 3 B: 4S")
    uri = _open(client, BAD, text, uri="untitled:ranged.dpn")
    assert sorted(d["code"] for d in client.diagnostics(uri)) == ["tens-mismatch", "wrong-leader"]
    row = text.split("\n").index("{\U0001d11e} 3 B: 4S 5S 7S 9S")
    tens = text.split("\n").index("tens AC 2 BD 2")
    # B stands at code point 6 of its line, UTF-16 column 7 (the clef is two units); two
    # changes in one notification, each on the text the one before left
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": row, "character": 7}, "end": {"line": row, "character": 8}}, "text": "A"},
        {"range": {"start": {"line": tens, "character": 8}, "end": {"line": tens, "character": 14}},
         "text": "3 BD 1"},
    ]})
    assert client.diagnostics(uri) == []
    # a range across lines, and one past the end of the document (which stands for its end)
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
        {"range": {"start": {"line": tens, "character": 0}, "end": {"line": tens + 5, "character": 0}},
         "text": ""},
        {"range": {"start": {"line": 99, "character": 0}, "end": {"line": 99, "character": 0}},
         "text": "tens AC 2 BD 2\n"},
    ]})
    found = client.diagnostics(uri)
    assert [(d["code"], d["range"]["start"]["line"]) for d in found] == [("tens-mismatch", tens)]


def test_changed_counts_lsps_lines_and_utf16_columns():
    from dehlanote.langserver import changed
    text = "ab\r\ncd\ref\n\U0001d11ex\u2028y\n"
    assert changed(text, (1, 1), (2, 1), "Z") == "ab\r\ncZf\n\U0001d11ex\u2028y\n"    # \r\n, \r: one line end each
    assert changed(text, (3, 2), (3, 3), "Y") == "ab\r\ncd\ref\n\U0001d11eY\u2028y\n"   # the clef is two units
    assert changed(text, (3, 4), (3, 5), "") == "ab\r\ncd\ref\n\U0001d11ex\u2028\n"     # U+2028 ends no line
    assert changed(text, (0, 99), (1, 0), "") == "abcd\ref\n\U0001d11ex\u2028y\n"       # past a line's end: its end
    assert changed(text, (9, 0), (9, 0), "!") == text + "!"                           # past the last line: the end
    assert changed(text, (1, 2), (1, 0), "") == "ab\r\n\ref\n\U0001d11ex\u2028y\n"    # backwards: from its earlier end


def test_completion_in_a_record_written_on_one_line(client):
    # the context was read from the cursor's line alone, from its start: a record on one line
    # ("deal 1 dealer D hands A: ... trump D by A 1 A: AH ") was offered nothing
    lines = WORKED.read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("deal 1"))
    last = next(i for i, line in enumerate(lines) if line.startswith(" 4 D:"))
    one = " ".join(line.strip() for line in lines[first:last]) + " 4 D: KC 5C "
    uri = _open(client, WORKED, "\n".join(lines[:first] + [one]), uri="untitled:one-line.dpn")
    client.diagnostics(uri)
    result = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": {"line": first, "character": len(one)}})
    deal = next(replay_games(iter_path(WORKED))).deals[0]
    played = {p.card for t in deal.tricks[:4] for p in t.plays}
    assert [item["label"] for item in result["items"]] == \
        [c for c in completions("\n".join(lines[:last]) + "\n 4 D: KC 5C ", last, 12)]
    assert "4C" in [item["label"] for item in result["items"]]           # what B really played
    assert not played & {item["label"] for item in result["items"]} - {"4C"}
    # a hands line on the same line as the deal, and a comment holding card names
    assert "KS" in completions("deal 1 dealer D hands A: AS ", 0, 28)
    assert "AS" not in completions("deal 1 dealer D hands A: AS ", 0, 28)
    text = "\n".join(lines[:last]) + "\n 4 D: KC {5C?} "
    assert "5C" in completions(text, last, len(" 4 D: KC {5C?} "))
    # nowhere to play: in a comment left open, after a tens claim
    assert completions(one + "{KC ", first, len(one) + 4) == []
    assert completions(one + "tens AC 1 BD 0 ", first, len(one) + 15) == []


def test_completion_lexes_from_its_deal_not_from_the_start_of_the_game(monkeypatch):
    # where the cursor stands is read with the lexer: from the game's start, a game of thousands
    # of deals was lexed whole at each keystroke (2 MB: two seconds); now from the deal's line
    lines = WORKED.read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("deal 1"))
    last = next(i for i, line in enumerate(lines) if line.startswith(" 4 D:"))
    deal = lines[first:last]
    text = "\n".join(lines[:first] + ["{deal 0 was a misdeal: {no note}"] + deal * 1 + [" 4 D: KC 5C "])
    lexed = _lexed_lengths(monkeypatch)
    row = len(text.split("\n")) - 1
    assert completions(text, row, len(" 4 D: KC 5C ")) == ["10C", "4C", "3C"]
    assert lexed and max(lexed) < len("\n".join(deal)) + 40


def test_completion_after_a_line_ending_in_a_keyword(client):
    # a trick number right after "closed" (or "misdeal") was taken for that keyword's number,
    # as after "deal" or "at", and the trick was offered nothing
    lines = WORKED.read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("deal 1"))
    trump = next(i for i, line in enumerate(lines) if line.startswith("trump"))
    text = "\n".join(['[Rules "standard trump=closed"]', '[Result "*"]', ""] + lines[first:trump]
                     + ["trump D by A closed", " 1 A: AH "])
    row = len(text.split("\n")) - 1
    uri = _open(client, WORKED, text, uri="untitled:closed.dpn")
    client.diagnostics(uri)
    result = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": {"line": row, "character": 9}})
    assert [item["label"] for item in result["items"]] == ["QH", "10H", "5H"]
    assert completions("deal 1 dealer D trump D by A at 3 ", 0, 34) == []


def test_completion_after_a_hands_split_leaves_out_the_cards_dealt():
    # "hands A: AS KS |" (the first five dealt, the rest to come) did not read as a hand, so
    # every card was offered, AS and KS too
    for text in ("deal 1 dealer D\nhands A: AS KS |", "deal 1 dealer D\nhands A: AS KS | ",
                 "deal 1 dealer D\nhands A: AS\n      B: KS | QS | "):
        lines = text.split("\n")
        offered = completions(text, len(lines) - 1, len(lines[-1]))
        assert "AS" not in offered and "KS" not in offered and "JS" in offered, text


def test_hover_says_one_ten_not_one_tens():
    # "AC 1 tens (8 cards: 10♥)"
    text = '[Result "*"]\n\ndeal 1 dealer D\ntrump D by A\n 1 A: AH 10H 3H 7H\n 2 A: AS QS 2S 5S\n'
    said = hover(text, 5, len(" 2 A: AS QS 2S 5"))
    assert "AC 1 ten (8 cards: 10♥) · BD 0 tens (0 cards)" in said, said


@pytest.mark.parametrize("text", ["\n\n{a}\n\n", "{a}", "  {a}  \n", "{a}\r\n\r\n{b}", "\ufeff{a}\n", "\ufeff",
                                  "\ufeff\n\n"])
def test_formatting_comments_alone_gives_fmts_text(text, tmp_path):
    # (a byte-order mark alone, which fmt writes as nothing, was formatted as a line end)
    # "Formatting: the document as dehlanote fmt writes it": comments alone were given back as
    # the editor had them ("\n\n{a}\n\n", "{a}" without its line end) where fmt trims and ends them
    from dehlanote.langserver import formatted
    path = tmp_path / "notes.dpn"
    path.write_bytes(text.encode("utf-8"))
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "fmt", str(path)], capture_output=True, env=ENV, cwd=ROOT)
    assert formatted(text) == proc.stdout.decode("utf-8")


def test_a_brace_in_a_tag_value_opens_no_comment_for_hover_and_completion():
    # [Event "Smith {senior"] was taken for a comment left open: hover and completion lexed from
    # the tag line on (the whole game, at each keystroke) instead of from their own line or deal
    from dehlanote.langserver import _outside_comments

    head = '[Event "Smith {senior"]\n[Site "x\\"{"]\n[Rules "standard"]\n\n'
    text = head + "deal 1 dealer D\n 1 A: AH 10H 3H 7H\n"
    deal = text.index("deal 1")
    assert _outside_comments(text, deal) == deal
    assert _outside_comments(text, text.index(" 1 A:")) == text.index(" 1 A:")
    # a real comment on a tag line, after the value, is still taken as open
    spans = '[Event "a{b"] {a note\nthat spans}\n'
    assert _outside_comments(spans, spans.index("that")) == 0
    # and the lexer's reading is the same: the cards are offered from the trick's line
    lines = WORKED.read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("deal 1"))
    last = next(i for i, line in enumerate(lines) if line.startswith(" 4 D:"))
    body = "\n".join(['[Event "Smith {senior"]'] + [x for x in lines[:first] if not x.startswith("[Event")]
                     + lines[first:last] + [" 4 D: KC 5C "])
    row = len(body.split("\n")) - 1
    assert completions(body, row, len(" 4 D: KC 5C ")) == ["10C", "4C", "3C"]


def test_an_unsound_claim_is_a_diagnostic_and_its_game_is_not_formatted(tmp_path):
    # validate judges a claim double dummy (unsound-claim); the language server replayed without
    # the judge: no diagnostic at the claim, and formatting rewrote the faulty game as if it were
    # sound, adding a "tens AC 4 BD 0" line of its own, where fmt writes the game as it was
    lines = WORKED.read_text(encoding="utf-8").split("\n")
    last = next(i for i, line in enumerate(lines) if line.startswith("12 D:"))
    text = "\n".join(x for x in lines[:last] if not x.startswith("[Result")) + "\nclaim A\n"
    path = tmp_path / "claim.dpn"
    path.write_bytes(text.encode("utf-8"))
    row = last - 1
    assert _validated(path) == [("unsound-claim", row, 0)]
    assert [(d.code, d.line, d.start) for d in diagnostics(text)] == [("unsound-claim", row, 0)]
    from dehlanote.langserver import formatted
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "fmt", str(path)], capture_output=True, env=ENV, cwd=ROOT)
    assert formatted(text) == proc.stdout.decode("utf-8")
    assert "tens AC 4" not in formatted(text)


def test_a_tag_value_of_many_braces_is_read_once_for_hover_and_completion():
    # each { of a tag's value had its line read again from the start to tell that it stands in
    # the value: a value of 16,000 braces took 6 s a hover or a keystroke's completion, the
    # server answering nothing else meanwhile
    import time

    from dehlanote.langserver import _outside_comments

    head = '[Event "' + "{" * 30_000 + '"] [Site "a{b"] {a real comment\nover two lines}\n[Result "*"]\n\n'
    text = head + "deal 1 dealer D\ntrump D by A\n 1 A: AH 10H 3H 7H\n 2 A: "
    began = time.monotonic()
    assert _outside_comments(text, text.index("deal 1")) == text.index("deal 1")
    assert _outside_comments(text, text.index("over two")) == 0         # the real comment is open there
    assert time.monotonic() - began < 5
    lines = text.split("\n")
    assert hover(text, len(lines) - 2, 7).startswith("**A plays A♥**")
    assert len(completions(text, len(lines) - 1, len(lines[-1]))) == 48
    assert time.monotonic() - began < 10


def test_a_line_of_megabytes_is_not_lexed_whole_at_each_keystroke():
    # hover lexed from its line's start and completion from its deal's, to the cursor, however
    # far: at the end of a 10 MB line of cards they took 18 s and 29 s (and the server, busy,
    # answered nothing else). A deal within the reader's limits has far fewer tokens than are
    # lexed now; past them nothing is offered, as the reader reads no further
    import time

    from dehlanote.langserver import _LEX_LIMIT

    line = " 1 A: " + "AH " * 1_500_000
    text = '[Result "*"]\n\ndeal 1 dealer D\ntrump D by A\n' + line
    began = time.monotonic()
    assert completions(text, 4, len(line)) == []
    assert hover(text, 4, len(line) - 2) is None
    assert time.monotonic() - began < 8
    assert _LEX_LIMIT > 256 * 64 * 2 + 10_000        # a deal of 256 tricks of 64 cards is lexed whole


def test_hover_on_the_last_card_before_a_claim_says_the_claim_took_the_rest():
    # the position after the last card of a claimed deal is the deal's end, the claim's cards
    # taken: the hover said "D wins the trick ... centre 0 cards ... BD 1 ten (24 cards: 10♣)",
    # 16 cards and a ten moved by no trick, with no word of the claim
    lines = WORKED.read_text(encoding="utf-8").split("\n")
    last = next(i for i, line in enumerate(lines) if line.startswith("12 D:"))
    text = "\n".join(x for x in lines[:last] if not x.startswith("[Result")) + "\nclaim D\n"
    assert diagnostics(text) == []
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("11 A:"))
    said = hover(text, row, lines[row].index("KD"))
    assert "D wins the trick  \nthen D claims the rest: BD takes 16 cards with 10♣  \n" in said
    assert "BD 1 ten (24 cards: 10♣)" in said and said.endswith("**the deal is over**")
    before = hover(text, row, lines[row].index("7C"))            # a card before it: no claim yet
    assert "claims" not in before and "BD 0 tens (8 cards)" in before


def test_a_request_whose_id_is_no_string_nor_number_is_refused_without_a_traceback():
    # an object or a list as a request's id: pygls answered, then could not match the answer to
    # its request (a dict is unhashable) and wrote a traceback to the log; JSON-RPC refuses such a
    # request as invalid, with id null, and the server goes on
    hover = {"textDocument": {"uri": "untitled:x.dpn"}, "position": {"line": 0, "character": 0}}
    messages = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
                {"jsonrpc": "2.0", "method": "initialized", "params": {}},
                {"jsonrpc": "2.0", "id": {"a": 1}, "method": "textDocument/hover", "params": hover},
                {"jsonrpc": "2.0", "id": [1], "method": "shutdown"},
                {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}]
    answers = _answers(b"".join(_framed(m) for m in messages))
    refused = [a for a in answers if "error" in a]
    assert [(a["error"]["code"], a.get("id")) for a in refused] == [(-32600, None), (-32600, None)]
    assert {"id": 2, "jsonrpc": "2.0", "result": None} in answers            # and it went on to shut down


def test_a_batch_of_messages_is_refused_with_one_error_and_the_server_goes_on():
    # a JSON-RPC batch (an array) is not part of LSP: it was dropped without a word, and a client
    # that sent one waited for answers forever. One error with id null says so; nothing in the
    # batch is acted on (its shutdown does not shut the server down), and the next message is
    # answered as usual.
    batch = json.dumps([{"jsonrpc": "2.0", "id": 7, "method": "shutdown"},
                        {"jsonrpc": "2.0", "method": "exit"}]).encode("utf-8")
    empty = b"[]"
    messages = [_framed({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
                _framed({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
                b"Content-Length: %d\r\n\r\n" % len(batch) + batch,
                b"Content-Length: %d\r\n\r\n" % len(empty) + empty,
                _framed({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
                _framed({"jsonrpc": "2.0", "method": "exit"})]
    answers = _answers(b"".join(messages))
    refused = [a for a in answers if "error" in a]
    assert [(a["error"]["code"], a.get("id")) for a in refused] == [(-32600, None), (-32600, None)]
    assert "batch" in refused[0]["error"]["message"]
    assert not any(a.get("id") == 7 for a in answers)                      # the batch's request not acted on
    assert {"id": 2, "jsonrpc": "2.0", "result": None} in answers            # the next request answered


def test_a_second_initialize_is_refused_and_the_open_documents_are_kept():
    # LSP allows initialize once: a second was answered as the first and made a new workspace, so
    # every open document was dropped without a word (hover then answered null)
    uri = "file:///tmp/again.dpn"
    hover = {"textDocument": {"uri": uri}, "position": {"line": 20, "character": 6}}
    messages = [_framed({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
                _framed({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
                _framed({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                    "uri": uri, "languageId": "dpn", "version": 1, "text": WORKED.read_text(encoding="utf-8")}}}),
                _framed({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": hover}),
                _framed({"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {"capabilities": {}}}),
                _framed({"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": hover}),
                _framed({"jsonrpc": "2.0", "id": 5, "method": "shutdown"}),
                _framed({"jsonrpc": "2.0", "method": "exit"})]
    answers = {a.get("id"): a for a in _answers(b"".join(messages)) if "id" in a}
    assert answers[3] == {"jsonrpc": "2.0", "id": 3, "error": {
        "code": -32600, "message": "the server is initialized already: initialize is sent once"}}
    assert answers[2]["result"]["contents"]["value"].startswith("**D plays K")
    assert answers[4]["result"] == answers[2]["result"]


def test_a_request_with_a_fractional_id_is_answered_even_when_refused():
    # a refusal answered only whole-number and string ids: id 1.5 with no params got nothing at
    # all, where id 4 got -32602 and a valid request with id 3.5 its answer. NaN (which Python's
    # JSON reads) cannot be written back: such an id is an invalid request, answered with id null
    messages = [_framed({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
                _framed({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
                _framed({"jsonrpc": "2.0", "id": 1.5, "method": "textDocument/hover"}),
                b'Content-Length: 51\r\n\r\n{"jsonrpc": "2.0", "id": NaN, "method": "shutdown"}',
                _framed({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
                _framed({"jsonrpc": "2.0", "method": "exit"})]
    answers = _answers(b"".join(messages))
    assert {"jsonrpc": "2.0", "id": 1.5, "error": {
        "code": -32602, "message": "invalid params for textDocument/hover"}} in answers
    assert [a["error"]["code"] for a in answers if "error" in a and a.get("id") is None] == [-32600]
    assert {"jsonrpc": "2.0", "id": 2, "result": None} in answers
