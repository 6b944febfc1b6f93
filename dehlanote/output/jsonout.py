"""JSON (``dpn-json/1``): replayed games as plain data, and back to the model.

The keys of the notation's (docs/notation.md) JSON core are kept exactly; the extra keys (comments, written
hands, positions, notes) are documented in ``dpn-json.schema.json`` beside this file.
:func:`game_from_json` rebuilds the model so that JSON -> DPN gives the canonical text.
"""

from __future__ import annotations

import json
from importlib import resources
from types import ModuleType
from typing import Any, Iterable, Optional

from ..replay.facts import Capture, ClaimFact, DealFact, GameFacts, TrickFact
from ..deck import seats_for, sides_for
from ..syntax.model import CardRef, Claim, Deal, Game, Hand, Misdeal, Play, Tag, Tens, Trick, Trump, Word, make_revoke

try:
    import orjson as _orjson
except ImportError:      # pragma: no cover - the standard library's encoder then
    _orjson = None  # type: ignore[assignment]

_cjson: ModuleType | None
try:
    from . import _cjson       # the tricks' compact JSON compiled (built at install with a C compiler)
except ImportError:            # pragma: no cover - deal_text then takes the Python path
    _cjson = None
if _cjson is not None and not (      # it reads the facts by field index: the fields it knows
        TrickFact._fields[:10] == ("number", "leader", "order", "winner", "trump", "centre_cards", "centre_tens",
                                   "capture", "run", "trick")
        and Trick._fields[:6] == ("number", "line", "column", "plays", "leader", "comments")
        and Play._fields[:6] == ("card", "line", "column", "withdrawn", "glyph", "comments")
        and Capture._fields[:5] == ("by", "side", "cards", "tens", "reason")
        and CardRef._fields[0] == "card" and Word._fields[0] == "value"
        and hasattr(_cjson, "tricks")):        # (a build of another version: the Python path)
    _cjson = None      # pragma: no cover

FORMAT = "dpn-json/1"


def _comment(comments: tuple[str, ...]) -> Optional[str]:
    return " ".join(comments) if comments else None


def play_json(p) -> dict[str, Any]:
    """One card played (a :class:`~dehlanote.replay.facts.PlayFact`) as JSON."""
    return _play_json(p.seat, p.play)


def _play_json(seat: Optional[str], play: Play) -> dict[str, Any]:
    comments = play.comments
    return {
        "seat": seat,
        "card": play.card,
        "withdrawn": [w.card for w in play.withdrawn] if play.withdrawn else [],
        "glyph": play.glyph,
        "comment": " ".join(comments) if comments else None,
        "comments": list(comments),
        "line": play.line,
        "column": play.column,
    }


def trick_json(t: TrickFact) -> dict[str, Any]:
    cap = t.capture
    trick = t.trick
    return {
        "number": t.number,
        "leader": t.leader,
        # each card with its seat, read from the written trick (no per-card facts are made);
        # what _play_json gives, written out here: this runs for every card of an archive
        "plays": [{
            "seat": seat,
            "card": play.card,
            "withdrawn": [w.card for w in play.withdrawn] if play.withdrawn else [],
            "glyph": play.glyph,
            "comment": " ".join(play.comments) if play.comments else None,
            "comments": list(play.comments),
            "line": play.line,
            "column": play.column,
        } for seat, play in zip(t.order, trick.plays)],
        "winner": t.winner,
        "trump": t.trump,
        "centre": {"cards": t.centre_cards, "tens": list(t.centre_tens)},
        "capture": None if cap is None else {
            "by": cap.by, "side": cap.side, "cards": cap.cards, "tens": list(cap.tens), "reason": cap.reason,
        },
        "run": t.run,
        "comments": list(trick.comments),
        "line": trick.line,
    }


def _unplayed_trick_json(trick: Trick) -> dict[str, Any]:
    """A written trick the replay did not reach (after an error), or counted without replaying it."""
    return {
        "number": trick.number,
        "leader": trick.leader.value if trick.leader else None,
        "plays": [_play_json(None, p) for p in trick.plays],
        "winner": None, "trump": None, "centre": None, "capture": None, "run": None,
        "comments": list(trick.comments), "line": trick.line, "replayed": False,
    }


def _revokes_json(deal: Deal) -> list[dict[str, Any]]:
    """The revokes the table ruled on (DPN 1.2 ``revoke C at 2 stands``), as written."""
    return [{"by": r.seat, "trick": r.trick, "ruling": r.ruling, "line": r.line, "column": r.column,
             "comments": list(r.comments)} for r in deal.revokes]


def _claim_json(claim: Optional[Claim], fact: Optional[ClaimFact]) -> Optional[dict[str, Any]]:
    """``claim X`` as written, with what the replay made of it (the cards and tens it took)."""
    if claim is None:
        return None
    out: dict[str, Any] = {"by": claim.seat, "line": claim.line, "column": claim.column,
                           "sound": fact.sound if fact is not None else None,
                           "comments": list(claim.comments)}
    if fact is not None:
        out.update(side=fact.side, trick=fact.trick, cards=fact.cards, tens=list(fact.tens))
    return out


def deal_json(d: DealFact) -> dict[str, Any]:
    tricks = [trick_json(t) for t in d.tricks]
    tricks += [_unplayed_trick_json(t) for t in d.unreplayed]
    return {**_deal_head(d), "tricks": tricks, **_deal_tail(d)}


def _deal_head(d: DealFact) -> dict[str, Any]:
    """The keys of :func:`deal_json` before "tricks"."""
    tf = d.trump
    written = d.deal.trump
    return {
        "number": d.number,
        "dealer": d.dealer,
        "misdeals": d.misdeals,
        "hands": {seat: list(cards) for seat, cards in d.hands.items()},
        "trump": None if tf is None else {
            "suit": tf.suit, "by": tf.by, "trick": tf.trick, "method": tf.method, "drawn": tf.drawn,
            "closed": tf.closed, "set_at": tf.set_at, "play": tf.play, "set_play": tf.set_play,
            "comments": list(written.comments) if written is not None else [],
        },
    }


def _deal_tail(d: DealFact) -> dict[str, Any]:
    """The keys of :func:`deal_json` after "tricks"."""
    deal = d.deal
    written = deal.trump
    return {
        "tens": dict(d.tens),
        "tens_cards": {side: list(cards) for side, cards in d.tens_cards.items()},
        "points": dict(d.points),
        "winner": d.winner,
        "kot": None if d.kot is None else {"side": d.kot.side, "reason": d.kot.reason},
        "streak": None if d.streak is None else {"side": d.streak.side, "length": d.streak.length},
        "next_dealer": d.next_dealer,
        "complete": d.complete,
        "claim": _claim_json(deal.claim, d.claim),
        "revokes": _revokes_json(deal),
        "line": deal.line,
        "comments": list(deal.comments),
        "misdeal_comments": [list(m.comments) for m in deal.misdeals],
        "written_hands": None if deal.hands is None else {
            h.seat: {"cards": [c.card for c in h.cards], "split": h.split, "comments": list(h.comments)}
            for h in deal.hands
        },
        "written_trump": None if written is None else {
            "suit": written.suit.value if written.suit else None,
            "by": written.by.value if written.by else None,
            "at": written.at.value if written.at else None,
            "closed": written.closed,
            "drawn": written.drawn.card if written.drawn else None,
        },
        "written_tens": None if deal.tens is None else {s.value: c.value for s, c in deal.tens.counts},
        "tens_comments": list(deal.tens.comments) if deal.tens is not None else [],
        "notes": list(d.notes),
    }


def deal_text(d: DealFact) -> str:
    """``dumps(deal_json(d), indent=None)``, the same text made faster: the tricks (nine keys
    in ten of the text, 52 play objects a deal) are written by the compiled ``_cjson`` when
    it is built, the rest of the deal by orjson, the pieces joined. A value that path does
    not write exactly as the Python path would (it says so) and a build without the
    extension or orjson take the Python path."""
    if _cjson is not None and _orjson is not None:
        tricks = _cjson.tricks(d.tricks, d.unreplayed)
        if tricks is not None:
            try:
                head = _orjson.dumps(_deal_head(d))
                tail = _orjson.dumps(_deal_tail(d))
            except TypeError:      # (orjson.JSONEncodeError) the Python path knows what to do
                pass
            else:
                return b"".join((head[:-1], b',"tricks":', tricks, b",", tail[1:])).decode()
    return dumps(deal_json(d), indent=None)


def game_json(facts: GameFacts) -> dict[str, Any]:
    """One game as the notation's (docs/notation.md) JSON ``game`` object."""
    game = facts.game
    tags: dict[str, str] = {}
    tag_comments: dict[str, list[str]] = {}
    repeated: list[dict[str, Any]] = []
    seen: set[str] = set()
    for tag in game.tags:
        # a name given twice (judged ignoring case, as the reader's bad-tag judges it): the first
        # value is the tag's, the repeat kept beside it (its value was dropped without a trace)
        if tag.name.lower() in seen:
            repeated.append({"name": tag.name, "value": tag.value, "line": tag.line, "column": tag.column,
                             "comments": list(tag.comments)})
            continue
        seen.add(tag.name.lower())
        tags[tag.name] = tag.value
        if tag.comments:
            tag_comments[tag.name] = list(tag.comments)
    rules = facts.rules
    seats = rules.seat_letters if rules else seats_for(4)
    players = {}
    for seat in seats:
        name = game.tag(seat)
        if name is None:
            for tag in game.tags:
                if tag.name.upper() == seat:
                    name = tag.value
                    break
        if name is not None:
            players[seat] = name
    deals = [deal_json(d) for d in facts.deals]
    # deals the replay did not reach are kept as written, so that nothing is lost
    for deal in game.deals[len(facts.deals):]:
        deals.append(_written_deal_json(deal))
    result = facts.result
    return {
        "tags": tags,
        "rules": None if rules is None else {"profile": rules.name, "options": rules.options_dict(),
                                             "params": rules.params()},
        "players": players,
        "deals": deals,
        "result": None if result is None else {
            "winner": result.winner, "kots": dict(result.kots), "finished": result.finished,
            "points": None if result.points is None else dict(result.points),
        },
        "errors": [e.to_json() | ({"offset": e.offset} if e.offset is not None else {}) for e in facts.errors],
        "line": game.line,
        "comments": list(game.comments),
        "tag_comments": tag_comments,
        **({"repeated_tags": repeated} if repeated else {}),
        "notes": list(facts.notes),
        "valid": not facts.errors,
    }


def _written_deal_json(deal: Deal) -> dict[str, Any]:
    return {
        "number": deal.number.value if deal.number else None,
        "dealer": deal.dealer.value if deal.dealer else None,
        "misdeals": len(deal.misdeals), "hands": {}, "trump": None,
        "tricks": [_unplayed_trick_json(t) for t in deal.tricks],
        "tens": {}, "tens_cards": {}, "points": {}, "winner": None, "kot": None, "streak": None,
        "next_dealer": None, "complete": False, "claim": _claim_json(deal.claim, None),
        "revokes": _revokes_json(deal), "line": deal.line, "comments": list(deal.comments),
        "misdeal_comments": [list(m.comments) for m in deal.misdeals], "written_hands": None,
        "written_trump": None, "written_tens": None, "tens_comments": [], "notes": [],
    }


def document(games: Iterable[GameFacts]) -> dict[str, Any]:
    """The whole JSON document: ``{"format": "dpn-json/1", "games": [...]}``."""
    return {"format": FORMAT, "games": [game_json(g) for g in games]}


#: the separators of the compact form: one line, no spaces
COMPACT = (",", ":")


def dumps(doc: Any, *, indent: Optional[int] = 2) -> str:
    """JSON text: indented by ``indent`` (json.dumps's layout) or, with None, compact (one
    line, no spaces). Encoded by orjson when it is installed (the same text, four times as
    fast), else by the standard library; orjson refuses a few values (a lone surrogate in a
    string read from a broken file, an integer beyond 64 bits): those go to the standard
    library too."""
    if _orjson is not None and indent in (None, 2):
        try:
            return _orjson.dumps(doc, option=_orjson.OPT_INDENT_2 if indent else 0).decode()
        except TypeError:      # (orjson.JSONEncodeError is a TypeError)
            pass
    return json.dumps(doc, ensure_ascii=False, indent=indent, separators=COMPACT if indent is None else None)


def orjson_compact(doc: Any) -> Optional[str]:
    """orjson's compact text of ``doc`` (what ``dumps(doc, indent=None)`` gives then), or None
    without orjson or for a value it refuses."""
    if _orjson is None:
        return None
    try:
        return _orjson.dumps(doc).decode()
    except TypeError:
        return None


def schema() -> dict[str, Any]:
    """The JSON Schema of ``dpn-json/1`` shipped with the package."""
    text = resources.files("dehlanote.output").joinpath("dpn-json.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


# ---- back to the model -----------------------------------------------------------------

def _pos(obj: dict[str, Any]) -> tuple[int, int]:
    return int(obj.get("line") or 0), int(obj.get("column") or 0)


def game_from_json(obj: dict[str, Any]) -> Game:
    """Rebuild a game's model from its JSON (positions where the JSON has them).

    Facts the replay established (numbers, dealers, leaders, trump, tens of complete
    deals) are written in, as the canonical form does, so that for a valid game
    ``write_game(game_from_json(json))`` is the canonical text of the record.
    """
    tag_comments = obj.get("tag_comments") or {}
    tags = [Tag(str(k), str(v), 0, 0, tuple(tag_comments.get(k, ()))) for k, v in (obj.get("tags") or {}).items()]
    for again in obj.get("repeated_tags") or ():
        # after the last tag of its name, as it was written (a name given twice: bad-tag)
        name = str(again["name"])
        at = max((i for i, t in enumerate(tags) if t.name.lower() == name.lower()), default=len(tags) - 1)
        tags.insert(at + 1, Tag(name, str(again["value"]), *_pos(again), tuple(again.get("comments") or ())))
    valid = obj.get("valid", not obj.get("errors"))
    sides = sides_for(_seat_count(obj))
    deals = tuple(_deal_from_json(d, valid, sides) for d in obj.get("deals") or ())
    return Game(tuple(tags), deals, int(obj.get("line") or 0), 0, tuple(obj.get("comments") or ()))


def _seat_count(obj: dict[str, Any]) -> int:
    """The number of players of a game's JSON: its resolved rules' ``seats`` (a profile from a
    YAML file may have six players under any name), else, for JSON written before the rules
    carried their parameters, the sides its deals' tens name."""
    params = (obj.get("rules") or {}).get("params") or {}
    if params.get("seats") in (4, 6):
        return int(params["seats"])
    named = {side for d in obj.get("deals") or () if isinstance(d.get("tens"), dict) for side in d["tens"]}
    return 6 if named & set(sides_for(6)) else 4


def _deal_from_json(d: dict[str, Any], valid: bool, sides: tuple[str, str]) -> Deal:
    line = int(d.get("line") or 0)
    w = lambda v: Word(v, line, 0)  # noqa: E731
    hands = None
    if d.get("written_hands") is not None:
        hands = tuple(
            Hand(seat, tuple(CardRef(c, line, 0) for c in h["cards"]), line, 0, h.get("split"),
                 tuple(h.get("comments") or ()))
            for seat, h in d["written_hands"].items()
        )
    trump = None
    source = d.get("trump") if valid else None
    comments = tuple((d.get("trump") or {}).get("comments") or ())
    if source is not None and (source.get("suit") or source.get("drawn")):
        if source.get("drawn"):
            trump = Trump(line, 0, drawn=CardRef(source["drawn"], line, 0), comments=comments)
        else:
            trump = Trump(line, 0, suit=w(source["suit"]), by=w(source["by"]) if source.get("by") else None,
                          at=w(source["trick"]) if source.get("trick") is not None else None,
                          closed=bool(source.get("closed")), comments=comments)
    elif d.get("written_trump"):
        wt = d["written_trump"]
        if wt.get("drawn"):
            trump = Trump(line, 0, drawn=CardRef(wt["drawn"], line, 0), comments=comments)
        else:
            trump = Trump(line, 0, suit=w(wt["suit"]), by=w(wt["by"]) if wt.get("by") else None,
                          at=w(wt["at"]) if wt.get("at") is not None else None, closed=bool(wt.get("closed")),
                          comments=comments)
    tricks = []
    for t in d.get("tricks") or ():
        plays = tuple(
            Play(p["card"], int(p.get("line") or 0), int(p.get("column") or 0),
                 tuple(CardRef(c, 0, 0) for c in p.get("withdrawn") or ()), p.get("glyph"),
                 tuple(p.get("comments") or ([p["comment"]] if p.get("comment") else [])))
            for p in t.get("plays") or ()
        )
        leader = w(t["leader"]) if t.get("leader") else None
        tricks.append(Trick(int(t["number"]), int(t.get("line") or 0), 0, plays, leader,
                            tuple(t.get("comments") or ())))
    tens = None
    tens_comments = tuple(d.get("tens_comments") or ())
    if valid and d.get("complete") and d.get("tens"):
        tens = Tens(tuple((w(s), w(d["tens"][s])) for s in sides if s in d["tens"]), line, 0, tens_comments)
    elif d.get("written_tens"):
        tens = Tens(tuple((w(s), w(c)) for s, c in d["written_tens"].items()), line, 0, tens_comments)
    misdeal_comments = d.get("misdeal_comments") or [[] for _ in range(int(d.get("misdeals") or 0))]
    c = d.get("claim")
    claim = Claim(str(c["by"]), int(c.get("line") or line), int(c.get("column") or 0),
                  tuple(c.get("comments") or ())) if c else None
    revokes = tuple(make_revoke(str(r["by"]), int(r["trick"]), str(r["ruling"]), int(r.get("line") or line),
                                int(r.get("column") or 0), tuple(r.get("comments") or ()))
                    for r in d.get("revokes") or ())
    return Deal(
        line, 0,
        number=w(d["number"]) if d.get("number") is not None else None,
        dealer=w(d["dealer"]) if d.get("dealer") else None,
        misdeals=tuple(Misdeal(line, 0, tuple(c)) for c in misdeal_comments),
        hands=hands, trump=trump, tricks=tuple(tricks), tens=tens, comments=tuple(d.get("comments") or ()),
        claim=claim, revokes=revokes,
    )
