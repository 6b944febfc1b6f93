"""Nothing lost: in a file of many games where some are broken, every good game is still
read, replayed and converted, and every broken game is reported with its first line;
``fmt --write`` never loses data.

The file mixes good records (the samples and generated matches of several profiles) with
every kind of broken one: a syntax error in a trick, a card that is not a card, unknown
rules, a replay error, bytes that are not UTF-8, a NUL, a comment left open, a record cut
short in a trick, and one cut short in its tags. Games in = games out, in the library and
in ``dehlanote json`` and ``dehlanote validate``.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote import iter_games, iter_path, parse_string, replay_game
from dehlanote.commands import common as cli_module
from dehlanote.commands import fmt as fmt_module
from dehlanote.cli import app
from dehlanote.oracle.playout import Style, generate_match

ROOT = Path(__file__).resolve().parents[2]
WORKED = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
LOOSE = (ROOT / "samples" / "loose-style.dpn").read_text(encoding="utf-8")
runner = CliRunner()


def good_games() -> list[str]:
    out = [WORKED, LOOSE]
    for seed, (profile, options, loose) in enumerate([
        ("standard", None, False), ("pagat", {"kots": 3}, True), ("hukum", None, False),
        ("standard", {"six-player": True}, True), ("pagat", {"kots": 0}, False),
    ]):
        text, _ = generate_match(random.Random(seed), profile, options,
                                 style=Style(loose=loose, hands=not loose, withdrawn=0.3 * loose), max_deals=2)
        out.append(text)
    return out


def _break(kind: str, text: str) -> str:
    """A broken version of a record (each kind stops or fails the game in its own way)."""
    lines = text.rstrip("\n").split("\n")
    tricks = [i for i, line in enumerate(lines) if line.strip()[:2].strip().isdigit()]
    if kind == "syntax-in-a-trick":
        lines[tricks[3]] += " ZZ"
    elif kind == "bad-card":
        lines[tricks[2]] = lines[tricks[2]].rstrip() + " 11H"
    elif kind == "unknown-rules":
        lines = [line for line in lines if not line.startswith("[Rules")]
        lines.insert(1, '[Rules "no-such-rules kots=3"]')
    elif kind == "replay-error":
        i = tricks[5]
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == "nul":
        lines[tricks[1]] = lines[tricks[1]].replace(" ", " \x00", 1)
    elif kind == "comment-left-open":
        lines[-1] += " {the last word"
    elif kind == "cut-in-a-trick":      # (and no Result "*", which allows a deal to stop)
        lines = [line for line in lines[: tricks[6] + 1] if not line.startswith("[Result")]
        lines[-1] = lines[-1][: len(lines[-1]) // 2]
    elif kind == "cut-in-the-tags":
        lines = ['[Event "Cut short"]', '[Site "the pho']
    elif kind == "encoding":
        pass    # bytes, below
    else:
        raise ValueError(kind)
    return "\n".join(lines) + "\n"


BREAKS = ["syntax-in-a-trick", "bad-card", "unknown-rules", "replay-error", "nul", "comment-left-open",
          "cut-in-a-trick", "cut-in-the-tags", "encoding"]


def mixed_file(tmp_path: Path, order: list) -> tuple[Path, list[dict]]:
    """Write ``order`` ((good text) or (kind, text)) as one file; what each game is and where it starts."""
    data = b""
    entries = []
    line = 1
    for item in order:
        kind, text = item if isinstance(item, tuple) else (None, item)
        body = _break(kind, text) if kind else text.rstrip("\n") + "\n"
        raw = body.encode("utf-8")
        if kind == "encoding":
            raw = raw.replace(b'"]', b'\xe9"]', 1)        # in the first tag value
        body_lines = body.split("\n")
        first = line + next(i for i, text in enumerate(body_lines) if text.strip())
        head = line + next(i for i, text in enumerate(body_lines) if re.match(r"\s*(\[|deal)", text))
        entries.append({"kind": kind, "first": first, "head": head, "last": line + body.count("\n") - 1,
                        "deals": len(parse_string(text)[0].deals)})
        data += raw + b"\n"
        line += body.count("\n") + 1
    path = tmp_path / "mixed.dpn"
    path.write_bytes(data)
    return path, entries


def assert_nothing_lost(path: Path, entries: list[dict]) -> None:
    games = list(iter_path(path))
    assert len(games) == len(entries), [g.line for g in games]
    for game, entry in zip(games, entries):
        facts = replay_game(game)
        # a game starts at its first tag or deal; a broken one at its first character
        assert game.line in (entry["first"], entry["head"]), (entry, game.line)
        if entry["kind"] is None:
            assert facts.errors == (), (entry, facts.errors[:2])
            assert len(facts.deals) == entry["deals"]
        else:
            assert facts.errors, entry
            first = facts.errors[0]
            assert entry["first"] <= first.line <= entry["last"] + 1, (entry, first)

    # dehlanote json keeps every game, the good ones whole, the broken ones with their errors
    status = 1 if any(e["kind"] for e in entries) else 0
    result = runner.invoke(app, ["json", str(path)])
    assert result.exit_code == status
    doc = json.loads(result.stdout)
    assert len(doc["games"]) == len(entries)
    for g, entry in zip(doc["games"], entries):
        assert g["line"] in (entry["first"], entry["head"])
        if entry["kind"] is None:
            assert g["valid"] and g["errors"] == [] and len(g["deals"]) == entry["deals"]
            assert all(d["complete"] for d in g["deals"])
        else:
            assert not g["valid"] and g["errors"]
            assert entry["first"] <= g["errors"][0]["line"] <= entry["last"] + 1

    # dehlanote validate counts every game and places every error inside a broken one
    result = runner.invoke(app, ["validate", "--format", "json", str(path)])
    assert result.exit_code == status
    (report,) = json.loads(result.stdout)["files"]
    assert report["games"] == len(entries)
    broken = [e for e in entries if e["kind"]]
    for error in report["errors"]:
        assert any(e["first"] <= error["line"] <= e["last"] + 1 for e in broken), error
    for entry in broken:
        assert any(entry["first"] <= e["line"] <= entry["last"] + 1 for e in report["errors"]), entry


def test_a_file_of_good_and_broken_games_loses_none(tmp_path):
    goods = good_games()
    order: list = []
    for i, kind in enumerate(BREAKS):
        order.append(goods[i % len(goods)])
        order.append((kind, goods[(i + 1) % len(goods)]))
    order.append(goods[0])
    path, entries = mixed_file(tmp_path, order)
    assert sum(1 for e in entries if e["kind"]) == len(BREAKS)
    assert_nothing_lost(path, entries)


@pytest.mark.parametrize("kind", BREAKS)
@pytest.mark.parametrize("where", [0, 1, 3])
def test_one_broken_game_first_in_the_middle_or_last(tmp_path, kind, where):
    goods = good_games()[:3]
    order: list = list(goods)
    order.insert(where, (kind, WORKED))
    path, entries = mixed_file(tmp_path, order)
    assert_nothing_lost(path, entries)


def test_streams_and_strings_agree_on_a_mixed_file(tmp_path, monkeypatch):
    from dehlanote.syntax import reader

    path, entries = mixed_file(tmp_path, [good_games()[1], ("comment-left-open", WORKED), WORKED,
                                          ("cut-in-the-tags", WORKED), LOOSE])
    whole = [g._replace(source=None) for g in iter_games(io.BytesIO(path.read_bytes()))]
    monkeypatch.setattr(reader, "BLOCK", 5)
    small = [g._replace(source=None) for g in iter_games(io.BytesIO(path.read_bytes()))]
    assert whole == small and len(whole) == len(entries)


def test_a_comment_left_open_swallows_no_game():
    # the } that would close it is in a later game's last comment: that game used to vanish
    broken = WORKED.replace("{the non-dealing side AC wins the deal; D deals again}", "{ouch", 1)
    assert broken != WORKED
    text = "\n".join([WORKED, broken, WORKED, LOOSE])
    games = parse_string(text)
    assert len(games) == 4
    assert [bool(replay_game(g).errors) for g in games] == [False, True, False, False]
    (error,) = games[1].errors
    assert error.code == "syntax" and "never closed" in error.message


# ---- fmt --write never loses data --------------------------------------------------------------------

def scrambled(tmp_path: Path, name: str = "game.dpn") -> Path:
    """A valid record that is not canonical (cards in lower case, extra spaces)."""
    path = tmp_path / name
    path.write_text(WORKED.replace(" 1 A: AH 10H 3H 7H", "1   A:  ah 10h\t3h 7h").replace("[Site", "[site"),
                    encoding="utf-8")
    assert not replay_game(parse_string(path.read_text(encoding="utf-8"))[0]).errors
    return path


def test_fmt_write_goes_through_a_temporary_file_and_a_rename(tmp_path, monkeypatch):
    path = scrambled(tmp_path)
    os.chmod(path, 0o640)
    renames = []
    real_replace = os.replace

    def spy(src, dst, *, src_dir_fd=None, dst_dir_fd=None):
        # the writer renames relative to the folder's descriptor: the folder is where that points
        def where(name, fd):
            return Path(os.readlink(f"/proc/self/fd/{fd}"), name) if fd is not None else Path(name)
        renames.append((where(src, src_dir_fd), where(dst, dst_dir_fd), where(src, src_dir_fd).read_text("utf-8")))
        return real_replace(src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)

    monkeypatch.setattr(cli_module.os, "replace", spy)
    result = runner.invoke(app, ["fmt", "--write", str(path)])
    assert result.exit_code == 0, result.output
    ((src, dst, written),) = renames
    assert dst == path and src.parent == path.parent and src != path
    assert written == path.read_text(encoding="utf-8")
    assert not src.exists()
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.dpn"]
    # what was written is the canonical form, which reads back valid and is stable
    assert runner.invoke(app, ["fmt", "--check", str(path)]).exit_code == 0
    assert not replay_game(parse_string(written)[0]).errors


@pytest.mark.parametrize("kind", ["syntax-in-a-trick", "bad-card", "replay-error", "encoding", "comment-left-open",
                                  "cut-in-the-tags", "nul", "unknown-rules"])
def test_fmt_write_leaves_a_file_with_errors_untouched(tmp_path, kind):
    path, _ = mixed_file(tmp_path, [WORKED.replace("3H 7H", "3h  7h"), (kind, WORKED)])
    before = path.read_bytes()
    mtime = path.stat().st_mtime_ns
    result = runner.invoke(app, ["fmt", "--write", str(path)])
    assert result.exit_code == 1
    assert "left untouched" in result.stderr
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mixed.dpn"]


def test_fmt_write_rewrites_the_good_files_and_keeps_the_broken_ones(tmp_path):
    good = scrambled(tmp_path, "good.dpn")
    bad, _ = mixed_file(tmp_path, [(("syntax-in-a-trick"), WORKED)])
    before = bad.read_bytes()
    result = runner.invoke(app, ["fmt", "--write", str(good), str(bad)])
    assert result.exit_code == 1
    assert bad.read_bytes() == before
    assert runner.invoke(app, ["fmt", "--check", str(good)]).exit_code == 0


@pytest.mark.parametrize("failure", ["rename", "write", "copymode", "interrupt"])
def test_a_failed_write_leaves_the_original_intact(tmp_path, monkeypatch, failure):
    path = scrambled(tmp_path)
    before = path.read_bytes()

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    if failure == "rename":
        monkeypatch.setattr(cli_module.os, "replace", fail)
    elif failure == "copymode":
        from dehlanote import files
        monkeypatch.setattr(files.os, "fchmod", fail)
    else:
        real = fmt_module._canonical_pieces

        def pieces(*args, **kwargs):
            for i, piece in enumerate(real(*args, **kwargs)):
                yield piece
            if failure == "write":
                raise OSError(28, "No space left on device")
            raise KeyboardInterrupt

        monkeypatch.setattr(fmt_module, "_canonical_pieces", pieces)
    result = runner.invoke(app, ["fmt", "--write", str(path)])
    if failure == "interrupt":
        assert isinstance(result.exception, KeyboardInterrupt) or result.exit_code == 130
    else:
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        assert "No space left on device".lower() in result.stderr.lower()
        assert "cannot rewrite" in result.stderr and "the file is unchanged" in result.stderr
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.dpn"]      # no temporary file left


def test_a_read_only_directory(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = scrambled(folder)
    before = path.read_bytes()
    os.chmod(folder, 0o555)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as a user who may write anywhere (root)")
        result = runner.invoke(app, ["fmt", "--write", str(path)])
        assert result.exit_code == 2
        assert "permission denied" in result.stderr
        assert path.read_bytes() == before
    finally:
        os.chmod(folder, 0o755)


# ---- a comment never crosses a game start (issue 16 items 2, 4, 11; DPN 1.1) ---------------------------

def _games(text: str) -> list:
    """Each game as (Event, deals, [(code, line, column)]), with the stream path checked to agree."""
    from dehlanote.syntax import reader

    games = parse_string(text)
    streamed = list(iter_games(io.BytesIO(text.encode("utf-8"))))
    assert [g._replace(source=None) for g in games] == [g._replace(source=None) for g in streamed]
    old = reader.BLOCK
    try:
        reader.BLOCK = 7
        small = list(iter_games(io.BytesIO(text.encode("utf-8"))))
    finally:
        reader.BLOCK = old
    assert small == streamed
    return [(g.tag("Event"), len(g.deals), [(e.code, e.line, e.column) for e in g.errors]) for g in games]


def test_16_2_an_unclosed_comment_in_the_tags_ends_at_the_next_games_tags():
    text = '[Event "one"] {unclosed\n\n' + WORKED
    assert _games(text) == [("one", 0, [("syntax", 1, 15)]), ("Worked example", 1, [])]


def test_16_2_an_unclosed_comment_does_not_take_the_next_games_first_tag():
    broken = WORKED.replace("{the non-dealing side AC wins the deal; D deals again}", "{oops", 1)
    second = WORKED.replace('[Rules "standard"]', '[Rules "pagat kots=3"] {house}')
    games = parse_string(broken + "\n" + second)
    assert len(games) == 2 and games[0].errors[0].code == "syntax"
    assert "never closed" in games[0].errors[0].message
    assert games[1].tag("Rules") == "pagat kots=3" and not games[1].errors
    assert games[1].tags[[t.name for t in games[1].tags].index("Rules")].comments == ("house",)


def test_16_2_a_cut_in_the_next_games_opening_comment_keeps_the_deals_before_it():
    text = WORKED + "\n{Round 2, played at the club aft"
    games = _games(text)
    assert games[0] == ("Worked example", 1, [])
    assert [g[2][0][0] for g in games[1:]] == ["syntax"]


def test_16_2_a_closing_brace_further_down_does_not_merge_the_games():
    # the } far below closes the first game's comment no more: a blank line then a tag ended it
    text = '[Event "one"]\ndeal 1 dealer D {the first deal\n\n' + WORKED + "\n" + WORKED
    games = _games(text)
    assert [g[:2] for g in games] == [("one", 0), ("Worked example", 1), ("Worked example", 1)]
    assert games[0][2] == [("syntax", 2, 17)]


def test_16_4_the_word_deal_in_a_comment_does_not_stop_recovery():
    for word in ("deal", "game", "Deal"):
        text = f'[Event "one"] oops {{the {word} was lost}}\n\n' + WORKED
        games = _games(text)
        assert [g[:2] for g in games] == [("one", 0), ("Worked example", 1)], word
        assert games[0][2] == [("syntax", 1, 15)]


def test_16_11_a_stray_tag_after_the_deals_belongs_to_the_game_it_follows():
    text = WORKED + '[Event "stray"]\n\n' + WORKED.replace('"Worked example"', '"two"')
    games = parse_string(text)
    assert [g.tag("Event") for g in games] == ["Worked example", "two"]
    assert not games[1].errors
    (error,) = games[0].errors
    stray_line = WORKED.count("\n") + 1
    assert (error.code, error.line, error.column) == ("bad-tag", stray_line, 1)
    assert [t.value for t in games[0].tags if t.name == "Event"] == ["Worked example", "stray"]
    assert _games(text)[1] == ("two", 1, [])


def test_16_11_a_header_may_still_hold_a_blank_line():
    text = WORKED + '[Event "two"]\n[Site "s"]\n\n[Round "3"]\n' + WORKED.split("\n\n", 1)[1]
    games = parse_string(text)
    assert [(g.tag("Event"), g.tag("Round"), g.errors) for g in games] == [
        ("Worked example", None, ()), ("two", "3", ())]


def test_dpn_1_1_deal_1_after_a_deal_starts_a_game_without_tags():
    body = WORKED.split("\n\n", 1)[1]
    assert body.startswith("deal 1")
    # tagless games one after another, then after a tagged game, with or without a blank line
    for text in (body + body + body, body + "\n" + body, WORKED + "\n" + body, WORKED + body):
        games = _games(text)
        assert [g[1:] for g in games] == [(1, [])] * len(games) and len(games) == text.count("deal 1 ")
        assert all(not replay_game(g).errors for g in parse_string(text))
    assert [g.tags for g in parse_string(body + body)] == [(), ()]
    # only a deal numbered 1 starts a game; the word in a comment or "deal 12" does not
    two = body.replace("tens AC 3 BD 1 {", "tens AC 3 BD 1 {deal 1 ")
    assert len(parse_string(two + body)) == 2
    assert parse_string(body.replace("deal 1 dealer D", "deal 12 dealer D") + body)[0].deals[0].number.value == 12


# ---- the canonical form reads back as the same record (issue 16 item 3) --------------------------------

MATCH = (ROOT / "samples" / "match.dpn").read_text(encoding="utf-8")


def test_16_3_fmt_write_keeps_a_comment_holding_a_tag_line_in_its_deal(tmp_path):
    text = MATCH.replace("tens AC 2 BD 2", 'tens AC {score sheet said\n[Round "1"]} 2 BD 2', 1)
    assert text != MATCH
    path = tmp_path / "match.dpn"
    path.write_text(text, encoding="utf-8")
    before = [replay_game(g) for g in parse_string(text)]
    assert len(before) == 1 and not before[0].errors
    result = runner.invoke(app, ["fmt", "--write", str(path)])
    assert result.exit_code == 0, result.output
    after = parse_string(path.read_text(encoding="utf-8"))
    assert len(after) == 1 and not replay_game(after[0]).errors
    assert len(after[0].deals) == len(before[0].game.deals)
    assert after[0].deals[0].tens.comments == ('score sheet said\n[Round "1"]',)
    assert runner.invoke(app, ["validate", str(path)]).exit_code == 0


def test_16_3_fmt_is_idempotent_on_comments_holding_cr(tmp_path):
    for comment in ("a\r\r\nb", "a\rb\r", "\r", "x\r\n\r\ny"):
        text = WORKED.replace("{diamonds}", "{" + comment + "}")
        path = tmp_path / "cr.dpn"
        path.write_bytes(text.encode("utf-8"))
        assert runner.invoke(app, ["fmt", "--write", str(path)]).exit_code == 0
        once = path.read_bytes()
        assert runner.invoke(app, ["fmt", "--check", str(path)]).exit_code == 0, repr(comment)
        assert runner.invoke(app, ["fmt", "--write", str(path)]).exit_code == 0
        assert path.read_bytes() == once


def test_16_3_fmt_refuses_to_write_what_does_not_read_back(tmp_path, monkeypatch):
    from dehlanote.syntax import writer

    path = scrambled(tmp_path)
    before = path.read_bytes()

    def lossy(game, facts):      # a writer bug: the last deal's tens comment lost
        text = cli_module.canonical_text(game, facts)
        return text.replace(" {the non-dealing side AC wins the deal; D deals again}", "")

    monkeypatch.setattr(fmt_module, "canonical_text", lossy)
    result = runner.invoke(app, ["fmt", "--write", str(path)])
    assert result.exit_code == 2, result.output
    assert "would not read back" in result.stderr and "unchanged" in result.stderr
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.dpn"]
    game = parse_string(WORKED)[0]
    assert writer.reads_back(game, WORKED) and not writer.reads_back(game, WORKED.replace("{diamonds}", ""))


# ---- json and validate on several files (issue 12 item 9) --------------------------------------------

def test_12_9_json_takes_several_files_and_globs(tmp_path):
    from dehlanote.output.jsonout import document, dumps

    (tmp_path / "a.dpn").write_text(WORKED, encoding="utf-8")
    (tmp_path / "b.dpn").write_text(LOOSE + "\n" + WORKED, encoding="utf-8")
    games = parse_string(WORKED) + parse_string(LOOSE + "\n" + WORKED)
    want = dumps(document([replay_game(g) for g in games])) + "\n"
    result = runner.invoke(app, ["json", str(tmp_path / "a.dpn"), str(tmp_path / "b.dpn")])
    assert result.exit_code == 0, result.output
    assert result.stdout == want
    result = runner.invoke(app, ["json", "--compact", str(tmp_path / "*.dpn")])
    assert result.exit_code == 0 and len(json.loads(result.stdout)["games"]) == 3
    # an unreadable file: nothing written, exit 2
    result = runner.invoke(app, ["json", str(tmp_path / "a.dpn"), str(tmp_path / "missing.dpn")])
    assert result.exit_code == 2 and result.stdout == "" and "missing.dpn" in result.stderr


def test_16_10_json_is_written_deal_by_deal_with_the_same_text(tmp_path):
    from dehlanote.output import jsonstream
    from dehlanote.output.jsonout import document, dumps

    texts = [WORKED, LOOSE, WORKED.replace(" 3 A: 4S", " 3 A: 4X"), '[Rules "nope"]\ndeal 1\n 1 A: AH\n', ""]
    for text in texts:
        games = parse_string(text)
        for indent in (2, None):
            pieces: list[str] = []
            valid = jsonstream.write_document(pieces.append, games, indent=indent)
            facts = [replay_game(g) for g in games]
            assert "".join(pieces) == dumps(document(facts), indent=indent) + "\n"
            assert valid == all(not f.errors for f in facts)
    # each deal is written as soon as it is replayed: the first deal's JSON is out before
    # the second deal is replayed
    import dehlanote.output.jsonstream as js
    seen: list[str] = []
    real = js.deal_json

    def spy(deal):
        seen.append(f"replayed {deal.number}")
        return real(deal)
    game = parse_string(MATCH)[0]
    assert len(game.deals) > 2
    js_deal_json, js.deal_json = js.deal_json, spy
    try:
        js.write_game(lambda text: seen.append("write") if '"number"' in text else None, game)
    finally:
        js.deal_json = js_deal_json
    first_write = seen.index("write")
    assert seen[:first_write] == ["replayed 1"]


def test_12_9_the_progress_bar_counts_bytes(tmp_path):
    from dehlanote.commands import common

    calls: list[tuple] = []

    class Spy(common.Meter):
        def file(self, path, size):
            calls.append(("file", size))

        def read(self, count):
            calls.append(("read", count))

        def done(self):
            calls.append(("done",))

    from contextlib import contextmanager

    @contextmanager
    def bar(total, enabled):
        calls.append(("total", total))
        yield Spy(), None

    import dehlanote.commands.validating as validate_module
    small = tmp_path / "small.dpn"
    small.write_text(WORKED, encoding="utf-8")
    large = tmp_path / "large.dpn"
    large.write_text((WORKED + "\n") * 40, encoding="utf-8")
    old = validate_module.progress_bar
    validate_module.progress_bar = bar
    try:
        result = runner.invoke(app, ["validate", "--progress", str(small), str(large)])
    finally:
        validate_module.progress_bar = old
    assert result.exit_code == 0, result.output
    sizes = [small.stat().st_size, large.stat().st_size]
    assert calls[0] == ("total", sum(sizes))
    assert [c for c in calls if c[0] == "file"] == [("file", s) for s in sizes]
    assert sum(c[1] for c in calls if c[0] == "read") == sum(sizes)


def test_16_2_a_games_opening_comment_after_a_blank_line_is_that_games():
    # (the campaign's finding: "1" between a game and one that opens with a comment took the
    # comment from the game after it)
    text = WORKED + "\n{Round 2, at the club}\n" + WORKED.replace("Worked example", "two")
    first, second = parse_string(text)
    assert second.comments == ("Round 2, at the club",) and first.deals[-1].tens.comments == (
        "the non-dealing side AC wins the deal; D deals again",)
    assert _games(text)[1] == ("two", 1, [])
    # without the blank line it is still the comment of what it follows
    glued = WORKED.rstrip("\n") + "\n{about the last deal}\n" + WORKED
    assert parse_string(glued)[0].deals[-1].tens.comments[-1] == "about the last deal"
    # and the canonical form keeps it where it is
    from dehlanote.syntax import write_games
    assert parse_string(write_games(parse_string(text)))[1].comments == ("Round 2, at the club",)


@pytest.mark.parametrize("between", ["\n{a}{\n\n", "\n{\n\n", "\n{a}\n{\n\n\n", " {left open\n\n"])
def test_16_2_a_comment_left_open_before_the_next_games_opening_comments(between: str) -> None:
    # found by the fuzzing campaign: a { left open before a game that opens with comments on
    # lines of their own was closed by the last of them, so that game's opening comment became
    # the stray text; the game start is the blank line before those comments
    first = (ROOT / "samples" / "standard-closed-trump.dpn").read_text(encoding="utf-8")
    assert LOOSE.lstrip().startswith("{")
    alone = list(iter_games(LOOSE))
    games = list(iter_games(first + between + LOOSE))
    after = games[-1]
    assert after.tags == tuple(t._replace(line=t.line + first.count("\n") + between.count("\n"))
                               for t in alone[0].tags)
    assert after.comments == alone[0].comments and len(after.deals) == len(alone[0].deals) and not after.errors
    # the comment left open is reported where it opens
    (error,) = [e for g in games[:-1] for e in g.errors]
    assert error.code == "syntax" and "never closed" in error.message
    assert error.line == first.count("\n") + 1 + between[:between.rindex("{")].count("\n")
    # on a line of its own after a blank line, it is the next game's opening text: the game before keeps its deals
    if between.startswith("\n{"):
        assert len(games) == 3 and len(games[0].deals) == len(list(iter_games(first))[0].deals)


FAULTY = {
    # a stray [ in a trick line opens what the reader takes for another game's tags: the cards
    # after it were in no game, and fmt dropped them (and "[10S" with them)
    "stray bracket": '[Event "Friday"]\n[Result "*"]\n\ndeal 1 dealer D\ntrump D by A\n 1 A: AH 10H 3H 7H\n'
                     ' 2 A: AS QS 2S [10S\n 3 A: 4S 5S 7S 9S {a note}\n 4 D: KC 5C 4C 9C\n\n'
                     '[Event "Game two"]\n\ndeal 1 dealer A\ntrump S\n',
    # a tag whose value is not quoted: the reader leaves it out of the game's tags
    "tag without quotes": "[Event \"x\"]\n[Site Ravi's house]\n[Result \"*\"]\n\ndeal 1 dealer D\n"
                          "trump D by A\n 1 A: AH 10H 3H 7H\n",
    "tag name with a digit first": '[1Event "x"]\n[Result "*"]\n\ndeal 1 dealer D\ntrump D\n 1 A: AH 10H 3H 7H\n',
}


def _fmt_twice(tmp_path, text: str):
    """``fmt`` of ``text`` (its result), and ``fmt`` of what that wrote (its standard output)."""
    path = tmp_path / "first.dpn"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["fmt", str(path)])
    again = tmp_path / "again.dpn"
    again.write_text(result.stdout, encoding="utf-8")
    return result, runner.invoke(app, ["fmt", str(again)]).stdout


@pytest.mark.parametrize("name", sorted(FAULTY))
def test_fmt_and_the_editors_formatting_keep_every_word_of_a_game_with_faults(tmp_path, name):
    from dehlanote.langserver import formatted
    text = FAULTY[name]
    result, again = _fmt_twice(tmp_path, text)
    assert result.exit_code == 1 and "written as they are" in result.stderr
    assert result.stdout.split() == text.split()
    assert formatted(text).split() == text.split()
    assert again == result.stdout      # idempotent


#: games that start in the middle of a line, after a game with faults
MID_LINE = {
    "a stray [ after a hand's seat": "deal 1 dealer D\nhands A: AS\n      D:[ 4S 6H\n1 B: 10C\n",
    "a tag after the last trick": "deal 1 dealer D\n 1 A: AH 10H 3H ZZ      [Event \"x\"]\ndeal 1 dealer D\n 1 A: ZZ\n",
}


@pytest.mark.parametrize("name", sorted(MID_LINE))
def test_fmt_writes_a_game_that_starts_mid_line_without_the_padding_to_its_column(tmp_path, name):
    # the kept text of a game that starts in the middle of a line is padded with spaces to its
    # column (for its errors' lines), and the game before it ends with the spaces before it:
    # fmt wrote both out, so the game came out indented by the width of what stood before it,
    # after a line of spaces, and each fmt added a blank line and a line of spaces more
    from dehlanote.langserver import formatted
    text = MID_LINE[name]
    result, again = _fmt_twice(tmp_path, text)
    once = result.stdout
    assert "".join(once.split()) == "".join(text.split())                      # every character kept
    assert not [line for line in once.split("\n") if line and not line.strip()]  # no line of spaces
    assert "\n[" in once and "  [" not in once
    assert again == once              # idempotent
    assert formatted(text) == once and formatted(once) == once


def test_fmt_keeps_a_game_that_starts_glued_to_a_broken_trick_line_a_game(tmp_path):
    # "deal 1 AS QS 2S 10S" after a trick line broken off ("2 A:") starts a game (the reader cuts
    # there), and is read as a deal with no number and trick 1; laid out again it was written
    # "deal" then " 1 AS ...", which starts no game: fmt made the two games one
    from dehlanote.langserver import formatted
    from dehlanote.syntax.reader import split_games
    text = ('[Event "x"]\n\ndeal 1 dealer D\ntrump D by A\n 1 A: AH 10H 3H 7H\n 2 A:deal 1 AS QS 2S 10S\n'
            ' 3 A: 4S 5S 7S 9S\n')
    assert len(list(split_games(text))) == 2
    path = tmp_path / "glued.dpn"
    path.write_text(text, encoding="utf-8")
    out = runner.invoke(app, ["fmt", str(path)]).stdout
    assert len(list(split_games(out))) == 2 and "deal 1 AS QS 2S 10S" in out
    assert len(list(split_games(formatted(text)))) == 2
