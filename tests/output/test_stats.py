"""Archive statistics: one streaming pass over replayed games, in the terminal and as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from dehlanote import iter_path
from dehlanote.cli import app
from dehlanote.replay import replay_games
from dehlanote.stats import TOP, ArchiveStats

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))
WORKED = ROOT / "samples" / "worked-example.dpn"
MATCH = ROOT / "samples" / "match.dpn"

runner = CliRunner()


def facts_of(path: Path):
    return list(replay_games(iter_path(path)))


def test_stats_json_counts_the_replay_facts() -> None:
    result = subprocess.run([sys.executable, "-m", "dehlanote", "stats", "--format", "json", *map(str, SAMPLES)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    s = json.loads(result.stdout)
    games = [f for p in SAMPLES for f in facts_of(p)]
    deals = [d for f in games for d in f.deals]
    assert s["games"] == len(games) and s["files"] == len(SAMPLES)
    assert s["deals"] == len(deals)
    assert sum(s["won"].values()) + s["no_result"] == sum(1 for d in deals if d.complete)
    assert sum(s["kots"].values()) == sum(1 for d in deals if d.kot is not None)
    sweeps = [t.capture for d in deals for t in d.tricks if t.capture and t.capture.reason == "two-in-a-row"]
    assert s["sweeps"]["count"] == len(sweeps)
    assert sum(s["sweeps"]["tens"].values()) == len(sweeps)
    assert sum(int(k) * v for k, v in s["sweeps"]["size"].items()) == sum(c.cards for c in sweeps)
    claimed = sum(len(d.claim.tens) for d in deals if d.claim is not None)
    assert s["claims"]["tens"] == claimed
    assert sum(s["tens_by_side"].values()) == \
        sum(len(t.capture.tens) for d in deals for t in d.tricks if t.capture) + claimed


def test_stats_text_lists_the_tables() -> None:
    result = runner.invoke(app, ["stats", str(MATCH), str(WORKED)])
    assert result.exit_code == 0, result.output
    for heading in ("Deal wins", "Kots by reason", "Centre sweeps", "Trump", "Longest streaks", "Players"):
        assert heading in result.output


def test_stats_never_reads_a_name_as_markup(tmp_path: Path) -> None:
    odd = tmp_path / "odd.dpn"
    odd.write_text(WORKED.read_text(encoding="utf-8").replace('[A "Asha"]', '[A "[bold]Asha[/bold]"]'),
                   encoding="utf-8")
    result = runner.invoke(app, ["stats", str(odd)])
    assert "[bold]Asha[/bold]" in result.output


def test_streaks_keep_only_the_longest_run_of_each() -> None:
    stats = ArchiveStats()
    for number, facts in enumerate(facts_of(MATCH), 1):
        stats.add(facts, "match", number)
    streaks = stats.to_json()["streaks"]
    assert streaks[0]["length"] == 7 and streaks[0]["side"] == "AC" and streaks[0]["deal"] == 7
    assert all(s["length"] < 7 for s in streaks[1:])
    assert len({(s["side"], s["deal"]) for s in streaks}) == len(streaks)


def test_the_pass_keeps_counters_not_games() -> None:
    """Adding the same archive ten times multiplies the counts and grows nothing else."""
    once, ten = ArchiveStats(), ArchiveStats()
    games = [(f, p.name, i) for p in SAMPLES for i, f in enumerate(facts_of(p), 1)]
    for facts, source, number in games:
        once.add(facts, source, number)
    for _ in range(10):
        for facts, source, number in games:
            ten.add(facts, source, number)
    a, b = once.to_json(), ten.to_json()
    assert b["deals"] == 10 * a["deals"] and b["sweeps"]["count"] == 10 * a["sweeps"]["count"]
    assert b["kots"] == {k: 10 * v for k, v in a["kots"].items()}
    assert len(b["streaks"]) == len(a["streaks"]) == TOP
    assert set(b["players"]) == set(a["players"])
    assert len(ten.__dict__) == len(once.__dict__)


def test_unreadable_file_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["stats", str(MATCH), str(tmp_path / "missing.dpn")])
    assert result.exit_code == 2
    assert "cannot read" in result.output and "no such file" in result.output


CLAIMED = """[Event "Claimed"]
[Rules "standard"]
[Result "*"]

deal 1 dealer D
hands A: AS KS 4S AH JH 9H 6H AD QD JD 9D QC 5C
      B: QS JS 6S 5S QH 10H 5H 5D 4D 3D 10C 4C 3C
      C: 8S 7S 3S 2S KH 3H 2H JC 9C 8C 7C 6C 2C
      D: 10S 9S 8H 7H 4H KD 10D 8D 7D 6D 2D AC KC
trump D by A
 1 A: AH 10H 3H 7H
 2 A: AS QS 2S 10S
 3 A: 4S 5S 7S 9S
 4 D: KC 5C 4C 9C
 5 D: 7D AD 5D 2H
 6 A: 6H QH KH 8H
 7 C: 8S 10D KS JS
 8 D: 8D 9D 3D 2C
 9 A: JH 5H 6C 4H
10 A: JD 4D 3S 2D
11 A: QD 10C 7C KD
claim D
tens AC 3 BD 1
"""


def test_a_claim_counts_its_tens_for_its_side() -> None:
    from dehlanote import parse_string, replay_game

    facts = replay_game(parse_string(CLAIMED)[0])
    assert facts.deals[0].claim is not None and not facts.errors
    stats = ArchiveStats()
    stats.add(facts, "claimed", 1)
    s = stats.to_json()
    assert s["claims"] == {"count": 1, "tens": 1}
    assert s["tens_by_side"] == {"AC": 3, "BD": 1}
    assert s["won"] == {"AC": 1}
