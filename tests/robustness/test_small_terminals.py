"""Every command on a terminal a few columns wide (issue 22 item 16: ``stats``
crashed inside Rich) and on a terminal whose encoding lacks ``·``, ``–``, ``→``, ``•`` and
the suits (item 17: ``PYTHONIOENCODING=ascii`` or ``latin-1`` stands in for such a locale):
the same exit status as on a wide UTF-8 terminal, no traceback, and output the terminal's
encoding can show (plain stand-ins: ``.``, ``-``, ``>``, ``*``, ``S``)."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKED = str(ROOT / "samples" / "worked-example.dpn")
MATCH = str(ROOT / "samples" / "match.dpn")
INVALID = sorted(str(p) for p in (ROOT / "tests" / "invalid").glob("*.dpn"))[:3]

COMMANDS = {
    "validate": ["validate", WORKED, *INVALID],
    "stats": ["stats", WORKED, MATCH],
    "stats --player": ["stats", "--player", "Asha", WORKED],
    "annotate": ["annotate", WORKED],
    "annotate dpn": ["annotate", "--format", "dpn", WORKED],
    "replay --plain": ["replay", "--plain", WORKED],
    "json": ["json", WORKED],
    "fmt": ["fmt", WORKED],
    "rules": ["rules"],
    "rules standard": ["rules", "standard"],
    "solve": ["solve", "--deal", "1", "--from-trick", "5", WORKED],
    "generate": ["generate", "--seed", "3"],
    "html": ["html", WORKED, "-o", "{tmp}/page.html"],
    "help": ["--help"],
    "validate --help": ["validate", "--help"],
}


def run(args: list[str], tmp: Path, **env: str) -> subprocess.CompletedProcess:
    args = [a.replace("{tmp}", str(tmp)) for a in args]
    return subprocess.run([sys.executable, "-m", "dehlanote", *args], capture_output=True, timeout=300, cwd=tmp,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100", "PYTHONIOENCODING": "utf-8",
                               **env})


@lru_cache(maxsize=None)
def _baseline(name: str, tmp: str) -> int:
    result = run(COMMANDS[name], Path(tmp))
    assert b"Traceback" not in result.stderr, result.stderr.decode()
    return result.returncode


def baseline(name: str, factory: pytest.TempPathFactory) -> int:
    """The exit status of command ``name`` on a wide UTF-8 terminal, run once for both tests
    below (in a folder of its own: it was run once for each, 15 more processes)."""
    tmp = factory.getbasetemp() / "baseline"
    tmp.mkdir(exist_ok=True)
    return _baseline(name, str(tmp))


# every console is laid out at least 20 columns wide (docs/robustness.md), so one width below it
# is the case: one column, the narrowest (1, 4 and 7 took the same path, 15 processes each)
@pytest.mark.parametrize("columns", ["1"])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_terminal_a_few_columns_wide(tmp_path_factory, name, columns):
    tmp = tmp_path_factory.getbasetemp() / "narrow"
    tmp.mkdir(exist_ok=True)
    result = run(COMMANDS[name], tmp, COLUMNS=columns)
    assert b"Traceback" not in result.stderr, result.stderr.decode()
    assert result.returncode == baseline(name, tmp_path_factory), result.stderr.decode()


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_terminal_that_cannot_show_the_symbols(tmp_path_factory, name, encoding):
    tmp = tmp_path_factory.getbasetemp() / "plain"
    tmp.mkdir(exist_ok=True)
    result = run(COMMANDS[name], tmp, PYTHONIOENCODING=encoding)
    assert b"Traceback" not in result.stderr, result.stderr.decode(encoding)
    assert result.returncode == baseline(name, tmp_path_factory), result.stderr.decode(encoding)
    result.stdout.decode(encoding)      # what was written is text of that encoding
    result.stderr.decode(encoding)


def test_the_stand_ins_keep_a_table_lined_up(tmp_path):
    """The annotated table under ASCII: the arrow of a capture is one character, as it was."""
    wide = run(["annotate", WORKED], tmp_path).stdout.decode("utf-8").splitlines()
    plain = run(["annotate", WORKED], tmp_path, PYTHONIOENCODING="ascii").stdout.decode("ascii").splitlines()
    assert len(wide) == len(plain)
    assert [len(line) for line in wide] == [len(line) for line in plain]
    assert any("sweeps 8 > AC" in line for line in plain)
