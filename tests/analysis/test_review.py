"""``dehlanote review``: each player's judged decisions, checked against an independent count
from :func:`dehlanote.analysis.single.analyse` and the per-card core's legal cards."""

from __future__ import annotations

import contextlib
import json
import traceback
from pathlib import Path
from typing import NamedTuple

import pytest
from typer.testing import CliRunner

import dehlanote
from dehlanote.analysis.single import analyse, play_mark

ROOT = Path(__file__).resolve().parents[2]
MATCH = ROOT / "samples" / "match.dpn"


class Ran(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def run(*args: str, cache: Path) -> Ran:
    """``dehlanote review`` in this process (the command function through Typer) with its cache
    under ``cache``; an exception it lets out is its traceback on standard error."""
    from dehlanote import cache as caching
    from dehlanote.cli import app

    caching.folder.cache_clear()                   # the folder is found once a process: found again here
    try:
        with contextlib.chdir(ROOT):
            res = CliRunner(env={"XDG_CACHE_HOME": str(cache)}).invoke(app, ["review", *args])
    finally:
        caching.folder.cache_clear()
    err = res.stderr
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        err += "".join(traceback.format_exception(res.exception))
    return Ran(res.exit_code, res.stdout, err)


def expected(path: Path, *, dd: bool, from_trick: int, worlds: int = 1) -> dict[str, dict]:
    """Per player: decisions (cards where the core gives more than one legal card), ? and ??
    counts, tens lost, and every marked decision, from ``analyse`` directly."""
    out: dict[str, dict] = {}
    for facts in dehlanote.read_games(str(path)):
        rules = facts.rules
        names = {s: facts.game.tag(s) for s in rules.seat_letters}
        for fact in facts.deals:
            a = analyse(fact, rules, dd=dd, worlds=worlds, seed=0, from_trick=from_trick)
            dealer = rules.seat_letters.index(fact.dealer)
            for t in a.tricks:
                for k, p in enumerate(t.plays):
                    if len(fact.table(trick=t.number, card=k + 1).legal_cards()) < 2:
                        continue
                    who = out.setdefault(names[p.seat], {"decisions": 0, "?": 0, "??": 0, "lost": 0.0, "marked": []})
                    m = play_mark(a, p, rules, dealer)
                    who["decisions"] += 1
                    if m:
                        who[m] += 1
                    loss = p.loss if dd else p.single.expected_loss
                    who["lost"] += loss
                    if m:
                        best = p.best if dd else p.single.best
                        who["marked"].append((loss, fact.number, t.number, k + 1, p.card, set(best)))
    return out


def test_double_dummy_counts_and_costliest_agree_with_analyse(tmp_path: Path) -> None:
    res = run(str(MATCH), "--dd", "--from-trick", "9", "--top", "10", "-f", "json", cache=tmp_path)
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["judgement"] == "double-dummy" and doc["deals"]["judged"] == 7 and doc["deals"]["skipped"] == 0
    assert set(doc) == {"judgement", "worlds", "seed", "from_trick", "deals", "players"}
    assert set(doc["deals"]) == {"judged", "from_cache", "partial", "skipped", "skipped_why", "unnamed_decisions"}
    for p in doc["players"]:
        assert set(p) == {"name", "decisions", "marks", "deals", "tens_lost", "tens_lost_per_deal", "costliest"}
        for c in p["costliest"]:
            assert set(c) == {"source", "game", "deal", "trick", "card_in_trick", "seat", "player", "played", "mark",
                              "expected_loss", "stderr", "unit", "tens", "worlds", "exact", "best", "value",
                              "best_value", "cards", "link"}
    want = expected(MATCH, dd=True, from_trick=9)
    got = {p["name"]: p for p in doc["players"]}
    assert set(got) == set(want) == {"Esha", "Omar", "Nandini", "Ravi"}
    for name, w in want.items():
        g = got[name]
        assert g["decisions"] == w["decisions"]
        assert g["marks"] == {"?": w["?"], "??": w["??"]}
        assert g["tens_lost"] == pytest.approx(w["lost"], abs=1e-4)
        assert g["tens_lost_per_deal"] == pytest.approx(w["lost"] / 7, abs=1e-4)
        marked = sorted(w["marked"], key=lambda m: (-m[0], m[1], m[2], m[3]))
        assert [(c["deal"], c["trick"], c["card_in_trick"], c["played"]) for c in g["costliest"]] == \
            [m[1:5] for m in marked]
        for c, m in zip(g["costliest"], marked):
            assert set(c["best"]) == m[5] and c["expected_loss"] == m[0]
            assert c["link"] == (f"games/match.html#game=1&deal={c['deal']}&trick={c['trick']}"
                                 f"&card={c['card_in_trick'] - 1}")
            # every legal card's loss, the best ones at 0 and the card played at its loss
            losses = {x["card"]: x["expected_loss"] for x in c["cards"]}
            assert losses[c["played"]] == m[0] and all(losses[b] == 0 for b in m[5])
    # the sample's clear blunder: Ravi's ace of hearts at trick 10 of deal 3 gives away two tens
    ravi = got["Ravi"]["costliest"][0]
    assert (ravi["deal"], ravi["trick"], ravi["played"], ravi["mark"], ravi["expected_loss"]) == \
        (3, 10, "AH", "??", 2.0)
    assert "JH" in ravi["best"]


def test_single_dummy_is_the_analysis_judgement_and_the_cache_keeps_it(tmp_path: Path) -> None:
    args = (str(MATCH), "--worlds", "4", "--from-trick", "11", "--top", "3", "-f", "json")
    first = run(*args, cache=tmp_path)
    assert first.returncode == 0, first.stderr
    doc = json.loads(first.stdout)
    assert doc["judgement"] == "single-dummy" and doc["worlds"] == 4 and doc["deals"]["from_cache"] == 0
    want = expected(MATCH, dd=False, from_trick=11, worlds=4)
    for p in doc["players"]:
        w = want[p["name"]]
        assert (p["decisions"], p["marks"]["?"], p["marks"]["??"]) == (w["decisions"], w["?"], w["??"])
        assert p["tens_lost"] == pytest.approx(w["lost"], abs=1e-3)
        for c in p["costliest"]:
            assert c["worlds"] == 4 or (c["exact"] and c["worlds"] < 4)
            assert c["stderr"] >= 0 and c["mark"] in ("?", "??")
    again = run(*args, cache=tmp_path)
    assert json.loads(again.stdout)["players"] == doc["players"]
    assert json.loads(again.stdout)["deals"]["from_cache"] == 7
    assert "7 deals of 7 from the cache" in again.stderr
    fresh = run(*args, "--no-cache", cache=tmp_path)
    assert json.loads(fresh.stdout)["deals"]["from_cache"] == 0
    assert json.loads(fresh.stdout)["players"] == doc["players"]


def test_player_filter_and_unknown_player(tmp_path: Path) -> None:
    res = run(str(MATCH), "--dd", "--from-trick", "12", "--player", "Omar", cache=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "Omar:" in res.stdout and "Ravi:" not in res.stdout and "Esha:" not in res.stdout
    folder = tmp_path / "out dir"
    (folder / "games").mkdir(parents=True)
    (folder / "games" / "match.html").write_text("(a page of the site)")
    site = run(str(MATCH), "--dd", "--from-trick", "9", "--player", "Ravi", "--site", str(folder), "-f", "json",
               cache=tmp_path)
    link = json.loads(site.stdout)["players"][0]["costliest"][0]["link"]
    assert link == str(folder).replace(" ", "%20") + "/games/match.html#game=1&deal=3&trick=10&card=0"
    # a --site that is no site is refused before any deal is judged (it was taken without a word)
    for where, said in ((tmp_path / "nonexist", "the folder does not exist"), (MATCH, "it is a file"),
                        (tmp_path, f"the site has no page games/match.html for {MATCH}")):
        no = run(str(MATCH), "--dd", "--from-trick", "9", "--site", str(where), cache=tmp_path)
        assert no.returncode == 2 and f"dehlanote: usage: --site {where}: {said}" in no.stderr, no.stderr
        assert no.stdout == ""
    base = run(str(MATCH), "--dd", "--from-trick", "9", "--player", "Ravi", "--link-base", "https://example.org/dpn",
               "-f", "json", cache=tmp_path)
    assert json.loads(base.stdout)["players"][0]["costliest"][0]["link"].startswith(
        "https://example.org/dpn/games/match.html#game=1&deal=3&trick=10")
    for empty in ("", " "):     # (the links began "/games/", the root of any server)
        no = run(str(MATCH), "--dd", "--from-trick", "9", "--link-base", empty, cache=tmp_path)
        assert no.returncode == 2 and "usage: --link-base is empty" in no.stderr and no.stdout == ""
    index = run(str(MATCH), "--dd", "--from-trick", "9", "--player", "Ravi", "--link-base",
                "https://example.org/dpn/index.html", "-f", "json", cache=tmp_path)
    assert json.loads(index.stdout)["players"] == json.loads(base.stdout)["players"]
    # the name in any case, spaces around it ignored (as stats --player): the same review
    anycase = run(str(MATCH), "--dd", "--from-trick", "12", "--player", " omar ", cache=tmp_path)
    assert anycase.returncode == 0, anycase.stderr
    assert anycase.stdout == res.stdout
    empty = run(str(MATCH), "--dd", "--player", " ", cache=tmp_path)
    assert empty.returncode == 2 and "--player: give a name" in empty.stderr
    bad = run(str(MATCH), "--dd", "--from-trick", "12", "--player", "Zed", cache=tmp_path)
    assert bad.returncode == 2
    assert "unknown-player" in bad.stderr and "Esha, Nandini, Omar, Ravi" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_start_past_every_deals_end_skips_them_saying_why(tmp_path: Path) -> None:
    res = run(str(MATCH), "--dd", "--from-trick", "99", cache=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "0 deals judged double dummy, from trick 99; 7 skipped (fewer than 99 tricks: 7)" in res.stderr + res.stdout


def test_bad_records_give_their_codes_and_the_good_deals_are_still_judged(tmp_path: Path) -> None:
    text = MATCH.read_text()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("deal 2"))
    lines[at + 3] = lines[at + 3].replace("7S", "7Z")           # deal 2 trick 2: not a card
    bad = tmp_path / "bad.dpn"
    bad.write_text("\n".join(lines) + "\n")
    unfinished = tmp_path / "unfinished.dpn"                     # no hands written, not every card played
    unfinished.write_text("\n".join(text.split("\n\ndeal 2")[0].splitlines()[:16]).replace('"AC"', '"*"') + "\n")
    res = run(str(bad), str(unfinished), "--dd", "--from-trick", "12", "-f", "json", cache=tmp_path / "c")
    assert res.returncode == 1
    assert "Traceback" not in res.stderr
    assert f"{bad}:{at + 4}:" in res.stderr and "bad-card" in res.stderr
    doc = json.loads(res.stdout)
    assert doc["deals"]["judged"] >= 5                        # the deals that replay are judged
    assert doc["deals"]["skipped_why"].get("hands unknown", 0) >= 1
    text_out = run(str(unfinished), "--dd", cache=tmp_path / "c")
    assert "skipped (hands unknown: 1)" in text_out.stdout


def test_a_closed_trump_stays_hidden_from_those_who_did_not_set_it() -> None:
    """What the drill shows of a decision: the setter knows the closed trump's suit, the
    others see only who set it until it is revealed (deal 2 of the sample: B sets spades,
    revealed at trick 12)."""
    from dehlanote.analysis.review import Options, review_deal

    facts = next(dehlanote.read_games(str(ROOT / "samples" / "standard-closed-trump.dpn")))
    for fact in facts.deals[:2]:
        setter, revealed = fact.trump.by, fact.trump.trick or 99
        marked = [d for d in review_deal(fact, facts.rules, Options(dd=True, from_trick=8)).decisions if d.seen]
        assert marked
        for d in marked:
            hand = fact.table(trick=d.trick, card=d.place + 1).hand(d.seat)
            assert sorted(d.seen.hand) == sorted(hand)
            if d.trick >= revealed:
                assert (d.seen.trump_how, d.seen.trump) == ("set", fact.trump.suit)
            elif d.seat == setter:
                assert (d.seen.trump_how, d.seen.trump) == ("closed-own", fact.trump.suit)
            else:
                assert (d.seen.trump_how, d.seen.trump, d.seen.setter) == ("closed-hidden", None, setter)
                assert "spades" not in d.seen.to_json()["trump_note"]


def test_one_sampled_world_is_said_as_one_sample_not_as_every_hand_known(tmp_path: Path) -> None:
    # with --worlds 1 each costly decision said "the only deal the player could not tell apart:
    # every hand known to them", true only of a player who could tell every hand (one exact world)
    ran = run(str(MATCH), "--worlds", "1", "--from-trick", "9", cache=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("7 deals judged single dummy, 1 world a decision, seed 0, from trick 9\n")
    assert "expected to lose 2.00 tens (\u00b10.00 over 1 sampled deal)" in ran.stdout
    assert "every hand known" not in ran.stdout and "1 worlds" not in ran.stdout and "1 sampled deals" not in ran.stdout
    assert "(over all 30 deals the player could not tell apart)" in run(
        str(MATCH), "--worlds", "32", "--from-trick", "11", cache=tmp_path).stdout


def test_a_link_base_is_a_folder_address_the_links_can_follow(tmp_path: Path) -> None:
    # "https://x.org/a b?c#d" gave links "https://x.org/a b?c#d/games/...": the page behind the
    # fragment, a space in the address
    spaced = run(str(MATCH), "--dd", "--from-trick", "9", "--player", "Ravi", "--link-base",
                 "https://example.org/club night", "-f", "json", cache=tmp_path)
    assert json.loads(spaced.stdout)["players"][0]["costliest"][0]["link"].startswith(
        "https://example.org/club%20night/games/match.html#game=1&deal=3&trick=10")
    for base in ("https://example.org/?site=1", "https://example.org/#top"):
        refused = run(str(MATCH), "--dd", "--from-trick", "12", "--link-base", base, cache=tmp_path)
        assert refused.returncode == 2
        assert refused.stderr.strip() == (f"dehlanote: usage: --link-base {base}: give the address of the site's "
                                          f"folder, without ? or #")


def test_a_deal_stopped_by_the_node_limit_is_not_said_stopped_by_the_time_limit(tmp_path: Path) -> None:
    """``review --node-limit 1`` said its deal was "stopped by the time limit"."""
    ran = run("samples/worked-example.dpn", "--dd", "--node-limit", "1", cache=tmp_path)
    assert ran.returncode == 1, ran.stderr
    assert "(1 not whole: stopped by the time or node limit, the later tricks judged)" in ran.stdout
    timed = run("samples/worked-example.dpn", "--dd", "--time-limit", "0.001", cache=tmp_path)
    assert "(1 not whole: stopped by the time limit, the later tricks judged)" in timed.stdout


def test_a_link_base_that_is_no_web_or_file_address_is_refused(tmp_path: Path) -> None:
    # share --base refused javascript: and data: addresses; review --link-base put them in every link
    for base, scheme in (("javascript:alert(1)", "javascript"), ("data:text/html,x", "data"),
                         ("JavaScript:void(0)", "javascript")):
        refused = run(str(MATCH), "--dd", "--from-trick", "12", "--link-base", base, cache=tmp_path)
        assert refused.returncode == 2 and refused.stdout == ""
        assert refused.stderr.strip() == (f"dehlanote: usage: --link-base {base}: give an http, https or file "
                                          f"address, or a path (not {scheme}:)")
    for base in ("file:///home/me/site", "site/", "https://example.org/dpn"):
        kept = run(str(MATCH), "--dd", "--from-trick", "11", "--link-base", base, "-f", "json", cache=tmp_path)
        assert kept.returncode == 0, kept.stderr
        link = json.loads(kept.stdout)["players"][0]["costliest"][0]["link"]
        assert link.startswith(base.rstrip("/") + "/games/match.html#game=1&deal="), link


def test_a_node_limit_past_the_search_counts_reach_is_judged_as_no_limit(tmp_path: Path) -> None:
    # 2**63 and more overflowed the compiled search's 64-bit count: a traceback and status 1
    ran = run("samples/worked-example.dpn", "--dd", "--from-trick", "12", "--node-limit", str(10**30),
              cache=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert "Traceback" not in ran.stderr and "1 decision judged in 1 deal" in ran.stdout


def test_an_unreadable_file_among_others_hides_none_of_their_decisions(tmp_path):
    # as solve: the missing file is said, the other file's deals judged, the status 2
    ran = run(str(tmp_path / "missing.dpn"), "samples/worked-example.dpn", "--from-trick", "12", "--dd",
              cache=tmp_path / "cache")
    assert ran.returncode == 2, ran.stderr
    assert "cannot read" in ran.stderr and "no such file" in ran.stderr and "Traceback" not in ran.stderr
    assert "1 deal judged double dummy, from trick 12" in ran.stdout
    assert "Chitra: 1 decision judged in 1 deal" in ran.stdout
