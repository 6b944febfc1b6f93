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

ROOT = Path(__file__).resolve().parents[2]


def dehlanote(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the command line of this checkout (not the one installed on PATH)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["NO_COLOR"] = "1"
    return subprocess.run([sys.executable, "-m", "dehlanote", *args], check=False, cwd=ROOT, env=env,
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


# ---- docs/notation.md: every record shown is checked ---------------------------------------------

NOTATION = ROOT / "docs" / "notation.md"

@dataclass(frozen=True)
class Record:
    id: str
    where: str
    text: str
    errors: tuple[tuple[str, int, int], ...]   # (code, line, column), exactly these
    encoding: str
    games: int | None                          # how many games the record holds, when stated
    canonical: str | None                      # the canonical form shown after it


def _slug(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def notation_records() -> list[Record]:
    text = NOTATION.read_text(encoding="utf-8")
    headings = [(m.start(), _slug(m.group(1))) for m in re.finditer(r"^#+ (.*)$", text, re.MULTILINE)]
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    records: list[Record] = []
    counts: dict[str, int] = {}
    for block in blocks(NOTATION):
        words = block.info.split()
        if words[:1] != ["dpn"]:
            continue
        if words[1:] == ["canonical"]:
            last = records.pop()
            records.append(Record(last.id, last.where, last.text, last.errors, last.encoding, last.games,
                                  block.text))
            continue
        offset = line_starts[block.line - 1]
        heading = [slug for start, slug in headings if start < offset][-1]
        counts[heading] = counts.get(heading, 0) + 1
        errors: list[tuple[str, int, int]] = []
        encoding = "utf-8"
        games: int | None = None
        for word in words[1:]:
            key, _, value = word.partition("=")
            if key == "error":
                code, _, pos = value.partition("@")
                line, _, col = pos.partition(":")
                errors.append((code, int(line), int(col)))
            elif key == "encoding":
                encoding = value
            elif key == "games":
                games = int(value)
            else:
                raise AssertionError(f"{block.path}:{block.line}: unknown info {word!r}")
        records.append(Record(f"{heading}-{counts[heading]}", f"{block.path}:{block.line}", block.text,
                              tuple(errors), encoding, games, None))
    return records


RECORDS = notation_records()


@pytest.fixture(scope="module")
def validated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    """Every record of docs/notation.md checked by one run of `dehlanote validate --format json`."""
    folder = tmp_path_factory.mktemp("notation")
    paths = []
    for n, record in enumerate(RECORDS):
        path = folder / f"{n:02}-{record.id}.dpn"
        path.write_bytes(record.text.encode(record.encoding))
        paths.append(str(path))
    result = dehlanote("validate", "--format", "json", *paths)
    assert result.returncode in (0, 1), result.stderr.decode()
    files = json.loads(result.stdout)["files"]
    return {record.id: report for record, report in zip(RECORDS, files, strict=True)}


def test_notation_has_an_example_of_every_error_code() -> None:
    from dehlanote.errors import CODES
    shown = {code for r in RECORDS for code, _, _ in r.errors}
    assert set(CODES) <= shown | {"unsound-claim"}
    assert "unsound-claim" in shown
    assert len({r.id for r in RECORDS}) == len(RECORDS)


@pytest.mark.parametrize("record", RECORDS, ids=[r.id for r in RECORDS])
def test_notation_example_validates_as_shown(record: Record, validated: dict[str, dict[str, object]]) -> None:
    report = validated[record.id]
    found = [(e["code"], e["line"], e["column"]) for e in report["errors"]]  # type: ignore[index, attr-defined]
    assert found == list(record.errors), f"{record.where}: {report['errors']}"
    if not record.errors:   # a good record is read and replayed: at least one game with a deal
        assert report["games"] >= 1 and report["deals"] >= 1  # type: ignore[operator]
    if record.games is not None:
        assert report["games"] == record.games


@pytest.mark.parametrize("record", [r for r in RECORDS if r.canonical is not None], ids=lambda r: r.id)
def test_notation_canonical_example_is_what_fmt_writes(record: Record) -> None:
    result = dehlanote("fmt", "-", stdin=record.text.encode())
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode() == record.canonical


def _contains(document: object, excerpt: dict[str, object]) -> bool:
    if isinstance(document, dict):
        if all(document.get(k) == v for k, v in excerpt.items()):
            return True
        return any(_contains(v, excerpt) for v in document.values())
    if isinstance(document, list):
        return any(_contains(v, excerpt) for v in document)
    return False


def test_notation_json_excerpts_are_real_output() -> None:
    excerpts = [b for b in blocks(NOTATION) if b.info.startswith("json excerpt-of=")]
    assert excerpts
    for block in excerpts:
        source = block.info.split("=", 1)[1]
        document = json.loads(dehlanote("json", source).stdout)
        assert _contains(document, json.loads(block.text)), f"{block.path}:{block.line}"


def _schema_keys(node: object) -> set[str]:
    keys: set[str] = set()
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict):
            keys |= set(properties)
        for value in node.values():
            keys |= _schema_keys(value)
    elif isinstance(node, list):
        for value in node:
            keys |= _schema_keys(value)
    return keys


def test_notation_json_keys_are_in_the_schema() -> None:
    """Every key the JSON section names is a key of the shipped schema (the doc cannot drift)."""
    text = NOTATION.read_text(encoding="utf-8").split("## JSON", 1)[1]
    listing = next(b.text for b in blocks(NOTATION) if b.text.startswith("game:"))
    assert listing in text
    listing = "\n".join(line.split(";")[0] for line in listing.splitlines())
    words = set(re.findall(r"(?:^|[\s{,(\[])([a-z_]+)(?=[{\[,)]|\s*\(|\s*$|\n)", listing, re.MULTILINE))
    placeholders = {"seat", "side", "card", "name", "n", "null", "bool", "game", "deal", "trick", "result", "error"}
    schema = json.loads((ROOT / "dehlanote" / "output" / "dpn-json.schema.json").read_text(encoding="utf-8"))
    keys = _schema_keys(schema)
    named = words - placeholders
    assert {"tags", "next_dealer", "capture", "withdrawn", "finished", "claim"} <= named
    assert named - keys == set()


# ---- the docs hang together ----------------------------------------------------------------------

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file."""
    found = set()
    for heading in re.findall(r"^#+ (.*)$", path.read_text(encoding="utf-8"), re.MULTILINE):
        found.add(re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-"))
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_somewhere(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        assert path.exists(), f"{doc.relative_to(ROOT)}: link to {target}: no such file"
        if anchor and path.suffix == ".md":
            assert anchor in _anchors(path), f"{doc.relative_to(ROOT)}: link to {target}: no such heading"


def test_readme_records_are_valid(tmp_path: Path) -> None:
    records = [b for b in blocks(ROOT / "README.md") if b.info.split()[:1] == ["dpn"]]
    assert records
    for n, block in enumerate(records):
        (tmp_path / f"{n}.dpn").write_text(block.text, encoding="utf-8")
    result = dehlanote("validate", "--brief", *sorted(str(p) for p in tmp_path.glob("*.dpn")))
    assert result.returncode == 0, result.stdout.decode()


def test_readme_links_the_documentation() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in ("docs/notation.md", "docs/rules.md", "docs/commands.md", "docs/DECISIONS.md",
                "docs/performance.md", "docs/robustness.md"):
        assert f"]({doc})" in readme, doc


def test_readme_starts_with_the_two_set_up_commands() -> None:
    commands = [b.text.strip() for b in blocks(ROOT / "README.md")[:2]]
    assert commands[0].startswith("pip install . && dehlanote validate samples/*.dpn")
    assert commands[1] == "pip install -e '.[test]' && python3 -m pytest -n auto"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -q -e '.[test]'" in ci or "pip install -e '.[test]'" in ci
    # CI runs exactly the README's test command (its last line)
    last = [line for line in ci.splitlines() if line.strip() and not line.startswith("#")][-1]
    assert last == commands[1].split(" && ", 1)[1]


def test_what_is_where_names_real_paths(top_help: str) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## What is where", 1)[1].split("\n## ", 1)[0]
    paths = re.findall(r"`((?:dehlanote|samples|tests)/[^`]*)`", table)
    assert "dehlanote/commands/<command>.py" in paths and "dehlanote/rules/profiles/options.yaml" in paths
    for path in paths:
        pattern = re.sub(r"<[^>]+>|NAME", "*", path)
        assert glob.glob(pattern, root_dir=ROOT), path
    for command in _commands(top_help):   # every command's module is where the table says
        assert glob.glob(f"dehlanote/commands/{command}*.py", root_dir=ROOT), command


def test_rules_doc_covers_every_profile_and_option() -> None:
    from dehlanote.rules.profile import registry
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    reg = registry()
    for name in reg.profiles:
        assert f"## `{name}`" in text, name
    for name in reg.options:
        assert re.search(rf"^### `{re.escape(name)}[=`]", text, re.MULTILINE), name
    for value in ("announce", "partner", "first-void", "first-void-five", "closed"):
        assert f"`{value}`" in text or f"`trump={value}`" in text, value


def test_rules_doc_samples_use_the_rules_they_are_listed_for() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text.split("## Samples", 1)[1]
    rows = re.findall(r"^\| `([^|]+)` \| (.+) \|$", table, re.MULTILINE)
    assert len(rows) >= 10
    for rules, samples in rows:
        for sample in re.findall(r"`(samples/[^`]+)`", samples):
            path = ROOT / sample
            assert path.exists(), sample
            tag = re.search(r'^\[Rules "([^"]*)"\]', path.read_text(encoding="utf-8"), re.MULTILINE)
            written = tag.group(1) if tag else "standard"
            options = [o.strip("`") for o in re.split(r"`, `", rules)]
            assert any(all(word in written.split() for word in o.split()) for o in options), (sample, written)


# ---- the pre-commit hooks, run by pre-commit itself ------------------------------------------------

HOOKS = ROOT / ".pre-commit-hooks.yaml"


def test_pre_commit_hooks_file_is_a_valid_manifest() -> None:
    clientlib = pytest.importorskip("pre_commit.clientlib")
    hooks = {hook["id"]: hook for hook in clientlib.load_manifest(str(HOOKS))}
    assert set(hooks) == {"dehlanote-validate", "dehlanote-fmt"}
    assert hooks["dehlanote-validate"]["entry"].split()[:2] == ["dehlanote", "validate"]
    assert hooks["dehlanote-fmt"]["entry"].split() == ["dehlanote", "fmt", "--check"]
    for hook in hooks.values():
        assert re.search(hook["files"], "club/2026/friday.dpn") and not re.search(hook["files"], "notes.txt")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def _pre_commit(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env |= {"PRE_COMMIT_HOME": str(home), "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "PRE_COMMIT_COLOR": "never"}
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_pre_commit_runs_the_hooks_on_dpn_files(tmp_path: Path) -> None:
    """The hooks as shipped, run by pre-commit in a club's repository: a good record passes,
    a record with errors fails validate, a valid record in a loose layout fails fmt.

    The hooks are used as a ``repo: local`` copy of .pre-commit-hooks.yaml with the entry
    pointed at this checkout's command line (``language: python`` would build a virtualenv
    from the network); ids, names, entries and file patterns are the shipped ones.
    """
    clientlib = pytest.importorskip("pre_commit.clientlib")
    yaml = pytest.importorskip("yaml")
    repo, home = tmp_path / "club", tmp_path / "pre-commit-home"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "club@example.org")
    _git(repo, "config", "user.name", "Club")
    hooks = []
    for hook in clientlib.load_manifest(str(HOOKS)):
        words = shlex.split(hook["entry"])
        assert words[0] == "dehlanote"
        hooks.append({"id": hook["id"], "name": hook["name"], "files": hook["files"],
                      "language": "unsupported" if "unsupported" in _languages() else "system",
                      "entry": shlex.join([sys.executable, "-m", "dehlanote", *words[1:]])})
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]}))
    (repo / "notes.txt").write_text("not a record {")
    good = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")
    (repo / "friday.dpn").write_text(good, encoding="utf-8")
    _git(repo, "add", ".")
    result = _pre_commit(repo, home)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"dehlanote validate\.+Passed", result.stdout)
    assert re.search(r"dehlanote fmt --check\.+Passed", result.stdout)

    bad = (ROOT / "docs" / "examples" / "bad.dpn").read_text(encoding="utf-8")
    (repo / "saturday.dpn").write_text(bad, encoding="utf-8")
    _git(repo, "add", ".")
    result = _pre_commit(repo, home)
    assert result.returncode == 1
    assert re.search(r"dehlanote validate\.+Failed", result.stdout)
    assert "saturday.dpn:8:4: wrong-leader" in result.stdout
    assert "friday.dpn:" not in result.stdout

    (repo / "saturday.dpn").unlink()
    loose = (ROOT / "samples" / "loose-style.dpn").read_text(encoding="utf-8")
    (repo / "kitchen.dpn").write_text(loose, encoding="utf-8")
    _git(repo, "add", "-A")
    result = _pre_commit(repo, home)
    assert result.returncode == 1
    assert re.search(r"dehlanote validate\.+Passed", result.stdout)
    assert re.search(r"dehlanote fmt --check\.+Failed", result.stdout)
    assert "would reformat kitchen.dpn" in result.stdout


def _languages() -> set[str]:
    from pre_commit.all_languages import languages
    return set(languages)


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


@pytest.fixture(scope="module")
def top_help() -> str:
    """``dehlanote --help`` as the console script writes it, run once for the tests that read it."""
    result = dehlanote("--help")
    assert result.returncode == 0, result.stderr.decode("utf-8")
    return (result.stdout + result.stderr).decode("utf-8")


def _commands(top_help: str) -> list[str]:
    """Every command of the command line, as its --help lists them."""
    section = top_help.split("Commands", 1)[1]
    return re.findall(r"^\W*([a-z][a-z-]+)\s{2,}", section, re.MULTILINE)


def test_help_texts_and_rules_output_name_no_internal_source(top_help: str) -> None:
    from typer.testing import CliRunner

    from dehlanote.cli import app

    def run(*args: str) -> tuple[int, str]:
        # in this process: what the console script writes (its --help, below, byte for byte)
        # in a tenth of the time of a fresh process a command line (25 of them took 5 s)
        result = CliRunner().invoke(app, list(args), env={"NO_COLOR": "1"}, prog_name="dehlanote")
        return result.exit_code, result.output

    commands = _commands(top_help)
    assert {"validate", "json", "fmt", "rules", "annotate", "replay"} <= set(commands)
    assert run("--help") == (0, top_help)
    outputs = {"--help": (0, top_help)}
    outputs |= {f"{c} --help": run(c, "--help") for c in commands}
    outputs["rules"] = run("rules")
    profiles = ["standard", "pagat", "hukum"]
    outputs |= {f"rules {p} trump=closed double-sar": run("rules", f"{p} trump=closed double-sar") for p in profiles}
    outputs |= {f"rules {p}": run("rules", p) for p in profiles}
    for what, (status, text) in outputs.items():
        assert status == 0, f"dehlanote {what}: {text}"
        bad = [line for line in text.splitlines() if FORBIDDEN.search(line)]
        assert not bad, f"dehlanote {what} names an internal source: {bad}"
