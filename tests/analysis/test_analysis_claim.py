"""Claims checked double dummy: ``unsound-claim`` unless the claimer's side wins every trick left."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from dehlanote.analysis import Position, Solver
from dehlanote.analysis.claim import claim_is_sound


from test_solve_reference import GAMES, random_ending

ROOT = Path(__file__).resolve().parents[2]

RECORD = """[Rules "standard"]

deal 1 dealer D
hands A: AS KS 4S AH JH 9H 6H AD QD JD 9D QC 5C
      B: QS JS 6S 5S QH 10H 5H 5D 4D 3D 10C 4C 3C
      C: 8S 7S 3S 2S KH 3H 2H JC 9C 8C 7C 6C 2C
      D: 10S 9S 8H 7H 4H KD 10D 8D 7D 6D 2D AC KC
trump D by A
 1 A: AH 10H 3H 7H
 2 A: AS QS 2S 10S
 3 A: 4S 5S 7S 9S
 4 D: KC 5C 4C 9C
 5 D: 7D AD 5D 2H
 6 A: 6H QH KH 8H
 7 C: 8S 10D KS JS
 8 D: 8D 9D 3D 2C
 9 A: JH 5H 6C 4H
10 A: JD 4D 3S 2D
11 A: QD 10C 7C KD
claim {X}
"""


def validate(tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    path = tmp_path / "claim.dpn"
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "dehlanote", "validate", str(path)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_a_sound_claim_passes(tmp_path: Path) -> None:
    # D leads trick 12 holding AC and the last trump 6D: D wins both tricks whatever is played
    res = validate(tmp_path, RECORD.replace("{X}", "D"))
    assert res.returncode == 0, res.stdout


def test_an_unsound_claim_is_reported_at_the_claim(tmp_path: Path) -> None:
    res = validate(tmp_path, RECORD.replace("{X}", "A"))
    assert res.returncode == 1
    assert ":20:1: unsound-claim: A claims every trick left for AC" in res.stdout


def test_the_claim_fact_says_whether_it_is_sound() -> None:
    from dehlanote import replay_games
    from dehlanote.syntax import parse_string
    for seat, sound in (("D", True), ("B", True), ("A", False), ("C", False)):
        facts = next(replay_games(parse_string(RECORD.replace("{X}", seat))))
        assert facts.deals[0].claim is not None
        assert facts.deals[0].claim.sound is sound, seat


def _wins_all(pos: Position, side: int) -> bool:
    """Brute force: can ``side`` win every trick left, whatever the other side plays? (Every
    line is tried, but a line that decides stops the others: one card that wins on the side's
    turn, one that loses on the other's.)"""
    if pos.over:
        return True
    mine = pos.turn % 2 == side
    for card in pos.legal():
        nxt = pos.play(card)
        if not nxt.trick and nxt.done > pos.done and nxt.leader % 2 != side:
            won = False
        else:
            won = _wins_all(nxt, side)
        if won == mine:
            return won
    return not mine


def _at_trick_start(seed: int, name: str, mode: str) -> Position:
    rng = random.Random(seed)
    game = GAMES[name]
    pos = random_ending(rng, game, rng.randint(1, 2 if game.seats == 6 else 4), mode)
    while pos.trick:
        pos = pos.play(rng.choice(pos.legal()))
    return pos


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(GAMES)), st.sampled_from(["known", "first-void", "closed"]),
       st.integers(0, 5))
def test_claims_agree_with_brute_force_and_give_everything(seed: int, name: str, mode: str, claimer: int) -> None:
    pos = _at_trick_start(seed, name, mode)
    seat = claimer % pos.game.seats
    side = seat % 2
    sound = claim_is_sound(pos, seat)
    assert sound == _wins_all(pos, side)
    if sound and not pos.over:
        g = pos.game
        # a sound claim gives the claimer's side everything left: the best value is the most there is
        held_tens = sum(1 for h in pos.hands for c in h if c.startswith("10"))
        everything = pos.score()[side] + g.worth(held_tens + pos.centre_tens, pos.left + pos.centre_tricks)
        v = Solver(g).value(pos)
        assert (v if side == 0 else g.total - v) == everything

