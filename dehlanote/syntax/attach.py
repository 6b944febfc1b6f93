"""Comments are data: each is attached to the element it follows (or to the game, before any).

The readers collect every comment with its position (Lark's lexer gives the ignored ones,
the whole-token reader those inside its tokens); once a chunk's games are built,
:func:`attach_comments` gives each comment to the element whose position is the last
before it. ``tests/syntax/test_attach.py`` checks that against the plain definition (every
element an anchor, sorted by position).
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from .model import Deal, Game, Trick, make_deal, with_comments

__all__ = ["attach_comments", "comment_text", "inside", "within"]

_DEAL_FIELDS = {name: i for i, name in enumerate(Deal._fields)}

#: line ends inside a comment: a run of CRs before a LF reads as one newline, so that a
#: comment written back canonically reads the same again (fmt is idempotent on \r)
CRLF = re.compile("\r+\n")


def comment_text(comment: str) -> str:
    """A comment's text without its braces; a comment that spans lines of a CRLF file keeps
    plain newlines, as every other text does."""
    body = comment[1:-1]
    return CRLF.sub("\n", body) if "\r" in body else body


def within(pos: tuple[int, int], game: Game, games: list[Game]) -> bool:
    """Whether a position falls in ``game`` (games are in file order; what comes before the
    first game belongs to it)."""
    idx = games.index(game)
    start = (game.line, game.column)
    end = (games[idx + 1].line, games[idx + 1].column) if idx + 1 < len(games) else (1 << 60, 0)
    return start <= pos < end or (idx == 0 and pos < start)


def inside(error: Any, game: Game, games: list[Game]) -> bool:
    """Whether an error (anything with a line and a column) falls in ``game``."""
    return within((error.line, error.column), game, games)


def attach_comments(game: Game, comments: list[tuple[int, int, str]]) -> Game:
    """Attach each comment to the element it follows (or to the game, before any).

    The element a comment follows is the one whose position is the last before the
    comment's. Elements stand in file order (tags, then deals; in a deal its keyword,
    misdeals, hands and trump in either order, tricks and their plays, claim, tens), so the
    deal is found by bisection and, inside it, the element by a few comparisons; only the
    nodes that get a comment are rebuilt.
    """
    if not comments:
        return game
    deals = game.deals
    deal_keys = [(d.line, d.column) for d in deals]
    tag_keys = [(t.line, t.column) for t in game.tags]
    on_game: list[str] = []
    on_tags: dict[int, list[str]] = {}
    on_deals: dict[int, dict[tuple[Any, ...], list[str]]] = {}
    for line, column, text in comments:
        pos = (line, column)
        d = bisect.bisect_left(deal_keys, pos) - 1
        if d >= 0:
            on_deals.setdefault(d, {}).setdefault(_deal_target(deals[d], pos), []).append(text)
            continue
        t = bisect.bisect_left(tag_keys, pos) - 1
        if t >= 0:
            on_tags.setdefault(t, []).append(text)
        else:
            on_game.append(text)
    if on_tags:
        tags = list(game.tags)
        for t, extra in on_tags.items():
            tags[t] = with_comments(tags[t], extra)
        game = game._replace(tags=tuple(tags))
    if on_deals:
        new_deals = list(deals)
        for d, found in on_deals.items():
            new_deals[d] = _deal_comments(deals[d], found)
        game = game._replace(deals=tuple(new_deals))
    return with_comments(game, on_game) if on_game else game


def _deal_target(deal: Deal, pos: tuple[int, int]) -> tuple[Any, ...]:
    """Which element of ``deal`` a comment at ``pos`` (after the deal's keyword) follows."""
    tens, claim, tricks = deal.tens, deal.claim, deal.tricks
    if tens is not None and (tens.line, tens.column) < pos:
        return ("tens",)
    if claim is not None and (claim.line, claim.column) < pos:
        return ("claim",)
    for i in range(len(deal.revokes) - 1, -1, -1):
        if (deal.revokes[i].line, deal.revokes[i].column) < pos:
            return ("revoke", i)
    if tricks and (tricks[0].line, tricks[0].column) < pos:
        t = bisect.bisect_left([(k.line, k.column) for k in tricks], pos) - 1
        firsts = [(p.withdrawn[0] if p.withdrawn else p) for p in tricks[t].plays]
        p = bisect.bisect_left([(f.line, f.column) for f in firsts], pos) - 1
        return ("trick", t) if p < 0 else ("play", t, p)
    best: tuple[int, int] = (deal.line, deal.column)
    target: tuple[Any, ...] = ("deal",)
    parts: list[tuple[tuple[int, int], tuple[Any, ...]]] = [
        ((m.line, m.column), ("misdeal", i)) for i, m in enumerate(deal.misdeals)]
    parts += [((h.line, h.column), ("hand", i)) for i, h in enumerate(deal.hands or ())]
    if deal.trump is not None:
        parts.append(((deal.trump.line, deal.trump.column), ("trump",)))
    for key, where in parts:
        if best < key < pos:
            best, target = key, where
    return target


def _deal_comments(deal: Deal, found: dict[tuple[Any, ...], list[str]]) -> Deal:
    """``deal`` with the comments ``found`` (by :func:`_deal_target`) attached."""
    changes: dict[str, Any] = {}
    tricks: list[Trick] | None = None
    for where, extra in found.items():
        kind = where[0]
        if kind == "deal":
            continue
        if kind in ("tens", "claim", "trump"):
            changes[kind] = with_comments(getattr(deal, kind), extra)
        elif kind == "revoke":
            revokes = list(changes.get("revokes", deal.revokes))
            revokes[where[1]] = with_comments(revokes[where[1]], extra)
            changes["revokes"] = tuple(revokes)
        elif kind == "misdeal":
            misdeals = list(changes.get("misdeals", deal.misdeals))
            misdeals[where[1]] = with_comments(misdeals[where[1]], extra)
            changes["misdeals"] = tuple(misdeals)
        elif kind == "hand":
            hands = list(changes.get("hands", deal.hands or ()))
            hands[where[1]] = with_comments(hands[where[1]], extra)
            changes["hands"] = tuple(hands)
        else:
            if tricks is None:
                tricks = list(deal.tricks)
            t = where[1]
            if kind == "trick":
                tricks[t] = with_comments(tricks[t], extra)
            else:
                plays = list(tricks[t].plays)
                plays[where[2]] = with_comments(plays[where[2]], extra)
                tricks[t] = tricks[t]._replace(plays=tuple(plays))
    if tricks is not None:
        changes["tricks"] = tuple(tricks)
    if changes:
        # (as _replace does, without its keyword handling: once a deal that has comments inside it)
        fields: list[Any] = list(deal)
        for name, value in changes.items():
            fields[_DEAL_FIELDS[name]] = value
        deal = make_deal(*fields)
    on_deal = found.get(("deal",))
    return with_comments(deal, on_deal) if on_deal else deal
