"""stats and the database count the same players, tens and dates (names trimmed, claims, dates
in other digits): the figures of ``dehlanote stats --format json`` checked against ``db query``."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from dehlanote.oracle.playout import Style, generate_match  # noqa: E402

from db_helpers import run  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WORKED = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")


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


NAMES = ["Asha", "Bala", "Chitra", "Dev", "Esha", "Farid", "Gita"]


def claims_archive(path: Path) -> Path:
    """Generated matches (four and six players) whose deals often end with a true claim."""
    rng = random.Random(11)
    texts = []
    for i in range(10):
        options = {"six-player": True} if i % 4 == 3 else None
        text, _ = generate_match(random.Random(500 + i), "standard", options, Style(claims=0.7), max_deals=4)
        for seat, name in zip("ABCDEF", rng.sample(NAMES, 6)):
            text = re.sub(rf'^\[{seat} "[^"]*"\]', f'[{seat} "{name}"]', text, count=1, flags=re.M)
        texts.append(text)
    path.write_text("\n".join(texts), encoding="utf-8")
    return path


def test_the_tens_a_claim_takes_are_the_claimers_in_stats_as_in_the_database(tmp_path: Path) -> None:
    archive = claims_archive(tmp_path / "claims.dpn")
    figures = stats_json(str(archive))
    db = build(tmp_path, archive)
    claims = query(db, "select count(*) n, sum(tens) tens, count(*) filter (where tens > 0) with_tens "
                       "from captures where reason = 'claim'")[0]
    assert claims["with_tens"] >= 3, claims      # (the archive has claims that took tens)
    assert (figures["claims"]["count"], figures["claims"]["tens"]) == (claims["n"], claims["tens"])
    rows = {r["player"]: r for r in query(db, "select player, sum(tens_captured) tens, sum(tens_lost) lost "
                                              "from standings group by 1")}
    assert {name: (p["tens"], p["tens_lost"]) for name, p in figures["players"].items()} == \
        {name: (r["tens"], r["lost"]) for name, r in rows.items()}
    assert figures["tens_by_player"] == {name: r["tens"] for name, r in sorted(rows.items())}
    # the tens by seat add up to the tens by side, per table size and against the database's captures
    by_seat = {(str(r["seats"]), r["by_seat"]): r["tens"] for r in query(
        db, "select g.seats, c.by_seat, sum(c.tens) tens from captures c join games g using (game_id) group by 1, 2")}
    for size, table in figures["by_table"].items():
        assert sum(table["tens_by_seat"].values()) == sum(table["tens_by_side"].values())
        assert table["tens_by_seat"] == {seat: n for (s, seat), n in sorted(by_seat.items()) if s == size}


def test_the_worked_example_ended_by_a_claim(tmp_path: Path) -> None:
    lines = WORKED.splitlines()[:29]
    text = "\n".join(x for x in lines if not re.match(r"1[23] D|tens", x)) + "\nclaim D\n"
    path = tmp_path / "claim.dpn"
    path.write_text(text, encoding="utf-8")
    figures = stats_json(str(path))
    assert figures["tens_by_player"] == {"Asha": 3, "Bilal": 0, "Chitra": 0, "Dev": 1}
    assert figures["by_table"]["4"]["tens_by_seat"] == {"A": 3, "D": 1}
    db = build(tmp_path, path)
    assert query(db, "select player, tens_captured from standings order by 1") == [
        {"player": "Asha", "tens_captured": 3}, {"player": "Bilal", "tens_captured": 0},
        {"player": "Chitra", "tens_captured": 0}, {"player": "Dev", "tens_captured": 1}]


@pytest.mark.parametrize("date", ["२०२६.११.२७", "٢٠٢٦.١١.٢٧", "2026.１１.27", "२०२६.??.??",
                                  # other separators: bad-tag for validate, but a date for stats and the
                                  # database (2026-11-27, season 2026), which said they agreed
                                  "2026-11-27", "2026/11/27", "2026-??-??",
                                  # no day of the calendar: valid to validate, and season 2026, sort date
                                  # 2026-13 for stats and the database
                                  "2026.13.05", "2026.02.30", "0000.01.01"])
def test_a_date_in_other_digits_is_no_date_for_validate_stats_and_the_database(tmp_path: Path, date: str) -> None:
    path = tmp_path / "dated.dpn"
    path.write_text(WORKED.replace('[Date "2026.??.??"]', f'[Date "{date}"]'), encoding="utf-8")
    code, out, err = run("validate", str(path))
    assert code == 1, out + err
    assert f'bad-tag: the Date "{date}" ' in out + err
    # the database is built, the game in it without a date, the error beside it
    db = build(tmp_path, path)
    assert query(db, "select date_text, date, season, sort_date from games") == [
        {"date_text": date, "date": None, "season": None, "sort_date": None}]
    assert [r["code"] for r in query(db, "select code from errors")] == ["bad-tag"]
    assert query(db, "select season, player, games from standings where player = 'Asha'") == [
        {"season": None, "player": "Asha", "games": 1}]
    # stats: an undated game, left out of any date range
    assert stats_json(str(path))["games"] == 1
    assert stats_json(str(path), "--since", "2000")["games"] == 0


def test_a_date_range_in_other_digits_is_refused() -> None:
    code, _, err = run("stats", str(ROOT / "samples" / "worked-example.dpn"), "--since", "२०२६")
    assert code == 2 and "Traceback" not in err
    assert "--since २०२६: not a date (YYYY-MM-DD, YYYY-MM or YYYY)" in err


@pytest.mark.parametrize("unknown", ["?", "??", " ? "])
def test_a_seat_named_with_a_question_mark_is_no_player(tmp_path: Path, unknown: str) -> None:
    # PGN's mark for a name not known: a club writing it at the seats it does not know made one
    # player "?" who played on both sides (2 games of 1, a deal won and lost, rated against themself)
    path = tmp_path / "unknown.dpn"
    path.write_text(WORKED.replace('[B "Bilal"]', f'[B "{unknown}"]').replace('[D "Dev"]', f'[D "{unknown}"]'),
                    encoding="utf-8")
    assert stats_json(str(path))["tens_by_player"] == {"Asha": 3, "Chitra": 0}
    db = build(tmp_path, path)
    assert query(db, "select player, games, deals from standings order by 1") == [
        {"player": "Asha", "games": 1, "deals": 1}, {"player": "Chitra", "games": 1, "deals": 1}]
    assert query(db, "select seat, player from seats order by seat") == [
        {"seat": "A", "player": "Asha"}, {"seat": "B", "player": None}, {"seat": "C", "player": "Chitra"},
        {"seat": "D", "player": None}]


@pytest.mark.parametrize("since, until", [("2027", "2020"), ("2026-06-02", "2026-06-01"), ("2026-07", "2026-06-30")])
def test_a_date_range_that_ends_before_it_starts_is_refused(since: str, until: str) -> None:
    # it counted no game, and said nothing (exit 0)
    code, _, err = run("stats", str(ROOT / "samples" / "worked-example.dpn"), "--since", since, "--until", until)
    assert code == 2 and "Traceback" not in err
    assert f"--since {since} comes after --until {until}: no game can be in that range" in err


@pytest.mark.parametrize("since, until", [("2026-05", "2026"), ("2026", "2026-05"), ("2026-06-01", "2026-06-01")])
def test_a_date_range_within_one_period_is_a_range(since: str, until: str) -> None:
    code, _, err = run("stats", str(ROOT / "samples" / "worked-example.dpn"), "--since", since, "--until", until)
    assert code == 0, err


def test_a_deal_the_record_stops_in_is_a_deal_played_in_stats_and_the_database(tmp_path: Path) -> None:
    # the worked example stopped after trick 6 (Result "*"): the deal was played, not finished
    lines = WORKED.splitlines()
    path = tmp_path / "stopped.dpn"
    path.write_text("\n".join(lines[: lines.index(next(x for x in lines if x.startswith(" 7 ")))]) + "\n",
                    encoding="utf-8")
    figures = stats_json(str(path))
    assert (figures["deals"], figures["complete"]) == (1, 0)
    db = build(tmp_path, path)
    rows = {r["player"]: r for r in query(db, "select player, deals, deals_won, deals_lost from standings")}
    assert {name: (p["deals"], p["deals_won"], p["deals_lost"]) for name, p in figures["players"].items()} == \
        {name: (r["deals"], r["deals_won"], r["deals_lost"]) for name, r in rows.items()} == \
        {name: (1, 0, 0) for name in ("Asha", "Bilal", "Chitra", "Dev")}
    # the partnerships' deals together, as stats counts partners
    assert query(db, "select players, deals, won, lost from partnerships order by 1") == [
        {"players": "Asha & Chitra", "deals": figures["players"]["Asha"]["partners"]["Chitra"], "won": 0, "lost": 0},
        {"players": "Bilal & Dev", "deals": figures["players"]["Bilal"]["partners"]["Dev"], "won": 0, "lost": 0}]


def test_the_player_pages_rate_the_files_in_the_order_the_database_does(tmp_path: Path) -> None:
    # Asha and Chitra win the six deals of one file and lose the six of the other, all of one
    # date: the files' order decides the ratings (Elo), and the site's player page shows the
    # database's rating, whatever form the paths are given in
    swapped = WORKED
    for one, other in (("Asha", "Bilal"), ("Chitra", "Dev")):
        swapped = swapped.replace(f'"{one}"', '"?"').replace(f'"{other}"', f'"{one}"').replace('"?"', f'"{other}"')
    (tmp_path / "z").mkdir()
    (tmp_path / "y").mkdir()
    (tmp_path / "z" / "a.dpn").write_text("\n".join([WORKED] * 6), encoding="utf-8")
    (tmp_path / "y" / "b.dpn").write_text("\n".join([swapped] * 6), encoding="utf-8")
    for given in (["y/b.dpn", "./z/a.dpn"],
                  [str(tmp_path / "z" / "a.dpn"), str(tmp_path / "y" / "b.dpn")]):
        for old in ("club.duckdb", "site"):
            shutil.rmtree(tmp_path / old, ignore_errors=True)
            (tmp_path / old).unlink(missing_ok=True)
        code, _, err = run("db", "build", *given, "-o", "club.duckdb", "--jobs", "1", cwd=tmp_path)
        assert code == 0, err
        rating = query(tmp_path / "club.duckdb", "select rating from player_ratings where name = 'Asha'")[0]["rating"]
        assert abs(rating - 1500) > 5, rating      # (the order matters)
        code, _, err = run("html", "--site", *given, "-o", "site", cwd=tmp_path)
        assert code == 0, err
        page = (tmp_path / "site" / "players" / "asha.html").read_text(encoding="utf-8")
        assert f'<span class="now">{rating:.0f}</span>' in page, given
