"""Jupyter's view of replayed facts and of a table position, without a notebook server: the
display methods are called as Jupyter calls them and their HTML / SVG parsed and read."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dehlanote import iter_path, parse_string, replay_games
from dehlanote.output.stepper import snapshots
from dehlanote.output.svg import snapshot_svg, table_svg

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.dpn"))
SVG = "{http://www.w3.org/2000/svg}"


class Tables(HTMLParser):
    """The rows of every table (cell texts), and whether the markup is well nested."""

    VOID = {"br", "hr", "img", "meta", "input", "col", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.stack: list[str] = []
        self.cell: list[str] | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (self.stack, tag)
        self.stack.pop()
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)
        if "style" not in self.stack:
            self.text.append(data)


def parsed(markup: str) -> Tables:
    p = Tables()
    p.feed(markup)
    p.close()
    assert p.stack == []
    return p


SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def shown(card: str) -> str:
    return card[:-1] + SYMBOL[card[-1]]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_a_games_html_has_one_row_a_deal_with_its_facts(path):
    for facts in replay_games(iter_path(path)):
        table = parsed(facts._repr_html_())
        head, rows = table.rows[0], table.rows[1:]
        assert head[:4] == ["deal", "dealer", "trump", "tricks"] and head[-1] == "result"
        assert len(rows) == len(facts.deals)
        sides = head[5][5:], head[6][5:]
        for row, deal in zip(rows, facts.deals):
            assert row[0] == str(deal.number) and row[1] == (deal.dealer or "?")
            assert row[3] == str(len(deal.tricks))
            if deal.complete:
                assert (int(row[5]), int(row[6])) == (deal.tens.get(sides[0], 0), deal.tens.get(sides[1], 0))
            captures = {side: sum(1 for t in deal.tricks if t.capture and t.capture.side == side) for side in sides}
            assert row[4] == " · ".join(f"{s} {n}" for s, n in captures.items())
            if deal.winner and deal.kot is None:
                assert row[7].startswith(f"{deal.winner} wins")


def test_a_deals_html_has_one_row_a_trick_and_the_running_tens():
    facts = next(replay_games(iter_path(ROOT / "samples" / "worked-example.dpn")))
    deal = facts.deals[0]
    rows = parsed(deal._repr_html_()).rows[1:]
    assert len(rows) == 13
    nine = rows[8]
    assert nine[:2] == ["9", "A"] and nine[2] == " ".join(shown(c) for c in ("JH", "5H", "6C", "4H"))
    assert nine[3] == "A" and nine[5].startswith("A → AC, 20 cards") and nine[5].endswith("10♦")
    assert [r[6:] for r in rows][-1] == [str(deal.tens["AC"]), str(deal.tens["BD"])]
    assert rows[6][4] == "12 (10♦)"                # the centre after trick 7 holds the ten of diamonds


def test_record_strings_are_escaped_in_the_html():
    text = ('[Event "<script>alert(1)</script>"] [A "<b>Asha</b>"]\n\n' +
            (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8").split("\n\n", 1)[1])
    facts = next(replay_games(parse_string(text)))
    markup = facts._repr_html_()
    assert "<script>" not in markup and "&lt;script&gt;alert(1)&lt;/script&gt;" in markup
    assert "&lt;b&gt;Asha&lt;/b&gt;" in markup
    assert "<script>alert(1)</script>" in "".join(parsed(markup).text)     # shown as text


def test_errors_are_listed_with_code_and_place():
    facts = next(replay_games(iter_path(ROOT / "docs" / "examples" / "bad.dpn")))
    text = "".join(parsed(facts._repr_html_()).text)
    for e in facts.errors:
        assert f"{e.code} line {e.line}, column {e.column}" in text


def test_reprs_are_one_short_line_with_the_facts():
    facts = next(replay_games(iter_path(ROOT / "samples" / "pagat-session.dpn")))
    game = repr(facts)
    assert "\n" not in game and len(game) < 200
    assert game == (f"GameFacts(event={facts.game.tag('Event')!r}, rules={facts.rules.name!r}, "
                    f"deals={len(facts.deals)}, winner={facts.result.winner!r}, errors=0)")
    deal = repr(facts.deals[0])
    assert "\n" not in deal and len(deal) < 200
    assert deal.startswith(f"DealFact(number=1, dealer={facts.deals[0].dealer!r}")
    assert str(facts.deals[0].tens) in deal


# ---- the table as SVG -------------------------------------------------------------------------------

def _cards(root: ET.Element, cls: str) -> list[str]:
    group = root.find(f".//{SVG}g[@class='{cls}']")
    assert group is not None
    return [g.get("data-card") for g in group.iter(f"{SVG}g") if g.get("data-card")]


def _seat_cards(root: ET.Element, seat: str) -> list[str]:
    group = root.find(f".//{SVG}g[@data-seat='{seat}']")
    assert group is not None
    return [g.get("data-card") for g in group.iter(f"{SVG}g") if g.get("data-card")]


def _texts(root: ET.Element) -> str:
    return " | ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


@pytest.mark.parametrize("path", SAMPLES[:6], ids=lambda p: p.name)
def test_every_position_of_a_deal_draws_what_the_replay_holds(path):
    facts = next(replay_games(iter_path(path)))
    rules = facts.rules
    seats = "ABCDEF"[: rules.seats]
    deal = facts.deals[0]
    for snap in snapshots(deal, rules)[::7]:
        root = ET.fromstring(snapshot_svg(snap, seats))
        for seat in seats:
            assert sorted(_seat_cards(root, seat)) == sorted(snap.hands.get(seat, ()))
        trick = root.find(f".//{SVG}g[@class='trick']")
        played = {g.get("data-played-by"): g.find(f"{SVG}g").get("data-card")
                  for g in trick.iter(f"{SVG}g") if g.get("data-played-by")}
        assert played == {p.seat: p.card for p in snap.shown}          # each card at its seat
        texts = _texts(root)
        assert f"centre: {snap.centre_cards} card" in texts
        for side, count in snap.piles.items():
            assert f"{side} captured {count} card" in texts
            pile = root.find(f".//{SVG}g[@data-side='{side}']")
            assert [g.get("data-card") for g in pile.iter(f"{SVG}g") if g.get("data-card")] == list(
                snap.pile_tens.get(side, ()))


def test_table_svg_from_plain_values():
    svg = table_svg("ABCD", {"A": ("AH", "10S"), "B": ("KD",), "C": None}, (("D", "2C"),), ("9H", "10H", "3S"),
                    {"AC": 8, "BD": 4}, {"AC": ("10D",), "BD": ()}, "A", "S", names={"A": "A & <co>"},
                    dealer="C")
    root = ET.fromstring(svg)
    assert sorted(_seat_cards(root, "A")) == ["10S", "AH"] and _seat_cards(root, "C") == []
    texts = _texts(root)
    assert "A A & <co>" in texts                      # escaped in the document, read back whole
    assert "hand not recorded" in texts and "trump spades" in texts and "A to play" in texts
    assert "centre: 3 cards, tens in it:" in texts
    info = root.find(f".//{SVG}g[@class='info']")
    assert [g.get("data-card") for g in info.iter(f"{SVG}g") if g.get("data-card")] == ["10H"]
    assert "dealer" in "".join(root.find(f".//{SVG}g[@data-seat='C']").itertext())


# ---- the per-card core's Table in Jupyter ---------------------------------------------------------------

def test_a_table_shows_itself_as_the_svg_of_its_position():
    facts = next(replay_games(iter_path(ROOT / "samples" / "worked-example.dpn")))
    deal = facts.deals[0]
    table = deal.table(trick=9, card=2)                    # A has led JH to trick 9, B to play
    root = ET.fromstring(table._repr_svg_())
    for seat in "ABCD":
        assert sorted(_seat_cards(root, seat)) == sorted(map(str, table.hand(seat)))
    trick = root.find(f".//{SVG}g[@class='trick']")
    played = {g.get("data-played-by"): g.find(f"{SVG}g").get("data-card")
              for g in trick.iter(f"{SVG}g") if g.get("data-played-by")}
    assert played == {seat: str(card) for seat, card in table.current} == {"A": "JH"}
    texts = _texts(root)
    assert f"centre: {len(table.centre)} cards" in texts and "B to play" in texts
    # the same position drawn from the replayed deal's snapshot: the same hands and trick
    snap = snapshots(deal, facts.rules)[8 * 4 + 1]
    other = ET.fromstring(snapshot_svg(snap, "ABCD"))
    for seat in "ABCD":
        assert sorted(_seat_cards(other, seat)) == sorted(_seat_cards(root, seat))
    table.play(table.legal_cards()[0])
    assert "C to play" in _texts(ET.fromstring(table._repr_svg_()))


def test_a_fresh_table_without_hands_says_so():
    from dehlanote import Table

    root = ET.fromstring(Table.new("standard", dealer="D", trump="H")._repr_svg_())
    assert _texts(root).count("hand not recorded") == 4 and "trump hearts" in _texts(root)


@pytest.mark.parametrize("path", [ROOT / "docs" / "examples" / "bad.dpn", ROOT / "samples" / "standard-six-player.dpn",
                                  ROOT / "samples" / "worked-example.dpn"], ids=lambda p: p.name)
def test_every_seat_and_card_of_the_picture_is_inside_it(path):
    facts = next(replay_games(iter_path(path)))
    seats = "ABCDEF"[: facts.rules.seats]
    for snap in snapshots(facts.deals[0], facts.rules)[::5]:
        root = ET.fromstring(snapshot_svg(snap, seats))
        width, height = float(root.get("width")), float(root.get("height"))
        for rect in root.iter(f"{SVG}rect"):
            x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
            assert 0 <= x and x + float(rect.get("width")) <= width, rect.attrib
            assert 0 <= y and y + float(rect.get("height")) <= height, rect.attrib


def test_a_six_player_deal_not_played_yet_heads_its_tens_by_the_six_player_sides():
    # the sides were counted from the first trick's players, or else taken as four seats: a
    # six-player game whose deal had no trick yet headed its columns "tens AC" and "tens BD"
    text = '[Rules "standard six-player"]\n[Result "*"]\n\ndeal 1 dealer F\n'
    facts = next(replay_games(parse_string(text)))
    for markup in (facts._repr_html_(), facts.deals[0]._repr_html_()):
        header = parsed(markup).rows[0]
        assert "tens ACE" in header and "tens BDF" in header, header
        assert "tens AC" not in header


def test_names_and_the_event_cannot_reorder_the_notebook_view():
    # the notebook's HTML escaped markup but kept bidirectional controls, which the pages show
    # as U+FFFD: a U+202E in a player's name reversed the rest of the game's heading line, and a
    # right-to-left name, not isolated, could carry the names after it along
    text = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    text = text.replace('"Asha"', '"\u202eAsha"').replace('"Bilal"', '"\u0622\u0634\u0627 2"')
    text = text.replace("Worked example", "Club <i>night</i> \u2067")
    facts = next(replay_games(parse_string(text)))
    markup = facts._repr_html_()
    assert not any(c in markup for c in "\u202e\u2067")
    assert "<bdi>\ufffdAsha</bdi>" in markup and "<bdi>\u0622\u0634\u0627 2</bdi>" in markup
    assert "<b><bdi>Club &lt;i&gt;night&lt;/i&gt; \ufffd</bdi></b>" in markup
    parsed(markup)                                                   # well nested


@pytest.mark.parametrize("seats", ["ABCD", "ABCDEF"])
def test_every_ten_of_a_pile_or_of_the_centre_is_drawn_in_its_place(seats):
    # a pile's tens were drawn 34 pixels apart from the box's middle on: with six players a side
    # may take all twelve, and the seventh on ran over into the other side's box or off the
    # picture (and a centre of ten tens or more into the top seat's box)
    from dehlanote.output.svg import WIDTH

    tens = tuple(f"10{s}" for s in "SHDC") * (3 if len(seats) == 6 else 1)
    sides = ("ACE", "BDF") if len(seats) == 6 else ("AC", "BD")
    for side in sides:
        svg = table_svg(seats, {s: () for s in seats}, (), tens, {side: 52 * 3}, {side: tens}, None, "H")
        root = ET.fromstring(svg)
        pile = root.find(f".//{SVG}g[@data-side='{side}']")
        box = pile.find(f"{SVG}rect")
        left, right = float(box.get("x")), float(box.get("x")) + float(box.get("width"))
        cards = [g.find(f"{SVG}rect") for g in pile.iter(f"{SVG}g") if g.get("data-card")]
        assert len(cards) == len(tens)
        assert all(left <= float(c.get("x")) and float(c.get("x")) + float(c.get("width")) <= right <= WIDTH
                   for c in cards), side
        xs = [float(c.get("x")) for c in cards]
        assert min(b - a for a, b in zip(xs, xs[1:])) >= 15          # each one's suit in sight
        centre = [g for g in root.find(f".//{SVG}g[@class='info']").iter(f"{SVG}g") if g.get("data-card")]
        assert len(centre) == len(tens)
        assert all(float(g.find(f"{SVG}rect").get("x")) + 30 <= 330 for g in centre)


def test_the_views_come_whatever_was_imported_first():
    # a notebook that imported only the reader and the replay got no view at all: _repr_html_ and
    # _repr_svg_ gave None until something had loaded the output layer (dehlanote.api, say)
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[2]
    script = ("from dehlanote.syntax import parse_string\nfrom dehlanote.replay import replay_game\n"
              "import sys\nassert 'dehlanote.output.notebook' not in sys.modules\n"
              "f = replay_game(parse_string(open(sys.argv[1], encoding='utf-8').read())[0])\n"
              "print(f._repr_html_()[:5], f.deals[0]._repr_html_()[:5], f.deals[0].table(trick=2)._repr_svg_()[:4])\n")
    done = subprocess.run([sys.executable, "-c", script, str(root / "samples" / "worked-example.dpn")],
                          capture_output=True, text=True, timeout=120, env={**__import__("os").environ,
                                                                            "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["<styl", "<styl", "<svg"], done.stdout     # (a view starts with its style)
