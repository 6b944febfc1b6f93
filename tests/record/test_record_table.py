"""The recorder at the table (issue 23 item 7): what a scorer types, what the screen says,
and a revoke found later recorded as it happened (DPN 1.2 ``revoke C at 2 stands``).

Driven in a pseudo-terminal of 80 columns, as a scorer would; the record checked by
``validate`` and by the replay.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dehlanote import parse_string, replay_game, write_game
from dehlanote.record import Session

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "samples" / "worked-example.dpn"
# the worked example with C's 2S and 2C swapped: C shows out of spades in trick 2 while
# holding them (a revoke), and plays a spade in trick 3, which is when it is found
REVOKED = ["AH 10H 3H 7H", "AS QS 2C 10S", "4S 5S 7S 9S", "KC 5C 4C 9C", "7D AD 5D 2H", "6H QH KH 8H",
           "8S 10D? KS JS", "8D 9D 3D 2S", "JH 5H 6C 4H", "JD 4D 3S 2D", "QD 10C 7C KD", "AC QC 3C JC",
           "6D 9H 6S 8C"]


def env(**extra: str) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **extra)


def validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dehlanote", "validate", str(path)], capture_output=True,
                          text=True, env=env(), timeout=120)


def feed(session: Session, lines: list[str]) -> None:
    for line in lines:
        outcome = session.feed(line)
        assert outcome.accepted, (line, [str(e) for e in outcome.errors], outcome.reason)


# ---- what is typed ---------------------------------------------------------------------------

def test_suit_words_and_lower_case_seats_give_the_record_the_notation_writes():
    loose = Session()
    feed(loose, ["dealer d", "trump Diamonds", "a: AH 10H 3H 7H", "AS QS 2S 10S", "3 a: 4S 5S 7S 9S"])
    strict = Session()
    feed(strict, ["dealer D", "trump D", "A: AH 10H 3H 7H", "AS QS 2S 10S", "3 A: 4S 5S 7S 9S"])
    assert loose.text == strict.text and "trump D by A" in loose.text
    hands = Session()
    feed(hands, ["dealer D", "hands a: AS KS 4S AH JH 9H 6H AD QD JD 9D QC 5C",
                 "b: QS JS 6S 5S QH 10H 5H 5D 4D 3D 10C 4C 3C", "trump hearts by a {a comment: Hearts, b: kept}"])
    assert "      B: QS JS" in hands.text and "trump H by A {a comment: Hearts, b: kept}" in hands.text


@pytest.mark.parametrize("before, word, now", [
    ([], "clear", "the first dealer (A, B, C, D)"),
    (["dealer D"], "clear", "trump S, H, D or C"),
    (["dealer D", "trump D"], "hlep", "A's card"),
    (["dealer D", "trump D", "AH"], "xyzzy", "B's card"),
])
def test_an_unknown_word_is_answered_with_what_can_be_typed_now(before, word, now):
    session = Session()
    feed(session, before)
    text = session.text
    outcome = session.feed(word)
    assert not outcome.accepted and not outcome.errors        # no made-up line, no position outside the file
    assert f"'{word}' is not a card" in outcome.reason and now in outcome.reason
    assert ("did you mean help" in outcome.reason) == (word == "hlep")
    assert session.text == text
    # a wrong card is still the notation's to judge, with its code
    wrong = session.feed("1H")
    assert wrong.errors and "is not a card" not in wrong.reason
    assert wrong.errors[0].code in ("bad-card", "wrong-dealer", "missing-trump")


# ---- a revoke found later --------------------------------------------------------------------

def test_a_revoke_found_later_is_recorded_as_it_happened_and_validate_reports_a_ruling(tmp_path):
    session = Session(path="friday.dpn")
    feed(session, ["dealer D", "trump D", *REVOKED[:2], "4S 5S"])
    refused = session.feed("7S")             # C showed out of spades in trick 2: found now
    assert not refused.accepted and [e.code for e in refused.errors] == ["revoke"]
    assert "2C" in refused.errors[0].message and "revoke C at 2 stands" in refused.reason
    kept = session.feed("revoke C at 2 stands")
    assert kept.accepted and kept.saved and "7S kept as played" in kept.notes[0]
    assert not replay_game(parse_string(session.text)[0]).errors
    undone = session.feed("undo")            # the card goes, and the revoke it showed with it
    assert undone.accepted and "revoke" not in session.text.split("[Result")[1]
    assert not replay_game(parse_string(session.text)[0]).errors
    assert not session.feed("7S").accepted
    feed(session, ["revoke C at 2 stands", "9S", *REVOKED[3:]])
    text = session.text
    assert "revoke C at 2 stands" in text and " 2 A: AS QS 2C 10S" in text and " 3 A: 4S 5S 7S 9S" in text
    game = parse_string(text)[0]
    facts = replay_game(game)
    assert not facts.errors and [(e.code, e.line) for e in facts.ruled] == [("revoke", text[:text.index(
        " 2 A:")].count("\n") + 1)]
    assert write_game(game) == text          # the canonical form keeps the line
    # the deal is scored from the cards played: as the sample, whose play differs only in the two cards
    sample = replay_game(parse_string(WORKED.read_text(encoding="utf-8"))[0])
    assert facts.deals[0].tens == sample.deals[0].tens and facts.deals[0].winner == sample.deals[0].winner
    path = tmp_path / "friday.dpn"
    path.write_text(text, encoding="utf-8")
    checked = validate(path)
    assert checked.returncode == 0, checked.stdout
    assert re.search(r"friday\.dpn:\d+:13: revoke ruled at the table: C must follow suit .*the play stands",
                     checked.stdout)
    assert "all valid" in checked.stdout
    wrong = path.with_name("wrong.dpn")
    wrong.write_text(text.replace("revoke C at 2 stands", "revoke B at 2 penalty"), encoding="utf-8")
    bad = validate(wrong)
    assert bad.returncode == 1 and bad.stdout.count(": revoke:") == 2     # C's revoke, and B's that was not


def test_a_revoke_with_the_hands_known_is_kept_at_its_card_and_undo_takes_both_back():
    worked = [line for line in Session.resume(WORKED.read_text(encoding="utf-8"))[0].text.split("\n")
              if line.startswith(("hands", "      "))]
    session = Session()
    feed(session, ["dealer D", *[w.strip() for w in worked], "trump D", "AH 10H 3H 7H", "AS QS"])
    refused = session.feed("KH")             # C holds spades: refused at once
    assert [e.code for e in refused.errors] == ["revoke"] and "revoke C at 2 stands" in refused.reason
    before = session.text
    kept = session.feed("revoke C at 2 penalty")
    assert kept.accepted and "not yet in the record: AS QS KH}" in session.text
    assert "revoke C at 2 penalty" in session.text
    again, resumed = Session.resume(session.text)   # the trick under way and its revoke resume
    assert resumed and again.text == session.text
    undone = session.feed("undo")
    assert undone.accepted and session.text == before
    assert not session.feed("revoke B at 2 stands").accepted     # nobody else revoked


def test_a_revoke_line_that_names_no_revoke_is_refused():
    session = Session()
    feed(session, ["dealer D", "trump D", "AH 10H 3H 7H"])
    for line, words in [("revoke C at 1 stands", "no revoke"), ("revoke C at 5 stands", "not played yet"),
                        ("revoke C stands", "revoke SEAT at TRICK")]:
        outcome = session.feed(line)
        assert not outcome.accepted and words in (outcome.reason + " ".join(e.message for e in outcome.errors))


# ---- in a terminal of 80 columns -------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _lines(child) -> list[str]:
    """What the terminal shows, line by line (colours left out)."""
    return [_ANSI.sub("", line).rstrip() for line in child.before.replace("\r", "").split("\n")]


def test_at_80_columns_the_seats_the_prompts_help_and_a_revoke_fit_and_read_right(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "friday.dpn"
    child = pexpect.spawn(sys.executable, ["-m", "dehlanote", "record", path.name], env=env(COLUMNS="80"),
                          encoding="utf-8", timeout=60, dimensions=(24, 80), cwd=str(tmp_path))
    seen: list[str] = []

    def expect(pattern: str) -> None:
        child.expect(pattern)
        seen.extend(_lines(child) + [child.after])

    expect("Rules")
    child.sendline("")
    expect("Players")
    child.sendline("Asha, Bilal, Chitra, Dev")
    expect("First dealer")
    child.sendline("d")
    expect("names trump")
    picture = "\n".join(seen)
    assert "B on A's right" in picture and "anticlockwise" in picture
    rows = [line for line in seen
            if re.search(r"\b[A-D] (Asha|Bilal|Chitra|Dev) \((AC|BD)\)", line) and "◀" not in line]
    assert len(rows) == 3 and "Chitra" in rows[0] and "Dev" in rows[1] and "Bilal" in rows[1] and "Asha" in rows[2]
    assert rows[1].index("Dev") < rows[1].index("Bilal")      # D on A's left, B on A's right
    child.sendline("help")
    expect("quit ")
    child.sendline("clear")
    expect("Now: trump S, H, D or C")
    child.sendline("trump diamonds")
    expect("A leads")
    for trick in REVOKED[:2]:
        child.sendline(trick)
        expect(r"trick \d+: A leads")
    child.sendline("4S 5S")
    expect("C plays")
    child.sendline("7S")
    expect(r"revoke C at\s+2 stands")
    expect("C plays")
    child.sendline("revoke c at 2 stands")
    expect("7S kept as played")
    for trick in ["9S", *REVOKED[3:]]:
        child.sendline(trick)
        expect(r"trick \d+: . (leads|plays)|deal 2")
    expect("deal 2, dealer D")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    seen.extend(_lines(child))
    starts = (re.match(r"(deal \d+|First dealer|Players|Rules).*?> ", line) for line in seen)
    prompts = [m.group(0) for m in starts if m]
    assert prompts and all(len(line) <= 62 for line in prompts), [p for p in prompts if len(p) > 62]
    assert all(len(line) <= 80 for line in seen), [line for line in seen if len(line) > 80]
    text = path.read_text(encoding="utf-8")
    assert "revoke C at 2 stands" in text and validate(path).returncode == 0


def test_the_docs_python_example_of_the_store_runs(tmp_path, monkeypatch):
    text = (ROOT / "docs" / "record.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(from dehlanote\.record\.store .*?)```", text, re.DOTALL)
    assert block is not None
    monkeypatch.chdir(tmp_path)
    exec(compile(block.group(1), "record.md", "exec"), {})
    assert (tmp_path / "friday.dpn").read_text(encoding="utf-8") == '[Result "*"]\n\ndeal 1 dealer D\n'
    assert not list(tmp_path.glob(".*"))        # the lock file went with the lock


def test_with_the_output_sent_to_a_file_the_questions_stay_on_the_terminal(tmp_path):
    # record game.dpn > log at a terminal: the questions and the table went into the log, the
    # player saw nothing and the program seemed to hang; they go to the terminal (standard error)
    pexpect = pytest.importorskip("pexpect")
    log = tmp_path / "log"
    command = f"{sys.executable} -m dehlanote record friday.dpn > {log}"
    child = pexpect.spawn("/bin/sh", ["-c", command], env=env(COLUMNS="80"), encoding="utf-8", timeout=60,
                          dimensions=(24, 80), cwd=str(tmp_path))
    child.expect(r"Rules \(profile and options\) \[standard\]: ")
    child.sendline("")
    child.expect(r"Players A, B, C, D")
    child.sendline("Asha,Bilal,Chitra,Dev")
    child.expect(r"First dealer")
    child.sendline("D")
    child.expect(r"deal 1, dealer D: A names trump \(trump H\)> ")
    assert "A Asha (AC)" in child.before           # the table too
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert log.read_text(encoding="utf-8") == ""
    assert '[A "Asha"]' in (tmp_path / "friday.dpn").read_text(encoding="utf-8")
