"""The progress bars on an 80-column terminal: the clock keeps its room and the item's name
gives way from its start (a long path used to squeeze the elapsed time to '0:00…' for the
whole run, and cut off the deal's number)."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import ptyread  # noqa: E402  (tests/ptyread.py: a pseudo terminal read one way everywhere)

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def _frames(args: list[str], cwd: Path) -> list[str]:
    """Every state of the line standard error (a pseudo terminal of 80 columns) showed."""
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", PYTHONPATH=str(ROOT), COLUMNS="80", LINES="24")
    proc = subprocess.Popen([sys.executable, "-m", "dehlanote", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=slave, env=env, close_fds=True, cwd=cwd)
    os.close(slave)
    shown = ptyread.read_all(master, proc).decode("utf-8", "replace")
    return [re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", f).rstrip() for f in re.split(r"[\r\n]", shown)]


@pytest.fixture(scope="module")
def deep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bars") / "a-folder-with-a-rather-long-name" / "and-another-one-below-it"
    folder.mkdir(parents=True)
    (folder / "worked-example.dpn").write_bytes((SAMPLES / "worked-example.dpn").read_bytes())
    # big enough for the bar to be drawn while it is read
    (folder / "club.dpn").write_text(
        (SAMPLES / "match.dpn").read_text(encoding="utf-8") * 300, encoding="utf-8")
    return folder


@pytest.mark.parametrize("args, verb, end", [
    (["solve", "{deep}/worked-example.dpn", "--dd", "--from-trick", "3"], "solving",
     "worked-example.dpn game 1 deal 1"),
    (["validate", "--progress"] + ["{deep}/club.dpn"] * 3, "checking", "club.dpn"),
    (["html", "--analyse", "--dd", "{deep}/worked-example.dpn", "-o", "out.html"], "analysing", "deal 1"),
], ids=["solve", "validate", "html-analyse"])
def test_the_bar_keeps_its_clock_and_the_items_end(deep: Path, tmp_path: Path, args: list[str], verb: str,
                                                     end: str) -> None:
    bars = [f for f in _frames([a.format(deep=deep) for a in args], tmp_path)
            if f.startswith(verb + " ") and end.split()[0] in f]     # once the item is named
    assert bars
    for frame in bars:
        assert len(frame) <= 80, frame
        assert re.search(r" \d:\d\d:\d\d ", frame), frame      # the clock whole, never '0:00…'
        assert frame.endswith(end) or frame.endswith(end.split(" game")[0]), frame
