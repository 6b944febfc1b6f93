"""One mistake never hides others (issue 22 items 20-22): a trick of the wrong size is told
and the deal checked on, a trick written in seat order is told once, a card played twice says
where it was first and which card was never played."""

from __future__ import annotations

from pathlib import Path

import dehlanote
from dehlanote.syntax import parse_string

ROOT = Path(__file__).resolve().parents[2]
WORKED = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")


def _errors(text: str):
    facts = dehlanote.replay_game(parse_string(text)[0])
    return [(e.code, e.line, e.column, e.message) for e in facts.errors], facts


def _line(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_a_short_trick_is_told_and_the_rest_of_the_deal_is_still_checked():
    text = WORKED.replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S 7S").replace(" 8 D: 8D 9D 3D 2C", " 8 C: 8D 9D 3D 2C")
    errors, facts = _errors(text)
    codes = [(code, line) for code, line, _c, _m in errors]
    assert ("trick-size", _line(text, " 3 A:")) in codes
    assert ("wrong-leader", _line(text, " 8 C:")) in codes          # after the short trick, still checked
    size = next(m for code, _l, _c, m in errors if code == "trick-size")
    assert "never played in this deal: 9S" in size
    # the missing 9S stays in D's hand: D's ten of trumps on spades led is a revoke, as it is
    assert ("revoke", _line(text, " 7 C:")) in codes
    deal = facts.deals[0]
    assert not deal.complete and deal.winner is None and len(deal.tricks) == 12
    assert any("was not scored: trick 3 has the wrong number of cards" in n for n in facts.notes)


def test_a_short_trick_without_the_next_leader_stops_with_a_note():
    text = WORKED.replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 5S 7S").replace(" 4 D: KC 5C 4C 9C", " 4 KC 5C 4C 9C")
    errors, facts = _errors(text)
    assert [code for code, *_ in errors] == ["trick-size"]
    assert any("who leads after it is not written" in n for n in facts.notes)


def test_a_trick_in_seat_order_is_told_once_and_replayed_in_lead_order():
    text = WORKED.replace(" 4 D: KC 5C 4C 9C", " 4 D: 9C KC 5C 4C")
    errors, facts = _errors(text)
    assert len(errors) == 1
    code, line, column, message = errors[0]
    assert (code, line) == ("not-in-hand", _line(text, " 4 D:"))
    assert "wrong order" in message and "D KC A 5C B 4C C 9C" in message
    good = dehlanote.replay_game(parse_string(WORKED)[0])
    assert [t.winner for t in facts.deals[0].tricks] == [t.winner for t in good.deals[0].tricks]
    assert facts.deals[0].tens == good.deals[0].tens


def test_a_card_played_twice_says_where_it_was_first_and_what_was_never_played():
    text = WORKED.replace(" 5 D: 7D AD 5D 2H", " 5 D: 7D AD 5D AH")
    lines = text.splitlines()
    start = _line(text, "hands ")
    text = "\n".join(lines[:start - 1] + lines[start + 3:]) + "\n"          # no hands: what is played is the hand
    errors, _facts = _errors(text)
    assert len(errors) == 1
    code, line, _column, message = errors[0]
    assert code == "duplicate-card" and line == _line(text, " 5 D:")
    assert f"(in trick 1, line {_line(text, ' 1 A:')})" in message and "never played in this deal: 2H" in message


def test_a_card_dealt_twice_names_the_other_hand():
    text = WORKED.replace("QC 5C\n", "QC 8S\n", 1)
    errors, _facts = _errors(text)
    dup = [m for code, _l, _c, m in errors if code == "duplicate-card"]
    assert dup == ["8S is dealt twice: A's hand has it too; no hand has 5C"]


def test_a_fourth_copy_among_six_players_hands_is_counted_as_such():
    """With three decks, a card written a fourth time is said so ("twice" before), and the card
    it stands for is the one copy short (the hands were added up in 2-bit fields, where the
    fourth copy carried into the next card: "no hand has AH KH QH JH 10H 9H 8H 7H 6H 5H 4H")."""
    six = (ROOT / "samples" / "standard-six-player.dpn").read_text(encoding="utf-8")
    text = six.replace("      B: AH 3H 3D", "      B: AH AH 3D", 1)
    errors, _facts = _errors(text)
    dup = [m for code, _l, _c, m in errors if code == "duplicate-card"]
    assert dup == ["AH is dealt 4 times: there are only 3 of each card; the hands are a copy short of 3H"]


def test_a_fourth_copy_played_among_six_players_says_where_the_three_were():
    """A card played once more than three decks hold: "all 3 copies ... (in trick 1, line 14, and
    twice in trick 3, line 16)", and the card it stands for is the one not played as often as the
    decks hold it (it was "has already been played in this deal (in trick 1, line 14)" and
    "never played in this deal: 4C", when 4C had been played twice)."""
    six = (ROOT / "samples" / "standard-six-player.dpn").read_text(encoding="utf-8")
    lines, out, deal = six.splitlines(), [], 0
    for line in lines:
        deal += line.startswith("deal")
        if deal == 1 and (line.startswith("hands") or line.startswith("      ")):
            continue        # no hands: the play is what there is to check
        out.append(line.replace("14 A: 7C 9C 4C 4C 10C", "14 A: 7C 9C 4C 5C 10C") if deal == 1 else line)
    text = "\n".join(out) + "\n"
    errors, _facts = _errors(text)
    dup = [(line, m) for code, line, _c, m in errors if code == "duplicate-card"]
    first = _line(text, " 1 A:")
    third = _line(text, " 3 D:")
    assert dup == [(_line(text, "14 A:"), f"all 3 copies of 5C have already been played in this deal (in trick 1, "
                                          f"line {first}, and twice in trick 3, line {third}); not played as often "
                                          "as the decks hold them: 4C")]
