"""The ``dpn`` Pygments lexer: every token class, every sample (no ``Error`` on a valid record,
the cards found where the parser finds them), its entry point (``pygmentize -l dpn``, Rich's
``Syntax``), and ``fmt`` / ``annotate --format dpn`` in colour on a terminal only."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from pygments.token import Comment, Error, Generic, Keyword, Name, Number, Operator, Punctuation, String, Text

from dehlanote.output.lexer import DpnLexer
from dehlanote.syntax import parse_string
from dehlanote.syntax.cards import card_of

import ptyread  # noqa: E402  (tests/ptyread.py: a pseudo terminal read one way everywhere)

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted(ROOT.glob("samples/*.dpn")) + sorted((ROOT / "tests" / "data").glob("*.dpn")) + [
    ROOT / "docs" / "examples" / "bad.dpn"]
LEXER = DpnLexer(stripnl=False, ensurenl=False)


def tokens(text: str) -> list[tuple[object, str]]:
    return [(t, v) for t, v in LEXER.get_tokens(text) if v]


# ---- every token class ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, value, token", [
    ('[Event "Friday club"]', "Event", Name.Tag),
    ('[Event "Friday club"]', "Friday club", String.Double),
    ('[Event "say \\"hi\\""]', '\\"', String.Escape),
    ('[Event "x"]', "[", Punctuation),
    ('[Event "x"]', "]", Punctuation),
    ("deal 1 dealer D", "deal", Keyword),
    ("deal 1 dealer D", "dealer", Keyword),
    ("DEAL 1 Dealer D", "Dealer", Keyword),                  # keywords in any case
    ("deal 2\nmisdeal", "misdeal", Keyword),
    ("hands A: AS", "hands", Keyword),
    ("trump D by A at 5 closed", "by", Keyword),
    ("trump D by A at 5 closed", "at", Keyword),
    ("trump D by A at 5 closed", "closed", Keyword),
    ("trump drawn 7C", "drawn", Keyword),
    ("claim A", "claim", Keyword),
    ("revoke C at 2 stands", "revoke", Keyword),            # DPN 1.2: a revoke the table ruled on
    ("revoke C at 2 stands", "stands", Keyword),
    ("REVOKE B at 4 Penalty", "Penalty", Keyword),
    ("revoke C at 2 stands", "C", Name.Label),
    ("revoke C at 2 stands", "2", Number.Integer),
    ("tens AC 2 BD 2", "tens", Keyword),
    ("deal 12 dealer D", "12", Number.Integer),
    ("1. A: AH", "1.", Number.Integer),                      # DPN 1.1: a dotted trick number
    ("trump D by A at 5", "5", Number.Integer),
    ("tens AC 3 BD 1", "3", Number.Integer),
    ("deal 1 dealer D", "D", Name.Label),
    ("13 C: 4D", "C", Name.Label),
    ("claim B", "B", Name.Label),
    ("tens AC 3 BD 1", "AC", Name.Constant),                # a side there, the ace of clubs elsewhere
    ("tens ACE 7 BDF 5", "BDF", Name.Constant),
    ("trump D by A", "D", Name.Builtin),
    ("trump ♥️ by A", "♥️", Name.Builtin),
    ("1 A: AH KH", "AH", String.Symbol),
    ("1 A: AC KH", "AC", String.Symbol),
    ("1 A: q♠ K♤", "q♠", String.Symbol),
    ("1 A: A♥️ K♥", "A♥️", String.Symbol),                  # the emoji selector belongs to the card
    ("1 A: 10H 3H", "10H", Generic.Strong),
    ("1 A: TD 3D", "TD", Generic.Strong),
    ("1 A: t♦ 3D", "t♦", Generic.Strong),
    ("4 B: -QS 2H", "-QS", Generic.Deleted),
    ("1 A: AH!? 3H", "!?", Operator),
    ("1 A: 10H?? 3H", "??", Operator),
    ("1 A: AH {A leads\nthe ace}", "{A leads\nthe ace}", Comment.Multiline),
    ("1 A: AH? {analysis ?: A should have played KS}", "{analysis ?: A should have played KS}", Comment.Special),
    ("1 A: AH, KH", ",", Punctuation),
    ("hands A: AS KS | QS", "|", Punctuation),
    ("1 A: AH", ":", Punctuation),
    ("deal 1\n", "\n", Text.Whitespace),
    ("1 A: AH %", "%", Error),
    ("1 A: ZH", "Z", Error),
    ('[Event "no end\n', "\n", Error),
])
def test_each_token_class(text, value, token):
    found = tokens(text)
    assert (token, value) in found, found


def test_the_lexer_loses_nothing_and_every_class_is_tested():
    text = "".join(Path(p).read_text(encoding="utf-8") for p in RECORDS)
    assert "".join(v for _, v in LEXER.get_tokens(text)) == text
    classes = {t for t, _ in LEXER.get_tokens(text)}
    documented = {Name.Tag, String.Double, Keyword, Number.Integer, Name.Label, Name.Constant, Name.Builtin,
                  String.Symbol, Generic.Strong, Operator, Comment.Multiline, Punctuation, Text.Whitespace}
    assert documented <= classes


# ---- every record: no Error, and the cards where the parser reads them ---------------------------

def _positions(text: str) -> list[tuple[int, int, str]]:
    """(line, column, card) of every card token, columns counted in characters from 1."""
    out = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    for index, token, value in LEXER.get_tokens_unprocessed(text):
        if token in (String.Symbol, Generic.Strong, Generic.Deleted):
            spelling = value.lstrip("-")          # a withdrawn card is placed at its -, as the parser does
            line = max(i for i, start in enumerate(line_starts) if start <= index)
            out.append((line + 1, index - line_starts[line] + 1, card_of(spelling)))
    return out


def _model_cards(text: str) -> list[tuple[int, int, str]]:
    out = []
    for game in parse_string(text):
        for deal in game.deals:
            for hand in deal.hands or ():
                out += [(c.line, c.column, c.card) for c in hand.cards]
            if deal.trump is not None and deal.trump.drawn is not None:
                out.append((deal.trump.drawn.line, deal.trump.drawn.column, deal.trump.drawn.card))
            for trick in deal.tricks:
                for play in trick.plays:
                    out += [(w.line, w.column, w.card) for w in play.withdrawn]
                    out.append((play.line, play.column, play.card))
    return sorted(out)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_every_record_lexes_without_an_error_token_and_its_cards_are_the_parsers(path):
    text = path.read_text(encoding="utf-8")
    assert [v for t, v in LEXER.get_tokens(text) if t is Error] == []
    assert sorted(_positions(text)) == _model_cards(text)


def test_withdrawn_and_drawn_cards_are_the_parsers_too():
    text = ('[Rules "pagat trump=first-void-five"]\n\ndeal 1 dealer D\ntrump drawn 7C\n'
            " 1 A: AH 3H -QS 2H 4H {B took back QS}\n")
    assert sorted(_positions(text)) == _model_cards(text)
    assert (Generic.Deleted, "-QS") in tokens(text)


# ---- the entry point: pygmentize -l dpn, Rich's Syntax ----------------------------------------------

@pytest.fixture
def installed(tmp_path):
    """A dist-info holding the entry points pyproject.toml declares, as an install writes them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = tmp_path / "dehlanote_entry_points_check-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dehlanote-entry-points-check\nVersion: 0\n")
    lines = []
    for group, points in project["entry-points"].items():
        lines.append(f"[{group}]")
        lines += [f"{name} = {target}" for name, target in points.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    return env


def test_pygmentize_finds_the_dpn_lexer_through_the_entry_point(installed):
    sample = ROOT / "samples" / "worked-example.dpn"
    proc = subprocess.run([sys.executable, "-m", "pygments", "-l", "dpn", "-f", "raw", str(sample)],
                          capture_output=True, text=True, env=installed, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Token.Name.Tag\t'Event'" in proc.stdout
    assert "Token.Generic.Strong\t'10H'" in proc.stdout and "Token.Error" not in proc.stdout
    by_file = subprocess.run([sys.executable, "-c", "from pygments.lexers import get_lexer_for_filename as g; "
                              "print(g('x.dpn').name)"], capture_output=True, text=True, env=installed)
    assert by_file.stdout.strip() == "DPN"


def test_rich_syntax_colours_dpn_by_name(installed):
    code = ("from rich.syntax import Syntax\nt = Syntax('1 A: AH 10H', 'dpn').highlight('1 A: AH 10H')\n"
            "print(type(Syntax('', 'dpn').lexer).__name__, len([s for s in t.spans if s.style]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=installed, timeout=60)
    name, spans = proc.stdout.split()
    assert name == "DpnLexer" and int(spans) >= 3


# ---- fmt and annotate --format dpn: colour on a terminal only ------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _on_a_terminal(*args: str, env_extra: dict[str, str] | None = None) -> str:
    """What ``dehlanote ARGS`` writes to a pseudo-terminal (line ends as the terminal gets them)."""
    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color", **(env_extra or {}))
    env.pop("NO_COLOR", None) if not env_extra or "NO_COLOR" not in env_extra else None
    proc = subprocess.Popen([sys.executable, "-m", "dehlanote", *args], stdout=slave, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, env=env, cwd=ROOT)
    os.close(slave)
    return ptyread.read_all(master, proc).decode("utf-8").replace("\r\n", "\n")


def _piped(*args: str) -> bytes:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "dehlanote", *args], capture_output=True, env=env, cwd=ROOT,
                          timeout=120).stdout


@pytest.mark.parametrize("args", [("fmt", "samples/loose-1.1.dpn"), ("fmt", "docs/examples/bad.dpn"),
                                  ("annotate", "--format", "dpn", "samples/hukum-closed-trump.dpn")])
def test_dpn_is_coloured_on_a_terminal_and_the_same_text_underneath(args):
    coloured = _on_a_terminal(*args)
    assert "\x1b[" in coloured
    assert _ANSI.sub("", coloured).encode("utf-8") == _piped(*args)
    # the tens bold, a red suit red, a keyword bold blue
    assert re.search(r"\x1b\[1(;31)?m10[HDSC]", coloured) and "\x1b[1;34mdeal" in coloured


def test_piped_dpn_has_no_colour_and_no_colour_is_respected():
    assert b"\x1b" not in _piped("fmt", "samples/worked-example.dpn")
    assert "\x1b" not in _on_a_terminal("fmt", "samples/worked-example.dpn", env_extra={"NO_COLOR": "1"})


def test_a_control_character_in_a_record_is_shown_not_sent_to_the_terminal(tmp_path):
    record = tmp_path / "x.dpn"
    record.write_text('[Event "a\x1b]0;owned\x07b"]\n\ndeal 1 dealer D\n', encoding="utf-8")
    coloured = _on_a_terminal("fmt", str(record))
    assert "\x1b]0" not in coloured and "\u241b]0;owned" in coloured


def _doc_records() -> list[tuple[str, str]]:
    """Every ```dpn block of the docs that is not there to show a bad card or a syntax error."""
    out = []
    for path in sorted(ROOT.glob("docs/*.md")) + [ROOT / "README.md"]:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"```dpn([^\n]*)\n(.*?)```", text, re.S):
            if "syntax@" not in m.group(1) and "bad-card@" not in m.group(1):
                out.append((f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}", m.group(2)))
    return out


@pytest.mark.parametrize("where, text", _doc_records(), ids=[w for w, _ in _doc_records()])
def test_every_record_of_the_docs_lexes_without_an_error_token(where, text):
    # DPN 1.2's "revoke C at 2 stands" was coloured as an error, letter by letter
    assert [v for t, v in LEXER.get_tokens(text) if t is Error] == [], where


def test_a_backslash_kept_as_it_stands_in_a_tag_value_is_no_error():
    # only \" and \\ are escapes; any other backslash is kept as it stands, and the record is
    # valid: [Site "C:\games\club"] was coloured with two Error tokens, red on a terminal
    text = '[Site "C:\\games\\club \\"A\\" \\\\"]\n[Result "*"]\n\ndeal 1 dealer D\ntrump D by A\n 1 A: AH 10H 3H 7H\n'
    game = parse_string(text)[0]
    assert not game.errors and [t.value for t in game.tags if t.name == "Site"] == ['C:\\games\\club "A" \\']
    found = tokens(text)
    assert [v for t, v in found if t in Error] == []
    values = "".join(v for t, v in found if t in String.Double or t is String.Escape)
    assert values == '"C:\\games\\club \\"A\\" \\\\""*"'
    assert [v for t, v in found if t is String.Escape] == ['\\"', '\\"', "\\\\"]


@pytest.mark.parametrize("line", ["trump\nH by A", "trump {hearts} H by A", "TRUMP\t{a}\n{b} ♡️ by A"])
def test_a_trump_suit_after_a_line_end_or_a_comment_is_the_trump_suit(line):
    # the reader takes the suit past any space, line end or comment; the lexer took it only
    # after spaces on the same line, so these valid records showed their suit as an Error token
    text = f'[Result "*"]\n\ndeal 1 dealer D\n{line}\n 1 A: AH 10H 3H 7H\n'
    game = parse_string(text)[0]
    assert not game.errors and game.deals[0].trump.suit.value == "H"
    found = tokens(text)
    assert [v for t, v in found if t in Error] == []
    assert [v for t, v in found if t is Name.Builtin] == [line.split()[-3]]
    assert sorted(_positions(text)) == _model_cards(text)


def test_a_comment_never_closed_is_one_error_to_the_end():
    # as the reader reads it (the comment runs on to the end); each "{" of 40,000 unclosed ones
    # looked for its "}" to the end of the text again (0.7 s, growing with the square)
    tokens = [(t, v) for t, v in DpnLexer().get_tokens("deal 1 {abc\ntrump S")]
    assert tokens[-1] == (Error, "{abc\ntrump S\n")
    many = list(DpnLexer().get_tokens("{" * 200_000))
    assert many == [(Error, "{" * 200_000 + "\n")]
