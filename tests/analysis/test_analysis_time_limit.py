"""``--time-limit`` on the commands that show the analysis (annotate, replay, html), as solve
and review have it: the CPU seconds a deal, 0 for none; the later tricks are solved first, so
a deal stopped by the limit still shows them. Before, these three gave every deal a fixed 60 CPU
seconds, and a user could neither wait longer nor cut a slow deal short."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote.cli import app

ROOT = Path(__file__).resolve().parents[2]
#: deal 1 is judged whole in about 20 CPU s double dummy; deal 2 in well under a second
LOOSE = str(ROOT / "samples" / "loose-style.dpn")
WORKED = str(ROOT / "samples" / "worked-example.dpn")


def words(text: str) -> str:
    """The words of a message, out of Rich's error box (its lines and borders)."""
    return " ".join(text.replace("\u2502", " ").split())


def run(*args: str):
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_annotate_stops_a_slow_deal_at_the_limit_and_keeps_its_later_tricks() -> None:
    res = run("annotate", "--dd", "--time-limit", "0.5", LOOSE)
    assert res.exit_code == 0, res.output
    first = re.search(r"note: deal 1 analysis: not solved in time; tricks (\d+)-13 analysed", res.stdout)
    assert first is not None, res.stdout
    assert 1 < int(first[1]) <= 13
    # the quick deal is solved whole within the same limit
    assert "note: deal 2 analysis: AC 3\u20131 BD under best play from the start" in res.stdout


def test_annotate_without_a_limit_solves_a_deal_the_default_limit_would_let_through_too() -> None:
    # 0 is no limit: the worked example whole, as with the default 60 s
    unlimited = run("annotate", "--dd", "--time-limit", "0", WORKED)
    default = run("annotate", "--analyse", "--dd", WORKED)
    assert unlimited.exit_code == default.exit_code == 0
    assert "under best play from the start" in unlimited.stdout
    assert unlimited.stdout == default.stdout


def test_a_time_limit_alone_asks_for_the_analysis() -> None:
    # as --dd, --worlds and --seed do: it speaks of the analysis (here single dummy, the default,
    # stopped by the limit after the later tricks)
    assert "analysis" not in run("annotate", WORKED).stdout
    assert "note: deal 1 analysis:" in run("annotate", "--time-limit", "1", WORKED).stdout
    assert "best play:" not in run("replay", "--plain", WORKED).stdout
    assert "best play:" in run("replay", "--plain", "--time-limit", "1", WORKED).stdout


def test_replay_stops_a_slow_deal_at_the_limit_and_says_from_where_it_is_analysed() -> None:
    res = run("replay", "--plain", "--dd", "--time-limit", "0.5", LOOSE)
    assert res.exit_code == 0, res.output
    found = re.search(r"analysis: analysed from trick (\d+): earlier tricks not solved in time", res.stdout)
    assert found is not None and int(found[1]) > 1, res.stdout


def test_html_stops_a_slow_deal_at_the_limit(tmp_path: Path) -> None:
    page = tmp_path / "loose.html"
    res = run("html", "--dd", "--time-limit", "0.5", LOOSE, "-o", str(page))
    assert res.exit_code == 0, res.output
    text = page.read_text(encoding="utf-8")
    assert "earlier tricks not solved in time" in text


@pytest.mark.parametrize("command", [["annotate", WORKED], ["replay", "--plain", WORKED],
                                     ["html", WORKED, "-o", "{tmp}/p.html"]], ids=lambda c: c[0])
@pytest.mark.parametrize("value,says", [("nan", "is not a number of seconds"),
                                        ("-1", "a time limit is 0 seconds or more"),
                                        ("soon", "is not a number of seconds")])
def test_a_time_limit_that_is_not_seconds_is_refused(tmp_path: Path, command: list[str], value: str,
                                                     says: str) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    res = run(*args[:1], "--time-limit", value, *args[1:])
    assert res.exit_code == 2
    assert says in words(res.output)
    assert not (tmp_path / "p.html").exists()


def test_the_viewer_page_refuses_a_time_limit(tmp_path: Path) -> None:
    out = tmp_path / "viewer.html"
    res = run("html", "--viewer", "--time-limit", "5", "-o", str(out))
    assert res.exit_code == 2
    assert "--time-limit does not apply to" in words(res.output)
    assert not out.exists()
