"""A deal with a card the rules do not allow (a revoke, a card not in the hand) is analysed
around it, the same way by every surface: the fault's trick is left out, the tricks before
and after it are judged, and each surface says which trick and why.

Before, ``solve``, ``review`` and ``annotate --analyse`` refused the whole deal while the
replays analysed the tricks after the fault only.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote import parse_string, replay_game
from dehlanote.analysis.deal import analyse_deal, position_at
from dehlanote.analysis.search import Solver
from dehlanote.analysis.position import PlayRules
from dehlanote.analysis.single import decision_line
from dehlanote.cli import app
from dehlanote.output.analysis_view import Analyser

ROOT = Path(__file__).resolve().parents[2]
WORKED = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
# B discards 10C on trick 10's diamond lead holding 4D (a revoke), and follows with 4D in trick 11
REVOKE = WORKED.replace("10 A: JD 4D 3S 2D", "10 A: JD 10C 3S 2D").replace("11 A: QD 10C 7C KD",
                                                                           "11 A: QD 4D 7C KD")
# the last trick's cards of B and C swapped: neither holds the card written for it
LAST = WORKED.replace("13 D: 6D 9H 6S 8C", "13 D: 6D 9H 8C 6S")
# trick 10's cards of B and C swapped: after it the hands no longer fit the cards played, so no
# position after the fault can be set up (the replays, solving from the last trick back, found
# none and analysed nothing)
SWAP = WORKED.replace("10 A: JD 4D 3S 2D", "10 A: JD 3S 4D 2D")


def _deal(text: str):
    facts = replay_game(parse_string(text)[0])
    return facts.deals[0], facts.rules


def _judged(analysis) -> dict[int, list[tuple]]:
    return {t.number: [(p.seat, p.card, p.value, p.loss, p.best, p.best_value) for p in t.plays]
            for t in analysis.tricks}


def test_the_tricks_before_the_fault_are_judged_as_in_the_legal_record() -> None:
    # tricks 1-9 are the same cards in both records, and the judgement of a card depends only
    # on the positions before and after it: the same values, losses and best cards
    fact, rules = _deal(REVOKE)
    good, good_rules = _deal(WORKED)
    got = analyse_deal(fact, rules)
    legal = analyse_deal(good, good_rules)
    assert got.solved and got.faults == (10,)
    assert got.reason == "trick 10: B's 10C is not a legal card here"
    judged = _judged(got)
    assert sorted(judged) == [*range(1, 10), 11, 12, 13]
    assert {n: judged[n] for n in range(1, 10)} == {n: v for n, v in _judged(legal).items() if n < 10}
    assert got.value == legal.value


def test_the_tricks_after_the_fault_are_judged_from_the_position_after_it() -> None:
    fact, rules = _deal(REVOKE)
    got = analyse_deal(fact, rules)
    later = analyse_deal(fact, rules, from_trick=11)
    assert later.faults == () and _judged(later) == {n: v for n, v in _judged(got).items() if n > 10}
    # an independent path: the Python search's value of the position the replay has after trick 10
    python = Solver(PlayRules.of(rules), compiled=False)
    assert python.value(position_at(fact, rules, 11)) == got.tricks[9].value


def test_a_fault_in_the_last_trick_leaves_the_tricks_before_it() -> None:
    fact, rules = _deal(LAST)
    got = analyse_deal(fact, rules, from_trick=10)
    assert got.solved and got.faults == (13,) and [t.number for t in got.tricks] == [10, 11, 12]
    legal = analyse_deal(*_deal(WORKED), from_trick=10)
    assert _judged(got) == {n: v for n, v in _judged(legal).items() if n < 13}


@pytest.mark.parametrize("text,analysed", [(REVOKE, [8, 9, 11, 12, 13]), (LAST, [8, 9, 10, 11, 12]),
                                           (SWAP, [8, 9])], ids=["revoke", "last-trick", "hands-lost"])
def test_every_surface_analyses_the_same_tricks_and_says_why(tmp_path: Path, text: str, analysed: list[int]) -> None:
    path = tmp_path / "fault.dpn"
    path.write_text(text, encoding="utf-8")
    runner = CliRunner()
    solved = runner.invoke(app, ["solve", str(path), "--dd", "--from-trick", "8", "--format", "json"])
    assert solved.exit_code == 1          # the record has an error (and is analysed all the same)
    (deal,) = json.loads(solved.stdout)["deals"]
    assert [t["number"] for t in deal["tricks"]] == analysed
    assert deal["solved"] is True and "is not a legal card here" in deal["reason"]
    fact, rules = _deal(text)
    view = Analyser(from_trick=8).view(fact, rules)
    assert sorted(view.tricks) == analysed
    assert view.note == f"analysed from trick 8; not analysed: {deal['reason']}"
    text_out = runner.invoke(app, ["solve", str(path), "--dd", "--from-trick", "8"]).stdout
    assert f"under best play from trick 8 (not analysed: {deal['reason']})" in text_out
    annotated = runner.invoke(app, ["annotate", str(path), "--analyse", "--dd"]).stdout
    assert f"(not analysed: {deal['reason']})" in annotated


def test_single_dummy_decisions_go_on_past_the_fault_with_what_the_others_saw(tmp_path: Path) -> None:
    fact, rules = _deal(REVOKE)
    line = decision_line(fact, rules)
    assert not [k for k in line if k[0] == 10]                       # the fault's trick is not judged
    assert all((11, place) in line for place in range(4))
    b, diamonds = rules.seat_letters.index("B"), "D"
    assert (b, diamonds) in line[(11, 1)][1]        # B seemed void in diamonds after trick 10...
    assert (b, diamonds) not in line[(11, 2)][1]    # ...until B followed with 4D
    path = tmp_path / "fault.dpn"
    path.write_text(REVOKE, encoding="utf-8")
    got = CliRunner().invoke(app, ["review", str(path), "--from-trick", "9", "--worlds", "8"])
    assert got.exit_code == 1 and "1 deal judged" in got.stdout
    # every decision with a choice in tricks 9, 11, 12 and 13 (none in trick 10)
    choices = sum(1 for (trick, _), (pos, _, _) in line.items() if trick >= 9 and len(pos.legal()) >= 2)
    counted = sum(int(n) for n in re.findall(r"(\d+) decisions? judged in 1 deal", got.stdout))
    assert choices >= 6 and counted == choices
