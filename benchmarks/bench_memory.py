"""``bench.py --annotate`` and ``bench.py --memory`` (issue 27 items 2 and 3).

``--annotate``: ``dehlanote annotate FILE`` on the plain writing style's corpus (seeded random
standard matches, ``--style-deals`` deals), piped (to ``/dev/null``) and on a terminal (a
pseudo-terminal of 100 x 50 made by ``script``), in deals per CPU second of the whole command
(start-up included), median of ``--repeat`` runs; ``--format dpn`` and ``validate --jobs 1``
beside them for scale.

``--memory``: the peak resident memory of each command on one game of 10,000 deals (a pagat
session without end, seeded; written once in ``--tmp``): ``validate --jobs 1``, ``json
--compact``, ``annotate``, ``annotate --format dpn``, ``html`` and ``stats``, each a fresh
process (``getrusage`` of the child), on each shape of game in :data:`SHAPES`: with tens
lines, without them, with a comment on plays of every deal, with hands lines, six players.
``--shapes tens,comments`` picks some.
"""

from __future__ import annotations

import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cpu(args: list[str], *, terminal: bool = False) -> tuple[float, int]:
    """CPU seconds (user + system) and peak RSS (KB) of one command, in a child of a child
    (so that RUSAGE_CHILDREN holds that command alone)."""
    command = [sys.executable, "-m", "dehlanote", *args]
    if terminal:
        inner = "stty cols 100 rows 50; exec " + " ".join(shlex.quote(a) for a in command)
        command = ["script", "-qec", inner, "/dev/null"]
    code = ("import resource, subprocess, sys\n"
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
            "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print(u.ru_utime + u.ru_stime, u.ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", code, *command], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}).stdout.split()
    return float(out[0]), int(out[1])


def run_annotate(corpus: Path, deals: int, repeat: int) -> dict:
    figures: dict = {"file": str(corpus), "deals": deals}
    rows = [("validate --jobs 1", ["validate", "--jobs", "1", "--brief"], False),
            ("annotate, piped", ["annotate"], False),
            ("annotate, on a terminal (100 columns)", ["annotate"], True),
            ("annotate --format dpn, piped", ["annotate", "--format", "dpn"], False)]
    if shutil.which("script") is None:
        rows = [r for r in rows if not r[2]]
    for label, args, terminal in rows:
        cpu = statistics.median(_cpu([*args, str(corpus)], terminal=terminal)[0] for _ in range(repeat))
        figures[label] = {"cpu_s": round(cpu, 3), "deals_per_s": round(deals / cpu)}
        print(f"{label:40} {cpu:6.2f} s CPU  {deals / cpu:8,.0f} deals/s", flush=True)
    return figures


#: the shapes of one long game the memory is measured on: name -> (options of the pagat profile,
#: Style keywords, comments on the plays)
SHAPES: dict[str, tuple[dict, dict, bool]] = {
    "tens": ({"kots": 0}, {}, False),
    "no-tens": ({"kots": 0}, {"tens": False}, False),
    "comments": ({"kots": 0}, {}, True),
    "hands": ({"kots": 0}, {"hands": True}, False),
    "six-player": ({"kots": 0, "six-player": True}, {}, False),
}
_TRICK_LINE = re.compile(r"^( ?\d+ [A-F]: )(\S+)( .*)$", re.MULTILINE)


def _comment_plays(text: str) -> str:
    """A comment on the lead of every trick and after every third trick line (as a scorer
    notes the play): ``3 B: AS {a bold lead} 4S 5S 2S``."""
    count = 0

    def note(m: re.Match) -> str:
        nonlocal count
        count += 1
        tail = " {ruffed high}" if count % 3 == 0 else ""
        return f"{m.group(1)}{m.group(2)} {{lead {count % 7}}}{m.group(3)}{tail}"

    return _TRICK_LINE.sub(note, text)


def long_game(tmp: Path, deals: int = 10_000, seed: int = 5, shape: str = "tens") -> Path:
    """One seeded pagat session of ``deals`` deals in ``shape`` (see :data:`SHAPES`), written once."""
    suffix = "" if shape == "tens" else f"-{shape}"
    path = tmp / f"dehlanote-one-game-{deals}-{seed}{suffix}.dpn"
    if not path.exists():
        from dehlanote.oracle.playout import Style, generate_match
        options, style, comments = SHAPES[shape]
        text, _ = generate_match(random.Random(seed), "pagat", options, style=Style(**style), max_deals=deals)
        if comments:
            text = _comment_plays(text)
        tmp.mkdir(parents=True, exist_ok=True)     # (a run before may have removed it)
        path.write_text(text, encoding="utf-8")
    return path


def run_memory(tmp: Path, shapes: tuple[str, ...] = tuple(SHAPES)) -> dict:
    figures: dict = {}
    for shape in shapes:
        figures[shape] = run_memory_shape(tmp, shape)
    return figures


def run_memory_shape(tmp: Path, shape: str) -> dict:
    game = long_game(tmp, shape=shape)
    page = tmp / f"dehlanote-one-game-{shape}.html"
    figures: dict = {"file": str(game), "deals": 10_000, "shape": shape}
    for label, args in [("validate --jobs 1", ["validate", "--jobs", "1"]), ("json --compact", ["json", "--compact"]),
                        ("annotate", ["annotate"]), ("annotate --format dpn", ["annotate", "--format", "dpn"]),
                        ("html", ["html", "-o", str(page), "--force"]), ("stats", ["stats"])]:
        cpu, peak = _cpu([*args, str(game)])
        figures[label] = {"peak_mb": round(peak / 1024), "cpu_s": round(cpu, 2)}
        print(f"{shape:10} {label:22} one game of 10,000 deals: peak {peak / 1024:5.0f} MB, {cpu:5.2f} s CPU",
              flush=True)
    page.unlink(missing_ok=True)
    return figures
