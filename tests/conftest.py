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
