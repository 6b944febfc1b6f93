"""Each rule parameter is declared once (``dehlanote.rules.profile.PARAMS``, from the fields of
``Rules``), and the profile checks, ``dehlanote rules NAME``, the JSON (its ``rules.params``
and their schema), the docs table and the oracle's options all come from that declaration;
the seat count and the sides come from the resolved rules, never from an option's name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dehlanote.cli import app
from dehlanote.errors import DpnError
from dehlanote.output.jsonout import game_from_json
from dehlanote.replay import replay_game
from dehlanote.rules.profile import PARAMS, Registry, Rules, default_registry, parameters_table
from dehlanote.syntax import parse_string, write_game

ROOT = Path(__file__).resolve().parents[2]
SIX = ROOT / "samples" / "standard-six-player.dpn"

CLUB = """name: club
base: standard
description: "Six players under a club's own name."
params:
  seats: 6
  decks: 3
"""


def test_the_docs_table_is_the_declarations():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    block = re.search(r"^\| parameter \|.*?(?=^$)", text, re.M | re.S)
    assert block is not None, "docs/rules.md has no parameters table"
    assert block.group(0) == parameters_table()
    names = re.findall(r"^\| `(\w+)` \|", block.group(0), re.M)
    assert names == list(PARAMS) == [n for n in Rules.__dataclass_fields__ if n in PARAMS]


def test_the_docs_profile_example_loads():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text[text.index("## Parameters"):text.index("## Options")]
    yaml_text = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    reg = default_registry()
    (club,) = reg.load_text(yaml_text, "docs")
    assert (club.seats, club.decks, club.streak, club.sides) == (6, 3, 5, ("ACE", "BDF"))


@pytest.mark.parametrize("name", list(PARAMS))
def test_a_profile_file_is_checked_by_the_declaration(name):
    """A value outside the declared ones is refused, naming the declared values; every
    declared value is accepted (where the deck can be dealt)."""
    param = PARAMS[name]
    bad = "nonsense" if param.kind is not str else "nonsense-value"
    if param.kind is str:
        bad_yaml = f"name: x\nparams:\n  {name}: {bad}\n"
    elif param.kind is bool:
        bad_yaml = f"name: x\nparams:\n  {name}: 3\n"
    else:
        bad_yaml = f"name: x\nparams:\n  {name}: {max(param.allowed) + 1}\n"
    with pytest.raises(DpnError) as err:
        Registry().load_text(bad_yaml, "club.yaml")
    assert err.value.code == "unknown-rules" and name in err.value.message
    if param.kind is not bool:
        assert param.allowed_text() in err.value.message
    for value in (param.allowed if not isinstance(param.allowed, range) else (param.allowed[0], param.allowed[-1])):
        extra = "\n  decks: 3" if name == "seats" and value == 6 else ""
        if name == "decks" and 52 * value % 4:
            continue
        text = json.dumps(value) if not isinstance(value, str) else value
        (rules,) = Registry().load_text(f"name: x\nparams:\n  {name}: {text}{extra}\n", "club.yaml")
        assert getattr(rules, name) == value


def test_two_options_setting_one_parameter_are_named_by_its_declared_words():
    reg = default_registry()
    with pytest.raises(DpnError) as err:
        reg.resolve("standard coat streak=5")
    assert PARAMS["streak"].words in err.value.message


def test_the_schema_declares_every_parameter_as_the_package_does():
    schema = json.loads((ROOT / "dehlanote" / "output" / "dpn-json.schema.json").read_text(encoding="utf-8"))
    found = []

    def walk(node):
        if isinstance(node, dict):
            if "params" in node.get("properties", {}) and "profile" in node.get("properties", {}):
                found.append(node["properties"]["params"]["properties"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    assert len(found) == 1
    declared = found[0]
    assert list(declared) == list(PARAMS)
    for name, param in PARAMS.items():
        spec = declared[name]
        if isinstance(param.allowed, range):
            assert (spec["minimum"], spec["maximum"]) == (param.allowed[0], param.allowed[-1])
        elif param.kind is not bool:
            assert spec["enum"] == list(param.allowed)


def _club(tmp_path: Path) -> tuple[Path, Path]:
    profile = tmp_path / "club.yaml"
    profile.write_text(CLUB, encoding="utf-8")
    record = tmp_path / "club.dpn"
    text = SIX.read_text(encoding="utf-8")
    assert '[Rules "standard six-player"]' in text
    record.write_text(text.replace('[Rules "standard six-player"]', '[Rules "club"]'), encoding="utf-8")
    return profile, record


def test_json_carries_the_resolved_parameters(tmp_path):
    profile, record = _club(tmp_path)
    result = CliRunner().invoke(app, ["json", "--rules", str(profile), str(record)])
    assert result.exit_code == 0, result.output
    game = json.loads(result.stdout)["games"][0]
    assert game["rules"]["profile"] == "club" and game["rules"]["options"] == {}
    assert game["rules"]["params"] == {name: getattr(default_registry().profiles["standard"], name)
                                       for name in PARAMS} | {"seats": 6, "decks": 3}
    assert set(game["players"]) == set("ABCDEF")


def test_json_of_a_six_player_yaml_profile_comes_back_as_valid_dpn(tmp_path):
    """Regression: the way back took the seat count from the option *name* six-player, so
    a profile with ``seats: 6`` gave a ``tens`` line without its sides (invalid DPN)."""
    profile, record = _club(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["json", "--rules", str(profile), str(record)])
    assert result.exit_code == 0, result.output
    back = write_game(game_from_json(json.loads(result.stdout)["games"][0]))
    assert re.search(r"^tens ACE \d+ BDF \d+\b", back, re.M), back[:2000]
    assert not re.search(r"^tens *(\{|$)", back, re.M)
    again = tmp_path / "back.dpn"
    again.write_text(back, encoding="utf-8")
    checked = runner.invoke(app, ["validate", "--rules", str(profile), str(again)])
    assert checked.exit_code == 0, checked.output
    # and it is the record itself: the same canonical text as fmt writes
    canonical = runner.invoke(app, ["fmt", "--rules", str(profile), str(record)])
    assert canonical.exit_code == 0, canonical.output
    assert back == canonical.stdout


def test_old_json_without_parameters_takes_the_sides_from_its_tens(tmp_path):
    profile, record = _club(tmp_path)
    reg = default_registry()
    reg.load_path(profile)
    from dehlanote.output.jsonout import game_json

    doc = game_json(replay_game(parse_string(record.read_text(encoding="utf-8"))[0], reg))
    del doc["rules"]["params"]
    back = write_game(game_from_json(doc))
    assert not replay_game(parse_string(back)[0], reg).errors


@pytest.mark.parametrize("written, said", [
    ("1000000", "not 1000000"), ("999999999", "not 999999999"), ("0001001", "not 1001"),
    ("9" * 5000, "not " + "9" * 20 + "... (5000 digits)")])
def test_a_whole_number_past_its_range_is_said_to_be_out_of_range(written, said):
    # seven digits or more were said not to be a whole number ("kots needs a whole number, not
    # "1000000"") where six say the range
    with pytest.raises(DpnError) as err:
        default_registry().resolve(f"pagat kots={written}")
    assert err.value.code == "unknown-rules"
    assert err.value.message == f"kots: kots must be from 0 to 1000, {said}", err.value.message
    assert default_registry().resolve("pagat kots=0000000000003").kots == 3


def test_a_rules_option_that_is_no_whole_number_is_still_said_to_be_none():
    for written in ("1e6", "-3", "3.0", "\u00b2", "x"):
        with pytest.raises(DpnError) as err:
            default_registry().resolve(f"pagat kots={written}")
        assert "kots needs a whole number" in err.value.message, (written, err.value.message)


@pytest.mark.parametrize("name", ["standard", "Pagat", "HUKUM"])
def test_a_profile_file_cannot_take_the_name_of_a_known_profile(tmp_path, name):
    # a club's file "name: standard" silently replaced the package's standard (streak 3 where a
    # game with no Rules tag plays 7); profile names are the same in any case
    club = tmp_path / "club.yaml"
    club.write_text(f"name: {name}\nbase: standard\nparams:\n  streak: 3\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["rules", "--rules", str(club), "standard"])
    assert result.exit_code == 2
    known = name.lower()
    assert f'profile {name}: a profile named "{known}" is known already: give yours a name of its own ' \
           f"(with base: {known} to start from its rules)" in " ".join(result.stderr.split())
    club.write_text("name: club\nbase: standard\nparams:\n  streak: 3\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["rules", "--rules", str(club), "club"])
    assert result.exit_code == 0 and default_registry().resolve("standard").streak == 7
    twice = "profiles:\n  - name: club\n  - name: CLUB\n"
    with pytest.raises(DpnError, match='a profile named "club" is known already'):
        Registry().load_text(twice, "two.yaml")
