"""The stepper without a terminal: the match as it stands, errors placed where they happened,
the one keymap, and the screen rendered at 80x24 and 120x40 (fixed frame, keys on the last row)."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from dehlanote import iter_path, parse_string, replay_game
from dehlanote.cli import app
from dehlanote.output.notes import deal_result_text
from dehlanote.output.stepper import Stepper, match_state, match_text, place_errors
from dehlanote.output.analysis_view import HANDS_UNKNOWN, Analyser, BackgroundAnalysis
from dehlanote.output.keys import STEPPER_KEYS, StepperKeys, action_for, help_rows, key_hints
from dehlanote.output.stepper_view import AnalysisShown, ScreenSize, fit_parts, stepper_screen

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parents[1] / "data"
WORKED = DATA / "worked-example.dpn"
SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))
FIXTURES = sorted(DATA.glob("*.dpn"))
SIZES = [ScreenSize(80, 24), ScreenSize(120, 40)]


def games(path: Path):
    return [replay_game(g) for g in iter_path(path)]


def broken_text() -> str:
    """The worked example with a revoke (B plays 3D to a spade lead in trick 3), a wrong leader
    (trick 4 written as led by D) and a wrong tens claim."""
    text = WORKED.read_text(encoding="utf-8")
    text = text.replace(" 3 A: 4S 5S 7S 9S", " 3 A: 4S 3D 7S 9S").replace(" 8 D: 8D 9D 3D 2C", " 8 D: 8D 9D 5S 2C")
    return text.replace("tens AC 3 BD 1", "tens AC 2 BD 2")


def leader_text() -> str:
    """The worked example with only a wrong leader (trick 3, line 20) and a wrong tens claim (line 31)."""
    text = WORKED.read_text(encoding="utf-8")
    return text.replace(" 3 A: 4S 5S 7S 9S", " 3 B: 4S 5S 7S 9S").replace("tens AC 3 BD 1", "tens AC 2 BD 2")


def unknown_text() -> str:
    """Deal 1 complete, deal 2 written but empty (its outcome unknown), deal 3 complete."""
    text = WORKED.read_text(encoding="utf-8").replace('[Rules "standard"]', '[Rules "standard streak=3"]')
    head, _, body = text.partition("deal 1 dealer D")
    body = "deal 1 dealer D" + body
    third = body.replace("deal 1 dealer D", "deal 3 dealer D")
    return head + body + "\ndeal 2 dealer D\n\n" + third


def render(stepper: Stepper, size: ScreenSize, control: StepperKeys | None = None) -> list[str]:
    console = Console(width=size.width, height=size.height, file=io.StringIO(), color_system=None,
                      legacy_windows=False)
    with console.capture() as capture:
        console.print(stepper_screen(stepper, names={"A": "Asha", "B": "Bilal"}, title="Worked example",
                                     control=control or StepperKeys(stepper), size=size))
    return capture.get().rstrip("\n").split("\n")


# ---- the match as it stands ------------------------------------------------------------------

@pytest.mark.parametrize("path", SAMPLES + FIXTURES, ids=lambda p: p.name)
def test_match_state_after_the_last_deal_agrees_with_the_result(path):
    for facts in games(path):
        if facts.rules is None or facts.result is None or not facts.deals:
            continue
        state = match_state(facts.deals, len(facts.deals), facts.rules, facts.result)
        assert state.kots == facts.result.kots
        if facts.result.finished is not None:
            assert state.over == facts.result.finished
            if state.over:
                assert state.winner == facts.result.winner
        if facts.result.points:
            assert state.points == facts.result.points


def test_match_state_before_each_deal_counts_the_kots_and_the_run():
    facts = games(ROOT / "samples" / "pagat-session.dpn")[0]
    rules = facts.rules
    for i, deal in enumerate(facts.deals):
        before = match_state(facts.deals, i, rules)
        assert sum(before.kots.values()) == sum(1 for d in facts.deals[:i] if d.kot is not None)
        after = match_state(facts.deals, i + 1, rules)
        if deal.complete and deal.kot is None and deal.streak is not None:
            assert after.streak == deal.streak
    text = match_text(match_state(facts.deals, 0, rules), rules)
    assert text.startswith("kots AC 0 BD 0 · no streak")


def test_an_unknown_deal_is_unknown_in_the_match_and_the_deal_result():
    facts = replay_game(parse_string(unknown_text())[0])
    assert [d.complete for d in facts.deals] == [True, False, True]
    rules = facts.rules
    after_unknown = match_state(facts.deals, 2, rules)
    assert after_unknown.streak == "unknown" and after_unknown.unknown == (2,)
    assert "streak unknown" in match_text(after_unknown, rules)
    assert "deal 2 unknown" in match_text(after_unknown, rules)
    lines = deal_result_text(facts.deals[1], rules, facts)
    assert "winner unknown" in lines[0] and "streak: unknown" in lines and "next dealer: unknown" in lines
    out = CliRunner().invoke(app, ["replay", "--plain", "-"], input=unknown_text()).stdout
    assert "winner unknown" in out and "streak unknown" in out and "deal 2 unknown" in out


# ---- errors where they happened ----------------------------------------------------------------

def test_errors_are_placed_at_the_card_the_trick_and_the_deal_end():
    facts = replay_game(parse_string(broken_text())[0])
    flags = {(f.error.code, f.error.line, f.error.column): f for f in place_errors(facts.deals, facts.errors)}
    revoke = flags[("revoke", 20, 10)]
    assert (revoke.deal, revoke.trick, revoke.card, revoke.played, revoke.at_end) == (0, 3, 1, 10, False)
    leader = flags[("wrong-leader", 21, 4)]
    assert (leader.trick, leader.card, leader.played) == (4, None, 13)
    tens = next(f for f in flags.values() if f.error.code == "tens-mismatch")
    assert tens.at_end and tens.played == 52 and tens.trick is None
    assert len(flags) == len(facts.errors)


def test_stepper_jumps_from_error_to_error_and_shows_them_where_they_are():
    facts = replay_game(parse_string(leader_text())[0])
    st = Stepper.of(facts)
    assert st.flags_here() == []
    assert st.next_error() and (st.played, st.snap.trick.number) == (9, 3)
    assert [f.error.code for f in st.flags_here()] == ["wrong-leader"]
    assert st.next_card() and [f.error.code for f in st.flags_here()] == ["wrong-leader"]   # same trick
    assert st.next_trick() and st.played == 12 and len(st.flags_here()) == 1    # trick 3 complete
    assert st.next_card() and st.flags_here() == []                            # trick 4
    assert st.next_error() and st.played == 52
    assert [f.error.code for f in st.flags_here()] == ["tens-mismatch"]
    assert not st.next_error()
    assert st.prev_error() and st.played == 9
    assert not st.prev_error()


def test_plain_replay_prints_each_error_after_the_card_at_fault():
    result = CliRunner().invoke(app, ["replay", "--plain", "-"], input=broken_text())
    lines = result.stdout.splitlines()
    at = lines.index("  B plays 3D")
    assert lines[at + 1].startswith("    ✗ revoke at 20:10: B must follow suit (spades led)")
    tens = next(i for i, line in enumerate(lines) if "tens-mismatch at 31:1" in line)
    assert lines[tens - 1] == "  next dealer: D"            # after the deal's result
    assert lines[tens + 1].startswith("  match: kots AC 0 BD 0")


# ---- one keymap ---------------------------------------------------------------------------------

def test_every_key_of_the_table_does_its_action_and_the_help_lists_them_all():
    seen: set[bytes] = set()
    for entry in STEPPER_KEYS:
        for key in entry.keys:
            assert key not in seen, key
            seen.add(key)
            assert action_for(key) == entry.action
    assert help_rows() == [(k.label, k.does) for k in STEPPER_KEYS]
    assert key_hints()[-2:] == ["? help", "q quit"]


def test_keys_drive_the_stepper():
    facts = replay_game(parse_string(leader_text())[0])
    st = Stepper.of(facts)
    keys = StepperKeys(st)
    assert not keys.press(b"n") and st.played == 1
    assert not keys.press(b"\x1b[B") and st.played == 4           # down: the end of the trick
    for key in b"t12\r":
        keys.press(bytes([key]))
    assert st.played == 48 and keys.prompt is None
    keys.press(b"9")
    assert keys.prompt == "9"
    keys.press(b"9")
    keys.press(b"\r")
    assert keys.message == "this deal has no trick 99" and st.played == 48
    keys.press(b"e")
    assert st.played == 52 and keys.message is None                # the tens claim at the deal's end
    keys.press(b"e")
    assert st.played == 9 and keys.message == "no error after this: back to the first"
    keys.press(b"?")
    assert keys.help
    keys.press(b"\x1b")
    assert not keys.help
    keys.press(b"x")
    assert keys.message == "press ? for the keys"
    assert keys.press(b"q")
    clean = StepperKeys(Stepper.of(games(WORKED)[0]))
    clean.press(b"e")
    assert clean.message == "no errors in this game"


# ---- the screen ----------------------------------------------------------------------------------

def _positions(st: Stepper):
    """Every card of the first two deals, then the deal ends of the others."""
    for i in range(len(st.deals)):
        st.deal, st.played = i, 0
        yield
        if i < 2:
            while st.played < st.last():
                st.played += 1
                yield
        else:
            st.played = st.last()
            yield


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s.width}x{s.height}")
@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_screen_fills_the_terminal_with_a_fixed_frame(path, size):
    facts = games(path)[0]
    st = Stepper.of(facts)
    frames = set()
    for _ in _positions(st):
        lines = render(st, size)
        assert len(lines) == size.height
        assert max(len(line) for line in lines) <= size.width
        assert "q quit" in lines[-1] and "? help" in lines[-1]
        assert lines[0].startswith("Worked example · Deal")
        # the info rows never wrap into each other: each of the three is there
        assert [line.split()[0] for line in lines if line.startswith(("Trump ", "Dealer ", "Run ", "Capture "))] \
            == ["Trump", "Dealer", "Run" if facts.rules.capture == "centre" else "Capture"]
        top = next(i for i, line in enumerate(lines) if "╭" in line)
        bottom = next(i for i, line in enumerate(lines) if "╰" in line)
        frames.add((top, lines[top].index("╭"), bottom, lines[bottom].index("╯")))
        if st.deal_over:
            assert any("the deal is over" in line for line in lines)
            assert not any("one more sweeps" in line for line in lines)
            assert any(line.startswith(f"Deal {st.deals[st.deal].number} over: ") for line in lines)
    assert len(frames) == 1, frames            # the trick box never moves nor changes size


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s.width}x{s.height}")
def test_screen_marks_the_card_at_fault_and_says_the_error_in_whole_words(size):
    facts = replay_game(parse_string(broken_text())[0])
    st = Stepper.of(facts)
    assert st.next_error()
    lines = render(st, size)
    text = "\n".join(lines)
    assert "B 3♦✗" in text
    words = " ".join(text.split())
    message = "revoke at 20:10: B must follow suit (spades led) and holds 3 spades (JS 6S 5S), but plays 3D"
    assert message in words                       # wrapped at spaces, never cut
    assert re.search(r"✗ \d+ errors \(e: next\)", lines[1])
    st.next_error()
    text = "\n".join(render(st, size))
    assert "trick 4 · B leads ✗" in text           # the trick itself is at fault


def test_screen_help_lists_the_keymap():
    st = Stepper.of(games(WORKED)[0])
    keys = StepperKeys(st)
    keys.press(b"?")
    text = "\n".join(render(st, ScreenSize(80, 24), keys))
    assert "Keys (? again to close)" in text
    for label, does in help_rows():
        assert does in text


def test_fit_parts_drops_whole_parts_and_keeps_the_last():
    parts = ["kots AC 0 BD 0", "run AC 2", "a long explanation that does not fit", "✗ 2 errors"]
    assert fit_parts(parts, 40, keep_last=1) == "kots AC 0 BD 0 · run AC 2 · ✗ 2 errors"
    assert fit_parts(parts, 200) == " · ".join(parts)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s.width}x{s.height}")
def test_screen_says_unknown_for_a_deal_whose_outcome_is_unknown(size):
    facts = replay_game(parse_string(unknown_text())[0])
    st = Stepper.of(facts)
    assert st.next_deal()
    lines = render(st, size)
    text = "\n".join(lines)
    assert "Deal 2 of 3 · no trick in the record" in lines[0]
    assert "streak unknown" in lines[1] and "deal 2 unknown" in lines[1]
    assert "winner unknown" in text and "streak: unknown · next dealer: unknown" in text
    assert st.next_deal()
    assert "streak unknown" in render(st, size)[1]            # the run going into deal 3 is not known either


@pytest.mark.parametrize("size", [ScreenSize(60, 20), ScreenSize(50, 15), ScreenSize(40, 10)],
                         ids=lambda s: f"{s.width}x{s.height}")
def test_a_small_terminal_loses_the_table_before_the_keys(size):
    facts = replay_game(parse_string(broken_text())[0])
    st = Stepper.of(facts)
    st.next_error()
    lines = render(st, size)
    assert len(lines) == size.height
    assert "? help" in lines[-1] and "q quit" in lines[-1]
    assert lines[0].startswith("Deal 1") or lines[0].startswith("Worked example · Deal 1")


def test_a_wrong_trump_claim_is_shown_at_the_card_that_set_trump():
    text = (DATA / "hukum.dpn").read_text(encoding="utf-8").replace("trump S by D at 3", "trump S by D at 4", 1)
    facts = replay_game(parse_string(text)[0])
    assert [e.code for e in facts.errors] == ["trump-mismatch"]
    st = Stepper.of(facts)
    flag = st.flags[0]
    assert flag.trick == 3 and flag.deal == 0
    trick = facts.deals[0].tricks[2]
    assert trick.plays[flag.card].seat == "D"                 # D's card that could not follow
    assert st.next_error() and st.snap.shown[-1].seat == "D"
    assert "D A♠✗" in "\n".join(render(st, ScreenSize(80, 24)))


def test_a_claimed_deal_ends_with_the_claim_in_the_result_and_the_piles():
    lines = WORKED.read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if not line.startswith(("11 A", "12 D", "13 D", "tens "))]
    text = "\n".join(kept).replace("10 A: JD 4D 3S 2D", "10 A: JD 4D 3S 2D\nclaim D") + "\n"
    facts = replay_game(parse_string(text)[0])
    assert facts.errors == () and facts.deals[0].claim is not None
    st = Stepper.of(facts)
    st.end()
    assert st.deal_over
    end = st.snap
    assert sum(end.piles.values()) == 52 and end.centre_cards == 0
    assert {side: len(tens) for side, tens in end.pile_tens.items()} == facts.deals[0].tens
    screen = "\n".join(render(st, ScreenSize(120, 40)))
    assert "D claims the rest (tricks 11 to 13): BD takes 16 cards with 10C" in screen
    plain = CliRunner().invoke(app, ["replay", "--plain", "-"], input=text).stdout
    assert "  D claims the rest (tricks 11 to 13): BD takes 16 cards with 10C" in plain


def test_a_message_keeps_the_keys_on_the_last_line():
    st = Stepper.of(games(WORKED)[0])
    keys = StepperKeys(st)
    keys.press(b"p")                                            # nowhere to go
    last = render(st, ScreenSize(80, 24), keys)[-1]
    assert last.startswith("the start of the record · ") and last.rstrip().endswith("? help · q quit")


def test_broken_records_step_without_a_fault_and_keep_the_frame():
    """Lines dropped, repeated or shuffled: every step still draws the whole frame with its keys."""
    import random

    rng = random.Random(7)
    sources = SAMPLES + FIXTURES
    for _ in range(15):
        lines = rng.choice(sources).read_text(encoding="utf-8").splitlines()
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(lines))
            if rng.random() < 0.4:
                del lines[i]
            else:
                words = lines[i].split(" ")
                a, b = rng.randrange(len(words)), rng.randrange(len(words))
                words[a], words[b] = words[b], words[a]
                lines[i] = " ".join(words)
        for game in parse_string("\n".join(lines) + "\n")[:1]:
            facts = replay_game(game)
            if facts.rules is None or not facts.deals:
                continue
            st = Stepper.of(facts)
            keys = StepperKeys(st)
            for key in [b"e"] * 4 + [b"N"] * 8 + [b"]", b"G", b"E", b"p"]:
                keys.press(key)
                out = render(st, ScreenSize(80, 24), keys)
                assert len(out) == 24 and "q quit" in out[-1], st.where()


# ---- the analysis (replay --analyse) -----------------------------------------------------------

# what the solver says of the worked example from trick 8: D's lead of 8D gives a ten away
MARK_8 = "D should have played 4H or KD or AC: AC 2–2 instead of 3–1"


def no_hands_text() -> str:
    """The worked example without its hands, stopped after trick 3: nothing to solve."""
    text = WORKED.read_text(encoding="utf-8")
    head, _, rest = text.partition("hands A:")
    rest = rest[rest.index("trump D by A"):]
    kept = [line for line in rest.splitlines() if not re.match(r"\s*([4-9]|1[0-3]) [A-D]:|tens AC", line)]
    return head + "\n".join(kept) + "\n"


def analysed_render(stepper: Stepper, size: ScreenSize, shown: AnalysisShown) -> list[str]:
    console = Console(width=size.width, height=size.height, file=io.StringIO(), color_system=None,
                      legacy_windows=False)
    with console.capture() as capture:
        console.print(stepper_screen(stepper, names={"A": "Asha"}, title="Worked example",
                                     control=StepperKeys(stepper), size=size, analysis=shown))
    return [line.rstrip() for line in capture.get().rstrip("\n").split("\n")]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s.width}x{s.height}")
def test_screen_shows_the_value_and_the_card_that_lost_a_ten(size):
    facts = games(WORKED)[0]
    view = Analyser(from_trick=8).view(facts.deals[0], facts.rules)
    assert view.tricks[8].value == "best play: AC 2 – BD 2 tens"
    assert view.tricks[8].marks == {0: ("?", MARK_8)}
    st = Stepper.of(facts)
    st.jump(7)
    st.next_card()                                  # D leads 8D in trick 8
    lines = analysed_render(st, size, AnalysisShown(view))
    assert len(lines) == size.height and max(len(line) for line in lines) <= size.width
    assert "q quit" in lines[-1]
    assert "Before trick 8, best play: AC 2 – BD 2 tens" in lines
    assert f"D 8♦? {MARK_8}" in lines
    assert any("D 8♦?" in line and "│" in line for line in lines)         # marked in the trick box
    st.jump(9)                                      # trick 9: kept its value, no mark
    lines = analysed_render(st, size, AnalysisShown(view))
    assert "Before trick 9, best play: AC 3 – BD 1 tens" in lines
    assert not any("should have played" in line for line in lines)
    st.jump(3)                                      # before the analysis starts: said once, no value
    lines = analysed_render(st, size, AnalysisShown(view))
    assert "analysis: analysed from trick 8" in lines
    assert not any("best play" in line for line in lines)


def test_a_deal_with_a_revoke_is_analysed_around_it_and_says_why_in_a_sentence():
    """The analysis of a deal with a revoke leaves the revoke's trick out, analyses the tricks
    before and after it, and says so as "analysed from trick 6; not analysed: trick 8: B's 5S is
    not a legal card here": a sentence of its own, not one about the earlier tricks (that wording
    is kept for the time limit: "earlier tricks not solved in time"). It once stopped there
    ("analysed from trick 9"), while solve refused the whole deal."""
    facts = replay_game(parse_string(broken_text())[0])
    view = Analyser(from_trick=6).view(facts.deals[0], facts.rules)
    assert view.note == "analysed from trick 6; not analysed: trick 8: B's 5S is not a legal card here"
    assert sorted(view.tricks) == [6, 7, *range(9, 14)]


def test_screen_says_what_the_solver_does_until_it_is_done():
    facts = games(WORKED)[0]
    st = Stepper.of(facts)
    lines = analysed_render(st, SIZES[0], AnalysisShown(None, "analysis: solving deal 1… 3 of 13 tricks, 2 s"))
    assert "analysis: solving deal 1… 3 of 13 tricks, 2 s" in lines


def test_background_analysis_solves_the_deal_shown_and_equals_the_direct_one():
    facts = games(WORKED)[0]
    direct = Analyser(from_trick=8).view(facts.deals[0], facts.rules)
    background = BackgroundAnalysis(facts.deals, facts.rules, Analyser(from_trick=8))
    try:
        background.want(0)
        end = time.monotonic() + 120
        while not background.finished(0):
            assert time.monotonic() < end, "the solver never finished a 6-trick ending"
            time.sleep(0.05)
        assert background.view(0) == direct
    finally:
        background.stop()


class _SlowFirstDeal:
    """An analyser whose deal 1 takes 20 s (a progress call every 10 ms), every other deal a blink."""

    def __init__(self):
        self.asked: list[int] = []

    def cached(self, fact, rules):
        return None

    def view(self, fact, rules, progress=None, partial=None):
        from dehlanote.output.analysis_view import DealView

        self.asked.append(fact.number)
        if fact.number == 1:
            for k in range(2000):
                progress(k, 2000)
                time.sleep(0.01)
        return DealView(fact.number, "", {})


@pytest.mark.parametrize("opened", ["--deal", "a later key"])
def test_the_deal_on_screen_is_solved_first_not_after_deal_one(opened):
    """``replay --analyse --deal 3`` said "deal 3 waits for deal 1 to be solved" for as long as
    deal 1 took (a minute or more): the thread always began at deal 1, and a deal stepped to
    waited for the whole deal being solved. The deal on screen now comes first, at once."""
    facts = games(ROOT / "samples" / "match.dpn")[0]
    slow = _SlowFirstDeal()
    if opened == "--deal":
        background = BackgroundAnalysis(facts.deals, facts.rules, slow, start=2)
    else:
        background = BackgroundAnalysis(facts.deals, facts.rules, slow)
        time.sleep(0.1)                             # deal 1 under way
    try:
        background.want(2)
        end = time.monotonic() + 3
        while not background.finished(2):
            assert time.monotonic() < end, background.status(2)
            time.sleep(0.02)
        assert not background.finished(0)           # deal 1 is solved again later, not lost
    finally:
        background.stop()


def test_a_solve_given_way_to_the_deal_on_screen_is_not_a_solver_fault():
    from dehlanote.output import analysis_view

    def elsewhere(done, total):
        raise analysis_view._Preempted

    facts = games(WORKED)[0]
    with pytest.raises(analysis_view._Preempted):
        Analyser(from_trick=12).view(facts.deals[0], facts.rules, elsewhere)


def test_a_deal_without_hands_is_not_analysed_and_says_so_at_once():
    facts = replay_game(parse_string(no_hands_text())[0])
    assert not facts.errors and facts.deals[0].dealt == {}
    background = BackgroundAnalysis(facts.deals, facts.rules, Analyser())
    try:
        view = background.view(0)
        assert background.finished(0) and view is not None
        assert view.note == HANDS_UNKNOWN and not view.tricks
    finally:
        background.stop()
    st = Stepper.of(facts)
    st.jump(2)
    lines = analysed_render(st, SIZES[0], AnalysisShown(view))
    assert lines.count("analysis: not analysed: hands unknown") == 1


def test_a_solver_fault_costs_the_deal_its_analysis_not_the_replay(monkeypatch):
    import dehlanote.output.analysis_view as view_module

    def broken(*args, **kw):
        raise IndexError("tuple index out of range")

    monkeypatch.setattr(view_module, "analyse_deal", broken)
    facts = games(WORKED)[0]
    view = Analyser(from_trick=12).view(facts.deals[0], facts.rules)
    assert view.note == "not analysed: the solver failed (IndexError: tuple index out of range)"
    assert not view.tricks


def test_the_records_glyphs_and_comments_show_at_their_card_and_trick():
    """The worked example's trick 7 is ``8S 10D? KS JS {D trumps with the ten of trumps...}``: the
    glyph shows at 10D as soon as it is down; the comment written after JS, the trick's last card,
    is the trick's note once the trick is complete, never a remark on JS."""
    st = Stepper.of(replay_game(parse_string(WORKED.read_text(encoding="utf-8"))[0]))
    assert st.goto(1, 7)
    while st.snap.trick.number != 7 or len(st.snap.shown) != 2:
        assert st.prev_card()
    screen = "\n".join(render(st, ScreenSize(120, 40)))
    assert re.search(r"D 10♦\?|D 10D\?", screen), screen
    assert "ten of trumps" not in screen                    # the trick's note waits for its last card
    assert st.next_card() and st.next_card()                # JS: the trick is complete
    screen = "\n".join(render(st, ScreenSize(120, 40)))
    assert "Trick 7: D trumps with the ten of trumps" in screen
    assert not re.search(r"J♠:|JS:", screen)
    out = CliRunner().invoke(app, ["replay", "--plain", str(WORKED)]).stdout
    lines = out.splitlines()
    i = lines.index("  B plays JS")
    assert lines[i + 1] == "  D wins trick 7"        # the trick, then its note, never said of JS
    assert lines[i + 4] == "    Trick 7: D trumps with the ten of trumps, but it stays in the centre"
    assert lines[lines.index("  D plays 10D") + 1] == "    D 10D?"


_SUIT_RUN = re.compile(r"[♠♥♦♣] ((?:10|[AKQJ2-9])+(?:…\+(\d+))?(?: (?:10|[AKQJ2-9])+)*)")


def _cards_shown(lines: list[str]) -> int:
    """The cards the hands on a screen show: every rank after a suit symbol, and the N of a cut ``…+N``."""
    shown = 0
    for line in lines:
        if line.startswith("Trump"):
            continue
        for m in _SUIT_RUN.finditer(line):
            shown += len(re.findall(r"10|[AKQJ2-9]", m.group(1).split("…")[0])) + int(m.group(2) or 0)
    return shown


LONG_SUITS = """[A "Asha"] [B "Bilal"] [C "Chitra"] [D "Dev"]
[Rules "standard"]

deal dealer D
hands A: AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
      B: AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
      C: AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D
      D: AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C
trump S by A
1 AS 2H 2D 2C
"""


@pytest.mark.parametrize("size", [ScreenSize(80, 24), ScreenSize(50, 24), ScreenSize(120, 40), ScreenSize(100, 22)],
                         ids=lambda s: f"{s.width}x{s.height}")
@pytest.mark.parametrize("source", ["standard-six-player.dpn", "long suits"])
def test_every_card_of_every_hand_is_on_the_screen(source, size):
    """A suit too long for its place runs its ranks together (KJ109...) instead of wrapping onto a
    line of its own: six players' hands have a fixed number of lines, and the wrapped line pushed
    the last suit (clubs) off the screen, leaving its ranks under the diamonds."""
    text = LONG_SUITS if source == "long suits" else (ROOT / "samples" / source).read_text(encoding="utf-8")
    for game in parse_string(text):
        st = Stepper.of(replay_game(game))
        for i in range(len(st.deals)):
            st.deal, st.played = i, 0
            lines = render(st, size)
            held = sum(len(cards) for cards in st.snap.hands.values())
            assert held and _cards_shown(lines) == held, "\n".join(lines)
            # each hand shows every suit: four suit lines a seat
            assert sum(line.count(sym) for line in lines if not line.startswith("Trump")
                       for sym in "♠♥♦♣") >= 4 * len(st.snap.hands)


@pytest.mark.parametrize("args", [["annotate", "--letters"], ["replay", "--plain", "--letters"]])
@pytest.mark.parametrize("option", [["--dd"], ["--worlds", "4"], ["--seed", "3"]])
def test_a_judgement_option_asks_for_the_analysis(args, option):
    """``annotate --dd FILE`` was a plain annotate: --dd, --worlds and --seed speak of the
    analysis only, and were dropped without a word unless --analyse was given too. They now
    turn the analysis on, as --analyse-from does (here on a deal it cannot solve, hands
    unknown: said at once)."""
    text = WORKED.read_text(encoding="utf-8")
    text = text.replace(text[text.index("hands A:"):text.index("trump D by A")], "")
    text = text[:text.index("13 D:")]
    out = CliRunner().invoke(app, [*args, "-", *option], input=text).output
    assert "analysis: not analysed" in out, out[-600:]
    plain = CliRunner().invoke(app, [*args, "-"], input=text).output
    assert "analysis" not in plain
