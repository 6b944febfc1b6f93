"""``dehlanote record``: enter a game at the table as it is played, checked as typed, never lost.

A thin loop over :class:`dehlanote.record.Session`: read a line, feed it, save the file
when its text changed (temporary file, fsync, rename), show what happened. On a terminal
it asks the setup questions and shows the table after each element; from a pipe it prints
nothing on standard output, refusals go to standard error and the exit status says
whether every line was kept.
"""

from __future__ import annotations

import datetime
import glob
import os
import shutil
import signal
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Callable, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from ..errors import DpnError, missing_folder as _missing
from ..files import OutputRefused, ReadOnly
from ..record import RecordError, Session
from ..record.words import HELP_LINES, seat_picture
from ..record.store import (MAX_RECORD_BYTES, RecordBusy, RecordChanged, RecordFile, RecordLock, RecordRefused,
                            not_a_record)
from ..rules.profile import Registry, Rules
from ..deck import seats_for
from ..text import one_line_name, safe_console
from .common import Exit, err_console, fail, load_registry, out_console, record_path, rules_path, why

QUIT_WORDS = ("quit", "exit", "q")



def _split_rules(values: list[str]) -> tuple[Optional[str], list[Path]]:
    """``--rules`` values: YAML files of extra profiles, and at most one rules text."""
    text: Optional[str] = None
    files: list[Path] = []
    for value in values:
        if value.rstrip("/").lower().endswith((".yaml", ".yml")):
            files.append(rules_path(value))     # (r.yaml/ is refused as a folder's name)
        elif not value.strip():
            raise fail('--rules is empty: give the rules, e.g. "pagat kots=3", or leave --rules out for '
                       "standard (is a shell variable unset?)")
        elif text is None:
            text = value
        else:
            raise fail(f'give the game\'s rules once (--rules "{text}" and --rules "{value}")')
    return text, files


def _registry(files: list[Path]) -> Registry:
    reg = load_registry(files[0] if files else None)
    for extra in files[1:]:
        try:
            reg.load_path(extra)
        except OSError as exc:
            raise fail(f"cannot read the rules file {extra}: {why(exc)}")
        except DpnError as exc:
            raise fail(f"unknown-rules: {exc.message}")
    return reg


def _width() -> int:
    """The terminal's width, 80 at most: what the recorder's lines are wrapped to."""
    return max(20, min(shutil.get_terminal_size().columns, 80))


def _utf8(text: str) -> bool:
    """No byte of another encoding in it (the system keeps such bytes as lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown(text: str) -> str:
    """A file name or option as it can be printed and written: bytes that are not UTF-8
    (kept by the system as lone surrogates) shown as U+FFFD."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _clean_temporaries(path: Path) -> None:
    """Remove the temporary files an interrupted save may have left beside the record."""
    folder = path.parent if str(path.parent) else Path(".")
    for leftover in glob.glob(os.path.join(glob.escape(str(folder)), f".{glob.escape(path.name)}.*.tmp")):
        try:
            os.unlink(leftover)
        except OSError:
            pass


class _Hangup(BaseException):
    """The terminal went away (SIGHUP) or the process was asked to stop (SIGTERM).

    A ``BaseException``, like ``KeyboardInterrupt``: nothing on the way may swallow it. Its
    ``signum`` lets the console script send the signal again where Python had to drop it
    (see ``dehlanote._entry``).
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_STOPS = (signal.SIGINT, signal.SIGHUP, signal.SIGTERM)


def _ignore_stops() -> None:
    """The first stop is the one acted on: one sent again (a closing terminal sends more than
    one) would otherwise land in the leaving itself, before the record's lock is let go, and
    end it with another status, unsaid."""
    for s in _STOPS:
        signal.signal(s, signal.SIG_IGN)


class _Arrivals:
    """The order in which the stops came. Python runs the handlers of stops that came
    together in the order of their numbers, not of their coming: a hangup (1) sent just
    after a Ctrl-C (2) was acted on first, and the status was 129 (5 runs in 300 with the
    machine busy).
    The signal module writes each stop's number to a wakeup pipe as it comes; the first
    byte there is the stop to act on."""

    def __init__(self) -> None:
        self.pipe: Optional[tuple[int, int]] = None
        self.before = -1
        self.acted: Optional[int] = None        # the stop acted on
        self.caught = False                     # and the program leaving on it

    def __enter__(self) -> "_Arrivals":
        self.acted, self.caught = None, False
        r, w = os.pipe()
        os.set_blocking(r, False)
        os.set_blocking(w, False)
        try:
            self.before = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        except (ValueError, OSError):       # not the main thread: the handler's own number
            os.close(r)
            os.close(w)
            return self
        self.pipe = (r, w)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pipe is not None:
            signal.set_wakeup_fd(self.before)
            for fd in self.pipe:
                os.close(fd)
            self.pipe = None

    def first(self, signum: int) -> int:
        """The stop that came first of those not yet acted on (``signum`` when unknown)."""
        if self.pipe is None:
            return signum
        try:
            came = os.read(self.pipe[0], 512)
        except OSError:
            return signum
        for number in came:
            if number in _STOPS:
                return number
        return signum

    def acting(self, signum: int) -> int:
        """The stop to act on: the first to come, chosen once (a handler called again, for a
        stop its exception was dropped or cut short, acts on the same one)."""
        if self.acted is None:
            self.acted = self.first(signum)
        return self.acted


_ARRIVALS = _Arrivals()


def _on_stop(signum: int, _frame: object) -> None:
    """Ctrl-C ends as Python's own (a KeyboardInterrupt), a hangup or SIGTERM with its
    status; whichever came first is acted on and the later ones are ignored. Ignored by this
    handler too, once the program is leaving: a block that sets handlers of its own (the
    safe writer's) puts this one back as it ends, after the first stop set every stop to be
    ignored, and a hangup sent with the Ctrl-C then cut the farewell short (status 129 and
    nothing said, 8 runs in 300 with the machine busy)."""
    if _ARRIVALS.caught:
        return
    signum = _ARRIVALS.acting(signum)
    _ignore_stops()
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise _Hangup(signum)


def record_command(
    file: Path = typer.Argument(..., metavar="FILE.dpn", parser=record_path,
                                help="The record: created if missing; an unfinished game in it is resumed."),
    rules: list[str] = typer.Option([], "--rules", metavar='"PROFILE OPTIONS" | FILE.yaml',
                                    help='The new game\'s rules, e.g. "pagat kots=3" (default standard); '
                                         "a .yaml file loads extra profiles, as on every command."),
    dealer: Optional[str] = typer.Option(None, "--dealer", metavar="SEAT", help="The first dealer (A, B, C, D)."),
    names: Optional[str] = typer.Option(None, "--names", metavar="A,B,C,D",
                                        help="The players' names in seat order, comma-separated."),
    sync: bool = typer.Option(True, "--sync/--no-sync",
                              help="Flush every save to disk (fsync). --no-sync is faster and survives a "
                                   "crash of the program, not of the machine."),
) -> None:
    """Record a game as it is played, one DPN element a line, each checked at once.

    Every line (trump H, a trick AH 10H 3H 7H or its cards one by one, -7C 8H for a card taken back,
    hands, misdeal, tens, undo) is replayed at once; an illegal one is refused with the message
    validate gives, and is not written. The file is rewritten after every card through a temporary
    file, flushed to disk, so it is always valid DPN (Result "*" while unfinished): after a crash,
    run the same command to resume. On a terminal the setup is asked and the table shown; from a pipe
    the setup comes from the options or the first lines ([A "Asha"] tags, dealer D), and only
    refusals are printed (to standard error).

    Exit status: 0, or 1 when a line was refused (from a pipe), 2 for a file that cannot be used.

    Example: printf 'trump D\\nAH 10H 3H 7H\\n' | dehlanote record game.dpn --dealer D --names Asha,Bilal,Chitra,Dev
    """
    text_rules, files = _split_rules(rules)
    for option, value in (("--names", names), ("--dealer", dealer), ("--rules", text_rules)):
        if value is not None and not _utf8(value):
            raise fail(f"{option} {shown(value)}: it is not UTF-8 text (bytes from another encoding, shown as "
                       "\ufffd): type it again in UTF-8")
    reg = _registry(files)
    asked_rules = None
    if text_rules is not None:
        try:
            asked_rules = reg.resolve(text_rules)
        except DpnError as exc:
            raise fail(f"unknown-rules: {exc.message}")
    if str(file) == "-":
        raise fail("record writes a file: give its name (standard input is where the lines come from)")
    if dealer is not None:
        # with no --rules the table's seats are known later (standard's four, or a resumed game's):
        # only a letter no table has is refused here, named as a four-player table's seats are
        # (it listed A to F for a four-player table)
        seats = seats_for(asked_rules.seats if asked_rules is not None else 6)
        if dealer.strip().upper() not in tuple(seats):     # (a letter: "" and "AB" are in "ABCD")
            listed = ", ".join(seats)
            if asked_rules is None:
                listed = f"{', '.join(seats[:4])} (A to F with six players)"
            raise fail(f"--dealer {shown(dealer) or chr(34) * 2}: a seat is one of {listed}")
    interactive = sys.stdin.isatty()
    err = err_console()
    if interactive:     # refusals wrapped at words, in 80 columns at most (validate's text, shorter lines)
        err = safe_console(stderr=True, highlight=False, width=_width())
    # (the screen goes where the prompts go: the terminal, also with the standard output sent elsewhere)
    out = out_console() if interactive and sys.stdout.isatty() else safe_console(stderr=True, highlight=False)
    path = shown(str(file))
    problem = not_a_record(file)     # before the lock: no lock file made beside a device
    if problem is not None:
        raise fail(f"cannot record into {path}: {problem}")
    # a stop from here on ends the program through the release of the lock (before, one sent
    # while the record was being set up killed it by the signal, and the lock file stayed)
    held = {s: signal.signal(s, _on_stop) for s in _STOPS}
    try:
        with _ARRIVALS:
            _held(file, path, sync, reg, asked_rules, text_rules, names, dealer, interactive, out, err)
    except _Hangup as exc:
        raise typer.Exit(128 + exc.signum)
    except (typer.Exit, SystemExit) as exc:
        # (SystemExit: a stop that came while a save was made, see stops.signals_clean_up)
        code = exc.exit_code if isinstance(exc, typer.Exit) else exc.code
        if isinstance(code, int) and code >= 128:
            _leaving(held)      # stopped: the stops stay ignored to the end (the status is the first one's)
        raise
    finally:
        for s, handler in held.items():
            signal.signal(s, handler)


def _held(file: Path, path: str, sync: bool, reg: Registry, asked_rules: Optional[Rules],
          text_rules: Optional[str], names: Optional[str], dealer: Optional[str], interactive: bool,
          out: Console, err: Console) -> None:
    """The record's lock taken, the session run, the lock let go."""
    lock = RecordLock(file)
    try:
        lock.acquire()
    except RecordBusy as exc:
        pid, _, owner = exc.holder.partition(" ")
        who = f"another {shown(owner)} (process {pid})" if pid.isdigit() and owner else "another recorder"
        raise fail(f"{path} is being recorded by {who}: finish or quit that one first "
                   "(two recorders on one file would overwrite each other's tricks)")
    except OSError as exc:
        folder = os.path.dirname(os.fspath(file)) or "."
        if not os.path.isdir(folder):
            raise fail(f"cannot record into {path}: the folder {shown(folder)} {_missing(folder)}")
        raise fail(f"cannot record into {path}: {why(exc)}" + (" (its folder must be writable)" if exc.errno else ""))
    try:
        _record(file, path, sync, reg, asked_rules, text_rules, names, dealer, interactive, out, err)
    finally:
        lock.release()


def _record(file: Path, path: str, sync: bool, reg: Registry, asked_rules: Optional[Rules],
            text_rules: Optional[str], names: Optional[str], dealer: Optional[str], interactive: bool,
            out: Console, err: Console) -> None:
    """The session, once the record is held."""
    _clean_temporaries(file)
    store = RecordFile(file, sync=sync)
    try:
        existing = store.read()
    except RecordRefused as exc:
        raise fail(f"cannot record into {path}: {exc.reason}")
    except OSError as exc:
        raise fail(f"cannot read {path}: {why(exc)}")
    try:
        session, resumed = Session.resume(existing, reg=reg, path=path)
    except RecordError as exc:
        for e in exc.errors:
            err.print(_error_text(e, path))
        raise fail(exc.message, Exit.INVALID)
    if resumed:
        if asked_rules is not None and asked_rules.label() != session.rules.label():
            raise fail(f'{path} holds an unfinished game under "{session.rules.label()}": --rules '
                       f'"{text_rules}" does not apply to it')
        if dealer is not None and session.expect().kind != "dealer":
            _same_dealer(session, dealer.strip().upper(), path)
        if names is not None:
            err.print(f"dehlanote: --names ignored: {escape(path)} already holds the game's players", highlight=False)
        if interactive:
            out.print(Text(f"Resuming {path}: ", style="bold").append(_where(session), style=""))
        else:
            err.print(f"dehlanote: resuming {escape(path)}: {escape(_where(session))}")
        note = session.left_out_note(path)
        if note is not None:
            err.print(f"dehlanote: {note}", markup=False, highlight=False)
    else:
        try:
            session = _new_session(session, reg, text_rules, names, interactive, out)
        except DpnError as exc:
            raise fail(f"unknown-rules: {exc.message}")
        except _Quit:
            out.print(f"{path}: nothing recorded (quit before the game began)", markup=False, highlight=False)
            raise typer.Exit(Exit.OK)
    def save_file(text: str) -> None:
        try:
            store.save(text)
        except RecordChanged:
            raise fail(f"{path} was changed by another program while recording (an editor?): it is left as "
                       "that program saved it, and recording stops here; the last line typed is not in it. "
                       "Run the same command to go on from the file as it is now.")
        except ReadOnly:        # (it said "--force writes it all the same": record has no --force)
            raise fail(f"cannot write {path}: it is read-only: give it back its write permission to record "
                       "into it (chmod u+w), or record into another file")
        except OutputRefused as exc:
            raise fail(f"cannot write {path}: {exc}")
        except OSError as exc:
            raise fail(f"cannot write {path}: {why(exc)} (the record on disk is the one before this line)")

    if dealer is not None and (not resumed or session.expect().kind == "dealer"):
        outcome = session.feed(f"dealer {dealer.strip().upper()}")
        if not outcome.accepted:
            raise fail(f"--dealer {dealer}: " + (outcome.errors[0].message if outcome.errors else outcome.reason))
    save_file(session.text)
    if dealer is None and not resumed and interactive:
        try:
            _ask_dealer(session, out, save_file)
        except _Quit:
            _farewell(session, out, path)
            raise typer.Exit(Exit.OK)

    old = {s: signal.signal(s, _on_stop) for s in (signal.SIGHUP, signal.SIGTERM)}
    refused = 0
    try:
        if interactive:
            for row in seat_picture(session.rules.seats, session.names):
                out.print(row, markup=False, highlight=False)
            out.print("One DPN element a line (help: what can be typed; quit: stop, resume later).",
                      markup=False, highlight=False, style="dim")
            _show(session, out)
        while True:
            line = _read(session, interactive)
            if line is None:
                break
            if line.strip().lower() in QUIT_WORDS:
                break
            if line.strip().lower() in ("help", "?"):
                for h in HELP_LINES:
                    out.print(h, markup=False, highlight=False)
                continue
            if line.strip().lower() == "seats":
                for row in seat_picture(session.rules.seats, session.names):
                    out.print(row, markup=False, highlight=False)
                continue
            mark = session.checkpoint()
            outcome = session.feed(line)
            if outcome.saved and len(session.text.encode("utf-8", "surrogateescape")) > MAX_RECORD_BYTES:
                # a record the recorder could not read back (a comment of megabytes): refused, so
                # that the same command always resumes the file
                session.rollback(mark)
                outcome = replace(outcome, accepted=False, saved=False, errors=(), reason=(
                    f"the record would hold more than {MAX_RECORD_BYTES // (1024 * 1024)} MB, more than a record "
                    "may (and be read back): shorten the line, or go on in a new file"))
            if outcome.saved:
                save_file(session.text)
            if not outcome.accepted:
                if not line.strip():
                    continue
                refused += 1
                for e in outcome.errors:
                    err.print(_error_text(e, path))
                if outcome.reason:
                    said = f"{path}: refused: {outcome.reason}"
                    if interactive:     # wrapped at words, to the terminal's width (80 at most)
                        said = textwrap.fill(said, width=_width() - 1, subsequent_indent="  ")
                    err.print(escape(said), highlight=False)
                continue
            if interactive:
                for note in outcome.notes:
                    out.print(note, markup=False, highlight=False)
                _show(session, out)
    except KeyboardInterrupt:
        _leaving(old)
        _farewell(session, err, path, stopped=True)
        raise typer.Exit(130)
    except _Hangup as exc:
        _leaving(old)
        _farewell(session, err, path, stopped=True)
        raise typer.Exit(128 + int(exc.args[0]))
    except SystemExit as exc:
        if isinstance(exc.code, int) and exc.code >= 128:
            # a stop that came while a save was made, raised by the writer's own handler
            # (stops.signals_clean_up): the first to come is the one acted on, and the later
            # ones are ignored from here (a Ctrl-C sent with it landed in the farewell, which it
            # cut short: status 129 and nothing said, 5 runs in 200 with the machine busy)
            first = _ARRIVALS.acting(exc.code - 128)
            _leaving(old)
            _farewell(session, err, path, stopped=True)
            raise typer.Exit(128 + first)
        raise
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    _farewell(session, err if not interactive else out, path, quiet=not interactive)
    raise typer.Exit(Exit.INVALID if refused and not interactive else Exit.OK)


def _leaving(old: dict) -> None:
    """Stopped: a stop sent again (a closing terminal sends more than one; a stop dropped
    where Python could not raise it comes back a moment later) is ignored from here on, so
    it cannot end the program between here and the release of the record's lock (the lock
    file was left behind in 2 closings of 5). Every stop is ignored at once too: a stop's
    own handler did so, the safe writer's (whose SystemExit this may be) did not."""
    _ARRIVALS.caught = True
    _ignore_stops()
    for s in _STOPS:
        old[s] = signal.SIG_IGN


def _error_text(e: DpnError, path: str) -> Text:
    from ..output.render import error_text
    return error_text(e, path)


def _same_dealer(session: Session, dealer: str, path: str) -> None:
    """A resumed game's dealer is the record's: a --dealer that is another seat is refused, as a
    --rules that is other rules is (it was dropped without a word, and the deal went on under
    the record's dealer, not the one the player named)."""
    state = session.state
    seats = session.rules.seat_letters
    if state.cur is not None and state.cur_fact is not None:
        number, actual = state.cur_fact.number, state.cur_fact.dealer
    elif state.match is not None and state.match.dealer is not None:
        number, actual = len(state.done) + 1, seats[state.match.dealer]
    else:
        return
    if actual is not None and actual != dealer:
        raise fail(f"{path} holds an unfinished game whose deal {number} is dealt by {actual}: --dealer {dealer} "
                   "does not apply to it (leave --dealer out to go on)")


def _where(session: Session) -> str:
    pos = session.position()
    if session.finished:
        return session.expect().text
    text = f"{pos['deals_done']} deal{'s' if pos['deals_done'] != 1 else ''} complete"
    if pos["tricks"]:
        text += f", deal {pos['deal']} after trick {pos['tricks']}"
    return text + f"; {session.score_words()}; next: {session.expect().text}"


def _new_session(session: Session, reg: Registry, text_rules: Optional[str], names: Optional[str],
                 interactive: bool, out: Console) -> Session:
    """A new game: rules and names from the options, or asked on a terminal."""
    label = text_rules
    if label is None and interactive:
        while True:
            answer = _ask(out, "Rules (profile and options) [standard]: ")
            label = answer.strip() or "standard"
            try:
                reg.resolve(label)
                break
            except DpnError as exc:
                out.print(f"unknown-rules: {exc.message}", markup=False, style="red")
    rules = reg.resolve(label or "standard")
    seats = rules.seat_letters
    tags: list[tuple[str, str]] = []
    asked = names is None and interactive
    while asked:
        # typed at the question: a wrong count is asked again, as the rules are (it ended the
        # program, telling of an option --names the player never typed)
        names = _ask(out, f"Players {', '.join(seats)} (comma-separated; Enter: none): ")
        count = len(names.split(",")) if names.strip() else len(seats)
        if count == len(seats):
            break
        out.print(f"{len(seats)} names, one per seat ({', '.join(seats)}) in that order, not {count}; "
                  "or Enter for none", markup=False, style="red")
    if names and names.strip():
        given = [one_line_name(n) for n in names.split(",")]     # (no escape sequence in a record)
        if len(given) != len(seats):
            raise fail(f"--names needs {len(seats)} names, one per seat ({', '.join(seats)}), not {len(given)}")
        tags += [(seat, name) for seat, name in zip(seats, given) if name]
    if interactive:
        tags.insert(0, ("Date", datetime.date.today().strftime("%Y.%m.%d")))
    new = Session(label or "standard", tuple(tags), reg=reg, prefix=session.prefix, path=session.path)
    return new


class _Quit(Exception):
    """A quit word typed at a setup question (it was taken for rules, names or a dealer, and
    asked again: quit at the first question did not quit)."""


def _typed(prompt: str) -> str:
    """A line typed at ``prompt``: on the terminal, with the line editing of ``input``; with the
    standard output sent elsewhere (``record game.dpn > log``), the prompt goes to the standard
    error, the terminal (it went into the log, and the player saw no question)."""
    if sys.stdout.isatty():
        return input(prompt)
    sys.stderr.write(prompt)
    sys.stderr.flush()
    return input()


def _ask(out: Console, prompt: str) -> str:
    while True:
        try:
            answer = _typed(prompt)
        except EOFError:
            return ""
        except UnicodeDecodeError:
            answer = "\udcff"
        if answer.strip().lower() in QUIT_WORDS:
            raise _Quit
        if _utf8(answer):
            return answer
        err_console().print("dehlanote: that answer is not UTF-8 text (is the terminal set to UTF-8?): "
                            "type it again", highlight=False)


def _ask_dealer(session: Session, out: Console, save_file: Callable[[str], None]) -> None:
    seats = session.rules.seat_letters
    while True:
        answer = _ask(out, f"First dealer ({', '.join(seats)}): ").strip().upper()
        if not answer:
            return   # asked again by the prompt: dealer X
        outcome = session.feed(f"dealer {answer}")
        if outcome.accepted:
            save_file(session.text)
            return
        out.print(outcome.errors[0].message if outcome.errors else outcome.reason, markup=False, style="red")


def _read(session: Session, interactive: bool) -> Optional[str]:
    """The next line typed or piped (None at the end); bytes that are not UTF-8 become U+FFFD,
    which the notation then refuses with a message like any other wrong character."""
    if interactive:
        while True:
            try:
                line = _typed(session.expect().text + "> ")
            except EOFError:
                return None
            except UnicodeDecodeError:
                line = "\udcff"
            if _utf8(line):
                return line
            # a terminal in another encoding (LANG=C, Latin-1): refused, never written
            err_console().print("dehlanote: that line is not UTF-8 text (is the terminal set to UTF-8?): "
                                "type it again", highlight=False)
    raw = sys.stdin.buffer.readline()
    if not raw:
        return None
    # a byte order mark (a file saved by Notepad, piped in) is no part of the first line
    return raw.decode("utf-8", "replace").lstrip("\ufeff").rstrip("\n")


def _show(session: Session, out: Console) -> None:
    """The table below the last line typed (the scroll-back stays: no full-screen redraw)."""
    from ..record.screen import table_view
    out.print(table_view(session))


def _farewell(session: Session, console: Console, path: str, quiet: bool = False, stopped: bool = False) -> None:
    """Say what is saved (the terminal may be gone: then say nothing). ``stopped``: on a
    terminal, the stop came at the prompt: the line starts afresh (it went on after the
    prompt and the ^C, wrapped as if it started at the margin)."""
    try:
        if stopped and console.is_terminal:
            console.line()
        _say_farewell(session, console, path, quiet)
    except OSError:
        pass


def _say_farewell(session: Session, console: Console, path: str, quiet: bool) -> None:
    if quiet:
        return
    if session.finished:
        console.print(f"{path}: {session.expect().text}", markup=False, highlight=False)
        return
    partial = session.state.partial
    kept = ""
    if partial:
        kept = ("; the card of the trick under way waits in a comment and is resumed" if len(partial) == 1 else
                f"; the {len(partial)} cards of the trick under way wait in a comment and are resumed")
    console.print(f"{path}: saved, unfinished (Result \"*\"){kept}: run the same command to resume",
                  markup=False, highlight=False)
