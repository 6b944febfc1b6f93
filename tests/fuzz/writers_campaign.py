"""A campaign on the writers' surfaces (issue 22 item 24): mutated records made into html
sites, ``stats``, the Parquet export and the Dask ``validate_files``, each checked against
an independent path. Run: ``PYTHONPATH=. python3 tests/fuzz/writers_campaign.py ROUNDS SEED``.

For each round a handful of mutated records (with odd file names: bytes that are not
UTF-8, names like another file's second page) are written to a folder, then:

* ``html`` into a site (pages split small): exit 0/1/2, no traceback, ``index.html`` whole
  UTF-8, the page count said equals the files in ``games/``, every index link leads to a
  page that exists, no temporary file left;
* ``stats`` (also under COLUMNS=3 and PYTHONIOENCODING=ascii): no traceback, the same
  exit status;
* the Parquet export of each file: its games count equals ``validate``'s (``check_file``);
* Dask ``validate_files`` (one in-process worker): the same errors as ``check_file``.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dpnfuzz  # noqa: E402

from dehlanote.batch.check import check_file  # noqa: E402
from dehlanote.rules.profile import registry  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
NAMES = [b"a.dpn", b"a-2.dpn", b"A.dpn", b"caf\xe9.dpn", b"x y.dpn", b"index.dpn", b"-.dpn", b"a-2-2.dpn"]


def run(args: list, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dehlanote", *args], cwd=cwd, capture_output=True, timeout=300,
                          env={**ENV, **env})


def one_round(rng: random.Random, seeds: tuple, work: Path, client) -> list[str]:
    problems: list[str] = []
    folder = Path(tempfile.mkdtemp(dir=work))
    files = []
    for name in rng.sample(NAMES, rng.randint(2, 5)):
        seed = rng.choice(seeds)[0]
        text = "\n".join(dpnfuzz.apply(dpnfuzz.seed_text(seed), dpnfuzz.random_mutations(rng))
                         for _ in range(rng.randint(1, 3)))
        path = os.fsencode(folder) + b"/" + name
        with open(path, "wb") as f:
            f.write(text.encode("utf-8", "surrogateescape") if rng.random() < 0.8 else dpnfuzz.apply_bytes(
                text, dpnfuzz.random_mutations(rng)))
        files.append(path)
    site = folder / "site"
    result = run(["html", *files, "--games-per-page", str(rng.randint(1, 3)), "-o", str(site)], folder)
    err = result.stderr.decode("utf-8", "replace")
    if b"Traceback" in result.stderr or result.returncode not in (0, 1, 2):
        problems.append(f"html: rc {result.returncode}: {err[-300:]}")
    elif result.returncode in (0, 1):
        index = (site / "index.html").read_bytes().decode("utf-8")
        if not index.rstrip().endswith("</html>"):
            problems.append("html: index not whole")
        said = re.search(r"and (\d+) pages?", err)
        pages = sorted(os.listdir(site / "games"))
        if said is None or int(said.group(1)) != len(pages):
            problems.append(f"html: said {said and said.group(1)} pages, wrote {len(pages)}")
        for href in re.findall(r'href="games/([^"#]+)#game=\d+"', index):
            from urllib.parse import unquote
            if unquote(href) not in pages:
                problems.append(f"html: link to a missing page {href}")
        left = [p for p in site.rglob("*") if p.name.endswith(".tmp")]
        if left:
            problems.append(f"html: temporaries left {left}")
    base = run(["stats", *files], folder)
    for env in ({"COLUMNS": "3"}, {"PYTHONIOENCODING": "ascii"}):
        other = run(["stats", *files], folder, **env)
        if b"Traceback" in other.stderr or other.returncode != base.returncode:
            problems.append(f"stats {env}: rc {other.returncode} vs {base.returncode}: {other.stderr[-300:]!r}")
    if b"Traceback" in base.stderr:
        problems.append(f"stats: {base.stderr[-300:]!r}")
    from dehlanote.batch.parquet import export_parquet
    from dehlanote.batch.distributed import validate_files
    reg = registry()
    names = [os.fsdecode(p) for p in files]
    dask = validate_files(names, client)
    for path, d in zip(names, dask):
        report = check_file(path, reg)
        if report.unreadable:
            if not d.unreadable:
                problems.append(f"dask: {path} read, check_file: {report.unreadable}")
            continue
        try:
            summary = export_parquet(path, folder / "out.parquet")
            if summary.games != report.games:
                problems.append(f"parquet: {summary.games} games, check_file {report.games} ({path})")
        except OSError as exc:
            problems.append(f"parquet: {path}: {exc}")
        got = sorted((e.code, e.line, e.column) for e in d.errors)
        want = sorted((e.code, e.line, e.column) for e in report.errors)
        if got != want or d.games != report.games:
            problems.append(f"dask: {path}: {len(got)} errors/{d.games} games vs {len(want)}/{report.games}")
    return problems


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    seeds = dpnfuzz.seeds(1)
    import distributed
    started = time.monotonic()
    found: list[str] = []
    with tempfile.TemporaryDirectory() as work, \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                     dashboard_address="127.0.0.1:0", worker_dashboard_address="127.0.0.1:0"
                                     ) as cluster, distributed.Client(cluster) as client:
        for n in range(rounds):
            problems = one_round(rng, seeds, Path(work), client)
            for p in problems:
                print(f"round {n}: {p}", flush=True)
            found.extend(problems)
    print(json.dumps({"rounds": rounds, "seed": seed, "problems": len(found),
                      "seconds": round(time.monotonic() - started, 1), "load": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
