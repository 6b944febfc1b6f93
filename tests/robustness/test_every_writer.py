"""The same output targets for every command that writes a file (issue 22 items 2, 5, 6, 11,
23): ``json -o``, ``generate -o``, ``html -o`` (a page), ``html`` into a site's folder,
the Parquet export, and ``fmt --write`` (which rewrites its input). Each case runs the
command in a subprocess on temporary files and nodes of its own: a device made with mknod
in a temporary folder, a FIFO, a symlink, a hard link, a read-only file, a file of another
owner, a full disk (a small tmpfs) and a read-only file system, both mounted in a private
mount namespace (``unshare -m``) so the system's own are never touched. (``solve`` and
``annotate`` write only to standard output.)"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
MATCH = ROOT / "samples" / "match.dpn"
WORKED = ROOT / "samples" / "worked-example.dpn"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}

#: a driver for the Parquet export (a Python API: it raises; the driver says what was raised)
PARQUET = textwrap.dedent("""
    import sys
    from dehlanote.batch.parquet import export_parquet
    from dehlanote.files import OutputRefused
    try:
        export_parquet(sys.argv[1], sys.argv[2])
    except OutputRefused as exc:
        print(f"will not write {sys.argv[2]}: {exc} (OutputRefused)", file=sys.stderr)
        sys.exit(2)
    except OSError as exc:
        print(f"cannot write {sys.argv[2]}: {exc.strerror.lower()} ({type(exc).__name__})", file=sys.stderr)
        sys.exit(2)
""")


def json_o(out: str) -> list[str]:
    return ["-m", "dehlanote", "json", str(MATCH), "-o", out]


def generate_o(out: str) -> list[str]:
    return ["-m", "dehlanote", "generate", "--games", "3", "--seed", "5", "--hands", "-o", out]


def html_o(out: str) -> list[str]:
    return ["-m", "dehlanote", "html", str(MATCH), "-o", out]


def parquet(out: str) -> list[str]:
    return ["-c", PARQUET, str(MATCH), out]


#: each command that writes the file OUT it is given: (its arguments, how its output begins)
WRITERS: dict[str, tuple[Callable[[str], list[str]], bytes]] = {
    "json -o": (json_o, b'{\n  "format": "dpn-json/1"'),
    "generate -o": (generate_o, b"[Event "),
    "html -o": (html_o, b"<!doctype html>"),
    "parquet": (parquet, b"PAR1"),
}
FORCE = {"json -o": "--force", "generate -o": "--force", "html -o": "--force"}


def run(args: list[str], cwd: Path, timeout: float = 180) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                            env=ENV)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.endswith((".tmp", ".kept")))


def begins(path: Path, head: bytes) -> bool:
    return path.read_bytes().startswith(head)


writers = pytest.mark.parametrize("writer", list(WRITERS))


@writers
def test_a_new_file_is_written_whole(tmp_path, writer):
    args, head = WRITERS[writer]
    out = tmp_path / "out"
    result = run(args(str(out)), tmp_path)
    assert result.returncode == 0, result.stderr
    assert begins(out, head) and stat.S_IMODE(out.stat().st_mode) == 0o666 & ~_umask()
    assert leftovers(tmp_path) == []


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.skipif(not IS_ROOT, reason="mknod needs root")
@writers
def test_a_device_stays_a_device_even_as_root(tmp_path, writer):
    args, _ = WRITERS[writer]
    node = tmp_path / "null"
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))    # a null device of our own, in tmp
    result = run(args(str(node)), tmp_path)
    assert result.returncode == 0, result.stderr
    st = os.stat(node)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


@writers
def test_a_fifo_is_written_not_replaced(tmp_path, writer):
    args, head = WRITERS[writer]
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = tmp_path / "got"
    with open(got, "wb") as sink:       # (a pipe back to the test would fill and stall the writer)
        reader = subprocess.Popen(["cat", str(fifo)], stdout=sink)
        try:
            result = run(args(str(fifo)), tmp_path)
            reader.wait(timeout=60)
        finally:
            reader.kill()
    assert result.returncode == 0, result.stderr
    assert got.read_bytes().startswith(head)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and leftovers(tmp_path) == []


@writers
def test_dev_stdout_is_standard_output(tmp_path, writer):
    args, head = WRITERS[writer]
    result = subprocess.run([sys.executable, *args("/dev/stdout")], cwd=tmp_path, capture_output=True,
                            timeout=180, env=ENV)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(head)


@writers
def test_a_symlink_is_followed_and_kept(tmp_path, writer):
    args, head = WRITERS[writer]
    (tmp_path / "sub").mkdir()
    target = tmp_path / "sub" / "real"
    target.write_bytes(b"old")
    link = tmp_path / "link"
    link.symlink_to(target)
    result = run(args(str(link)), tmp_path)
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(target) and begins(target, head)
    assert leftovers(tmp_path) == []


@writers
def test_hard_links_see_the_new_content(tmp_path, writer):
    args, head = WRITERS[writer]
    first = tmp_path / "first"
    first.write_bytes(b"old")
    second = tmp_path / "second"
    os.link(first, second)
    inode = first.stat().st_ino
    result = run(args(str(first)), tmp_path)
    assert result.returncode == 0, result.stderr
    assert first.stat().st_ino == inode and first.stat().st_nlink == 2
    assert begins(second, head) and first.read_bytes() == second.read_bytes()
    assert leftovers(tmp_path) == []


@writers
def test_mode_is_kept(tmp_path, writer):
    args, head = WRITERS[writer]
    out = tmp_path / "out"
    out.write_bytes(b"old")
    os.chmod(out, 0o640)
    assert run(args(str(out)), tmp_path).returncode == 0
    assert begins(out, head) and stat.S_IMODE(out.stat().st_mode) == 0o640


@writers
def test_a_read_only_file_is_refused_unless_forced(tmp_path, writer):
    args, head = WRITERS[writer]
    out = tmp_path / "out"
    out.write_bytes(b"old")
    os.chmod(out, 0o444)
    result = run(args(str(out)), tmp_path)
    assert result.returncode != 0
    assert "read-only" in result.stderr and f"will not write {out}" in result.stderr
    assert out.read_bytes() == b"old" and stat.S_IMODE(out.stat().st_mode) == 0o444
    if writer in FORCE:
        result = run([*args(str(out)), FORCE[writer]], tmp_path)
        assert result.returncode == 0, result.stderr
        assert begins(out, head) and stat.S_IMODE(out.stat().st_mode) == 0o444
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(not IS_ROOT, reason="giving a file to another owner needs root")
@writers
def test_another_owners_file_keeps_its_owner_and_group(tmp_path, writer):
    args, head = WRITERS[writer]
    out = tmp_path / "out"
    out.write_bytes(b"old")
    os.chown(out, 12345, 23456)
    assert run(args(str(out)), tmp_path).returncode == 0
    st = out.stat()
    assert begins(out, head) and (st.st_uid, st.st_gid) == (12345, 23456)


@writers
def test_a_directory_is_refused_in_one_line(tmp_path, writer):
    args, _ = WRITERS[writer]
    if writer == "html -o":
        pytest.skip("html -o DIR writes DIR/NAME.html (tested below)")
    (tmp_path / "d").mkdir()
    result = run(args(str(tmp_path / "d")), tmp_path)
    assert result.returncode == 2 and "directory" in result.stderr
    assert list((tmp_path / "d").iterdir()) == []


# ---- a full disk and a read-only file system, in a private mount namespace -------------------

MOUNTED = textwrap.dedent("""
    import json, os, subprocess, sys
    where, size, readonly, old, args = sys.argv[1], sys.argv[2], sys.argv[3] == "ro", sys.argv[4], sys.argv[5:]
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", where], check=True)
    for name in old.split(","):
        if name:
            path = os.path.join(where, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write("old " + name)
    if readonly:
        subprocess.run(["mount", "-o", "remount,ro", where], check=True)
    result = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300)
    files = {}
    for folder, _, names in os.walk(where):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, where)] = f.read(64).decode("utf-8", "replace")
    print(json.dumps({"rc": result.returncode, "err": result.stderr, "files": files}))
""")


def in_small_fs(tmp_path: Path, args: list[str], *, size: str = "4k", readonly: bool = False,
                old: str = "out") -> dict:
    """Run ``args`` (python arguments naming MOUNT/...) with MOUNT a tmpfs of ``size`` in a
    private mount namespace, after writing each file of ``old`` (comma-separated) there."""
    if not IS_ROOT or shutil.which("unshare") is None:
        pytest.skip("a private mount namespace (unshare -m) and mount need root")
    where = tmp_path / "mnt"
    where.mkdir()
    args = [a.replace("MOUNT", str(where)) for a in args]
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"unshare -m is not permitted here: {probe.stderr.strip()}")
    result = subprocess.run(["unshare", "-m", "--propagation", "private", sys.executable, "-c", MOUNTED,
                             str(where), size, "ro" if readonly else "rw", old, *args],
                            capture_output=True, text=True, timeout=400, env=ENV)
    assert result.returncode == 0, result.stderr
    assert not any(where.iterdir())     # the tmpfs was never mounted here, outside the namespace
    report = json.loads(result.stdout)
    assert "Traceback" not in report["err"], report["err"]
    return report


@writers
def test_a_full_disk_says_cannot_write_and_leaves_the_old_file(tmp_path, writer):
    args, _ = WRITERS[writer]
    report = in_small_fs(tmp_path, args("MOUNT/out"))      # one page of 4 K, taken by the old file
    assert report["rc"] != 0
    assert "cannot write" in report["err"] and "no space left on device" in report["err"].lower()
    assert "cannot read" not in report["err"]
    assert report["files"] == {"out": "old out"}        # the old file whole, no temporary left


@writers
def test_a_read_only_file_system_says_cannot_write(tmp_path, writer):
    args, _ = WRITERS[writer]
    report = in_small_fs(tmp_path, args("MOUNT/out"), size="1m", readonly=True)
    assert report["rc"] != 0
    assert "cannot write" in report["err"] and "read-only file system" in report["err"].lower()
    assert "cannot read" not in report["err"]
    assert report["files"] == {"out": "old out"}


# ---- fmt --write: the file it rewrites is its input ---------------------------------------------

def scrambled(path: Path) -> Path:
    path.write_text(WORKED.read_text(encoding="utf-8").replace("[Site", "[site"), encoding="utf-8")
    return path


def test_fmt_write_on_a_full_disk_says_cannot_rewrite_and_keeps_the_file(tmp_path):
    loose = tmp_path / "loose.dpn"         # about 20 K, not canonical: its new text does not fit beside it
    assert run(["-m", "dehlanote", "generate", "--games", "30", "--seed", "5", "--style", "loose", "-o", str(loose)],
               tmp_path).returncode == 0
    report = in_small_fs(tmp_path, ["-c", textwrap.dedent(f"""
        import shutil, subprocess, sys
        shutil.copy({str(loose)!r}, "MOUNT/out.dpn")
        sys.exit(subprocess.run([sys.executable, "-m", "dehlanote", "fmt", "--write", "MOUNT/out.dpn"]).returncode)
    """)], size="32k", old="")
    assert report["rc"] == 2, report
    assert "cannot rewrite" in report["err"] and "no space left on device" in report["err"].lower()
    assert list(report["files"]) == ["out.dpn"]
    assert report["files"]["out.dpn"] == loose.read_bytes()[:64].decode("utf-8")


def test_fmt_write_on_a_read_only_file_system(tmp_path):
    report = in_small_fs(tmp_path, ["-m", "dehlanote", "fmt", "--write", "MOUNT/out"], size="1m", readonly=True)
    assert report["rc"] == 2 and "read-only file system" in report["err"].lower()
    assert report["files"] == {"out": "old out"}


@pytest.mark.skipif(not IS_ROOT, reason="mknod needs root")
def test_fmt_write_refuses_a_device(tmp_path):
    node = tmp_path / "null"
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    result = run(["-m", "dehlanote", "fmt", "--write", str(node)], tmp_path)
    assert result.returncode == 2 and "not a regular file" in result.stderr
    assert stat.S_ISCHR(os.stat(node).st_mode)


def test_fmt_write_keeps_hard_links_and_symlinks(tmp_path):
    first = scrambled(tmp_path / "first.dpn")
    os.link(first, tmp_path / "second.dpn")
    link = tmp_path / "link.dpn"
    link.symlink_to(first)
    assert run(["-m", "dehlanote", "fmt", "--write", str(link)], tmp_path).returncode == 0
    assert link.is_symlink() and "[Site" in (tmp_path / "second.dpn").read_text(encoding="utf-8")
    assert first.stat().st_nlink == 2 and leftovers(tmp_path) == []


# ---- a site's folder ------------------------------------------------------------------------------

def site(out: Path, *more: str) -> list[str]:
    return ["-m", "dehlanote", "html", str(MATCH), str(WORKED), "-o", str(out), *more]


def test_a_site_never_writes_through_links_planted_in_it(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    victims = {name: outside / name for name in ("index", "page", "tmp")}
    for v in victims.values():
        v.write_text("secret", encoding="utf-8")
    s = tmp_path / "site"
    (s / "games").mkdir(parents=True)
    (s / "index.html").symlink_to(victims["index"])
    (s / "games" / "match.html").symlink_to(victims["page"])
    (s / "games" / ".match.html.tmp").symlink_to(victims["tmp"])     # the old fixed temporary name
    result = run(site(s), tmp_path)
    assert result.returncode == 0, result.stderr
    assert all(v.read_text(encoding="utf-8") == "secret" for v in victims.values())
    assert not (s / "index.html").is_symlink() and begins(s / "index.html", b"<!doctype html>")
    assert not (s / "games" / "match.html").is_symlink() and begins(s / "games" / "match.html", b"<!doctype html>")


def test_a_site_refuses_a_games_folder_that_is_a_link(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    s = tmp_path / "site"
    s.mkdir()
    (s / "games").symlink_to(outside)
    result = run(site(s), tmp_path)
    assert result.returncode == 2
    assert f"will not write {s / 'games'}: it is a symbolic link" in result.stderr
    assert list(outside.iterdir()) == [] and not (s / "index.html").exists()


def test_a_site_does_not_write_through_a_hard_link_planted_in_it(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("secret", encoding="utf-8")
    s = tmp_path / "site"
    (s / "games").mkdir(parents=True)
    os.link(victim, s / "games" / "match.html")
    assert run(site(s), tmp_path).returncode == 0
    assert victim.read_text(encoding="utf-8") == "secret"
    assert begins(s / "games" / "match.html", b"<!doctype html>")


@pytest.mark.skipif(not IS_ROOT, reason="mknod needs root")
def test_a_device_or_fifo_planted_in_a_site_is_refused_not_replaced(tmp_path):
    s = tmp_path / "site"
    (s / "games").mkdir(parents=True)
    os.mknod(s / "index.html", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    os.mkfifo(s / "games" / "match.html")
    result = run(site(s), tmp_path, timeout=60)       # (a FIFO opened for writing would wait for a reader)
    assert result.returncode == 2
    assert f"will not write {s / 'games' / 'match.html'}: it is a FIFO" in result.stderr
    assert stat.S_ISCHR(os.stat(s / "index.html").st_mode) and stat.S_ISFIFO(os.stat(s / "games/match.html").st_mode)


def test_a_read_only_page_of_a_site_is_refused_unless_forced(tmp_path):
    s = tmp_path / "site"
    assert run(site(s), tmp_path).returncode == 0
    page = s / "games" / "match.html"
    page.write_text("old", encoding="utf-8")
    os.chmod(page, 0o444)
    result = run(site(s), tmp_path)
    assert result.returncode == 2 and f"will not write {page}: it is read-only" in result.stderr
    assert page.read_text(encoding="utf-8") == "old"
    assert run(site(s, "--force"), tmp_path).returncode == 0
    assert begins(page, b"<!doctype html>") and stat.S_IMODE(page.stat().st_mode) == 0o444


def test_a_folder_where_a_page_should_go_says_cannot_write(tmp_path):
    s = tmp_path / "site"
    (s / "games" / "match.html").mkdir(parents=True)
    result = run(site(s), tmp_path)
    assert result.returncode == 2 and f"will not write {s / 'games' / 'match.html'}: it is a directory" \
        in result.stderr
    assert "cannot read" not in result.stderr


def test_a_site_on_a_full_disk_keeps_its_old_index_whole(tmp_path):
    report = in_small_fs(tmp_path, site(Path("MOUNT/site")), size="64k", old="site/index.html")
    assert report["rc"] == 2
    assert "cannot write " in report["err"] and "no space left on device" in report["err"].lower()
    assert "cannot read" not in report["err"]
    assert report["files"]["site/index.html"] == "old site/index.html"
    assert not [name for name in report["files"] if name.endswith(".tmp")]


def test_a_site_on_a_read_only_file_system(tmp_path):
    report = in_small_fs(tmp_path, site(Path("MOUNT/site")), size="1m", readonly=True, old="site/index.html")
    assert report["rc"] == 2 and "cannot write" in report["err"] and "read-only file system" in report["err"]
    assert report["files"] == {"site/index.html": "old site/index.html"}


@pytest.mark.skipif(not IS_ROOT, reason="mknod needs root")
def test_html_to_a_null_device_in_a_folder_given_as_out(tmp_path):
    """``html X -o DIR`` writes DIR/X.html; a device of that name stays a device."""
    os.mknod(tmp_path / "match.html", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    result = run(html_o(str(tmp_path)), tmp_path)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.stat(tmp_path / "match.html").st_mode)
