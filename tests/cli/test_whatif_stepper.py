"""What-if play in the terminal stepper (``dehlanote replay``, key ``w``): the keys applied to a
stepper without a terminal, the solver's answers checked against a brute force over the table,
the saved record validated; then the real program in a pseudo-terminal at 80x24.

The positions are late in the deal (two or three tricks to go), so the solver is instant.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import shutil
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

import dehlanote
from dehlanote.output.keys import WHATIF_KEYS, StepperKeys
from dehlanote.output.stepper import Stepper
from dehlanote.output.stepper_view import ScreenSize, stepper_screen
from dehlanote.syntax import parse_string

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "samples" / "worked-example.dpn"
RIGHT, LEFT = "\x1b[C", "\x1b[D"


def _keys(tmp_path: Path, text: str | None = None, trick: int = 11) -> StepperKeys:
    source = tmp_path / "game.dpn"
    source.write_text(text if text is not None else WORKED.read_text(encoding="utf-8"), encoding="utf-8")
    facts = next(dehlanote.read_games(str(source)))
    stepper = Stepper.of(facts)
    assert stepper.jump(trick)
    return StepperKeys(stepper, facts=facts, source=str(source))


def _press(keys: StepperKeys, *presses: str) -> None:
    for p in presses:
        if len(p) > 1 and not p.startswith("\x1b"):
            for ch in p:
                keys.press(ch.encode())
        else:
            keys.press(p.encode())


def test_w_enters_what_if_at_the_position_and_lists_the_legal_cards(tmp_path):
    keys = _keys(tmp_path)
    _press(keys, "w")
    w = keys.whatif
    assert w is not None and w.start == (12, 1)
    assert w.table.to_play == "D" and w.choices() == [("1", "6D"), ("2", "AC")]
    assert w.left() is None                              # nothing chosen yet: still the game
    _press(keys, "w")
    assert keys.whatif is None and keys.stepper.played == 44   # back to the game, where it was


def test_a_chosen_card_is_answered_by_the_solvers_best_cards(tmp_path, brute_best):
    keys = _keys(tmp_path)
    _press(keys, "w")
    w = keys.whatif
    probe = w.table.copy()
    _press(keys, "1")                                    # D leads 6D where the game has AC
    assert [s.card for s in w.line][0] == "6D" and len(w.line) == 4 and w.table.current == ()
    # each of the solver's cards is a best card by brute force at that point
    for step in w.line:
        if step.by == "solver":
            assert step.card in brute_best(probe)[0]
        probe.play(step.card)
    answers = ", ".join(f"{seat} {card}" for seat, card in zip("ABC", [s.card for s in w.line[1:]]))
    assert w.message.startswith(f"D plays 6D; the solver answers {answers}")
    left = w.left()
    assert (left.trick, left.card, left.seat, left.recorded, left.chosen) == (12, 1, "D", "AC", "6D")
    # the facts shown are the line's: the trick, the centre, the piles
    snap = w.view.snap
    assert snap.complete and snap.trick.number == 12 and [p.card for p in snap.shown][0] == "6D"
    assert snap.pile_tens == {side: tuple(t) for side, t in w.table.tens.items()}
    # undo and redo keep the line; another card starts a new one
    _press(keys, LEFT)
    assert w.pos == 3 and len(w.line) == 4 and len(w.table.current) == 3
    _press(keys, RIGHT)
    assert w.pos == 4 and w.table.current == ()


def test_i_play_every_seat_and_the_end_of_the_deal(tmp_path):
    keys = _keys(tmp_path)
    _press(keys, "w", "m")
    w = keys.whatif
    assert w.by_hand and "you play every seat" in w.who_plays()
    _press(keys, "1")
    assert [s.card for s in w.line] == ["6D"] and w.table.to_play == "A"
    _press(keys, "2")                                    # A's second legal card, by hand
    assert len(w.line) == 2 and all(s.by == "hand" for s in w.line)
    _press(keys, "e")
    assert keys.busy and w.running
    while keys.busy:
        keys.tick()
    assert w.table.over and w.table.facts is not None
    assert sum(len(t) for t in w.table.tens.values()) == 4


def test_s_saves_a_valid_record_beside_the_game_and_never_overwrites_without_asking(tmp_path):
    keys = _keys(tmp_path)
    _press(keys, "w", "s")
    assert keys.whatif.message.startswith("nothing-to-save")   # the line is still the game's
    _press(keys, "1", "s")
    w = keys.whatif
    default = str(tmp_path / "game-whatif-deal1.dpn")
    assert w.prompt == default
    _press(keys, "\r")
    saved = Path(default)
    text = saved.read_text(encoding="utf-8")
    again = dehlanote.replay_game(parse_string(text)[0])
    assert again.ok, again.errors
    assert "{what-if on deal 1: left the game at trick 12, card 1: D plays 6D where the game has AC}" in text
    assert "{the line: 1 card chosen by hand, 3 played by the double-dummy solver}" in text
    assert [t.winner for t in again.deals[0].tricks] == [t.winner for t in w.table.state.tricks]
    # a second save proposes a new name; typing the first one asks before overwriting it
    _press(keys, "s")
    assert w.prompt == str(tmp_path / "game-whatif-deal1-2.dpn")
    _press(keys, "\x15", default, "\r")
    assert w.confirm == default
    _press(keys, "n")
    assert w.confirm is None and w.prompt == default and saved.read_text(encoding="utf-8") == text
    _press(keys, "\r", "y")
    assert w.saved == default and w.message == f"saved the line as {default}"


def test_save_errors_are_coded_messages(tmp_path):
    keys = _keys(tmp_path)
    _press(keys, "w", "1", "s", "\x15", str(tmp_path), "\r")
    w = keys.whatif
    assert w.confirm is None                              # a folder: refused at once, never asked about
    assert w.message.startswith(f"save-refused: {tmp_path}: ")
    _press(keys, "s", "\x15", str(tmp_path / "no-such-folder" / "x.dpn"), "\r")
    assert w.message.startswith("write-failed: ") or w.message.startswith("save-refused: ")
    _press(keys, "c", "KS", "\r")                         # played in trick 4
    assert w.message.startswith("duplicate-card: ")
    _press(keys, "c", "ZZ", "\r")
    assert w.message.startswith("bad-card: ")


def test_a_read_only_file_is_refused_without_an_option_the_stepper_has_not(tmp_path):
    # "save-refused: x.dpn: it is read-only (--force writes it all the same)": replay has no --force
    keys = _keys(tmp_path)
    locked = tmp_path / "locked.dpn"
    locked.write_text("{kept}\n", encoding="utf-8")
    locked.chmod(0o444)
    _press(keys, "w", "1", "s", "\x15", str(locked), "\r", "y")
    w = keys.whatif
    assert w.saved is None and locked.read_text(encoding="utf-8") == "{kept}\n"
    assert w.message == f"save-refused: {locked}: it is read-only: save the line under another name"


def test_the_record_being_replayed_is_never_saved_over(tmp_path):
    """The open record, named as it is, through a symlink or through a hard link: refused at
    once (no "overwrite it?" question that a y would answer), the record left whole."""
    keys = _keys(tmp_path)
    source = tmp_path / "game.dpn"
    before = source.read_bytes()
    os.symlink(source, tmp_path / "link.dpn")
    os.link(source, tmp_path / "hard.dpn")
    _press(keys, "w", "1")
    w = keys.whatif
    for name in (source, tmp_path / "link.dpn", tmp_path / "hard.dpn"):
        _press(keys, "s", "\x15", str(name), "\r")
        assert w.confirm is None and w.saved is None
        assert w.message == f"save-refused: {name}: it is the record being replayed: save the line under another name"
        _press(keys, "y")                                 # a y typed on would answer no question
        assert source.read_bytes() == before
    _press(keys, "s", "\x15", str(tmp_path / "other.dpn"), "\r")
    assert w.saved == str(tmp_path / "other.dpn") and source.read_bytes() == before


def test_a_fifo_or_a_device_is_refused_without_opening_it(tmp_path):
    """A FIFO held the stepper in open() for good (no reader: q and Ctrl-C did nothing); a
    device would take the text. Both are refused before anything is opened, as a folder is."""
    def stuck(signum, frame):
        raise AssertionError("the save sat in open() on the FIFO")
    old = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(10)
    try:
        _fifo_refused(tmp_path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _fifo_refused(tmp_path: Path) -> None:
    keys = _keys(tmp_path)
    fifo = tmp_path / "pipe.dpn"
    os.mkfifo(fifo)
    _press(keys, "w", "1")
    w = keys.whatif
    for name in (str(fifo), os.devnull, "/dev/stdout"):
        _press(keys, "s", "\x15", name, "\r")
        assert w.confirm is None and w.saved is None, name
        assert w.message.startswith(f"save-refused: {name}: "), w.message
    _press(keys, "s", "\x15", str(fifo), "\r")
    assert w.message == f"save-refused: {fifo}: it is a FIFO, not a regular file"
    assert keys.whatif is w and w.prompt is None          # the stepper goes on: its keys still answer
    _press(keys, LEFT)
    assert w.pos == 3


def test_a_name_typed_in_any_script_and_a_record_wrong_before_the_point(tmp_path):
    keys = _keys(tmp_path)
    _press(keys, "w", "1", "s", "\x15")
    name = str(tmp_path / "déjà-vu.dpn")
    for byte in name.encode():                            # a terminal sends a character byte by byte
        keys.press(bytes([byte]))
    assert keys.whatif.prompt == name
    keys.press(b"\r")
    assert keys.whatif.saved == name and dehlanote.replay_game(parse_string(Path(name).read_text())[0]).ok
    # B revokes in trick 3 of this record: the line cannot be saved as a valid record, and says why
    text = WORKED.read_text(encoding="utf-8")
    text = text.replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 3D 7S 9S").replace(" 8 D: 8D 9D 3D 2C", " 8 D: 8D 9D 5S 2C")
    (tmp_path / "bad").mkdir()
    bad = _keys(tmp_path / "bad", text)
    _press(bad, "w", "1")
    assert "the solver answers" in bad.whatif.message
    _press(bad, "s", "\r")
    assert bad.whatif.message.startswith("revoke: the what-if record would not be valid: B must follow suit")
    assert bad.whatif.saved is None


def test_hands_not_known_mean_the_user_plays_every_seat(tmp_path):
    text = WORKED.read_text(encoding="utf-8")
    text = "\n".join(line for line in text.splitlines() if not line.startswith(("hands", "      ", "tens"))
                     and not re.match(r"^(1[0-3]| [7-9]) ", line)).replace('[Result "AC"]', '[Result "*"]')
    keys = _keys(tmp_path, text, trick=6)
    _press(keys, "w")
    w = keys.whatif
    assert w.by_hand and "every hand" in w.message
    _press(keys, RIGHT)
    assert "every hand" in w.message and w.pos == 0
    _press(keys, "m")
    assert w.by_hand
    card = w.choices()[0][1]
    _press(keys, "1")
    assert [s.card for s in w.line] == [card]


def _render(keys: StepperKeys, size: ScreenSize) -> list[str]:
    console = Console(width=size.width, height=size.height, file=io.StringIO(), color_system=None,
                      legacy_windows=False)
    with console.capture() as capture:
        console.print(stepper_screen(keys.stepper, names={}, title="Worked example", control=keys, size=size))
    return capture.get().rstrip("\n").split("\n")


@pytest.mark.parametrize("size", [ScreenSize(80, 24), ScreenSize(120, 40)])
def test_the_what_if_screen_fits(tmp_path, size):
    keys = _keys(tmp_path)
    _press(keys, "w")
    lines = _render(keys, size)
    assert len(lines) == size.height and all(len(line) <= size.width for line in lines)
    assert any("D to play: 1:6♦  2:A♣" in line for line in lines)
    assert "w back" in lines[-1] and "s save" in lines[-1]
    _press(keys, "1")
    lines = _render(keys, size)
    assert any("left the game at trick 12 card 1: D 6D for AC" in line for line in lines[:2])
    _press(keys, "c", "KS", "\r")                         # played in trick 4: the key line says so
    lines = _render(keys, size)
    assert len(lines) == size.height and all(len(line) <= size.width for line in lines)
    assert lines[-1].startswith("duplicate-card: KS has already been played") and "q quit" in lines[-1]
    _press(keys, "?")
    lines = _render(keys, size)
    assert len(lines) == size.height
    for key in WHATIF_KEYS[:8]:
        assert any(key.does[:30] in line for line in lines), key.does


def test_a_save_refused_for_a_long_name_says_why_on_screen(tmp_path):
    # a 304-character name: the key line showed only "save-refused:" and the notes "… 1 more note
    # here" over empty lines, so the reason was nowhere on an 80x24 screen
    keys = _keys(tmp_path)
    long = "a" * 300 + ".dpn"
    _press(keys, "w", "1", "s", "\x15", long, "\r")
    assert keys.whatif.message == f"save-refused: {long}: File name too long"     # the message itself whole
    lines = _render(keys, ScreenSize(80, 24))
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    shown = "save-refused: \u2026" + "a" * 34 + ".dpn: File name too long"     # (the word ends at its colon)
    assert any(line.strip() == shown for line in lines[:-1]), lines
    assert lines[-1].startswith("save-refused: \u2026aaaa") and lines[-1].endswith("q quit"), lines[-1]


# ---- the real program in a pseudo-terminal ------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.mark.skipif(os.name != "posix", reason="needs a POSIX pseudo-terminal")
def test_replay_what_if_in_a_terminal_saves_a_record_that_validates(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    source = tmp_path / "worked.dpn"
    shutil.copy(WORKED, source)
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    for name in ("NO_COLOR", "COLUMNS", "LINES"):
        env.pop(name, None)
    command = f"{shlex.quote(sys.executable)} -m dehlanote replay worked.dpn --trick 11"
    child = pexpect.spawn("/bin/sh", ["-c", command + '; echo "EXIT=$?"'], env=env, dimensions=(24, 80),
                          encoding="utf-8", timeout=60, cwd=str(tmp_path))
    log = io.StringIO()
    child.logfile_read = log
    child.expect_exact("w what-if")
    child.send("w")
    child.expect_exact("what-if: the solver answers")
    child.expect_exact("D to play: ")
    child.send("1")
    child.expect_exact("left the game at trick 12 card 1: D 6D for AC")     # the frame's second line
    child.expect_exact("the solver answers A ")                             # its notes
    child.send("s")
    child.expect_exact("save as: worked-whatif-deal1.dpn")
    child.send("\r")
    child.expect_exact("saved the line as ")
    child.send("q")
    child.expect(r"EXIT=(\d+)")
    assert int(child.match.group(1)) == 0
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in ANSI.sub("", log.getvalue())
    saved = tmp_path / "worked-whatif-deal1.dpn"
    check = subprocess_validate(saved, env)
    assert check.returncode == 0, check.stdout + check.stderr
    text = saved.read_text(encoding="utf-8")
    assert "{what-if on deal 1: left the game at trick 12, card 1: D plays 6D where the game has AC}" in text
    assert '[WhatIf "deal 1, trick 12, card 1"]' in text


def subprocess_validate(path: Path, env: dict):
    import subprocess
    return subprocess.run([sys.executable, "-m", "dehlanote", "validate", str(path)], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


_FILES = sorted(str(p) for p in [*ROOT.glob("samples/*.dpn"), *ROOT.glob("tests/data/*.dpn"),
                                 *ROOT.glob("tests/invalid/*.dpn")])
_KEYS = [b"w", b"1", b"2", b"3", b"a", b"Z", RIGHT.encode(), LEFT.encode(), b"u", b"m", b"e", b"s", b"\r", b"y",
         b"n", b"c", b"K", b"S", b"?", b"\x1b", b"\x7f", b"\x15", b"x", b"0", b"G", b"N", b"]", b"\xc3", b"\xa9"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_keys_in_any_record_never_raise_and_every_saved_record_validates(tmp_path_factory, monkeypatch, data):
    """Random keys at a random position of any record (the broken ones too): nothing raises,
    the screen draws at 80x24, and every file saved is a record that validates."""
    import dehlanote.output.whatif as whatif_mode
    monkeypatch.setattr(whatif_mode, "SOLVER_SECONDS", 0.2)
    folder = tmp_path_factory.mktemp("keys")
    monkeypatch.chdir(folder)                             # a name typed is saved here, never in the checkout
    path = data.draw(st.sampled_from(_FILES), label="file")
    try:
        facts = next(dehlanote.read_games(path))
        stepper = Stepper.of(facts)
    except (StopIteration, ValueError):
        return                                            # no deal to step through: nothing to play on
    stepper.deal = data.draw(st.integers(0, len(stepper.deals) - 1), label="deal")
    stepper.played = data.draw(st.integers(max(0, stepper.last() - 8), stepper.last()), label="played")
    keys = StepperKeys(stepper, facts=facts, source=str(folder / Path(path).name))
    for key in data.draw(st.lists(st.sampled_from(_KEYS), max_size=30), label="keys"):
        if keys.press(key):
            break
        for _ in range(6):
            if keys.busy:
                keys.tick()
    lines = _render(keys, ScreenSize(80, 24))
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    for saved in folder.iterdir():
        again = dehlanote.replay_game(parse_string(saved.read_text(encoding="utf-8"))[0])
        assert again.ok, (saved.name, again.errors)
