"""The quick check of a whole game: is a plain game certainly valid, and how many deals has it?

``validate`` reads most games of an archive only to find them valid. For a game that the
reader matched as one ``GAME_WHOLE`` token (:attr:`dehlanote.syntax.reader.Chunk.whole`:
the grammar has already accepted its syntax), :func:`quick_deals` checks it without
building the model: the text is cut into words, each word looked up once in a table of
the common spellings (:data:`_TRICK_WORDS`) that gives a small integer (a card is its suit
times 16 plus its strength), the integers of a deal's tricks are strung into ``bytes``,
and the checks run on those with ``bytes`` methods (the trick structure and numbering by
one regular expression, a card played twice by a set, the winner of each trick by a
translation table and ``max``, a revoke by ``find`` in each seat's string of suits).
Positions are never worked out: the answer is only "valid, with N deals" or "not certain".

It answers None (not certain) at the first thing it does not handle or that is wrong:
any error, any rule it does not follow (trump set in play, several decks, a partial
``hands`` block, a ``|`` in a hand, a misdeal, a deal that stops early, a leader written
for some tricks only, an uncommon spelling), so that the caller reads and replays that
game the full way, which words every error at its line and column. Errors are therefore
those of the full path by construction; what this module must get right is that it
answers a count only for a game the full path finds valid with that count
(``tests/replay/test_quick.py`` compares the two on every sample, the fuzz corpus,
mutated records and random matches of several profiles). The match is moved on by the
engine's own :func:`~dehlanote.replay.engine.settle`, and the result checked by the
game replayer's own functions.
"""

# mypy: strict-equality
from __future__ import annotations

import re
from itertools import accumulate
from typing import Iterator, Optional, cast

from ..deck import SUITS, sides_for
from ..errors import DpnError
from ..rules.profile import Registry, Rules
from ..syntax import terms
from ..syntax.cards import STRING_BODY, suit_of
from ..syntax.model import make_tag
from ..syntax.parser import whole_span
from ..syntax.reader import Chunk
from ..syntax.whole import WORD_KINDS
from .engine import MatchState, settle, start_match
from .game import _check_result, match_result, read_date
from .methods import trump_method

__all__ = ["play_py", "quick_chunk", "quick_deals"]

# ---- the words: each common spelling to a small integer (one byte) ----------------------
#: cards 0x00-0x3f (suit * 16 + strength, 0 for the two to 12 for the ace), withdrawn
#: cards 0x40-0x7f (0x40 + the card), numbers 0x80-0xe3 (0x80 + the number, 0 to 99),
#: seats 0xe4-0xe9, then the keywords and the separators
_W, _NUM, _SEAT = 0x40, 0x80, 0xE4
_TENS, _HANDS, _TRUMP, _DEAL, _SKIP = 0xF0, 0xF1, 0xF2, 0xF3, 0xF5
_SUIT_NO = {s: i for i, s in enumerate(SUITS)}
_STRENGTH = {r: 12 - i for i, r in enumerate(("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"))}


def _code(card: str) -> int:
    return _SUIT_NO[card[-1]] * 16 + _STRENGTH[card[:-1]]


def _tables() -> tuple[dict[str, int], dict[str, int]]:
    """The words of trick lines and those of hand lines (no glyph there: a glyph in a hand is
    an error): the whole reader's table of common words (each checked with the grammar's own
    terminal, the suit symbols with an emoji selector of DPN 1.1 among them) and their codes here."""
    tricks: dict[str, int] = {}
    hands: dict[str, int] = {}
    for word, kind in WORD_KINDS.items():
        what = kind[0]
        if what == "card":
            tricks[word] = _code(kind[1])
            if kind[2] is None:
                hands[word] = tricks[word]
        elif what == "withdrawn":
            tricks[word] = _W + _code(kind[1])
        elif what == "number":
            tricks[word] = _NUM + kind[1]
        elif what == "seat":
            tricks[word] = hands[word] = _SEAT + "ABCDEF".index(kind[1])
        else:   # a lone colon or comma
            tricks[word] = hands[word] = _SKIP
    for word, code in (("tens", _TENS), ("hands", _HANDS), ("trump", _TRUMP), ("deal", _DEAL)):
        for spelt in (word, word.title(), word.upper()):
            tricks[spelt] = code
    return tricks, hands


_TRICK_WORDS, _HAND_WORDS = _tables()
_ALL = bytes(range(256))
_NOT_CARD = bytes(range(0x40, 0x100))
_NOT_PLAY = bytes(range(0x80, 0x100))
_NOT_WITHDRAWN = bytes(range(0, _W)) + bytes(range(_NUM, 0x100))
_NOT_NUMBER = bytes(range(0, _NUM)) + bytes(range(_SEAT, 0x100))
_NOT_SEAT = bytes(range(0, _SEAT)) + bytes(range(_SEAT + 6, 0x100))
_SKIPS = bytes((_SKIP,))
#: a card's suit (0-3)
_SUIT_OF = bytes((c >> 4) & 3 for c in range(256))
#: the four tens
_TEN_CODES = tuple(_code("10" + s) for s in SUITS)
#: a withdrawn card anywhere, and a run of more than a few (the reader's limit is 64: never near it)
_WITHDRAWN_CODES = bytes(range(_W, _NUM))
#: each withdrawn card, and (the group) the card it stands before, in a run of at most eight
#: (the reader's limit is 64: never near it): among the cards played and withdrawn, so that
#: one at the end of a trick stands before the next trick's lead
_BEFORE = re.compile(rb"[\x40-\x7f](?=[\x40-\x7f]{0,7}+([\x00-\x3f]))")
#: a pair (a suit * 4 + another) to 1 where the two are one suit, and (a trick * 16 + another)
#: to 1 where the second is not later
_SAME_SUIT = bytes(p < 16 and p >> 2 == p & 3 for p in range(256))
_NOT_LATER = bytes(p & 15 <= p >> 4 for p in range(256))
#: a card's code to its code withdrawn
_AS_WITHDRAWN = bytes((c + _W) & 0xFF for c in range(256))
#: a seat index to its word's code
_AS_SEAT = bytes((_SEAT + i) & 0xFF for i in range(256))
#: a pair (suit led * 4 + suit played) to the suit led + 1 where the card did not follow, else 0
_SHOWN = bytes((p >> 2) + 1 if p < 16 and p >> 2 != p & 3 else 0 for p in range(256))
#: the bytes a show-out may have (the suit led + 1)
_SHOWN_AT = re.compile(b"[\x01-\x04]").finditer


def _keys(trump: int) -> tuple[bytes, ...]:
    """For each suit led, each card's key in the trick: trumps above the suit led above the
    rest, each by strength (so the trick's highest key is its winner)."""
    out = []
    for led in range(4):
        table = bytearray(256)
        for c in range(0x40):
            suit, strength = c >> 4, c & 15
            table[c] = strength + (32 if suit == trump else 16 if suit == led else 0)
        out.append(bytes(table))
    return tuple(out)


_KEYS = {s: _keys(i) for i, s in enumerate(SUITS)}
#: the tag lines of a whole game: name and value
_TAG = re.compile(r'\[[ \t]*({})[ \t]*"({})"'.format(terms.pattern("NAME"), STRING_BODY))
_UNESCAPE = re.compile(r'\\(["\\])')
#: comments, and tag values (which may hold a {: kept as they are)
_COMMENTS = re.compile("({})|{}".format(terms.pattern("COMMENT"), terms.possessive(terms.pattern("STRING"))))
#: comments alone, each to a space: the same as ``_COMMENTS`` where no tag value can hold a
#: { (every " before every {), found by the regex engine from the { alone, without trying a
#: tag value at each character nor calling back for each match (comments on a trump and a
#: tens line: 525k -> 450k instructions a deal of the quick check)
_ONLY_COMMENTS = re.compile(terms.pattern("COMMENT"))
#: where the first deal starts (the deal keyword opening a line, after the tags)
_FIRST_DEAL = re.compile(r"\n[^\S\n]*" + terms.pattern("DEAL"))


def _blank(m: re.Match[str]) -> str:
    return " " if m.group(1) is not None else m.group()


class _Plan:
    """What the quick check reads of one resolved rule set (None when it does not follow them)."""

    def __init__(self, rules: Rules) -> None:
        method = trump_method(rules)
        self.rules = rules
        self.ok = (rules.decks == 1 and method.announcer is not None and method.open and not method.five_phase
                   and not method.secret and rules.seats in (4, 6))
        self.n = n = rules.seats
        self.tricks = t = rules.tricks_per_deal
        self.hand_size = hs = rules.hand_size
        self.announcer = method.announcer or 0
        self.immediate = rules.capture == "immediate"
        self.sides = sides_for(n)
        self.seats = "ABCDEF"[:n]
        self.seat_index = {s: i for i, s in enumerate(self.seats)}
        self.numbers = bytes(range(_NUM + 1, _NUM + 1 + t))
        #: the tricks: a number, a leader or none, n cards; with cards withdrawn the same once
        #: they are taken out, and each run of them before a card that is not a lead
        #: (``_withdrawn_ok``): ``(?:[\x40-\x7f]{0,8}[\x00-\x3f]){n}`` a trick, without looking
        #: for withdrawn cards before each card of a deal that has none
        self.trick_shape = re.compile(rb"(?:[\x80-\xe3][\xe4-\xe9]?[\x00-\x3f]{%d})+" % n)
        #: a play's position (in playing order) to its trick, to whether it is a lead, and the
        #: position in seat order to the seat
        self.trick_of = bytes(q // n for q in range(t * n))
        self.lead_at = bytes(q % n == 0 for q in range(256))
        self.seat_cycle = bytes(q % n for q in range(t * n))
        #: the seats' order in a hands block to what each card of it must be turned to
        self.hand_rows: dict[bytes, bytes] = {}
        self.seat_codes = self.seat_cycle.translate(_AS_SEAT)
        self.hand_shape = re.compile(rb"(?:[\xe4-\xe9][\x00-\x3f]{%d})+" % hs)
        self.all_seats = bytes(range(_SEAT, _SEAT + n))
        self.result_values = (*self.sides, "=", "*")
        self.repeat = [bytes((suit,)) * n for suit in range(4)]
        self.hands_words = n * (hs + 1)


_plans: dict[int, tuple[Rules, _Plan]] = {}


def _plan(rules: Rules) -> _Plan:
    got = _plans.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1]
    plan = _Plan(rules)
    if len(_plans) > 256:
        _plans.clear()
    _plans[id(rules)] = (rules, plan)
    return plan


def quick_chunk(chunk: Chunk, reg: Registry) -> Optional[tuple[int, int, int]]:
    """A chunk of the reader (one game's text) that is one whole game and certainly valid:
    its number of deals and the file line and column where the game starts (its first
    tag, as the model has them); None when that is not certain (read it the full way)."""
    if chunk.encoding_errors:
        return None
    text = chunk.text
    span = chunk.whole if chunk.whole is not None else whole_span(text)
    if span is None:
        return None
    at, end = span
    deals = quick_deals(text[at:end], reg)
    if deals is None:
        return None
    nl = text.rfind("\n", 0, at)
    if nl < 0:
        return deals, chunk.line, chunk.column + at
    return deals, chunk.line + text.count("\n", 0, at), at - nl


def quick_deals(text: str, reg: Registry) -> Optional[int]:
    """The number of deals of a game that is one ``GAME_WHOLE`` token (its ``text``), when
    the game is certainly valid under the rules its ``Rules`` tag names (read and replayed
    the full way it gives no error and nothing ruled); None when that is not certain."""
    try:
        return _check(text, reg)
    except (IndexError, ValueError, TypeError, KeyError, DpnError):
        # an unusual shape (a word missing where one is looked for, a word not in the tables
        # where bytes are made of them, an unknown profile): not certain, read in full
        return None


#: a line of more than 100,000 characters (found without splitting the text into its lines,
#: which made validate of the six-player game of 10,000 deals peak at 65 MB, 45 MB now)
_LONG_LINE = re.compile(r"^[^\n]{100001}", re.MULTILINE)


def _check(text: str, reg: Registry) -> Optional[int]:
    brace = text.find("{")
    if brace >= 0:
        # (no " after the first {: no tag value holds a {, and no comment a ")
        text = _ONLY_COMMENTS.sub(" ", text) if text.rfind('"') < brace else _COMMENTS.sub(_blank, text)
    first = _FIRST_DEAL.search(text)
    if first is None or len(text) > 100_000 and _LONG_LINE.search(text) is not None:
        return None     # (a line the whole reader leaves to the fine one)
    head = text[: first.start()]
    if "\\" in head:
        return None
    seen: set[str] = set()
    rules_value = result_value = date_value = None
    for name, value in _TAG.findall(head):
        key = name.lower()
        if key in seen:
            return None         # a tag given twice
        seen.add(key)
        if key == "rules":
            rules_value = value
        elif key == "result":
            result_value = value
        elif key == "date":
            date_value = value
    if date_value is not None and read_date(date_value)[0] is None:
        return None
    rules = reg.resolve(rules_value if rules_value is not None else "standard")
    plan = _plan(rules)
    if not plan.ok or result_value is not None and result_value not in plan.result_values:
        return None
    match = start_match(rules)
    deals = 0
    for block in _blocks(text, first.start()):
        words = block.split()
        codes = list(map(_TRICK_WORDS.get, words))
        pos = 0
        end = len(words)
        while pos < end:
            after = _deal(plan, match, words, codes, pos)
            if after is None:
                return None
            match, pos = after
            deals = match.deals_seen
    if result_value is not None:
        result = match_result(match, rules, True)
        if result.finished is not None and \
                _check_result(make_tag("Result", result_value, 0, 0), result, rules, match) is not None:
            return None
    return deals


#: the text of a long game is split into words a block of about this many characters at a time
#: (each block from a deal's first line): the words of the whole game at once took 60 MB for
#: 10,000 deals
BLOCK = 1 << 16


def _blocks(text: str, start: int) -> Iterator[str]:
    """The game's deals from ``start`` in blocks of whole deals: each block ends where a later
    deal's line begins (a cut that is not a deal's start makes that deal fail its check, which
    only sends the game the full way)."""
    end = len(text)
    while start < end:
        cut = start + BLOCK
        if cut < end:
            found = _FIRST_DEAL.search(text, cut)
            cut = found.start() if found is not None else end
        else:
            cut = end
        yield text[start:cut]
        start = cut


def _deal(plan: _Plan, match: MatchState, words: list[str], codes: list[Optional[int]],
          pos: int) -> Optional[tuple[MatchState, int]]:
    """One deal from the word at ``pos`` (its deal keyword): the match after it and the word
    after the deal, or None."""
    if codes[pos] != _DEAL or match.finished:
        return None
    n = plan.n
    number = match.deals_seen + 1
    pos += 1
    word = words[pos]
    if word.isdigit():
        if len(word) > 9 or int(word) != number:
            return None
        pos += 1
    dealer = match.dealer
    if words[pos].lower() == "dealer":
        stated = plan.seat_index.get(words[pos + 1])
        if stated is None or dealer is not None and stated != dealer:
            return None
        dealer = stated
        pos += 2
    if dealer is None or number > 1 and match.dealer is None:
        return None
    hands: Optional[bytes] = None
    trump: Optional[str] = None
    while True:
        code = codes[pos]
        if code == _TRUMP and trump is None:
            if words[pos + 1].lower() == "drawn":
                return None
            trump = suit_of(words[pos + 1])
            pos += 2
            if words[pos].lower() == "by":
                if words[pos + 1] != plan.seats[(dealer + plan.announcer) % n]:
                    return None
                pos += 2
            if words[pos].lower() in ("at", "closed"):
                return None
        elif code == _HANDS and hands is None:
            start = pos = pos + 1
            guess = start + plan.hands_words         # (each hand "X:" and its cards, nothing else)
            code = codes[guess]
            if code == _TRUMP or code is not None and _NUM <= code < _SEAT:
                pos = guess
            else:
                while True:
                    code = codes[pos]
                    if code == _TRUMP or code is not None and _NUM <= code < _SEAT:
                        break
                    pos += 1
            hands = bytes(map(_HAND_WORDS.__getitem__, words[start:pos])).translate(None, _SKIPS)
        elif code is not None and _NUM <= code < _SEAT:
            break
        else:
            return None         # a misdeal, or a word out of place
    if trump is None:
        return None
    tens_at = codes.index(_TENS, pos)
    # (a word not in the table is None there, which bytes() refuses: TypeError, not certain)
    section = bytes(cast(list[int], codes[pos:tens_at])).translate(None, _SKIPS)
    withdrawn = not plan.trick_shape.fullmatch(section)
    if withdrawn and not plan.trick_shape.fullmatch(section.translate(None, _WITHDRAWN_CODES)) or \
            section.translate(None, _NOT_NUMBER) != plan.numbers:
        return None
    cards = section.translate(None, _NOT_CARD)
    if len(set(cards)) != len(cards):
        return None             # a card played twice
    written = section.translate(None, _NOT_SEAT)
    settled = _play(plan, cards, dealer, trump, written, section if withdrawn else None, hands)
    if settled is None:
        return None
    tens, pile_cards, pile_tricks = settled
    sides = plan.sides
    s1, c1, s2, c2 = words[tens_at + 1: tens_at + 5]
    if s1 == s2 or len(c1) > 9 or len(c2) > 9 or \
            {s1: int(c1), s2: int(c2)} != {sides[0]: tens[0], sides[1]: tens[1]}:
        return None
    return settle(match, number, dealer, tens, pile_cards, pile_tricks)[0], tens_at + 5


def _play(plan: _Plan, cards: bytes, dealer: int, trump: str, written: bytes,
          section: Optional[bytes], hands: Optional[bytes]
          ) -> Optional[tuple[tuple[int, int], tuple[int, int], tuple[int, int]]]:
    """A deal's tricks (``cards``: every card in playing order, a trick after the other):
    the tens, cards and tricks each side took, or None at anything wrong (a revoke, a
    leader written wrong, a withdrawn card that was not illegal or not held, a card not in
    the written hand)."""
    n = plan.n
    got = _PLAY(cards, n, plan.tricks, dealer, _SUIT_NO[trump], plan.immediate)
    if got is None:
        return None             # a revoke
    leaders, by_seat, tens0, tens1, took0, took1 = got
    if written and written != leaders[:-1].translate(_AS_SEAT):
        return None             # a leader written wrong, or for some tricks only
    if section is not None and not _withdrawn_ok(plan, section, cards, cards.translate(_SUIT_OF)[::n], by_seat):
        return None
    if hands is not None and not _hands_ok(plan, hands, by_seat):
        return None
    return (tens0, tens1), (took0 * n, took1 * n), (took0, took1)


def play_py(cards: bytes, n: int, total: int, dealer: int, trump: int, immediate: bool
            ) -> Optional[tuple[bytes, bytes, int, int, int, int]]:
    """The play of a deal (the compiled ``_cquick.play`` where it is built, the same answer):
    None at a revoke, else each trick's leader and the last winner, the cards in seat order
    (seat s's card of trick t at t * n + s), and the tens and tricks each side took."""
    size = n * total
    suits = cards.translate(_SUIT_OF)
    led = suits[::n]
    # each trick's winner, counted from its leader: the card of the highest key (the keys
    # for the suit led); the leaders follow, each trick's winner leading the next
    keys = _KEYS[SUITS[trump]]
    by_led = [cards.translate(k) for k in keys]
    ahead = [ranked.index(max(ranked[a:a + n]), a) - a
             for a, ranked in zip(range(0, size, n), map(by_led.__getitem__, led))]
    leaders = [x % n for x in accumulate(ahead, initial=(dealer + 1) % n)]
    # each trick in seat order (seat s's card of trick t at t * n + s)
    turned = [(n - lead) % n + a for a, lead in zip(range(0, size, n), leaders)]
    by_seat = b"".join([cards[r:a + n] + cards[a:r] for a, r in zip(range(0, size, n), turned)])
    seat_suits = by_seat.translate(_SUIT_OF)
    # where a seat did not follow suit (the suit led + 1 there, else 0): a revoke when the
    # seat plays that suit later
    pairs = (int.from_bytes(b"".join([bytes((suit,)) * n for suit in led]), "big") * 4
             + int.from_bytes(seat_suits, "big")).to_bytes(size, "big").translate(_SHOWN)
    if pairs != bytes(size):
        mine = [seat_suits[s::n] for s in range(n)]     # each seat's suits, trick by trick
        for m in _SHOWN_AT(pairs):
            t, seat = divmod(m.start(), n)
            if mine[seat].find(pairs[m.start()] - 1, t + 1) >= 0:
                return None
    # the captures: the tricks won since the last capture, taken by two wins of one seat in
    # a row or the last trick (immediate capture: each trick by its winner)
    winners = leaders[1:]
    took = [0, 0]
    if immediate:
        for w in winners:
            took[w & 1] += 1
        side_of_trick = [w & 1 for w in winners]
    else:
        side_of_trick = []
        last = -1
        run = start = 0
        for t, w in enumerate(winners):
            run = run + 1 if w == last else 1
            if run == 2 or t == total - 1:
                took[w & 1] += t + 1 - start
                side_of_trick += [w & 1] * (t + 1 - start)
                start = t + 1
                if run == 2:
                    run = 0
            last = w
    tens = [0, 0]
    for ten in _TEN_CODES:
        at = cards.find(ten)
        if at >= 0:
            tens[side_of_trick[at // n]] += 1
    return bytes(leaders), by_seat, tens[0], tens[1], took[0], took[1]


try:
    from . import _cquick       # the same, compiled (built at install with a C compiler)
    _PLAY = _cquick.play
except (ImportError, AttributeError):     # pragma: no cover (no compiler at install, or another build)
    _PLAY = play_py


def _withdrawn_ok(plan: _Plan, section: bytes, cards: bytes, led: bytes, by_seat: bytes) -> bool:
    """Every card withdrawn (``-X``) was a revoke put right: not a lead, not of the suit led,
    held then (the player plays it later), while the player held the suit led, as the
    replay decides it at the end of a deal. Called once no seat revoked, so that a seat
    that held the suit led at a trick is one that followed suit there. Each of these is
    checked for all the withdrawn cards of the deal at once, with ``translate`` tables:
    ``cards`` is in playing order, ``by_seat`` in seat order (seat s's card of trick t at
    t * n + s)."""
    size = len(cards)
    taken = section.translate(None, _NOT_WITHDRAWN)             # the withdrawn cards (0x40 + the card)
    before = b"".join(_BEFORE.findall(section.translate(None, _NOT_PLAY)))   # the card each stands before
    if len(before) != len(taken):
        return False        # a card withdrawn at the end, or more than eight in a row
    at = before.translate(bytes.maketrans(cards, bytes(range(size))))         # its place in playing order
    if 1 in at.translate(plan.lead_at):
        return False        # a card withdrawn before a lead (or after a trick's number or leader)
    # the suit led at each of those tricks (a table of 256 from a play's place to its trick's suit led)
    suit_led = at.translate(b"".join(map(plan.repeat.__getitem__, led)) + bytes(256 - size))
    if before.translate(_SUIT_OF) != suit_led:
        return False        # the card played instead did not follow suit: the player held none
    if 1 in (int.from_bytes(suit_led, "big") * 4 + int.from_bytes(taken.translate(_SUIT_OF), "big")
             ).to_bytes(len(taken), "big").translate(_SAME_SUIT):
        return False        # a card of the suit led withdrawn
    # the seat that plays each withdrawn card (a card nobody plays keeps its code, 0x40 or more)
    # is the one that withdrew it, in a later trick
    withdrawn_seat = bytes.maketrans(by_seat.translate(_AS_WITHDRAWN), plan.seat_cycle)
    if taken.translate(withdrawn_seat) != before.translate(bytes.maketrans(by_seat, plan.seat_cycle)):
        return False
    later = (int.from_bytes(at.translate(plan.trick_of + bytes(256 - size)), "big") * 16
             + int.from_bytes(taken.translate(bytes.maketrans(cards.translate(_AS_WITHDRAWN), plan.trick_of)), "big"))
    return 1 not in later.to_bytes(len(taken), "big").translate(_NOT_LATER)


def _hands_ok(plan: _Plan, hands: bytes, by_seat: bytes) -> bool:
    """A ``hands`` block of every seat, each dealt ``hand_size`` cards, no card twice, and
    each seat playing exactly the cards of its hand: every card of a seat's hand is one
    that seat plays (each card to the seat that plays it, by one ``translate``), and as many."""
    size = plan.hand_size + 1
    if not plan.hand_shape.fullmatch(hands) or len(hands) != plan.n * size or len(set(hands)) != len(hands) \
            or plan.hand_size != plan.tricks:
        return False
    order = hands[::size]
    if bytes(sorted(order)) != plan.all_seats:
        return False
    rows = plan.hand_rows.get(order)
    if rows is None:
        rows = plan.hand_rows[order] = b"".join(bytes((seat,)) * size for seat in order)
    # (a seat's code stays itself; a card nobody plays keeps its code, not a seat's)
    return hands.translate(bytes.maketrans(by_seat, plan.seat_codes)) == rows
