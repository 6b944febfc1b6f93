"""A file named twice (overlapping globs, another spelling of its path, a link to it, a copy of
it) is counted once by the commands that count over an archive: stats, review and db build agree with the
file named once, and say which name they left out."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from dehlanote.oracle.playout import Style, generate_match

from db_helpers import run


@pytest.fixture
def club(tmp_path: Path) -> Path:
    folder = tmp_path / "club"
    folder.mkdir()
    for i in range(2):
        text, _ = generate_match(random.Random(40 + i), "standard", None, Style(hands=True), max_deals=3)
        (folder / f"night{i}.dpn").write_text(text, encoding="utf-8")
    os.symlink("night0.dpn", folder / "latest.dpn")
    (folder / "night0 (1).dpn").write_bytes((folder / "night0.dpn").read_bytes())    # (downloaded twice)
    return folder


def _namings(folder: Path) -> list[list[str]]:
    """Ways a careless user names night0.dpn more than once (run from the club's parent)."""
    return [["club/night0.dpn", "club/night0.dpn"],
            ["club/night0.dpn", "club/*.dpn"],          # latest.dpn links to night0.dpn too
            ["club/night0.dpn", "club/night0 (1).dpn"],  # a copy: the same bytes
            ["club/latest.dpn", "club/night0.dpn"],      # the link first: the file itself is kept
            ["club/night0.dpn", "./club/night0.dpn", str(folder / "night0.dpn")]]


def test_stats_counts_a_file_named_twice_once(club: Path) -> None:
    code, out, err = run("stats", "--format", "json", "club/night0.dpn", "club/night1.dpn", cwd=club.parent)
    assert code == 0, err
    once = json.loads(out)
    for names in _namings(club):
        code, out, err = run("stats", "--format", "json", *names, "club/night1.dpn", cwd=club.parent)
        assert code == 0, err
        twice = json.loads(out)
        assert (twice["files"], twice["games"], twice["deals"]) == (once["files"], once["games"], once["deals"])
        assert twice["players"] == once["players"], names
        assert "counted once" in err


def test_review_counts_a_file_named_twice_once(club: Path) -> None:
    args = ("--dd", "--from-trick", "11", "--format", "json")
    code, out, err = run("review", "club/night0.dpn", *args, cwd=club.parent)
    assert code == 0, err
    once = json.loads(out)
    for names in (["club/night0.dpn", "club/night0.dpn"], ["club/night0.dpn", "club/latest.dpn"],
                  ["club/night0.dpn", "club/night0 (1).dpn"],
                  ["club/night0.dpn", "./club/night0.dpn", str(club / "night0.dpn")]):
        code, out, err = run("review", *names, *args, cwd=club.parent)
        assert code == 0, err
        twice = json.loads(out)
        assert twice["deals"]["judged"] == once["deals"]["judged"]
        assert [(p["name"], p["decisions"], p["deals"], p["tens_lost"]) for p in twice["players"]] == \
            [(p["name"], p["decisions"], p["deals"], p["tens_lost"]) for p in once["players"]]


def test_the_database_counts_a_file_named_twice_once(club: Path) -> None:
    pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    sql = "select player, games, deals, deals_won, tens_captured from standings order by player"
    code, _, err = run("db", "build", "club/night0.dpn", "club/night1.dpn", "-o", "once.duckdb", "--jobs", "1",
                       cwd=club.parent)
    assert code == 0, err
    once = run("db", "query", "once.duckdb", sql, "-f", "json", cwd=club.parent)[1]
    for i, names in enumerate(_namings(club)):
        db = f"twice{i}.duckdb"
        code, _, err = run("db", "build", *names, "club/night1.dpn", "-o", db, "--jobs", "1", cwd=club.parent)
        assert code == 0, err
        assert json.loads(run("db", "query", db, sql, "-f", "json", cwd=club.parent)[1]) == json.loads(once)
        files = json.loads(run("db", "query", db, "select path from files order by path", "-f", "json",
                               cwd=club.parent)[1])
        # (the file itself is kept rather than a link to it listed before it, or its copy)
        assert [f["path"] for f in files] == ["club/night0.dpn", "club/night1.dpn"], names



def _archive_summary(index: Path) -> str:
    """The index page's words from "The archive" to "Games": files, games, deals, tricks, matches."""
    import html
    import re
    page = re.sub(r"<(style|script).*?</\1>", "", index.read_text(encoding="utf-8"), flags=re.S)
    words = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))
    return words[words.index("The archive"):words.index("Games")]


def test_a_site_counts_a_file_named_twice_once(club: Path) -> None:
    """`html --site` left a file named twice in, so its index counted its games twice ("8
    games" for 4) and the pages after it no longer lined up with review's links (review
    counts each file once)."""
    code, _out, err = run("html", "--site", "club/night0.dpn", "club/night1.dpn", "-o", "once", cwd=club.parent)
    assert code == 0, err
    once = _archive_summary(club.parent / "once" / "index.html")
    assert "2 files 2 games" in once
    for i, names in enumerate(_namings(club)):
        site = club.parent / f"twice{i}"
        code, _out, err = run("html", "--site", *names, "club/night1.dpn", "-o", site.name, cwd=club.parent)
        assert code == 0, err
        assert "counted once" in err
        assert _archive_summary(site / "index.html") == once, names
        assert len(list((site / "games").iterdir())) == 2, names
