"""Writing the record so that it is never lost: the whole file through a temporary file.

Each save writes the complete text to a temporary file beside the record, flushes it to
disk (``fsync``), renames it over the record (atomic on POSIX: a reader, or a crash, sees
the old file or the new one, never a mix) and flushes the folder so the rename itself is
on disk. Rewriting the whole file is what lets one save change the ``Result`` tag, take a
trick back (``undo``) or rewrite a resumed game canonically; a match file is a few
kilobytes, so the cost is the two flushes, not the bytes.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Optional, Union

from ..files import temporary_beside

__all__ = ["RecordBusy", "Claim", "save"]


class RecordBusy(Exception):
    """Another recorder holds the record: two sessions saving one file would lose tricks."""


class Claim:
    """Holds the record against a second ``dehlanote record`` on the same file.

    The hold is an advisory ``flock`` on the record file itself, so no lock file is left
    in the user's folder. A save renames a new file over the record, so after each save
    the hold moves to the new file (:meth:`follow`) before the old one is let go. Only
    recorders look at the hold; an editor or ``validate`` may still read the file.
    """

    def __init__(self, path: Union[str, Path]) -> None:
        self.path = os.path.realpath(path)
        self._fd: Optional[int] = None

    def take(self) -> None:
        """Hold the record if it exists (a file not yet written is held after its first save).

        Raises:
            RecordBusy: another recorder holds it.
        """
        fd = self._lock(self.path)
        if fd is not None:
            self._release()
            self._fd = fd

    def follow(self) -> None:
        """Move the hold to the file a save has just put at the path."""
        try:
            fd = self._lock(self.path)
        except RecordBusy:
            return  # somebody took the new file in the instant between rename and lock
        if fd is not None:
            self._release()
            self._fd = fd

    def release(self) -> None:
        self._release()

    def _release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor lets the flock go
            self._fd = None

    @staticmethod
    def _lock(path: str) -> Optional[int]:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RecordBusy(path) from None
        except OSError:
            os.close(fd)  # a file system without locks: record unguarded rather than refuse
            return None
        return fd

    def __enter__(self) -> "Claim":
        self.take()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def save(path: Union[str, Path], text: str, *, sync: bool = True) -> None:
    """Replace the file at ``path`` with ``text`` (UTF-8), atomically and durably.

    ``sync=False`` skips the flushes to disk (the rename is still atomic): for tests only.

    Raises:
        OSError: the folder is not writable, the disk is full; the old file is then unchanged.
    """
    target = Path(os.path.realpath(path))  # a symlinked record keeps its link: the target is rewritten
    folder = target.parent if str(target.parent) else Path(".")
    with temporary_beside(str(folder), target.name) as (fd, tmp):
        try:
            data = text.encode("utf-8")
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            if sync:
                os.fsync(fd)
            try:
                mode = os.stat(target).st_mode & 0o7777
            except FileNotFoundError:
                mask = os.umask(0)
                os.umask(mask)
                mode = 0o666 & ~mask
            os.fchmod(fd, mode)
        finally:
            os.close(fd)
        os.replace(tmp, target)
        if sync:
            _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
