"""A site made with ``--lang hi`` speaks Hindi everywhere a player looks, in a real browser.

The pages are read as a browser shows them: the visible text, and what a screen reader says
(``aria-label``) or a pointer shows (``title``), at positions across every deal of
``samples/match.dpn`` analysed single dummy. A word of English letters there is a message that
never went through a catalog, unless it is the record's own (its players, event, rules, file
name) or notation (card codes such as ``QH``, the sides ``AC``/``BD``, seat letters: capitals).
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

import headless  # noqa: E402  (tests/headless.py: the system's Chromium, started one way everywhere)

headless.require()
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

# html --site of samples/match.dpn as a user runs it, and the browser, as the review's tests have them
import test_review_browser  # noqa: E402

build = test_review_browser.build
browser = test_review_browser.browser

#: the record's own words (its tags and file name), the program's name, the rating's (Elo) and the keys' names
OWN = {"Friday", "club", "table", "Esha", "Omar", "Nandini", "Ravi", "standard", "samples", "match", "dpn",
       "dehlanote", "Elo",
       "Home", "End", "Page", "Up", "Down", "Space"}        # (the names printed on the keys)
WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*[a-z][A-Za-z'\-]*")      # a word with a small letter: not notation


@pytest.fixture(scope="module")
def site() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="dehlanote-hindi-"))
    res = build(folder / "site", "--lang", "hi", "--analyse-from", "9", "--worlds", "1")
    assert res.returncode == 0, res.stderr
    yield folder / "site"
    shutil.rmtree(folder, ignore_errors=True)


def english(driver: Any) -> set[str]:
    """The lines of the page now shown (and its labels and titles) that hold English words."""
    lines = driver.execute_script(
        "var out = document.body.innerText.split('\\n');"
        "['aria-label', 'title', 'placeholder'].forEach(function (a) {"
        "  document.querySelectorAll('[' + a + ']').forEach(function (e) { out.push(e.getAttribute(a)); }); });"
        "return out;")
    return {line for line in lines if any(w not in OWN for w in WORD.findall(line))}


def ready(driver: Any) -> None:
    for _ in range(200):
        if driver.execute_script("return document.documentElement.dataset.ready") == "1":
            return
        time.sleep(0.05)
    raise AssertionError("the page did not get ready")


def test_the_replay_page_speaks_hindi_at_every_deal(browser: Any, site: Path) -> None:
    page = site / "games" / "match.html"
    found: set[str] = set()
    browser.get(page.as_uri() + "#game=1&deal=7&trick=13&card=4")      # (the last position: each move changes it)
    ready(browser)
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "hi"
    for deal in range(1, 8):
        for trick, card in ((1, 0), (9, 2), (13, 3)):       # before the analysis, in it, near the end
            where = browser.find_element(By.ID, "where").text
            browser.execute_script(f"location.hash = 'game=1&deal={deal}&trick={trick}&card={card}'")
            for _ in range(100):                # the page follows its fragment
                if browser.find_element(By.ID, "where").text != where:
                    break
                time.sleep(0.02)
            found |= english(browser)
    assert not found, "\n".join(sorted(found))


@pytest.mark.parametrize("name", ["index.html", "players/ravi.html", "players/ravi-review.html",
                                  "players/ravi-drill.html"])
def test_the_site_pages_speak_hindi(browser: Any, site: Path, name: str) -> None:
    browser.get((site / name).as_uri())
    if name == "index.html":        # the filter box, once something is typed
        browser.find_element(By.ID, "filter").send_keys("ravi")
    if name.endswith("drill.html"):
        ready(browser)
        browser.find_element(By.CSS_SELECTOR, "#d-hand button:not([disabled])").click()
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "hi"
    assert not english(browser), sorted(english(browser))
    # one world a decision (--worlds 1) is said of one deal: the review said "±0.00 over 1 deals"
    if name.endswith("review.html"):
        assert "\u00b10.00, 1 चुने हुए बँटवारे पर" in browser.page_source and "1 बँटवारों" not in browser.page_source
    if name.endswith("drill.html"):
        caption = browser.find_element(By.CSS_SELECTOR, "#d-losses caption").text
        assert caption == "हर चलने लायक पत्ता, 1 चुने हुए बँटवारे पर परखा गया"


def test_a_claim_is_told_in_hindi(browser: Any, tmp_path: Path) -> None:
    # the claim's sentence on the table and in the story was made in English ("D claims the rest:
    # BD takes 16 cards with 10C") whatever the page's language
    from dehlanote import parse_string
    from dehlanote.i18n import speaking
    from dehlanote.output.html import game_data, render_replay
    from dehlanote.replay import replay_games
    from test_stats import CLAIMED

    with speaking("hi"):
        facts = next(replay_games(parse_string(CLAIMED)))
        page = tmp_path / "claim.html"
        page.write_text(render_replay([game_data(facts, 1)], "claim", lang="hi"), encoding="utf-8")
    browser.get(page.as_uri())
    ready(browser)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)        # the end of the deal: the claim
    said = browser.find_element(By.ID, "capture").text
    assert "D ने बाक़ी हाथों का दावा किया: BD को 10C के साथ 16 पत्ते" in said
    assert not english(browser) - {"Claimed"}, sorted(english(browser))      # (the record's event)
