"""Replaying a whole game: its tags, every deal, the match result, all errors found."""

# mypy: strict-equality
from __future__ import annotations

import calendar
import re
import unicodedata
from bisect import bisect_right
from typing import Iterable, Iterator, Optional, Union

from .. import inputs
from ..errors import READING_CODES, DpnError
from ..rules.profile import Registry, Rules, registry as default_registry
from ..deck import sides_for
from ..syntax.model import CardRef, Deal, Game, Tag, Tens, Trump, Word
from .engine import ClaimJudge, MatchState, replay_deal, start_match
from .facts import DealFact, GameFacts, ResultFact, trick_numbered

#: the notation's Date, year, month and day: ASCII digits (``\d`` would take any Unicode digit, e.g.
#: Devanagari, which no program reading the archive takes for a date) and dots. The one reading:
#: stats, the database and the site take their dates with :func:`read_date`
DATE_FORM = re.compile(r"([0-9]{4}|\?{4})\.([0-9]{2}|\?\?)\.([0-9]{2}|\?\?)")

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def read_date(text: str) -> tuple[Optional[tuple[Optional[int], Optional[int], Optional[int]]], str]:
    """A ``Date`` tag's year, month and day (None for a part written ``??``), and ``""``; or None
    and why it is no date: not in the notation's form, or no day of the calendar (month 13,
    30 February, year 0000; a day without its month must still be one some month has)."""
    m = DATE_FORM.fullmatch(text)
    if m is None:
        if DATE_FORM.fullmatch(text.strip()) is not None:    # (as the Result's value: nothing around it)
            return None, f'has spaces inside its quotes: write [Date "{text.strip()}"]'
        return None, "should be YYYY.MM.DD in the digits 0-9, with ?? for unknown parts"
    year, month, day = (None if g.startswith("?") else int(g) for g in m.groups())
    if year == 0:
        return None, "has no year 0000 (the first year is 0001)"
    if month is not None and not 1 <= month <= 12:
        return None, f"has no month {month:02d} (months are 01 to 12)"
    if day is not None:
        # (a year not known may be a leap year: 29 February is a day of some year)
        most = 31 if month is None else calendar.monthrange(year or 2000, month)[1]
        if not 1 <= day <= most:
            where = "a month" if month is None else f"{_MONTHS[month - 1]}" + (f" {year:04d}" if year else "")
            return None, f"has no day {day:02d}: {where} has {'at most 31' if month is None else most} days"
    return (year, month, day), ""


#: a trick line's opening: its number (``trick := INT "."? ...``), not the start of a card (``10H``)
_TRICK_LINE = re.compile(r"[ \t\r\f\v\ufeff]*([0-9]{1,9})(?:\.|(?=[ \t\r\f\v]|$))")

#: a line that opens with the ``deal`` keyword (any case)
_DEAL_LINE = re.compile(r"[ \t\r\f\v\ufeff]*(?i:deal)(?![0-9A-Za-z_])")

#: codes that are about the game's tags, never about a deal
_GAME_CODES = frozenset({"bad-tag", "unknown-rules"})


def reader_errors(game: Game) -> list[DpnError]:
    """The errors the reader found in ``game``, each inside a deal with that deal's number
    (its place in the game, as the replay numbers it) and, inside a trick line, that trick's
    number as written.

    The readers (the fine one, the whole one's fast paths, the compiled one) report where an
    error is, not which deal it is in: it is placed here, once, for all of them. An error
    belongs to the deal whose text it lies in: from the deal's first token to the next deal's,
    or to a tag written after the deal; an error on a ``deal`` line the reader could not keep
    (a comment never closed there) belongs to the deal that line opens, the one after the
    deals kept before it. A trick line is known by its node (the trick as read, its line and
    the lines its cards carry on to) or, when the reader left it out, by the number that opens
    its line. A tag's error stays the game's (deal and trick null), and so does one found
    before any deal was kept other than on a ``deal`` line (a limit of the reader stops a
    game with none of its deals read).
    """
    errors = game.errors
    if not errors or all(e.deal is not None or e.code in _GAME_CODES for e in errors):
        return list(errors)
    deals = game.deals
    starts = [(d.line, d.column) for d in deals]
    tags = sorted((t.line, t.column) for t in game.tags)
    out = []
    for e in errors:
        if e.deal is not None or e.code in _GAME_CODES:
            out.append(e)
            continue
        at = (e.line, e.column)
        i = bisect_right(starts, at) - 1
        text = _line_of(e)
        head = _DEAL_LINE.match(text) if text is not None else None
        if head is not None and head.end() <= e.column and (i < 0 or starts[i][0] != e.line):
            out.append(e.with_context(deal=i + 2))     # (a deal left out: the one after deal i + 1)
        elif i < 0 or any(starts[i] < t <= at for t in tags):
            out.append(e)
        else:
            trick = e.trick if e.trick is not None else _trick_of(e, deals[i], text)
            out.append(e.with_context(deal=i + 1, trick=trick))
    return out


def _line_of(e: DpnError) -> Optional[str]:
    """The text of the line ``e`` is on (from its first column), as the reader gave it
    (every reader error but ``encoding`` has it, whether or not the game's text is kept)."""
    return e.source_line if e.source_line is not None and e.source_column == 1 else None


def _trick_of(e: DpnError, deal: Deal, text: Optional[str]) -> Optional[int]:
    """The number of the trick line ``e`` is in (its line ``text``), if it is in one."""
    at = (e.line, e.column)
    found = None
    for t in deal.tricks:
        if (t.line, t.column) > at:
            break
        last = t.line
        for p in t.plays:
            last = max(last, p.line, *(w.line for w in p.withdrawn))
        if e.line <= last:
            found = t.number
    if found is not None:
        return found
    m = _TRICK_LINE.match(text) if text is not None else None
    if m is None or e.column <= m.end(1):
        return None
    return int(m.group(1))


def _sorted(errors: Iterable[DpnError]) -> tuple[DpnError, ...]:
    unique = dict.fromkeys(errors)
    return tuple(sorted(unique, key=lambda e: (e.line, e.column)))


def replay_game(game: Game, reg: Optional[Registry] = None, *, strict: bool = False,
                dealt_hands: bool = True, judge: Optional[ClaimJudge] = None, keep_deals: bool = True) -> GameFacts:
    """Replay a game under the rules its ``Rules`` tag names, collecting every error.

    In strict mode the first error (in file order) is raised instead. With ``dealt_hands``
    False each deal's ``DealFact.dealt`` is left empty (the written hands sorted to deck
    order, a quarter of the replay of a deal with hands): for a check that wants only the
    errors, which are the same. ``judge`` judges claims (see
    :func:`~dehlanote.replay.engine.claim_deal`; the command line hands it the analysis
    layer's double-dummy check, :func:`dehlanote.analysis.claim.claim_judge`). With
    ``keep_deals`` False each deal's facts are let go once replayed (``deals`` is empty):
    a check of a game of thousands of deals in the memory of one.

    Raises:
        DpnError: in strict mode only.
    """
    facts = _replay(game, reg or default_registry(), dealt_hands, judge, keep_deals)
    if strict and facts.errors:
        raise facts.errors[0]
    return facts


def _replay(game: Game, reg: Registry, dealt_hands: bool = True, judge: Optional[ClaimJudge] = None,
            keep_deals: bool = True) -> GameFacts:
    # the loop of GameReplay without its generator (about 8,700 instructions a deal less,
    # by callgrind): bulk checking runs here
    rules, errors, notes = _begin(game, reg)
    if rules is None:
        return GameFacts(game, None, (), None, _sorted(errors), tuple(notes))
    result_tag, unfinished_ok = _setup(game, rules, errors)
    match = start_match(rules)
    ruled: list[DpnError] = []
    deals: list[DealFact] = []
    count = len(game.deals)
    last: Optional[DealFact] = None
    reading = list(errors)
    for i, deal in enumerate(game.deals):
        match, last, deal_errors = replay_deal(match, deal, last=i == count - 1, unfinished_ok=unfinished_ok,
                                               dealt_hands=dealt_hands, judge=judge)
        deal_errors = _told_by_reader(deal, i + 1, deal_errors, reading)
        if unfinished_ok and i == count - 1:
            deal_errors = _before_trump(deal, rules, deal_errors)
        if deal.revokes:
            deal_errors = ruled_revokes(deal, last, deal_errors, ruled, unfinished=unfinished_ok and i == count - 1)
        errors.extend(deal_errors)
        notes.extend(last.notes)
        if keep_deals:
            deals.append(last)
    return _end(game, rules, match, last, result_tag, errors, notes, tuple(deals), ruled)


RULINGS = {"stands": "the play stands", "penalty": "a penalty of the table's (the cards are scored as played)"}


def ruled_revokes(deal: Deal, fact: DealFact, errors: Iterable[DpnError], ruled: list[DpnError], *,
                  pending_ok: bool = False, unfinished: bool = False) -> list[DpnError]:
    """The deal's errors once its ``revoke`` lines are read (DPN 1.2).

    ``revoke C at 4 stands``: the replay's ``revoke`` at C's card of trick 4 (found then, or
    when C later played the suit) is a fact the table ruled on, not an error of the record:
    it moves to ``ruled`` (the same code and place, the ruling in its message). A revoke line
    where the replay finds no revoke is itself a ``revoke`` error, at the line; with
    ``pending_ok`` not when its trick is still to come, and with ``unfinished`` (the last deal
    of an unfinished record) never: the card that shows it may be in the trick under way.
    """
    errors = list(errors)
    for r in deal.revokes:
        at = None
        t = trick_numbered(fact.tricks, r.trick)
        if t is not None:
            if r.seat in t.order and t.order.index(r.seat) < len(t.trick.plays):
                play = t.trick.plays[t.order.index(r.seat)]
                at = (play.line, play.column)
        hits = [e for e in errors if e.code == "revoke" and (e.line, e.column) == at]
        if not hits and ((unfinished and not fact.complete) or (pending_ok and r.trick > len(deal.tricks))):
            continue
        if not hits:
            errors.append(DpnError("revoke", f"the record says {r.seat} revoked in trick {r.trick}, but the replay "
                                   f"finds no revoke by {r.seat} there", r.line, r.column, deal=fact.number))
            continue
        for e in hits:
            errors.remove(e)
            ruled.append(DpnError("revoke", f"{e.message}; {RULINGS.get(r.ruling, r.ruling)}",
                                  e.line, e.column, deal=e.deal, trick=e.trick))
    return errors


def before_trump(deal: Deal, rules: Rules) -> bool:
    """Whether ``deal`` stops before its trump line is due: before trick 1 when trump is
    named before play, or after the five opening tricks when a card is drawn for it."""
    if not deal.tricks:
        return True
    return rules.trump == "first-void-five" and len(deal.tricks) == 5


def _told_by_reader(deal: Deal, number: int, errors: list[DpnError], reading: list[DpnError]) -> list[DpnError]:
    """The deal's replay errors less those that only say again what a reading error of the
    deal says: the dealer "not named" when the deal line's dealer could not be read, the trump
    line "missing" when the deal's trump line could not be read (``deal 1 dealer Q``,
    ``trump X by A``: the reader reports the word, and left it or its line out)."""
    if not reading or not errors:
        return errors
    mine = [e for e in reading if e.deal == number and e.code in ("syntax", "bad-card")]
    if not mine:
        return errors
    dealer_unread = any(e.line == deal.line and e.column > deal.column for e in mine)
    trump_unread = any((e.source_line or "").lstrip().lower().startswith("trump") for e in mine)
    at_deal = (deal.line, deal.column)
    return [e for e in errors
            if not ((e.line, e.column) == at_deal
                    and (e.code == "wrong-dealer" and dealer_unread and "must name its dealer" in e.message
                         or e.code == "missing-trump" and trump_unread))]


def _before_trump(deal: Deal, rules: Rules, errors: Iterable[DpnError]) -> list[DpnError]:
    """The last deal of an unfinished record (``Result "*"``) may stop anywhere, before its
    trump line too: the trump line is missing only once a card needs it."""
    errors = list(errors)
    if not before_trump(deal, rules):
        return errors
    return [e for e in errors if not (e.code == "missing-trump" and (e.line, e.column) == (deal.line, deal.column))]


def _begin(game: Game, reg: Registry) -> tuple[Optional[Rules], list[DpnError], list[str]]:
    """The rules a game names (None when it is not replayed), its errors and notes so far."""
    errors = reader_errors(game)
    notes: list[str] = []
    if any(e.code in READING_CODES for e in game.errors) and not game.deals:
        return None, errors, notes
    rules_tag = game.tag_node("Rules")
    try:
        return reg.resolve(rules_tag.value if rules_tag is not None else "standard"), errors, notes
    except DpnError as exc:
        where = rules_tag if rules_tag is not None else game
        errors.append(DpnError("unknown-rules", exc.message, where.line, where.column))
        notes.append("the game was not replayed: its rules are unknown")
        return None, errors, notes


def _setup(game: Game, rules: Rules, errors: list[DpnError]) -> tuple[Optional[Tag], bool]:
    """Check the tags; the Result tag and whether it marks the record unfinished."""
    errors.extend(_check_tags(game, rules))
    result_tag = game.tag_node("Result")
    return result_tag, result_tag is not None and result_tag.value.strip() == "*"


def _end(game: Game, rules: Rules, match: MatchState, last: Optional[DealFact], result_tag: Optional[Tag],
         errors: list[DpnError], notes: list[str], deals: tuple[DealFact, ...],
         ruled: Optional[list[DpnError]] = None) -> GameFacts:
    """The game's facts once its last deal is replayed: the result, checked against its tag."""
    result = match_result(match, rules, last is not None and last.complete)
    if result_tag is not None and result.finished is not None:
        problem = _check_result(result_tag, result, rules, match)
        if problem is not None:
            errors.append(problem)
    if result_tag is not None and result.finished is None:
        notes.append("the Result tag was not checked: a deal whose outcome is unknown may have changed "
                     "how the match ended")
    return GameFacts(game, rules, deals, result, _sorted(errors), tuple(notes), _sorted(ruled or ()))


class GameReplay:
    """A game's replay, one deal at a time, for outputs that keep memory to one deal.

    ``rules`` is known before the first deal (None when the game is not replayed: its rules
    are unknown or it could not be read). Iterating yields each deal's :class:`DealFact` as
    it is replayed, then one :class:`GameFacts` whose ``deals`` is empty (they were yielded)
    and which holds the result, every error in file order and the notes. Only the match
    state is kept between deals.
    """

    def __init__(self, game: Game, reg: Optional[Registry] = None, judge: Optional[ClaimJudge] = None) -> None:
        self.game = game
        self.judge = judge
        self.rules, self.errors, self.notes = _begin(game, reg or default_registry())

    def __iter__(self) -> Iterator[Union[DealFact, GameFacts]]:
        game, rules, errors, notes = self.game, self.rules, self.errors, self.notes
        if rules is None:
            yield GameFacts(game, None, (), None, _sorted(errors), tuple(notes))
            return
        result_tag, unfinished_ok = _setup(game, rules, errors)
        match = start_match(rules)
        ruled: list[DpnError] = []
        count = len(game.deals)
        last: Optional[DealFact] = None
        reading = list(errors)
        for i, deal in enumerate(game.deals):
            match, last, deal_errors = replay_deal(match, deal, last=i == count - 1, unfinished_ok=unfinished_ok,
                                                   judge=self.judge)
            deal_errors = _told_by_reader(deal, i + 1, deal_errors, reading)
            if unfinished_ok and i == count - 1:
                deal_errors = _before_trump(deal, rules, deal_errors)
            if deal.revokes:
                deal_errors = ruled_revokes(deal, last, deal_errors, ruled,
                                            unfinished=unfinished_ok and i == count - 1)
            errors.extend(deal_errors)
            notes.extend(last.notes)
            yield last
        yield _end(game, rules, match, last, result_tag, errors, notes, (), ruled)


def iter_replay(game: Game, reg: Optional[Registry] = None, judge: Optional[ClaimJudge] = None) -> GameReplay:
    """Replay a game deal by deal: each deal's facts as it is replayed, then the game's
    :class:`GameFacts` (result, errors, notes; ``deals`` empty). ``iter_replay(g).rules``
    is known before the first deal. What ``replay_game`` gives, with one deal in memory."""
    return GameReplay(game, reg, judge)


def player_name(game: Game, seat: str) -> Optional[str]:
    """The player at ``seat``: the seat tag's text, trimmed; None when the seat is not named, or
    named ``?`` (PGN's mark for a name not known: a club that writes it at every seat it does
    not know made one player "?" who played at every seat, against themself). The name is in
    Unicode's composed form (NFC): "Åsa" typed with the ring as a letter of its own or as a mark
    on the A looks the same and is one player. Every count by name (stats, the database, the
    site's player pages, review) knows players so."""
    name = unicodedata.normalize("NFC", (game.tag(seat) or "").strip())
    return name if name.strip("?") else None


def _check_tags(game: Game, rules: Rules) -> list[DpnError]:
    errors = []
    date = game.tag_node("Date")
    if date is not None:
        parts, why = read_date(date.value)
        if parts is None:
            errors.append(DpnError("bad-tag", f'the Date "{date.value[:40]}" {why}', date.line, date.column))
    result = game.tag_node("Result")
    if result is not None:
        allowed = (*sides_for(rules.seats), "=", "*")
        value = result.value
        if value not in allowed:
            # exactly one of these, as a side is written everywhere (in capitals, nothing around
            # it): " AC" was taken as AC while "ac" was refused
            said = f'the Result "{value[:40]}"'
            if value.strip() in allowed:
                message = f'{said} has spaces inside its quotes: write [Result "{value.strip()}"]'
            elif value.strip().upper() in allowed:
                message = f'{said} should be written in capitals: [Result "{value.strip().upper()}"]'
            else:
                message = (f"{said} should be {', '.join(allowed[:2])} (the winning side), = (level) "
                           "or * (unfinished)")
            errors.append(DpnError("bad-tag", message, result.line, result.column))
    return errors


def result_value(result: Optional[ResultFact]) -> str:
    """The ``Result`` tag a record of one deal states for ``result`` (its replay's, or a
    table's :func:`match_result`): ``"*"`` unless the deal ends the match, then the side that
    won it (``=`` when level: an open-ended session, ``kots=0``, ends with its record). A
    table's ``to_dpn`` and a what-if line (the replay page's copy in whatif.js too) take their
    Result from here."""
    if result is None or not result.finished:
        return "*"
    return result.winner or "="


def match_result(match: MatchState, rules: Rules, last_complete: bool) -> ResultFact:
    """The match's result after its last deal (``last_complete``: that deal was played out or claimed)."""
    sides = sides_for(rules.seats)
    kots = {sides[0]: match.kots[0], sides[1]: match.kots[1]}
    points: Optional[dict[str, int]] = \
        {sides[0]: match.points[0], sides[1]: match.points[1]} if rules.match_points else {}
    if not match.known and rules.match_points:
        points = None   # an unknown deal may have given a point
    if match.finished and match.winner is not None:
        return ResultFact(sides[match.winner], kots, True, points)
    if not match.known:
        # no certain end, and an unknown deal may have ended the match or changed the tally
        return ResultFact(None, kots, None, points)
    if rules.kots == 0 and last_complete:
        a, b = match.kots
        winner = sides[0] if a > b else sides[1] if b > a else None
        return ResultFact(winner, kots, True, points)
    return ResultFact(None, kots, False, points)


def _check_result(tag, result: ResultFact, rules: Rules, match: MatchState) -> Optional[DpnError]:
    value = tag.value
    sides = sides_for(rules.seats)
    if value not in (*sides, "=", "*"):
        # reported as bad-tag; a value meant as one of them (" AC", "ac") is checked as that
        # too: the claim's own mistake is not hidden behind its spelling's
        value = value.strip().upper()
        if value not in (*sides, "=", "*"):
            return None
    def mismatch(message: str) -> DpnError:
        return DpnError("result-mismatch", message, tag.line, tag.column)
    if value == "*":
        if result.finished and rules.kots != 0:
            return mismatch(f"the match is over ({result.winner} won it in deal {match.ended_at}), "
                            "but Result says * (unfinished)")
        return None
    if value == "=":
        if rules.kots != 0:
            return mismatch("this match ends with one side winning, never level: Result = applies only "
                            "to an open-ended session (kots=0)")
        if result.finished and result.winner is not None:
            return mismatch(f"{result.winner} has more kots, so the session is not level")
        return None
    if not result.finished:
        return mismatch(f"the record ends before the match is decided, but Result names {value}")
    if result.winner != value:
        if result.winner is None:
            return mismatch(f"the session is level on kots, but Result names {value}")
        return mismatch(f"{result.winner} won the match, not {value}")
    return None


def replay_games(games: Iterable[Game], reg: Optional[Registry] = None,
                 judge: Optional[ClaimJudge] = None) -> Iterator[GameFacts]:
    """Replay games one at a time (lenient: errors are collected in each)."""
    reg = reg or default_registry()
    for game in games:
        yield _replay(game, reg, judge=judge)


def canonical_text(game: Game, facts: GameFacts) -> str:
    """The canonical DPN of a game (what ``fmt``, the language server's formatting and
    ``annotate --format dpn`` write). A game the reader found faults in is kept as written,
    whatever the fault: its text may hold what the reader could not place in the game (a
    stray ``[`` in a trick line opens what the reader takes for another game's tags, and the
    cards after it are in no game at all)."""
    from ..syntax import write_game
    if game.errors:
        return as_written(game.source) if game.source is not None else write_game(game).strip("\n") + "\n"
    text = write_game(explicit(facts))
    if facts.errors and game.source is not None and not _starts_a_game(text):
        # a game the replay found faults in is laid out again, as written otherwise: but its
        # start may be what made it a game of its own ("deal 1 AS QS 2S 10S" after a broken
        # trick line is read as a deal with no number and trick 1; written "deal" and " 1 AS
        # ...", it no longer starts a game, and fmt made two games one)
        return as_written(game.source)
    return text


def _starts_a_game(text: str) -> bool:
    """Whether ``text``, written after another game, is read as a game of its own."""
    from ..syntax.reader import split_games
    return len(list(split_games("deal 1 dealer A\n\n" + text))) == 2


def as_written(source: str) -> str:
    """A game's kept text (``Game.source``) as it is written out again: without the blank
    lines around it, ended by a line end. The source of a game that starts in the middle of a
    line is padded with spaces to its column (so that its errors' lines show as in the file),
    and the game before it ends with the spaces before it: those are the file's layout, not
    the game's, and written out they came back as a new line of spaces before the game, one
    more at each ``fmt`` (and the padding in place of what stood before it on its line)."""
    return source.rstrip(" \t").strip("\n").lstrip(" \t") + "\n"


def explicit(facts: GameFacts) -> Game:
    """The game with what the replay established written in: deal numbers, dealers,
    trick leaders, the trump line and the tens of complete deals.

    A game with errors is returned as written: nothing is filled in from a replay that
    found the record wrong.

    Raises:
        TypeError: ``facts`` is not a replayed game (:class:`GameFacts`, what ``replay_game`` gives).
    """
    if not isinstance(facts, GameFacts):
        raise inputs.refuse("explicit", "a replayed game (GameFacts, what replay_game or read_game gives)", facts)
    game = facts.game
    if facts.errors or facts.rules is None:
        return game
    deals = []
    for deal, fact in zip(game.deals, facts.deals):
        deals.append(_explicit_deal(deal, fact, facts.rules))
    return game._replace(deals=tuple(deals))


def _w(value: object, node) -> Word:
    return Word(value, node.line, node.column)


def _explicit_deal(deal: Deal, fact: DealFact, rules: Rules) -> Deal:
    number = deal.number or _w(fact.number, deal)
    dealer = deal.dealer or (_w(fact.dealer, deal) if fact.dealer else None)
    replayed = {id(tf.trick): tf for tf in fact.tricks}    # (a trick not replayed keeps what it says)
    tricks = tuple(
        t if t.leader is not None or id(t) not in replayed else t._replace(leader=_w(replayed[id(t)].leader, t))
        for t in deal.tricks
    )
    trump = deal.trump
    tf = fact.trump
    if tf is not None and (tf.suit is not None or tf.drawn is not None):
        comments = trump.comments if trump is not None else ()
        line, column = (trump.line, trump.column) if trump is not None else (deal.line, deal.column)
        if tf.drawn is not None:
            trump = Trump(line, column, drawn=CardRef(tf.drawn, line, column), comments=comments)
        else:
            trump = Trump(line, column, suit=Word(tf.suit, line, column),
                          by=Word(tf.by, line, column) if tf.by else None,
                          at=Word(tf.trick, line, column) if tf.trick is not None else None,
                          closed=tf.closed, comments=comments)
    tens = deal.tens
    if fact.complete:
        # canonical: both sides, in seat order, with the replayed counts (equal to any claim)
        sides = sides_for(rules.seats)
        node = tens if tens is not None else deal
        tens = Tens(tuple((Word(s, node.line, node.column), Word(fact.tens[s], node.line, node.column))
                          for s in sides), node.line, node.column, tens.comments if tens is not None else ())
    return deal._replace(number=number, dealer=dealer, tricks=tricks, trump=trump, tens=tens)
