"""dehlanote serve as players use it: headless Chromium at phone (390x844) and desktop (1280x800) sizes.

A real server (a subprocess bound to 127.0.0.1) and real taps: a table started from the form,
the worked example's deal played card by card and compared with the sample, a reload mid-trick,
two browsers on one table, the live replay page, kill -9 mid-deal and a restart. Screenshots go
to the test's folder (DEHLANOTE_SHOTS=folder keeps them, e.g. for docs/serve.md).
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
import urllib.request
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

pytest.importorskip("starlette", reason="dehlanote serve needs the serve extra (pip install -e '.[test]')")
import headless  # noqa: E402  (tests/headless.py: the system's Chromium, started one way everywhere)

headless.require()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from dehlanote.replay import replay_game  # noqa: E402
from dehlanote.syntax import parse_string  # noqa: E402
from serve_helpers import WORKED, running, stop  # noqa: E402



def _driver(width: int, height: int) -> Any:
    # a page in the background must not be throttled: the live views poll
    return headless.start(width, height, emulate=True, extra=("--disable-background-timer-throttling",
                                                            "--disable-renderer-backgrounding"))


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    d = _driver(390, 844)
    yield d
    headless.stop(d)


@pytest.fixture(scope="module")
def desk() -> Iterator[Any]:
    d = _driver(1280, 800)
    yield d
    headless.stop(d)


@pytest.fixture
def shots(tmp_path: Path) -> Callable[[Any, str], Path]:
    keep = os.environ.get("DEHLANOTE_SHOTS")
    folder = Path(keep) if keep else tmp_path / "shots"
    folder.mkdir(parents=True, exist_ok=True)

    def take(driver: Any, name: str) -> Path:
        path = folder / f"{name}.png"
        driver.save_screenshot(str(path))
        return path
    return take


def no_errors(driver: Any, allow: tuple[str, ...] = ()) -> None:
    bad = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"
           and not any(a in e["message"] for a in allow + ("favicon",))]
    assert not bad, bad


def version(driver: Any) -> int:
    v = driver.find_element(By.TAG_NAME, "html").get_attribute("data-version")
    return int(v) if v else -1


def wait(driver: Any, cond: Callable[[Any], Any], timeout: float = 10.0) -> Any:
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(cond)


def tap(driver: Any, selector: str) -> None:
    before = version(driver)
    driver.find_element(By.CSS_SELECTOR, selector).click()
    wait(driver, lambda d: version(d) > before)


def read(driver: Any, css: str, attr: str) -> list[str]:
    """An attribute of every element matching ``css``, read in the page in one go (no stale elements)."""
    script = ("var a = arguments[1]; return Array.prototype.map.call(document.querySelectorAll(arguments[0]), "
              "function (e) { return e.getAttribute(a); });")
    return driver.execute_script(script, css, attr)


def trick_cards(driver: Any) -> list[str]:
    return read(driver, "#tablebox .played", "data-card")


def sample_plays() -> list[list[str]]:
    out = []
    for line in WORKED.read_text(encoding="utf-8").splitlines():
        if re.match(r"^\s*\d+ [A-D]:", line):
            out.append([c.rstrip("?!") for c in line.split(":", 1)[1].split("{")[0].split()])
    return out


def deal_facts(text: str) -> Any:
    facts = replay_game(parse_string(text)[0])
    assert not facts.errors, facts.errors
    d = facts.deals[0]
    tricks = [(t.leader, t.winner, [p.card for p in t.trick.plays],
               None if t.capture is None else (t.capture.side, t.capture.cards, tuple(t.capture.tens)))
              for t in d.tricks]
    return tricks, dict(d.tens), d.winner, d.dealer, d.trump.suit if d.trump else None, d.complete


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read().decode("utf-8"))


def test_a_table_on_a_phone_plays_the_worked_example(phone: Any, tmp_path: Path, shots: Any) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    with running(folder) as (_proc, url):
        phone.get(url + "new")
        Select(phone.find_element(By.ID, "rules")).select_by_value("standard")
        for seat, name in zip("ABCD", ("Asha", "Bilal", "Chitra", "Dev")):
            phone.find_element(By.ID, f"name-{seat}").send_keys(name)
        phone.find_element(By.ID, "dealer-D").click()
        picture = phone.find_element(By.CSS_SELECTOR, "svg.picture")
        assert "anticlockwise" in picture.get_attribute("aria-label")
        assert [t.text for t in picture.find_elements(By.TAG_NAME, "text")][-8:] == \
            ["A", "Asha", "B", "Bilal", "C", "Chitra", "D ●", "Dev"]
        shots(phone, "phone-new-table")
        phone.find_element(By.ID, "start").click()
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, '#suits button[data-suit="D"]'))
        assert "turn" in phone.find_element(By.ID, "seat-A").get_attribute("class")   # A names trump
        tap(phone, '#suits button[data-suit="D"]')
        for k, trick in enumerate(sample_plays(), 1):
            for i, card in enumerate(trick):
                seat = read(phone, "#tablebox .seat.turn", "id")[0]
                offered = read(phone, "#cards .card", "data-card")
                assert card in offered
                if i:     # the led suit comes first among the cards offered
                    led = trick[0][-1]
                    assert offered[0][-1] == led or not any(c[-1] == led for c in offered)
                tap(phone, f'#cards button[data-card="{card}"]')
                if k == 6 and i == 1:
                    shots(phone, "phone-mid-trick")
                    phone.refresh()      # reload mid-trick: the trick comes back as it was
                    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "html[data-ready]"))
                    assert trick_cards(phone) == trick[:2]
                    after = "ABCD"[("ABCD".index(seat[-1]) + 1) % 4]
                    assert read(phone, "#tablebox .seat.turn", "id") == ["seat-" + after]
        wait(phone, lambda d: d.find_elements(By.ID, "tens-panel"))
        for _ in range(3):
            phone.find_element(By.XPATH, '//div[@id="tens-panel"]//div[b="AC"]/button[text()="+"]').click()
        phone.find_element(By.XPATH, '//div[@id="tens-panel"]//div[b="BD"]/button[text()="+"]').click()
        assert phone.find_element(By.ID, "tens-AC").text == "3"
        shots(phone, "phone-tens-check")
        tap(phone, "#check-tens")
        assert "AC 1" in phone.find_element(By.ID, "score").text
        no_errors(phone)
        saved = (folder / "table-1.dpn").read_text(encoding="utf-8")
    mine = deal_facts(saved)
    theirs = deal_facts(WORKED.read_text(encoding="utf-8"))
    assert mine == theirs
    assert "tens AC 3 BD 1" in saved


def test_two_browsers_live_replay_and_kill_9(phone: Any, desk: Any, tmp_path: Path, shots: Any) -> None:
    phone.get("about:blank")
    phone.get_log("browser")        # what earlier tests left in the log is theirs
    folder = tmp_path / "night"
    folder.mkdir()
    with running(folder, "--lan") as (proc, url):
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?key=[A-Za-z0-9_-]{20,}", url)
        base, key = url.split("?key=")
        port = base.rsplit(":", 1)[1].rstrip("/")
        req = urllib.request.Request(base + "api/tables", method="POST", headers={
            "Content-Type": "application/json", "X-Dehlanote-Key": key},
            data=json.dumps({"rules": "standard", "names": {"A": "Asha", "B": "Bilal", "C": "Chitra", "D": "Dev"},
                             "dealer": "D"}).encode())
        urllib.request.urlopen(req, timeout=10).close()
        table = f"{base}t/1?key={key}"
        phone.get(table)
        desk.get(table)
        for d in (phone, desk):
            wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, '#suits button[data-suit="D"]'))
        tap(phone, '#suits button[data-suit="D"]')
        wait(desk, lambda d: d.find_elements(By.CSS_SELECTOR, '#cards button[data-card="AH"]'), 2)
        plays = ["AH", "10H", "3H", "7H", "AS"]
        for card in plays[:3]:
            tap(phone, f'#cards button[data-card="{card}"]')
            t0 = time.monotonic()
            wait(desk, lambda d: card in trick_cards(d), 2)
            assert time.monotonic() - t0 < 1.0       # the other phone sees the card within a second
        shots(desk, "desktop-table")
        desk.get(f"{base}t/1/replay?key={key}")
        wait(desk, lambda d: d.find_elements(By.CSS_SELECTOR, "html[data-ready][data-live-version]"))
        for card in plays[3:]:
            tap(phone, f'#cards button[data-card="{card}"]')
            t0 = time.monotonic()
            name = {"7H": "seven of hearts", "AS": "ace of spades"}[card]
            wait(desk, lambda d: d.find_elements(By.CSS_SELECTOR, f'#trick svg[aria-label^="{name}"]'), 2)
            assert time.monotonic() - t0 < 1.0       # the live replay shows the new card within a second
        shots(desk, "desktop-live-replay")
        no_errors(desk)
        before = get(f"{base}api/t/1?key={key}")
        proc.send_signal(signal.SIGKILL)          # kill -9 mid-trick
        proc.wait(10)
        stop(proc)
        with running(folder, "--lan", "--port", port) as (_proc2, url2):
            base2, key2 = url2.split("?key=")
            assert (base2, key2) == (base, key)     # the same address: the phones' pages carry on
            after = get(f"{base2}api/t/1?key={key2}")
            for field in ("trick", "centre", "piles", "tens", "expect", "legal", "score", "trump"):
                assert after[field] == before[field], field
            # the new server's versions start elsewhere: the live page follows it, to its state
            wait(desk, lambda d: d.find_elements(By.CSS_SELECTOR, f"html[data-live-version='{after['version']}']"), 5)
            phone.refresh()
            wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "html[data-ready]"))
            assert trick_cards(phone) == ["AS"]
            tap(phone, '#cards button[data-card="QS"]')
            assert trick_cards(phone) == ["AS", "QS"]
            phone.get(f"{base2}?key={key2}")
            wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, '#tables li[data-table="1"]'))
            shots(phone, "phone-index")
            # while the server was down: its streams cut, its address refused
            no_errors(phone, allow=("ERR_CONNECTION_REFUSED", "ERR_INCOMPLETE_CHUNKED_ENCODING"))
        text = (folder / "table-1.dpn").read_text(encoding="utf-8")
        assert " 1 A: AH 10H 3H 7H" in text and "AS QS" in text


def test_the_pages_in_hindi(phone: Any, tmp_path: Path, shots: Any) -> None:
    phone.get("about:blank")
    phone.get_log("browser")        # what earlier tests left in the log is theirs
    folder = tmp_path / "night"
    folder.mkdir()
    with running(folder, "--lang", "hi") as (_proc, url):
        phone.get(url + "new")
        assert phone.find_element(By.TAG_NAME, "h1").text == "नई मेज़ शुरू करें"
        phone.find_element(By.ID, "dealer-D").click()
        phone.find_element(By.ID, "start").click()
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, '#suits button[data-suit="D"]'))
        suits = [b.text for b in phone.find_elements(By.CSS_SELECTOR, "#suits button")]
        assert suits == ["काली", "पान", "ईंट", "चिड़ी"]
        tap(phone, '#suits button[data-suit="H"]')
        tap(phone, '#cards button[data-card="10H"]')
        assert "हुकुम" in phone.find_element(By.ID, "trump").text
        shots(phone, "phone-hindi")
        phone.get(url + "t/1/replay")
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "html[data-ready]"))
        assert phone.find_element(By.ID, "story-head").text.startswith("बाज़ी 1")
        assert "हुकुम पान" in phone.find_element(By.CSS_SELECTOR, "#story-body p.head").text   # the story too
        shots(phone, "phone-hindi-replay")
        no_errors(phone)
