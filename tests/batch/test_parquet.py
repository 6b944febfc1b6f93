"""Replayed archives to Parquet, read back: one row per play, the facts of the replay."""

from __future__ import annotations

import io
import random
from collections import defaultdict
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

from dehlanote.batch.parquet import SCHEMA, export_parquet  # noqa: E402
from dehlanote.oracle.playout import Style, generate_match, iter_matches  # noqa: E402
from dehlanote.replay import replay_games  # noqa: E402
from dehlanote.syntax import parse_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    texts = [t for t, _ in iter_matches(8, 40, "standard", style=Style())]
    texts.append(generate_match(random.Random(3), "hukum", None, Style(loose=True, hands=True, withdrawn=0.5),
                                max_deals=2)[0])
    texts.append(generate_match(random.Random(4), "standard", {"six-player": True}, max_deals=1)[0])
    texts.append((ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8"))
    broken = texts[0].replace("tens AC 3 BD 1", "tens AC 0 BD 4", 1)
    texts.append(broken if broken != texts[0] else texts[0].replace("tens AC 1 BD 3", "tens AC 4 BD 0", 1))
    texts.append('[Event "unreadable"]\ndeal 1 dealer A\n 1 A: 1H\n')
    path = tmp_path_factory.mktemp("parquet") / "archive.dpn"
    path.write_text("\n".join(texts), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def table(archive: Path, tmp_path_factory):
    dest = tmp_path_factory.mktemp("out") / "plays.parquet"
    summary = export_parquet(archive, dest, batch_rows=1000)
    read = pq.read_table(dest)
    assert read.num_rows == summary.rows
    assert pq.ParquetFile(dest).metadata.num_row_groups > 1     # written as it streams
    return summary, read


def test_schema_and_counts(archive: Path, table) -> None:
    summary, read = table
    assert read.schema.equals(SCHEMA)
    facts = list(replay_games(parse_path(archive)))
    assert summary.games == len(facts)
    assert summary.deals == sum(len(f.game.deals) for f in facts)
    assert summary.errors == sum(len(f.errors) for f in facts)
    assert summary.rows == sum(len(t.plays) for f in facts for d in f.deals for t in d.tricks)


def test_every_play_row_is_the_replay(archive: Path, table) -> None:
    _, read = table
    rows = read.to_pylist()
    expected = []
    for index, f in enumerate(replay_games(parse_path(archive))):
        for d in f.deals:
            for t in d.tricks:
                for position, p in enumerate(t.plays):
                    expected.append((index, f.rules.label(), d.number, d.dealer, t.trump, t.number, t.leader,
                                     position, p.seat, p.card, t.winner, t.centre_cards,
                                     t.capture.side if t.capture else None, d.winner,
                                     dict(d.tens) or None, len(f.errors), p.play.line, p.play.column,
                                     [w.card for w in p.play.withdrawn]))
    got = [(r["game"], r["rules"], r["deal"], r["dealer"], r["trump"], r["trick"], r["leader"], r["position"],
            r["seat"], r["card"], r["winner"], r["centre_cards"], r["capture_side"], r["deal_winner"],
            dict(r["tens"]) if r["tens"] else None, r["game_errors"], r["line"], r["column"], r["withdrawn"])
           for r in rows]
    assert got == expected
    assert any(r["withdrawn"] for r in rows)
    assert {r["source"] for r in rows} == {str(archive)}


def test_the_count_rule_from_the_rows(table) -> None:
    """Every card of a complete deal ends captured; the tens captured are the deal's tens."""
    _, read = table
    captured: dict[tuple, int] = defaultdict(int)
    tens: dict[tuple, dict] = defaultdict(lambda: defaultdict(int))
    claimed: dict[tuple, dict] = {}
    plays: dict[tuple, int] = defaultdict(int)
    for r in read.to_pylist():
        key = (r["game"], r["deal"])
        plays[key] += 1
        claimed[key] = dict(r["tens"] or {})
        if r["position"] == 0 and r["capture_side"] is not None:
            captured[key] += r["capture_cards"]
            tens[key][r["capture_side"]] += len(r["capture_tens"])
    complete = [k for k, n in plays.items() if n in (52, 156)]
    assert len(complete) > 30
    for key in complete:
        assert captured[key] == plays[key]
        assert {s: n for s, n in tens[key].items() if n} == {s: n for s, n in claimed[key].items() if n}


def test_games_with_errors_are_marked(table) -> None:
    _, read = table
    errors = {r["game"]: r["game_errors"] for r in read.to_pylist()}
    assert any(errors.values()) and not all(errors.values())


def test_from_a_stream(archive: Path, table, tmp_path: Path) -> None:
    _, read = table
    summary = export_parquet(io.BytesIO(archive.read_bytes()), tmp_path / "s.parquet", name="archive")
    back = pq.read_table(tmp_path / "s.parquet")
    assert back.drop_columns(["source"]).equals(read.drop_columns(["source"]))
    assert set(back.column("source").to_pylist()) == {"archive"}
    assert summary.rows == read.num_rows


def test_duckdb_reads_it(table, tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    summary, read = table
    (n,), = duckdb.sql(f"select count(*) from '{summary.path}' where card like '10%'").fetchall()
    assert n == sum(1 for r in read.to_pylist() if r["card"].startswith("10"))
