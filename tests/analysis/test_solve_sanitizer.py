"""The compiled search under AddressSanitizer and UndefinedBehaviorSanitizer.

The test builds ``_csearch.c`` with ``-fsanitize=address,undefined`` into a temporary folder
and runs, in a child process (libasan preloaded, Python's allocator off so that ASan sees
every block), random legal positions of every game and trump method through the Solver (their
values checked against the pure-Python search), random illegal positions through the Solver
(each must be refused with ValueError), and random raw inputs straight into the compiled
entry (each refused with ValueError, or searched within a node limit). Any sanitizer report
fails the test. It skips, saying why, where the compiler cannot build or run such a build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import dehlanote
from dehlanote.analysis import search

DRIVER = r'''
import importlib.machinery, importlib.util, random, sys
from dataclasses import replace
sys.path.insert(0, sys.argv[3])
from dehlanote.analysis import OutOfTime, Solver, search
from test_solve_reference import GAMES, random_ending

loader = importlib.machinery.ExtensionFileLoader("dehlanote.analysis._csearch", sys.argv[1])
spec = importlib.util.spec_from_loader("dehlanote.analysis._csearch", loader)
mod = importlib.util.module_from_spec(spec)
loader.exec_module(mod)
search._csearch = mod
rng = random.Random(int(sys.argv[2]))
names = sorted(GAMES)
MODES = ["known", "first-void", "closed", "none"]

legal = 0
for i in range(260):
    game = GAMES[names[i % len(names)]]
    mode = MODES[i // len(names) % 4]
    left = rng.randint(1, 3 if game.seats == 6 else 6)
    pos = random_ending(rng, game, left, mode)
    solver = Solver(game, compiled=True, table_limit=150 if i % 5 == 0 else 20_000)   # 150: six players grow
    assert solver._engine is None or isinstance(solver._engine, mod.Engine)
    v = solver.value(pos)
    assert isinstance(solver._engine, mod.Engine) or pos.over
    if left <= 3:
        assert v == Solver(game, compiled=False).value(pos), pos
    if i % 4 == 0:
        solver.card_values(pos)
    legal += 1

def broken(pos):
    """The position with one fault drawn at random."""
    hands = [list(h) for h in pos.hands]
    seat = rng.randrange(len(hands))
    other = rng.randrange(len(hands))
    kind = rng.randrange(8)
    if kind == 0 and hands[other] and hands[seat]:
        hands[seat][0] = hands[other][-1]                     # a card in two hands
    elif kind == 1 and hands[seat]:
        hands[seat].pop()                                     # a card short
    elif kind == 2:
        hands[seat].append(rng.choice(["AS", "2C", "10D"]))   # a card over (maybe held twice)
    elif kind == 3:
        return replace(pos, leader=rng.choice([-1, pos.game.seats, 99]))
    elif kind == 4:
        return replace(pos, done=rng.choice([-1, pos.done + 1, 99]))
    elif kind == 5:
        return replace(pos, centre_tens=rng.choice([-1, 13, 1000]), centre_tricks=rng.choice([-3, 0, 40]))
    elif kind == 6:
        return replace(pos, trick=pos.trick + tuple(rng.choice(["2S", "3H", "KD"]) for _ in range(pos.game.seats)))
    else:
        return replace(pos, run=rng.choice([-1, 2, 7]), last_winner=rng.choice([None, -1, 9]))
    return replace(pos, hands=tuple(tuple(h) for h in hands))

illegal = 0
for i in range(400):
    game = GAMES[names[i % len(names)]]
    pos = random_ending(rng, game, rng.randint(1, 3), rng.choice(MODES))
    bad = broken(pos)
    try:
        got = Solver(game, compiled=True).value(bad)
    except ValueError as exc:
        illegal += 1
        try:
            Solver(game, compiled=False).value(bad)
        except ValueError as same:
            assert str(same) == str(exc)
        else:
            raise AssertionError(("refused by one search only", bad))
    else:
        # a fault that left a position a deal can reach (two copies with three decks ...)
        assert got == Solver(game, compiled=False).value(bad), bad

# six players' table grown in place, many times over (a small room)
six = GAMES["six-player"]
small = Solver(six, compiled=True, table_limit=300)
for i in range(12):
    pos = random_ending(rng, six, 5, MODES[i % 4])
    assert small.value(pos) == Solver(six, compiled=True).value(pos), pos
assert small._engine.exact_room == 400, small._engine.exact_room

raw = searched = 0
engine = mod.Engine(5000)
for i in range(3000):
    if rng.random() < 0.6:
        # a deal cut to some tricks left: counts right, the other fields in range or not
        seats, decks = rng.choice([(4, 1), (4, 1), (6, 3), (4, 2), (6, 1), (4, 3)])
        n = seats
        total = 52 * decks // n
        left = rng.randint(1, min(total, 5))
        deck = [(s, r) for s in range(4) for r in range(13)] * decks
        rng.shuffle(deck)
        masks = [0] * (4 * n)
        for seat in range(n):
            for s, r in deck[seat * left:(seat + 1) * left]:
                masks[seat * 4 + s] += 1 << (2 * r)
        trick = []
        leader = rng.randrange(n)
        for j in range(rng.randrange(n)):
            seat = (leader + j) % n
            own = [(s, r) for s in range(4) for r in range(13) if masks[seat * 4 + s] >> (2 * r) & 3]
            s, r = rng.choice(own)
            masks[seat * 4 + s] -= 1 << (2 * r)
            trick.append(s * 16 + r)
        fair = rng.random() < 0.8
        hidden = rng.choice([-1, -1, 0, 3]) if fair else rng.choice([-2, 4])
        trump = -1 if hidden >= 0 else rng.choice([-1, 0, 1, 2, 3])
        fields = (trump, leader, rng.choice([0, 1]) if fair else 2, 0, 0 if fair else rng.choice([0, 30]), left,
                  rng.choice([0, 1, 2]), rng.random() < 0.5, rng.randint(-2, 40), 0,
                  rng.choice([-1, 20_000, 20_000]) if fair else -7, 0.0, seats, decks,
                  hidden < 0 and trump < 0 and rng.random() < 0.5, hidden, rng.randint(-1, n - 1))
    else:
        seats = rng.choice([4, 6, 5, 0, -1])
        n = max(seats, 1)
        masks = [rng.choice([0, 1, 3, 1 << 24, rng.randrange(1 << 27), -1])
                 for _ in range(rng.choice([4 * n, 16, 24, 3]))]
        trick = [rng.randrange(-2, 70) for _ in range(rng.randrange(7))]
        fields = (rng.choice([-2, -1, 0, 3, 5]), rng.randint(-1, 7), rng.choice([-1, 0, 1, 2]),
                  rng.choice([0, 1, 5, 13, -1]), rng.choice([0, 2, 30]), rng.randint(-1, 30), rng.choice([0, 1, 2, 3]),
                  rng.random() < 0.5, rng.randint(-2000, 2000), rng.choice([0, -1]), rng.choice([-1, 20_000, -7]),
                  rng.choice([0.0, -1.0]), seats, rng.choice([1, 3, 0, 4]), rng.random() < 0.3,
                  rng.choice([-1, 0, 4]), rng.randint(-2, 6))
    try:
        res, nodes = engine.test(masks, trick, *fields)
        searched += 1
    except ValueError:
        pass
    raw += 1
print("legal", legal, "illegal", illegal, "raw", raw, "searched", searched)
'''


def test_the_compiled_search_is_clean_under_address_and_undefined_sanitizers(tmp_path: Path) -> None:
    cc = shutil.which("gcc") or shutil.which("cc")
    include = sysconfig.get_paths()["include"]
    if cc is None or not Path(include, "Python.h").exists():
        pytest.skip("no C compiler or Python headers here: the compiled search cannot be built")
    src = Path(search.__file__).with_name("_csearch.c")
    so = tmp_path / "_csearch_sanitized.so"
    # -O0: every load and store is kept for the sanitizers to check (an optimiser may drop some), and
    # the build takes 1 s against 4 s at -O1 (the whole test 3.9 against 6.6 s)
    build = subprocess.run([cc, "-shared", "-fPIC", "-O0", "-g", "-fno-omit-frame-pointer",
                            "-fsanitize=address,undefined", "-fno-sanitize-recover=all", f"-I{include}",
                            "-DCSEARCH_PLAIN_ALLOC",   # the tables from malloc: ASan guards their ends
                            str(src), "-o", str(so)], capture_output=True, text=True)
    if build.returncode != 0:
        pytest.skip(f"this compiler cannot build with -fsanitize=address,undefined: {build.stderr.strip()[:300]}")
    libasan = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(libasan) or not Path(libasan).exists():
        pytest.skip("the compiler has no libasan.so to preload into Python")
    root = Path(dehlanote.__file__).resolve().parent.parent
    env = dict(os.environ, LD_PRELOAD=libasan, PYTHONMALLOC="malloc", PYTHONPATH=str(root),
               ASAN_OPTIONS="detect_leaks=0:exitcode=97",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=98")
    run = subprocess.run([sys.executable, "-c", DRIVER, str(so), "2026", str(Path(__file__).parent)],
                         capture_output=True, text=True, env=env, timeout=600)
    report = run.stderr[-4000:]
    if run.returncode != 0 and "ASan runtime does not come first" in run.stderr:
        pytest.skip("ASan cannot be preloaded into this Python")
    assert "Sanitizer" not in run.stderr and "runtime error" not in run.stderr, report
    assert run.returncode == 0, report
    counts = dict(zip(*[iter(run.stdout.split())] * 2))
    assert int(counts["legal"]) == 260
    assert int(counts["illegal"]) > 300           # broken positions refused (the rest: still legal, and solved)
    assert int(counts["raw"]) == 3000
    assert 100 < int(counts["searched"]) < 3000   # raw inputs: some legal enough to search, most refused
