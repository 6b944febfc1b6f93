"""docs/api.md's notebook cells are run: each ``pycon`` block is a doctest, run from the
repository root, its shown outputs compared with the real ones."""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "docs" / "api.md"
_BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.M | re.S)


def _blocks() -> list[tuple[int, str]]:
    text = API.read_text(encoding="utf-8")
    return [(text[: m.start()].count("\n") + 1, m.group(1)) for m in _BLOCK.finditer(text)]


def test_the_api_doc_has_notebook_cells():
    assert len(_blocks()) >= 4


def test_the_cells_give_the_outputs_shown(monkeypatch):
    monkeypatch.chdir(ROOT)
    globs: dict[str, object] = {}                 # one notebook: later cells see earlier names
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for line, block in _blocks():
        test = parser.get_doctest(block, globs, f"docs/api.md:{line}", str(API), line)
        runner.run(test, clear_globs=False)
        globs = test.globs
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted > 10, result


@pytest.mark.skipif(os.name != "posix", reason="paths")
def test_a_wrong_output_in_the_doc_would_be_caught():
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner()
    test = parser.get_doctest(">>> 1 + 1\n3\n", {}, "x", "x", 0)
    runner.run(test, out=lambda s: None)
    assert runner.summarize(verbose=False).failed == 1
