"""Every public entry point refuses a wrong type with a TypeError and a sentence, a wrong
value with a ValueError (or, where a record or a rule profile is at fault, a DpnError with
its code), and nothing else: no AttributeError, KeyError or IndexError from deep inside.
Bytes where a text is read are read as UTF-8."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest

import dehlanote
from dehlanote import DpnError, Table

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "samples" / "worked-example.dpn"
WRONG = [None, 5, 2.5, True, b"/no/such/path", b'[Rules "standard"]\n', ["AH"], {"A": 1}, "not a record",
         "", "Z", object()]


def _drain(result):
    if hasattr(result, "__next__"):
        return list(itertools.islice(result, 3))
    return result


def _table():
    return Table.new("standard", dealer="D", trump="H")


CALLS = {
    "read_game": lambda w: dehlanote.read_game(w),
    "read_game reg": lambda w: dehlanote.read_game(io.StringIO(""), w),
    "read_games": lambda w: _drain(dehlanote.read_games(w)),
    "read_games reg": lambda w: _drain(dehlanote.read_games(io.StringIO(""), w)),
    "replay_game": lambda w: dehlanote.replay_game(w),
    "replay_games": lambda w: _drain(dehlanote.replay_games(w)),
    "iter_replay": lambda w: _drain(iter(dehlanote.iter_replay(w))),
    "iter_games": lambda w: _drain(dehlanote.iter_games(w)),
    "iter_path": lambda w: _drain(dehlanote.iter_path(w)),
    "parse_path": lambda w: dehlanote.parse_path(w),
    "parse_string": lambda w: dehlanote.parse_string(w),
    "write_game": lambda w: dehlanote.write_game(w),
    "write_games": lambda w: dehlanote.write_games(w),
    "explicit": lambda w: dehlanote.explicit(w),
    "rules_from_tag": lambda w: dehlanote.rules_from_tag(w),
    "Registry.resolve": lambda w: dehlanote.registry().resolve(w),
    "Table.new rules": lambda w: Table.new(w, dealer="D", trump="H"),
    "Table.new dealer": lambda w: Table.new("standard", dealer=w, trump="H"),
    "Table.new hands": lambda w: Table.new("standard", dealer="D", trump="H", hands=w),
    "Table.new hand": lambda w: Table.new("standard", dealer="D", trump="H", hands={"A": w}),
    "Table.new trump": lambda w: Table.new("standard", dealer="D", trump=w),
    "Table.new number": lambda w: Table.new("standard", dealer="D", trump="H", number=w),
    "Table.new drawn": lambda w: Table.new("pagat trump=first-void-five", dealer="D", drawn=w),
    "Table.from_deal": lambda w: Table.from_deal(w),
    "table.play": lambda w: _table().play(w),
    "table.check": lambda w: _table().check(w),
    "table.hand": lambda w: _table().hand(w),
}
#: where a str is the right type, a path that does not exist is an OSError, an unknown
#: profile a DpnError (unknown-rules), as each documents
ALLOWED = {"read_games": OSError, "iter_path": OSError, "parse_path": OSError, "rules_from_tag": DpnError,
           "Registry.resolve": DpnError}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_entry_point_refuses_wrong_input_with_a_sentence(name):
    for wrong in WRONG:
        try:
            CALLS[name](wrong)
        except (TypeError, ValueError) as exc:
            assert str(exc).strip(), (name, wrong, type(exc))
            if isinstance(exc, TypeError):
                assert "takes" in str(exc) or "not a" in str(exc), (name, wrong, str(exc))
        except ALLOWED.get(name, ()) as exc:
            assert isinstance(wrong, str), (name, wrong, exc)
        except Exception as exc:  # noqa: BLE001 (the point: nothing else escapes)
            pytest.fail(f"{name}({wrong!r}) raised {type(exc).__name__}: {exc}")


def test_a_wrong_type_is_refused_at_the_call_saying_what_it_takes():
    with pytest.raises(TypeError, match="read_games takes a file's path .* not a bytes: .*os.fsdecode"):
        dehlanote.read_games(b"/path")
    with pytest.raises(TypeError, match="read_games takes .* not None"):
        dehlanote.read_games(None)
    with pytest.raises(TypeError, match="replay_game takes a parsed game .* not a str: .*parse_string"):
        dehlanote.replay_game("[Rules \"standard\"]")
    with pytest.raises(TypeError, match="write_game takes a parsed game"):
        dehlanote.write_game("deal 1")
    with pytest.raises(TypeError, match="explicit takes a replayed game"):
        dehlanote.explicit(None)
    with pytest.raises(TypeError, match="rules_from_tag takes .* not an int"):
        dehlanote.rules_from_tag(5)
    with pytest.raises(TypeError, match="Table.new takes rules .* not None"):
        Table.new(None, dealer="D")
    with pytest.raises(TypeError, match="Table.new takes hands as a mapping .* not a list"):
        Table.new("standard", dealer="D", trump="H", hands=["AH"])
    with pytest.raises(ValueError, match="no seat 'Z' .* one of ABCD"):
        _table().hand("Z")


def test_bytes_are_read_as_utf8_text():
    text = WORKED.read_text(encoding="utf-8")
    data = text.encode("utf-8")
    assert dehlanote.parse_string(data) == dehlanote.parse_string(text)
    assert list(dehlanote.iter_games(data)) == list(dehlanote.iter_games(text))
    assert list(dehlanote.iter_games(bytearray(data))) == list(dehlanote.iter_games(text))
    assert dehlanote.replay_game(dehlanote.parse_string(data)[0]).ok
    # bytes that are not UTF-8 are an encoding error of the game, at the byte, not an exception
    bad = dehlanote.parse_string(b'[Event "caf\xe9"]\n' + data)
    assert any(e.code == "encoding" for g in bad for e in g.errors)


class _BytesReader:
    """A binary stream that is no io class and has no mode (as a library's file-like reader)."""

    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)

    def read(self, size: int = -1) -> bytes:
        return self.data.read(size)


def test_a_binary_stream_is_known_by_what_it_reads_not_by_its_class(tmp_path):
    # an mmap, or any reader that gives bytes without being an io class or having a "b" mode,
    # was read as text: TypeError "argument should be integer or bytes-like object, not 'str'"
    # from inside the reader, from read_game, read_games and iter_games alike
    import mmap

    data = WORKED.read_bytes() + b'\n[Event "caf\xe9"]\n\ndeal 1 dealer D\n'
    expected = [(g.game.tags, [(e.code, e.line, e.column) for e in g.errors])
                for g in dehlanote.read_games(io.BytesIO(data))]
    assert [code for _, errors in expected for code, _, _ in errors][:1] == ["encoding"]
    path = tmp_path / "two.dpn"
    path.write_bytes(data)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        for stream in (mapped, _BytesReader(data)):
            got = [(g.game.tags, [(e.code, e.line, e.column) for e in g.errors])
                   for g in dehlanote.read_games(stream)]
            assert got == expected
        mapped.seek(0)
        assert dehlanote.read_game(mapped).ok
        assert list(dehlanote.iter_games(_BytesReader(data))) == list(dehlanote.iter_games(data))



def test_read_game_refuses_a_stream_it_cannot_keep_its_place_in_with_a_sentence():
    # read_game keeps each stream's reader in a weak mapping: a stream with __slots__ (or not
    # hashable) raised "cannot create weak reference to 'Reader' object" from inside
    class Slotted:
        __slots__ = ("data",)

        def __init__(self) -> None:
            self.data = io.StringIO(WORKED.read_text(encoding="utf-8"))

        def read(self, size: int = -1) -> str:
            return self.data.read(size)

    with pytest.raises(TypeError, match=r"^read_game keeps its place .* a Slotted .* read_games\(f\)"):
        dehlanote.read_game(Slotted())
    assert [g.ok for g in dehlanote.read_games(Slotted())] == [True]


@pytest.mark.parametrize("symbol, suit", [("♠", "S"), ("♥", "H"), ("♦", "D"), ("♣", "C"), ("♥\ufe0f", "H"),
                                          ("♦\ufe0f", "D"), ("diamonds", "D"), ("club", "C"), ("h", "H")])
def test_trump_is_taken_as_a_suit_symbol_too(symbol, suit):
    table = Table.new("standard", dealer="D", trump=symbol)
    assert table.trump == suit
    assert f"trump {suit} by A" in table.to_dpn()


@pytest.mark.parametrize("word", ["Hx", "", "x", "♥♥", "heartz"])
def test_a_word_that_is_not_a_suit_is_refused(word):
    with pytest.raises(ValueError, match="is not a suit"):
        Table.new("standard", dealer="D", trump=word)
