"""What the command line loads to run one command, and how it reads plain option values.

The console script imports only the module of the command it runs (``dehlanote.cli.COMMANDS``,
its modules in ``dehlanote.commands``),
and converts plain option values itself (``dehlanote.commands.lightparams``) instead of through
pydantic; these tests check that the table is right, that a run of ``validate`` leaves the
heavy modules alone, and that values and error messages are typer's own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from dehlanote.cli import COMMANDS, app, command_modules
from dehlanote.commands.lightparams import _Heavy, convert

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "worked-example.dpn"
runner = CliRunner()


def test_the_command_table_names_every_command_and_its_module():
    registered = {}
    for info in app.registered_commands:
        name = info.name or info.callback.__name__.replace("_", "-")
        registered[name] = (info.callback.__module__.rsplit(".", 1)[1], info.callback.__name__)
    for group in app.registered_groups:          # a group of sub-commands (db build, db query)
        module = sys.modules[group.typer_instance.registered_commands[0].callback.__module__]
        found = [k for k, v in vars(module).items() if v is group.typer_instance]
        registered[group.name] = (module.__name__.rsplit(".", 1)[1], found[0])
    assert registered == COMMANDS
    assert {info.callback.__module__.rsplit(".", 1)[0] for info in app.registered_commands} == {"dehlanote.commands"}


def test_a_command_line_needs_only_its_commands_module():
    everything = sorted(COMMANDS)
    assert command_modules(["validate", "--brief", "x.dpn"]) == ["validate"]
    assert command_modules(["json", "--compact", "x.dpn"]) == ["json"]
    assert command_modules(["-V"]) == [] and command_modules([]) == everything
    assert command_modules(["--help"]) == everything and command_modules(["valdate"]) == everything
    assert command_modules(["--install-completion"]) == everything


def _modules_after(*args: str) -> set[str]:
    """The modules loaded by the console script running ``dehlanote ARGS``."""
    code = ("import sys, runpy\nsys.argv = ['dehlanote', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('dehlanote', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write('\\n'.join(sorted(sys.modules)))\n")
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT)
    return set(proc.stderr.splitlines())


def test_validate_loads_neither_other_commands_nor_pydantic():
    loaded = _modules_after("validate", "--brief", str(SAMPLE))
    # (a plain validate is run without the Typer app: see tests/cli/test_direct_validate.py)
    assert "dehlanote.commands.validating" in loaded and "dehlanote.replay.engine" in loaded
    assert "typer" not in loaded and "dehlanote.cli" not in loaded
    loaded = _modules_after("validate", "--brief", "--rules", str(ROOT / "no-such.yaml"), str(SAMPLE))
    assert "dehlanote.commands.validate" in loaded and "typer" in loaded
    for heavy in ("dehlanote.commands.annotate", "dehlanote.commands.html", "dehlanote.commands.record",
                  "dehlanote.output.render", "dehlanote.output.notes", "dehlanote.output.jsonout",
                  "dehlanote.analysis.search",
                  "dehlanote.analysis.position", "dehlanote.analysis.claim", "pydantic"):
        assert heavy not in loaded, heavy


def test_version_is_answered_without_loading_the_command_line():
    # (the same line as the Typer option's, which the full command line still prints)
    for flag in ("--version", "-V"):
        loaded = _modules_after(flag)
        assert "dehlanote.version" in loaded
        for heavy in ("typer", "dehlanote.cli", "dehlanote.syntax", "dehlanote.replay"):
            assert heavy not in loaded, heavy
        fast = subprocess.run([sys.executable, "-m", "dehlanote", flag], capture_output=True, text=True, cwd=ROOT)
        full = runner.invoke(app, [flag])
        assert (fast.returncode, fast.stdout, fast.stderr) == (0, full.stdout, "") and full.exit_code == 0
    to_full = subprocess.run([sys.executable, "-m", "dehlanote", "--version"], stdout=open("/dev/full", "w"),
                             stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert (to_full.returncode, to_full.stderr) == (2, "dehlanote: cannot write the output: no space left on device\n")
    closed = subprocess.run([sys.executable, "-m", "dehlanote", "--version"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, preexec_fn=lambda: os.close(1))
    assert closed.returncode == 2 and "standard output is closed" in closed.stderr


def test_help_still_lists_every_command():
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "--help"], capture_output=True, text=True, cwd=ROOT,
                          env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0
    for name in COMMANDS:
        assert f" {name} " in proc.stdout, name


def _descriptor(command: str, param: str):
    group = typer.main.get_command(app)
    cmd = group.commands[command]  # type: ignore[attr-defined]
    return next(p for p in cmd.params if p.name == param).type_descriptor


@pytest.mark.parametrize("command,param,value", [
    ("validate", "jobs", "0"), ("validate", "jobs", "12"), ("validate", "jobs", 3), ("validate", "max_errors", "0"),
    ("validate", "format", "json"), ("validate", "format", "text"), ("validate", "files", ["a.dpn", "-"]),
    ("validate", "rules", "house.yaml"), ("generate", "games", "1000000"), ("generate", "rules", "pagat kots=3"),
    ("html", "per_page", "7"),
])
def test_plain_values_convert_as_typers_own_conversion_does(command, param, value):
    from typer._coercion import build_runtime_param
    desc = _descriptor(command, param)
    mine = convert(desc, value, None, None)
    theirs = build_runtime_param(desc)._coerce_value(value, param=None, ctx=None)
    assert mine == theirs and type(mine) is type(theirs)


@pytest.mark.parametrize("command,param,value", [
    ("validate", "jobs", "-1"), ("validate", "jobs", "x"), ("validate", "jobs", "007"), ("validate", "jobs", " 3"),
    ("validate", "format", "xml"), ("validate", "format", "JSON"), ("generate", "games", "0"),
    ("generate", "games", "1000001"), ("solve", "node_limit", "0"),
])
def test_anything_else_is_left_to_typer(command, param, value):
    with pytest.raises(_Heavy):
        convert(_descriptor(command, param), value, None, None)


def test_a_time_limit_is_read_by_its_own_parser_on_the_light_path_too():
    # (--time-limit was a float with a minimum, left to typer; it has a parser of its own now,
    # which says nan is no number of seconds: the light path calls it as typer would)
    import typer
    desc = _descriptor("solve", "time_limit")
    assert convert(desc, "2.5", None, None) == 2.5
    with pytest.raises(typer.BadParameter, match="not a number of seconds"):
        convert(desc, "nan", None, None)


@pytest.mark.parametrize("args,message", [
    (["--jobs", "x"], "Input should be a valid integer"),
    (["--jobs", "-1"], "Input should be greater than or equal to 0"),
    (["--format", "xml"], "'xml' is not one of 'text', 'json'"),
])
def test_bad_values_get_typers_messages(args, message):
    result = runner.invoke(app, ["validate", *args, str(SAMPLE)], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_the_packaged_profiles_read_from_their_cached_copy_are_those_of_the_yaml_files():
    from importlib import resources

    from dehlanote.rules.profile import Registry, default_registry
    fast = default_registry()
    slow = Registry()
    folder = resources.files("dehlanote.rules").joinpath("profiles")
    for name in ("options", "standard", "pagat", "hukum"):
        slow.load_text(folder.joinpath(f"{name}.yaml").read_text(encoding="utf-8"), f"{name}.yaml")
    assert fast.profiles == slow.profiles and fast.options == slow.options
    assert sorted(fast.profiles) == ["hukum", "pagat", "standard"]
