"""stats and the database count the same players, tens and dates (names trimmed, claims, dates
in other digits): the figures of ``dehlanote stats --format json`` checked against ``db query``."""

from __future__ import annotations

import contextlib
import json
import re
import traceback
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from dehlanote.cli import app  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WORKED = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")


def run(*args: str, cwd: Path = ROOT) -> tuple[int, str, str]:
    """The command run in this process: exit status, standard output, standard error (with the
    traceback of an exception let out, as a user would see it)."""
    with contextlib.chdir(cwd):
        res = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None}).invoke(app, list(args))
    err = res.stderr
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        err += "".join(traceback.format_exception(res.exception))
    return res.exit_code, res.stdout, err


def stats_json(*args: str) -> dict:
    code, out, err = run("stats", "--format", "json", *args)
    assert "Traceback" not in err, err
    assert code in (0, 1), err
    return json.loads(out)


def query(db: Path, sql: str) -> list[dict]:
    code, out, err = run("db", "query", str(db), sql, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def build(tmp_path: Path, *files: Path) -> Path:
    db = tmp_path / "club.duckdb"
    code, _, err = run("db", "build", *map(str, files), "-o", str(db), "--jobs", "1")
    assert code == 0, err
    return db


def test_names_with_spaces_around_them_are_one_player_in_stats_and_the_database(tmp_path: Path) -> None:
    plain = tmp_path / "plain.dpn"
    plain.write_text(WORKED, encoding="utf-8")
    trailing = tmp_path / "trailing.dpn"
    trailing.write_text(WORKED.replace('[A "Asha"]', '[A "Asha "]').replace('[C "Chitra"]', '[C "  Chitra"]'),
                        encoding="utf-8")
    figures = stats_json(str(plain), str(trailing))
    players = figures["players"]
    assert sorted(players) == ["Asha", "Bilal", "Chitra", "Dev"]
    assert players["Asha"]["games"] == 2 and players["Asha"]["deals"] == 2
    assert players["Asha"]["partners"] == {"Chitra": 2}
    assert sorted(figures["tens_by_player"]) == ["Asha", "Bilal", "Chitra", "Dev"]
    db = build(tmp_path, plain, trailing)
    rows = {r["player"]: r for r in query(db, "select player, sum(games) games, sum(deals) deals, "
                                              "sum(tens_captured) tens, sum(tens_lost) lost from standings group by 1")}
    assert sorted(rows) == sorted(players)
    for name, p in players.items():
        assert (rows[name]["games"], rows[name]["deals"], rows[name]["tens"], rows[name]["lost"]) == \
            (p["games"], p["deals"], p["tens"], p["tens_lost"]), name
    # --player finds the trimmed name in both files, in any case, without a traceback
    code, out, err = run("stats", str(plain), str(trailing), "--player", "asha")
    assert code == 0 and "Traceback" not in err, err
    assert "Asha: 2 games" in out
    player = stats_json(str(trailing), "--player", " ASHA ")["player"]
    assert (player["name"], player["games"], player["deals"], len(player["games_list"])) == ("Asha", 1, 1, 1)


def test_a_player_whose_game_has_unknown_rules_is_said_not_a_crash(tmp_path: Path) -> None:
    unknown = tmp_path / "typo.dpn"
    unknown.write_text(re.sub(r'\[Rules "[^"]*"\]', '[Rules "standrad"]', WORKED), encoding="utf-8")
    code, out, err = run("stats", str(unknown), "--player", "asha")
    assert code == 1 and "Traceback" not in err, err     # (the game has an error: exit 1, as validate)
    assert "Asha: 0 games" in out
    assert "not counted: 1 game of Asha's whose Rules tag names rules dehlanote does not know" in out
    player = stats_json(str(unknown), "--player", "asha")["player"]
    assert player["games"] == 0 and player["deals"] == 0 and player["games_list"] == []
    assert player["games_rules_unknown"] == 1
    # the database does not count that game in anyone's record either
    db = build(tmp_path, unknown)
    assert query(db, "select count(*) n from standings") == [{"n": 0}]
    # beside a game it can replay, the record counts that one alone
    good = tmp_path / "good.dpn"
    good.write_text(WORKED, encoding="utf-8")
    player = stats_json(str(unknown), str(good), "--player", "asha")["player"]
    assert (player["games"], player["deals"], len(player["games_list"]), player["games_rules_unknown"]) == (1, 1, 1, 1)
