"""The recorder loses nothing and overwrites nothing (issue 22 items 8, 9, 10, 13, 15; issue 26 item 6).

One lock a record, taken before the file exists; an edit made meanwhile is never written
over; whatever was typed (the first dealer, hands before trump, an undo inside a trick) is
on disk after the line and resumes; paths that are not files are refused at once; bytes
that are not UTF-8 never crash a save. The command is run as a user runs it: from a pipe,
killed with SIGKILL, in a pseudo-terminal under the C locale.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dehlanote import parse_string, replay_game
from dehlanote.record import Session

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "dehlanote", "record"]
HANDS = ["hands A: AS KS 4S AH JH 9H 6H AD QD JD 9D QC 5C",
         "B: QS JS 6S 5S QH 10H 5H 5D 4D 3D 10C 4C 3C",
         "C: 8S 7S 3S 2S KH 3H 2H JC 9C 8C 7C 6C 2C",
         "D: 10S 9S 8H 7H 4H KD 10D 8D 7D 6D 2D AC KC"]


def env(**extra: str) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **extra)


def run_record(path: Path | str, lines: list[str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(CLI + [str(path), *args], input="\n".join(lines) + "\n", capture_output=True,
                          text=True, env=env(), timeout=timeout)


def validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dehlanote", "validate", str(path)], capture_output=True,
                          text=True, env=env(), timeout=120)


def session_text(lines: list[str]) -> str:
    """The file the recorder keeps after these lines (the session, no command)."""
    session = Session()
    for line in lines:
        assert session.feed(line).accepted, line
    return session.text


class Piped:
    """A recorder fed line by line from a pipe, its file watched."""

    def __init__(self, path: Path, *args: str) -> None:
        self.path = path
        self.proc = subprocess.Popen(CLI + [str(path), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env())

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, text: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while True:
            now = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
            if now == text:
                return now
            assert time.monotonic() < deadline, f"the file never became:\n{text}\nit is:\n{now}"
            assert self.proc.poll() is None, self.proc.communicate()
            time.sleep(0.02)

    def sync(self) -> None:
        """Wait until every line sent is read and handled: a stray word is answered on standard
        error only once the lines before it are saved."""
        self.send("hlep")
        assert self.proc.stderr is not None
        deadline = time.monotonic() + 60
        while True:
            ready, _, _ = select.select([self.proc.stderr], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, "the recorder never answered"
            said = self.proc.stderr.readline()
            assert said, "the recorder stopped"
            if "'hlep' is not a card" in said:
                return

    def kill(self) -> None:
        self.proc.kill()
        self.proc.communicate(timeout=60)
        assert self.proc.returncode == -signal.SIGKILL

    def close(self) -> tuple[int, str]:
        _, err = self.proc.communicate(timeout=120)
        return self.proc.returncode, err


# ---- one recorder a file (item 8) ----------------------------------------------------------------

def test_the_lock_is_taken_before_the_record_exists_and_excludes_a_second_holder(tmp_path):
    from dehlanote.record.store import RecordBusy, RecordLock, lock_path
    path = tmp_path / "new.dpn"
    first = RecordLock(path, owner="dehlanote serve")
    first.acquire()
    try:
        assert not path.exists() and Path(lock_path(path)).exists()
        with pytest.raises(RecordBusy) as busy:
            RecordLock(path).acquire()
        assert busy.value.holder == f"{os.getpid()} dehlanote serve"
        # the same record reached through a symlink is the same lock
        link = tmp_path / "today.dpn"
        link.symlink_to(path)
        with pytest.raises(RecordBusy):
            RecordLock(link).acquire()
        # and the command is refused while another program holds it
        done = run_record(path, ["dealer D"])
        assert done.returncode == 2, done.stderr
        assert "being recorded by another dehlanote serve (process" in done.stderr
        assert not path.exists()
    finally:
        first.release()
    assert not Path(lock_path(path)).exists()          # nothing left beside the record
    with RecordLock(path):
        pass


def test_a_recorder_refused_just_as_another_takes_the_record_names_that_one(tmp_path):
    """The holder writes who it is just after it takes the record; a recorder refused in
    between waits for that note, so the refusal names the holder (it said "another recorder"
    then, and the test below failed now and then)."""
    import fcntl
    import threading

    from dehlanote.files import note_lock, open_lock
    from dehlanote.record.store import RecordBusy, RecordLock, lock_path

    path = tmp_path / "game.dpn"
    fd = open_lock(lock_path(path), 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)       # taken, its note not written yet
    late = threading.Timer(0.05, note_lock, (fd, "4242 dehlanote record\n"))
    late.start()
    try:
        with pytest.raises(RecordBusy) as busy:
            RecordLock(path).acquire()
        assert busy.value.holder == "4242 dehlanote record"
    finally:
        late.join()
        os.close(fd)


def test_two_recorders_started_together_on_a_new_file_do_not_both_run(tmp_path):
    for attempt in range(3):
        path = tmp_path / f"new-{attempt}.dpn"
        both = [Piped(path, "--dealer", "D"), Piped(path, "--dealer", "D")]
        # both past their start: one holds the record, the other has stopped (waited for, not
        # a fixed 1.5 s; a recorder that holds the record waits for its lines: if neither is
        # refused in 30 s both run, and the exit statuses below say so)
        deadline = time.monotonic() + 30
        while all(p.proc.poll() is None for p in both) and time.monotonic() < deadline:
            time.sleep(0.02)
        for p in both:
            if p.proc.poll() is None:
                p.send("trump D")
                p.send("AH 10H 3H 7H")
        results = [p.close() for p in both]
        codes = sorted(code for code, _ in results)
        assert codes == [0, 2], results
        refused = next(err for code, err in results if code == 2)
        assert "being recorded by another dehlanote record" in refused and "Traceback" not in refused
        assert " 1 A: AH 10H 3H 7H" in path.read_text(encoding="utf-8")


def test_a_recorder_killed_with_sigkill_leaves_no_hold_behind(tmp_path):
    path = tmp_path / "game.dpn"
    rec = Piped(path, "--dealer", "D")
    rec.send("trump D")
    rec.wait_for(session_text(["dealer D", "trump D"]))
    rec.kill()
    done = run_record(path, ["AH 10H 3H 7H"])
    assert done.returncode == 0, done.stderr
    assert " 1 A: AH 10H 3H 7H" in path.read_text(encoding="utf-8")


# ---- an edit made meanwhile is never written over (item 9) ---------------------------------------

@pytest.mark.parametrize("edit", ["tag", "game"])
def test_an_edit_made_while_recording_is_kept_and_the_recorder_stops_saying_so(tmp_path, edit):
    path = tmp_path / "game.dpn"
    rec = Piped(path, "--dealer", "D")
    rec.send("trump D")
    text = rec.wait_for(session_text(["dealer D", "trump D"]))
    if edit == "tag":
        edited = text.replace('[Result "*"]', '[Event "Friday"]\n[Result "*"]')
    else:
        edited = '[Event "Thursday"]\n[Result "*"]\n\ndeal 1 dealer A\n\n' + text
    time.sleep(0.05)
    path.write_text(edited, encoding="utf-8")
    rec.send("AH 10H 3H 7H")
    code, err = rec.close()
    assert code == 2, err
    assert "changed by another program while recording" in err and "Traceback" not in err
    assert path.read_text(encoding="utf-8") == edited


def test_a_file_only_touched_meanwhile_goes_on_being_recorded(tmp_path):
    path = tmp_path / "game.dpn"
    rec = Piped(path, "--dealer", "D")
    rec.send("trump D")
    rec.wait_for(session_text(["dealer D", "trump D"]))
    os.utime(path, (1_000_000, 1_000_000))
    rec.send("AH 10H 3H 7H")
    rec.wait_for(session_text(["dealer D", "trump D", "AH 10H 3H 7H"]))
    code, err = rec.close()
    assert code == 0, err


# ---- whatever was typed is on disk after the line, and resumes (item 10) -------------------------

OPENING = ["dealer D", *HANDS, "trump D", "AH 10H 3H 7H", "AS", "QS", "undo", "QS", "2S", "undo", "undo"]


def test_every_line_of_a_deals_opening_is_on_disk_when_killed_and_resumes_to_the_same_record(tmp_path):
    # the recorder killed is a process of its own, fed from a pipe; validate and the resumed
    # recorder are the command functions run in this process (no interpreter start-up each)
    from typer.testing import CliRunner

    from dehlanote.cli import app
    runner = CliRunner()
    whole = session_text(OPENING)
    for stop in range(1, len(OPENING) + 1):
        path = tmp_path / f"stop-{stop}.dpn"
        rec = Piped(path)
        for line in OPENING[:stop]:
            rec.send(line)
        rec.sync()
        on_disk = path.read_text(encoding="utf-8")
        assert on_disk == session_text(OPENING[:stop]), stop      # the line typed is saved, undo too
        rec.kill()
        checked = runner.invoke(app, ["validate", str(path)])
        assert checked.exit_code == 0, (stop, on_disk, checked.output)
        done = runner.invoke(app, ["record", str(path)], input="\n".join(OPENING[stop:]) + "\n")
        assert done.exit_code == 0, (stop, done.output, done.exception)
        assert "resuming" in done.stderr
        assert path.read_text(encoding="utf-8") == whole, stop


def test_the_first_dealer_and_the_hands_typed_before_trump_are_in_the_file():
    text = session_text(["dealer D", *HANDS[:2]])
    game = parse_string(text)[0]
    assert game.deals[0].dealer.value == "D" and len(game.deals[0].hands) == 2
    assert not replay_game(game).errors
    again, resumed = Session.resume(text)
    assert resumed and again.expect().kind == "trump" and "dealer D" in again.expect().text


def test_undo_inside_a_trick_under_way_is_saved():
    session = Session()
    for line in ["dealer D", "trump D", "AH 10H 3H 7H", "AS", "QS"]:
        session.feed(line)
    assert "not yet in the record: AS QS}" in session.text
    outcome = session.feed("undo")
    assert outcome.accepted and outcome.saved
    assert "not yet in the record: AS}" in session.text


SPADES = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"


@pytest.mark.parametrize("stop", ["deal 2 dealer D", f"deal 2 dealer D\nhands A: {SPADES}", "deal 2 dealer D\nmisdeal"])
def test_a_record_that_stops_before_trump_is_unfinished_and_resumes(tmp_path, stop):
    sample = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    for result in ('[Result "*"]\n', ""):
        path = tmp_path / "cut.dpn"
        path.write_text(sample.replace('[Result "*"]\n', result) + "\n" + stop + "\n", encoding="utf-8")
        if result:
            assert validate(path).returncode == 0, validate(path).stdout
        done = run_record(path, [])
        assert done.returncode == 0, done.stderr
        assert "resuming" in done.stderr and "1 deal complete" in done.stderr
        assert "names trump" in done.stderr


def test_trick_cards_before_trump_are_still_an_error_in_a_finished_or_unfinished_record(tmp_path):
    path = tmp_path / "bad.dpn"
    path.write_text('[Result "*"]\n\ndeal 1 dealer D\n 1 A: AH 10H 3H 7H\n', encoding="utf-8")
    checked = validate(path)
    assert checked.returncode == 1 and "missing-trump" in checked.stdout + checked.stderr


# ---- paths that are not files (item 13) ----------------------------------------------------------

def test_a_fifo_a_device_a_folder_and_a_huge_file_are_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.dpn"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.dpn"
    with open(huge, "wb") as f:
        f.truncate(9 * 1024 * 1024)
    for target, words in [(fifo, "a FIFO"), ("/dev/zero", "character device"), (tmp_path, "directory"),
                          (huge, "more than a record may")]:
        started = time.monotonic()
        done = run_record(target, ["dealer D"], timeout=30)
        assert done.returncode == 2, (target, done.stderr)
        assert words in done.stderr and "Traceback" not in done.stderr
        assert time.monotonic() - started < 25
    assert fifo.exists() and not fifo.is_file() and os.path.getsize(huge) == 9 * 1024 * 1024
    assert not list(Path("/dev").glob(".zero*")) and not list(tmp_path.glob(".*.lock"))


# ---- bytes that are not UTF-8 (item 15) ----------------------------------------------------------

@pytest.mark.parametrize("lang", ["C", "POSIX", "C.UTF-8"])
def test_a_byte_that_is_not_utf8_typed_on_a_terminal_is_refused_not_a_crash(tmp_path, lang):
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "game.dpn"
    child = pexpect.spawn(sys.executable, CLI[1:] + [str(path), "--rules", "standard", "--names", "", "--dealer", "D"],
                          env=env(LANG=lang, LC_ALL=lang), timeout=60, dimensions=(24, 80), cwd=str(tmp_path))
    child.expect("names trump")
    child.sendline("trump D")
    child.expect("A leads")
    child.send(b"{caf\xe9}\r")
    child.expect("not UTF-8")
    child.expect("A leads")
    child.sendline("{cafe}")
    child.expect("A leads")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = path.read_text(encoding="utf-8")
    assert "{cafe}" in text and "caf\ufffd" not in text
    assert validate(path).returncode == 0


def test_names_and_a_file_name_that_are_not_utf8_never_crash(tmp_path):
    bad_names = subprocess.run([os.fsencode(sys.executable), b"-m", b"dehlanote", b"record",
                                os.fsencode(tmp_path / "a.dpn"), b"--names", b"Asha,B\xe9la,Chitra,Dev"],
                               input=b"dealer D\n", capture_output=True, env=env(), timeout=60)
    assert bad_names.returncode == 2, bad_names.stderr
    assert b"not UTF-8" in bad_names.stderr and b"Traceback" not in bad_names.stderr
    assert not (tmp_path / "a.dpn").exists()
    name = os.fsencode(tmp_path) + b"/caf\xe9.dpn"
    done = subprocess.run([os.fsencode(sys.executable), b"-m", b"dehlanote", b"record", name],
                          input=b"dealer D\ntrump D\nAH 10H 3H 7H\nAH\n", capture_output=True, env=env(), timeout=60)
    assert done.returncode == 1, done.stderr               # the last AH is refused, with the file's name
    assert b"Traceback" not in done.stderr and "caf\ufffd.dpn".encode() in done.stderr
    assert b"duplicate-card" in done.stderr
    assert b" 1 A: AH 10H 3H 7H" in Path(os.fsdecode(name)).read_bytes()


# ---- saved after every card, flushed to disk (issue 26 item 6) -----------------------------------

def test_every_card_is_saved_and_flushed_to_disk_before_the_next_is_read(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from dehlanote.cli import app
    path = tmp_path / "game.dpn"
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    cards = ["AH", "10H", "3H", "7H", "AS", "QS"]
    done = CliRunner().invoke(app, ["record", str(path), "--dealer", "D"], input="trump D\n" + "\n".join(cards) + "\n")
    assert done.exit_code == 0, done.output
    # each save: the new text flushed (a temporary file beside the record), then the folder
    files = [s for s in synced if Path(s).parent == tmp_path and Path(s).name.startswith(".game.dpn.")]
    folders = [s for s in synced if s == str(tmp_path)]
    saves = 1 + 1 + len(cards)       # the start (dealer), trump, each card
    assert len(files) == saves and len(folders) == saves, synced
    docs = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8") + (ROOT / "docs" / "record.md").read_text(
        encoding="utf-8")
    assert "after every trick" not in docs and "after every card" in docs
