"""The quick check of whole games (``dehlanote.replay.quick``) against the full reading and replay.

``validate`` counts a game that the quick check finds certainly valid without reading it
in full. So whenever it answers (N deals), the full path must find the game valid: one
game, N deals, no error, nothing ruled, starting where it says; and ``validate``'s report
must be that of the full path, byte for byte. Checked on every sample and invalid sample,
on the fuzz harness's seeds with random mutations, on records with one mistake put in
(each kind of mistake the quick check must see), on random matches of several profiles in
every writing style, and ``validate``'s own output on files of all of them. On legal
matches of the rules it follows it must answer (else it would only be slow).
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dehlanote.analysis.judge import claim_judge
from dehlanote.batch import check
from dehlanote.batch.pool import check_chunks
from dehlanote.deck import DECK
from dehlanote.oracle.playout import Style, generate_match
from dehlanote.replay import replay_game
from dehlanote.replay import quick as quick_module
from dehlanote.replay.quick import _plan, quick_chunk
from dehlanote.rules.profile import registry
from dehlanote.syntax.parser import parse_chunk
from dehlanote.syntax.reader import split_games

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import dpnfuzz as F  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REG = registry()

PROFILES, STYLES = F.PROFILES, F.STYLES      # every profile and writing style, for random matches

_SUIT_EMOJI = {"S": "♠️", "H": "♥️", "D": "♦️", "C": "♣️"}
_CARD = re.compile(r"(?<![-\w])(10|[2-9AKQJ])([SHDC])(?=[\s!?]|$)")


def emoji_commas(text: str) -> str:
    """A record in the canonical layout rewritten as DPN 1.1 lets a phone write it: emoji
    suits, commas between the cards of a trick, dotted trick numbers (the benchmark's emoji
    style)."""
    out = []
    for line in text.split("\n"):
        m = re.match(r"^( ?\d+) ([A-F]: )?(.*)$", line)
        if m and not line.startswith(("deal", "tens", "hands", "trump")):
            words = [_CARD.sub(lambda c: c.group(1) + _SUIT_EMOJI[c.group(2)], w) for w in m.group(3).split(" ")]
            # (a comma after each card played; a withdrawn card is followed by its replacement)
            body = "".join(w + (" " if w.startswith("-") or k == len(words) - 1 else ", ")
                           for k, w in enumerate(words)).rstrip()
            line = f"{m.group(1)}. {m.group(2) or ''}{body}"
        elif line.startswith("trump "):
            line = re.sub(r"^trump ([SHDC])", lambda s: "trump " + _SUIT_EMOJI[s.group(1)], line)
        out.append(line)
    return "\n".join(out)


def full(chunk):
    """The full path on a chunk: each game with its facts."""
    return [(game, replay_game(game, REG, dealt_hands=False, judge=claim_judge))
            for game in parse_chunk(chunk, keep_source=True)]


def agree(text: str) -> list:
    """Check the quick answer on every game of ``text`` against the full path; the answers."""
    answers = []
    for chunk in split_games(text):
        quick = quick_chunk(chunk, REG)
        answers.append(quick)
        if quick is None:
            continue
        games = full(chunk)
        assert len(games) == 1, chunk.text[:300]
        game, facts = games[0]
        assert facts.errors == () and facts.ruled == (), (facts.errors, chunk.text[:2000])
        assert quick == (len(game.deals), game.line, game.column), chunk.text[:300]
    return answers


def supported(profile: str, options) -> bool:
    label = " ".join([profile, *(k if v is True else f"{k}={v}" for k, v in (options or {}).items())])
    return _plan(REG.resolve(label)).ok


def match(seed: int, profile: str, options, style: Style, deals: int = 4) -> str:
    return generate_match(random.Random(seed), profile, options, style=style, max_deals=deals)[0]


# ---- the samples and the fuzz harness ----------------------------------------------------------

@pytest.mark.parametrize("path", sorted((ROOT / "samples").glob("*.dpn")) + sorted((ROOT / "tests" / "invalid").glob(
    "*.dpn")), ids=lambda p: p.name)
def test_every_sample(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    agree(text)


def test_the_quick_check_reads_the_plain_samples() -> None:
    """It is not always None: the samples in a layout it reads are answered."""
    for name in ("match.dpn", "match-all-tens.dpn", "standard-coat.dpn", "standard-court-piece.dpn",
                 "standard-partner-trump.dpn", "pagat-session.dpn", "worked-example.dpn"):
        text = (ROOT / "samples" / name).read_text(encoding="utf-8")
        assert all(a is not None for a in agree(text)), name


@given(st.integers(0, 10**9), st.sampled_from([name for name, _ in F.seeds()]))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fuzz_seeds_mutated(seed: int, name: str) -> None:
    rng = random.Random(seed)
    text = F.apply(F.seed_text(name), F.random_mutations(rng))
    agree(text)


def test_fuzz_seeds_as_they_are() -> None:
    for _name, text in F.seeds():
        agree(text)


# ---- one mistake of each kind ----------------------------------------------------------------

def _mistakes(text: str, rng: random.Random) -> list[tuple[str, str]]:
    """``text`` (one valid game) with one mistake, each kind the quick check must see."""
    lines = text.split("\n")
    tricks = [i for i, line in enumerate(lines) if re.match(r"^ ?\d+[ .]", line)]
    out = []

    def edit(kind: str, i: int, new: str) -> None:
        out.append((kind, "\n".join(lines[:i] + [new] + lines[i + 1:])))

    def cards_at(i: int) -> list[tuple[int, int]]:
        return [m.span() for m in _CARD.finditer(lines[i])]

    i = rng.choice(tricks)
    spans = cards_at(i)
    if spans:
        a, b = rng.choice(spans)
        edit("card changed", i, lines[i][:a] + rng.choice(DECK) + lines[i][b:])
        a, b = spans[0]
        c, d = spans[-1]
        edit("cards reordered", i, lines[i][:a] + lines[i][c:d] + lines[i][b:c] + lines[i][a:b] + lines[i][d:])
        edit("card withdrawn first", i, lines[i][:a] + "-" + rng.choice(DECK) + " " + lines[i][a:])
        if len(spans) > 1:
            a, b = spans[1]
            edit("card withdrawn", i, lines[i][:a] + "-" + rng.choice(DECK) + " " + lines[i][a:])
            edit("card left out", i, lines[i][:a] + lines[i][b:])
    j = rng.choice(tricks)
    if j != i and cards_at(i) and cards_at(j):
        (a, b), (c, d) = rng.choice(cards_at(i)), rng.choice(cards_at(j))
        first, second = lines[i][a:b], lines[j][c:d]
        swapped = list(lines)
        swapped[i] = lines[i][:a] + second + lines[i][b:]
        swapped[j] = lines[j][:c] + first + lines[j][d:]
        out.append(("cards swapped", "\n".join(swapped)))
    out.append(("trick left out", "\n".join(lines[:i] + lines[i + 1:])))
    out.append(("trick twice", "\n".join(lines[:i + 1] + lines[i:])))
    edit("trick number", i, re.sub(r"\d+", lambda m: str(int(m.group()) + rng.choice((1, 2, 13))), lines[i], 1))
    edit("leader", i, re.sub(r"([A-F]):", lambda m: rng.choice([s for s in "ABCD" if s != m.group(1)]) + ":",
                             lines[i], 1))
    for k, line in enumerate(lines):
        if line.startswith("tens "):
            edit("tens", k, re.sub(r"(\d+)$", lambda m: str(int(m.group()) + 1), line))
            edit("tens sides", k, line.replace("BD", "AC"))
        elif line.startswith("deal "):
            edit("dealer", k, re.sub(r"dealer ([A-F])", lambda m: "dealer " + ("B" if m.group(1) != "B" else "C"),
                                     line))
            edit("deal number", k, re.sub(r"deal (\d+)", lambda m: f"deal {int(m.group(1)) + 1}", line))
            edit("deal keyword", k, line.replace("deal", "DeAl"))
        elif line.startswith("trump "):
            edit("trump by", k, re.sub(r"by ([A-F])", lambda m: "by " + ("B" if m.group(1) != "B" else "C"), line))
            edit("trump suit", k, re.sub(r"^trump \S+", "trump " + rng.choice("SHDC"), line))
            edit("trump at", k, line + " at 3")
            edit("trump closed", k, line + " closed")
            edit("trump drawn", k, "trump drawn " + rng.choice(DECK))
            out.append(("no trump line", "\n".join(lines[:k] + lines[k + 1:])))
        elif line.startswith("hands "):
            edit("glyph in a hand", k, re.sub(r"(\s\S+)$", r"\1!", line))
            edit("bar in a hand", k, re.sub(r"^(hands [A-F]: (?:\S+ ){5})", r"\1| ", line))
            edit("a hand card changed", k, line[:-2] + rng.choice(DECK))
            out.append(("a hand left out", "\n".join(lines[:k] + lines[k + 1:])))
        elif line.startswith("[Result"):
            edit("result", k, '[Result "' + rng.choice(("AC", "BD", "*", "=", "XY")) + '"]')
            out.append(("tag twice", "\n".join(lines[:k + 1] + [line] + lines[k + 1:])))
        elif line.startswith("[Rules"):
            edit("rules", k, '[Rules "' + rng.choice(("pagat", "hukum", "nonsense", "standard kots=2")) + '"]')
        elif line.startswith("[Event"):
            edit("date", k, line + "\n" + rng.choice(('[Date "2026.13"]', '[Date "2026.01.02"]')))
    out.append(("misdeal", text.replace("\ntrump", "\nmisdeal\ntrump", 1)))
    out.append(("a deal more", text.rstrip("\n") + "\n\n" + text[text.index("deal "):]))
    return out


@pytest.mark.parametrize("profile,options", PROFILES[:7])
def test_one_mistake_of_each_kind(profile: str, options) -> None:
    rng = random.Random(7)
    kinds: dict[str, int] = {}
    for seed in range(6):
        for style in (Style(), Style(hands=True), Style(leaders=False, withdrawn=0.5)):
            text = match(seed, profile, options, style, deals=3)
            for kind, wrong in _mistakes(text, rng) + [("emoji", emoji_commas(text))]:
                answers = agree(wrong)
                kinds[kind] = kinds.get(kind, 0) + sum(a is None for a in answers)
    # every kind of mistake was put in and (where it was one) sent to the full path
    assert kinds["card changed"] and kinds["trick left out"] and kinds["tens"] and kinds["dealer"]


# ---- random matches ---------------------------------------------------------------------------

@given(st.integers(0, 10**9), st.sampled_from(PROFILES), st.sampled_from(STYLES))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_matches(seed: int, rules, style: Style) -> None:
    profile, options = rules
    text = match(seed, profile, options, style, deals=5)
    for written in (text,) if style.loose else (text, emoji_commas(text)):     # (one trick a line to rewrite)
        answers = agree(written)
        if supported(profile, options) and not style.claims:
            # a legal match of rules the quick check follows: answered (not left to the slow path)
            assert answers == [a for a in answers if a is not None], written[:3000]


# ---- validate's report, with and without the quick check --------------------------------------------

def _reports(path: Path, monkeypatch: pytest.MonkeyPatch, quick: bool) -> tuple[str, list]:
    if not quick:
        monkeypatch.setattr(check, "quick_chunk", lambda chunk, reg: None)
    try:
        report = check.check_file(str(path), REG)
        from dehlanote.batch import pool
        if not quick:
            monkeypatch.setattr(pool, "quick_chunk", lambda chunk, reg: None)
        with open(path, "rb") as stream:
            games = check_chunks(split_games(stream), REG, name=str(path))
    finally:
        monkeypatch.undo()
    return repr(report.json()), [(g.index, g.line, g.column, g.deals, [e.to_json() for e in g.errors])
                                 for g in games]


def test_validate_reports_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    parts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "samples").glob("*.dpn"))]
    for seed, (profile, options) in enumerate(PROFILES):
        text = match(seed, profile, options, STYLES[seed % len(STYLES)], deals=3)
        parts.append(text)
        parts += [wrong for _kind, wrong in _mistakes(text, rng)[:6]]
        parts.append(emoji_commas(text))
    path = tmp_path / "all.dpn"
    path.write_text("\n\n".join(p.strip("\n") for p in parts) + "\n", encoding="utf-8")
    fast, slow = _reports(path, monkeypatch, True), _reports(path, monkeypatch, False)
    assert fast == slow
    assert "'code'" in fast[0]      # (the file holds errors: both reports list them)


def test_a_long_game_is_checked_a_block_at_a_time_and_a_mistake_in_a_late_block_is_seen():
    # the words of a long game are made a block of deals at a time (the whole game's words at
    # once peaked at 96 MB in validate for 10,000 deals); every deal is still checked once
    from dehlanote.replay import quick
    from dehlanote.rules.profile import registry

    text, _ = generate_match(random.Random(7), "pagat", {"kots": 0}, max_deals=1000)
    assert len(text) > 3 * quick.BLOCK
    reg = registry()
    assert quick.quick_deals(text, reg) == text.count("\ndeal ") == 1000
    # a revoke-free swap that breaks the tens line of the last deal: the quick check must not say valid
    last = text.rindex("\ntens ")
    line_end = text.index("\n", last + 1) if "\n" in text[last + 1:] else len(text)
    wrong = text[:last] + "\ntens AC 0 BD 0" + text[line_end:]
    assert quick.quick_deals(wrong, reg) is None


# ---- comments and glyphs in every place, and mistakes inside such deals ----------------------------

_GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
_TRICK_LINE = re.compile(r"^( ?\d+[ .] ?(?:[A-F]: )?)(.*)$")


def glyphed(text: str, rng: random.Random) -> str:
    """``text`` with a glyph after every card played (a withdrawn card has none)."""
    out = []
    for line in text.split("\n"):
        m = _TRICK_LINE.match(line)
        if m and not line.startswith(("deal", "tens", "hands", "trump")):
            line = m.group(1) + _CARD.sub(lambda c: c.group() + rng.choice(_GLYPHS), m.group(2))
        out.append(line)
    return "\n".join(out)


#: comments the quick check must see through: plain ones, one holding a " (the tag values are
#: then told apart from comments the slow way), one holding a [ (the reader's own scan), one
#: over two lines, and one holding words of the notation
_NOTES = ("{x}", "{a long think}", '{he said "no"}', "{see [Event]}", "{two\nlines}", "{deal 1 dealer A}",
          "{tens AC 4 BD 0}", "{}")


def commented(text: str, rng: random.Random, every: float = 0.5, anywhere: bool = False) -> str:
    """``text`` with comments in odd places: after a tag and between tags, a tag value
    holding braces, at the end of the deal, trump, hands, trick and tens lines, between the
    cards of a trick and after its leader; ``anywhere``: between any two words, where the
    whole terminals do not take a comment (in a deal line, before a trick's leader)."""
    out = []
    for line in text.split("\n"):
        if line.startswith("[Event") and rng.random() < 0.5:
            line = line.replace('"]', ' {not a comment}"]', 1)
        words = line.split(" ")
        trick = _TRICK_LINE.match(line) and not line.startswith(("deal", "tens", "hands", "trump"))
        first = 1 if anywhere else len(_TRICK_LINE.match(line).group(1).split(" ")) if trick else len(words)
        if first < len(words) and rng.random() < every:
            words.insert(rng.randrange(first, len(words)), rng.choice(_NOTES))
        line = " ".join(words)
        if line and rng.random() < every:
            line += " " + rng.choice(_NOTES)
        out.append(line)
    return "\n".join(out)


def _withdrawals(text: str, rng: random.Random) -> list[tuple[str, str]]:
    """``text`` (leaders written, four seats) with one card withdrawn before a card played
    that is not the lead: a card the same seat plays in a later trick (legal when the seat
    followed suit and the card is of another suit), one it played earlier, one another seat
    plays later, one of the suit led."""
    lines = text.split("\n")
    deals: list[list[tuple[int, int, list[str]]]] = []
    for i, line in enumerate(lines):
        m = re.match(r"^( ?\d+) ([A-D]): (.*)$", line)
        if line.startswith("deal"):
            deals.append([])
        elif m and deals:
            cards = [w.rstrip("!?") for w in m.group(3).split(" ") if not w.startswith("-")]
            if len(cards) == 4:
                deals[-1].append((i, "ABCD".index(m.group(2)), cards))

    def card_of(row: tuple[int, int, list[str]], who: int) -> str:
        return row[2][(who - row[1]) % 4]

    out: list[tuple[str, str]] = []
    for rows in deals:
        for t, (i, lead, cards) in enumerate(rows[:-1]):
            k = rng.randrange(1, 4)
            seat = (lead + k) % 4
            later = [card_of(r, seat) for r in rows[t + 1:]]
            choices = {"held": rng.choice(later), "other seat": card_of(rng.choice(rows[t + 1:]), (seat + 1) % 4),
                       "suit led": next((c for c in later if c[-1] == cards[0][-1]), later[0])}
            if t:
                choices["played before"] = card_of(rng.choice(rows[:t]), seat)
            for kind, card in choices.items():
                words = lines[i].split(" ")
                at = next(j for j, w in enumerate(words) if w.rstrip("!?") == cards[k])
                words.insert(at, "-" + card)
                out.append((kind, "\n".join(lines[:i] + [" ".join(words)] + lines[i + 1:])))
            # after the trick's last card (before the next trick's number), and nine in a row
            out.append(("at the end", "\n".join(lines[:i] + [lines[i] + " -" + later[0]] + lines[i + 1:])))
            words = lines[i].split(" ")
            words.insert(-1, " ".join("-" + rng.choice(later) for _ in range(9)))
            out.append(("nine", "\n".join(lines[:i] + [" ".join(words)] + lines[i + 1:])))
    return out


@pytest.mark.parametrize("profile,options", PROFILES[:4])
def test_comments_and_glyphs_everywhere(profile: str, options) -> None:
    rng = random.Random(11)
    answered = 0
    for seed in range(4):
        for style in (Style(), Style(hands=True), Style(leaders=False, withdrawn=0.5), Style(loose=True)):
            text = match(seed, profile, options, style, deals=3)
            for shown in (glyphed(text, rng), commented(text, rng), commented(glyphed(text, rng), rng, 0.9),
                          commented(text, rng, 0.2, anywhere=True),
                          emoji_commas(glyphed(text, rng)) if not style.loose else text):
                answered += sum(a is not None for a in agree(shown))
                # a mistake inside a commented or glyphed deal: the full path words it
                for _kind, wrong in _mistakes(shown, rng):
                    agree(wrong)
    assert answered or not supported(profile, options)


@pytest.mark.parametrize("seed", range(6))
def test_cards_withdrawn_rightly_and_wrongly(seed: int) -> None:
    rng = random.Random(seed)
    kinds: dict[str, list[int]] = {}
    for style in (Style(), Style(withdrawn=0.5)):
        text = match(seed, "standard", None, style, deals=2)
        for kind, written in _withdrawals(text, rng) + _withdrawals(glyphed(text, rng), rng):
            answers = agree(written)
            kinds.setdefault(kind, []).append(sum(a is None for a in answers))
    # withdrawing a card played before, another seat's card or one of the suit led is an error
    for kind in ("played before", "other seat", "at the end", "nine"):
        assert all(kinds[kind]), kind


@given(st.integers(0, 10**9), st.sampled_from(PROFILES[:7]), st.sampled_from(STYLES[:6]))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_matches_commented_and_glyphed(seed: int, rules, style: Style) -> None:
    profile, options = rules
    rng = random.Random(seed)
    text = commented(glyphed(match(seed, profile, options, style, deals=4), rng), rng, anywhere=rng.random() < 0.3)
    agree(text)
    for _kind, wrong in rng.sample(_mistakes(text, rng), 4):
        agree(wrong)


# ---- the play of a deal, compiled and in Python ------------------------------------------------

cquick = pytest.importorskip("dehlanote.replay._cquick", reason="the compiled play is not built (no C compiler)")


def _legal_play(rng: random.Random, n: int, trump: int) -> tuple[bytes, int, int]:
    """Random cards played by the rules (each seat follows suit when it can): the cards in
    playing order, the tricks and the dealer; the winners worked out here, on their own."""
    deck = [suit * 16 + strength for suit in range(4) for strength in range(13)]
    rng.shuffle(deck)
    total = 48 // n
    hands = [deck[i * total:(i + 1) * total] for i in range(n)]
    dealer = rng.randrange(n)
    lead, out = (dealer + 1) % n, []
    for _ in range(total):
        trick: list[int] = []
        for k in range(n):
            hand = hands[(lead + k) % n]
            follow = [c for c in hand if trick and c >> 4 == trick[0] >> 4]
            card = rng.choice(follow or hand)
            hand.remove(card)
            trick.append(card)
        rank = [(c >> 4 == trump, c >> 4 == trick[0] >> 4, c & 15) for c in trick]
        lead = (lead + rank.index(max(rank))) % n
        out += trick
    return bytes(out), total, dealer


@given(st.integers(0, 10**9), st.sampled_from([4, 6]), st.integers(0, 3), st.booleans(), st.integers(0, 3))
@settings(max_examples=400, deadline=None)
def test_the_compiled_play_of_a_deal_is_the_python_one(seed: int, n: int, trump: int, immediate: bool,
                                                       swaps: int) -> None:
    """Legal deals, and the same with cards swapped (revokes, mostly): the same leaders, cards
    by seat, tens and tricks, or None at the same revokes."""
    rng = random.Random(seed)
    cards, total, dealer = _legal_play(rng, n, trump)
    played = bytearray(cards)
    for _ in range(swaps):
        i, j = rng.randrange(len(played)), rng.randrange(len(played))
        played[i], played[j] = played[j], played[i]
    args = (bytes(played), n, total, dealer, trump, immediate)
    got = cquick.play(*args)
    assert got == quick_module.play_py(*args)
    if not swaps:
        tens = sum(c & 15 == 8 for c in cards)      # (48 of the 52 cards are dealt)
        assert got is not None and got[0][0] == (dealer + 1) % n and sum(got[2:4]) == tens and sum(got[4:]) == total


def test_the_quick_check_answers_the_same_with_the_python_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled play (an install with no C compiler), the quick check gives the
    same answers, on matches of every profile it follows and their mistakes."""
    rng = random.Random(11)
    texts = []
    for seed, (profile, options) in enumerate(PROFILES[:7]):
        text = match(seed, profile, options, STYLES[seed % len(STYLES)], deals=3)
        texts += [text, *(wrong for _kind, wrong in _mistakes(text, rng))]
    compiled = [quick_chunk(chunk, REG) for text in texts for chunk in split_games(text)]
    monkeypatch.setattr(quick_module, "_PLAY", quick_module.play_py)
    assert [quick_chunk(chunk, REG) for text in texts for chunk in split_games(text)] == compiled
    assert any(a is None for a in compiled) and any(a is not None for a in compiled)
