"""What ``html`` and the batch paths are given (issue 22 items 7, 12, 15): page names that
cannot collide, binary input refused up front on every path (as ``validate`` refuses it),
file names and titles that are not UTF-8."""

from __future__ import annotations

import html
import os
import re
import resource
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MATCH = ROOT / "samples" / "match.dpn"
WORKED = ROOT / "samples" / "worked-example.dpn"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
#: the address space a run may take: the binary input of issue 22 took 1.15 GB (and /dev/zero had no bound)
LIMIT = 1 << 30


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def run(args: list, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, timeout=timeout, env=ENV,
                            preexec_fn=_limited)
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return result


def links(index: Path) -> list[tuple[str, int]]:
    return [(page, int(game)) for page, game in
            re.findall(r'href="games/([^"#]+)#game=(\d+)"', index.read_text(encoding="utf-8"))]


# ---- item 7: page names ---------------------------------------------------------------------------

def test_a_split_file_and_a_file_named_like_its_second_page_do_not_collide(tmp_path):
    x = tmp_path / "x.dpn"
    x.write_text("\n".join([MATCH.read_text(encoding="utf-8")] * 3), encoding="utf-8")   # 3 games: 2 pages
    (tmp_path / "x-2.dpn").write_text(WORKED.read_text(encoding="utf-8"), encoding="utf-8")
    for order in (["x.dpn", "x-2.dpn"], ["x-2.dpn", "x.dpn"]):
        site = tmp_path / f"site-{order[0]}"
        result = run(["-m", "dehlanote", "html", *order, "--games-per-page", "2", "-o", str(site)], tmp_path)
        assert result.returncode == 0, result.stderr
        pages = sorted(p.name for p in (site / "games").iterdir())
        said = int(re.search(rb"and (\d+) pages?", result.stderr).group(1))
        assert said == len(pages) == 3
        found = links(site / "index.html")
        assert len(found) == 4 and len(set(found)) == 4          # every game its own (page, number)
        # each link leads to a page holding that game: the worked example's event only on its own page
        worked_event = html.escape(re.search(r'\[Event "([^"]+)"', WORKED.read_text(encoding="utf-8")).group(1))
        by_page: dict[str, list[int]] = {}
        for page, game in found:
            by_page.setdefault(page, []).append(game)
        assert sorted(by_page) == pages
        holders = [p for p in pages if worked_event in (site / "games" / p).read_text(encoding="utf-8")]
        assert len(holders) == 1 and by_page[holders[0]] == [1]
        assert sorted(len(v) for v in by_page.values()) == [1, 1, 2]


def test_page_names_are_unique_whatever_the_case(tmp_path):
    """``A.dpn`` and ``a.dpn`` would be one file on a case-insensitive disk."""
    for i, name in enumerate(("A.dpn", "a.dpn", "a-2.dpn")):     # three games (a copy of one is read once)
        (tmp_path / name).write_text(f"{{copy {i}}}\n" + MATCH.read_text(encoding="utf-8"), encoding="utf-8")
    site = tmp_path / "site"
    assert run(["-m", "dehlanote", "html", "A.dpn", "a.dpn", "a-2.dpn", "-o", str(site)], tmp_path).returncode == 0
    pages = [p.name.lower() for p in (site / "games").iterdir()]
    assert len(pages) == len(set(pages)) == 3
    assert sorted(p for p, _ in links(site / "index.html")) == sorted(p.name for p in (site / "games").iterdir())


# ---- item 12: binary input, one up-front check on every path ---------------------------------------

@pytest.fixture
def noise(tmp_path) -> Path:
    path = tmp_path / "noise.dpn"
    path.write_bytes(os.urandom(2 << 20))
    return path


@pytest.mark.parametrize("args", [["html", "{}", "-o", "out.html"], ["html", "{}", "--site", "-o", "site"],
                                  ["validate", "{}"], ["json", "{}"], ["stats", "{}"], ["annotate", "{}"],
                                  ["fmt", "{}"], ["solve", "{}"], ["replay", "--plain", "{}"]])
@pytest.mark.parametrize("source", ["noise", "zero"])
def test_binary_input_is_refused_in_one_line_by_every_command(tmp_path, noise, args, source):
    path = str(noise) if source == "noise" else "/dev/zero"
    started = time.monotonic()
    result = run(["-m", "dehlanote", *[a.replace("{}", path) for a in args]], tmp_path, timeout=60)
    seconds = time.monotonic() - started
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, err
    assert "not a text file" in err and "binary data" in err, err
    assert seconds < 30
    assert not (tmp_path / "out.html").exists()


PARQUET = textwrap.dedent("""
    import sys
    from dehlanote.batch.check import NotText
    from dehlanote.batch.parquet import export_parquet
    try:
        export_parquet(sys.argv[1], sys.argv[2])
    except NotText as exc:
        print(f"refused: {exc.strerror}")
""")


def test_the_parquet_export_refuses_binary_input_before_writing(tmp_path, noise):
    pytest.importorskip("pyarrow")
    result = run(["-c", PARQUET, str(noise), str(tmp_path / "out.parquet")], tmp_path, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().startswith("refused: it is not a text file")
    assert not (tmp_path / "out.parquet").exists() and os.listdir(tmp_path) == ["noise.dpn"]


DASK = textwrap.dedent("""
    import sys, time
    import distributed
    from dehlanote.batch.distributed import validate_files
    # (dashboard_address=None no longer turns the HTTP servers off: they listen on 127.0.0.1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address="127.0.0.1:0", worker_dashboard_address="127.0.0.1:0"
                                  ) as cluster, distributed.Client(cluster) as client:
        started = time.monotonic()
        (result,) = validate_files([sys.argv[1]], client)
        print(f"{time.monotonic() - started:.1f}", result.unreadable)
""")


def test_dask_validate_files_refuses_binary_input_in_one_line(tmp_path, noise):
    pytest.importorskip("distributed")
    result = subprocess.run([sys.executable, "-c", DASK, str(noise)], cwd=tmp_path, capture_output=True, text=True,
                            timeout=180, env=ENV)
    assert result.returncode == 0, result.stderr
    seconds, reason = result.stdout.strip().split(" ", 1)
    assert reason.startswith("it is not a text file") and float(seconds) < 5


# ---- item 15: names that are not UTF-8 ----------------------------------------------------------------

def test_a_file_name_and_a_title_that_are_not_utf8_make_a_whole_site(tmp_path):
    odd = os.fsencode(tmp_path) + b"/caf\xe9.dpn"
    with open(odd, "wb") as f:
        f.write(MATCH.read_bytes())
    site = tmp_path / "site"
    result = run(["-m", "dehlanote", "html", odd, str(WORKED), "--title", b"Club \xff night", "-o", str(site)],
                 tmp_path)
    assert result.returncode == 0, result.stderr
    index = (site / "index.html").read_text(encoding="utf-8")            # valid UTF-8, whole
    assert index.rstrip().endswith("</html>")
    assert "caf\ufffd.dpn" in index and "Club \ufffd night" in index
    assert len(links(site / "index.html")) == 2
    assert b"caf\xef\xbf\xbd.dpn" in result.stderr or b"wrote" in result.stderr


def test_a_page_for_a_file_name_that_is_not_utf8(tmp_path):
    odd = os.fsencode(tmp_path) + b"/caf\xe9.dpn"
    with open(odd, "wb") as f:
        f.write(MATCH.read_bytes())
    out = tmp_path / "out"
    out.mkdir()
    result = run(["-m", "dehlanote", "html", odd, "-o", str(out)], tmp_path)
    assert result.returncode == 0, result.stderr
    assert os.listdir(os.fsencode(out)) == [b"caf\xe9.html"]
    assert "caf\ufffd.html" in result.stderr.decode("utf-8")


PARQUET_NAME = textwrap.dedent("""
    import os, sys
    import pyarrow.parquet as pq
    from dehlanote.batch.parquet import export_parquet
    name = os.fsdecode(sys.argv[1].encode("utf-8", "surrogateescape"))
    summary = export_parquet(name, sys.argv[2])
    sources = set(pq.read_table(sys.argv[2]).column("source").to_pylist())
    print(summary.games, *sources)
""")


def test_the_parquet_export_of_a_file_named_in_bytes_that_are_not_utf8(tmp_path):
    """The campaign's finding: the ``source`` column took the name's lone surrogates and pyarrow
    ended in UnicodeEncodeError."""
    pytest.importorskip("pyarrow")
    odd = os.fsencode(tmp_path) + b"/caf\xe9.dpn"
    with open(odd, "wb") as f:
        f.write(MATCH.read_bytes())
    result = run(["-c", PARQUET_NAME, odd, str(tmp_path / "out.parquet")], tmp_path)
    assert result.returncode == 0, result.stderr
    games, source = result.stdout.decode("utf-8").split(" ", 1)
    assert games == "1" and source.strip().endswith("caf\ufffd.dpn")
