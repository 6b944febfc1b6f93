"""A record saved as UTF-16 (Windows Notepad's "Unicode") or UTF-32 is said to be so, in one
line, with what to do: it was "not a text file (it holds NUL bytes: binary data)", which a
player who just saved a record cannot make sense of, and a short one a page of errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
WORKED = (ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8")


@pytest.mark.parametrize("encoding, name", [("utf-16", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-16-le", "UTF-16"),
                                            ("utf-32", "UTF-32")])
@pytest.mark.parametrize("text", [WORKED, '[Event "x"]\n'], ids=["record", "short"])
def test_a_record_in_utf16_or_utf32_is_told_apart_from_binary_data(tmp_path, encoding, name, text):
    path = tmp_path / "notepad.dpn"
    path.write_bytes(("\ufeff" + text if encoding == "utf-16-be" else text).encode(encoding))
    for command in ("validate", "json", "fmt"):
        result = subprocess.run([sys.executable, "-m", "dehlanote", command, str(path)], capture_output=True,
                                text=True, cwd=ROOT, env=ENV)
        assert result.returncode == 2
        assert result.stderr.strip().splitlines()[0].endswith(
            f"it is {name} text, not UTF-8: save it as UTF-8 (most editors offer the encoding under Save As)")


def test_binary_data_is_still_binary_data(tmp_path):
    path = tmp_path / "image.dpn"
    path.write_bytes(bytes(range(256)) * 8)
    result = subprocess.run([sys.executable, "-m", "dehlanote", "validate", str(path)], capture_output=True,
                            text=True, cwd=ROOT, env=ENV)
    assert result.returncode == 2 and "not a text file" in result.stderr
