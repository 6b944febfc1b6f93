"""What one phone of a table must not show, or offer, in headless Chromium (390x844 and
1280x800): a closed trump's suit before its reveal, a confirmation the phone cannot give."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette", reason="dehlanote serve needs the serve extra (pip install -e '.[test]')")
import headless  # noqa: E402  (tests/headless.py: the system's Chromium, started one way everywhere)

headless.require()

from selenium.webdriver.common.by import By  # noqa: E402

from serve_helpers import running  # noqa: E402

SHOTS = os.environ.get("DEHLANOTE_SHOTS")     # a folder to keep the screenshots in, to look at them


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    d = headless.start(390, 844, emulate=True)
    yield d
    headless.stop(d)


wait = headless.wait


def text(driver: Any) -> str:
    return driver.execute_script("return document.body.innerText;")


def ready(driver: Any, version_not: str = "") -> None:
    wait(driver, lambda d: d.execute_script(
        "var v = document.documentElement.getAttribute('data-version'); return v && v !== arguments[0];",
        version_not))


def shot(driver: Any, name: str) -> None:
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, name + ".png"))


def version(driver: Any) -> str:
    return driver.execute_script("return document.documentElement.getAttribute('data-version') || '';")


def tap(driver: Any, css: str) -> None:
    before = version(driver)
    driver.find_element(By.CSS_SELECTOR, css).click()
    ready(driver, before)


def test_a_closed_trump_is_entered_by_a_deliberate_tap_and_never_shown(phone: Any, tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    (folder / "table-1.dpn").write_text('[A "Asha"]\n[B "Bilal"]\n[C "Chitra"]\n[D "Dev"]\n'
                                        '[Rules "standard trump=closed"]\n[Result "*"]\n[Table "1"]\n\n'
                                        'deal 1 dealer D\n', encoding="utf-8")
    with running(folder) as (_proc, url):
        phone.get(url + "t/1")
        ready(phone)
        # whoever looks at the table's page does not see the suits: the setter asks for them
        assert not phone.find_elements(By.CSS_SELECTOR, "#suits")
        assert "Enter the secret suit" in text(phone)
        shot(phone, "closed-trump-ask")
        phone.find_element(By.CSS_SELECTOR, "#enter-secret").click()
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#suits button[data-suit=S]"))
        shot(phone, "closed-trump-suits")
        tap(phone, "#suits button[data-suit=S]")
        shown = text(phone)
        assert "closed trump set by A, not yet revealed" in shown
        assert "spades" not in shown.lower() and not phone.find_elements(By.CSS_SELECTOR, "#trump .s-S")
        shot(phone, "closed-trump-set")
        phone.get(url + "t/1")        # a reload, another phone: the same
        ready(phone)
        assert "closed trump set by A, not yet revealed" in text(phone) and "spades" not in text(phone).lower()
        phone.get(url)                # the index offers no record, which would be refused
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#tables li[data-table] .links a"))
        assert not phone.find_elements(By.CSS_SELECTOR, "#tables a[href*='record.dpn']")
        shot(phone, "closed-trump-index")
        phone.get(url + "t/1/replay")
        wait(phone, lambda d: "not yet revealed" in text(d))
        assert "spades" not in text(phone).lower()
        shot(phone, "closed-trump-replay")


def test_the_phone_that_entered_a_trick_offers_no_confirmation(phone: Any, tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    (folder / "table-1.dpn").write_text('[A "Asha"]\n[B "Bilal"]\n[C "Chitra"]\n[D "Dev"]\n'
                                        '[Rules "standard"]\n[Result "*"]\n[Table "1"]\n[Serve "confirm"]\n\n'
                                        'deal 1 dealer D\ntrump D\n', encoding="utf-8")
    with running(folder) as (_proc, url):
        phone.get(url + "t/1")
        ready(phone)
        phone.execute_script("localStorage.setItem('dehlanote-device', 'scorer-phone');")
        phone.get(url + "t/1")
        ready(phone)
        for card in ["AH", "10H", "3H", "8H"]:
            tap(phone, f"#cards button[data-card='{card}']")
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#confirm-panel"))
        # the tap would be refused (same-phone): this phone is told another one confirms
        assert not phone.find_elements(By.CSS_SELECTOR, "#confirm")
        assert "confirmed on another phone" in text(phone)
        shot(phone, "confirm-entering-phone")
        phone.get(url + "t/1")       # a reload of the same phone: the same
        ready(phone)
        assert not phone.find_elements(By.CSS_SELECTOR, "#confirm")
        # the other side's phone is offered the button, and its tap is taken
        phone.execute_script("localStorage.setItem('dehlanote-device', 'other-side');")
        phone.get(url + "t/1")
        ready(phone)
        phone.set_window_size(1280, 800)
        headless.viewport(phone, 1280, 800)
        shot(phone, "confirm-other-phone-desktop")
        tap(phone, "#confirm")
        assert not phone.find_elements(By.CSS_SELECTOR, "#confirm-panel")
        headless.viewport(phone, 390, 844)


def test_a_record_edited_into_errors_is_flagged_on_the_index(phone: Any, tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    record = folder / "table-1.dpn"
    record.write_text('[A "Asha"]\n[B "Bilal"]\n[C "Chitra"]\n[D "Dev"]\n[Rules "standard"]\n[Result "*"]\n'
                      '[Table "1"]\n\ndeal 1 dealer D\ntrump D\n', encoding="utf-8")
    with running(folder) as (_proc, url):
        phone.get(url)
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#tables li[data-table]"))
        assert not phone.find_elements(By.CSS_SELECTOR, "[data-unreadable]")
        record.write_text(record.read_text(encoding="utf-8").replace("trump D", "trump Z"), encoding="utf-8")
        os.utime(record, ns=(1, 1))
        phone.get(url)
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#tables li[data-table] [data-unreadable]"))
        assert "cannot be read now" in text(phone)
        shot(phone, "unreadable-index")
        phone.get(url + "t/1")
        ready(phone)
        assert phone.find_elements(By.CSS_SELECTOR, "#unreadable")
        shot(phone, "unreadable-table")
