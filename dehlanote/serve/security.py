"""The guard in front of every request (an ASGI middleware, so streamed answers pass through).

* ``--lan``: a request without the server's secret (``?key=`` or the ``X-Dehlanote-Key``
  header) gets 403, whatever it asks for.
* A change of state is a POST whose ``X-Dehlanote-Key`` header holds the secret, with a
  JSON body: a link, an image or a form on another site cannot send that header, and a
  script there would need a CORS answer, which this server never gives.
* Only GET, HEAD and POST; a Host header that names another machine is refused (a page
  on another site cannot reach the server by a name it controls).
* Limits: the path and query, the body (read in pieces, the connection cut past the limit).
* Every answer says ``nosniff``, no framing, no referrer (the secret stays out of other
  sites' logs), no caching.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from typing import Any, Awaitable, Callable, Iterable, MutableMapping, Optional
from urllib.parse import parse_qs, quote

from ..i18n import DEFAULT, choose, languages, translator
from .pages import refusal_page
from .words import refusal_sentence

__all__ = ["Guard", "KEY_HEADER", "reader_language"]

KEY_HEADER = "x-dehlanote-key"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


class Guard:
    """Wraps the app: ``secret`` always guards POST; ``lan`` makes it guard every request."""

    def __init__(self, app: ASGIApp, *, secret: str, lan: bool, hosts: Iterable[str],
                 body_limit: int = 8192, url_limit: int = 2048, lang: Optional[str] = None,
                 body_seconds: float = 10.0) -> None:
        self.app = app
        self.body_seconds = body_seconds
        self.lang = lang
        self.secret = secret
        self.lan = lan
        self.hosts = {h.lower() for h in hosts}
        self.body_limit = body_limit
        self.url_limit = url_limit

    def _key_ok(self, given: Optional[str]) -> bool:
        return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"),
                                                         self.secret.encode("utf-8"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)   # lifespan
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        method = scope["method"]
        path = scope.get("path", "")
        query = scope.get("query_string", b"").decode("latin-1")
        asked = parse_qs(query)
        language = reader_language((asked.get("lang") or [None])[0], self.lang, headers.get("accept-language"))
        _ = translator(language)
        query_key = (asked.get("key") or [None])[0]

        def home(code: str) -> Optional[str]:
            """The way to every table from a refusal page, where it leads somewhere: never without
            the key (the "all tables" link of the no-key page led to the same refusal) nor at
            another host's name."""
            if code in ("no-key", "wrong-host"):
                return None
            if not self.lan:
                return f"/?lang={language}"
            return f"/?key={quote(str(query_key), safe='')}&lang={language}" if self._key_ok(query_key) else None

        async def refuse(status: int, code: str, message: str, *, allow: bool = False) -> None:
            if method in ("GET", "HEAD") and not path.startswith("/api/"):
                # a person at an address (one typed without its key): a page in the reader's
                # language, as the app's own refusals are (the JSON shown raw, a Hindi sentence
                # as \u escapes, was all a phone showed)
                await _refuse_page(send, status, code, language, home=home(code), head=method == "HEAD")
                return
            await _refuse(send, status, code, message, sentence=refusal_sentence(code, _), allow=allow)

        if len(path) + len(query) > self.url_limit:
            await refuse(414, "too-long", "the address is too long")
            return
        if method not in ("GET", "HEAD", "POST"):
            await refuse(405, "method", "only GET and POST are answered here", allow=True)
            return
        host = headers.get("host", "").lower()
        if self.hosts and host not in self.hosts:
            await refuse(403, "wrong-host", "this server answers only to its own address")
            return
        header_key = headers.get(KEY_HEADER)
        if self.lan and not (self._key_ok(header_key) or self._key_ok(query_key)):
            await refuse(403, "no-key", "this table's address holds a key: scan the code or type the "
                         "whole address shown where the server runs")
            return
        if method == "POST":
            if not self._key_ok(header_key):
                await refuse(403, "no-key", "a change comes from the table's page only")
                return
            if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
                await refuse(415, "not-json", "a change is sent as JSON")
                return
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > self.body_limit):
                await refuse(413, "too-large", "that request is larger than a change may be")
                return
            # the whole body read here, bounded, before the app sees the request: a body sent in
            # chunks past the limit is refused before anything answers (the app answered it
            # first with an error of its own, and the refusal after it broke the connection)
            body = bytearray()
            loop = asyncio.get_running_loop()
            end = loop.time() + self.body_seconds       # one deadline for the whole body, not a piece
            while True:
                try:
                    message = await asyncio.wait_for(receive(), max(0.0, end - loop.time()))
                except asyncio.TimeoutError:      # a body that never comes holds a place of the server
                    await refuse(408, "too-slow", "the request's body did not come in time")
                    return
                if message["type"] != "http.request":
                    return          # the client went away
                body += message.get("body", b"")
                if len(body) > self.body_limit:
                    await refuse(413, "too-large", "that request is larger than a change may be")
                    return
                if not message.get("more_body", False):
                    break
            receive = _replay(bytes(body), receive)

        async def guarded_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in _COMMON if k not in names]
            await send(message)

        await self.app(scope, receive, guarded_send)



def reader_language(asked: Optional[str], forced: Optional[str], accept: Optional[str]) -> str:
    """The language a page or a refusal is given in: ``?lang=`` when it names one the pages
    speak, else the server's (``--lang``), else the browser's (``Accept-Language``)."""
    if asked in languages():
        return str(asked)
    if forced is not None:
        return forced
    return choose(accept, DEFAULT)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The request's body, read already, given again to the app; then what the client says next."""
    given = False

    async def inner() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return inner


async def _refuse_page(send: Send, status: int, code: str, lang: str, *, home: Optional[str],
                       head: bool = False) -> None:
    page, policy = refusal_page(code, lang=lang, home=home)
    body = page.encode("utf-8")
    headers = [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode()),
               (b"content-security-policy", policy.encode("utf-8")), (b"content-language", lang.encode("ascii"))]
    await send({"type": "http.response.start", "status": status, "headers": headers + _COMMON})
    await send({"type": "http.response.body", "body": b"" if head else body})


async def _refuse(send: Send, status: int, code: str, message: str, *, sentence: str = "",
                  allow: bool = False) -> None:
    answer = {"code": code, "message": message}
    if sentence:
        answer["sentence"] = sentence
    body = json.dumps(answer).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())] + _COMMON
    if allow:
        headers.append((b"allow", b"GET, HEAD, POST"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
