"""Settings for the whole suite."""

from __future__ import annotations

import os
from typing import Any, Iterator

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


@pytest.fixture(autouse=True, scope="session")
def _one_click_command_per_app() -> Iterator[None]:
    """Typer's test runner builds the whole Click command from the app at every ``invoke``
    (every command's signature read and its annotations evaluated again: 8 ms for dehlanote's
    app, 1,100 invocations a run); the console script builds it once a process. Here it is
    built once for each app and its registered commands, and built again whenever they change.
    The Click command is what the console script runs: what the tests invoke is unchanged."""
    import typer.testing

    real = typer.testing._get_command
    built: dict[int, tuple[Any, tuple[Any, ...], Any]] = {}

    def command(app: Any) -> Any:
        shape = (tuple(app.registered_commands), tuple(app.registered_groups), app.registered_callback)
        kept = built.get(id(app))
        if kept is None or kept[0] is not app or kept[1] != shape:
            kept = built[id(app)] = (app, shape, real(app))
        return kept[2]

    typer.testing._get_command = command
    try:
        yield
    finally:
        typer.testing._get_command = real


def best_by_brute_force(table) -> tuple[set[str], int]:
    """The cards that keep the most for the mover's side, and that most, by trying every line
    of play to the end (no pruning, no table: the plainest reference for the solvers, on
    endings of a few tricks). ``table`` is a :class:`dehlanote.Table`; it is left as given."""
    side = table.sides[table.seats.index(table.to_play) % 2]

    def value(t) -> int:
        if t.over:
            return t.score[side]
        mine = t.sides[t.seats.index(t.to_play) % 2] == side
        outcomes = []
        for c in t.legal_cards():
            t.play(c)
            outcomes.append(value(t))
            t.undo()
        return max(outcomes) if mine else min(outcomes)

    scores = {}
    for c in table.legal_cards():
        table.play(c)
        scores[str(c)] = value(table)
        table.undo()
    top = max(scores.values())
    return {c for c, v in scores.items() if v == top}, top


@pytest.fixture
def brute_best():
    """:func:`best_by_brute_force`, for the tests that check a solver's card against it."""
    return best_by_brute_force


# The longest tests (from ``--durations``) start first: pytest-xdist hands tests to the workers in
# collection order, so a long one collected last would leave the other core idle at the end of
# the run. Only the order changes (every test still runs; the rest keep their order).
LONG_FIRST = (
    "tests/project/test_quality.py::test_the_package_type_checks_with_mypy",
    "tests/syntax/test_fast.py::test_mutated_records",
    "tests/record/test_record.py::"
    "test_interrupted_anywhere_the_file_is_valid_unfinished_and_resumes_to_the_same_record",
    "tests/analysis/test_analysis_annotate.py::test_by_default_the_cards_are_judged_single_dummy",
    "tests/syntax/test_fast.py::test_every_construct_reads_the_same_both_ways",
    "tests/replay/test_properties.py::test_playouts",
    "tests/robustness/test_hostile.py::test_16_9_a_long_line_of_comments_in_linear_time",
    "tests/robustness/test_hostile.py::"
    "test_16_9_annotate_on_one_long_line_of_cards_in_linear_time_and_bounded_memory",
    "tests/record/test_record_durable.py::"
    "test_every_line_of_a_deals_opening_is_on_disk_when_killed_and_resumes_to_the_same_record",
    "tests/robustness/test_streaming.py::test_16_10_annotate_text_streams_a_long_game",
    "tests/robustness/test_streaming.py::test_html_analyse_streams_a_long_game_and_solves_each_deal_once",
    "tests/robustness/test_hostile.py::test_a_game_of_ten_thousand_deals",
    "tests/analysis/test_solve_cli.py::test_every_sample_solves_its_last_six_tricks_without_a_traceback",
    "tests/analysis/test_analysis_claim.py::test_claims_agree_with_brute_force_and_give_everything",
    "tests/robustness/test_fuzz.py::test_a_mutated_game_between_two_valid_ones_leaves_the_last_whole",
    "tests/analysis/test_single.py::test_sampling_agrees_with_the_exact_average_within_its_error",
    "tests/analysis/test_single.py::test_all_worlds_give_the_exact_average",
    "tests/analysis/test_review.py::test_bad_records_give_their_codes_and_the_good_deals_are_still_judged",
    "tests/analysis/test_solve_reference.py::test_solver_equals_brute_force_on_random_endings",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONG_FIRST)}

    def place(item: pytest.Item) -> int:
        name = item.nodeid.split("[")[0]
        for prefix, i in rank.items():
            if name == prefix or name.startswith(prefix + "_"):     # test_playouts_<profile> too
                return i
        return len(rank)

    items.sort(key=place)       # stable: the order of the rest is kept


# The modules whose module-scoped fixtures cost a second or more to set up (a headless
# Chromium, the direct path's forked runs, a Dask cluster, the docs' databases), or whose tests
# share what they work out (the solver tests' brute-force values, the same for both searches):
# each runs whole on one worker, so that it is set up or worked out once in the run.
TOGETHER = frozenset({
    "tests/analysis/test_solve_reference.py",
    "tests/cli/test_direct_json.py",
    "tests/cli/test_direct_validate.py",
    "tests/cli/test_lsp.py",
    "tests/batch/test_dask.py",
    "tests/db/test_db_docs.py",
    "tests/output/test_html_browser.py",
    "tests/output/test_hindi_pages.py",
    "tests/output/test_review_browser.py",
    "tests/output/test_viewer_browser.py",
    "tests/output/test_whatif_browser.py",
    "tests/project/test_docs.py",
    "tests/robustness/test_streaming.py",
    "tests/serve/test_serve_browser.py",
})


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """``-n N`` (``--dist load``): every other test is handed out on its own, as a worker
    runs short of work, and the modules of :data:`TOGETHER` whole.

    xdist's ``load`` sends a worker hundreds of tests at once while many are waiting: near
    the end one worker was left with a backlog of half a minute (browser tests among it)
    while the other had nothing left to do. Handed out one at a time, the two finish
    within a test of each other. Another ``--dist`` given on the command line is kept."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OneByOne(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path in TOGETHER else nodeid

    return OneByOne(config, log)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the processor's cores. Part of the suite waits (on the
    programs it starts, on headless Chromium, on pseudo-terminals); with one worker a core those
    waits left a core idle: on 2 cores, 2 workers took 365-371 s, 3 workers 316 s, every test
    passing."""
    return (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1) + 1


def pytest_configure(config: pytest.Config) -> None:
    """The package's modules are compiled to bytecode once, before any test runs.

    Hundreds of tests start ``dehlanote`` in a process of its own. In a fresh clone, with
    ``PYTHONDONTWRITEBYTECODE`` set (as on the build machines), no ``__pycache__`` is ever
    written, so every such process compiled the modules it imports from source again: 0.07 to
    0.13 s a process (``validate`` 0.20 against 0.14 s, ``html`` 0.35 against 0.22 s). Done once
    here (about 0.4 s), by the controller only (xdist's workers start after it)."""
    if hasattr(config, "workerinput"):
        return
    import compileall
    from pathlib import Path

    compileall.compile_dir(Path(__file__).resolve().parents[1] / "dehlanote", quiet=1)
