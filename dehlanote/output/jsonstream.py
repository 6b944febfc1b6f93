"""The ``dpn-json/1`` document written as the games are replayed, deal by deal.

The text is exactly that of :func:`dehlanote.output.jsonout.dumps` of
:func:`~dehlanote.output.jsonout.document` (same keys, order and layout, with an indent or
compact), but no game's facts and no game's JSON are ever held whole: each deal's facts
are turned into JSON and written as the replay (:func:`dehlanote.replay.iter_replay`) gives
them, then dropped. A game of 5,000 deals takes the memory of its parsed record plus one
deal, not of all its facts and their JSON.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Iterator, Optional

from ..analysis.judge import claim_judge
from ..replay import iter_replay
from ..replay.facts import DealFact, GameFacts
from ..rules.profile import Registry
from ..syntax.model import Game, Loose
from .jsonout import FORMAT, deal_json, deal_text, dumps, game_json, orjson_compact

__all__ = ["write_document", "write_game"]

Write = Callable[[str], object]


class _Text(str):
    """An item of a streamed array already made JSON text (a compact deal: deal_text)."""


class _Streamed:
    """A JSON array written item by item from an iterator (its items' JSON, one at a time)."""

    def __init__(self, items: Iterator[Any]) -> None:
        self.items = items


def _value(value: Any, indent: Optional[int], level: int) -> str:
    text = dumps(value, indent=indent)
    if indent is None or "\n" not in text:
        return text
    return text.replace("\n", "\n" + " " * (indent * level))


#: each key's JSON text (the document has a few dozen keys, written once a game)
_KEYS: dict[str, str] = {}


def _write_object(write: Write, items: Iterator[tuple[str, Any]], indent: Optional[int], level: int) -> None:
    """Write a JSON object as json.dumps would (at nesting ``level``), its items drawn one by
    one from ``items``: an item whose value is a _Streamed is written as an array item by
    item, and the items after it are drawn only once it is written."""
    if indent is None:
        _write_compact(write, items, level)
        return
    inner = "\n" + " " * (indent * (level + 1))
    write("{")
    first = True
    for key, value in items:
        write(("" if first else ",") + inner + _key(key) + ": ")
        first = False
        if isinstance(value, _Streamed):
            _write_array(write, value.items, indent, level + 1)
        else:
            write(_value(value, indent, level + 1))
    write("}" if first else "\n" + " " * (indent * level) + "}")


def _key(key: str) -> str:
    name = _KEYS.get(key)
    if name is None:
        name = json.dumps(key, ensure_ascii=False)
        if len(_KEYS) < 256:
            _KEYS[key] = name
    return name


def _write_compact(write: Write, items: Iterator[tuple[str, Any]], level: int) -> None:
    """_write_object without an indent: the items between two streamed arrays made text by one
    dumps of them together (a game's dozen keys in two calls, not twelve), the same text
    as each value's own; when that dumps is not orjson's (a value orjson refuses), each
    value is made text on its own, as json.dumps of the whole would."""
    write("{")
    first = True
    run: dict[str, Any] = {}

    def flush() -> None:
        nonlocal first
        text = orjson_compact(run)
        if text is None:
            for key, value in run.items():
                write(("" if first else ",") + _key(key) + ":" + _value(value, None, level + 1))
                first = False
        else:
            write(("" if first else ",") + text[1:-1])
            first = False
        run.clear()

    for key, value in items:
        if isinstance(value, _Streamed):
            if run:
                flush()
            write(("" if first else ",") + _key(key) + ":")
            first = False
            _write_array(write, value.items, None, level + 1)
        else:
            run[key] = value
    if run:
        flush()
    write("}")


def _write_array(write: Write, items: Iterator[Any], indent: Optional[int], level: int) -> None:
    inner = "" if indent is None else "\n" + " " * (indent * (level + 1))
    sep = ","
    count = 0
    write("[")
    for item in items:
        write(("" if count == 0 else sep) + inner)
        if isinstance(item, _GameItem):
            item.write(write, indent, level + 1)
        elif type(item) is _Text:
            write(item)
        else:
            write(_value(item, indent, level + 1))
        count += 1
    write("]" if count == 0 else ("" if indent is None else "\n" + " " * (indent * level)) + "]")


class _GameItem:
    """One game of the document, written as it is replayed."""

    def __init__(self, game: Game, reg: Optional[Registry]) -> None:
        self.game = game
        self.reg = reg
        self.valid = True

    def write(self, write: Write, indent: Optional[int], level: int) -> None:
        _write_object(write, self.items(indent is None), indent, level)

    def items(self, compact: bool = False) -> Iterator[tuple[str, Any]]:
        game = self.game
        replay = iter_replay(game, self.reg, claim_judge)
        # the keys before "deals" need only the tags and the rules
        head = game_json(GameFacts(game._replace(deals=()), replay.rules, (), None, ()))
        keys = list(head)
        at = keys.index("deals")
        for key in keys[:at]:
            yield key, head[key]
        final: list[GameFacts] = []
        replayed = [0]

        def deals() -> Iterator[Any]:
            for item in replay:
                if isinstance(item, DealFact):
                    replayed[0] += 1
                    yield _Text(deal_text(item)) if compact else deal_json(item)
                else:
                    final.append(item)
            # deals the replay did not reach, as written (as game_json keeps them)
            rest = game_json(final[0]._replace(game=game._replace(deals=game.deals[replayed[0]:])))
            final.append(rest)      # type: ignore[arg-type]
            yield from rest["deals"]

        yield "deals", _Streamed(deals())
        tail: dict[str, Any] = final[1]   # type: ignore[assignment]
        self.valid = not final[0].errors
        for key in keys[at + 1:]:
            yield key, tail[key]


def write_game(write: Write, game: Game, reg: Optional[Registry] = None, *, indent: Optional[int] = 2) -> bool:
    """Write one game's JSON object (``game_json`` of its replay) deal by deal; True if valid."""
    item = _GameItem(game, reg)
    item.write(write, indent, 0)
    return item.valid


def write_document(write: Write, games: Iterable["Game | Loose"], reg: Optional[Registry] = None, *,
                   indent: Optional[int] = 2) -> bool:
    """Write the ``dpn-json/1`` document of ``games`` (one at a time, each deal by deal), with a
    final newline. Returns True when every game is valid. Comments in no game (a Loose among
    the games) go to the document's ``comments``, each with the number of games before it
    (the key is written only when there are some)."""
    invalid = [False]
    loose: list[dict[str, Any]] = []

    def tracked() -> Iterator[_GameItem]:
        written = 0
        for game in games:
            if isinstance(game, Loose):
                loose.append({"comments": list(game.comments), "after_games": written,
                              "line": game.line, "column": game.column})
                continue
            item = _GameItem(game, reg)
            yield item
            written += 1
            invalid[0] |= not item.valid

    def items() -> Iterator[tuple[str, Any]]:
        yield "format", FORMAT
        yield "games", _Streamed(tracked())
        if loose:
            yield "comments", loose

    _write_object(write, items(), indent, 0)
    write("\n")
    return not invalid[0]
