"""The web app of ``dehlanote serve``: Starlette routes over the folder's :class:`~.tables.Tables`.

Pages (GET): ``/`` the session index (every table and its score), ``/new`` start a table,
``/t/N`` a table's phone page, ``/t/N/replay`` its live replay page, ``/t/N/record.dpn``
its record. Data: ``/api/tables``, ``/api/t/N`` (a table's state), ``/api/events`` (server-sent
events: each table's version as it changes). Changes (POST, JSON, the key in a header):
``/api/tables`` (a new table), ``/api/t/N`` (one element: a card, trump, hands, undo,
misdeal, claim, tens, comment, a DPN line, a trick's confirmation).

Everything runs on the event loop's one thread: a request changes a table from start to end
(check, save with fsync, version) before the next one is looked at, so two phones on one
table cannot interleave their cards.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from typing import Any, Optional

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..i18n import translator
from .pages import live_replay_page, refusal_page, serve_page
from .security import Guard, reader_language
from .tables import Limits, Refusal, Table, Tables
from .view import hidden_trump, summary, table_state
from .words import refusal_sentence

__all__ = ["create_app", "Hub"]

_SUIT = re.compile(r"^[SHDC]$")
_CARD = re.compile(r"^(?:[AKQJ98765432]|10)[SHDC]$")
_DEVICE = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


class Hub:
    """Who waits for a change: each change wakes every open event stream."""

    def __init__(self) -> None:
        self.version = 1 + secrets.randbelow(1 << 30)    # (see Table.version)
        self._event: Optional[asyncio.Event] = None
        self.stopping = False
        self._loop: Optional[asyncio.AbstractEventLoop] = None

    def stop(self) -> None:
        """The server stops: every open stream ends now (safe from a signal's handler), rather
        than being cancelled when the graceful shutdown's time is up (which printed two
        "Exception in ASGI application" tracebacks on the server's terminal)."""
        self.stopping = True
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.changed)

    def changed(self) -> None:
        self.version += 1
        if self._event is not None:
            self._event.set()
            self._event = None

    async def wait(self, timeout: float) -> None:
        self._loop = asyncio.get_running_loop()
        if self._event is None:
            self._event = asyncio.Event()
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except asyncio.TimeoutError:
            pass


def create_app(tables: Tables, *, secret: str, lan: bool = False, lang: Optional[str] = None,
               hosts: tuple[str, ...] = (), stream_seconds: float = 25.0) -> Any:
    """The ASGI app (guarded) for ``tables``; ``lang`` forces a language, else the browser's."""
    hub = Hub()
    limits: Limits = tables.limits

    def language(request: Request) -> str:
        return reader_language(request.query_params.get("lang"), lang, request.headers.get("accept-language"))

    def page(request: Request, kind: str, **data: Any) -> Response:
        language_ = language(request)
        body, policy = serve_page(kind, lang=language_, key=secret, lan=lan, data={"name_limit": limits.name, **data},
                                  rules=sorted(tables.reg.profiles))
        return Response(body, media_type="text/html; charset=utf-8",
                        headers={"content-security-policy": policy, "content-language": language_})

    def table_of(request: Request) -> Table:
        raw = request.path_params["n"]
        table = tables.get(int(raw))
        if request.method in ("GET", "HEAD"):
            seen(table)       # (a change is checked against the file by the change itself, and refused)
        return table

    def seen(table: Table) -> None:
        """A record edited on disk under the server is shown as it is there, on every page."""
        before = table.version
        tables.follow(table)
        if table.version != before:      # edited (or made unreadable, or put right) on disk
            hub.changed()

    async def index(request: Request) -> Response:
        return page(request, "index")

    async def new(request: Request) -> Response:
        return page(request, "new")

    async def table_page(request: Request) -> Response:
        t = table_of(request)
        return page(request, "table", table=t.number)

    async def replay_page(request: Request) -> Response:
        t = table_of(request)
        language_ = language(request)
        body, policy = live_replay_page(t, lang=language_, key=secret if lan else None)
        return Response(body, media_type="text/html; charset=utf-8",
                        headers={"content-security-policy": policy, "content-language": language_})

    async def record(request: Request) -> Response:
        t = table_of(request)
        if hidden_trump(t.session) is not None:
            # the record holds the closed trump's suit, the setter's secret until it is revealed
            raise Refusal("trump-secret", "the record holds the closed trump chosen in secret: it is shown once "
                          "the trump is revealed or the deal is over", status=403)
        text, copy = t.session.text, "file"
        if t.unreadable:
            # the file on disk has errors: what is served is the server's last good copy, and says so
            # (it was served as if it were the file)
            text = (f"{{this is the server's last good copy of {t.path.name}: the file on the organiser's "
                    "computer was changed and has errors (dehlanote validate says which)}\n" + text)
            copy = "last-good"
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"content-disposition": f'inline; filename="{t.path.name}"',
                                 "x-dehlanote-copy": copy})

    async def api_tables(request: Request) -> Response:
        if request.method == "POST":
            body = await _json(request)
            names = body.get("names") or {}
            if not isinstance(names, dict):
                raise Refusal("bad-request", "names are given seat by seat", status=400)
            t = tables.start(rules=_text(body.get("rules"), "standard"),
                             names={str(k): _text(v, "") for k, v in names.items()},
                             dealer=_text(body.get("dealer"), "") or None,
                             hands=_flag(body.get("hands")), confirm=_flag(body.get("confirm")),
                             event=_text(body.get("event"), ""))
            hub.changed()
            return _state(t, request)
        for t in tables.tables.values():
            seen(t)
        return JSONResponse({"tables": [summary(t) for t in tables.tables.values()], "version": hub.version})

    cache: dict[int, tuple[int, dict[str, Any], bytes]] = {}

    def _state(t: Table, request: Request, device: str = "") -> Response:
        """The table's state, computed once a version (every phone asks after each change);
        ``entered_here`` tells the phone that entered the trick waiting for a confirmation (its
        ``device``) that another phone confirms it (it offered a button the table then refused)."""
        held = cache.get(t.number)
        if held is None or held[0] != t.version:
            state = table_state(t)
            held = (t.version, state, bytes(JSONResponse({**state, "entered_here": False}).body))
            cache[t.number] = held
        waiting = t.awaiting()
        if waiting is not None and t.entered_from(waiting, device):
            return JSONResponse({**held[1], "entered_here": True})
        return Response(held[2], media_type="application/json")

    async def api_table(request: Request) -> Response:
        t = table_of(request)
        if request.method in ("GET", "HEAD"):     # (HEAD: the head of GET's answer, never a change)
            asked = request.query_params.get("device", "")
            return _state(t, request, asked if _DEVICE.match(asked) else "")
        body = await _json(request)
        device = _text(body.get("device"), "")
        if device and not _DEVICE.match(device):
            device = ""
        seen = body.get("version")
        if seen is not None and (isinstance(seen, bool) or not isinstance(seen, int)):
            raise Refusal("bad-request", "the version is a whole number", status=400)
        if seen is not None and seen != t.version:
            # the page acted on a state the table has left (another phone's tap came first, a
            # request sent again): taken now, it would go to the wrong seat or undo twice
            raise Refusal("stale", "the table has changed since this page last showed it: look again",
                          status=409)
        what = _text(body.get("do"), "")
        if what == "confirm" and not device:
            raise Refusal("bad-request", "a confirmation names the phone it comes from", status=400)
        try:
            if what == "confirm":
                tables.confirm(t, device=device)
            else:
                tables.feed(t, _line(what, body, t), device=device)
        except Refusal as exc:
            if exc.code in ("record-changed", "record-unreadable"):
                hub.changed()       # the table now shows the record as edited, or is flagged: every page is told
            raise
        hub.changed()
        return _state(t, request, device)

    async def events(request: Request) -> Response:
        if request.method == "HEAD":     # no stream to hold open for an answer without a body
            return Response(media_type="text/event-stream")
        try:
            since = int(request.query_params.get("since", "-1"))
        except ValueError:
            since = -1

        async def stream() -> Any:
            nonlocal since
            loop = asyncio.get_running_loop()
            end = loop.time() + stream_seconds
            yield "retry: 500\n\n"
            while not hub.stopping and loop.time() < end:
                if hub.version != since:
                    since = hub.version
                    versions = {str(n): t.version for n, t in tables.tables.items()}
                    yield f"data: {json.dumps({'version': since, 'tables': versions})}\n\n"
                    continue
                await hub.wait(min(5.0, max(0.05, end - loop.time())))
                if hub.version == since:
                    yield ": still here\n\n"
        return StreamingResponse(stream(), media_type="text/event-stream")

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refusal)
        return refused_page(request, exc)

    async def not_found(request: Request, exc: Exception) -> Response:
        return refused_page(request, Refusal("not-found", "there is nothing at this address", status=404))

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return refused_page(request, Refusal("method", "only GET and POST are answered here", status=405))

    def refused_page(request: Request, exc: Refusal) -> Response:
        """A refusal as JSON for the pages' scripts, or as a page for a person at an address."""
        language_ = language(request)
        if request.url.path.startswith("/api/") or request.method not in ("GET", "HEAD"):
            _ = translator(language_)
            return JSONResponse({"code": exc.code, "message": exc.message,
                                 "sentence": refusal_sentence(exc.code, _)}, status_code=exc.status)
        body, policy = refusal_page(exc.code, lang=language_,
                                    home="/?" + (f"key={secret}&" if lan else "") + f"lang={language_}")
        return Response(body, status_code=exc.status, media_type="text/html; charset=utf-8",
                        headers={"content-security-policy": policy, "content-language": language_})

    routes = [
        Route("/", index), Route("/new", new),
        Route("/t/{n:int}", table_page), Route("/t/{n:int}/replay", replay_page),
        Route("/t/{n:int}/record.dpn", record),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/t/{n:int}", api_table, methods=["GET", "POST"]),
        Route("/api/events", events),
    ]
    app = Starlette(routes=routes, exception_handlers={Refusal: refused, 404: not_found, 405: not_allowed})
    app.state.hub = hub
    app.state.tables = tables
    return Guard(app, secret=secret, lan=lan, hosts=hosts, body_limit=limits.body, lang=lang)


async def _json(request: Request) -> dict[str, Any]:
    raw = await request.body()
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):    # (a body of 4,000 nested lists)
        raise Refusal("bad-request", "the request is not JSON", status=400) from None
    if not isinstance(body, dict):
        raise Refusal("bad-request", "the request is not a JSON object", status=400)
    return body


def _text(value: Any, default: str) -> str:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise Refusal("bad-request", "a value of the request is not text", status=400)
    text = str(value)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # half of a character (JSON's \ud800 alone: a phone's field cut in the middle of an
        # emoji): no file can hold it
        raise Refusal("bad-request", "a value of the request is not well-formed text", status=400) from None
    return text


def _flag(value: Any) -> bool:
    """A yes-or-no field: true, false or left out (the text "false" is not a yes)."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise Refusal("bad-request", "a yes-or-no field is true or false", status=400)
    return value


def _seat(body: dict[str, Any]) -> str:
    """A request's seat, read as a new table's seats are: in any case, the spaces around it
    trimmed (" a" was refused as no seat, where a table is made with the names of " a")."""
    return _text(body.get("seat"), "").strip().upper()


def _line(what: str, body: dict[str, Any], table: Table) -> str:
    """The DPN element a request stands for (built here from checked pieces, never pasted raw)."""
    seats = table.session.rules.seats
    from ..deck import seats_for, sides_for
    seat_letters = seats_for(seats)[:seats]
    if what == "card":
        card = _text(body.get("card"), "").strip().upper()
        if not _CARD.match(card):
            raise Refusal("bad-card", f"{card[:5]!r} is not a card", status=422)
        return card
    if what == "trump":
        suit = _text(body.get("suit"), "").strip().upper()
        if not _SUIT.match(suit):
            raise Refusal("bad-request", "trump is one of the four suits", status=400)
        return f"trump {suit}" + (" closed" if _flag(body.get("closed")) else "")
    if what in ("undo", "misdeal"):
        return what
    if what == "dealer":
        seat = _seat(body)
        if seat not in seat_letters or len(seat) != 1:
            raise Refusal("wrong-dealer", "the dealer is one of the seats", status=422)
        return f"dealer {seat}"
    if what == "claim":
        seat = _seat(body)
        if seat not in seat_letters or len(seat) != 1:
            raise Refusal("bad-request", "a claim is made by a seat", status=400)
        return f"claim {seat}"
    if what == "hands":
        seat = _seat(body)
        cards = body.get("cards")
        if seat not in seat_letters or len(seat) != 1 or not isinstance(cards, list) \
                or not all(isinstance(c, str) and _CARD.match(c.strip().upper()) for c in cards):
            raise Refusal("bad-request", "a hand is a seat and its cards", status=400)
        return f"hands {seat}: " + " ".join(c.strip().upper() for c in cards)
    if what == "tens":
        tens = body.get("tens")
        if isinstance(tens, dict):      # (sides read as seats are: in any case, trimmed)
            tens = {k.strip().upper() if isinstance(k, str) else k: v for k, v in tens.items()}
        sides = sides_for(seats)
        if not isinstance(tens, dict) or not all(isinstance(tens.get(s), int) and not isinstance(tens[s], bool)
                                                 and 0 <= tens[s] <= 12 for s in sides):
            raise Refusal("bad-request", "the tens are counted side by side", status=400)
        return "tens " + " ".join(f"{s} {tens[s]}" for s in sides)
    if what == "comment":
        text = _text(body.get("text"), "")
        clean = " ".join(text.replace("{", "(").replace("}", ")").split())
        if not clean:
            raise Refusal("bad-request", "the comment is empty", status=400)
        return "{" + clean + "}"
    if what == "line":
        return _text(body.get("line"), "")
    raise Refusal("bad-request", "that is not something a table can do", status=400)
