"""dehlanote serve's pages with the names players really type, and some they should not (a
name with a bidirectional override, a very long word), and the taps of a careless hand: at
phone size (390x844), headless Chromium.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

pytest.importorskip("starlette", reason="dehlanote serve needs the serve extra (pip install -e '.[test]')")
import headless  # noqa: E402  (tests/headless.py: the system's Chromium, started one way everywhere)

headless.require()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from serve_helpers import running  # noqa: E402

LONG = "x" * 60          # the longest name a table takes, one word


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    d = headless.start(390, 844, emulate=True)
    yield d
    headless.stop(d)


def wait(driver: Any, cond: Callable[[Any], Any], timeout: float = 10.0) -> Any:
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(cond)


def record(names: dict[str, str]) -> str:
    tags = "".join(f'[{s} "{n}"]\n' for s, n in names.items())
    return tags + '[Rules "standard"]\n[Result "*"]\n[Table "1"]\n\ndeal 1 dealer A\n'


def overflow(driver: Any) -> int:
    return driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_hostile_names_neither_reorder_the_page_nor_widen_it(phone: Any, tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    (folder / "table-1.dpn").write_text(record({"A": "Asha", "B": "\u202eevil", "C": "Chitra", "D": LONG}),
                                        encoding="utf-8")
    with running(folder) as (_proc, url):
        phone.get(url + "t/1")
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "html[data-ready]"))
        status = phone.find_element(By.ID, "status").text
        # B names trump: the override in B's name is shown, not obeyed (it turned the
        # sentence around: "B pmurt seman live"); as the replay pages show it
        assert "\u202e" not in status and status == "B \u2068\ufffdevil\u2069 names trump"
        assert "\ufffdevil" in phone.find_element(By.ID, "seat-B").text
        assert overflow(phone) <= 0        # the long name wraps: the phone page does not scroll sideways
        b = phone.find_element(By.ID, "seat-B").rect
        d = phone.find_element(By.ID, "seat-D").rect
        assert d["x"] + d["width"] <= b["x"]       # and D's box does not cover B's
        phone.get(url)
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#tables li[data-table]"))
        who = phone.find_element(By.CSS_SELECTOR, "#tables li").text
        assert "\u202e" not in who and "B \u2068\ufffdevil\u2069, C \u2068Chitra\u2069" in who
        assert overflow(phone) <= 0


def test_a_double_tap_on_start_makes_one_table(phone: Any, tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    with running(folder) as (_proc, url):
        phone.get(url + "new")
        phone.find_element(By.ID, "dealer-A").click()
        # two taps before the answer to the first (a phone on a slow network)
        phone.execute_script("var b = document.getElementById('start'); b.click(); b.click();")
        wait(phone, lambda d: "/t/" in d.current_url)
        # the second tap, while the first was on its way, started a second table
        assert sorted(p.name for p in folder.glob("table-*.dpn")) == ["table-1.dpn"]


def test_a_refusals_message_goes_away_at_a_tap(phone: Any, tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    with running(folder) as (_proc, url):
        phone.get(url + "new")
        phone.find_element(By.ID, "options").send_keys("streak=banana")
        phone.find_element(By.ID, "dealer-A").click()
        phone.find_element(By.ID, "start").click()           # refused: unknown rules
        toast = phone.find_element(By.ID, "toast")
        wait(phone, lambda d: toast.is_displayed() and d.find_element(By.ID, "start").is_enabled())
        # the message lies over the button at the foot of the phone's screen; it took the tap
        toast.click()
        assert not toast.is_displayed()
        phone.find_element(By.ID, "options").clear()
        phone.find_element(By.ID, "start").click()
        wait(phone, lambda d: "/t/" in d.current_url)
        assert sorted(p.name for p in folder.glob("table-*.dpn")) == ["table-1.dpn"]
