"""What a reader of a record wants to know trick by trick, derived from the replay facts.

Nothing here draws anything: it turns :class:`~dehlanote.replay.facts.DealFact` into
sentences in the profile's own terms (a sweep under the centre rule, an immediate capture
under hukum, the trump reveal of a closed-trump deal) and follows every ten from the trick it
was played in to the pile it ended in. :func:`annotated_game` writes those facts into a
record as ``{}`` comments, which keeps the record valid DPN. The table after each card and
the stepper's moves are in :mod:`.stepper`; rich rendering is in :mod:`.render`.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Iterable, Iterator, NamedTuple, Optional, Union

from ..replay.game import GameReplay
from ..replay.methods import capture_mode, method_of_fact, score_mode
from ..replay.facts import Capture, ClaimFact, DealFact, GameFacts, ResultFact, TrickFact, TrumpFact
from ..rules.profile import Rules
from ..deck import SUIT_NAMES, side_of
from ..syntax.model import Deal, Game
from ..i18n import speaking_words as _

__all__ = [
    "TenStory", "TrickNote", "ten_stories", "trick_notes", "trump_text", "capture_text",
    "deal_result_text", "deal_heading", "annotated_game", "trump_event", "Streamed", "match_end",
    "annotated_deal", "write_annotated", "record_words", "game_words",
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
    if tf.closed or method_of_fact(tf.method).secret:
        return _("{seat} cannot follow: trump revealed, {suit}").format(seat=tf.by, suit=suit)
    return _("{seat} cannot follow: trump set, {suit}").format(seat=tf.by, suit=suit)


def trick_notes(deal: DealFact, rules: Rules) -> list[TrickNote]:
    """The deal's tricks with the running ten count and the tens that changed sides."""
    stories = ten_stories(deal, rules.seats)
    sides = rules.sides
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
    method = method_of_fact(tf.method)
    if tf.suit is None:
        if method.by_void:
            return _("no trump: every player followed suit")
        return _("trump unknown")
    suit = suit_word(tf.suit)
    if tf.closed or method.secret:
        if tf.trick is None:
            return _("trump {suit}, chosen in secret by {seat}, never revealed").format(suit=suit, seat=tf.by)
        return _("trump {suit}, chosen in secret by {seat}, revealed at trick {n}").format(
            suit=suit, seat=tf.by, n=tf.trick)
    if method.by_void:
        return _("trump {suit}, set by {seat}'s first void at trick {n}").format(suit=suit, seat=tf.by, n=tf.trick)
    if method.announcer == 2:
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
    rest = (_("trick {n}").format(n=claim.trick) if claim.trick == tricks
            else _("tricks {a} to {b}").format(a=claim.trick, b=tricks))
    said = (_("{seat} claims the rest ({rest}): {side} takes {cards} cards with {tens}") if claim.tens
            else _("{seat} claims the rest ({rest}): {side} takes {cards} cards")).format(
        seat=claim.by, rest=rest, side=claim.side, cards=claim.cards, tens=" ".join(claim.tens))
    if claim.sound is True:
        return _("{claim} (sound)").format(claim=said)
    if claim.sound is False:
        return _("{claim} (unsound)").format(claim=said)
    return said


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


def tens_split(tens: dict[str, int], sides: tuple[str, str]) -> str:
    return f"{sides[0]} {tens.get(sides[0], 0)} {sides[1]} {tens.get(sides[1], 0)}"


def deal_result_text(deal: DealFact, rules: Rules, facts: Optional[GameFacts] = None) -> list[str]:
    """The deal's outcome: who won it and why, the streak, the next dealer (or the match end)."""
    sides = rules.sides
    if not deal.complete:
        n = deal.next_trick - 1     # a trick counted and not replayed (the wrong size) counts
        claimed = [claim_text(deal.claim, rules.tricks_per_deal)] if deal.claim is not None else []
        return [(_("the deal stops after 1 trick: winner unknown") if n == 1 else
                 _("the deal stops after {n} tricks: winner unknown")).format(n=n),
                *claimed, _("streak: unknown"), _("next dealer: unknown")]
    lines = []
    split = tens_split(deal.tens, sides)
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
    elif score_mode(rules).name == "points":
        pts = tens_split(deal.points, sides)
        lines.append(_("{side} wins the deal on points ({points}; tens {split})").format(
            side=deal.winner, points=pts, split=split))
    elif score_mode(rules).name == "tricks":
        lines.append(_("{side} wins the deal with {n} tricks (tricks {split})").format(
            side=deal.winner, n=deal.points.get(deal.winner, 0), split=tens_split(deal.points, sides)))
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


# ---- the record with the facts as comments ------------------------------------------------------

def _clean(text: str) -> str:
    return text.replace("}", ")").replace("{", "(")


def _said(comments: Iterable[str]) -> str:
    """Comments as the text view shows them: each in its braces on one line, its line breaks
    and runs of spaces made one space, control characters as their pictures."""
    if not comments:
        return ""
    from ..text import printable

    return " ".join("{" + printable(" ".join(c.split())) + "}" for c in comments)


def comment_words(comments: Iterable[str]) -> list[str]:
    """Comments that stand in no game, one line each, as ``annotate``'s text view shows them."""
    return [_said((c,)) for c in comments]


def game_words(game: Game) -> list[str]:
    """The record's own comments on a game (before its tags and on them), one line each, for
    ``annotate``'s text view."""
    out = [_said((c,)) for c in game.comments]
    for tag in game.tags:
        out += [_said((c,)) for c in tag.comments]
    return out


def record_words(fact: DealFact, symbols: bool = True) -> list[str]:
    """The record's own words on a deal (its comments, and the glyphs of its cards with the card
    and its seat), one line per element that has any, in the record's order: ``deal: {…}``,
    ``trump: {…}``, ``trick 7: D 10♦? {…}`` … (``annotate``'s text view, under the table)."""
    from ..deck import SUIT_SYMBOLS

    def card(c: str) -> str:
        return c[:-1] + SUIT_SYMBOLS.get(c[-1], c[-1]) if symbols else c

    deal = fact.deal
    out: list[str] = []

    def add(label: str, comments: Iterable[str]) -> None:
        said = _said(comments)
        if said:
            out.append(f"{label}: {said}")

    add("deal", deal.comments)
    for m in deal.misdeals:
        add("misdeal", m.comments)
    for hand in deal.hands or ():
        add(f"hands {hand.seat}", hand.comments)
    if deal.trump is not None:
        add("trump", deal.trump.comments)
    orders: Optional[dict[int, str]] = None
    for trick in deal.tricks:
        if not trick.comments and not any(p.glyph or p.comments for p in trick.plays):
            continue            # (most tricks: nothing of the record's own)
        if orders is None:
            orders = {id(t.trick): t.order for t in fact.tricks}
        order = orders.get(id(trick), "")
        parts = []
        for k, play in enumerate(trick.plays):
            if play.glyph or play.comments:
                seat = order[k] + " " if k < len(order) else ""
                mark = f"{seat}{card(play.card)}{play.glyph or ''}"
                parts.append(" ".join(p for p in (mark if play.glyph or k < len(trick.plays) - 1 else "",
                                                  _said(play.comments)) if p))
        said = _said(trick.comments)
        line = " ".join(p for p in (*parts, said) if p)
        if line:
            out.append(f"trick {trick.number}: {line}")
    if deal.claim is not None:
        add(f"claim {deal.claim.seat}", deal.claim.comments)
    for revoke in deal.revokes:
        add(f"revoke {revoke.seat} at {revoke.trick}", revoke.comments)
    if deal.tens is not None:
        add("tens", deal.tens.comments)
    return out


def trick_comment(note: TrickNote, rules: Rules) -> str:
    """What ``annotate --format dpn`` writes after a trick."""
    t = note.fact
    sides = rules.sides
    parts = [f"{t.winner} wins"]
    if note.trump_event:
        parts.append(note.trump_event)
    if t.capture is not None:
        parts.append(capture_text(t.capture))
    if not capture_mode(rules).immediate:
        centre = f"centre {t.centre_cards}"
        if t.centre_tens:
            centre += " with " + " ".join(t.centre_tens)
        parts.append(centre)
    for s in note.crossed:
        parts.append(f"{s.card} was won by {s.won_by} ({s.won_side}) in trick {s.trick} "
                     f"but {s.taken_by} swept it to {s.taken_side}")
    parts.append("tens " + tens_split(note.tens_after, sides))
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
