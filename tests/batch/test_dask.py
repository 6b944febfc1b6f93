"""Files checked and converted on a Dask LocalCluster give what one process gives.

The pieces a file is cut into are checked first without Dask: re-split piece by piece, a
file gives the very chunks (text, positions, bad bytes, the ``last`` flag) of one pass.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dehlanote.batch.distributed import plan_pieces, read_piece, validate_piece
from dehlanote.batch.pool import validate_serial
from dehlanote.oracle.playout import Style, generate_match, iter_matches
from dehlanote.syntax.reader import split_games

ROOT = Path(__file__).resolve().parents[2]


def located(errors) -> list[tuple]:
    return [(e.code, e.message, e.line, e.column, e.deal, e.trick, e.path, e.source_line, e.offset)
            for e in errors]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[Path]:
    """Three archives: plain matches (one with a rule error), a mix with every invalid
    sample (bad bytes, syntax errors, comments) starting with a BOM, and a CRLF one."""
    folder = tmp_path_factory.mktemp("dask")
    plain = "".join(t for t, _ in iter_matches(3, 120, "standard", style=Style()))
    plain = plain.replace("tens AC 3 BD 1", "tens AC 2 BD 2", 1)
    parts = [p.read_bytes() for p in sorted((ROOT / "tests" / "invalid").glob("*.dpn"))]
    parts += [p.read_bytes() for p in sorted((ROOT / "samples").glob("*.dpn"))]
    for seed in range(4):
        text, _ = generate_match(random.Random(seed), "hukum", None, Style(loose=True, hands=True), max_deals=3)
        parts.append(text.encode())
    random.Random(1).shuffle(parts)
    mixed = b"\xef\xbb\xbf" + b"\n".join(p if p.endswith(b"\n") else p + b"\n" for p in parts)
    crlf = "".join(t for t, _ in iter_matches(4, 40, "pagat", {"kots": 2}, Style(hands=True)))
    out = [folder / "plain.dpn", folder / "mixed.dpn", folder / "crlf.dpn"]
    out[0].write_text(plain, encoding="utf-8")
    out[1].write_bytes(mixed)
    out[2].write_bytes(crlf.replace("\n", "\r\n").encode())
    return out


@pytest.mark.parametrize("piece_bytes", [1, 700, 5000, 1 << 30])
def test_pieces_give_the_chunks_of_one_pass(files: list[Path], piece_bytes: int) -> None:
    for path in files:
        pieces = plan_pieces(path, piece_bytes)
        with open(path, "rb") as stream:
            whole = list(split_games(stream))
        # (Chunk.whole, the span of a plain game the reader matched, is a hint for the parser:
        # a piece's last game has no next game's [ after it to match with, and is read
        # without it; test_a_piece_checks_as_the_whole_file_does checks the same results)
        assert [c._replace(whole=None) for p in pieces for c in read_piece(p)] == \
            [c._replace(whole=None) for c in whole]
        assert pieces[-1].last and not any(p.last for p in pieces[:-1])
        assert [p.first_game for p in pieces] == sorted(p.first_game for p in pieces)
        if piece_bytes == 1:
            assert len(pieces) == len(whole)


def test_a_piece_checks_as_the_whole_file_does(files: list[Path]) -> None:
    for path in files:
        serial = list(validate_serial(path, name=str(path)))
        results = [validate_piece(p) for p in plan_pieces(path, 3000)]
        assert sum(r.games for r in results) == len(serial)
        assert located(e for r in results for e in r.errors) == located(e for r in serial for e in r.errors)


# ---- on a cluster ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("dask.distributed")   # the tests above run without dask
    # several threads a worker: parsing must not share per-parse state between threads
    # (dashboard_address=None still serves HTTP, on port 8787: a free port instead, so that two
    # clusters of a run under -n 2 do not meet there)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=3, processes=True, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0") as cluster, distributed.Client(cluster) as c:
        yield c


def test_validate_files_on_a_cluster(client, files: list[Path], tmp_path: Path) -> None:
    from dehlanote.batch.distributed import validate_files

    missing = tmp_path / "missing.dpn"
    results = validate_files([*files, missing], client, piece_bytes=4000)
    assert [r.path for r in results] == [str(p) for p in [*files, missing]]
    for path, result in zip(files, results):
        serial = list(validate_serial(path, name=str(path)))
        assert (result.games, result.deals) == (len(serial), sum(r.deals for r in serial))
        assert located(result.errors) == located(e for r in serial for e in r.errors)
    assert results[0].errors and results[1].errors and results[2].ok
    assert results[-1].unreadable and not results[-1].ok


@pytest.mark.parametrize("piece_bytes", [None, 1, 3000])
def test_validate_files_reads_through_cuts_inside_a_game(client, tmp_path: Path, piece_bytes) -> None:
    """Byte ranges whose cut is no game start (a blank line inside a header, or a line of
    tags after a game's deals) are read through by the range before: the same errors."""
    from dehlanote.batch.distributed import prepare_workers, validate_files

    games = [t for t, _ in iter_matches(6, 40, "standard", style=Style())]
    games = [g.replace('\n[A "', '\n\n[A "', 1) if i % 2 else g for i, g in enumerate(games)]
    games[1] = games[1].replace("tens AC 3 BD 1", "tens AC 1 BD 3", 1).replace("deal 1", "deal 1 dealer Q", 1)
    games[-1] = games[-1].replace("deal 1", "deal 1 dealer Q", 1).rstrip("\n")
    path = tmp_path / "headers.dpn"
    path.write_bytes("\n".join(games).replace("\n", "\r\n").encode())
    prepare_workers(client)
    result = validate_files([path], client, piece_bytes=piece_bytes)[0]
    serial = list(validate_serial(path, name=str(path)))
    assert (result.games, result.deals) == (len(serial), sum(r.deals for r in serial))
    assert located(result.errors) == located(e for r in serial for e in r.errors)
    assert result.errors and serial[-1].errors and result.errors[-1].line == serial[-1].errors[-1].line


def test_validate_files_with_registry_files(client, tmp_path: Path) -> None:
    from dehlanote.batch.distributed import validate_files

    yaml = tmp_path / "house.yaml"
    yaml.write_text("name: house\nbase: standard\nparams:\n  streak: 3\n", encoding="utf-8")
    text, _ = generate_match(random.Random(2), "standard", {"streak": 3}, max_deals=6)
    record = tmp_path / "house.dpn"
    record.write_text(text.replace('"standard streak=3"', '"house"') * 4, encoding="utf-8")
    assert validate_files([record], client)[0].errors
    assert validate_files([record], client, registry_files=[yaml], piece_bytes=500)[0].ok


def test_export_parquet_files_on_a_cluster(client, files: list[Path], tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.dataset as ds

    from dehlanote.batch.distributed import export_parquet_files
    from dehlanote.batch.parquet import export_parquet

    parts = export_parquet_files(files[:2], tmp_path / "plays", client, piece_bytes=20000)
    assert len(parts) > 2
    names = sorted(p.name for p in (tmp_path / "plays").glob("*.parquet"))
    assert names == sorted(Path(s.path).name for s in parts)
    table = ds.dataset(tmp_path / "plays").to_table()
    serial = [pa.parquet.read_table(export_parquet(f, tmp_path / f"{f.stem}.parquet").path) for f in files[:2]]
    expected = pa.concat_tables(serial)
    assert table.num_rows == expected.num_rows == sum(s.rows for s in parts)
    assert table.to_pylist() == expected.to_pylist()


def test_game_numbers_are_shifted_after_a_chunk_of_two_games() -> None:
    pytest.importorskip("pyarrow")
    from dehlanote.batch.distributed import Piece, game_shifts
    from dehlanote.batch.parquet import ExportSummary

    pieces = [Piece("a", 0, 10, 1, 1, 0, 3, False), Piece("a", 10, 20, 9, 1, 3, 2, False),
              Piece("a", 20, 30, 19, 1, 5, 2, True), Piece("b", 0, 5, 1, 1, 0, 1, True)]
    parts = [ExportSummary("p", 4, 0, 0, 0), ExportSummary("p", 2, 0, 0, 0),
             ExportSummary("p", 2, 0, 0, 0), ExportSummary("p", 1, 0, 0, 0)]
    assert game_shifts(pieces, parts) == [0, 1, 1, 0]


def testshift_games_rewrites_the_game_column(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from dehlanote.batch.distributed import shift_games
    from dehlanote.batch.parquet import export_parquet

    text, _ = generate_match(random.Random(9), max_deals=2)
    path = tmp_path / "g.dpn"
    path.write_text(text * 2, encoding="utf-8")
    part = export_parquet(path, tmp_path / "g.parquet")
    before = pq.read_table(part.path)
    shift_games(part, 5)
    after = pq.read_table(part.path)
    assert after.column("game").to_pylist() == [g + 5 for g in before.column("game").to_pylist()]
    assert after.drop_columns(["game"]).equals(before.drop_columns(["game"]))
    assert after.schema.equals(before.schema)


def test_the_piece_size_comes_from_the_files_and_the_threads(tmp_path: Path) -> None:
    from dehlanote.batch.distributed import MIN_PIECE_BYTES, PIECE_BYTES, PIECES_PER_THREAD, piece_size
    big = tmp_path / "big.dpn"
    with open(big, "wb") as f:             # a sparse 34 MB file: only its size is read
        f.truncate(34_000_000)
    size = piece_size([big], threads=2)
    assert size == 34_000_000 // (2 * PIECES_PER_THREAD)          # 8 pieces: every thread busy to the end
    assert piece_size([big], threads=1) == 34_000_000 // PIECES_PER_THREAD
    assert piece_size([big], threads=1000) == MIN_PIECE_BYTES     # no task smaller than that
    assert piece_size([tmp_path / "missing.dpn"], threads=2) == MIN_PIECE_BYTES
    huge = tmp_path / "huge.dpn"
    with open(huge, "wb") as f:
        f.truncate(4_000_000_000)
    assert piece_size([huge], threads=2) == PIECE_BYTES
