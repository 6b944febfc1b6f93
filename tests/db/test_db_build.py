"""dehlanote db build / db query: the same counts as validate, incremental builds, a killed build, the CLI."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import traceback
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pytest
from typer.testing import CliRunner

duckdb = pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from dehlanote.cli import app  # noqa: E402
from dehlanote.oracle.playout import Style, generate_match  # noqa: E402
from dehlanote.replay import replay_games  # noqa: E402
from dehlanote.syntax import parse_path  # noqa: E402
from dehlanote.syntax.cards import card_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(glob.glob(str(ROOT / "samples" / "*.dpn")))
INVALID = sorted(glob.glob(str(ROOT / "tests" / "invalid" / "*.dpn")))


class Ran(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def run(*args: str, cwd: Path = ROOT, env: dict | None = None) -> Ran:
    """The command run in this process (the command function through Typer, its exit status and
    both streams; an exception it lets out is its traceback on standard error, as a user would see
    it); in a process of its own only for ``env`` (a ``PREPEND`` folder put first on the path)."""
    if env is None:
        with contextlib.chdir(cwd):
            res = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None}).invoke(app, list(args))
        err = res.stderr
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            err += "".join(traceback.format_exception(res.exception))
        return Ran(res.exit_code, res.stdout, err)
    e = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR")}
    first = [env["PREPEND"]] if "PREPEND" in env else []
    e["PYTHONPATH"] = os.pathsep.join([*first, str(ROOT), os.environ.get("PYTHONPATH", "")]).strip(os.pathsep)
    e["NO_COLOR"] = "1"
    proc = subprocess.run([sys.executable, "-m", "dehlanote", *args], cwd=cwd, env=e, capture_output=True,
                          text=True, timeout=300)
    return Ran(proc.returncode, proc.stdout, proc.stderr)


def query(db: Path, sql: str) -> list[dict]:
    proc = run("db", "query", str(db), sql, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def validate_counts(files: list[str]) -> dict[str, tuple[int, int, list]]:
    proc = run("validate", "--format", "json", "--max-errors", "0", *files)
    out = json.loads(proc.stdout)
    return {f["path"]: (f["games"], f["deals"], sorted((e["code"], e["line"], e["column"]) for e in f["errors"]))
            for f in out["files"]}


@pytest.mark.parametrize("files", [SAMPLES, INVALID], ids=["samples", "invalid"])
def test_the_database_counts_what_validate_counts(tmp_path: Path, files: list[str]) -> None:
    db = tmp_path / "club.duckdb"
    proc = run("db", "build", *files, "-o", str(db))
    assert proc.returncode == 0, proc.stderr
    expected = validate_counts(files)
    rows = query(db, "select f.path, f.games, f.deals, (select count(*) from games g where g.file_id = f.file_id) "
                     "as game_rows, (select list([e.code, e.line::varchar, e.\"column\"::varchar]) from errors e "
                     "where e.file_id = f.file_id) as errs from files f")
    assert len(rows) == len(files)
    for r in rows:
        games, deals, errors = expected[r["path"]]
        assert (r["games"], r["game_rows"]) == (games, games), r["path"]
        assert r["deals"] == deals, r["path"]
        assert sorted((c, int(a), int(b)) for c, a, b in (r["errs"] or [])) == errors, r["path"]
    if files is INVALID:
        assert sum(len(e) for _, _, e in expected.values()) > 10


def test_every_card_trick_and_ten_is_the_replayers(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert run("db", "build", *SAMPLES, "-o", str(db)).returncode == 0
    con = duckdb.connect(str(db), read_only=True)
    plays = Counter()
    tricks = winners = 0
    tens_taken: Counter = Counter()
    kots = Counter()
    for path in SAMPLES:
        for facts in replay_games(parse_path(path)):
            for deal in facts.deals:
                if deal.kot:
                    kots[deal.kot.reason] += 1
                for t in deal.tricks:
                    tricks += 1
                    winners += t.winner == t.leader
                    for p in t.plays:
                        plays[(p.seat, p.card)] += 1
                    if t.capture:
                        for ten in t.capture.tens:
                            tens_taken[(t.capture.side, ten)] += 1
    got = Counter({(s, c): n for s, c, n in con.execute(
        "select seat, card, count(*) from plays group by all").fetchall()})
    assert got == plays
    assert con.execute("select count(*), count(*) filter (where winner = leader) from tricks").fetchall() == [
        (tricks, winners)]
    got_tens = Counter({(s, t): n for s, t, n in con.execute(
        "select taken_side, ten, count(*) from tens where reason <> 'claim' and taken_side is not null "
        "group by all").fetchall()})
    assert got_tens == tens_taken
    assert dict(con.execute("select kot_reason, count(*) from deals where kot_reason is not null "
                            "group by 1").fetchall()) == dict(kots)
    # every play's position in its file is where that card is written (in any spelling: 10H, TH, T♥ ...)
    lines: dict[str, list[str]] = {}
    rows = con.execute("select f.path, p.line, p.\"column\", p.card from plays p join games g using (game_id) "
                       "join files f using (file_id)").fetchall()
    assert len(rows) == sum(plays.values())
    for path, line, column, card in rows:
        if path not in lines:
            lines[path] = Path(path).read_text(encoding="utf-8").splitlines()
        written = re.match(r"[^\s,;?!()\[\]{}]+", lines[path][line - 1][column - 1:])
        assert written is not None and card_of(written.group()) == card, (path, line, column, card)


def test_every_play_row_is_the_replayers(tmp_path: Path) -> None:
    """Each card played, one row: its deal, trick, place in the trick, seat, line and column in
    the file, and the cards withdrawn before it (none: null), as the replayer has them."""
    files = SAMPLES + [str(ROOT / "tests" / "invalid" / "bad-card-withdrawn.dpn")]
    db = tmp_path / "club.duckdb"
    assert run("db", "build", *files, "-o", str(db)).returncode == 0
    con = duckdb.connect(str(db), read_only=True)
    got = con.execute("select f.path, g.number, p.deal, p.trick, p.position, p.seat, p.card, p.line, p.\"column\", "
                      "p.withdrawn from plays p join games g using (game_id) join files f using (file_id)").fetchall()
    expected = []
    for path in files:
        for number, facts in enumerate(replay_games(parse_path(path)), 1):
            for deal in facts.deals:
                for t in deal.tricks:
                    for position, p in enumerate(t.plays):
                        expected.append((os.path.normpath(path), number, deal.number, t.number, position, p.seat,
                                         p.card, p.play.line, p.play.column,
                                         [w.card for w in p.play.withdrawn] or None))
    key = repr
    assert sorted(got, key=key) == sorted(expected, key=key)
    assert any(row[-1] for row in got)          # withdrawn cards are there


def test_a_build_out_of_memory_says_so_and_leaves_the_database(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    proc = run("db", "build", *SAMPLES, "-o", str(db), "--memory", "1MB")
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"dehlanote: out-of-memory: {db}: DuckDB needed more than --memory 1MB"), proc.stderr
    assert "Traceback" not in proc.stderr and not db.exists()


def test_memory_limits_are_read_as_sizes_and_a_small_one_is_not_mistaken_for_a_bad_database(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    for size in ("", "-5GB", "300", "lots"):     # DuckDB took "" and "-5GB" silently, "300" as not-a-database
        proc = run("db", "build", SAMPLES[0], "-o", str(db), "--memory", size)
        assert proc.returncode == 2 and not db.exists()
        assert proc.stderr == (f"dehlanote: bad-memory: --memory {size!r}: give a size with its unit, "
                               f"e.g. 300MB or 2GiB\n")
    assert run("db", "build", SAMPLES[0], "-o", str(db)).returncode == 0
    before = db.read_bytes()
    # a limit too small to read the database's own description: it was "not-a-database: it is not
    # a database made by dehlanote db build", of a database it had just built
    proc = run("db", "build", *SAMPLES, "-o", str(db), "--memory", "500KB")
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"dehlanote: out-of-memory: {db}: DuckDB needed more than --memory 500KB")
    assert db.read_bytes() == before
    assert run("db", "build", *SAMPLES, "-o", str(db), "--memory", "64MiB").returncode == 0


def _match(seed: int, date: str | None = None) -> str:
    text, _ = generate_match(random.Random(seed), "standard", None, Style(), max_deals=6)
    if date:
        text = text.replace("[Rules", f'[Date "{date}"]\n[Rules', 1)
    return text


def test_incremental_builds_read_only_what_changed(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.dpn", tmp_path / "b.dpn", tmp_path / "c.dpn"
    a.write_text(_match(1), encoding="utf-8")
    b.write_text(_match(2), encoding="utf-8")
    c.write_text(_match(3), encoding="utf-8")
    db = tmp_path / "club.duckdb"
    first = run("db", "build", "a.dpn", "b.dpn", "c.dpn", "-o", "club.duckdb", cwd=tmp_path)
    assert first.returncode == 0 and "(3 read, 0 unchanged, 0 removed), 3 games" in first.stderr
    before = query(db, "select game_id, number from games order by game_id")
    again = run("db", "build", "a.dpn", "b.dpn", "c.dpn", "-o", "club.duckdb", cwd=tmp_path)
    assert "(0 read, 3 unchanged, 0 removed), 3 games" in again.stderr
    # touched, same bytes: hashed, not read
    os.utime(b, ns=(1, 1))
    touched = run("db", "build", "a.dpn", "b.dpn", "c.dpn", "-o", "club.duckdb", cwd=tmp_path)
    assert "(0 read, 3 unchanged, 0 removed)" in touched.stderr
    # a game appended to b appears; a and c keep their rows and ids
    b.write_text(_match(2) + "\n" + _match(4, "2026.05.01"), encoding="utf-8")
    appended = run("db", "build", "a.dpn", "b.dpn", "c.dpn", "-o", "club.duckdb", cwd=tmp_path)
    assert "(1 read, 2 unchanged, 0 removed), 4 games" in appended.stderr
    rows = query(db, "select f.path, g.number, g.date from games g join files f using (file_id) order by 1, 2")
    assert [(r["path"], r["number"]) for r in rows] == [("a.dpn", 1), ("b.dpn", 1), ("b.dpn", 2), ("c.dpn", 1)]
    assert rows[2]["date"] == "2026-05-01"
    after = query(db, "select g.game_id, g.number from games g join files f using (file_id) where f.path <> 'b.dpn' "
                      "order by 1")
    assert after == [before[0], before[2]]
    # the new game's deals are the replayer's
    deals = sum(len(f.deals) for f in replay_games(parse_path(b)))
    assert query(db, "select count(*) as n from deals d join games g using (game_id) join files f using (file_id) "
                     "where f.path = 'b.dpn'") == [{"n": deals}]
    # a file no longer named: its rows go, from every table
    gone = run("db", "build", "a.dpn", "b.dpn", "-o", "club.duckdb", cwd=tmp_path)
    assert "(0 read, 2 unchanged, 1 removed), 3 games" in gone.stderr
    counts = query(db, "select (select count(*) from games) g, (select count(distinct game_id) from plays) p, "
                       "(select count(distinct game_id) from tens) t, (select count(distinct game_id) from seats) s")
    assert counts == [{"g": 3, "p": 3, "t": 3, "s": 3}]



def test_a_build_with_other_rules_reads_every_file_again(tmp_path: Path) -> None:
    """The rows are the replayer's under the rules it was given: a build with --rules naming a
    profile the files use (or with that profile changed, or without it) replays them again, though
    no file changed."""
    profile = (ROOT / "dehlanote" / "rules" / "profiles" / "standard.yaml").read_text(encoding="utf-8")
    club = tmp_path / "club.yaml"
    club.write_text(profile.replace("name: standard", "name: club"), encoding="utf-8")
    worked = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    (tmp_path / "g.dpn").write_text(worked.replace('[Rules "standard"]', '[Rules "club"]'), encoding="utf-8")
    db = tmp_path / "club.duckdb"
    plain = run("db", "build", "g.dpn", "-o", "club.duckdb", "--jobs", "1", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert query(db, "select code from errors") == [{"code": "unknown-rules"}]
    ruled = run("db", "build", "g.dpn", "-o", "club.duckdb", "--jobs", "1", "--rules", "club.yaml", cwd=tmp_path)
    assert ruled.returncode == 0, ruled.stderr
    assert "(1 read, 0 unchanged, 0 removed), 1 games, 1 deals, 0 errors" in ruled.stderr
    assert query(db, "select code from errors") == []
    assert query(db, "select winner from deals") == [{"winner": "AC"}]
    same = run("db", "build", "g.dpn", "-o", "club.duckdb", "--jobs", "1", "--rules", "club.yaml", cwd=tmp_path)
    assert "(0 read, 1 unchanged, 0 removed)" in same.stderr
    # the profile changed (a streak of 1 is a kot): the deal is replayed under it
    club.write_text(profile.replace("name: standard", "name: club").replace("streak: 7", "streak: 1"),
                    encoding="utf-8")
    changed = run("db", "build", "g.dpn", "-o", "club.duckdb", "--jobs", "1", "--rules", "club.yaml", cwd=tmp_path)
    assert "(1 read, 0 unchanged, 0 removed)" in changed.stderr
    assert query(db, "select kot_reason from deals") == [{"kot_reason": "streak"}]
    # and without it, the profile is unknown again
    dropped = run("db", "build", "g.dpn", "-o", "club.duckdb", "--jobs", "1", cwd=tmp_path)
    assert "(1 read, 0 unchanged, 0 removed), 1 games, 0 deals, 1 errors" in dropped.stderr
    assert query(db, "select code from errors") == [{"code": "unknown-rules"}]



@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="gives a file to another user (root)")
def test_a_log_of_changes_beside_the_database_from_another_user_is_not_read(tmp_path: Path) -> None:
    """DuckDB replays the log of changes beside a database (``club.duckdb.wal``) into it on
    opening, read-only too: in a folder others can write to, another user's log is refused, the
    database neither read with it nor changed by it."""
    (tmp_path / "a.dpn").write_text(_match(1), encoding="utf-8")
    assert run("db", "build", "a.dpn", "-o", "club.duckdb", "--jobs", "1", cwd=tmp_path).returncode == 0
    # another user's log: a copy of the database, changed and left with its log
    shutil.copy(tmp_path / "club.duckdb", tmp_path / "copy.duckdb")
    con = duckdb.connect(str(tmp_path / "copy.duckdb"))
    con.execute("PRAGMA disable_checkpoint_on_shutdown")
    con.execute("SET wal_autocheckpoint = '1TB'")
    con.execute("UPDATE seats SET player = 'Mallory'")
    wal = tmp_path / "club.duckdb.wal"
    shutil.copy(tmp_path / "copy.duckdb.wal", wal)
    con.close()
    os.chown(wal, 65534, 65534)
    asked = run("db", "query", "club.duckdb", "select distinct player from seats", cwd=tmp_path)
    assert asked.returncode == 2 and "Mallory" not in asked.stdout and "Traceback" not in asked.stderr
    assert "foreign-log: club.duckdb.wal, beside the database, belongs to another user" in asked.stderr
    built = run("db", "build", "a.dpn", "-o", "club.duckdb", "--jobs", "1", cwd=tmp_path)
    assert built.returncode == 2 and "foreign-log: club.duckdb.wal" in built.stderr
    # (a link there is no log of the database's either)
    wal.unlink()
    wal.symlink_to(tmp_path / "copy.duckdb.wal")
    assert "foreign-log" in run("db", "query", "club.duckdb", "select 1", cwd=tmp_path).stderr
    wal.unlink()
    assert "Mallory" not in query(tmp_path / "club.duckdb", "select distinct player from seats")


def test_duckdb_spills_into_a_private_folder_not_beside_the_database(tmp_path: Path) -> None:
    """DuckDB writes the data of a query that outgrows its memory into ``PATH.tmp`` beside the
    database: in a folder others can write to, a link there led the spill into another user's
    folder (``db query`` and a build in place). The spill folder is a private one, gone after."""
    (tmp_path / "a.dpn").write_text(_match(1), encoding="utf-8")
    assert run("db", "build", "a.dpn", "-o", "club.duckdb", "--jobs", "1", cwd=tmp_path).returncode == 0
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (tmp_path / "club.duckdb.tmp").symlink_to(theirs)
    [row] = query(tmp_path / "club.duckdb", "select current_setting('temp_directory') as spill")
    spill = Path(row["spill"])
    assert spill.name.startswith("dehlanote-duckdb-") and spill.parent != tmp_path and spill != theirs
    assert not spill.exists()
    (tmp_path / "a.dpn").write_text(_match(2), encoding="utf-8")     # a build that reads again
    assert run("db", "build", "a.dpn", "-o", "club.duckdb", "--jobs", "1", cwd=tmp_path).returncode == 0
    assert run("db", "build", "a.dpn", "-o", "club.duckdb", "--jobs", "1", cwd=tmp_path).returncode == 0
    assert list(theirs.iterdir()) == []


KILLER = textwrap.dedent("""
    import os, signal, sys
    from dehlanote.db import build as building
    from dehlanote.db.build import build
    from dehlanote.rules.profile import registry
    building.COMMIT_EVERY = 1                        # rows committed (in the private copy) before the kill
    def on_file(path, what):
        if what == "read":
            os.kill(os.getpid(), signal.SIGKILL)     # kill -9 in the middle of the build
    build(sys.argv[2:], sys.argv[1], registry(), jobs=1, on_file=on_file)
""")


def _killed_build(db: Path, files: list[Path]) -> int:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", KILLER, str(db), *map(str, files)], env=env, capture_output=True,
                          timeout=120)
    return proc.returncode


def test_a_build_killed_halfway_leaves_the_previous_database(tmp_path: Path) -> None:
    a, b = tmp_path / "a.dpn", tmp_path / "b.dpn"
    a.write_text(_match(1), encoding="utf-8")
    b.write_text(_match(2), encoding="utf-8")
    db = tmp_path / "club.duckdb"
    # a first build killed: no database under the name, no temporary left but the folder's
    assert _killed_build(db, [a, b]) == -signal.SIGKILL
    assert not db.exists()
    assert run("db", "build", str(a), "-o", str(db)).returncode == 0
    before = query(db, "select (select count(*) from games) g, (select count(*) from plays) p, "
                       "(select count(*) from files) f")
    a.write_text(_match(5), encoding="utf-8")       # changed, and b new: killed after a's rows were replaced
    assert _killed_build(db, [a, b]) == -signal.SIGKILL
    assert query(db, "select (select count(*) from games) g, (select count(*) from plays) p, "
                     "(select count(*) from files) f") == before
    done = run("db", "build", str(a), str(b), "-o", str(db))
    assert done.returncode == 0 and "(2 read, 0 unchanged, 0 removed), 2 games" in done.stderr
    for leftover in tmp_path.glob(".club.duckdb.*.tmp"):
        shutil.rmtree(leftover)


def test_query_formats_and_errors(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert run("db", "build", *SAMPLES, "-o", str(db)).returncode == 0
    sql = "select winner, count(*) as deals from deals where winner is not null group by 1 order by 1"
    csv_out = run("db", "query", str(db), sql, "--format", "csv")
    lines = csv_out.stdout.splitlines()
    assert lines[0] == "winner,deals" and len(lines) == 1 + len({r["winner"] for r in query(db, sql)})
    stats = json.loads(run("stats", "--format", "json", *SAMPLES).stdout)
    assert {ln.split(",")[0]: int(ln.split(",")[1]) for ln in lines[1:]} == stats["won"]
    table = run("db", "query", str(db), sql)
    assert table.returncode == 0 and "winner" in table.stdout and f"{len(lines) - 1} rows" in table.stdout
    for bad in ("selec 1", "select * from no_such_table", "delete from deals",
                "copy deals to 'out.csv'", "select * from read_csv('/etc/passwd')",
                "", " ;; ", "/* a comment and nothing else */"):     # (these three gave a traceback)
        proc = run("db", "query", str(db), bad, cwd=tmp_path)
        assert proc.returncode == 2, bad
        assert proc.stderr.startswith("dehlanote: sql-error: ") and proc.stderr.count("\n") == 1, proc.stderr
        assert "Traceback" not in proc.stderr
    assert not (tmp_path / "out.csv").exists()
    missing = run("db", "query", str(tmp_path / "none.duckdb"), "select 1")
    assert missing.returncode == 2 and missing.stderr.startswith("dehlanote: no-database: ")
    junk = tmp_path / "junk.duckdb"
    junk.write_text("not a database\n")
    for args in (("db", "query", str(junk), "select 1"), ("db", "build", SAMPLES[0], "-o", str(junk))):
        proc = run(*args)
        assert proc.returncode == 2 and proc.stderr.startswith("dehlanote: not-a-database: "), proc.stderr
        assert "Traceback" not in proc.stderr
    unreadable = run("db", "build", str(tmp_path / "nope.dpn"), "-o", str(db))
    assert unreadable.returncode == 2 and unreadable.stderr.startswith("dehlanote: unreadable: ")
    # a folder that does not exist: said with the path (it was "cannot write the output: no such
    # file or directory"), nothing made
    lost = run("db", "build", SAMPLES[0], "-o", str(tmp_path / "nowhere" / "club.duckdb"))
    assert lost.returncode == 2 and lost.stderr == (
        f"dehlanote: no-folder: cannot write {tmp_path / 'nowhere' / 'club.duckdb'}: "
        f"the folder {tmp_path / 'nowhere'} does not exist\n"), lost.stderr
    assert not (tmp_path / "nowhere").exists()


def test_without_duckdb_the_command_says_how_to_install_it(tmp_path: Path) -> None:
    fake = tmp_path / "fake"
    (fake / "duckdb").mkdir(parents=True)
    (fake / "duckdb" / "__init__.py").write_text("raise ImportError('no duckdb here')\n")
    proc = run("db", "build", SAMPLES[0], "-o", str(tmp_path / "x.duckdb"), env={"PREPEND": str(fake)})
    assert proc.returncode == 2
    assert proc.stderr.strip() == "dehlanote: missing-duckdb: the db commands need DuckDB and pyarrow: " \
                                  "pip install 'dehlanote[db]'"


def _plain_rows(path: str, first_game: int, file_id: int, con) -> None:
    """The rows of ``path`` inserted into ``con`` the earlier way: plain Python columns made
    Arrow tables by inference, one batch, each card's suit and rank cut by DuckDB."""
    import pyarrow as pa

    from dehlanote.analysis.judge import claim_judge
    from dehlanote.db import schema
    from dehlanote.db.rows import Rows
    from dehlanote.replay.game import replay_game
    from dehlanote.rules.profile import registry
    from dehlanote.syntax.parser import parse_chunk
    from dehlanote.syntax.reader import split_games

    reg = registry()
    rows = Rows()
    with open(path, "rb") as stream:
        for chunk in split_games(stream):
            for game in parse_chunk(chunk):
                rows.add(replay_game(game, reg, dealt_hands=False, judge=claim_judge), rows.games + 1)
    for name in rows.names():
        staged = pa.table(rows.columns(name))  # noqa: F841  (read by DuckDB by its name)
        sql = schema.STAGED[name]
        if name == "plays":
            sql = sql.replace("suit, rank", "right(card, 1), card[1:-2]")
        params = {k: v for k, v in {"game": first_game, "file": file_id, "number": 1}.items() if f"${k}" in sql}
        con.execute(f"INSERT INTO {name} {sql}", params).fetchall()


@pytest.mark.parametrize("small_rows", [0, 20_000])
def test_packed_batches_give_the_rows_of_plain_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       small_rows: int) -> None:
    """The workers' packed columns (numbers as arrays, seats, cards and reasons as codes) and
    the suits and ranks cut from the codes give the very rows of the earlier way (plain
    columns, a batch at a time), with --jobs 1 and 2, in batches small enough that a file
    spans several commits, each batch inserted alone (``small_rows`` 0) or small batches of
    several files inserted together."""
    from dehlanote.batch import pool
    from dehlanote.db import build as builder, schema
    from dehlanote.db.build import build
    from dehlanote.rules.profile import registry

    monkeypatch.setattr(builder, "SMALL_ROWS", small_rows)

    big = tmp_path / "big.dpn"
    big.write_text("\n".join(_match(seed, f"2026.0{seed % 9 + 1}.1{seed % 10}") for seed in range(10, 22)),
                   encoding="utf-8")
    # an hour old: a file modified within 2 s of its reading is kept with no time (db.build.RACY_NS),
    # so the builds below, one before and one after those 2 s, differed in the files table
    st = os.stat(big)
    os.utime(big, ns=(st.st_atime_ns, st.st_mtime_ns - 3_600_000_000_000))
    files = [*SAMPLES, *INVALID, str(big)]
    monkeypatch.setattr(pool, "BATCH_CHARS", 3000)
    dbs = {}
    for jobs in (1, 2):
        dbs[jobs] = str(tmp_path / f"jobs{jobs}.duckdb")
        build(files, dbs[jobs], registry(), jobs=jobs)
    con = duckdb.connect()
    for statement in schema.TABLES.split(";\n"):
        if statement.strip():
            con.execute(statement)
    for jobs, db in dbs.items():
        con.execute(f"ATTACH '{db}' AS jobs{jobs} (READ_ONLY)")
    for file_id, path, first in con.execute("SELECT file_id, path, first_game FROM jobs1.files").fetchall():
        _plain_rows(path, first, file_id, con)
    assert con.execute("SELECT count(*) FROM jobs1.files").fetchall() == [(len(files),)]
    for table in ("games", "seats", "deals", "deal_sides", "tricks", "plays", "captures", "tens", "errors"):
        count = con.execute(f"SELECT count(*) FROM memory.{table}").fetchall()[0][0]
        assert count > 0, table
        for jobs in dbs:
            for a, b in ((f"memory.{table}", f"jobs{jobs}.{table}"), (f"jobs{jobs}.{table}", f"memory.{table}")):
                assert con.execute(f"SELECT count(*) FROM (FROM {a} EXCEPT ALL FROM {b})").fetchall() == [(0,)], \
                    (table, jobs, a)
    for a, b in (("jobs1", "jobs2"), ("jobs2", "jobs1")):
        for table in ("files", "ratings"):
            assert con.execute(f"SELECT count(*) FROM (FROM {a}.{table} EXCEPT ALL FROM {b}.{table})"
                               ).fetchall() == [(0,)], (table, a, con.execute(
                f"FROM (FROM {a}.{table} EXCEPT ALL FROM {b}.{table})").fetchall(), con.execute(
                f"FROM (FROM {b}.{table} EXCEPT ALL FROM {a}.{table})").fetchall())
    assert con.execute("SELECT count(*) FROM jobs2.plays WHERE withdrawn IS NOT NULL").fetchall()[0][0] > 0


def test_an_archive_of_small_files_is_inserted_in_few_statements(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """An archive of a file a night: each file's one small batch was inserted alone, nine
    statements of about a millisecond each, so 1,500 files of one game took 27 s to build
    against 1 s for the same games in one file. Small batches of several files now go in
    together, with the same rows."""
    from dehlanote.db import build as builder
    from dehlanote.rules.profile import registry

    files = []
    for seed in range(40):
        path = tmp_path / f"night{seed:02d}.dpn"
        path.write_text(_match(100 + seed, f"2026.0{seed % 9 + 1}.1{seed % 10}"), encoding="utf-8")
        files.append(str(path))
    inserts: list[str] = []
    for name in ("_insert", "_insert_together"):
        if hasattr(builder, name):
            real = getattr(builder, name)
            monkeypatch.setattr(builder, name, lambda *a, _real=real, _name=name: (inserts.append(_name), _real(*a)))
    builder.build(files, str(tmp_path / "nights.duckdb"), registry(), jobs=1)
    assert len(inserts) <= 2, inserts
    monkeypatch.undo()
    joined = tmp_path / "one.dpn"
    joined.write_text("\n".join(Path(f).read_text(encoding="utf-8") for f in files), encoding="utf-8")
    builder.build([str(joined)], str(tmp_path / "one.duckdb"), registry(), jobs=1)
    con = duckdb.connect()
    con.execute(f"ATTACH '{tmp_path / 'nights.duckdb'}' AS nights (READ_ONLY)")
    con.execute(f"ATTACH '{tmp_path / 'one.duckdb'}' AS one (READ_ONLY)")
    for table, columns in (("deals", "* EXCLUDE (line)"), ("plays", "* EXCLUDE (line)"), ("tens", "*"),
                           ("captures", "*"), ("seats", "*"), ("ratings", "*"), ("tricks", "*")):
        for a, b in (("nights", "one"), ("one", "nights")):
            assert con.execute(f"SELECT count(*) FROM (SELECT {columns} FROM {a}.{table} EXCEPT ALL "
                               f"SELECT {columns} FROM {b}.{table})").fetchall() == [(0,)], (table, a)


def test_a_second_edit_of_the_same_size_in_the_same_clock_tick_is_seen(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A file saved, built at once, then corrected without changing its size (two letters, two
    cards swapped) within the same tick of the file system's clock (2 s on FAT, a few ms on
    ext4) keeps its size and time: the next build called it unchanged and kept the old games
    for good. A file modified just before it was read is hashed again at the next build."""
    from dehlanote.db import build as builder
    from dehlanote.rules.profile import registry

    night = tmp_path / "night.dpn"
    night.write_text(_match(5).replace("[Event", '[Site "Agra"]\n[Event', 1), encoding="utf-8")
    db = str(tmp_path / "club.duckdb")
    builder.build([str(night)], db, registry(), jobs=1)
    st = night.stat()
    night.write_text(night.read_text(encoding="utf-8").replace('"Agra"', '"Pune"'), encoding="utf-8")
    os.utime(night, ns=(st.st_atime_ns, st.st_mtime_ns))      # (the same tick: the same time)
    assert night.stat().st_size == st.st_size
    summary = builder.build([str(night)], db, registry(), jobs=1)
    assert summary.read == 1
    con = duckdb.connect(db, read_only=True)
    assert con.execute("SELECT site FROM games").fetchall() == [("Pune",)]
    con.close()
    # a file whose time is settled is not hashed again (nor opened) while its size and time hold
    os.utime(night, ns=(st.st_atime_ns, st.st_mtime_ns - 3_600_000_000_000))
    builder.build([str(night)], db, registry(), jobs=1)

    def no_hash(path: str) -> str:
        raise AssertionError(f"{path} hashed again")
    monkeypatch.setattr(builder, "file_digest", no_hash)
    summary = builder.build([str(night)], db, registry(), jobs=1)
    assert (summary.read, summary.unchanged) == (0, 1)
