"""Every error code of NOTATION.md comes from at least one invalid record, at the right place."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from dehlanote import CODES
from dehlanote.oracle.playout import generate_match
from dehlanote.replay import replay_game
from dehlanote.syntax import parse_string

ROOT = Path(__file__).resolve().parents[2]
HEAD = '[Event "errors"]\n[Result "*"]\n\ndeal 1 dealer D\ntrump D by A\n'   # lines 1-5
HANDS = ("hands A: AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S\n"
         "      B: AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H\n"
         "      C: AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D\n"
         "      D: AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C\n")

# (code, record, line, column) — the first error of the record
SMALL = [
    ("syntax", HEAD + " 1 A: AH 10H 3H 7H tens\n", 6, 24),  # just after the last token
    ("bad-card", HEAD + " 1 A: AH 1H 3H 7H\n", 6, 10),
    ("bad-tag", '[Event "x"]\n[Event "y"]\ndeal 1 dealer D\ntrump D by A\n', 2, 1),
    ("bad-tag", '[Date "27/11/2026"]\n[Result "*"]\ndeal 1 dealer D\ntrump D by A\n', 1, 1),
    ("unknown-rules", '[Rules "bridge"]\n[Result "*"]\ndeal 1 dealer D\ntrump D by A\n', 1, 1),
    ("unknown-rules", '[Rules "standard kots=x"]\n[Result "*"]\ndeal 1 dealer D\n', 1, 1),
    ("duplicate-card", HEAD + " 1 A: AH 2H 3H 4H\n 2 A: KH AH 5H 6H\n", 7, 10),
    ("hand-size", '[Result "*"]\ndeal 1 dealer D\nhands A: AS KS\ntrump D by A\n', 3, 7),
    ("not-in-hand", '[Result "*"]\ndeal 1 dealer D\n' + HANDS + "trump D by A\n 1 A: AH AS AD AC\n", 8, 7),
    ("revoke", HEAD + " 1 A: AH 2S 3H 4H\n 2 A: KH 5H 6H 7H\n", 6, 10),
    ("revoke", '[Result "*"]\ndeal 1 dealer D\n'
     + HANDS.replace(" 2S", " 2X").replace(" 2H", " 2S").replace(" 2X", " 2H")
     + "trump D by A\n 1 A: AS KH? AD AC\n", 8, 10),
    ("needless-correction", HEAD + " 1 A: AH -3H 2H 4H 5H\n", 6, 10),
    ("trick-size", HEAD + " 1 A: AH 2H 3H\n", 6, 2),
    ("trick-number", HEAD + " 1 A: AH 2H 3H 4H\n 3 A: KH 5H 6H 7H\n", 7, 2),
    ("wrong-leader", HEAD + " 1 B: AH 2H 3H 4H\n", 6, 4),
    ("incomplete-deal", '[Event "x"]\ndeal 1 dealer D\ntrump D by A\n 1 A: AH 2H 3H 4H\n', 2, 1),
    ("deal-number", '[Result "*"]\ndeal 2 dealer D\ntrump D by A\n', 2, 6),
    ("wrong-dealer", '[Result "*"]\ndeal 1\ntrump D by A\n', 2, 1),
    ("missing-trump", '[Result "*"]\ndeal 1 dealer D\n 1 A: AH 2H 3H 4H\n', 2, 1),
    ("wrong-announcer", '[Result "*"]\ndeal 1 dealer D\ntrump D by B\n', 3, 12),
    ("trump-mismatch", '[Result "*"]\ndeal 1 dealer D\ntrump D by A at 3\n', 3, 17),
    ("trump-mismatch", '[Rules "hukum"]\n[Result "*"]\ndeal 1 dealer D\ntrump S by B at 1\n'
                       " 1 A: AH 2D 3H 4H\n", 4, 7),
    ("result-mismatch", '[Result "AC"]\n[Event "no deal played"]\n', 1, 1),
    ("unsound-claim", HEAD + " 1 A: AH 2H 3H 4H\nclaim E\n", 7, 1),
    ("encoding", b'[Event "caf\xe9"]\n'.decode("latin-1"), None, None),  # bytes case below
]


def first_error(text: str):
    games = parse_string(text)
    errors = [e for g in games for e in replay_game(g).errors]
    assert errors, "expected an error"
    return errors[0]


@pytest.mark.parametrize("code,text,line,column", [r for r in SMALL if r[0] != "encoding"],
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(SMALL) if r[0] != "encoding"])
def test_error_code_at_its_token(code, text, line, column):
    error = first_error(text)
    assert (error.code, error.line, error.column) == (code, line, column), str(error)
    assert error.message and "CARD" not in error.message and "__" not in error.message


def test_encoding_error_names_the_byte_offset():
    from dehlanote.syntax import iter_games
    import io
    games = list(iter_games(io.BytesIO(b'[Event "caf\xe9"]\n[Result "*"]\ndeal 1 dealer D\ntrump D by A\n')))
    error = replay_game(games[0]).errors[0]
    assert (error.code, error.line, error.column, error.offset) == ("encoding", 1, 12, 11)
    assert "11" in error.message


# ---- whole-match errors, on a generated match ----------------------------------------------

def _match(seed: int = 7, **kw):
    text, facts = generate_match(random.Random(seed), "standard", None, max_deals=40, **kw)
    assert replay_game(parse_string(text)[0]).errors == ()
    return text, facts


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def test_wrong_dealer_on_a_later_deal():
    text, facts = _match()
    assert len(facts["deals"]) > 1
    second = [m for m in re.finditer(r"^deal 2 dealer ([A-D])", text, re.M)][0]
    wrong = "ABCD"[("ABCD".index(second.group(1)) + 1) % 4]
    bad = text[: second.start(1)] + wrong + text[second.end(1):]
    error = first_error(bad)
    assert (error.code, *_line_col(bad, second.start(1))) == ("wrong-dealer", error.line, error.column)
    assert error.deal == 2


def test_tens_mismatch():
    text, _ = _match()
    m = re.search(r"^tens AC (\d) BD (\d)", text, re.M)
    a, b = int(m.group(1)), int(m.group(2))
    bad = text[: m.start()] + f"tens AC {b} BD {a}" + text[m.end():]
    if a == b:
        bad = text[: m.start()] + f"tens AC {a + 1} BD {b - 1}" + text[m.end():]
    error = first_error(bad)
    assert (error.code, error.line, error.column) == ("tens-mismatch", *_line_col(bad, m.start()))


def test_result_mismatch_and_after_match():
    text, facts = _match()
    winner = facts["result"]["winner"]
    loser = "BD" if winner == "AC" else "AC"
    bad = text.replace(f'[Result "{winner}"]', f'[Result "{loser}"]')
    error = first_error(bad)
    assert error.code == "result-mismatch" and error.line == _line_col(bad, bad.index("[Result"))[0]
    # a deal after the kot that ended the match
    extra = text.rstrip("\n") + "\n\ndeal\n"
    error = first_error(extra)
    assert (error.code, error.line) == ("after-match", extra.count("\n"))


def test_every_code_has_a_record():
    covered = {r[0] for r in SMALL} | {"wrong-dealer", "tens-mismatch", "result-mismatch", "after-match"}
    assert covered == set(CODES)


def test_errors_in_one_game_do_not_stop_the_next():
    good, _ = _match(3)
    text = HEAD + " 1 B: AH 2H 3H 4H\n\n" + good + "\n" + HEAD + " 1 A: AH 2H 3H\n"
    games = parse_string(text)
    results = [replay_game(g) for g in games]
    assert [[e.code for e in r.errors] for r in results] == [["wrong-leader"], [], ["trick-size"]]


def test_all_errors_are_collected_and_strict_mode_raises_the_first():
    from dehlanote import DpnError
    text = HEAD + " 1 B: AH 2H 3H 4H\n 3 A: KH 5H 6H 7H\n"
    game = parse_string(text)[0]
    codes = [e.code for e in replay_game(game).errors]
    assert codes == ["wrong-leader", "trick-number"]
    with pytest.raises(DpnError) as info:
        replay_game(game, strict=True)
    assert info.value.code == "wrong-leader"


# ---- issue 10: cascading errors -----------------------------------------------------------------
# A structural fault (a missing, repeated or short trick) is reported once; the revokes, hands
# and tens that would follow only from it are not.

def _trick_lines(text: str) -> list[re.Match]:
    return list(re.finditer(r"^ ?\d{1,2} [A-F]: .*\n", text, re.M))


@pytest.mark.parametrize("hands", [False, True])
def test_one_missing_trick_line_gives_one_error(hands):
    from dehlanote.oracle.playout import Style
    rng = random.Random(11)
    checked = 0
    for _ in range(12):
        text, _facts = generate_match(rng, "standard", None, Style(hands=hands), max_deals=6)
        lines = _trick_lines(text)
        for m in rng.sample(lines, 4):
            bad = text[: m.start()] + text[m.end():]
            errors = [e for g in parse_string(bad) for e in replay_game(g).errors]
            number = int(m.group(0).split()[0])
            expected = "incomplete-deal" if number == 13 else "trick-number"
            assert [e.code for e in errors] == [expected], [str(e) for e in errors]
            if number < 13:
                assert errors[0].message.startswith(f"trick {number} is missing")
                assert errors[0].line == _line_col(bad, m.start())[0]
            checked += 1
    assert checked == 48


def test_a_repeated_trick_line_gives_one_error_and_the_deal_replays():
    text, facts = _match()
    m = _trick_lines(text)[6]
    bad = text[: m.end()] + m.group(0) + text[m.end():]
    result = replay_game(parse_string(bad)[0])
    assert [(e.code, e.line) for e in result.errors] == [("trick-number", _line_col(bad, m.end())[0])]
    assert "written twice" in result.errors[0].message
    assert [d.winner for d in result.deals] == [d["winner"] for d in facts["deals"]]


def test_a_short_trick_gives_one_error_and_no_tens_mismatch():
    text, _ = _match()
    m = _trick_lines(text)[4]
    short = m.group(0).rsplit(" ", 1)[0] + "\n"
    bad = text[: m.start()] + short + text[m.end():]
    errors = replay_game(parse_string(bad)[0]).errors
    assert [e.code for e in errors] == ["trick-size"]


def test_a_wrong_number_on_the_right_trick_is_one_error():
    text, facts = _match()
    m = _trick_lines(text)[3]
    number = int(m.group(0).split()[0])
    bad = text[: m.start()] + m.group(0).replace(f"{number} ", f"{number + 5} ", 1) + text[m.end():]
    result = replay_game(parse_string(bad)[0])
    assert [e.code for e in result.errors] == ["trick-number"]
    assert [d.winner for d in result.deals] == [d["winner"] for d in facts["deals"]]


def test_a_short_trick_before_the_first_void_does_not_hide_the_card_that_set_trump():
    # trick 1 has one card (not replayed), so trick 2 is the first trick replayed: the void
    # that set trump is found by its number, not by its place among the tricks replayed
    text = ('[Rules "hukum"]\n[Result "*"]\ndeal 1 dealer D\ntrump D by A at 2\n'
            " 1 A: 7C\n 2 A: AD QS 6D JD\n")
    errors = replay_game(parse_string(text)[0]).errors
    said = {(e.code, e.line, e.column, e.message) for e in errors}
    assert ("trump-mismatch", 4, 7, "trump was set to spades by B's QS at trick 2, not diamonds") in said
    assert ("wrong-announcer", 4, 12, "trump was set by B, the first player unable to follow suit, not A") in said
    assert ("trick-size", 5, 2, "trick 1 has only one card; each of the 4 players plays one") in said


def test_a_revoke_ruling_after_a_short_trick_is_found_at_its_own_trick():
    # trick 1 has three cards (not replayed): "revoke B at 2" is B's 5S of trick 2, which the
    # table ruled on, not B's card of the trick replayed second-to-last (trick 3)
    text = ('[Result "*"]\ndeal 1 dealer D\ntrump D by A\n 1 A: AH 2H 3H\n 2 A: KH 5S 6H 7H\n'
            " 3 A: QH 8H 9H 10H\nrevoke B at 2 stands\n")
    facts = replay_game(parse_string(text)[0])
    assert [(e.code, e.line, e.column) for e in facts.errors] == [("trick-size", 4, 2)]
    assert [(e.code, e.line, e.column) for e in facts.ruled] == [("revoke", 5, 10)]
    assert facts.ruled[0].message.endswith("the play stands")


def test_a_claim_after_a_trick_of_the_wrong_size_does_not_score_the_deal():
    # who won the short trick is unknown, so the deal is not scored (as its note says): the
    # claim used to score it all the same (a kot, the match over, and a result-mismatch error
    # drawn from that)
    worked = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    text = worked.replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S 7S")
    text = text[:text.index(" 6 A:")] + "claim A\n"
    facts = replay_game(parse_string(text)[0])
    assert [e.code for e in facts.errors] == ["trick-size"]
    deal = facts.deals[0]
    assert not deal.complete and deal.winner is None and deal.kot is None
    assert not facts.result.finished and facts.result.winner is None
    assert deal.claim is not None and deal.claim.by == "A"
    assert "deal 1 was not scored: trick 3 has the wrong number of cards" in " ".join(facts.notes)


def test_a_trick_written_twice_and_one_of_the_wrong_size_are_told_apart():
    # trick 2 written twice (left out, not counted) and trick 3 of three cards (counted, not
    # replayed): only trick 3's cards were played before trick 4
    worked = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    two = " 2 A: AS QS 2S 10S {two in a row: A sweeps all 8 cards, 10H and 10S, to AC}\n"
    text = worked.replace(two, two + " 2 A: AS QS 2S 10S\n").replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S 7S")
    facts = replay_game(parse_string(text)[0])
    deal = facts.deals[0]
    assert [e.code for e in facts.errors][:2] == ["trick-number", "trick-size"]
    assert [t.number for t in deal.tricks] == [1, 2] + list(range(4, 14))
    assert {i: [[p.card for p in w.plays] for w in ws] for i, ws in deal.counted_before.items()} == {
        2: [["4S", "5S", "7S"]]}
    assert deal.skipped_trick == 3 and deal.next_trick == 14
    assert [(t.number, len(t.plays)) for t in deal.unreplayed] == [(2, 4), (3, 3)]


@pytest.mark.parametrize("date, why", [
    # in the notation's form, and no day of the calendar: read as a date before (season 2026,
    # sort key 2026-13) by stats and the database, and valid to validate
    ("2026.13.05", "has no month 13 (months are 01 to 12)"),
    ("2026.00.??", "has no month 00 (months are 01 to 12)"),
    ("2026.02.30", "has no day 30: February 2026 has 28 days"),
    ("2026.02.29", "has no day 29: February 2026 has 28 days"),
    ("2026.04.31", "has no day 31: April 2026 has 30 days"),
    ("2026.??.32", "has no day 32: a month has at most 31 days"),
    ("0000.01.01", "has no year 0000 (the first year is 0001)"),
])
def test_a_date_that_is_no_day_of_the_calendar_is_a_bad_tag(date, why):
    text = f'[Event "x"]\n[Date "{date}"]\n[Result "*"]\ndeal 1 dealer D\ntrump D by A\n'
    errors = replay_game(parse_string(text)[0]).errors
    assert [(e.code, e.message, e.line, e.column) for e in errors] == [
        ("bad-tag", f'the Date "{date}" {why}', 2, 1)]


@pytest.mark.parametrize("date", ["2024.02.29", "????.02.29", "2026.??.31", "2026.12.31", "0001.01.01", "2026.??.??"])
def test_every_day_of_the_calendar_is_a_date(date):
    text = f'[Date "{date}"]\n[Result "*"]\ndeal 1 dealer D\ntrump D by A\n'
    assert replay_game(parse_string(text)[0]).errors == ()



def _stopped_after_trick_6(tens_line: str) -> str:
    """The worked example, its record stopped after trick 6 (Result "*"), with a tens line."""
    kept = []
    for line in (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8").splitlines():
        first = line.split()[0].rstrip(".") if line.split() else ""
        if (first.isdigit() and int(first) > 6) or first == "tens":
            continue
        kept.append(line)
    return "\n".join(kept).rstrip() + "\n" + tens_line + "\n"


@pytest.mark.parametrize("tens_line, said, column", [
    # a deal the record stops in ignored its tens line whole
    ("tens AC 1 AC 2", "the tens line must name each side once: AC and BD", 11),
    ("tens ACE 1 BDF 3", "the tens line must name each side once: AC and BD", 6),
    ("tens AC 2 BD 1", "the tens line counts 3 tens: a deal has 4", 1),
    ("tens AC 0 BD 4", "AC has taken 2 tens already, not 0", 1),
])
def test_the_tens_line_of_a_deal_the_record_stops_in_is_checked_for_what_is_known(tens_line, said, column):
    game = parse_string(_stopped_after_trick_6(tens_line))[0]
    errors = [(e.code, e.message, e.column) for e in replay_game(game).errors]
    assert errors == [("tens-mismatch", said, column)]


@pytest.mark.parametrize("tens_line", ["tens AC 3 BD 1", "tens BD 2 AC 2", "tens AC 4 BD 0"])
def test_a_tens_line_that_may_yet_be_true_is_kept_on_a_deal_the_record_stops_in(tens_line):
    game = parse_string(_stopped_after_trick_6(tens_line))[0]
    assert replay_game(game).errors == ()
