"""Quality gates: the package type-checks with mypy and the tree is clean under ruff.

Both are configured in pyproject.toml; the suite (and so CI) fails on the first new error.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, timeout=900)


def test_the_package_type_checks_with_mypy():
    result = run("mypy")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "Success: no issues found" in result.stdout


def test_ruff_finds_nothing():
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
