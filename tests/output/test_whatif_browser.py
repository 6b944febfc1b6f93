"""The replay page's what-if (templates/whatif.js) in headless Chromium, against the Python core.

The page carries a JavaScript port of the per-card rules and a double-dummy search; these
tests hold both to the Python reference: from random points of every sample deal with hands
(written, or the first two of a file played out to the end without them; and of generated
deals of the profiles and options the samples do not cover with hands),
random legal lines give the same legal cards, trick winners, captures, tens and result as
:class:`dehlanote.Table`; the record the page saves is byte for byte what
:func:`dehlanote.replay.whatif.whatif_record` writes for the same line; the solver's value of
every legal card on small random endings equals :class:`dehlanote.analysis.search.Solver`'s.
Then the page as a user works it: start a what-if, play a card, the solver answers, save.
"""

from __future__ import annotations

import os
import random
import shutil
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
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from test_html_browser import ROOT, WORKED, assert_not_blank, errors_logged, open_page, page_of, press, viewport, wait

browser = pages.browser          # the fixture: one headless Chromium for the module (skips without one)

SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))

#: generated matches with hands for what the samples do not write hands for
GENERATED = [("standard", {"double-sar": True}), ("standard", {"court-piece": True}),
             ("standard", {"trump": "partner"}), ("standard", {"trump": "closed"}),
             ("hukum", {"trump": "closed"}), ("pagat", {"trump": "first-void-five", "kots": 0}),
             ("standard", {"six-player": True}), ("hukum", None)]


#: and without hands, played out (each hand is then the cards its seat played): the trump
#: methods whose start depends most on the hands (the first five cards, a closed trump)
PLAYED_OUT = [("pagat", {"trump": "first-void-five", "kots": 0}), ("hukum", {"trump": "closed"}),
              ("standard", {"six-player": True})]


@lru_cache(maxsize=None)
def generated_text(i: int, hands: bool = True) -> str:
    profile, options = GENERATED[i] if hands else PLAYED_OUT[i]
    text, _facts = generate_match(random.Random(40 + i), profile, options, Style(hands=hands), max_deals=2)
    return text


def sources() -> list[tuple[str, str]]:
    out = [(p.stem, p.read_text(encoding="utf-8")) for p in SAMPLES]
    out += [(f"generated-{GENERATED[i][0]}-{i}", generated_text(i)) for i in range(len(GENERATED))]
    return out + [(f"played-out-{PLAYED_OUT[i][0]}-{i}", generated_text(i, False)) for i in range(len(PLAYED_OUT))]


def with_hands(text: str) -> list[tuple[int, Any, Any]]:
    """(game index, game facts, deal) of each deal of ``text`` whose hands are all known: every
    deal with them written, and the first two that do not write them but play every card (the
    hands are then the cards each seat played, as the stepper's table takes them)."""
    out = []
    played_out = 0
    for gi, g in enumerate(replay_games(parse_string(text))):
        for d in g.deals:
            if d.rules is None or not d.tricks:
                continue
            if len(d.dealt) == d.rules.seats:
                out.append((gi, g, d))
            elif played_out < 2 and all(d.hands.get(s) for s in d.rules.seat_letters):
                out.append((gi, g, d))
                played_out += 1
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
def test_the_page_engine_plays_as_the_core_and_saves_the_python_record(browser: Any, tmp_path: Path, name: str,
                                                                       text: str) -> None:
    # (one page a source for both checks: building and loading it was most of each one's time)
    deals = with_hands(text)
    if not deals:
        pytest.skip("no deal with every hand written")
    load(browser, tmp_path, name, text)
    _plays_as_the_core(browser, name, deals)
    _saves_the_python_record(browser, name, deals)


def _plays_as_the_core(browser: Any, name: str, deals: list[tuple[int, Any, Any]]) -> None:
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


def _saves_the_python_record(browser: Any, name: str, deals: list[tuple[int, Any, Any]]) -> None:
    """The record the page saves for a random line is the Python record byte for byte."""
    rng = random.Random("record " + name)
    compared = 0
    for gi, g, deal in deals:
        n = deal.rules.seats
        for _ in range(6):
            start, line, _expected = python_line(rng, deal, rng.choice((3, 40, 200)))
            table = play_on(deal, 1, 1, line)
            left = departure(deal, table)
            note = rng.choice(("", "the line: 3 cards chosen by hand", "a } brace"))
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
            pos = position_from_state(table.history[-1 - len(trick_cards)])     # at the trick's start
            assert pos is not None
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


# ---- the page as a user works it ---------------------------------------------------------------

def panel(driver: Any) -> str:
    return driver.execute_script("return document.getElementById('whatif').innerText")


def line_of(driver: Any) -> list[str]:
    return driver.execute_script("return DPN_WHATIF.state.line.slice()")


def over(driver: Any) -> bool:
    return driver.execute_script("var W = DPN_WHATIF; return W.state.st !== null && !W.state.busy "
                                 "&& W.rules.toPlay(W.state.st) === null")


def worked_hostile() -> str:
    """The worked example with script in a tag and in comments."""
    text = WORKED.read_text(encoding="utf-8")
    text = text.replace('[Event "Worked example"]', '[Event "<img src=x onerror=window.__pwned=1>"]')
    return text.replace("{A wins: the four cards", "{<script>window.__pwned = 2</script> A wins: the four cards")


def test_play_on_from_a_position_the_solver_answers_and_the_record_saves(browser: Any, tmp_path: Path) -> None:
    """Trick 12 of the worked example: D plays 6D instead of AC; the solver plays every seat's
    best to the end (each card checked against the Python solver); the saved file validates,
    says where it left the game and is the Python record of the same line."""
    text = worked_hostile()
    open_page(browser, page_of(tmp_path, text), "#game=1&deal=1&trick=11")
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    start = browser.find_element(By.CSS_SELECTOR, "#whatif .wi-start")
    assert start.is_enabled()
    start.click()
    facts = next(iter(replay_games(parse_string(text))))
    deal = facts.deals[0]
    offered = [b.get_attribute("data-card") for b in browser.find_elements(By.CSS_SELECTOR, "#whatif .wi-card")]
    assert offered == [str(c) for c in deal.table(trick=12, card=1).legal_cards()]
    browser.find_element(By.CSS_SELECTOR, '#whatif .wi-card[data-card="6D"]').click()
    wait(browser, lambda d: len(line_of(d)) >= 46, timeout=20)       # the solver's reply to 6D
    assert "what if" in panel(browser).lower()
    wait(browser, over, timeout=30)
    line = line_of(browser)
    assert line[44] == "6D" and len(line) == 52
    # every card after the user's is the solver's best (the Python solver says it keeps the value)
    table = play_on(deal, 12, 1, [])
    solver = Solver(PlayRules.of(deal.rules), compiled=False)
    pos = position_from_state(table.state)
    for k, c in enumerate(line[44:]):
        if not table.state.current:
            pos = position_from_state(table.state)
        assert pos is not None
        if k:
            after, best, _cards = solver.judge(pos, c)
            assert after == best, (c, line)
        pos = pos.play(c)
        table.play(c)
    tens = {side: len(t) for side, t in table.tens.items()}
    assert f"what-if: tens AC {tens['AC']} \u00b7 BD {tens['BD']}" in text_of(browser, "result")
    told = browser.execute_script("return Array.prototype.map.call(document.querySelectorAll("
                                  "'#story-body li.fact-tens'), function (e) { return e.textContent; })")
    assert told[-1] == f"tens AC {tens['AC']} BD {tens['BD']}"          # the story's count, trick by trick
    assert told[-2] == f"tens AC {len(table.history[-5].pile_tens[0])} BD {len(table.history[-5].pile_tens[1])}"
    browser.find_element(By.CSS_SELECTOR, "#whatif .wi-save").click()
    saved = tmp_path / "what-if-deal-1.dpn"
    wait(browser, lambda d: saved.exists() and saved.stat().st_size > 0, timeout=10)
    record = saved.read_text(encoding="utf-8")
    assert "{what-if on deal 1: left the game at trick 12, card 1: D plays 6D where the game has AC}" in record
    again = list(replay_games(parse_string(record)))
    assert len(again) == 1 and not again[0].errors
    assert again[0].deals[0].tens == tens
    note = "the line: 1 card chosen by hand, 7 played by the double-dummy solver"     # the stepper's words
    assert note in record
    assert record == whatif_record(facts, deal, 12, 1, "AC", "6D", table, note=note)
    assert "<img src=x onerror=window.__pwned=1>" in record and "<script>window.__pwned = 2</script>" in record
    assert browser.execute_script("return window.__pwned === undefined")
    assert errors_logged(browser) == []


def text_of(driver: Any, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def test_by_hand_with_the_keyboard_undo_and_back_to_the_game(browser: Any, tmp_path: Path) -> None:
    open_page(browser, page_of(tmp_path, WORKED), "#game=1&deal=1&trick=3")
    press(browser, "w")
    assert browser.switch_to.active_element.get_attribute("data-card")      # focus on the first card
    assert not browser.find_element(By.CSS_SELECTOR, "#whatif .wi-save").is_enabled()   # still the game's line
    assert "choose another card than the game's" in panel(browser)
    browser.find_element(By.CSS_SELECTOR, "#whatif .wi-auto input").click()   # the solver plays no seat
    assert not browser.execute_script("return DPN_WHATIF.state.auto")
    buttons = browser.find_elements(By.CSS_SELECTOR, "#whatif .wi-card")
    game = [b for b in buttons if b.get_attribute("title") == "the card played in the game"]
    assert len(game) == 1                                  # the game's card is marked
    other = next(b for b in buttons if b not in game)
    chosen = other.get_attribute("data-card")
    other.send_keys(Keys.ENTER)
    assert line_of(browser)[-1] == chosen and len(line_of(browser)) == 13
    assert browser.execute_script("return DPN_WHATIF.state.busy") is False   # nobody plays the others
    second = browser.find_elements(By.CSS_SELECTOR, "#whatif .wi-card")[0].get_attribute("data-card")
    browser.find_elements(By.CSS_SELECTOR, "#whatif .wi-card")[0].send_keys(Keys.ENTER)
    assert line_of(browser)[-2:] == [chosen, second]
    shown = browser.execute_script("return Array.prototype.map.call(document.querySelectorAll('#trick .card'), "
                                   "function (c) { return c.getAttribute('data-card'); })")
    assert shown[-2:] == [chosen, second] or set(shown) >= {chosen, second}
    press(browser, "u")
    assert len(line_of(browser)) == 13
    assert browser.find_element(By.CSS_SELECTOR, "#whatif .wi-save").is_enabled()
    Select(browser.find_element(By.ID, "view")).select_by_value("B")     # a seat view: every hand stays hidden
    assert "offered in the open table view" in panel(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, "#whatif .wi-card")
    Select(browser.find_element(By.ID, "view")).select_by_value("open")
    press(browser, "w")                                   # back to the game, where the line left it
    assert browser.execute_script("return DPN_WHATIF.state.on") is False
    assert browser.execute_script("return location.hash") == "#game=1&deal=1&trick=3"
    assert "play on from here" in panel(browser)
    assert errors_logged(browser) == []


def test_a_click_on_a_card_in_the_hand_plays_on_from_there(browser: Any, tmp_path: Path) -> None:
    open_page(browser, page_of(tmp_path, WORKED), "#game=1&deal=1&trick=12")     # D to lead trick 13
    browser.execute_script("DPN_WHATIF.state.auto = false")
    browser.find_element(By.CSS_SELECTOR, '#seats .seat.to-play svg.card[data-card="6D"]').click()
    assert browser.execute_script("return DPN_WHATIF.state.on") is True
    assert line_of(browser)[-1] == "6D" and len(line_of(browser)) == 49
    assert browser.find_elements(By.CSS_SELECTOR, '#trick svg.card[data-card="6D"]')
    # only the legal cards of the seat to play take a click
    playable = browser.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('#seats svg.card.wi-playable'), "
        "function (e) { return e.getAttribute('data-card'); })")
    table = play_on(next(iter(replay_games(parse_string(WORKED.read_text(encoding="utf-8"))))).deals[0], 13, 1, ["6D"])
    assert sorted(playable) == sorted(str(c) for c in table.legal_cards())
    assert errors_logged(browser) == []


#: match.dpn's first deal stopped after its fourth trick, no hands written: a hand is not known
UNFINISHED = "\n".join(ROOT.joinpath("samples", "match.dpn").read_text(encoding="utf-8").replace(
    '[Result "AC"]', '[Result "*"]').splitlines()[:18]) + "\n"


def test_not_offered_without_every_hand_and_says_why(browser: Any, tmp_path: Path) -> None:
    open_page(browser, page_of(tmp_path, UNFINISHED), "#game=1&deal=1&trick=2")
    start = browser.find_element(By.CSS_SELECTOR, "#whatif .wi-start")
    assert not start.is_enabled()
    assert "what-if needs every hand, and the record does not write them all" in panel(browser)
    press(browser, "w")
    assert browser.execute_script("return DPN_WHATIF.state.on") is False


def test_when_the_solver_cannot_finish_in_its_budget_it_says_so(browser: Any, tmp_path: Path) -> None:
    """A six-player deal from its first card: 26 tricks are beyond the 3 s budget."""
    open_page(browser, page_of(tmp_path, ROOT / "samples" / "standard-six-player.dpn"), "#game=1&deal=1&trick=0")
    press(browser, "w")
    press(browser, "b")
    wait(browser, lambda d: "could not finish within 3 s" in panel(d), timeout=15)
    six = ROOT / "samples" / "standard-six-player.dpn"
    leader = next(iter(replay_games(parse_string(six.read_text(encoding="utf-8"))))).deals[0].tricks[0].leader
    assert f"choose the card for {leader}" in panel(browser)
    cards = browser.find_elements(By.CSS_SELECTOR, "#whatif .wi-card")
    assert cards and all(c.is_enabled() for c in cards)                    # the user chooses instead
    assert errors_logged(browser) == []


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_screenshots_of_a_what_if(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    open_page(browser, page_of(tmp_path, WORKED), "#game=1&deal=1&trick=9")
    viewport(browser, *size)
    press(browser, "w")
    browser.find_elements(By.CSS_SELECTOR, "#whatif .wi-card")[0].click()
    wait(browser, lambda d: len(line_of(d)) >= 38, timeout=20)
    browser.execute_script("document.getElementById('whatif').scrollIntoView({block: 'center'})")
    shot = tmp_path / f"whatif-{size[0]}x{size[1]}.png"
    browser.save_screenshot(str(shot))
    assert_not_blank(shot, *size)
    box = browser.execute_script("var r = document.getElementById('whatif').getBoundingClientRect();"
                                 "return [r.left, r.right, r.width];")
    assert box[0] >= 0 and box[1] <= size[0] and box[2] > 150           # on the screen, not squeezed
    out = os.environ.get("DEHLANOTE_SHOTS")
    if out:
        shutil.copy(shot, out)


def test_the_panel_speaks_the_pages_language(browser: Any, tmp_path: Path) -> None:
    pytest.importorskip("babel", reason="pages in Hindi need Babel")
    from dehlanote.i18n import translator

    _ = translator("hi")
    open_page(browser, page_of(tmp_path, WORKED, lang="hi"), "#game=1&deal=1&trick=3")
    assert browser.find_element(By.CSS_SELECTOR, "#whatif .wi-start").text == _("play on from here") != \
        "play on from here"
    press(browser, "w")
    assert _("the solver plays every seat") in panel(browser)
    open_page(browser, page_of(tmp_path, UNFINISHED, "m.html", lang="hi"), "#game=1&deal=1")
    assert _("what-if needs every hand, and the record does not write them all") in panel(browser)
    assert errors_logged(browser) == []


def test_a_trump_set_by_the_line_is_told(browser: Any, tmp_path: Path) -> None:
    """hukum: played by hand from the first card, the lowest legal card each time; the first
    void of the line sets trump, and the story and the status say so as the core has it."""
    text = (ROOT / "samples" / "hukum-match.dpn").read_text(encoding="utf-8")
    open_page(browser, page_of(tmp_path, text), "#game=1&deal=1&trick=0")
    press(browser, "w")
    browser.find_element(By.CSS_SELECTOR, "#whatif .wi-auto input").click()
    deal = next(iter(replay_games(parse_string(text)))).deals[0]
    table = deal.table()
    while table.state.trump is None:
        card = browser.find_elements(By.CSS_SELECTOR, "#whatif .wi-card")[-1].get_attribute("data-card")
        browser.find_element(By.CSS_SELECTOR, f'#whatif .wi-card[data-card="{card}"]').click()
        table.play(card)
    fact = table.state.trump_fact
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[fact.suit]
    said = f"{fact.by} cannot follow: trump set, {suit}"
    assert said in text_of(browser, "event")
    if not table.state.current:                         # the trick is over: the story tells it
        assert said in text_of(browser, "story-body")
    assert errors_logged(browser) == []


#: the worked example stopped after trick 6, where C does not follow hearts with KH but plays 8S
REVOKED = WORKED.read_text(encoding="utf-8").split(" 6 A:")[0] + " 6 A: 6H QH 8S 8H\n"


def test_not_offered_after_a_revoke_the_record_does_not_rule(browser: Any, tmp_path: Path) -> None:
    """A line from after the record's revoke would carry it into the saved record, which
    validate refuses (and the stepper will not save): the page stops there and says why;
    from before the revoke the line is offered and its record is valid."""
    assert [e.code for e in next(iter(replay_games(parse_string(REVOKED)))).errors] == ["revoke"]
    page = page_of(tmp_path, REVOKED)
    for fragment in ("#game=1&deal=1&trick=6", "#game=1&deal=1&trick=6&card=3"):
        open_page(browser, page, fragment)
        start = browser.find_element(By.CSS_SELECTOR, "#whatif .wi-start")
        assert not start.is_enabled(), fragment
        assert "the record plays a card the rules do not allow there (a revoke): what-if stops there" in panel(browser)
        press(browser, "w")
        assert browser.execute_script("return DPN_WHATIF.state.on") is False
    open_page(browser, page, "#game=1&deal=1&trick=6&card=2")         # C to play: KH, the card it owed
    browser.execute_script("DPN_WHATIF.state.auto = false")
    browser.find_element(By.CSS_SELECTOR, "#whatif .wi-start").click()
    offered = [b.get_attribute("data-card") for b in browser.find_elements(By.CSS_SELECTOR, "#whatif .wi-card")]
    assert offered == ["KH"]                                              # C must follow hearts
    browser.find_element(By.CSS_SELECTOR, '#whatif .wi-card[data-card="KH"]').click()
    record = browser.execute_script("return DPN_WHATIF.text()")          # what save as DPN downloads
    assert record and not next(iter(replay_games(parse_string(record)))).errors
    assert errors_logged(browser) == []
