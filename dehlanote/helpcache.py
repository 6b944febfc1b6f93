"""``dehlanote --help`` from a copy kept in the per-user cache folder: the start-up of the
list of commands without typer, Rich and every command's module.

The list of commands is typer's own, rendered by Rich from every command module (all of
them are imported to read their help: about 0.2 s of CPU). The first ``dehlanote --help``
(or ``-h``) renders it that way and keeps the bytes written in the cache folder
(:mod:`dehlanote.cache`: read only from a folder of this user's that no one else may
enter); the next ones write the same bytes again when nothing the text depends on has
changed:

* what Rich and typer read from the environment (the width, ``TERM``, ``NO_COLOR``,
  ``FORCE_COLOR`` ...), whether each standard stream is a terminal and its size, the
  output's encoding (UTF-8 only: other encodings take the usual path), Python's version,
  flags and module search path;
* every module the rendering loaded (its file's size and modification time: an upgraded
  typer or Rich, an edited command) and every file of the package (a new command, a
  changed profile).

Anything else, or a kept copy that does not match, takes the usual path, which keeps a new
copy. The output is the same bytes either way (``tests/cli/test_help_cache.py`` compares
them).
"""

from __future__ import annotations

import os
import sys
import zlib
from typing import Any, Optional

__all__ = ["serve", "Recorder"]

_MAGIC = b"dehlanote-help 1\n"

#: what Rich and typer read from the environment when they render the help
_ENV = ("COLUMNS", "LINES", "JUPYTER_COLUMNS", "JUPYTER_LINES", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE",
        "TTY_INTERACTIVE", "COLORTERM", "TERM", "TERMINAL_WIDTH", "DATABRICKS_RUNTIME_VERSION", "GITHUB_ACTIONS",
        "PY_COLORS", "PYTHONIOENCODING", "PYTHONUTF8", "LANG", "LANGUAGE")
_ENV_PREFIXES = ("TYPER_", "_TYPER_", "RICH_", "CLICK_", "DEHLANOTE", "_DEHLANOTE", "LC_")

#: kept copies: at most this many (past it, the oldest written goes)
_KEEP = 16


def _streams() -> list[Any]:
    out: list[Any] = []
    for fd in (0, 1, 2):
        try:
            tty = os.isatty(fd)
            size = tuple(os.get_terminal_size(fd)) if tty else None
        except OSError:
            tty, size = False, None
        out.append((tty, size))
    return out


def _key(argv: list[str]) -> Optional[bytes]:
    """What the rendered text depends on, outside the modules; None when it is not kept."""
    out = sys.stdout
    encoding = (getattr(out, "encoding", None) or "").lower().replace("_", "-")
    if out is None or encoding not in ("utf-8", "utf8"):
        return None
    env = sorted((k, v) for k, v in os.environ.items() if k in _ENV or k.startswith(_ENV_PREFIXES))
    key = (argv, env, _streams(), encoding, getattr(out, "errors", None), sys.version, tuple(sys.flags),
           sys.prefix, sys.path, os.geteuid())
    return repr(key).encode("utf-8", "surrogateescape")


def _package_files() -> list[str]:
    root = os.path.dirname(os.path.abspath(__file__))
    found: list[str] = []

    def walk(folder: str) -> None:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    walk(entry.path)
            elif not entry.name.endswith((".pyc", ".pyo")):
                found.append(entry.path)
    walk(root)
    return found


def _stat_line(path: str) -> Optional[bytes]:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return b"%d %d " % (st.st_size, st.st_mtime_ns) + os.fsencode(path)


def _name(key: bytes) -> str:
    # a name of its own for each key (64 bits of two checksums): two settings sharing a slot
    # rendered in turn, each evicting the other (a copy holds its key, so a clash is only slower)
    return f"help-{zlib.crc32(key):08x}{zlib.adler32(key):08x}.txt"


def _prune(where: str) -> None:
    """Keep the newest :data:`_KEEP` copies in cache folder ``where``."""
    copies = []
    for entry in os.scandir(where):
        if entry.name.startswith("help-") and entry.name.endswith(".txt") and entry.is_file(follow_symlinks=False):
            copies.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.path))
    for _, path in sorted(copies)[:-_KEEP]:
        os.unlink(path)


def serve(argv: list[str]) -> Optional["Recorder"]:
    """Write the kept help for ``argv`` and exit 0; else a :class:`Recorder` to keep the text
    the usual path writes (None when this help is not kept)."""
    key = _key(argv)
    if key is None or "_DEHLANOTE_COMPLETE" in os.environ:
        return None
    from . import cache
    data = cache.read(_name(key))
    body = _body(data, key) if data is not None else None
    if body is None:
        return Recorder(key)
    try:
        sys.stdout.flush()
        buffer = sys.stdout.buffer
        buffer.write(body)
        buffer.flush()
    except BrokenPipeError:     # dehlanote --help | head -1: quiet, status 1, as the usual path
        _silence()
        sys.exit(1)
    except OSError as exc:
        _silence()
        print(f"dehlanote: cannot write the output: {(exc.strerror or str(exc)).lower()}", file=sys.stderr)
        sys.exit(2)
    sys.exit(0)


def _body(data: bytes, key: bytes) -> Optional[bytes]:
    """The kept text when ``data`` was kept for ``key`` and no file it lists has changed."""
    if not data.startswith(_MAGIC):
        return None
    pos = len(_MAGIC)
    end = data.find(b"\n", pos)
    if end < 0 or data[pos:end] != key:
        return None
    pos = end + 1
    end = data.find(b"\n", pos)
    try:
        count = int(data[pos:end])
    except ValueError:
        return None
    pos = end + 1
    for _ in range(count):
        end = data.find(b"\n", pos)
        if end < 0:
            return None
        line = data[pos:end]
        path = line.split(b" ", 2)[-1]
        if _stat_line(os.fsdecode(path)) != line:
            return None
        pos = end + 1
    return data[pos:]


def _silence() -> None:
    from .files import silence
    silence(1)


class _Tee:
    """Standard output as it is, with what is written to it kept (the usual path's help)."""

    _PASS = frozenset({"encoding", "errors", "isatty", "fileno", "closed", "writable", "readable", "seekable",
                       "name", "mode", "line_buffering", "newlines"})

    def __init__(self, stream: Any, recorder: "Recorder") -> None:
        self._stream = stream
        self._recorder = recorder

    def write(self, text: str) -> int:
        written = self._stream.write(text)     # (click tries bytes first: TypeError here)
        if isinstance(text, str):
            self._recorder.parts.append(text)
        else:
            self._recorder.whole = False
        return written

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._stream, name)     # (AttributeError for what the stream lacks)
        if name not in self._PASS:      # maybe written some other way (its buffer): not kept
            self._recorder.whole = False
        return value


class _Watch:
    """Standard error as it is: anything written to it means the help is not kept."""

    def __init__(self, stream: Any, recorder: "Recorder") -> None:
        self._stream = stream
        self._recorder = recorder

    def write(self, text: str) -> int:
        self._recorder.whole = False
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class Recorder:
    """Keeps what the usual path writes for the help (:meth:`start`, then :meth:`keep` when
    it ended with status 0)."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.parts: list[str] = []
        self.whole = True
        self._saved: Optional[tuple[Any, Any]] = None

    def start(self) -> None:
        self._saved = (sys.stdout, sys.stderr)
        sys.stdout = _Tee(sys.stdout, self)
        if sys.stderr is not None:
            sys.stderr = _Watch(sys.stderr, self)

    def stop(self) -> None:
        if self._saved is not None:
            sys.stdout, sys.stderr = self._saved
            self._saved = None

    def keep(self) -> None:
        """Keep the text written, with the files of every module loaded and of the package
        (nothing when that fails: the help was written, the next run renders it again)."""
        self.stop()
        if not self.whole or not self.parts:
            return
        try:
            self._keep()
        except Exception:  # noqa: BLE001 - a copy not kept is only a slower next start
            pass

    def _keep(self) -> None:
        paths = {getattr(m, "__file__", None) for m in list(sys.modules.values())}
        lines = []
        for path in sorted(p for p in paths if isinstance(p, str)) + _package_files():
            line = _stat_line(path)
            if line is None or b"\n" in line:
                return
            lines.append(line)
        body = "".join(self.parts).encode("utf-8")
        data = b"".join([_MAGIC, self.key, b"\n", b"%d\n" % len(lines), *(x + b"\n" for x in lines), body])
        from . import cache
        if cache.write(_name(self.key), data):
            where = cache.folder()
            if where is not None:
                _prune(where)
