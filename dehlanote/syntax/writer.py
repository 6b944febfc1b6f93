"""The canonical DPN form of a game (what ``dehlanote fmt`` writes).

It writes exactly what the model holds, in the canonical layout of docs/notation.md: known
tags first, ``deal N dealer X``, one seat per ``hands`` line with the cards grouped by suit
(S H D C, high to low, the ``|`` kept), the trump line, one trick per line with its number
right-aligned in two columns, the ``tens`` line, blank lines between deals and games,
cards uppercase with ``10``. Facts the record left out (a later deal's dealer, the trick
leaders) are written when the model has them: the replayer can fill them in first
(:func:`dehlanote.replay.explicit`).
"""

from __future__ import annotations

from typing import Any, Iterable

from .. import inputs
from ..deck import sort_key
from .model import Deal, Game, Hand, Play, Tag, Trick, Trump

KNOWN_TAGS = ("Event", "Site", "Date", "Round", "A", "B", "C", "D", "E", "F", "Rules", "Kots", "Result")
_KNOWN_LOWER = {name.lower(): name for name in KNOWN_TAGS}


def _comments(comments: Iterable[str]) -> str:
    return "".join(" {" + c.replace("}", ")") + "}" for c in comments)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def ordered_tags(tags: Iterable[Tag]) -> list[Tag]:
    """Tags in canonical order, known names in their canonical spelling."""
    tags = list(tags)
    known = []
    for name in KNOWN_TAGS:
        for tag in tags:
            if tag.name.lower() == name.lower():
                known.append(tag._replace(name=name))
    rest = [t for t in tags if t.name.lower() not in _KNOWN_LOWER]
    return known + rest


def write_tag(tag: Tag) -> str:
    return f'[{tag.name} "{_escape(tag.value)}"]' + _comments(tag.comments)


def _cards(cards: Iterable[str]) -> str:
    return " ".join(sorted(cards, key=sort_key))


def write_hand(hand: Hand) -> str:
    cards = [c.card for c in hand.cards]
    if hand.split is None:
        text = _cards(cards)
    else:
        text = _cards(cards[: hand.split]) + " | " + _cards(cards[hand.split:])
    return f"{hand.seat}: {text}{_comments(hand.comments)}"


def write_trump(trump: Trump) -> str:
    if trump.drawn is not None:
        text = f"trump drawn {trump.drawn.card}"
    else:
        text = "trump " + str(trump.suit.value if trump.suit else "?")
        if trump.by is not None:
            text += f" by {trump.by.value}"
        if trump.at is not None:
            text += f" at {trump.at.value}"
        if trump.closed:
            text += " closed"
    return text + _comments(trump.comments)


def write_play(play: Play) -> str:
    text = "".join(f"-{w.card} " for w in play.withdrawn) + play.card + (play.glyph or "")
    return text + _comments(play.comments)


def write_trick(trick: Trick) -> str:
    head = f"{trick.number:>2}"
    if trick.leader is not None:
        head += f" {trick.leader.value}:"
    head += _comments(trick.comments)
    return head + " " + " ".join(write_play(p) for p in trick.plays)


def write_deal(deal: Deal) -> list[str]:
    head = "deal"
    if deal.number is not None:
        head += f" {deal.number.value}"
    if deal.dealer is not None:
        head += f" dealer {deal.dealer.value}"
    lines = [head + _comments(deal.comments)]
    lines += ["misdeal" + _comments(m.comments) for m in deal.misdeals]
    if deal.hands:
        hands = sorted(deal.hands, key=lambda h: h.seat)
        lines.append("hands " + write_hand(hands[0]))
        lines += ["      " + write_hand(h) for h in hands[1:]]
    if deal.trump is not None:
        lines.append(write_trump(deal.trump))
    lines += [write_trick(t) for t in deal.tricks]
    lines += [f"revoke {r.seat} at {r.trick} {r.ruling}" + _comments(r.comments) for r in deal.revokes]
    if deal.claim is not None:
        lines.append(f"claim {deal.claim.seat}" + _comments(deal.claim.comments))
    if deal.tens is not None:
        pairs = " ".join(f"{side.value} {count.value}" for side, count in deal.tens.counts)
        lines.append(f"tens {pairs}" + _comments(deal.tens.comments))
    return lines


def write_game(game: Game) -> str:
    """The canonical text of one game, ending with a newline.

    Raises:
        TypeError: ``game`` is not a parsed game (:class:`~dehlanote.syntax.model.Game`).
    """
    inputs.game(game, Game, "write_game")
    lines = ["{" + c.replace("}", ")") + "}" for c in game.comments]
    lines += [write_tag(t) for t in ordered_tags(game.tags)]
    for deal in game.deals:
        if lines:
            lines.append("")
        lines += write_deal(deal)
    return "\n".join(lines) + "\n"


def write_games(games: Iterable[Game]) -> str:
    """The canonical text of several games, a blank line between them.

    Raises:
        TypeError: ``games`` is not an iterable of parsed games.
    """
    return "\n".join(write_game(g) for g in inputs.games(games, Game, "write_games"))


def _unplaced(node: Any) -> Any:
    """A model node with every position set to 0, recursively."""
    if isinstance(node, tuple):
        fields = getattr(node, "_fields", None)
        if fields is None:
            return tuple(_unplaced(x) for x in node)
        values = {f: _unplaced(getattr(node, f)) for f in fields}
        for f in ("line", "column"):
            if f in values:
                values[f] = 0
        return type(node)(**values)
    return node


def normal_form(game: Game) -> Game:
    """What the canonical text of ``game`` keeps, as a model to compare: positions, the
    kept source and errors dropped, tags in canonical order and spelling, hands by seat and
    their cards in canonical order (each side of the ``|``)."""
    deals = []
    for deal in game.deals:
        hands = deal.hands
        if hands is not None:
            hands = tuple(
                h._replace(cards=tuple(sorted(h.cards[: h.split], key=lambda c: sort_key(c.card)))
                           + tuple(sorted(h.cards[h.split:], key=lambda c: sort_key(c.card))))
                if h.split is not None else h._replace(cards=tuple(sorted(h.cards, key=lambda c: sort_key(c.card))))
                for h in sorted(hands, key=lambda h: h.seat))
        deals.append(deal._replace(hands=hands))
    plain = game._replace(tags=tuple(ordered_tags(game.tags)), deals=tuple(deals), errors=(),
                          source=None, source_line=0)
    return _unplaced(plain)


def reads_back(game: Game, text: str) -> bool:
    """Whether ``text`` (the canonical text of ``game``) reads back as exactly that game."""
    from .parser import parse_string

    again = parse_string(text)
    return len(again) == 1 and not again[0].errors and normal_form(again[0]) == normal_form(game)
