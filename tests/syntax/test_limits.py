"""The reader's limits: a trick, hand, withdrawn run, deal or hands line past its limit stops
the game with one coded error on the token past it, the same in both readings, and a
record at the limit is read in full (its faults are the replayer's to tell).

No real record comes near these limits; they keep a hostile line of millions of cards from
becoming millions of objects (tests/robustness/test_hostile.py measures that).
"""

from __future__ import annotations

import pytest

from dehlanote import iter_games, replay_game
from dehlanote.syntax.parser import MAX_CARDS, MAX_HANDS, MAX_TRICKS, parse_chunk, read_whole
from dehlanote.syntax.reader import Chunk, split_games

from test_fast import compare_text  # (this folder is on the path: pytest puts it there)

HEAD = '[Event "limits"]\n\ndeal 1 dealer D\ntrump S\n'
CARDS = ["AH", "KH", "QH", "JH"]


def cards(n: int) -> str:
    return " ".join(CARDS[i % 4] for i in range(n))


def column_of_word(line: str, k: int) -> int:
    """The 1-based column of the k-th (0-based) word of ``line``."""
    at = 0
    for _ in range(k + 1):
        at = line.index(" ", at) + 1 if _ else 0
        while line[at] == " ":
            at += 1
    return at + 1


def shapes(over: int) -> dict[str, tuple[str, int, int]]:
    """Records ``over`` items past each limit (0: at the limit): text, and where the first
    item past the limit stands (line, word index in that line)."""
    n = MAX_CARDS + over
    trick_line = f"1 {cards(n)}"
    hand_line = f"hands A: {cards(n)}"
    withdrawn_line = "1 " + " ".join(f"-{c}" for c in [CARDS[i % 4] for i in range(n)]) + " AS KS QS JS"
    tricks_line = " ".join(f"{i + 1} AH KH QH JH" for i in range(MAX_TRICKS + over))
    hands_line = "hands " + " ".join(f"{'ABCD'[i % 4]}: AS" for i in range(MAX_HANDS + over))
    return {
        "trick": (HEAD + trick_line + "\n", 5, 1 + MAX_CARDS),
        "trick, fine tokens": (HEAD + "1 " + cards(n).replace(" ", " , ") + "\n", 5, 1 + 2 * MAX_CARDS),
        "trick of lines": (HEAD + "\n".join(f"{i + 1} AH KH QH JH" for i in range(MAX_TRICKS + over)) + "\n",
                           5 + MAX_TRICKS, 0),
        "tricks on one line": (HEAD + tricks_line + "\n", 5, 5 * MAX_TRICKS),
        # the deal read whole with its tens line (the fuzz campaign's seed 4922: 257 tricks were read)
        "trick of lines, tens after": (HEAD + "\n".join(f"{i + 1} AH KH QH JH" for i in range(MAX_TRICKS + over))
                                       + "\ntens AC 2 BD 2\n", 5 + MAX_TRICKS, 0),
        "tricks on one line, tens after": (HEAD + tricks_line + "\ntens AC 2 BD 2\n", 5, 5 * MAX_TRICKS),
        "hand": ('[Event "limits"]\n\ndeal 1 dealer D\n' + hand_line + "\n", 4, 2 + MAX_CARDS),
        "hand after a pipe": ('[Event "limits"]\n\ndeal 1 dealer D\n' + hand_line.replace(" QH", " | QH", 1) + "\n",
                              4, 3 + MAX_CARDS),
        "withdrawn": (HEAD + withdrawn_line + "\n", 5, 1 + MAX_CARDS),
        "hands line": ('[Event "limits"]\n\ndeal 1 dealer D\n' + hands_line + "\n", 4, 1 + 2 * MAX_HANDS),
    }


CODES = {"trick": "trick-size", "trick, fine tokens": "trick-size", "trick of lines": "trick-number",
         "tricks on one line": "trick-number", "trick of lines, tens after": "trick-number",
         "tricks on one line, tens after": "trick-number", "hand": "hand-size", "hand after a pipe": "hand-size",
         "withdrawn": "trick-size", "hands line": "hand-size"}


@pytest.mark.parametrize("shape", sorted(CODES))
def test_past_a_limit_the_game_stops_at_the_token_past_it(shape: str) -> None:
    text, line, word = shapes(1)[shape]
    compare_text(text)      # both readings: the same games and errors (and the whole one does not answer)
    (game,) = iter_games(text)
    assert not game.deals
    assert [e.code for e in game.errors] == [CODES[shape]]
    error = game.errors[0]
    assert "the rest of this game is not read" in error.message
    source_line = text.split("\n")[line - 1]
    assert error.line == line
    assert error.column == column_of_word(source_line, word), (error.column, source_line[:80])
    # the game keeps its tags, and the replay says nothing more than the reader did
    assert game.tag("Event") == "limits"
    assert [e.code for e in replay_game(game).errors] == [CODES[shape]]


@pytest.mark.parametrize("shape", sorted(CODES))
def test_at_a_limit_everything_is_read(shape: str) -> None:
    text, _, _ = shapes(0)[shape]
    compare_text(text)
    (game,) = iter_games(text)
    assert not [e for e in game.errors if e.code != "bad-tag"]
    (deal,) = game.deals
    if shape.startswith("trick") and not shape.startswith(("trick of lines", "tricks on one line")):
        assert len(deal.tricks[0].plays) == MAX_CARDS
    elif shape.startswith(("trick of lines", "tricks on one line")):
        assert len(deal.tricks) == MAX_TRICKS
    elif shape.startswith("hand") and shape != "hands line":
        assert deal.hands is not None and len(deal.hands[0].cards) == MAX_CARDS
    elif shape == "hands line":
        assert deal.hands is not None and len(deal.hands) == MAX_HANDS
    else:   # withdrawn
        assert len(deal.tricks[0].plays[0].withdrawn) == MAX_CARDS
    # the replayer tells what is wrong with such a deal
    assert replay_game(game).errors


def test_the_limit_is_per_trick_and_per_deal() -> None:
    # many cards and tricks over a game, each trick and deal within the limits: all read
    deals = "\n".join(f"deal {d}\n" + "\n".join(f"{t + 1} {cards(40)}" for t in range(MAX_TRICKS // 2))
                      for d in range(1, 4))
    text = '[Event "long"]\n\n' + deals + "\n"
    (chunk,) = split_games(text)
    assert read_whole(chunk) is not None
    (game,) = parse_chunk(chunk)
    assert len(game.deals) == 3 and not game.errors
    assert sum(len(t.plays) for d in game.deals for t in d.tricks) == 3 * (MAX_TRICKS // 2) * 40


def test_the_next_game_is_read() -> None:
    text = shapes(1)["trick"][0] + '\n[Event "next"]\n\ndeal 1 dealer D\ntrump S\n1 AH KH QH JH\n'
    first, second = iter_games(text)
    assert [e.code for e in first.errors] == ["trick-size"]
    assert second.tag("Event") == "next" and len(second.deals) == 1 and not second.errors


def test_a_chunk_of_a_long_line_goes_to_the_fine_reading() -> None:
    text = HEAD + "1 AH {" + "x" * 200_000 + "} KH QH JH\n"
    (chunk,) = split_games(text)
    assert read_whole(chunk) is None     # (the whole reading leaves lines this long to the fine one)
    (game,) = parse_chunk(chunk)
    assert not game.errors and len(game.deals[0].tricks[0].plays) == 4
    assert game.deals[0].tricks[0].plays[0].comments == ("x" * 200_000,)
    assert game == parse_chunk(Chunk(text, 1, 1), whole=False)[0]


def test_fmt_and_annotate_keep_a_stopped_game_as_written(tmp_path) -> None:
    from typer.testing import CliRunner

    from dehlanote.cli import app

    text = shapes(1)["trick"][0] + '\n[Event "next"]\n\ndeal 1 dealer D\ntrump S\n 1  AH KH QH JH\n'
    path = tmp_path / "long.dpn"
    path.write_text(text)
    runner = CliRunner()
    result = runner.invoke(app, ["fmt", str(path)])
    assert result.exit_code == 1
    first, _, second = result.stdout.partition('\n[Event "next"]')
    assert first == shapes(1)["trick"][0]            # every card of the stopped game, as written
    assert "1  AH" not in second and "1 AH KH QH JH" in second     # (the next game is formatted)
    result = runner.invoke(app, ["annotate", "--format", "dpn", str(path)])
    assert result.stdout.startswith(shapes(1)["trick"][0])
    result = runner.invoke(app, ["fmt", "--write", str(path)])
    assert result.exit_code == 1 and path.read_text() == text
