"""dehlanote serve's pages with the names players really type, and some they should not (a
name with a bidirectional override, a very long word), and the taps of a careless hand: at
phone size (390x844), headless Chromium.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette", reason="dehlanote serve needs the serve extra (pip install -e '.[test]')")
import headless  # noqa: E402  (tests/headless.py: the system's Chromium, started one way everywhere)

headless.require()

from selenium.webdriver.common.by import By  # noqa: E402

from serve_helpers import running  # noqa: E402

LONG = "x" * 60          # the longest name a table takes, one word


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    d = headless.start(390, 844, emulate=True)
    yield d
    headless.stop(d)


wait = headless.wait


def record(names: dict[str, str]) -> str:
    tags = "".join(f'[{s} "{n}"]\n' for s, n in names.items())
    return tags + '[Rules "standard"]\n[Result "*"]\n[Table "1"]\n\ndeal 1 dealer A\n'


def inner(driver: Any, css: str) -> str:
    """The text of the element as shown, read in the page in one go (the lists are drawn anew
    at each piece of news: an element found first may be gone when its text is asked)."""
    return driver.execute_script("return document.querySelector(arguments[0]).innerText;", css)


def box(driver: Any, css: str) -> dict[str, float]:
    return driver.execute_script("var r = document.querySelector(arguments[0]).getBoundingClientRect(); "
                                 "return {x: r.left, y: r.top, width: r.width, height: r.height};", css)


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
        status = inner(phone, "#status")
        # B names trump: the override in B's name is shown, not obeyed (it turned the
        # sentence around: "B pmurt seman live"); as the replay pages show it
        assert "\u202e" not in status and status == "B \u2068\ufffdevil\u2069 names trump"
        assert "\ufffdevil" in inner(phone, "#seat-B")
        assert overflow(phone) <= 0        # the long name wraps: the phone page does not scroll sideways
        b, d = box(phone, "#seat-B"), box(phone, "#seat-D")
        assert d["x"] + d["width"] <= b["x"]       # and D's box does not cover B's
        phone.get(url)
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#tables li[data-table]"))
        who = inner(phone, "#tables li")
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


def post(url: str, key: str, body: dict[str, Any]) -> Any:
    """Another phone's tap on table 1."""
    import json
    import urllib.request
    request = urllib.request.Request(url + "api/t/1", data=json.dumps(body).encode("utf-8"), method="POST",
                                     headers={"Content-Type": "application/json", "X-Dehlanote-Key": key})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read().decode("utf-8"))


def night(tmp_path: Path) -> Path:
    folder = tmp_path / "night"
    folder.mkdir()
    (folder / "table-1.dpn").write_text(record({"A": "Asha", "B": "Bilal", "C": "Chitra", "D": "Dev"}),
                                        encoding="utf-8")
    return folder


def table_with_trump(phone: Any, url: str) -> tuple[str, int]:
    phone.get(url + "t/1")
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "html[data-ready]"))
    key = phone.execute_script("return JSON.parse(document.getElementById('serve-data').textContent).key")
    st = post(url, key, {"do": "trump", "suit": "D"})
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#cards button"))
    return key, st["version"]


def focused(driver: Any) -> Any:
    return driver.execute_script("var a = document.activeElement; return a && (a.getAttribute('data-card') || a.id "
                                 "|| a.tagName);")


def test_the_keyboard_stays_in_the_cards_and_enter_adds_a_comment(phone: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys
    folder = night(tmp_path)
    with running(folder) as (_proc, url):
        table_with_trump(phone, url)
        phone.execute_script("document.querySelector('#cards button[data-card=\"7H\"]').focus()")
        phone.switch_to.active_element.send_keys(Keys.ENTER)
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#tablebox .played"))
        # the page is drawn anew: the focus went back to the top of the page (the body), and the
        # next card was a walk through every control with Tab
        assert (focused(phone) or "")[-1:] in "SHDC" and focused(phone) != "7H"
        phone.switch_to.active_element.send_keys(Keys.ENTER)            # B's card, from the keyboard
        wait(phone, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tablebox .played")) == 2)
        phone.find_element(By.CSS_SELECTOR, '[data-tool="comment"]').click()
        wait(phone, lambda d: focused(d) == "comment-text")
        phone.switch_to.active_element.send_keys("well played", Keys.ENTER)   # Enter adds, as the button does
        wait(phone, lambda d: not d.find_elements(By.ID, "comment-text"))
        assert "well played" in (folder / "table-1.dpn").read_text(encoding="utf-8")


def test_a_comment_being_typed_outlives_another_phones_card(phone: Any, tmp_path: Path) -> None:
    folder = night(tmp_path)
    with running(folder) as (_proc, url):
        key, version = table_with_trump(phone, url)
        phone.find_element(By.CSS_SELECTOR, '[data-tool="comment"]').click()
        wait(phone, lambda d: d.find_elements(By.ID, "comment-text"))
        phone.find_element(By.ID, "comment-text").send_keys("B leads from a doubleton")
        st = post(url, key, {"do": "card", "card": "AH", "version": version})      # the other phone
        wait(phone, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-version") == str(st["version"]))
        # the page was drawn anew for the other phone's card, with an empty field
        assert phone.find_element(By.ID, "comment-text").get_attribute("value") == "B leads from a doubleton"
        phone.find_element(By.XPATH, '//div[@class="panel"]//button[@class="primary"]').click()
        wait(phone, lambda d: not d.find_elements(By.ID, "comment-text"))
        phone.find_element(By.CSS_SELECTOR, '[data-tool="comment"]').click()      # sent: the field is empty again
        assert phone.find_element(By.ID, "comment-text").get_attribute("value") == ""


def test_following_the_play_again_shows_the_cards_played_meanwhile(phone: Any, tmp_path: Path) -> None:
    folder = night(tmp_path)
    with running(folder) as (_proc, url):
        key, version = table_with_trump(phone, url)
        version = post(url, key, {"do": "card", "card": "AH", "version": version})["version"]
        phone.get(url + "t/1/replay")
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, f"html[data-ready][data-live-version='{version}']"))
        phone.find_element(By.ID, "live-follow").click()          # look back without being moved
        newest = post(url, key, {"do": "card", "card": "5H", "version": version})["version"]
        time.sleep(1.5)                                            # (the news comes within a second)
        assert phone.find_element(By.TAG_NAME, "html").get_attribute("data-live-version") == str(version)
        phone.find_element(By.ID, "live-follow").click()          # follow again: to the newest card
        # it went to the end of what the page had (AH) and showed 5H only after the next card
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, f"html[data-ready][data-live-version='{newest}']"))
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, '#trick svg[aria-label^="five of hearts"]'))


def test_a_hand_whose_save_fails_keeps_its_cards(phone: Any, tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    text = record({"A": "Asha", "B": "Bilal", "C": "Chitra", "D": "Dev"}).replace('[Table "1"]',
                                                                                   '[Table "1"]\n[Serve "hands"]')
    (folder / "table-1.dpn").write_text(text, encoding="utf-8")
    first = ["AS", "KS", "4S", "AH", "JH", "9H", "6H", "AD", "QD", "JD", "9D", "QC", "5C"]
    hand = ["QS", "JS", "6S", "5S", "QH", "10H", "5H", "5D", "4D", "3D", "10C", "4C", "3C"]
    with running(folder) as (proc, url):
        phone.get(url + "t/1")
        wait(phone, lambda d: d.find_elements(By.ID, "hands-panel"))
        for card in first:
            phone.find_element(By.CSS_SELECTOR, f'#hands-panel button[data-card="{card}"]').click()
        phone.find_element(By.ID, "save-hand").click()           # saved: on to B's hand
        wait(phone, lambda d: status(d).startswith("B "))
        assert read_cards(phone, "#hands-panel .card.sel") == []
        for card in hand:
            phone.find_element(By.CSS_SELECTOR, f'#hands-panel button[data-card="{card}"]').click()
        proc.kill()                  # the laptop's Wi-Fi drops as the hand is saved
        proc.wait(10)
        phone.find_element(By.ID, "save-hand").click()
        wait(phone, lambda d: d.find_element(By.ID, "toast").is_displayed())
        for _ in range(2):           # a card let go and taken again: the panel is drawn from what is kept
            phone.find_element(By.CSS_SELECTOR, '#hands-panel button[data-card="3C"]').click()
        # the thirteen taps were let go, and the page went on to C's hand (a save refused by the
        # table, or made on a state another phone had changed, lost them the same way)
        assert sorted(read_cards(phone, "#hands-panel .card.sel")) == sorted(hand)
        assert status(phone).startswith("B ")


def read_cards(driver: Any, css: str) -> list[str]:
    return driver.execute_script("return Array.prototype.map.call(document.querySelectorAll(arguments[0]), "
                                 "function (e) { return e.getAttribute('data-card'); });", css)


def status(driver: Any) -> str:
    return driver.execute_script("var e = document.querySelector('#hands-panel .status'); "
                                 "return e ? e.textContent : '';")


def test_the_form_takes_a_name_as_long_as_the_table_does(phone: Any, tmp_path: Path) -> None:
    from dehlanote.serve import Limits
    folder = tmp_path / "night"
    folder.mkdir()
    name = "Shri Venkata Subramanian Ramakrishnan Iyer"      # 42 characters: the form kept 40
    assert 40 < len(name) <= Limits().name
    with running(folder) as (_proc, url):
        phone.get(url + "new")
        phone.find_element(By.ID, "name-A").send_keys(name)
        phone.find_element(By.ID, "dealer-A").click()
        phone.find_element(By.ID, "start").click()
        wait(phone, lambda d: "/t/" in d.current_url)
        assert f'[A "{name}"]' in (folder / "table-1.dpn").read_text(encoding="utf-8")


def test_long_names_stay_in_their_place_in_the_picture(phone: Any, tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    names = {"A": "Shri Venkata Subramanian Ramakrishnan Iyer", "B": "Bilal", "C": "Chitra",
             "D": "Devendranath Chattopadhyay-Bandyopadhyay"}
    with running(folder) as (_proc, url):
        phone.get(url + "new")
        for seat, name in names.items():
            phone.find_element(By.ID, f"name-{seat}").send_keys(name)
        boxes = phone.execute_script(
            "return Array.prototype.map.call(document.querySelectorAll('svg.picture text.name'), function (t) {"
            " var b = t.getBBox(); return [t.textContent, b.x, b.x + b.width]; });")
        assert [b[0] for b in boxes][1:3] == ["Bilal", "Chitra"]
        for text, left, right in boxes:
            assert 0 <= left and right <= 300, text            # D's name ran off the picture
        _a, _b, _c, (d, _left, right) = boxes
        assert right <= 70 and d.endswith("…")                 # and over the table, and the arrows


def tens_to_count(tmp_path: Path) -> Path:
    """A night whose table 1 is the worked example played out without its tens line: the tens
    panel is open."""
    from serve_helpers import WORKED
    folder = tmp_path / "night"
    folder.mkdir()
    text = "".join(line for line in WORKED.read_text(encoding="utf-8").splitlines(keepends=True)
                   if not line.startswith("tens "))
    (folder / "table-1.dpn").write_text(text.replace('[Result "*"]', '[Result "*"]\n[Table "1"]'), encoding="utf-8")
    return folder


def test_the_tens_are_counted_from_the_keyboard(phone: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys
    folder = tens_to_count(tmp_path)
    with running(folder) as (_proc, url):
        phone.get(url + "t/1")
        wait(phone, lambda d: d.find_elements(By.ID, "tens-panel"))
        plus = '//div[@id="tens-panel"]//div[b="AC"]/button[text()="+"]'
        phone.find_element(By.XPATH, plus).send_keys("")       # (focus)
        for n in range(1, 4):
            phone.switch_to.active_element.send_keys(Keys.ENTER)
            wait(phone, lambda d: inner(d, "#tens-AC") == str(n))
        # each press drew the panel anew: the second went to the first suit's button, not to +
        assert phone.switch_to.active_element == phone.find_element(By.XPATH, plus)


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_six_players_each_have_a_place_at_the_table(phone: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    names = {"A": "Asha", "B": "Bilal", "C": "Chitra", "D": "Dev", "E": "Esha", "F": "Farid Khan"}
    under = "trump S by A {unfinished trick 1, not yet in the record: AH KH QH JH 10H}\n"
    text = record(names).replace('[Rules "standard"]', '[Rules "standard six-player"]').replace(
        "deal 1 dealer A\n", "deal 1 dealer F\n" + under)
    (folder / "table-1.dpn").write_text(text, encoding="utf-8")
    headless.viewport(phone, *size)
    try:
        with running(folder) as (_proc, url):
            phone.get(url + "t/1")
            wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "html[data-ready]"))
            table = phone.find_element(By.ID, "tablebox").rect
            seats = {s: phone.find_element(By.ID, f"seat-{s}").rect for s in "ABCDEF"}
            played = [e.rect for e in phone.find_elements(By.CSS_SELECTOR, "#tablebox .played")]
            assert len(played) == 5
            things = list(seats.values()) + played
            # E and F were drawn one on the other in the table's corner, over no place of theirs
            for i, a in enumerate(things):
                assert table["x"] <= a["x"] and a["x"] + a["width"] <= table["x"] + table["width"]
                assert table["y"] <= a["y"] and a["y"] + a["height"] <= table["y"] + table["height"]
                for b in things[i + 1:]:
                    assert not overlaps(a, b), (a, b)
            # anticlockwise from A at the bottom: B and C on A's right, D opposite, E and F on A's left
            mid = table["x"] + table["width"] / 2
            assert seats["B"]["x"] > mid and seats["C"]["x"] > mid and seats["E"]["x"] + seats["E"]["width"] < mid
            assert seats["C"]["y"] < seats["B"]["y"] and seats["E"]["y"] < seats["F"]["y"]
            assert seats["D"]["y"] < seats["C"]["y"] < seats["A"]["y"]
    finally:
        headless.viewport(phone, 390, 844)


def test_the_form_starts_a_table_of_six_with_six_names(phone: Any, tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    names = {"A": "Asha", "B": "Bilal", "C": "Chitra", "D": "Dev", "E": "Esha", "F": "Farid"}
    with running(folder) as (_proc, url):
        phone.get(url + "new")
        assert not phone.find_element(By.ID, "name-E").is_displayed()         # four players: four names
        phone.find_element(By.ID, "options").send_keys("six-player")
        for seat, name in names.items():                  # the form had four names, and no E or F to deal
            phone.find_element(By.ID, f"name-{seat}").send_keys(name)
        phone.find_element(By.ID, "dealer-F").click()
        picture = phone.find_element(By.CSS_SELECTOR, "svg.picture")
        assert "E and F on A's left" in picture.get_attribute("aria-label")
        assert [t.text for t in picture.find_elements(By.TAG_NAME, "text")][-12:] == \
            ["A", "Asha", "B", "Bilal", "C", "Chitra", "D", "Dev", "E", "Esha", "F ●", "Farid"]
        phone.find_element(By.ID, "start").click()
        wait(phone, lambda d: "/t/" in d.current_url)
        text = (folder / "table-1.dpn").read_text(encoding="utf-8")
        assert all(f'[{s} "{n}"]' in text for s, n in names.items()) and "deal 1 dealer F" in text
        phone.get(url + "new")                            # and back to four: E and F go away
        phone.find_element(By.ID, "options").send_keys("six-player")
        phone.find_element(By.ID, "dealer-E").click()
        phone.find_element(By.ID, "options").clear()
        phone.find_element(By.ID, "options").send_keys("streak=5")
        assert not phone.find_element(By.ID, "dealer-E").is_displayed()
        assert "on" not in phone.find_element(By.ID, "dealer-E").get_attribute("class")
        # the option in any case, as the table reads it ("Six-Player" made a table of six
        # from a form that showed four names and four dealers)
        phone.find_element(By.ID, "options").clear()
        phone.find_element(By.ID, "options").send_keys("Six-Player")
        assert phone.find_element(By.ID, "name-E").is_displayed()
        assert phone.find_element(By.ID, "dealer-F").is_displayed()


def test_a_tens_count_refused_is_kept_to_put_right(phone: Any, tmp_path: Path) -> None:
    folder = tens_to_count(tmp_path)
    plus = '//div[@id="tens-panel"]//div[b="{}"]/button[text()="+"]'
    with running(folder) as (_proc, url):
        phone.get(url + "t/1")
        wait(phone, lambda d: d.find_elements(By.ID, "tens-panel"))
        for side, n in (("AC", 2), ("BD", 2)):         # miscounted: AC took 3, BD 1
            for _ in range(n):
                phone.find_element(By.XPATH, plus.format(side)).click()
        phone.find_element(By.ID, "check-tens").click()
        wait(phone, lambda d: "tens-mismatch" in d.find_element(By.ID, "toast").text)
        phone.find_element(By.ID, "toast").click()
        phone.find_element(By.XPATH, plus.format("AC")).click()      # one more for AC: 3, not 1
        assert inner(phone, "#tens-AC") == "3" and inner(phone, "#tens-BD") == "2"


def test_a_names_stacked_accents_stay_in_its_seat(phone: Any, tmp_path: Path) -> None:
    import io
    from PIL import Image
    folder = tmp_path / "night"
    folder.mkdir()
    stacked = "Z" + "\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a\u030b\u030c" * 5 + "a"     # 52 characters
    (folder / "table-1.dpn").write_text(record({"A": stacked, "B": "Bilal", "C": "Chitra", "D": "Dev"}),
                                        encoding="utf-8")
    with running(folder) as (_proc, url):
        phone.get(url + "t/1")
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "html[data-ready]"))
        a = phone.find_element(By.ID, "seat-A").rect
        c = phone.find_element(By.ID, "seat-C").rect
        shot = Image.open(io.BytesIO(phone.get_screenshot_as_png())).convert("RGB")
        # the felt between C's box and A's (no card on it yet): the accents stood there in a column
        # up to the page's title
        x0, x1 = int(a["x"]), int(a["x"] + a["width"])
        marks = [(x, y) for x in range(x0, x1) for y in range(int(c["y"] + c["height"]) + 4, int(a["y"]) - 2)
                 if (lambda p: not (p[1] > p[0] + 20 and p[1] > p[2]))(shot.getpixel((x, y)))]
        assert not marks, marks[:5]


def test_a_screen_reader_hears_the_status_not_the_whole_page(phone: Any, tmp_path: Path) -> None:
    folder = night(tmp_path)
    with running(folder) as (_proc, url):
        key, version = table_with_trump(phone, url)
        # the page is drawn anew at each change: as the live region, all of it (52 cards, the
        # buttons) was read out again after every card
        live = phone.execute_script("return Array.prototype.map.call(document.querySelectorAll('[aria-live]'), "
                                    "function (e) { return e.id; });")
        assert live == ["say"]
        post(url, key, {"do": "card", "card": "AH", "version": version})
        wait(phone, lambda d: "C" in d.execute_script("return document.getElementById('say').textContent"))
        said = phone.execute_script("return document.getElementById('say').textContent")
        assert said == phone.find_element(By.ID, "status").get_attribute("textContent")


def test_six_players_hands_are_picked_from_three_decks(phone: Any, tmp_path: Path) -> None:
    import json
    import urllib.request
    folder = tmp_path / "night"
    folder.mkdir()
    names = {"A": "Asha", "B": "Bilal", "C": "Chitra", "D": "Dev", "E": "Esha", "F": "Farid"}
    text = record(names).replace('[Rules "standard"]', '[Rules "standard six-player"]').replace(
        '[Table "1"]', '[Table "1"]\n[Serve "hands"]').replace("deal 1 dealer A", "deal 1 dealer F")
    (folder / "table-1.dpn").write_text(text, encoding="utf-8")
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    with running(folder) as (_proc, url):
        phone.get(url + "t/1")
        wait(phone, lambda d: d.find_elements(By.ID, "hands-panel"))
        card = '#hands-panel button[data-card="{}"]'
        tabs = phone.execute_script("return Array.prototype.map.call(document.querySelectorAll("
                                    "'#hands-panel .seatpick button'), "
                                    "function (b) { return b.getBoundingClientRect().top; });")
        assert len(tabs) == 6 and len(set(tabs)) == 1          # the six seats' tabs on one row (F went below)
        for c in ["AS"] + [r + s for s in "SH" for r in ranks][:25]:      # AS twice: 26 cards
            phone.find_element(By.CSS_SELECTOR, card.format(c)).click()
        assert "×2" in inner(phone, card.format("AS"))
        phone.find_element(By.ID, "save-hand").click()
        wait(phone, lambda d: inner(d, "#hands-panel .status").startswith("B "))
        with urllib.request.urlopen(url + "api/t/1", timeout=10) as r:
            st = json.loads(r.read().decode("utf-8"))
        assert sorted(st["hands"]["A"]).count("AS") == 2 and len(st["hands"]["A"]) == 26
        # B: the cards in A's hand are still there (a deck and more of each); AS once more only
        ace = phone.find_element(By.CSS_SELECTOR, card.format("AS"))
        assert ace.is_enabled()
        ace.click()
        assert "sel" in phone.find_element(By.CSS_SELECTOR, card.format("AS")).get_attribute("class")
        phone.find_element(By.CSS_SELECTOR, card.format("AS")).click()      # no fourth AS: back to none
        assert "sel" not in phone.find_element(By.CSS_SELECTOR, card.format("AS")).get_attribute("class")
        assert phone.find_element(By.CSS_SELECTOR, card.format("KS")).is_enabled()
