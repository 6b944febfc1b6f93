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

from typing import TYPE_CHECKING, Callable, NamedTuple, Optional, Sequence

from .stepper import Stepper

if TYPE_CHECKING:
    from ..replay.facts import GameFacts
    from ..rules.profile import Registry
    from .whatif import WhatIf

__all__ = ["Key", "STEPPER_KEYS", "WHATIF_KEYS", "PROMPT_KEYS", "action_for", "help_rows", "key_hints",
           "StepperKeys"]


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
    Key("what-if", (b"w",), "w", "what-if: play on from here, the solver answers", "w what-if"),
    Key("next-error", (b"e",), "e", "next error in the record", "e error"),
    Key("prev-error", (b"E",), "E", "previous error"),
    Key("help", (b"?",), "?", "this help (? again to close)", "? help"),
    Key("quit", (b"q", b"Q", b"\x03", b"\x04"), "q  Ctrl-C", "quit", "q quit"),
)

#: the keys of what-if mode (``w``); the cards are chosen by the keys listed beside them
#: (:data:`dehlanote.output.whatif.LABELS`: 1-9, 0, then letters none of these use)
WHATIF_KEYS: tuple[Key, ...] = (
    Key("wi-card", (), "1 … 9 0 a …", "play the card listed with that key, for the seat to play"),
    Key("wi-type", (b"c",), "c KS ⏎", "type the card to play (when the list is long)"),
    Key("wi-forward", (b"\x1b[C", b"\x1bOC", b"n", b" "), "→  n  space",
        "next card: the line's, or past its end the solver's best", "→ solver"),
    Key("wi-back", (b"\x1b[D", b"\x1bOD", b"p", b"u", b"\x7f", b"\x08"), "←  p  u  ⌫",
        "undo a card (→ plays it again)", "←/u undo"),
    Key("wi-end", (b"e",), "e", "the solver plays on to the end of the deal (any key stops it)", "e to end"),
    Key("wi-toggle", (b"m",), "m", "you play every seat / the solver answers each card you choose", "m who"),
    Key("wi-save", (b"s",), "s", "save the line as a new record of the deal (asks for the file name)", "s save"),
    Key("wi-leave", (b"w", b"\x1b"), "w  Esc", "back to the game as recorded", "w back"),
    Key("help", (b"?",), "?", "this help (? again to close)", "? help"),
    Key("quit", (b"q", b"\x03", b"\x04"), "q  Ctrl-C", "quit", "q quit"),
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

    def __init__(self, stepper: Stepper, table: Sequence[Key] = STEPPER_KEYS, *,
                 facts: Optional["GameFacts"] = None, source: Optional[str] = None,
                 reg: Optional["Registry"] = None) -> None:
        self.stepper = stepper
        self.table = table
        self.help = False
        self.prompt: Optional[str] = None     # digits typed after t (None: no prompt)
        self.message: Optional[str] = None
        self.facts, self.source, self.reg = facts, source, reg
        self.whatif: Optional["WhatIf"] = None   # what-if mode (w): the line played on
        self._partial = b""                      # the first bytes of a character being typed

    @property
    def busy(self) -> bool:
        """The solver is playing on (call :meth:`tick` until it is not)."""
        return self.whatif is not None and self.whatif.running

    def tick(self) -> None:
        if self.whatif is not None:
            self.whatif.tick()

    def press(self, key: bytes) -> bool:
        """Apply one key; True when it asks to quit."""
        if self.whatif is not None:
            return self._whatif_key(key)
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
        elif action == "what-if":
            self._enter_whatif()
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

    # ---- what-if mode ------------------------------------------------------------------------
    def _enter_whatif(self) -> None:
        from .whatif import WhatIf
        try:
            whatif = WhatIf(self.stepper, self.facts, self.source, self.reg)
        except ValueError as exc:
            self.message = f"what-if: {exc}"
            return
        if whatif.table.over:
            self.message = "the deal is over here: step back to a card to play on from"
            return
        self.help = False
        self.whatif = whatif
        whatif.message = whatif.cannot or "choose a card by its key, or → for the solver's"

    def _whatif_key(self, key: bytes) -> bool:
        w = self.whatif
        assert w is not None
        action = action_for(key, WHATIF_KEYS)
        if w.running:
            w.running = False                 # any key stops the solver's play-out
            w.message = "stopped"
            return action == "quit"
        if w.confirm is not None:
            path = w.confirm
            if key in (b"y", b"Y"):
                w.save(path, overwrite=True)
            else:
                w.confirm = None
                w.prompt = path
                w.message = f"{path} is kept: type another name"
            return False
        if w.prompt is not None or w.card_prompt is not None:
            self._whatif_prompt(w, key, action)
            return False
        if action == "quit":
            return True
        if action == "help":
            self.help = not self.help
            return False
        self.help = False
        from .whatif import LABELS
        choices = dict(w.choices())
        if len(key) == 1 and key.decode("latin-1") in LABELS and action is None:
            card = choices.get(key.decode("latin-1"))
            if card is None:
                w.message = f"no card has the key {key.decode('latin-1')} here"
            else:
                w.choose(card)
        elif action == "wi-leave":
            self.whatif = None
            self.message = "back to the game as recorded"
        elif action == "wi-forward":
            w.forward()
        elif action == "wi-back":
            w.back()
        elif action == "wi-end":
            w.play_out()
        elif action == "wi-toggle":
            w.toggle()
        elif action == "wi-save":
            w.ask_save()
        elif action == "wi-type":
            w.card_prompt = ""
        else:
            w.message = "press ? for the keys of what-if play"
        return False

    def _whatif_prompt(self, w: "WhatIf", key: bytes, action: Optional[str]) -> None:
        """A key for the file-name prompt (save) or the card prompt (c)."""
        typed = w.prompt if w.prompt is not None else (w.card_prompt or "")
        if key in (b"\r", b"\n"):
            if w.prompt is not None:
                w.save(typed)
            else:
                w.card_prompt = None
                if typed:
                    w.choose(typed.upper())
            return
        if key == b"\x1b" or key in (b"\x03",):
            w.prompt = w.card_prompt = None
            w.message = "cancelled"
            return
        if key in (b"\x7f", b"\x08"):
            typed = typed[:-1]
        elif key == b"\x15":                   # Ctrl-U: clear the line
            typed = ""
        else:
            # a character of several bytes comes a byte at a time: kept until it is whole
            pending = self._partial + key
            try:
                text = pending.decode("utf-8")
            except UnicodeDecodeError:
                self._partial = pending if len(pending) < 4 else b""
                return
            self._partial = b""
            if not text.isprintable() or text.startswith("\x1b"):
                return
            typed = (typed + text)[:400]
        if w.prompt is not None:
            w.prompt = typed
        else:
            w.card_prompt = typed[:4]
