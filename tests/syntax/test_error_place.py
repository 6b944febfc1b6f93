"""The deal and trick an error the reader found belongs to (``DpnError.deal`` and ``.trick``).

The readers report where an error is; the replay names the deal it is in (its place in the
game, the number the replay's own errors of that deal carry) and, in a trick line, the trick.
Errors in the tags stay the game's. Every reading (the fine reader, the whole reader with and
without its compiled trick lines) gives the same errors, placed the same way.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote.cli import app
from dehlanote.replay import iter_replay, replay_game
from dehlanote.syntax import whole
from dehlanote.syntax.parser import parse_chunk, parse_string
from dehlanote.syntax.reader import split_games

# the worked example's first deal, hands and tens written (line 11 is trick 2)
BASE = (Path(__file__).resolve().parents[1] / "data" / "one-deal.dpn").read_text(encoding="utf-8")
SECOND = BASE.split("\n", 3)[3].replace("deal 1 dealer D", "deal 2")
TWO = BASE + "\n" + SECOND


def placed(text: str) -> list[tuple[str, int, int, int | None, int | None]]:
    game = parse_string(text)[0]
    return [(e.code, e.line, e.column, e.deal, e.trick) for e in replay_game(game).errors]


def test_a_lower_case_seat_names_its_deal_and_trick() -> None:
    text = BASE.replace("\n 2 A:", "\n 2 a:")
    assert placed(text) == [("syntax", 11, 4, 1, 2)]


def test_a_card_that_is_no_card_names_the_deal_and_the_trick_its_line_left_out() -> None:
    # the trick line is left out (no node): its number is the one that opens the line, and the
    # gap the replay reports carries the same deal and trick
    text = BASE.replace(" 1 A: AH 10H", " 1 A: AH 11H")
    assert placed(text) == [("bad-card", 10, 10, 1, 1), ("trick-number", 11, 2, 1, 1)]


def test_errors_of_the_second_deal_name_it() -> None:
    text = BASE + "\n" + SECOND.replace(" 5 D: 7D AD 5D 2H", " 5 D: 7D AD 5D 2Z")
    assert placed(text) == [("bad-card", 35, 16, 2, 5), ("trick-number", 36, 2, 2, 5)]


def test_an_error_outside_the_tricks_names_the_deal_only() -> None:
    assert placed(BASE.replace("4S AH JH", "4S AX JH")) == [("bad-card", 5, 19, 1, None)]
    assert placed(BASE.replace("tens AC 3", "tens AC x")) == [("syntax", 23, 9, 1, None)]
    # the trump line that could not be read is not told a second time as "no trump line"
    assert placed(BASE.replace("trump D by A", "trump X by A")) == [("syntax", 9, 7, 1, None)]


def test_a_card_on_a_line_the_trick_carries_on_to_names_that_trick() -> None:
    text = BASE.replace(" 5 D: 7D AD 5D 2H", " 5 D: 7D AD\n   5D 2Q")
    assert ("bad-card", 15, 7, 1, 5) in placed(text)


def test_the_deal_is_the_replay_s_number_not_the_one_written() -> None:
    # the first deal written as "deal 2" is deal 1 of the game: its errors all say so
    text = BASE.replace("deal 1 dealer D", "deal 2 dealer D").replace("\n 2 A:", "\n 2 a:")
    assert placed(text) == [("deal-number", 4, 6, 1, None), ("syntax", 11, 4, 1, 2)]


def test_a_deal_line_the_reader_could_not_keep_names_that_deal() -> None:
    # a comment never closed on deal 2's line: the reading stops, deal 1 is kept
    assert placed(TWO.replace("deal 2", "deal 2 {oops")) == [("syntax", 25, 8, 2, None)]
    game, = parse_string(BASE.replace("deal 1 dealer D", "deal 1 dealer D {oops"))
    assert [(e.code, e.deal, e.trick) for e in replay_game(game).errors] == [("syntax", 1, None)]


def test_errors_of_the_tags_stay_the_game_s() -> None:
    assert placed(BASE.replace('[Result "*"]', "[Result *]")) == [("bad-tag", 2, 9, None, None)]
    # a tag after the deals (kept by the game), or a "[" left there, is the game's too
    assert placed(BASE + '[Event "late"]\n\n[Event "next"]\n') == [("bad-tag", 24, 1, None, None)]
    assert placed(BASE + '[\n[Event "next"]\n') == [("bad-tag", 24, 2, None, None)]


def test_the_deal_by_deal_replay_places_them_the_same() -> None:
    text = BASE.replace("\n 2 A:", "\n 2 a:") + "\n" + SECOND.replace(" 5 D: 7D AD 5D 2H", " 5 D: 7D AD 5D 2Z")
    game, = parse_string(text)
    *_, facts = iter_replay(game)
    assert facts.errors == replay_game(game).errors
    assert [(e.code, e.deal, e.trick) for e in facts.errors if e.code != "trick-number"] == [
        ("syntax", 1, 2), ("bad-card", 2, 5)]


MUTATIONS = [
    ("\n 2 A:", "\n 2 a:"), (" 1 A: AH 10H", " 1 A: AH 11H"), ("4S AH JH", "4S AX JH"),
    (" 5 D: 7D AD 5D 2H", " 5 D: 7D AD\n   5D 2Q"), ("\n 7 C:", "\n 7 C"), ("\n13 D: 6D", "\n13 D: 6D !?"),
    ('[Result "*"]', "[Result *]"), ("deal 2", "deal 2 {oops"), ("tens AC 3", "tens AC x"),
    ("\n 9 A: JH", "\n 9 A: -JX JH"),
]


@pytest.mark.parametrize("old, new", MUTATIONS)
def test_every_reading_places_the_errors_alike(old: str, new: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = TWO.replace(old, new)
    assert text != TWO

    def read(whole_first: bool) -> list:
        games = [g for chunk in split_games(text) for g in parse_chunk(chunk, keep_source=True, whole=whole_first)]
        return [(e.code, e.line, e.column, e.deal, e.trick) for g in games for e in replay_game(g).errors]

    fine, fast = read(False), read(True)
    monkeypatch.setattr(whole, "_ctricks", None)
    python = read(True)
    assert fine == fast == python
    assert any(d is not None for _, _, _, d, _ in fine) or new.startswith("[")


def test_validate_and_json_give_the_deal_and_trick(tmp_path) -> None:
    path = tmp_path / "lowerseat.dpn"
    path.write_text(BASE.replace("\n 2 A:", "\n 2 a:"), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["validate", "--format", "json", str(path)])
    assert result.exit_code == 1
    error, = json.loads(result.stdout)["files"][0]["errors"]
    assert (error["code"], error["line"], error["column"], error["deal"], error["trick"]) == ("syntax", 11, 4, 1, 2)
    result = runner.invoke(app, ["json", str(path)])
    assert result.exit_code == 1
    error, = json.loads(result.stdout)["games"][0]["errors"]
    assert (error["code"], error["deal"], error["trick"]) == ("syntax", 1, 2)


INVALID = sorted((Path(__file__).resolve().parents[1] / "invalid").glob("*.dpn"))


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_the_invalid_records_are_placed_alike_on_every_path(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a rank without its suit is the whole reading's own error: it had no line text, so its
    # trick was found only when the game's text was kept (json and validate disagreed)
    text = path.read_bytes().decode("utf-8", "surrogateescape")

    def read(whole_first: bool, keep: bool) -> list:
        games = [g for chunk in split_games(text) for g in parse_chunk(chunk, keep_source=keep, whole=whole_first)]
        return [(e.code, e.line, e.column, e.deal, e.trick) for g in games for e in replay_game(g).errors]

    seen = {read(w, k) == read(False, False) for w in (False, True) for k in (False, True)}
    monkeypatch.setattr(whole, "_ctricks", None)
    seen.add(read(True, False) == read(False, False))
    assert seen == {True}


def test_a_rank_without_its_suit_names_its_trick() -> None:
    assert placed(BASE.replace(" 3 A: 4S 5S", " 3 A: 4S 5")) == [
        ("bad-card", 12, 10, 1, 3), ("trick-number", 13, 2, 1, 3)]
