"""stats --player and --since/--until, and the seat and side counts per table size (six players apart)."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from dehlanote.deck import side_of
from dehlanote.oracle.playout import Style, generate_match
from dehlanote.replay import replay_games
from dehlanote.syntax import parse_path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))
NAMES = ["Asha", "Bala", "Chitra", "Dev", "Esha"]
DATES = ["2025.06.01", "2025.12.??", "2026.01.15", "2026.03.02", None, "2026.07.??"]


def stats(*args: str) -> tuple[int, dict]:
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "stats", "--format", "json", *args], cwd=ROOT,
                          capture_output=True, text=True)
    return proc.returncode, (json.loads(proc.stdout) if proc.stdout else {})


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    rng = random.Random(7)
    texts = []
    for i in range(18):
        text, _ = generate_match(random.Random(300 + i), "standard", None, Style(), max_deals=5)
        for seat, name in zip("ABCD", rng.sample(NAMES, 4)):
            text = re.sub(rf'^\[{seat} "[^"]*"\]', f'[{seat} "{name}"]', text, count=1, flags=re.M)
        if DATES[i % len(DATES)]:
            text = text.replace("[Rules", f'[Date "{DATES[i % len(DATES)]}"]\n[Rules', 1)
        texts.append(text)
    six, _ = generate_match(random.Random(9), "standard", {"six-player": True}, Style(), max_deals=2)
    texts.append(six)
    path = tmp_path_factory.mktemp("player") / "club.dpn"
    path.write_text("\n".join(texts), encoding="utf-8")
    return path


def record_of(path: Path, name: str, keep=lambda date: True) -> Counter:
    """What --player NAME should say, counted from the replayer's facts."""
    c: Counter = Counter()
    for facts in replay_games(parse_path(path)):
        seats = [s for s in "ABCDEF" if facts.game.tag(s) == name]
        if not seats or not keep(facts.game.tag("Date")):
            continue
        seat = seats[0]
        n = facts.rules.seats
        side = side_of(seat, n)
        c["games"] += 1
        for d in facts.deals:
            c["deals"] += 1
            if d.complete and d.winner:
                c["deals_won" if d.winner == side else "deals_lost"] += 1
            played = {}
            for t in d.tricks:
                for p in t.plays:
                    played.setdefault(p.card, p.seat)
                if t.capture:
                    if t.capture.by == seat:
                        c["tens"] += len(t.capture.tens)
                    c["tens_lost"] += sum(played.get(ten) == seat and t.capture.side != side for ten in t.capture.tens)
            for mate in facts.game.tags:
                same = len(mate.name) == 1 and mate.name in "ABCDEF" and side_of(mate.name, n) == side
                if same and mate.name != seat:
                    c["partner:" + mate.value] += 1
    return c


def test_player_record_is_the_replayers(archive: Path) -> None:
    code, s = stats(str(archive), "--player", "bala")        # any case
    assert code == 0
    p = s["player"]
    want = record_of(archive, "Bala")
    assert p["name"] == "Bala" and s["games"] == want["games"] > 3
    for key in ("games", "deals", "deals_won", "deals_lost", "tens", "tens_lost"):
        assert p[key] == want[key], key
    assert p["partners"] == {k[8:]: v for k, v in sorted(want.items()) if k.startswith("partner:")}
    assert len(p["games_list"]) == want["games"] and sum(p["seats"].values()) == want["games"]
    assert all(g["result"] in ("won", "lost", "level", "unfinished") for g in p["games_list"])


def test_since_and_until_choose_games_by_their_date(archive: Path) -> None:
    code, s = stats(str(archive), "--player", "Bala", "--since", "2025-12", "--until", "2026.03.01")
    assert code == 0
    # 2025.12.?? and 2026.01.15 are in; 2026.03.02 and undated games are out
    keep = lambda d: d in ("2025.12.??", "2026.01.15")  # noqa: E731
    want = record_of(archive, "Bala", keep)
    assert s["games"] == want["games"] and s["player"]["deals_won"] == want["deals_won"]
    code, everyone = stats(str(archive), "--since", "2026")
    assert code == 0
    assert everyone["games"] == sum(1 for f in replay_games(parse_path(archive))
                                    if (f.game.tag("Date") or "").startswith("2026"))
    for bad in ("2026-13", "26", "2026-02-30", "yesterday"):
        proc = subprocess.run([sys.executable, "-m", "dehlanote", "stats", str(archive), "--since", bad], cwd=ROOT,
                              capture_output=True, text=True)
        assert proc.returncode == 2 and proc.stderr.startswith("dehlanote: --since ") and "Traceback" not in \
            proc.stderr, bad


def test_an_unknown_player_is_said(archive: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "stats", str(archive), "--player", "Nobody"], cwd=ROOT,
                          capture_output=True, text=True)
    # refused as review refuses it (exit 2, the code, the names there are), and nothing printed
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert proc.stderr.startswith("dehlanote: unknown-player: no game has a player called 'Nobody'; the players are: ")
    named = {t.value.strip() for g in parse_path(archive) for t in g.tags if t.name in "ABCDEF" and t.value}
    assert set(proc.stderr.split("the players are: ", 1)[1].strip().removesuffix(", and more").split(", ")) <= named
    assert "Traceback" not in proc.stderr


def test_six_player_sides_and_seats_are_counted_apart(archive: Path) -> None:
    code, s = stats(*map(str, SAMPLES), str(archive))
    assert code == 0
    four, six = s["by_table"]["4"], s["by_table"]["6"]
    assert set(four["won"]) <= {"AC", "BD"} and set(six["won"]) <= {"ACE", "BDF"} and six["won"]
    per_size: dict[int, Counter] = {4: Counter(), 6: Counter()}
    deals: Counter = Counter()
    for path in [*SAMPLES, archive]:
        for facts in replay_games(parse_path(path)):
            n = facts.rules.seats
            for d in facts.deals:
                deals[n] += 1
                for t in d.tricks:
                    if t.capture:
                        per_size[n][t.capture.by] += len(t.capture.tens)
    assert four["tens_by_seat"] == dict(sorted(per_size[4].items()))
    assert six["tens_by_seat"] == dict(sorted(per_size[6].items()))
    assert (four["deals"], six["deals"]) == (deals[4], deals[6])
    assert four["dealing_side_won"] + six["dealing_side_won"] == s["dealing_side_won"]
    assert "tens_by_seat" not in s and "dealer" not in s            # no mixed totals left


@pytest.mark.parametrize("name", ["[/]", "[bold]Asha", "Asha [link=http://x]x[/link]", "[red"])
def test_names_that_look_like_markup_are_printed_as_written(tmp_path: Path, name: str) -> None:
    worked = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    path = tmp_path / "markup.dpn"
    path.write_text(worked.replace('[A "Asha"]', f'[A "{name}"]'), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "stats", str(path), "--player", name], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"})
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert f"Games of {name}" in proc.stdout
    assert f"{name}: 1 games" in proc.stdout
    assert re.search(rf"^{re.escape(name)}\s+1\s", proc.stdout, re.M)      # its row of the Players table


def test_the_sites_player_page_counts_a_name_with_spaces_around_it_once(tmp_path: Path) -> None:
    worked = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    (tmp_path / "a.dpn").write_text(worked, encoding="utf-8")
    (tmp_path / "b.dpn").write_text(worked.replace('[A "Asha"]', '[A "Asha "]'), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "html", "--site", str(tmp_path / "a.dpn"),
                           str(tmp_path / "b.dpn"), "-o", str(tmp_path / "site")], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "site" / "players" / "asha.html").read_text(encoding="utf-8")
    page = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Record 2 games 0 matches won 2 deals 2 deals won" in words, words
    assert "Chitra 2 2 2" in words      # partner, games, deals together, deals won together
    assert words.count("Worked example 2026.??.?? A Chitra") == 2


def test_a_player_asked_for_outside_the_dates_is_not_said_to_be_in_no_named_game(tmp_path):
    # "the players are: none (no game read names its seats with [A "name"] tags)": the game did
    # name them, it was of another date
    from typer.testing import CliRunner

    from dehlanote.cli import app
    worked = Path(__file__).resolve().parents[2] / "samples" / "worked-example.dpn"
    result = CliRunner().invoke(app, ["stats", str(worked), "--player", "Asha", "--since", "2027"])
    assert result.exit_code == 2
    assert result.stderr.strip() == ("dehlanote: unknown-player: no game of those dates has a player called 'Asha'; "
                                      "the players are: none in those dates (the one game read is of other dates, "
                                      "or undated)")


def test_a_name_at_several_seats_of_one_game_is_listed_at_each(tmp_path: Path) -> None:
    # two seats of one name are two players, each counted: the totals counted every seat (games
    # 3, deals 6), but the seats and the games listed named the first seat only
    text, _ = generate_match(random.Random(5), "standard", None, Style(), max_deals=3)
    for seat in "ABD":
        text = re.sub(rf'^\[{seat} "[^"]*"\]', f'[{seat} "Asha"]', text, count=1, flags=re.M)
    path = tmp_path / "same.dpn"
    path.write_text(text, encoding="utf-8")
    code, s = stats(str(path), "--player", "Asha")
    assert code == 0, s
    p = s["player"]
    (facts,) = replay_games(parse_path(path))
    complete = [d for d in facts.deals if d.complete]
    listed = [(g["seat"], g["deals"], g["deals_won"]) for g in p["games_list"]]
    assert listed == [(seat, len(complete), sum(d.winner == side_of(seat, 4) for d in complete)) for seat in "ABD"]
    assert p["seats"] == {"A": 1, "B": 1, "D": 1}
    assert (p["games"], p["deals"], p["deals_won"]) == (3, sum(g[1] for g in listed), sum(g[2] for g in listed))
