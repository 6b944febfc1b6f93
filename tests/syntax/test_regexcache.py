"""The largest regular expressions are compiled once per user (dehlanote.syntax.regexcache).

What is kept is the compiler's output; the pattern built from it must be the very pattern
``re.compile`` makes (CPython's patterns compare equal only when their opcodes are the
same), and a kept file is read only from the private cache folder: one that others may
write, or a damaged one, is never used. A positive control shows a private file is read.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from dehlanote import cache
from dehlanote.syntax import regexcache, terms
from dehlanote.syntax.reader import GAME_WHOLE_AT

ROOT = Path(__file__).resolve().parents[2]
PATTERNS = [terms.whole_pattern("GAME_WHOLE"), r"(?P<a>x)|(y)\s*", "(?i:deal)[ \t]+0*1",
            # (the scanner of a trick line's pieces, dehlanote.syntax.whole._scanner: named groups)
            "|".join(f"(?P<{n}>{terms.pattern(n)})" for n in ("CARD", "WITHDRAWN", "DOTTED_INT", "INT", "SEAT"))]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache.folder.cache_clear()
    yield tmp_path / "cache" / "dehlanote"
    cache.folder.cache_clear()


@pytest.mark.parametrize("pattern", PATTERNS, ids=["game-whole", "groups", "ignore-case", "trick-parts"])
def test_the_kept_pattern_is_the_one_re_makes(home: Path, pattern: str) -> None:
    first = regexcache.compile(pattern)
    kept = list(home.glob("regex-*.json"))
    assert len(kept) == 1 and not kept[0].stat().st_mode & 0o022
    again = regexcache.compile(pattern)         # (read back from the file)
    expected = re.compile(pattern)
    assert first == expected and again == expected
    assert (again.groups, again.groupindex, again.flags) == (expected.groups, expected.groupindex, expected.flags)


def test_the_whole_game_pattern_reads_every_sample_as_re_does(home: Path) -> None:
    regexcache.compile(terms.whole_pattern("GAME_WHOLE"))
    kept = regexcache.compile(terms.whole_pattern("GAME_WHOLE")).match
    plain = re.compile(terms.whole_pattern("GAME_WHOLE")).match
    for path in sorted((ROOT / "samples").glob("*.dpn")):
        text = path.read_text(encoding="utf-8")
        for at in [0, *(m.end() for m in re.finditer(r"\n\s*\n", text))]:
            a, b, c = kept(text, at), plain(text, at), GAME_WHOLE_AT(text, at)
            assert (a and a.span()) == (b and b.span()) == (c and c.span())


def _plant(home: Path, pattern: str, other: str, mode: int) -> None:
    """The kept file of ``pattern`` replaced by the opcodes of ``other``."""
    regexcache.compile(other)
    (donor,) = home.glob("regex-*.json")
    data = donor.read_bytes()
    donor.unlink()
    regexcache.compile(pattern)
    (target,) = home.glob("regex-*.json")
    target.write_bytes(data)
    os.chmod(target, mode)


def test_a_private_file_is_what_is_read(home: Path) -> None:
    _plant(home, "abc", "xyz", 0o600)
    assert regexcache.compile("abc").match("xyz")          # the planted opcodes were used


@pytest.mark.parametrize("mode", [0o622, 0o660, 0o666])
def test_a_file_others_may_write_is_never_read(home: Path, mode: int) -> None:
    _plant(home, "abc", "xyz", mode)
    got = regexcache.compile("abc")
    assert got == re.compile("abc") and not got.match("xyz")


@pytest.mark.parametrize("content", [b"", b"{not json", json.dumps({"flags": 32, "code": [99999, 1, 2],
                                                                    "groups": 0, "groupindex": {},
                                                                    "indexgroup": [None]}).encode()])
def test_a_damaged_file_compiles_the_pattern_as_re_does(home: Path, content: bytes) -> None:
    regexcache.compile("a+b")
    (target,) = home.glob("regex-*.json")
    target.write_bytes(content)
    assert regexcache.compile("a+b") == re.compile("a+b")


def test_without_a_cache_folder_the_pattern_is_the_same(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    bad = tmp_path / "open"
    bad.mkdir(mode=0o777)
    os.chmod(bad, 0o777)
    (bad / "dehlanote").mkdir()
    os.chmod(bad / "dehlanote", 0o777)      # a folder others may enter: not used
    monkeypatch.setenv("XDG_CACHE_HOME", str(bad))
    cache.folder.cache_clear()
    try:
        assert regexcache.compile("q(r)") == re.compile("q(r)")
        assert not list((bad / "dehlanote").glob("regex-*"))
    finally:
        cache.folder.cache_clear()


_COUNT_COMPILED = r"""
import re, sys
from re import _compiler
compiled = []
real = _compiler.compile
def counting(p, flags=0):
    compiled.append(p)
    return real(p, flags)
_compiler.compile = counting
from dehlanote.syntax.parser import parse_string
errors = [(e.code, e.line, e.column, e.message) for g in parse_string(sys.argv[1]) for e in g.errors]
print(repr(errors))
# the lexers' expressions: alternations of the grammar's terminals, each a named group
print(sum(1 for p in compiled if isinstance(p, str) and re.search(r"\(\?P<(?:CARD|SEAT|_?INT|DEAL)\w*>", p)))
"""


def test_the_fine_parsers_lexers_use_the_kept_patterns(tmp_path: Path) -> None:
    # a record with mistakes is read by Lark's contextual lexer, which builds one regular
    # expression of named terminals for each parser state it meets: compiled anew in every
    # process, they were half the time such a record took to read (0.1 s of 0.21 s)
    import subprocess
    import sys
    bad = '[Event "x"]\ndeal 1 dealer D\n 1 A AH 10H 3H 7H\ntrump Q\n 2 B: KS QS JS 9S {x}\ntens A: 1\n'
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "cache")}

    def run() -> tuple[str, int]:
        done = subprocess.run([sys.executable, "-c", _COUNT_COMPILED, bad], capture_output=True, text=True,
                              env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        errors, count = done.stdout.splitlines()
        return errors, int(count)

    first, _ = run()                 # (the patterns compiled through the cache, and kept)
    assert "syntax" in first and "3, 6" in first
    again, compiled = run()
    assert again == first and compiled == 0         # read back, none compiled again: the same reading
    assert len(list((tmp_path / "cache" / "dehlanote").glob("regex-*.json"))) >= 10
