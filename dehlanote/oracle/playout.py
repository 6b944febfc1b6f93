"""Random playouts of legal Dehla Pakad matches, written as DPN, with a referee's facts.

This module is a test oracle and a corpus maker (``dehlanote generate``). It is deliberately
an *independent* implementation of docs/rules.md and of the notation's rules for facts: it
must stay independent of the engine. It takes from :mod:`dehlanote` only data: the deck's
(:mod:`dehlanote.deck`: card names, their order and spellings, seats and sides) and the rule
registry's (:mod:`dehlanote.rules`: the option names, the values they take and the
parameters a profile with its options resolves to), never the replayer
(:mod:`dehlanote.replay`), the analysis or the parser, so that the replayer, written
separately, can be checked against it: what each parameter means in play (who wins a trick,
when the centre is swept, who deals next...) is written here again, on its own
(:func:`blind_facts` for deals whose outcome is unknown). tests/project/test_layers.py keeps it
so. Every random choice comes from the ``random.Random`` passed in, so a seed gives the
same match.

The entry points are :func:`generate_match` (one game: its DPN text and the facts an
independent referee would state about it) and :func:`generate_corpus` (many games).

Decisions taken where the rules (docs/rules.md) leave room (kept here so the oracle says what it assumes):

* Hands are dealt from one shuffle; a hand's first five cards are the ones dealt in the
  first round (the announcer chooses from them; ``first-void-five`` plays on them).
* ``trump.trick`` in the facts is the trick written as ``at N`` (set by a first void, or
  revealed under closed trump), ``None`` otherwise; a drawn trump adds ``"drawn": CARD``
  and closed trump adds ``"closed": True``.
* ``double-sar``: a side that takes all the tens makes a kot and wins the deal even if it
  holds 28 points or fewer. ``court-piece``: the sweep kot is taking every trick, written
  with the reason ``all-tricks`` (:data:`ALL_TRICKS`); tens then play no part in scoring.
* ``coat``: a deal won gives one point (the all-tens deal too); the match ends at 7 points
  or at a kot (all tens) as the profile says. There are no streak kots.
* ``kots=N`` is an option of ``pagat`` only; ``standard`` and ``hukum`` end at the first
  kot. After any ``pagat`` kot both streaks restart (from the next deal); after a kot by
  all the tens (or all the tricks) the next dealer is the next seat if the dealing side
  made it, else the dealer's partner; after a streak kot rule 7 applies.
* ``hukum`` 2-2 (and any level deal there): same dealer if the dealing side lost the
  previous deal, else the next seat (also on a first deal).
* Closed trump: under ``standard``/``pagat`` the dealer's right chooses it from the first
  five cards; under ``hukum`` the first player unable to follow chooses it in secret (that
  card is no trump; the suit is the one held most, as an announcer picks) and reveals it the
  next time they cannot follow. Before the reveal no suit is trump; the revealed suit counts
  for the whole trick of the reveal. ``trump.set_at`` is the trick where it was chosen.
* ``Style.claims``: a deal may be written to end with ``claim X`` before trick k when X's
  side won every trick from k on (a true claim, so the facts are those of the full play).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

from ..deck import DECK, STRENGTH, SUIT_OF, SUIT_SYMBOLS, SUITS, seats_for, sides_for, sort_key
from ..errors import DpnError
from ..rules.profile import PARAMS, Rules, registry

#: the package's profiles, the only ones this oracle plays (a profile file's rules are the
#: replayer's business: the oracle checks the replayer on the rules it knows)
PROFILES = ("standard", "pagat", "hukum")

ALL_TENS = "all-tens"
ALL_TRICKS = "all-tricks"  # court-piece's sweep kot: no reason name exists in the notation's core
STREAK = "streak"

#: (seat, hand held now, legal cards, suit led or None, trump in force or None) -> card
Chooser = Callable[[str, list, list, Optional[str], Optional[str]], str]


def _is_ten(card: str) -> bool:
    return card.startswith("10")


# ---------------------------------------------------------------------------------------
# Play rules


@dataclass(frozen=True)
class PlayoutRules:
    """A profile with its options, reduced to what the play and the scoring need."""

    profile: str
    options: dict
    players: int
    seats: str
    sides: tuple
    trump_method: str          # announce | partner | first-void | first-void-five | closed
    immediate_capture: bool    # hukum: each trick to its winner
    level_to_non_dealers: bool  # standard/pagat: 2-2 goes to the non-dealers; hukum: no result
    streak_kot: Optional[int]  # deals in a row for a kot; None with coat
    kots_to_win: int           # 0 = open-ended session
    coat: bool
    coat_points: int           # coat: the deals won that win the match (7)
    closed_by_first_void: bool  # hukum's closed trump: chosen by the first player unable to follow
    partner_after_all_tens: bool  # pagat: after an all-tens kot by the non-dealers, the dealer's partner deals
    double_sar: bool
    court_piece: bool
    tricks: int                # tricks per deal
    decks: int                 # decks shuffled together (3 with six players)
    side_of: dict = field(repr=False)
    next_seat: dict = field(repr=False)
    partner: dict = field(repr=False)

    @property
    def tens_total(self) -> int:
        """Tens in play: 4, or 12 with three decks."""
        return 4 * self.decks


def normalize_options(profile: str, options: Optional[dict]) -> dict:
    """Check and normalise options: ``kots``/``streak`` ints, ``trump`` a name, flags True.

    The options and the values they take are the registry's (``dehlanote.rules``): a name or
    a value a ``Rules`` tag would refuse is refused here too (ValueError, with its message).
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}")
    known = registry().options
    out: dict = {}
    for key, value in (options or {}).items():
        option = known.get(key)
        if option is None:
            raise ValueError(f"unknown option {key!r}")
        if option.param is None:
            if value is False or value in ("false", "no", "0", 0):
                continue
            out[key] = True
            continue
        kind = PARAMS[option.param].kind
        try:
            out[key] = int(value) if kind is int else str(value)
        except ValueError:
            raise ValueError(f"{key} needs a whole number, not {value!r}") from None
    if "kots" in out and profile != "pagat":
        raise ValueError("the option kots is for the pagat profile")
    _resolve(profile, out)
    return out


def _label(profile: str, options: dict) -> str:
    words = [profile]
    for key, value in options.items():
        words.append(key if value is True else f"{key}={value}")
    return " ".join(words)


def _resolve(profile: str, options: dict) -> Rules:
    """The registry's parameters for a profile and its options (ValueError if it refuses them:
    an unknown value, two options setting one thing...)."""
    try:
        return registry().resolve(_label(profile, options))
    except DpnError as exc:
        raise ValueError(exc.message) from None


def make_rules(profile: str = "standard", options: Optional[dict] = None) -> PlayoutRules:
    """Build the :class:`PlayoutRules` of a profile and its options (raises ValueError).

    The parameters are the registry's; what each of them means in play is this module's own."""
    opts = normalize_options(profile, options)
    params = _resolve(profile, opts)
    players = params.seats
    if (players, params.decks) not in ((4, 1), (6, 3)):
        raise ValueError(f"{players} players with {params.decks} deck(s) are not played here")
    seats = seats_for(players)
    sides = sides_for(players)
    coat = params.match_points > 0
    return PlayoutRules(
        profile=profile,
        options=opts,
        players=players,
        seats=seats,
        sides=sides,
        trump_method=params.trump,
        immediate_capture=params.capture == "immediate",
        level_to_non_dealers=params.level == "non-dealers",
        streak_kot=params.streak or None,
        kots_to_win=params.kots,
        coat=coat,
        coat_points=params.match_points,
        closed_by_first_void=params.closed_setter == "first-void",
        partner_after_all_tens=params.dealer_after_all_tens == "partner",
        double_sar=params.score == "points",
        court_piece=params.score == "tricks",
        tricks=len(DECK) * params.decks // players,   # 13, or 26 with six
        decks=params.decks,
        side_of={s: (sides[0] if s in sides[0] else sides[1]) for s in seats},
        next_seat={s: seats[(i + 1) % players] for i, s in enumerate(seats)},
        partner={s: seats[(i + 2) % players] for i, s in enumerate(seats)},
    )


def rules_text(profile: str, options: Optional[dict] = None) -> str:
    """The value of a ``[Rules "..."]`` tag: ``pagat kots=3 trump=first-void-five``."""
    return _label(profile, normalize_options(profile, options))


def parse_rules_text(text: str) -> tuple[str, dict]:
    """Inverse of :func:`rules_text`: ``"hukum streak=5 coat"`` -> ``("hukum", {...})``."""
    words = text.lower().split()    # names are read in any case (NOTATION 1.1)
    profile, options = (words[0] if words else "standard"), {}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if key in options:
            raise ValueError(f"the option {key} is given twice")
        options[key] = value if eq else True
    return profile, normalize_options(profile, options)


# ---------------------------------------------------------------------------------------
# Tricks and the centre


def trick_winner(cards: list, trump: Optional[str]) -> int:
    """Index (in playing order) of the card that wins: highest trump, else highest of the
    suit led; of equal winning cards (six players, three decks) the first played wins."""
    best = 0
    best_card = cards[0]
    for i in range(1, len(cards)):
        card = cards[i]
        suit, best_suit = SUIT_OF[card], SUIT_OF[best_card]
        if suit == best_suit:
            if STRENGTH[card] > STRENGTH[best_card]:
                best, best_card = i, card
        elif suit == trump:
            best, best_card = i, card
    return best


class Centre:
    """Deferred capture (docs/rules.md rule 4): the centre pile and the count ``(last, run)``."""

    def __init__(self) -> None:
        self.cards: list = []
        self.last: Optional[str] = None
        self.run = 0

    def add(self, cards: list, winner: str, last_trick: bool) -> Optional[tuple[list, str]]:
        """Put a finished trick in the centre; return ``(cards swept, reason)`` or None."""
        self.cards.extend(cards)
        self.run = self.run + 1 if winner == self.last else 1
        self.last = winner
        reason = None
        if self.run == 2:
            reason = "two-in-a-row"
            self.run = 0
        elif last_trick:
            reason = "last-trick"
        if reason is None:
            return None
        swept, self.cards = self.cards, []
        return swept, reason


# ---------------------------------------------------------------------------------------
# One deal


def deal_hands(rng: random.Random, rules: PlayoutRules, dealer: str) -> dict:
    """Shuffle and deal: ``{seat: cards}``, each hand's first five first (each part sorted)."""
    deck = list(DECK) * rules.decks
    rng.shuffle(deck)
    size = len(deck) // rules.players
    hands = {}
    seat = rules.next_seat[dealer]
    for k in range(rules.players):
        cards = deck[k * size:(k + 1) * size]
        hands[seat] = sorted(cards[:5], key=sort_key) + sorted(cards[5:], key=sort_key)
        seat = rules.next_seat[seat]
    return {s: hands[s] for s in rules.seats}


def choose_trump(rng: random.Random, first_five: list) -> str:
    """An announcer's pick: usually the suit held most among the first five, else any."""
    if rng.random() < 0.7:
        counts = {s: 0 for s in SUITS}
        for card in first_five:
            counts[SUIT_OF[card]] += 1
        most = max(counts.values())
        return rng.choice([s for s in SUITS if counts[s] == most])
    return rng.choice(SUITS)


def random_chooser(rng: random.Random, rules: PlayoutRules, bias: float = 0.0,
                   bias_side: Optional[str] = None) -> Chooser:
    """Uniform choice among legal cards; with probability ``bias`` per play, the favoured
    side plays its strongest legal card and the others give tens away or play low."""
    favoured = bias_side or rules.sides[0]
    side_of = rules.side_of

    def choose(seat: str, hand: list, legal: list, led: Optional[str], trump: Optional[str]) -> str:
        if bias and rng.random() < bias:
            if side_of[seat] == favoured:
                if led is None:    # lead the highest card, a trump only to break a tie
                    return max(legal, key=lambda c: (STRENGTH[c], SUIT_OF[c] == trump))
                return max(legal, key=lambda c: (SUIT_OF[c] == trump, SUIT_OF[c] == led, STRENGTH[c]))
            if led is None:        # lead low, never a ten if avoidable
                return min(legal, key=lambda c: (_is_ten(c), SUIT_OF[c] == trump, STRENGTH[c]))
            # follow by throwing a ten away if possible, else the lowest card
            return min(legal, key=lambda c: (not _is_ten(c), SUIT_OF[c] == trump,
                                             SUIT_OF[c] == led, STRENGTH[c]))
        return legal[rng.randrange(len(legal))]

    return choose


def play_deal(rng: random.Random, rules: PlayoutRules, number: int, dealer: str, *,
              hands: Optional[dict] = None, choose: Optional[Chooser] = None,
              trump_suit: Optional[str] = None, withdraw: float = 0.0,
              deco: Optional[random.Random] = None) -> dict:
    """Play one deal to its end and return its facts (without the match-level keys
    ``winner``/``kot``/``streak``/``next_dealer``, which :func:`generate_match` adds).

    ``hands`` (first five first) and ``trump_suit`` (the announced or secret suit) may be
    given, e.g. by tests; ``choose`` picks each card from the legal ones. ``withdraw`` is the
    chance, at each play where an illegal card exists, of recording one as withdrawn.
    """
    if hands is None:
        hands = deal_hands(rng, rules, dealer)
    hands = {s: list(hands[s]) for s in rules.seats}
    choose = choose or random_chooser(rng, rules)
    deco = deco or rng
    method = rules.trump_method
    first = rules.next_seat[dealer]

    trump: Optional[str] = None            # the suit in force now
    info: dict = {"suit": None, "by": None, "trick": None}
    secret: Optional[str] = None
    setter = first
    # hukum's closed trump: the first player unable to follow chooses it in secret, and
    # reveals it the next time they cannot follow (all 52 are dealt: no first five)
    closed_void = method == "closed" and rules.closed_by_first_void
    if closed_void:
        info = {"suit": None, "by": None, "trick": None, "closed": True}
    elif method in ("announce", "partner", "closed"):
        setter = rules.partner[dealer] if method == "partner" else first
        suit = trump_suit or choose_trump(rng, hands[setter][:5])
        info = {"suit": suit, "by": setter, "trick": None}
        if method == "closed":
            info["closed"] = True
            secret = suit
        else:
            trump = suit
    phase_five = method == "first-void-five"
    held = {s: hands[s][:5] if phase_five else list(hands[s]) for s in rules.seats}
    set_by_play = method in ("first-void", "first-void-five")

    centre = None if rules.immediate_capture else Centre()
    leader = first
    tricks = []
    played: list = []
    for number_t in range(1, rules.tricks + 1):
        led: Optional[str] = None
        cards: list = []
        withdrawn: list = []
        seat = leader
        for _ in range(rules.players):
            hand = held[seat]
            if led is None:
                legal = hand
            else:
                legal = [c for c in hand if SUIT_OF[c] == led] or hand
            card = choose(seat, hand, legal, led, trump)
            gone: list = []
            if withdraw and legal is not hand and len(legal) < len(hand) and deco.random() < withdraw:
                gone = [deco.choice([c for c in hand if SUIT_OF[c] != led])]
            if led is None:
                led = SUIT_OF[card]
            elif legal is hand and SUIT_OF[card] != led:   # could not follow
                if set_by_play and trump is None:
                    trump = SUIT_OF[card]
                    info = {"suit": trump, "by": seat, "trick": number_t}
                elif closed_void and trump is None:
                    if info["by"] is None:
                        secret = trump_suit or choose_trump(rng, hand)
                        info.update(suit=secret, by=seat, set_at=number_t)
                    elif seat == info["by"]:
                        trump = secret
                        info["trick"] = number_t
                elif method == "closed" and seat == setter and trump is None:
                    trump = secret
                    info["trick"] = number_t
            hand.remove(card)
            cards.append(card)
            withdrawn.append(gone)
            seat = rules.next_seat[seat]
        win = trick_winner(cards, trump)
        winner = rules.seats[(rules.seats.index(leader) + win) % rules.players]
        side = rules.side_of[winner]
        capture = None
        if centre is None:
            capture = {"by": winner, "side": side, "cards": len(cards),
                       "tens": [c for c in cards if _is_ten(c)], "reason": "trick"}
            centre_cards: list = []
        else:
            swept = centre.add(cards, winner, number_t == rules.tricks)
            if swept is not None:
                capture = {"by": winner, "side": side, "cards": len(swept[0]),
                           "tens": [c for c in swept[0] if _is_ten(c)], "reason": swept[1]}
            centre_cards = centre.cards
        tricks.append({
            "number": number_t, "leader": leader, "cards": cards, "winner": winner,
            "centre_after": len(centre_cards),
            "centre_tens": [c for c in centre_cards if _is_ten(c)],
            "capture": capture, "withdrawn": withdrawn,
        })
        played.extend(cards)
        leader = winner
        if phase_five and (trump is not None or number_t == 5):
            if trump is None:                       # all five tricks followed: draw a card
                drawn = rng.choice(played)
                trump = SUIT_OF[drawn]
                info = {"suit": trump, "by": None, "trick": None, "drawn": drawn}
            for s in rules.seats:
                held[s].extend(hands[s][5:])
            phase_five = False

    deal = {"number": number, "dealer": dealer, "trump": info, "hands": hands, "tricks": tricks}
    if rules.trump_method == "first-void-five":
        deal["split"] = 5
    return deal


def judge_deal(rules: PlayoutRules, deal: dict) -> tuple[dict, dict, Optional[str], Optional[dict]]:
    """Score a played deal: ``(tens, score, winner, sweep kot)``.

    ``score`` is the measure that decides the deal: tens, double-sar points, or tricks
    (court-piece). The sweep kot is all the tens (all the tricks with court-piece).
    """
    tens = {s: 0 for s in rules.sides}
    cards = {s: 0 for s in rules.sides}
    for trick in deal["tricks"]:
        cap = trick["capture"]
        if cap:
            tens[cap["side"]] += len(cap["tens"])
            cards[cap["side"]] += cap["cards"]
    tens_total = rules.tens_total
    if rules.court_piece:
        score = {s: cards[s] // rules.players for s in rules.sides}
        total, kot_reason = rules.tricks, ALL_TRICKS
    elif rules.double_sar:
        score = {s: cards[s] + tens[s] for s in rules.sides}
        total, kot_reason = len(DECK) * rules.decks + tens_total, ALL_TENS
    else:
        score = dict(tens)
        total, kot_reason = tens_total, ALL_TENS
    sweep = rules.tricks if rules.court_piece else tens_total
    measure = score if rules.court_piece else tens
    kot = None
    for side in rules.sides:
        if measure[side] == sweep:
            kot = {"side": side, "reason": kot_reason}
    winner: Optional[str] = None
    if kot:
        winner = kot["side"]
    else:
        for side in rules.sides:
            if 2 * score[side] > total:
                winner = side
        if winner is None and rules.level_to_non_dealers:
            dealing = rules.side_of[deal["dealer"]]
            winner = rules.sides[1] if dealing == rules.sides[0] else rules.sides[0]
    return tens, score, winner, kot


def next_dealer(rules: PlayoutRules, dealer: str, winner: Optional[str], kot: Optional[dict],
                previous_winner: Optional[str]) -> str:
    """Who deals next while the match goes on (docs/rules.md rule 7 and the profile rows)."""
    dealing = rules.side_of[dealer]
    if kot is not None and kot["reason"] != STREAK and rules.partner_after_all_tens:
        return rules.next_seat[dealer] if kot["side"] == dealing else rules.partner[dealer]
    if winner is None:   # hukum: a level deal
        lost_before = previous_winner is not None and previous_winner != dealing
        return dealer if lost_before else rules.next_seat[dealer]
    return rules.next_seat[dealer] if winner == dealing else dealer


def blind_facts(rules: PlayoutRules, deals: list, unknown: set) -> tuple[list, dict]:
    """What a referee can state about a match when the deals in ``unknown`` (0-based) have no
    known outcome (NOTATION 1.1, "unknown is not invented"), worked out from the other deals'
    play alone: ``([{winner, kot, streak, next_dealer}, ...], result)``.

    An unknown deal has no winner, streak or next dealer. Runs count afresh from the next
    known deal; a streak kot on a run counted afresh is stated only when one kot ends the
    match (``kots_to_win == 1``: an earlier kot would have ended it, and play went on), never
    in a session of several kots (an unseen kot may have restarted the run). ``coat`` points
    and kot tallies are lower bounds; the match ends for certain only when one reaches its
    target; otherwise, once a deal is unknown, whether it ended is unknown (``finished``
    None). Hukum's 2-2 rule names no dealer when the deal before is unknown.
    """
    run: Optional[tuple] = None
    exact = True                 # the run began after a known deal
    prev_known, previous = True, None
    kots = {s: 0 for s in rules.sides}
    points = {s: 0 for s in rules.sides}
    known, match_winner = True, None
    out: list[dict] = []
    for i, deal in enumerate(deals):
        if i in unknown:
            out.append({"winner": None, "kot": None, "streak": None, "next_dealer": None})
            run, exact, prev_known, previous, known = None, False, False, None, False
            continue
        _tens, _score, winner, kot = judge_deal(rules, deal)
        if winner is not None:
            if run is not None and run[0] == winner:
                run = (winner, run[1] + 1)
            else:
                exact = exact or run is not None
                run = (winner, 1)
            points[winner] += 1
            if kot is None and rules.streak_kot and run[1] == rules.streak_kot and \
                    (exact or rules.kots_to_win == 1):
                kot = {"side": winner, "reason": STREAK}
        if kot is not None:
            kots[kot["side"]] += 1
            if rules.kots_to_win and kots[kot["side"]] >= rules.kots_to_win:
                match_winner = kot["side"]
        if match_winner is None and rules.coat and winner and points[winner] >= rules.coat_points:
            match_winner = winner
        facts = {"winner": winner, "kot": kot, "streak": {"side": run[0], "length": run[1]} if run else None}
        if match_winner is not None:
            facts["next_dealer"] = None
            out.append(facts)
            break
        level_unknown = winner is None and not rules.level_to_non_dealers and not prev_known
        facts["next_dealer"] = None if level_unknown else next_dealer(rules, deal["dealer"], winner, kot, previous)
        out.append(facts)
        previous, prev_known = winner, True
        if kot is not None:
            run, exact = None, True
    if match_winner is not None:
        result: dict = {"winner": match_winner, "finished": True}
    elif not known:
        result = {"winner": None, "finished": None}
    elif rules.kots_to_win == 0:
        first, second = rules.sides
        result = {"winner": None if kots[first] == kots[second] else
                  (first if kots[first] > kots[second] else second), "finished": True}
    else:
        result = {"winner": None, "finished": False}
    result["kots"] = kots
    if rules.coat:
        result["points"] = points if known else None
    return out, result


# ---------------------------------------------------------------------------------------
# A match
# ---------------------------------------------------------------------------------------
# A match


@dataclass
class Style:
    """How the DPN text is written (the facts do not depend on it)."""

    hands: bool = False      # write a ``hands`` line
    leaders: bool = True     # write ``N X:`` leader seats
    tens: bool = True        # write ``tens AC n BD m``
    result: bool = True      # write [Result]
    loose: bool = False      # hand-written look: mixed spellings, comments, glyphs, ...
    withdrawn: float = 0.0   # chance per illegal opportunity to record ``-X`` first
    claims: float = 0.0      # chance per deal of a ``claim X`` where one side won every trick left


def generate_match(rng: random.Random, profile: str = "standard", options: Optional[dict] = None,
                   style: Optional[Style] = None, max_deals: Optional[int] = None, *,
                   bias: float = 0.0, bias_side: Optional[str] = None,
                   first_dealer: Optional[str] = None) -> tuple[str, dict]:
    """Return (dpn_text_of_one_game, facts).

    The match is played to its end under the rules, or stopped after ``max_deals`` deals
    (Result ``*``; an open-ended ``pagat kots=0`` session just ends there, and without
    ``max_deals`` it lasts 1-12 deals). ``bias`` is the chance per play that the cards are
    chosen to favour ``bias_side`` (default the first side), which makes kots common.
    The text decorations use their own random stream, so ``style`` never changes the play.
    """
    rules = make_rules(profile, options)
    style = style or Style()
    deco = random.Random(rng.getrandbits(64))
    dealer = first_dealer or rng.choice(rules.seats)
    if rules.kots_to_win == 0 and max_deals is None:
        max_deals = rng.randint(1, 12)
    choose = random_chooser(rng, rules, bias, bias_side)

    kots = {s: 0 for s in rules.sides}
    points = {s: 0 for s in rules.sides}
    run: Optional[tuple[str, int]] = None
    previous: Optional[str] = None
    deals: list = []
    match_winner: Optional[str] = None
    finished = False
    while max_deals is None or len(deals) < max_deals:
        deal = play_deal(rng, rules, len(deals) + 1, dealer, choose=choose,
                         withdraw=style.withdrawn, deco=deco)
        tens, score, winner, kot = judge_deal(rules, deal)
        if winner is not None:
            run = (winner, run[1] + 1 if run and run[0] == winner else 1)
            points[winner] += 1
        if kot is None and rules.streak_kot and run and run[1] >= rules.streak_kot:
            kot = {"side": run[0], "reason": STREAK}
        deal.update(tens=tens, score=score, winner=winner, kot=kot,
                    streak={"side": run[0], "length": run[1]} if run else None,
                    next_dealer=None)
        deals.append(deal)
        if kot is not None:
            kots[kot["side"]] += 1
            if rules.kots_to_win and kots[kot["side"]] >= rules.kots_to_win:
                match_winner = kot["side"]
        if match_winner is None and rules.coat and winner and points[winner] >= rules.coat_points:
            match_winner = winner
        if match_winner is not None:
            finished = True
            break
        deal["next_dealer"] = dealer = next_dealer(rules, dealer, winner, kot, previous)
        previous = winner
        if kot is not None:   # pagat: both streaks restart after a kot
            run = None
    if match_winner is None and rules.kots_to_win == 0:
        finished = True
        first, second = rules.sides
        if kots[first] != kots[second]:
            match_winner = first if kots[first] > kots[second] else second
    result = {"winner": match_winner, "kots": kots, "finished": finished}
    if rules.coat:
        result["points"] = points
    facts = {"profile": profile, "options": rules.options, "rules": rules_text(profile, rules.options),
             "deals": deals, "result": result}
    return render_game(rules, facts, style, deco), facts


def iter_matches(seed: int, deals: int, profile: str = "standard", options: Optional[dict] = None,
                 style: Optional[Style] = None, **kwargs) -> Iterator[tuple[str, dict]]:
    """Yield ``(text, facts)`` of matches from one seed until ``deals`` deals are reached."""
    rng = random.Random(seed)
    written = 0
    while written < deals:
        text, facts = generate_match(rng, profile, options, style, **kwargs)
        written += len(facts["deals"])
        yield text, facts


def generate_corpus(seed: int, deals: int, profile: str = "standard", options: Optional[dict] = None,
                    style: Optional[Style] = None) -> Iterator[str]:
    """Yield DPN game texts (each ending with a blank line) until about `deals` deals are written."""
    for text, _facts in iter_matches(seed, deals, profile, options, style):
        yield text


# ---------------------------------------------------------------------------------------
# Writing DPN

_NAMES = ("Asha", "Bilal", "Chitra", "Dev", "Esha", "Farid", "Gita", "Harpreet", "Imran",
          "Jaya", "Kabir", "Lata", "Manoj", "Nandini", "Omar", "Priya", "Ravi", "Sunita")
_COMMENTS = ("nice", "ouch", "should have led trump", "sweep!", "two in a row",
             "partner signals", "tea break", "long think", "risky", "a ten falls",
             "centre grows", "as planned", "hmm")
_GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
_ALT_SYMBOLS = {"S": "♤", "H": "♡", "D": "♢", "C": "♧"}


def _spell(card: str, deco: random.Random, loose: bool) -> str:
    """A card as written: canonical, or in a random hand-written spelling."""
    if not loose:
        return card
    rank, suit = card[:-1], card[-1]
    if rank == "10" and deco.random() < 0.4:
        rank = "T"
    r = deco.random()
    if r < 0.25:
        suit = SUIT_SYMBOLS[suit]
    elif r < 0.28:
        suit = _ALT_SYMBOLS[suit]
    if deco.random() < 0.4:
        rank, suit = rank.lower(), suit.lower()
    return rank + suit


def _trump_line(rules: PlayoutRules, deal: dict, deco: random.Random, loose: bool) -> Optional[str]:
    info = deal["trump"]
    if "drawn" in info:
        return f"trump drawn {_spell(info['drawn'], deco, loose)}"
    if info["suit"] is None:
        return None
    set_by_play = rules.trump_method in ("first-void", "first-void-five")
    if loose and set_by_play and deco.random() < 0.2:
        return None
    suit = info["suit"]
    if loose and deco.random() < 0.2:
        suit = SUIT_SYMBOLS[suit]
    words = ["trump", suit]
    if not (loose and not info.get("closed") and deco.random() < 0.2):
        words += ["by", info["by"]]
    if info["trick"] is not None and not (loose and set_by_play and deco.random() < 0.2):
        words += ["at", str(info["trick"])]
    if info.get("closed"):
        words.append("closed")
    return " ".join(words)


def _hands_lines(rules: PlayoutRules, deal: dict, deco: random.Random, loose: bool) -> list:
    lines = []
    split = deal.get("split")
    for i, seat in enumerate(rules.seats):
        hand = deal["hands"][seat]
        # (dealt first five first; without a split that order says nothing, and the plain
        # style writes a hand as the canonical layout does: by suit, highest first)
        cards = [_spell(c, deco, loose) for c in (hand if split or loose else sorted(hand, key=sort_key))]
        if split:
            cards = cards[:split] + ["|"] + cards[split:]
        lines.append(("hands " if i == 0 else "      ") + f"{seat}: " + " ".join(cards))
    return lines


def _trick_text(trick: dict, style: Style, deco: random.Random) -> str:
    loose = style.loose
    words = [f"{trick['number']:>2}"]
    if style.leaders:
        words.append(trick["leader"] + ":")
    for card, gone in zip(trick["cards"], trick["withdrawn"]):
        for bad in gone:
            words.append("-" + _spell(bad, deco, loose))
        word = _spell(card, deco, loose)
        if loose and deco.random() < 0.03:
            word += deco.choice(_GLYPHS)
        words.append(word)
        if loose and deco.random() < 0.02:
            text = deco.choice(_COMMENTS)
            if deco.random() < 0.2:
                text += "\n  " + deco.choice(_COMMENTS)
            words.append("{" + text + "}")
    return " ".join(words)


def _claim_point(rules: PlayoutRules, tricks: list) -> Optional[tuple[int, str]]:
    """Where a true claim can stand: ``(k, seat)`` when one side won tricks k..end (k > 1),
    ``seat`` the winner of trick k; None when the last trick alone is the side's."""
    side = rules.side_of[tricks[-1]["winner"]]
    k = len(tricks)
    while k > 1 and rules.side_of[tricks[k - 2]["winner"]] == side:
        k -= 1
    if k >= len(tricks) or k == 1:
        return None
    return k, tricks[k - 1]["winner"]


def render_game(rules: PlayoutRules, facts: dict, style: Style, deco: random.Random) -> str:
    """The DPN text of a generated match (ends with a blank line)."""
    loose = style.loose
    lines = [f'[Event "Random playout {deco.randrange(1, 100000)}"]']
    names = deco.sample(_NAMES, rules.players)
    for seat, name in zip(rules.seats, names):
        lines.append(f'[{seat} "{name}"]')
    lines.append(f'[Rules "{facts["rules"]}"]')
    if style.result:
        result = facts["result"]
        if result["winner"] is not None:
            value = result["winner"]
        else:
            value = "=" if result["finished"] else "*"
        lines.append(f'[Result "{value}"]')
    lines.append("")
    for deal in facts["deals"]:
        head = ["deal"]
        if not (loose and deco.random() < 0.3):
            head.append(str(deal["number"]))
        if deal["number"] == 1 or not (loose and deco.random() < 0.5):
            head += ["dealer", deal["dealer"]]
        lines.append(" ".join(head))
        if style.hands:
            lines.extend(_hands_lines(rules, deal, deco, loose))
        trump = _trump_line(rules, deal, deco, loose)
        if trump:
            lines.append(trump)
        played = deal["tricks"]
        claim = _claim_point(rules, played) if style.claims and deco.random() < style.claims else None
        if claim is not None:
            # (NOTATION 1.1) the deal as written stops before trick k: the claimer's side won
            # every trick from there, so it takes what the claim gives it, the same tens
            k, by = claim
            deal["claim"] = {"by": by, "trick": k}
            played = played[: k - 1]
        tricks = [_trick_text(t, style, deco) for t in played]
        if claim is not None:
            tricks.append(f"claim {claim[1]}")
        if loose:
            i = 0
            while i < len(tricks):
                k = deco.randint(1, 4)
                lines.append(("  " if deco.random() < 0.5 else " ").join(tricks[i:i + k]))
                i += k
        else:
            lines.extend(tricks)
        if style.tens:
            first, second = rules.sides
            lines.append(f"tens {first} {deal['tens'][first]} {second} {deal['tens'][second]}")
        lines.append("")
    return "\n".join(lines) + "\n"
