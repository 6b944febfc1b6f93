"""The tables of a club night: one DPN record a table, in the server's folder.

Each table is a :class:`dehlanote.record.Session` (the terminal recorder's own engine: the
same checks, the same text, the same unfinished-trick comment) saved after every kept
element by the recorder's store (temporary file, ``fsync``, rename, folder ``fsync``), so
a server killed at any moment restarts where the last card left it. File names are chosen
here, never taken from a request: ``table-N.dpn`` in the folder, N the table's number.

The folder is held by one server at a time (:class:`FolderLock`), and every record the
server keeps is held against a ``dehlanote record`` on it (the recorder's
:class:`~dehlanote.record.store.Claim`).
"""

from __future__ import annotations

import fcntl
import glob
import hashlib
import json
import os
import re
import secrets
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional

from ..errors import DpnError
from ..files import Folder, OutputRefused, Snapshot
from ..analysis.judge import claim_judge
from ..record import RecordError, Session
from ..record.state import without_marker
from ..record.session import Outcome
from ..record.store import Claim, RecordBusy
from ..replay import replay_game
from ..replay.table import Table as CoreTable
from ..rules.profile import Registry, registry as default_registry
from ..deck import seats_for
from ..syntax import parse_string
from ..text import one_line_name

__all__ = ["core_table", "FolderBusy", "FolderLock", "Limits", "Refusal", "Table", "Tables", "folder_secret",
           "new_secret"]

_NAME = re.compile(r"^table-([1-9][0-9]{0,8})\.dpn$")
OWNER = "dehlanote serve"     # who holds a served record, as a recorder refused on it is told
_CARD = re.compile(r"^(?:[AKQJ98765432]|10)[SHDC]$")
_NAME_CHARS = re.compile(r"[\"\\\]\[{}]")     # (control characters: text.one_line_name)
#: the comment a tens line entered at a table carries: the players counted the deal's tens (kept in
#: the record, so that a restart of the server does not ask them again; the record's writer puts
#: a tens line in every finished deal, checked or not)
TENS_CHECKED = "tens counted at the table"


class FolderBusy(Exception):
    """Another ``dehlanote serve`` holds the folder."""


class Refusal(Exception):
    """A request the table cannot take: ``code`` (validate's code, or one of serve's own) and a sentence."""

    def __init__(self, code: str, message: str, *, status: int = 422) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Limits:
    """What one request, one line and one record may hold."""

    body: int = 8192            # bytes of a request body
    line: int = 300             # characters of one element (a comment, a DPN line)
    name: int = 60              # characters of a player's or the event's name
    record: int = 512 * 1024    # bytes of a table's record
    tables: int = 64            # tables in one folder


class FolderLock:
    """One server a folder: an advisory ``flock`` on the folder itself (no lock file left behind)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._fd: Optional[int] = None

    def take(self) -> None:
        fd = os.open(self.folder, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise FolderBusy(str(self.folder)) from None
        except OSError:
            pass   # a file system without locks: the records' own claims still guard them
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


@dataclass
class Table:
    """One table: its number, record, recorder session and what the pages need to follow it."""

    number: int
    path: Path
    session: Session
    claim: Claim
    # each change adds one; it starts anywhere, so that a page open across a restart of the
    # server never takes a new state for the one it shows (or a tap for a fresh one)
    version: int = field(default_factory=lambda: 1 + secrets.randbelow(1 << 30))
    hands: bool = False                 # the table enters the hands before the cards
    confirm: bool = False               # each trick confirmed from a second phone
    confirmed: int = 0                  # tricks (of the whole game, counted) confirmed so far
    # trick count -> the phone that completed it (a digest of its id: kept on disk, see _CONFIRMS)
    entered_by: dict[int, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    sync: bool = True
    tens_checked: set[int] = field(default_factory=set)   # deals whose tens the players counted and checked
    # the record on disk as last read or written (size, time, inode, SHA-256): an edit made
    # under the server is read, never written over
    known: Optional[Snapshot] = None
    # the record on disk was changed into something the table cannot take (errors): the table
    # keeps its last good state, and refuses every change until the file is put right
    unreadable: bool = False

    def tricks_done(self) -> int:
        st = self.session.state
        count = sum(len(d.tricks) for d in st.done)
        return count + (len(st.cur.tricks) if st.cur is not None else 0)

    def awaiting(self) -> Optional[int]:
        """The trick count waiting for a second phone's confirmation, or None."""
        if not self.confirm:
            return None
        done = self.tricks_done()
        return done if done > self.confirmed else None

    def entered_from(self, count: int, device: str) -> bool:
        """Whether the phone ``device`` completed the trick ``count``."""
        return bool(device) and self.entered_by.get(count) == phone(device)


def phone(device: str) -> str:
    """What the table keeps of a phone's id: its digest (the id itself is never written down)."""
    return hashlib.sha256(device.encode("utf-8", "replace")).hexdigest()[:32]


#: beside a table's record, ``.table-N.dpn.confirm``: how many of its tricks were confirmed and which
#: phone entered the one waiting, with the SHA-256 of the record it goes with (a record changed since,
#: by an editor or a crash between the two saves, makes it void: the tricks on file then count as
#: confirmed, as they did before it was kept)
_CONFIRMS = ".{}.confirm"
#: the largest such file read
_CONFIRMS_BYTES = 4096


class Tables:
    """Every table of the folder, loaded at start (unfinished and finished records alike)."""

    def __init__(self, folder: Path, *, reg: Optional[Registry] = None, sync: bool = True,
                 limits: Limits = Limits()) -> None:
        self.folder = Path(os.path.realpath(folder))
        self.reg = reg or default_registry()
        self.sync = sync
        self.limits = limits
        self.tables: dict[int, Table] = {}
        self.left_alone: list[tuple[str, str]] = []     # records named as tables it cannot keep, and why
        self.notes: list[str] = []      # what reading the tables left out (a record's waiting cards that no longer fit)
        self.lock = FolderLock(self.folder)
        self.lock.take()
        self.held: Optional[Folder] = None
        try:
            # the records are written by name in the folder held open: a link put in the place
            # of a record is replaced, never written through (a record is only ever in the folder)
            self.held = Folder(self.folder)
            self._load()
        except BaseException:
            self.close()
            raise

    def _load(self) -> None:
        for entry in sorted(os.listdir(self.folder)):
            m = _NAME.match(entry)
            if not m:
                continue
            path = self.folder / entry
            if path.is_symlink() or not path.is_file():
                # a link could point outside the folder: only plain files are tables
                self.left_alone.append((entry, "it is a link" if path.is_symlink() else "it is not a file"))
                continue
            self._clean_temporaries(path)
            claim = Claim(path, OWNER)
            try:
                claim.take()
            except RecordBusy:
                raise FolderBusy(f"{path} is being recorded by dehlanote record") from None
            why: list[str] = []
            read = self._read(entry, why)
            if read is None:
                claim.release()
                # not a table this server can keep: left alone, not listed (and the organiser told)
                self.left_alone.append((entry, why[0] if why else "it cannot be read"))
                continue
            table = Table(int(m.group(1)), path, read[0], claim, sync=self.sync)
            note = read[0].left_out_note(entry, "enter them again at the table")
            if note is not None:
                self.notes.append(note)
            self._take(table, *read)
            self.tables[table.number] = table

    def _read(self, entry: str, why: Optional[list[str]] = None) -> Optional[tuple[Session, Snapshot]]:
        """The folder's record ``entry`` as a table's session, and what the file was; None where it
        is not a regular file, is too large, or is not a record this server can keep (``why``: where
        the reason, in words, is put)."""
        assert self.held is not None
        said = why if why is not None else []
        try:
            fd = os.open(entry, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=self.held.fd)
        except OSError as exc:
            said.append(f"it cannot be read ({(exc.strerror or str(exc)).lower()})")
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > self.limits.record:
                said.append("it is not a file" if not stat.S_ISREG(st.st_mode) else "it is longer than a table's "
                            "record may be")
                return None
            data = b""
            while len(data) <= self.limits.record:
                block = os.read(fd, 1 << 16)
                if not block:
                    break
                data += block
            if len(data) > self.limits.record:
                said.append("it is longer than a table's record may be")
                return None
            session = _resume(data.decode("utf-8"), self.reg, str(self.folder / entry))
        except (RecordError, DpnError):
            said.append("its last game has errors (dehlanote validate shows them)")
            return None
        except UnicodeDecodeError:
            said.append("it is not UTF-8 text")
            return None
        except OSError as exc:
            said.append(f"it cannot be read ({(exc.strerror or str(exc)).lower()})")
            return None
        finally:
            os.close(fd)
        return session, _snapshot(st, data)

    @staticmethod
    def _take(table: Table, session: Session, known: Snapshot) -> None:
        """The table follows ``session``, read from its record (at start, or after an edit)."""
        table.session = session
        table.known = known
        options = _tag(session, "Serve").split()
        table.hands = "hands" in options
        table.confirm = "confirm" in options
        table.confirmed = table.tricks_done()
        table.entered_by = {}
        if table.confirm:
            _confirms_read(table, known)
        state = session.state
        table.tens_checked = {f.number for d, f in zip(state.done, state.done_facts)
                              if d.tens is not None and TENS_CHECKED in (c.strip() for c in d.tens.comments)}
        table.notes = ()

    @staticmethod
    def _clean_temporaries(path: Path) -> None:
        for leftover in glob.glob(os.path.join(glob.escape(str(path.parent)), f".{glob.escape(path.name)}.*.tmp")):
            try:
                os.unlink(leftover)
            except OSError:
                pass

    def close(self) -> None:
        for table in self.tables.values():
            table.claim.release()
        if self.held is not None:
            os.close(self.held.fd)
            self.held = None
        self.lock.release()

    # ---- tables -------------------------------------------------------------------------------

    def get(self, number: int) -> Table:
        table = self.tables.get(number)
        if table is None:
            raise Refusal("no-table", "there is no such table", status=404)
        return table

    def start(self, *, rules: str, names: dict[str, str], dealer: Optional[str], hands: bool = False,
              confirm: bool = False, event: str = "") -> Table:
        """A new match at the next free table number (or after the finished match of a table)."""
        if len(self.tables) >= self.limits.tables:
            raise Refusal("too-many-tables", "this folder already has as many tables as a night may have")
        if len(rules) > self.limits.line:
            raise Refusal("too-long", "the rules are too long")
        try:
            resolved = self.reg.resolve(rules.strip() or "standard")   # (none or blank: standard, as the form meant)
        except DpnError as exc:
            raise Refusal("unknown-rules", exc.message) from None
        seats = tuple(seats_for(resolved.seats)[: resolved.seats])     # (letters: "" and "AB" are in "ABCD")
        # a seat in any case, as record --dealer takes it ("d" was refused as wrong-dealer); a
        # name for a seat the table does not have is refused (it was dropped without a word)
        dealer = dealer.strip().upper() if dealer else dealer
        if dealer and dealer not in seats:
            raise Refusal("wrong-dealer", f"the dealer is one of the seats {', '.join(seats)}")
        by_seat: dict[str, str] = {}
        for written, name in names.items():
            seat = written.strip().upper()
            if seat not in seats:
                raise Refusal("bad-request", f"names are given by seat ({', '.join(seats)}): "
                                             f"\"{written[:10]}\" is not a seat at this table", status=400)
            if seat in by_seat:
                raise Refusal("bad-request", f"the name of seat {seat} is given twice", status=400)
            by_seat[seat] = name
        names = by_seat
        tags: list[tuple[str, str]] = []
        event = _clean_name(event, self.limits)
        if event:           # (blank: no Event tag, as an empty name is none; it wrote [Event ""])
            tags.append(("Event", event))
        players = [(seat, _clean_name(names.get(seat, ""), self.limits)) for seat in seats]
        number, claim = self._claim_free()
        try:
            tags.append(("Table", str(number)))
            tags += [(seat, name) for seat, name in players if name]
            options = " ".join(w for w, on in (("hands", hands), ("confirm", confirm)) if on)
            if options:
                tags.append(("Serve", options))
            session = Session(resolved.label(), tuple(tags), reg=self.reg)
            if dealer:
                outcome = session.feed(f"dealer {dealer}")
                if not outcome.accepted:
                    raise Refusal(*_first_problem(outcome))
            path = self.folder / f"table-{number}.dpn"
            table = Table(number, path, session, claim, hands=hands, confirm=confirm, sync=self.sync)
            if path.exists() or path.is_symlink():
                raise Refusal("busy", f"{path.name} is already in the folder")
            self._save(table)
        except BaseException:
            claim.release()
            raise
        self.tables[number] = table
        return table

    def _claim_free(self) -> tuple[int, Claim]:
        """A free table number and the hold on its record, taken *before* the record is made: a
        ``dehlanote record`` started on that name (asking its questions, the file not yet written)
        holds it, and the next number is taken. (The server wrote the record under the recorder
        and served it unheld, and the two wrote over each other.)"""
        skip: set[int] = set()
        while True:
            number = self._free_number(frozenset(skip))
            claim = Claim(self.folder / f"table-{number}.dpn", OWNER)
            try:
                claim.take()
            except RecordBusy:
                skip.add(number)
                if len(skip) >= self.limits.tables:
                    raise Refusal("busy", "every free table number is being recorded by dehlanote record",
                                  status=409) from None
                continue
            except OSError as exc:
                raise Refusal("cannot-save", f"the record cannot be written ({(exc.strerror or str(exc)).lower()})",
                              status=507) from None
            return number, claim

    def _free_number(self, skip: frozenset[int] = frozenset()) -> int:
        """The next table's number: after every table served, and past every file of the folder
        named as a table that this server left alone (a record with errors, a link): never its
        name, nor a number in ``skip``. (One stray file with the largest number a name may have
        stopped every new table.)"""
        taken = set(self.tables) | skip
        for entry in os.listdir(self.folder):
            m = re.match(r"^table-([0-9]+)\.dpn$", entry)
            if m and len(m.group(1)) < 10:
                taken.add(int(m.group(1)))
        number = max(self.tables, default=0) + 1
        while number in taken:
            number += 1
        if not _NAME.match(f"table-{number}.dpn"):
            number = min(set(range(1, len(taken) + 2)) - taken)    # the lowest number free
        return number

    def follow(self, table: Table) -> Optional[str]:
        """As :meth:`_follow`, and the table marks whether its record on disk is unreadable now
        (the index flags it, its record is served as the last good copy): a change of that mark
        is a change of the table (its version)."""
        followed = self._follow(table)
        bad = followed == "unreadable"
        if bad != table.unreadable:
            table.unreadable = bad
            if followed != "reloaded":
                table.version += 1
        return followed

    def _follow(self, table: Table) -> Optional[str]:
        """Whether the record on disk is still what the server last read or wrote: None when it is
        (or when it is gone, or is not a regular file any more: the next save puts the record back);
        ``"reloaded"`` when someone changed it (an editor) and the table now follows the file as
        it is; ``"unreadable"`` when the changed file is not a record the table can take (it is
        then left alone, and the table refuses every change until it is put right)."""
        assert self.held is not None
        name = table.path.name
        try:
            st = os.stat(name, dir_fd=self.held.fd, follow_symlinks=False)
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or table.known is None:
            return None
        if (st.st_size, st.st_mtime_ns, st.st_ino) == (table.known.size, table.known.mtime_ns, table.known.inode):
            return None
        read = self._read(name)
        if read is None:
            return "unreadable"
        if read[1].digest == table.known.digest:      # touched, not changed
            table.known = read[1]
            return None
        self._take(table, *read)
        table.version += 1
        return "reloaded"

    def _unchanged(self, table: Table) -> None:
        """Refuses a change when the record on disk was changed under the server (see :meth:`follow`)."""
        followed = self.follow(table)
        if followed == "reloaded":
            raise Refusal("record-changed", "the record was changed on disk (in an editor?) since the table "
                          "saved it: the table now shows it as it is there; look again", status=409)
        if followed == "unreadable":
            raise Refusal("record-unreadable", "the record was changed on disk and is not a table's record "
                          "now (dehlanote validate says why): it is left as it is, and the table takes no "
                          "change until it is put right", status=409)

    # ---- entering the game --------------------------------------------------------------------

    def feed(self, table: Table, line: str, *, device: str = "") -> Outcome:
        """One element for the table's record, kept (and saved) only when the record stays valid."""
        if "\n" in line or "\r" in line or len(line) > self.limits.line:
            raise Refusal("too-long", "one element at a time, on one line of at most "
                          f"{self.limits.line} characters")
        self._unchanged(table)
        waiting = table.awaiting()
        word = line.split(None, 1)[0].lower() if line.split() else ""
        if waiting is not None and word not in ("undo", "") and not line.startswith("{"):
            raise Refusal("unconfirmed-trick", "the last trick waits for the other side's phone to confirm it")
        if word == "tens" and "{" not in line:
            line = f"{line} {{{TENS_CHECKED}}}"      # (the check outlives a restart of the server)
        before_tricks = table.tricks_done()
        own = _own_tags(table.session)
        mark = table.session.checkpoint()
        if _CARD.match(line):
            # a tapped card is checked by the per-card core first (validate's codes), then kept
            # by the recorder's session, which writes it in the record
            core = core_table(table.session)
            problem = core.check(line) if core is not None else None
            if problem is not None and problem.code != "revoke":
                raise Refusal(problem.code, problem.message)
            # a revoke is refused by the session, which keeps the card for a revoke line the
            # table may send next (revoke C at 2 stands: the card stays as played)
        outcome = table.session.feed(line)
        if not outcome.accepted:
            code, message = _first_problem(outcome)
            raise Refusal(code, message, status=422)
        try:
            if _own_tags(table.session) != own:
                # (accepted, it changed the record and not the table: its options came back
                # other than the table ran with when the server was started again)
                raise Refusal("own-tag", "the table's own tags (Table, Serve) are set when the table is made",
                              status=422)
            if len(table.session.text.encode("utf-8")) > self.limits.record:
                raise Refusal("record-full", "this record is as long as a table's record may be: start a new match")
            if outcome.saved:
                self._save(table)
        except Refusal:
            # refused after the session took the line: the table is back exactly as it was
            # before it (an undo took back only the last card or line, not a comment or a claim)
            table.session.rollback(mark)
            raise
        after = table.tricks_done()
        if after > before_tricks and device:
            table.entered_by[after] = phone(device)
        if after < table.confirmed:
            table.confirmed = after
        table.entered_by = {n: p for n, p in table.entered_by.items() if table.confirmed < n <= after}
        if table.confirm and outcome.saved:
            self._save_confirms(table)
        if word == "tens" and table.session.state.done_facts:
            table.tens_checked.add(table.session.state.done_facts[-1].number)
        # a check holds for a deal still done: an undo of its last card takes it back (the
        # deal played on again was taken as checked, whatever its last card then was)
        table.tens_checked &= {f.number for f in table.session.state.done_facts}
        table.notes = outcome.notes
        table.version += 1
        return outcome

    def confirm(self, table: Table, *, device: str) -> None:
        """The other side's phone confirms the last trick entered."""
        self._unchanged(table)
        waiting = table.awaiting()
        if waiting is None:
            raise Refusal("nothing-to-confirm", "no trick waits for a confirmation")
        if table.entered_from(waiting, device):
            raise Refusal("same-phone", "the trick must be confirmed from another phone than the one that "
                          "entered it")
        table.confirmed = waiting
        table.entered_by.pop(waiting, None)
        self._save_confirms(table)
        table.version += 1

    def _save_confirms(self, table: Table) -> None:
        """Keep the table's confirmations beside its record (through the safe writer): a restart
        of the server finds the trick still waiting, and which phone may not confirm it. A failure
        to write them costs only that (the record is what matters): the table goes on."""
        assert self.held is not None
        if table.known is None:
            return
        data = {"record": table.known.digest, "confirmed": table.confirmed,
                "entered_by": {str(n): p for n, p in table.entered_by.items()}}
        try:
            self.held.write_file(_CONFIRMS.format(table.path.name), json.dumps(data, sort_keys=True) + "\n",
                                 sync=table.sync, mode=0o600)
        except (OutputRefused, OSError):
            pass

    def _save(self, table: Table) -> None:
        assert self.held is not None
        data = table.session.text.encode("utf-8")
        try:
            self.held.write_file(table.path.name, data, sync=table.sync)
            st = os.stat(table.path.name, dir_fd=self.held.fd, follow_symlinks=False)
        except OutputRefused as exc:      # a read-only record, a folder put in its place
            reason = str(exc).split(" (--force")[0]
            raise Refusal("cannot-save", f"the record cannot be written: {reason}", status=507) from None
        except OSError as exc:
            raise Refusal("cannot-save", f"the record cannot be written ({(exc.strerror or str(exc)).lower()})",
                          status=507) from None
        table.known = _snapshot(st, data)
        table.claim.follow()


def _confirms_read(table: Table, known: Snapshot) -> None:
    """The confirmations kept beside the table's record (:data:`_CONFIRMS`), when they go with the
    record as it is (``known``); else nothing changes (every trick on file counts as confirmed)."""
    name = os.path.join(os.path.dirname(table.path), _CONFIRMS.format(table.path.name))
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > _CONFIRMS_BYTES or st.st_uid != os.geteuid() \
                or st.st_mode & 0o022:
            return      # (only the server's own file: another user's would unconfirm tricks at will)
        kept = json.loads(os.read(fd, _CONFIRMS_BYTES + 1).decode("utf-8"))
        if not isinstance(kept, dict) or kept.get("record") != known.digest:
            return
        confirmed, entered = kept.get("confirmed"), kept.get("entered_by")
        if isinstance(confirmed, bool) or not isinstance(confirmed, int) or not isinstance(entered, dict):
            return
        done = table.tricks_done()
        table.confirmed = max(0, min(confirmed, done))
        table.entered_by = {int(n): p for n, p in entered.items()
                            if isinstance(n, str) and n.isdigit() and isinstance(p, str) and len(p) <= 64
                            and table.confirmed < int(n) <= done}
    except (OSError, ValueError):
        return
    finally:
        os.close(fd)


def _snapshot(st: os.stat_result, data: bytes) -> Snapshot:
    """What the record on disk was (``st``) with the bytes just read or written (``data``)."""
    return Snapshot(st.st_size, st.st_mtime_ns, st.st_ino, hashlib.sha256(data).hexdigest())


def _resume(text: str, reg: Registry, path: str) -> Session:
    """The table's session over its record's text: the game in progress, or the finished match
    as it ended. (:meth:`Session.resume` starts a new game after a finished one, as ``dehlanote
    record`` does on a finished file: a finished table came back after a restart of the server as
    an empty game of the standard rules, without its names or score, and offered to enter a
    second game into its record.)

    Raises:
        RecordError, DpnError: the last game has errors.
    """
    session, resumed = Session.resume(text, reg=reg, path=path)
    games = parse_string(text, keep_source=True)
    if resumed or not games:
        return session
    last, _ = without_marker(games[-1])
    facts = replay_game(last, reg, judge=claim_judge)
    start = last.source_line if last.source is not None else 1
    prefix = "\n".join(text.split("\n")[: start - 1]).rstrip("\n")
    kept = Session(reg=reg, prefix=prefix + "\n" if prefix else "", path=path)
    kept.state = kept._load(last, facts)
    said = (last.tag("Result") or "").strip()
    if kept.state.result is None and said:      # (an open session its record says has ended)
        kept.state = replace(kept.state, result=said)
    return kept


def core_table(session: Session) -> Optional[CoreTable]:
    """The per-card core's table of the deal in progress, the trick under way played on it
    (None between deals, before trump, or where the core cannot set the deal up)."""
    state = session.state
    fact = state.cur_fact
    if state.cur is None or fact is None or state.cur_errors:
        return None
    try:
        table = fact.table(trick=fact.next_trick, card=1)
        for card in _partial(session):
            table.play(card)
    except (ValueError, IndexError):     # IllegalCard is a ValueError
        return None
    return table


def _partial(session: Session) -> list[str]:
    partial = session.position()["partial"]
    return [str(c) for c in partial] if isinstance(partial, list) else []


def _own_tags(session: Session) -> list[tuple[str, str]]:
    """The tags the server writes and reads itself (any case: a repeat is judged ignoring it)."""
    # (as written: the recorder takes [serve "confirm"] for [Serve "confirm"] typed again, which the
    # server, reading its own tags by their names, would then not find after a restart)
    return [(t.name, t.value) for t in session.state.tags if t.name.lower() in ("serve", "table")]


def _tag(session: Session, name: str) -> str:
    for t in session.state.tags:
        if t.name == name:
            return t.value
    return ""


def _clean_name(name: str, limits: Limits) -> str:
    """A player's or event's name as a tag value: one line, no quote, bracket or brace, bounded
    (a longer one is refused: it was cut to its first 60 characters without a word)."""
    clean = one_line_name(_NAME_CHARS.sub(" ", name))
    if len(clean) > limits.name:
        raise Refusal("too-long", f"a name has at most {limits.name} characters")
    return clean


def _first_problem(outcome: Outcome) -> tuple[str, str]:
    if outcome.errors:
        e = outcome.errors[0]
        return e.code, e.message + (f". {outcome.reason}" if outcome.reason else "")
    return "refused", outcome.reason or "that cannot be entered now"


def new_secret() -> str:
    return secrets.token_urlsafe(18)


KEY_FILE = ".dehlanote-serve.key"
_KEY = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


def folder_secret(folder: Path, *, renew: bool = False) -> str:
    """The folder's ``--lan`` secret: kept in DIR/.dehlanote-serve.key (mode 0600) so that a server
    restarted after a crash keeps the phones' address; a new one when asked, or when the file is
    not a private regular file of this user holding a key."""
    path = Path(folder) / KEY_FILE
    if not renew:
        try:
            st = os.lstat(path)
            if stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077 \
                    and st.st_size < 100:
                key = path.read_text(encoding="ascii").strip()
                if _KEY.match(key):
                    return key
        except (OSError, UnicodeDecodeError):
            pass
    key = new_secret()
    mask = os.umask(0o077)       # the new file is the user's alone from its creation
    try:
        held = Folder(folder)    # a link planted at the name is replaced, never followed
        try:
            held.write_file(KEY_FILE, key + "\n", mode=0o600)
        finally:
            os.close(held.fd)
    finally:
        os.umask(mask)
    return key
