"""The stepper's keys: one table that the key handling, the help screen and the key line read.

:data:`STEPPER_KEYS` lists each action with the byte sequences a terminal sends for it, how
the help screen names the keys, what the action does, and its short hint on the key line.
:class:`StepperKeys` applies keys to a :class:`~dehlanote.output.stepper.Stepper` and keeps
what the screen shows besides the table (the help, the trick-number prompt, a message), so
all of it is testable without a terminal; ``dehlanote replay`` only reads keys and draws.
Another interactive tool (a recorder) can build its own table of :class:`Key` and use
:func:`action_for`, :func:`help_rows` and :func:`key_hints` on it.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional, Sequence

from .stepper import Stepper

__all__ = ["Key", "STEPPER_KEYS", "PROMPT_KEYS", "action_for", "help_rows", "key_hints", "StepperKeys"]


class Key(NamedTuple):
    """One action and the keys that do it."""

    action: str                    # what the handler does: "next-card", "quit", ...
    keys: tuple[bytes, ...]        # what the terminal sends (an escape sequence counts as one key)
    label: str                     # the keys as the help screen shows them
    does: str                      # what the help screen says it does
    hint: str = ""                 # its part of the key line ("" = only in the help)


#: every key of the stepper, in the order the help screen lists them
STEPPER_KEYS: tuple[Key, ...] = (
    Key("next-card", (b"\x1b[C", b"\x1bOC", b"n", b"l", b" "), "→  n  space", "next card", "→/n ←/p card"),
    Key("prev-card", (b"\x1b[D", b"\x1bOD", b"p", b"h"), "←  p", "previous card"),
    Key("next-trick", (b"\x1b[B", b"\x1bOB", b"N", b"j"), "↓  N", "next trick", "↓/N ↑/P trick"),
    Key("prev-trick", (b"\x1b[A", b"\x1bOA", b"P", b"k"), "↑  P", "previous trick"),
    Key("next-deal", (b"]", b"\x1b[6~"), "]  PgDn", "next deal", "]/[ deal"),
    Key("prev-deal", (b"[", b"\x1b[5~"), "[  PgUp", "start of the deal, then the deal before"),
    Key("start", (b"g", b"\x1b[H", b"\x1bOH", b"\x1b[1~"), "g  Home", "start of the deal"),
    Key("end", (b"G", b"\x1b[F", b"\x1bOF", b"\x1b[4~"), "G  End", "end of the deal"),
    Key("jump", (b"t",), "t 7 ⏎", "jump to the end of trick 7 (or type the number)", "t jump"),
    Key("next-error", (b"e",), "e", "next error in the record", "e error"),
    Key("prev-error", (b"E",), "E", "previous error"),
    Key("help", (b"?",), "?", "this help (? again to close)", "? help"),
    Key("quit", (b"q", b"Q", b"\x03", b"\x04"), "q  Ctrl-C", "quit", "q quit"),
)

#: the keys of the trick-number prompt
PROMPT_KEYS: dict[bytes, str] = {b"\r": "enter", b"\n": "enter", b"\x1b": "escape", b"\x7f": "backspace",
                                 b"\x08": "backspace"}


def action_for(key: bytes, table: Sequence[Key] = STEPPER_KEYS) -> Optional[str]:
    """The action of a key press (None: not a key of the table)."""
    for entry in table:
        if key in entry.keys:
            return entry.action
    return PROMPT_KEYS.get(key)


def help_rows(table: Sequence[Key] = STEPPER_KEYS) -> list[tuple[str, str]]:
    """(keys, what they do) for the help screen."""
    return [(entry.label, entry.does) for entry in table]


def key_hints(table: Sequence[Key] = STEPPER_KEYS) -> list[str]:
    """The key line's parts, in order: ``→/n ←/p card``, ..., ``q quit``."""
    return [entry.hint for entry in table if entry.hint]


class StepperKeys:
    """The stepper's state besides the position: help shown, the trick prompt, the last message."""

    def __init__(self, stepper: Stepper, table: Sequence[Key] = STEPPER_KEYS) -> None:
        self.stepper = stepper
        self.table = table
        self.help = False
        self.prompt: Optional[str] = None     # digits typed after t (None: no prompt)
        self.message: Optional[str] = None

    def press(self, key: bytes) -> bool:
        """Apply one key; True when it asks to quit."""
        action = action_for(key, self.table)
        self.message = None
        if self.prompt is not None:
            self._prompt_key(key, action)
            return False
        if action == "quit":
            return True
        if action == "help":
            self.help = not self.help
        elif action == "escape":
            self.help = False
        elif action == "jump":
            self.prompt = ""
        elif key.isdigit():
            self.prompt = key.decode()
        elif action in ("next-error", "prev-error"):
            self._error(action == "next-error")
        else:
            self._move(action)
        return False

    def _prompt_key(self, key: bytes, action: Optional[str]) -> None:
        digits = self.prompt or ""
        if key.isdigit():
            self.prompt = (digits + key.decode())[-3:]
        elif action == "backspace":
            self.prompt = digits[:-1]
        elif action == "enter":
            self.prompt = None
            if digits and not self.stepper.jump(int(digits)):
                self.message = f"this deal has no trick {digits}"
        elif action in ("escape", "quit", "jump"):
            self.prompt = None

    def _error(self, forward: bool) -> None:
        st = self.stepper
        if not st.flags:
            self.message = "no errors in this game"
            return
        self.help = False
        if forward and not st.next_error():
            st.first_error()
            self.message = "no error after this: back to the first"
        elif not forward and not st.prev_error():
            self.message = "no error before this"

    def _move(self, action: Optional[str]) -> None:
        st = self.stepper
        moves: dict[str, Callable[[], bool]] = {
            "next-card": st.next_card, "prev-card": st.prev_card, "next-trick": st.next_trick,
            "prev-trick": st.prev_trick, "next-deal": st.next_deal, "prev-deal": st.prev_deal,
            "start": st.start, "end": st.end,
        }
        move = moves.get(action or "")
        if move is None:
            self.message = "press ? for the keys"
        elif not move():
            self.message = ("the end of the record" if action and action.startswith(("next", "end"))
                            else "the start of the record")
