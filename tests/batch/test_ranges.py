"""A file read in byte ranges, each by the process that checks it, gives what one pass gives.

Differential: every check here compares with ``--jobs 1`` (one pass of the splitter over
the whole file, :func:`validate_serial`): the chunks themselves, and the reports (each
game's place and counts, each error's code, message, position, deal, trick, path and source
line, in order). The files are built so that cuts land where a range reader can go wrong:
games across a cut, a cut that is not a game start (a blank line inside a header), CRLF, a
BOM, a file ending without a line end, bytes that are not UTF-8 on each side of a cut,
errors in the first and the last game.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dehlanote.batch.pool import validate_parallel, validate_serial
from dehlanote.batch import ranges
from dehlanote.batch.ranges import check_range, guided_starts, plan_ranges, range_count, read_range
from dehlanote.oracle.playout import Style, generate_match, iter_matches
from dehlanote.rules.profile import registry
from dehlanote.syntax.reader import split_games

ROOT = Path(__file__).resolve().parents[2]


def shown(reports) -> list[tuple]:
    return [(r.index, r.line, r.column, r.deals,
             tuple((e.code, e.message, e.line, e.column, e.deal, e.trick, e.path, e.source_line, e.offset)
                   for e in r.errors))
            for r in reports]


def _games(n: int, seed: int) -> list[str]:
    return [t for t, _ in iter_matches(seed, n, "standard", style=Style())]


def _record(seed: int) -> list[bytes]:
    """Games of every kind, each ending with a line end: plain, with rule errors, hand
    written, every invalid sample and sample."""
    rng = random.Random(seed)
    parts = [t.encode() for t in _games(30, seed)]
    parts[3] = parts[3].replace(b"tens AC 3 BD 1", b"tens AC 1 BD 3", 1)
    for s in range(3):
        text, _ = generate_match(random.Random(s), "pagat", {"kots": 2}, Style(loose=True, hands=True), max_deals=3)
        parts.append(text.encode())
    for path in sorted((ROOT / "tests" / "invalid").glob("*.dpn")) + sorted((ROOT / "samples").glob("*.dpn")):
        data = path.read_bytes()
        parts.append(data if data.endswith(b"\n") else data + b"\n")
    rng.shuffle(parts)
    return parts


def _header_with_a_blank_line(game: bytes) -> bytes:
    # a blank line between two tags of a header: a line opening with [ after a blank line
    # that is no game start (a game starts at a tag after a deal)
    return game.replace(b'\n[A "', b'\n\n[A "', 1)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ranges")
    parts = _record(3)
    plain = [t.encode() for t in _games(40, 7)]
    out: dict[str, bytes] = {}
    out["mixed"] = b"\n".join(parts)
    # a bad byte at the end of the line before a cut, and one just after a cut's [
    stray = list(plain)
    stray[5] = stray[5].rstrip(b"\n") + b" {caf\xe9}\n"
    stray[9] = stray[9].replace(b"[Event", b"[Ev\xffent", 1)
    stray[12] = b"\xff" + stray[12]
    out["bad-bytes-at-cuts"] = b"\n".join(stray)
    out["crlf-bom"] = b"\xef\xbb\xbf" + b"\n".join(parts).replace(b"\n", b"\r\n")
    out["no-final-newline"] = b"\n".join(plain).rstrip(b"\n")
    headers = [_header_with_a_blank_line(g) if i % 2 else g for i, g in enumerate(plain)]
    out["blank-lines-in-headers"] = b"\n".join(headers)
    errs = list(plain)
    errs[0] = errs[0].replace(b"deal 1", b"deal 1 dealer Q", 1)
    errs[-1] = errs[-1].replace(b"deal 1", b"deal 1 dealer Q", 1).rstrip(b"\n")
    out["errors-first-and-last"] = b"\n".join(errs)
    out["one-long-game"] = plain[0] + b"".join(g.split(b"\n\n", 1)[1] for g in plain[1:20])
    paths = {}
    for name, data in out.items():
        path = folder / f"{name}.dpn"
        path.write_bytes(data)
        paths[name] = path
    return paths


NAMES = ["mixed", "bad-bytes-at-cuts", "crlf-bom", "no-final-newline", "blank-lines-in-headers",
         "errors-first-and-last", "one-long-game"]


def _chunks_by_ranges(path: Path, count: int, workers: int = 0) -> tuple[list, list[int]]:
    cuts = plan_ranges(path, count, workers=workers)
    chunks, starts, at = [], [], 0
    while at < len(cuts) - 1:
        starts.append(at)
        stop: list[int] = []
        chunks.extend(read_range(path, cuts, at, stop))
        assert stop[0] > at
        at = stop[0]
    return chunks, starts


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("count", [2, 5, 40, 100000])
def test_ranges_give_the_chunks_of_one_pass(files: dict[str, Path], name: str, count: int) -> None:
    path = files[name]
    with open(path, "rb") as stream:
        whole = list(split_games(stream))
    chunks, _ = _chunks_by_ranges(path, count)
    # everything a chunk is, the reader's hint of a plain game's span and the last flag included
    assert [tuple(c) for c in chunks] == [tuple(c) for c in whole]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("workers,smallest", [(1, 300), (2, 100), (2, 2000), (3, 1)])
def test_guided_ranges_give_the_chunks_of_one_pass(files: dict[str, Path], name: str, workers: int, smallest: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # (the files are small: ranges of a few hundred bytes, where a task's are of 1 MiB)
    monkeypatch.setattr(ranges, "guided_starts", lambda size, w: guided_starts(size, w, smallest=smallest))
    path = files[name]
    with open(path, "rb") as stream:
        whole = list(split_games(stream))
    chunks, _ = _chunks_by_ranges(path, 0, workers)
    assert [tuple(c) for c in chunks] == [tuple(c) for c in whole]
    assert len(plan_ranges(path, 0, workers=workers)) > 2 or smallest == 2000 or name == "one-long-game"


def test_guided_ranges_shrink_by_rounds_to_equal_last_ones() -> None:
    def sizes(size: int, workers: int) -> list[int]:
        starts = [0, *guided_starts(size, workers), size]
        return [b - a for a, b in zip(starts, starts[1:])]
    mib = 1 << 20
    got = sizes(33_681_000, 2)          # the benchmark's file on 2 workers
    assert len(got) == 10 and got[0] == got[1] == 33_681_000 // 4 and got[2] == got[3] < got[0]
    assert all(a >= b - 1 for a, b in zip(got, got[1:])) and max(got[-4:]) - min(got[-4:]) <= 1
    assert min(got) >= mib
    for size, workers in ((34_000_000, 3), (4_000_000_000, 2), (5 * mib, 4), (3 * mib, 2), (100 << 20, 1)):
        got = sizes(size, workers)
        assert sum(got) == size and max(got) <= 16 * mib and min(got) >= mib // 4
        assert len(got) % workers == 0      # every round, the last included, one range a worker
    assert sizes(4_000_000_000, 2)[:4] == [16 * mib] * 4
    assert sizes(1000, 2) == [1000] and guided_starts(0, 2) == []


@pytest.mark.parametrize("name", NAMES)
def test_every_cut_is_tried(files: dict[str, Path], name: str) -> None:
    """With as many ranges as bytes, every line that opens with [ after a blank line is a
    cut: the ones that are game starts are where a range starts, the others are read through."""
    path = files[name]
    cuts = plan_ranges(path, path.stat().st_size)
    data = path.read_bytes()
    assert len(cuts) - 2 == data.count(b"\n\n[") + data.count(b"\n\r\n[") - data.count(b"\n\n\r\n[")
    _, starts = _chunks_by_ranges(path, path.stat().st_size)
    with open(path, "rb") as stream:
        games = {(c.line, c.column) for c in split_games(stream)}
    assert [k for k in range(len(cuts) - 1) if (cuts[k].line, 1) in games or k == 0] == starts
    if name == "blank-lines-in-headers":
        assert len(starts) < len(cuts) - 1      # cuts read through: inside a header


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("ranges", [None, 3, 64])
def test_jobs_by_ranges_give_the_reports_of_one_process(files: dict[str, Path], name: str,
                                                         ranges: int | None) -> None:
    path = files[name]
    one = shown(validate_serial(path, name=str(path)))
    many = shown(validate_parallel(path, 2, ranges=ranges))
    assert many == one
    assert any(r[4] for r in one) == (name not in ("no-final-newline", "blank-lines-in-headers", "one-long-game"))


def test_errors_in_the_first_and_the_last_game(files: dict[str, Path]) -> None:
    path = files["errors-first-and-last"]
    reports = list(validate_parallel(path, 2, ranges=8))
    data = path.read_bytes()
    lines = [data[:at].count(b"\n") + 1 for at in (data.find(b"dealer Q"), data.rfind(b"dealer Q"))]
    assert [r.errors[0].line for r in (reports[0], reports[-1])] == lines
    assert not any(r.errors for r in reports[1:-1])


def test_a_range_sends_back_a_summary(files: dict[str, Path]) -> None:
    path = files["mixed"]
    cuts = plan_ranges(path, 4)
    result = check_range(path, cuts, 0, registry(), str(path))
    serial = list(validate_serial(path, name=str(path)))
    n = len(result.lines)
    assert 0 < n < len(serial)
    assert list(result.deals) == [r.deals for r in serial[:n]]
    assert [(g, s[0], s[2], s[3]) for g, s in result.errors] == \
        [(i, e.code, e.line, e.column) for i, r in enumerate(serial[:n]) for e in r.errors]


def test_range_count_comes_from_the_workers_and_the_size() -> None:
    assert range_count(34_000_000, 2) == 4          # two a worker
    assert range_count(34_000_000, 3) == 6
    assert range_count(1000, 1) == 2
    big = range_count(4_000_000_000, 2)
    assert big % 2 == 0 and 4_000_000_000 / big <= 16 << 20


def test_an_empty_file_and_a_file_of_one_game(tmp_path: Path) -> None:
    empty = tmp_path / "empty.dpn"
    empty.write_bytes(b"")
    assert shown(validate_parallel(empty, 2)) == shown(validate_serial(empty, name=str(empty))) == []
    one = tmp_path / "one.dpn"
    one.write_bytes(_games(1, 2)[0].encode())
    assert shown(validate_parallel(one, 2, ranges=10)) == shown(validate_serial(one, name=str(one)))


def _ruled_game() -> str:
    """The worked example with a revoke the table ruled on (``revoke C at 2 stands``)."""
    from dehlanote.record import Session

    session = Session(path="friday.dpn")
    plays = ["AH 10H 3H 7H", "AS QS 2C 10S", "4S 5S", "7S", "revoke C at 2 stands", "9S", "KC 5C 4C 9C",
             "7D AD 5D 2H", "6H QH KH 8H", "8S 10D? KS JS", "8D 9D 3D 2S", "JH 5H 6C 4H", "JD 4D 3S 2D",
             "QD 10C 7C KD", "AC QC 3C JC", "6D 9H 6S 8C"]
    for line in ["dealer D", "trump D", *plays]:
        assert session.feed(line).accepted or line == "7S", line   # (7S shows the revoke: refused once)
    return session.text


def test_check_file_on_two_jobs_says_what_one_says(tmp_path: Path, monkeypatch) -> None:
    """validate's own path (check_file): the errors and the revokes ruled at the table."""
    from dehlanote.batch import check

    monkeypatch.setattr(check, "PARALLEL_MIN_BYTES", 0)
    games = _games(60, 4)
    assert len(games) >= 6
    games[1] = _ruled_game()
    games[3] = games[3].replace("deal 1", "deal 1 dealer Q", 1)
    games[-1] = _ruled_game()
    path = tmp_path / "ruled.dpn"
    path.write_text("\n".join(games), encoding="utf-8")
    one = check.check_file(str(path), registry(), jobs=1)
    two = check.check_file(str(path), registry(), jobs=2)
    seen = [lambda r: (r.games, r.deals, r.count, r.unreadable),
            lambda r: [(e.code, e.message, e.line, e.column, e.source_line) for e in r.errors],
            lambda r: [(e.code, e.message, e.line, e.column, e.source_line) for e in r.ruled]]
    assert [f(two) for f in seen] == [f(one) for f in seen]
    assert len(one.ruled) == 2 and one.errors
