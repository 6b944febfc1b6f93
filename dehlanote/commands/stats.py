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
from ..deck import side_of
from ..replay import GameFacts, iter_replay
from ..rules.profile import Rules
from ..stats import ArchiveStats, _Player, date_range, player_name
from .common import (
    RULES_OPTION,
    Exit,
    fail,
    OutputFormat,
    display_name,
    emit,
    err_console,
    expand,
    games_of,
    load_registry,
    once_each,
    out_console,
    wanted_player,
    why,
)


def stats_command(
    files: list[str] = typer.Argument(..., metavar="FILE", help="DPN files or glob patterns; - reads standard input."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f",
                                        help="text: tables; json: one JSON object (the figures of the "
                                             "site's index page)."),
    rules: Optional[Path] = RULES_OPTION,
    player: Optional[str] = typer.Option(None, "--player", "-p", metavar="NAME",
                                         help="Only the games NAME played (a seat tag, any case), and NAME's "
                                              "record: deals, wins, kots, tens captured and lost, partners, "
                                              "games."),
    since: Optional[str] = typer.Option(None, "--since", metavar="DATE",
                                        help="Only games whose Date tag is on or after DATE (YYYY-MM-DD, "
                                             "YYYY-MM or YYYY); undated games are left out."),
    until: Optional[str] = typer.Option(None, "--until", metavar="DATE",
                                        help="Only games whose Date tag is on or before DATE."),
) -> None:
    """Statistics of an archive: deals and matches, deal wins by side and by dealer, kots
    by reason, tens per player, centre sweeps, trump suits, longest streaks, players.

    The files are read one game at a time (flat memory on any archive). Games with errors
    are counted with what could be replayed. Seat counts are given per table size (4 or 6
    players); a seat is a place at the table, so its counts add up different people: the
    Players table counts people by name.

    Exit status: 0 all valid, 1 some record has errors, 2 usage or an unreadable file.

    Example: dehlanote stats samples/*.dpn --player Asha --since 2026
    """
    reg = load_registry(rules)
    try:
        dated = date_range(since, until)
    except ValueError as exc:
        raise fail(str(exc)) from None
    wanted = wanted_player(player)
    stats = ArchiveStats()
    err = err_console()
    unreadable = False
    record = PlayerRecord(wanted)
    undated = 0         # games left out by --since and --until
    for spec in once_each(expand(files)):
        name = display_name(spec)
        try:
            stats.add_file()
            for number, game in enumerate(games_of(spec), 1):
                if not dated(game.tag("Date")):
                    undated += 1
                    continue
                # deal by deal: a game of thousands of deals is counted in the memory of one
                replay = iter_replay(game, reg, claim_judge)
                # every seat the name sits at: two seats of one name are two players, each counted
                # (the totals did; the seats and the games listed named the first seat only)
                seats = record.seats_of(game, replay.rules)
                if wanted is not None and not seats:
                    continue
                count = stats.game(game, replay.rules, name, number)
                table = replay.rules.seats if replay.rules is not None else 4
                won = {side_of(seat, table): 0 for seat in seats}
                complete = 0
                facts: Optional[GameFacts] = None
                for item in replay:
                    if isinstance(item, GameFacts):
                        facts = item
                        continue
                    count.deal(item)
                    if item.complete:
                        complete += 1
                        if item.winner in won:
                            won[item.winner] += 1
                assert facts is not None       # (a replay ends with the game's facts)
                count.end(facts)
                for seat in seats:
                    record.add(facts, seat, name, number, (complete, won[side_of(seat, table)]))
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            err.print(f"dehlanote: cannot read {name}: {why(exc)}", markup=False)
            stats.files -= 1
            unreadable = True
    figures = stats.to_json()
    if since is not None or until is not None:
        figures["dates"] = {"since": since, "until": until}
    if wanted is not None:
        if record.name is None:      # a name mistyped: refused, as review does, with the names there are
            games = f"the {undated} games read are" if undated != 1 else "the one game read is"
            listed = record.known_names() if record.known or not undated else \
                f"none in those dates ({games} of other dates, or undated)"
            raise fail(f"unknown-player: no game{' of those dates' if since or until else ''} has a player called "
                       f"{player!r}; the players are: {listed}")
        figures["player"] = record.json(figures["players"])
    if format is OutputFormat.json:
        emit(json.dumps(figures, ensure_ascii=False, indent=2) + "\n")
    else:
        out = out_console()
        print_tables(out, figures)
        if wanted is not None:
            print_player(out, figures["player"])
    if unreadable:
        raise typer.Exit(Exit.USAGE)
    raise typer.Exit(Exit.INVALID if stats.games_with_errors else Exit.OK)


#: how many names an unknown --player lists
KNOWN_SHOWN = 30


class PlayerRecord:
    """The games of the player ``--player`` names: which seat, and how each game went."""

    def __init__(self, wanted: Optional[str]) -> None:
        self.wanted = wanted
        self.name: Optional[str] = None
        self.seats: dict[str, int] = {}
        self.games: list[dict[str, Any]] = []
        self.known: set[str] = set()
        self.unknown_rules = 0      # the player's games not counted: their rules are unknown

    def seats_of(self, game: Any, rules: Optional[Rules]) -> list[str]:
        """The wanted player's seats in ``game``, in the tags' order (a name written at two seats
        sits at both): seats of its table (a tag ``E`` of a game of four names no one), or of any
        table when its rules are unknown."""
        if self.wanted is None:
            return []
        seats = rules.seat_letters if rules is not None else "ABCDEF"
        found: list[str] = []
        for tag in game.tags:
            # the name as every count knows it (player_name: composed, and "?" is no one's name)
            name = player_name(game, tag.name) if len(tag.name) == 1 and tag.name in seats else None
            if name:
                if name.casefold() == self.wanted:
                    if tag.name not in found:
                        found.append(tag.name)
                elif len(self.known) <= KNOWN_SHOWN:
                    self.known.add(name)
        return found

    def known_names(self) -> str:
        """The names the seat tags gave (the first few, when there are many)."""
        if not self.known:
            return 'none (no game read names its seats with [A "name"] tags)'
        names = sorted(self.known, key=str.casefold)
        more = ", and more" if len(names) > KNOWN_SHOWN else ""
        return ", ".join(names[:KNOWN_SHOWN]) + more

    def add(self, facts: Any, seat: str, source: str, number: int, deals: tuple[int, int]) -> None:
        """One game of the player's: ``deals`` its complete deals and how many the player's side won."""
        game = facts.game
        self.name = self.name or player_name(game, seat)
        if facts.rules is None:
            # not replayed, so counted in no one's record (nor in the database's): said apart
            self.unknown_rules += 1
            return
        self.seats[seat] = self.seats.get(seat, 0) + 1
        n = facts.rules.seats
        side = side_of(seat, n)
        result = facts.result
        outcome = "unfinished"
        if result is not None and result.finished:
            outcome = "level" if result.winner is None else ("won" if result.winner == side else "lost")
        self.games.append({"source": source, "game": number, "date": game.tag("Date"), "event": game.tag("Event"),
                           "seat": seat, "side": side, "result": outcome, "deals": deals[0],
                           "deals_won": deals[1]})

    def json(self, players: dict[str, Any]) -> dict[str, Any]:
        """The record of every spelling of the name --player matched (``Zara`` and ``zara``: the
        games listed are theirs, so the figures are too), its ``spellings`` in order."""
        spellings = sorted((n for n in players if n.casefold() == self.wanted), key=lambda n: (n != self.name, n))
        out: dict[str, Any] = {"name": self.name}
        # (a player whose every game has unknown rules has no row: an empty record, not a crash)
        out.update(_Player().json())
        for name in spellings:
            for key, value in players[name].items():
                if key == "partners":
                    for partner, n in value.items():
                        out[key][partner] = out[key].get(partner, 0) + n
                else:
                    out[key] += value
        out["partners"] = dict(sorted(out["partners"].items()))
        out["spellings"] = spellings
        out["seats"] = dict(sorted(self.seats.items()))
        out["games_list"] = self.games
        out["games_rules_unknown"] = self.unknown_rules
        return out


def print_player(out: Console, p: dict[str, Any]) -> None:
    """The ``--player`` section: the player's record, partners and games."""
    if not p.get("name"):
        return
    out.print()
    also = [n for n in p.get("spellings", ()) if n != p["name"]]
    written = f" (also written {', '.join(also)})" if also else ""
    out.print(f"{p['name']}{written}: {p['games']} games ({p['matches_won']} matches won), {p['deals']} deals: "
              f"{p['deals_won']} won, {p['deals_lost']} lost, {p['kots']} kots; tens captured {p['tens']}, "
              f"lost {p['tens_lost']}; {p['sweeps']} sweeps; seats "
              + (", ".join(f"{s} {n}" for s, n in p["seats"].items()) or "none"), markup=False, highlight=False)
    if p.get("games_rules_unknown"):
        n = p["games_rules_unknown"]
        out.print(f"not counted: {n} game{'s' if n != 1 else ''} of {p['name']}'s whose Rules tag names rules "
                  f"dehlanote does not know (dehlanote validate says which)", markup=False, highlight=False)
    t = _table("Partners", "partner", "deals together")
    for name, n in sorted(p["partners"].items(), key=lambda kv: (-kv[1], kv[0])):
        _row(t, name, str(n))
    out.print(t)
    out.print()
    t = _table(f"Games of {p['name']}", "file", "game", "date", "event", "seat", "result", "deals won")
    for g in p["games_list"]:
        _row(t, g["source"], str(g["game"]), g["date"] or "", g["event"] or "", g["seat"], g["result"],
             f"{g['deals_won']} of {g['deals']}")
    out.print(t)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "-"


def _table(title: str, *columns: str) -> Table:
    """A table titled ``title`` (plain text: a title may hold a player's name, never read as markup)."""
    table = Table(title=Text(title), title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False,
                  show_edge=False, min_width=len(title))
    for i, c in enumerate(columns):
        table.add_column(Text(c), justify="left" if i == 0 else "right")
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
    tables = s["by_table"]
    for size, tb in tables.items():
        at = f" ({size} players)" if len(tables) > 1 else ""
        t = _table(f"Deal wins{at}", "side", "deals", "share")
        decided = sum(tb["won"].values())
        for side, n in tb["won"].items():
            _row(t, side, str(n), _pct(n, decided))
        _row(t, "no result", str(tb["no_result"]), "")
        out.print(t)
        out.print()
        decided = tb["dealing_side_won"] + tb["other_side_won"]
        t = _table(f"Deal wins by dealer position{at}", "dealer", "deals", "dealing side won", "share")
        for seat, d in tb["dealer"].items():
            _row(t, seat, str(d["deals"]), str(d["dealing_side_won"]), _pct(d["dealing_side_won"], d["deals"]))
        _row(t, "all: dealing side", "", str(tb["dealing_side_won"]), _pct(tb["dealing_side_won"], decided))
        _row(t, "all: other side", "", str(tb["other_side_won"]), _pct(tb["other_side_won"], decided))
        out.print(t)
        out.print()
    for size, tb in tables.items():
        t = _table(f"Tens captured by seat ({size} players; a seat is a place, not a person)", "seat", "tens")
        for name, n in tb["tens_by_seat"].items():
            _row(t, name, str(n))
        out.print(t)
        out.print()
    sw = s["sweeps"]
    for title, key, value, counts in (("Kots by reason", "reason", "kots", s["kots"]),
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
        t = _table("Players", "player", "games", "matches won", "deals", "deals won", "kots", "tens",
                   "tens lost", "sweeps")
        for name, p in sorted(s["players"].items(), key=lambda kv: (-kv[1]["deals_won"], kv[0])):
            _row(t, name, *(str(p[k]) for k in ("games", "matches_won", "deals", "deals_won", "kots", "tens",
                                                   "tens_lost", "sweeps")))
        out.print(t)
