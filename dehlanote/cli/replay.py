"""``dehlanote replay``: step through a game, in the terminal or as text."""

from __future__ import annotations

import os
import select
import signal
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape

from ..output.annotate import (
    Stepper,
    deal_heading,
    deal_result_text,
    snapshots,
)
from ..output.render import (
    plain_hands,
    plain_step_lines,
    stepper_screen,
)
from ..replay import GameFacts, replay_game
from ..rules.profile import Registry
from .app import app
from .common import (
    RULES_OPTION,
    STDIN,
    Exit,
    display_name,
    err_console,
    fail,
    load_registry,
    located,
    open_games,
    out_console,
    plural,
)


def _load_game(spec: str, number: int, reg: Registry) -> GameFacts:
    games = open_games(spec)
    count = 0
    for game in games:
        count += 1
        if count == number:
            return replay_game(game, reg)
    raise fail(f"{display_name(spec)} has {plural(count, 'game')}: there is no game {number}")


@app.command()
def replay(
    file: str = typer.Argument(..., metavar="FILE", help="A DPN file."),
    game: int = typer.Option(1, "--game", "-g", min=1, metavar="N", help="Which game of the file (from 1)."),
    deal: Optional[int] = typer.Option(None, "--deal", "-d", min=1, metavar="N",
                                       help="Start at deal N (as numbered in the record)."),
    trick: Optional[int] = typer.Option(None, "--trick", "-t", min=1, metavar="N",
                                        help="Start at the end of trick N."),
    plain: bool = typer.Option(False, "--plain", help="Print the steps as text, even on a terminal."),
    symbols: bool = typer.Option(True, "--symbols/--letters", help="Suits as ♠♥♦♣ or as S H D C."),
    rules: Optional[Path] = RULES_OPTION,
) -> None:
    """Step through a game in the terminal, card by card.

    Forward and back by card, trick and deal: the four hands, the trick, the centre pile,
    each side's captured pile and tens, trump, dealer, the run of consecutive wins.

    Keys: → n / ← p card, ↓ N / ↑ P trick, ] [ deal, t then a number: trick, ? help, q quit.
    When standard output is not a terminal (or with --plain) the steps are printed as text;
    --deal and --trick then limit what is printed.

    Example: dehlanote replay samples/worked-example.dpn --trick 2
    """
    if file == STDIN:
        raise fail("replay reads its keys from the terminal: give it a file, not standard input")
    reg = load_registry(rules)
    facts = _load_game(file, game, reg)
    err = err_console()
    if facts.rules is None or not facts.deals:
        for e in facts.errors:
            err.print(str(located(e, facts.game, file)), markup=False)
        raise fail(f"game {game} of {file} has no deal that can be replayed", Exit.INVALID)
    if facts.errors:
        err.print(f"dehlanote: game {game} has {plural(len(facts.errors), 'error')}; "
                  f"showing what could be replayed (dehlanote validate {escape(file)} lists them)",
                  markup=False)
    stepper = Stepper(facts.deals, facts.rules)
    if deal is not None and not stepper.goto(deal):
        raise fail(f"game {game} has no deal {deal} (deals {facts.deals[0].number} to {facts.deals[-1].number})")
    if trick is not None and not stepper.jump(trick):
        raise fail(f"deal {stepper.deals[stepper.deal].number} has no trick {trick}")
    interactive = not plain and sys.stdin.isatty() and sys.stdout.isatty()
    if interactive:
        _interactive(stepper, facts, symbols)
    else:
        _plain_replay(stepper, facts, only_deal=deal is not None, only_trick=trick)
    raise typer.Exit(Exit.OK)


def _plain_replay(stepper: Stepper, facts: GameFacts, *, only_deal: bool, only_trick: Optional[int]) -> None:
    out = out_console(soft_wrap=True)
    rules = facts.rules
    assert rules is not None
    indexes = [stepper.deal] if only_deal or only_trick is not None else range(len(stepper.deals))
    for n, i in enumerate(indexes):
        d = stepper.deals[i]
        snaps = snapshots(d, rules)
        if n:
            out.print()
        out.print(deal_heading(d), markup=False, style="bold")
        if only_trick is None:
            out.print("  hands:", markup=False)
            for line in plain_hands(snaps[0], rules):
                out.print("  " + line, markup=False)
        for snap in snaps[1:]:
            t = snap.trick
            if t is None or (only_trick is not None and t.number != only_trick):
                continue
            if len(snap.shown) == 1:
                out.print(f" trick {t.number}, {t.leader} leads", markup=False)
            for line in plain_step_lines(snap, rules):
                out.print(line, markup=False)
        if only_trick is None:
            for line in deal_result_text(d, rules, facts if i == len(stepper.deals) - 1 else None):
                out.print(f"  {line}", markup=False)


# -- the interactive stepper --

_KEYS = {
    b"\x1b[C": "next", b"\x1bOC": "next", b"n": "next", b"l": "next", b" ": "next",
    b"\x1b[D": "prev", b"\x1bOD": "prev", b"p": "prev", b"h": "prev",
    b"\x1b[B": "next-trick", b"\x1bOB": "next-trick", b"N": "next-trick", b"j": "next-trick",
    b"\x1b[A": "prev-trick", b"\x1bOA": "prev-trick", b"P": "prev-trick", b"k": "prev-trick",
    b"]": "next-deal", b"[": "prev-deal", b"\x1b[6~": "next-deal", b"\x1b[5~": "prev-deal",
    b"g": "start", b"\x1b[H": "start", b"G": "end", b"\x1b[F": "end",
    b"t": "jump", b"?": "help", b"q": "quit", b"Q": "quit", b"\x03": "quit", b"\x04": "quit",
    b"\r": "enter", b"\n": "enter", b"\x1b": "escape", b"\x7f": "backspace", b"\x08": "backspace",
}


def _read_key(fd: int, timeout: float) -> Optional[bytes]:
    """One key press (an escape sequence counts as one), or None after ``timeout`` seconds."""
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return None
    data = os.read(fd, 1)
    if data != b"\x1b":
        return data
    # an escape sequence arrives at once; a lone Esc does not continue
    while True:
        more, _, _ = select.select([fd], [], [], 0.03)
        if not more:
            return data
        data += os.read(fd, 1)
        if len(data) >= 3 and (data[-1:].isalpha() or data[-1:] == b"~"):
            return data
        if len(data) > 8:
            return data


def _interactive(stepper: Stepper, facts: GameFacts, symbols: bool) -> None:
    """Run the stepper in the terminal until q or Ctrl-C; the terminal is always restored."""
    import termios
    import tty

    console = Console(highlight=False)
    symbols = symbols and (console.encoding or "").lower().startswith("utf")
    rules = facts.rules
    assert rules is not None
    names = {s: facts.game.tag(s) for s in "ABCDEF" if facts.game.tag(s)}
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    old_term = signal.getsignal(signal.SIGTERM)
    old_hup = signal.getsignal(signal.SIGHUP)

    def stop(signum, frame):  # noqa: ARG001 - a signal handler's signature
        raise SystemExit(128 + signum)

    state = {"help": False, "prompt": None, "message": None}
    try:
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGHUP, stop)
        tty.setcbreak(fd, termios.TCSANOW)
        with console.screen(hide_cursor=True) as screen:
            size = None
            dirty = True
            while True:
                if dirty or console.size != size:
                    size = console.size
                    where = (f"{facts.game.tag('Event') or 'Game'} · " if facts.game.tag("Event") else "") \
                        + stepper.where()
                    screen.update(stepper_screen(
                        stepper.snap, rules, names=names, where=where, symbols=symbols,
                        help_shown=state["help"], prompt=state["prompt"], message=state["message"]))
                    dirty = False
                key = _read_key(fd, 0.25)
                if key is None:
                    continue
                dirty = True
                if _handle_key(key, stepper, state):
                    break
    except KeyboardInterrupt:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        signal.signal(signal.SIGTERM, old_term)
        signal.signal(signal.SIGHUP, old_hup)


def _handle_key(key: bytes, stepper: Stepper, state: dict) -> bool:
    """Apply one key to the stepper; True to quit."""
    action = _KEYS.get(key)
    state["message"] = None
    if state["prompt"] is not None:
        digits = state["prompt"]
        if key.isdigit():
            state["prompt"] = (digits + key.decode())[-3:]
        elif action == "backspace":
            state["prompt"] = digits[:-1]
        elif action == "enter":
            state["prompt"] = None
            if digits and not stepper.jump(int(digits)):
                state["message"] = f"this deal has no trick {digits}"
        elif action in ("escape", "quit") or key == b"t":
            state["prompt"] = None
        return False
    if action == "quit":
        return True
    if action == "help":
        state["help"] = not state["help"]
        return False
    if action == "escape":
        state["help"] = False
        return False
    if action == "jump":
        state["prompt"] = ""
        return False
    if key.isdigit():
        state["prompt"] = key.decode()
        return False
    moves = {
        "next": stepper.next_card, "prev": stepper.prev_card, "next-trick": stepper.next_trick,
        "prev-trick": stepper.prev_trick, "next-deal": stepper.next_deal, "prev-deal": stepper.prev_deal,
        "start": stepper.start, "end": stepper.end,
    }
    move = moves.get(action or "")
    if move is None:
        state["message"] = "press ? for the keys"
    elif not move():
        state["message"] = "the end of the record" if action and action.startswith("next") else \
            "the start of the record"
    return False


