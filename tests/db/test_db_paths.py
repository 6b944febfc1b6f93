"""``db build`` reads the very file named: ``link/../a.dpn``, after a symbolic link to a folder,
is the ``a.dpn`` beside the folder the link points at, not the ``a.dpn`` of the working folder
(the path was normalised as text, ``..`` taken out, and the build read another file than the
one validate and stats read under the same name)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from db_helpers import ROOT, run  # noqa: E402

from dehlanote.db.ratings import file_key  # noqa: E402


def test_a_path_through_a_link_and_up_is_the_file_it_names(tmp_path: Path) -> None:
    far = tmp_path / "far"
    (far / "deep").mkdir(parents=True)
    (far / "x.dpn").write_text((ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8"),
                               encoding="utf-8")                                     # 1 deal
    (tmp_path / "x.dpn").write_text((ROOT / "samples" / "match.dpn").read_text(encoding="utf-8"),
                                    encoding="utf-8")                                # 7 deals
    (tmp_path / "lnk").symlink_to("far/deep")
    code, _, err = run("db", "build", "lnk/../x.dpn", "-o", "club.duckdb", cwd=tmp_path)
    assert code == 0, err
    code, out, err = run("db", "query", "club.duckdb", "select path, deals from files", "--format", "json",
                         cwd=tmp_path)
    assert code == 0, err
    assert json.loads(out) == [{"path": "lnk/../x.dpn", "deals": 1}]
    code, out, _ = run("stats", "lnk/../x.dpn", "--format", "json", cwd=tmp_path)
    assert json.loads(out)["deals"] == 1


@pytest.mark.parametrize("given, key", [("./a.dpn", "a.dpn"), ("a//b/./c.dpn", "a/b/c.dpn"),
                                        ("a/../b.dpn", "a/../b.dpn"), ("/x/./y.dpn", "/x/y.dpn"), ("a.dpn", "a.dpn")])
def test_a_files_key_takes_out_only_what_cannot_change_the_file(given: str, key: str) -> None:
    assert file_key(given) == key
