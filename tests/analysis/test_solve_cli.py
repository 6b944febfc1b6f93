"""``dehlanote solve``: values along a recorded deal, JSON against its schema, limits."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import traceback
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

import jsonschema
import pytest
from typer.testing import CliRunner

from dehlanote import iter_path, replay_games
from dehlanote.analysis.deal import analyse_deal
from dehlanote.cli import app

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


class Ran(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def run(*args: str) -> Ran:
    """``dehlanote solve`` in this process (the command function through Typer; an exception it
    lets out is its traceback on standard error), in a process of its own with ``--jobs`` (whose
    workers are processes started by the command)."""
    if "--jobs" in args:
        proc = subprocess.run([sys.executable, "-m", "dehlanote", "solve", *args], capture_output=True, text=True,
                              cwd=ROOT, timeout=600)
        return Ran(proc.returncode, proc.stdout, proc.stderr)
    with contextlib.chdir(ROOT):
        res = CliRunner().invoke(app, ["solve", *args])
    err = res.stderr
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        err += "".join(traceback.format_exception(res.exception))
    return Ran(res.exit_code, res.stdout, err)


def _schema() -> dict:
    return json.loads(resources.files("dehlanote.analysis").joinpath("solve.schema.json").read_text())


@lru_cache(maxsize=None)
def _validator() -> Any:
    """The schema's validator, the schema itself checked once (jsonschema.validate checks the
    schema again at every call: half the time of validating a document)."""
    schema = _schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def validate(doc: Any) -> None:
    """Raise jsonschema's error for the first place ``doc`` breaks the schema."""
    _validator().validate(doc)


def test_json_follows_the_schema_and_the_values_chain() -> None:
    res = run("--format", "json", "--from-trick", "10", str(SAMPLES / "worked-example.dpn"),
              str(SAMPLES / "hukum-match.dpn"), str(SAMPLES / "standard-double-sar.dpn"))
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    validate(doc)
    assert len(doc["deals"]) == 1 + 5 + 3
    for deal in doc["deals"]:
        assert deal["solved"], deal
        tricks = deal["tricks"]
        assert [t["number"] for t in tricks] == [10, 11, 12, 13]
        assert deal["value"] == tricks[0]["value"]
        for t, nxt in zip(tricks, tricks[1:]):
            assert t["plays"][-1]["value"] == nxt["value"]      # the value after a trick starts the next
        for t in tricks:
            for p in t["plays"]:
                assert p["loss"] >= 0
                assert (p["card"] in p["best"]) == (p["loss"] == 0)


def test_the_last_card_is_worth_what_the_replay_scored() -> None:
    """After the last card nothing is left to choose: the value is the deal's real score."""
    res = run("--format", "json", "--from-trick", "12", str(SAMPLES / "standard-court-piece.dpn"),
              str(SAMPLES / "standard-double-sar.dpn"), str(SAMPLES / "worked-example.dpn"))
    doc = json.loads(res.stdout)
    facts = [d for path in ("standard-court-piece.dpn", "standard-double-sar.dpn", "worked-example.dpn")
             for g in replay_games(iter_path(str(SAMPLES / path))) for d in g.deals]
    assert len(facts) == len(doc["deals"])
    for deal, fact in zip(doc["deals"], facts):
        final = deal["tricks"][-1]["plays"][-1]["value"]
        assert final == (fact.points or fact.tens), (deal["path"], deal["deal"])


def test_a_misplayed_card_is_marked_with_what_would_have_kept_it() -> None:
    # deal 4 of the closed-trump sample: C's JH at trick 10 lets BD take the last ten
    res = run("--dd", "--from-trick", "10", "--deal", "4", str(SAMPLES / "hukum-closed-trump.dpn"))
    assert res.returncode == 0, res.stderr
    assert "C JH??" in res.stdout
    assert "C should have played 10H: AC 1\u20133 instead of 0\u20134" in res.stdout


def test_text_output_names_each_deal_and_its_value() -> None:
    res = run("--from-trick", "12", str(SAMPLES / "worked-example.dpn"))
    assert res.returncode == 0, res.stderr
    first = res.stdout.splitlines()[0]
    assert first.startswith(str(SAMPLES / "worked-example.dpn") + ", game 1, deal 1 (standard): AC 3\u20131 BD")
    assert "  12  AC 3\u20131" in res.stdout


def test_a_node_limit_reports_not_solved_in_time() -> None:
    res = run("--node-limit", "2000", "--format", "json", str(SAMPLES / "worked-example.dpn"))
    assert res.returncode == 1
    deal = json.loads(res.stdout)["deals"][0]
    assert deal["solved"] is False and deal["reason"] == "not solved in time"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_node_limit_past_the_search_counts_reach_is_no_limit_and_no_traceback(jobs: str) -> None:
    # 2**63 and more overflowed the compiled search's 64-bit count: a traceback and status 1
    res = run("--node-limit", str(2**63), "--jobs", jobs, "--dd", "--from-trick", "12", "--format", "json",
              str(SAMPLES / "worked-example.dpn"))
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    deal = json.loads(res.stdout)["deals"][0]
    plain = run("--dd", "--from-trick", "12", "--format", "json", str(SAMPLES / "worked-example.dpn"))
    assert deal["solved"] is True and deal["tricks"] == json.loads(plain.stdout)["deals"][0]["tricks"]


def test_jobs_give_the_same_answer() -> None:
    one = run("--format", "json", "--from-trick", "11", str(SAMPLES / "pagat-session.dpn"))
    two = run("--format", "json", "--from-trick", "11", "--jobs", "2", str(SAMPLES / "pagat-session.dpn"))
    assert one.returncode == two.returncode == 0
    strip = lambda doc: [{k: v for k, v in d.items() if k != "nodes"} for d in json.loads(doc)["deals"]]  # noqa: E731
    assert strip(one.stdout) == strip(two.stdout)


def test_unknown_hands_are_not_analysed(tmp_path: Path) -> None:
    record = tmp_path / "short.dpn"
    record.write_text('[Result "*"]\n\ndeal 1 dealer D\ntrump D by A\n 1 A: AH 10H 3H 7H\n')
    res = run(str(record))
    assert res.returncode == 0, res.stderr
    assert "not analysed: the hands are not known" in res.stdout


def test_a_trick_of_the_wrong_size_is_said_as_the_reason_not_what_follows_from_it(tmp_path: Path) -> None:
    # trick 3 written with three cards: the solver used to stop at trick 4 ("D's KC is not a
    # legal card here", a consequence), and the html replay said "cannot be set up"
    record = tmp_path / "short.dpn"
    worked = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    record.write_text(worked.replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S 7S"), encoding="utf-8")
    res = run(str(record), "--dd")
    assert res.returncode == 1, res.stderr             # the record's errors
    assert ("deal 1 (standard): not analysed: trick 3 has the wrong number of cards, so the deal cannot be "
            "followed past it") in res.stdout
    assert "trick-size: trick 3 has 3 cards" in res.stderr


def test_an_unreadable_file_is_a_usage_error(tmp_path: Path) -> None:
    res = run(str(tmp_path / "missing.dpn"))
    assert res.returncode == 2
    assert "missing.dpn" in res.stderr and "Traceback" not in res.stderr


def test_a_deal_number_no_game_has_is_said_with_the_deals_there_are() -> None:
    res = run("samples/match.dpn", "--deal", "99", "--dd")
    assert res.returncode == 2 and res.stdout == ""
    assert "no game has a deal 99 (game 1 of samples/match.dpn: deals 1 to 7)" in res.stderr
    assert "Traceback" not in res.stderr
    # a number one game has: that game's deal only, the others not named
    res = run("samples/match.dpn", "samples/worked-example.dpn", "--deal", "7", "--dd", "--from-trick", "13")
    assert res.returncode == 0, res.stderr
    assert "samples/match.dpn, game 1, deal 7" in res.stdout and "worked-example" not in res.stdout + res.stderr


def test_library_first_void_five_starts_after_the_phase() -> None:
    facts = next(replay_games(iter_path(str(SAMPLES / "pagat-first-void-five.dpn"))))
    for deal in facts.deals:
        a = analyse_deal(deal, facts.rules, from_trick=11)
        assert a.solved, a.reason
        assert a.tricks[0].number == 11


def test_every_sample_solves_its_last_six_tricks_without_a_traceback() -> None:
    """Every profile and player count that a sample holds (six players included) goes through the solver.

    In the test's own process (the command function through Typer, no start-up a sample): a
    traceback would be the runner's exception, or text on standard error."""
    for sample in sorted(SAMPLES.glob("*.dpn")):
        six = "six-player" in sample.name                      # 26 tricks a deal with six players
        for args in (("--dd", "--from-trick", "21" if six else "8"),
                     ("--worlds", "2", "--from-trick", "24" if six else "11")):      # and single dummy
            res = CliRunner().invoke(app, ["solve", "--format", "json", *args, str(sample)])
            assert res.exit_code in (0, 1), (sample.name, res.stderr[-2000:], res.exception)
            assert res.exception is None or isinstance(res.exception, SystemExit), (sample.name, res.exception)
            assert "Traceback" not in res.stderr, (sample.name, res.stderr[-2000:])
            doc = json.loads(res.stdout)
            validate(doc)
            for deal in doc["deals"]:
                assert deal["solved"], (sample.name, deal["deal"], args)


def test_json_gives_every_play_its_single_dummy_judgement_and_dd_skips_it() -> None:
    args = ["--format", "json", "--from-trick", "11", "--worlds", "6", "--seed", "5",
            str(SAMPLES / "worked-example.dpn"),
            str(SAMPLES / "standard-double-sar.dpn")]
    res = run(*args)
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    validate(doc)
    assert run(*args).stdout == res.stdout                    # one judgement for a seed
    for deal in doc["deals"]:
        for t in deal["tricks"]:
            for p in t["plays"]:
                sd = p["single_dummy"]
                assert sd["worlds"] >= 1 and sd["stderr"] >= 0 and sd["expected_loss"] >= 0
                assert (sd["expected_loss"] == 0) == (p["card"] in sd["best"])
                assert {c["card"] for c in sd["cards"]} >= set(p["best"])
        last = deal["tricks"][-1]["plays"][-1]               # the last card: nothing is hidden any more
        side = next(iter(last["value"]))
        assert last["single_dummy"]["worlds"] == 1 and last["single_dummy"]["value"] == last["value"][side]
    dd = json.loads(run("--dd", *args).stdout)
    validate(dd)
    assert all("single_dummy" not in p for d in dd["deals"] for t in d["tricks"] for p in t["plays"])
    strip = [[[{k: v for k, v in p.items() if k != "single_dummy"} for p in t["plays"]] for t in d["tricks"]]
             for d in doc["deals"]]
    assert strip == [[t["plays"] for t in d["tricks"]] for d in dd["deals"]]   # the double-dummy fields kept


def test_the_analysis_of_a_deal_equals_each_position_solved_on_its_own() -> None:
    # the analysis judges the cards from the last one back and takes each trick's value from
    # the judgement of its first card (no search of its own): a fresh solver, position by
    # position, gives the same values and best cards
    from dehlanote.analysis.deal import position_at
    from dehlanote.analysis.position import PlayRules
    from dehlanote.analysis.search import Solver
    for name, first in (("worked-example.dpn", 8), ("hukum-match.dpn", 9), ("standard-court-piece.dpn", 9)):
        facts = next(replay_games(iter_path(str(SAMPLES / name))))
        for deal in facts.deals[:2]:
            a = analyse_deal(deal, facts.rules, from_trick=first)
            assert a.solved, a.reason
            for ta in a.tricks:
                pos = position_at(deal, facts.rules, ta.number)
                fresh = Solver(PlayRules.of(facts.rules))
                assert ta.value == fresh.value(pos)
                for pa in ta.plays:
                    values = Solver(PlayRules.of(facts.rules)).card_values(pos)
                    best = max(values.values()) if pos.turn % 2 == 0 else min(values.values())
                    assert (pa.value, pa.best_value) == (values[pa.card], best)
                    assert set(pa.best) == {c for c, v in values.items() if v == best}
                    pos = pos.play(pa.card)



def test_jobs_are_never_more_than_the_cores(monkeypatch) -> None:
    """``solve --jobs 40`` on two cores started 24 worker processes (one a deal, some 40 MB
    each) and took 2.4 s where --jobs 2 took 0.7 s. As validate and db build, solve and
    review now start no more workers than there are cores: on one core, none at all."""
    import os

    from dehlanote.commands import dealpool

    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    run = dealpool.run_deals("solving", [1, 2, 3], lambda item: ("worker", item),
                             lambda item, step: ("here", item), str, jobs=40)
    assert run.results == [("here", 1), ("here", 2), ("here", 3)] and not run.lost


def test_a_value_found_from_a_later_trick_says_from_which() -> None:
    """``solve --from-trick 5`` headed the worked example "AC 4–0 BD under best play", while
    the deal from its start is 3–1 under best play: the value is the one before trick 5 (the
    tens of tricks 1 to 4 as played). It now says "from trick 5"; from the start, as before."""
    late = run("--dd", "--from-trick", "12", str(SAMPLES / "worked-example.dpn"))
    assert late.stdout.splitlines()[0].endswith("AC 3\u20131 BD under best play from trick 12")
    assert "  12  AC 3\u20131" in late.stdout


def test_annotate_says_from_which_trick_a_value_is() -> None:
    """``annotate --analyse`` said "under best play from the start" of a first-void-five deal
    whose analysis starts after its five-card phase (``samples/pagat-first-void-five.dpn`` deal
    3: trick 6): the value counts the tens of tricks 1 to 5 as played. (Here a late start,
    the same sentence.)"""
    from dehlanote import iter_path, replay_game
    from dehlanote.analysis.deal import analyse_deal
    from dehlanote.analysis.commentary import analysis_text

    facts = replay_game(next(iter(iter_path(SAMPLES / "worked-example.dpn"))))
    fact = facts.deals[0]
    late = analyse_deal(fact, facts.rules, from_trick=12)
    assert analysis_text(fact, facts.rules, late).splitlines()[0] == \
        "analysis: AC 3\u20131 BD under best play from trick 12"
    whole = analyse_deal(fact, facts.rules, from_trick=1)
    assert whole.tricks[0].number == 1
    assert "under best play from the start" in analysis_text(fact, facts.rules, whole).splitlines()[0]


def test_an_unreadable_file_among_others_hides_none_of_their_deals(tmp_path):
    # one missing file stopped the run before any deal of the others was solved ("one mistake never
    # hides others"); now it is said at once, the others are solved, and the status is 2
    ran = run(str(tmp_path / "missing.dpn"), "samples/worked-example.dpn", "--from-trick", "13", "--dd")
    assert ran.returncode == 2, ran.stderr
    assert f"cannot read {tmp_path / 'missing.dpn'}: no such file" in ran.stderr.replace("\n", "")
    assert "samples/worked-example.dpn, game 1, deal 1 (standard): AC 3–1 BD under best play from trick 13" \
        in ran.stdout
    assert "Traceback" not in ran.stderr


@pytest.mark.parametrize("command", ["solve", "annotate", "review"])
def test_worlds_and_seed_with_dd_are_said_to_be_unused(command, tmp_path):
    # --dd skips the sampling, so a typed --worlds or --seed did nothing, without a word
    extra = {"solve": ["--from-trick", "13"], "annotate": [], "review": ["--from-trick", "13"]}[command]
    with contextlib.chdir(ROOT):
        runner = CliRunner(env={"XDG_CACHE_HOME": str(tmp_path)})
        plain = runner.invoke(app, [command, "samples/worked-example.dpn", "--dd", *extra])
        both = runner.invoke(app, [command, "samples/worked-example.dpn", "--dd", "--worlds", "5", "--seed", "2",
                                   *extra])
    assert both.exit_code == plain.exit_code == 0, both.stderr
    assert "--worlds and --seed not used: --dd judges double dummy" in both.stderr
    assert "not used" not in plain.stderr
    assert both.stdout == plain.stdout


def test_a_time_limit_that_is_no_number_is_said_to_be_none() -> None:
    # --time-limit nan was refused with "Input should be greater than or equal to 0", as if it
    # were a number of seconds below 0
    import math
    from dehlanote.commands.sdoptions import seconds_limit
    sample = str(SAMPLES / "worked-example.dpn")
    for value in ("nan", "NaN", "-nan", "ten"):
        res = run(sample, "--time-limit", value)
        said = " ".join(res.stderr.replace("│", " ").split())
        assert res.returncode == 2 and f"'{value}' is not a number of seconds" in said, res.stderr
        assert "greater than" not in said
    for value in ("-1", "-inf"):
        said = " ".join(run(sample, "--time-limit", value).stderr.replace("│", " ").split())
        assert "a time limit is 0 seconds or more (0: no limit)" in said
    # inf (and 1e400, which is inf) is no limit, as 0 is; -0 is 0
    assert [seconds_limit(v) for v in ("inf", "1e400", "-0", "0", " 2.5")] == [0.0, 0.0, 0.0, 0.0, 2.5]
    assert math.copysign(1, seconds_limit("-0")) == 1
    ran = run(sample, "--time-limit", "inf", "--from-trick", "12", "--format", "json")
    assert ran.returncode == 0 and json.loads(ran.stdout)
    # whole-number options keep typer's words: not a whole number, or below their least
    for option in ("--node-limit", "--worlds"):
        for value, said in (("nan", "valid integer"), ("1e400", "valid integer"), ("-0", "greater than or equal to 1")):
            res = run(sample, option, value)
            assert res.returncode == 2 and said in " ".join(res.stderr.replace("│", " ").split()), (option, value)
