"""Checking on several processes gives, report for report, what one process gives.

Each report is compared on everything the command line shows: the game's place and counts,
and each error's code, message, position, deal, trick, path and source line.
"""

from __future__ import annotations

import io
import pickle
import random
from pathlib import Path

import pytest

from dehlanote.errors import DpnError
from dehlanote.batch.pool import GameReport, batches, validate_parallel, validate_path, validate_serial
from dehlanote.oracle.playout import Style, generate_match, iter_matches
from dehlanote.replay import replay_game
from dehlanote.syntax import iter_path
from dehlanote.syntax.reader import split_games

ROOT = Path(__file__).resolve().parents[2]


def shown(reports) -> list[tuple]:
    """Everything of a list of reports that reaches a user."""
    return [(r.index, r.line, r.column, r.deals,
             tuple((e.code, e.message, e.line, e.column, e.deal, e.trick, e.path, e.source_line, e.offset)
                   for e in r.errors))
            for r in reports]


def _broken(text: str, rng: random.Random) -> str:
    """A game with a rule error or two: a card moved, a tens claim changed."""
    lines = text.split("\n")
    tricks = [i for i, line in enumerate(lines) if line[:3].strip().isdigit()]
    i, j = rng.sample(tricks, 2)
    a, b = lines[i].split(), lines[j].split()
    a[-1], b[-1] = b[-1], a[-1]
    lines[i], lines[j] = " ".join(a), " ".join(b)
    return "\n".join(lines).replace("tens AC 3 BD 1", "tens AC 1 BD 3", 1)


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """Valid games, games with rule errors, hand-written games, and every invalid sample
    (syntax errors, bad bytes), mixed; about 300 deals."""
    rng = random.Random(5)
    parts: list[bytes] = []
    for n, (text, _facts) in enumerate(iter_matches(1, 160, "standard", style=Style())):
        parts.append((_broken(text, rng) if n % 3 == 0 else text).encode())
    for seed in range(6):
        text, _ = generate_match(random.Random(seed), "pagat", {"kots": 2, "trump": "first-void-five"},
                                 Style(loose=True, hands=True, withdrawn=0.3), max_deals=3)
        parts.append(text.encode())
    for path in sorted((ROOT / "tests" / "invalid").glob("*.dpn")) + sorted((ROOT / "samples").glob("*.dpn")):
        data = path.read_bytes()
        parts.append(data if data.endswith(b"\n") else data + b"\n")
    rng.shuffle(parts)
    path = tmp_path_factory.mktemp("parallel") / "mixed.dpn"
    path.write_bytes(b"\n".join(parts))
    return path


def test_the_archive_has_errors_of_every_kind(archive: Path) -> None:
    codes = {e.code for r in validate_serial(archive) for e in r.errors}
    assert {"syntax", "bad-card", "bad-tag", "encoding", "tens-mismatch"} <= codes
    assert len(codes) >= 7


@pytest.mark.parametrize("jobs", [2, 3])
def test_jobs_give_the_same_reports(archive: Path, jobs: int) -> None:
    one = list(validate_parallel(archive, 1))
    many = list(validate_parallel(archive, jobs, batch_chars=3000))   # many small batches
    assert len(one) > 80
    assert shown(many) == shown(one)
    assert [r.index for r in one] == list(range(len(one)))


def test_reports_are_what_parse_and_replay_say(archive: Path) -> None:
    """The reports hold each game's errors as the command line locates them."""
    expected = []
    for index, game in enumerate(iter_path(archive, keep_source=True)):
        facts = replay_game(game)
        errors = tuple(e.with_context(path=str(archive), source_line=game.line_text(e.line))
                       for e in facts.errors)
        expected.append(GameReport(index, game.line, game.column, len(game.deals), errors))
    assert shown(validate_parallel(archive, 2, batch_chars=5000)) == shown(expected)
    assert all(e.source_line is not None for r in expected for e in r.errors if e.code != "encoding")


def test_streams_and_names(archive: Path) -> None:
    data = archive.read_bytes()
    by_path = shown(validate_parallel(archive, 2, name="<stdin>"))
    assert shown(validate_parallel(io.BytesIO(data), 2, name="<stdin>")) == by_path
    assert shown(validate_parallel(io.BytesIO(data), 1, name="<stdin>")) == by_path
    assert {e.path for r in validate_parallel(io.BytesIO(data), 2) for e in r.errors} == {None}
    text = data.decode("utf-8", "replace")
    assert len(list(validate_parallel(io.StringIO(text), 2))) == len(by_path)


def test_registry_files(tmp_path: Path) -> None:
    yaml = tmp_path / "house.yaml"
    yaml.write_text("name: house\nbase: standard\nparams:\n  streak: 3\n", encoding="utf-8")
    text, _ = generate_match(random.Random(2), "standard", {"streak": 3}, max_deals=6)
    record = tmp_path / "house.dpn"
    record.write_text(text.replace('"standard streak=3"', '"house"') * 3, encoding="utf-8")
    without = list(validate_parallel(record, 2))
    assert all(e.code == "unknown-rules" for r in without for e in r.errors) and without[0].errors
    with_it = list(validate_parallel(record, 2, registry_files=[yaml]))
    assert shown(with_it) == shown(validate_parallel(record, 1, registry_files=[yaml]))
    assert all(r.ok for r in with_it)
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [\n", encoding="utf-8")
    with pytest.raises(DpnError) as caught:
        list(validate_parallel(record, 2, registry_files=[bad]))
    assert caught.value.code == "unknown-rules"


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        list(validate_parallel(tmp_path / "missing.dpn", 2))


@pytest.mark.parametrize("change", ["removed", "rewritten"])
def test_a_file_that_changes_while_it_is_checked_is_said_to_have_changed(archive: Path, tmp_path: Path,
                                                                          change: str) -> None:
    # each worker opens the file by its name: removed while validate --jobs 2 ran, it was
    # "cannot read x.dpn: no such file" after half of it (one process read it all); rewritten,
    # the workers read the new text at the old cuts, and the games of two files were mixed
    path = tmp_path / "x.dpn"
    path.write_bytes(archive.read_bytes() * 3)
    reports = validate_parallel(path, 2, ranges=40)
    first = next(reports)
    assert first.index == 0
    if change == "removed":
        path.unlink()
    else:
        path.write_bytes(archive.read_bytes())
    with pytest.raises(OSError) as caught:
        list(reports)
    assert type(caught.value).__name__ == "FileChanged"
    assert "changed while it was checked" in str(caught.value.strerror)


def test_a_range_cut_short_while_it_is_read_is_not_the_end_of_the_file(archive: Path, tmp_path: Path) -> None:
    # truncated in place under a worker that had it open, its range ended early and was
    # taken for the end of the file: validate --jobs 2 said "370 games", exit 1, and nothing more
    from dehlanote.batch.ranges import plan_ranges, read_range
    path = tmp_path / "x.dpn"
    path.write_bytes(archive.read_bytes())
    cuts = plan_ranges(path, 1)
    chunks = read_range(path, cuts, 0, [])
    next(chunks)
    with open(path, "r+b") as f:
        f.truncate(1000)
    with pytest.raises(OSError) as caught:
        list(chunks)
    assert type(caught.value).__name__ == "FileChanged"


def test_stopping_early_stops_the_workers(archive: Path) -> None:
    reports = validate_parallel(archive, 2, batch_chars=2000)
    first = [next(reports) for _ in range(3)]
    reports.close()
    assert [r.index for r in first] == [0, 1, 2]


def test_report_pickles_with_its_errors() -> None:
    error = DpnError("revoke", "B had a heart", 7, 9, deal=1, trick=3, source_line=" 3 A: AH 2C",
                     path="x.dpn")
    report = GameReport(4, 1, 1, 2, (error,))
    back = pickle.loads(pickle.dumps(report))
    assert shown([back]) == shown([report])


def test_batches_keep_every_chunk_in_order(archive: Path) -> None:
    with open(archive, "rb") as stream:
        chunks = list(split_games(stream))
    grouped = list(batches(chunks, 4000))
    assert [c for b in grouped for c in b] == chunks
    assert len(grouped) > 5


def test_validate_path(archive: Path) -> None:
    assert shown(validate_path(archive, 2)) == shown(validate_serial(archive, name=str(archive)))


def test_spawned_workers_give_the_same_reports(archive: Path) -> None:
    assert shown(validate_parallel(archive, 2, mp_context="spawn", batch_chars=20000)) == \
        shown(validate_parallel(archive, 1))
