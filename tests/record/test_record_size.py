"""The recorder never writes a record it cannot read back: a line that would take the record past
the largest a recorder reads (8 MB: comments of megabytes) is refused, and the same command
resumes the file. (It was kept: a 10 MB record, which 'dehlanote record' then refused to resume,
"more than a record may".)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from dehlanote.record.store import MAX_RECORD_BYTES

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "dehlanote", "record"]


def env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def test_a_line_that_would_make_the_record_too_long_to_resume_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "long.dpn"
    comment = "{" + "x" * (MAX_RECORD_BYTES // 4) + "}"
    lines = ["trump D", *[comment] * 5, "AH 10H 3H 7H"]
    done = subprocess.run(CLI + [str(path), "--names", "a,b,c,d", "--dealer", "D", "--no-sync"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, env=env(), timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("refused: the record would hold more than 8 MB") == 2, done.stderr[-500:]
    assert path.stat().st_size <= MAX_RECORD_BYTES
    again = subprocess.run(CLI + [str(path), "--no-sync"], input="AS\n", capture_output=True, text=True, env=env(),
                           timeout=120)
    assert again.returncode == 0, again.stderr
    assert "resuming" in again.stderr
    assert path.read_text(encoding="utf-8").rstrip().endswith(
        " 1 A: AH 10H 3H 7H {unfinished trick 2, not yet in the record: AS}")
