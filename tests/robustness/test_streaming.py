"""Issue 16 item 10: annotate and html go deal by deal, so a game of thousands of deals needs
the memory of one deal (plus the parsed record and the match state), and what they write is
the same as when the whole game was replayed first.

Each run is a fresh ``python -m dehlanote`` whose peak resident memory is read with
``getrusage(RUSAGE_CHILDREN)`` in a small parent of its own (never the test process's).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dehlanote import parse_string, replay_game
from dehlanote.output.notes import annotated_game, write_annotated
from dehlanote.output.html.data import game_data, write_game_data
from dehlanote.output.html.page import script_json
from dehlanote.replay import GameFacts, iter_replay
from dehlanote.syntax import write_game

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))
DEALS = 5_000


def long_game(deals: int = DEALS) -> str:
    """One pagat session (no end) of ``deals`` valid deals: five generated deals over and
    over, with nothing written that depends on who deals (leaders, announcers, dealers after
    the first), so that every deal is valid whoever deals it."""
    from dehlanote.oracle.playout import Style, generate_match

    text, _ = generate_match(random.Random(3), "pagat", {"kots": 0},
                             style=Style(leaders=False, tens=False, result=False), max_deals=5)
    head, _, body = text.partition("\ndeal ")
    parts = [d for d in ("deal " + body).split("\n\n") if d.strip()]
    match = re.match(r"deal \d+ dealer [A-F]\n", parts[0])
    assert match is not None
    bodies = [re.sub(r" by [A-F]", "", re.sub(r"^deal \d+ dealer [A-F]\n", "", d)) for d in parts]
    out = [head, "\n", match.group(0), bodies[0], "\n"]
    out += ["\ndeal\n" + bodies[i % len(bodies)] + "\n" for i in range(1, deals)]
    return "".join(out)


def peak_of(*args: str) -> tuple[int, int]:
    """(exit status, peak resident MB) of ``dehlanote ARGS`` in a fresh process, its output
    thrown away."""
    script = ("import resource, subprocess, sys\n"
              "r = subprocess.run([sys.executable, '-m', 'dehlanote', *sys.argv[1:]], stdout=subprocess.DEVNULL,"
              " stderr=subprocess.DEVNULL)\n"
              "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n")
    result = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=1800,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    status, peak = map(int, result.stdout.split())
    return status, peak


@pytest.fixture(scope="module")
def long_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("long") / "long.dpn"
    path.write_text(long_game(), encoding="utf-8")
    return path


def test_16_10_annotate_dpn_streams_a_long_game(long_file):
    status, peak = peak_of("annotate", "--format", "dpn", str(long_file))
    print(f"\nannotate --format dpn of one game of {DEALS} deals: peak {peak} MB")
    assert status == 0
    # was 168 MB (every deal's facts and the annotated model at once); now about 100,
    # most of it the interpreter and the parsed record
    assert peak < 135, peak


def test_16_10_html_streams_a_long_game(long_file, tmp_path):
    page = tmp_path / "long.html"
    status, peak = peak_of("html", str(long_file), "-o", str(page))
    print(f"\nhtml of one game of {DEALS} deals: peak {peak} MB, page {page.stat().st_size >> 20} MB")
    assert status == 0
    # was 279 MB (every deal's facts, their data and the page's text at once); now about 110
    assert peak < 160, peak
    text = page.read_text(encoding="utf-8")
    assert text.count('"head":"Deal ') == DEALS and text.rstrip().endswith("</html>")


def test_16_10_annotate_text_streams_a_long_game(tmp_path):
    # (tables are slow to draw: a shorter game, and the same bound as the others)
    path = tmp_path / "long.dpn"
    path.write_text(long_game(1_500), encoding="utf-8")
    status, peak = peak_of("annotate", str(path))
    print(f"\nannotate of one game of 1,500 deals: peak {peak} MB")
    assert status == 0
    assert peak < 135, peak


# ---- the same text as the whole-game route -----------------------------------------------------------

def _whole_and_streamed(text: str) -> list[tuple[str, str, str, str]]:
    """For each game: (annotated DPN of the whole game, the same written deal by deal,
    page data of the whole game, the same written deal by deal)."""
    out = []
    for game in parse_string(text):
        facts = replay_game(game)
        pieces: list[str] = []
        write_annotated(game, lambda game=game: iter_replay(game), pieces.append)  # type: ignore[misc]
        data: list[str] = []
        write_game_data(data.append, iter_replay(game), 3)
        out.append((write_game(annotated_game(facts)), "".join(pieces), script_json(game_data(facts, 3)),
                    "".join(data)))
    return out


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_16_10_streamed_output_is_the_whole_games(path):
    for whole, streamed, data, streamed_data in _whole_and_streamed(path.read_text(encoding="utf-8")):
        assert streamed == whole
        assert streamed_data == data


def test_16_10_streamed_output_of_games_with_errors():
    worked = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    match = (ROOT / "samples" / "match.dpn").read_text(encoding="utf-8")
    last = match.rsplit("\ndeal ", 1)[1]
    broken = [
        worked.replace(" AH ", " AX ", 1),                         # a syntax error
        worked.replace('[Rules "', '[Rules "nonesuch ', 1),          # rules unknown
        match.rstrip("\n") + "\n\ndeal " + last,                     # a deal after the match
        re.sub(r'\[Result "(\w+)"\]', '[Result "="]', match),       # the Result tag contradicted
        worked.rsplit("\n", 4)[0] + "\n",                            # a deal cut short
    ]
    for text in broken:
        games = _whole_and_streamed(text)
        assert games
        for whole, streamed, data, streamed_data in games:
            assert streamed == whole
            assert streamed_data == data


def test_16_10_html_site_streams_a_long_game(long_file, tmp_path):
    status, peak = peak_of("html", "--site", str(long_file), "-o", str(tmp_path / "site"))
    print(f"\nhtml --site of one game of {DEALS} deals: peak {peak} MB")
    assert status == 0
    # was 281 MB (the statistics took the whole game's facts); now as a single page
    assert peak < 160, peak
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert f'data-stat="deals" data-value="{DEALS}"' in index


def test_16_10_statistics_counted_deal_by_deal_are_the_whole_games():
    from dehlanote.stats import ArchiveStats

    whole, streamed = ArchiveStats(), ArchiveStats()
    for number, path in enumerate(SAMPLES, 1):
        for game in parse_string(path.read_text(encoding="utf-8")):
            whole.add(replay_game(game), path.name, number)
            replay = iter_replay(game)
            count = streamed.game(game, replay.rules, path.name, number)
            for item in replay:
                if isinstance(item, GameFacts):
                    count.end(item)
                else:
                    count.deal(item)
    assert streamed.games == whole.games > len(SAMPLES)
    assert streamed.to_json() == whole.to_json()


def test_html_analyse_streams_a_long_game_and_solves_each_deal_once(long_file, tmp_path):
    """``html --analyse`` goes deal by deal too: each deal is solved as it is written (five deals
    dealt by four dealers: 20 to solve, the others from the cache)."""
    page = tmp_path / "long.html"
    status, peak = peak_of("html", "--analyse-from", "13", "--dd", str(long_file), "-o", str(page))
    print(f"\nhtml --analyse-from 13 of one game of {DEALS} deals: peak {peak} MB")
    assert status == 0
    assert peak < 160, peak           # 89 MB measured, as without --analyse
    text = page.read_text(encoding="utf-8")
    assert text.count('"an":{') == DEALS


def test_16_9_annotate_and_html_on_a_trick_of_700_000_cards(tmp_path):
    # one trick line of 2 MB: the record is wrong (trick-size), found in linear time; what
    # is left in memory is the parsed record's plays (about 170 bytes a card), the same as
    # validate needs, nothing of annotate's or the page's own
    cards = (2 << 20) // 3
    path = tmp_path / "trick.dpn"
    path.write_bytes(b"deal 1 dealer D\ntrump S\n 1 " + b"AH " * cards + b"\n")
    for args in (("annotate", str(path)), ("html", str(path), "-o", str(tmp_path / "trick.html"))):
        status, peak = peak_of(*args)
        print(f"\n{args[0]} on a trick of {cards:,} cards: peak {peak} MB")
        assert status == 1
        # was 700 MB (the lexer kept a backtracking state for every card of the line)
        assert peak < 250, peak
    assert "trick-size" in (tmp_path / "trick.html").read_text(encoding="utf-8")


# ---- issue 27 item 3: flat memory inside a game, in every command ----------------------------------

@pytest.fixture(scope="module")
def session_file(tmp_path_factory) -> Path:
    """One pagat session of 5,000 deals with tens lines (a plain game the whole reading takes at once)."""
    from dehlanote.oracle.playout import generate_match

    text, _ = generate_match(random.Random(5), "pagat", {"kots": 0}, max_deals=DEALS)
    path = tmp_path_factory.mktemp("session") / "session.dpn"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["stats"], ["json", "--compact"], ["annotate"], ["validate", "--jobs", "1"]],
                         ids=lambda c: c[0])
def test_27_3_a_long_game_is_checked_in_flat_memory(session_file, command):
    # was 90-120 MB for these 5,000 deals (the game's model, 9 KB a deal, and every deal's facts);
    # now the model is read a deal at a time (syntax/lazy.py) and the facts let go: about 30 MB
    status, peak = peak_of(*command, str(session_file))
    print(f"\n{' '.join(command)} of one game of {DEALS} deals: peak {peak} MB")
    assert status == 0
    assert peak < 50, peak


def _comment_plays(text: str) -> str:
    """A comment on the lead of every trick, after every third trick line and between deals."""
    count = 0

    def note(m: re.Match) -> str:
        nonlocal count
        count += 1
        return f"{m.group(1)}{m.group(2)} {{lead {count % 7}}}{m.group(3)}" + (" {high}" if count % 3 == 0 else "")

    text = re.sub(r"^( ?\d+ [A-F]: )(\S+)( .*)$", note, text, flags=re.MULTILINE)
    return text.replace("\n\ndeal 1", "\n{ten more}\n\ndeal 1")


@pytest.fixture(scope="module")
def commented_file(session_file, tmp_path_factory) -> Path:
    """The session of :func:`session_file` with comments on its plays and between its deals."""
    path = tmp_path_factory.mktemp("commented") / "commented.dpn"
    path.write_text(_comment_plays(session_file.read_text(encoding="utf-8")), encoding="utf-8")
    return path


@pytest.mark.parametrize("shape,command", [
    ("no-tens", ["validate", "--jobs", "1"]), ("no-tens", ["json", "--compact"]), ("no-tens", ["stats"]),
    ("comments", ["json", "--compact"]), ("comments", ["annotate"]), ("comments", ["stats"])],
    ids=lambda v: v if isinstance(v, str) else v[0])
def test_27_3_a_long_game_without_tens_lines_or_with_comments_is_read_in_flat_memory(
        long_file, commented_file, shape, command):
    # a game the whole reading cannot take as one plain token (no tens lines, comments) was
    # held whole: 80-90 MB for 5,000 deals without tens lines, 130-140 MB with comments; now
    # read deal by deal (syntax/parser.py, _read_pieces): about 35-45 MB
    path = long_file if shape == "no-tens" else commented_file
    status, peak = peak_of(*command, str(path))
    print(f"\n{' '.join(command)} of one game of {DEALS} deals ({shape}): peak {peak} MB")
    assert status == 0
    assert peak < 50, peak
