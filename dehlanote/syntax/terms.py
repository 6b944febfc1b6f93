"""The notation's tokens, as the grammar spells them: the one source for every pattern.

``dehlanote/grammar.lark`` is the only place where a token of DPN is spelled. This module
loads it and hands out what other modules need, derived from it: the regular expression of
each terminal (also the helper ones, such as ``_SUIT``), the keywords, and the Lark
parsers themselves (:func:`make_lark`, their tables kept in the per-user cache folder,
:mod:`dehlanote.cache`, so start-up skips the LALR analysis).

Lark itself is imported only to build a parser, or to compile the terminals when their
cache file is missing: what the reader and the whole-element route need (the patterns,
the whole terminals as the whole parser has them) comes from that small file, so a
command that reads only plain games never loads Lark (about 85 ms of CPU at start-up:
its import and its cached parser tables). Both files are read only from the per-user
cache folder, never from a place another user can write (the parser tables are a pickle).

Nothing here is typed out a second time: a test checks that the spelling tables of
:mod:`dehlanote.syntax.cards` accept exactly what the grammar's ``CARD`` and ``SUIT`` accept.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from .. import cache as user_cache

if TYPE_CHECKING:
    from lark import Lark
    from lark.lexer import TerminalDef

__all__ = ["KEYWORDS", "WHOLE", "atomic", "grammar_text", "keywords", "make_lark", "pattern", "possessive", "terminals",
           "whole_pattern"]

#: the suffix of the terminals that read a whole plain element as one token
WHOLE = "_WHOLE"
#: the version of the edits of the terminals (:func:`_edit_whole`; part of the cache files' names)
_EDITS = "whole-atomic-1"
#: a regular expression that never matches (and is one character wide, as Lark wants)
_NEVER = r"(?!x)x"


@cache
def grammar_text() -> str:
    """The text of the grammar, as installed with the package."""
    return resources.files("dehlanote").joinpath("grammar.lark").read_text(encoding="utf-8")


@cache
def _lark_id() -> str:
    """Which Lark is installed, without importing it: where its package lies, the size and
    the time of change of its ``__init__`` (a new version is a new file)."""
    from importlib.util import find_spec
    spec = find_spec("lark")
    origin = spec.origin if spec is not None else None
    if origin is None:
        return "no-lark"
    try:
        st = os.stat(origin)
    except OSError:
        return origin
    return f"{origin}:{st.st_size}:{st.st_mtime_ns}"


def _digest(*parts: str) -> str:
    text = "\0".join((grammar_text(), _lark_id(), sys.version.split()[0], *parts))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def _cache_name(kind: str, digest: str, suffix: str) -> str:
    """The name of a file of the per-user cache folder (:mod:`dehlanote.cache`)."""
    return f"{kind}-{digest}{suffix}"


@cache
def _compiled() -> dict[str, Any]:
    """Every terminal of the grammar (``terminals``) and the whole terminals as the whole
    parser has them (``whole``), compiled by Lark's grammar loader (no parser is built) and
    kept in a small file beside Lark's own cache, so that later processes read it in well
    under a millisecond, without importing Lark."""
    name = _cache_name("terminals", _digest("terminals+whole", _EDITS), ".json")
    kept = user_cache.read(name)
    if kept is not None:
        try:
            data = json.loads(kept)
            return {"terminals": {k: (v[0], frozenset(v[1]), v[2]) for k, v in data["terminals"].items()},
                    "whole": dict(data["whole"])}
        except (ValueError, TypeError, IndexError, KeyError, AttributeError):
            pass
    from lark.lexer import PatternRE
    from lark.load_grammar import load_grammar
    grammar, _ = load_grammar(grammar_text(), "<dehlanote grammar>", None, False)
    names = {name for name, _ in grammar.term_defs}
    terms, _rules, _ignore = grammar.compile(["start"], names)
    table = {t.name: (t.pattern.value if isinstance(t.pattern, PatternRE) else re.escape(t.pattern.value),
                      frozenset(t.pattern.flags), t.priority) for t in terms}
    out: dict[str, Any] = {"terminals": table, "whole": {}}
    out["whole"] = {name: _whole_of(name, table) for name in table if name.endswith(WHOLE)}
    user_cache.write(name, json.dumps({"terminals": {k: [v[0], sorted(v[1]), v[2]] for k, v in table.items()},
                                       "whole": out["whole"]}).encode("utf-8"))
    return out


def terminals() -> dict[str, tuple[str, frozenset[str], int]]:
    """Every terminal of the grammar, the helpers (``_SUIT``) too: name -> (regular
    expression, flags, priority), with Lark's composition of terminals done."""
    table: dict[str, tuple[str, frozenset[str], int]] = _compiled()["terminals"]
    return table


def pattern(name: str) -> str:
    """The regular expression of terminal ``name``, flags inlined (``(?i:...)``)."""
    regex, flags, _ = terminals()[name]
    return f"(?{''.join(sorted(flags))}:{regex})" if flags else regex


def keywords() -> dict[str, str]:
    """The keywords: terminal name -> the word (``DEAL`` -> ``deal``), any case in a record."""
    out = {}
    for name, (regex, flags, _) in terminals().items():
        m = re.fullmatch(r"([a-z]+)\(\?!\[0-9A-Za-z_\]\)", regex)
        if m and "i" in flags:
            out[name] = m.group(1)
    return out



_LOOP = re.compile(r"(?<!\\)([*+])(?![+?])")


def possessive(regex: str) -> str:
    """``regex`` with every greedy loop made possessive, where Python has them (3.11+).

    Used on the tag terminals: ``"[^"\\\\\\n]*(?:\\\\.[^"\\\\\\n]*)*"`` kept backtracking state
    for every character, so that a tag value of a megabyte took 240 MB to read. Their loops
    never need to give characters back (each stops at a character the next part cannot
    start with), so the possessive form matches the same text.
    """
    if sys.version_info < (3, 11):
        return regex
    return _LOOP.sub(r"\1+", regex)


def atomic(regex: str) -> str:
    """``regex`` with every quantifier made possessive (``*+``, ``++``, ``?+``, ``{m,n}+``),
    where Python has them (3.11+): nothing once matched by a loop or an optional part is
    ever given back.

    Used on the whole-element terminals, whose every loop and optional part is followed by
    something it cannot itself match (a card by a gap, a line by a line end, a trick by a
    number), so that giving back never helps: the same text matches, and the regular
    expression engine keeps no backtracking state for each card and each line, which made
    the match of a whole game 1.5 to 1.8 times faster. Lazy and possessive quantifiers are
    left as they are; character classes and escapes are skipped.
    """
    if sys.version_info < (3, 11):
        return regex
    out: list[str] = []
    i, n = 0, len(regex)
    opened = False      # the last token opened a group: a ? there starts an extension
    while i < n:
        c = regex[i]
        if c == "\\":
            out.append(regex[i:i + 2])
            i += 2
            opened = False
            continue
        if c == "[":
            j = i + 1
            if regex[j:j + 1] == "^":
                j += 1
            if regex[j:j + 1] == "]":
                j += 1
            while regex[j] != "]":
                j += 2 if regex[j] == "\\" else 1
            out.append(regex[i:j + 1])
            i = j + 1
            opened = False
            continue
        quantifier = ""
        if c in "*+?" and not (c == "?" and opened):
            quantifier = c
        elif c == "{":
            m = _BRACES.match(regex, i)
            if m is not None:
                quantifier = m.group()
        if quantifier:
            out.append(quantifier)
            i += len(quantifier)
            if regex[i:i + 1] in ("?", "+"):
                out.append(regex[i])
                i += 1
            else:
                out.append("+")
            opened = False
            continue
        out.append(c)
        opened = c == "("
        i += 1
    return "".join(out)


_BRACES = re.compile(r"\{[0-9]*(?:,[0-9]*)?\}")


def _edit_whole(term: TerminalDef, table: dict[str, tuple[str, frozenset[str], int]] | None = None) -> None:
    """``edit_terminals`` of the whole parser: the tag value (``STRING``) made possessive,
    wherever it stands (in ``STRING`` and in the whole terminals made with it), and every
    quantifier of the whole terminals (:func:`atomic`).
    (Module-level functions: Lark pickles its options into the cache.)"""
    from lark.lexer import PatternRE
    string = (table or terminals())["STRING"][0]
    if isinstance(term.pattern, PatternRE) and string in term.pattern.value:
        term.pattern = PatternRE(term.pattern.value.replace(string, possessive(string)), term.pattern.flags)
    if term.name.endswith(WHOLE) and isinstance(term.pattern, PatternRE):
        term.pattern = PatternRE(atomic(term.pattern.value), term.pattern.flags)


def _edit_fine(term: TerminalDef) -> None:
    """``edit_terminals`` of the fine parser: as the whole one, and the whole terminals off."""
    from lark.lexer import PatternRE
    _edit_whole(term)
    if term.name.endswith(WHOLE):
        term.pattern = PatternRE(_NEVER)


def whole_pattern(name: str) -> str:
    """The regular expression of whole terminal ``name`` as the whole parser has it (after
    :func:`_edit_whole`): what the reader matches a plain game with, so that the parser
    need not match it again (read from the terminals' cache file, see :func:`_compiled`)."""
    regex: str = _compiled()["whole"][name]
    return regex


def _whole_of(name: str, table: dict[str, tuple[str, frozenset[str], int]]) -> str:
    """:func:`whole_pattern` worked out with Lark's own terminal (what the cache holds)."""
    from lark.lexer import PatternRE, TerminalDef
    regex, flags, priority = table[name]
    term = TerminalDef(name, PatternRE(regex, flags), priority)
    _edit_whole(term, table)
    return term.pattern.to_regexp()


def make_lark(*, whole: bool, transformer: Any, lexer_callbacks: dict[str, Any]) -> Lark:
    """A Lark LALR parser of the grammar with an inline ``transformer``.

    ``whole=False`` switches off the whole-element terminals (``*_WHOLE``) so that every
    element is read token by token: the reference reading, used for every record that the
    whole terminals do not read without error. The analysed grammar is kept in the per-user
    cache folder (one file per variant, named by a digest of the grammar, Lark, Python and
    the edits of the terminals, :func:`_digest`), read back only from there
    (:mod:`dehlanote.cache`); when it cannot be kept or read, the tables are worked out in
    memory (about 0.3 s).
    """
    import io
    import pickle

    from lark import Lark
    variant = "whole" if whole else "fine"
    name = _cache_name(f"lark-{variant}", _digest(variant, _EDITS), ".pickle")
    kept = user_cache.read(name)
    if kept is not None:
        try:
            tables = pickle.loads(kept)     # (a file of this user's, in a folder only this user may write)
            lark: Lark = Lark.__new__(Lark)._load(tables, transformer=transformer, lexer_callbacks=lexer_callbacks)
            return _kept_regexes(lark)
        except Exception:  # noqa: BLE001 - a damaged file: the tables are worked out again
            pass
    lark = Lark(grammar_text(), parser="lalr", lexer="contextual", transformer=transformer,
                lexer_callbacks=lexer_callbacks, edit_terminals=_edit_whole if whole else _edit_fine)
    out = io.BytesIO()
    # what Lark's own cache keeps: the options given at each load (the transformer, the callbacks) left out
    lark.save(out, _PER_LOAD)
    user_cache.write(name, out.getvalue())
    return _kept_regexes(lark)


class _KeptRe:
    """What Lark's lexers ask of the ``re`` module, their patterns compiled through
    :mod:`.regexcache` (kept in the per-user cache folder)."""

    @staticmethod
    def compile(pattern: str, flags: int = 0) -> "re.Pattern[str]":
        from . import regexcache
        return regexcache.compile(pattern, flags)

    match = staticmethod(re.match)
    error = re.error


def _kept_regexes(lark: "Lark") -> "Lark":
    """``lark``, its lexers compiling their patterns through :mod:`.regexcache`.

    The contextual lexer builds a scanner for each parser state it meets, each one regular
    expression of the terminals allowed there: a record with a mistake (read by the fine
    parser, again at each try to go on past it) met 18 of them, 0.1 s of the 0.21 s its
    reading took, compiled anew in every process. Kept, the reading takes 0.11 s. Lark asks
    of its ``re`` module only ``compile``, ``match`` and ``error``; a Lark whose lexers are laid out
    otherwise is left as it is (the same patterns, compiled by ``re``)."""
    lexer = getattr(getattr(lark, "parser", None), "lexer", None)
    for basic in [*getattr(lexer, "lexers", {}).values(), getattr(lexer, "root_lexer", None)]:
        if basic is not None and getattr(basic, "re", None) is re and getattr(basic, "_scanner", None) is None:
            basic.re = _KeptRe
    return lark


#: the options that are given again each time the tables are loaded (as Lark's own cache has it)
_PER_LOAD = frozenset({"postlex", "transformer", "lexer_callbacks", "use_bytes", "debug", "g_regex_flags", "regex",
                       "propagate_positions", "tree_class", "_plugins"})


#: (made last: on a first run, the terminals are compiled with every function above)
KEYWORDS = keywords()
