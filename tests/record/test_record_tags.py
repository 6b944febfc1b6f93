"""A tag line the recorder keeps leaves the record valid, as every other line: a Date that is no
day of the calendar, or a tag typed again in another case ([Foo] then [foo]), was kept, and the
record then had an error validate reports (bad-tag), and could no longer be resumed."""

from __future__ import annotations

import pytest

from dehlanote.record import Session
from dehlanote.replay import replay_game
from dehlanote.syntax import parse_string


def _valid_and_resumed(session: Session) -> None:
    games = parse_string(session.text)
    assert not games[0].errors and not replay_game(games[0]).errors
    again, resumed = Session.resume(session.text)
    assert resumed and again.text == session.text


@pytest.mark.parametrize("date, why", [
    ("2026.13.01", "has no month 13"), ("2026.02.29", "has no day 29: February 2026 has 28 days"),
    ("2026-01-01", "should be YYYY.MM.DD"), ("0000.01.01", "has no year 0000"),
])
def test_a_date_that_is_no_day_is_refused(date: str, why: str) -> None:
    session = Session(tags=(("Date", "2026.11.27"),))
    assert session.feed("dealer D").accepted
    outcome = session.feed(f'[Date "{date}"]')
    assert not outcome.accepted
    assert [e.code for e in outcome.errors] == ["bad-tag"] and why in outcome.errors[0].message
    assert '[Date "2026.11.27"]' in session.text
    _valid_and_resumed(session)


def test_a_leap_day_and_unknown_parts_are_dates() -> None:
    session = Session()
    for date in ("2024.02.29", "2026.??.??", "????.??.??"):
        assert session.feed(f'[Date "{date}"]').accepted, date
    _valid_and_resumed(session)


def test_a_tag_typed_again_in_another_case_replaces_it() -> None:
    session = Session()
    assert session.feed('[Venue "club"]').accepted
    assert session.feed("dealer D").accepted
    assert session.feed('[venue "the club"]').accepted
    assert '[venue "the club"]' in session.text and "Venue" not in session.text
    _valid_and_resumed(session)
    assert session.feed("undo").accepted and '[Venue "club"]' in session.text


@pytest.mark.parametrize("bad, good", [
    ('[Date "2026.13.01"]', '[Date "2026.11.27"]'),
    ('[Event "Friday', '[Event "Friday"]'),
    ('[Annotator Asha]', '[Annotator "Asha"]'),
    ('[Site "club"] [Round one]', '[Site "club"] [Round "one"]'),
    ('[Rules "nosuch"]', '[Rules "pagat"]'),
])
def test_a_refused_tag_line_is_placed_on_the_record_line_it_would_have_become(bad: str, good: str) -> None:
    # every refused tag line was placed at FILE:1:COL (line 1 of the line typed), while a refused
    # card or deal line is placed on the record line it would have become
    earlier = '[Event "last week"]\n[Result "AC"]\n\ndeal 1 dealer D\n'   # (a game before: lines move down)
    session = Session(path="game.dpn", prefix=earlier)
    assert session.feed('[Event "club night"]').accepted
    outcome = session.feed(bad)
    assert not outcome.accepted and outcome.errors
    err = outcome.errors[-1]
    assert err.path == "game.dpn" and err.source_line == bad
    assert bad[err.column - 1:] and err.column > 0
    assert session.feed(good).accepted
    last = good.split("] [")[-1].split()[0].lstrip("[")
    lines = session.text.split("\n")
    assert lines[err.line - 1].startswith(f"[{last} "), (err.line, session.text)
    assert err.line > 4


def test_a_tag_value_and_a_comment_keep_their_commas_and_emoji() -> None:
    # [Event "Friday club, table 3"] was kept as "Friday club  table 3" (a comma is a space between
    # cards, and every comma of a line without a comment was made one); a comment lost its emoji's
    # selector (U+FE0F)
    session = Session()
    assert session.feed('[Event "Friday club, table 3"]').accepted
    assert session.feed('[Site "Pune, India"] [A "Asha \u2764\ufe0f"]').accepted
    assert session.feed("dealer D").accepted
    assert session.feed("trump D").accepted
    assert session.feed("AH,10H, 3H,7H {well played, A \u2764\ufe0f}").accepted
    text = session.text
    assert '[Event "Friday club, table 3"]' in text and '[Site "Pune, India"]' in text
    assert '[A "Asha \u2764\ufe0f"]' in text
    assert " 1 A: AH 10H 3H 7H {well played, A \u2764\ufe0f}" in text
    _valid_and_resumed(session)
