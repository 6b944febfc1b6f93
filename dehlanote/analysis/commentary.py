"""The analysis as annotations: ``?``/``??`` on the cards that lost value, and what would have
kept it, for ``annotate --analyse`` (text lines, or glyphs and comments in the record)."""

from __future__ import annotations

from typing import Optional

from ..replay import DealFact, GameFacts
from ..rules.profile import Rules
from ..syntax.model import Deal
from .deal import DealAnalysis
from .single import analyse, play_advice, play_mark

#: CPU seconds spent on one deal at most; the later tricks are solved first
DEAL_SECONDS = 60.0


def _dealer(fact: DealFact, rules: Rules) -> int:
    return rules.seat_letters.index(fact.dealer) if fact.dealer else 0


def analysis_text(fact: DealFact, rules: Rules, analysis: DealAnalysis | None = None) -> str:
    """The analysis of one deal as a few lines of plain text (under the deal's table)."""
    a = analysis or analyse(fact, rules, dd=True, time_limit=DEAL_SECONDS)
    g = a.game
    sides = g.sides
    if not a.tricks:
        return f"analysis: not analysed: {a.reason}"
    lines = []
    if a.value is not None:
        start = "the start" if a.tricks[0].number == 1 else f"trick {a.tricks[0].number}"
        lines.append(f"analysis: {sides[0]} {a.value}\u2013{g.total - a.value} {sides[1]} under best play"
                     f" from {start}" + (f" (not analysed: {a.reason})" if a.solved and a.reason else "")
                     + ("; each card judged single dummy, from what its player could see"
                        if a.single_dummy else ""))
    else:
        lines.append(f"analysis: {a.reason}; tricks {a.tricks[0].number}-{a.tricks[-1].number} analysed"
                     + ("; each card judged single dummy, from what its player could see" if a.single_dummy else ""))
    dealer = _dealer(fact, rules)
    marked = 0
    for t in a.tricks:
        for p in t.plays:
            mark = play_mark(a, p, rules, dealer)
            if mark:
                marked += 1
                lines.append(f"  trick {t.number}: {p.seat} {p.card}{mark} {play_advice(a, p)}")
    if not marked:
        lines.append("  every card played kept the value" if not a.single_dummy else
                     "  no card played is expected to have lost value (single dummy)")
    return "\n".join(lines)


#: how an analysis comment starts: ``{analysis ??: C should have played 10H: ...}``, so that a
#: reader tells the analysis's marks from the author's glyphs
COMMENT_PREFIX = "analysis"


def analysis_comment(mark: str, author: Optional[str], why: str) -> str:
    """The comment an analysed card gets: its mark, and the author's glyph when it has one (which
    stays on the card): ``analysis ?: ...``, ``analysis ?? (the author's !? kept): ...``."""
    kept = f" (the author's {author} kept)" if author else ""
    return f"{COMMENT_PREFIX} {mark}{kept}: {why}"


def deal_marks(fact: DealFact, rules: Rules, analysis: DealAnalysis) -> dict[tuple[int, int], tuple[str, str]]:
    """The analysis's marks: ``(trick number, index in the trick) -> (glyph, what would have kept it)``."""
    marks: dict[tuple[int, int], tuple[str, str]] = {}
    dealer = _dealer(fact, rules)
    for ta in analysis.tricks:
        for k, p in enumerate(ta.plays):
            mark = play_mark(analysis, p, rules, dealer)
            if mark:
                marks[(ta.number, k)] = (mark, play_advice(analysis, p))
    return marks


def analysed_deal(deal: Deal, fact: DealFact, rules: Rules,
                  analysis: Optional[DealAnalysis] = None) -> tuple[Deal, str]:
    """One deal of a record with its cards marked as :func:`analysed` marks them, and the
    note saying so (``deal N analysis: ...``)."""
    a = analysis or analyse(fact, rules, dd=True, time_limit=DEAL_SECONDS)
    note = f"deal {fact.number} " + analysis_text(fact, rules, a)
    if not a.tricks:
        return deal, note
    tricks = list(deal.tricks)
    for (number, k), (mark, why) in sorted(deal_marks(fact, rules, a).items()):
        j = number - 1
        if j >= len(tricks) or k >= len(tricks[j].plays):
            continue
        plays = list(tricks[j].plays)
        play = plays[k]
        plays[k] = play._replace(glyph=play.glyph or mark,
                                 comments=play.comments + (analysis_comment(mark, play.glyph, why),))
        tricks[j] = tricks[j]._replace(plays=tuple(plays))
    return deal._replace(tricks=tuple(tricks)), note


def analysed(facts: GameFacts) -> GameFacts:
    """The facts with their game's cards marked: ``?`` on a card that gave something away,
    ``??`` when it changed who wins the deal, with a comment saying what would have kept it
    (``{analysis ??: ...}``). A glyph already written is kept and the comment names it
    (``{analysis ?? (the author's !? kept): ...}``). Each deal's analysis is
    also added to the facts' notes as text (what the text tables print under the game).
    (``annotate`` does it deal by deal with :func:`analysed_deal`.)"""
    rules = facts.rules
    if rules is None:
        return facts
    deals = list(facts.game.deals)
    notes = list(facts.notes)
    for i, fact in enumerate(facts.deals):
        if i >= len(deals):
            break
        deals[i], note = analysed_deal(deals[i], fact, rules)
        notes.append(note)
    return facts._replace(game=facts.game._replace(deals=tuple(deals)), notes=tuple(notes))
