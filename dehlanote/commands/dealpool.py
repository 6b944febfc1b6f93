"""Deals solved one after another or on worker processes, with a progress bar: what ``solve``
and ``review`` share.

A full deal can take a minute, so on a terminal a bar on standard error counts the deals done
(and, in one process, the tricks of the deal being solved); Ctrl-C stops the workers cleanly;
a worker process that is killed (out of memory, ``kill -9``) ends the run with the results
obtained before it, not with a pool waiting forever (``multiprocessing.Pool`` waited; a
``ProcessPoolExecutor`` notices).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Callable, Generic, Optional, Sequence, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

#: a progress callback: tricks (or worlds) done of a total, within one deal
Step = Callable[[int, int], None]


@dataclass
class Run(Generic[Result]):
    """The results in the order of the items given (all of them, or those obtained before a
    worker process was lost), and whether one was lost."""

    results: list[Result]
    lost: bool


def run_deals(
    verb: str,
    items: Sequence[Item],
    work: Callable[[Item], Result],
    one: Callable[[Item, Step], Result],
    label: Callable[[int], str],
    jobs: int,
    done: Optional[Callable[[int, Result], None]] = None,
) -> Run[Result]:
    """Each item's result: ``work(item)`` on ``jobs`` spawned processes (``work`` must be a
    module-level function, its items picklable), or ``one(item, step)`` in this process, which
    reports its tricks through ``step``; ``label(i)`` names item i on the bar. ``done(i,
    result)`` is called as each result arrives (e.g. to keep it in the cache before a later
    worker is lost). ``verb`` heads the bar ("solving", "judging")."""
    from rich.console import Console
    from rich.progress import MofNCompleteColumn, Progress

    from .common import bar_columns, bar_name

    console = Console(stderr=True, highlight=False)
    room = console.width - len(verb) - 21 - (2 * len(str(len(items))) + 2) - 8 - 1     # the bar, count, clock
    progress = Progress(*bar_columns(verb, MofNCompleteColumn()), console=console, transient=True,
                        disable=not sys.stderr.isatty())
    results: list[Result] = []
    lost = False
    # more workers than cores only cost memory and time (solve --jobs 40 on two cores: 24
    # processes, 2.4 s against 0.7 s with --jobs 2), as validate and db build have it
    jobs = min(jobs, os.cpu_count() or 1)
    with progress:
        bar = progress.add_task("", total=len(items))
        if jobs > 1 and len(items) > 1:
            import multiprocessing
            from concurrent.futures.process import BrokenProcessPool

            from ..workers import worker_pool

            # (workers that ignore Ctrl-C, which terminates them at once: see dehlanote.workers)
            with worker_pool(jobs, multiprocessing.get_context("spawn")) as pool:
                try:
                    for result in pool.map(work, items):
                        if done is not None:
                            done(len(results), result)
                        results.append(result)
                        progress.advance(bar)
                except BrokenProcessPool:
                    lost = True
        else:
            for n, item in enumerate(items):
                progress.update(bar, description=bar_name(label(n), room))

                def step(part: int, total: int, n: int = n) -> None:
                    progress.update(bar, completed=n + (part / total if total else 0))
                result = one(item, step)
                if done is not None:
                    done(n, result)
                results.append(result)
                progress.update(bar, completed=n + 1)
    return Run(results, lost)
