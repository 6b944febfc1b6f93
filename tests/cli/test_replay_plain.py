"""``dehlanote replay --plain``: the steps as text (piped, or asked for)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote.cli import app

DATA = Path(__file__).resolve().parents[1] / "data"
WORKED = DATA / "worked-example.dpn"
runner = CliRunner()


def plain(*args: object, input: str | bytes | None = None):
    result = runner.invoke(app, ["replay", "--plain", *[str(a) for a in args]], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("name, event", [
    ("hukum.dpn", "D cannot follow: trump set, spades"),
    ("closed-trump.dpn", "A cannot follow: trump revealed, clubs"),
    ("first-void-five.dpn", "A cannot follow: trump set, clubs"),
])
def test_trump_event_is_said_once_at_the_card_that_made_it(name, event):
    out = plain(DATA / name).stdout
    deals = re.split(r"^Deal ", out, flags=re.M)[1:]
    assert out.count(event) >= 1
    for deal in deals:
        assert deal.count(event) <= 1                  # once per deal, not after every later card
    lines = out.splitlines()
    seat = event.split(" ", 1)[0]
    for i, line in enumerate(lines):
        if line.strip() == event:
            assert re.fullmatch(rf"  {seat} plays \w+( \(leads\))?", lines[i - 1])   # right after that card


def test_plain_replay_says_the_match_after_each_deal_and_its_end_once():
    out = plain(Path(__file__).resolve().parents[2] / "samples" / "pagat-session.dpn").stdout
    lines = out.splitlines()
    assert sum(1 for line in lines if line.startswith("  match: kots ")) == 11      # after each deal
    assert lines[-2:] == ["  match over: AC wins", "  match: kots AC 3 BD 1"]
    assert out.count("match over") == 1


# ---- --analyse: the value before each trick, the cards that lost value --------------------------

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_analyse_prints_the_value_and_the_card_that_lost_a_ten():
    result = plain(WORKED, "--analyse-from", 8, "--trick", 8, "--dd")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:6] == [
        "Deal 1 · dealer D · trump diamonds, announced by A",
        "  analysis: analysed from trick 8",
        " trick 8, D leads",
        "    best play: AC 2 – BD 2 tens",
        "  D plays 8D? (leads)",
        "    ? D should have played 4H or KD or AC: AC 2–2 instead of 3–1",
    ]


def test_analyse_marks_a_card_that_changed_the_outcome_twice():
    out = plain(SAMPLES / "hukum-closed-trump.dpn", "--analyse-from", 10, "--deal", 4, "--dd").stdout
    lines = out.splitlines()
    i = lines.index("  C plays JH??")
    assert lines[i + 1] == "    ?? C should have played 10H: AC 1–3 instead of 0–4"
    # every analysed trick has its value once, right after its first line
    for n in (10, 11, 12, 13):
        head = next(k for k, line in enumerate(lines) if line.startswith(f" trick {n}, "))
        assert lines[head + 1].startswith("    best play: AC ") and lines[head + 1].endswith(" tens")
    assert out.count("best play") == 4
    assert "    best play: AC 1 – BD 3 tens" in lines


def test_analyse_says_once_a_deal_whose_hands_are_unknown():
    text = WORKED.read_text(encoding="utf-8")
    head, _, rest = text.partition("hands A:")
    rest = rest[rest.index("trump D by A"):]
    kept = [line for line in rest.splitlines() if not re.match(r"\s*([4-9]|1[0-3]) [A-D]:|tens AC", line)]
    result = plain("-", "--analyse", input=head + "\n".join(kept) + "\n")
    assert result.exit_code == 0
    assert result.stdout.count("analysis: not analysed: hands unknown") == 1
    assert "best play" not in result.stdout and "should have played" not in result.stdout


def test_analyse_judges_single_dummy_by_default_as_solve_does():
    """Without --dd the marks are the single-dummy judgement's: C's JH at trick 10 (a loss no
    player could see) is not marked, the 10H at trick 12 is, with what solve's JSON says."""
    import json
    import subprocess
    import sys
    out = plain(SAMPLES / "hukum-closed-trump.dpn", "--analyse-from", 10, "--deal", 4, "--seed", "4").stdout
    lines = out.splitlines()
    assert "  C plays JH" in lines and "  C plays JH??" not in lines
    doc = json.loads(subprocess.run([sys.executable, "-m", "dehlanote", "solve", "--format", "json", "--deal", "4",
                                     "--from-trick", "10", "--seed", "4", str(SAMPLES / "hukum-closed-trump.dpn")],
                                    capture_output=True, text=True, check=True).stdout)
    marked = [(p["seat"], p["card"], p["single_dummy"]["mark"]) for t in doc["deals"][0]["tricks"]
              for p in t["plays"] if p["single_dummy"]["mark"]]
    assert marked
    for seat, card, mark in marked:
        i = lines.index(f"  {seat} plays {card}{mark}")
        assert lines[i + 1].startswith(f"    {mark} {seat} should have played ")
        assert "could not tell apart" in lines[i + 1]
    shown = [line for line in lines if re.match(r"^  [A-D] plays \S+?\?", line)]
    assert len(shown) == len(marked)
