"""Writing an output path safely, whatever it is: the one module of the package that opens files for writing.

* A **regular file** is replaced only once its new text is whole: a temporary file in the
  target's real directory (symlinks resolved, so a link keeps pointing at the new text),
  written, ``fsync``-ed, given the old file's mode, owner and group, then renamed over it
  (and the directory synced). A file **with hard links** keeps them: the verified temporary
  copy is written into the file in place, then removed (the links all see the new text; a
  failure while writing in place says where the whole copy is).
* Anything else that exists (a **device, a FIFO**, ``/dev/stdout``) is written plainly, as
  ``cat > path`` would: it is never replaced by a file. A directory or a socket is refused.
* A **read-only** file is refused unless ``force``.
* With ``expect`` (what the file was when it was read), the file is left alone when it
  changed meanwhile (an editor saved it): size, modification time, inode and a SHA-256.
* SIGTERM and SIGHUP while writing remove the temporary file (exit status 128 + signal).
"""

from __future__ import annotations

import hashlib
import os
import signal
import stat
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import IO, Callable, Iterator, Optional, Union

PathLike = Union[str, "os.PathLike[str]"]


class OutputRefused(Exception):
    """The path will not be written; the message says why, in a sentence."""


@dataclass(frozen=True)
class Snapshot:
    """What a file was when it was read."""

    size: int
    mtime_ns: int
    inode: int
    digest: str


def _digest(path: PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def snapshot(path: PathLike) -> Snapshot:
    """The state of a regular file now (raises OSError)."""
    st = os.stat(path)
    return Snapshot(st.st_size, st.st_mtime_ns, st.st_ino, _digest(path))


def changed_since(path: PathLike, before: Snapshot) -> bool:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return True
    if (st.st_size, st.st_mtime_ns, st.st_ino) != (before.size, before.mtime_ns, before.inode):
        return True
    return _digest(path) != before.digest


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _read_only(st: os.stat_result, path: str) -> bool:
    """No write permission bit at all (root may write anything: the bits are what the
    owner asked for), or no write access for this user."""
    return not (st.st_mode & 0o222) or not os.access(path, os.W_OK)


@contextmanager
def _signals_clean_up() -> Iterator[None]:
    """SIGTERM and SIGHUP raise SystemExit(128 + signal) inside the block, so that the
    ``finally`` clauses run (outside the main thread, handlers cannot be set: nothing done)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Optional[FrameType]) -> None:
        raise SystemExit(128 + signum)

    old = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            old[sig] = signal.signal(sig, handler)
        except (ValueError, OSError):   # pragma: no cover - not the main thread after all
            pass
    try:
        yield
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def write_target(path: PathLike, *, force: bool = False, expect: Optional[Snapshot] = None) -> Iterator[IO[str]]:
    """A text stream (UTF-8) whose content becomes ``path`` when the block succeeds.

    Raises:
        OutputRefused: the path is a directory or a socket, a read-only file (without
            ``force``), or a file that changed since ``expect``.
        OSError: it cannot be written (the file is then unchanged).
    """
    name = os.fspath(path)
    try:
        st: Optional[os.stat_result] = os.stat(name)   # follows symlinks
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputRefused("it is a directory")
    if st is not None and stat.S_ISSOCK(st.st_mode):
        raise OutputRefused("it is a socket")
    if st is not None and not stat.S_ISREG(st.st_mode):
        # a device, a FIFO, a terminal (/dev/stdout): write to it as it is
        with _signals_clean_up(), open(name, "w", encoding="utf-8", newline="") as stream:
            yield stream
        return
    real = os.path.realpath(name)
    if st is not None and _read_only(st, real) and not force:
        raise OutputRefused("it is read-only (--force writes it all the same)")
    folder = os.path.dirname(real) or "."
    base = os.path.basename(real)
    with _signals_clean_up(), temporary_beside(folder, base) as (fd, tmp):
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as stream:
            yield stream
            stream.flush()
            if st is not None:
                os.fchmod(stream.fileno(), stat.S_IMODE(st.st_mode))
                _chown(stream.fileno(), st)
            else:
                os.fchmod(stream.fileno(), 0o666 & ~_umask())
            os.fsync(stream.fileno())
        if expect is not None and changed_since(real, expect):
            raise OutputRefused("it changed while it was being formatted (saved by another program?): "
                                "it is left as it is")
        if st is not None and st.st_nlink > 1:
            _write_in_place(real, tmp)
            os.unlink(tmp)
        else:
            os.replace(tmp, real)
            _fsync_dir(folder)


def drain(held: IO[str], write: Callable[[str], object]) -> None:
    """Everything ``held`` holds, from its start, handed to ``write`` in blocks of 64 K."""
    held.seek(0)
    while True:
        block = held.read(1 << 16)
        if not block:
            break
        write(block)


_STOPS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


@contextmanager
def temporary_beside(folder: str, base: str) -> Iterator[tuple[int, str]]:
    """A new temporary file ``.BASE.*.tmp`` in ``folder``: its descriptor and path.

    The file is removed if the block raises, Ctrl-C and the stop signals included: they are
    held back while the file is made, and let through only inside the clean-up's reach, so
    no moment is left where one would leave the file behind.
    """
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp", dir=folder)
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        raise
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        yield fd, tmp
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _chown(fd: int, st: os.stat_result) -> None:
    """Give the new file the old one's owner and group (as far as this user may)."""
    try:
        os.fchown(fd, st.st_uid, st.st_gid)
    except OSError:
        try:
            os.fchown(fd, -1, st.st_gid)
        except OSError:
            pass


def _write_in_place(real: str, tmp: str) -> None:
    """Copy the whole temporary file into ``real`` (kept, with its hard links)."""
    try:
        with open(tmp, "rb") as src, open(real, "r+b") as dst:
            dst.truncate(0)
            for block in iter(lambda: src.read(1 << 20), b""):
                dst.write(block)
            dst.flush()
            os.fsync(dst.fileno())
    except OSError as exc:
        # the whole new text is still in tmp: keep it and say where
        kept = tmp + ".kept"
        try:
            os.replace(tmp, kept)
        except OSError:
            kept = tmp
        raise OSError(exc.errno, f"{exc.strerror}; the whole new text is in {Path(kept).name}") from exc
