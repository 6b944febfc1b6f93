"""What a reader of a record wants to know trick by trick, derived from the replay facts.

Nothing here draws anything: it turns :class:`~dehlanote.replay.facts.DealFact` into
sentences in the profile's own terms (a sweep under the centre rule, an immediate capture
under hukum, the trump reveal of a closed-trump deal), follows every ten from the trick it
was played in to the pile it ended in, and computes the table as it stood after each card
(for the stepper). :func:`annotated_game` writes those facts into a record as ``{}``
comments, which keeps the record valid DPN. Rich rendering is in :mod:`.render`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from typing import Callable, Iterable, Iterator, NamedTuple, Optional, Sequence, Union, cast

from ..errors import DpnError, printable
from ..replay.game import GameReplay
from ..replay.facts import Capture, ClaimFact, DealFact, GameFacts, PlayFact, ResultFact, Streak, TrickFact, TrumpFact
from ..rules.profile import Rules
from ..deck import SUIT_NAMES, seats_for, side_of, sides_for, sort_key
from ..syntax.model import Deal, Game
from ..i18n import speaking_words as _

__all__ = [
    "TenStory", "TrickNote", "Snapshot", "ten_stories", "trick_notes", "trump_text", "capture_text",
    "deal_result_text", "deal_heading", "snapshots", "annotated_game", "seat_layout", "Stepper",
    "MatchStanding", "match_state", "match_text", "match_parts", "Flag", "place_errors", "flag_text",
    "trump_event", "Streamed", "match_end", "annotated_deal", "write_annotated",
]


# ---- the tens ------------------------------------------------------------------------------

class TenStory(NamedTuple):
    """One ten of a deal: the trick it fell in, who won that trick, where it ended up."""

    card: str
    trick: int                    # the trick the ten was played in
    won_by: str                   # the winner of that trick
    won_side: str
    taken_by: Optional[str]       # the seat whose capture took it (None: still in the centre)
    taken_side: Optional[str]
    taken_at: Optional[int]       # the trick of that capture

    @property
    def crossed(self) -> bool:
        """True when the ten was won in a trick by one side but swept by the other."""
        return self.taken_side is not None and self.taken_side != self.won_side


def ten_stories(deal: DealFact, seats: int = 4) -> list[TenStory]:
    """Every ten played in the deal, in playing order, with where it ended up."""
    pending: list[tuple[str, int, str]] = []      # tens in the centre: (card, trick, winner)
    stories: list[TenStory] = []
    for t in deal.tricks:
        for p in t.plays:
            if p.card.startswith("10"):
                pending.append((p.card, t.number, t.winner))
        cap = t.capture
        if cap is None:
            continue
        taken = Counter(cap.tens)
        keep = []
        for card, number, winner in pending:
            if taken[card] > 0:
                taken[card] -= 1
                stories.append(TenStory(card, number, winner, side_of(winner, seats), cap.by, cap.side, t.number))
            else:
                keep.append((card, number, winner))
        pending = keep
    for card, number, winner in pending:
        stories.append(TenStory(card, number, winner, side_of(winner, seats), None, None, None))
    stories.sort(key=lambda s: (s.trick, s.taken_at or 0))
    return stories


# ---- per trick -------------------------------------------------------------------------------

class TrickNote(NamedTuple):
    """A trick as the annotation shows it."""

    fact: TrickFact
    tens_after: dict[str, int]          # tens captured by each side after this trick
    crossed: tuple[TenStory, ...]       # tens this trick's capture took from the other side's trick
    lost: tuple[TenStory, ...]          # tens won in this trick that the other side swept later
    trump_event: Optional[str]          # "trump set", "trump revealed", "trump drawn" at this trick


def trump_event(trick: TrickFact, tf: Optional[TrumpFact]) -> Optional[str]:
    """The sentence for the trump event of ``trick`` (the engine's :class:`TrumpFact` says
    where trump was chosen, set, revealed or drawn), or None when nothing happened to trump there."""
    if tf is not None and tf.set_at is not None and trick.number == tf.set_at:
        return _("{seat} cannot follow: chooses trump in secret").format(seat=tf.by)     # hukum's closed trump
    if tf is None or tf.trick is None:
        return None
    if tf.drawn is not None:
        # the drawn card's suit is trump from trick tf.trick: the draw follows the trick before
        if trick.number == tf.trick - 1:
            return _("all five followed: {card} drawn, {suit} are trump").format(
                card=tf.drawn, suit=_(SUIT_NAMES[tf.drawn[-1]]))
        return None
    if trick.number != tf.trick or tf.suit is None:
        return None
    suit = _(SUIT_NAMES[tf.suit])
    if tf.closed or tf.method == "closed":
        return _("{seat} cannot follow: trump revealed, {suit}").format(seat=tf.by, suit=suit)
    return _("{seat} cannot follow: trump set, {suit}").format(seat=tf.by, suit=suit)


def trick_notes(deal: DealFact, rules: Rules) -> list[TrickNote]:
    """The deal's tricks with the running ten count and the tens that changed sides."""
    stories = ten_stories(deal, rules.seats)
    sides = sides_for(rules.seats)
    tens = {s: 0 for s in sides}
    notes = []
    for t in deal.tricks:
        if t.capture is not None:
            tens[t.capture.side] = tens.get(t.capture.side, 0) + len(t.capture.tens)
        crossed = tuple(s for s in stories if s.taken_at == t.number and s.crossed)
        lost = tuple(s for s in stories if s.trick == t.number and s.crossed)
        notes.append(TrickNote(t, dict(tens), crossed, lost, trump_event(t, deal.trump)))
    return notes


# ---- sentences -------------------------------------------------------------------------------

def suit_word(suit: Optional[str]) -> str:
    return _(SUIT_NAMES.get(suit or "", "none"))


def trump_text(tf: Optional[TrumpFact]) -> str:
    """How trump was set in the deal, in the profile's terms."""
    if tf is None:
        return _("trump unknown")
    if tf.drawn is not None:
        return _("trump {suit}: all five opening tricks were followed, {card} drawn (trump from trick {n})").format(
            suit=suit_word(tf.drawn[-1]), card=tf.drawn, n=tf.trick)
    if tf.suit is None:
        if tf.method in ("first-void", "first-void-five"):
            return _("no trump: every player followed suit")
        return _("trump unknown")
    suit = suit_word(tf.suit)
    if tf.closed or tf.method == "closed":
        if tf.trick is None:
            return _("trump {suit}, chosen in secret by {seat}, never revealed").format(suit=suit, seat=tf.by)
        return _("trump {suit}, chosen in secret by {seat}, revealed at trick {n}").format(
            suit=suit, seat=tf.by, n=tf.trick)
    if tf.method in ("first-void", "first-void-five"):
        return _("trump {suit}, set by {seat}'s first void at trick {n}").format(suit=suit, seat=tf.by, n=tf.trick)
    if tf.method == "partner":
        return _("trump {suit}, announced by {seat} (the dealer's partner)").format(suit=suit, seat=tf.by)
    return _("trump {suit}, announced by {seat}").format(suit=suit, seat=tf.by)


def capture_text(cap: Optional[Capture]) -> str:
    """``A sweeps 8 cards (two in a row): 10H 10S``; ``B takes the trick``."""
    if cap is None:
        return ""
    tens = (": " + " ".join(cap.tens)) if cap.tens else ""
    if cap.reason == "trick":
        return _("{seat} takes the trick").format(seat=cap.by) + tens
    if cap.reason == "last-trick":
        return _("{seat} takes the last {n} cards (last trick)").format(seat=cap.by, n=cap.cards) + tens
    return _("{seat} sweeps {n} cards (two in a row)").format(seat=cap.by, n=cap.cards) + tens


def claim_text(claim: "ClaimFact", tricks: int) -> str:
    """``D claims the rest (tricks 11 to 13): BD takes 16 cards with 10C``."""
    rest = f"trick {claim.trick}" if claim.trick == tricks else f"tricks {claim.trick} to {tricks}"
    tens = (" with " + " ".join(claim.tens)) if claim.tens else ""
    sound = {True: " (sound)", False: " (unsound)"}.get(claim.sound, "") if claim.sound is not None else ""
    return f"{claim.by} claims the rest ({rest}): {claim.side} takes {claim.cards} cards{tens}{sound}"


def deal_heading(deal: DealFact) -> str:
    """``Deal 1 · dealer D · trump diamonds, announced by A``."""
    parts = [_("Deal {n}").format(n=deal.number)]
    if deal.dealer:
        parts.append(_("dealer {seat}").format(seat=deal.dealer))
    if deal.misdeals:
        parts.append((_("1 misdeal before it") if deal.misdeals == 1 else _("{n} misdeals before it")).format(
            n=deal.misdeals))
    parts.append(trump_text(deal.trump))
    return " · ".join(parts)


def _split(tens: dict[str, int], sides: tuple[str, str]) -> str:
    return f"{sides[0]} {tens.get(sides[0], 0)} {sides[1]} {tens.get(sides[1], 0)}"


def deal_result_text(deal: DealFact, rules: Rules, facts: Optional[GameFacts] = None) -> list[str]:
    """The deal's outcome: who won it and why, the streak, the next dealer (or the match end)."""
    sides = sides_for(rules.seats)
    if not deal.complete:
        n = len(deal.tricks)
        return [(_("the deal stops after 1 trick: winner unknown") if n == 1 else
                 _("the deal stops after {n} tricks: winner unknown")).format(n=n),
                _("streak: unknown"), _("next dealer: unknown")]
    lines = []
    split = _split(deal.tens, sides)
    dealing = side_of(deal.dealer, rules.seats) if deal.dealer else None
    if deal.kot is not None:
        why = {"all-tens": _("all {n} tens").format(n=rules.total_tens),
               "streak": _("{n} deals in a row").format(n=rules.streak),
               "all-tricks": _("every trick")}.get(deal.kot.reason, deal.kot.reason)
        if deal.kot.reason == "all-tens" and rules.all_tens == "match":
            lines.append(_("{side} makes sirr: {why} (tens {split})").format(side=deal.kot.side, why=why, split=split))
        else:
            lines.append(_("{side} makes a kot: {why} (tens {split})").format(side=deal.kot.side, why=why, split=split))
    elif deal.winner is None:
        lines.append(_("no result: tens {split}, streaks unchanged").format(split=split))
    elif rules.score == "points":
        pts = _split(deal.points, sides)
        lines.append(_("{side} wins the deal on points ({points}; tens {split})").format(
            side=deal.winner, points=pts, split=split))
    elif rules.score == "tricks":
        lines.append(_("{side} wins the deal with {n} tricks (tricks {split})").format(
            side=deal.winner, n=deal.points.get(deal.winner, 0), split=_split(deal.points, sides)))
    else:
        mine = deal.tens.get(deal.winner, 0)
        other = sum(v for k, v in deal.tens.items() if k != deal.winner)
        if mine == other:
            lines.append(_("{side} wins the deal on a level split ({split}): the dealing side {dealing} needed "
                           "more").format(side=deal.winner, split=split, dealing=dealing))
        else:
            lines.append(_("{side} wins the deal with {n} tens ({split})").format(
                side=deal.winner, n=mine, split=split))
    claim = getattr(deal, "claim", None)
    if claim is not None:
        lines.append(claim_text(claim, rules.tricks_per_deal))
    if deal.streak is not None:
        lines.append(_("streak: {side} {n}").format(side=deal.streak.side, n=deal.streak.length))
    else:
        lines.append(_("streak: none"))
    if deal.next_dealer is not None:
        lines.append(_("next dealer: {seat}").format(seat=deal.next_dealer))
    elif facts is not None and facts.result is not None and facts.result.finished:
        winner = facts.result.winner
        lines.append(_("match over: {side} wins").format(side=winner) if winner else _("match over: level"))
    elif not deal.ends_match:
        lines.append(_("next dealer: unknown"))   # hangs on a deal whose outcome is unknown
    return lines


# ---- the table after each card, for the stepper -----------------------------------------------

class Snapshot(NamedTuple):
    """The table after ``played`` cards of a deal (0: dealt, nothing played)."""

    deal: DealFact
    played: int
    trick: Optional[TrickFact]          # the trick in progress or just completed
    shown: tuple[PlayFact, ...]         # its cards on the table so far
    complete: bool                      # the shown trick is complete (winner decided)
    hands: dict[str, tuple[str, ...]]   # cards still held (known ones), grouped S H D C
    unknown: dict[str, int]             # cards held that the record does not name
    centre_cards: int
    centre_tens: tuple[str, ...]
    piles: dict[str, int]               # captured cards per side
    pile_tens: dict[str, tuple[str, ...]]
    trump: Optional[str]                # the suit in force, as the players know it
    run: Optional[tuple[str, int]]      # (seat, consecutive wins) after the last complete trick
    capture: Optional[Capture]          # what the trick just completed captured
    event: Optional[str]                # trump set / revealed at this step
    crossed: tuple["TenStory", ...] = ()  # tens that capture took from a trick the other side won
    event_now: bool = False             # the event happened at this very card (not earlier in the trick)


def seat_layout(n: int) -> dict[str, str]:
    """Where each seat sits: playing order goes anticlockwise from A at the bottom."""
    if n == 6:
        return {"A": "S", "B": "SE", "C": "NE", "D": "N", "E": "NW", "F": "SW"}
    return {"A": "S", "B": "E", "C": "N", "D": "W"}


def _dealt(deal: DealFact, rules: Rules) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Each seat's dealt hand as far as known, and how many of its cards are unknown."""
    seats = seats_for(rules.seats)[: rules.seats]
    plays: dict[str, list[str]] = {s: [] for s in seats}
    for t in deal.tricks:
        for p in t.plays:
            plays.setdefault(p.seat, []).append(p.card)
    hands: dict[str, list[str]] = {}
    unknown: dict[str, int] = {}
    for s in seats:
        if s in deal.hands:
            hands[s] = list(deal.hands[s])
            unknown[s] = 0
        else:
            hands[s] = list(plays[s])
            unknown[s] = max(0, rules.hand_size - len(plays[s]))
    return hands, unknown


def snapshots(deal: DealFact, rules: Rules) -> list[Snapshot]:
    """The table after 0, 1, 2 … cards of the deal, one snapshot per card played."""
    sides = sides_for(rules.seats)
    dealt, unknown = _dealt(deal, rules)
    held = {s: list(c) for s, c in dealt.items()}
    tf = deal.trump
    open_trump = tf is not None and tf.method in ("announce", "partner") and not tf.closed
    trump = tf.suit if open_trump and tf is not None else None
    piles = {s: 0 for s in sides}
    pile_tens: dict[str, tuple[str, ...]] = {s: () for s in sides}
    centre_cards, centre_tens = 0, cast("tuple[str, ...]", ())
    run: Optional[tuple[str, int]] = None

    def grouped() -> dict[str, tuple[str, ...]]:
        return {s: tuple(sorted(c, key=sort_key)) for s, c in held.items()}

    out = [Snapshot(deal, 0, None, (), False, grouped(), dict(unknown), 0, (), dict(piles), dict(pile_tens),
                    trump, None, None, None)]
    played = 0
    notes = {n.fact.number: n for n in trick_notes(deal, rules)}
    for t in deal.tricks:
        event: Optional[str] = None     # a trump set or revealed stays shown to the trick's end
        for k, p in enumerate(t.plays):
            played += 1
            before = event
            if p.card in held.get(p.seat, []):
                held[p.seat].remove(p.card)
            # the engine says which card set or revealed trump (TrumpFact.trick, .play)
            if tf is not None and tf.set_at == t.number and tf.set_play == k:
                event = trump_event(t, tf)              # chosen in secret: still no trump
            if tf is not None and tf.suit is not None and tf.trick == t.number and tf.play == k:
                trump = tf.suit
                event = trump_event(t, tf)
            done = k == len(t.plays) - 1
            capture = None
            if done:
                centre_cards, centre_tens = t.centre_cards, t.centre_tens
                capture = t.capture
                if capture is not None:
                    piles[capture.side] = piles.get(capture.side, 0) + capture.cards
                    pile_tens[capture.side] = pile_tens.get(capture.side, ()) + capture.tens
                run = (t.winner, t.run)
                if t.trump is not None:
                    trump = t.trump
                if event is None and tf is not None and tf.drawn is not None:
                    event = trump_event(t, tf)
                    if event is not None:
                        trump = tf.drawn[-1]
            out.append(Snapshot(deal, played, t, t.plays[: k + 1], done, grouped(), dict(unknown),
                                centre_cards, centre_tens, dict(piles), dict(pile_tens), trump, run,
                                capture, event, notes[t.number].crossed if done else (),
                                event is not None and event != before))
    claim = getattr(deal, "claim", None)
    if claim is not None and len(out) > 1:
        # the claim ends the deal after its last written trick: the claiming side takes the rest
        piles[claim.side] = piles.get(claim.side, 0) + claim.cards
        pile_tens[claim.side] = pile_tens.get(claim.side, ()) + claim.tens
        out[-1] = out[-1]._replace(piles=dict(piles), pile_tens=dict(pile_tens), centre_cards=0, centre_tens=())
    return out


# ---- the record with the facts as comments ------------------------------------------------------

def _clean(text: str) -> str:
    return text.replace("}", ")").replace("{", "(")


def trick_comment(note: TrickNote, rules: Rules) -> str:
    """What ``annotate --format dpn`` writes after a trick."""
    t = note.fact
    sides = sides_for(rules.seats)
    parts = [f"{t.winner} wins"]
    if note.trump_event:
        parts.append(note.trump_event)
    if t.capture is not None:
        parts.append(capture_text(t.capture))
    if rules.capture == "centre":
        centre = f"centre {t.centre_cards}"
        if t.centre_tens:
            centre += " with " + " ".join(t.centre_tens)
        parts.append(centre)
    for s in note.crossed:
        parts.append(f"{s.card} was won by {s.won_by} ({s.won_side}) in trick {s.trick} "
                     f"but {s.taken_by} swept it to {s.taken_side}")
    parts.append("tens " + _split(note.tens_after, sides))
    return _clean("; ".join(parts))


def annotated_deal(deal: Deal, fact: DealFact, rules: Rules, facts: Optional[GameFacts] = None) -> Deal:
    """One deal of a record with the replay's facts added as ``{}`` comments (``facts``:
    the game's, given for its last deal, whose result may be the match's end)."""
    notes = trick_notes(fact, rules)
    tricks = list(deal.tricks)
    for j, note in enumerate(notes):
        if j >= len(tricks) or not tricks[j].plays:
            continue
        trick = tricks[j]
        last = trick.plays[-1]
        last = last._replace(comments=last.comments + (trick_comment(note, rules),))
        tricks[j] = trick._replace(plays=trick.plays[:-1] + (last,))
    head = _clean(f"dealer {fact.dealer}; {trump_text(fact.trump)}") if fact.dealer else \
        _clean(trump_text(fact.trump))
    result = _clean("; ".join(deal_result_text(fact, rules, facts)))
    deal = deal._replace(comments=deal.comments + (head,), tricks=tuple(tricks))
    if deal.tens is not None:
        deal = deal._replace(tens=deal.tens._replace(comments=deal.tens.comments + (result,)))
    elif deal.tricks:
        trick = deal.tricks[-1]
        last = trick.plays[-1]
        last = last._replace(comments=last.comments + (result,))
        deal = deal._replace(tricks=deal.tricks[:-1] + (trick._replace(plays=trick.plays[:-1] + (last,)),))
    return deal


def annotated_game(facts: GameFacts) -> Game:
    """The record with the replay's facts added as ``{}`` comments (still valid DPN).

    Trick comments follow each trick's last card, the deal's trump at its head and the
    result after its ``tens`` line (or its last trick when there is none). (For a game of
    any length, :func:`write_annotated` writes the same text deal by deal.)
    """
    from ..replay import explicit

    game = explicit(facts)
    rules = facts.rules
    if rules is None:
        return game
    deals = list(game.deals)
    for i, fact in enumerate(facts.deals):
        if i >= len(deals):
            break
        deals[i] = annotated_deal(deals[i], fact, rules, facts if i == len(facts.deals) - 1 else None)
    return game._replace(deals=tuple(deals))


class Streamed:
    """A game's replay (:func:`~dehlanote.replay.iter_replay`) one deal at a time, each deal
    with the game's facts when it is the last one (its result may be the match's end): one
    deal is held back until the next is replayed. ``facts`` is the game's
    :class:`GameFacts` (``deals`` empty) once the iteration is over."""

    def __init__(self, replay: Iterable[Union[DealFact, GameFacts]]) -> None:
        self.replay = replay
        self.facts: Optional[GameFacts] = None

    def __iter__(self) -> Iterator[tuple[DealFact, Optional[GameFacts]]]:
        held: Optional[DealFact] = None
        for item in self.replay:
            if isinstance(item, GameFacts):
                self.facts = item
                continue
            if held is not None:
                yield held, None
            held = item
        if held is not None:
            yield held, self.facts


def match_end(facts: GameFacts, deal: DealFact) -> Optional[GameFacts]:
    """For a deal that is not the game's last: the game's facts as far as its result
    concerns that deal. A deal that ends the match fixes the match's result (later deals
    are after the match and change nothing), so it is known without the rest of the game."""
    if not deal.ends_match or facts.rules is None:
        return None
    winner = deal.kot.side if deal.kot is not None else deal.winner
    return facts._replace(result=ResultFact(winner, {}, True, None))


#: marks a deal's cards before it is annotated (``--analyse``): the deal, and a note or None
Marker = Callable[[Deal, DealFact, Rules], "tuple[Deal, Optional[str]]"]


def write_annotated(game: Game, replay: Callable[[], GameReplay], write: Callable[[str], object], *,
                    mark: Optional[Marker] = None, spool: int = 8 << 20) -> GameFacts:
    """``annotate --format dpn`` of one game, deal by deal: the text of ``write_game(
    annotated_game(replay_game(game)))``, written in pieces to ``write``, one deal in memory.

    ``replay()`` replays the game (:func:`~dehlanote.replay.iter_replay`). A valid game is
    written with what the replay established filled in (:func:`~dehlanote.replay.explicit`),
    one with any error as written: as that is known only at the end, the filled-in text is
    kept in a spool file (in memory up to ``spool`` characters) and, at the first error,
    dropped for a second replay that writes the record as it is. ``mark`` (``--analyse``)
    marks a deal's cards before it is annotated and gives a note. Returns the game's facts
    (``deals`` empty), their notes followed by those of ``mark``.
    """

    from ..files import drain, spool as spool_file

    with spool_file(spool) as held:
        facts = _write_annotated(game, replay(), held.write, mark, filled=True)
        if facts is not None:
            drain(held, write)
            return facts
    facts = _write_annotated(game, replay(), write, mark, filled=False)
    assert facts is not None
    return facts


def _write_annotated(game: Game, source: GameReplay, write: Callable[[str], object], mark: Optional[Marker], *,
                     filled: bool) -> Optional[GameFacts]:
    """One pass of :func:`write_annotated`; None when ``filled`` and the game has an error
    (what was written is then to be dropped)."""
    from ..replay import explicit
    from ..syntax.writer import ordered_tags, write_deal, write_tag

    rules, errors = source.rules, source.errors
    if filled and (rules is None or errors):
        return None
    lines = ["{" + c.replace("}", ")") + "}" for c in game.comments]
    lines += [write_tag(t) for t in ordered_tags(game.tags)]
    started = bool(lines)
    write("\n".join(lines))

    def put(deal: Deal) -> None:
        nonlocal started
        text = "\n".join(write_deal(deal))
        write("\n\n" + text if started else text)
        started = True

    stream = Streamed(source)
    notes: list[str] = []
    done = 0
    for fact, final in stream:
        if filled and errors:
            return None
        assert rules is not None
        deal = game.deals[done]
        done += 1
        if mark is not None:
            deal, note = mark(deal, fact, rules)
            if note is not None:
                notes.append(note)
        if filled:
            deal = explicit(GameFacts(game._replace(deals=(deal,)), rules, (fact,), None, ())).deals[0]
        put(annotated_deal(deal, fact, rules, final))
    facts = stream.facts
    assert facts is not None
    if filled and facts.errors:
        return None
    for deal in game.deals[done:]:       # not replayed (the rules are unknown): as written
        put(deal)
    write("\n")
    return facts._replace(notes=facts.notes + tuple(notes)) if notes else facts


# ---- the match as it stands ---------------------------------------------------------------------

#: a fact the record does not allow to know (a deal whose outcome is unknown came before)
UNKNOWN = "unknown"


class MatchStanding(NamedTuple):
    """The match before a deal (or after it): what the replay states, never a guess."""

    kots: dict[str, int]                   # kots made so far (the certain ones)
    points: dict[str, int]                 # coat: deals won per side ({} otherwise)
    streak: Union[Streak, None, str]       # the run going into the next deal; UNKNOWN after an unknown deal
    unknown: tuple[int, ...]               # numbers of the deals so far whose outcome is unknown
    over: bool                             # the match certainly ended
    winner: Optional[str]                  # who won it (None: level, or not over)
    deals: int                             # deals counted


def match_state(deals: Sequence[DealFact], upto: int, rules: Rules,
                result: Optional[ResultFact] = None) -> MatchStanding:
    """The match after the first ``upto`` deals of ``deals`` (0: before any), from the deal facts.

    The run is the one the next deal continues: an unknown deal makes it unknown (runs then
    count afresh from the next known deal), a kot restarts it where the profile says so.
    """
    sides = sides_for(rules.seats)
    kots = {s: 0 for s in sides}
    points = {s: 0 for s in sides} if rules.match_points else {}
    streak: Union[Streak, None, str] = None
    unknown: list[int] = []
    over, winner = False, None
    for d in deals[:upto]:
        if d.kot is not None:
            kots[d.kot.side] = kots.get(d.kot.side, 0) + 1
        if points and d.winner is not None:
            points[d.winner] = points.get(d.winner, 0) + 1
        if not d.complete:
            if not over:
                unknown.append(d.number)
            streak = UNKNOWN
        elif d.kot is not None and rules.streak_reset_after_kot:
            streak = None
        elif d.winner is None and streak == UNKNOWN:
            pass                        # no result: the run stays as unknown as it was
        else:
            streak = d.streak
        if d.ends_match and not over:
            over = True
            if result is not None and result.finished:
                winner = result.winner
            elif d.kot is not None:
                winner = d.kot.side
            else:
                winner = d.winner
    if not over and upto >= len(deals) and result is not None and result.finished:
        over, winner = True, result.winner          # an open session ends with the record
    return MatchStanding(kots, points, streak, tuple(unknown), over, winner, min(upto, len(deals)))


def match_parts(state: MatchStanding, rules: Rules) -> list[str]:
    """The match in parts, most important first: ``kots AC 0 BD 1``, ``streak BD 2``, ...,
    then what wins (``1 kot wins the match``, ``7 deal wins in a row make a kot``)."""
    sides = sides_for(rules.seats)
    parts = []
    if state.over:
        parts.append(f"match over: {state.winner} wins" if state.winner else "match over: level")
    parts.append(f"kots {_split(state.kots, sides)}")
    if state.points:
        parts.append(f"deals won {_split(state.points, sides)}")
    if not state.over and rules.streak and not rules.match_points:
        if isinstance(state.streak, str):
            parts.append("streak unknown")
        elif state.streak is None:
            parts.append("no streak")
        else:
            parts.append(f"streak {state.streak.side} {state.streak.length}")
    if state.unknown:
        listed = ", ".join(str(n) for n in state.unknown)
        parts.append(f"deal{'s' if len(state.unknown) != 1 else ''} {listed} unknown")
    if not state.over:
        if rules.match_points:
            parts.append(f"{rules.match_points} deal wins take the match")
        if rules.kots:
            parts.append(f"{rules.kots} kot{' wins' if rules.kots == 1 else 's win'} the match")
        elif not rules.match_points:
            parts.append("an open session")
        if rules.streak and not rules.match_points:
            parts.append(f"{rules.streak} deal wins in a row make a kot")
    return parts


def match_text(state: MatchStanding, rules: Rules) -> str:
    """``kots AC 0 BD 1 · streak BD 2 · 1 kot wins the match · 7 deal wins in a row make a kot``."""
    return " · ".join(match_parts(state, rules))


# ---- errors where they happened ------------------------------------------------------------------

class Flag(NamedTuple):
    """An error placed where it happened in the play, for the stepper and ``replay --plain``."""

    error: DpnError
    deal: int                  # index into the deals
    played: int                # the snapshot (cards played) where it shows
    trick: Optional[int]       # the trick it belongs to (None: the deal or the match)
    card: Optional[int]        # the card at fault, by its place in the trick (None: the trick itself)
    at_end: bool = False       # a claim about the whole deal or match: shown with the deal's result


#: errors about a claim on the whole deal or match: shown where the deal's result is
_END_CODES = frozenset({"tens-mismatch", "result-mismatch", "incomplete-deal", "unsound-claim"})


def place_errors(deals: Sequence[DealFact], errors: Sequence[DpnError]) -> list[Flag]:
    """Each error at the card, trick or deal it concerns (by its position in the record).

    A card's error (revoke, not in hand, a card withdrawn wrongly) marks that card; a trick's
    (wrong leader, trick number or size) the trick's first card; a claim about the deal
    (tens, incomplete) or the match (Result) its end; anything else the start of its deal.
    """
    flags: list[Flag] = []
    if not deals:
        return flags
    lines = [d.deal.line for d in deals]
    ordered = all(a <= b for a, b in zip(lines, lines[1:]))
    by_number: dict[int, int] = {}
    for i, d in enumerate(deals):
        by_number.setdefault(d.number, i)
    for err in errors:
        index = by_number.get(err.deal) if err.deal is not None else None
        if index is None:
            at = bisect_right(lines, err.line) - 1 if ordered else \
                max((i for i, line in enumerate(lines) if line <= err.line), default=-1)
            if at < 0:
                # before the first deal: the tags (the Result claim is judged at the end)
                if err.code == "result-mismatch":
                    last = len(deals) - 1
                    flags.append(Flag(err, last, _cards(deals[last]), None, None, True))
                else:
                    flags.append(Flag(err, 0, 0, None, None))
                continue
            index = at
        flags.append(_place(err, index, deals[index]))
    flags.sort(key=lambda f: (f.deal, f.played, f.at_end))
    return flags


def _cards(deal: DealFact) -> int:
    return sum(len(t.plays) for t in deal.tricks)


def _place(err: DpnError, index: int, deal: DealFact) -> Flag:
    at = (err.line, err.column)
    played = 0
    for t in deal.tricks:
        trick = t.trick
        shown = len(t.plays)              # the cards the replay placed (a long trick: its first ones)
        for j, play in enumerate(trick.plays):
            if (play.line, play.column) == at or any((w.line, w.column) == at for w in play.withdrawn):
                return Flag(err, index, played + min(j + 1, shown), t.number, j if j < shown else None)
        leader = trick.leader
        if (trick.line, trick.column) == at or (leader is not None and (leader.line, leader.column) == at):
            return Flag(err, index, played + 1 if shown else played, t.number, None)
        played += shown
    end = _cards(deal)
    if err.code in _END_CODES:
        return Flag(err, index, end, None, None, True)
    tf = deal.trump
    if err.code == "trump-mismatch" and tf is not None and tf.trick is not None and tf.drawn is None:
        # a trump claim the play contradicts: shown at the card that really set (or revealed) trump
        start = 0
        for t in deal.tricks:
            if t.number == tf.trick:
                card = tf.play if tf.play is not None and tf.play < len(t.plays) else None
                return Flag(err, index, start + (card + 1 if card is not None else len(t.plays)), t.number, card)
            start += len(t.plays)
    if err.trick is not None:
        start = 0
        for t in deal.tricks:
            if t.number == err.trick:
                return Flag(err, index, start + 1 if t.plays else start, t.number, None)
            start += len(t.plays)
        return Flag(err, index, end, err.trick, None)          # a trick the replay could not reach
    return Flag(err, index, 0, None, None)


def flag_text(flag: Flag) -> str:
    """``revoke at 20:10: B must follow suit ...``"""
    err = flag.error
    return f"{err.code} at {err.line}:{err.column}: {printable(err.message)}"


# ---- moving through a game, card by card -------------------------------------------------------

class Stepper:
    """A position in a game's deals (deal index, cards played) and the moves of the stepper.

    Every move returns False when there is nowhere to go, and leaves the position as it was.
    Snapshots are computed per deal when first needed.
    """

    def __init__(self, deals: "list[DealFact] | tuple[DealFact, ...]", rules: Rules,
                 errors: Sequence[DpnError] = (), result: Optional[ResultFact] = None) -> None:
        if not deals:
            raise ValueError("a stepper needs at least one replayed deal")
        self.deals = tuple(deals)
        self.rules = rules
        self.result = result
        self.flags = place_errors(self.deals, errors)
        self.deal = 0
        self.played = 0
        self._snaps: dict[int, list[Snapshot]] = {}

    @classmethod
    def of(cls, facts: GameFacts) -> "Stepper":
        """A stepper over a replayed game, its errors placed where they happened."""
        if facts.rules is None:
            raise ValueError("a game without rules cannot be stepped through")
        return cls(facts.deals, facts.rules, facts.errors, facts.result)

    # -- what is shown ------------------------------------------------------------------------
    def snaps(self, deal: Optional[int] = None) -> list[Snapshot]:
        i = self.deal if deal is None else deal
        if i not in self._snaps:
            self._snaps[i] = snapshots(self.deals[i], self.rules)
        return self._snaps[i]

    @property
    def snap(self) -> Snapshot:
        return self.snaps()[self.played]

    def last(self, deal: Optional[int] = None) -> int:
        return len(self.snaps(deal)) - 1

    def ends(self, deal: Optional[int] = None) -> list[int]:
        """Cards played at the end of each trick: ``[0, 4, 8, …]`` (index = trick number)."""
        out = [0]
        for t in self.deals[self.deal if deal is None else deal].tricks:
            out.append(out[-1] + len(t.plays))
        return out

    def where(self) -> str:
        """``Deal 2 of 5 · trick 3 of 13 · card 2 of 4``."""
        d = self.deals[self.deal]
        parts = [f"Deal {d.number} of {self.deals[-1].number}" if len(self.deals) > 1 else f"Deal {d.number}"]
        snap = self.snap
        total = len(d.tricks)
        if total == 0:
            parts.append("no trick in the record")
        elif snap.trick is None:
            parts.append(f"before trick 1 of {total}")
        else:
            parts.append(f"trick {snap.trick.number} of {total}")
            parts.append(f"card {len(snap.shown)} of {len(snap.trick.plays)}")
        return " · ".join(parts)

    @property
    def deal_over(self) -> bool:
        """At the last card of a deal played to its end (its result is known)."""
        return self.played == self.last() and self.deals[self.deal].complete

    def at_end(self) -> bool:
        """At the last card the record gives for this deal."""
        return self.played == self.last()

    def match(self) -> MatchStanding:
        """The match as it stands here: before this deal, or after it once it is over."""
        upto = self.deal + 1 if self.at_end() else self.deal
        return match_state(self.deals, upto, self.rules, self.result)

    def trick_start(self) -> int:
        """Cards played before the trick shown now (0 before trick 1)."""
        ends = self.ends()
        before = [e for e in ends if e < self.played]
        return before[-1] if before else 0

    def flags_here(self) -> list[Flag]:
        """The errors of what is on the table: the shown trick up to this card (its deal's at the start,
        the claims about the deal at its end)."""
        start = self.trick_start() if self.played else -1
        return [f for f in self.flags if f.deal == self.deal and start < f.played <= self.played
                and (not f.at_end or self.at_end())]

    def next_error(self) -> bool:
        """To the next place with an error (False: none after here)."""
        for f in self.flags:
            if (f.deal, f.played) > (self.deal, self.played):
                return self._go(f.deal, f.played)
        return False

    def prev_error(self) -> bool:
        """To the previous place with an error (False: none before here)."""
        for f in reversed(self.flags):
            if (f.deal, f.played) < (self.deal, self.played):
                return self._go(f.deal, f.played)
        return False

    def first_error(self) -> bool:
        return bool(self.flags) and self._go(self.flags[0].deal, self.flags[0].played)

    # -- moves ----------------------------------------------------------------------------------
    def _go(self, deal: int, played: int) -> bool:
        if (deal, played) == (self.deal, self.played):
            return False
        self.deal, self.played = deal, played
        return True

    def next_card(self) -> bool:
        if self.played < self.last():
            return self._go(self.deal, self.played + 1)
        if self.deal + 1 < len(self.deals):
            return self._go(self.deal + 1, 0)
        return False

    def prev_card(self) -> bool:
        if self.played > 0:
            return self._go(self.deal, self.played - 1)
        if self.deal > 0:
            return self._go(self.deal - 1, self.last(self.deal - 1))
        return False

    def next_trick(self) -> bool:
        for end in self.ends():
            if end > self.played:
                return self._go(self.deal, end)
        if self.deal + 1 < len(self.deals):
            return self._go(self.deal + 1, 0)
        return False

    def prev_trick(self) -> bool:
        before = [end for end in self.ends() if end < self.played]
        if before:
            return self._go(self.deal, before[-1])
        if self.deal > 0:
            return self._go(self.deal - 1, self.ends(self.deal - 1)[-1])
        return False

    def next_deal(self) -> bool:
        return self.deal + 1 < len(self.deals) and self._go(self.deal + 1, 0)

    def prev_deal(self) -> bool:
        if self.played > 0:
            return self._go(self.deal, 0)
        return self.deal > 0 and self._go(self.deal - 1, 0)

    def start(self) -> bool:
        return self._go(self.deal, 0)

    def end(self) -> bool:
        return self._go(self.deal, self.last())

    def jump(self, trick: int) -> bool:
        """To the end of trick ``trick`` of this deal (False if the deal has no such trick)."""
        ends = self.ends()
        if not 1 <= trick < len(ends):
            return False
        self._go(self.deal, ends[trick])
        return True

    def goto(self, deal_number: Optional[int] = None, trick: Optional[int] = None) -> bool:
        """To deal ``deal_number`` (as numbered in the record), at the end of ``trick``."""
        if deal_number is not None:
            for i, d in enumerate(self.deals):
                if d.number == deal_number:
                    self.deal, self.played = i, 0
                    break
            else:
                return False
        if trick is not None:
            return self.jump(trick)
        return True
