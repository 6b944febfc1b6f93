"""``dehlanote --help`` written from the copy the last run kept (dehlanote.helpcache): the same
bytes as the rendered help, rendered again when anything it depends on changed, and never
read from a file another user could have written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _env(cache: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return {**env, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(cache), **extra}


def _help(cache: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
    """``dehlanote --help`` (or ARGS) as the console script runs it; stderr lists the imports."""
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "dehlanote", *(args or ("--help",))],
                          capture_output=True, env=_env(cache, **extra), timeout=120)


def _rendered(result: subprocess.CompletedProcess) -> bool:
    """Whether the run imported typer (rendered the help) rather than writing the kept copy."""
    return re.search(rb"\| +typer\n", result.stderr) is not None


def _uncached(tmp: Path, *args: str, **extra: str) -> bytes:
    """The help as rendered with no cache folder at all (a file where the folder would be)."""
    blocked = tmp / "blocked"
    blocked.mkdir(exist_ok=True)
    (blocked / "dehlanote").write_text("not a folder")
    result = _help(blocked, *args, **extra)
    assert result.returncode == 0 and _rendered(result)
    return result.stdout


def _kept(cache: Path) -> Path:
    (copy,) = (cache / "dehlanote").glob("help-*.txt")
    return copy


@pytest.mark.parametrize("args,columns", [(("--help",), "200"), (("-h",), "57")])
def test_the_kept_help_is_the_rendered_help_byte_for_byte(tmp_path, args, columns):
    cache = tmp_path / "cache"
    first = _help(cache, *args, COLUMNS=columns)
    second = _help(cache, *args, COLUMNS=columns)
    assert first.returncode == second.returncode == 0
    assert _rendered(first) and not _rendered(second)      # the second run loads neither typer nor Rich
    assert re.search(rb"\| +rich", second.stderr) is None and b"dehlanote.commands" not in second.stderr
    assert second.stdout == first.stdout == _uncached(tmp_path, *args, COLUMNS=columns)
    assert b"validate" in second.stdout and b"Commands" in second.stdout


def test_another_width_or_colour_setting_renders_again(tmp_path):
    cache = tmp_path / "cache"
    wide = _help(cache, COLUMNS="200")
    narrow = _help(cache, COLUMNS="60")
    forced = _help(cache, COLUMNS="60", FORCE_COLOR="1")
    assert _rendered(wide) and _rendered(narrow) and _rendered(forced)
    assert narrow.stdout != wide.stdout and b"\x1b[" in forced.stdout and b"\x1b[" not in narrow.stdout
    again = [_help(cache, COLUMNS=c) for c in ("200", "60")]
    assert [r.stdout for r in again] == [wide.stdout, narrow.stdout]
    assert not any(_rendered(r) for r in again)
    assert narrow.stdout == _uncached(tmp_path, COLUMNS="60")


def test_a_copy_whose_files_changed_is_not_written(tmp_path):
    cache = tmp_path / "cache"
    real = _help(cache).stdout
    copy = _kept(cache)
    head, _, body = copy.read_bytes().partition(real)
    assert body == b"" and head
    copy.write_bytes(head + b"planted\n")
    served = _help(cache)
    assert served.stdout == b"planted\n" and not _rendered(served)     # the copy is what is written...
    lines = head.split(b"\n")
    module = next(i for i, line in enumerate(lines) if line.endswith(b"/dehlanote/cli.py"))
    size, mtime, path = lines[module].split(b" ", 2)
    lines[module] = b" ".join([size, str(int(mtime) - 1).encode(), path])    # cli.py was edited since
    copy.write_bytes(b"\n".join(lines) + b"planted\n")
    again = _help(cache)
    assert again.stdout == real and _rendered(again)                    # ...until a module it read changes
    assert _help(cache).stdout == real


def test_a_copy_others_may_write_is_never_read(tmp_path):
    cache = tmp_path / "cache"
    real = _help(cache).stdout
    copy = _kept(cache)
    copy.write_bytes(copy.read_bytes().replace(real, b"planted\n"))
    copy.chmod(0o666)
    result = _help(cache)
    assert result.stdout == real and _rendered(result)


def test_a_closed_pipe_is_quiet_as_on_the_usual_path(tmp_path):
    cache = tmp_path / "cache"
    _help(cache)
    statuses = []
    for _ in ("kept", "kept again"):
        read, write = os.pipe()
        os.close(read)                  # the reader is gone before anything is written
        proc = subprocess.run([sys.executable, "-m", "dehlanote", "--help"], stdout=write, stderr=subprocess.PIPE,
                              env=_env(cache), timeout=120)
        os.close(write)
        statuses.append((proc.returncode, proc.stderr))
    _uncached(tmp_path)
    read, write = os.pipe()
    os.close(read)
    usual = subprocess.run([sys.executable, "-m", "dehlanote", "--help"], stdout=write, stderr=subprocess.PIPE,
                           env=_env(tmp_path / "blocked"), timeout=120)
    os.close(write)
    assert statuses == [(1, b""), (1, b"")] and (usual.returncode, usual.stderr) == (1, b"")


def test_each_setting_keeps_its_own_copy_and_the_folder_keeps_the_newest_sixteen(tmp_path, monkeypatch, capsys):
    """Copies kept under 18 terminal widths in turn: the newest 16 are served, the two oldest are
    rendered again (each has a name of its own: no two settings evict each other while fewer
    than 16 are in use)."""
    from dehlanote import cache, helpcache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache.folder.cache_clear()
    try:
        widths = [str(60 + i) for i in range(18)]
        for width in widths:
            monkeypatch.setenv("COLUMNS", width)
            recorder = helpcache.serve(["--help"])
            assert recorder is not None                 # nothing kept yet for this width
            recorder.start()
            print(f"the help at {width} columns")
            recorder.keep()
            time.sleep(0.01)                            # written at distinct times (the oldest goes first)
        capsys.readouterr()
        assert len(list((tmp_path / "cache" / "dehlanote").glob("help-*.txt"))) == 16
        for width in widths:
            monkeypatch.setenv("COLUMNS", width)
            try:
                recorder = helpcache.serve(["--help"])
            except SystemExit as done:
                assert done.code == 0 and width not in widths[:2]
                assert capsys.readouterr().out == f"the help at {width} columns\n"
            else:
                assert recorder is not None and width in widths[:2]
    finally:
        cache.folder.cache_clear()
