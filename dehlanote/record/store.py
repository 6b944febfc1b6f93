"""Writing the record so that it is never lost: the whole file through a temporary file.

Each save writes the complete text to a temporary file beside the record, flushes it to
disk (``fsync``), renames it over the record (atomic on POSIX: a reader, or a crash, sees
the old file or the new one, never a mix) and flushes the folder so the rename itself is
on disk. Rewriting the whole file is what lets one save change the ``Result`` tag, take a
trick back (``undo``) or rewrite a resumed game canonically; a match file is a few
kilobytes, so the cost is the two flushes, not the bytes.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Union

__all__ = ["save"]


def save(path: Union[str, Path], text: str, *, sync: bool = True) -> None:
    """Replace the file at ``path`` with ``text`` (UTF-8), atomically and durably.

    ``sync=False`` skips the flushes to disk (the rename is still atomic): for tests only.

    Raises:
        OSError: the folder is not writable, the disk is full; the old file is then unchanged.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
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
        os.close(fd)
        fd = -1
        os.replace(tmp, target)
        if sync:
            _sync_folder(folder)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


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
