"""Ratings of players and partnerships by name: Elo, from deal and match results, with history.

Why Elo (and not a TrueSkill-style method such as openskill): it is the method card and
chess clubs know and can check by hand, it needs no dependency, it is deterministic, and
with partnerships it has a plain team form (the side's rating is the mean of its players').
Its limits are said in docs/db.md: no uncertainty per player, so a newcomer's first results
move the rating as much as a regular's.

The rules (:func:`rate`): every player and every partnership (its players' names in
alphabetical order, joined by `` & ``) starts at :data:`START`. Results are taken in time
order (the games' ``Date`` tags, games without a date last, then file and game order):
each complete deal with a winner (K = :data:`K_DEAL`), then, after a match's last deal,
the match's result when it finished (K = :data:`K_MATCH`; a level match counts half).
For a side with mean rating Ra against Rb, the expected score is 1 / (1 + 10^((Rb-Ra)/400));
each of its players gains K x (score - expected), and so does the partnership as a whole,
rated against the other partnership. Games with a seat not named are not rated.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

__all__ = ["K_DEAL", "K_MATCH", "METHOD", "START", "rate", "rebuild"]

METHOD = "elo"
START = 1500.0
K_DEAL = 16.0
K_MATCH = 32.0

_EVENTS = """
SELECT game_id, deal, sort_date, season, winner, kind FROM (
    SELECT d.game_id, d.deal, g.sort_date, g.season, d.winner, 'deal' AS kind, f.path, g.number
    FROM deals d JOIN games g USING (game_id) JOIN files f ON f.file_id = g.file_id
    WHERE d.complete AND d.winner IS NOT NULL
    UNION ALL
    SELECT g.game_id, NULL, g.sort_date, g.season, g.winner, 'match', f.path, g.number
    FROM games g JOIN files f ON f.file_id = g.file_id WHERE g.finished
) ORDER BY sort_date NULLS LAST, path, number, deal NULLS LAST
"""

_SIDES = """
SELECT game_id, side, list(player ORDER BY seat) FROM seats GROUP BY game_id, side
HAVING count(player) = count(*)
"""


def expected(ra: float, rb: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))


def rate(events: Iterable[tuple[Any, ...]], sides: dict[Any, dict[str, list[str]]]) -> dict[str, list[Any]]:
    """The rating history: ``events`` are (game_id, deal, sort_date, season, winner, kind) in
    time order; ``sides`` maps a game to its two sides' player names."""
    players: dict[str, float] = {}
    pairs: dict[str, float] = {}
    out: dict[str, list[Any]] = {k: [] for k in ("kind", "name", "seq", "game_id", "deal", "sort_date", "season",
                                                 "event", "rating_before", "rating")}
    seq = 0
    for game_id, deal, sort_date, season, winner, kind in events:
        two = sides.get(game_id)
        if two is None or len(two) != 2:
            continue
        (side_a, names_a), (side_b, names_b) = sorted(two.items())
        score = 0.5 if winner is None else (1.0 if winner == side_a else 0.0)
        k = K_DEAL if kind == "deal" else K_MATCH
        seq += 1
        ra = sum(players.get(n, START) for n in names_a) / len(names_a)
        rb = sum(players.get(n, START) for n in names_b) / len(names_b)
        change = k * (score - expected(ra, rb))
        pa, pb = " & ".join(sorted(names_a)), " & ".join(sorted(names_b))
        qa, qb = pairs.get(pa, START), pairs.get(pb, START)
        pair_change = k * (score - expected(qa, qb))
        for kind_, table, entries in (("player", players, [(n, change) for n in names_a] +
                                       [(n, -change) for n in names_b]),
                                      ("partnership", pairs, [(pa, pair_change), (pb, -pair_change)])):
            for name, delta in entries:
                before = table.get(name, START)
                table[name] = before + delta
                for key, value in (("kind", kind_), ("name", name), ("seq", seq), ("game_id", game_id),
                                   ("deal", deal), ("sort_date", sort_date), ("season", season), ("event", kind),
                                   ("rating_before", before), ("rating", before + delta)):
                    out[key].append(value)
    return out


def _run(con: Any, sql: str) -> None:
    con.execute(sql).fetchall()


def rebuild(con: Any, batch: Optional[int] = None) -> int:
    """Replace the ``ratings`` table from the database's results; returns its rows."""
    import pyarrow as pa

    sides: dict[Any, dict[str, list[str]]] = {}
    for game_id, side, names in con.execute(_SIDES).fetchall():
        sides.setdefault(game_id, {})[side] = names
    events = con.execute(_EVENTS).fetchall()
    history = rate(events, sides)
    del events, sides
    _run(con, "DELETE FROM ratings")
    if history["seq"]:
        staged = pa.table(history)
        con.register("staged_ratings", staged)
        try:
            _run(con, "INSERT INTO ratings SELECT * FROM staged_ratings")
        finally:
            con.unregister("staged_ratings")
    return len(history["seq"])
