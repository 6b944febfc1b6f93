"""One writer at a time for a file: an advisory ``flock`` on a lock file beside it.

:class:`FileLock` holds ``.NAME.lock`` beside the real file (``NAME`` its real name, symlinks
resolved), made through the safe writer (:func:`dehlanote.files.open_lock`: never through a
link) *before* the file itself is read or made, so two writers started together on a new file
cannot both run. The lock file keeps its inode while the file is replaced by renames, and is
removed on release. A lock file left by ``kill -9`` holds nothing: the kernel lets an ``flock``
go with its process, and the next writer takes it (a stale lock never blocks).

The recorder and the server hold a record with it (:class:`dehlanote.record.store.RecordLock`),
``db build`` a database.
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from typing import Optional, Union

from .files import OutputRefused, note_lock, open_lock

__all__ = ["Busy", "FileLock", "lock_path"]

PathLike = Union[str, "os.PathLike[str]"]


class Busy(Exception):
    """Another process holds the file (``holder``: who, as it wrote itself down: ``PID OWNER``)."""

    def __init__(self, path: str, holder: str = "") -> None:
        super().__init__(path)
        self.path = path
        self.holder = holder


def lock_path(path: PathLike) -> str:
    """The lock file of the file at ``path``: ``.NAME.lock`` beside its real file."""
    real = os.path.realpath(os.fspath(path))
    folder, name = os.path.split(real)
    return os.path.join(folder or ".", f".{name}.lock")


class FileLock:
    """Holds the file at ``path`` against any other holder of the same lock while it is held.

    :meth:`acquire` never waits: it raises :attr:`busy` (:class:`Busy`) when another process
    holds the file. On a file system without locks the file is used unguarded rather than
    refused (``held`` stays False).
    """

    #: the exception raised when another process holds the lock (a subclass of :class:`Busy`)
    busy: type = Busy

    def __init__(self, path: PathLike, owner: str, mode: int = 0o644) -> None:
        self.path = os.fspath(path)
        self.owner = owner
        self.mode = mode
        self.file = lock_path(path)
        self._fd: Optional[int] = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock (creating its file), or raise :attr:`busy`.

        Raises:
            Busy: another process holds it.
            OSError: the lock file cannot be made (a folder that cannot be written, a link there).
        """
        for _ in range(100):
            try:
                fd = open_lock(self.file, self.mode)     # (the one writer's: never through a link)
            except OutputRefused as exc:        # a link, a FIFO ... planted where the lock goes
                raise self._planted(str(exc).split(":")[0]) from None
            except OSError as exc:
                if exc.errno == errno.EISDIR:
                    raise self._planted("it is a directory") from None
                raise
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                raise self.busy(self.path, holder) from None
            except OSError as exc:
                os.close(fd)
                if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
                    return      # no locks on this file system
                raise
            try:
                now = os.stat(self.file, follow_symlinks=False)
            except FileNotFoundError:
                now = None
            held = os.fstat(fd)
            if now is not None and (now.st_ino, now.st_dev) == (held.st_ino, held.st_dev):
                try:
                    note_lock(fd, f"{os.getpid()} {self.owner}\n")
                except OSError:
                    pass        # (another user's lock file, left behind: taken, but not written)
                self._fd = fd
                return
            os.close(fd)     # the holder before us removed that file as we opened it: again
        raise self.busy(self.path)

    def _planted(self, what: str) -> OSError:
        """The lock file's place is taken by something else (errno 0: a sentence of ours, naming
        the lock file, not the file it guards, which may not even exist)."""
        name = os.path.basename(self.file)
        return OSError(0, f"the lock file beside it, {name}, is taken by something else ({what}): remove "
                          f"{name} if you did not make it", self.file)

    def release(self) -> None:
        """Let the file go (the lock file is removed while still held, then closed)."""
        if self._fd is None:
            return
        try:
            os.unlink(self.file)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> "FileLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _holder(fd: int) -> str:
    """Who holds the lock, as it wrote itself down. A holder writes its note just after it
    takes the lock, so a note still empty is read again for a moment (up to 0.2 s) before
    the holder is left unnamed (a holder stopped in between)."""
    for _ in range(20):
        try:
            note = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
        except OSError:
            return ""
        if note:
            return note
        time.sleep(0.01)
    return ""
