"""The site's mistake review in a real browser: the review page's links open the replay at the
judged position, and the drill page checks the card chosen against the judgement.

An analysed site (``html --site --analyse-from 9 --dd``) of ``samples/match.dpn``, whose deal 3
has a clear double-dummy blunder (Ravi's ace of hearts leading trick 10 gives away two tens).
What the drill shows is compared with the per-card core's table at that point (the player's
hand, their legal cards), the judgement with :func:`dehlanote.analysis.single.analyse`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

import dehlanote
from dehlanote.analysis.single import analyse

import headless  # noqa: E402  (tests/headless.py: the system's Chromium, started one way everywhere)

headless.require()
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MATCH = ROOT / "samples" / "match.dpn"


def build(out: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["XDG_CACHE_HOME"] = str(out.parent / "cache")
    return subprocess.run([sys.executable, "-m", "dehlanote", "html", "--site", str(MATCH), "-o", str(out), *extra],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)


@pytest.fixture(scope="module")
def site() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="dehlanote-review-"))
    res = build(folder / "site", "--analyse-from", "9", "--dd")
    assert res.returncode == 0, res.stderr
    yield folder / "site"
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = headless.start(1280, 800)
    yield driver
    headless.stop(driver)


def ready(driver: Any) -> None:
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.documentElement.dataset.ready") == "1")


def severe(driver: Any) -> list[dict[str, Any]]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def test_the_review_links_open_the_replay_at_the_judged_position(browser: Any, site: Path) -> None:
    for name in ("ravi", "esha"):
        browser.get((site / "players" / f"{name}-review.html").as_uri())
        links = browser.find_elements(By.CSS_SELECTOR, "#costliest a")
        assert links, f"{name} has no costly decision listed"
        targets = [(a.text, a.get_attribute("href")) for a in links]
        for text, href in targets:
            m = re.search(r"deal (\d+), trick (\d+), card (\d+)", text)
            assert m, text
            deal, trick, card = map(int, m.groups())
            browser.get(href)
            ready(browser)
            where = browser.find_element(By.ID, "where").text
            assert where.startswith(f"Deal {deal} of")
            if card == 1:      # before a lead: the trick before it complete
                assert f"trick {trick - 1} of 13 \u00b7 card 4 of 4" in where, where
            else:
                assert f"trick {trick} of 13 \u00b7 card {card - 1} of 4" in where, where
            assert not severe(browser)


def _drill(browser: Any, site: Path, name: str) -> dict[str, Any]:
    browser.get((site / "players" / f"{name}-drill.html").as_uri())
    ready(browser)
    return json.loads(browser.find_element(By.ID, "drill-data").get_attribute("textContent"))


def test_the_drill_shows_what_the_player_saw_and_checks_the_answer(browser: Any, site: Path) -> None:
    data = _drill(browser, site, "ravi")
    position = data["positions"][0]
    assert (position["played"], position["trick"], position["seat"]) == ("AH", 10, "D")
    facts = next(dehlanote.read_games(str(MATCH)))
    deal = facts.deals[2]
    table = deal.table(trick=10, card=1)
    # the hand shown is D's own at that point, nothing of the others' hidden hands
    shown = [b.get_attribute("data-card") for b in browser.find_elements(By.CSS_SELECTOR, "#d-hand button")]
    assert sorted(shown) == sorted(table.hand("D"))
    enabled = [b.get_attribute("data-card") for b in browser.find_elements(By.CSS_SELECTOR, "#d-hand button")
               if b.is_enabled()]
    assert sorted(enabled) == sorted(table.legal_cards())
    others = set().union(*(table.hand(s) for s in "ABC"))
    page_text = browser.find_element(By.ID, "d-position").text
    assert all(b not in shown for b in others)
    assert "hearts" in page_text                       # trump, known to everyone here
    # the judgement, independently: every legal card's double-dummy loss from analyse
    a = analyse(deal, facts.rules, dd=True, from_trick=10)
    play = a.tricks[0].plays[0]
    assert play.card == "AH" and play.loss == 2
    best = play.best[0]
    # a bad card: told it loses, with every legal card's loss shown after the answer
    browser.find_element(By.CSS_SELECTOR, '#d-hand button[data-card="AH"]').click()
    answer = browser.find_element(By.ID, "d-answer")
    assert answer.get_attribute("data-verdict") == "lost"
    assert "Not kept" in answer.text and "2.00 tens" in answer.text
    rows = browser.find_elements(By.CSS_SELECTOR, "#d-losses tbody tr")
    assert sorted(r.get_attribute("data-card") for r in rows) == sorted(table.legal_cards())
    losses = {r.get_attribute("data-card"): r.find_elements(By.TAG_NAME, "td")[1].text for r in rows}
    assert losses["AH"].startswith("2.00") and all(losses[c].startswith("0.00") for c in play.best)
    # the best card: kept
    browser.find_element(By.CSS_SELECTOR, f'#d-hand button[data-card="{best}"]').click()
    assert browser.find_element(By.ID, "d-answer").get_attribute("data-verdict") == "best"
    assert "Kept" in browser.find_element(By.ID, "d-answer").text
    # the replay link goes to the same position
    href = browser.find_element(By.ID, "d-replay").get_attribute("href")
    assert href.endswith("games/match.html#game=1&deal=3&trick=10&card=0")
    assert not severe(browser)


def test_the_drill_is_keyboard_usable_and_fits_desktop_and_phone(browser: Any, site: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    data = _drill(browser, site, "esha")
    assert len(data["positions"]) >= 1
    first = browser.find_element(By.ID, "d-where").text
    buttons = [b for b in browser.find_elements(By.CSS_SELECTOR, "#d-hand button") if b.is_enabled()]
    buttons[0].send_keys(Keys.ENTER)                     # a card chosen from the keyboard
    assert browser.find_element(By.ID, "d-answer").get_attribute("data-verdict") in ("best", "kept", "lost")
    if len(data["positions"]) > 1:
        ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
        assert browser.find_element(By.ID, "d-where").text != first
    for width, height in ((1280, 800), (390, 844)):
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        _drill(browser, site, "ravi")
        browser.find_element(By.CSS_SELECTOR, '#d-hand button[data-card="AH"]').click()
        wide = browser.execute_script("return document.documentElement.scrollWidth")
        assert wide <= width, f"the drill is wider than the screen at {width}x{height}"
        assert browser.save_screenshot(str(tmp_path / f"drill-{width}.png"))
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_single_dummy_site_drills_the_judgement_analyse_gives(tmp_path: Path) -> None:
    res = build(tmp_path / "site", "--analyse-from", "11", "--worlds", "4")
    assert res.returncode == 0, res.stderr
    facts = next(dehlanote.read_games(str(MATCH)))
    names = {s: facts.game.tag(s) for s in "ABCD"}
    checked = 0
    for page in (tmp_path / "site" / "players").glob("*-drill.html"):
        text = page.read_text()
        block = re.search(r'<script type="application/json" id="drill-data">(.*?)</script>', text, re.S)
        assert block
        data = json.loads(block.group(1))
        for p in data["positions"]:
            deal = facts.deals[int(re.search(r"deal (\d+)", p["where"]).group(1)) - 1]
            a = analyse(deal, facts.rules, worlds=4, seed=0, from_trick=11)
            t = next(t for t in a.tricks if t.number == p["trick"])
            play = next(x for x in t.plays if x.seat == p["seat"] and x.card == p["played"])
            want = {c.card: round(c.loss, 4) for c in play.single.cards}
            assert {c["card"]: c["loss"] for c in p["cards"]} == want
            assert p["mark"] == play.single.mark != ""
            assert names[p["seat"]] == data["player"]
            checked += 1
    review = (tmp_path / "site" / "players" / "omar.html").read_text()
    assert "Mistake review" in review and "omar-drill.html" in review
    assert checked >= 1


def test_the_drill_speaks_the_site_language(browser: Any, tmp_path: Path) -> None:
    res = build(tmp_path / "site", "--analyse-from", "9", "--dd", "--lang", "hi")
    assert res.returncode == 0, res.stderr
    browser.get((tmp_path / "site" / "players" / "ravi-drill.html").as_uri())
    ready(browser)
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "hi"
    assert browser.find_element(By.ID, "d-ask").text == "यहाँ आप क्या चलते?"
    assert "हुकुम: पान" in browser.find_element(By.ID, "d-facts").text       # trump: hearts
    browser.find_element(By.CSS_SELECTOR, '#d-hand button[data-card="AH"]').click()
    answer = browser.find_element(By.ID, "d-answer")
    assert answer.get_attribute("data-verdict") == "lost" and answer.text.startswith("नहीं बचा")
    review = (tmp_path / "site" / "players" / "ravi-review.html").read_text()
    assert "सबसे महँगे फ़ैसले" in review
    # the link to the drill and the "or" between the cards that kept the value (marked inside
    # f-strings, they were never extracted and stayed English)
    assert "इन हालात का अभ्यास: यहाँ आप क्या चलते?" in review and "Drill these" not in review
    assert re.search(r"<td>[^<]* या [^<]*:", review) and not re.search(r"<td>[^<]* or [^<]*:", review)
    assert not severe(browser)


def test_one_world_a_decision_is_worded_for_one_deal(browser: Any, tmp_path: Path) -> None:
    # with --worlds 1 the review page said "±0.00 over 1 deals" and the drill "judged over 1
    # sampled deals": one sampled deal is said as one (in Hindi: tests/output/test_hindi_pages.py)
    for lang, review_words, drill_words in (
            ("en", "\u00b10.00 on 1 sampled deal", "Every legal card, judged on 1 sampled deal"),):
        res = build(tmp_path / lang, "--analyse-from", "9", "--worlds", "1", "--lang", lang)
        assert res.returncode == 0, res.stderr
        review = (tmp_path / lang / "players" / "ravi-review.html").read_text()
        assert review_words in review and "over 1 deals" not in review and "1 बँटवारों" not in review
        browser.get((tmp_path / lang / "players" / "ravi-drill.html").as_uri())
        ready(browser)
        browser.find_element(By.CSS_SELECTOR, "#d-hand button:not([disabled])").click()
        assert browser.find_element(By.CSS_SELECTOR, "#d-losses caption").text == drill_words
        assert not severe(browser)


LONG_WORD = "Averyveryveryverylongnamewithoutanyspacesatallthatgoesonandonandonforeverandever"


def test_a_long_name_of_one_word_wraps_on_the_review_and_drill_pages(browser: Any, tmp_path: Path) -> None:
    """A player's name written as one long word breaks inside the sentences and links of their
    player, review and drill pages on a phone: nothing runs off the screen."""
    record = tmp_path / "long.dpn"
    record.write_text((ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
                      .replace('[B "Bilal"]', f'[B "{LONG_WORD}"]'), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    res = subprocess.run([sys.executable, "-m", "dehlanote", "html", "--site", str(record), "-o",
                          str(tmp_path / "site"), "--analyse-from", "10"],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert res.returncode == 0, res.stderr
    pages = sorted((tmp_path / "site" / "players").glob("averyvery*.html"))
    assert len(pages) == 3                                   # the player, the review, the drill
    browser.get_log("browser")
    headless.viewport(browser, 390, 844)
    try:
        for page in pages:
            browser.get(page.as_uri())
            WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
            assert browser.execute_script("return document.documentElement.scrollWidth") <= 390, page.name
            assert LONG_WORD in browser.find_element(By.TAG_NAME, "body").text.replace("\n", "")
    finally:
        headless.viewport(browser, 1280, 800)
    assert not severe(browser)
