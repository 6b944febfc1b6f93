"""The viewer page in headless Chromium, opened with a link from ``dehlanote share``: it shows
the deal the link carries (the engine's facts at that trick), at desktop and phone sizes,
and says so in a sentence when the link is cut short or holds no deal."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from typer.testing import CliRunner

from dehlanote import iter_path, replay_games
from dehlanote.cli import app

import headless  # noqa: E402  (tests/headless.py: the system's Chromium, started one way everywhere)

headless.require()
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "samples" / "worked-example.dpn"
MATCH = ROOT / "samples" / "match.dpn"
runner = CliRunner()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = headless.start(1280, 800)
    yield driver
    headless.stop(driver)


@pytest.fixture(scope="module")
def viewer(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("viewer") / "viewer.html"
    result = runner.invoke(app, ["html", "--viewer", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    return out


def share(*args: object, base: Path) -> str:
    result = runner.invoke(app, ["share", *[str(a) for a in args], "--base", base.as_uri()])
    assert result.exit_code in (0, 1), result.stderr
    return result.stdout.strip()


viewport = headless.viewport


def open_link(driver: Any, url: str, size: tuple[int, int] = (1280, 800)) -> None:
    driver.get_log("browser")
    viewport(driver, *size)
    driver.get("about:blank")
    driver.get(url)
    end = time.monotonic() + 10
    while driver.execute_script("return document.documentElement.dataset.ready") != "1":
        assert time.monotonic() < end, "the viewer did not get ready"
        time.sleep(0.05)


def severe(driver: Any) -> list[dict[str, Any]]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def name(card: str) -> str:
    ranks = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine", "8": "eight",
             "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    return f"{ranks[card[:-1]]} of {suits[card[-1]]}"


def labels(driver: Any, css: str) -> list[str]:
    return [e.get_attribute("aria-label") for e in driver.find_elements(By.CSS_SELECTOR, css)]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_viewer_opened_with_a_share_link_shows_the_deal(browser, viewer, size, tmp_path):
    url = share(MATCH, "--deal", 3, "--trick", 7, base=viewer)
    open_link(browser, url, size)
    assert browser.execute_script("return document.documentElement.dataset.viewer") == "deal"
    facts = next(replay_games(iter_path(MATCH)))
    deal = facts.deals[2]
    trick = deal.tricks[6]
    where = browser.find_element(By.ID, "where").text
    assert where.startswith("Deal 3") and "trick 7 of 13" in where
    assert browser.find_element(By.ID, "centre-pile").text.startswith(f"Centre pile: {trick.centre_cards} card")
    assert labels(browser, "#centre-pile .card") == [name(c) for c in trick.centre_tens]
    shown = labels(browser, "#trick .card")
    assert sorted(s.split(",")[0] for s in shown) == sorted(name(p.card) for p in trick.plays)
    title = browser.find_element(By.ID, "title").text
    assert title and facts.game.tag("Event") in title
    # DEHLANOTE_SHOTS=folder keeps the screenshots to look at
    shot = Path(os.environ.get("DEHLANOTE_SHOTS", tmp_path)) / f"dehlanote-viewer-{size[0]}x{size[1]}.png"
    assert browser.save_screenshot(str(shot))
    assert browser.execute_script("return document.documentElement.scrollWidth") <= size[0]
    # stepping on keeps the deal in the link: a reload shows the same deal at the new place
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_DOWN)
    assert "trick 8 of 13" in browser.find_element(By.ID, "where").text
    assert "dpn1=" in browser.current_url and "trick=8" in browser.current_url
    open_link(browser, browser.current_url, size)
    assert "trick 8 of 13" in browser.find_element(By.ID, "where").text
    assert severe(browser) == []


def test_a_deal_with_errors_shows_them(browser, viewer):
    url = share(ROOT / "docs" / "examples" / "bad.dpn", "--deal", 1, base=viewer)
    open_link(browser, url)
    assert "wrong-leader" in browser.find_element(By.TAG_NAME, "body").text
    assert severe(browser) == []


@pytest.mark.parametrize("cut", ["", "#trick=3", "#dpn1=AAAA", "#dpn1=%%%"])
def test_a_link_without_a_whole_deal_says_so(browser, viewer, cut):
    open_link(browser, viewer.as_uri() + cut)
    assert browser.execute_script("return document.documentElement.dataset.viewer") == "no-deal"
    text = browser.find_element(By.ID, "where").text
    assert "dehlanote share" in text or "does not hold a deal" in text
    assert severe(browser) == []


def test_a_cut_link_says_so(browser, viewer):
    url = share(WORKED, "--deal", 1, base=viewer)
    open_link(browser, url[: len(url) * 2 // 3])
    assert "does not hold a deal" in browser.find_element(By.ID, "where").text


def test_a_copied_trick_link_carries_the_deal(browser, viewer):
    url = share(WORKED, "--deal", 1, base=viewer)
    open_link(browser, url)
    copied = browser.execute_async_script("""
        var done = arguments[arguments.length - 1];
        var seen = [];
        var area = HTMLTextAreaElement.prototype;
        var select = area.select;
        area.select = function () { seen.push(this.value); return select.apply(this, arguments); };
        var button = document.querySelector("#story button.copy");
        button.click();
        setTimeout(function () {
          if (navigator.clipboard && navigator.clipboard.readText) {
            navigator.clipboard.readText().then(function (t) { done([t].concat(seen)); },
                                                function () { done(seen); });
          } else { done(seen); }
        }, 300);
    """)
    assert copied, "nothing was copied"
    assert any("#game=1&deal=1&trick=" in c and "&dpn1=" in c for c in copied), copied


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_malformed_part_beside_the_deal_is_ignored_and_the_match_s_deals_counted(browser, viewer, size, tmp_path):
    """#trick=%&dpn1=... said "This link does not hold a deal" (the replay's URIError), and the
    heading said "Deal 3 of 3" for deal 3 of a 7-deal match."""
    url = share(MATCH, "--deal", 3, base=viewer)
    base, fragment = url.split("#", 1)
    open_link(browser, f"{base}#trick=%&{fragment}", size)
    assert browser.execute_script("return document.documentElement.dataset.viewer") == "deal"
    where = browser.find_element(By.ID, "where").text
    assert where.startswith("Deal 3 of 7 · dealt"), where
    assert len(browser.find_elements(By.CSS_SELECTOR, ".card")) > 0
    shot = Path(os.environ.get("DEHLANOTE_SHOTS", tmp_path)) / f"dehlanote-viewer-bad-part-{size[0]}x{size[1]}.png"
    assert browser.save_screenshot(str(shot))
    assert severe(browser) == []


def test_a_hindi_viewer_says_its_own_sentences_in_hindi(browser, tmp_path):
    # the viewer's sentences ("This page shows a deal carried in its link ...", "This link does not
    # hold a deal ...") were English on a page in Hindi, whose every other word is Hindi
    out = tmp_path / "viewer-hi.html"
    assert runner.invoke(app, ["html", "--viewer", "--lang", "hi", "-o", str(out)]).exit_code == 0
    open_link(browser, out.as_uri())
    assert browser.find_element(By.ID, "where").text.startswith("यह पेज अपने लिंक में रखी गई एक बाज़ी दिखाता है")
    open_link(browser, out.as_uri() + "#dpn1=AAAA")
    assert browser.find_element(By.ID, "where").text.startswith("इस लिंक में ऐसी कोई बाज़ी नहीं है")
    assert severe(browser) == []
