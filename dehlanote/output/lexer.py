"""A Pygments lexer for DPN (alias ``dpn``), and DPN written in colour on a terminal.

Registered through the ``pygments.lexers`` entry point (pyproject.toml), so that
``pygmentize -l dpn``, Rich's ``Syntax(text, "dpn")``, Sphinx and MkDocs code blocks and
any other Pygments user colour records. ``fmt`` and ``annotate --format dpn`` write their
DPN through :class:`ColourWriter`: in colour on a terminal, byte for byte as it is to a
file or a pipe.

The tokens, each a standard Pygments type so that every style colours them:

========================== ===========================================================
``Name.Tag``               a tag's name (``Event``)
``String.Double``          a tag's value, ``String.Escape`` its ``\\"`` and ``\\\\``
``Keyword``                ``deal dealer misdeal hands trump by at closed drawn tens claim``,
                           ``revoke stands penalty`` (DPN 1.2)
``Number.Integer``         deal and trick numbers (``1.`` too), ``at N``, ten counts
``Name.Label``             a seat (``A``; ``A:`` before a hand or a trick's cards)
``Name.Constant``          a side (``AC``, ``BDF``)
``Name.Builtin``           the suit of a trump line (``trump D``)
``String.Symbol``          a card (``AH``, ``q♠``, ``A♥️``)
``Generic.Strong``         a ten (``10H``, ``TD``), the cards that count
``Generic.Deleted``        a withdrawn card (``-QS``)
``Operator``               a glyph after a card (``!``, ``??``)
``Comment.Multiline``      a comment (``{...}``, over lines too)
``Comment.Special``        a comment of ``annotate --analyse`` (``{analysis ?: ...}``)
``Punctuation``            ``[ ] : | ,``
``Text.Whitespace``        spaces and line ends
``Error``                  anything else (a valid record has none)
========================== ===========================================================

Pygments is a dependency of Rich, which dehlanote depends on: it is always there.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Iterable, Optional

from pygments.lexer import RegexLexer, bygroups, default, include
from pygments.token import (
    Comment,
    Error,
    Generic,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
)

__all__ = ["ColourWriter", "DpnLexer", "ansi", "colour_wanted"]

_SUIT = r"(?:[SHDCshdc]|[♠♥♦♣♤♡♢♧][\ufe0f\ufe0e]?)"
_END = r"(?![0-9A-Za-z_♠♥♦♣♤♡♢♧\ufe0f\ufe0e])"    # (a symbol's selector stays with its card)
_WORD_END = r"(?![0-9A-Za-z_])"
_GLYPH = r"(!!|\?\?|!\?|\?!|!|\?)?"
_KEYWORDS = r"(?i:deal|dealer|misdeal|hands|trump|by|at|closed|drawn|tens|claim|revoke|stands|penalty)" + _WORD_END


class DpnLexer(RegexLexer):
    """DPN, the Dehla Pakad Notation: records of games of Dehla Pakad."""

    name = "DPN"
    aliases = ["dpn"]
    filenames = ["*.dpn"]
    mimetypes = ["text/x-dpn"]
    url = "https://www.pagat.com/partition/dehla_pakad.html"
    flags = re.UNICODE

    tokens = {
        "comments": [
            (r"\{(?:deal \d+ )?analysis\b[^}]*\}", Comment.Special),
            (r"\{[^}]*\}", Comment.Multiline),
            # a comment never closed runs to the end, as the reader reads it: one token (each "{" of
            # "{{{{..." looked for its "}" to the end of the text again, in quadratic time)
            (r"\{[^}]*\Z", Error),
        ],
        "root": [
            (r"[\s\ufeff]+", Text.Whitespace),
            include("comments"),
            (r"\[", Punctuation, "tag"),
            # "tens AC 2 BD 2": there AC is a side, elsewhere the ace of clubs
            (r"(?i:tens)" + _WORD_END, Keyword, "tens"),
            # a trump line's suit: the word after "trump" (a card there would be "trump drawn CARD"),
            # past any space, line end or comment, as the reader reads it
            (r"(?i:trump)" + _WORD_END, Keyword, "trump"),
            (_KEYWORDS, Keyword),
            (r"-(?:10|[2-9AKQJTakqjt])" + _SUIT + r"(?![0-9A-Za-z_♠♥♦♣♤♡♢♧\ufe0f\ufe0e!?])", Generic.Deleted),
            (r"((?:10|[Tt])" + _SUIT + r")" + _GLYPH + _END, bygroups(Generic.Strong, Operator)),
            (r"([2-9AKQJakqj]" + _SUIT + r")" + _GLYPH + _END, bygroups(String.Symbol, Operator)),
            (r"[0-9]+\.(?![0-9.])", Number.Integer),
            (r"[0-9]+" + _END, Number.Integer),
            (r"(?:ACE|BDF|AC|BD)" + _WORD_END, Name.Constant),
            (r"[A-F]" + _WORD_END, Name.Label),
            (r"[:|,\]]", Punctuation),
            (r".", Error),
        ],
        "tag": [
            (r"[\s\ufeff]+", Text.Whitespace),
            include("comments"),
            (r"[A-Za-z][A-Za-z0-9_]*", Name.Tag),
            (r'"', String.Double, "string"),
            (r"\]", Punctuation, "#pop"),
            (r"[^\s\]]", Error),
        ],
        "string": [
            (r'\\["\\]', String.Escape),
            (r'[^"\\\n]+', String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", Error, "#pop:2"),
            (r"\\.", String.Double),      # any other backslash is kept as it stands ("C:\\games")
        ],
        "trump": [
            (r"[\s\ufeff]+", Text.Whitespace),
            include("comments"),
            (_SUIT + r"(?![0-9A-Za-z_\ufe0f\ufe0e])", Name.Builtin, "#pop"),
            default("#pop"),
        ],
        "tens": [
            (r"[\s\ufeff]+", Text.Whitespace),
            include("comments"),
            (r"(?:ACE|BDF|AC|BD)" + _WORD_END, Name.Constant),
            (r"[0-9]+" + _END, Number.Integer),
            default("#pop"),
        ],
    }


def colour_wanted(stream) -> bool:
    """Colour for a terminal that shows it: not to a file or a pipe, not with NO_COLOR set or TERM=dumb."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        return False
    return bool(tty) and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def braces(text: str, opens: Optional[list[tuple[int, bool]]] = None) -> tuple[int, bool]:
    """``text`` read for its comments as the colouring reads it: where its last line outside a
    comment starts (after the last line end outside a comment; 0: none), and whether its end
    stands in a tag's quoted value (``[Event "Smith {senior"]``: with its ``\\"`` escapes). In a
    tag, and in its value, a ``{`` opens no comment (a value with one held the rest of the record
    back, uncoloured, to its end); neither runs past its line. The language server reads a line
    with it too, so both place comments alike: ``opens``, when given, gets each ``{`` of the text
    with whether it stands in a tag's quoted value (all of a line's in one reading)."""
    cut = 0
    tag = quoted = escaped = inside = False
    for i, ch in enumerate(text):
        if ch == "{" and opens is not None:
            opens.append((i, quoted))
        if quoted:
            if ch == '"' and not escaped:
                quoted = False
            escaped = ch == "\\" and not escaped
        elif ch == "{" and not inside:
            inside = True
        elif ch == "}" and inside:
            inside = False
        elif not inside:
            if ch == "[":
                tag = True
            elif ch == "]":
                tag = False
            elif ch == '"' and tag:
                quoted, escaped = True, False
        if ch == "\n" and not inside:
            cut = i + 1
            tag = quoted = False
    return cut, quoted


#: the terminal's colours for the tokens (SGR parameters, in the terminal's own palette): red
#: suits red, tens bold, glyphs bold yellow, the author's comments green, the analysis's magenta
_SGR = {
    Keyword: "1;34", Name.Tag: "34", String: "33", String.Symbol: "", String.Escape: "1;33", Number: "36",
    Name.Label: "1",
    Name.Constant: "35", Name.Builtin: "35", Generic.Strong: "1", Generic.Deleted: "2;9", Operator: "1;33",
    Comment: "32", Comment.Special: "1;35", Error: "1;4;31",
}
_RED = re.compile("[HDhd\u2665\u2666\u2661\u2662]")


def _sgr(token: Any) -> str:
    """The colour of a token type: its own, or its nearest parent's."""
    while token is not None:
        code = _SGR.get(token)
        if code is not None:
            return code
        token = token.parent
    return ""


def ansi(tokens: Iterable[tuple[Any, str]]) -> str:
    """Tokens as text for a terminal: each in its colour, none carried over a line end."""
    out: list[str] = []
    for token, value in tokens:
        code = _sgr(token)
        if (token in String.Symbol or token in Generic.Strong) and _RED.search(value[2 if value[:2] == "10" else 1:]):
            code = f"{code};31" if code else "31"           # a heart or a diamond
        if not code or value.isspace():
            out.append(value)
            continue
        out.append("\n".join(f"\x1b[{code}m{line}\x1b[0m" if line else "" for line in value.split("\n")))
    return "".join(out)


class ColourWriter:
    """Writes DPN, given in pieces, through ``write``: coloured by :class:`DpnLexer` for a
    terminal (whole lines at a time, a comment never cut between two pieces), as it is
    otherwise. :meth:`close` writes what is held."""

    def __init__(self, write: Callable[[str], object], colour: bool) -> None:
        self._write = write
        self._held = ""
        self.colour = colour
        self._lexer = DpnLexer(stripnl=False, ensurenl=False)

    def _coloured(self, text: str) -> str:
        from ..text import printable_block

        # a record's text never drives the terminal: its control characters shown, then coloured
        return ansi(self._lexer.get_tokens(printable_block(text)))

    def __call__(self, text: str) -> None:
        if not self.colour:
            self._write(text)
            return
        held = self._held + text
        cut = braces(held)[0]     # (the last piece that may not be coloured yet: a comment may span pieces)
        self._held = held[cut:]
        if cut:
            self._write(self._coloured(held[:cut]))

    def close(self) -> None:
        if self._held:
            held, self._held = self._held, ""
            self._write(self._coloured(held))
