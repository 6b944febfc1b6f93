"""The replay page with a name as long as a record may write it, one word: nothing runs out of
its box, at desktop (1280x800) and phone (390x844) sizes, in headless Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

import headless  # noqa: E402  (tests/headless.py: the system's Chromium, started one way everywhere)

headless.require()
from selenium.webdriver.common.by import By  # noqa: E402

from dehlanote import parse_string  # noqa: E402
from dehlanote.output.html import game_data, render_replay  # noqa: E402
from dehlanote.replay import replay_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "samples" / "worked-example.dpn"
LONG = "N" * 70


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = headless.start(1280, 800)
    yield driver
    headless.stop(driver)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_a_long_name_to_play_stays_in_the_status_box(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    text = WORKED.read_text(encoding="utf-8").replace('[C "Chitra"]', f'[C "{LONG}"]')
    facts = replay_game(parse_string(text)[0])
    page = tmp_path / "game.html"
    page.write_text(render_replay([game_data(facts, 1)], "long names"), encoding="utf-8")
    headless.viewport(browser, *size)
    try:
        browser.get(page.as_uri() + "#game=1&deal=1&trick=7&card=0")       # C leads trick 7
        browser.refresh()
        turn = browser.find_element(By.ID, "turn")
        assert LONG[:20] in turn.text
        # "C · NNN… to play" was one line across the seat beside it and past the page's edge
        box = browser.find_element(By.ID, "status-box").rect
        assert turn.rect["x"] + turn.rect["width"] <= box["x"] + box["width"]
        assert browser.execute_script("var t = arguments[0]; return t.scrollWidth <= t.clientWidth;", turn)
        table = browser.find_element(By.ID, "table")
        assert browser.execute_script("var t = arguments[0]; return t.scrollWidth <= t.clientWidth;", table)
    finally:
        headless.viewport(browser, 1280, 800)
