"""The replay page's what-if (templates/whatif.js) in headless Chromium, against the Python core.

The page carries a JavaScript port of the per-card rules and a double-dummy search; these
tests hold both to the Python reference: from random points of every sample deal with hands
(and of generated deals of the profiles and options the samples do not cover with hands),
random legal lines give the same legal cards, trick winners, captures, tens and result as
:class:`dehlanote.Table`; the record the page saves is byte for byte what
:func:`dehlanote.replay.whatif.whatif_record` writes for the same line; the solver's value of
every legal card on small random endings equals :class:`dehlanote.analysis.search.Solver`'s.
Then the page as a user works it: start a what-if, play a card, the solver answers, save.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from dehlanote import parse_string
from dehlanote.analysis.position import PlayRules, position_from_state
from dehlanote.analysis.search import Solver
from dehlanote.oracle.playout import Style, generate_match
from dehlanote.replay import replay_games
from dehlanote.replay.whatif import departure, play_on, whatif_record

import test_html_browser as pages
from test_html_browser import ROOT, open_page, page_of

browser = pages.browser          # the fixture: one headless Chromium for the module (skips without one)

SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))

#: generated matches with hands for what the samples do not write hands for
GENERATED = [("standard", {"double-sar": True}), ("standard", {"court-piece": True}),
             ("standard", {"trump": "partner"}), ("standard", {"trump": "closed"}),
             ("hukum", {"trump": "closed"}), ("pagat", {"trump": "first-void-five", "kots": 0}),
             ("standard", {"six-player": True}), ("hukum", None)]


@lru_cache(maxsize=None)
def generated_text(i: int) -> str:
    profile, options = GENERATED[i]
    text, _facts = generate_match(random.Random(40 + i), profile, options, Style(hands=True), max_deals=2)
    return text


def sources() -> list[tuple[str, str]]:
    out = [(p.stem, p.read_text(encoding="utf-8")) for p in SAMPLES]
    return out + [(f"generated-{GENERATED[i][0]}-{i}", generated_text(i)) for i in range(len(GENERATED))]


def with_hands(text: str) -> list[tuple[int, Any, Any]]:
    """(game index, game facts, deal) of each deal of ``text`` whose hands are all written."""
    out = []
    for gi, g in enumerate(replay_games(parse_string(text))):
        for d in g.deals:
            if d.rules is not None and len(d.dealt) == d.rules.seats and d.tricks:
                out.append((gi, g, d))
    return out


def load(driver: Any, tmp_path: Path, name: str, text: str) -> None:
    open_page(driver, page_of(tmp_path, text, name + ".html"))


JS_LINE = """
var g = JSON.parse(document.getElementById('dpn-data').textContent).games[arguments[0]];
var W = DPN_WHATIF, E = W.rules, line = arguments[2], number = arguments[3];
var d = g.deals.filter(function (x) { return x.n === number; })[0];
var r = W.replay(g, d, []), st = r.st, out = {legal: [], tricks: []};
for (var i = 0; i < line.length; i++) {
  if (i >= arguments[1]) { out.legal.push(E.legal(st)); }
  var p = E.play(st, line[i]);
  if (p === null) { return {error: 'not held: ' + line[i] + ' at ' + i}; }
  st = p.st;
  if (p.happened.trick && i >= arguments[1]) {
    var t = p.happened.trick, x = t.capture;
    var cap = x ? [g.seats.charAt(x[0]), g.sides[x[1]], x[2], x[3].slice().sort(), x[4]] : null;
    out.tricks.push([t.n, g.seats.charAt(t.winner), cap, t.centre, t.ctens.slice().sort()]);
  }
}
out.legal.push(E.legal(st));
out.tens = [st.tens[0].slice().sort(), st.tens[1].slice().sort()];
out.score = E.totals(st);
out.trump = st.trump;
if (E.toPlay(st) === null) { var res = E.result(st); out.result = [res.winner === null ? null : st.sides[res.winner],
  res.kot ? [st.sides[res.kot[0]], res.kot[1]] : null]; }
return out;
"""


def python_line(rng: random.Random, deal: Any, cards_max: int) -> tuple[int, list[str], dict[str, Any]]:
    """A random point of ``deal`` and a random legal line from it, with what the core says of it."""
    n = deal.rules.seats
    trick = rng.randint(1, len(deal.tricks))
    card = rng.randint(1, len(deal.tricks[trick - 1].plays))
    table = play_on(deal, trick, card, [])
    start = (trick - 1) * n + card - 1
    prefix = [p.card for t in deal.tricks for p in t.trick.plays][:start]
    line: list[str] = []
    legal: list[list[str]] = []
    tricks = []
    for _ in range(cards_max):
        if table.over:
            break
        options = [str(c) for c in table.legal_cards()]
        legal.append(options)
        c = rng.choice(options)
        done = table.state.tricks_done
        table.play(c)
        line.append(c)
        if table.state.tricks_done > done:
            f = table.state.tricks[-1]
            cap = f.capture
            taken = None if cap is None else [cap.by, cap.side, cap.cards, sorted(cap.tens), cap.reason]
            tricks.append([f.number, f.winner, taken, f.centre_cards, sorted(f.centre_tens)])
    legal.append([str(c) for c in table.legal_cards()])
    st = table.state
    facts = table.facts
    expected = {"legal": legal, "tricks": tricks, "tens": [sorted(st.pile_tens[0]), sorted(st.pile_tens[1])],
                "score": list(table.score.values()), "trump": st.trump}
    if facts is not None:
        expected["result"] = [facts.winner, None if facts.kot is None else [facts.kot.side, facts.kot.reason]]
    return start, prefix + line, expected


@pytest.mark.parametrize("name,text", sources(), ids=[s[0] for s in sources()])
def test_the_page_engine_plays_as_the_core(browser: Any, tmp_path: Path, name: str, text: str) -> None:
    deals = with_hands(text)
    if not deals:
        pytest.skip("no deal with every hand written")
    load(browser, tmp_path, name, text)
    rng = random.Random(name)
    checked = 0
    for gi, _g, deal in deals:
        for _ in range(6):
            start, line, expected = python_line(rng, deal, rng.choice((8, 60, 200)))
            got = browser.execute_script(JS_LINE, gi, start, line, deal.number)
            if "result" not in expected:
                got.pop("result", None)
            assert got == expected, (name, deal.number, start, line)
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize("name,text", sources(), ids=[s[0] for s in sources()])
def test_the_saved_record_is_the_python_record_byte_for_byte(browser: Any, tmp_path: Path, name: str,
                                                             text: str) -> None:
    deals = with_hands(text)
    if not deals:
        pytest.skip("no deal with every hand written")
    load(browser, tmp_path, name, text)
    rng = random.Random("record " + name)
    compared = 0
    for gi, g, deal in deals:
        n = deal.rules.seats
        for _ in range(6):
            start, line, _expected = python_line(rng, deal, rng.choice((3, 40, 200)))
            table = play_on(deal, 1, 1, line)
            left = departure(deal, table)
            note = rng.choice(("", "played on in the html replay: by hand", "a } brace"))
            js = browser.execute_script(
                "var g = JSON.parse(document.getElementById('dpn-data').textContent).games[arguments[0]];"
                "var number = arguments[1], d = g.deals.filter(function (x) { return x.n === number; })[0];"
                "return DPN_WHATIF.record(g, d, arguments[2], arguments[3]);", gi, deal.number, line, note)
            if left is None:
                assert js is None             # the line has not left the game: nothing to save
                continue
            k = (left.trick - 1) * n + left.card - 1
            at = play_on(deal, left.trick, left.card, line[k:])
            py = whatif_record(g, deal, left.trick, left.card, left.recorded, left.chosen, at, note=note)
            assert js == py, (name, deal.number, line)
            compared += 1
    assert compared >= 3


def test_the_solver_values_every_card_as_the_python_solver(browser: Any, tmp_path: Path) -> None:
    """Small random endings (2 to 4 tricks left) of every profile: each legal card's value."""
    rng = random.Random(7)
    compared = 0
    for name, text in sources():
        deals = with_hands(text)
        if not deals:
            continue
        load(browser, tmp_path, name, text)
        for gi, _g, deal in deals[:3]:
            rules = deal.rules
            n = rules.seats
            left = rng.randint(2, 4 if n == 4 else 2)
            start_trick = rules.tricks_per_deal - left + 1
            table = deal.table()
            while table.state.tricks_done < start_trick - 1:
                table.play(rng.choice(table.legal_cards()))
            for _ in range(rng.randint(0, n - 1)):
                table.play(rng.choice(table.legal_cards()))
            state = table.state
            trick_cards = [p.card for p in state.current]
            base = state._replace(current=()) if state.current else state
            pos = position_from_state(base)
            if pos is None:
                continue
            for c in trick_cards:
                pos = pos.play(c)
            expected = Solver(PlayRules.of(rules), compiled=False).card_values(pos)
            line = [p.card for f in state.tricks for p in f.trick.plays] + trick_cards
            got = browser.execute_script(
                "var g = JSON.parse(document.getElementById('dpn-data').textContent).games[arguments[0]];"
                "var number = arguments[1], d = g.deals.filter(function (x) { return x.n === number; })[0];"
                "var W = DPN_WHATIF, st = W.replay(g, d, arguments[2]).st, P = W.position(st, 20000);"
                "var v = W.solver.values(P), out = {};"
                "for (var k in v) { out[W.toCard(Number(k))] = v[k] + P.base; } return out;",
                gi, deal.number, line)
            assert got == expected, (name, deal.number, line)
            compared += 1
    assert compared >= 8
