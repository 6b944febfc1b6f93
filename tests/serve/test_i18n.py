"""The pages' words: every message has an entry in every catalog; languages come from the catalogs."""

from __future__ import annotations

import re
import sys

from fnmatch import fnmatch
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="Python 3.11 reads pyproject.toml")
babel = pytest.importorskip("babel", reason="the catalogs are read with Babel (pip install -e '.[test]')")

from babel.messages.pofile import read_po  # noqa: E402

from dehlanote.i18n import catalog, choose, languages, translator  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import i18n_catalogs  # noqa: E402

CATALOGS = sorted((ROOT / "dehlanote" / "i18n").glob("*.po"))
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_the_pages_have_words_to_translate() -> None:
    found = i18n_catalogs.messages()
    # words of each kind of page: the phone page, the index, the replay page's script and its markup
    for message in ("Undo", "Start a table", "Story of the deal", "{seat} wins the trick", "ten",
                    "That seat still holds a card of the suit led, so it must play one."):
        assert message in found
    assert len(found) > 150


@pytest.mark.parametrize("po", CATALOGS, ids=[p.stem for p in CATALOGS])
def test_every_message_has_an_entry_in_every_catalog(po: Path) -> None:
    with open(po, "rb") as stream:
        cat = read_po(stream)
    entries = {m.id: m.string for m in cat if m.id}
    missing = [m for m in i18n_catalogs.messages() if not entries.get(m)]
    assert not missing, f"{po.name} has no entry for: {missing}"
    for message, text in entries.items():
        # a sentence keeps its blanks, so the numbers and names go where the language puts them
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(message)), message


#: a call that marks words, with a plain string literal (read as text, not by Babel)
MARKED = re.compile(r"""(?<![\w.])N?_\(\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*[,)]""")


def test_every_marked_literal_is_extracted() -> None:
    # Babel's Python extractor does not look inside an f-string: the review page's "Drill these
    # positions: what would you play here?", "No decision marked ? or ??." and " or " were marked
    # with _() there, never reached a catalog, and stayed English on the Hindi pages
    import ast
    found = i18n_catalogs.messages()
    missed = []
    for pattern, _method in i18n_catalogs.METHODS:
        for path in sorted(ROOT.glob(pattern.replace("**", "**/*") if "**" in pattern else pattern)):
            text = path.read_text(encoding="utf-8")
            if path.suffix == ".js":
                text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)     # the scripts' comments
            for m in MARKED.finditer(text):
                message = ast.literal_eval(m.group(1))
                if message not in found:
                    missed.append(f"{path.relative_to(ROOT)}: {message!r}")
    assert not missed, missed


def test_hindi_uses_the_players_words() -> None:
    _ = translator("hi")
    assert _("ten") == "दहला" and _("{n} kots") == "{n} कोट" and _("trump") == "हुकुम"
    assert [_(s) for s in ("spades", "hearts", "diamonds", "clubs")] == ["काली", "पान", "ईंट", "चिड़ी"]
    assert all("\u0900" <= ch <= "\u097f" for ch in _("Undo").replace(" ", ""))


def test_the_story_of_a_deal_in_hindi_and_unchanged_in_english(tmp_path: Path) -> None:
    """The replay page's story (the deal's heading, each trick's facts, the result) is told in the
    page's language; outside a page (annotate, replay) it stays English."""
    from dehlanote.i18n import speaking
    from dehlanote.output.html.data import game_data
    from dehlanote.output.notes import deal_result_text
    from dehlanote.replay import replay_game
    from dehlanote.syntax import parse_string
    facts = replay_game(parse_string((ROOT / "samples" / "worked-example.dpn").read_text(encoding="utf-8"))[0])
    english = game_data(facts)["deals"][0]
    with speaking("hi"):
        hindi = game_data(facts)["deals"][0]
    assert english["head"] == "Deal 1 · dealer D · trump diamonds, announced by A"
    assert hindi["head"] == "बाज़ी 1 · बाँटने वाला D · हुकुम ईंट, A ने बताया"
    assert english["result"][0] == "AC wins the deal with 3 tens (AC 3 BD 1)"
    assert hindi["result"][0] == "AC ने 3 दहलों से बाज़ी जीती (AC 3 BD 1)"
    assert hindi["tricks"][1]["s"][1] == ["sweep", "A ने 8 पत्ते समेटे (लगातार दो हाथ): 10H 10S"]
    assert deal_result_text(facts.deals[0], facts.rules)[0] == english["result"][0]   # after the block: English


def test_languages_are_the_catalogs_found() -> None:
    assert languages() == ("en",) + tuple(p.stem for p in CATALOGS)
    assert catalog("en") == {}
    assert choose("hi-IN,hi;q=0.9,en;q=0.8") == "hi"
    assert choose("en-GB,en;q=0.9,hi;q=0.8") == "en"
    assert choose("fr-FR,de;q=0.5") == "en" and choose(None) == "en" and choose("hi;q=0") == "en"


def test_a_language_is_added_without_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of the package's catalog folder with one more .po file: the new language is offered."""
    import dehlanote.i18n as i18n
    folder = tmp_path / "i18n"
    folder.mkdir()
    (folder / "hi.po").write_bytes(CATALOGS[0].read_bytes())
    (folder / "mr.po").write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
                                  'msgid "Undo"\nmsgstr "पूर्ववत करा"\n', encoding="utf-8")
    monkeypatch.setattr(i18n.resources, "files", lambda package: folder)
    i18n.catalog.cache_clear()
    try:
        assert "mr" in i18n.languages()
        assert i18n.translator("mr")("Undo") == "पूर्ववत करा"
        assert i18n.translator("mr")("Redo, never marked") == "Redo, never marked"
    finally:
        i18n.catalog.cache_clear()


def test_a_clean_install_ships_the_catalogs_and_templates() -> None:
    """What the package data globs of pyproject.toml take: every catalog, template and script of the pages."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["dehlanote"]
    package = ROOT / "dehlanote"
    needed = [p for p in (package / "i18n").iterdir() if p.suffix in (".po", ".pot")]
    needed += list((package / "serve" / "templates").iterdir())
    needed += list((package / "output" / "html" / "templates").iterdir())
    for path in needed:
        rel = path.relative_to(package).as_posix()
        assert any(fnmatch(rel, g) for g in globs), rel


def test_html_lang(tmp_path: Path) -> None:
    import subprocess
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    out = tmp_path / "page.html"
    sample = str(ROOT / "samples" / "worked-example.dpn")
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "html", sample, "-o", str(out), "--lang", "hi"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    page = out.read_text(encoding="utf-8")
    assert '<html lang="hi">' in page and "बाज़ी 1 · बाँटने वाला D" in page and ">बाज़ी की कहानी<" in page
    proc = subprocess.run([sys.executable, "-m", "dehlanote", "html", sample, "-o", str(out), "--lang", "xx"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 2 and "no catalog for the language 'xx'" in proc.stderr
    assert "Traceback" not in proc.stderr
