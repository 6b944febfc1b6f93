"""The notation's tokens, as the grammar spells them: the one source for every pattern.

``dehlanote/grammar.lark`` is the only place where a token of DPN is spelled. This module
loads it and hands out what other modules need, derived from it: the regular expression of
each terminal (also the helper ones, such as ``_SUIT``), the keywords, and the Lark
parsers themselves (:func:`make_lark`, cached on disk by Lark's ``cache`` so start-up
skips the LALR analysis).

Nothing here is typed out a second time: a test checks that the spelling tables of
:mod:`dehlanote.syntax.cards` accept exactly what the grammar's ``CARD`` and ``SUIT`` accept.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
from functools import cache
from importlib import resources
from typing import Any

from lark import Lark
from lark.lexer import PatternRE, TerminalDef

__all__ = ["KEYWORDS", "WHOLE", "atomic", "grammar_text", "keywords", "make_lark", "pattern", "possessive", "terminals",
           "whole_pattern"]

#: the suffix of the terminals that read a whole plain element as one token
WHOLE = "_WHOLE"
#: a regular expression that never matches (and is one character wide, as Lark wants)
_NEVER = r"(?!x)x"


@cache
def grammar_text() -> str:
    """The text of the grammar, as installed with the package."""
    return resources.files("dehlanote").joinpath("grammar.lark").read_text(encoding="utf-8")


def _digest(*parts: str) -> str:
    import lark
    text = "\0".join((grammar_text(), lark.__version__, sys.version.split()[0], *parts))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def _cache_path(kind: str, digest: str, suffix: str) -> str:
    return os.path.join(tempfile.gettempdir(), f".dehlanote-{kind}-{digest}{suffix}")


@cache
def terminals() -> dict[str, tuple[str, frozenset[str], int]]:
    """Every terminal of the grammar, the helpers (``_SUIT``) too: name -> (regular
    expression, flags, priority), with Lark's composition of terminals done.

    Compiled by Lark's grammar loader (no parser is built) and kept in a small file beside
    Lark's own cache, so that later processes read it in well under a millisecond.
    """
    path = _cache_path("terminals", _digest(), ".json")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return {k: (v[0], frozenset(v[1]), v[2]) for k, v in data.items()}
    except (OSError, ValueError, TypeError, IndexError):
        pass
    from lark.load_grammar import load_grammar
    grammar, _ = load_grammar(grammar_text(), "<dehlanote grammar>", None, False)
    names = {name for name, _ in grammar.term_defs}
    terms, _rules, _ignore = grammar.compile(["start"], names)
    table = {t.name: (t.pattern.value if isinstance(t.pattern, PatternRE) else re.escape(t.pattern.value),
                      frozenset(t.pattern.flags), t.priority) for t in terms}
    try:
        tmp = f"{path}.{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({k: [v[0], sorted(v[1]), v[2]] for k, v in table.items()}, f)
        os.replace(tmp, path)
    except OSError:
        pass
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


KEYWORDS = keywords()


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

#: the version of the edits below (part of the cache file's name)
_EDITS = "whole-atomic-1"


def _edit_whole(term: TerminalDef) -> None:
    """``edit_terminals`` of the whole parser: the tag value (``STRING``) made possessive,
    wherever it stands (in ``STRING`` and in the whole terminals made with it), and every
    quantifier of the whole terminals (:func:`atomic`).
    (Module-level functions: Lark pickles its options into the cache.)"""
    string = terminals()["STRING"][0]
    if isinstance(term.pattern, PatternRE) and string in term.pattern.value:
        term.pattern = PatternRE(term.pattern.value.replace(string, possessive(string)), term.pattern.flags)
    if term.name.endswith(WHOLE) and isinstance(term.pattern, PatternRE):
        term.pattern = PatternRE(atomic(term.pattern.value), term.pattern.flags)


def _edit_fine(term: TerminalDef) -> None:
    """``edit_terminals`` of the fine parser: as the whole one, and the whole terminals off."""
    _edit_whole(term)
    if term.name.endswith(WHOLE):
        term.pattern = PatternRE(_NEVER)


@cache
def whole_pattern(name: str) -> str:
    """The regular expression of terminal ``name`` as the whole parser has it (after
    :func:`_edit_whole`): what the reader matches a plain game with, so that the parser
    need not match it again."""
    regex, flags, priority = terminals()[name]
    term = TerminalDef(name, PatternRE(regex, flags), priority)
    _edit_whole(term)
    return term.pattern.to_regexp()


def make_lark(*, whole: bool, transformer: Any, lexer_callbacks: dict[str, Any]) -> Lark:
    """A Lark LALR parser of the grammar with an inline ``transformer``.

    ``whole=False`` switches off the whole-element terminals (``*_WHOLE``) so that every
    element is read token by token: the reference reading, used for every record that the
    whole terminals do not read without error. The analysed grammar is cached on disk (one
    file per variant: Lark does not hash ``edit_terminals``).
    """
    variant = "whole" if whole else "fine"
    path = _cache_path(f"lark-{variant}", _digest(variant, _EDITS), ".tmp")
    return Lark(grammar_text(), parser="lalr", lexer="contextual", transformer=transformer,
                lexer_callbacks=lexer_callbacks, edit_terminals=_edit_whole if whole else _edit_fine,
                cache=path)
