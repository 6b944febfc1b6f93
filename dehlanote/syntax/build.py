"""Building the model as Lark reduces the grammar's rules (an inline transformer: no tree).

Lark calls the method named after each rule with the rule's children (tokens, and what
the methods gave for the rules inside it); no Transformer base class is needed, so Lark is
not imported for a file that never needs it. A whole token (``*_WHOLE``) is handed to the
whole-token reader (:class:`.whole.WholeReader`), a fine token is built here. Lexer
callbacks collect the comments Lark ignores and count the tokens for the reader's limits.
One builder per parser, one parser per thread (see :mod:`.parser`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    from lark import Token

from .attach import comment_text
from .cards import TAG_NAMES, card_of, suit_of
from .model import (
    CardRef,
    Claim,
    Deal,
    Game,
    Hand,
    Misdeal,
    Play,
    Revoke,
    Tag,
    Tens,
    Trick,
    Trump,
    Word,
    make_revoke,
)
from .whole import MAX_CARDS, MAX_HANDS, MAX_TRICKS, OverLimit, WholeReader, past_limit

__all__ = ["Builder"]

_UNESCAPE = re.compile(r'\\(["\\])')


def _is_token(item: object) -> TypeGuard[Token]:
    """Whether a child Lark gives a rule is a token (a ``str``; every other child is a model
    node or a list of them): tested so, Lark's ``Token`` class need not be imported."""
    return isinstance(item, str)


class Builder(WholeReader):
    """Builds model nodes as Lark reduces rules (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.comments: list[tuple[int, int, str]] = []     # the comments Lark's lexer gave: line, column, text
        # counts for the limits (see MAX_CARDS): cards and withdrawn cards in a row, as the
        # lexer gives them, whether they are a hand's; tricks of the deal and hands of the
        # hands line being read, as they are reduced
        self.run = 0
        self.run_withdrawn = 0
        self.in_hand = False
        self.tricks_seen = 0
        self.hands_seen = 0

    def reset(self, lo: int, co: int) -> None:
        self.lo, self.co = lo, co
        self.comments = []
        self.whole_comments = []
        self.errors = []
        self.run = self.run_withdrawn = self.tricks_seen = self.hands_seen = 0
        self.in_hand = False

    # -- the limits: lexer callbacks count the fine tokens as they come ------------------

    def on_card(self, token: Token) -> Token:
        self.run += 1
        self.run_withdrawn = 0
        if self.run > MAX_CARDS:
            raise past_limit("hand" if self.in_hand else "trick", *self._pos(token))
        return token

    def on_withdrawn(self, token: Token) -> Token:
        self.run_withdrawn += 1
        if self.run_withdrawn > MAX_CARDS:
            raise past_limit("withdrawn", *self._pos(token))
        return token

    def on_trick_start(self, token: Token) -> Token:
        """A trick number (INT, DOTTED_INT): a trick's cards follow."""
        self.run = self.run_withdrawn = 0
        self.in_hand = False
        return token

    def on_run_start(self, token: Token) -> Token:
        """A seat or ``drawn``: cards follow, of a hand, a trick (after its leader) or the drawn card."""
        self.run = self.run_withdrawn = 0
        return token

    def on_hands(self, token: Token) -> Token:
        self.in_hand = True
        return token

    def on_deal(self, token: Token) -> Token:
        self.in_hand = False
        return token

    def lexer_callbacks(self) -> dict[str, Any]:
        return {"COMMENT": self.on_comment, "CARD": self.on_card, "WITHDRAWN": self.on_withdrawn,
                "INT": self.on_trick_start, "DOTTED_INT": self.on_trick_start, "SEAT": self.on_run_start,
                "DRAWN": self.on_run_start, "HANDS": self.on_hands, "DEAL": self.on_deal}

    def on_comment(self, token: Token) -> Token:
        self.comments.append((*self._pos(token), comment_text(str(token))))   # (not the token: a tenth of the memory)
        return token

    # -- positions ---------------------------------------------------------------------

    def _word(self, tok: Token, value: object) -> Word:
        line = tok.line or 0
        return Word(value, line + self.lo, (tok.column or 0) + (self.co if line == 1 else 0))

    def _plain_card(self, tok: Token) -> CardRef:
        card, glyph = self._card(tok)
        line, column = self._pos(tok)
        if glyph is not None:
            self._glyph_error(glyph, line, column + len(str(tok)) - len(glyph))
        return CardRef(card, line, column)

    # -- whole tokens: the lines of a token, with file positions -------------------------

    def _lines(self, tok: Token) -> tuple[list[str], int, int]:
        """A whole token's lines (comments taken out and blanked, so that every position
        stays), the file line of the first and the file column where it starts. Sets
        ``self.joined`` when a comment spans lines (a trick may go on over that line end)."""
        line = tok.line or 0
        return self._text_lines(str(tok), line + self.lo, (tok.column or 0) + (self.co if line == 1 else 0))

    # -- rules ---------------------------------------------------------------------------

    def play(self, children: list[Token]) -> Play:
        tok = children[-1]
        card, glyph = self._card(tok)
        line, column = self._pos(tok)
        if len(children) == 1:
            return Play(card, line, column, (), glyph)
        withdrawn = tuple(CardRef(card_of(str(w)[1:]) or "", *self._pos(w)) for w in children[:-1])
        return Play(card, line, column, withdrawn, glyph)

    def trick(self, children: list[Any]) -> Trick | list[Trick]:
        num = children[0]
        if num.type == "TRICKS_WHOLE":
            lines, ln, off = self._lines(num)
            out: list[Trick] = []
            self._tricks(lines, ln, off, out)
            self.tricks_seen += len(out)
            if self.tricks_seen > MAX_TRICKS:
                raise OverLimit()
            return out
        line, column = self._pos(num)
        self.tricks_seen += 1
        if self.tricks_seen > MAX_TRICKS:
            raise past_limit("tricks", line, column)
        second = children[1]
        if _is_token(second):     # the leader seat
            return Trick(self._int(num), line, column, tuple(children[2:]), self._word(second, str(second)))
        return Trick(self._int(num), line, column, tuple(children[1:]))

    def tens(self, children: list[Token]) -> Tens:
        if len(children) == 1:   # TENS_WHOLE
            lines, ln, col = self._lines(children[0])
            return self._tens_line(lines[0], ln, col)
        kw, s1, n1, s2, n2 = children
        counts = ((self._word(s1, str(s1)), self._word(n1, self._int(n1))),
                  (self._word(s2, str(s2)), self._word(n2, self._int(n2))))
        return Tens(counts, *self._pos(kw))

    def trump_whole(self, children: list[Token]) -> Trump:
        lines, ln, col = self._lines(children[0])
        return self._trump_line(lines[0], ln, col)

    def trump_suit(self, children: list[Token]) -> Trump:
        kw = children[0]
        suit = self._word(children[1], suit_of(str(children[1])))
        by = at = None
        closed = False
        i = 2
        while i < len(children):
            tok = children[i]
            kind = tok.type
            if kind == "BY":
                by = self._word(children[i + 1], str(children[i + 1]))
                i += 2
            elif kind == "AT":
                at = self._word(children[i + 1], self._int(children[i + 1]))
                i += 2
            else:  # CLOSED
                closed = True
                i += 1
        return Trump(*self._pos(kw), suit=suit, by=by, at=at, closed=closed)

    def trump_drawn(self, children: list[Token]) -> Trump:
        kw, _drawn, card = children
        return Trump(*self._pos(kw), drawn=self._plain_card(card))

    def hand(self, children: list[Token]) -> Hand:
        first = children[0]
        self.hands_seen += 1
        if self.hands_seen > MAX_HANDS:
            raise past_limit("hands", *self._pos(first))
        if first.type == "HAND_WHOLE":
            lines, ln, col = self._lines(first)
            out: list[Hand] = []
            self._hand_line(lines[0], ln, col, out)
            return out[0]
        cards: list[CardRef] = []
        split = None
        for tok in children[1:]:
            if tok.type == "PIPE":
                if split is None:   # DPN 1.1: only the first | matters
                    split = len(cards)
            else:
                cards.append(self._plain_card(tok))
        line, column = self._pos(first)
        return Hand(str(first), tuple(cards), line, column, split)

    def hands(self, children: list[Any]) -> tuple[Hand, ...]:
        self.hands_seen = 0     # (each hand was counted as it was reduced, see hand)
        return tuple(children[1:])

    def claim(self, children: list[Token]) -> Claim:
        kw, seat = children
        return Claim(str(seat), *self._pos(kw))

    def revoke(self, children: list[Token]) -> Revoke:
        kw, seat, _at, number, ruling = children
        return make_revoke(str(seat), self._int(number), str(ruling).lower(), *self._pos(kw))

    def misdeal(self, children: list[Token]) -> Misdeal:
        return Misdeal(*self._pos(children[0]))

    def deal(self, children: list[Any]) -> Deal:
        self.tricks_seen = 0    # (this deal's tricks are all reduced and counted: the next deal's count)
        kw = children[0]
        kind = kw.type
        if kind == "DEAL_TENS_WHOLE":
            lines, line, column = self._lines(kw)
            return self._deal_lines(lines, line, column, True)
        trump = tens = hands = claim = None
        misdeals: list[Misdeal] = []
        revokes: list[Revoke] = []
        tricks: list[Trick]
        if kind == "DEAL_WHOLE":
            lines, line, column = self._lines(kw)
            d = self._deal_lines(lines, line, column, False)
            number, dealer, hands, trump, tricks = d.number, d.dealer, d.hands, d.trump, list(d.tricks)
            misdeals = list(d.misdeals)
        elif kind == "DEAL_HEAD_WHOLE":
            lines, line, column = self._lines(kw)
            number, dealer = self._deal_line(lines[0], line, column)
            tricks = []
        else:
            line, column = self._pos(kw)
            number = dealer = None
            tricks = []
        i = 1
        n = len(children)
        while i < n:
            item = children[i]
            kind = type(item)
            if kind is Trick:
                tricks.append(item)
            elif kind is list:
                tricks += item
            elif _is_token(item):
                if item.type == "INT":
                    number = self._word(item, self._int(item))
                else:  # DEALER SEAT
                    i += 1
                    dealer = self._word(children[i], str(children[i]))
            elif kind is Misdeal:
                misdeals.append(item)
            elif kind is Trump:
                trump = item
            elif kind is Tens:
                tens = item
            elif kind is Claim:
                claim = item
            elif kind is Revoke:
                revokes.append(item)
            else:
                hands = item
            i += 1
        if len(tricks) > MAX_TRICKS:    # (a whole deal's tricks and more after it)
            raise OverLimit()
        deal = self._deal(line, column, number, dealer, misdeals, hands, trump, tricks, tens, claim)
        return deal._replace(revokes=tuple(revokes)) if revokes else deal

    def tag(self, children: list[Token]) -> Tag | list[Tag]:
        if len(children) == 1:   # TAGS_WHOLE
            lines, ln, col = self._lines(children[0])
            return self._tags_text("\n".join(lines), ln, col)
        bracket, name_tok, value_tok = children
        name, value = str(name_tok), str(value_tok)[1:-1]
        if "\\" in value:
            value = _UNESCAPE.sub(r"\1", value)
        return Tag(TAG_NAMES.get(name.lower(), name), value, *self._pos(bracket))

    def untagged_game(self, children: list[Deal]) -> Game:
        first = children[0]
        return Game((), tuple(children), first.line, first.column)

    def tagged_game(self, children: list[Any]) -> Game:
        tags: list[Tag] = []
        deals: list[Deal] = []
        for c in children:
            kind = type(c)
            if kind is Deal:
                deals.append(c)
            elif kind is list:
                tags += c
            elif _is_token(c):     # GAME_WHOLE
                more_tags, deals = self._game_whole(str(c), *self._pos(c))
                tags += more_tags
            else:
                tags.append(c)
        return self._game(tags, deals)

    def start(self, children: list[Game]) -> list[Game]:
        return children
