"""Extract the pages' messages and bring every catalog up to date (run after changing a page's words).

    python3 tools/i18n_catalogs.py          # writes dehlanote/i18n/messages.pot, merges it into each *.po

The same extraction as ``pybabel extract -F babel.cfg -k N_``: Python files with ``_()`` and
``N_()``, the pages' scripts with ``_()``. A new message lands in each catalog with an empty
translation (``tests/serve/test_i18n.py`` then fails until it is translated); a message no
page uses any more is dropped. Needs Babel (``pip install 'dehlanote[serve]'``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "dehlanote" / "i18n"


def _methods() -> list[tuple[str, str]]:
    """Where the pages' words are: babel.cfg's list (the one list, that ``pybabel extract -F`` reads too)."""
    try:
        from babel.messages.frontend import parse_mapping_cfg as parse
    except ImportError:         # Babel before 2.14
        from babel.messages.frontend import parse_mapping as parse
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        method_map, _options = parse(cfg)
    return list(method_map)


#: (file pattern, extractor) for each place that holds the pages' words
METHODS = _methods()
KEYWORDS = {"_": None, "N_": None}


def messages() -> dict[str, list[tuple[str, int]]]:
    """Every message of the pages, with where it is used."""
    found: dict[str, list[tuple[str, int]]] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(ROOT), METHODS, keywords=KEYWORDS, comment_tags=()):
        if isinstance(message, str) and message:
            found.setdefault(message, []).append((filename, lineno))
    return found


def main() -> int:
    found = messages()
    template = Catalog(project="dehlanote", charset="utf-8")
    for message, where in found.items():
        template.add(message, locations=where)
    with open(I18N / "messages.pot", "wb") as out:
        write_po(out, template, width=100, omit_header=False)
    for po in sorted(I18N.glob("*.po")):
        with open(po, "rb") as stream:
            cat = read_po(stream)
        cat.update(template, no_fuzzy_matching=True)
        with open(po, "wb") as out:
            write_po(out, cat, width=100, ignore_obsolete=True)
        missing = [m.id for m in cat if m.id and not m.string]
        print(f"{po.name}: {len(found)} messages, {len(missing)} without a translation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
