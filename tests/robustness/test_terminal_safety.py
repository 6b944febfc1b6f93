"""Terminal injection (issue 16 item 5): a record's tag values and names, a profile's name
and description from --rules YAML, and a file's name reach a terminal only through
``dehlanote.text``; to a file or a pipe, DPN is written as it is.

Each command runs in a real pseudo-terminal (a pty of our own) and in a pipe."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from dehlanote.text import printable, printable_block

import ptyread  # noqa: E402  (tests/ptyread.py: a pseudo terminal read one way everywhere)

ROOT = Path(__file__).resolve().parents[2]
WORKED = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs a POSIX pseudo-terminal")

TITLE = "\x1b]0;PWNED\x07"            # retitles the terminal
CLIPBOARD = "\x1b]52;c;cHduZWQ=\x07"  # writes the clipboard
CLEAR = "\x1b[2J"
C1 = "\x9b2J"                         # CSI as one C1 character
#: what must never reach a terminal raw
INJECTED = [b"\x1b]0;PWNED", b"\x1b]52;", b"\x1b[2J", "\x9b".encode(), b"\x07"]
HOSTILE = WORKED.replace('"Worked example"', f'"EV{TITLE}"').replace('"Asha"', f'"As{CLIPBOARD}ha"') \
                .replace("{diamonds}", f"{{dia{CLEAR}monds{C1}}}")


def env() -> dict:
    e = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8", PYTHONPATH=str(ROOT))
    for name in ("NO_COLOR", "COLUMNS", "LINES"):
        e.pop(name, None)
    return e


def on_tty(*args: str, keys: bytes = b"", timeout: float = 60) -> tuple[int, bytes]:
    """Run dehlanote with stdin, stdout and stderr on a new pty; what the terminal received."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "dehlanote", *args], stdin=slave, stdout=slave,
                            stderr=slave, env=env(), close_fds=True)
    os.close(slave)
    out = ptyread.read_all(master, proc, timeout, keys=keys)
    return proc.returncode, out


def piped(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dehlanote", *args], capture_output=True, env=env(),
                          stdin=subprocess.DEVNULL, timeout=120)


def assert_clean(out: bytes) -> None:
    for raw in INJECTED:
        assert raw not in out, (raw, out[:2000])


def test_the_sanitiser():
    assert printable("EV" + TITLE) == "EV␛]0;PWNED␇"
    assert printable("a\nb\tc\x9b\u202e") == "a␊b\tc\ufffd\ufffd"
    assert printable_block("a\r\nb\rc\n\x00") == "a\r\nb␍c\n␀"
    assert len(printable("x\x1b[2J")) == len("x\x1b[2J")     # one picture per character: carets align


@pytest.mark.parametrize("args", [("fmt",), ("annotate", "--format", "dpn")])
def test_16_5_dpn_on_a_terminal_shows_controls_as_pictures_and_a_pipe_gets_them_as_written(tmp_path, args):
    path = tmp_path / "hostile.dpn"
    path.write_text(HOSTILE, encoding="utf-8")
    status, out = on_tty(*args, str(path))
    assert status == 0, out[-2000:]
    assert_clean(out)
    assert "EV␛]0;PWNED␇".encode() in out
    result = piped(*args, str(path))
    assert result.returncode == 0
    assert TITLE.encode() in result.stdout and CLEAR.encode() in result.stdout


def test_16_5_annotate_and_validate_on_a_terminal(tmp_path):
    path = tmp_path / "hostile.dpn"
    path.write_text(HOSTILE.replace('[Rules "standard"]', f'[Rules "standard{TITLE}"]'), encoding="utf-8")
    for args in (("annotate",), ("validate",), ("json",)):
        status, out = on_tty(*args, str(path))
        assert status in (0, 1), (args, out[-2000:])
        assert_clean(out)


def test_16_5_file_names_in_error_lines(tmp_path):
    path = tmp_path / f"bad{CLEAR}\x07name.dpn"
    path.write_text(WORKED.replace(" 3 A: 4S", " 3 A: 4X"), encoding="utf-8")
    status, out = on_tty("validate", str(path))
    assert status == 1
    assert_clean(out)
    assert "bad␛[2J".encode() in out    # (rich drops the BEL itself)
    status, out = on_tty("json", str(tmp_path / f"missing{TITLE}.dpn"))
    assert status == 2
    assert_clean(out)


def test_16_5_profile_names_and_descriptions_from_rules_yaml(tmp_path):
    rules = tmp_path / "house.yaml"
    # (YAML escapes: a YAML file cannot hold the raw control characters)
    rules.write_text(
        'name: "house\\e[2J"\nbase: standard\ndescription: "our \\e]0;PWNED\\a rules \\e]52;c;cHduZWQ=\\a"\n'
        'source: "the club\\x9b2J"\ndecisions:\n  - "none\\e[2J"\nparams: {}\n', encoding="utf-8")
    status, listing = on_tty("rules", "--rules", str(rules))
    assert status == 0, listing[-2000:]
    assert_clean(listing)
    assert "house␛[2J".encode() in listing and "␛]0;PWNED".encode() in listing
    status, shown = on_tty("rules", "--rules", str(rules), f"house{CLEAR}")
    assert_clean(shown)


def test_16_5_the_interactive_stepper_shows_names_safely(tmp_path):
    path = tmp_path / "hostile.dpn"
    path.write_text(HOSTILE, encoding="utf-8")
    status, out = on_tty("replay", str(path), keys=b"q")
    assert status == 0, out[-3000:]
    assert b"\x1b[?1049h" in out          # the stepper's own screen, drawn
    assert_clean(out)
    assert "As␛]52;c;cHduZWQ=␇ha".encode() in out or "As␛]52".encode() in out
