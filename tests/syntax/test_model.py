"""The model's named constructors are its classes' fields, in order, with the same defaults:
the one place besides the class that knows the order of a node's fields."""

from __future__ import annotations

import inspect

import pytest

from dehlanote.syntax import model

KINDS = [("make_word", model.Word), ("make_card", model.CardRef), ("make_tag", model.Tag), ("make_play", model.Play),
         ("make_trick", model.Trick), ("make_hand", model.Hand), ("make_trump", model.Trump),
         ("make_misdeal", model.Misdeal), ("make_tens", model.Tens), ("make_claim", model.Claim),
         ("make_deal", model.Deal), ("make_game", model.Game)]


@pytest.mark.parametrize(("name", "kind"), KINDS, ids=[k[0] for k in KINDS])
def test_constructor_is_the_class(name: str, kind: type) -> None:
    make = getattr(model, name)
    params = inspect.signature(make).parameters
    assert tuple(params) == kind._fields                         # type: ignore[attr-defined]
    defaults = {k: p.default for k, p in params.items() if p.default is not inspect.Parameter.empty}
    assert defaults == kind._field_defaults                       # type: ignore[attr-defined]
    # each field given a value of its own: the node built is the class's, field by field
    values = {field: (field, i) for i, field in enumerate(kind._fields)}    # type: ignore[attr-defined]
    node = make(**values)
    assert type(node) is kind and node == kind(**values)


def test_with_comments_adds_after_the_nodes_own() -> None:
    play = model.make_play("AH", 3, 5, comments=("a",))
    assert model.with_comments(play, ["b", "c"]) == play._replace(comments=("a", "b", "c"))
    deal = model.make_deal(1, 1)
    assert model.with_comments(deal, ("x",)).comments == ("x",) and model.with_comments(deal, ("x",)).claim is None


def test_make_cards_places_each_card() -> None:
    assert model.make_cards(["AS", "10H"], 4, [9, 12]) == (model.CardRef("AS", 4, 9), model.CardRef("10H", 4, 12))


def test_a_plain_trick_in_one_call_is_the_trick_of_its_parts() -> None:
    plain = model.make_plain_trick(3, 7, 2, "A", 4, "AH", 7, "10H", 10, "3H", 14, "7H", 17)
    plays = tuple(model.make_play(c, 7, a) for c, a in (("AH", 7), ("10H", 10), ("3H", 14), ("7H", 17)))
    assert plain == model.Trick(3, 7, 2, plays, model.Word("A", 7, 4))
    assert model.make_plain_trick(3, 7, 2, None, 0, "AH", 7, "10H", 10, "3H", 14, "7H", 17).leader is None
