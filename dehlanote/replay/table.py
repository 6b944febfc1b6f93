"""A table you can play on: the per-card core for people, in the manner of a chess board.

>>> from dehlanote import Table
>>> t = Table.new("standard", dealer="D", trump="D", hands={...})   # doctest: +SKIP
>>> t.to_play, t.legal_cards()                                     # doctest: +SKIP

A :class:`Table` is a deal in progress: whose turn it is, the legal cards, the centre, the
piles, the tens, the run of wins. ``play`` plays one card in place and returns what it
caused (:mod:`dehlanote.replay.events`); an illegal card raises :class:`IllegalCard`, a
``ValueError`` whose ``code`` is the one ``validate`` reports. ``undo`` takes the last card
back: the table keeps every state it went through (states are immutable), so undo is the
previous one. ``to_dpn`` writes the deal so far as a record.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping, Optional, Union

from .. import inputs
from ..deck import DECK, SUIT_NAMES, SUITS, TENS, seats_for, sides_for
from ..errors import DpnError
from ..rules.profile import Rules, registry
from ..syntax.cards import card_of
from ..syntax.model import CardRef, Deal, Game, Hand, Play, Tag, Trick, Trump, Word
from .core import SHIFT, DealState, Problem, check_card, legal_cards, play_card, skip_trick, to_play
from .engine import MatchState, finish_deal, start_deal, start_match
from .events import deal_events
from .facts import TABLES, DealFact, TrickFact, drawer
from .game import match_result, result_value
from .methods import trump_method

__all__ = ["Card", "IllegalCard", "Table", "core_walk"]


class Card(str):
    """A card: its ``str`` is the DPN spelling (``AH``, ``10H``)."""

    __slots__ = ()

    @property
    def suit(self) -> str:
        return self[-1]

    @property
    def rank(self) -> str:
        return self[:-1]

    @property
    def is_ten(self) -> bool:
        return self in TENS

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


_CARDS = {card: Card(card) for card in DECK}


class IllegalCard(ValueError):
    """A card that may not be played here; ``code`` is validate's (``revoke``,
    ``not-in-hand``, ``duplicate-card``, ``trick-number``, ``bad-card``; ``missing-trump`` or
    ``trump-mismatch`` for a card the deal cannot go past as the table was given: closed
    trump revealed without its suit, five followed opening tricks without the drawn card)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _rules(rules: Union[Rules, str]) -> Rules:
    if isinstance(rules, Rules):
        return rules
    inputs.need(rules, str, "Table.new", "rules as a profile name with options (a str such as "
                "'hukum trump=closed') or resolved Rules")
    try:
        return registry().resolve(rules)
    except DpnError as exc:
        raise ValueError(exc.message) from None


def _card(card: object) -> str:
    name = card_of(str(card)) if isinstance(card, str) else None
    if name is None:
        raise IllegalCard("bad-card", f"{card!r} is not a card: write it as rank then suit, e.g. AH, 10H, 2C")
    return name


def _hand(seat: str, cards: Union[str, Iterable[str]]) -> Hand:
    if isinstance(cards, inputs.BYTES) or not isinstance(cards, (str, Iterable)):
        raise inputs.refuse("Table.new", f"hands as {{seat: cards}}, each seat's cards a str ('AH KH ...') or "
                            f"an iterable of cards, but seat {seat}'s are", cards)
    words = cards.split() if isinstance(cards, str) else [str(c) for c in cards]
    split = words.index("|") if "|" in words else None
    refs = tuple(CardRef(_card(w), 0, 0) for w in words if w != "|")
    return Hand(seat, refs, 0, 0, split)


class Table:
    """A deal at the table, card by card (see the module's text)."""

    __slots__ = ("_states", "_events", "_match", "_deal", "_end")

    def __init__(self, state: DealState, match: Optional[MatchState] = None, deal: Optional[Deal] = None) -> None:
        self._states: list[DealState] = [state]
        self._events: list[tuple] = []
        self._match = match if match is not None else start_match(state.rules)
        self._deal = deal if deal is not None else state.deal
        self._end: Optional[tuple[MatchState, DealFact]] = None

    # ---- making one ----------------------------------------------------------------------

    @classmethod
    def new(cls, rules: Union[Rules, str] = "standard", dealer: str = "D",
            hands: Optional[Mapping[str, Union[str, Iterable[str]]]] = None, trump: Optional[str] = None, *,
            number: int = 1, drawn: Optional[str] = None) -> Table:
        """A fresh deal: ``rules`` (a profile name with options, e.g. ``"pagat trump=first-void-five"``,
        or resolved rules), the ``dealer``, the ``hands`` known ({seat: cards}, a ``|`` after
        the first five where the five-card phase needs it; seats left out are not known) and
        ``trump`` (the suit named before play where the rules have it named, or the secret
        suit of closed trump; ``drawn``: the card drawn when all five opening tricks are followed).

        Raises:
            ValueError: the rules are unknown, or the deal cannot start as given (a hand of the
                wrong size, a card dealt twice, trump missing where it is named before play or
                where it is closed: the table needs the secret suit to reveal it).
        """
        resolved = _rules(rules)
        seats = seats_for(resolved.seats)
        inputs.need(dealer, str, "Table.new", "dealer as a seat letter (a str such as 'D')")
        inputs.optional(hands, Mapping, "Table.new", "hands as a mapping {seat: cards} (or None: not known)")
        inputs.optional(trump, str, "Table.new", "trump as a suit (a str: S, H, D, C, a suit's name or symbol)")
        inputs.optional(drawn, str, "Table.new", "drawn as a card (a str such as 'KH')")
        inputs.need(number, int, "Table.new", "number as the deal's number (an int)")
        if number < 1:
            raise ValueError(f"the deal's number is 1 or more, not {number}")
        for seat in hands or {}:
            if not isinstance(seat, str) or len(seat) != 1 or seat not in seats:
                raise ValueError(f"there is no seat {seat!r} at this {resolved.seats}-player table: hands are "
                                 f"given by seat, one of {seats}")
        if len(dealer) != 1 or dealer not in seats:
            raise ValueError(f"there is no seat {dealer!r} at this {resolved.seats}-player table: one of {seats}")
        method = trump_method(resolved)
        written_hands = tuple(_hand(seat, cards) for seat, cards in (hands or {}).items()) or None
        trump_line: Optional[Trump] = None
        if trump is not None:
            word = trump.strip().replace("\ufe0f", "").lower()
            suit = _SUIT_WORDS.get(word) or word.upper()
            if len(suit) != 1 or suit not in SUITS:
                raise ValueError(f"{trump!r} is not a suit: S, H, D or C (or spades, hearts, diamonds, clubs, "
                                 "or ♠ ♥ ♦ ♣)")
            if method.by_void and drawn is None:
                raise ValueError("trump is set by play in these rules: the first player unable to follow suit "
                                 "sets it, so Table.new takes no trump")
            trump_line = Trump(0, 0, suit=Word(suit, 0, 0), closed=method.secret)
        if drawn is not None:
            trump_line = Trump(0, 0, drawn=CardRef(_card(drawn), 0, 0))
        if method.announcer is not None and trump_line is None:
            raise ValueError(f"{method.announcer_role} names trump before play in these rules: "
                             "give it, e.g. Table.new(..., trump='H')")
        if method.secret and trump_line is None:
            raise ValueError("trump is closed in these rules: the first player unable to follow suit chooses "
                             "it in secret and reveals it the next time they cannot follow, so the table needs "
                             "the secret suit: give it, e.g. Table.new(..., trump='H')")
        deal = Deal(0, 0, number=Word(number, 0, 0), dealer=Word(dealer, 0, 0), hands=written_hands,
                    trump=trump_line)
        match = start_match(resolved)._replace(deals_seen=number - 1)
        state, errors = start_deal(match, deal)
        problems = [e for e in errors if e.code != "deal-number"]
        if state is None or problems:
            raise ValueError("; ".join(e.message for e in problems) or "the deal cannot start")
        return cls(state, match, deal)

    @classmethod
    def from_deal(cls, fact: DealFact, trick: Optional[int] = None, card: Optional[int] = None) -> Table:
        """The table of a replayed deal at its start, or before card ``card`` of trick ``trick``.

        The hands are those the record gives: as written, or for a complete deal the cards
        each seat played. The cards of the record are replayed as written (a card that was
        wrong there is played here too, as it happened).
        """
        if not isinstance(fact, DealFact):
            raise inputs.refuse("Table.from_deal", "a replayed deal (a DealFact, as read_game(f).deals[0])", fact)
        inputs.optional(trick, int, "Table.from_deal", "trick as a trick's number (an int)")
        inputs.optional(card, int, "Table.from_deal", "card as a card's place in the trick (an int)")
        rules = fact.rules
        if rules is None or fact.dealer is None:
            raise ValueError(f"deal {fact.number} cannot be set up: its rules or its dealer are unknown")
        written = fact.deal
        known = fact.hands
        splits = {h.seat: h.split for h in written.hands or ()}
        hands = tuple(Hand(seat, tuple(CardRef(c, 0, 0) for c in _with_split(known[seat], written, seat)), 0, 0,
                           splits.get(seat)) for seat in seats_for(rules.seats) if seat in known) or None
        deal = written._replace(hands=hands, tricks=(), claim=None, tens=None)
        before = fact.before if isinstance(fact.before, MatchState) else start_match(rules)._replace(
            deals_seen=fact.number - 1)
        before = before._replace(dealer=seats_for(rules.seats).index(fact.dealer))
        state, _errors = start_deal(before, deal)
        if state is None:
            raise ValueError(f"deal {fact.number} cannot be set up")
        table = cls(state, before, deal)
        if trick is None:
            if card is not None:
                raise ValueError(f"card {card} of which trick? Give trick= with card=")
            return table
        place = 1 if card is None else card
        stop = (trick, place)
        missing = ValueError(f"deal {fact.number} has {fact.next_trick - 1} tricks recorded: "
                             f"there is no card {place} of trick {trick}")
        # (the end of the deal is card 1 of the trick after the last: no other card of it)
        if not (1 <= trick <= fact.next_trick and 1 <= place <= rules.seats) or (trick == fact.next_trick
                                                                                and place > 1):
            raise missing
        if fact.skipped_trick and stop > (fact.skipped_trick, 1):
            raise ValueError(f"deal {fact.number}: trick {fact.skipped_trick} has the wrong number of cards, so "
                             "the table cannot be set up after it")
        for t in fact.tricks:
            for k, p in enumerate(t.trick.plays, 1):
                if (t.number, k) >= stop:
                    return table
                table._push(p, t.trick)
        return table

    # ---- what it shows -------------------------------------------------------------------

    @property
    def state(self) -> DealState:
        """The immutable state now (the core's :class:`~dehlanote.replay.core.DealState`)."""
        return self._states[-1]

    @property
    def history(self) -> tuple[DealState, ...]:
        """Every state so far, the first before any card."""
        return tuple(self._states)

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def seats(self) -> str:
        return seats_for(self.rules.seats)

    @property
    def sides(self) -> tuple[str, str]:
        return sides_for(self.rules.seats)

    @property
    def number(self) -> int:
        return self.state.number

    @property
    def dealer(self) -> str:
        return self.seats[self.state.dealer]

    @property
    def to_play(self) -> Optional[str]:
        """The seat to play the next card (None: the deal is over)."""
        seat = to_play(self.state)
        return None if seat is None else self.seats[seat]

    @property
    def trick_number(self) -> int:
        """The trick in progress (or the next one)."""
        return self.state.tricks_done + 1

    @property
    def current(self) -> tuple[tuple[str, Card], ...]:
        """The trick in progress: (seat, card) in playing order."""
        st = self.state
        n = st.params[0]
        return tuple((self.seats[(st.leader + k) % n], _CARDS[p.card]) for k, p in enumerate(st.current))

    @property
    def trump(self) -> Optional[str]:
        """The suit in force now (None: no trump yet, or closed trump not revealed)."""
        return self.state.trump

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def centre(self) -> tuple[Card, ...]:
        """The cards in the centre (the tricks since the last capture)."""
        st = self.state
        cards: list[str] = []
        for fact in reversed(st.tricks):
            if fact.capture is not None:
                break
            cards[:0] = [p.card for p in fact.trick.plays]
        return tuple(_CARDS[c] for c in cards)

    @property
    def centre_tens(self) -> tuple[str, ...]:
        return self.state.centre_tens

    @property
    def piles(self) -> dict[str, int]:
        """The cards each side has captured."""
        return dict(zip(self.sides, self.state.pile_cards))

    @property
    def tens(self) -> dict[str, tuple[str, ...]]:
        """The tens each side has captured."""
        return dict(zip(self.sides, self.state.pile_tens))

    @property
    def run(self) -> tuple[Optional[str], int]:
        """Who won the last trick and the wins in a row that count towards a sweep."""
        st = self.state
        return (self.seats[st.last_winner] if st.last_winner is not None else None, st.run)

    @property
    def score(self) -> dict[str, int]:
        """Each side's score so far in the rules' unit (tens; points under double sar;
        tricks under court piece)."""
        from .methods import score_mode
        st = self.state
        tens = (len(st.pile_tens[0]), len(st.pile_tens[1]))
        return dict(zip(self.sides, score_mode(st.rules).totals(tens, st.pile_cards, st.pile_tricks)))

    def hand(self, seat: str) -> Optional[tuple[Card, ...]]:
        """The cards ``seat`` still holds, when its hand is known (None: not known); with several
        decks (six players) a card held twice is there twice.

        Raises:
            ValueError: there is no such seat at the table (TypeError: ``seat`` is not a str).
        """
        st = self.state
        inputs.need(seat, str, "Table.hand", "a seat letter (a str such as 'A')")
        if len(seat) != 1 or seat not in self.seats:
            raise ValueError(f"there is no seat {seat!r} at this {len(self.seats)}-player table: one of {self.seats}")
        i = self.seats.index(seat)
        if not st.any_explicit or not st.explicit[i]:
            return None
        hand = st.hands[i]      # 2 bits a card: how many copies (several decks)
        return tuple(_CARDS[c] for c in DECK for _ in range((hand >> SHIFT[c]) & 3))

    @property
    def events(self) -> tuple:
        """Every event so far, in order."""
        return tuple(e for batch in self._events for e in batch)

    @property
    def facts(self) -> Optional[DealFact]:
        """The deal's facts once it is over (its score, streak, next dealer), else None."""
        return self._end[1] if self._end is not None else None

    # ---- playing -------------------------------------------------------------------------

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the seat to play may play (every card not seen yet, the suit led first,
        when its hand is not known)."""
        return tuple(_CARDS[c] for c in legal_cards(self.state))

    def check(self, card: object) -> Optional[Problem]:
        """What would be wrong with playing ``card`` now (None: nothing): what ``play``
        would refuse it for."""
        try:
            name = _card(card)
        except IllegalCard as exc:
            return Problem(exc.code, exc.message)
        problem = check_card(self.state, name)
        if problem is None:
            problem = _stored_problem(self.state, *play_card(self.state, Play(name, 0, 0), None))
        return problem

    def can_play(self, card: object) -> bool:
        return self.check(card) is None

    def play(self, card: object) -> tuple:
        """Play ``card`` for the seat to play; the events it caused.

        Raises:
            IllegalCard: the card may not be played (its ``code`` is validate's), or the deal
                cannot go on past it as the table was given (``missing-trump``: closed trump
                revealed, or a card to be drawn for trump, that the table was not told). The
                table is unchanged.
        """
        name = _card(card)
        problem = check_card(self.state, name)
        if problem is not None:
            raise IllegalCard(problem.code, problem.message)
        after = play_card(self.state, Play(name, 0, 0), None)
        problem = _stored_problem(self.state, *after)
        if problem is not None:
            raise IllegalCard(problem.code, problem.message)
        return self._push(Play(name, 0, 0), None, after)

    def _push(self, play: Play, written: Optional[Trick], after: Optional[tuple[DealState, tuple]] = None) -> tuple:
        state, events = after if after is not None else play_card(self.state, play, written)
        if state.over and not state.broken and self._end is None:
            errors: list[DpnError] = []
            match, fact = finish_deal(self._match, state, self._deal or Deal(0, 0), last=True,
                                      unfinished_ok=False, errors=errors)
            self._end = (match, fact)
            events = events + deal_events(fact)
        self._states.append(state)
        self._events.append(events)
        return events

    def undo(self) -> None:
        """Take the last card back.

        Raises:
            IndexError: no card has been played.
        """
        if len(self._states) == 1:
            raise IndexError("no card to take back: the deal is at its start")
        self._states.pop()
        self._events.pop()
        self._end = None

    def copy(self) -> Table:
        """An independent table at the same point (with the same history)."""
        other = Table.__new__(Table)
        other._states = list(self._states)
        other._events = list(self._events)
        other._match, other._deal, other._end = self._match, self._deal, self._end
        return other

    # ---- writing it ----------------------------------------------------------------------

    def to_dpn(self) -> str:
        """The deal so far as a DPN record of this deal alone, numbered 1 (``Result "*"``
        unless the deal is over and, as the first of a match, ends it; a trick in progress is
        written as a comment, since a record holds whole tricks). It reads back without an
        error. See :meth:`to_game`."""
        from ..syntax.writer import write_game
        return write_game(self.to_game())

    def to_game(self) -> Game:
        """The deal so far as a game of the notation's model (what :meth:`to_dpn` writes):
        the tags ``Rules`` and ``Result`` (``"*"``, unless the deal is over and, as the first deal
        of a match, ends it: then the side that won it, ``=`` when level, as
        :func:`~dehlanote.replay.game.result_value` says for every record); the deal, numbered 1
        (the record holds it alone: what the deals before it did is not in it), its dealer and
        hands; the trump line as the play so far states it (a suit announced before play as written; a suit
        set by a first void, or closed trump revealed, with ``by`` and ``at`` from the play;
        none while trump is still to be set by play); every whole trick with its leader and
        the cards' glyphs and comments as the record had them; the revoke rulings of the
        tricks written; a trick in progress as a comment on the deal (:meth:`in_progress`)."""
        st = self.state
        tricks = tuple(Trick(f.number, 0, 0, f.trick.plays, Word(f.leader, 0, 0), f.trick.comments)
                       for f in st.tricks)
        base = self._deal or Deal(0, 0)
        revokes = tuple(r for r in base.revokes if r.trick <= st.tricks_done)
        # the record holds this deal alone: it is its game's deal 1, and its Result is what the
        # deal gives as the first of a match (what the deals before it won is not in the
        # record: "deal 5", or a streak they built, would contradict the record's own replay)
        deal = base._replace(tricks=tricks, number=Word(1, 0, 0), dealer=Word(self.dealer, 0, 0),
                             trump=self._trump_line(base.trump), revokes=revokes, claim=None, tens=None)
        if st.current:
            deal = deal._replace(comments=deal.comments + (self.in_progress(),))
        result = "*"
        if self._end is not None and not st.current:
            match, fact = finish_deal(start_match(self.rules), st, deal, last=True, unfinished_ok=False, errors=[])
            result = result_value(match_result(match, self.rules, fact.complete))
        tags = (Tag("Rules", self.rules.label(), 0, 0), Tag("Result", result, 0, 0))
        return Game(tags, (deal,), 0, 0)

    def in_progress(self) -> str:
        """The trick in progress as :meth:`to_dpn` comments it: ``trick 6 in progress: A 6H B 2H``
        ("" when no trick is in progress)."""
        if not self.state.current:
            return ""
        cards = " ".join(f"{seat} {card}" for seat, card in self.current)
        return f"trick {self.trick_number} in progress: {cards}"

    def _trump_line(self, written: Optional[Trump]) -> Optional[Trump]:
        """The trump line the whole tricks so far state (the written one's comments kept when
        it is the same line)."""
        # as the whole tricks state it: trump set or revealed in the trick in progress is the
        # comment's (a record holds whole tricks), so the state at that trick's start
        st = self.state
        back = len(st.current)
        if back and back < len(self._states):
            st = self._states[-1 - back]
        fact = st.trump_fact
        method = st.method
        line: Optional[Trump]
        if fact is None:
            line = None                       # still to be set by play (or not known)
        elif fact.drawn is not None:
            line = Trump(0, 0, drawn=CardRef(fact.drawn, 0, 0))
        elif method.secret:
            suit = st.hidden if st.hidden is not None else fact.suit
            if suit is None:
                return None                   # chosen in secret, the suit not given
            line = Trump(0, 0, suit=Word(suit, 0, 0), by=Word(fact.by, 0, 0) if fact.by else None,
                         at=Word(fact.trick, 0, 0) if fact.trick is not None else None, closed=True)
        elif fact.suit is None:
            line = None
        else:
            line = Trump(0, 0, suit=Word(fact.suit, 0, 0), by=Word(fact.by, 0, 0) if fact.by else None,
                         at=Word(fact.trick, 0, 0) if fact.trick is not None and method.by_void else None)
        if line is not None and written is not None and _same_trump(line, written):
            line = line._replace(comments=written.comments)
        return line

    def __repr__(self) -> str:
        turn = f"{self.to_play} to play" if self.to_play else "over"
        tens = " ".join(f"{side} {len(t)}" for side, t in self.tens.items())
        return f"<Table deal {self.number} trick {self.trick_number}, {turn}, tens {tens}>"

    def _repr_svg_(self) -> Optional[str]:
        """The table drawn as SVG, as the replay page draws it (for Jupyter: the notebook
        display, :data:`dehlanote.replay.facts.DISPLAY`, which the output layer fills in)."""
        draw = drawer("table")
        return draw(self) if draw is not None else None


def _stored_problem(before: DealState, state: DealState, _events: tuple) -> Optional[Problem]:
    """What the core found wrong with a card it played from ``before`` to ``state`` (an error
    it stored, or a deal it could not follow further), as the table refuses it; None: nothing.
    The core plays any card, as a record states what happened; the table plays only cards that
    leave a deal it can follow, so it never ends a deal early without saying why."""
    if len(state.errors) > len(before.errors):
        error = state.errors[len(before.errors)]
        return Problem(error.code, _for_table(error.code, error.message))
    if state.broken and not before.broken:
        note = state.notes[-1] if len(state.notes) > len(before.notes) else "the deal could not be followed"
        return Problem("missing-trump", _for_table("missing-trump", note))
    return None


def _for_table(code: str, message: str) -> str:
    if code in ("missing-trump", "trump-mismatch"):
        return (f"{message} (the table cannot go on past this card: start it again with "
                "Table.new(..., trump=SUIT) or drawn=CARD as the deal had it)")
    return message


_SUIT_WORDS = {name: letter for letter, name in SUIT_NAMES.items()} | \
    {name[:-1]: letter for letter, name in SUIT_NAMES.items()} | \
    {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def _same_trump(a: Trump, b: Trump) -> bool:
    def key(t: Trump) -> tuple:
        return (t.suit.value if t.suit else None, t.by.value if t.by else None, t.at.value if t.at else None,
                t.closed, t.drawn.card if t.drawn else None)
    return key(a) == key(b)


def _with_split(cards: tuple[str, ...], written: Deal, seat: str) -> tuple[str, ...]:
    """A seat's cards in the order its written hand gives them (so that a ``|`` after the
    first five stays after the same cards), else as given."""
    for h in written.hands or ():
        if h.seat == seat and h.split is not None and sorted(c.card for c in h.cards) == sorted(cards):
            return tuple(c.card for c in h.cards)
    return cards


TABLES[:] = [lambda fact, trick, card: Table.from_deal(fact, trick=trick, card=card)]


def core_walk(deal: DealFact, state: DealState) -> Iterator[tuple[TrickFact, int, DealState, tuple, tuple[str, ...]]]:
    """The core's state after each card of the tricks ``deal`` replayed, from its start
    ``state``: (the trick, the card's place in it, the state after it, the events it caused,
    the cards counted just before it). A trick written with the wrong number of cards is
    counted as the replay counted it (its cards played, who won it unknown, the next trick led
    by the leader the replay took) and yields no card of its own: its cards come with the next
    trick's first card."""
    seats = seats_for(state.rules.seats)
    skipped = deal.counted_before
    for i, t in enumerate(deal.tricks):
        counted: tuple[str, ...] = ()
        if i in skipped:
            for w in skipped[i]:
                state = skip_trick(state, w.plays, w)
            state = state._replace(leader=seats.index(t.leader), last_winner=None, run=0)
            counted = tuple(p.card for w in skipped[i] for p in w.plays)
        for k, play in enumerate(t.trick.plays):
            state, events = play_card(state, play, t.trick)
            yield t, k, state, events, counted if k == 0 else ()
