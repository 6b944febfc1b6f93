"""Output paths (issue 16 item 1): ``json -o`` and ``fmt --write`` never replace what is not
a regular file, follow symlinks, keep mode, owner, group and hard links, refuse read-only
files unless forced, leave no temporary file behind on SIGTERM/SIGHUP, and do not overwrite
a file that changed while ``fmt`` ran. Every case runs the command in a subprocess on
temporary files and nodes of its own (never the system's)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dehlanote.files import OutputRefused, snapshot, write_target

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "samples" / "worked-example.dpn"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def run(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "dehlanote", *args], cwd=cwd, capture_output=True,
                            text=True, timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in result.stderr, result.stderr
    return result


def scrambled(path: Path) -> Path:
    """A valid record that is not canonical."""
    path.write_text(WORKED.read_text(encoding="utf-8").replace("[Site", "[site"), encoding="utf-8")
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.skipif(not IS_ROOT, reason="mknod needs root")
def test_16_1_a_device_node_stays_a_device(tmp_path):
    node = tmp_path / "null"
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))    # our own /dev/null, in tmp
    result = run("json", str(WORKED), "-o", str(node), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.stat(node).st_mode) and os.stat(node).st_rdev == os.makedev(1, 3)
    assert leftovers(tmp_path) == []


def test_16_1_a_fifo_is_written_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    result = run("json", str(WORKED), "-o", str(fifo), cwd=tmp_path)
    out, _ = reader.communicate(timeout=60)
    assert result.returncode == 0, result.stderr
    assert out.startswith(b'{\n  "format": "dpn-json/1"')
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_16_1_dev_stdout_is_written_to_standard_output(tmp_path):
    result = run("json", str(WORKED), "-o", "/dev/stdout", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.startswith('{\n  "format": "dpn-json/1"')


def test_16_1_a_symlink_is_followed_and_kept(tmp_path):
    (tmp_path / "sub").mkdir()
    target = scrambled(tmp_path / "sub" / "real.dpn")
    link = tmp_path / "link.dpn"
    link.symlink_to(target)
    result = run("fmt", "--write", str(link), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert "[Site" in target.read_text(encoding="utf-8")
    assert run("fmt", "--check", str(target), cwd=tmp_path).returncode == 0
    assert leftovers(tmp_path) == [] and leftovers(tmp_path / "sub") == []


def test_16_1_mode_owner_and_group_are_kept(tmp_path):
    path = scrambled(tmp_path / "game.dpn")
    os.chmod(path, 0o640)
    if IS_ROOT:
        os.chown(path, 1234, 5678)
    result = run("fmt", "--write", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    st = os.stat(path)
    assert stat.S_IMODE(st.st_mode) == 0o640
    if IS_ROOT:
        assert (st.st_uid, st.st_gid) == (1234, 5678)
    out = tmp_path / "out.json"
    out.write_text("old")
    os.chmod(out, 0o604)
    assert run("json", str(WORKED), "-o", str(out), cwd=tmp_path).returncode == 0
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o604 and out.read_text().startswith("{")


def test_16_1_hard_links_keep_seeing_the_new_text(tmp_path):
    path = scrambled(tmp_path / "game.dpn")
    other = tmp_path / "other.dpn"
    os.link(path, other)
    result = run("fmt", "--write", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert os.stat(path).st_ino == os.stat(other).st_ino and os.stat(path).st_nlink == 2
    assert other.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    assert "[Site" in other.read_text(encoding="utf-8")
    assert leftovers(tmp_path) == []


def test_16_1_a_read_only_file_is_refused_unless_forced(tmp_path):
    path = scrambled(tmp_path / "game.dpn")
    before = path.read_bytes()
    os.chmod(path, 0o444)
    result = run("fmt", "--write", str(path), cwd=tmp_path)
    assert result.returncode == 2 and "read-only" in result.stderr
    assert path.read_bytes() == before
    result = run("fmt", "--write", "--force", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert path.read_bytes() != before and stat.S_IMODE(os.stat(path).st_mode) == 0o444
    out = tmp_path / "out.json"
    out.write_text("old")
    os.chmod(out, 0o444)
    result = run("json", str(WORKED), "-o", str(out), cwd=tmp_path)
    assert result.returncode == 2 and "read-only" in result.stderr and out.read_text() == "old"


def test_16_1_a_directory_is_refused_in_one_line(tmp_path):
    result = run("json", str(WORKED), "-o", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "directory" in result.stderr


@pytest.mark.parametrize("args", [("json", str(WORKED)), ("image", str(WORKED), "--deal", "1"),
                                  ("html", str(WORKED)), ("html", "--viewer"), ("generate",)],
                         ids=["json", "image", "html", "viewer", "generate"])
def test_a_folder_that_does_not_exist_is_said_in_words_and_not_made(tmp_path, args):
    # the one writer says it for every command (json, image and generate said "no such file or
    # directory", image with a capital N; html's page said it in words on its own)
    out = "nowhere/out.svg" if args[0] == "image" else "nowhere/out.x"
    result = run(*args, "-o", out, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == f"dehlanote: cannot write {out}: the folder nowhere does not exist\n"
    assert not (tmp_path / "nowhere").exists()
    with pytest.raises(OSError) as caught:
        with write_target(tmp_path / "nowhere" / "out.x"):
            pass
    assert caught.value.strerror == f"the folder {tmp_path / 'nowhere'} does not exist"


def test_a_link_into_a_folder_that_does_not_exist_names_that_folder(tmp_path):
    # the output is a link (followed: the file it leads to is written) whose folder is missing:
    # "no such file or directory" named neither the folder nor the link
    target = tmp_path / "gone" / "out.json"
    (tmp_path / "link.json").symlink_to(target)
    result = run("json", str(WORKED), "-o", "link.json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (f"dehlanote: cannot write link.json: the folder {tmp_path / 'gone'} does not exist "
                             f"(link.json is a link to {target})\n")
    assert not (tmp_path / "gone").exists() and (tmp_path / "link.json").is_symlink()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_16_1_a_signal_while_writing_leaves_no_temporary_file(tmp_path, sig):
    # the input is a FIFO fed a block of games (the reader reads 1 MB at a time), then held
    # open: json has started its output file and waits for more when the signal comes
    fifo = tmp_path / "in.dpn"
    os.mkfifo(fifo)
    out = tmp_path / "out.json"
    out.write_text("old")
    proc = subprocess.Popen([sys.executable, "-m", "dehlanote", "json", str(fifo), "-o", str(out)],
                            cwd=tmp_path, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    with open(fifo, "wb") as feed:
        game = WORKED.read_bytes() + b"\n"
        feed.write(game * (2 * (1 << 20) // len(game)) + game[:200])
        feed.flush()
        deadline = time.time() + 60
        while not leftovers(tmp_path) and time.time() < deadline:
            time.sleep(0.05)
        assert leftovers(tmp_path), "the temporary file never appeared"
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err
    assert b"Traceback" not in err
    assert leftovers(tmp_path) == [] and out.read_text() == "old"


def test_16_1_a_file_saved_while_fmt_ran_is_not_overwritten(tmp_path):
    path = scrambled(tmp_path / "game.dpn")
    before = snapshot(path)
    path.write_text(path.read_text(encoding="utf-8") + "\n{saved by the editor}\n", encoding="utf-8")
    edited = path.read_bytes()
    with pytest.raises(OutputRefused, match="changed"):
        with write_target(path, expect=before) as stream:
            stream.write("formatted")
    assert path.read_bytes() == edited and leftovers(tmp_path) == []
    # the same size and time, other bytes: the hash tells
    path.write_bytes(b"A" * 10)
    before = snapshot(path)
    st = os.stat(path)
    path.write_bytes(b"B" * 10)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    with pytest.raises(OutputRefused):
        with write_target(path, expect=before) as stream:
            stream.write("formatted")
    assert path.read_bytes() == b"B" * 10


def test_16_1_fmt_write_refuses_when_the_file_changes_during_the_run(tmp_path):
    # a slow editor's save, simulated in the child: the file changes after fmt took its snapshot
    path = scrambled(tmp_path / "game.dpn")
    script = (
        "import sys; from dehlanote.commands import fmt as f; real = f.snapshot\n"
        "def snap(p):\n"
        "    s = real(p); open(p, 'a', encoding='utf-8').write('{saved}\\n'); return s\n"
        "f.snapshot = snap\n"
        "from dehlanote.cli import app; sys.argv = ['dehlanote', 'fmt', '--write', sys.argv[1]]; app()\n")
    result = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert result.returncode == 2, result.stderr
    assert "changed" in result.stderr and path.read_text(encoding="utf-8").endswith("{saved}\n")
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("args", [["html", "{w}", "-o"], ["html", "{w}", "--site", "-o"], ["json", "{w}", "-o"],
                                  ["image", "{w}", "-o"], ["generate", "-o"], ["db", "build", "{w}", "-o"]],
                         ids=lambda a: " ".join(a))
def test_an_empty_output_is_refused_and_nothing_is_written(tmp_path, monkeypatch, args):
    # -o "$OUT" with the variable unset: the empty name meant the current folder, and html wrote
    # its page there (a site its index and pages), where every other command said "it is a directory"
    from typer.testing import CliRunner

    from dehlanote.cli import app
    monkeypatch.chdir(tmp_path)
    argv = [a.replace("{w}", str(WORKED)) for a in args] + [""]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 2, result.output
    assert "--output is empty: give a file or folder name (is a shell variable unset?)" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_empty_output_is_refused_by_the_console_script_as_well(tmp_path):
    result = run("json", str(WORKED), "-o", "", cwd=tmp_path)      # (json runs there without the Typer app)
    assert result.returncode == 2
    assert result.stderr == "dehlanote: --output is empty: give a file or folder name (is a shell variable unset?)\n"
    assert list(tmp_path.iterdir()) == []


# ---- an output that is one of the inputs -------------------------------------------------------

#: every command that reads files and writes -o OUT, with OUT put in the command's words
INPUT_OUTPUT = {
    "html": lambda rec, out: ["html", rec, "-o", out],
    "html --analyse-from": lambda rec, out: ["html", rec, "--analyse-from", "13", "-o", out],
    "json": lambda rec, out: ["json", rec, "-o", out],
    "json, two files": lambda rec, out: ["json", str(WORKED), rec, "-o", out],
    "image": lambda rec, out: ["image", rec, "--deal", "1", "-o", out],
    "db build": lambda rec, out: ["db", "build", rec, "-o", out],
}


@pytest.mark.parametrize("how", ["same", "symlink", "hard link"])
@pytest.mark.parametrize("command", list(INPUT_OUTPUT))
def test_an_output_that_is_an_input_is_refused_and_nothing_is_written(tmp_path, command, how):
    """`html keep.dpn -o keep.dpn` replaced the record with its page (json too): the output is
    checked against every input (the same device and inode, through a link too) before
    anything is written, with a coded error."""
    if command == "db build":
        pytest.importorskip("duckdb")
    suffix = ".svg" if command == "image" else ".dpn"
    record = tmp_path / f"keep{suffix}"
    record.write_bytes(WORKED.read_bytes())
    before = record.read_bytes()
    out = record
    if how == "symlink":
        out = tmp_path / f"link{suffix}"
        out.symlink_to(record.name)
    elif how == "hard link":
        out = tmp_path / f"hard{suffix}"
        os.link(record, out)
    result = run(*INPUT_OUTPUT[command](record.name, out.name), cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    line = result.stderr.strip()
    assert line.startswith(f"dehlanote: output-is-input: {out.name} is ") and "\n" not in line, line
    assert "nothing was written" in line
    assert record.read_bytes() == before
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("command", ["html", "json", "image"])
def test_standard_input_read_from_the_output_file_is_refused(tmp_path, command):
    """`dehlanote json - -o keep.dpn < keep.dpn`: standard input is that file."""
    record = tmp_path / ("keep.svg" if command == "image" else "keep.dpn")
    record.write_bytes(WORKED.read_bytes())
    args = [command, "-", "-o", record.name] + (["--deal", "1"] if command == "image" else [])
    with open(record, "rb") as stdin:
        result = subprocess.run([sys.executable, "-m", "dehlanote", *args], cwd=tmp_path, stdin=stdin,
                                capture_output=True, text=True, timeout=120,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 2 and "output-is-input: keep" in result.stderr, result.stderr
    assert "standard input" in result.stderr
    assert record.read_bytes() == WORKED.read_bytes()


def test_a_rules_file_is_an_input_too(tmp_path):
    rules = tmp_path / "club.yaml"
    rules.write_text("profiles: {}\n", encoding="utf-8")
    result = run("json", str(WORKED), "--rules", rules.name, "-o", rules.name, cwd=tmp_path)
    assert rules.read_text(encoding="utf-8") == "profiles: {}\n"
    assert result.returncode == 2, result.stderr


def test_the_console_script_s_direct_json_refuses_it_as_well(tmp_path):
    """``dehlanote json FILE -o FILE`` through the console script's path that skips Typer."""
    record = tmp_path / "keep.dpn"
    record.write_bytes(WORKED.read_bytes())
    code = ("import sys; from dehlanote._entry import main; sys.argv = ['dehlanote', 'json', 'keep.dpn', '-o', "
            "'keep.dpn']; main()")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 2 and "output-is-input: keep.dpn" in result.stderr, result.stderr
    assert record.read_bytes() == WORKED.read_bytes()


def test_writing_the_terminal_standard_input_reads_is_no_input_output(tmp_path):
    """Only a regular file counts: /dev/null read and /dev/null written destroy nothing."""
    from dehlanote.files import same_file
    assert same_file(os.devnull, [os.devnull]) is None
    assert same_file(tmp_path / "missing", [tmp_path / "missing"]) is None
    (tmp_path / "a").write_text("x")
    assert same_file(tmp_path / "a", ["nothing-here", tmp_path / "a"]) == str(tmp_path / "a")


@pytest.mark.parametrize("where", ["index.html", "games/keep.html", "players/asha.html"])
def test_a_record_where_the_site_writes_a_page_is_refused_not_replaced(tmp_path, where):
    """`html --site site/index.html -o site` replaced the record with the site's index, and
    a record at a game's or a player's page name with that page (status 0): only ``-o`` itself
    was checked against the inputs. Every page the site writes is checked now."""
    record = tmp_path / "site" / where
    record.parent.mkdir(parents=True)
    record.write_bytes(WORKED.read_bytes())
    before = record.read_bytes()
    result = run("html", "--site", str(record.relative_to(tmp_path)), "-o", "site", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith(f"dehlanote: output-is-input: site/{where} is an input of this command: "), line
    assert record.read_bytes() == before
    # a copy of the record elsewhere makes the same site with no complaint
    copy = tmp_path / "keep.dpn"
    copy.write_bytes(before)
    assert run("html", "--site", "keep.dpn", "-o", "other", cwd=tmp_path).returncode == 0
