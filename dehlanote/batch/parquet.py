"""Replayed archives as Parquet: one row per card played, with its trick's and deal's facts.

Needs the ``parquet`` extra (``pip install 'dehlanote[parquet]'``, which brings pyarrow).
The file is written in row groups of ``batch_rows`` plays as the archive streams by, so
memory stays flat whatever the archive's size. Query it with anything that reads Parquet::

    import duckdb
    duckdb.sql("select seat, count(*) from 'plays.parquet' "
               "where card like '10%' and capture_side is not null group by 1")

Columns (:data:`SCHEMA`): ``game`` (index of the game in its file, 0-based), ``source`` (the
file), ``rules``, ``deal`` (number), ``dealer``, ``trump`` (the suit in force for this trick,
null before it is set), ``trick`` (number), ``leader``, ``position`` (0 for the lead),
``seat``, ``card`` (canonical: ``10H``), ``suit``, ``withdrawn`` (cards taken back before
it), ``winner`` (of the trick), ``centre_cards`` (after the trick), ``capture_by``,
``capture_side``, ``capture_cards``, ``capture_tens``, ``capture_reason`` (null when the
trick captured nothing), ``deal_winner`` (side, null for no result), ``tens`` (a map side ->
tens captured in the deal), ``game_errors`` (errors in the game: 0 means a valid record),
``line`` and ``column`` (of the card in the file).

Games are replayed leniently: the plays of a game with errors are written as far as the
replay could follow them, and ``game_errors`` says so.
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from typing import IO, Iterable, NamedTuple, Optional, Sequence, Union

try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("dehlanote.batch.parquet needs pyarrow: pip install 'dehlanote[parquet]'") from exc

from ..analysis.judge import claim_judge
from ..files import write_target
from ..replay.facts import GameFacts
from ..replay.game import replay_game
from ..rules.profile import Registry
from ..syntax.parser import parse_chunk
from ..syntax.reader import Chunk, split_games
from .check import open_checked, printable
from .profiles import load_registry

__all__ = ["SCHEMA", "ExportSummary", "export_parquet", "write_chunks", "facts_rows"]

_STR = pa.string()
SCHEMA = pa.schema([
    ("game", pa.int64()), ("source", _STR), ("rules", _STR),
    ("deal", pa.int32()), ("dealer", _STR), ("trump", _STR),
    ("trick", pa.int16()), ("leader", _STR), ("position", pa.int8()), ("seat", _STR),
    ("card", _STR), ("suit", _STR), ("withdrawn", pa.list_(_STR)),
    ("winner", _STR), ("centre_cards", pa.int16()),
    ("capture_by", _STR), ("capture_side", _STR), ("capture_cards", pa.int16()),
    ("capture_tens", pa.list_(_STR)), ("capture_reason", _STR),
    ("deal_winner", _STR), ("tens", pa.map_(_STR, pa.int8())),
    ("game_errors", pa.int32()), ("line", pa.int32()), ("column", pa.int32()),
])
_NAMES = SCHEMA.names

#: plays per row group (and per batch held in memory)
BATCH_ROWS = 1 << 16


class ExportSummary(NamedTuple):
    """What an export wrote."""

    path: str
    games: int
    deals: int
    rows: int
    errors: int          # errors found in the games (they are exported as far as replayed)


def facts_rows(facts: GameFacts, game: int, source: Optional[str], columns: dict[str, list]) -> int:
    """Append the rows of one replayed game to ``columns`` (name -> list); returns the count."""
    rules = facts.rules.label() if facts.rules is not None else None
    errors = len(facts.errors)
    rows = 0
    c = columns
    for deal in facts.deals:
        tens = list(deal.tens.items()) if deal.tens else None
        for trick in deal.tricks:
            cap = trick.capture
            cap_by, cap_side, cap_cards, cap_tens, cap_reason = (
                (None, None, None, None, None) if cap is None
                else (cap.by, cap.side, cap.cards, list(cap.tens), cap.reason))
            for position, play in enumerate(trick.plays):
                node = play.play
                row = {
                    "game": game, "source": source, "rules": rules, "deal": deal.number, "dealer": deal.dealer,
                    "trump": trick.trump, "trick": trick.number, "leader": trick.leader, "position": position,
                    "seat": play.seat, "card": play.card, "suit": play.card[-1],
                    "withdrawn": [w.card for w in node.withdrawn], "winner": trick.winner,
                    "centre_cards": trick.centre_cards, "capture_by": cap_by, "capture_side": cap_side,
                    "capture_cards": cap_cards, "capture_tens": cap_tens, "capture_reason": cap_reason,
                    "deal_winner": deal.winner, "tens": tens, "game_errors": errors, "line": node.line,
                    "column": node.column,
                }
                for key, value in row.items():
                    c[key].append(value)
                rows += 1
    return rows


def _empty() -> dict[str, list]:
    return {name: [] for name in _NAMES}


def write_chunks(chunks: Iterable[Chunk], writer: "pq.ParquetWriter", reg: Registry, *,
                 source: Optional[str] = None, first_game: int = 0,
                 batch_rows: int = BATCH_ROWS) -> tuple[int, int, int, int]:
    """Parse, replay and write the games of ``chunks``: (games, deals, rows, errors)."""
    columns = _empty()
    games = deals = rows = errors = 0
    pending = 0
    for chunk in chunks:
        for game in parse_chunk(chunk):
            facts = replay_game(game, reg, judge=claim_judge)
            pending += facts_rows(facts, first_game + games, source, columns)
            games += 1
            deals += len(game.deals)
            errors += len(facts.errors)
            if pending >= batch_rows:
                writer.write_batch(pa.record_batch(columns, schema=SCHEMA))
                rows += pending
                columns, pending = _empty(), 0
    if pending:
        writer.write_batch(pa.record_batch(columns, schema=SCHEMA))
        rows += pending
    return games, deals, rows, errors


def export_parquet(source: Union[str, "os.PathLike[str]", IO[bytes], IO[str]], dest: Union[str, "os.PathLike[str]"],
                   registry_files: Sequence[Union[str, "os.PathLike[str]"]] = (), *,
                   name: Optional[str] = None, compression: str = "zstd",
                   batch_rows: int = BATCH_ROWS) -> ExportSummary:
    """Replay every game of ``source`` and write one row per play to the Parquet file ``dest``.

    ``name`` fills the ``source`` column (default: the path, or None for a stream).

    ``dest`` is written as every output is (:func:`dehlanote.files.write_target`): a whole
    new file renamed over the old one, never a half-written file.

    Raises:
        OSError: ``source`` cannot be read (NotText: it is binary data) or ``dest`` written
            (WriteError; OutputRefused, not an OSError, when it is a directory or read-only).
        DpnError: ``unknown-rules`` for a bad registry file.
    """
    reg = load_registry(registry_files)
    if name is None and isinstance(source, (str, os.PathLike)):
        name = printable(os.fspath(source))     # (bytes of a file name that are not UTF-8: U+FFFD)
    with ExitStack() as inputs:
        # the input is opened (and binary data refused) before the output is touched
        stream = inputs.enter_context(open_checked(os.fspath(source))) if isinstance(source, (str, os.PathLike)) \
            else source
        with write_target(dest, binary=True) as sink, \
                pq.ParquetWriter(sink, SCHEMA, compression=compression) as writer:
            counts = write_chunks(split_games(stream), writer, reg, source=name, batch_rows=batch_rows)
    return ExportSummary(os.fspath(dest), *counts)
