"""Fuzzing: mutated records, raw bytes and arbitrary text never crash, hang or lose a game.

Valid records (the samples, and generated matches of every profile in the plain and the
loose style) are mutated by Hypothesis: tokens and lines deleted, duplicated, swapped and
corrupted, cards turned into non-cards, numbers made absurd, tricks shuffled, the text cut
anywhere, unicode and lines of the notation's vocabulary inserted, bytes that are not
UTF-8 added. For every input the library and the command line either succeed or report
errors with a code of ``dehlanote.errors.CODES`` at a position inside the input; nothing
else escapes, exit statuses are 0, 1 or 2 and no traceback is printed.

The harness is ``tests/fuzz/dpnfuzz.py``; ``tests/fuzz/campaign.py`` runs it for as long as
you like. Here the number of examples is bounded (under a minute in all);
``DEHLANOTE_FUZZ_EXAMPLES`` multiplies it.
"""

from __future__ import annotations

import io
import os
import re
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import dpnfuzz as F  # noqa: E402

from dehlanote import iter_games, parse_string, replay_game  # noqa: E402
from dehlanote.syntax.parser import paused_gc  # noqa: E402

SCALE = float(os.environ.get("DEHLANOTE_FUZZ_EXAMPLES", "1"))
SEED_NAMES = [name for name, _ in F.seeds()]
runner = CliRunner()


@pytest.fixture(autouse=True)
def _collector_paused():
    """Each test here runs with the garbage collector paused (restored after it): the inputs'
    games, facts and JSON are freed by reference counting, and the collector rescanning them
    as Lark built them took a quarter of the time. Nothing checked changes."""
    with paused_gc():
        yield


def fuzz_settings(examples: int) -> settings:
    return settings(max_examples=max(1, int(examples * SCALE)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


payloads = st.one_of(st.just(""), st.sampled_from(F.UNICODE), st.text(max_size=4),
                     st.sampled_from(F.NON_CARDS))
positions = st.integers(min_value=0, max_value=1 << 20)
text_mutation = st.tuples(st.sampled_from(F.KINDS), positions, positions, payloads)
byte_mutation = st.tuples(st.sampled_from(F.BYTE_KINDS), positions, positions, st.just(""))
seed_names = st.sampled_from(SEED_NAMES)
blocks = st.sampled_from([None, 1, 2, 7, 64, 4096])


# ---- the seeds and the mutations themselves ------------------------------------------------

def test_seeds_cover_every_profile_and_both_styles_and_are_valid():
    names = " ".join(SEED_NAMES)
    for profile, _options in F.PROFILES:
        assert f"generated {profile}" in names
    assert "loose" in names and "plain" in names and "samples/" in names
    for name, text in F.seeds():
        games = parse_string(text)
        assert games, name
        for game in games:
            assert replay_game(game).errors == (), name


@pytest.mark.parametrize("kind", F.KINDS + F.BYTE_KINDS)
def test_every_mutation_changes_a_record(kind):
    text = F.seed_text("samples/worked-example.dpn")
    changed = 0
    for i in range(0, 400, 7):
        mutated = F.apply_bytes(text, [(kind, i * 7919, i * 104729, "")])
        changed += mutated != text.encode("utf-8")
    assert changed > 0


# ---- what campaigns and hostile inputs found: each stays fixed ------------------------------------

WORKED = F.seed_text("samples/worked-example.dpn")
FOUND = [
    # a comment left open, closed by a } in a later game's header: that game vanished
    WORKED + "\n" + WORKED.replace("{the non-dealing side AC wins the deal; D deals again}", "{ouch") + "\n" + WORKED,
    # the same, read as one game from a string and as two from a stream (campaign finding)
    '{\n[s""]{\ndeal\n[}',
    # numbers beyond int()'s 4,300 digits
    "deal " + "1" * 5000 + " dealer D\n", "deal 1 dealer D\n" + "9" * 4400 + " A: AH KH QH JH\n",
    "deal 1 dealer D\ntrump S at " + "0" * 4400 + "1\n",
    # a Unicode digit that int() refuses in a Rules option
    '[Rules "pagat kots=²"]\ndeal 1 dealer D\n',
    # a game cut short in its tags took the next game with it
    '[Event "a"]\n[Site "the pho\n\n' + WORKED,
    # control characters in messages
    '[Date "\x1b[2J"]\ndeal 1 dealer D\n 1 \x1b AH\n',
    # a long tag value, then an error (time quadratic in the value's length)
    '[Event "' + "x" * 30_000 + '"]\n?\n',
    # issue 16: a { left open in the tags swallowed the next game (validate said "all valid")
    '[Event "one"] {unclosed\n\n' + WORKED,
    # ... took the next game's first tag and its comment
    WORKED.replace("{the non-dealing side AC wins the deal; D deals again}", "{oops") + "\n"
    + WORKED.replace('[Rules "standard"]', '[Rules "pagat kots=3"] {house}'),
    # ... a cut in the next game's opening comment wiped out the deals before it
    WORKED + "\n{Round 2, played at the club aft",
    # the word deal in a comment stopped recovery after a syntax error
    '[Event "one"] oops {the deal was lost}\n\n' + WORKED,
    # a stray tag after the deals merged into the next game's header
    WORKED + '[Event "stray"]\n\n' + WORKED,
    # fmt moved a comment holding a tag line in front of the next deal
    WORKED.replace("tens AC 3 BD 1", 'tens AC {score sheet said\n[Round "1"]} 3 BD 1'),
    # a comment holding CR before a newline was not written back the same
    WORKED.replace("{diamonds}", "{dia\r\r\nmonds}"),
    # campaign: a near miss between two games took the next game's opening comment
    F.seed_text("generated pagat kots=0 seed=10011 loose").rstrip("\n") + "\n1\n\n"
    + F.seed_text("samples/loose-style.dpn"),
    # DPN 1.1: deal 1 after a deal starts a game with no tags
    WORKED + WORKED.split("\n\n", 1)[1] + WORKED.split("\n\n", 1)[1],
    # campaign: a { left open closed by the next game's opening comment (that comment was lost)
    F.seed_text("samples/standard-closed-trump.dpn") + "{a}{" + F.seed_text("samples/loose-style.dpn"),
    # campaign: looking for a game start in a comment read the next block, which the search
    # for the comment's } then skipped (a stream gave other games than the string)
    "{\n\ndeal}[",
    # campaign: a trick of one card before the first void: the trump set there was looked up by
    # its number among the tricks replayed (IndexError: the short trick is not among them)
    '[Rules"hukum"]deal dealer D\ntrump D 6 7C\n8 AD QS 6D JD\n0 10S',
    '\n 1 A: A BDF \t [ A 1 -AH BDF F 0 KH! AH F at " 13 AC C by \t BDF 0 \r\n AC trump C " S C closed AC \n\n at '
    'E | [Result "AC"] A E F [Event "x"] E [Rules "pagat"] AH deal E | S dealer dealer \u2660 1 D td | by trump '
    'closed 13 H hands A: deal td A [Event "x"] { misdeal \r\n \n H B 14 AH ACE D ACE 14 drawn A by deal at B KH! ] '
    '2 closed S 10S 13 tens A B 14 [Event "x"] AC drawn trump [Event "x"] } A: B: BDF D F D tens dealer drawn | '
    "dealer ACE |",
]


@pytest.mark.parametrize("text", FOUND, ids=lambda t: repr(t[:24]))
@pytest.mark.parametrize("block", [None, 1, 7, 64])
def test_what_was_found_stays_fixed(text, block):
    F.check_library(text, block=block)
    F.check_fast_path(text)
    F.check_round_trip(text)


@pytest.mark.parametrize("text", FOUND, ids=lambda t: repr(t[:24]))
def test_what_was_found_stays_fixed_on_the_command_line(text, tmp_path):
    path = tmp_path / "found.dpn"
    path.write_text(text, encoding="utf-8")
    games = len(parse_string(text))
    for args in (("validate", "--format", "json"), ("json",), ("fmt",), ("annotate",)):
        F.check_cli(path, args, runner=runner, expected_games=games if args[0] in ("json", "validate") else None)


# ---- the library ------------------------------------------------------------------------------

@fuzz_settings(120)
@given(name=seed_names, mutations=st.lists(text_mutation, min_size=1, max_size=6), block=blocks)
def test_mutated_records_give_coded_errors_inside_the_input(name, mutations, block):
    text = F.apply(F.seed_text(name), mutations)
    note(repr(text[:2000]))
    F.check_library(text, block=block)


@fuzz_settings(60)
@given(name=seed_names, mutations=st.lists(text_mutation, min_size=1, max_size=4))
def test_the_fast_path_reads_mutated_records_as_lark_does(name, mutations):
    F.check_fast_path(F.apply(F.seed_text(name), mutations))


@fuzz_settings(60)
@given(name=seed_names, mutations=st.lists(st.one_of(text_mutation, byte_mutation), min_size=1, max_size=5),
       block=st.sampled_from([None, 1, 3, 100]))
def test_mutated_bytes_give_encoding_errors_with_their_offset(name, mutations, block):
    data = F.apply_bytes(F.seed_text(name), mutations)
    note(repr(data[:2000]))
    F.check_bytes(data, block=block)


@fuzz_settings(100)
@given(text=st.text(max_size=400), block=blocks)
def test_arbitrary_text(text, block):
    F.check_library(text, block=block)


@fuzz_settings(100)
@given(data=st.binary(max_size=400))
def test_arbitrary_bytes(data):
    F.check_bytes(data, block=5)


soup_words = st.sampled_from([
    "deal", "dealer", "misdeal", "hands", "trump", "by", "at", "closed", "drawn", "tens", "A", "B", "C",
    "D", "E", "F", "A:", "D:", "AC", "BD", "ACE", "BDF", "S", "h", "♠", "1", "2", "13", "14", "0", "AH",
    "10S", "td", "-AH", "KH!", "q♡??", "|", "[", "]", '"', "{", "}", "{x}", '[Event "x"]', '[Rules "pagat kots=0"]',
    '[Rules "nonsense"]', '[Result "BD"]', '[Result "*"]', "\n", "\n\n", "\t", "\r\n", "\ufeff", "\x00",
])


@fuzz_settings(80)
@given(words=st.lists(soup_words, max_size=80), block=blocks)
def test_a_soup_of_the_notations_words(words, block):
    F.check_library(" ".join(words), block=block)


@fuzz_settings(25)
@given(names=st.lists(seed_names, min_size=2, max_size=4),
       mutations=st.lists(text_mutation, min_size=1, max_size=4), which=st.integers(0, 3))
def test_a_broken_game_among_good_ones_loses_nothing(names, mutations, which):
    texts = [F.seed_text(n) for n in names]
    which %= len(texts)
    texts[which] = F.apply(texts[which], mutations)
    text = "\n".join(texts)
    games = F.check_library(text, block=64)
    good = [t for i, t in enumerate(texts) if i != which]
    # every game that was not touched is still read, and read valid (a mutation may also
    # merge the broken game into its neighbour: then only the neighbour's count is lost)
    valid = sum(1 for g in parse_string(text) if not replay_game(g).errors)
    assert games >= len(texts) - 2
    assert valid >= len(good) - 1


# ---- the command line ---------------------------------------------------------------------------

runner = CliRunner()


@fuzz_settings(12)
@given(name=seed_names, mutations=st.lists(st.one_of(text_mutation, text_mutation, byte_mutation),
                                           min_size=1, max_size=4))
def test_commands_on_mutated_records_exit_0_1_or_2_without_a_traceback(name, mutations):
    data = F.apply_bytes(F.seed_text(name), mutations)
    games = len(list(iter_games(io.BytesIO(data))))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.dpn"
        path.write_bytes(data)
        for args in F.CLI_COMMANDS:
            F.check_cli(path, args, runner=runner,
                        expected_games=games if args[0] in ("json", "validate") else None)
        assert path.read_bytes() == data, "a command changed its input"


@fuzz_settings(10)
@given(text=st.text(max_size=200))
def test_commands_on_arbitrary_text(text):
    assume(text.strip())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.dpn"
        path.write_text(text, encoding="utf-8")
        games = len(parse_string(text))
        for args in (("validate",), ("validate", "--format", "json"), ("json",), ("fmt",), ("annotate",)):
            F.check_cli(path, args, runner=runner,
                        expected_games=games if args[0] in ("json", "validate") else None)


# ---- DPN 1.1: nothing between two games, and no cut, changes the games around it (issue 16) ------

between = st.one_of(st.sampled_from(F.BETWEEN), st.sampled_from(F.UNICODE), st.sampled_from(F.LINES),
                    st.text(max_size=12)).filter(F.between_payloads)


@fuzz_settings(60)
@given(first=seed_names, second=seed_names, payload=between, block=blocks)
def test_a_mutation_between_two_valid_games_leaves_the_next_game_whole(first, second, payload, block):
    note(repr(payload))
    F.check_between(F.seed_text(first), payload, F.seed_text(second), block=block)


@fuzz_settings(40)
@given(first=seed_names, second=seed_names, mutations=st.lists(text_mutation, min_size=1, max_size=3))
def test_a_mutated_game_between_two_valid_ones_leaves_the_last_whole(first, second, mutations):
    # a mutated record without tags and blank lines (those may start a game of their own)
    mutated = re.sub(r"\n\s*\n", "\n", F.apply(F.seed_text(first), mutations).replace("[", "("))
    assert F.between_payloads(mutated)
    F.check_between(F.seed_text(first), mutated, F.seed_text(second))


def _two_games() -> str:
    return WORKED + "\n{Round 2, played at the club}\n" + WORKED.replace("Worked example", "Round 2")


def test_cuts_at_every_byte_around_a_game_boundary_keep_the_game_before():
    text = _two_games()
    data = text.encode("utf-8")
    boundary = len(WORKED.encode("utf-8"))
    cuts = set(range(max(0, boundary - 60), min(len(data), boundary + 400))) | set(range(0, len(data) + 1, 97))
    for cut in sorted(cuts):
        F.check_cut(text, cut)


@fuzz_settings(40)
@given(name=seed_names, other=seed_names, at=st.integers(min_value=0, max_value=1 << 20))
def test_a_cut_anywhere_keeps_every_game_before_it(name, other, at):
    text = F.seed_text(name).rstrip("\n") + "\n\n" + F.seed_text(other)
    F.check_cut(text, at % (len(text.encode("utf-8")) + 1))


@fuzz_settings(80)
@given(name=seed_names, mutations=st.lists(text_mutation, min_size=0, max_size=3))
def test_the_canonical_form_reads_back_as_the_same_record(name, mutations):
    # the fmt round trip as a property: every valid game among mutated records
    F.check_round_trip(F.apply(F.seed_text(name), mutations))
