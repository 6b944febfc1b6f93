"""The site builder streams (issue 27 item 3: a site of 100,000 deals in 80 MB): the index's
rows and the player pages' games wait in spool files and the index and player pages are
written in pieces. Its pages must be byte for byte those of the builder that held every
row in memory and built each page as one string (``site_whole.py``, kept as the reference):
on every sample, and on a generated archive with dates, unnamed seats, six-player games,
names that sort before and after, files split into pages and a file that cannot be read."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from dehlanote.oracle.playout import Style, generate_match
from dehlanote.output.html.players import PlayerBook, Rating, rating_chart
from dehlanote.output.html.site import IndexRows, build_site
from dehlanote.rules.profile import registry

import site_whole

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _same_sites(tmp_path: Path, paths: list[str], **options) -> dict[str, bytes]:
    new = build_site(paths, tmp_path / "new", registry(), **options)
    old = site_whole.build_site(paths, tmp_path / "old", registry(), **options)
    assert [(f.path, f.games, f.deals, f.errors, f.pages, f.unreadable) for f in new.files] == \
        [(f.path, f.games, f.deals, f.errors, [p.replace("/old/", "/new/") for p in f.pages], f.unreadable)
         for f in old.files]
    a, b = _tree(tmp_path / "new"), _tree(tmp_path / "old")
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name] == b[name], name
    return a


def test_the_site_of_every_sample_is_the_same_as_built_whole(tmp_path: Path) -> None:
    pages = _same_sites(tmp_path, [str(p) for p in SAMPLES], title="Samples & <more>", four_colour=True)
    assert "index.html" in pages and any(name.startswith("players/") for name in pages)


def _archive(folder: Path, files: int = 5, games: int = 12, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    paths = []
    for f in range(files):
        sub = folder / f"part{f % 2}"
        sub.mkdir(parents=True, exist_ok=True)
        path = sub / ("same.dpn" if f < 2 else f"file-{f}.dpn")       # two files of one name
        out = []
        for g in range(games):
            options = {"six-player": True} if g % 5 == 4 else None
            text, _ = generate_match(rng, "standard", options, Style(hands=g % 2 == 0, loose=g % 3 == 0),
                                     max_deals=rng.randint(1, 4))
            if g % 3 != 2:                                           # a date (some games without)
                text = text.replace("[Rules", f'[Date "2025.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}"]\n'
                                              "[Rules", 1)
            if g % 7 == 3:                                           # a seat not named: not rated
                text = re.sub(r'^\[B "[^"]*"\]\n', "", text, count=1, flags=re.M)
            if g % 4 == 1:                                           # a name of another script
                text = text.replace('[A "', '[A "Ä', 1)
            out.append(text)
        path.write_text("\n".join(out), encoding="utf-8")
        paths.append(str(path))
    return paths


def test_a_generated_archive_gives_the_same_site_as_built_whole(tmp_path: Path) -> None:
    paths = _archive(tmp_path / "in")
    paths.insert(2, str(tmp_path / "in" / "missing.dpn"))            # cannot be read: named on the index
    pages = _same_sites(tmp_path, paths, per_page=5, title="Generated")
    assert sum(name.startswith("games/") for name in pages) > len(paths)       # files split into pages
    index = pages["index.html"].decode("utf-8")
    assert "Not read: " in index and index.count("<tr>") > 60


def test_index_rows_come_back_as_they_went_in() -> None:
    rows = IndexRows()
    given = [{"file": "a.dpn", "n": n, "title": f"game {n}", "href": f"games/a.html#game={n}", "date": "",
              "players": {"A": "Asha", "B": "Bilal \udcff"}, "rules": "standard", "result": "AC wins",
              "deals": n * 2, "errors": n % 2} for n in range(1, 2000)]
    for row in given:
        rows.append(row)
    assert list(rows) == given and list(rows) == given          # read twice, the same
    rows.close()
    assert list(IndexRows()) == []


def test_the_rating_chart_of_points_and_of_a_rating_is_the_same() -> None:
    points = [(i, None if i % 3 else f"2025-01-{i % 28 + 1:02d}", 1500 + (i * 37) % 50 - 25.5) for i in range(1, 90)]
    assert rating_chart(points) == site_whole.rating_chart(points)
    assert rating_chart(Rating.of(points)) == rating_chart(points)
    assert rating_chart([]) == site_whole.rating_chart([])


@pytest.mark.parametrize("named", [True, False])
def test_an_empty_book_has_no_players(named: bool) -> None:
    book = PlayerBook()
    assert not book.played and book.ratings() == {}
    book.close()


def test_a_site_of_one_of_each_is_the_same_as_built_whole(tmp_path: Path) -> None:
    """One file, one game, one deal, one game with errors: the figures in the singular."""
    record = tmp_path / "one.dpn"
    record.write_text((ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
                      .replace(" 6 A: 6H QH KH 8H", " 6 A: 6H QH 8S 8H"), encoding="utf-8")
    pages = _same_sites(tmp_path, [str(record)])
    assert b"> file</li>" in pages["index.html"]
