"""``annotate --analyse``: ? and ?? on the cards that lost value, and what would have kept it."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote import iter_path, replay_games
from dehlanote.analysis import commentary as analysis_annotate
from dehlanote.cli import app
from dehlanote.syntax import parse_string

import ptyread  # noqa: E402  (tests/ptyread.py: a pseudo terminal read one way everywhere)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "samples" / "hukum-closed-trump.dpn")


#: a few CPU seconds a deal: the later tricks (solved first) are enough to check the marks
QUICK = ["--time-limit", "0.3"]


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the same for the analysis called directly, commentary.analysed)
    monkeypatch.setattr(analysis_annotate, "DEAL_SECONDS", 0.3)


def test_dpn_gets_glyphs_and_comments_and_stays_valid() -> None:
    res = CliRunner().invoke(app, ["annotate", "--analyse", "--dd", *QUICK, "--format", "dpn", SAMPLE])
    assert res.exit_code == 0, res.output
    text = res.stdout
    # deal 4, trick 10: C's JH let BD take the last ten (found by solve too)
    assert "JH?? {analysis ??: C should have played 10H: AC 1\u20133 instead of 0\u20134}" in text
    games = list(parse_string(text))
    facts = next(replay_games(games))
    assert not facts.errors
    glyphs = [p.glyph for d in facts.game.deals for t in d.tricks for p in t.plays if p.glyph]
    assert "??" in glyphs


def test_an_existing_glyph_is_kept() -> None:
    facts = next(replay_games(iter_path(SAMPLE)))
    deal = facts.game.deals[3]
    trick = deal.tricks[9]
    plays = list(trick.plays)
    plays[3] = plays[3]._replace(glyph="!?")        # C's JH, written with a glyph of its own
    game = facts.game._replace(deals=facts.game.deals[:3] + (deal._replace(
        tricks=deal.tricks[:9] + (trick._replace(plays=tuple(plays)),) + deal.tricks[10:]),))
    from dehlanote.replay import replay_game
    out = analysis_annotate.analysed(replay_game(game))
    play = out.game.deals[3].tricks[9].plays[3]
    assert play.card == "JH" and play.glyph == "!?"
    assert play.comments[-1].startswith("analysis ?? (the author's !? kept): C should have played 10H")


def test_text_shows_the_analysis_under_the_game() -> None:
    res = CliRunner().invoke(app, ["annotate", "--analyse", "--dd", *QUICK, SAMPLE])
    assert res.exit_code == 0, res.output
    assert "trick 10: C JH?? C should have played 10H: AC 1\u20133 instead of 0\u20134" in res.stdout


def test_by_default_the_cards_are_judged_single_dummy() -> None:
    """Without --dd each card is judged over the deals its player could not tell apart: every mark
    under the game is the single-dummy judgement's (as solve's single_dummy gives it)."""
    # half a CPU second a deal and a part (double then single dummy): the last tricks of each of
    # the four deals, judged from the end back, with five cards marked (1.0 marked seven, at twice the time)
    res = CliRunner().invoke(app, ["annotate", "--analyse", "--worlds", "8", "--seed", "3", "--time-limit", "0.5",
                                   SAMPLE])
    assert res.exit_code == 0, res.output
    notes = [line for line in res.stdout.splitlines() if line.startswith("note: deal ")]
    assert notes and all("each card judged single dummy" in line for line in notes)
    from dehlanote.analysis.single import analyse
    src = next(replay_games(iter_path(SAMPLE)))
    judged = {}
    for fact in src.deals:
        a = analyse(fact, src.rules, worlds=8, seed=3, time_limit=0.5)
        for t in a.tricks:
            for p in t.plays:
                if p.single is not None:
                    judged[(fact.number, t.number, p.seat, p.card)] = p.single
    assert len(judged) >= 8
    deal = 0
    shown = compared = 0
    for line in res.stdout.splitlines():
        if line.startswith("note: deal "):
            deal = int(line.split()[2])
        m = re.match(r"^  trick (\d+): ([A-D]) (\w+?)(\?\??) (.*)$", line)
        if m and deal:
            key = (deal, int(m[1]), m[2], m[3])
            shown += 1
            assert " deals " in m[5] and "could not tell apart" in m[5]
            if key in judged:
                compared += 1
                assert judged[key].mark == m[4], line
    assert shown and compared, res.stdout


def _annotate_with_stderr_on_a_terminal(args: list[str], out: Path) -> bytes:
    """What standard error (a pseudo terminal) receives from ``dehlanote annotate ARGS``,
    standard output going to ``out``."""
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", PYTHONPATH=str(ROOT))
    with open(out, "wb") as stdout:
        proc = subprocess.Popen([sys.executable, "-m", "dehlanote", "annotate", *args], stdin=subprocess.DEVNULL,
                                stdout=stdout, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        got = ptyread.read_all(master, proc)
    assert proc.returncode == 0
    return got


def test_on_a_terminal_a_line_says_which_deal_is_being_solved_and_is_wiped(tmp_path: Path) -> None:
    args = ["--analyse", "--dd", str(ROOT / "samples" / "worked-example.dpn")]
    shown = _annotate_with_stderr_on_a_terminal(args, tmp_path / "out.txt").decode("utf-8")
    # from 0/0 to 13/13 (the tricks solved, the last first), rewritten in place, then wiped
    steps = re.findall(r"\r\x1b\[Ksolving deal 1: (\d+)/(\d+)", shown)
    assert steps[0] == ("0", "0") and steps[-1] == ("13", "13") and len(steps) >= 3
    assert shown.endswith("\r\x1b[K")
    # standard output is what it is without a terminal: no trace of the line
    piped = CliRunner().invoke(app, ["annotate", *args])
    written = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert "\x1b" not in written and "solving deal" not in written
    assert written == piped.stdout
    assert "solving deal" not in piped.stderr
