"""The words of the pages (``serve`` and the ``html`` replay) in the reader's language.

The message catalogs are gettext ``.po`` files beside this module, one a language
(``hi.po`` for Hindi); the message ids are the English words themselves, so English needs
no catalog. A catalog is read at run time with Babel's ``.po`` reader (no compiled ``.mo``
file to build or ship, so a plain ``pip install .`` or an editable install carries every
language), and adding a language is adding its ``.po`` file: :func:`languages` lists the
files found. Strings are marked in Python with ``_()`` / ``N_()`` and in the pages' scripts
with ``_()``, so ``pybabel extract`` finds them all (``tests/serve/test_i18n.py`` checks
that every one has an entry in every catalog).

Babel is needed for a language other than English only (the ``serve`` extra brings it);
without it :func:`translator` raises :class:`LanguageUnavailable` with the install hint.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from typing import Callable, Iterator, Optional

__all__ = ["DEFAULT", "LanguageUnavailable", "N_", "catalog", "choose", "languages", "speaking", "speaking_words",
           "translator"]

#: the language of the message ids
DEFAULT = "en"

_LANG = re.compile(r"^[a-z]{2,3}(?:_[A-Z]{2})?$")


class LanguageUnavailable(Exception):
    """A language that cannot be shown: no catalog for it, or Babel is not installed."""


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it here (it is translated where shown)."""
    return message


def languages() -> tuple[str, ...]:
    """The languages the pages can speak: English and one for each catalog shipped."""
    found = []
    for entry in resources.files(__package__).iterdir():
        name = entry.name
        if name.endswith(".po") and _LANG.match(name[:-3]):
            found.append(name[:-3])
    return (DEFAULT,) + tuple(sorted(found))


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """The translations of ``lang``: English message -> its words (empty for English).

    Raises:
        LanguageUnavailable: no catalog for ``lang``, or Babel missing.
    """
    if lang == DEFAULT:
        return {}
    if lang not in languages():
        raise LanguageUnavailable(f"no catalog for the language {lang!r}: the pages speak "
                                  + ", ".join(languages()))
    try:
        from babel.messages.pofile import read_po
    except ImportError:
        raise LanguageUnavailable("the pages in another language than English need Babel: "
                                  "pip install 'dehlanote[serve]'") from None
    with resources.files(__package__).joinpath(f"{lang}.po").open("rb") as stream:
        cat = read_po(stream, locale=None)
    out: dict[str, str] = {}
    for message in cat:
        if message.id and isinstance(message.id, str) and isinstance(message.string, str) and message.string:
            out[message.id] = message.string
    return out


def translator(lang: str) -> Callable[[str], str]:
    """``_`` for ``lang``: the message's translation, or the English message when it has none."""
    words = catalog(lang)
    return lambda message: words.get(message, message)


def choose(accept_language: Optional[str], default: str = DEFAULT) -> str:
    """The language to speak to a browser sending ``Accept-Language`` (``hi-IN,hi;q=0.9,en;q=0.8``).

    The first language, by its q value, that has a catalog; ``default`` when none has.
    """
    if not accept_language:
        return default
    known = languages()
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")[:20]):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower()
        q = 1.0
        for bit in bits[1:]:
            key, _, value = bit.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and q > 0:
            ranked.append((-q, i, tag))
    for _q, _i, tag in sorted(ranked):
        base = tag.split("-")[0]
        if base in known:
            return base
    return default


_SPOKEN: ContextVar[dict[str, str]] = ContextVar("dehlanote_words", default={})


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Within the block, the sentences of the replay's story (:mod:`dehlanote.output.notes`)
    are in ``lang`` (English outside any block, so the text outputs never change)."""
    token = _SPOKEN.set(catalog(lang))
    try:
        yield
    finally:
        _SPOKEN.reset(token)


def speaking_words(message: str) -> str:
    """``message`` in the language of the :func:`speaking` block around the call."""
    return _SPOKEN.get().get(message, message)
