"""Issue 27 item 3: a very long plain game keeps its text and reads each deal when asked
(``syntax/lazy.py``); what it gives is what the whole game's model gives, and a game with
an error is read as before (one with a comment deal by deal: tests/syntax/test_pieces.py)."""

from __future__ import annotations

import random

import pytest

from dehlanote import replay_game
from dehlanote.oracle.playout import generate_match
from dehlanote.syntax import parse_string, write_game
from dehlanote.syntax import parser, whole
from dehlanote.syntax.lazy import LAZY_DEALS, LazyDeals


@pytest.fixture(scope="module")
def session() -> str:
    text, _ = generate_match(random.Random(11), "pagat", {"kots": 0}, max_deals=LAZY_DEALS + 150)
    return text


def _eager(text: str, monkeypatch) -> list:
    with monkeypatch.context() as m:
        m.setattr(whole, "LAZY_DEALS", 10 ** 9)
        m.setattr(parser, "LAZY_DEALS", 10 ** 9)
        return parse_string(text)


def test_a_long_game_reads_its_deals_one_at_a_time_and_gives_the_same_model(session, monkeypatch):
    (lazy,) = parse_string(session)
    (eager,) = _eager(session, monkeypatch)
    assert isinstance(lazy.deals, LazyDeals) and type(eager.deals) is tuple
    n = len(eager.deals)
    assert len(lazy.deals) == n > LAZY_DEALS
    assert lazy == eager and lazy.deals == eager.deals and eager.deals == lazy.deals
    for i in (0, 1, n // 2, n - 1, -1, -n):
        assert lazy.deals[i] == eager.deals[i]
    assert lazy.deals[3:9] == eager.deals[3:9] and lazy.deals[-4:] == eager.deals[-4:]
    assert lazy.deals + (eager.deals[0],) == eager.deals + (eager.deals[0],)
    assert list(lazy.deals) == list(eager.deals)
    with pytest.raises(IndexError):
        lazy.deals[n]
    a, b = replay_game(lazy), replay_game(eager)
    assert (a.errors, a.result, a.deals) == (b.errors, b.result, b.deals) and not a.errors
    assert write_game(lazy) == write_game(eager) == write_game(parse_string(write_game(eager))[0])


@pytest.mark.parametrize("mistake", ["card", "comment", "tens"])
def test_a_long_game_with_a_mistake_is_read_whole_and_one_with_a_comment_piece_by_piece(session, monkeypatch,
                                                                                      mistake):
    lines = session.split("\n")
    at = max(i for i, line in enumerate(lines) if line.startswith("tens ")) - 3     # a trick of the last deal
    if mistake == "card":
        lines[at] = lines[at] + " 4X"
    elif mistake == "comment":
        lines[at] = lines[at] + " {a comment}"
    else:
        lines[at + 3] = "tens AC 9"
    text = "\n".join(lines)
    (game,) = parse_string(text)
    (eager,) = _eager(text, monkeypatch)
    assert type(eager.deals) is tuple
    # a comment: the game is no GAME_WHOLE token, it is read deal by deal (tests/syntax/test_pieces.py)
    assert isinstance(game.deals, LazyDeals) if mistake == "comment" else type(game.deals) is tuple
    assert game == eager and game.errors == eager.errors
    if mistake != "comment":
        assert game.errors and game.errors[0].line >= at + 1
