"""Sharing a deal: the viewer page (``html --viewer``), the link (``share``) and the picture
(``image``), from the command line; the viewer in a browser is in test_viewer_browser.py."""

from __future__ import annotations

import base64
import hashlib
import re
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote import iter_path, replay_games
from dehlanote.cli import app
from dehlanote.output.html.data import game_data
from dehlanote.output.html.viewer import KEY, ShareError, decode, encode
from dehlanote.output.stepper import snapshots

ROOT = Path(__file__).resolve().parents[2]
MATCH = ROOT / "samples" / "match.dpn"
WORKED = ROOT / "samples" / "worked-example.dpn"
BAD = ROOT / "docs" / "examples" / "bad.dpn"
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def run(*args: object):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# ---- share -------------------------------------------------------------------------------------------

def test_the_link_carries_the_deal_as_the_replay_page_has_it():
    result = run("share", MATCH, "--deal", 3, "--base", "https://club.example/viewer.html")
    assert result.exit_code == 0, result.stderr
    url = result.stdout.strip()
    assert url.startswith(f"https://club.example/viewer.html#{KEY}=") and "\n" not in url
    assert re.fullmatch(r"[A-Za-z0-9_-]+", url.split("=", 1)[1])          # nothing to escape in a URL
    carried = decode(url)
    facts = next(replay_games(iter_path(MATCH)))
    whole = game_data(facts, 1)                                          # the independent path: the page's data
    assert carried["deals"] == [whole["deals"][2]]                      # deal 3 with the match before it
    assert carried["seats"] == whole["seats"] and carried["tags"] == whole["tags"]
    assert len(url) < 4000


def test_the_story_in_the_link_speaks_the_language_asked():
    # the story's sentences travel in the link, made by share: the viewer in Hindi showed them in
    # English ("D sweeps 40 cards (two in a row)")
    from dehlanote.i18n import speaking
    result = run("share", MATCH, "--deal", 3, "--lang", "hi")
    assert result.exit_code == 0, result.stderr
    carried = decode(result.stdout.strip())
    facts = next(replay_games(iter_path(MATCH)))
    with speaking("hi"):
        whole = game_data(facts, 1)                                      # the page's data, in Hindi
    assert carried["deals"] == [whole["deals"][2]]
    assert "D ने 40 पत्ते समेटे (लगातार दो हाथ): 10D 10C" in str(carried["deals"])
    english = decode(run("share", MATCH, "--deal", 3).stdout.strip())
    assert "D sweeps 40 cards (two in a row): 10D 10C" in str(english["deals"])
    refused = run("share", MATCH, "--deal", 3, "--lang", "xx")
    assert refused.exit_code == 2 and "--lang xx: no catalog for the language 'xx'" in refused.stderr
    # a language tag in any case is that language (BCP 47): --lang HI was "no catalog for 'HI'"
    upper = run("share", MATCH, "--deal", 3, "--lang", "HI")
    assert upper.exit_code == 0, upper.stderr
    assert decode(upper.stdout.strip())["deals"] == carried["deals"]


def test_the_link_opens_at_a_trick_and_defaults_to_a_viewer_beside_it():
    url = run("share", WORKED, "--deal", 1, "--trick", 8).stdout.strip()
    assert url.startswith(f"viewer.html#trick=8&{KEY}=")
    assert decode(url)["deals"][0]["n"] == 1


def test_a_deal_with_errors_is_shared_with_its_errors_and_exit_1():
    result = run("share", BAD, "--deal", 1)
    assert result.exit_code == 1
    codes = [e[0] for e in decode(result.stdout)["errors"]]
    assert "wrong-leader" in codes
    assert "flagged in the viewer" in result.stderr


ONE_DEAL = (Path(__file__).resolve().parents[1] / "data" / "one-deal.dpn").read_text(encoding="utf-8")


def _record(tmp_path, name: str, old: str, new: str, *, deals: int = 1) -> Path:
    """A record of ``deals`` copies of one deal, ``old`` replaced by ``new`` (in each)."""
    head, first = ONE_DEAL.split("\ndeal 1 dealer D", 1)
    body = "".join(f"\ndeal {n} dealer D" + first + "\n" for n in range(1, deals + 1))
    path = tmp_path / name
    path.write_text((head + body).replace(old, new), encoding="utf-8")
    return path


def test_a_reader_error_in_the_deal_is_counted_and_exits_1(tmp_path):
    # a lower-case seat (a syntax error the reader reads past) used to give exit 0 and no word
    path = _record(tmp_path, "lowerseat.dpn", "\n 2 A:", "\n 2 a:")
    result = run("share", path, "--deal", 1)
    assert result.exit_code == 1
    assert [(e[0], e[2], e[4], e[5]) for e in decode(result.stdout)["errors"]] == [("syntax", 11, 1, 2)]
    assert "deal 1 has 1 error, flagged in the viewer" in result.stderr


def test_every_error_of_the_deal_is_counted(tmp_path):
    # a card that is no card: the reader's bad-card and the replay's trick-number (was "1 error")
    path = _record(tmp_path, "badcard.dpn", " 1 A: AH 10H", " 1 A: AH 11H")
    result = run("share", path, "--deal", 1)
    assert result.exit_code == 1
    assert sorted(e[0] for e in decode(result.stdout)["errors"]) == ["bad-card", "trick-number"]
    assert "deal 1 has 2 errors, flagged in the viewer" in result.stderr


def test_the_game_s_own_errors_are_counted_and_carried(tmp_path):
    path = _record(tmp_path, "badtag.dpn", '[Result "*"]', "[Result *]")
    assert "[Result *]" in path.read_text(encoding="utf-8")
    result = run("share", path, "--deal", 1)
    assert result.exit_code == 1
    assert [(e[0], e[4]) for e in decode(result.stdout)["errors"]] == [("bad-tag", None)]
    assert "the game has 1 error of its own (not in a deal), flagged in the viewer" in result.stderr


def test_errors_of_another_deal_exit_1_and_are_said(tmp_path):
    path = _record(tmp_path, "two.dpn", "\ndeal 2 dealer D", "\ndeal 2 dealer B", deals=2)
    result = run("share", path, "--deal", 1)
    assert result.exit_code == 1
    assert decode(result.stdout)["errors"] == []
    assert "deal 1 has no error; the game has 1 error in other deals, not in the link" in result.stderr
    result = run("share", path, "--deal", 2)
    assert result.exit_code == 1
    assert [e[0] for e in decode(result.stdout)["errors"]] == ["wrong-dealer"]


def test_deal_is_counted_from_1_as_solve_and_replay_count(tmp_path):
    # the help said "as numbered in the record", but a first deal written "deal 2" is deal 1
    path = _record(tmp_path, "deal2.dpn", "deal 1 dealer D", "deal 2 dealer D")
    result = run("share", path, "--deal", 2)
    assert result.exit_code == 2 and result.stdout == ""
    assert ("the game has no deal 2 (deals 1 to 1; the deal written as deal 2 is deal 1 of the game: "
            "deals are counted from 1)") in " ".join(result.stderr.split())
    result = run("share", path, "--deal", 1)
    assert result.exit_code == 1                                         # (its deal-number error)
    assert decode(result.stdout)["deals"][0]["n"] == 1
    assert [e[0] for e in decode(result.stdout)["errors"]] == ["deal-number"]
    assert "its place in the game, from 1" in re.sub(r"[\s│]+", " ", run("share", "--help").stdout)


@pytest.mark.parametrize("args, says", [
    (["--deal", 9], "the game has no deal 9 (deals 1 to"),
    (["--deal", 1, "--trick", 14], "deal 1 has no trick 14 (tricks 1 to 13)"),
    (["--deal", 1, "--base", "javascript:alert(1)"], "--base must be an http, https or file address"),
    (["--deal", 1, "--base", "viewer.html#x"], "without a # part"),
    (["--deal", 1, "--base", ""], "--base is empty: give the viewer's address"),    # (was a bare #dpn1=...)
    (["--deal", 1, "--game", 5], "there is no game 5"),
    # a traceback (urllib's "Invalid IPv6 URL"), and links that open nothing or carry an escape
    (["--deal", 1, "--base", "https://[club/viewer.html"], "is not a well-formed address: its server's name"),
    (["--deal", 1, "--base", "https://club]/viewer.html"], "is not a well-formed address: its server's name"),
    (["--deal", 1, "--base", "https://"], "--base https:// names no server: give the whole address"),
    (["--deal", 1, "--base", "https:viewer.html"], "--base https:viewer.html names no server"),
    (["--deal", 1, "--base", "file:"], "--base file: names no file"),
    (["--deal", 1, "--base", "view\x1b[2Jer.html"], "--base has a control character in it"),
    # a Windows path was "not c:", a scheme's name
    (["--deal", 1, "--base", "C:\\Users\\me\\viewer.html"], "is a Windows path: write it as an address, "
                                                           "file:///C:/Users/me/viewer.html"),
])
def test_what_cannot_be_shared_is_said(args, says):
    result = run("share", MATCH, *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert says in result.stderr


def test_a_link_that_is_not_one_is_refused_in_a_sentence():
    with pytest.raises(ShareError):
        decode("viewer.html#trick=3")
    with pytest.raises(ShareError):
        decode(f"viewer.html#{KEY}=" + encode({"n": 1})[:-6] + "x")
    assert decode("#" + KEY + "=" + encode({"n": 1, "deals": []})) == {"n": 1, "deals": []}


# ---- html --viewer -----------------------------------------------------------------------------------

def test_the_viewer_page_is_self_contained_with_the_replay_pages_policy(tmp_path):
    out = tmp_path / "viewer.html"
    result = run("html", "--viewer", "-o", out)
    assert result.exit_code == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert policy.startswith("default-src 'none';") and "connect-src" not in policy
    script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
    digest = "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
    assert f"script-src {digest}" in policy                # only its own script runs
    assert not re.search(r"""(src|href)=["']https?:""", page)  # nothing loaded from anywhere
    assert "DecompressionStream" in script and KEY in script


@pytest.mark.parametrize("extra, named", [
    (["--site"], "--site"), (["--analyse"], "--analyse"), (["--analyse-from", "3"], "--analyse-from"),
    (["--dd"], "--dd"), (["--site", "--analyse"], "--site and --analyse"),
    (["--worlds", "8"], "--worlds"), (["--seed", "0"], "--seed"),     # (were dropped without a word)
])
def test_the_viewer_refuses_the_options_of_a_site_or_an_analysis(tmp_path, extra, named):
    """--viewer ignored --site and --analyse without a word: refused, nothing written."""
    out = tmp_path / "viewer.html"
    result = run("html", "--viewer", *extra, "-o", out)
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert line.startswith("dehlanote: usage: --viewer writes the page that shows a shared deal, which "
                           f"{named} ") and "nothing was written" in line and "\n" not in line
    assert not out.exists()


def test_the_viewer_takes_its_title_its_deck_and_force(tmp_path):
    out = tmp_path / "viewer.html"
    assert run("html", "--viewer", "-o", out).exit_code == 0
    assert "<title>DPN deal viewer</title>" in out.read_text(encoding="utf-8")
    assert run("html", "--viewer", "--title", "Club <deals>", "--four-colour", "-o", out).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert "<title>Club &lt;deals&gt;</title>" in page and '"four":true' in page
    out.chmod(0o444)
    assert run("html", "--viewer", "-o", out).exit_code == 2
    assert run("html", "--viewer", "--force", "-o", out).exit_code == 0
    assert "<title>DPN deal viewer</title>" in out.read_text(encoding="utf-8")
    # in the page's language (it was English on a page in Hindi); a title given stays as given
    hindi = tmp_path / "viewer-hi.html"
    assert run("html", "--viewer", "--lang", "hi", "-o", hindi).exit_code == 0
    assert "<title>DPN बाज़ी दर्शक</title>" in hindi.read_text(encoding="utf-8")
    assert run("html", "--viewer", "--lang", "hi", "--title", "Club", "-o", hindi).exit_code == 0
    assert "<title>Club</title>" in hindi.read_text(encoding="utf-8")


def test_a_shared_deal_knows_the_match_s_last_deal():
    facts = next(replay_games(iter_path(MATCH)))
    from dehlanote.output.html.viewer import share_data
    data = share_data(facts, 3)
    assert [d["n"] for d in data["deals"]] == [3] and data["last"] == 7


def test_the_viewer_takes_no_file_and_html_still_needs_one(tmp_path):
    assert run("html", "--viewer", WORKED, "-o", tmp_path / "v.html").exit_code == 2
    result = run("html", "-o", tmp_path / "p.html")
    assert result.exit_code == 2 and "give a DPN file" in result.stderr


# ---- image ------------------------------------------------------------------------------------------

def test_image_svg_is_the_position_after_the_trick(tmp_path):
    out = tmp_path / "t9.svg"
    result = run("image", WORKED, "--deal", 1, "--trick", 9, "-o", out)
    assert result.exit_code == 0, result.stderr
    root = ET.parse(out).getroot()
    facts = next(replay_games(iter_path(WORKED)))
    snaps = snapshots(facts.deals[0], facts.rules)
    after = [s for s in snaps if s.trick is not None and s.trick.number == 9 and s.complete][0]
    for seat in "ABCD":
        group = root.find(f".//{SVG}g[@data-seat='{seat}']")
        cards = [g.get("data-card") for g in group.iter(f"{SVG}g") if g.get("data-card")]
        assert sorted(cards) == sorted(after.hands[seat])
    texts = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "AC captured 28 cards" in texts and "A to play" in texts and "A Asha" in texts


def test_image_exit_status_counts_the_game_s_errors(tmp_path):
    # a game-level bad-tag, and an error of another deal, gave exit 0 though the help says 1
    path = _record(tmp_path, "badtag.dpn", '[Result "*"]', "[Result *]")
    result = run("image", path, "--deal", 1, "-o", tmp_path / "a.svg")
    assert result.exit_code == 1
    assert "(1 error of the game's own)" in result.stderr
    path = _record(tmp_path, "two.dpn", "\ndeal 2 dealer D", "\ndeal 2 dealer B", deals=2)
    result = run("image", path, "--deal", 1, "-o", tmp_path / "b.svg")
    assert result.exit_code == 1
    assert "(1 error in other deals)" in result.stderr
    path = _record(tmp_path, "badcard.dpn", " 1 A: AH 10H", " 1 A: AH 11H")
    result = run("image", path, "--deal", 1, "-o", tmp_path / "c.svg")
    assert result.exit_code == 1
    assert "(2 errors in the deal)" in result.stderr
    result = run("image", _record(tmp_path, "good.dpn", "", ""), "--deal", 1, "-o", tmp_path / "d.svg")
    assert result.exit_code == 0 and "error" not in result.stderr


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_image_png_is_drawn_from_the_same_svg(tmp_path):
    pytest.importorskip("cairosvg")
    out = tmp_path / "t9.png"
    result = run("image", WORKED, "--deal", 1, "--trick", 9, "--card", 2, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert _png_size(out.read_bytes()) == (960, 680)
    assert "trick 9, card 2" in result.stderr


def test_image_refuses_what_it_cannot_write(tmp_path, monkeypatch):
    assert "written as .svg or .png" in run("image", WORKED, "--deal", 1, "-o", tmp_path / "x.gif").stderr
    assert "deal 1 has no trick 14" in run("image", WORKED, "--deal", 1, "--trick", 14, "-o", tmp_path / "x.svg").stderr
    # a card of no trick drew the table as dealt, saying nothing: it is a usage mistake
    alone = run("image", WORKED, "--deal", 1, "--card", 3, "-o", tmp_path / "x.svg")
    assert alone.exit_code == 2 and "--card 3 counts the cards of a trick: say which with --trick K" in alone.stderr
    assert not (tmp_path / "x.svg").exists()
    assert run("image", WORKED, "--deal", 1, "--card", 0, "-o", tmp_path / "x.svg").exit_code == 0   # before any card
    kept = tmp_path / "kept.svg"
    kept.write_text("mine")
    kept.chmod(0o444)
    result = run("image", WORKED, "--deal", 1, "-o", kept)      # the safe writer refuses it, root or not
    assert result.exit_code == 2 and "will not write" in result.stderr
    assert kept.read_text() == "mine"
    monkeypatch.setitem(sys.modules, "cairosvg", None)          # cairosvg not installed
    result = run("image", WORKED, "--deal", 1, "-o", tmp_path / "x.png")
    assert result.exit_code == 2 and "pip install 'dehlanote[image]'" in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_image_of_a_game_whose_rules_are_unknown_says_so(tmp_path):
    # it said "game 1 has no deal 1 that can be replayed (no deal)" of a game with a deal 1 in
    # it, exit 2 (a usage error): the rules were what stopped it, as share says
    record = tmp_path / "rules.dpn"
    record.write_text(WORKED.read_text(encoding="utf-8").replace('[Rules "standard"]', '[Rules "nonsense"]'),
                      encoding="utf-8")
    out = tmp_path / "x.svg"
    result = run("image", record, "--deal", 1, "-o", out)
    assert result.exit_code == 1
    assert (f"cannot be replayed: {record}:8:1: unknown-rules: \"nonsense\" is not a known rule profile"
            in " ".join(result.stderr.split())) and "(no deal)" not in result.stderr
    assert not out.exists()


@pytest.mark.parametrize("command", ["image", "share"])
def test_a_game_whose_header_has_a_mistake_says_the_mistake_and_where(tmp_path, command):
    # a word in the tags and no deal after: both said "its rules are not known" of a game whose
    # Rules tag was right, where validate says the mistake and its line
    record = tmp_path / "junk.dpn"
    record.write_text('[Event "x"]\n[Rules "standard"]\nfoo bar\n', encoding="utf-8")
    out = tmp_path / "x.svg"
    result = run(command, record, "--deal", 1, *(["-o", out] if command == "image" else []))
    assert result.exit_code == 1, result.stderr
    said = " ".join(result.stderr.split())
    assert said == (f"dehlanote: game 1 of {record} cannot be replayed: {record}:3:1: syntax: expected 'deal' or "
                    f"a tag, found \"foo\" (dehlanote validate {record} says more)"), said
    assert not out.exists()


@pytest.mark.parametrize("command", ["image", "share", "replay"])
def test_a_trick_written_but_not_replayed_is_said_to_be_so(tmp_path, command):
    # (replay --plain --trick 3 printed the deal's heading alone, without a word)
    # trick 3 written with three cards is not replayed: "deal 1 has no trick 3 (tricks 1 to
    # 13)" said the record had no trick 3, and a trick 3 between tricks 1 and 13 at that
    record = tmp_path / "short.dpn"
    record.write_text(WORKED.read_text(encoding="utf-8").replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S 7S"),
                      encoding="utf-8")
    extra = ["-o", tmp_path / "x.svg"] if command == "image" else ["--plain"] if command == "replay" else []
    result = run(command, record, "--deal", 1, "--trick", 3, *extra)
    assert result.exit_code == 2
    assert "deal 1 has a trick 3 written, but it could not be replayed (validate says why)" in result.stderr
    assert "has no trick 3" not in result.stderr
    assert "deal 1 has no trick 14 (tricks 1 to 13)" in run(command, record, "--deal", 1, "--trick", 14,
                                                             *extra).stderr


def test_image_of_the_end_of_a_claimed_deal_says_the_claim_took_the_rest(tmp_path):
    # the last position of a claimed deal holds the claim's cards in the piles (as the stepper's
    # does) while the hands still show them: "the deal is over" left 60 cards on the picture,
    # 8 of them counted twice, with no word of the claim
    lines = WORKED.read_text(encoding="utf-8").split("\n")
    last = next(i for i, line in enumerate(lines) if line.startswith("12 D:"))
    record = tmp_path / "claimed.dpn"
    record.write_text("\n".join(x for x in lines[:last] if not x.startswith("[Result")) + "\nclaim D\n",
                      encoding="utf-8")
    out = tmp_path / "end.svg"
    assert run("image", record, "--deal", 1, "--trick", 11, "-o", out).exit_code == 0
    texts = " ".join("".join(t.itertext()) for t in ET.parse(out).getroot().iter(f"{SVG}text"))
    assert "D claimed the rest" in texts and "the deal is over" not in texts
    assert "BD captured 24 cards" in texts
    assert run("image", record, "--deal", 1, "--trick", 10, "-o", out).exit_code == 0      # before: no claim
    texts = " ".join("".join(t.itertext()) for t in ET.parse(out).getroot().iter(f"{SVG}text"))
    assert "claimed" not in texts and "A to play" in texts
    assert run("image", WORKED, "--deal", 1, "--trick", 13, "-o", out).exit_code == 0     # no claim at all
    assert "the deal is over" in " ".join("".join(t.itertext()) for t in ET.parse(out).getroot().iter(f"{SVG}text"))


def test_image_of_players_with_huge_names_is_drawn_at_once(tmp_path):
    # each name was shortened a letter at a time, measuring the whole rest again each time: a
    # 60,000-letter name took minutes a seat (a 40,000-letter one 90 s), the picture never came
    import subprocess

    names = {"Asha": "A" * 60_000, "Bilal": "\u05d1" * 60_000, "Chitra": "Chi tra " * 8_000, "Dev": "e\u0301" * 30_000}
    text = WORKED.read_text(encoding="utf-8")
    for short, long in names.items():
        text = text.replace(f'"{short}"', f'"{long}"')
    record = tmp_path / "huge.dpn"
    record.write_text(text, encoding="utf-8")
    out = tmp_path / "huge.svg"
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "image", str(record), "--deal", "1", "--trick", "9",
                           "-o", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    root = ET.parse(out).getroot()
    shown = {g.get("data-seat"): "".join(g.find(f"{SVG}text").itertext()) for g in root.iter(f"{SVG}g")
             if g.get("data-seat")}
    assert all(name.endswith("\u2026") and 5 < len(name) < 60 for name in shown.values()), shown
    assert shown["A"].startswith("A AAA") and shown["B"].startswith("B \u05d1")


def test_image_of_a_name_of_a_million_accents_draws_a_few(tmp_path):
    # accents and joiners take no room, so a name of a million of them "fitted" its seat and
    # was drawn whole: 2 MB of SVG, and 20 s of cairo for the PNG
    text = WORKED.read_text(encoding="utf-8").replace('"Asha"', '"A' + "\u0301" * 1_000_000 + '"')
    text = text.replace('"Bilal"', '"B' + "\u200d" * 1_000_000 + 'x"')
    record = tmp_path / "accents.dpn"
    record.write_text(text, encoding="utf-8")
    out = tmp_path / "accents.svg"
    result = run("image", record, "--deal", 1, "--trick", 3, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert out.stat().st_size < 100_000
    root = ET.parse(out).getroot()
    shown = {g.get("data-seat"): "".join(g.find(f"{SVG}text").itertext()) for g in root.iter(f"{SVG}g")
             if g.get("data-seat")}
    assert shown["A"].startswith("A A\u0301\u0301") and shown["A"].endswith("\u2026") and len(shown["A"]) < 300
    assert shown["B"].startswith("B B\u200d") and shown["B"].endswith("\u2026") and len(shown["B"]) < 300


#: characters a record may hold (validate accepts them) that XML cannot, or that reorder text
XML_HOSTILE = ["\x01", "\x0b", "\x0c", "\x1b", "\x00", "\ufffe", "\uffff", "\u202e"]


@pytest.mark.parametrize("ch", XML_HOSTILE, ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize("kind", [".svg", ".png"])
def test_image_of_a_record_with_control_characters_is_well_formed(tmp_path, ch, kind):
    """A control character in Event or a name gave a ParseError traceback (PNG) or SVG that
    is not XML: it is shown as the terminal shows it (a picture, or U+FFFD)."""
    if kind == ".png":
        pytest.importorskip("cairosvg")
    record = tmp_path / "esc.dpn"
    text = WORKED.read_text(encoding="utf-8").replace('[Event "', f'[Event "a{ch}b ').replace('"Asha"', f'"As{ch}ha"')
    record.write_text(text, encoding="utf-8")
    out = tmp_path / f"x{kind}"
    result = run("image", record, "--deal", 1, "--trick", 9, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    if kind == ".png":
        assert _png_size(out.read_bytes()) == (960, 680)
        return
    root = ET.parse(out).getroot()          # well-formed
    shown = "\ufffd" if ch in "\ufffe\uffff\u202e" else chr(0x2400 + ord(ch))
    assert root.find(f"{SVG}title").text.startswith(f"a{shown}b ")
    texts = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert f"A As{shown}ha" in texts


def test_a_failure_of_cairosvg_is_one_coded_line(tmp_path, monkeypatch):
    pytest.importorskip("cairosvg")
    import cairosvg

    def broken(**kw):
        raise ValueError("the drawing broke\nsecond line")
    monkeypatch.setattr(cairosvg, "svg2png", broken)
    out = tmp_path / "x.png"
    result = run("image", WORKED, "--deal", 1, "-o", out)
    assert result.exit_code == 2
    assert result.stderr.strip() == ("dehlanote: image-failed: cairosvg could not draw the PNG (ValueError: the "
                                     "drawing broke); nothing was written (an .svg may still be written)")
    assert not out.exists()


def test_html_takes_its_language_in_any_case(tmp_path):
    # (--lang Hi was "no catalog for the language 'Hi'")
    out = tmp_path / "page.html"
    result = run("html", WORKED, "--lang", "Hi", "-o", out)
    assert result.exit_code == 0, result.stderr
    assert '<html lang="hi">' in out.read_text(encoding="utf-8")
