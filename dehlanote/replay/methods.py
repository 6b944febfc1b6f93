"""How a profile sets trump, captures cards and scores a deal: small strategy objects.

The rules name a trump method (``announce``, ``partner``, ``first-void``,
``first-void-five``, ``closed``), a capture mode (``centre``, ``immediate``) and a score
(``tens``, ``points``, ``tricks``). Everything that plays or shows a deal asks these
objects what the method means (who names trump, whether the first void sets it, whether it
is secret) instead of comparing the names: :func:`trump_method`, :func:`capture_mode` and
:func:`score_mode` choose them from the resolved rules.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple, Optional

from ..rules.profile import Rules

__all__ = ["TrumpMethod", "CaptureMode", "ScoreMode", "trump_method", "capture_mode", "score_mode",
           "method_of_fact"]


class TrumpMethod(NamedTuple):
    """How trump is set in a deal.

    ``name`` is the method as the engine plays it: the profile's ``trump`` word, or
    ``closed-void`` for closed trump chosen in secret by the first player unable to follow
    suit (hukum's closed trump).
    """

    name: str
    #: the seat that names trump before play, counted from the dealer (1: the dealer's right,
    #: 2: the dealer's partner); None when play sets it
    announcer: Optional[int]
    #: trump is in force, openly, from the first card (announced or the partner's)
    open: bool
    #: the first player unable to follow suit sets trump with the card played, at once
    by_void: bool
    #: play starts on five cards and the first void (or a drawn card) sets trump
    five_phase: bool
    #: trump is chosen in secret and revealed when the setter first cannot follow suit
    secret: bool
    #: the secret choice is made by the first player unable to follow (hukum's closed trump)
    secret_by_void: bool

    @property
    def announcer_role(self) -> str:
        """Who names trump, in words (the methods where a seat names it before play)."""
        return "the dealer's partner" if self.announcer == 2 else "the dealer's right"

    @property
    def set_in_play(self) -> bool:
        """Whether trump is still to be set (or revealed) once play has begun."""
        return not self.open


_METHODS = {
    "announce": TrumpMethod("announce", 1, True, False, False, False, False),
    "partner": TrumpMethod("partner", 2, True, False, False, False, False),
    "first-void": TrumpMethod("first-void", None, False, True, False, False, False),
    "first-void-five": TrumpMethod("first-void-five", None, False, True, True, False, False),
    "closed": TrumpMethod("closed", 1, False, False, False, True, False),
    "closed-void": TrumpMethod("closed-void", None, False, False, False, True, True),
}


@lru_cache(maxsize=None)
def _method(trump: str, closed_setter: str) -> TrumpMethod:
    if trump == "closed" and closed_setter == "first-void":
        return _METHODS["closed-void"]
    return _METHODS[trump]


def trump_method(rules: Rules) -> TrumpMethod:
    """The trump method the rules play."""
    return _method(rules.trump, rules.closed_setter)


def method_of_fact(name: str) -> TrumpMethod:
    """The method a :class:`~dehlanote.replay.facts.TrumpFact` names (its ``method`` field)."""
    return _METHODS.get(name, _METHODS["announce"])


class CaptureMode(NamedTuple):
    """Where a finished trick goes: the common centre (two wins in a row by one player
    sweep it, the last trick takes what is left) or straight to its winner."""

    name: str
    immediate: bool


_CAPTURES = {"centre": CaptureMode("centre", False), "immediate": CaptureMode("immediate", True)}


def capture_mode(rules: Rules) -> CaptureMode:
    return _CAPTURES["immediate" if rules.capture == "immediate" else "centre"]


class ScoreMode(NamedTuple):
    """What a deal is won with: ``tens`` (3 of 4), ``points`` (double sar: a ten 2, any
    other card 1) or ``tricks`` (court piece)."""

    name: str

    def totals(self, pile_tens: tuple[int, int], pile_cards: tuple[int, int],
               pile_tricks: tuple[int, int]) -> tuple[int, int]:
        """The two sides' scores in this mode."""
        if self.name == "points":
            return (pile_cards[0] + pile_tens[0], pile_cards[1] + pile_tens[1])
        if self.name == "tricks":
            return pile_tricks
        return pile_tens

    @property
    def shows_extra(self) -> bool:
        """Whether a deal's facts list the side totals (points, tricks) beside the tens."""
        return self.name != "tens"

    @property
    def sweep_kot(self) -> str:
        """The kot a clean sweep makes: all the tens, or all the tricks under court piece."""
        return "all-tricks" if self.name == "tricks" else "all-tens"


_SCORES = {name: ScoreMode(name) for name in ("tens", "points", "tricks")}


def score_mode(rules: Rules) -> ScoreMode:
    return _SCORES.get(rules.score, _SCORES["tens"])
