"""Defects of the notation tools (validate, json, fmt, annotate, the language server) found
by a hostile reading, each checked as a user meets it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from dehlanote.cli import app
from dehlanote.output import jsonout

ROOT = Path(__file__).resolve().parents[2]
ONE = ROOT / "tests" / "data" / "one-deal.dpn"
runner = CliRunner()


def run(*args: object, input: str | None = None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def console(*args: object, input: str = "") -> subprocess.CompletedProcess[str]:
    """The real command (json takes its direct path there, without typer)."""
    return subprocess.run([sys.executable, "-m", "dehlanote", *map(str, args)], input=input,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


# ---- comments in no game ---------------------------------------------------------------------

NOTES = "{notes for the next club evening}\n\n{who brings\nthe cards}\n"


def test_json_keeps_a_file_of_comments_alone():
    # printf '{note}\n' | dehlanote json -  gave {"games": []}: the comment was lost
    for result in (console("json", "-", input=NOTES), run("json", "-", input=NOTES)):
        assert getattr(result, "returncode", getattr(result, "exit_code", None)) == 0
        doc = json.loads(result.stdout)
        jsonschema.validate(doc, jsonout.schema())
        assert doc["games"] == []
        assert doc["comments"] == [{"comments": ["notes for the next club evening", "who brings\nthe cards"],
                                    "after_games": 0, "line": 1, "column": 1}]


def test_json_places_comments_in_no_game_among_the_games_of_several_files(tmp_path):
    notes = tmp_path / "notes.dpn"
    notes.write_text("\n  {between}\n", encoding="utf-8")
    result = console("json", "--compact", ONE, notes, ONE)
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, jsonout.schema())
    assert len(doc["games"]) == 2
    assert doc["comments"] == [{"comments": ["between"], "after_games": 1, "line": 2, "column": 3}]


def test_json_without_such_comments_has_no_comments_key():
    doc = json.loads(console("json", ONE).stdout)
    assert "comments" not in doc


def test_annotate_dpn_keeps_a_file_of_comments_alone(tmp_path):
    notes = tmp_path / "notes.dpn"
    notes.write_text(NOTES, encoding="utf-8")
    result = run("annotate", "--format", "dpn", notes)
    assert result.exit_code == 0
    assert result.stdout == NOTES
    # among games: in its place, a blank line from the games around it
    result = run("annotate", "--format", "dpn", ONE, notes, ONE)
    assert result.exit_code == 0
    assert "tens AC 3 BD 1 {AC wins" in result.stdout
    assert "}\n\n" + NOTES + "\n[Rules" in result.stdout
    assert run("annotate", "--format", "dpn", "-", input="{note}\n").stdout == "{note}\n"


def test_annotate_text_says_a_file_holds_no_game_and_shows_its_comments(tmp_path):
    # printf '{note}\n' | dehlanote annotate -  printed nothing at all (exit 0)
    result = run("annotate", "-", input=NOTES)
    assert result.exit_code == 0
    assert result.stdout == ("<stdin>: no game in this file, only comments:\n"
                             "{notes for the next club evening}\n{who brings the cards}\n")
    # as the comments of a game are shown: control characters as their pictures
    assert run("annotate", "-", input="{\x1b[31mred\x07}").stdout.endswith("\n{\u241b[31mred\u2407}\n")
    assert run("annotate", "-", input="").stdout == "<stdin>: no game in this file\n"
    notes = tmp_path / "notes.dpn"
    notes.write_text(NOTES, encoding="utf-8")
    text = run("annotate", ONE, notes, ONE).stdout
    assert text.count("Game 1") == 2 and f"\n\n{notes}: no game in this file, only comments:\n" in text


# ---- the Result tag -----------------------------------------------------------------------------

def _with_result(tmp_path: Path, value: str) -> Path:
    path = tmp_path / "r.dpn"
    path.write_text(ONE.read_text(encoding="utf-8").replace('[Result "*"]', f'[Result "{value}"]'), encoding="utf-8")
    return path


def test_result_with_spaces_is_a_bad_tag_as_lowercase_is(tmp_path):
    # [Result " AC"] was taken as AC (result-mismatch here) while [Result "ac"] was bad-tag
    # with no check of the claim; now both are bad-tag, and the side they spell is checked
    mismatch = [("result-mismatch", 2, 1)]
    for value, says, then in ((" AC", 'has spaces inside its quotes: write [Result "AC"]', mismatch),
                              ("BD ", 'has spaces inside its quotes: write [Result "BD"]', mismatch),
                              (" *", 'has spaces inside its quotes: write [Result "*"]', []),
                              ("ac", 'should be written in capitals: [Result "AC"]', mismatch),
                              ("xx", "should be AC, BD (the winning side), = (level) or * (unfinished)", [])):
        path = _with_result(tmp_path, value)
        for result in (run("validate", "--format", "json", path), console("validate", "--format", "json", path)):
            errors = json.loads(result.stdout)["files"][0]["errors"]
            assert [(e["code"], e["line"], e["column"]) for e in errors] == [("bad-tag", 2, 1)] + then, (value, errors)
            assert says in errors[0]["message"]
    # written exactly it is a claim, checked
    errors = json.loads(run("validate", "--format", "json", _with_result(tmp_path, "AC")).stdout)["files"][0]["errors"]
    assert [e["code"] for e in errors] == ["result-mismatch"]


# ---- a suit symbol's emoji selector belongs to its card -----------------------------------------

DEAL = '[Result "*"]\n\ndeal 1 dealer D\ntrump H by A\n'


def test_a_bad_word_with_an_emoji_suit_is_reported_whole_at_its_start():
    # "a♠️x" was read as the card "a♠" then an error at the selector: found "️x", column 9
    from dehlanote.syntax import parse_string
    for line, column, word in ((" 1 A: a\u2660\ufe0fx 10H 3H 7H\n", 7, "a\u2660\ufe0fx"),
                               (" 1 A: AH 10\u2665\ufe0ex 3H 7H\n", 10, "10\u2665\ufe0ex"),
                               ("hands A: a\u2660\ufe0fx\n", 10, "a\u2660\ufe0fx")):
        errors = parse_string(DEAL + line)[0].errors
        assert [(e.code, e.line, e.column) for e in errors] == [("syntax", 5, column)], (line, errors)
        assert f'found "{word}"' in errors[0].message
    # as the same word without the selector is
    errors = parse_string(DEAL + " 1 A: a\u2660x 10H 3H 7H\n")[0].errors
    assert [(e.line, e.column) for e in errors] == [(5, 7)]
    # a trump suit too
    errors = parse_string('[Result "*"]\n\ndeal 1 dealer D\ntrump \u2660\ufe0fx by A\n')[0].errors
    assert [(e.line, e.column) for e in errors] == [(4, 7)] and 'found "\u2660\ufe0fx"' in errors[0].message
    # two emoji cards glued together are told as such ('found "️7♥️"' before)
    errors = parse_string(DEAL + " 1 A: AH 10H 3\u2665\ufe0f7\u2665\ufe0f\n")[0].errors
    assert [(e.line, e.column) for e in errors] == [(5, 14)] and "put a space between two cards" in errors[0].message
    # and the selector is still read with its card
    assert not parse_string(DEAL + " 1 A: A\u2665\ufe0f! 10\u2665\ufe0e, 3\u2665\ufe0f 7H\n")[0].errors


def test_the_lexer_keeps_a_selector_with_its_suit():
    from pygments.token import Error, String
    from dehlanote.output.lexer import DpnLexer
    tokens = list(DpnLexer().get_tokens(" 1 A: a\u2660\ufe0fx 3H\n"))
    assert (String.Symbol, "a\u2660") not in tokens
    assert all(t is Error for t, v in tokens if v in ("a", "\u2660", "\ufe0f", "x"))
    assert (String.Symbol, "A\u2660\ufe0f") in list(DpnLexer().get_tokens(" 1 A: A\u2660\ufe0f 3H\n"))
    # a withdrawn card too
    from pygments.token import Generic
    assert not [v for t, v in DpnLexer().get_tokens(" 1 A: -a\u2660\ufe0fx 3H\n") if t is Generic.Deleted]
    assert (Generic.Deleted, "-A\u2660\ufe0f") in list(DpnLexer().get_tokens(" 1 A: -A\u2660\ufe0f KS\n"))


def test_fmt_of_several_files_keeps_a_file_of_comments_apart_from_the_game_before(tmp_path):
    # "fmt game.dpn notes.dpn" wrote the notes right under the game's tens line, so reading the
    # output back made them that line's comment
    notes = tmp_path / "notes.dpn"
    notes.write_text("{a}\n", encoding="utf-8")
    out = run("fmt", ONE, notes, ONE).stdout
    assert out.count("tens AC 3 BD 1\n\n") == 1 and "tens AC 3 BD 1\n\n{a}\n\n[Rules" in out
    back = json.loads(run("json", "-", input=out).stdout)
    assert all(d["tens_comments"] == [] for g in back["games"] for d in g["deals"])
    assert run("fmt", notes, notes).stdout == "{a}\n\n{a}\n"


def test_a_date_with_spaces_is_a_bad_tag_and_no_date_for_stats(tmp_path):
    # [Date " 2026.11.27"] was taken as 27 November 2026 (stripped), the Result's twin
    from dehlanote.stats import date_parts
    path = tmp_path / "d.dpn"
    for value in (" 2026.11.27", "2026.11.27 "):
        path.write_text(ONE.read_text(encoding="utf-8").replace('[Result "*"]', f'[Date "{value}"]\n[Result "*"]'),
                        encoding="utf-8")
        for result in (run("validate", "--format", "json", path), console("validate", "--format", "json", path)):
            errors = json.loads(result.stdout)["files"][0]["errors"]
            assert [(e["code"], e["line"]) for e in errors] == [("bad-tag", 2)]
            assert 'has spaces inside its quotes: write [Date "2026.11.27"]' in errors[0]["message"]
        assert date_parts(value) == (None, None, None)
    assert date_parts("2026.11.27")[0] == "2026-11-27"


def test_annotate_heads_a_game_without_an_event_once():
    # "Game 1: Game 1 · rules standard": the number stood in for the missing Event as well
    first = run("annotate", ONE).stdout.splitlines()[0]
    assert first == "Game 1 · rules standard"
    worked = run("annotate", ROOT / "samples" / "worked-example.dpn").stdout.splitlines()[0]
    assert worked.startswith("Game 1: Worked example · rules standard")


def test_a_stray_emoji_selector_is_named_in_the_found_text():
    # " 1 A: AH 10H 3H \ufe0f7H" said found "️7H": the selector shows as nothing, so the message
    # seemed to refuse the card 7H; one after a suit symbol is part of what is seen
    from dehlanote.syntax import parse_string
    for line, found in ((" 1 A: AH 10H 3H \ufe0f7H\n", '"<U+FE0F>7H"'),
                        (" 1 A: AH 10H 3H 7H\ufe0e\n", '"7H<U+FE0E>"'),
                        (" 1 A: A\u2665\ufe0f\ufe0f 10H 3H 7H\n", '"A\u2665\ufe0f<U+FE0F>"'),
                        (" 1 A: a\u2660\ufe0fx 10H 3H 7H\n", '"a\u2660\ufe0fx"')):
        errors = parse_string(DEAL + line)[0].errors
        assert len(errors) == 1 and f"found {found}" in errors[0].message, (line, errors)


def test_colour_writer_does_not_take_a_brace_in_a_tag_value_for_a_comment():
    # [Event "Smith {senior"] held back everything after it, uncoloured, until the record ended
    # (fmt and annotate --format dpn on a terminal): the "{" was taken to open a comment
    from dehlanote.output.lexer import ColourWriter
    out: list[str] = []
    writer = ColourWriter(out.append, True)
    writer('[Event "Smith {senior"]\n')
    writer("\ndeal 1 dealer D\n")
    assert "deal" in "".join(out)
    writer('[Site "a"] {a real\ncomment}\n')
    assert "\x1b[32m{a real" in "".join(out)
    writer('[Site "x\\"{"]\n 1 A: AH " {open\n')     # an escaped quote; a stray one outside a tag
    held = "".join(out)
    writer("still open} 10H\n")
    assert "".join(out).startswith(held) and "open" in "".join(out)[len(held):]
    writer.close()
    plain = "".join(out)
    for code in ("\x1b[32m", "\x1b[0m"):
        plain = plain.replace(code, "")
    assert "{a real" in plain and "Smith {senior" in plain


def test_one_card_and_one_ten_are_singular_in_messages():
    # "A's hand has 1 cards", "the tens line counts 1 tens", "BD has taken 1 tens already"
    from dehlanote.replay import replay_game
    from dehlanote.syntax import parse_string
    text = DEAL.replace("trump H by A\n", "hands A: AS\ntrump H by A\n") + " 1 A: AS 10H 3H 7H\ntens AC 1 BD 0\n"
    messages = [e.message for e in replay_game(parse_string(text)[0]).errors]
    assert "A's hand has 1 card; each player is dealt 13" in messages
    assert "the tens line counts 1 ten: a deal has 4" in messages
    text = DEAL + " 1 A: AH 10H 3H 7H\n 2 A: AS QS 2S 5S\ntens AC 0 BD 4\n"    # A sweeps 10H
    messages = [e.message for e in replay_game(parse_string(text)[0]).errors]
    assert any(m.endswith("has taken 1 ten already, not 0") for m in messages), messages


# ---- a tag given twice ----------------------------------------------------------------------------

def test_a_tag_given_twice_is_kept_and_the_first_counts_for_validate_json_and_annotate(tmp_path):
    # json dropped a repeated tag's value (and its comment) without a trace, kept [foo] and [Foo]
    # both in its tags (the reader judges a repeat ignoring case), and nothing said which counted
    dup = tmp_path / "dup.dpn"
    dup.write_text('[Event "first"]\n[Event "second"] {the other name}\n[foo "1"]\n[Foo "2"]\n'
                   + ONE.read_text(encoding="utf-8"), encoding="utf-8")
    first = "first"
    said = [f'the tag "Event" is given twice in this game; keep one (the first, "{first}" on line 1, is the one read)',
            'the tag "Foo" is given twice in this game; keep one (the first, "1" on line 3, is the one read)']
    validate = json.loads(run("validate", "--format", "json", dup).stdout)["files"][0]["errors"]
    assert [(e["code"], e["message"], e["line"]) for e in validate if e["code"] == "bad-tag"] == \
        [("bad-tag", said[0], 2), ("bad-tag", said[1], 4)]
    doc = json.loads(run("json", dup).stdout)
    schema = json.loads((ROOT / "dehlanote" / "output" / "dpn-json.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema)
    game = doc["games"][0]
    assert [(e["code"], e["message"], e["line"]) for e in game["errors"] if e["code"] == "bad-tag"] == \
        [("bad-tag", said[0], 2), ("bad-tag", said[1], 4)]
    assert game["tags"]["Event"] == first and game["tags"]["foo"] == "1" and "Foo" not in game["tags"]
    assert game["repeated_tags"] == [
        {"name": "Event", "value": "second", "line": 2, "column": 1, "comments": ["the other name"]},
        {"name": "Foo", "value": "2", "line": 4, "column": 1, "comments": []}]
    assert "repeated_tags" not in json.loads(run("json", ONE).stdout)["games"][0]
    # the direct route of the console script writes the same
    assert json.loads(console("json", dup).stdout) == doc
    # json back to DPN keeps every tag, each where it was
    from dehlanote.syntax import parse_string, write_game
    back = parse_string(write_game(jsonout.game_from_json(game)))[0]
    assert [(t.name, t.value) for t in back.tags] == [("Event", first), ("Event", "second"), ("Rules", "standard"),
                                                       ("Result", "*"), ("foo", "1"), ("Foo", "2")]
    annotate = run("annotate", dup).stdout
    assert f"Game 1: {first}" in annotate and said[0] in annotate and said[1] in annotate
    assert "{the other name}" in annotate
