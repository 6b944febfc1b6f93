"""The record on disk: one recorder a file, nothing read without end, nothing overwritten.

Three small pieces that ``dehlanote record`` uses, and that any other program recording
into DPN files (``dehlanote serve``) uses the same way, so that the two exclude each other:

* :class:`RecordLock` holds a record against every other recorder. It is an advisory
  ``flock`` on a lock file beside the record, ``.NAME.lock`` (``NAME`` the record's real
  name, symlinks resolved), created atomically with the lock *before* the record exists,
  so two recorders started together on a new file cannot both run. The lock file keeps
  its inode while the record is rewritten by renames; it is removed on release (a lock
  file left by ``kill -9`` holds nothing: the kernel lets an ``flock`` go with its
  process, and the next recorder takes it).

      with RecordLock("friday.dpn", owner="dehlanote serve"):   # raises RecordBusy
          ...

* :func:`read_record` reads a record that may exist: a regular file (or a symlink to
  one) of at most :data:`MAX_RECORD_BYTES`, UTF-8. A FIFO, a device, a directory, a
  socket, a bigger file or other bytes are refused with :class:`RecordRefused` and a
  sentence, without blocking and without reading more than the limit.

* :class:`RecordFile` keeps a record in step with a recording: :meth:`RecordFile.read`
  once, then :meth:`RecordFile.save` after each element. A save first checks that the file
  is still the text last read or written (size, time, inode, then a SHA-256 of the bytes):
  an edit made meanwhile (a tag added in an editor, a game appended) raises
  :class:`RecordChanged` and the file is left as the editor made it. Saving goes through
  the package's safe writer (temporary file beside the record, ``fsync``, rename, folder
  ``fsync``: a crash leaves the old text or the new one, never a mix; mode, owner, hard
  and symbolic links kept).
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Optional, Union

from ..files import OutputRefused, Snapshot, kind_of, write_file
from ..lockfile import Busy, FileLock, lock_path

__all__ = ["MAX_RECORD_BYTES", "Claim", "RecordBusy", "RecordChanged", "RecordFile", "RecordLock", "RecordRefused",
           "lock_path", "not_a_record", "read_record", "save"]

#: the largest record a recorder reads: a club's whole season is well under a megabyte
MAX_RECORD_BYTES = 8 * 1024 * 1024

PathLike = Union[str, "os.PathLike[str]"]


class RecordBusy(Busy):
    """Another recorder holds the record (``holder``: who, as it wrote itself down)."""


class RecordRefused(Exception):
    """The path is not a record that can be read: ``reason`` says why, in a sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class RecordChanged(Exception):
    """The record changed on disk since the recorder last read or wrote it."""


class RecordLock(FileLock):
    """Holds the record at ``path`` against any other recorder, for as long as it is held
    (:class:`dehlanote.lockfile.FileLock`: :meth:`acquire` never waits, it raises
    :class:`RecordBusy`; on a file system without locks ``held`` stays False)."""

    busy = RecordBusy

    def __init__(self, path: PathLike, owner: str = "dehlanote record") -> None:
        super().__init__(path, owner, 0o644)


class Claim(RecordLock):
    """The older name of :class:`RecordLock`, with its older verbs: ``take`` (acquire),
    ``follow`` (nothing to do now: the lock file keeps its inode while the record is
    rewritten) and ``release``."""

    def take(self) -> None:
        self.acquire()

    def follow(self) -> None:
        """After a save: the lock never moves, but one not taken yet (a record made by that
        save) is taken now."""
        if not self.held:
            try:
                self.acquire()
            except (RecordBusy, OSError):
                pass


def not_a_record(path: PathLike) -> Optional[str]:
    """Why the path cannot be a record (None: a regular file, or nothing there yet), without opening it."""
    try:
        st = os.stat(os.fspath(path))
    except FileNotFoundError:
        return None
    except OSError:
        return None     # said when it is read
    if stat.S_ISREG(st.st_mode):
        return None
    if stat.S_ISDIR(st.st_mode):
        return "it is a directory"
    return f"it is {kind_of(st)}, not a file: a record is a regular file"


def _read_bytes(path: str) -> Optional[tuple[bytes, os.stat_result]]:
    """The bytes of a regular file and its state (None: no file there); never blocks on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise RecordRefused("it is a directory") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise RecordRefused(f"it is {kind_of(st)}, not a file: a record is a regular file")
        if st.st_size > MAX_RECORD_BYTES:
            raise RecordRefused(f"it holds {st.st_size:,} bytes, more than a record may "
                                f"({MAX_RECORD_BYTES // (1024 * 1024)} MB)")
        chunks: list[bytes] = []
        total = 0
        while True:
            block = os.read(fd, 1 << 16)
            if not block:
                break
            total += len(block)
            if total > MAX_RECORD_BYTES:
                raise RecordRefused(f"it holds more than {MAX_RECORD_BYTES // (1024 * 1024)} MB, more than a "
                                    "record may")
            chunks.append(block)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def read_record(path: PathLike) -> Optional[str]:
    """The text of the record at ``path``, or None when there is none yet.

    Raises:
        RecordRefused: not a regular file, too big, or not UTF-8 text.
        OSError: it cannot be read (permissions).
    """
    got = _read_bytes(os.fspath(path))
    if got is None:
        return None
    return _decode(got[0])


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordRefused(f"it is not UTF-8 text (byte {exc.start + 1} is not)") from None


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class RecordFile:
    """A record kept in step with a recording: read once, then saved after each element."""

    def __init__(self, path: PathLike, *, sync: bool = True) -> None:
        self.path = os.fspath(path)
        self.sync = sync      # False skips the flushes to disk (the rename stays atomic): for tests
        self._known: Optional[Snapshot] = None    # the file as last read or written (None: no file)

    def read(self) -> str:
        """The record's text ('' for a new file); from now on, saves check it is unchanged.

        Raises:
            RecordRefused, OSError: as :func:`read_record`.
        """
        got = _read_bytes(self.path)
        if got is None:
            self._known = None
            return ""
        data, st = got
        text = _decode(data)
        self._known = Snapshot(st.st_size, st.st_mtime_ns, st.st_ino, _sha(data))
        return text

    def unchanged(self) -> bool:
        """Whether the file is still what was last read or written."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return self._known is None
        known = self._known
        if known is None:
            return False     # created by someone else since
        if not stat.S_ISREG(st.st_mode):
            return False
        if (st.st_size, st.st_mtime_ns, st.st_ino) == (known.size, known.mtime_ns, known.inode):
            return True
        try:
            got = _read_bytes(self.path)
        except RecordRefused:
            return False
        if got is None or _sha(got[0]) != known.digest:
            return False
        self._known = Snapshot(got[1].st_size, got[1].st_mtime_ns, got[1].st_ino, known.digest)  # touched only
        return True

    def save(self, text: str) -> None:
        """Replace the record with ``text``, durably, unless it changed since it was last read or written.

        Raises:
            RecordChanged: someone else changed the file; it is left as it is.
            OutputRefused: it cannot be written as it is (read-only).
            OSError: the folder is not writable, the disk is full; the file is then unchanged.
        """
        if not self.unchanged():
            raise RecordChanged(self.path)
        data = text.encode("utf-8")
        try:
            write_file(self.path, text, expect=self._known, sync=self.sync)
        except OutputRefused as exc:
            if "changed" in str(exc):
                raise RecordChanged(self.path) from None
            raise
        st = os.stat(self.path)
        self._known = Snapshot(st.st_size, st.st_mtime_ns, st.st_ino, _sha(data))


def save(path: Union[str, Path], text: str, *, sync: bool = True) -> None:
    """Replace the file at ``path`` with ``text`` (UTF-8) through the safe writer: atomically, durably.

    ``sync=False`` skips the flushes to disk (the rename is still atomic): for tests only.

    Raises:
        OutputRefused: a read-only file.
        OSError: the folder is not writable, the disk is full; the old file is then unchanged.
    """
    write_file(path, text, sync=sync)
