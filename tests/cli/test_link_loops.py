"""A loop of symbolic links (``ln -s a b; ln -s b a``) named to a command is said as a loop of
links, the same way by every command that takes a path: ``db query`` called it "no such file"
(and offered to make it), the others gave the system's "too many levels of symbolic links"."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote.cli import app

ROOT = Path(__file__).resolve().parents[2]
MATCH = str(ROOT / "samples" / "match.dpn")
LOOP = "it is a loop of symbolic links (a link that leads back to itself, never to a file)"


def run(cwd: Path, *args: str):
    import contextlib
    with contextlib.chdir(cwd):
        result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def loop(tmp_path: Path) -> Path:
    (tmp_path / "b").symlink_to("a")
    (tmp_path / "a").symlink_to("b")
    return tmp_path


@pytest.mark.parametrize("args", [
    ("validate", "a"), ("json", "a"), ("stats", "a"), ("html", "a", "-o", "page.html"), ("review", "a"),
    ("fmt", "a"), ("json", MATCH, "-o", "a"), ("html", MATCH, "-o", "a"), ("html", MATCH, "--site", "-o", "a"),
], ids=lambda a: " ".join(Path(x).name for x in a))
def test_a_loop_of_links_is_said_as_such(loop: Path, args: tuple[str, ...]) -> None:
    result = run(loop, *args)
    assert result.exit_code == 2, result.stderr
    assert f"a: {LOOP}" in result.stderr
    assert "too many levels" not in result.stderr


def test_db_query_on_a_loop_of_links_is_no_missing_database(loop: Path) -> None:
    pytest.importorskip("duckdb")
    result = run(loop, "db", "query", "a", "select 1")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"dehlanote: unreadable: cannot read a: {LOOP}"


@pytest.mark.parametrize("args", [("db", "build", "a", "-o", "club.duckdb"), ("db", "build", MATCH, "-o", "a")],
                         ids=["input", "output"])
def test_db_build_on_a_loop_of_links(loop: Path, args: tuple[str, ...]) -> None:
    pytest.importorskip("duckdb")
    result = run(loop, *args)
    assert result.exit_code == 2
    assert f"a: {LOOP}" in result.stderr
    assert "cannot write beside it" not in result.stderr      # (its folder is writable: no folder fault)


def test_a_site_into_a_link_to_nothing_says_so(tmp_path: Path) -> None:
    # "cannot write site: file exists", of a name where no file was
    (tmp_path / "site").symlink_to("gone")
    result = run(tmp_path, "html", MATCH, "--site", "-o", "site")
    assert result.exit_code == 2
    assert "cannot write site: it is a link to gone, which does not exist" in result.stderr
    assert "file exists" not in result.stderr


def test_serve_on_a_loop_of_links_says_so(loop: Path) -> None:
    pytest.importorskip("starlette")
    result = run(loop, "serve", "a")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"dehlanote: cannot serve a: {LOOP}"


FOLDER_LOOP = "the folder a is a loop of symbolic links (a link that leads back to itself)"


@pytest.mark.parametrize("args, said", [
    (("html", MATCH, "-o", "a/x.html"), f"dehlanote: cannot write a/x.html: {FOLDER_LOOP}"),
    (("db", "build", MATCH, "-o", "a/x.duckdb"), f"dehlanote: no-folder: cannot write a/x.duckdb: {FOLDER_LOOP}"),
    (("record", "a/x.dpn", "--names", "a,b,c,d", "--dealer", "D"), f"dehlanote: cannot record into a/x.dpn: "
                                                                     f"{FOLDER_LOOP}"),
    # the writer's own words ("a/x.json: it is a loop ..." named the file, not the folder)
    (("json", MATCH, "-o", "a/x.json"), f"dehlanote: cannot write a/x.json: {FOLDER_LOOP}"),
    (("generate", "-n", "1", "-o", "a/x.dpn"), f"dehlanote: cannot write a/x.dpn: {FOLDER_LOOP}"),
    (("html", MATCH, "--site", "-o", "a/site"), f"dehlanote: cannot write a/site: {FOLDER_LOOP}"),
], ids=["html", "db build", "record", "json", "generate", "html site"])
def test_a_folder_that_is_a_loop_of_links_is_no_missing_folder(loop: Path, args: tuple[str, ...], said: str) -> None:
    # "the folder a does not exist", of a folder named by a loop of links
    if args[0] == "db":
        pytest.importorskip("duckdb")
    result = run(loop, *args)
    assert result.exit_code == 2
    assert result.stderr.strip() == said


def test_a_site_never_begun_is_not_said_to_be_incomplete(loop: Path) -> None:
    # "-o a", a a loop of links: "... (the site is not complete)" of a site never started
    result = run(loop, "html", MATCH, "--site", "-o", "a")
    assert result.exit_code == 2 and result.stderr.strip() == f"dehlanote: cannot write a: {LOOP}"
    (loop / "s").mkdir()
    (loop / "s" / "games").symlink_to(loop)          # a link planted as the games folder
    result = run(loop, "html", MATCH, "--site", "-o", "s")
    assert result.exit_code == 2 and "not complete" not in result.stderr and "s/games" in result.stderr
    (loop / "t" / "games" / "match.html").mkdir(parents=True)    # a page refused once the site is begun
    result = run(loop, "html", MATCH, "--site", "-o", "t")
    assert result.exit_code == 2 and result.stderr.strip().endswith("(the site is not complete)"), result.stderr


def test_a_site_named_on_a_fifo_or_a_device_says_what_it_is(tmp_path: Path) -> None:
    # "ff is a file: a site needs a folder" of a FIFO; review --site /dev/null: "it is a file"
    os.mkfifo(tmp_path / "ff")
    result = run(tmp_path, "html", MATCH, "--site", "-o", "ff")
    assert result.exit_code == 2 and result.stderr.strip() == \
        "dehlanote: ff is a FIFO: a site needs a folder (it is made if missing)"
    (tmp_path / "f.txt").write_text("x")
    result = run(tmp_path, "html", MATCH, "--site", "-o", "f.txt")
    assert result.exit_code == 2 and "f.txt is a file: a site needs a folder" in result.stderr
    result = run(tmp_path, "review", MATCH, "--site", "/dev/null")
    assert result.exit_code == 2 and "--site /dev/null: it is a character device: give the folder" in result.stderr


@pytest.mark.parametrize("args, said", [
    (("json", MATCH, "-o", "f.txt/x.json"), "dehlanote: cannot write f.txt/x.json: the folder f.txt is a file, "
                                             "not a folder"),
    (("json", MATCH, "-o", "f.txt/s/x.json"), "dehlanote: cannot write f.txt/s/x.json: the folder f.txt/s cannot "
                                               "be: f.txt is a file, not a folder"),
    (("html", MATCH, "--site", "-o", "f.txt/s"), "dehlanote: cannot write f.txt/s: the folder f.txt is a file, "
                                                  "not a folder"),
    (("record", "f.txt/x.dpn", "--names", "a,b,c,d", "--dealer", "D"), "dehlanote: cannot record into f.txt/x.dpn: "
                                                                         "the folder f.txt is a file, not a folder"),
], ids=["json", "json deeper", "html site", "record"])
def test_a_file_named_as_a_folder_is_said_to_be_a_file(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    # "not a directory" (json, html, generate), and record's "the folder f.txt does not exist"
    (tmp_path / "f.txt").write_text("x")
    result = run(tmp_path, *args)
    assert result.exit_code == 2 and result.stderr.strip() == said


@pytest.mark.parametrize("args", [("json", MATCH), ("generate", "-n", "1"), ("image", MATCH, "-d", "1")],
                         ids=["json", "generate", "image"])
def test_an_output_named_as_a_folder_that_does_not_exist_is_refused(tmp_path: Path, args: tuple[str, ...]) -> None:
    # -o out/ wrote a file named out (the final / was forgotten)
    result = run(tmp_path, *args, "-o", "out/")
    assert result.exit_code == 2 and not (tmp_path / "out").exists()
    assert result.stderr.strip() == ("dehlanote: --output out/: a name that ends in / is a folder's, and the "
                                     "folder out does not exist: give the file's name")


def test_html_to_a_folders_name_writes_in_that_folder_or_says_it_is_missing(tmp_path: Path) -> None:
    import subprocess
    import sys
    result = run(tmp_path, "html", MATCH, "-o", "out/")
    assert result.exit_code == 2 and not (tmp_path / "out").exists()
    assert result.stderr.strip() == "dehlanote: cannot write out/match.html: the folder out does not exist"
    (tmp_path / "out").mkdir()
    assert run(tmp_path, "html", MATCH, "-o", "out/").exit_code == 0 and (tmp_path / "out" / "match.html").is_file()
    assert run(tmp_path, "html", MATCH, "--site", "-o", "site/").exit_code == 0      # a site's folder is made
    viewer = run(tmp_path, "html", "--viewer", "-o", "view/")                          # (a file named view)
    assert viewer.exit_code == 2 and not (tmp_path / "view").exists()
    assert viewer.stderr.strip() == "dehlanote: cannot write view/viewer.html: the folder view does not exist"
    assert (tmp_path / "site" / "index.html").is_file()
    # the console script's own route for json (without Typer) says the same
    direct = subprocess.run([sys.executable, "-m", "dehlanote", "json", MATCH, "-o", "new/"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert direct.returncode == 2 and "--output new/: a name that ends in / is a folder's" in direct.stderr
    assert not (tmp_path / "new").exists()


def test_a_folder_named_by_a_link_that_leads_nowhere_is_said_to_be_one(tmp_path: Path) -> None:
    # "the folder dl does not exist", of a link to a place that does not exist
    (tmp_path / "dl").symlink_to("gone/deeper")
    said = "the folder dl is a link to gone/deeper, which does not exist"
    for args, head in ((("json", MATCH, "-o", "dl/x.json"), "cannot write dl/x.json"),
                       (("html", MATCH, "--site", "-o", "dl/s"), "cannot write dl/s"),
                       (("record", "dl/x.dpn", "--names", "a,b,c,d"), "cannot record into dl/x.dpn")):
        result = run(tmp_path, *args)
        assert result.exit_code == 2 and result.stderr.strip() == f"dehlanote: {head}: {said}", result.stderr


def test_serve_on_what_is_no_folder_says_what_it_is(tmp_path: Path) -> None:
    # "f.txt is not a folder ... (it must exist)" of a file, as of a missing folder; "not a
    # directory" of a folder below a file; a link leading nowhere said not to be a folder
    pytest.importorskip("starlette")
    (tmp_path / "f.txt").write_text("x")
    (tmp_path / "dl").symlink_to("gone")
    night = "give the folder of the night's records"
    for name, said in (("f.txt", f"f.txt is a file, not a folder: {night}"),
                       ("f.txt/x", "cannot serve f.txt/x: the folder cannot be: f.txt is a file, not a folder: "
                                   f"{night}"),
                       ("dl", f"cannot serve dl: the folder is a link to gone, which does not exist: {night}"),
                       ("none", f"cannot serve none: the folder does not exist: {night}")):
        result = run(tmp_path, "serve", name)
        assert result.exit_code == 2 and result.stderr.strip().startswith(f"dehlanote: {said}"), result.stderr


def test_a_file_read_through_a_folder_that_is_a_file_or_a_loop_names_the_folder(loop: Path) -> None:
    # "cannot read f.txt/x.dpn: not a directory" and "cannot read a/x.dpn: it is a loop ..." (of
    # the folder, said as of the file)
    (loop / "f.txt").write_text("x")
    for args, said in ((("validate", "f.txt/x.dpn"), "cannot read f.txt/x.dpn: the folder f.txt is a file, "
                                                      "not a folder"),
                       (("validate", "a/x.dpn"), f"cannot read a/x.dpn: {FOLDER_LOOP}"),
                       (("json", MATCH, "--rules", "a/x.yaml"), "cannot read the rules file a/x.yaml: "
                                                                 f"{FOLDER_LOOP}")):
        result = run(loop, *args)
        assert result.exit_code == 2 and f"dehlanote: {said}\n" in result.stderr, result.stderr


def test_a_file_read_by_a_name_ending_in_a_slash_is_refused(tmp_path: Path) -> None:
    # db query x.duckdb/ and --rules r.yaml/ read the files x.duckdb and r.yaml (the final /
    # was forgotten), where validate x.dpn/ says the folder x.dpn is a file
    assert run(tmp_path, "db", "build", MATCH, "-o", "x.duckdb").exit_code == 0
    (tmp_path / "r.yaml").write_text((ROOT / "dehlanote" / "rules" / "profiles" / "pagat.yaml").read_text())
    for args, said in [
        (("db", "query", "x.duckdb/", "select 1"), "the database x.duckdb/: a name that ends in / is a folder's, "
                                                   "and the folder x.duckdb is a file, not a folder"),
        (("db", "query", "none.duckdb/", "select 1"), "the database none.duckdb/: a name that ends in / is a "
                                                      "folder's, and the folder none.duckdb does not exist"),
        (("validate", "--rules", "r.yaml/", MATCH), "the rules file r.yaml/: a name that ends in / is a folder's, "
                                                    "and the folder r.yaml is a file, not a folder"),
        (("serve", "--rules-file", "r.yaml/", "."), "the rules file r.yaml/: a name that ends in / is a folder's"),
        (("record", "--rules", "r.yaml/", "x.dpn"), "the rules file r.yaml/: a name that ends in / is a folder's"),
    ]:
        result = run(tmp_path, *args)
        assert result.exit_code == 2 and result.stderr.startswith(f"dehlanote: {said}"), (args, result.stderr)
    assert not (tmp_path / "x.dpn").exists()
    (tmp_path / "d.duckdb").mkdir()          # a folder's name that is one: said to be a folder
    result = run(tmp_path, "db", "query", "d.duckdb/", "select 1")
    assert result.exit_code == 2 and "it is a directory" in result.stderr
