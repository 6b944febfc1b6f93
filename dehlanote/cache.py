"""The per-user cache folder: what the package keeps between runs to start faster.

The parser tables of the grammar, its compiled terminals and the profiles as JSON are
worked out on a first run and kept here, so that later runs skip the work. What is kept is
read back only from a place no other user can write: the folder is
``$XDG_CACHE_HOME/dehlanote`` (``~/.cache/dehlanote`` when that is unset or not an absolute
path), created with mode 0700, and used only while it is a real folder (not a link) owned
by this user that no one else may enter; a file in it is read only when it is a regular
file (opened without following a link) owned by this user and writable by no one else.
Anything else is left alone and the work is done in memory, as when there is no home
folder at all. Files are written through the package's one safe writer
(:mod:`dehlanote.files`).

(The shared temporary folder was used before: anyone on the machine could plant a parser
table there, a pickle, that ran code in the next user's process.)
"""

from __future__ import annotations

import os
import stat
from functools import cache

__all__ = ["folder", "read", "write"]

_NAME = "dehlanote"


def _base() -> str | None:
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return xdg
    home = os.path.expanduser("~")
    return os.path.join(home, ".cache") if os.path.isabs(home) else None


def _private(st: os.stat_result) -> bool:
    """A folder of this user's that no one else may enter or write."""
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & 0o077


@cache
def folder() -> str | None:
    """The cache folder, made if need be; None when there is none that is safe to use."""
    base = _base()
    if base is None:
        return None
    path = os.path.join(base, _NAME)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        try:    # (made once: the writer's module is not loaded at every start, about 20 ms)
            from .files import make_folder
            make_folder(base, 0o700, parents=True)
            make_folder(path, 0o700)
            st = os.lstat(path)
        except OSError:
            return None
    except OSError:
        return None
    return path if _private(st) else None


def read(name: str) -> bytes | None:
    """The bytes of cache file ``name``, or None when it is missing or not safe to read."""
    where = folder()
    if where is None:
        return None
    try:
        fd = os.open(os.path.join(where, name), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    except OSError:
        return None
    finally:
        os.close(fd)


def write(name: str, data: bytes) -> bool:
    """Keep ``data`` as cache file ``name`` (through the safe writer, relative to the folder: a
    link planted at ``name`` is replaced, never written through, as :func:`read` never follows
    one); False when it could not be."""
    where = folder()
    if where is None:
        return False
    from .files import Folder, OutputRefused
    try:
        with Folder(where) as kept:
            kept.write_file(name, data, sync=False, mode=0o600)
    except (OSError, OutputRefused):
        return False
    return True
