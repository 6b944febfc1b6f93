"""A site's page names and the names on its pages, whatever the players are called.

* A player called "Asha Review" took the name of Asha's mistake review page
  (``players/asha-review.html``): every page a name stands for is unique.
* A name of 300 characters made a file name the system refused, and no site was written:
  page names are shortened (and still unique).
* A direction override (U+202E) in a name went out raw and reversed the text around it on
  the index, player, review and drill pages: names are neutralised (U+FFFD, as the replay
  page shows them) and isolated (``<bdi>``; FSI … PDI in plain text), checked in headless
  Chromium at 1280x800 and 390x844.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "samples" / "worked-example.dpn"
RLO = "\u202e"


def build(tmp: Path, text: str, *extra: str) -> Path:
    record = tmp / "r.dpn"
    record.write_text(text, encoding="utf-8")
    out = tmp / "site"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["XDG_CACHE_HOME"] = str(tmp / "cache")
    res = subprocess.run([sys.executable, "-m", "dehlanote", "html", "--site", "r.dpn", "-o", "site", *extra],
                         capture_output=True, text=True, cwd=tmp, env=env, timeout=600)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    return out


def renamed(old: str, new: str) -> str:
    return WORKED.read_text(encoding="utf-8").replace(f'"{old}"', f'"{new}"')


def h1(page: Path) -> str:
    found = re.search(r"<h1>(.*?)</h1>", page.read_text(encoding="utf-8"), re.S)
    assert found, page
    return re.sub(r"<[^>]+>", "", found.group(1))


def test_a_player_called_like_another_s_review_page_gets_a_page_of_their_own(tmp_path):
    site = build(tmp_path, renamed("Bilal", "Asha Review"), "--analyse-from", "10", "--dd")
    players = site / "players"
    assert h1(players / "asha-review.html") == "Asha: mistake review"
    assert h1(players / "asha-review-2.html") == "Asha Review"
    assert h1(players / "asha-review-2-review.html") == "Asha Review: mistake review"
    asha = (players / "asha.html").read_text(encoding="utf-8")
    assert 'href="asha-review.html"' in asha and 'href="asha-drill.html"' in asha
    theirs = (players / "asha-review-2.html").read_text(encoding="utf-8")
    assert 'href="asha-review-2-review.html"' in theirs and 'href="asha-review-2-drill.html"' in theirs
    index = (site / "index.html").read_text(encoding="utf-8")
    assert re.search(r'href="players/asha-review-2\.html"><bdi>B Asha Review</bdi>', index)
    assert len(list(players.iterdir())) == 12      # four players, three pages each, none written twice


def test_a_name_of_hundreds_of_characters_gives_a_short_page_name(tmp_path):
    long = "Bilal " + "a" * 300
    site = build(tmp_path, renamed("Bilal", long), "--analyse-from", "12", "--dd")
    assert (site / "index.html").exists()
    names = sorted(p.name for p in (site / "players").iterdir())
    slug = "bilal-" + "a" * 54
    assert f"{slug}.html" in names
    assert max(len(n) for n in names) <= 60 + len("-review.html")
    assert h1(site / "players" / f"{slug}.html") == long


def test_names_with_direction_controls_are_neutralised_and_isolated(tmp_path):
    site = build(tmp_path, renamed("Dev", f"{RLO}veD"), "--analyse-from", "8", "--dd")
    pages = [site / "index.html", *sorted((site / "players").iterdir())]
    for page in pages:
        html = page.read_text(encoding="utf-8")
        outside = re.sub(r"<script.*?</script>", "", html, flags=re.S)
        assert RLO not in outside, page.name
    assert h1(site / "players" / "ved.html") == "\ufffdveD"
    review = (site / "players" / "ved-review.html").read_text(encoding="utf-8")
    assert "<h1><bdi>\ufffdveD</bdi>: mistake review</h1>" in review
    assert "<title>\u2068\ufffdveD\u2069: mistake review</title>" in review


# ---- in the browser --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bidi_site(tmp_path_factory) -> Path:
    # an override in one name, a Hebrew name (written right to left, no control) in another
    text = renamed("Dev", f"{RLO}veD").replace('"Chitra"', '"\u05d3\u05e0\u05d4"')
    return build(tmp_path_factory.mktemp("bidi"), text, "--analyse-from", "8", "--dd")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    import headless
    headless.require()
    driver = headless.start(1280, 800)
    yield driver
    headless.stop(driver)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_pages_of_names_written_right_to_left_keep_their_sentences_in_order(browser, bidi_site, size,
                                                                                 tmp_path):
    import headless
    from selenium.webdriver.common.by import By

    shots = Path(os.environ.get("DEHLANOTE_SHOTS", tmp_path))
    pages = ["index.html", *sorted(f"players/{p.name}" for p in (bidi_site / "players").iterdir())]
    assert "players/ved-drill.html" in pages and len(pages) == 13
    hebrew = "\u05d3\u05e0\u05d4"
    drilled: list[str] = []
    for page in pages:
        browser.get_log("browser")
        headless.viewport(browser, *size)
        browser.get((bidi_site / page).as_uri())
        body = browser.find_element(By.TAG_NAME, "body").text
        assert RLO not in body, page
        assert browser.execute_script("return document.documentElement.scrollWidth") <= size[0] + 1, page
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == [], page
        if page.startswith("players/ved") or page == "index.html":
            assert browser.save_screenshot(str(shots / f"dehlanote-bidi-{page.replace('/', '-')}-{size[0]}.png"))
        heading = browser.find_element(By.TAG_NAME, "h1")
        if page.endswith("-review.html"):
            assert heading.text.endswith(": mistake review"), page
            assert heading.find_element(By.TAG_NAME, "bdi").text in ("\ufffdveD", hebrew, "Asha", "Bilal"), page
        if page.endswith("-drill.html") and browser.find_element(By.ID, "drill-box").is_displayed():
            drilled.append(page)
            you = browser.find_element(By.ID, "d-you").get_attribute("textContent")
            assert re.search("\\(\u2068[^\u2069]+\u2069\\)", you) and RLO not in you, you
            assert RLO not in browser.find_element(By.ID, "d-where").get_attribute("textContent")
    assert "players/ved-drill.html" in drilled
    assert browser.get((bidi_site / "players" / "ved-review.html").as_uri()) is None
    assert browser.find_element(By.TAG_NAME, "h1").text == "\ufffdveD: mistake review"
