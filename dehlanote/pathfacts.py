"""What a path to be written is, and the words of a write that failed: the facts
:mod:`dehlanote.files` (the one module that writes) decides by. Nothing here writes: it
looks at paths (what a file is, whether it is read-only, whether it changed since it was
read, whether it is an input, which descriptor ``/dev/stdout`` names) and words the
refusals and failures (:class:`OutputRefused`, :class:`WriteError`). Everything here is
also importable from :mod:`dehlanote.files`, where the package's callers take it.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from dataclasses import dataclass
from typing import Optional, Union

from .errors import missing_folder

PathLike = Union[str, "os.PathLike[str]"]


class OutputRefused(Exception):
    """The path will not be written; the message says why, in a sentence (``path``: the
    file refused, where the caller named a folder)."""

    def __init__(self, message: str, path: Optional[str] = None) -> None:
        super().__init__(message)
        self.path = path


class ReadOnly(OutputRefused):
    """The file is read-only (its owner took its write permission away): refused unless forced."""


class InputKept(OutputRefused):
    """The file is one the command reads (see :func:`dehlanote.files.inputs_kept`): writing it
    would lose the record."""


class WriteError(OSError):
    """Writing the output failed (the disk is full, the file system is read-only ...); the
    target is as it was and no temporary file is left."""


@dataclass(frozen=True)
class Snapshot:
    """What a file was when it was read."""

    size: int
    mtime_ns: int
    inode: int
    digest: str


def _digest_fd(fd: int) -> str:
    h = hashlib.sha256()
    while True:
        block = os.read(fd, 1 << 20)
        if not block:
            return h.hexdigest()
        h.update(block)


def digest(path: PathLike, dir_fd: Optional[int] = None) -> str:
    """The SHA-256 of a file's bytes, in hex (read a megabyte at a time)."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC, dir_fd=dir_fd)
    try:
        return _digest_fd(fd)
    finally:
        os.close(fd)


def snapshot(path: PathLike) -> Snapshot:
    """The state of a regular file now (raises OSError)."""
    st = os.stat(path)
    return Snapshot(st.st_size, st.st_mtime_ns, st.st_ino, digest(path))


def changed_since(path: PathLike, before: Snapshot, dir_fd: Optional[int] = None) -> bool:
    try:
        st = os.stat(path, dir_fd=dir_fd)
    except FileNotFoundError:
        return True
    if (st.st_size, st.st_mtime_ns, st.st_ino) != (before.size, before.mtime_ns, before.inode):
        return True
    return digest(path, dir_fd) != before.digest


def kind_of(st: os.stat_result) -> str:
    """What a file is, in words: "a directory", "a FIFO" ..."""
    mode = st.st_mode
    for test, words in ((stat.S_ISDIR, "a directory"), (stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"),
                        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                        (stat.S_ISSOCK, "a socket"), (stat.S_ISREG, "a regular file")):
        if test(mode):
            return words
    return "not a regular file"


def _read_only(st: os.stat_result, name: str, dir_fd: Optional[int]) -> bool:
    """No write permission bit at all (root may write anything: the bits are what the
    owner asked for), or no write access for this user."""
    if not st.st_mode & 0o222:
        return True
    try:
        return not os.access(name, os.W_OK, dir_fd=dir_fd, effective_ids=os.access in os.supports_effective_ids)
    except (NotImplementedError, OSError):
        return False


def _no_folder(exc: OSError, name: str, real: Optional[str] = None) -> Optional[WriteError]:
    """A file that cannot be made because the folder named for it does not exist, is a file, or
    is a loop of symbolic links, said in words with the folder as the user named it (errno 0: a sentence of
    ours); None for any other failure. ``real``: where ``name`` leads when it is a link (its
    folder is the one missing)."""
    link = real is not None and os.path.islink(name)
    folder = (os.path.dirname(real) if link and real is not None else os.path.dirname(name)) or "."
    if exc.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR) or os.path.isdir(folder):
        return None
    # (a loop: the folder is named, as every command names it, not the file: "a/x.json: it is a loop")
    said = f"the folder {folder} {missing_folder(folder)}" + (f" ({name} is a link to {real})" if link else "")
    missing = WriteError(0, said, name)
    missing.__cause__ = exc
    return missing


def _failed(exc: OSError, path: Optional[str] = None) -> WriteError:
    if isinstance(exc, WriteError):
        if exc.filename is None and path is not None:
            exc.filename = path
        return exc
    failure = WriteError(exc.errno, exc.strerror or str(exc), path)
    failure.__cause__ = exc
    return failure


_DESCRIPTOR = re.compile(r"/(?:dev/fd|proc/self/fd|proc/(\d+)/fd)/(\d+)")


_STANDARD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def _descriptor(name: str) -> Optional[int]:
    """The descriptor number a path names (``/dev/stdout``, ``/dev/fd/3``, a link to
    ``/proc/self/fd/1``), or None."""
    path = os.path.abspath(name)
    for _ in range(40):
        if path in _STANDARD:
            return _STANDARD[path]
        found = _DESCRIPTOR.fullmatch(path)
        if found and (found.group(1) is None or int(found.group(1)) == os.getpid()):
            return int(found.group(2))
        try:
            link = os.readlink(path)
        except OSError:
            return None
        path = os.path.normpath(os.path.join(os.path.dirname(path), link))
    return None


def same_file(path: PathLike, inputs: "list[PathLike]") -> Optional[str]:
    """The first of ``inputs`` that is the very file ``path`` names (the same device and inode,
    links followed: a symlink or a hard link to an input is that input), or None. ``-`` among
    the inputs is standard input, when it reads a file. Only a regular file counts: writing a
    device or a FIFO that is also read (``/dev/stdout`` on the terminal standard input reads)
    destroys nothing. A path that does not exist, or cannot be looked at, is no input."""
    key = inode_key(path, dash_reads=False)     # (an output named - is a file of that name)
    if key is None:
        return None
    for spec in inputs:
        if inode_key(spec) == key:
            return os.fspath(spec)
    return None


def inode_key(spec: PathLike, *, dash_reads: bool = True) -> Optional[tuple[int, int]]:
    """The device and inode of the regular file ``spec`` names (links followed; ``-``: standard
    input, when it reads one, unless not ``dash_reads``), or None (no such file, one that cannot
    be looked at, or not a regular file): what tells one file under any of its names."""
    name = os.fspath(spec)
    try:
        st = os.fstat(0) if name == "-" and dash_reads else os.stat(name)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def foreign_log(path: PathLike) -> Optional[str]:
    """The log of changes DuckDB keeps beside a database (``path`` + ``.wal``) when it is not
    the database's owner's own file (another user's, or a link): DuckDB replays that log into
    the database on opening it, read-only too, so in a folder others can write to, a log made
    there by someone else would change what the database says. Its path, or None (no log, or
    the owner's regular file; with no database yet, the owner is this user)."""
    name = os.fspath(path)
    log = name + ".wal"
    try:
        st = os.lstat(log)
    except FileNotFoundError:
        return None
    except OSError:
        return log
    try:
        owner = os.stat(name).st_uid
    except OSError:
        owner = os.geteuid()
    return None if stat.S_ISREG(st.st_mode) and st.st_uid == owner else log
