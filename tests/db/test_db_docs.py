"""Every SQL example of docs/db.md runs against a generated archive, its answer checked against the
replayer's facts counted here another way (and against ``dehlanote stats`` where it counts the same)."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable

import pytest

duckdb = pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from dehlanote.deck import side_of  # noqa: E402
from dehlanote.oracle.playout import Style, generate_match  # noqa: E402
from dehlanote.replay import replay_games  # noqa: E402
from dehlanote.syntax import parse_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "db.md"
NAMES = ["Asha", "Bala", "Chitra", "Dev", "Esha", "Farid"]
DATES = ["2025.03.14", "2025.11.??", "2025.11.02", "2026.01.09", "2026.02.20", None, "2026.06.30", "2026.??.??"]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).strip(os.pathsep)
    return subprocess.run([sys.executable, "-m", "dehlanote", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def examples() -> dict[str, str]:
    """The ``sql example=NAME`` blocks of docs/db.md."""
    text = DOC.read_text(encoding="utf-8")
    found = {}
    for m in re.finditer(r"^```sql example=([\w-]+)\n(.*?)^```", text, re.S | re.M):
        assert m.group(1) not in found, m.group(1)
        found[m.group(1)] = m.group(2)
    assert re.findall(r"^```sql", text, re.M).__len__() == len(found), "an sql block without example=NAME"
    return found


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    rng = random.Random(25)
    texts = []
    for i in range(36):
        text, _ = generate_match(random.Random(100 + i), "standard", None, Style(), max_deals=12,
                                 bias=0.3 if i % 5 == 0 else 0.0)
        people = rng.sample(NAMES, 4)
        for seat, name in zip("ABCD", people):
            text = re.sub(rf'^\[{seat} "[^"]*"\]', f'[{seat} "{name}"]', text, count=1, flags=re.M)
        date = DATES[i % len(DATES)]
        if date:
            text = text.replace("[Rules", f'[Date "{date}"]\n[Rules', 1)
        texts.append(text)
    folder = tmp_path_factory.mktemp("docs-archive")
    (folder / "season.dpn").write_text("\n".join(texts[:20]), encoding="utf-8")
    (folder / "more.dpn").write_text("\n".join(texts[20:]), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def db(archive: Path) -> Path:
    proc = run("db", "build", "season.dpn", "more.dpn", "-o", "club.duckdb", cwd=archive)
    assert proc.returncode == 0, proc.stderr
    return archive / "club.duckdb"


class Game:
    def __init__(self, facts: Any, game_id: int, path: str, number: int) -> None:
        self.facts, self.id, self.path, self.number = facts, game_id, path, number
        self.names = {s: facts.game.tag(s) for s in "ABCD"}
        date = facts.game.tag("Date")
        self.season = int(date[:4]) if date and date[:4].isdigit() else None
        d = (date or "").replace("?", "")
        parts = [p for p in d.split(".") if p]
        self.sort = "-".join(parts) if parts else None

    def side_names(self, side: str) -> str:
        return " & ".join(sorted(self.names[s] for s in side))


@pytest.fixture(scope="module")
def games(archive: Path) -> list[Game]:
    out = []
    for path in ("season.dpn", "more.dpn"):
        for number, facts in enumerate(replay_games(parse_path(archive / path)), 1):
            out.append(Game(facts, len(out), path, number))
    return out


@pytest.fixture(scope="module")
def stats(archive: Path) -> dict:
    return json.loads(run("stats", "--format", "json", "season.dpn", "more.dpn", cwd=archive).stdout)


def answer(db: Path, sql: str) -> list[dict]:
    proc = run("db", "query", str(db), sql, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def deals(games: list[Game]):
    for g in games:
        for d in g.facts.deals:
            yield g, d


# ---- the independent answers -----------------------------------------------------------------

def sweep_three_tens(games, stats, rows):
    want = sorted({(g.id, d.number) for g, d in deals(games) for t in d.tricks
                   if t.capture and t.capture.reason == "two-in-a-row" and len(t.capture.tens) == 3})
    assert [(r["game_id"], r["deal"]) for r in rows] == want
    assert want and stats["sweeps"]["tens"].get("3", 0) >= len(want)


def last_trick_losers(games, stats, rows):
    lost: Counter = Counter()
    total = 0
    for g, d in deals(games):
        played = {p.card: p.seat for t in d.tricks for p in t.plays}
        for t in d.tricks:
            if t.capture and t.capture.reason == "last-trick":
                for ten in t.capture.tens:
                    total += 1
                    if side_of(played[ten]) != t.capture.side:
                        lost[g.names[played[ten]]] += 1
    assert total == stats["last_trick"]["tens"] and lost
    assert [(r["player"], r["tens"]) for r in rows] == sorted(lost.items(), key=lambda kv: (-kv[1], kv[0]))


def trump_setter_by_seat(games, stats, rows):
    count: Counter = Counter()
    won: Counter = Counter()
    for g, d in deals(games):
        if d.trump and d.trump.by and d.winner and d.complete:
            count[d.trump.by] += 1
            won[d.trump.by] += side_of(d.trump.by) == d.winner
    assert [(r["seat"], r["deals"], r["won"]) for r in rows] == [(s, count[s], won[s]) for s in sorted(count)]
    assert sum(won.values()) == sum(t["trump_side_won"] for t in stats["trump"].values())
    for r in rows:
        assert r["percent"] == round(100 * r["won"] / r["deals"], 1)


def partnership_streaks(games, stats, rows):
    best: dict[str, int] = defaultdict(int)
    for g in games:
        for side in ("AC", "BD"):
            best[g.side_names(side)] += 0
        for d in g.facts.deals:
            if d.complete and d.streak:
                key = g.side_names(d.streak.side)
                best[key] = max(best[key], d.streak.length)
    assert [(r["players"], r["longest_streak"]) for r in rows] == sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))
    assert max(best.values()) == max(s["length"] for s in stats["streaks"])


def standings(games, stats, rows):
    table: dict[tuple, Counter] = defaultdict(Counter)
    for g in games:
        res = g.facts.result
        for seat, name in g.names.items():
            row = table[(g.season, name)]
            row["matches_won"] += bool(res and res.finished and res.winner == side_of(seat))
            for d in g.facts.deals:
                if d.complete:
                    row["deals"] += 1
                    row["deals_won"] += d.winner == side_of(seat)
                    row["kots"] += bool(d.kot and d.kot.side == side_of(seat))
    want = sorted(((s, p, c["matches_won"], c["deals_won"], c["deals"], c["kots"]) for (s, p), c in table.items()),
                  key=lambda r: (r[0] is None, r[0] or 0, -r[3], r[1]))
    assert [tuple(r.values()) for r in rows] == want
    assert len({r[0] for r in want}) == 3          # 2025, 2026, undated
    for name, p in stats["players"].items():       # every season together: what stats counts
        assert sum(r[3] for r in want if r[1] == name) == p["deals_won"]
        assert sum(r[2] for r in want if r[1] == name) == p["matches_won"]


def tens_to_whom(games, stats, rows):
    pairs: Counter = Counter()
    for g, d in deals(games):
        played = {p.card: p.seat for t in d.tricks for p in t.plays}
        for t in d.tricks:
            cap = t.capture
            if cap:
                for ten in cap.tens:
                    if side_of(played[ten]) != cap.side:
                        pairs[(g.names[played[ten]], g.names[cap.by])] += 1
    want = sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    assert [((r["lost_by"], r["taken_by"]), r["tens"]) for r in rows] == want


def elo(games) -> tuple[dict[str, float], dict[str, list[tuple]]]:
    """Elo as docs/db.md says, computed here from the facts."""
    rating: dict[str, float] = defaultdict(lambda: 1500.0)
    history: dict[str, list[tuple]] = defaultdict(list)
    # by date (undated last), then by file name and the game's place in it
    order = sorted(games, key=lambda g: (g.sort is None, g.sort or "", g.path, g.number))
    seq = 0
    for g in order:
        results = [(d.winner, 16.0, "deal", g.sort) for d in g.facts.deals if d.complete and d.winner]
        res = g.facts.result
        if res and res.finished:
            results.append((res.winner, 32.0, "match", g.sort))
        for winner, k, event, when in results:
            seq += 1
            a, b = [g.names[s] for s in "AC"], [g.names[s] for s in "BD"]
            ra, rb = sum(rating[n] for n in a) / 2, sum(rating[n] for n in b) / 2
            score = 0.5 if winner is None else float(winner == "AC")
            change = k * (score - 1 / (1 + 10 ** ((rb - ra) / 400)))
            for names, sign in ((a, 1), (b, -1)):
                for n in names:
                    rating[n] += sign * change
                    history[n].append((seq, when, event, rating[n]))
    return rating, history


def ratings(games, stats, rows):
    rating, history = elo(games)
    assert [r["name"] for r in rows] == sorted(rating, key=lambda n: (-round(rating[n], 1), n))
    for r in rows:
        assert r["rating"] == pytest.approx(rating[r["name"]], abs=0.051)
        assert r["results"] == len(history[r["name"]])


def rating_history(games, stats, rows):
    rating, history = elo(games)
    first = min(rating)
    assert [(r["seq"], r["sort_date"], r["event"]) for r in rows] == [h[:3] for h in history[first]]
    assert [r["rating"] for r in rows] == pytest.approx([h[3] for h in history[first]], abs=0.051)


def kots(games, stats, rows):
    assert {r["kot_reason"]: r["kots"] for r in rows} == stats["kots"] and stats["kots"]


def dealer_side(games, stats, rows):
    assert {r["dealer"]: {"deals": r["deals"], "dealing_side_won": r["dealing_side_won"]} for r in rows} == \
        stats["by_table"]["4"]["dealer"]


CHECKS: dict[str, Callable] = {
    "sweep-three-tens": sweep_three_tens, "last-trick-losers": last_trick_losers,
    "trump-setter-by-seat": trump_setter_by_seat, "partnership-streaks": partnership_streaks,
    "standings": standings, "tens-to-whom": tens_to_whom, "ratings": ratings, "rating-history": rating_history,
    "kots": kots, "dealer-side": dealer_side,
}


def test_every_example_has_a_check() -> None:
    assert set(examples()) == set(CHECKS) | {"shards"}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_the_example_answers_what_the_facts_say(name: str, db: Path, games: list[Game], stats: dict) -> None:
    rows = answer(db, examples()[name])
    assert rows, name
    CHECKS[name](games, stats, rows)


def test_the_shards_example_on_a_local_cluster(archive: Path, games: list[Game], tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    from dehlanote.batch.distributed import export_parquet_files
    # (dashboard_address=None no longer turns the HTTP servers off: they listen on 127.0.0.1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address="127.0.0.1:0",
                                  worker_dashboard_address="127.0.0.1:0") as c, distributed.Client(c) as client:
        parts = export_parquet_files([archive / "season.dpn", archive / "more.dpn"], tmp_path / "plays", client,
                                     piece_bytes=1 << 12)
    assert len(parts) > 2                 # several shards
    con = duckdb.connect()
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        rows = con.execute(examples()["shards"]).fetchall()
    finally:
        os.chdir(old)
    played: Counter = Counter()
    at_once: Counter = Counter()
    for g, d in deals(games):
        for t in d.tricks:
            for p in t.plays:
                if p.card.startswith("10"):
                    played[p.seat] += 1
                    at_once[p.seat] += t.capture is not None
    assert rows == [(s, played[s], at_once[s]) for s in sorted(played)]
