"""The database's tables and views (schema version :data:`VERSION`; docs/db.md describes each column).

A database whose ``meta.schema_version`` differs is rebuilt from its files, never patched
(every fact can be read again from the archive), but for the small steps of :data:`UPGRADES`,
made by the next build.
"""

from __future__ import annotations

__all__ = ["VERSION", "UPGRADES", "TABLES", "VIEWS", "STAGED"]

#: bumped whenever a table or view changes; docs/db.md says what each version holds
VERSION = 2

#: what brings a database of an older version up to this one (its rows are kept: the build that
#: upgrades it rebuilds the ratings); a version not here is refused ("build a new database")
UPGRADES = {
    # 2: a partnership is rated by its players (``ratings.players``), not by their names'
    # text: "A & B" with "C", and "A" with "B & C", were one partnership
    1: "ALTER TABLE ratings ADD COLUMN players VARCHAR[]",
}

TABLES = """
CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE files (file_id INTEGER PRIMARY KEY, path VARCHAR NOT NULL UNIQUE, sha256 VARCHAR, size BIGINT,
    mtime_ns BIGINT, first_game BIGINT, last_game BIGINT, games INTEGER, deals INTEGER, errors INTEGER);
CREATE TABLE games (game_id BIGINT NOT NULL, file_id INTEGER NOT NULL, number INTEGER, line INTEGER,
    rules VARCHAR, seats INTEGER, event VARCHAR, site VARCHAR, date_text VARCHAR, date DATE, season INTEGER,
    sort_date VARCHAR, result_tag VARCHAR, winner VARCHAR, finished BOOLEAN, deals INTEGER, errors INTEGER);
CREATE TABLE seats (game_id BIGINT NOT NULL, seat VARCHAR, side VARCHAR, player VARCHAR);
CREATE TABLE deals (game_id BIGINT NOT NULL, deal INTEGER, line INTEGER, dealer VARCHAR, misdeals INTEGER,
    trump VARCHAR, trump_by VARCHAR, trump_method VARCHAR, trump_trick INTEGER, trump_closed BOOLEAN,
    complete BOOLEAN, winner VARCHAR, kot_side VARCHAR, kot_reason VARCHAR, streak_side VARCHAR,
    streak_length INTEGER, next_dealer VARCHAR, tricks INTEGER, claim_by VARCHAR, ends_match BOOLEAN);
CREATE TABLE deal_sides (game_id BIGINT NOT NULL, deal INTEGER, side VARCHAR, tens INTEGER, points INTEGER);
CREATE TABLE tricks (game_id BIGINT NOT NULL, deal INTEGER, trick INTEGER, leader VARCHAR, winner VARCHAR,
    trump VARCHAR, centre_cards INTEGER, centre_tens INTEGER, run INTEGER);
CREATE TABLE plays (game_id BIGINT NOT NULL, deal INTEGER, trick INTEGER, position INTEGER, seat VARCHAR,
    card VARCHAR, suit VARCHAR, rank VARCHAR, line INTEGER, "column" INTEGER, withdrawn VARCHAR[]);
CREATE TABLE captures (game_id BIGINT NOT NULL, deal INTEGER, trick INTEGER, by_seat VARCHAR, side VARCHAR,
    cards INTEGER, tens INTEGER, ten_cards VARCHAR[], reason VARCHAR);
CREATE TABLE tens (game_id BIGINT NOT NULL, deal INTEGER, ten VARCHAR, played_by VARCHAR, trick INTEGER,
    won_by VARCHAR, taken_by VARCHAR, taken_side VARCHAR, taken_trick INTEGER, reason VARCHAR);
CREATE TABLE errors (file_id INTEGER NOT NULL, game_id BIGINT, code VARCHAR, message VARCHAR, line INTEGER,
    "column" INTEGER, deal INTEGER, trick INTEGER);
CREATE TABLE ratings (kind VARCHAR, name VARCHAR, seq BIGINT, game_id BIGINT, deal INTEGER, sort_date VARCHAR,
    season INTEGER, event VARCHAR, rating_before DOUBLE, rating DOUBLE, players VARCHAR[]);
"""

#: the tables filled from Python batches (``rows.COLUMNS``), and how each staged batch becomes
#: rows: ``$game`` is the first game id of the batch, ``$file`` the file's id
STAGED = {
    "games": "SELECT $game + g, $file, $number + g, line, rules, seats, event, site, date_text, CAST(date AS DATE), "
             "season, sort_date, result_tag, winner, finished, deals, errors FROM staged",
    "seats": "SELECT $game + g, seat, side, player FROM staged",
    "deals": "SELECT $game + g, deal, line, dealer, misdeals, trump, trump_by, trump_method, trump_trick, "
             "trump_closed, complete, winner, kot_side, kot_reason, streak_side, streak_length, next_dealer, "
             "tricks, claim_by, ends_match FROM staged",
    "deal_sides": "SELECT $game + g, deal, side, tens, points FROM staged",
    "tricks": "SELECT $game + g, deal, trick, leader, winner, trump, centre_cards, centre_tens, run FROM staged",
    "plays": "SELECT $game + g, deal, trick, position, seat, card, suit, rank, line, col, withdrawn FROM staged",
    "captures": "SELECT $game + g, deal, trick, by_seat, side, cards, tens, ten_cards, reason FROM staged",
    "tens": "SELECT $game + g, deal, ten, played_by, trick, won_by, taken_by, taken_side, taken_trick, reason "
            "FROM staged",
    "errors": "SELECT $file, $game + g, code, message, line, col, deal, trick FROM staged",
}

#: the tables holding a file's games' rows (deleted by game id range when the file changes or goes)
GAME_TABLES = ("games", "seats", "deals", "deal_sides", "tricks", "plays", "captures", "tens")

VIEWS = """
CREATE OR REPLACE VIEW deal_results AS
SELECT d.game_id, f.path, g.number AS game, g.event, g.date, g.season, d.deal, d.dealer, dl.side AS dealing_side,
       d.trump, d.trump_by, tb.side AS trump_side, d.complete, d.winner, d.kot_side, d.kot_reason,
       d.streak_length, w.tens AS winner_tens, d.tricks, d.claim_by
FROM deals d JOIN games g USING (game_id) JOIN files f ON f.file_id = g.file_id
LEFT JOIN seats dl ON dl.game_id = d.game_id AND dl.seat = d.dealer
LEFT JOIN seats tb ON tb.game_id = d.game_id AND tb.seat = d.trump_by
LEFT JOIN deal_sides w ON w.game_id = d.game_id AND w.deal = d.deal AND w.side = d.winner;

CREATE OR REPLACE VIEW player_deals AS
WITH taken AS (SELECT game_id, deal, taken_by AS seat, count(*) AS n FROM tens WHERE taken_by IS NOT NULL
               GROUP BY ALL),
     lost AS (SELECT t.game_id, t.deal, t.played_by AS seat, count(*) AS n FROM tens t
              JOIN seats s ON s.game_id = t.game_id AND s.seat = t.played_by
              WHERE t.taken_side IS NOT NULL AND t.taken_side <> s.side GROUP BY ALL),
     mates AS (SELECT a.game_id, a.seat, string_agg(b.player, ' & ' ORDER BY b.seat) AS partners
               FROM seats a JOIN seats b ON b.game_id = a.game_id AND b.side = a.side AND b.seat <> a.seat
               GROUP BY ALL)
SELECT s.player, s.seat, s.side, m.partners, d.game_id, g.number AS game, g.date, g.season, g.sort_date, d.deal,
       d.complete, d.winner, coalesce(d.winner = s.side, false) AS won,
       coalesce(d.winner IS NOT NULL AND d.winner <> s.side, false) AS lost,
       coalesce(d.kot_side = s.side, false) AS kot, coalesce(d.kot_side IS NOT NULL AND d.kot_side <> s.side, false)
       AS kot_against, d.dealer = s.seat AS dealt, ds.tens AS side_tens, coalesce(tk.n, 0) AS tens_captured,
       coalesce(ls.n, 0) AS tens_lost
FROM seats s JOIN deals d ON d.game_id = s.game_id JOIN games g ON g.game_id = s.game_id
LEFT JOIN mates m ON m.game_id = s.game_id AND m.seat = s.seat
LEFT JOIN deal_sides ds ON ds.game_id = d.game_id AND ds.deal = d.deal AND ds.side = s.side
LEFT JOIN taken tk ON tk.game_id = d.game_id AND tk.deal = d.deal AND tk.seat = s.seat
LEFT JOIN lost ls ON ls.game_id = d.game_id AND ls.deal = d.deal AND ls.seat = s.seat
WHERE s.player IS NOT NULL;

CREATE OR REPLACE VIEW partnership_deals AS
WITH sides AS (SELECT game_id, side, string_agg(player, ' & ' ORDER BY player) AS players,
                      list(player ORDER BY player) AS names, count(player) = count(*) AS named
               FROM seats GROUP BY ALL)
SELECT p.players, p.side, d.game_id, g.date, g.season, g.sort_date, d.deal, d.complete,
       coalesce(d.winner = p.side, false) AS won, coalesce(d.winner IS NOT NULL AND d.winner <> p.side, false) AS lost,
       coalesce(d.kot_side = p.side, false) AS kot,
       CASE WHEN d.streak_side = p.side THEN d.streak_length END AS streak, p.names
FROM sides p JOIN deals d ON d.game_id = p.game_id JOIN games g ON g.game_id = p.game_id
WHERE p.named;

CREATE OR REPLACE VIEW partnerships AS
SELECT any_value(players) AS players, count(DISTINCT game_id) AS games, count(*) AS deals,
       count(*) FILTER (WHERE won) AS won, count(*) FILTER (WHERE lost) AS lost,
       count(*) FILTER (WHERE kot) AS kots, coalesce(max(streak), 0) AS longest_streak, names
FROM partnership_deals GROUP BY names;

CREATE OR REPLACE VIEW tens_lost AS
SELECT t.game_id, t.deal, t.ten, t.trick, t.played_by AS lost_by_seat, p.player AS lost_by, p.side AS lost_side,
       t.taken_by AS taken_by_seat, q.player AS taken_by, t.taken_side, t.taken_trick, t.reason
FROM tens t JOIN seats p ON p.game_id = t.game_id AND p.seat = t.played_by
LEFT JOIN seats q ON q.game_id = t.game_id AND q.seat = t.taken_by
WHERE t.taken_side IS NOT NULL AND t.taken_side <> p.side;

CREATE OR REPLACE VIEW standings AS
WITH matches AS (SELECT g.season, s.player, count(*) AS games, count(*) FILTER (WHERE g.finished) AS finished,
                        count(*) FILTER (WHERE g.winner = s.side) AS matches_won
                 FROM seats s JOIN games g USING (game_id) WHERE s.player IS NOT NULL GROUP BY ALL),
     deals AS (SELECT season, player, count(*) AS deals, count(*) FILTER (WHERE won) AS won,
                      count(*) FILTER (WHERE lost) AS lost, count(*) FILTER (WHERE kot) AS kots,
                      sum(tens_captured) AS tens_captured, sum(tens_lost) AS tens_lost
               FROM player_deals GROUP BY ALL)
SELECT m.season, m.player, m.games, m.matches_won, coalesce(d.deals, 0) AS deals, coalesce(d.won, 0) AS deals_won,
       coalesce(d.lost, 0) AS deals_lost, coalesce(d.kots, 0) AS kots, coalesce(d.tens_captured, 0) AS tens_captured,
       coalesce(d.tens_lost, 0) AS tens_lost
FROM matches m LEFT JOIN deals d ON d.player = m.player AND d.season IS NOT DISTINCT FROM m.season;

CREATE OR REPLACE VIEW player_ratings AS
SELECT kind, any_value(name) AS name, arg_max(rating, seq) AS rating, count(*) AS results, max(sort_date) AS last_date,
       any_value(players) AS players
FROM ratings GROUP BY kind, coalesce(players, [name]);
"""
