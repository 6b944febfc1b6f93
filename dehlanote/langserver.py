"""The DPN language server (``dehlanote lsp``): what an editor asks of a record, answered from
the reader and the replayer.

* **Diagnostics** as you type: every error ``validate`` reports, with its code, its message
  and the range of the token at fault.
* **Hover** on a card played: the position after it (the trick so far or who won it, the
  centre and its tens, each side's tens, trump, whose turn), from the replayed facts.
* **Completion** in a trick: the cards the player to play may play (tried one by one
  through the replayer, so every profile's rules hold: following suit, the five-card
  phase, cards already played); in a ``hands`` line, the cards with a copy not dealt yet.
* **Formatting**: the document as ``dehlanote fmt`` writes it.

The answers are plain functions of the document's text (:func:`diagnostics`, :func:`hover`,
:func:`completions`, :func:`formatted`), positions in LSP's terms (0-based lines, columns in
UTF-16 code units); :func:`serve` puts them on pygls (an optional dependency: the ``lsp``
extra) over standard input and output.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from itertools import islice
from typing import Any, BinaryIO, NamedTuple, Optional, cast

from .analysis.judge import claim_judge
from .deck import SUIT_SYMBOLS, SUITS, sides_for, sort_key
from .errors import DpnError
from .replay import DealFact, GameFacts, as_written, canonical_text, explicit, iter_replay, replay_game
from .rules.profile import Registry, registry
from .syntax import parse_string
from .syntax.cards import card_of
from .syntax.model import Game
from .text import printable

__all__ = ["MAX_MESSAGE", "Diagnostic", "Frames", "changed", "completions", "diagnostics", "formatted", "hover",
           "serve"]

ALL_CARDS = tuple(sorted((r + s for s in SUITS for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4",
                                                              "3", "2")), key=sort_key))
_TOKEN_END = re.compile(r"[^\s{}\[\]:,]*")
_WORD_TAIL = re.compile(r"[0-9A-Za-z♠♥♦♣♤♡♢♧\ufe0f\ufe0e!?-]*$")
_TRICK_HEAD = re.compile(r"^\s*\d+\.?\s*(?:[A-F]\s*:)?")
_COMMENTS = re.compile(r"\{[^}]*\}")
_OPEN_SPLIT = re.compile(r"[\s|]*\|\s*$")
_DEAL_LINES = re.compile(r"^[ \t\ufeff]*(?i:deal)(?![0-9A-Za-z_])", re.M)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_NEWLINE = re.compile(r"\n")
#: tokens lexed at most for a hover (from its line's start) or a completion (from its deal's):
#: a record within the reader's limits has far fewer (a deal of 256 tricks of 64 cards, 35,000),
#: and a line or a deal of megabytes took 20 to 30 s a keystroke, the server answering nothing else
_LEX_LIMIT = 100_000


class Diagnostic(NamedTuple):
    line: int            # 0-based
    start: int           # UTF-16 columns
    end: int
    code: str
    message: str


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2     # a lone surrogate is one unit


def _from_utf16(line: str, units: int) -> int:
    """The code point index in ``line`` of an LSP (UTF-16) column."""
    count = 0
    for i, ch in enumerate(line):
        if count >= units:
            return i
        count += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def _lsp_lines(text: str) -> list[str]:
    """The document's lines as LSP counts them: ``\r\n``, ``\r`` and ``\n`` each end one (the
    reader ends a line at ``\n`` only: to it a lone ``\r`` is a space)."""
    return _LINE_BREAK.split(text)


def _starts(text: str, breaks: "re.Pattern[str]" = _LINE_BREAK) -> list[int]:
    """Where each line of ``text`` starts, LSP's lines (or the reader's, with ``breaks`` ``\n``)."""
    return [0] + [m.end() for m in breaks.finditer(text)]


def _offset(text: str, line: int, units: int) -> Optional[int]:
    """The index in ``text`` of an LSP position (None past the last line)."""
    lines = _lsp_lines(text)
    if not 0 <= line < len(lines):
        return None
    return _starts(text)[line] + _from_utf16(lines[line], units)


def changed(text: str, start: tuple[int, int], end: tuple[int, int], new: str) -> str:
    """``text`` with the range from ``start`` to ``end`` (LSP positions: 0-based line, UTF-16
    column) replaced by ``new``, as ``textDocument/didChange`` asks. As LSP says, a column past
    its line's end stands for the line's end, and a line past the last for the document's end;
    a range written backwards is read from its earlier end."""
    def index(position: tuple[int, int]) -> int:
        line, units = position
        at = _offset(text, max(line, 0), max(units, 0))
        return len(text) if at is None else at

    first, last = sorted((index(start), index(end)))
    return text[:first] + new + text[last:]


def _games(text: str) -> list[Game]:
    return parse_string(text, keep_source=True)


def _replayed(text: str, reg: Registry) -> list[GameFacts]:
    # claims judged double dummy, as validate judges them (else no unsound-claim)
    return [replay_game(g, reg, judge=claim_judge) for g in _games(text)]


def diagnostics(text: str, reg: Optional[Registry] = None) -> list[Diagnostic]:
    """Every error of the document, as ``validate`` reports it, with the range of its token on
    LSP's lines (where a lone ``\r`` ends a line, which the reader's positions count as a space)."""
    reg = reg or registry()
    places = (_starts(text, _NEWLINE), _starts(text), _lsp_lines(text), _bom(text))
    out: list[Diagnostic] = []
    seen: set[tuple[str, int, int, str]] = set()
    for facts in _replayed(text, reg):
        for e in facts.errors:
            key = (e.code, e.line, e.column, e.message)
            if key in seen:
                continue
            seen.add(key)
            out.append(_diagnostic(e, len(text), *places))
    return out


def _bom(text: str) -> int:
    """1 when the text opens with a byte-order mark (the reader's columns on line 1 do not
    count it; the editor's do, when it leaves the mark in the text), else 0."""
    return 1 if text.startswith("\ufeff") else 0


def _diagnostic(e: DpnError, size: int, readers: list[int], starts: list[int], lines: list[str],
                bom: int = 0) -> Diagnostic:
    at = 0                                                 # the error's index in the text
    if e.line:
        row = min(e.line, len(readers)) - 1
        end = readers[row + 1] - 1 if row + 1 < len(readers) else size
        at = min(readers[row] + max(e.column - 1, 0) + (bom if row == 0 else 0), end)
    row = bisect_right(starts, at) - 1
    source, col = lines[row], at - starts[row]
    m = _TOKEN_END.match(source, col)
    end = m.end() if m and m.end() > col else min(col + 1, len(source))
    # control characters quoted from the record as their pictures, as the command line shows them
    return Diagnostic(row, _utf16(source[:col]), _utf16(source[:end]), e.code, printable(e.message))


# ---- formatting ---------------------------------------------------------------------------------

def formatted(text: str, reg: Optional[Registry] = None) -> str:
    """The document as ``dehlanote fmt`` writes it (a game it cannot read is kept as written)."""
    from .syntax.writer import reads_back

    reg = reg or registry()
    pieces = []
    for game in _games(text):
        facts = replay_game(game, reg, judge=claim_judge)    # as fmt: an unsound claim is an error
        piece = canonical_text(game, facts)      # fmt's own: a game with faults kept as written
        if not facts.errors and not game.errors and not reads_back(explicit(facts), piece):
            piece = as_written(game.source or piece)
        pieces.append(piece)
    if not pieces and text.removeprefix("\ufeff").strip():      # (a byte-order mark alone is no text)
        # comments alone, in no game: data, kept as written, as fmt keeps them (without the
        # blank lines around them, ended by a line end: fmt's text, which the editor's was not)
        return text.removeprefix("\ufeff").strip("\n") + "\n"
    return "\n".join(pieces)


# ---- hover: the position after a card -------------------------------------------------------------

def _card_at(text: str, line: int, units: int) -> Optional[tuple[int, int, str]]:
    """The card token under (line, UTF-16 column): its reader's 1-based line and column, and the card."""
    from pygments.token import Generic, String

    from .output.lexer import DpnLexer

    offset = _offset(text, line, units)
    if offset is None:
        return None
    begin = _outside_comments(text, text.rfind("\n", 0, offset) + 1)
    tokens = DpnLexer(stripnl=False, ensurenl=False).get_tokens_unprocessed(text[begin:])
    for start, token, value in islice(tokens, _LEX_LIMIT):        # (a card further on: no hover)
        start += begin
        if start > offset:
            break
        if start <= offset < start + len(value) and (token in String.Symbol or token in Generic.Strong):
            card = card_of(value.rstrip("!?"))
            row_start = text.rfind("\n", 0, start) + 1
            column = start - row_start + 1 - (_bom(text) if row_start == 0 else 0)
            return (text.count("\n", 0, start) + 1, column, card) if card else None
    return None


def _outside_comments(text: str, start: int) -> int:
    """A line start at or before ``start`` that no comment spans (lexing from there reads the
    tokens after it as lexing the whole text does, without lexing what comes before: a hover
    near the end of a long record took seconds)."""
    while start > 0:
        opened = _comment_opened(text, text.rfind("}", 0, start) + 1, start)    # a comment open at start
        if opened < 0:
            break
        start = text.rfind("\n", 0, opened) + 1
    return start


def _comment_opened(text: str, low: int, high: int) -> int:
    """The first ``{`` of ``text[low:high]`` that opens a comment, or -1: one in a tag's quoted
    value opens none ([Event "Smith {senior"]), read from the start of its line, as the
    colouring reads it (a value never runs past its line). Each line is read once (read again
    from its start for each of its braces, a value of 16,000 of them took 6 s a keystroke)."""
    from .output.lexer import braces

    at = text.find("{", low, high)
    while at >= 0:
        begin = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at, high)
        end = high if end < 0 else end
        opens: list[tuple[int, bool]] = []
        braces(text[begin:end], opens)
        for i, quoted in opens:
            if begin + i >= at and not quoted:
                return begin + i
        at = text.find("{", end, high)
    return -1


def _play_in(facts: GameFacts, line: int, column: int) -> Optional[tuple[DealFact, int]]:
    """The deal holding the card played at (line, column), and how many cards of it are played
    once that card is (the snapshot's index)."""
    for deal in facts.deals:
        played = 0
        for t in deal.tricks:
            for play in t.trick.plays:
                played += 1
                if play.line == line and play.column == column:
                    return deal, played
    return None


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _cards(cards: Any) -> str:
    return " ".join(c[:-1] + SUIT_SYMBOLS.get(c[-1], c[-1]) for c in cards) or "none"


def hover(text: str, line: int, units: int, reg: Optional[Registry] = None) -> Optional[str]:
    """What the position is after the card under the cursor (Markdown), or None."""
    from .output.stepper import snapshots

    found = _card_at(text, line, units)
    if found is None:
        return None
    row, col, card = found
    reg = reg or registry()
    games = [g for g in _games(text) if next(iter(g.deals), None) is not None and next(iter(g.deals)).line <= row]
    for game in games[-1:]:                        # the game the card is in: the last to start before it
        facts = replay_game(game, reg)
        where = _play_in(facts, row, col) if facts.rules is not None else None
        if where is None:
            continue
        deal, played = where
        rules = facts.rules
        assert rules is not None
        shots = snapshots(deal, rules)
        snap = shots[played]
        t = snap.trick
        assert t is not None
        seat = snap.shown[-1].seat
        sides = sides_for(rules.seats)
        lines = [f"**{seat} plays {_cards([card])}**: deal {deal.number}, trick {t.number}, "
                 f"card {len(snap.shown)} of {len(t.order)}"]
        if snap.complete:
            won = f"{t.winner} wins the trick"
            if snap.capture is not None:
                c = snap.capture
                won += f"; {c.by} takes {c.cards} cards to {c.side}" + (f" with {_cards(c.tens)}" if c.tens else "")
            lines.append(won)
            later = [x for x in deal.tricks if x.number > t.number]
            turn = f"{later[0].leader} leads next" if later else "the deal is over"
            if deal.claim is not None and played == len(shots) - 1:
                # the position shown is the deal's end, the claim's cards taken: say so (the
                # piles grew by cards no trick had moved, and the centre emptied, unexplained)
                claim = deal.claim
                lines.append(f"then {claim.by} claims the rest: {claim.side} takes {claim.cards} cards"
                             + (f" with {_cards(claim.tens)}" if claim.tens else ""))
        else:
            lines.append("the trick so far: " + ", ".join(f"{p.seat} {_cards([p.card])}" for p in snap.shown))
            turn = f"{t.order[len(snap.shown)]} to play"
        centre = f"centre {_count(snap.centre_cards, 'card')}"
        if snap.centre_tens:
            centre += f" with {_cards(snap.centre_tens)}"
        tens = " · ".join(f"{side} {_count(len(snap.pile_tens.get(side, ())), 'ten')} "
                          f"({_count(snap.piles.get(side, 0), 'card')}"
                          + (f": {_cards(snap.pile_tens[side])}" if snap.pile_tens.get(side) else "") + ")"
                          for side in sides)
        trump = f"trump {SUIT_SYMBOLS[snap.trump]}" if snap.trump else "no trump known yet"
        lines += [f"{centre} · {trump}", tens, f"**{turn}**"]
        return "  \n".join(lines)
    return None


# ---- completion: the legal cards ---------------------------------------------------------------------

def _game_start(text: str, line: int) -> int:
    """The 0-based line where the game holding ``line`` starts."""
    start = 0
    for game in _games(text):
        first = max(game.source_line, 1) - 1
        if first <= line:
            start = first
    return start


def _where(prefix: str) -> tuple[str, int]:
    """What the cursor at the end of ``prefix`` (a game's text up to it) is writing, read with
    the lexer, whatever the layout (a record on one line too): ``("trick", i)`` in a trick
    whose number stands at ``prefix[i]``, ``("hands", i)`` in a ``hands`` element starting at
    ``i``, else ``("", -1)`` (in a comment, a tag, a deal, trump or tens line ...)."""
    from pygments.token import Comment, Keyword, Name, Number, Text

    from .output.lexer import DpnLexer

    where: tuple[str, int] = ("", -1)
    before = ""                      # the keyword just before, past white space and comments
    tens = False                     # in a tens line: its numbers are no trick numbers
    # lexed from the last line that opens with "deal" (no context runs across a deal), outside
    # any comment: a game of thousands of deals is not lexed whole at each keystroke
    lines = list(_DEAL_LINES.finditer(prefix))
    begin = _outside_comments(prefix, lines[-1].start() if lines else 0)
    for n, (start, token, value) in enumerate(DpnLexer(stripnl=False, ensurenl=False).get_tokens_unprocessed(
            prefix[begin:])):
        if n == _LEX_LIMIT:           # a deal longer than the reader reads: no card to offer in it
            return "", -1
        start += begin
        if token in Text.Whitespace or token in Comment:
            continue
        if value == "{":             # a comment never closed: the cursor is in it
            return "", -1
        if token in Keyword:
            word = value.lower()
            tens = word == "tens"
            where = ("hands", start) if word == "hands" else ("", -1)
        elif token in Number.Integer and not tens and before not in ("deal", "at"):   # (deal 2, at 3)
            where = ("trick", start)
        elif value in ("[", "]") or token in Name.Tag:
            where = ("", -1)
        if not (token in Keyword or token in Name.Constant or token in Number.Integer):
            tens = False
        before = value.lower() if token in Keyword else ""
    return where


def completions(text: str, line: int, units: int, reg: Optional[Registry] = None) -> list[str]:
    """The cards to offer at the cursor: in a trick, those the player to play may play, from the
    per-card core (``DealFact.table``: its hand's legal cards when the hands are written, under
    the profile's rules; else every card not yet seen, the led suit first); in a hand, the
    cards not dealt yet. The layout does not matter: a record may be written on one line."""
    reg = reg or registry()
    lines = _lsp_lines(text)
    if not 0 <= line < len(lines):
        return []
    text = "\n".join(lines)
    current = lines[line][: _from_utf16(lines[line], units)]
    tail = _WORD_TAIL.search(current)
    current = current[: len(current) - len(tail.group(0) if tail else "")]       # the word being typed
    start = _game_start(text, line)
    prefix = "\n".join(lines[start:line] + [current])
    kind, at = _where(prefix)
    if kind == "hands":
        return _undealt(prefix + "\n", reg)
    if kind != "trick":
        return []
    before, current = prefix[:at], prefix[at:]
    head = _TRICK_HEAD.match(current)
    if head is None:
        return []
    games = parse_string(before)
    if not games or not games[-1].deals:
        return []
    facts = replay_game(games[-1], reg)
    if facts.rules is None or not facts.deals:
        return []
    deal = facts.deals[-1]
    partial = [c for c in (card_of(w.rstrip("!?")) for w in re.findall(r"(?<![-\w])[0-9A-Za-z][^\s,{}]*",
                                                                        _COMMENTS.sub(" ", current[head.end():])))
               if c]
    try:
        table = deal.table(trick=deal.next_trick, card=1)     # the per-card core, at this trick
        for card in partial:
            if table.over or table.check(card) is not None:
                return []                  # a card already typed is wrong: its diagnostic says so
            table.play(card)
    except ValueError:
        return []
    if table.over:
        return []
    return [str(c) for c in table.legal_cards()]


def _undealt(prefix: str, reg: Registry) -> list[str]:
    """The cards no hand of the deal being written holds yet: each card has as many copies as
    the rules' decks (three for six players), so it is offered while a copy is left."""
    # a hand's split just typed ("A: AS KS |") awaits its cards: read without it (a "|" with no
    # card after it is no hand the reader reads, and every card was offered, those dealt too)
    games = parse_string(_OPEN_SPLIT.sub("\n", prefix))
    if not games or not games[-1].deals:
        return list(ALL_CARDS)
    rules = iter_replay(games[-1], reg).rules
    copies = rules.decks if rules is not None else 1
    dealt = Counter(c.card for h in games[-1].deals[-1].hands or () for c in h.cards)
    return [c for c in ALL_CARDS if dealt[c] < copies]


# ---- the server --------------------------------------------------------------------------------------

MAX_MESSAGE = 64 * 1024 * 1024     #: bytes: a message announced longer is refused unread
_LINE_LIMIT = 64 * 1024            # bytes of a header line read at once; a longer line's tail is kept
_LENGTH = re.compile(rb"content-length:[ \t]*([^\r\n]*?)[ \t]*\r?\n$", re.I)


class Frames:
    """Standard input as pygls reads it (a header line, a blank line, ``read`` the body), made
    of well-framed messages only. A header block without a usable ``Content-Length`` (none,
    not a number, 0, over :data:`MAX_MESSAGE`) is skipped, body unread: the next message's
    header then comes glued to that body, and is found at the end of its line, so the stream
    is in step again at the next well-formed ``Content-Length:`` header. A line is never held
    whole past 64 KB, nor a body past :data:`MAX_MESSAGE`."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.pending: list[bytes] = []

    def readline(self) -> bytes:
        if not self.pending:
            body = self._next()
            if body is None:
                return b""                   # the end of input: pygls stops
            self.pending = [b"Content-Length: %d\r\n" % len(body), b"\r\n", body]
        return self.pending.pop(0)

    def read(self, size: int) -> bytes:
        return self.pending.pop(0) if self.pending else b""      # the body readline announced

    def _next(self) -> Optional[bytes]:
        """The next well-framed message's body (None at the end of input)."""
        length: Optional[int] = None
        header: Optional[bytes] = None          # the last Content-Length's value in this block
        block = False                           # a header line read since the last blank line
        while True:
            line = self._line()
            if not line:
                return None
            if line.strip(b" \t\r\n"):
                block = True
                found = _LENGTH.search(line)
                if found:
                    header = found.group(1)
                    length = int(header) if header.isdigit() and len(header) < 12 else None
            elif block:
                if length is not None and 0 < length <= MAX_MESSAGE:
                    body = self.raw.read(length)
                    return body if len(body) == length else None
                shown = "none" if header is None else repr(header[:30].decode("ascii", "replace"))
                _log(f"a message skipped: Content-Length {shown} (a message is 1 to {MAX_MESSAGE} bytes)")
                length, header, block = None, None, False

    def _line(self) -> bytes:
        line = self.raw.readline(_LINE_LIMIT)
        while line and not line.endswith(b"\n"):          # a long line: its end is what matters
            more = self.raw.readline(_LINE_LIMIT)
            if not more:
                return b""
            line = line[-100:] + more
        return line


def serve(reg: Optional[Registry] = None) -> int:
    """Run the language server on standard input and output until the editor stops it: the
    exit status LSP asks for, 0 when the editor sent ``shutdown`` before ``exit`` (or the end
    of input), else 1."""
    import sys
    from urllib.parse import unquote

    import attrs
    from lsprotocol import types
    from pygls.exceptions import (JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest,
                                  JsonRpcMethodNotFound, JsonRpcParseError, JsonRpcServerNotInitialized)
    from pygls.lsp.server import LanguageServer
    from pygls.protocol import LanguageServerProtocol
    from pygls.protocol.language_server import lsp_method

    from .version import __version__

    class Protocol(LanguageServerProtocol):
        """pygls's, answering every request: one whose params do not read (``"line": -1``,
        ``params`` missing or null), one not JSON-RPC 2.0, one after ``shutdown`` gets an error
        response with its id where pygls logged it and answered nothing; one before
        ``initialize`` or whose method is not a string, where pygls answered Python's error and
        its traceback."""

        def structure_message(self, data: dict[str, Any]) -> Any:
            msg_id = data.get("id")
            if "jsonrpc" in data and "method" in data and "id" in data and msg_id is not None and (
                    isinstance(msg_id, bool) or not isinstance(msg_id, (int, float, str))
                    or (isinstance(msg_id, float) and not math.isfinite(msg_id))):
                # an id that is no string nor number (an object, a list, true): pygls answered it and
                # then failed to match its answer to it, a traceback in the log. JSON-RPC answers an
                # invalid request with id null. (NaN and Infinity, which Python's JSON reads, cannot
                # be written back in JSON: no number either.)
                _log("a request refused: its id is not a string or a number")
                self._send_response(None, error=types.ResponseError(  # type: ignore[arg-type]
                    code=JsonRpcInvalidRequest.CODE, message="a request's id is a string or a number"))
                return None
            if "jsonrpc" in data and not isinstance(data.get("method", ""), str):    # pygls: a TypeError
                if "id" in data:
                    self.refuse(data["id"], JsonRpcInvalidRequest.CODE, "the method is not a string")
                else:
                    _log("a notification skipped: the method is not a string")
                return None
            kind = types.METHOD_TO_TYPES.get(data.get("method", "")) if "jsonrpc" in data else None
            if kind is not None and "id" in data and "id" not in attrs.fields_dict(kind[0]):
                # a notification sent as a request: pygls dropped its id and answered nothing
                if data["method"] != types.EXIT:
                    self.refuse(data["id"], JsonRpcMethodNotFound.CODE,
                                f"{data['method']} is a notification: it is sent without an id")
                    return None
                self._send_response(data["id"], None)     # the server stops as it was asked
            try:
                return super().structure_message(data)
            except JsonRpcException:
                if "id" not in data or "method" not in data:     # a notification or a response: no answer
                    _log(f"a message skipped: invalid params for {str(data.get('method', 'a response'))[:60]}")
                else:
                    self.refuse(data["id"], JsonRpcInvalidParams.CODE, f"invalid params for {data['method']}")
                return None

        def handle_message(self, message: Any) -> None:
            if message is None:              # a request refused as it was read
                return
            if isinstance(message, list):
                # a JSON-RPC batch (an array of messages): not part of LSP, so none of it is acted
                # on, and one error with id null says so (JSON-RPC's answer to a batch it cannot
                # take); it was dropped without a word, and the editor waited for its answers
                _log(f"a batch of {len(message)} messages refused")
                self._send_response(None, error=types.ResponseError(  # type: ignore[arg-type]
                    code=JsonRpcInvalidRequest.CODE,
                    message="a batch (a JSON array of messages) is not part of the language server protocol: "
                            "send each message on its own"))
                return
            version, msg_id, method = (message.get(k) if isinstance(message, dict) else getattr(message, k, None)
                                       for k in ("jsonrpc", "id", "method"))
            request = msg_id is not None and method is not None
            if version != self.VERSION:
                if request:
                    self.refuse(msg_id, JsonRpcInvalidRequest.CODE, 'not a JSON-RPC 2.0 request ("jsonrpc": "2.0")')
                else:
                    _log(f"not a JSON-RPC 2.0 message, ignored (a {type(message).__name__})")
            elif request and self._shutdown and method != "exit":
                self.refuse(msg_id, JsonRpcInvalidRequest.CODE, "the server is shut down")
            elif request and method == "initialize" and self._workspace is not None:
                # LSP allows initialize once: a second one made a new workspace, and every open
                # document was dropped without a word (hover answered null, formatting nothing)
                self.refuse(msg_id, JsonRpcInvalidRequest.CODE, "the server is initialized already: initialize "
                                                                "is sent once")
            elif self._workspace is None and method not in ("initialize", "exit"):     # pygls: a RuntimeError
                if request:
                    self.refuse(msg_id, JsonRpcServerNotInitialized.CODE, "the server is not initialized yet")
                elif method is not None:
                    _log(f"{str(method)[:60]} before initialize, ignored")
                else:
                    super().handle_message(message)      # a response
            else:
                super().handle_message(message)

        def refuse(self, msg_id: Any, code: int, message: str) -> None:
            _log(f"request {str(msg_id)[:20]} refused: {message}")
            if isinstance(msg_id, (int, float, str)) and not isinstance(msg_id, bool):   # else no id to answer
                self._send_response(msg_id, error=types.ResponseError(code=code, message=message))  # type: ignore[arg-type]

        @lsp_method(types.INITIALIZE)
        def lsp_initialize(self, params: types.InitializeParams) -> Any:
            general = params.capabilities.general
            if general is not None:          # the answers count UTF-16 columns, which every editor speaks:
                general.position_encodings = None       # pygls would take the editor's first (utf-8)
            return (yield from super().lsp_initialize(params))

        @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
        def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
            doc = self.workspace.text_documents.get(unquote(params.text_document.uri))
            if doc is None:                  # pygls would raise a KeyError the editor shows
                _log(f"a change to {params.text_document.uri}, which is not open, is ignored")
                return
            # the server asks for whole texts, but an editor may still send a range: applied
            # here, on LSP's lines and UTF-16 columns (pygls took its new text as the whole
            # document, and its own ranges count lines as Python's splitlines does)
            text = doc.source
            for change in params.content_changes:
                if isinstance(change, types.TextDocumentContentChangePartial):
                    r = change.range
                    text = changed(text, (r.start.line, r.start.character), (r.end.line, r.end.character),
                                   change.text)
                else:
                    text = change.text
            whole = attrs.evolve(params, content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)])
            yield from super().lsp_text_document__did_change(whole)

    class Server(LanguageServer):
        """pygls's, with its faults logged, never shown: pygls pops up on the editor's screen
        every fault out of a request's answer (a body that is not JSON, a notification that
        fails), as Python's error text."""

        def report_server_error(self, error: Exception, source: Any) -> None:
            if source is JsonRpcException and not isinstance(error, JsonRpcException):
                # the body of a message did not read as JSON: JSON-RPC answers a parse error, id null
                self.protocol._send_response(None, error=types.ResponseError(  # type: ignore[arg-type]
                    code=JsonRpcParseError.CODE, message="a message that is not JSON is skipped"))
            _log(f"{getattr(source, '__name__', source)}: {type(error).__name__}: {str(error)[:200]}")

    reg = reg or registry()
    server = Server("dehlanote", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full,
                    protocol_cls=Protocol)

    def source(uri: str) -> tuple[str, Optional[int]]:
        """The text of an open document and its version: a document not open is empty (not
        read from the disk: the editor's copy is the one that counts)."""
        doc = server.workspace.text_documents.get(unquote(uri))
        return (doc.source, doc.version) if doc is not None else ("", None)

    def publish(uri: str) -> None:
        text, version = source(uri)
        found = [types.Diagnostic(
            range=types.Range(start=types.Position(line=d.line, character=d.start),
                              end=types.Position(line=d.line, character=d.end)),
            message=d.message, severity=types.DiagnosticSeverity.Error, code=d.code, source="dehlanote")
            for d in _safely(diagnostics, [], text, reg)]
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=found,
                                                                                version=version))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: Any, params: types.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: Any, params: types.DidChangeTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: Any, params: types.DidSaveTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: Any, params: types.DidCloseTextDocumentParams) -> None:
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                                diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: Any, params: types.HoverParams) -> Optional[types.Hover]:
        text = _safely(hover, None, source(params.text_document.uri)[0], params.position.line,
                       params.position.character, reg)
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", ":"]))
    def on_completion(ls: Any, params: types.CompletionParams) -> types.CompletionList:
        from .output.html.data import card_name

        cards = _safely(completions, [], source(params.text_document.uri)[0], params.position.line,
                        params.position.character, reg)
        items = [types.CompletionItem(label=c, kind=types.CompletionItemKind.Value, detail=card_name(c),
                                      sort_text=f"{i:03d}") for i, c in enumerate(cards)]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def on_formatting(ls: Any, params: types.DocumentFormattingParams) -> list[types.TextEdit]:
        text = source(params.text_document.uri)[0]
        new = _safely(formatted, None, text, reg)
        if new is None or new == text:
            return []
        lines = _lsp_lines(text)
        end = types.Position(line=len(lines) - 1, character=_utf16(lines[-1]))
        return [types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=new)]

    # a request whose params do not read is said in one line by Protocol.structure_message (and
    # answered -32602); pygls also logged it with Python's whole traceback, in the editor's log
    import logging
    logging.getLogger("pygls.protocol.json_rpc").addFilter(
        lambda record: not str(record.msg).startswith("Unable to deserialize message"))
    server.start_io(stdin=cast(BinaryIO, Frames(sys.stdin.buffer)))     # pygls reads what Frames passes on
    return 0 if server.protocol._shutdown else 1      # (pygls itself swallows its exit status)


def _safely(function: Any, default: Any, *args: Any) -> Any:
    """An answer, or ``default`` when the document trips the reader (the editor keeps going;
    the error is logged on standard error, which editors show in their server log)."""
    import traceback

    try:
        return function(*args)
    except Exception:                        # noqa: BLE001 - a half-typed record must never stop the server
        _log("could not answer: " + traceback.format_exc(limit=3))
        return default


def _log(message: str) -> None:
    import sys

    sys.stderr.write(f"dehlanote lsp: {message.rstrip()}\n")
