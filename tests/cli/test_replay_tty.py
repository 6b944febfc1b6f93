"""The interactive stepper in a real pseudo-terminal (pexpect): keys in, screen out.

Each test runs ``dehlanote replay`` under ``sh -c`` in a pty, with ``stty -g`` before and
after, so that it can check that the terminal modes are exactly as they were once the
stepper has quit (by q, by Ctrl-C), and that the alternate screen was left and the cursor
shown again.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

DATA = Path(__file__).resolve().parents[1] / "data"
WORKED = DATA / "worked-example.dpn"
LOOSE = DATA / "loose-style.dpn"
HUKUM = DATA / "hukum.dpn"

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
RIGHT, LEFT, DOWN, UP = "\x1b[C", "\x1b[D", "\x1b[B", "\x1b[A"

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs a POSIX pseudo-terminal")


def command() -> str:
    return f"{shlex.quote(sys.executable)} -m dehlanote"


class Session:
    """``dehlanote replay ARGS`` in a pty (40x120 unless told), with the tty modes saved before and after."""

    def __init__(self, tmp_path: Path, *args: str, size: tuple[int, int] = (40, 120)) -> None:
        self.before = tmp_path / "stty-before"
        self.after = tmp_path / "stty-after"
        line = " ".join(shlex.quote(str(a)) for a in args)
        script = (f"trap : INT; stty -g > {shlex.quote(str(self.before))}; {command()} replay {line}; "
                  f'echo "EXIT=$?"; stty -g > {shlex.quote(str(self.after))}')
        env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env.pop("NO_COLOR", None)
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        self.size = size
        self.log = io.StringIO()
        self.child = pexpect.spawn("/bin/sh", ["-c", script], env=env, dimensions=size,
                                   encoding="utf-8", timeout=30)
        self.child.logfile_read = self.log

    def frame(self) -> list[str]:
        """The last screen drawn, as plain lines (each frame starts at the top-left corner)."""
        text = self.log.getvalue().split("\x1b[H")[-1].split("\x1b[?1049l")[0]
        return ANSI.sub("", text).split("\r\n")

    def expect(self, *texts: str) -> None:
        for text in texts:
            self.child.expect_exact(text)

    def key(self, keys: str, *then: str) -> None:
        self.child.send(keys)
        self.expect(*then)

    def finish(self) -> tuple[int, str]:
        """Wait for the end; the exit status and everything printed after the keys."""
        self.child.expect(r"EXIT=(\d+)")
        status = int(self.child.match.group(1))
        tail = self.child.before
        self.child.expect(pexpect.EOF)
        self.child.close()
        return status, tail

    def restored(self) -> bool:
        return self.before.read_text() == self.after.read_text() and self.before.read_text().strip() != ""


def test_keys_step_through_cards_tricks_and_jumps(tmp_path):
    s = Session(tmp_path, WORKED)
    s.expect("Deal 1 · before trick 1 of 13", "Centre", "0 cards", "AC pile")
    s.key("n", "trick 1 of 13 · card 1 of 4", "trick 1 · A leads")
    s.key("N", "trick 1 of 13 · card 4 of 4", "A wins", "4 cards, tens ")
    s.key(DOWN, "trick 2 of 13 · card 4 of 4", "sweeps 8 cards with", "A just swept")
    s.key(RIGHT, "trick 3 of 13 · card 1 of 4")
    s.key(LEFT, "trick 2 of 13 · card 4 of 4")
    s.key("p", "trick 2 of 13 · card 3 of 4")
    s.key(UP, "trick 1 of 13 · card 4 of 4")
    s.key("t9\r", "trick 9 of 13 · card 4 of 4", "sweeps 20 cards with", "28 cards, tens ",
          " was won by D (BD) in trick 7, swept by A to AC")
    s.key("?", "Keys (? again to close)", "jump to the end of trick 7")
    s.key("?", "trick 9 · A leads")
    s.key("t99\r", "this deal has no trick 99")
    s.key("G", "trick 13 of 13 · card 4 of 4", "takes the last 4 cards", "the deal is over",
          "AC wins the deal with 3 tens (AC 3 BD 1)")
    s.key("q")
    status, tail = s.finish()
    assert status == 0
    assert "\x1b[?1049l" in tail            # left the alternate screen
    assert "\x1b[?25h" in tail              # cursor shown again
    assert "Traceback" not in tail
    assert s.restored()


def test_deals_and_start_position(tmp_path):
    s = Session(tmp_path, "--deal", "1", "--trick", "4", LOOSE)
    s.expect("Deal 1 of 2 · trick 4 of 13 · card 4 of 4")
    s.key("]", "Deal 2 of 2 · before trick 1 of 13")
    s.key("[", "Deal 1 of 2 · before trick 1 of 13")
    s.key("G", "Deal 1 of 2 · trick 13 of 13 · card 4 of 4")
    s.key("n", "Deal 2 of 2 · before trick 1 of 13")
    s.key("p", "Deal 1 of 2 · trick 13 of 13 · card 4 of 4")
    s.key("q")
    status, _ = s.finish()
    assert status == 0
    assert s.restored()


def test_hukum_shows_immediate_capture_and_trump_set_by_a_void(tmp_path):
    s = Session(tmp_path, HUKUM)
    s.expect("none yet: the first player unable to follow sets it", "each trick to its winner")
    s.key("t3\r", "trick 3 of 13", "takes the trick", "cannot follow: trump set, spades")
    s.key("q")
    status, _ = s.finish()
    assert status == 0
    assert s.restored()


def test_ctrl_c_quits_and_restores_the_terminal(tmp_path):
    s = Session(tmp_path, WORKED)
    s.expect("before trick 1 of 13")
    s.key("nn", "card 2 of 4")
    s.child.sendintr()
    status, tail = s.finish()
    assert status == 0
    assert "Traceback" not in tail
    assert "\x1b[?1049l" in tail
    assert s.restored()


def test_not_a_terminal_prints_plain_steps(tmp_path):
    """Standard output piped (standard input still the pty): the plain text, no screen."""
    out = tmp_path / "out.txt"
    child = pexpect.spawn("/bin/sh", ["-c", f"{command()} replay {shlex.quote(str(WORKED))} > {out}; echo EXIT=$?"],
                          encoding="utf-8", timeout=30)
    child.expect(r"EXIT=(\d+)")
    assert child.match.group(1) == "0"
    text = out.read_text(encoding="utf-8")
    assert "\x1b[" not in text
    assert "A wins trick 2; A sweeps 8 cards (two in a row): 10H 10S" in text


def _with_errors(tmp_path: Path) -> Path:
    """The worked example with a revoke (trick 3), a wrong leader (trick 4) and a wrong tens claim."""
    text = WORKED.read_text(encoding="utf-8")
    text = text.replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 3D 7S 9S").replace(" 8 D: 8D 9D 3D 2C", " 8 D: 8D 9D 5S 2C")
    path = tmp_path / "errors.dpn"
    path.write_text(text.replace("tens AC 3 BD 1", "tens AC 2 BD 2"), encoding="utf-8")
    return path


@pytest.mark.parametrize("rows, cols", [(24, 80), (40, 120)])
def test_screen_fits_the_terminal_keys_last_and_the_box_never_moves(tmp_path, rows, cols):
    s = Session(tmp_path, _with_errors(tmp_path), size=(rows, cols))
    boxes = set()

    def check(*texts: str) -> list[str]:
        s.expect(*texts)
        s.expect("q quit")                       # the last row: the frame is complete
        lines = s.frame()
        assert len(lines) == rows, lines
        assert max(len(line) for line in lines) <= cols
        assert "? help" in lines[-1] and "q quit" in lines[-1]
        top = next(i for i, line in enumerate(lines) if "╭" in line)
        bottom = next(i for i, line in enumerate(lines) if "╰" in line)
        boxes.add((top, lines[top].index("╭"), bottom, lines[bottom].index("╯")))
        return lines

    lines = check("before trick 1 of 13")
    assert "kots AC 0 BD 0" in lines[1] and "errors (e: next)" in lines[1]
    s.child.send("e")
    lines = check("trick 3 of 13 · card 2 of 4")
    screen = " ".join(" ".join(lines).split())
    assert "B 3♦✗" in screen
    assert "revoke at 20:10: B must follow suit (spades led) and holds 3 spades (JS 6S 5S), but plays 3D" in screen
    s.child.send("e")
    lines = check("trick 4 of 13 · card 1 of 4")
    assert any("trick 4 · B leads ✗" in line for line in lines)
    s.child.send("N")
    check("trick 4 of 13 · card 4 of 4")
    s.child.send("G")
    lines = check("trick 13 of 13 · card 4 of 4")
    screen = "\n".join(lines)
    assert "the deal is over" in screen and "one more sweeps" not in screen
    assert "Deal 1 over: AC wins the deal with 3 tens (AC 3 BD 1)" in screen
    assert "tens-mismatch at 31:1" in screen
    assert "streak AC 1" in lines[1]
    s.child.send("?")
    s.expect("Keys (? again to close)", "next error in the record", "q quit")
    s.key("q")
    status, tail = s.finish()
    assert status == 0 and "Traceback" not in tail
    assert s.restored()
    assert len(boxes) == 1, boxes


@pytest.mark.parametrize("rows, cols", [(24, 80), (40, 120)])
def test_analyse_solves_in_the_background_and_shows_the_card_that_lost_a_ten(tmp_path, rows, cols):
    s = Session(tmp_path, "--analyse-from", "8", "--dd", "--trick", "7", WORKED, size=(rows, cols))
    s.expect("Deal 1 · trick 7 of 13 · card 4 of 4")
    s.key("n", "trick 8 of 13 · card 1 of 4")
    # the solver's answer arrives without a key: the value before trick 8 and D's 8D marked ?
    s.expect("Before trick 8, best play: AC 2 – BD 2 tens",
             "D should have played 4H or KD or AC: AC 2–2 instead of 3–1", "q quit")
    frame = s.frame()
    assert len(frame) <= rows and max(len(line.rstrip()) for line in frame) <= cols
    assert any("D 8♦?" in line for line in frame)
    assert "q quit" in [line for line in frame if line.strip()][-1]
    s.key("q")
    status, tail = s.finish()
    assert status == 0 and "Traceback" not in tail
    assert s.restored()
