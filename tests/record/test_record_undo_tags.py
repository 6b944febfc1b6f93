"""``undo`` after a tag line takes the tag back, as it takes back the card or line kept last:
a tag typed could not be undone (``undo`` said "nothing to undo", or, once a deal was under
way, took back the deal's last line instead, typed before the tag)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from dehlanote.record import Session

ROOT = Path(__file__).resolve().parents[2]


def feed(session: Session, *lines: str) -> None:
    for line in lines:
        outcome = session.feed(line)
        assert outcome.accepted, (line, outcome.reason, [str(e) for e in outcome.errors])


def test_undo_after_a_tag_takes_the_tag_back_not_the_line_before():
    session = Session(tags=(("A", "Asha"),))
    feed(session, '[Event "Friday"]', "dealer D", "trump D", '[Event "Saturday"]')
    before = session.text
    outcome = session.feed("undo")
    assert outcome.accepted and outcome.saved
    assert outcome.notes == ('took back [Event "Saturday"]: [Event "Friday"] again',)
    assert '[Event "Friday"]' in session.text and "Saturday" not in session.text
    assert "trump D" in session.text and session.text == before.replace("Saturday", "Friday")


def test_undo_walks_back_through_cards_and_tags_in_the_order_they_were_typed():
    session = Session()
    feed(session, "dealer D", '[Site "club"]', "trump D", "AH 10H", '[B "Bilal"]')
    notes = [session.feed("undo").notes for _ in range(6)]
    assert notes == [('took back [B "Bilal"]',), ("took back 10H",), ("took back AH",),
                     ("took back the trump line",), ('took back [Site "club"]',), ("took back the deal line",)]
    assert "Site" not in session.text and "Bilal" not in session.text and "deal 1" not in session.text
    assert not session.feed("undo").accepted


def test_undo_of_a_rules_tag_gives_the_rules_back():
    session = Session()
    feed(session, '[Rules "pagat"]', "dealer D")
    assert session.state.rules.name == "pagat"
    feed(session, "undo", "undo")
    assert session.state.rules.name == "standard" and '[Rules "standard"]' in session.text
    feed(session, "dealer D", "trump D")        # the game goes on under the rules given back


def test_a_tag_typed_before_a_comment_on_it_stays_with_undo():
    # the comment was kept after the tag: undo does not reach back past it to the tag
    session = Session()
    feed(session, '[Event "Friday"]', "{at Asha's}")
    outcome = session.feed("undo")
    assert not outcome.accepted and '[Event "Friday"] {at Asha\'s}' in session.text
    # (not "no tag typed yet": one was)
    assert outcome.reason.startswith("nothing to undo: a comment is not taken back, nor the tags before it")


def test_the_recorder_at_a_terminal_takes_back_a_tag(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "friday.dpn"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).strip(os.pathsep)
    child = pexpect.spawn(sys.executable, ["-m", "dehlanote", "record", path.name, "--dealer", "D", "--names",
                                           "Asha,Bilal,Chitra,Dev", "--no-sync", "--rules", "standard"],
                          env=env, encoding="utf-8", timeout=60, dimensions=(40, 100), cwd=str(tmp_path))
    child.expect("names trump")
    child.sendline('[Event "Frday"]')
    child.expect("names trump")
    assert '[Event "Frday"]' in path.read_text(encoding="utf-8")
    child.sendline("undo")
    child.expect('took back \\[Event "Frday"\\]')
    child.expect("names trump")
    assert "Event" not in path.read_text(encoding="utf-8")
    assert "deal 1 dealer D" in path.read_text(encoding="utf-8")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_undo_after_end_takes_back_the_end_line_only():
    # an open-ended session ended by mistake: undo took back the last deal's last card with the end
    text = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    import re
    session = Session("pagat kots=0")
    for line in text.splitlines():
        line = re.sub(r"\{[^}]*\}", "", line).strip()
        if line and not line.startswith("["):
            feed(session, re.sub(r"^\d+\s+[A-F]:\s*", "", line))
    before = session.text
    feed(session, "end")
    assert session.state.result == "=" and '[Result "="]' in session.text
    outcome = session.feed("undo")
    assert outcome.accepted and outcome.notes == ("took back the end of the session",)
    assert session.state.result is None and session.text == before
    feed(session, "undo")
    assert "12 D: AC QC 3C JC {unfinished trick 13, not yet in the record: 6D 9H 6S}" in session.text
