"""The diagnosis table is its own test: every example record of every row gives that row's
error, at the row's line and column, read through the public API; and the row the
diagnosis picks for it is that row (a row shadowed by one above it fails here).
"""

from __future__ import annotations

import pytest

from dehlanote.syntax import parse_string, terms
from dehlanote.syntax.diagnose import TABLE, diagnose

EXAMPLES = [(row.name, text, code, line, column) for row in TABLE for text, code, line, column in row.examples]


def _row_of(text: str) -> str:
    """The row of the table that explains the first syntax error of ``text`` (the first game of
    the text is all that is read, as the reader cuts it)."""
    from dehlanote.syntax.reader import split_games
    from lark.exceptions import UnexpectedInput

    chunk = next(iter(split_games(text)))
    lark = terms.make_lark(whole=False, transformer=None, lexer_callbacks={})
    with pytest.raises(UnexpectedInput) as caught:
        lark.parse(chunk.text)
    row, _ = diagnose(caught.value, chunk)
    return row.name


@pytest.mark.parametrize(("name", "text", "code", "line", "column"), EXAMPLES,
                         ids=[f"{e[0]}-{i}" for i, e in enumerate(EXAMPLES)])
def test_each_example_gives_its_rows_error(name: str, text: str, code: str, line: int, column: int) -> None:
    first = parse_string(text)[0].errors[0]
    assert (first.code, first.line, first.column) == (code, line, column), first
    assert _row_of(text) == name


def test_every_row_has_an_example_and_a_way_to_go_on() -> None:
    assert len({row.name for row in TABLE}) == len(TABLE)
    for row in TABLE:
        assert row.examples, row.name
        assert row.recover in ("stop", "skip", "colon", "capital", "comma", "suit"), row.name
    # the last row holds for anything: no error goes undiagnosed
    assert TABLE[-1].name == "anything else"
