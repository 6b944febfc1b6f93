"""The archive as a DuckDB database (``dehlanote db``): tables of every fact, views, ratings.

Needs the ``db`` extra (``pip install 'dehlanote[db]'``: duckdb and pyarrow). The schema
is in :mod:`dehlanote.db.schema` and docs/db.md.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator

__all__ = ["ctrl_c_told"]


@contextmanager
def ctrl_c_told() -> Iterator[None]:
    """Inside the block, an error raised after a Ctrl-C is the Ctrl-C: KeyboardInterrupt.

    DuckDB turns a Ctrl-C that lands while it runs a query into an error of its own: a
    ``RuntimeError("Query interrupted")``, or, while it reads rows from Python, an Invalid
    Input Error that names the KeyboardInterrupt. ``db build`` and ``db query`` then printed
    a traceback, or said the database was not one ("not-a-database"), 23 times in 60 runs
    of ``db build --jobs 2`` stopped at a random moment. Ctrl-C is noted as it lands (the
    handler before it is then called, as it would have been), and whatever error follows
    is raised as the KeyboardInterrupt it comes from. Outside the main thread, or with
    Ctrl-C not handled by Python (ignored, or the system's default): nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.getsignal(signal.SIGINT)
    if not callable(before):
        yield
        return
    seen: list[int] = []

    def noted(signum: int, frame: Any) -> None:
        seen.append(signum)
        before(signum, frame)

    signal.signal(signal.SIGINT, noted)
    try:
        yield
    except Exception as exc:
        if seen:
            raise KeyboardInterrupt from exc
        raise
    finally:
        signal.signal(signal.SIGINT, before)
