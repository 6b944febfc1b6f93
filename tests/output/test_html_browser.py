"""The replay pages in a real browser: headless Chromium driven through chromedriver.

Pages are generated into the test's temporary folder and opened from disk (``file://``).
The tests press keys and click as a user does and read the DOM: the centre pile and its
tens after N cards, a fragment restoring a position, the deal and game choosers,
autoplay, the seat view, the print view; the index's figures equal ``dehlanote stats
--format json``; a hostile record renders as text; no page logs a console error;
screenshots at desktop and phone sizes are saved and checked to be non-blank.

Selenium with the system's chromedriver was chosen over speaking the DevTools protocol
by hand: it is the ordinary client (keys, clicks, waits, logs) and still gives the
DevTools commands needed for exact viewports and print media (``execute_cdp_cmd``).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from dehlanote import iter_path, parse_string
from dehlanote.replay import replay_games
from dehlanote.rules.profile import registry

import headless  # noqa: E402  (tests/headless.py: the system's Chromium, started one way everywhere)

headless.require()
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from dehlanote.output.html import game_data, render_replay  # noqa: E402
from dehlanote.output.html.site import build_site  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))
WORKED = ROOT / "samples" / "worked-example.dpn"
MATCH = ROOT / "samples" / "match.dpn"
SIX = ROOT / "samples" / "standard-six-player.dpn"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = headless.start(1280, 800)
    yield driver
    headless.stop(driver)


viewport = headless.viewport


def page_of(tmp_path: Path, source: Path | str, name: str = "page.html", **kw: Any) -> Path:
    """A replay page of a file (or of DPN text) in the temporary folder."""
    text = source.read_text(encoding="utf-8") if isinstance(source, Path) else source
    facts = list(replay_games(parse_string(text)))
    out = tmp_path / name
    out.write_text(render_replay([game_data(f, i) for i, f in enumerate(facts, 1)], "test", **kw), encoding="utf-8")
    return out


def errors_logged(driver: Any) -> list[dict[str, Any]]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def open_page(driver: Any, path: Path, fragment: str = "") -> None:
    driver.get_log("browser")                  # forget what earlier pages logged
    viewport(driver, 1280, 800)
    driver.get(path.as_uri() + fragment)
    wait(driver, lambda d: d.execute_script("return document.documentElement.dataset.ready") == "1")


def wait(driver: Any, ready: Callable[[Any], Any], timeout: float = 10.0) -> Any:
    end = time.monotonic() + timeout
    while True:
        value = ready(driver)
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("the page did not get there in time")
        time.sleep(0.05)


def press(driver: Any, *keys: str) -> None:
    body = driver.find_element(By.TAG_NAME, "body")
    for key in keys:
        body.send_keys(key)


def text(driver: Any, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def labels(driver: Any, css: str) -> list[str]:
    return [e.get_attribute("aria-label") for e in driver.find_elements(By.CSS_SELECTOR, css)]


def name(card: str) -> str:
    ranks = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine", "8": "eight",
             "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    return f"{ranks.get(card[:-1], card[:-1])} of {suits[card[-1]]}"


# ---- stepping --------------------------------------------------------------------------------------

def test_after_n_cards_the_centre_holds_what_the_replay_says(browser: Any, tmp_path: Path) -> None:
    """Card by card with the arrow key: the centre pile, its tens and the captured piles
    are the engine's facts at every trick end."""
    facts = next(replay_games(iter_path(WORKED)))
    deal = facts.deals[0]
    open_page(browser, page_of(tmp_path, WORKED))
    played = 0
    piles = {"AC": [0, []], "BD": [0, []]}
    for trick in deal.tricks[:9]:
        press(browser, *[Keys.ARROW_RIGHT] * len(trick.plays))
        played += len(trick.plays)
        assert browser.find_element(By.ID, "scrubber").get_attribute("value") == str(played)
        assert text(browser, "centre-pile").startswith(f"Centre pile: {trick.centre_cards} card")
        assert labels(browser, "#centre-pile .card") == [name(c) for c in trick.centre_tens]
        if trick.capture is not None:
            piles[trick.capture.side][0] += trick.capture.cards
            piles[trick.capture.side][1] += list(trick.capture.tens)
        for side, (cards, tens) in piles.items():
            pile = browser.find_element(By.CSS_SELECTOR, f"#piles .side-{side}")
            assert f"{side} captured {cards} card" in pile.text
            assert labels(browser, f"#piles .side-{side} .card") == [name(c) for c in tens]
        shown = labels(browser, "#trick .card")
        assert sorted(s.split(",")[0] for s in shown) == sorted(name(p.card) for p in trick.plays)
    # worked example: after trick 2, A has swept 8 cards with the tens of hearts and spades to AC
    assert piles["AC"][1][:2] == ["10H", "10S"]
    assert errors_logged(browser) == []


def test_keys_and_buttons_move_by_card_trick_and_deal(browser: Any, tmp_path: Path) -> None:
    open_page(browser, page_of(tmp_path, MATCH))
    press(browser, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    assert text(browser, "where").startswith("Deal 1 of 7 · trick 2 of 13 · card 4 of 4")
    press(browser, Keys.ARROW_LEFT)
    assert "trick 2 of 13 · card 3 of 4" in text(browser, "where")
    press(browser, Keys.ARROW_UP)
    assert "trick 1 of 13 · card 4 of 4" in text(browser, "where")
    press(browser, Keys.END)
    assert "trick 13 of 13 · card 4 of 4" in text(browser, "where")
    assert "Deal 1 result" in text(browser, "result")
    press(browser, Keys.HOME)
    assert "before trick 1" in text(browser, "where")
    press(browser, "]")
    assert text(browser, "where").startswith("Deal 2 of 7")
    press(browser, "[", "[")
    assert text(browser, "where").startswith("Deal 1 of 7")
    browser.find_element(By.ID, "b-next-trick").click()
    browser.find_element(By.ID, "b-next").click()
    assert "trick 2 of 13 · card 1 of 4" in text(browser, "where")
    browser.find_element(By.ID, "b-end").click()
    browser.find_element(By.ID, "b-next-deal").click()
    assert text(browser, "where").startswith("Deal 2 of 7 · dealt")
    Select(browser.find_element(By.ID, "deal")).select_by_value("4")
    assert text(browser, "where").startswith("Deal 5 of 7")
    # t, a number and Enter: that trick
    press(browser, "t")
    browser.switch_to.active_element.send_keys("9", Keys.ENTER)
    assert "trick 9 of 13 · card 4 of 4" in text(browser, "where")
    assert errors_logged(browser) == []


def test_keyboard_only_reaches_every_control(browser: Any, tmp_path: Path) -> None:
    open_page(browser, page_of(tmp_path, WORKED))
    seen = set()
    for _ in range(40):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        seen.add(browser.switch_to.active_element.get_attribute("id"))
    assert {"deal", "view", "four", "b-prev", "b-next", "b-next-trick", "b-play", "speed", "scrubber"} <= seen
    browser.find_element(By.ID, "b-next").send_keys(Keys.ENTER)
    assert "card 1 of 4" in text(browser, "where")
    # every card drawn says what it is
    cards = labels(browser, ".seat .card")
    assert cards and all(" of " in c for c in cards)
    assert "ten of diamonds" in cards


def test_fragment_restores_the_position_and_follows_it(browser: Any, tmp_path: Path) -> None:
    page = page_of(tmp_path, MATCH)
    open_page(browser, page, "#game=1&deal=3&trick=7")
    assert text(browser, "where").startswith("Deal 3 of 7 · trick 7 of 13 · card 4 of 4")
    current = browser.find_element(By.CSS_SELECTOR, "#story li[aria-current=step]")
    assert current.get_attribute("id") == "story-7"
    press(browser, Keys.ARROW_RIGHT)
    assert browser.execute_script("return location.hash") == "#game=1&deal=3&trick=8&card=1"
    # every trick has a link to its position
    link = browser.find_element(By.CSS_SELECTOR, "#story-4 a.link")
    assert link.get_attribute("href").endswith("#game=1&deal=3&trick=4")
    link.click()
    wait(browser, lambda d: "trick 4 of 13 · card 4 of 4" in text(d, "where"))
    browser.find_element(By.CSS_SELECTOR, "#story-2 button.go").click()
    assert "trick 2 of 13" in text(browser, "where")
    # "copy link" puts the page's address with that trick's fragment on the clipboard
    browser.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite",
                                                                         "clipboardSanitizedWrite"]})
    copy = browser.find_element(By.CSS_SELECTOR, "#story-1 button.copy")    # a trick played (the rest is hidden)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", copy)
    copy.click()
    wait(browser, lambda d: copy.text == "copied")
    pasted = browser.execute_async_script(
        "var done = arguments[0]; navigator.clipboard.readText().then(done, function (e) { done(String(e)); })")
    assert pasted == page.as_uri() + "#game=1&deal=3&trick=1"
    # a link opened afresh lands on the same position
    open_page(browser, page, "#game=1&deal=6&trick=0")
    assert text(browser, "where").startswith("Deal 6 of 7 · dealt")
    assert errors_logged(browser) == []


@pytest.mark.parametrize("fragment, where", [
    ("#trick=%", "Deal 1 of 1 · dealt"),                                  # the testers' blank page
    ("#deal=%E0%A4&trick=5", "Deal 1 of 1 · trick 5 of 13"),            # half a UTF-8 character
    ("#%=1&trick=%zz&deal=1&trick=3", "Deal 1 of 1 · trick 3 of 13"),
    ("#trick", "Deal 1 of 1 · dealt"),
])
def test_a_malformed_percent_in_the_link_is_ignored(browser: Any, tmp_path: Path, fragment: str,
                                                     where: str) -> None:
    """decodeURIComponent threw URIError on #trick=% and left the page blank: a bad part is
    left out and the rest opens the nearest position, cards drawn, nothing logged."""
    page = page_of(tmp_path, WORKED)
    open_page(browser, page, fragment)
    assert text(browser, "where").startswith(where)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#seats .card, .hand .card")) > 0
    assert errors_logged(browser) == []


def test_game_chooser_and_autoplay(browser: Any, tmp_path: Path) -> None:
    two = WORKED.read_text(encoding="utf-8") + "\n" + MATCH.read_text(encoding="utf-8")
    open_page(browser, page_of(tmp_path, two), "#game=2")
    assert browser.find_element(By.ID, "game-label").is_displayed()
    assert text(browser, "title") == "Friday club, table 3"
    Select(browser.find_element(By.ID, "game")).select_by_value("0")
    assert text(browser, "title") == "Worked example"
    assert browser.execute_script("return location.hash").startswith("#game=1&deal=1")
    Select(browser.find_element(By.ID, "speed")).select_by_value("400")
    browser.find_element(By.ID, "b-play").click()
    assert browser.find_element(By.ID, "b-play").get_attribute("aria-pressed") == "true"
    wait(browser, lambda d: int(d.find_element(By.ID, "scrubber").get_attribute("value")) >= 2)
    browser.find_element(By.ID, "b-play").click()
    assert browser.find_element(By.ID, "b-play").get_attribute("aria-pressed") == "false"
    stopped = browser.find_element(By.ID, "scrubber").get_attribute("value")
    time.sleep(0.9)
    assert browser.find_element(By.ID, "scrubber").get_attribute("value") == stopped
    assert errors_logged(browser) == []


def test_seat_view_shows_one_hand(browser: Any, tmp_path: Path) -> None:
    facts = next(replay_games(iter_path(WORKED)))
    open_page(browser, page_of(tmp_path, WORKED), "#game=1&deal=1&trick=2&view=B")
    b_hand = sorted(facts.deals[0].hands["B"])
    played = [p.card for t in facts.deals[0].tricks[:2] for p in t.plays if p.seat == "B"]
    held = [name(c) for c in b_hand if c not in played]
    assert sorted(labels(browser, ".seat-e .card")) == sorted(held)
    for other in ("n", "w", "s"):
        assert all("not shown" in label for label in labels(browser, f".seat-{other} .card"))
    # the story tells only what B had seen: tricks 1 and 2, not those to come
    assert browser.find_element(By.ID, "story-2").is_displayed()
    assert not browser.find_element(By.ID, "story-3").is_displayed()
    Select(browser.find_element(By.ID, "view")).select_by_value("open")
    assert len(labels(browser, ".seat-s .card:not(.back)")) == 11
    assert not browser.find_element(By.ID, "story-3").is_displayed()     # the open table too, until asked
    browser.find_element(By.ID, "b-story-all").click()
    assert browser.find_element(By.ID, "story-3").is_displayed()
    assert errors_logged(browser) == []


def test_six_seats(browser: Any, tmp_path: Path) -> None:
    open_page(browser, page_of(tmp_path, SIX))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#seats .seat")) == 6
    press(browser, Keys.ARROW_DOWN)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#trick .card")) == 6
    assert "trick 1 of 26 · card 6 of 6" in text(browser, "where")


def test_errors_are_flagged_at_their_trick(browser: Any, tmp_path: Path) -> None:
    bad = WORKED.read_text(encoding="utf-8").replace(" 3 A: 4S 5S 7S 9S", " 3 B: 4S 5S 7S 9S")
    open_page(browser, page_of(tmp_path, bad), "#game=1&deal=1&trick=3")
    assert "wrong-leader" in text(browser, "trick-errors")
    assert "A leads trick 3" in text(browser, "trick-errors")
    assert "has-error" in browser.find_element(By.ID, "story-3").get_attribute("class")
    assert "1 error" in text(browser, "record-errors") and "flagged" in text(browser, "record-errors")
    press(browser, Keys.ARROW_DOWN)
    assert text(browser, "trick-errors") == ""


def test_a_trick_of_the_wrong_size_is_counted_and_listed_as_not_replayed(browser: Any, tmp_path: Path) -> None:
    short = WORKED.read_text(encoding="utf-8").replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S 7S")
    open_page(browser, page_of(tmp_path, short), "#game=1&deal=1&trick=13&card=4")
    assert "trick 13 of 13 · card 4 of 4" in text(browser, "where")          # (it said "of 12")
    assert "Trick 3 (not replayed): 4S 5S 7S" in text(browser, "story-body")
    assert "Trick 13 (not replayed)" not in text(browser, "story-body")
    assert "the deal stops after 13 tricks: winner unknown" in text(browser, "story-body")
    # its cards were played (D's 9S never was): they leave the hands with trick 4's first card
    assert labels(browser, ".seat-e .card") == [] and labels(browser, ".seat-n .card") == []
    assert labels(browser, ".seat-w .card") == [name("9S")]
    open_page(browser, page_of(tmp_path, short), "#game=1&deal=1&trick=3&card=4")
    assert name("5S") in labels(browser, ".seat-e .card")          # before trick 4
    open_page(browser, page_of(tmp_path, short), "#game=1&deal=1&trick=4&card=1")
    assert name("5S") not in labels(browser, ".seat-e .card") and name("7S") not in labels(browser, ".seat-n .card")
    assert errors_logged(browser) == []


def test_print_view_is_the_deal_diagram_and_trick_list(browser: Any, tmp_path: Path) -> None:
    open_page(browser, page_of(tmp_path, WORKED))
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert browser.find_element(By.ID, "print").is_displayed()
        assert not browser.find_element(By.ID, "main").is_displayed()
        assert not browser.find_element(By.ID, "controls").is_displayed()
        rows = browser.find_elements(By.CSS_SELECTOR, "#print table tr")
        assert len(rows) == 1 + 13
        assert "Asha" in browser.find_element(By.CSS_SELECTOR, "#print .ph-s").text
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


# ---- escaping -----------------------------------------------------------------------------------------

HOSTILE = """[Event "</script><script>window.__pwned = 1</script>"]
[A "<img src=x onerror=window.__pwned=2>"]
[B "Bilal & \u2028 co"]
[Rules "standard"]
[Result "*"]
[Annotator "<b>bold</b>"] {</script><script>window.__pwned = 3</script>}

deal 1 dealer D {<svg onload=window.__pwned=4>}
trump D by A
 1 A: AH 10H 3H 7H {<script>window.__pwned = 5</script>}
 2 A: AS QS 2S 10S
"""


def test_a_record_with_script_in_tags_and_comments_renders_as_text(browser: Any, tmp_path: Path) -> None:
    open_page(browser, page_of(tmp_path, HOSTILE))
    press(browser, Keys.ARROW_DOWN)
    assert browser.execute_script("return window.__pwned === undefined")
    assert browser.execute_script("return document.querySelectorAll('img, b, script:not([type]):not([id])').length") \
        == 0 or browser.execute_script("return document.querySelectorAll('img, b').length") == 0
    assert text(browser, "title") == "</script><script>window.__pwned = 1</script>"
    assert "<img src=x onerror=window.__pwned=2>" in text(browser, "seats")
    story = text(browser, "story-body")
    assert "<svg onload=window.__pwned=4>" in story
    assert "<script>window.__pwned = 5</script>" in story
    assert browser.execute_script("return document.querySelectorAll('script').length") == 3   # data, replay, what-if
    assert errors_logged(browser) == []


# ---- the site's index ---------------------------------------------------------------------------------

def test_index_figures_equal_stats_json(browser: Any, tmp_path: Path) -> None:
    build_site([str(p) for p in SAMPLES], tmp_path / "site", registry())
    result = subprocess.run([sys.executable, "-m", "dehlanote", "stats", "--format", "json", *map(str, SAMPLES)],
                            capture_output=True, text=True, cwd=ROOT, check=False)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    open_index(browser, tmp_path / "site" / "index.html")
    shown = browser.execute_script(
        "return Array.from(document.querySelectorAll('[data-stat]')).map("
        "e => [e.dataset.stat, e.dataset.value, e.textContent])")
    assert len(shown) > 30
    for key, value, label in shown:
        expected: Any = figures
        for part in key.split("."):
            expected = expected[part]
        assert value == str(expected), key
        assert label.startswith(str(expected)), key
    # a game link opens its replay page at that game
    browser.find_element(By.LINK_TEXT, "Friday club, table 3").click()
    wait(browser, lambda d: d.execute_script("return document.documentElement.dataset.ready") == "1")
    assert text(browser, "title") == "Friday club, table 3"
    assert errors_logged(browser) == []


def test_index_lists_the_games_first_and_filters_them(browser: Any, tmp_path: Path) -> None:
    build_site([str(p) for p in SAMPLES], tmp_path / "site", registry())
    open_index(browser, tmp_path / "site" / "index.html")
    order = browser.execute_script("return Array.from(document.querySelectorAll('main > section h2'))"
                                   ".map(h => h.textContent)")
    assert order[:2] == ["The archive", "Games"] and order.index("Charts") > order.index("Games")
    rows = "return Array.from(document.querySelectorAll('#games tbody tr')).filter(r => !r.hidden).length"
    games = sum(len(list(iter_path(p))) for p in SAMPLES)
    assert browser.execute_script(rows) == games
    box = browser.find_element(By.ID, "filter")
    assert box.is_displayed()
    box.send_keys("nandini friday")                  # every word must be in the row
    wanted = sum(1 for p in SAMPLES for g in iter_path(p)
                 if "Nandini" in [t.value for t in g.tags] and "Friday" in (g.tag("Event") or ""))
    assert wanted and browser.execute_script(rows) == wanted
    assert text(browser, "shown") == f"{wanted} of {games} games"
    box.clear()
    box.send_keys(Keys.SPACE)
    assert browser.execute_script(rows) == games
    assert errors_logged(browser) == []


def test_a_player_page_shows_the_record_rating_and_games(browser: Any, tmp_path: Path) -> None:
    build_site([str(p) for p in SAMPLES], tmp_path / "site", registry())
    figures = json.loads(subprocess.run([sys.executable, "-m", "dehlanote", "stats", "--format", "json",
                                         *map(str, SAMPLES)], capture_output=True, text=True, cwd=ROOT).stdout)
    open_index(browser, tmp_path / "site" / "index.html")
    browser.find_element(By.LINK_TEXT, "Asha").click()          # from the Players table
    wait(browser, lambda d: d.execute_script("return document.readyState") == "complete")
    assert browser.current_url.endswith("/players/asha.html")
    shown = dict(browser.execute_script(
        "return Array.from(document.querySelectorAll('[data-stat]')).map(e => [e.dataset.stat, e.dataset.value])"))
    asha = figures["players"]["Asha"]
    assert {k: int(v) for k, v in shown.items()} == {k: asha[k] for k in shown} and len(shown) == 9
    points = browser.execute_script("return document.querySelector('.rating polyline').getAttribute('points')")
    rated = 0                  # every complete deal with a winner, and each finished match, of a game all named
    for p in SAMPLES:
        for f in replay_games(iter_path(p)):
            if "Asha" in [t.value for t in f.game.tags] and all(f.game.tag(s) for s in "ABCDEF"[:f.rules.seats]):
                rated += sum(1 for d in f.deals if d.complete and d.winner) + bool(f.result and f.result.finished)
    assert len(points.split()) == rated + 1                          # the start, then one point a result
    links = browser.execute_script("return Array.from(document.querySelectorAll('#h-games ~ div a'))"
                                   ".map(a => a.href)")
    assert len(links) == asha["games"]
    for width, height in ((1280, 800), (390, 844)):
        viewport(browser, width, height)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    browser.get(links[0])
    wait(browser, lambda d: d.execute_script("return document.documentElement.dataset.ready") == "1")
    assert errors_logged(browser) == []


def open_index(driver: Any, path: Path) -> None:
    driver.get_log("browser")
    viewport(driver, 1280, 800)
    driver.get(path.as_uri())
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")


def test_four_colour_switch(browser: Any, tmp_path: Path) -> None:
    open_page(browser, page_of(tmp_path, WORKED))
    colour = "return getComputedStyle(document.querySelector('.seat .card.suit-D .rank')).fill"
    two = browser.execute_script(colour)
    browser.find_element(By.ID, "four").click()
    four = browser.execute_script(colour)
    assert two != four and four == "rgb(11, 87, 208)"
    open_page(browser, page_of(tmp_path, WORKED, "four.html", four_colour=True))
    assert browser.execute_script(colour) == "rgb(11, 87, 208)"


# ---- screenshots and console -----------------------------------------------------------------------

def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGB(A) pixels of an 8-bit, non-interlaced PNG (decoded by
    Pillow, which cairosvg brings: a pure-Python decoder took half a second a screenshot)."""
    from PIL import Image

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.mode in ("RGB", "RGBA") and not image.info.get("interlace")
        width, height = image.size
        raw = image.tobytes()
    stride = len(raw) // height
    return width, height, [raw[y * stride:(y + 1) * stride] for y in range(height)]


def assert_not_blank(path: Path, width: int, height: int) -> None:
    w, h, rows = png_pixels(path.read_bytes())
    assert (w, h) == (width, height)
    bpp = len(rows[0]) // w
    colours: dict[bytes, int] = {}
    for row in rows[:: 4]:
        for x in range(0, len(row), bpp * 4):
            px = row[x:x + 3]
            colours[px] = colours.get(px, 0) + 1
    total = sum(colours.values())
    assert len(colours) > 50, "the screenshot has almost no colours"
    assert max(colours.values()) < 0.9 * total, "the screenshot is mostly one colour"


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_screenshots_at_desktop_and_phone_sizes(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    width, height = size
    open_page(browser, page_of(tmp_path, MATCH), "#game=1&deal=2&trick=5&card=2")
    viewport(browser, width, height)
    shot = tmp_path / f"replay-{width}x{height}.png"
    assert browser.save_screenshot(str(shot))
    assert_not_blank(shot, width, height)
    # the controls stay on screen at both sizes
    rect = browser.execute_script("return document.getElementById('b-next').getBoundingClientRect().toJSON()")
    assert 0 <= rect["top"] and rect["bottom"] <= height and rect["right"] <= width
    # nothing is wider than the window
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    build_site([str(MATCH)], tmp_path / "site", registry())
    open_index(browser, tmp_path / "site" / "index.html")
    viewport(browser, width, height)
    shot = tmp_path / f"index-{width}x{height}.png"
    assert browser.save_screenshot(str(shot))
    assert_not_blank(shot, width, height)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    viewport(browser, 1280, 800)
    assert errors_logged(browser) == []


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_sample_plays_to_the_end_without_console_errors(browser: Any, tmp_path: Path, path: Path) -> None:
    facts = list(replay_games(iter_path(path)))
    open_page(browser, page_of(tmp_path, path))
    deals = len(facts[0].deals)
    for _ in range(deals):
        press(browser, Keys.END, Keys.ARROW_RIGHT)
    where = text(browser, "where")
    last = facts[0].deals[-1]
    assert where.startswith(f"Deal {last.number} of {last.number}")
    assert f"trick {len(last.tricks)} of {len(last.tricks)}" in where
    assert facts[0].result is not None
    story = text(browser, "story-body")
    for line in game_data(facts[0])["result"]:
        assert line in story
    assert errors_logged(browser) == []


def test_pages_work_without_the_package(browser: Any, tmp_path: Path) -> None:
    """A page copied anywhere still works: it refers to nothing beside itself."""
    page = page_of(tmp_path, WORKED)
    elsewhere = Path(tempfile.mkdtemp(prefix="dehlanote-page-")) / "copy.html"
    try:
        shutil.copy(page, elsewhere)
        open_page(browser, elsewhere)
        press(browser, Keys.ARROW_DOWN)
        assert "trick 1 of 13" in text(browser, "where")
        assert errors_logged(browser) == []
    finally:
        shutil.rmtree(elsewhere.parent, ignore_errors=True)


def test_records_that_cannot_be_replayed_still_give_a_page(browser: Any, tmp_path: Path) -> None:
    open_page(browser, page_of(tmp_path, "", "empty.html"))
    assert text(browser, "where") == "this record holds no game"
    # and no control that would do nothing (the move buttons, autoplay, the deal and view
    # choosers and "show the rest of the deal" were shown, and did nothing)
    for hidden in ("controls", "story", "deal", "view", "four", "b-next", "b-play", "scrubber"):
        assert not browser.find_element(By.ID, hidden).is_displayed(), hidden
    # (a record whose game holds no deal that can be read: a comment never closed before it)
    bad = '[Event "x"]\n{never closed\ndeal 1 dealer D\nhands A: AS KS\n'
    open_page(browser, page_of(tmp_path, bad, "syntax.html"))
    assert "no deal that could be replayed" in text(browser, "where")
    assert "this comment is never closed" in text(browser, "record-errors")
    assert errors_logged(browser) == []


def test_a_file_of_comments_alone_shows_them(browser: Any, tmp_path: Path) -> None:
    # (its page said only "this record holds no game", the comments lost)
    notes = tmp_path / "notes.dpn"
    notes.write_text("{notes for the next club evening}\n\n{who brings \u202ethe cards}\n", encoding="utf-8")
    site = tmp_path / "site"
    build_site([str(notes)], site, registry())
    open_page(browser, site / "games" / "notes.html")
    assert text(browser, "where") == "this record holds no game, only comments:"
    shown = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#notes .comment")]
    assert shown == ["notes for the next club evening", "who brings \ufffdthe cards"]
    assert errors_logged(browser) == []


def test_closed_trump_is_secret_but_to_its_chooser(browser: Any, tmp_path: Path) -> None:
    closed = ROOT / "samples" / "hukum-closed-trump.dpn"
    facts = next(replay_games(iter_path(closed)))
    trump = facts.deals[0].trump
    assert trump is not None and trump.by and trump.suit and trump.trick
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    page = page_of(tmp_path, closed)
    other = next(s for s in "ABCD" if s != trump.by)
    open_page(browser, page, f"#game=1&deal=1&trick=1&view={other}")
    assert "not yet revealed" in text(browser, "trump")
    open_page(browser, page, f"#game=1&deal=1&trick=1&view={trump.by}")
    assert "your secret" in text(browser, "trump") and suits[trump.suit] in text(browser, "trump")
    open_page(browser, page, f"#game=1&deal=1&trick={trump.trick}&view={other}")
    assert suits[trump.suit] in text(browser, "trump")


def test_a_claim_ends_the_deal_on_the_table_and_in_the_story(browser: Any, tmp_path: Path) -> None:
    from test_stats import CLAIMED

    facts = next(replay_games(parse_string(CLAIMED)))
    claim = facts.deals[0].claim
    assert claim is not None
    open_page(browser, page_of(tmp_path, CLAIMED))
    press(browser, Keys.END)
    assert "D claims the rest: BD takes" in text(browser, "capture")
    assert "Claim after trick 11" in text(browser, "story-body")
    pile = browser.find_element(By.CSS_SELECTOR, "#piles .side-BD").text
    taken = sum(t.capture.cards for t in facts.deals[0].tricks if t.capture and t.capture.side == "BD")
    assert f"BD captured {taken + claim.cards} cards" in pile
    assert text(browser, "centre-pile").startswith("Centre pile: 0 cards")
    assert errors_logged(browser) == []


# ---- the analysis (html --analyse) ----------------------------------------------------------------

MARK_8 = "D should have played 4H or KD or AC: AC 2–2 instead of 3–1"


def analysed_page(tmp_path: Path, text: str, from_trick: int) -> Path:
    """A page of ``text`` with each deal's analysis, as ``html --analyse-from`` writes it."""
    from dehlanote.output.analysis_view import Analyser

    analyser = Analyser(from_trick=from_trick)
    games = []
    for i, facts in enumerate(replay_games(parse_string(text)), 1):
        data = game_data(facts, i)
        for fact, deal in zip(facts.deals, data["deals"]):
            deal["an"] = analyser.view(fact, facts.rules).to_json()
        games.append(data)
    out = tmp_path / "analysed.html"
    out.write_text(render_replay(games, "test"), encoding="utf-8")
    return out


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_analysis_marks_the_card_that_lost_a_ten_and_says_why(browser: Any, tmp_path: Path,
                                                              size: tuple[int, int]) -> None:
    page = analysed_page(tmp_path, WORKED.read_text(encoding="utf-8"), 8)
    open_page(browser, page, "#game=1&deal=1&trick=8&card=1")
    viewport(browser, *size)
    # on the table: the ? beside D's 8D, its sentence as its title and in the card's name
    mark = browser.find_element(By.CSS_SELECTOR, ".slot-w .an-mark")
    assert mark.is_displayed() and mark.text == "?"
    assert mark.get_attribute("title") == MARK_8
    assert MARK_8 in mark.get_attribute("aria-label")
    assert MARK_8 in browser.find_element(By.CSS_SELECTOR, ".slot-w .card").get_attribute("aria-label")
    # beside the trick: the value before it, and the sentence, visible
    box = browser.find_element(By.ID, "analysis")
    assert box.is_displayed()
    assert "Before trick 8, best play: AC 2 – BD 2 tens" in box.text
    assert f"D 8♦? {MARK_8}" in box.text
    # in the story too, once the trick is played
    press(browser, Keys.ARROW_DOWN)
    entry = browser.find_element(By.ID, "story-8")
    assert "before the trick, best play: AC 2 – BD 2 tens" in entry.text
    assert MARK_8 in entry.text
    shot = tmp_path / f"analysis-{size[0]}.png"
    assert browser.save_screenshot(str(shot))
    assert_not_blank(shot, *size)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= size[0]
    viewport(browser, 1280, 800)
    # before the analysed tricks the deal's note is said; a seat view hides the analysis
    open_page(browser, page, "#game=1&deal=1&trick=3")
    assert text(browser, "analysis") == "analysed from trick 8"
    open_page(browser, page, "#game=1&deal=1&trick=8&card=1&view=B")
    assert "hidden in a seat view" in text(browser, "analysis")
    assert not browser.find_element(By.CSS_SELECTOR, "#story-8 .an-line").is_displayed()
    assert errors_logged(browser) == []


def test_analysis_of_a_deal_without_hands_is_said_once(browser: Any, tmp_path: Path) -> None:
    text_ = WORKED.read_text(encoding="utf-8")
    head, _, rest = text_.partition("hands A:")
    rest = rest[rest.index("trump D by A"):]
    kept = [line for line in rest.splitlines() if not (line[:3].strip().isdigit() and int(line[:3]) > 3)
            and not line.startswith("tens AC")]
    page = analysed_page(tmp_path, head + "\n".join(kept) + "\n", 1)
    open_page(browser, page, "#game=1&deal=1&trick=2")
    assert text(browser, "analysis") == "not analysed: hands unknown"
    assert text(browser, "story-body").count("not analysed: hands unknown") == 1
    assert errors_logged(browser) == []


def test_glyphs_and_comments_of_an_analysed_record_show(browser: Any, tmp_path: Path) -> None:
    """A record written by ``annotate --analyse --format dpn`` carries ``?`` and the sentence itself."""
    dpn = WORKED.read_text(encoding="utf-8").replace(" 8 D: 8D 9D 3D 2C",
                                                     f" 8 D: 8D? {{{MARK_8}}} {{a low lead}} 9D 3D 2C")
    open_page(browser, page_of(tmp_path, dpn), "#game=1&deal=1&trick=8&card=1")
    label = browser.find_element(By.CSS_SELECTOR, ".slot-w .slot-label")
    assert "D leads ?" in label.text and label.get_attribute("title") == f"{MARK_8} · a low lead"
    press(browser, Keys.ARROW_DOWN)
    entry = browser.find_element(By.ID, "story-8")
    assert "8♦?" in entry.text and f"D 8D: {MARK_8} · a low lead" in entry.text
    # analysed again: the mark and the sentence are not said twice
    page = analysed_page(tmp_path, dpn, 8)
    open_page(browser, page, "#game=1&deal=1&trick=8&card=1")
    assert browser.find_element(By.CSS_SELECTOR, ".slot-w .slot-label").text == "D leads ?"
    press(browser, Keys.ARROW_DOWN)
    entry = browser.find_element(By.ID, "story-8")
    assert entry.text.count(MARK_8) == 1 and "8♦??" not in entry.text
    assert "D leads: 8♦? 9♦* 3♦ 2♣" in entry.text
    assert "D 8D: a low lead" in entry.text                # the record's other comment stays
    assert errors_logged(browser) == []


# ---- a page players can read (issue 26 item 4, issue 22 item 18) --------------------------------------

RLO = "\u202e"
READABLE = (WORKED.read_text(encoding="utf-8")
            .replace('[A "Asha"]', f'[A "Asha{RLO}XYZ"]')
            .replace("10H with them}", f"10H with them {RLO}UVW}}", 1)
            .replace("      C: 8S 7S 3S 2S KH 3H 2H JC 9C 8C 7C 6C 2C\n", "")
            .replace(" 3 A: 4S 5S 7S 9S", " 3 B: 4S 5S 7S 9S").replace("tens AC 3 BD 1", "tens AC 2 BD 2"))

#: the left edges of two characters of the first text under ``root`` that holds both (screen order)
LEFTS = """
var root = arguments[0], a = arguments[1], b = arguments[2];
var walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), n;
while ((n = walk.nextNode())) {
  var i = n.data.indexOf(a), j = n.data.indexOf(b);
  if (i >= 0 && j >= 0) {
    var r = document.createRange(), at = [];
    [i, j].forEach(function (k) { r.setStart(n, k); r.setEnd(n, k + 1); at.push(r.getBoundingClientRect().left); });
    return at;
  }
}
return null;
"""

TENS_SHOWN = """
var tens = document.querySelectorAll('.hand svg.card.ten'), cut = [];
tens.forEach(function (c) {
  var next = c.nextElementSibling;
  if (!next || next.tagName.toLowerCase() !== 'svg') { return; }
  var ten = c.querySelector('text.rank').getBoundingClientRect(), over = next.getBoundingClientRect();
  if (over.top < ten.bottom && over.bottom > ten.top && ten.right > over.left + 0.5) {   /* the next card on it */
    cut.push(c.getAttribute('aria-label') + ' ' + ten.right + ' ' + over.left);
  }
});
return [tens.length, cut];
"""


def rect(driver: Any, css: str) -> dict[str, float]:
    return driver.execute_script(f"return document.querySelector({css!r}).getBoundingClientRect().toJSON()")


def shown(driver: Any, element_id: str) -> bool:
    return driver.find_element(By.ID, element_id).is_displayed()


def go(driver: Any, fragment: str) -> None:
    driver.execute_script("location.hash = arguments[0]", fragment)
    wait(driver, lambda d: d.execute_script("return location.hash") == fragment)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_page_reads_for_players(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    width, height = size
    browser.get_log("browser")
    viewport(browser, width, height)
    browser.get(page_of(tmp_path, READABLE).as_uri())
    wait(browser, lambda d: d.execute_script("return document.documentElement.dataset.ready") == "1")
    # every ten of a fanned hand shows its whole "10" (13 cards a hand: the four tens are held)
    count, cut = browser.execute_script(TENS_SHOWN)
    assert count == 4 and cut == []
    # the page scrolls above the controls: the document fits the window, whatever the banners
    browser.execute_script("document.querySelector('#record-errors details').open = true")
    nav = rect(browser, "#controls")
    assert rect(browser, "#page")["bottom"] <= nav["top"] + 0.5
    assert browser.execute_script("return document.documentElement.scrollHeight") <= height
    assert browser.execute_script("return document.getElementById('page').scrollWidth") <= width
    browser.execute_script("document.querySelector('#record-errors details').open = false")
    # a hand the record does not write is said so in plain words
    seat_c = browser.find_element(By.CSS_SELECTOR, ".seat-n").text
    assert "The record does not write this hand: these are the cards C plays later." in seat_c
    assert "cards still to play" not in browser.find_element(By.TAG_NAME, "body").text
    # the trick, the centre and whose turn are on screen with the page as it opens (a phone too)
    go(browser, "#game=1&deal=1&trick=4&card=2")
    nav = rect(browser, "#controls")
    for css in ("#trick", "#centre-pile", "#turn"):
        box = rect(browser, css)
        assert box["top"] >= 0 and box["bottom"] <= nav["top"] + 0.5, (css, box, nav)
    assert text(browser, "turn") == "B · Bilal to play"
    # the story goes as far as the table; the rest waits behind a toggle
    assert [shown(browser, f"story-{n}") for n in (1, 3, 4, 5, 13)] == [True, True, False, False, False]
    assert not browser.find_element(By.CSS_SELECTOR, ".story-result").is_displayed()
    # ... the wrong tens line too, which would give the deal's split away before it is played
    assert "tens-mismatch" not in browser.find_element(By.ID, "story-body").text
    toggle = browser.find_element(By.ID, "b-story-all")
    browser.execute_script("arguments[0].click()", toggle)
    assert shown(browser, "story-13") and browser.find_element(By.CSS_SELECTOR, ".story-result").is_displayed()
    assert toggle.text == "hide the rest of the deal"
    browser.execute_script("arguments[0].click()", toggle)
    assert not shown(browser, "story-13")
    # e / E step from error to error, as the terminal stepper does
    go(browser, "#game=1&deal=1&trick=0")
    press(browser, "e")
    assert "trick 3 of 13" in text(browser, "where") and "wrong-leader" in text(browser, "trick-errors")
    press(browser, "e")
    assert "tens-mismatch" in browser.find_element(By.ID, "story-body").text
    assert "Deal 1 result" in text(browser, "result")
    press(browser, "e")
    assert "trick 3 of 13" in text(browser, "where")
    assert text(browser, "flash") == "no error after this: back to the first"
    press(browser, "E")
    assert "trick 3 of 13" in text(browser, "where") and text(browser, "flash") == "no error before this"
    # the record's glyph at its card; the comment after a trick's last card is the trick's note
    go(browser, "#game=1&deal=1&trick=7&card=2")
    assert "D 10♦?" in text(browser, "notes") and "ten of trumps" not in text(browser, "notes")
    go(browser, "#game=1&deal=1&trick=1")
    notes = browser.find_element(By.ID, "notes")
    assert notes.text.startswith("Trick 1: A wins: the four cards stay in the centre, 10H with them")
    assert "D 7H:" not in browser.find_element(By.ID, "story-1").text
    # bidi controls of the record never reorder the page: shown as \ufffd, read in the order written
    assert RLO not in browser.execute_script("return document.getElementById('page').innerText")
    x, z = browser.execute_script(LEFTS, browser.find_element(By.ID, "subtitle"), "X", "Z")
    assert x < z
    u, w = browser.execute_script(LEFTS, notes, "U", "W")
    assert u < w
    shot = tmp_path / f"readable-{width}x{height}.png"
    assert browser.save_screenshot(str(shot))
    assert_not_blank(shot, width, height)
    if os.environ.get("DEHLANOTE_SHOTS"):
        shutil.copy(shot, Path(os.environ["DEHLANOTE_SHOTS"]) / shot.name)
    # one deal on paper: its diagram and trick list, nothing of the screen's controls
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert shown(browser, "print") and not shown(browser, "main") and not shown(browser, "controls")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#print table tr")) == 1 + 13
        first = browser.find_element(By.CSS_SELECTOR, "#print table tr:nth-child(2) .print-note").text
        assert first.startswith("A wins: the four cards stay in the centre")      # the record's words too
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    viewport(browser, 1280, 800)
    assert errors_logged(browser) == []


# ---- record text that is long, one word, or mixed ---------------------------------------------------

LONG_WORD = "Averyveryveryverylongnamewithoutanyspacesatallthatgoesonandonandonforeverandever"
LONG = (WORKED.read_text(encoding="utf-8")
        .replace('[Event "Worked example"]', f'[Event "Club night {LONG_WORD}"]')
        .replace('[B "Bilal"]', f'[B "{LONG_WORD}"]')
        .replace("{diamonds}", f"{{{LONG_WORD} says diamonds}}"))

OUTSIDE = """
var out = [], page = document.getElementById('page').getBoundingClientRect();
document.querySelectorAll('#title, #subtitle, .seat-name, .notes p, #story-body .comment').forEach(function (e) {
  var box = e.closest('.seat, #status-box, #story, header') || document.getElementById('page');
  var r = e.getBoundingClientRect(), b = box.getBoundingClientRect();
  if (r.width && (r.right > b.right + 1 || r.right > page.right + 1)) out.push(e.className || e.id);
});
return out;
"""


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_long_name_without_spaces_wraps_inside_its_box(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    """A name, title or comment of one long word breaks inside its seat, header or note:
    nothing is cut off and the page never scrolls sideways."""
    width, height = size
    browser.get_log("browser")
    viewport(browser, width, height)
    browser.get(page_of(tmp_path, LONG).as_uri() + "#game=1&deal=1&trick=1&card=4")
    wait(browser, lambda d: d.execute_script("return document.documentElement.dataset.ready") == "1")
    assert browser.execute_script("return document.getElementById('page').scrollWidth") <= width
    assert browser.execute_script(OUTSIDE) == []
    assert LONG_WORD in browser.find_element(By.CSS_SELECTOR, ".seat-e .seat-name").text
    viewport(browser, 1280, 800)
    assert errors_logged(browser) == []


CHART_LABELS_CUT = """
var out = [];
document.querySelectorAll('.chart svg').forEach(function (svg) {
  var box = svg.viewBox.baseVal;
  svg.querySelectorAll('text.label').forEach(function (t) {
    var b = t.getBBox();
    if (b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5) out.push(t.textContent);
  });
});
return out;
"""


def test_a_long_name_in_a_chart_is_shortened_not_cut(browser: Any, tmp_path: Path) -> None:
    """A player's name too long for a chart's label column ends in "…" inside the chart (the
    whole name is the bar's title) instead of running off the chart's left edge."""
    record = tmp_path / "long.dpn"
    record.write_text(LONG.replace('[A "Asha"]', '[A "<script>alert(1)</script>\\"quote\\" \'x\'"]'),
                      encoding="utf-8")
    build_site([str(record)], tmp_path / "site", registry())
    open_index(browser, tmp_path / "site" / "index.html")
    labels_ = [t.get_attribute("textContent") for t in browser.find_elements(By.CSS_SELECTOR, ".chart text.label")]
    assert browser.execute_script(CHART_LABELS_CUT) == []
    assert any(label.endswith("\u2026") and LONG_WORD.startswith(label[:-1]) for label in labels_)
    titles = [t.get_attribute("textContent") for t in browser.find_elements(By.CSS_SELECTOR, ".chart g.bar > title")]
    assert f"{LONG_WORD}: 0" in titles
    assert errors_logged(browser) == []


def test_a_long_name_in_the_games_table_wraps_on_a_wide_screen(browser: Any, tmp_path: Path) -> None:
    """On a desktop the index's table of games fits the window, whatever a name or an event
    written as one long word: the word breaks in its cell, the table does not scroll sideways."""
    record = tmp_path / "long.dpn"
    record.write_text(LONG, encoding="utf-8")
    build_site([str(record), str(MATCH)], tmp_path / "site", registry())
    open_index(browser, tmp_path / "site" / "index.html")
    table, box = browser.execute_script(
        "var t = document.getElementById('games'); return [t.offsetWidth, t.parentNode.clientWidth]")
    assert table <= box
    assert LONG_WORD in browser.find_element(By.ID, "games").text.replace("\n", "")
    assert errors_logged(browser) == []


# ---- dehlanote image: the picture as a browser draws it ---------------------------------------------

SIX_LONG = (SIX.read_text(encoding="utf-8")
            .replace('[A "Manoj"]', f'[A "{LONG_WORD}"]')
            .replace('[B "Nandini"]', '[B "\u0645\u062d\u0645\u062f \u0639\u0628\u062f '
                                      '\u0627\u0644\u0631\u062d\u0645\u0646 \u0627\u0644\u0637\u0648\u064a\u0644"]')
            .replace('[C "Esha"]', '[C "<script>alert(1)</script>"]')
            .replace('[D "Asha"]', '[D "Dev the very long name with spaces in it"]'))

SEAT_TEXT_CLASH = """
var out = [];
document.querySelectorAll('g.seat').forEach(function (g) {
  var box = g.querySelector('rect').getBBox(), name = g.querySelector('text.name').getBBox(),
      badges = g.querySelector('text.badges').getBBox();
  if (name.x < box.x || name.x + name.width > badges.x - 4 || badges.x + badges.width > box.x + box.width)
    out.push(g.getAttribute('data-seat'));
});
return out;
"""


@pytest.mark.parametrize("record", ["four", "six"])
def test_an_image_keeps_each_name_in_its_seat_clear_of_its_badges(browser: Any, tmp_path: Path, record: str) -> None:
    """``dehlanote image`` of a deal whose players have long names (one word, right to left,
    with markup): each name is shortened to end before its seat's side / dealer / to-play
    badges, inside the seat's box, as a browser draws the SVG."""
    from typer.testing import CliRunner

    from dehlanote.cli import app

    path = tmp_path / "long.dpn"
    path.write_text(SIX_LONG if record == "six" else LONG, encoding="utf-8")
    out = tmp_path / "table.svg"
    result = CliRunner().invoke(app, ["image", str(path), "--deal", "1", "--trick", "5", "--card", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    browser.get_log("browser")
    browser.get(out.as_uri())
    assert browser.execute_script(SEAT_TEXT_CLASH) == []
    names = [e.get_attribute("textContent") for e in browser.find_elements(By.CSS_SELECTOR, "text.name")]
    assert any(n.endswith("\u2026") for n in names)
    assert errors_logged(browser) == []


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_keys_help_opens_where_it_is_seen(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    """The "keys" button (and ?) opens the list of keys on screen, above the controls: it is at
    the foot of the page, below the table and the story, where the button alone left it unseen."""
    width, height = size
    open_page(browser, page_of(tmp_path, WORKED), "#game=1&deal=1&trick=3")
    viewport(browser, width, height)
    try:
        if width > 600:
            browser.find_element(By.ID, "b-help").click()
        else:
            press(browser, "?")                    # a phone hides the button; a keyboard still has ?
        assert browser.find_element(By.ID, "help").is_displayed()
        box, nav = rect(browser, "#help"), rect(browser, "#controls")
        assert box["top"] >= 0 and box["top"] < nav["top"] - 40, (box, nav)
        press(browser, Keys.ESCAPE)
        assert not browser.find_element(By.ID, "help").is_displayed()
    finally:
        viewport(browser, 1280, 800)
    assert errors_logged(browser) == []


def test_the_games_own_comments_and_its_tags_are_on_the_page(browser: Any, tmp_path: Path) -> None:
    # a game's comments (before its tags) and those on its tags were on no page: the deal's and
    # the cards' were shown, the worked example's note on its Annotator tag nowhere
    record = ('{game note before the tags}\n[Event "x"] {event note}\n[Result "*"]\n\n'
              'deal 1 dealer D {deal note}\ntrump D by A\n 1 A: AH 10H 3H 7H\n')
    open_page(browser, page_of(tmp_path, record))
    shown = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#game-comments .comment")]
    assert shown == ["game note before the tags", "Event: event note"]
    open_page(browser, page_of(tmp_path, WORKED, "worked.html"))
    assert "Annotator: the first two tricks are the worked example" in text(browser, "game-comments")
    assert errors_logged(browser) == []


def test_the_comments_of_a_claim_and_a_tens_line_come_with_the_result(browser: Any, tmp_path: Path) -> None:
    # the comments of the lines after the play (claim, revoke, tens) were on no page; before the
    # deal's end they would give its result away
    record = ('[Event "x"]\n[Result "AC"]\n\ndeal 1 dealer D\nhands A: AS KS 4S AH JH 9H 6H AD QD JD 9D QC 5C\n'
              'trump D by A\n 1 A: AH 10H 3H 7H\nclaim A {A shows her hand}\ntens AC 4 BD 0 {counted twice}\n')
    open_page(browser, page_of(tmp_path, record))
    assert "A shows her hand" not in browser.find_element(By.TAG_NAME, "body").text
    press(browser, Keys.END)
    result = text(browser, "result")
    assert "A shows her hand" in result and "counted twice" in result
    assert errors_logged(browser) == []
