"""The package's layers, read from its source: no import from a lower layer to a higher one,
no import cycle between modules or between packages, and no module over 900 lines.

Every ``import`` and ``from ... import`` in every module of ``dehlanote`` counts, wherever it
stands: at the top, inside a function (a late import hides a dependency, it does not remove
it) and inside ``if TYPE_CHECKING:``. **Decision:** type-checking-only imports count like the
others: a signature that names a higher layer's type is a dependency of the design even
though nothing is loaded at run time, and the cure (moving the type down, or taking a
protocol) is the same. The implicit import of a module's parent packages is not counted
(every module would otherwise depend on its package's ``__init__``).

The layers, lowest first (docs/DECISIONS.md): ground (the cards, the errors, the safe writer,
the terminal sanitiser, the version, the private cache, the message catalogs, the worker
processes), syntax and
rules, the core (the replay) with the independent oracle beside it, the analysis, the outputs
(and the statistics, the players' ratings), batch (and the archive database), the recorder and
the servers, the commands, and on top the command line and the package's public facade. A
module may import its own layer and the layers below; the oracle and the core never import
each other (the oracle is the tests' independent referee of the replay).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "dehlanote"

#: lowest first; a name stands for the module or package and everything under it
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ground", ("dehlanote.deck", "dehlanote.errors", "dehlanote.files", "dehlanote.pathfacts",
                "dehlanote.lockfile", "dehlanote.text",
                "dehlanote.version", "dehlanote.cache", "dehlanote.i18n", "dehlanote.workers", "dehlanote.stops",
                "dehlanote.inputs")),
    ("syntax and rules", ("dehlanote.syntax", "dehlanote.rules")),
    ("core", ("dehlanote.replay", "dehlanote.oracle")),
    ("analysis", ("dehlanote.analysis",)),
    ("outputs", ("dehlanote.output", "dehlanote.stats", "dehlanote.db.ratings")),
    ("batch", ("dehlanote.batch", "dehlanote.db")),
    ("record and serve", ("dehlanote.record", "dehlanote.serve", "dehlanote.langserver")),
    ("commands", ("dehlanote.commands",)),
    ("command line", ("dehlanote.cli", "dehlanote._entry", "dehlanote.__main__", "dehlanote.api", "dehlanote")),
)

#: packages of one layer that must not import each other, either way
INDEPENDENT = (("dehlanote.oracle", "dehlanote.replay"),)
#: what the oracle may import: data only (the deck, the errors, the rule registry)
ORACLE_IMPORTS = ("dehlanote.deck", "dehlanote.errors", "dehlanote.rules.profile")

#: imports known to break the layers, each to be removed by the work named (an entry that
#: no longer exists fails the test, so the list only shrinks)
ALLOWED: dict[tuple[str, str], str] = {}

MAX_LINES = 900
#: modules over MAX_LINES while their split is under way, each with the work that splits it
#: (an entry back under the limit fails the test: take it out of this table)
OVERSIZE: dict[str, str] = {
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _extension(name: str) -> bool:
    """Whether ``name`` is a compiled module of the package (its stub or its C source)."""
    stem = ROOT.joinpath(*name.split("."))
    return stem.with_suffix(".pyi").exists() or stem.with_suffix(".c").exists()


@lru_cache(maxsize=None)
def _imports(name: str, path: Path) -> tuple[tuple[str, int], ...]:
    """The package modules ``name`` imports, each with the line of its import (each module
    is read once in a run: five tests look at the whole graph)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                # ``from pkg import module`` imports the module; ``from pkg import name``, pkg
                sub = f"{target}.{alias.name}"
                found.append((sub if sub in MODULES or _extension(sub) else target, node.lineno))
    return tuple((t, line) for t, line in found if t == "dehlanote" or t.startswith("dehlanote."))


def _graph() -> dict[str, dict[str, int]]:
    graph: dict[str, dict[str, int]] = defaultdict(dict)
    for name, path in MODULES.items():
        graph[name]
        for target, line in _imports(name, path):
            if target != name and (name, target) not in ALLOWED:
                graph[name].setdefault(target, line)
    return graph


def _home(module: str) -> tuple[int, str]:
    """(layer number, the package or module of LAYERS it belongs to): the longest name that
    is the module or one of its parents."""
    best: tuple[int, str] = (-1, "")
    for rank, (_, names) in enumerate(LAYERS):
        for n in names:
            if (module == n or module.startswith(n + ".")) and len(n) > len(best[1]):
                best = (rank, n)
    return best


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_module_has_a_layer():
    assert [m for m in MODULES if _home(m)[0] < 0] == []


def test_no_import_goes_up_a_layer():
    wrong = []
    for name, targets in _graph().items():
        rank, _ = _home(name)
        for target, line in targets.items():
            to, _ = _home(target)
            if to > rank:
                wrong.append(f"{MODULES[name].relative_to(ROOT)}:{line}: {name} ({LAYERS[rank][0]}) imports "
                             f"{target} ({LAYERS[to][0]})")
    assert wrong == [], "\n".join(wrong)


def test_independent_packages_do_not_import_each_other():
    wrong = []
    for name, targets in _graph().items():
        for target, line in targets.items():
            for a, b in INDEPENDENT:
                for x, y in ((a, b), (b, a)):
                    if _home(name)[1] == x and _home(target)[1] == y:
                        wrong.append(f"{MODULES[name].relative_to(ROOT)}:{line}: {name} imports {target}")
    assert wrong == [], "\n".join(wrong)


def test_the_oracle_takes_only_data_from_the_package():
    """The independent oracle reads the deck and the rule registry (names and parameters),
    never the syntax, the replay or the analysis."""
    wrong = [f"{name} imports {target}" for name, targets in _graph().items() if _home(name)[1] == "dehlanote.oracle"
             for target in targets if _home(target)[1] != "dehlanote.oracle" and target not in ORACLE_IMPORTS]
    assert wrong == []


def test_no_import_cycle_between_modules():
    graph = {name: set(targets) for name, targets in _graph().items()}
    assert _cycles(graph) == []


def test_no_import_cycle_between_packages():
    """The same at the level of the packages and top-level modules of LAYERS (``batch``,
    ``output``, ``deck``...): two packages of one layer may not import each other."""
    graph: dict[str, set[str]] = defaultdict(set)
    for name, targets in _graph().items():
        for target in targets:
            a, b = _home(name)[1], _home(target)[1]
            if a != b:
                graph[a].add(b)
    assert _cycles(graph) == []


def test_the_allowed_exceptions_still_exist():
    """Each allowed import is still made (once removed, it must leave the table)."""
    made = {(name, target) for name, path in MODULES.items() for target, _ in _imports(name, path)}
    assert [edge for edge in ALLOWED if edge not in made] == []


def test_the_checks_see_imports_inside_functions_and_type_checking(tmp_path):
    """The reader of imports finds late and type-checking-only imports (both count)."""
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..analysis import x\n"
              "def f():\n    from ..output.render import y\n    import dehlanote.batch.pool\n")
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    found = {t for t, _ in _imports("dehlanote.replay.probe", path)}
    assert found == {"dehlanote.analysis", "dehlanote.output.render", "dehlanote.batch.pool"}
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


#: where the deck's facts may still be spelled out, with the work that removes them
SPELLED_OUT: dict[str, str] = {}


def test_the_suit_order_and_the_sides_are_spelled_only_in_the_deck():
    """``"SHDC"``, ``"ACE"`` and ``"BDF"`` are the deck's facts (dehlanote.deck.SUITS,
    sides_for): no other module types them."""
    wrong = []
    for name, path in MODULES.items():
        rel = str(path.relative_to(ROOT))
        if name == "dehlanote.deck" or rel in SPELLED_OUT:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in ("SHDC", "ACE", "BDF"):
                wrong.append(f"{rel}:{node.lineno}: {node.value!r}")
    assert wrong == [], "\n".join(wrong)
    assert all((ROOT / rel).exists() for rel in SPELLED_OUT)


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_900_lines(path):
    rel = str(path.relative_to(ROOT))
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if rel in OVERSIZE:
        assert lines > MAX_LINES, f"{rel} is {lines} lines now: take it out of OVERSIZE"
        pytest.xfail(f"{rel}: {lines} lines, split by {OVERSIZE[rel]}")
    assert lines <= MAX_LINES, f"{rel} is {lines} lines (at most {MAX_LINES}): split it by concern"
