"""The fuzzing harness shared by ``tests/robustness/test_fuzz.py`` (a bounded run in CI) and
``tests/fuzz/campaign.py`` (a long campaign): seed records, mutations as data, and the
checks every input must pass.

A mutation is a tuple ``(kind, i, j, payload)``: ``i`` and ``j`` are non-negative integers
taken modulo whatever they index (a token, a line, a character), ``payload`` a short text.
Mutations are plain data so that Hypothesis shrinks them and a finding is reproduced from
``(seed name, mutations)`` alone.

The contract (NOTATION.md; the issue "hostile and broken input never crashes, never hangs,
never loses a game"): for every input the library and the command line either succeed or
report coded errors (``dehlanote.errors.CODES``) at positions inside the input; nothing
else ever escapes, exit statuses are 0, 1 or 2, and no traceback is printed.
"""

from __future__ import annotations

import io
import json
import random
import re
import traceback
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator, Optional, Sequence

from dehlanote.errors import CODES, DpnError
from dehlanote.output.jsonout import document, dumps, game_json
from dehlanote.oracle.playout import Style, generate_match
from dehlanote.replay import explicit, replay_game
from dehlanote.syntax import iter_games, parse_string, write_game
from dehlanote.syntax import reader as _reader
from dehlanote.syntax.writer import normal_form

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

#: the rule profiles and writing styles random matches are drawn in, for differential tests
PROFILES = [("standard", None), ("standard", {"trump": "partner"}), ("standard", {"six-player": True}),
            ("standard", {"court-piece": True}), ("standard", {"coat": True}), ("standard", {"streak": 3}),
            ("standard", {"double-sar": True}), ("standard", {"trump": "closed"}), ("pagat", {"kots": 3}),
            ("pagat", {"kots": 0}), ("pagat", {"kots": 2, "trump": "first-void-five"}), ("hukum", None)]
STYLES = [Style(), Style(hands=True), Style(leaders=False, withdrawn=0.5), Style(hands=True, withdrawn=0.5),
          Style(loose=True), Style(loose=True, leaders=False, withdrawn=0.3), Style(result=False),
          Style(claims=0.5)]

#: the profiles (and options) the generated records are played under
PROFILES: tuple[tuple[str, Optional[dict]], ...] = (
    ("standard", None), ("standard", {"trump": "closed"}), ("standard", {"trump": "partner"}),
    ("standard", {"double-sar": True}), ("standard", {"coat": True}), ("standard", {"six-player": True}),
    ("standard", {"court-piece": True}), ("standard", {"streak": 3}),
    ("pagat", {"kots": 3}), ("pagat", {"kots": 2, "trump": "first-void-five"}), ("pagat", {"kots": 0}),
    ("hukum", None), ("hukum", {"trump": "closed"}),
)

# ---- seed records ------------------------------------------------------------------------


@lru_cache(maxsize=None)
def seeds(generated_per_profile: int = 2) -> tuple[tuple[str, str], ...]:
    """(name, text) of the valid records mutations start from: the samples, and generated
    matches of every profile in the plain and the loose (hand-written) style."""
    out: list[tuple[str, str]] = []
    for path in sorted(SAMPLES.glob("*.dpn")):
        out.append((f"samples/{path.name}", path.read_text(encoding="utf-8")))
    for p, (profile, options) in enumerate(PROFILES):
        for k in range(generated_per_profile):
            for loose in (False, True):
                style = Style(hands=bool(k % 2), leaders=not loose or bool(k % 2), loose=loose,
                              withdrawn=0.3 if loose else 0.0)
                seed = 1000 * p + 10 * k + loose
                text, _facts = generate_match(random.Random(seed), profile, options, style=style,
                                              max_deals=1 + k % 3)
                label = profile + ("" if not options else " " + " ".join(f"{a}={b}" for a, b in options.items()))
                out.append((f"generated {label} seed={seed} {'loose' if loose else 'plain'}", text))
    return tuple(out)


def seed_text(name: str) -> str:
    for n, text in seeds():
        if n == name:
            return text
    raise KeyError(name)


# ---- mutations ---------------------------------------------------------------------------

#: words that are almost cards, and other near misses
NON_CARDS = ("1H", "11S", "ZS", "AX", "10", "0D", "1OH", "A", "♠A", "TT", "HA", "10♠♠", "Q", "XX",
             "-", "--AH", "AH!!!", "AH?!?", "K♦x", "10H10H", "a♤♤", "１０Ｈ", "Ⅹ♥", "ĀS", "AS\u0301")
#: lines in the notation's vocabulary, some right, some wrong, some absurd
LINES = (
    '[Rules "pagat kots=99999999999"]', '[Rules "standard streak=0"]', '[Rules "/etc/passwd"]',
    '[Rules "../../../tmp/x.yaml"]', '[Rules "pagat kots=²"]', '[Rules "pagat kots=١"]',
    '[Rules "hukum streak=-1"]',
    '[Rules "standard kots=1 kots=2"]', '[Rules "pagat trump=closed trump=partner"]', '[Rules "=x"]',
    '[Rules "pagat ="]',
    '[Date "\x1b[2J"]', '[Result "\x00"]', '[Rules "hukum six-player"]', '[Rules ""]', '[Rules "   "]',
    '[Result "*"]', '[Result "="]', '[Result "XY"]', '[Date "2026.13.45"]', '[Date ""]',
    '[A "x\\"y"]', '[Event "\\\\"]', '[X ""]', "[", "]", '"', "{", "}", "{}", "{{}}", "[]", '[""]',
    "deal", "deal 0", "deal 99999999999999999999", "deal 1 dealer Z", "deal dealer F", "deal -1",
    "misdeal", "misdeal misdeal", "hands", "hands A:", "hands A: | AH", "hands A: AH | | KH",
    "trump", "trump S", "trump S by E at 0 closed", "trump drawn 10H", "trump drawn", "trump H at 99999999999",
    "trump ♠ by A at 14", "tens", "tens AC 4 BD 0", "tens AC 99999999999999999999 BD -1", "tens ACE 1 BDF 3",
    "1", "1 A:", "13 A: AH KH QH JH", "14 A: AH KH QH JH", "0 A: 2C 3C 4C 5C", "999999999999 2C",
    "1 A: -AH -AH -AH AH", "1 -AH", "1 AH! KH?? QH!? JH?!", "1 E: AH KH QH JH 10H 9H",
    "12 B: 10S 10S 10S 10S", "1 a: ah kh qh jh", "\t", "\r", "\ufeff", "\x00", "\x0c",
)
#: characters that have broken text tools before
UNICODE = ("\x00", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r", "\t",
           "\ufeff", "\ufffd", "\u200b", "\u202e", "\u0301", "ſ", "K", "İ", "ß", "ﬀ", "１", "٣", "²",
           "\U0001F0A1", "😀", "♠", "♤", "\\", '"', "{", "}", "[", "]", "|", ":", "-", "!", "?",
           "\x1b[31m", "\ue000")
KINDS = ("del_tok", "dup_tok", "swap_tok", "corrupt_tok", "noncard", "del_line", "dup_line",
         "swap_line", "truncate", "insert", "insert_line", "shuffle_tricks", "number", "case",
         "join_lines", "split_tok", "repeat_tok", "repeat_line", "long_tok")
#: how far the scale mutations go: enough for time quadratic in a run to show as a hang
REPEAT_MAX = 400
LONG_MAX = 60_000
#: byte-level mutations, applied after the text is encoded
BYTE_KINDS = ("bad_byte", "nul", "cut_utf8", "overlong")

_TOKENS = re.compile(r"\s+|\S+")
_CARDISH = re.compile(r"-?(?:10|[2-9AKQJTakqjt])[SHDCshdc♠♥♦♣♤♡♢♧][!?]*")
_NUMBER = re.compile(r"[0-9]+")
_TRICK_LINE = re.compile(r"\s*[0-9]+\s")
_HUGE = ("0", "00", "-1", "99999999999999999999", "1" * 400, "9" * 5000, "0" * 5000 + "1", "013", "13", "14",
         "27", "6", "1234567890", "٣", "²")


def _pick(seq: Sequence, i: int):
    return seq[i % len(seq)]


def apply(text: str, mutations: Iterable[tuple]) -> str:
    """The text with the text-level mutations applied in order (byte kinds are skipped)."""
    for kind, i, j, payload in mutations:
        if kind in BYTE_KINDS:
            continue
        text = _apply_one(text, kind, i, j, payload)
    return text


def apply_bytes(text: str, mutations: Iterable[tuple]) -> bytes:
    """The text mutated, encoded as UTF-8, then the byte-level mutations applied."""
    muts = list(mutations)
    data = apply(text, muts).encode("utf-8", "surrogatepass")
    for kind, i, j, payload in muts:
        if kind not in BYTE_KINDS:
            continue
        at = i % (len(data) + 1)
        if kind == "bad_byte":
            data = data[:at] + bytes([0x80 + j % 0x80]) + data[at:]
        elif kind == "nul":
            data = data[:at] + b"\x00" + data[at:]
        elif kind == "cut_utf8":
            data = data[:at] + "♠€😀"[j % 3].encode()[: 1 + j % 2] + data[at:]
        else:  # overlong / surrogate / out-of-range sequences
            data = data[:at] + _pick((b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xff\xfe"), j) + data[at:]
    return data


def _apply_one(text: str, kind: str, i: int, j: int, payload: str) -> str:
    if kind in ("truncate", "insert"):
        at = i % (len(text) + 1)
        return text[:at] if kind == "truncate" else text[:at] + (payload or _pick(UNICODE, j)) + text[at:]
    if kind in ("del_line", "dup_line", "swap_line", "insert_line", "shuffle_tricks", "join_lines", "repeat_line"):
        lines = text.split("\n")
        n = len(lines)
        a = i % n
        if kind == "del_line":
            del lines[a]
        elif kind == "dup_line":
            lines.insert(a, lines[a])
        elif kind == "repeat_line":
            lines[a: a + 1] = [lines[a]] * (2 + j % REPEAT_MAX)
        elif kind == "swap_line":
            b = j % n
            lines[a], lines[b] = lines[b], lines[a]
        elif kind == "insert_line":
            lines.insert(i % (n + 1), _pick(LINES, j) + (" " + payload if payload else ""))
        elif kind == "join_lines" and a + 1 < n:
            lines[a: a + 2] = [lines[a] + " " + lines[a + 1]]
        elif kind == "shuffle_tricks":
            tricks = [k for k, line in enumerate(lines) if _TRICK_LINE.match(line)]
            if len(tricks) > 1:
                start = _pick(tricks, i)
                block = [k for k in tricks if start <= k < start + 13]
                chosen = [lines[k] for k in block]
                random.Random(j).shuffle(chosen)
                for k, line in zip(block, chosen):
                    lines[k] = line
        return "\n".join(lines)
    pieces = _TOKENS.findall(text)
    words = [k for k, p in enumerate(pieces) if not p.isspace()]
    if not words:
        return text + (payload or "")
    w = _pick(words, i)
    tok = pieces[w]
    if kind == "del_tok":
        pieces[w] = ""
    elif kind == "dup_tok":
        pieces[w] = tok + " " + tok
    elif kind == "swap_tok":
        v = _pick(words, j)
        pieces[w], pieces[v] = pieces[v], pieces[w]
    elif kind == "corrupt_tok":
        at = j % len(tok)
        pieces[w] = tok[:at] + (payload[:1] or _pick(UNICODE, j)) + tok[at + 1:]
    elif kind == "noncard":
        cards = [k for k in words if _CARDISH.fullmatch(pieces[k])] or words
        pieces[_pick(cards, i)] = payload or _pick(NON_CARDS, j)
    elif kind == "number":
        nums = [k for k in words if _NUMBER.search(pieces[k])] or words
        k = _pick(nums, i)
        pieces[k] = _NUMBER.sub(_pick(_HUGE, j), pieces[k], count=1) if _NUMBER.search(pieces[k]) \
            else pieces[k] + _pick(_HUGE, j)
    elif kind == "case":
        pieces[w] = tok.swapcase() if j % 2 else tok.upper()
    elif kind == "repeat_tok":
        pieces[w] = " ".join([tok] * (2 + j % REPEAT_MAX))
    elif kind == "long_tok":
        pieces[w] = tok * (1 + (j * 7919) % LONG_MAX // max(1, len(tok)))
    elif kind == "split_tok" and len(tok) > 1:
        at = 1 + j % (len(tok) - 1)
        pieces[w] = tok[:at] + _pick((" ", "\n", "{x}", "\t"), i) + tok[at:]
    return "".join(pieces)


def random_mutations(rng: random.Random, count: Optional[int] = None) -> list[tuple]:
    """Mutations drawn from ``rng`` (the campaign's generator; Hypothesis has its own)."""
    out = []
    for _ in range(count if count is not None else rng.choice((1, 1, 1, 2, 2, 3, 5, 8))):
        kind = rng.choice(KINDS + BYTE_KINDS if rng.random() < 0.15 else KINDS)
        payload = ""
        r = rng.random()
        if r < 0.15:
            payload = "".join(rng.choice(UNICODE) for _ in range(rng.randint(1, 3)))
        elif r < 0.25:
            payload = "".join(chr(rng.choice((rng.randint(0x20, 0x7e), rng.randint(0, 0x2fff),
                                               rng.randint(0xe000, 0x10ffff))))
                              for _ in range(rng.randint(1, 4)))
        out.append((kind, rng.randrange(1 << 20), rng.randrange(1 << 20), payload))
    return out


def random_text(rng: random.Random) -> str:
    """Arbitrary text, from noise to a soup of the notation's words."""
    r = rng.random()
    if r < 0.3:
        return "".join(chr(rng.randint(0, 0x24ff)) for _ in range(rng.randint(0, 200)))
    vocab = ("deal", "dealer", "misdeal", "hands", "trump", "by", "at", "closed", "drawn", "tens",
             "A", "B", "C", "D", "E", "F", "A:", "B:", "AC", "BD", "ACE", "BDF", "S", "H", "♠",
             "1", "2", "13", "14", "0", "AH", "10S", "td", "-AH", "KH!", "|", "[", "]", '"', "{", "}",
             '[Event "x"]', '[Rules "pagat"]', '[Result "AC"]', "\n", "\n\n", "\t", "\r\n")
    return " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 120)))


# ---- the checks --------------------------------------------------------------------------

class Violation(AssertionError):
    """The contract was broken: what happened, for the report."""


def _decoded_lines(text: str) -> list[str]:
    return text.split("\n")


def check_error(err: object, lines: Sequence[str], where: str) -> None:
    """An error is a DpnError with a stable code and a position inside the text."""
    if not isinstance(err, DpnError):
        raise Violation(f"{where}: not a DpnError: {err!r}")
    if err.code not in CODES:
        raise Violation(f"{where}: unknown code {err.code!r}")
    if not isinstance(err.message, str) or not err.message.strip():
        raise Violation(f"{where}: empty message for {err!r}")
    if not isinstance(err.line, int) or not isinstance(err.column, int):
        raise Violation(f"{where}: position is not whole numbers: {err!r}")
    if not 1 <= err.line <= len(lines) + 1:
        raise Violation(f"{where}: line {err.line} outside 1..{len(lines) + 1}: {err!r}")
    if err.column < 1:
        raise Violation(f"{where}: column {err.column} < 1: {err!r}")
    if err.line <= len(lines) and err.column > len(lines[err.line - 1]) + 1:
        raise Violation(f"{where}: column {err.column} beyond the end of line {err.line} "
                        f"({len(lines[err.line - 1])} characters): {err!r}")
    for n in (err.deal, err.trick):
        if n is not None and not isinstance(n, int):
            raise Violation(f"{where}: deal/trick not a number: {err!r}")
    if err.code == "encoding" and not isinstance(err.offset, int):
        raise Violation(f"{where}: encoding error without a byte offset: {err!r}")


def _strip(game):
    return game._replace(source=None, source_line=0)


@contextmanager
def block_size(n: int) -> Iterator[None]:
    """Read streams ``n`` bytes at a time (block boundaries fall everywhere)."""
    old = _reader.BLOCK
    _reader.BLOCK = n
    try:
        yield
    finally:
        _reader.BLOCK = old


def check_library(text: str, *, block: Optional[int] = None, deep: bool = True) -> int:
    """Every library entry point on ``text``; raises Violation. Returns the number of games.

    (The checks are :func:`library_games`'s.)"""
    return len(library_games(text, block=block, deep=deep)[0])


def library_games(text: str, *, block: Optional[int] = None, deep: bool = True) -> tuple[list, list]:
    """The checks of :func:`check_library`; returns the games read and their replayed facts.

    ``block`` also reads the text as a byte stream that many bytes at a time, and checks
    that it gives the same games as the string. ``deep`` also checks that a game found
    valid is written canonically into a text that reads back valid, the same, and stable.
    """
    lines = _decoded_lines(text)
    where = "parse_string"
    try:
        games = parse_string(text, keep_source=True)
        all_facts = []
        for n, game in enumerate(games, 1):
            where = f"game {n}"
            for e in game.errors:
                check_error(e, lines, f"{where} (reader)")
            facts = replay_game(game)
            all_facts.append(facts)
            for e in facts.errors:
                check_error(e, lines, f"{where} (replay)")
            where = f"game {n} json"
            json.dumps(game_json(facts))
            where = f"game {n} write_game"
            written = write_game(game)
            canonical = write_game(explicit(facts))
            if deep and not facts.errors:
                where = f"game {n} canonical re-read"
                _check_canonical(canonical, facts)
            del written
        where = "document"
        dumps(document(all_facts))
        if block is not None:
            where = f"iter_games(bytes, block={block})"
            with block_size(block):
                streamed = [_strip(g) for g in iter_games(io.BytesIO(text.encode("utf-8", "surrogatepass")))]
            if streamed != [_strip(g) for g in games]:
                raise Violation(f"{where}: the byte stream gives other games than the string "
                                f"({len(streamed)} against {len(games)})")
        return games, all_facts
    except Violation:
        raise
    except Exception as exc:  # noqa: BLE001 - that is the point
        raise Violation(f"{where}: {type(exc).__name__}: {exc}\n{traceback.format_exc()}") from exc


def _check_canonical(canonical: str, facts) -> None:
    again = parse_string(canonical)
    if len(again) != 1:
        raise Violation(f"the canonical text of a valid game reads as {len(again)} games:\n{canonical}")
    refacts = replay_game(again[0])
    if refacts.errors:
        raise Violation(f"the canonical text of a valid game has errors: {refacts.errors[0]}\n{canonical}")
    if write_game(explicit(refacts)) != canonical:
        raise Violation(f"canonical form is not idempotent:\n{canonical}")
    if len(refacts.deals) != len(facts.deals) or refacts.result != facts.result:
        raise Violation("the canonical text replays to other facts")
    if normal_form(again[0]) != normal_form(explicit(facts)):
        raise Violation(f"the canonical text reads back as another record (model):\n{canonical}")
    if _content(again[0]) != _content(facts.game):
        raise Violation(f"the canonical text lost or changed a tag, comment, glyph or card:\n{canonical}")


def _content(game) -> tuple:
    """What the canonical form must keep of a game: tags, comments, glyphs, the cards played
    and withdrawn, the hands (positions and spellings aside)."""
    comments: list[str] = list(game.comments)
    cards: list[tuple] = []
    for tag in game.tags:
        comments += tag.comments
    for deal in game.deals:
        comments += deal.comments
        for m in deal.misdeals:
            comments += m.comments
        for hand in sorted(deal.hands or (), key=lambda h: h.seat):   # canonical order: by seat
            comments += hand.comments
            held = [c.card for c in hand.cards]    # sorted by suit in canonical form, each side of |
            split = len(held) if hand.split is None else hand.split
            cards.append((hand.seat, sorted(held[:split]), sorted(held[split:])))
        if deal.trump is not None:
            comments += deal.trump.comments
        for trick in deal.tricks:
            comments += trick.comments
            for play in trick.plays:
                comments += play.comments
                cards.append((play.card, tuple(w.card for w in play.withdrawn), play.glyph))
        if deal.tens is not None:
            comments += deal.tens.comments
    tags = sorted((t.name, t.value) for t in game.tags)
    hands = sorted(c for c in cards if isinstance(c[1], list))     # seats in any order
    plays = [c for c in cards if not isinstance(c[1], list)]
    return tags, sorted(c.strip() for c in comments), hands, plays


def check_fast_path(text: str) -> None:
    """Where the whole-element reading answers, it reads exactly what the fine reading reads."""
    from dehlanote.syntax.parser import parse_chunk, read_whole
    from dehlanote.syntax.reader import split_games, stray_tags

    try:
        for chunk in split_games(text):
            fast = read_whole(chunk)
            if fast is None:
                continue
            fast = stray_tags(fast)     # (parse_chunk gives stray tags back on both routes)
            slow = parse_chunk(chunk, whole=False)
            if fast != slow:
                raise Violation(f"the whole-element reading reads line {chunk.line} otherwise than the fine one:\n"
                                f"whole: {fast!r:.600}\nfine: {slow!r:.600}")
    except Violation:
        raise
    except Exception as exc:  # noqa: BLE001
        raise Violation(f"whole-element reading: {type(exc).__name__}: {exc}\n{traceback.format_exc()}") from exc


def check_bytes(data: bytes, *, block: Optional[int] = None) -> int:
    """The reader on raw bytes (any bytes): coded errors, positions in the decoded text."""
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    try:
        ctx = block_size(block) if block is not None else _nullcontext()
        with ctx:
            games = list(iter_games(io.BytesIO(data), keep_source=True))
        for n, game in enumerate(games, 1):
            for e in game.errors:
                check_error(e, lines, f"bytes game {n} (reader)")
                if e.code == "encoding" and not 0 <= e.offset < len(data):
                    raise Violation(f"bytes game {n}: byte offset {e.offset} outside the input ({len(data)} bytes)")
            facts = replay_game(game)
            for e in facts.errors:
                check_error(e, lines, f"bytes game {n} (replay)")
            json.dumps(game_json(facts))
            write_game(explicit(facts))
        bad = _bad_offsets(data)
        reported = sorted(e.offset for g in games for e in g.errors if e.code == "encoding")
        if bad and not reported:
            raise Violation(f"bytes that are not UTF-8 at {bad[:5]} but no encoding error")
        if reported and reported[0] != bad[0]:
            raise Violation(f"first encoding error at byte {reported[0]}, the first bad byte is at {bad[0]}")
        return len(games)
    except Violation:
        raise
    except Exception as exc:  # noqa: BLE001
        raise Violation(f"bytes: {type(exc).__name__}: {exc}\n{traceback.format_exc()}") from exc


def _bad_offsets(data: bytes) -> list[int]:
    """Offsets of the bytes that are not UTF-8 (as surrogateescape marks them)."""
    text = data.decode("utf-8", "surrogateescape")
    out, offset = [], 0
    for ch in text:
        if "\udc80" <= ch <= "\udcff":
            out.append(offset)
            offset += 1
        else:
            offset += len(ch.encode("utf-8"))
    return out


@contextmanager
def _nullcontext() -> Iterator[None]:
    yield


# ---- the command line --------------------------------------------------------------------

_LOCATION = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[a-z-]+): ", re.M)
CLI_COMMANDS = (("validate",), ("validate", "--format", "json"), ("validate", "--brief"), ("json",),
                ("json", "--compact"), ("fmt",), ("fmt", "--check"), ("annotate",),
                ("annotate", "--format", "dpn"), ("replay", "--plain"))


def check_cli(path: Path, args: Sequence[str], *, runner=None, expected_games: Optional[int] = None) -> int:
    """One command on a file through typer's CliRunner: exit 0/1/2, no traceback, no exception,
    locations inside the file, JSON that parses and keeps every game."""
    from typer.testing import CliRunner

    from dehlanote.cli import app

    runner = runner or CliRunner()
    argv = [*args, str(path)]
    result = runner.invoke(app, argv, catch_exceptions=True)
    what = " ".join(["dehlanote", *args, path.name])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        tb = "".join(traceback.format_exception(result.exception))
        raise Violation(f"{what}: {type(result.exception).__name__}: {result.exception}\n{tb}")
    if result.exit_code not in (0, 1, 2):
        raise Violation(f"{what}: exit status {result.exit_code}")
    out, err = result.stdout, result.stderr
    for stream in (out, err):
        if "Traceback (most recent call last)" in stream:
            raise Violation(f"{what}: a traceback was printed:\n{stream[-2000:]}")
    data = path.read_bytes()
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    if args[0] == "validate" and "--format" not in args:
        for m in _LOCATION.finditer(out):
            if m.group("code") not in CODES:
                raise Violation(f"{what}: unknown code {m.group('code')}")
            line, col = int(m.group("line")), int(m.group("col"))
            if not (1 <= line <= len(lines) + 1 and col >= 1):
                raise Violation(f"{what}: location {line}:{col} outside the file")
    if args[0] == "validate" and "json" in args:
        doc = json.loads(out)
        for f in doc["files"]:
            for e in f["errors"]:
                if e["code"] not in CODES:
                    raise Violation(f"{what}: unknown code {e['code']}")
                if not (1 <= e["line"] <= len(lines) + 1 and e["column"] >= 1):
                    raise Violation(f"{what}: error at {e['line']}:{e['column']} outside the file")
            if expected_games is not None and f["games"] != expected_games and "unreadable" not in f:
                raise Violation(f"{what}: {f['games']} games reported, the library reads {expected_games}")
        if result.exit_code == 0 and any(f["errors"] for f in doc["files"]):
            raise Violation(f"{what}: exit 0 with errors")
    if args[0] == "json" and result.exit_code in (0, 1):
        doc = json.loads(out)
        if expected_games is not None and len(doc["games"]) != expected_games:
            raise Violation(f"{what}: {len(doc['games'])} games written, the library reads {expected_games}")
        invalid = any(g["errors"] for g in doc["games"])
        if invalid != (result.exit_code == 1):
            raise Violation(f"{what}: exit {result.exit_code} but errors={invalid}")
    return result.exit_code


# ---- what the DPN 1.1 "a comment never crosses a game start" rule promises ----------------

#: what may stand between two games: near misses that must never hide or merge the game
#: after them (a comment or a tag value left open, stray braces, words, a deal)
BETWEEN = ("{", "{{", "{ left open", "}", '"', '"open', "deal", "deal 3", "misdeal", "x y z", "{a}{",
           "{\n", "{ a\nb", "\ufeff", "\x00", "\r", "tens AC", "13 A: AH", "hands A:", "-", "!?")


def between_payloads(payload: str) -> bool:
    """Whether ``payload`` may stand between two games under the 1.1 promise (no ``[``, which
    may start a header that takes the next game's tags, and no blank line inside)."""
    return "[" not in payload and "\n\n" not in payload


def check_between(first: str, payload: str, second: str, *, block: Optional[int] = None) -> None:
    """``payload`` between two valid games (a blank line on each side): the second game is
    read exactly as it is alone, and valid."""
    text = first.rstrip("\n") + "\n" + payload + "\n\n" + second
    games, facts = library_games(text, block=block)      # read and replayed once, for the checks here too
    alone = [normal_form(g) for g in parse_string(second)]
    if len(games) < len(alone) or [normal_form(g) for g in games[-len(alone):]] != alone:
        raise Violation(f"a mutation between two games changed the game after it: {payload!r}")
    for fact in facts[-len(alone):]:
        if fact.errors:
            raise Violation(f"the game after {payload!r} is no longer valid")


def check_cut(text: str, cut: int) -> None:
    """``text`` (valid games) cut at byte ``cut``: no crash, and every game that ends (with
    the blank line after it) before the cut is read exactly as it is alone."""
    data = text.encode("utf-8")[:cut]
    check_bytes(data, block=None)
    games = parse_string(text)
    whole = data.decode("utf-8", "ignore")
    read = [normal_form(g) for g in parse_string(whole)]
    # the games that end before the cut: those the next game's first character (its tag, or
    # deal) comes before (comments before it, after a blank line, are that next game's: cut
    # before its first element, they stay with the game they follow)
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode("utf-8")) + 1)
    complete = sum(1 for g in games[1:] if starts[g.line - 1] + len(lines[g.line - 1][: g.column - 1].encode()) < cut)
    if read[:complete] != [normal_form(g) for g in games[:complete]]:
        raise Violation(f"a cut at byte {cut} changed a game before it")


def check_round_trip(text: str) -> int:
    """Every valid game of ``text``: its canonical form reads back as the same record (the
    model, positions aside), and formatting is idempotent. Returns how many were checked."""
    from dehlanote.syntax.writer import reads_back

    checked = 0
    for game in parse_string(text):
        facts = replay_game(game)
        if facts.errors or game.errors:
            continue
        canonical = write_game(explicit(facts))
        if not reads_back(explicit(facts), canonical):
            raise Violation(f"the canonical form does not read back as the same record:\n{canonical[:2000]}")
        again = parse_string(canonical)[0]
        if write_game(explicit(replay_game(again))) != canonical:
            raise Violation(f"canonical form is not idempotent:\n{canonical[:2000]}")
        checked += 1
    return checked
