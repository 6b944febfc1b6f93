"""The public API in a few names: read replayed games from a file, play on a table.

>>> import dehlanote
>>> with open("samples/worked-example.dpn") as f:
...     game = dehlanote.read_game(f)
>>> game.deals[0].winner
'AC'

``read_game(f)`` reads the next game of a text stream and replays it (None at the end of
the stream), as python-chess's ``read_game`` does; ``read_games(f)`` iterates them. Claims
are judged double dummy, as ``validate`` judges them. :class:`~dehlanote.replay.table.Table`
is the table to play on.
"""

from __future__ import annotations

import os
import weakref
from typing import IO, Any, Iterator, Optional, Union

from . import inputs
from .analysis.judge import claim_judge
from .output import notebook as _notebook, svg as _svg  # noqa: F401 (the notebook display of facts and tables)
from .replay.table import Table
from .replay.facts import DealFact, GameFacts
from .replay.game import GameReplay, iter_replay as _iter_replay, replay_game as _replay_game, \
    replay_games as _replay_games
from .rules.profile import Registry
from .syntax.model import Game
from .syntax.parser import iter_games

__all__ = ["read_game", "read_games", "replay_game", "replay_games", "iter_replay", "Table", "DealFact", "GameFacts"]

Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]

#: the game reader of each stream read_game has been given, so that each call goes on where
#: the last one stopped (the stream's own position is ahead of it: games are read in blocks)
_READERS: "weakref.WeakKeyDictionary[Any, Iterator[Game]]" = weakref.WeakKeyDictionary()


def read_game(f: Union[IO[str], IO[bytes]], reg: Optional[Registry] = None) -> Optional[GameFacts]:
    """The next game of the stream ``f``, replayed (tags, deals with their facts, errors);
    None when the stream has no more games. Only one game is in memory at a time.

    Raises:
        TypeError: ``f`` is not a stream (a text is read with ``io.StringIO(text)``, a file
            by its name with :func:`read_games`), or one that cannot be weakly referenced
            (its games are read with :func:`read_games`).
    """
    inputs.registry(reg, Registry, "read_game")
    if not inputs.is_stream(f):
        raise TypeError("read_game reads the next game of an open file or stream, not a "
                        f"{type(f).__name__}: give it open(path) or io.StringIO(text), "
                        "or use read_games(path) for a file by its name")
    try:
        reader = _READERS.get(f)
    except TypeError:       # (a stream that cannot be weakly referenced, or hashed: it keeps no place)
        raise TypeError(f"read_game keeps its place in a stream between calls, which a {type(f).__name__} "
                        "does not allow (it cannot be weakly referenced): read its games with "
                        "read_games(f)") from None
    if reader is None:
        # (iter_games's own TypeError, for a stream it cannot read, is told as it is)
        reader = _READERS[f] = iter_games(f)
    game = next(reader, None)
    if game is None:
        _READERS.pop(f, None)
        return None
    return _replay_game(game, reg, judge=claim_judge)


def read_games(source: Source, reg: Optional[Registry] = None) -> Iterator[GameFacts]:
    """Every game of a stream (text or binary) or a file (a path: str or os.PathLike), replayed,
    one at a time.

    Raises:
        TypeError: ``source`` is neither (bytes are refused: a path as bytes is
            ``os.fsdecode(path)``, a record's bytes ``io.BytesIO(data)``), at the call.
        OSError: the file cannot be opened (at the first game).
    """
    inputs.registry(reg, Registry, "read_games")
    if isinstance(source, (str, os.PathLike)):
        return _read_path(source, reg)
    if not inputs.is_stream(source):
        advice = ("for a path given as bytes use os.fsdecode(path), for a record's bytes io.BytesIO(data)"
                  if isinstance(source, inputs.BYTES) else "for a text use io.StringIO(text)")
        raise inputs.refuse("read_games", "a file's path (str or os.PathLike) or an open stream", source, advice)
    return _replay_games(iter_games(source), reg, judge=claim_judge)


def _read_path(path: Union[str, "os.PathLike[str]"], reg: Optional[Registry]) -> Iterator[GameFacts]:
    with open(path, "rb") as stream:
        yield from _replay_games(iter_games(stream), reg, judge=claim_judge)


def replay_game(game: Game, reg: Optional[Registry] = None, *, strict: bool = False,
                dealt_hands: bool = True) -> GameFacts:
    """Replay a parsed game under its rules, collecting every error (claims judged double
    dummy). In strict mode the first error is raised; ``dealt_hands``: see
    :func:`dehlanote.replay.game.replay_game`.

    Raises:
        TypeError: ``game`` is not a parsed game (:class:`~dehlanote.syntax.model.Game`).
        DpnError: in strict mode only.
    """
    inputs.game(game, Game, "replay_game")
    inputs.registry(reg, Registry, "replay_game")
    return _replay_game(game, reg, strict=strict, dealt_hands=dealt_hands, judge=claim_judge)


def replay_games(games: Any, reg: Optional[Registry] = None) -> Iterator[GameFacts]:
    """Replay parsed games one at a time (claims judged double dummy).

    Raises:
        TypeError: ``games`` is not an iterable of parsed games (an item that is not a game:
            when it is reached).
    """
    inputs.registry(reg, Registry, "replay_games")
    return _replay_games(inputs.games(games, Game, "replay_games"), reg, judge=claim_judge)


def iter_replay(game: Game, reg: Optional[Registry] = None) -> GameReplay:
    """Replay a game deal by deal (claims judged double dummy).

    Raises:
        TypeError: ``game`` is not a parsed game.
    """
    inputs.game(game, Game, "iter_replay")
    inputs.registry(reg, Registry, "iter_replay")
    return _iter_replay(game, reg, claim_judge)
