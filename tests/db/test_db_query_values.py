"""db query gives every DuckDB value as valid JSON, and CSV a spreadsheet does not run as formulas."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from db_helpers import run  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("values") / "club.duckdb"
    code, _, err = run("db", "build", str(ROOT / "samples" / "worked-example.dpn"), "-o", str(path), "--jobs", "1")
    assert code == 0, err
    return path


def strict(text: str) -> object:
    """JSON as the standard has it (Python's reader takes NaN and Infinity: refused here)."""
    def refuse(word: str) -> None:
        raise ValueError(f"not JSON: {word}")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(("sql", "expected"), [
    ("select age(date '2026-11-27', date '2025-01-01') v", "P686D"),
    ("select interval 90 minute v", "PT1H30M"),
    ("select -interval 90 minute v", "-PT1H30M"),
    ("select interval 3 day + interval 5 second v", "P3DT5S"),
    ("select interval 1500 millisecond v", "PT1.5S"),
    ("select interval 0 second v", "PT0S"),
    ("select '3c59cb26-0a65-46aa-ad56-f6626828b006'::uuid v", "3c59cb26-0a65-46aa-ad56-f6626828b006"),
    ("select 'inf'::double v", "Infinity"),
    ("select '-inf'::float v", "-Infinity"),
    ("select 'nan'::double v", "NaN"),
    ("select ['inf'::double, 1.5] v", ["Infinity", 1.5]),
    ("select {'when': interval 1 hour, 'id': '3c59cb26-0a65-46aa-ad56-f6626828b006'::uuid} v",
     {"when": "PT1H", "id": "3c59cb26-0a65-46aa-ad56-f6626828b006"}),
    ("select date '2026-11-27' v", "2026-11-27"),
    ("select 2.50::decimal(4,2) v", 2.5),
    ("select 'x'::blob v", "78"),
])
def test_every_value_is_valid_json(db: Path, sql: str, expected: object) -> None:
    code, out, err = run("db", "query", str(db), sql, "--format", "json")
    assert code == 0 and "Traceback" not in err, err
    assert strict(out) == [{"v": expected}]


def test_the_testers_queries(db: Path) -> None:
    for sql in ("select age(max(date), min(date)) from games", "select gen_random_uuid() u",
                "select 'inf'::double x", "select timestamp '2026-11-27 10:00' - timestamp '2026-01-01' d"):
        code, out, err = run("db", "query", str(db), sql, "--format", "json")
        assert code == 0 and "Traceback" not in err, (sql, err)
        rows = strict(out)
        assert isinstance(rows, list) and len(rows) == 1
        for fmt in ("csv", "table"):
            code, _, err = run("db", "query", str(db), sql, "--format", fmt)
            assert code == 0 and "Traceback" not in err, (sql, fmt, err)
    code, out, _ = run("db", "query", str(db), "select gen_random_uuid() u, 'inf'::double x", "--format", "csv")
    row = list(csv.reader(io.StringIO(out)))[1]
    assert len(row[0]) == 36 and row[1] == "Infinity"
    assert math.isinf(float(row[1]))


def test_csv_cells_that_would_be_formulas_are_quoted(db: Path) -> None:
    sql = ("select '=HYPERLINK(\"http://evil\",\"Asha\")' a, '+91 98' b, '-1+2' c, '@SUM(A1)' d, "
           "chr(9) || '=1' e, 'Asha = Bala' f, -5 g, -1.5 h, 'Asha' \"=name\"")
    code, out, err = run("db", "query", str(db), sql, "--format", "csv")
    assert code == 0, err
    header, row = list(csv.reader(io.StringIO(out)))
    assert header == ["a", "b", "c", "d", "e", "f", "g", "h", "'=name"]
    assert row == ["'=HYPERLINK(\"http://evil\",\"Asha\")", "'+91 98", "'-1+2", "'@SUM(A1)", "'\t=1", "Asha = Bala",
                   "-5", "-1.5", "Asha"]
    # minus infinity is written "-Infinity": no number to a spreadsheet, and it starts as a formula does
    code, out, err = run("db", "query", str(db), "select '-inf'::double x, 'inf'::double y, -3.0 z", "--format", "csv")
    assert code == 0, err
    assert list(csv.reader(io.StringIO(out)))[1] == ["'-Infinity", "Infinity", "-3"]
    # JSON gives the text as stored
    code, out, _ = run("db", "query", str(db), sql, "--format", "json")
    assert strict(out)[0]["a"] == "=HYPERLINK(\"http://evil\",\"Asha\")"


def test_json_keeps_every_column_of_the_same_name(db: Path) -> None:
    """Two columns of one name (a join's ``line`` and ``line``) are two keys, named as DuckDB
    names them in a table made of the query, rather than one key holding the last value."""
    code, out, err = run("db", "query", str(db), "select 1 as a, 2 as a, 3 as a_1", "--format", "json")
    assert code == 0, err
    assert strict(out) == [{"a": 1, "a_1": 2, "a_1_1": 3}]
    sql = "select g.line, d.line from games g join deals d using (game_id) order by d.deal limit 1"
    code, out, err = run("db", "query", str(db), sql, "--format", "json")
    assert code == 0, err
    (row,) = strict(out)
    assert sorted(row) == ["line", "line_1"] and row["line"] < row["line_1"]


@pytest.mark.parametrize("sql", ["select 1 as a; select 2 as a", "select * from standings; select 1"])
def test_more_than_one_statement_is_refused(db: Path, sql: str) -> None:
    """db query answers one query: given two, DuckDB ran both and only the last one's rows came
    out, as if the first had answered nothing."""
    code, out, err = run("db", "query", str(db), sql, "--format", "json")
    assert code == 2 and out == ""
    assert err.startswith("dehlanote: sql-error: the query holds 2 statements"), err


def test_one_statement_with_its_semicolon_and_a_comment_is_answered(db: Path) -> None:
    code, out, err = run("db", "query", str(db), "select 7 as a; -- the end", "--format", "json")
    assert code == 0, err
    assert strict(out) == [{"a": 7}]


@pytest.mark.parametrize("form", ["csv", "json"])
def test_csv_and_json_are_written_a_page_of_rows_at_a_time(db: Path, form: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``db query ... "select * from plays" --format csv`` held every row as Python tuples before
    writing any: 929 MB for the 2.5 million plays of 48,000 deals (157 MB written a page at a
    time), some 19 GB for a million deals'. The text is the same."""
    import dehlanote.commands.db as command

    sql = "select game_id, deal, trick, position, card, withdrawn from plays order by all"
    code, whole, err = run("db", "query", str(db), sql, "--format", form)
    assert code == 0, err
    pieces: list[str] = []
    real = command.emit
    monkeypatch.setattr(command, "PAGE_ROWS", 7, raising=False)
    monkeypatch.setattr(command, "emit", lambda text, **kw: (pieces.append(text), real(text, **kw)))
    code, paged, err = run("db", "query", str(db), sql, "--format", form)
    assert code == 0, err
    assert paged == whole
    rows = len(strict(whole)) if form == "json" else whole.count("\n") - 1
    assert rows > 20
    lines_a_row = 1 if form == "csv" else 9 + 1
    assert max(piece.count("\n") for piece in pieces) <= 7 * lines_a_row + 2, [p.count("\n") for p in pieces]
