"""Writing an output path safely, whatever it is: the one module of the package that opens files for writing.

Every file the package writes (``json -o``, ``fmt --write``, ``generate -o``, ``html`` pages
and sites, Parquet exports, the recorder's file) goes through here; a test reads the package
and fails on any other place that opens a file for writing.

* A **regular file** is replaced only once its new text is whole: a temporary file made
  beside the real target (symlinks the user named resolved, so a link keeps pointing at the
  new text) with ``O_CREAT | O_EXCL | O_NOFOLLOW`` relative to the folder's descriptor,
  written, given the old file's mode, owner and group, ``fsync``-ed, then renamed over the
  target (and the folder synced). A file **with hard links** keeps them: the verified
  temporary copy is written into the file in place, then removed (the links all see the new
  text; a failure while writing in place says where the whole copy is).
* Anything else that exists (a **device, a FIFO**, ``/dev/stdout``) is written plainly, as
  ``cat > path`` would, opened without ``O_CREAT``: it is never replaced by a file, root or
  not. ``/dev/stdout``, ``/dev/stderr`` and ``/dev/fd/N`` are the process's own descriptors
  (as a shell's redirections take them). A directory or a socket is refused.
* A **read-only** file is refused unless ``force``.
* With ``expect`` (what the file was when it was read), the file is left alone when it
  changed meanwhile (an editor saved it): size, modification time, inode and a SHA-256.
* A failure while writing raises :class:`WriteError` (an ``OSError``: "cannot write OUT:
  no space left on device"), never mistaken for a failure to read the input; the temporary
  file is removed, as it is on SIGTERM and SIGHUP (exit status 128 + signal) and Ctrl-C.
* A **folder the package fills** (a site) is opened once (:class:`Folder`) and every file in
  it is written relative to its descriptor: a sub-folder is opened with ``O_NOFOLLOW``, a
  name taken by a symlink is replaced (the link, never what it points at), a hard link is
  broken rather than written through, a device or FIFO planted there is refused.

What a path is and the words of a refusal or a failure (:class:`OutputRefused`,
:class:`WriteError`, :func:`kind_of`, :func:`same_file` ...) are read, never written, in
:mod:`dehlanote.pathfacts`; they are imported from here all the same.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import stat
import sys
import tempfile
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import IO, Any, BinaryIO, Callable, Iterable, Iterator, Optional, TextIO, Union, cast

from .pathfacts import (InputKept, OutputRefused, PathLike, ReadOnly, Snapshot, WriteError, _descriptor, _failed,
                        _no_folder, _read_only, changed_since, digest, foreign_log, inode_key, kind_of, same_file,
                        snapshot)
from .stops import signals_clean_up, stops_held

__all__ = ["OutputRefused", "ReadOnly", "InputKept", "inputs_kept", "WriteError", "Snapshot", "snapshot",
           "changed_since", "write_target",
           "write_file", "append_file", "Folder", "drain", "spool", "record_spool", "named_spool", "temporary_beside",
           "kind_of", "silence", "open_lock", "make_folder", "build_beside", "database_target", "same_file",
           "regular_or_missing", "private_folder", "digest", "foreign_log"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fsync_fd(fd: int) -> None:
    try:
        os.fsync(fd)
    except OSError:
        pass


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        _fsync_fd(fd)
    finally:
        os.close(fd)


class _Out(io.RawIOBase):
    """The stream handed to the caller: a failed write raises :class:`WriteError`."""

    def __init__(self, stream: IO[Any]) -> None:
        super().__init__()
        self._stream = stream

    def write(self, data: Any) -> int:
        try:
            return self._stream.write(data)
        except (WriteError, BrokenPipeError):
            raise       # (a closed pipe ends the program quietly, as ``head`` expects)
        except OSError as exc:
            raise _failed(exc) from exc

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _failed(exc) from exc

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def tell(self) -> int:
        return self._stream.tell()

    def fileno(self) -> int:
        return self._stream.fileno()

    def close(self) -> None:     # the writer closes the real stream itself
        pass

    @property
    def closed(self) -> bool:
        return self._stream.closed


def _stream(fd: int, binary: bool) -> IO[Any]:
    if binary:
        return os.fdopen(fd, "wb")
    return os.fdopen(fd, "w", encoding="utf-8", errors="replace", newline="")


@contextmanager
def _plain(fd: int, binary: bool) -> Iterator[IO[Any]]:
    """Write to an open descriptor as it is (a device, a FIFO, a terminal, a pipe)."""
    with signals_clean_up(), _stream(fd, binary) as stream:
        out = _Out(stream)
        yield cast(IO[Any], out)
        out.flush()


@contextmanager
def write_target(path: PathLike, *, force: bool = False, expect: Optional[Snapshot] = None,
                 binary: bool = False, sync: bool = True) -> Iterator[IO[Any]]:
    """A stream (text in UTF-8, or ``binary``) whose content becomes ``path`` when the block succeeds.

    ``sync=False`` skips the flushes to disk (the rename is still atomic): for tests only.

    Raises:
        OutputRefused: the path is a directory or a socket, a read-only file (without
            ``force``), or a file that changed since ``expect``.
        WriteError: it cannot be written (the file is then unchanged, no temporary file left).
    """
    name = os.fspath(path)
    number = _descriptor(name)
    if number is not None:
        if number == 1 and sys.stdout is not None:
            sys.stdout.flush()
        try:
            fd = os.dup(number)
        except OSError as exc:
            raise _failed(exc) from exc
        with _plain(fd, binary) as stream:
            yield stream
        return
    try:
        st: Optional[os.stat_result] = os.stat(name)   # follows symlinks
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _no_folder(exc, name) or _failed(exc) from exc
    if st is not None and (stat.S_ISDIR(st.st_mode) or stat.S_ISSOCK(st.st_mode)):
        raise OutputRefused(f"it is {kind_of(st)}")
    if st is not None and not stat.S_ISREG(st.st_mode):
        # a device, a FIFO, a terminal: written as it is, opened without O_CREAT so that it
        # is never replaced by a regular file (it may only vanish: then nothing is written)
        try:
            fd = os.open(name, os.O_WRONLY | os.O_NOCTTY | os.O_CLOEXEC)
        except OSError as exc:
            raise _failed(exc) from exc
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise OutputRefused("it became a regular file while it was being opened: it is left as it is")
        with _plain(fd, binary) as stream:
            yield stream
        return
    real = os.path.realpath(name)
    try:
        folder = Folder(os.path.dirname(real) or ".")
    except OSError as exc:
        raise _no_folder(exc, name, real) or _failed(exc) from exc
    with folder, folder.write(os.path.basename(real), force=force, expect=expect, binary=binary, sync=sync,
                              keep_links=True, shown=name) as stream:
        yield stream


def regular_or_missing(path: PathLike) -> None:
    """Nothing when ``path`` is a regular file (links followed) or names nothing yet; else
    OutputRefused saying what it is: a save that must never block nor write through (a FIFO
    would hold the program in ``open`` until someone reads it, a device would take the text),
    decided before anything is opened. ``/dev/stdout`` and its kind are refused too."""
    name = os.fspath(path)
    if _descriptor(name) is not None:
        raise OutputRefused("it is one of the program's own streams, not a file")
    try:
        st = os.stat(name)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _failed(exc, name) from exc
    if not stat.S_ISREG(st.st_mode):
        raise OutputRefused(f"it is {kind_of(st)}, not a regular file")


def write_file(path: PathLike, data: Union[str, bytes], *, force: bool = False, expect: Optional[Snapshot] = None,
               sync: bool = True) -> None:
    """Replace ``path`` with ``data`` (text in UTF-8, or bytes), as :func:`write_target`:
    what a store that rewrites its whole file at each save calls."""
    with write_target(path, force=force, expect=expect, binary=isinstance(data, bytes), sync=sync) as stream:
        stream.write(data)


def append_file(path: PathLike, data: Union[str, bytes], *, sync: bool = True, create: bool = True) -> int:
    """Add ``data`` (text in UTF-8, or bytes) at the end of the regular file ``path``, ``fsync``-ed
    (``O_APPEND``: one write, so two appenders never interleave within it); a missing file is
    made (mode 0666 less the umask) unless not ``create``. Returns the file's new size.

    Raises:
        OutputRefused: the path exists and is not a regular file (a device, a FIFO ...), or is read-only.
        WriteError: it cannot be written; a short write (a full disk) is undone by cutting the
            file back to its old size.
    """
    name = os.fspath(path)
    payload = data.encode("utf-8", "replace") if isinstance(data, str) else data
    flags = os.O_WRONLY | os.O_APPEND | os.O_NOCTTY | os.O_CLOEXEC | os.O_NONBLOCK
    try:
        st = os.stat(name)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _failed(exc) from exc
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OutputRefused(f"it is {kind_of(st)}, not a regular file")
    if st is not None and _read_only(st, name, None):
        raise OutputRefused("it is read-only")
    try:
        fd = os.open(name, flags | (os.O_CREAT if create else 0), 0o666)
    except OSError as exc:
        raise _failed(exc) from exc
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise OutputRefused(f"it is {kind_of(opened)}, not a regular file")
        start = opened.st_size
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            if sync:
                os.fsync(fd)
        except OSError as exc:
            try:
                os.ftruncate(fd, start)
            except OSError:
                pass
            raise _failed(exc) from exc
        return start + len(payload)
    finally:
        os.close(fd)


def make_folder(path: PathLike, mode: int = 0o777, *, parents: bool = False) -> None:
    """Make the folder ``path`` (with ``mode``, less the umask; its missing parents too with
    ``parents``); one that exists already is left as it is (the caller checks what it is).

    Raises:
        OSError: it cannot be made.
    """
    name = os.fspath(path)
    if parents:
        os.makedirs(name, mode=mode, exist_ok=True)
        return
    try:
        os.mkdir(name, mode)
    except FileExistsError:
        pass


def open_lock(path: PathLike, mode: int = 0o600) -> int:
    """A descriptor of the regular file ``path``, opened for reading and writing and made if
    missing (``mode``, whatever the umask), never through a symlink: what a lock (``flock``) is
    taken on. Another user's lock file (left by a killed process) is opened read-only, as an
    ``flock`` needs no more: it would otherwise block everyone else for good.

    Raises:
        OutputRefused: the path is a symlink, not a regular file, or a file with other names
            (hard links).
        WriteError: it cannot be opened or made.
    """
    name = os.fspath(path)
    flags = os.O_NOFOLLOW | os.O_NOCTTY | os.O_CLOEXEC | os.O_NONBLOCK
    try:
        try:
            fd = os.open(name, os.O_RDWR | os.O_CREAT | flags, mode)
        except PermissionError:
            fd = os.open(name, os.O_RDONLY | flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OutputRefused("it is a symbolic link: it is left as it is", name) from None
        raise _no_folder(exc, name) or _failed(exc, name) from exc
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise OutputRefused(f"it is {kind_of(st)}, not a regular file", name)
    if st.st_nlink > 1:
        # a lock file is never linked: a hard link planted at its name would have the other file
        # emptied and written over (note_lock) and its mode changed
        os.close(fd)
        raise OutputRefused("it is a hard link to another file: it is left as it is", name)
    if st.st_uid == os.geteuid() and stat.S_IMODE(st.st_mode) != mode:
        with suppress(OSError):
            os.fchmod(fd, mode)
    return fd


def note_lock(fd: int, text: str) -> None:
    """Write ``text`` (who holds it) into a lock file opened by :func:`open_lock`, in place of
    what it said: a note for the next one who finds the lock taken."""
    os.ftruncate(fd, 0)
    os.pwrite(fd, text.encode("utf-8", "replace"), 0)


def database_target(path: PathLike, *, force: bool = False) -> str:
    """The file a build of a database (another library's file: :func:`build_beside`) makes or
    replaces for ``path``: ``path`` with its symlinks resolved, so that a link to a database
    keeps pointing at the new one (as :func:`write_target` writes through a link).

    Raises:
        OutputRefused: it exists and is not a regular file (a directory, a FIFO a build would
            wait on for good, a device, a socket), or it is read-only and not ``force``.
        WriteError: it cannot be looked at.
    """
    name = os.fspath(path)
    try:
        st = os.stat(name)      # follows symlinks
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _failed(exc, name) from exc
    real = os.path.realpath(name)
    if st is None:
        return real
    if not stat.S_ISREG(st.st_mode):
        raise OutputRefused(f"it is {kind_of(st)}: a database is a regular file (it is left as it is)", name)
    if not force and _read_only(st, real, None):
        raise ReadOnly("it is read-only (--force replaces it all the same)", name)
    return real


@contextmanager
def build_beside(dest: PathLike, mode: Optional[int] = None) -> Iterator[str]:
    """A path in a new private folder (0700) beside ``dest``, for a file another library
    writes itself (a DuckDB database): when the block succeeds the file made there is
    given ``mode`` (when not None: the replaced file's), renamed over ``dest`` (atomic: a
    reader sees the old file or the new one) and the folder synced; the scratch folder is
    removed whatever happens. ``dest`` is the file itself (:func:`database_target`: a
    symlink there would be replaced, not followed).

    Raises:
        WriteError: the scratch folder cannot be made, or the rename fails.
    """
    target = os.path.abspath(os.fspath(dest))
    folder = os.path.dirname(target)
    try:
        scratch = tempfile.mkdtemp(prefix=f".{os.path.basename(target)[:200]}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise _no_folder(exc, os.fspath(dest)) or _failed(exc, target) from exc
    try:
        built = os.path.join(scratch, os.path.basename(target))
        yield built
        try:
            fd = os.open(built, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            try:
                if mode is not None:
                    os.fchmod(fd, mode)
                os.fsync(fd)        # whole on disk before it takes the name
            finally:
                os.close(fd)
            os.replace(built, target)
        except OSError as exc:
            raise _failed(exc, target) from exc
        _fsync_dir(folder)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def copy_file(src: PathLike, dst: PathLike) -> None:
    """Copy the regular file ``src`` to ``dst``, a new file (made exclusively, never through a
    link), with ``src``'s mode and its owner's write permission (a read-only database replaced
    with --force is built on a writable copy): the private copy a build works on
    (:func:`build_beside`, which gives the new file its mode back).

    Raises:
        WriteError: ``dst`` cannot be written (OSError when ``src`` cannot be read).
    """
    with open(src, "rb") as source:
        mode = stat.S_IMODE(os.fstat(source.fileno()).st_mode) | stat.S_IRUSR | stat.S_IWUSR
        try:
            fd = os.open(os.fspath(dst), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise _failed(exc, os.fspath(dst)) from exc
        try:
            for block in iter(lambda: source.read(1 << 20), b""):
                view = memoryview(block)
                while view:
                    view = view[os.write(fd, view):]
            os.fchmod(fd, mode)
        except OSError as exc:
            raise _failed(exc, os.fspath(dst)) from exc
        finally:
            os.close(fd)


def drain(held: IO[str], write: Callable[[str], object]) -> None:
    """Everything ``held`` holds, from its start, handed to ``write`` in blocks of 64 K."""
    held.seek(0)
    while True:
        block = held.read(1 << 16)
        if not block:
            break
        write(block)


def spool(max_size: int = 8 << 20) -> TextIO:
    """A text stream held in memory up to ``max_size`` characters, then in an unnamed
    temporary file (removed as it is made): where a page's data waits."""
    return cast(TextIO, tempfile.SpooledTemporaryFile(max_size=max_size, mode="w+", encoding="utf-8",
                                                      errors="replace", newline=""))


def record_spool(max_size: int = 1 << 20) -> BinaryIO:
    """A binary stream held in memory up to ``max_size`` bytes, then in an unnamed temporary
    file (removed as it is made): where a site's rows of every game wait (pickled records,
    read back in order or each from its offset) instead of in memory."""
    return cast(BinaryIO, tempfile.SpooledTemporaryFile(max_size=max_size, mode="w+b"))


@contextmanager
def named_spool(suffix: str = "") -> Iterator[tuple[BinaryIO, str]]:
    """A new private file (mode 0600, made with ``O_EXCL`` in the temporary folder) and its
    path, removed when the block ends: for an input that must be read twice (standard input)."""
    fd, name = tempfile.mkstemp(prefix="dehlanote-", suffix=suffix)
    try:
        with os.fdopen(fd, "w+b") as stream:
            yield stream, name
    finally:
        try:
            os.unlink(name)
        except OSError:
            pass


@contextmanager
def private_folder(prefix: str = "dehlanote-") -> Iterator[str]:
    """A new folder of this user's only (mode 0700, a new name in the temporary folder), removed
    with what is in it when the block ends: for the files another library writes on its own
    (DuckDB's spill files), out of any folder another user can write to.

    A process stopped by SIGTERM or SIGKILL (``timeout``, ``kill``) ends without its clean-up,
    and its folder stayed for good: the name holds the process's id (``PREFIX1234-…``), and
    the folders of this user's with this prefix whose process is gone are removed first."""
    base = tempfile.gettempdir()
    _sweep(base, prefix)
    folder = tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=base)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _sweep(base: str, prefix: str) -> None:
    """Remove the folders :func:`private_folder` made in ``base`` for processes that are gone:
    only real folders (not links) of this user's."""
    try:
        names = [n for n in os.listdir(base) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            continue                    # the process is running (its folder is in use)
        except ProcessLookupError:
            pass
        except (OSError, OverflowError):
            continue                    # another user's process, or no such number: left alone
        path = os.path.join(base, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid():
            shutil.rmtree(path, ignore_errors=True)


def silence(fd: int) -> None:
    """Point the descriptor ``fd`` at the null device (after a failed write to standard
    output, so that the final flush cannot fail again); nothing if that fails."""
    try:
        null = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)


_TEMP_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def _temp_name(base: str) -> str:
    return f".{base[:200]}.{os.urandom(5).hex()}.tmp"


@contextmanager
def _temporary(dir_fd: Optional[int], folder: str, base: str) -> Iterator[tuple[int, str]]:
    """A new temporary file ``.BASE.*.tmp`` in the folder (its descriptor ``dir_fd``, or
    its path): its descriptor and its name in the folder.

    The file is removed if the block raises, Ctrl-C and the stop signals included: they are
    held back while the file is made (:func:`stops_held`), and let through only inside the
    clean-up's reach, so no moment is left where one would leave the file behind.
    """
    made: Optional[str] = None
    try:
        with stops_held():
            for _ in range(100):
                tmp = _temp_name(base)
                try:
                    if dir_fd is None:
                        fd = os.open(os.path.join(folder, tmp), _TEMP_FLAGS, 0o600)
                    else:
                        fd = os.open(tmp, _TEMP_FLAGS, 0o600, dir_fd=dir_fd)
                    made = tmp
                    break
                except FileExistsError:
                    continue
            else:       # pragma: no cover - 100 random names all taken
                raise FileExistsError(errno.EEXIST, "no temporary name is free", folder)
        # (a stop held back meanwhile lands as the hold ends: the file is made, and removed)
        yield fd, made
    except BaseException:
        if made is not None:
            try:
                os.unlink(made, dir_fd=dir_fd) if dir_fd is not None else os.unlink(os.path.join(folder, made))
            except OSError:
                pass
        raise


@contextmanager
def temporary_beside(folder: str, base: str) -> Iterator[tuple[int, str]]:
    """A new temporary file ``.BASE.*.tmp`` in ``folder``: its descriptor and path (removed
    if the block raises; see :func:`_temporary`)."""
    with _temporary(None, folder, base) as (fd, tmp):
        yield fd, os.path.join(folder, tmp)


def _chown(fd: int, st: os.stat_result) -> None:
    """Give the new file the old one's owner and group (as far as this user may)."""
    try:
        os.fchown(fd, st.st_uid, st.st_gid)
    except OSError:
        try:
            os.fchown(fd, -1, st.st_gid)
        except OSError:
            pass


def _check_name(name: str) -> None:
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise OutputRefused(f"{name!r} is not a file name")


#: the files the command reads (device, inode) while :func:`inputs_kept` runs
_INPUTS: ContextVar[frozenset[tuple[int, int]]] = ContextVar("dehlanote_inputs", default=frozenset())


@contextmanager
def inputs_kept(paths: Iterable[PathLike]) -> Iterator[None]:
    """While the block runs, a :class:`Folder` write that would replace one of these files (the
    same file under any name: a hard link too) is refused with :class:`InputKept`: a command
    that writes many files whose names come from the records (a site) must not replace a record
    it reads (each as :func:`same_file` tells it: paths that cannot be read are skipped)."""
    keys = {key for key in map(inode_key, paths) if key is not None}
    token = _INPUTS.set(_INPUTS.get() | frozenset(keys))
    try:
        yield
    finally:
        _INPUTS.reset(token)


class Folder:
    """A folder opened once, by its descriptor; files and sub-folders in it are written by
    name relative to it, so a link planted in it is never followed (a site's folder).

    ``Folder(path, create=True)`` makes the folder (and its parents) if missing. The path
    the user names may itself be a symlink (followed once, as ``cd`` would); nothing below it is.
    """

    def __init__(self, path: PathLike, *, create: bool = False, _fd: Optional[int] = None) -> None:
        self.path = os.fspath(path)
        if _fd is not None:
            self.fd = _fd
            return
        try:
            if create:
                os.makedirs(self.path, exist_ok=True)
            self.fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except FileExistsError as exc:  # a link that leads nowhere, or round in a loop: "file exists"
            try:
                os.stat(self.path)
                why: Optional[OSError] = None
            except FileNotFoundError:
                why = WriteError(0, f"it is a link to {os.readlink(self.path)}, which does not exist", self.path)
            except OSError as real:
                why = _no_folder(real, self.path) or real
            raise _failed(why or exc, self.path) from exc
        except OSError as exc:
            # (made here: a folder above it that cannot be made is named; opened only: the
            # caller names the folder the user gave)
            raise (_no_folder(exc, self.path) if create else None) or _failed(exc, self.path) from exc

    def __repr__(self) -> str:
        return f"Folder({self.path!r})"

    def join(self, name: str) -> str:
        return os.path.join(self.path, name)

    def folder(self, name: str, *, create: bool = True) -> "Folder":
        """The sub-folder ``name`` (made if missing); a symlink or a file there is refused.

        Raises:
            OutputRefused: ``name`` is taken by something else than a folder.
            WriteError: it cannot be made.
        """
        _check_name(name)
        if create:
            try:
                os.mkdir(name, 0o777, dir_fd=self.fd)
            except FileExistsError:
                pass
            except OSError as exc:
                raise _failed(exc, self.join(name)) from exc
        try:
            fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self.fd)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise OutputRefused(f"it is {kind_of(os.lstat(name, dir_fd=self.fd))}, not a folder: "
                                    "it is left as it is", self.join(name)) from None
            raise _failed(exc, self.join(name)) from exc
        return Folder(self.join(name), _fd=fd)

    @contextmanager
    def write(self, name: str, *, force: bool = False, expect: Optional[Snapshot] = None, binary: bool = False,
              sync: bool = True, keep_links: bool = False, shown: Optional[str] = None,
              mode: Optional[int] = None) -> Iterator[IO[Any]]:
        """A stream whose content becomes the file ``name`` of this folder when the block succeeds.

        A symlink at ``name`` is replaced, not followed; a file with hard links is replaced
        too (the other names keep the old text) unless ``keep_links``, where it is written in
        place. ``mode``: the new file's mode (default: the old file's, or 0666 less the umask;
        a private file, 0600, is never readable by others, not even for a moment).

        Raises OutputRefused (a directory, a device, a FIFO, a socket, a read-only
        file without ``force``, a file changed since ``expect``) or WriteError.
        """
        _check_name(name)
        shown = shown or self.join(name)
        try:
            st: Optional[os.stat_result] = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise _failed(exc, shown) from exc
        if st is not None and stat.S_ISLNK(st.st_mode):
            st = None       # the link itself is replaced; what it points at is not touched
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise OutputRefused(f"it is {kind_of(st)}: it is left as it is", shown)
        if st is not None and (st.st_dev, st.st_ino) in _INPUTS.get():
            raise InputKept("it is an input of this command: writing it would lose the record", shown)
        self._writable(shown)
        if st is not None and not force and _read_only(st, name, self.fd):
            raise ReadOnly("it is read-only (--force writes it all the same)", shown)
        mine = True     # False while the caller's block runs: its own errors (reading) pass as they are
        try:
            with signals_clean_up(), _temporary(self.fd, self.path, name) as (fd, tmp):
                with _stream(fd, binary) as stream:
                    out = _Out(stream)
                    mine = False
                    yield cast(IO[Any], out)
                    mine = True
                    out.flush()
                    if mode is not None:
                        os.fchmod(fd, mode)
                    elif st is not None:
                        os.fchmod(fd, stat.S_IMODE(st.st_mode))
                    else:
                        os.fchmod(fd, 0o666 & ~_umask())
                    if st is not None:
                        _chown(fd, st)
                    if sync:
                        os.fsync(fd)
                if expect is not None and changed_since(name, expect, self.fd):
                    raise OutputRefused("it changed while it was being formatted (saved by another program?): "
                                        "it is left as it is", shown)
                if keep_links and st is not None and st.st_nlink > 1:
                    self._write_in_place(name, tmp)
                    os.unlink(tmp, dir_fd=self.fd)
                else:
                    os.replace(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
                    if sync:
                        _fsync_fd(self.fd)
        except OSError as exc:
            if not mine and not isinstance(exc, WriteError):
                raise
            raise _failed(exc, shown) from exc

    def _writable(self, shown: str) -> None:
        """A read-only file system is said as such (not "the file is read-only")."""
        try:
            read_only = bool(os.fstatvfs(self.fd).f_flag & os.ST_RDONLY)
        except OSError:
            return
        if read_only:
            raise WriteError(errno.EROFS, os.strerror(errno.EROFS), shown)

    def write_file(self, name: str, data: Union[str, bytes], **options: Any) -> None:
        """Replace the file ``name`` with ``data`` (see :meth:`write`)."""
        with self.write(name, binary=isinstance(data, bytes), **options) as stream:
            stream.write(data)

    def _write_in_place(self, name: str, tmp: str) -> None:
        """Copy the whole temporary file into ``name`` (kept, with its hard links)."""
        try:
            src = os.open(tmp, os.O_RDONLY | os.O_CLOEXEC, dir_fd=self.fd)
            try:
                dst = os.open(name, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self.fd)
                try:
                    os.ftruncate(dst, 0)
                    while True:
                        block = os.read(src, 1 << 20)
                        if not block:
                            break
                        view = memoryview(block)
                        while view:
                            view = view[os.write(dst, view):]
                    os.fsync(dst)
                finally:
                    os.close(dst)
            finally:
                os.close(src)
        except OSError as exc:
            # the whole new text is still in tmp: keep it and say where
            kept = tmp + ".kept"
            try:
                os.replace(tmp, kept, src_dir_fd=self.fd, dst_dir_fd=self.fd)
            except OSError:
                kept = tmp
            raise WriteError(exc.errno, f"{exc.strerror}; the whole new text is in {kept}") from exc

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> "Folder":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
