"""A partnership is its players, not the text of their names joined by " & ": a player named
"A & B" partnered with "C", and "A" partnered with "B & C", are two partnerships (with the
text as key they were one: one row of ``partnerships``, one rating)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

duckdb = pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from db_helpers import ROOT, run  # noqa: E402

from dehlanote.db.ratings import Elo  # noqa: E402

WORKED = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")


def _records(tmp_path: Path) -> list[str]:
    one = WORKED.replace('"Asha"', '"A & B"').replace('"Chitra"', '"C"')
    two = (WORKED.replace('"Asha"', '"A"').replace('"Chitra"', '"B & C"').replace('"Bilal"', '"X"')
           .replace('"Dev"', '"Y"').replace("2026.??.??", "2026.01.02"))
    (tmp_path / "one.dpn").write_text(one, encoding="utf-8")
    (tmp_path / "two.dpn").write_text(two, encoding="utf-8")
    return [str(tmp_path / "one.dpn"), str(tmp_path / "two.dpn")]


def _query(db: Path, sql: str) -> list[dict]:
    code, out, err = run("db", "query", str(db), sql, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def test_partnerships_whose_names_join_alike_are_two(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    code, _, err = run("db", "build", *_records(tmp_path), "-o", str(db))
    assert code == 0, err
    rows = _query(db, "select players, deals, won, names from partnerships where players = 'A & B & C' "
                      "order by names")
    assert rows == [{"players": "A & B & C", "deals": 1, "won": 1, "names": ["A", "B & C"]},
                    {"players": "A & B & C", "deals": 1, "won": 1, "names": ["A & B", "C"]}]
    rated = _query(db, "select name, results, players from player_ratings where kind = 'partnership' "
                       "and name = 'A & B & C' order by players")
    assert rated == [{"name": "A & B & C", "results": 1, "players": ["A", "B & C"]},
                     {"name": "A & B & C", "results": 1, "players": ["A & B", "C"]}]
    # the players keep their own ratings: "A & B" is one player, "A" another
    assert _query(db, "select count(*) as n from player_ratings where kind = 'player'") == [{"n": 8}]


def test_the_elo_of_the_player_pages_keys_partnerships_by_their_players() -> None:
    elo = Elo()
    elo.feed([(1, 1, None, None, "AC", "deal", ["A & B", "C"], ["X", "Y"]),
              (2, 1, None, None, "AC", "deal", ["A", "B & C"], ["X", "Y"])])
    assert sorted(elo.pairs) == [("A", "B & C"), ("A & B", "C"), ("X", "Y")]


def test_a_database_of_schema_1_is_upgraded_by_its_next_build(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    files = _records(tmp_path)
    assert run("db", "build", *files, "-o", str(db))[0] == 0
    con = duckdb.connect(str(db))       # as the previous dehlanote left it
    con.execute("ALTER TABLE ratings DROP COLUMN players")
    con.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    con.close()
    code, _, err = run("db", "build", *files, "-o", str(db))
    assert code == 0, err
    assert "(0 read, 2 unchanged, 0 removed)" in err
    assert _query(db, "select value from meta where key = 'schema_version'") == [{"value": "2"}]
    assert len(_query(db, "select * from player_ratings where kind = 'partnership'")) == 4
