"""What the serve tests share."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The folder a server keeps its tables in (a fresh one a test)."""
    night = tmp_path / "night"
    night.mkdir()
    return night
