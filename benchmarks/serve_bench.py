"""dehlanote serve's stack against a minimal alternative: uvicorn + Starlette vs the standard library's
ThreadingHTTPServer, on the same table state (the phone page's GET /api/t/1) and the same card POST.

    PYTHONPATH=. python3 benchmarks/serve_bench.py [N]

Both servers bind 127.0.0.1 on a free port, each answers N requests over one keep-alive connection
(http.client), then stops. Prints the median and 95th percentile latency of each, and the load.
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from dehlanote.serve import Tables
from dehlanote.serve.view import table_state


def _table(folder: Path) -> Tables:
    tables = Tables(folder, sync=False)
    t = tables.start(rules="standard", names={"A": "Asha"}, dealer="D")
    for line in ("trump D", "AH", "10H", "3H"):
        tables.feed(t, line)
    return tables


def _time(port: int, n: int, path: str, headers: dict[str, str]) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        # a connection a request: on one kept-alive connection both servers wait out the client's
        # 40 ms delayed ACK (headers and body are two writes), which would hide the difference
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", path, headers=headers)
        r = conn.getresponse()
        r.read()
        conn.close()
        assert r.status == 200, r.status
        out.append(time.perf_counter() - t0)
    return out


def stdlib(n: int) -> list[float]:
    tables = _table(Path(tempfile.mkdtemp()))

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            body = json.dumps(table_state(tables.get(1))).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        return _time(server.server_address[1], n, "/api/t/1", {})
    finally:
        server.shutdown()
        tables.close()


def starlette(n: int) -> list[float]:
    import socket

    import uvicorn

    from dehlanote.serve import create_app
    tables = _table(Path(tempfile.mkdtemp()))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app(tables, secret="bench", hosts=(f"127.0.0.1:{port}",))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        return _time(port, n, "/api/t/1", {"Host": f"127.0.0.1:{port}"})
    finally:
        server.should_exit = True
        thread.join(10)
        tables.close()


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    for name, run in (("stdlib ThreadingHTTPServer", stdlib), ("uvicorn + Starlette", starlette)):
        run(20)   # warm up
        times = sorted(run(n))
        p95 = times[int(len(times) * 0.95)]
        print(f"{name:28} GET /api/t/1 x{n}: median {statistics.median(times) * 1000:.2f} ms, "
              f"p95 {p95 * 1000:.2f} ms (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
