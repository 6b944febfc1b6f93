"""Fuzzing the surfaces a table uses: the web app's HTTP requests and piped recorder sessions.

    python tests/fuzz/sessions_campaign.py --seconds 120 --seed 7         # both campaigns
    python tests/fuzz/sessions_campaign.py --http-only --seconds 60

* **HTTP** (``dehlanote serve``, through Starlette's ASGI test client, no socket): random
  requests made of the app's own routes and actions and of garbage (methods, paths with
  ``..`` and long names, missing or wrong keys, bodies that are not JSON, huge or odd
  values, cards and DPN lines spelt every way). Each answer must be below 500, a JSON
  answer must parse, and in the end every record in the folder must read back with
  ``validate`` (no traceback, exit 0 or 1) and nothing may exist outside the folder.
* **record** (``dehlanote record NEW.dpn`` with its standard input piped): random lines of
  what a scorer types (deals, trump, hands, cards in any spelling, undo, claims, revoke
  rulings, help, garbage, bytes that are not UTF-8). The recorder must end by itself
  (a time limit), print no traceback, exit 0, 1 or 2, and leave a file that ``validate``
  reads without a traceback.

A finding is printed with its seed and input and makes the exit status 1. Not part of the
test suite (the suite has the regression tests of what such campaigns found).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

KEY = "fuzz-key"
SEATS = "ABCD"
SUITS = "SHDC"
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "T", "1", "11", "0"]
SPELL_SUITS = list(SUITS) + list("shdc") + ["♠", "♥", "♦", "♣", "♥️", "X", ""]


def _card(rng: random.Random) -> str:
    return rng.choice(RANKS) + rng.choice(SPELL_SUITS)


def _noise(rng: random.Random) -> str:
    pools = ["", " ", "{", "}", "[", "]", "\"", "\\", "\x00", "\x1b[2J", "\u202e", "𝄞", "<script>", "../", "%00",
             "\r", "\t", "é", "\u0085", "\ufeff"]
    return "".join(rng.choice(pools) for _ in range(rng.randrange(0, 8)))


def _dpn_line(rng: random.Random) -> str:
    kinds = [
        lambda: f"trump {rng.choice(SPELL_SUITS)}",
        lambda: f"deal {rng.randrange(0, 30)} dealer {rng.choice(SEATS + 'EFx')}",
        lambda: f"{rng.randrange(0, 15)} {rng.choice(SEATS)}: "
        + " ".join(_card(rng) for _ in range(rng.randrange(0, 6))),
        lambda: f"hands {rng.choice(SEATS)}: " + " ".join(_card(rng) for _ in range(rng.randrange(0, 14))),
        lambda: f"claim {rng.choice(SEATS + 'e')}",
        lambda: f"tens AC {rng.randrange(-1, 6)} BD {rng.randrange(-1, 6)}",
        lambda: f"revoke {rng.choice(SEATS)} at {rng.randrange(0, 14)} {rng.choice(['stands', 'penalty', 'x'])}",
        lambda: rng.choice(["undo", "misdeal", "help", "hlep", "clear", "seats", "quit", "", "?", "status"]),
        lambda: _card(rng),
        lambda: "{" + _noise(rng) + "}",
        lambda: _noise(rng),
        lambda: "x" * rng.choice([1, 100, 5000]),
    ]
    return rng.choice(kinds)()


# ---- HTTP --------------------------------------------------------------------------------------

def _request(rng: random.Random, tables: list[int]) -> tuple[str, str, dict, object]:
    n = rng.choice(tables + [0, 9999, -1]) if tables else rng.choice([1, 0, -1])
    paths = ["/", "/new", f"/t/{n}", f"/t/{n}/replay", f"/t/{n}/record.dpn", "/api/tables", f"/api/t/{n}",
             "/static/../../etc/passwd", "/t/../../x", "/" + "a" * rng.choice([10, 3000]), "/api/t/x",
             f"/t/{n}/record.dpn/..", "/%2e%2e/%2e%2e", "/favicon.ico"]
    path = rng.choice(paths)
    if rng.random() < 0.2:
        path += "?key=" + rng.choice([KEY, "wrong", "", KEY * 50])
    method = rng.choices(["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH"], [5, 8, 1, 1, 1, 1, 1])[0]
    headers: dict[str, str] = {}
    r = rng.random()
    if r < 0.75:
        headers["X-Dehlanote-Key"] = KEY
    elif r < 0.85:
        headers["X-Dehlanote-Key"] = rng.choice(["nope", "", KEY + "x", "%C3%BC"])   # (a client sends ASCII)
    if rng.random() < 0.1:
        headers["Origin"] = "http://evil.example"
    if rng.random() < 0.1:
        headers["Accept-Language"] = rng.choice(["hi", "hi-IN,en;q=0.5", "xx", "*", ";;;", "en"])
    if rng.random() < 0.05:
        headers["Content-Type"] = rng.choice(["text/plain", "application/json; charset=latin-1", "x/y"])
    do = rng.choice(["card", "trump", "undo", "misdeal", "dealer", "claim", "hands", "tens", "comment", "line",
                     "confirm", "", "rm -rf", None])
    actions = [
        {"do": "card", "card": _card(rng)},
        {"do": "trump", "suit": rng.choice(SPELL_SUITS), "closed": rng.random() < 0.2},
        {"do": rng.choice(["undo", "misdeal"])},
        {"do": "dealer", "seat": rng.choice(SEATS + "ex")},
        {"do": "claim", "seat": rng.choice(SEATS + "e")},
        {"do": "hands", "seat": rng.choice(SEATS), "cards": [_card(rng) for _ in range(rng.randrange(0, 14))]},
        {"do": "tens", "tens": {"AC": rng.randrange(-2, 14), "BD": rng.choice([0, 1, 2, "2", None])}},
        {"do": "comment", "text": _noise(rng) + "a comment"},
        {"do": "line", "line": _dpn_line(rng)},
        {"do": do, "device": _noise(rng)},
        {"rules": rng.choice(["standard", "pagat kots=2", "hukum", "bridge", "standard six-player", ""]),
         "names": {s: _noise(rng) + s for s in SEATS}, "dealer": rng.choice(SEATS + "x"),
         "hands": rng.random() < 0.3, "confirm": rng.random() < 0.2, "event": _noise(rng)},
    ]
    body: object
    b = rng.random()
    if b < 0.8:
        body = rng.choice(actions)
    elif b < 0.9:
        body = rng.randbytes(rng.choice([0, 10, 2000]))
    elif b < 0.95:
        body = b"{" * rng.choice([1, 50_000])
    else:
        body = {"do": "line", "line": "x" * 2_000_000}
    return method, path, headers, body


def http_campaign(seconds: float, seed: int) -> list[str]:
    from starlette.testclient import TestClient
    from dehlanote.serve import Tables, create_app

    findings: list[str] = []
    rng = random.Random(seed)
    base = Path(tempfile.mkdtemp(prefix="fuzz-serve-"))
    folder = base / "night"
    folder.mkdir()
    tables = Tables(folder, sync=False)
    app = create_app(tables, secret=KEY, lan=rng.random() < 0.5, hosts=("testserver",), stream_seconds=0.2)
    client = TestClient(app, raise_server_exceptions=False)
    started: list[int] = []
    count = 0
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            method, path, headers, body = _request(rng, started)
            kw: dict = {"headers": headers}
            if isinstance(body, bytes):
                kw["content"] = body
            elif method in ("POST", "PUT", "PATCH", "DELETE"):
                kw["json"] = body
            try:
                r = client.request(method, path, **kw)
            except Exception as exc:     # the client itself failing is a finding too
                findings.append(f"http seed {seed} #{count}: {method} {path}: {type(exc).__name__}: {exc}")
                count += 1
                continue
            count += 1
            if r.status_code >= 500:
                findings.append(f"http seed {seed} #{count}: {method} {path} -> {r.status_code}: {r.text[:300]}")
            if r.headers.get("access-control-allow-origin"):
                findings.append(f"http seed {seed} #{count}: CORS header on {method} {path}")
            if r.headers.get("content-type", "").startswith("application/json") and method != "HEAD":
                try:
                    data = r.json()
                except ValueError:
                    findings.append(f"http seed {seed} #{count}: {method} {path}: JSON that does not parse")
                    continue
                if path == "/api/tables" and method == "POST" and r.status_code == 200 and isinstance(data, dict):
                    number = data.get("table") or data.get("n") or data.get("number")
                    if isinstance(number, int):
                        started.append(number)
    finally:
        tables.close()
    outside = sorted(p.name for p in base.iterdir() if p.name != "night")
    if outside:
        findings.append(f"http seed {seed}: written outside the folder: {outside}")
    records = sorted(folder.glob("*.dpn"))
    for rec in records:
        findings += _validates(rec, f"http seed {seed}")
    print(f"http: {count} requests, {len(started)} tables started, {len(records)} records, "
          f"{len(findings)} findings", flush=True)
    return findings


# ---- piped record sessions ---------------------------------------------------------------------

def _validates(path: Path, where: str) -> list[str]:
    res = subprocess.run([sys.executable, "-m", "dehlanote", "validate", str(path)], capture_output=True,
                         cwd=ROOT, timeout=120, env=_env())
    bad = []
    if res.returncode not in (0, 1) or b"Traceback" in res.stderr:
        bad.append(f"{where}: validate {path.name} -> {res.returncode}: {res.stderr[-400:]!r}")
    return bad


def _env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    env.pop("COLUMNS", None)
    return env


def _session(rng: random.Random) -> bytes:
    lines = []
    if rng.random() < 0.8:
        lines.append(f"deal 1 dealer {rng.choice(SEATS)}")
    if rng.random() < 0.7:
        lines.append(f"trump {rng.choice(['H', 'hearts', 'S', 'd', '♣'])}")
    for _ in range(rng.randrange(0, 60)):
        r = rng.random()
        if r < 0.55:
            lines.append(" ".join(_card(rng) for _ in range(rng.choice([1, 1, 1, 4]))))
        else:
            lines.append(_dpn_line(rng))
    data = "\n".join(lines).encode("utf-8")
    if rng.random() < 0.1:
        data += b"\n\xff\xfe bad bytes\n"
    return data + (b"\n" if rng.random() < 0.9 else b"")


def record_campaign(seconds: float, seed: int) -> list[str]:
    findings: list[str] = []
    rng = random.Random(seed)
    count = 0
    end = time.monotonic() + seconds
    with tempfile.TemporaryDirectory(prefix="fuzz-record-") as tmp:
        while time.monotonic() < end:
            path = Path(tmp) / f"s{count}.dpn"
            data = _session(rng)
            args = ["record", str(path)]
            if rng.random() < 0.3:
                args += ["--rules", rng.choice(["pagat", "hukum", "standard trump=closed", "bridge"])]
            try:
                res = subprocess.run([sys.executable, "-m", "dehlanote", *args], input=data, capture_output=True,
                                     cwd=ROOT, timeout=60, env=_env())
            except subprocess.TimeoutExpired:
                findings.append(f"record seed {seed} #{count}: hangs (60 s): {data[:300]!r}")
                count += 1
                continue
            count += 1
            if res.returncode not in (0, 1, 2) or b"Traceback" in res.stderr or b"Traceback" in res.stdout:
                findings.append(f"record seed {seed} #{count}: exit {res.returncode}: {res.stderr[-300:]!r} "
                                f"input {data[:300]!r}")
            if path.exists():
                findings += _validates(path, f"record seed {seed} #{count}")
    print(f"record: {count} piped sessions, {len(findings)} findings", flush=True)
    return findings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=120, help="time for each campaign")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--http-only", action="store_true")
    ap.add_argument("--record-only", action="store_true")
    args = ap.parse_args(argv)
    findings: list[str] = []
    if not args.record_only:
        findings += http_campaign(args.seconds, args.seed)
    if not args.http_only:
        findings += record_campaign(args.seconds, args.seed)
    for f in findings[:50]:
        print("FINDING", f)
    print(json.dumps({"findings": len(findings), "seed": args.seed}))
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
