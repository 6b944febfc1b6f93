"""Going on after a syntax error: the element at fault left out, the rest read and checked.

When the fine reading meets a syntax error, the chunk is read again with the element at
fault left out, or with a slip read as surely meant (a colon left out after a leader seat,
a seat in lower case: :attr:`.diagnose.Diagnosis.recover`), every position kept (what is
left out becomes spaces, its line ends and comments stay): so one mistake hides nothing
after it, each further mistake is reported too, and the deal is replayed as far as it is
known (a trick line left out is a gap the replay reports once). :func:`_edits` lists what
is tried for an error, :func:`recover` keeps the try that reads furthest.

Reading stops at a mistake that nothing after can be read past (the text ends, a comment is
never closed, a limit of the reader), after :data:`MAX_ERRORS` errors in a game, once a
game's text has been read again 40 times over (:data:`_BUDGET_TIMES`; at least 400,000 and at
most 4,000,000 characters), and at once in a game of more than :data:`_BIG` characters; what
was read before is kept.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from ..errors import DpnError
from . import terms
from .diagnose import SUIT_WORDS, Diagnosis
from .model import Game
from .reader import Chunk
from .whole import NOT_READ

__all__ = ["MAX_ERRORS", "recover"]

#: errors reported in one game before reading stops (a file of noise is not read again and again)
MAX_ERRORS = 50
#: characters a game's text may be read again to go on after its errors: 40 times its length
#: (at least 400,000, at most 4,000,000). The records and the mutated ones of the tests spend
#: at most 40 times (a game of noise 98 times, to its 50 errors); each try reads the whole game
#: again, so a budget of a fixed size let a file of 20 KB games each full of mistakes be read
#: at 15 KB a second
_BUDGET = 4_000_000
_BUDGET_FLOOR = 400_000
_BUDGET_TIMES = 40
#: a game's text longer than this is not read again: reading stops at its first error (a
#: game of this size is a whole archive in one game, or noise)
_BIG = 1_000_000
#: how a line that carries an element on from the line before starts: a card, a withdrawn
#: card, a comma or a | (a trick or a hand going on)
_GOES_ON = re.compile(r"[ \t\r]*(?:{card}|{withdrawn}|,|\|)".format(card=terms.pattern("CARD"),
                                                                withdrawn=terms.pattern("WITHDRAWN")))
_DEAL_LINE_START = re.compile(r"\n[^\S\n]*" + terms.pattern("DEAL"))
_DEAL_AT_START = re.compile(r"[^\S\n]*" + terms.pattern("DEAL"))
_TAG_LINE_START = re.compile(r"\n[^\S\n]*\[")


def _blank(text: str, start: int, end: int, comments: bool = True) -> str:
    """``text`` with its characters from ``start`` to ``end`` made spaces, but its line ends
    and (unless not ``comments``) its comments (kept whole, also one that runs on past
    ``end``): every position stays."""
    if not comments:
        return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]
    out = []
    i = start
    while i < end:
        brace = text.find("{", i, end)
        stop = end if brace < 0 else brace
        out.append(re.sub(r"[^\n]", " ", text[i:stop]))
        if brace < 0:
            i = end
            break
        close = text.find("}", brace)
        i = len(text) if close < 0 else close + 1
        out.append(text[brace:i])
    return text[:start] + "".join(out) + text[max(i, end):]


def _line_start(text: str, i: int) -> int:
    return text.rfind("\n", 0, i) + 1


def _line_end(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _element_end(text: str, i: int) -> int:
    """Where the element on the line at ``i`` ends: its line's end, or the end of the lines
    after it that carry it on."""
    end = _line_end(text, i)
    while end < len(text):
        nxt = _line_end(text, end + 1)
        if not _GOES_ON.match(text, end + 1, nxt):
            break
        end = nxt
    return end


def _comments(text: str) -> list[tuple[int, int]]:
    """Where the comments of ``text`` stand (start, end), as the lexer finds them (a tag value
    holding a brace aside: then a try may simply read no further)."""
    out = []
    i = text.find("{")
    while i >= 0:
        close = text.find("}", i)
        end = len(text) if close < 0 else close + 1
        out.append((i, end))
        i = text.find("{", end)
    return out


def _in_comment(spans: list[tuple[int, int]], i: int) -> bool:
    k = bisect.bisect_right(spans, (i, 1 << 62)) - 1
    return k >= 0 and spans[k][0] < i < spans[k][1]


def _previous_element(text: str, line_start: int, spans: list[tuple[int, int]]) -> int | None:
    """Where the element that the line at ``line_start`` follows starts (the first line of
    it that is not blank, not inside a comment and carries nothing on), or None."""
    i = line_start
    while i > 0:
        i = _line_start(text, i - 1)
        line = text[i:_line_end(text, i)]
        lead = i + len(line) - len(line.lstrip())
        if line.strip() and not _GOES_ON.match(line) and not _in_comment(spans, lead):
            return i
    return None


def _last_word(text: str, end: int, spans: list[tuple[int, int]]) -> int | None:
    """Where the last word before ``end`` starts (past white space and comments), or None."""
    i = end
    while i > 0:
        c = text[i - 1]
        if c.isspace():
            i -= 1
        elif c == "}" and _in_comment(spans, i - 1):
            i = text.rfind("{", 0, i - 1)
            if i < 0:
                return None
        else:
            start = i
            while start > 0 and not text[start - 1].isspace() and text[start - 1] not in "{}":
                start -= 1
            return start
    return None


def _edits(text: str, at: int, row: Diagnosis | None) -> list[tuple[str, int]]:
    """Texts to read again after an error at index ``at``, best first, each with the number
    of lines it leaves out something of (see :func:`_recover`).

    What is tried depends on the line the error is on. On a trick line, the trick at fault
    (a line may hold several: a line of 13 tricks was left out whole, and the tricks before
    the fault never checked), it and the rest of its line, then the line (a trick left out is
    a gap the replay reports once, where a trick cut short would read as a trick of the
    wrong size). On a hand line, the hand at fault (the replay then takes that
    hand from the play, as when a record lists only some hands). On any other line, the word
    at fault, then the rest of the line from the word before it or from the word at fault,
    then the line. When the word at fault opens its line, what went wrong may rather be the
    end of the element before (a word left hanging, or the whole element). Last, the rest
    of the deal.
    """
    out = []
    if row is not None and row.recover == "colon" and at > 0:
        out.append((text[:at - 1] + ":" + text[at:], 0))
    elif row is not None and row.recover == "capital":
        out.append((text[:at] + text[at].upper() + text[at + 1:], 0))
    elif row is not None and row.recover == "suit":
        word = _WORD_AT.match(text, at)
        letter = SUIT_WORDS.get(word.group(0).lower()) if word is not None else None
        if word is not None and letter is not None:          # the name read as its letter, positions kept
            out.append((text[:at] + letter.ljust(word.end() - at) + text[word.end():], 0))
    elif row is not None and row.recover == "comma" and text[at:at + 1] == ",":
        out.append((text[:at] + " " + text[at + 1:], 0))          # the comma read as the space it stands for

    def left_out(start: int, end: int) -> tuple[str, int]:
        return _blank(text, start, end), text.count("\n", start, end) + 1

    start = _line_start(text, at)
    end = _element_end(text, at)
    line = text[start:_line_end(text, start)]
    opens = not text[start:at].strip()
    spans = _comments(text)
    if _TRICK_LINE.match(line):
        # a line may hold several tricks: the trick at fault, then it and the rest of the
        # line (the tricks before it are read and checked), then the line. (The word at
        # fault never starts a trick: a number there may be a card without its suit)
        heads = [m.start() for m in _TRICK_HEAD.finditer(text, start, end) if not _in_comment(spans, m.start())]
        first = heads[0] if heads else start
        trick = max((i for i in heads if i < at), default=first)
        after = [i for i in heads if i > at]
        if after:
            out.append(left_out(trick, after[0]))
        if trick > first:
            out.append(left_out(trick, end))
        out.append(left_out(start, end))
    elif _HAND_LINE.match(line):
        seats = [start + m.start() for m in _SEAT_COLON.finditer(line)]
        before = [i for i in seats if i <= at]
        after = [i for i in seats if i > at]
        if before:
            out.append(left_out(before[-1], after[0] if after else end))     # the hand at fault
        if not opens:
            out.append(left_out(at, end))
        out.append(left_out(start, end))
    else:
        word = _WORD_AT.match(text, at)
        if word is not None and word.end() > at:
            out.append(left_out(at, word.end()))                     # the word at fault
        previous_word = _last_word(text, at, spans)
        if not opens and previous_word is not None and previous_word > start:
            out.append(left_out(previous_word, end))                 # from the word before it
        if not opens:
            out.append(left_out(at, end))                            # from the word at fault
        out.append(left_out(start, end))                             # the line
    if opens:   # the word at fault opens its line: the end of the element before may be at fault
        previous = _previous_element(text, start, spans)
        if previous is not None:
            last = _last_word(text, start, spans)
            if last is not None and last > previous:
                out.append(left_out(last, _line_end(text, last)))   # its last word
            out.append(left_out(previous, start - 1))               # the element before
    deal = _DEAL_LINE_START.search(text, at)
    rest = len(text) if deal is None else deal.start()
    if _DEAL_LINE_START.search(text, 0, start) is None and not _DEAL_AT_START.match(text):
        # in the tags: the rest of the header is its lines up to the next tag, not every tag
        # left (leaving those out read to the end, and lost them and their own mistakes)
        tag = _TAG_LINE_START.search(text, at, rest)
        if tag is not None and not _in_comment(spans, tag.start() + 1):
            rest = tag.start()
    out.append(left_out(start, rest))                                # the rest of the deal
    return out


_TRICK_LINE = re.compile(r"[ \t\ufeff]*(?:{}|{})".format(terms.pattern("DOTTED_INT"), terms.pattern("INT")))
#: where a trick starts: its number, as a word of its own (a card's rank is never an INT)
_TRICK_HEAD = re.compile(r"(?<![^\s}}])(?:{}|{})".format(terms.pattern("DOTTED_INT"), terms.pattern("INT")))
_SEAT_COLON = re.compile(r"(?<![^ \t]){}[ \t]*:".format(terms.pattern("SEAT")))
_HAND_LINE = re.compile(r"[ \t\ufeff]*(?:{}|{}[ \t]*:)".format(terms.pattern("HANDS"), terms.pattern("SEAT")))
_WORD_AT = re.compile(r"[^\s{}]+")


def _index(chunk: Chunk, line: int, column: int) -> int:
    """The index in the chunk's text of a file position."""
    text = chunk.text
    i = 0
    for _ in range(line - chunk.line):
        i = text.find("\n", i) + 1
    return i + column - 1 - (chunk.column - 1 if line == chunk.line else 0)


def _stops(error: DpnError, row: Diagnosis | None) -> bool:
    """Whether nothing after this error can be read (the text ends, a comment is never closed,
    a limit of the reader)."""
    return (row is not None and row.recover == "stop") or error.message.endswith(NOT_READ)


def recover(chunk: Chunk, error: DpnError, fine: Any) -> tuple[tuple[list[Game], list[DpnError]] | None,
                                                               list[DpnError]]:
    """Go on reading a chunk after the syntax error ``error`` that the fine parser ``fine``
    met (its ``parse(chunk, source)`` and the diagnosis ``row`` of its last error): what the
    last reading gave (its games and the errors it found), or None when reading had to
    stop, and every syntax error met on the way.

    Each try reads the chunk again with one element left out, or with a slip read as surely
    meant (:func:`_edits`), every position kept. The try kept is the one that reads the most
    lines past the error less the lines it left something out of (one that reads to the end
    counts every line; the first of equals): a try whose own change only moves the error to
    the next line, or that reads to the end by leaving everything out, loses to one that
    leaves out the one line at fault. Its next error, if any, is the next to go on from; a
    try that stops at the same place or before is no way on.
    """
    errors = [error]
    row = fine.row
    text = chunk.text
    if len(text) > _BIG:
        return None, errors
    last_line = chunk.line + text.count("\n") + 1
    budget = min(_BUDGET, max(_BUDGET_FLOOR, _BUDGET_TIMES * len(text)))
    spent = 0
    while not _stops(error, row) and len(errors) < MAX_ERRORS:
        at = _index(chunk, error.line, error.column)
        if not 0 <= at < len(text):
            break
        best: tuple[int, str, DpnError | None, Diagnosis | None, Any] | None = None
        edits = _edits(text, at, row)
        # no try can score more than reading to the end with the fewest lines touched: a try that
        # does is kept at once (the first of equals is kept anyway), the rest left unread
        most = last_line - min((lines for _, lines in edits), default=0)
        for edited, lines in edits:
            outcome: tuple[Any, ...]
            spent += len(edited)
            if spent > budget:
                break
            try:
                read = fine.parse(chunk._replace(text=edited, whole=None), chunk.text)
            except DpnError as again:
                if _index(chunk, again.line, again.column) <= at:
                    continue
                score, outcome = again.line - lines, (again, fine.row, None)
            else:
                score, outcome = last_line - lines, (None, None, read)
            if best is None or score > best[0]:
                best = (score, edited, *outcome)
                if score >= most:
                    break
        if best is None:
            break
        _, text, next_error, row, read = best
        if next_error is None:
            return read, errors
        error = next_error
        errors.append(error)
    if error.message.endswith(NOT_READ):
        return None, errors
    # reading stops here: what was read before the element at fault is kept (the deals
    # before it are replayed), the rest of the game is left out; when the lines before it do
    # not end a deal that can be read (a hand cut short), the whole deals before that one
    at = _index(chunk, error.line, error.column)
    if len(errors) >= MAX_ERRORS or spent > budget:
        errors.append(DpnError("syntax", f"too many errors: {NOT_READ}", error.line, error.column))
    cut = _line_start(text, max(0, at))
    deals = [m.start() + 1 for m in _DEAL_LINE_START.finditer(text, 0, cut)]
    for start in (cut, *deals[-1:]):
        try:
            return fine.parse(chunk._replace(text=_blank(text, start, len(text), False), whole=None),
                              chunk.text), errors
        except DpnError:
            continue
    return None, errors
