"""Ratings of players and partnerships by name: Elo, from deal and match results, with history.

Why Elo (and not a TrueSkill-style method such as openskill): it is the method card and
chess clubs know and can check by hand, it needs no dependency, it is deterministic, and
with partnerships it has a plain team form (the side's rating is the mean of its players').
Its limits are said in docs/db.md: no uncertainty per player, so a newcomer's first results
move the rating as much as a regular's.

The rules (:func:`rate`): every player and every partnership starts at :data:`START`. A
partnership is its players themselves (the list of their names in alphabetical order, the
``players`` column), shown as their names joined by `` & ``: the text alone would make one of
``A & B`` with ``C`` and ``A`` with ``B & C``. Results are taken in time
order (the games' ``Date`` tags, games without a date last, then file and game order):
each complete deal with a winner (K = :data:`K_DEAL`), then, after a match's last deal,
the match's result when it finished (K = :data:`K_MATCH`; a level match counts half).
For a side with mean rating Ra against Rb, the expected score is 1 / (1 + 10^((Rb-Ra)/400));
each of its players gains K x (score - expected), and so does the partnership as a whole,
rated against the other partnership. Games with a seat not named are not rated.
"""

from __future__ import annotations

import os
from typing import Any, Iterable

from ..deck import sides_for

__all__ = ["K_DEAL", "K_MATCH", "METHOD", "START", "file_key", "rate", "rebuild"]

METHOD = "elo"
START = 1500.0
K_DEAL = 16.0
K_MATCH = 32.0

#: the events in time order; the sort carries only narrow keys (a file's rank among the paths
#: rather than its path, the seats' names joined after it): on a million deals the sort carrying
#: paths and names ran out of DuckDB's 256MB at times (the rating process up to 515 MB at 320MB)
_EVENTS = """
CREATE TABLE _rating_events AS
WITH sides AS (
    SELECT game_id, list(player ORDER BY seat) FILTER (WHERE side IN ('AC', 'ACE')) AS names_a,
           list(player ORDER BY seat) FILTER (WHERE side IN ('BD', 'BDF')) AS names_b
    FROM seats GROUP BY game_id HAVING count(player) = count(*)
), paths AS (
    SELECT file_id, row_number() OVER (ORDER BY path) AS path_rank FROM files
), events AS (
    SELECT d.game_id, d.deal, g.sort_date, g.season, d.winner, 'deal' AS kind, p.path_rank, g.number
    FROM deals d JOIN games g USING (game_id) JOIN paths p ON p.file_id = g.file_id
    WHERE d.complete AND d.winner IS NOT NULL
    UNION ALL
    SELECT g.game_id, NULL, g.sort_date, g.season, g.winner, 'match', p.path_rank, g.number
    FROM games g JOIN paths p ON p.file_id = g.file_id WHERE g.finished
), ranked AS (
    SELECT row_number() OVER (ORDER BY sort_date NULLS LAST, path_rank, number, deal NULLS LAST) AS rn,
           game_id, deal, sort_date, season, winner, kind
    FROM events WHERE game_id IN (SELECT game_id FROM sides)
)
SELECT r.rn, r.game_id, r.deal, r.sort_date, r.season, r.winner, r.kind, s.names_a, s.names_b
FROM ranked r JOIN sides s USING (game_id)
"""

#: results rated a page at a time (the history of a page waits in memory, not the archive's;
#: the events wait in a table of the database being built, not in memory as a TEMP table would)
PAGE = 25_000

HISTORY = ("kind", "name", "seq", "game_id", "deal", "sort_date", "season", "event", "rating_before", "rating")


def file_key(spec: str) -> str:
    """A file as the database knows it (``files.path``) and as results of one date are ordered
    among files: the path as given, normalized (``./a.dpn`` and ``a.dpn`` are one). The site's
    player pages order their files by the same key, so their ratings are the database's.

    Only what cannot change the file named is taken out (``.`` and repeated slashes): a ``..``
    stays, as after a symbolic link to a folder ``link/../a.dpn`` is not ``a.dpn`` (the build
    read the file ``a.dpn`` of the working folder, not the one named, which validate and stats
    read)."""
    if not spec:
        return spec
    lead = "//" if spec.startswith("//") and not spec.startswith("///") else "/" if spec.startswith("/") else ""
    parts = [part for part in spec.split(os.sep) if part not in ("", ".")]
    return lead + "/".join(parts) if parts else lead or "."


#: the first side of a table of four and of six (the side names_a holds)
_FIRST_SIDES = frozenset((sides_for(4)[0], sides_for(6)[0]))


def expected(ra: float, rb: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))


class Elo:
    """The ratings so far; :meth:`feed` takes results in time order and gives the history rows."""

    def __init__(self) -> None:
        self.players: dict[str, float] = {}
        self.pairs: dict[tuple[str, ...], float] = {}     # (a partnership is its players, not their text)
        self.seq = 0
        self._pairs_of: dict[tuple[str, ...], tuple[tuple[str, ...], str, list[str]]] = {}

    def _pair(self, seated: tuple[str, ...]) -> tuple[tuple[str, ...], str, list[str]]:
        """A side's players as seated: the partnership (its names in order), its name, its list
        (worked out once a seating: the sort and the join cost a third of the rating's time)."""
        known = self._pairs_of.get(seated)
        if known is None:
            ordered = sorted(seated)
            known = self._pairs_of[seated] = (tuple(ordered), " & ".join(ordered), ordered)
        return known

    def feed(self, events: Iterable[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """``events``: (game_id, deal, sort_date, season, winner, kind, names_a, names_b), names_a
        the players of the first side (AC or ACE); one history row a rating changed (:data:`HISTORY`)."""
        players, pairs = self.players, self.pairs
        out: list[tuple[Any, ...]] = []
        add = out.append
        for game_id, deal, sort_date, season, winner, kind, names_a, names_b in events:
            score = 0.5 if winner is None else (1.0 if winner in _FIRST_SIDES else 0.0)
            k = K_DEAL if kind == "deal" else K_MATCH
            self.seq += 1
            seq = self.seq
            ra = sum([players.get(n, START) for n in names_a]) / len(names_a)
            rb = sum([players.get(n, START) for n in names_b]) / len(names_b)
            change = k * (score - expected(ra, rb))
            for names, delta in ((names_a, change), (names_b, -change)):
                for name in names:
                    before = players.get(name, START)
                    players[name] = after = before + delta
                    add(("player", name, seq, game_id, deal, sort_date, season, kind, before, after))
            pa, pb = tuple(sorted(names_a)), tuple(sorted(names_b))
            qa, qb = pairs.get(pa, START), pairs.get(pb, START)
            pair_change = k * (score - expected(qa, qb))
            pairs[pa] = qa + pair_change
            pairs[pb] = qb - pair_change
            add(("partnership", " & ".join(pa), seq, game_id, deal, sort_date, season, kind, qa, qa + pair_change))
            add(("partnership", " & ".join(pb), seq, game_id, deal, sort_date, season, kind, qb, qb - pair_change))
        return out

    def changes(self, events: Iterable[tuple[Any, ...]]) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
        """What :meth:`feed` gives, lean (what :func:`rebuild` joins to its events): ``events``
        are (seq, winner, kind, names_a, names_b), ``seq`` counting from 1 in time order; the
        players' changes and the partnerships', each as columns (:data:`CHANGES`)."""
        players, pairs = self.players, self.pairs
        p_name: list[str] = []
        p_seq: list[int] = []
        p_before: list[float] = []
        p_after: list[float] = []
        q_name: list[str] = []
        q_players: list[list[str]] = []
        q_before: list[float] = []
        q_after: list[float] = []
        seqs: list[int] = []
        pair = self._pair
        for seq, winner, kind, names_a, names_b in events:
            score = 0.5 if winner is None else (1.0 if winner in _FIRST_SIDES else 0.0)
            k = K_DEAL if kind == "deal" else K_MATCH
            a = [players.get(n, START) for n in names_a]
            b = [players.get(n, START) for n in names_b]
            change = k * (score - 1.0 / (1.0 + 10.0 ** ((sum(b) / len(b) - sum(a) / len(a)) / 400.0)))
            after = [x + change for x in a]
            after_b = [x - change for x in b]
            players.update(zip(names_a, after))
            players.update(zip(names_b, after_b))
            p_name += names_a
            p_name += names_b
            p_before += a
            p_before += b
            p_after += after
            p_after += after_b
            p_seq += [seq] * (len(a) + len(b))
            pa, na, sa = pair(tuple(names_a))
            pb, nb, sb = pair(tuple(names_b))
            qa, qb = pairs.get(pa, START), pairs.get(pb, START)
            pair_change = k * (score - 1.0 / (1.0 + 10.0 ** ((qb - qa) / 400.0)))
            pairs[pa] = ra = qa + pair_change
            pairs[pb] = rb = qb - pair_change
            q_name += (na, nb)
            q_players += (sa, sb)
            q_before += (qa, qb)
            q_after += (ra, rb)
            seqs += (seq, seq)
        self.seq += len(seqs) // 2
        return ({"name": p_name, "seq": p_seq, "before": p_before, "after": p_after},
                {"name": q_name, "players": q_players, "seq": seqs, "before": q_before, "after": q_after})


def rate(events: Iterable[tuple[Any, ...]], sides: dict[Any, dict[str, list[str]]]) -> dict[str, list[Any]]:
    """The rating history as columns (:data:`HISTORY`): ``events`` are (game_id, deal,
    sort_date, season, winner, kind) in time order, ``sides`` maps a game to its two sides'
    player names (side -> names; games not in it are not rated)."""
    def full() -> Iterable[tuple[Any, ...]]:
        for event in events:
            two = sides.get(event[0])
            if two is None or len(two) != 2:
                continue
            (_a, names_a), (_b, names_b) = sorted(two.items())
            yield (*event, names_a, names_b)
    rows = Elo().feed(full())
    return {c: [r[i] for r in rows] for i, c in enumerate(HISTORY)}


def _run(con: Any, sql: str, params: Any = None) -> list[Any]:
    return con.execute(sql, params).fetchall() if params is not None else con.execute(sql).fetchall()


def rebuild(con: Any) -> int:
    """Replace the ``ratings`` table from the database's results, a page of results at a time
    (flat memory on any archive); returns its rows."""
    import pyarrow as pa

    _run(con, "DROP TABLE IF EXISTS _rating_events")
    _run(con, _EVENTS)
    _run(con, "DELETE FROM ratings")
    total = _run(con, "SELECT count(*) FROM _rating_events")[0][0]
    elo = Elo()
    written = 0
    for start in range(0, total, PAGE):
        page = _run(con, "SELECT rn, winner, kind, names_a, names_b FROM _rating_events "
                         "WHERE rn > ? AND rn <= ? ORDER BY rn", [start, start + PAGE])
        changed = elo.changes(page)
        del page
        for kind, columns in zip(("player", "partnership"), changed):
            staged_ratings = pa.table(columns)
            # the result's facts joined from its event: a quarter of the time of a row of ten
            # values a change built in Python (measured, 100,947 deals). The Arrow table is read
            # from this function's variable (DuckDB's replacement scan), not registered: a view
            # registered and dropped inside the build's transaction keeps its table alive until
            # the commit (measured on a million deals: 335 -> 760 MB over the pages; now flat)
            players = "s.players" if kind == "partnership" else "NULL"     # (a player is their name)
            con.execute("INSERT INTO ratings SELECT ?, s.name, s.seq, e.game_id, e.deal, e.sort_date, e.season, "
                        f"e.kind, s.before, s.after, {players} FROM staged_ratings s JOIN _rating_events e "
                        "ON e.rn = s.seq WHERE e.rn > ? AND e.rn <= ?", [kind, start, start + PAGE]).fetchall()
            written += staged_ratings.num_rows
            del staged_ratings
        del changed
    _run(con, "DROP TABLE _rating_events")
    return written
