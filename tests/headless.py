"""The system's headless Chromium for the browser tests, started one way everywhere.

Every browser test module (the replay pages, the viewer, the review site, the what-if line,
``dehlanote serve``) calls :func:`require` at import (it skips the module, saying what to
install, where Selenium, Chromium or its driver is missing) and starts its browsers with
:func:`start`, which :func:`stop` undoes. The browser and its driver are the system's
(Debian's ``chromium`` and ``chromium-driver``): Selenium must never look for them online.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any, Callable

import pytest

BROWSER = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None)
DRIVER = shutil.which("chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")


def require() -> None:
    """Skip the calling module where there is no headless Chromium to drive."""
    pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
    if BROWSER is None or DRIVER is None:
        pytest.skip("no headless Chromium here: install the system packages chromium and chromium-driver "
                    "(.ci/run does so with apt-get where it can)", allow_module_level=True)
    os.environ.setdefault("SE_OFFLINE", "true")


def viewport(driver: Any, width: int, height: int) -> None:
    """Emulate a screen of this size exactly (a phone below 600 pixels wide)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def start(width: int = 1280, height: int = 800, *, extra: tuple[str, ...] = (), emulate: bool = False) -> Any:
    """A fresh headless Chromium with its own profile folder, a window of this size and the
    console log kept; ``emulate`` also sets the exact viewport. Skips where it cannot start."""
    require()
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="dehlanote-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for flag in FLAGS + extra:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    except WebDriverException as exc:        # pragma: no cover - a broken install, not a test failure
        shutil.rmtree(profile, ignore_errors=True)
        pytest.skip(f"Chromium is installed but does not start headless: {exc.msg}")
    driver.set_page_load_timeout(30)
    driver._dehlanote_profile = profile
    if emulate:
        viewport(driver, width, height)
    return driver


def stop(driver: Any) -> None:
    """Quit a browser :func:`start` gave, and remove its profile folder."""
    driver.quit()
    shutil.rmtree(driver._dehlanote_profile, ignore_errors=True)


def wait(driver: Any, cond: Callable[[Any], Any], timeout: float = 10.0) -> Any:
    """``cond(driver)`` once it is true (polled every 50 ms), or a timeout error."""
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(cond)
