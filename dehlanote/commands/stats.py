"""``dehlanote stats``: archive statistics in the terminal, or as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..analysis.judge import claim_judge
from ..replay import replay_game
from ..stats import ArchiveStats
from .common import (
    RULES_OPTION,
    Exit,
    OutputFormat,
    display_name,
    emit,
    err_console,
    expand,
    games_of,
    load_registry,
    out_console,
    why,
)


def stats_command(
    files: list[str] = typer.Argument(..., metavar="FILE", help="DPN files or glob patterns; - reads standard input."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f",
                                        help="text: tables; json: one JSON object (the figures of the "
                                             "site's index page)."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Statistics of an archive: deals and matches, deal wins by side and by dealer, kots
    by reason, tens per player, centre sweeps, trump suits, longest streaks, players.

    The files are read one game at a time (flat memory on any archive). Games with errors
    are counted with what could be replayed.

    Exit status: 0 all valid, 1 some record has errors, 2 usage or an unreadable file.

    Example: dehlanote stats samples/*.dpn
    """
    reg = load_registry(rules)
    stats = ArchiveStats()
    err = err_console()
    unreadable = False
    for spec in expand(files):
        name = display_name(spec)
        try:
            stats.add_file()
            for number, game in enumerate(games_of(spec), 1):
                stats.add(replay_game(game, reg, judge=claim_judge), name, number)
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            err.print(f"dehlanote: cannot read {name}: {why(exc)}", markup=False)
            stats.files -= 1
            unreadable = True
    figures = stats.to_json()
    if format is OutputFormat.json:
        emit(json.dumps(figures, ensure_ascii=False, indent=2) + "\n")
    else:
        print_tables(out_console(), figures)
    if unreadable:
        raise typer.Exit(Exit.USAGE)
    raise typer.Exit(Exit.INVALID if stats.games_with_errors else Exit.OK)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "-"


def _table(title: str, *columns: str) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False,
                  show_edge=False, min_width=len(title))
    for i, c in enumerate(columns):
        table.add_column(c, justify="left" if i == 0 else "right")
    return table


def _row(table: Table, *cells: str) -> None:
    """A row of plain text: record text (names, file names) is never read as markup."""
    table.add_row(*(Text(c) for c in cells))


def print_tables(out: Console, s: dict[str, Any]) -> None:
    """The figures of ``ArchiveStats.to_json`` as terminal tables."""
    m = s["matches"]
    out.print(f"{s['files']} files, {s['games']} games ({m['finished']} finished, {m['unfinished']} unfinished), "
              f"{s['deals']} deals ({s['complete']} complete), {s['tricks']} tricks; "
              f"{s['games_with_errors']} games with errors", markup=False)
    t = _table("Matches won", "side", "matches")
    for side, n in m["won"].items():
        _row(t, side, str(n))
    if m["level"]:
        _row(t, "level", str(m["level"]))
    out.print(t)
    out.print()
    t = _table("Deal wins", "side", "deals", "share")
    decided = sum(s["won"].values())
    for side, n in s["won"].items():
        _row(t, side, str(n), _pct(n, decided))
    _row(t, "no result", str(s["no_result"]), "")
    out.print(t)
    out.print()
    decided = s["dealing_side_won"] + s["other_side_won"]
    t = _table("Deal wins by dealer position", "dealer", "deals", "dealing side won", "share")
    for seat, d in s["dealer"].items():
        _row(t, seat, str(d["deals"]), str(d["dealing_side_won"]), _pct(d["dealing_side_won"], d["deals"]))
    _row(t, "all: dealing side", "", str(s["dealing_side_won"]), _pct(s["dealing_side_won"], decided))
    _row(t, "all: other side", "", str(s["other_side_won"]), _pct(s["other_side_won"], decided))
    out.print(t)
    out.print()
    sw = s["sweeps"]
    for title, key, value, counts in (("Kots by reason", "reason", "kots", s["kots"]),
                                      ("Tens captured", "seat", "tens", s["tens_by_seat"]),
                                      (f"Centre sweeps: {sw['count']}", "cards in the sweep", "sweeps", sw["size"]),
                                      ("Tens in a sweep", "tens", "sweeps", sw["tens"])):
        t = _table(title, key, value)
        for name, n in counts.items():
            _row(t, name, str(n))
        out.print(t)
        out.print()
    if sw["largest"]:
        big = sw["largest"]
        out.print(f"largest sweep: {big['cards']} cards by {big['by']} ({' '.join(big['tens']) or 'no tens'}), "
                  f"{big['source']} game {big['game']} deal {big['deal']} trick {big['trick']}", markup=False)
    out.print(f"the last trick took the rest of the centre {s['last_trick']['count']} times "
              f"({s['last_trick']['tens']} tens); {s['trick_captures']} single tricks taken; "
              f"{s['claims']['count']} claims ({s['claims']['tens']} tens)", markup=False)
    t = _table("Trump", "suit", "deals", "trump side won", "of", "share")
    for suit, d in s["trump"].items():
        _row(t, d["name"], str(d["deals"]), str(d["trump_side_won"]), str(d["decided"]),
                  _pct(d["trump_side_won"], d["decided"]))
    out.print(t)
    out.print()
    t = _table("Longest streaks", "deals in a row", "side", "players", "file", "game", "to deal")
    for st in s["streaks"]:
        _row(t, str(st["length"]), st["side"], ", ".join(st["players"]), st["source"], str(st["game"]),
                  str(st["deal"]))
    out.print(t)
    out.print()
    if s["players"]:
        t = _table("Players", "player", "games", "matches won", "deals", "deals won", "tens", "sweeps", "kots")
        for name, p in sorted(s["players"].items(), key=lambda kv: (-kv[1]["deals_won"], kv[0])):
            _row(t, name, *(str(p[k]) for k in ("games", "matches_won", "deals", "deals_won", "tens", "sweeps",
                                                   "kots")))
        out.print(t)
