"""Shared by the db tests: a command run in this process, as a user sees it."""

from __future__ import annotations

import contextlib
import traceback
from pathlib import Path

from typer.testing import CliRunner

from dehlanote.cli import app

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path = ROOT) -> tuple[int, str, str]:
    """The command run in this process: exit status, standard output, standard error (with the
    traceback of an exception let out, as a user would see it)."""
    with contextlib.chdir(cwd):
        res = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None}).invoke(app, list(args))
    err = res.stderr
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        err += "".join(traceback.format_exception(res.exception))
    return res.exit_code, res.stdout, err
