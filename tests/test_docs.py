"""The documentation tells the truth: its examples are run and compared with what really happens.

- Every ``console`` block of README.md and docs/commands.md: each ``$ dehlanote ...`` line is
  run from the repository root and its output compared with the lines shown below it.
- Every ``dpn`` block of docs/notation.md: a good record validates without errors; a bad
  record (info string ``dpn error=CODE at=LINE:COL``) gives that code at that position.
- No user-facing text names the project's internal sources or a path of the build machine.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def dehlanote(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the command line of this checkout (not the one installed on PATH)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["NO_COLOR"] = "1"
    return subprocess.run([sys.executable, "-m", "dehlanote", *args], cwd=ROOT, env=env,
                          input=stdin, capture_output=True, timeout=300)


# ---- fenced blocks -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Block:
    path: str
    line: int       # 1-based line of the opening fence
    info: str       # the info string after the fence
    text: str


_FENCE = re.compile(r"^(```+|~~~+)(.*)$")


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown file."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        fence, info, start = m.group(1), m.group(2).strip(), i
        i += 1
        body: list[str] = []
        while i < len(lines) and not lines[i].startswith(fence):
            body.append(lines[i])
            i += 1
        i += 1
        found.append(Block(str(path.relative_to(ROOT)), start + 1, info, "\n".join(body) + "\n"))
    return found


# ---- console examples ----------------------------------------------------------------------------

CONSOLE_DOCS = [ROOT / "README.md", ROOT / "docs" / "commands.md"]


@dataclass(frozen=True)
class Example:
    where: str
    command: str
    expected: list[str]


def console_examples() -> list[Example]:
    found: list[Example] = []
    for path in CONSOLE_DOCS:
        for block in blocks(path):
            if block.info.split()[:1] != ["console"]:
                continue
            current: Example | None = None
            for n, line in enumerate(block.text.splitlines()):
                if line.startswith("$ "):
                    current = Example(f"{block.path}:{block.line + 1 + n}", line[2:], [])
                    found.append(current)
                elif current is not None:
                    current.expected.append(line)
    return found


_RULE = re.compile(r"[═─━]{3,}")


def normalise(line: str) -> str:
    """What may differ without the example being wrong: trailing spaces, the length of rules
    (drawn to the width of the output)."""
    return _RULE.sub("───", line.rstrip())


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line; a line ``...`` stands for any number of lines (none included)."""
    parts = [re.escape(normalise(line)) + "\n" if line.strip() != "..." else r"(?:[^\n]*\n)*?"
             for line in expected]
    text = "".join(normalise(line) + "\n" for line in actual)
    return re.fullmatch("".join(parts), text) is not None


EXAMPLES = console_examples()


def test_there_are_console_examples() -> None:
    commands = {shlex.split(e.command, comments=True)[1] for e in EXAMPLES}
    assert {"validate", "annotate", "replay", "json", "fmt", "rules"} <= commands


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.where for e in EXAMPLES])
def test_console_example_shows_the_real_output(example: Example) -> None:
    words = shlex.split(example.command, comments=True)
    assert words[0] == "dehlanote", f"{example.where}: an example runs dehlanote, not {words[0]}"
    args: list[str] = []
    for word in words[1:]:
        expanded = sorted(glob.glob(word, root_dir=ROOT)) if any(c in word for c in "*?[") else []
        args.extend(expanded or [word])
    result = dehlanote(*args)
    out = (result.stdout + result.stderr).decode("utf-8")
    assert "Traceback" not in out
    if not matches(example.expected, out.splitlines()):
        shown = "\n".join(example.expected)
        pytest.fail(f"{example.where}: `{example.command}` printed\n{out}\n--- the docs show ---\n{shown}")


def test_dots_stand_for_any_lines() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "b"], ["a", "b"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert matches(["x ═══", "y  "], ["x ══════════", "y"])


# ---- no internal source or machine path in user-facing text -------------------------------------

#: the brief's source documents ("seeds", "seed 004"), its file names (upper case: docs/rules.md is
#: ours) and the build machine's paths
FORBIDDEN = re.compile(r"(?i:\bseeds\b|\bseeds? '?0\d\d)|\b(RULES|NOTATION|STYLE|PERFORMANCE)\.md|/work/|/shared/")


def user_facing_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / ".pre-commit-hooks.yaml"]
    files += sorted((ROOT / "docs").rglob("*.md")) + sorted((ROOT / "docs").rglob("*.dpn"))
    files += sorted((ROOT / "samples").rglob("*"))
    package = ROOT / "dehlanote"
    files += [p for p in sorted(package.rglob("*"))
              if p.suffix in (".yaml", ".yml", ".json", ".lark", ".css", ".html", ".js", ".txt")]
    return [p for p in files if p.is_file()]


@pytest.mark.parametrize("path", user_facing_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_user_facing_file_names_no_internal_source(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    hits = [f"{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1) if FORBIDDEN.search(line)]
    assert not hits, f"{path.relative_to(ROOT)} names an internal source or path:\n" + "\n".join(hits)


def _commands() -> list[str]:
    """Every command of the command line, as its --help lists them."""
    out = dehlanote("--help").stdout.decode("utf-8")
    section = out.split("Commands", 1)[1]
    return re.findall(r"^\W*([a-z][a-z-]+)\s{2,}", section, re.MULTILINE)


def test_help_texts_and_rules_output_name_no_internal_source() -> None:
    commands = _commands()
    assert {"validate", "json", "fmt", "rules", "annotate", "replay"} <= set(commands)
    outputs = {"--help": dehlanote("--help")}
    outputs |= {f"{c} --help": dehlanote(c, "--help") for c in commands}
    outputs["rules"] = dehlanote("rules")
    profiles = ["standard", "pagat", "hukum"]
    outputs |= {f"rules {p}": dehlanote("rules", f"{p} trump=closed double-sar") for p in profiles}
    outputs |= {f"rules {p}": dehlanote("rules", p) for p in profiles}
    for what, result in outputs.items():
        text = (result.stdout + result.stderr).decode("utf-8")
        assert result.returncode == 0, f"dehlanote {what}: {text}"
        bad = [line for line in text.splitlines() if FORBIDDEN.search(line)]
        assert not bad, f"dehlanote {what} names an internal source: {bad}"
