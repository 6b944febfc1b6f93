"""A compiled part of another version (a checkout pulled and not rebuilt, a copied install)
is left aside: the Python code it stands in for runs, with the same answers, and no
traceback reaches the user."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: stand-ins for each compiled part, as a build of another version would be: a setup that
#: refuses its tables, or a module without the function asked for
STALE = r'''
import sys, types
def refuse(*args):
    raise ValueError("setup: four kinds' names and four types")
for name in ("dehlanote.syntax._ctricks", "dehlanote.replay._cplay"):
    mod = types.ModuleType(name)
    mod.setup = refuse
    sys.modules[name] = mod
for name in ("dehlanote.replay._cquick", "dehlanote.output._cjson"):
    sys.modules[name] = types.ModuleType(name)
from dehlanote._entry import main
sys.argv = ["dehlanote", *sys.argv[1:]]
main()
'''


@pytest.mark.parametrize("command,sample", [(["validate"], "match.dpn"), (["json", "--compact"], "match.dpn"),
                                            (["json", "--compact"], "loose-style.dpn")])
def test_a_compiled_part_of_another_version_is_left_aside(command: list[str], sample: str) -> None:
    path = ROOT / "samples" / sample
    run = [sys.executable, "-c", STALE, *command, str(path)]
    stale = subprocess.run(run, capture_output=True, text=True, cwd=ROOT, timeout=120)
    built = subprocess.run([sys.executable, "-m", "dehlanote", *command, str(path)], capture_output=True,
                           text=True, cwd=ROOT, timeout=120)
    assert "Traceback" not in stale.stderr, stale.stderr
    assert (stale.returncode, stale.stdout, stale.stderr) == (built.returncode, built.stdout, built.stderr)
    if command[0] == "json":
        assert json.loads(stale.stdout)["games"]
    else:
        assert "all valid" in stale.stdout
