"""Settings for the whole suite."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _no_terminal_size_from_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output is tested as it is piped, whatever the shell that runs the suite sets.

    A ``COLUMNS`` or ``LINES`` left in the environment by a CI runner or a terminal would
    make the report commands (which honour ``COLUMNS`` when piped) wrap lines that the
    tests read whole; the tests that are about the width set it themselves.
    """
    for name in ("COLUMNS", "LINES"):
        monkeypatch.delenv(name, raising=False)
        # GNU readline (imported by some tools in the test process) exports its own COLUMNS and
        # LINES with setenv, behind os.environ's back: subprocesses would inherit those
        os.unsetenv(name)


def best_by_brute_force(table) -> tuple[set[str], int]:
    """The cards that keep the most for the mover's side, and that most, by trying every line
    of play to the end (no pruning, no table: the plainest reference for the solvers, on
    endings of a few tricks). ``table`` is a :class:`dehlanote.Table`; it is left as given."""
    side = table.sides[table.seats.index(table.to_play) % 2]

    def value(t) -> int:
        if t.over:
            return t.score[side]
        mine = t.sides[t.seats.index(t.to_play) % 2] == side
        outcomes = []
        for c in t.legal_cards():
            t.play(c)
            outcomes.append(value(t))
            t.undo()
        return max(outcomes) if mine else min(outcomes)

    scores = {}
    for c in table.legal_cards():
        table.play(c)
        scores[str(c)] = value(table)
        table.undo()
    top = max(scores.values())
    return {c for c, v in scores.items() if v == top}, top


@pytest.fixture
def brute_best():
    """:func:`best_by_brute_force`, for the tests that check a solver's card against it."""
    return best_by_brute_force
