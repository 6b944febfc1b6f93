"""Archive statistics, gathered in one streaming pass over replayed games.

:class:`ArchiveStats` takes one :class:`~dehlanote.replay.facts.GameFacts` at a time
(:meth:`ArchiveStats.add`) and keeps only counters, a few bounded top lists and one row
per named player, so an archive of any size is summed in flat memory. Everything counted
is an engine fact: deal winners, kots and their reasons, captures and the tens in them,
trump and who set it, streaks. :meth:`ArchiveStats.to_json` is what ``dehlanote stats
--format json`` prints and what the site's index draws.

What is counted (only complete deals count towards deal results):

- ``deals``: deals replayed; ``complete``: deals played to the end; ``won``: deals won per
  side; ``no_result``: complete deals without a winner (a level split under ``level=none``).
- ``dealing_side_won`` / ``other_side_won``: deals won by the dealer's side and the other, in total.
- ``by_table``: per table size (``"4"``, ``"6"`` players: sides AC/BD or ACE/BDF, never mixed):
  ``deals``, ``complete``, ``won`` per side, ``no_result``, ``dealer`` (per dealing seat the
  deals it dealt and how many the dealing side won), ``dealing_side_won``, ``other_side_won``,
  ``tens_by_seat`` and ``tens_by_side``. A seat is a place at the table: across games it is
  different people (``players`` counts people by name).
- ``kots``: kots by reason (``all-tens``, ``streak``, ``all-tricks``).
- ``tens_by_seat`` / ``tens_by_player``: tens captured by each seat's captures (a sweep
  takes the tens in it to the sweeper; a claim takes the tens left, in the centre and in
  hand, to the claimer), and by player name where the record names players; so the seats'
  tens add up to ``tens_by_side`` (``claims``: how many, and their tens).
- ``sweeps``: captures of the centre by two wins in a row (``count``, histograms of
  ``size`` in cards and of ``tens`` in them, the largest); ``last_trick``: the centre left
  to the last trick; ``trick_captures``: captures of single tricks (immediate capture).
- ``trump``: deals per trump suit, and per suit how often the side that set trump won.
- ``streaks``: the longest runs of consecutive deal wins (top 5).
- ``players``: per named player: games, matches won, deals played, won and lost, kots, tens
  captured (``tens``) and lost (played by the player, taken by the other side), sweeps, and
  ``partners`` (name -> deals played together).
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from typing import Any, Callable, Iterable, Optional

from .deck import SUIT_NAMES, SUITS, side_of
from .replay.facts import DealFact, GameFacts
from .replay.game import player_name, read_date
from .rules.profile import Rules
from .syntax.model import Game

__all__ = ["ArchiveStats", "GameCount", "archive_stats", "date_parts", "date_range", "player_name", "TOP"]

#: how many of the longest streaks are kept
TOP = 5



def date_parts(text: Optional[str]) -> tuple[Optional[str], Optional[int], Optional[str]]:
    """A ``Date`` tag (``2026.11.27``, ``2026.03.??``) as (ISO date or None, year or None, sort key).

    The sort key orders games in time (``2026-11-27``, ``2026-03`` for a month without its day,
    which sorts before the known days of that month); all three are None without a year, and
    for a tag validate calls no date (``bad-tag``: not in the notation's form, or no day of the
    calendar).
    """
    if not text:
        return None, None, None
    parts, _why = read_date(text)
    if parts is None or parts[0] is None:
        return None, None, None
    year, month, day = parts
    if month is None:
        return None, year, f"{year:04d}"
    if day is None:
        return None, year, f"{year:04d}-{month:02d}"
    iso = f"{year:04d}-{month:02d}-{day:02d}"
    return iso, year, iso


def date_range(since: Optional[str], until: Optional[str]) -> Callable[[Optional[str]], bool]:
    """Whether a game's ``Date`` tag lies in [since, until] (each ``YYYY``, ``YYYY-MM`` or
    ``YYYY-MM-DD``, dots or dashes; None: open). A date known only to the month or year is in
    when that month or year meets the range; a game without a year is never in a range.

    Raises:
        ValueError: ``since`` or ``until`` is not such a date (the message says which).
    """
    bounds: list[Optional[str]] = []
    for label, text in (("--since", since), ("--until", until)):
        if text is None:
            bounds.append(None)
            continue
        m = re.fullmatch(r"([0-9]{4})(?:[.-]([0-9]{2})(?:[.-]([0-9]{2}))?)?", text.strip())
        if m is None or (m.group(2) and not 1 <= int(m.group(2)) <= 12):
            raise ValueError(f"{label} {text}: not a date (YYYY-MM-DD, YYYY-MM or YYYY)")
        if m.group(3) and read_date(".".join(m.groups()))[0] is None:    # (the Date tag's calendar)
            raise ValueError(f"{label} {text}: there is no such day")
        bounds.append("-".join(g for g in m.groups() if g))
    low, high = bounds
    if low is not None and high is not None and low > high and not low.startswith(high):
        # (2026-05 to 2026 is May to December: the later bound covers the earlier one)
        raise ValueError(f"--since {since} comes after --until {until}: no game can be in that range")

    def inside(tag: Optional[str]) -> bool:
        if low is None and high is None:
            return True
        key = date_parts(tag)[2]
        if key is None:
            return False
        return (low is None or key + "\uffff" >= low) and (high is None or key <= high + "\uffff")
    return inside


def _plain(counter: Counter[Any]) -> dict[str, int]:
    return {str(k): int(v) for k, v in sorted(counter.items(), key=lambda kv: str(kv[0]))}


def _hist(counter: Counter[int]) -> dict[str, int]:
    return {str(k): int(counter[k]) for k in sorted(counter)}


class _Player:
    __slots__ = ("games", "matches_won", "deals", "deals_won", "deals_lost", "tens", "tens_lost", "sweeps", "kots",
                 "partners")

    def __init__(self) -> None:
        self.games = self.matches_won = self.deals = self.deals_won = self.deals_lost = 0
        self.tens = self.tens_lost = self.sweeps = self.kots = 0
        self.partners: Counter[str] = Counter()

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: getattr(self, k) for k in self.__slots__[:-1]}
        out["partners"] = _plain(self.partners)
        return out


class _Table:
    """The seat and side counts of one table size (4 or 6 players)."""

    def __init__(self) -> None:
        self.deals = self.complete = self.no_result = self.dealing_side_won = self.other_side_won = 0
        self.won: Counter[str] = Counter()
        self.dealer_deals: Counter[str] = Counter()
        self.dealer_won: Counter[str] = Counter()
        self.tens_by_seat: Counter[str] = Counter()
        self.tens_by_side: Counter[str] = Counter()

    def json(self) -> dict[str, Any]:
        return {"deals": self.deals, "complete": self.complete, "won": _plain(self.won), "no_result": self.no_result,
                "dealer": {s: {"deals": self.dealer_deals[s], "dealing_side_won": self.dealer_won.get(s, 0)}
                           for s in sorted(self.dealer_deals)},
                "dealing_side_won": self.dealing_side_won, "other_side_won": self.other_side_won,
                "tens_by_seat": _plain(self.tens_by_seat), "tens_by_side": _plain(self.tens_by_side)}


class ArchiveStats:
    """Counters over every game added; :meth:`to_json` gives the figures."""

    def __init__(self) -> None:
        self.files = 0
        self.games = 0
        self.games_with_errors = 0
        self.matches_finished = 0
        self.match_winner: Counter[str] = Counter()
        self.matches_level = 0
        self.deals = 0
        self.complete = 0
        self.tricks = 0
        self.won: Counter[str] = Counter()
        self.no_result = 0
        self.dealing_side_won = 0
        self.other_side_won = 0
        self.tables: dict[int, _Table] = {}
        self.kots: Counter[str] = Counter()
        self.kots_by_side: Counter[str] = Counter()
        self.tens_by_side: Counter[str] = Counter()
        self.players: dict[str, _Player] = {}
        self.sweeps = 0
        self.sweep_size: Counter[int] = Counter()
        self.sweep_tens: Counter[int] = Counter()
        self.largest_sweep: Optional[dict[str, Any]] = None
        self.last_trick = 0
        self.last_trick_tens = 0
        self.trick_captures = 0
        self.claims = 0
        self.claim_tens = 0
        self.trump_deals: Counter[str] = Counter()
        self.trump_decided: Counter[str] = Counter()
        self.trump_side_won: Counter[str] = Counter()
        self._streaks: list[tuple[int, int, dict[str, Any]]] = []   # a min-heap of the longest
        self._order = 0
        self._names: dict[int, str] = {}        # id of a player's row -> the name

    # -- adding -----------------------------------------------------------------------------
    def add_file(self) -> None:
        self.files += 1

    def add(self, facts: GameFacts, source: str = "", number: int = 0) -> None:
        """Count one replayed game (``source`` and ``number`` name it in the top lists)."""
        game = self.game(facts.game, facts.rules, source, number)
        for deal in facts.deals:
            game.deal(deal)
        game.end(facts)

    def game(self, game: Game, rules: Optional[Rules], source: str = "", number: int = 0) -> "GameCount":
        """Count one game deal by deal, as it is replayed (:func:`~dehlanote.replay.iter_replay`):
        its ``deal(fact)`` for each deal, then its ``end(facts)``. The same counts as :meth:`add`."""
        return GameCount(self, game, rules, source, number)

    def _deal(self, deal: Any, seats: int, people: dict[str, _Player], source: str, number: int) -> None:
        self.deals += 1
        self.tricks += len(deal.tricks)
        table = self.tables.get(seats)
        if table is None:
            table = self.tables[seats] = _Table()
        table.deals += 1
        for s, p in people.items():
            p.deals += 1
            side = side_of(s, seats)
            for mate, q in people.items():
                if mate != s and side_of(mate, seats) == side:
                    p.partners[self._names[id(q)]] += 1
        waiting: list[tuple[str, str]] = []       # tens played and not yet taken, with who played them
        for t in deal.tricks:
            if people:
                waiting.extend((p.card, seat) for seat, p in zip(t.order, t.trick.plays) if p.card.startswith("10"))
            cap = t.capture
            if cap is None:
                continue
            tens = len(cap.tens)
            table.tens_by_seat[cap.by] += tens
            table.tens_by_side[cap.side] += tens
            self.tens_by_side[cap.side] += tens
            player = people.get(cap.by)
            if player is not None:
                player.tens += tens
            if people:
                waiting = _lost(waiting, cap.tens, cap.side, seats, people)
            if cap.reason == "two-in-a-row":
                self.sweeps += 1
                self.sweep_size[cap.cards] += 1
                self.sweep_tens[tens] += 1
                if player is not None:
                    player.sweeps += 1
                if self.largest_sweep is None or cap.cards > self.largest_sweep["cards"]:
                    self.largest_sweep = {"cards": cap.cards, "tens": list(cap.tens), "by": cap.by,
                                          "source": source, "game": number, "deal": deal.number,
                                          "trick": t.number}
            elif cap.reason == "last-trick":
                self.last_trick += 1
                self.last_trick_tens += tens
            else:
                self.trick_captures += 1
        claim = getattr(deal, "claim", None)
        if claim is not None:
            self.claims += 1
            self.claim_tens += len(claim.tens)
            # the claimer's side takes the centre and every card not yet played: the tens in them
            # are the claimer's capture (as the database's captures row of reason claim)
            self.tens_by_side[claim.side] += len(claim.tens)
            table.tens_by_side[claim.side] += len(claim.tens)
            table.tens_by_seat[claim.by] += len(claim.tens)
            claimer = people.get(claim.by)
            if claimer is not None:
                claimer.tens += len(claim.tens)
            if people:
                _lost(waiting, claim.tens, claim.side, seats, people)
        tf = deal.trump
        suit = tf.suit if tf is not None else None
        if tf is not None and tf.drawn is not None:
            suit = tf.drawn[-1]
        if tf is not None:
            self.trump_deals[suit or "none"] += 1
        if not deal.complete:
            return
        self.complete += 1
        table.complete += 1
        if deal.winner is None:
            self.no_result += 1
            table.no_result += 1
        else:
            self.won[deal.winner] += 1
            table.won[deal.winner] += 1
            for s, p in people.items():
                if side_of(s, seats) == deal.winner:
                    p.deals_won += 1
                else:
                    p.deals_lost += 1
        if deal.dealer:
            table.dealer_deals[deal.dealer] += 1
            if deal.winner is not None:
                if side_of(deal.dealer, seats) == deal.winner:
                    self.dealing_side_won += 1
                    table.dealing_side_won += 1
                    table.dealer_won[deal.dealer] += 1
                else:
                    self.other_side_won += 1
                    table.other_side_won += 1
        if tf is not None and suit is not None and tf.by and deal.winner is not None:
            self.trump_decided[suit] += 1
            if side_of(tf.by, seats) == deal.winner:
                self.trump_side_won[suit] += 1
        if deal.kot is not None:
            self.kots[deal.kot.reason] += 1
            self.kots_by_side[deal.kot.side] += 1
            for s, p in people.items():
                if side_of(s, seats) == deal.kot.side:
                    p.kots += 1

    def _streak(self, run: tuple[str, int, int], names: dict[str, Optional[str]], seats: int, source: str,
                number: int) -> None:
        side, length, deal = run
        entry = {"side": side, "length": length, "source": source, "game": number, "deal": deal,
                 "players": [f"{s} {n}" for s, n in names.items() if n and side_of(s, seats) == side]}
        self._order += 1
        item = (length, -self._order, entry)
        if len(self._streaks) < TOP:
            heapq.heappush(self._streaks, item)
        elif item > self._streaks[0]:
            heapq.heapreplace(self._streaks, item)

    # -- the figures --------------------------------------------------------------------------
    def streaks(self) -> list[dict[str, Any]]:
        out = sorted(self._streaks, key=lambda t: (-t[0], -t[1]))
        return [e for _, _, e in out]

    def to_json(self) -> dict[str, Any]:
        trump = {}
        for suit in [*SUITS, "none"]:
            if self.trump_deals.get(suit):
                trump[suit] = {"name": SUIT_NAMES.get(suit, "no trump"), "deals": self.trump_deals[suit],
                               "decided": self.trump_decided.get(suit, 0),
                               "trump_side_won": self.trump_side_won.get(suit, 0)}
        return {
            "files": self.files, "games": self.games, "games_with_errors": self.games_with_errors,
            "matches": {"finished": self.matches_finished, "won": _plain(self.match_winner),
                        "level": self.matches_level, "unfinished": self.games - self.matches_finished},
            "deals": self.deals, "complete": self.complete, "tricks": self.tricks,
            "won": _plain(self.won), "no_result": self.no_result,
            "dealing_side_won": self.dealing_side_won, "other_side_won": self.other_side_won,
            "by_table": {str(n): self.tables[n].json() for n in sorted(self.tables)},
            "kots": _plain(self.kots), "kots_by_side": _plain(self.kots_by_side),
            "tens_by_side": _plain(self.tens_by_side),
            "tens_by_player": {name: p.tens for name, p in sorted(self.players.items())},
            "sweeps": {"count": self.sweeps, "size": _hist(self.sweep_size), "tens": _hist(self.sweep_tens),
                       "largest": self.largest_sweep},
            "last_trick": {"count": self.last_trick, "tens": self.last_trick_tens},
            "trick_captures": self.trick_captures,
            "claims": {"count": self.claims, "tens": self.claim_tens},
            "trump": trump,
            "streaks": self.streaks(),
            "players": {name: p.json() for name, p in sorted(self.players.items())},
        }


def archive_stats(games: Iterable[tuple[GameFacts, str, int]]) -> ArchiveStats:
    """Sum ``(facts, source, number)`` triples in one pass."""
    stats = ArchiveStats()
    for facts, source, number in games:
        stats.add(facts, source, number)
    return stats



def _lost(waiting: list[tuple[str, str]], tens: tuple[str, ...], side: str, seats: int,
          people: dict[str, _Player]) -> list[tuple[str, str]]:
    """Count the tens a capture took from the other side against the players who played them
    (each matched with the first such ten waiting: six players have three of each)."""
    for ten in tens:
        for i, (card, seat) in enumerate(waiting):
            if card == ten:
                del waiting[i]
                player = people.get(seat)
                if player is not None and side_of(seat, seats) != side:
                    player.tens_lost += 1
                break
    return waiting


class GameCount:
    """One game being counted by :class:`ArchiveStats`, deal by deal (see :meth:`ArchiveStats.game`)."""

    def __init__(self, stats: ArchiveStats, game: Game, rules: Optional[Rules], source: str, number: int) -> None:
        self.stats, self.rules, self.source, self.number = stats, rules, source, number
        self.names: dict[str, Optional[str]] = {}
        self.people: dict[str, _Player] = {}
        self.run: Optional[tuple[str, int, int]] = None        # the streak being followed: side, length, deal
        if rules is None:
            return
        seats = rules.seat_letters
        # players are known by the seat tag's text, trimmed (as in the database and the site)
        self.names = {s: name for s, name in ((s, player_name(game, s)) for s in seats) if name}
        self.people = {s: stats.players.setdefault(name, _Player()) for s, name in self.names.items() if name}
        for s, p in self.people.items():
            stats._names[id(p)] = self.names[s] or ""
        for p in self.people.values():
            p.games += 1

    def deal(self, deal: DealFact) -> None:
        rules, stats = self.rules, self.stats
        assert rules is not None
        stats._deal(deal, rules.seats, self.people, self.source, self.number)
        streak = deal.streak if deal.complete else None
        run = self.run
        if run is not None and (streak is None or streak.side != run[0] or streak.length <= run[1]):
            stats._streak(run, self.names, rules.seats, self.source, self.number)
            run = None
        if streak is not None:
            run = (streak.side, streak.length, deal.number)
        self.run = run

    def end(self, facts: GameFacts) -> None:
        """The game's end: its result and errors (``facts.deals`` is not looked at)."""
        stats, rules = self.stats, self.rules
        stats.games += 1
        if facts.errors:
            stats.games_with_errors += 1
        if rules is None:
            return
        result = facts.result
        if result is not None and result.finished:
            stats.matches_finished += 1
            if result.winner is None:
                stats.matches_level += 1
            else:
                stats.match_winner[result.winner] += 1
                for s, p in self.people.items():
                    if side_of(s, rules.seats) == result.winner:
                        p.matches_won += 1
        if self.run is not None:
            stats._streak(self.run, self.names, rules.seats, self.source, self.number)
            self.run = None
