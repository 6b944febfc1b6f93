"""A player's name written in two Unicode forms is one player, and "?" is no one's name, in
stats, stats --player, review and the database alike."""

from __future__ import annotations

import json
import random
import re
import unicodedata
from pathlib import Path

import pytest

from dehlanote.oracle.playout import Style, generate_match

from db_helpers import run

#: "Åsa" with the ring as part of the letter (composed) and as a mark after the A (decomposed)
COMPOSED = unicodedata.normalize("NFC", "Åsa")
DECOMPOSED = unicodedata.normalize("NFD", "Åsa")


def _named(seed: int, names: dict[str, str]) -> str:
    text, _ = generate_match(random.Random(seed), "standard", None, Style(hands=True), max_deals=3)
    for seat, name in names.items():
        text = re.sub(rf'^\[{seat} "[^"]*"\]', f'[{seat} "{name}"]', text, count=1, flags=re.M)
    return text


@pytest.fixture
def two_forms(tmp_path: Path) -> Path:
    assert COMPOSED != DECOMPOSED
    path = tmp_path / "forms.dpn"
    path.write_text(_named(1, {"A": COMPOSED, "B": "Bala"}) + "\n" + _named(2, {"A": DECOMPOSED, "B": "Bala"}),
                    encoding="utf-8")
    return path


def test_stats_counts_both_forms_as_one_player(two_forms: Path) -> None:
    code, out, err = run("stats", "--format", "json", str(two_forms))
    assert code == 0, err
    players = json.loads(out)["players"]
    assert [n for n in players if n.casefold().endswith("sa")] == [COMPOSED]
    assert players[COMPOSED]["games"] == 2
    for typed in (COMPOSED, DECOMPOSED):
        code, out, err = run("stats", "--format", "json", str(two_forms), "--player", typed)
        assert code == 0, err
        assert json.loads(out)["player"]["games"] == 2


def test_review_counts_both_forms_as_one_player(two_forms: Path) -> None:
    code, out, err = run("review", str(two_forms), "--dd", "--from-trick", "12", "--no-cache", "--format", "json")
    assert code == 0, err
    names = [p["name"] for p in json.loads(out)["players"]]
    assert [n for n in names if n.casefold().endswith("sa")] == [COMPOSED]


def test_the_database_counts_both_forms_as_one_player(two_forms: Path, tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    db = tmp_path / "club.duckdb"
    code, _, err = run("db", "build", str(two_forms), "-o", str(db), "--jobs", "1")
    assert code == 0, err
    code, out, err = run("db", "query", str(db), "select player, games from standings where player like '%sa'",
                         "--format", "json")
    assert code == 0, err
    assert json.loads(out) == [{"player": COMPOSED, "games": 2}]


def test_stats_player_question_mark_is_no_one(tmp_path: Path) -> None:
    """``?`` marks a name not known: stats --player refuses it as review does, rather than a
    record of "?" with a game listed and none counted."""
    path = tmp_path / "unknown.dpn"
    path.write_text(_named(3, {"B": "?", "D": "??"}), encoding="utf-8")
    for name in ("?", "??"):
        code, out, err = run("stats", str(path), "--player", name)
        assert code == 2, out
        assert "unknown-player" in err and "Traceback" not in err
        code, out, err = run("review", str(path), "--player", name, "--dd", "--from-trick", "12")
        assert code == 2 and "unknown-player" in err


def test_stats_player_at_a_seat_the_table_has_not_is_no_one(tmp_path: Path) -> None:
    """A tag ``[E "Zoe"]`` in a game of four names no seat of the table: stats --player Zoe said
    "Zoe: 0 games" beside a game of Zoe's "won", at seat E; review and the database know no Zoe."""
    path = tmp_path / "four.dpn"
    path.write_text(_named(4, {"A": "Asha"}).replace("[Rules", '[E "Zoe"]\n[Rules', 1), encoding="utf-8")
    code, out, err = run("stats", str(path), "--player", "Zoe")
    assert code == 2 and "unknown-player" in err, out + err
    assert "Asha" in err
    code, out, err = run("stats", "--format", "json", str(path), "--player", "asha")
    assert code == 0, err
    assert json.loads(out)["player"]["games"] == 1


def test_stats_player_record_counts_every_spelling_it_lists(tmp_path: Path) -> None:
    """--player matches the name in any case, and listed the games of ``Zara`` and of ``zara``;
    the record above the list counted Zara's alone ("1 games ... seats A 2")."""
    path = tmp_path / "spellings.dpn"
    path.write_text(_named(21, {"A": "Zara"}) + "\n" + _named(22, {"A": "zara"}), encoding="utf-8")
    code, out, err = run("stats", "--format", "json", str(path))
    assert code == 0, err
    players = json.loads(out)["players"]
    code, out, err = run("stats", "--format", "json", str(path), "--player", "ZARA")
    assert code == 0, err
    record = json.loads(out)["player"]
    listed = record["games_list"]
    assert record["games"] == len(listed) == players["Zara"]["games"] + players["zara"]["games"] == 2
    assert record["deals"] == sum(g["deals"] for g in listed)
    assert record["deals_won"] == sum(g["deals_won"] for g in listed)
    for key in ("matches_won", "deals_lost", "kots", "tens", "tens_lost", "sweeps"):
        assert record[key] == players["Zara"][key] + players["zara"][key], key
    assert record["spellings"] == ["Zara", "zara"]
    code, out, err = run("stats", str(path), "--player", "zara")
    assert code == 0 and "Zara (also written zara): 2 games" in out, out


def test_review_unknown_player_lists_the_first_names_not_all(tmp_path: Path) -> None:
    """An unknown --player was answered with every name of the archive on one line (thousands
    in a club's archive); stats lists the first 30. review now does too, and says how many more."""
    path = tmp_path / "many.dpn"
    path.write_text("\n".join(_named(30 + i, {"A": f"Player{i:02d}", "B": f"Guest{i:02d}", "C": f"Host{i:02d}",
                                              "D": f"Visitor{i:02d}"}) for i in range(12)), encoding="utf-8")
    code, out, err = run("review", str(path), "--player", "Nobody", "--dd", "--from-trick", "13")
    assert code == 2 and "unknown-player" in err
    listed = err.split("the players are: ", 1)[1]
    assert listed.count(",") <= 30 and listed.rstrip().endswith("and 18 more"), listed
