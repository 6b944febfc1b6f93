"""The pages of ``dehlanote serve``: self-contained, with the html pages' Content-Security-Policy.

One shell (``templates/serve.html``) for the index, the new-table form and the phone page:
its style and script inline, allowed by their hashes, the data in a JSON block escaped by
:func:`~dehlanote.output.html.page.script_json`, every string put in the page by the script
with ``textContent``. The policy is the html pages' (``default-src 'none'``, the page's own
style and script by hash, no form, no base) plus ``connect-src 'self'`` so the page can send
its taps and hear the other phones (server-sent events) from this server only.

The live replay page is the ``html`` command's replay page over the table's record, the
trick under way included, with a small script that reloads it at the newest card whenever
the table changes.
"""

from __future__ import annotations

import html
from functools import lru_cache
from importlib import resources
from typing import Any, Optional

from ..version import __version__
from ..i18n import N_, catalog, translator
from ..output.html.page import SUIT_SYMBOLS, csp, fill, render_replay, replay_csp, script_json
from .tables import Table

__all__ = ["serve_page", "live_replay_page", "policy", "refusal_page"]


@lru_cache(maxsize=None)
def _template(name: str) -> str:
    return resources.files(__package__).joinpath("templates").joinpath(name).read_text(encoding="utf-8")


def policy(style: str, scripts: tuple[str, ...]) -> str:
    """The html pages' policy for this page's style and scripts, with fetches back to this server."""
    return csp(style, scripts[0] if scripts else None, *scripts[1:]) + "; connect-src 'self'"


#: said in the header only (a <meta> policy cannot say it): no other site may frame the pages
FRAMES = "; frame-ancestors 'none'"


def serve_page(kind: str, *, lang: str, key: str, lan: bool, data: dict[str, Any],
               rules: list[str]) -> tuple[str, str]:
    """A page of the app (``index``, ``new``, ``table``) and its Content-Security-Policy."""
    css = _template("serve.css")
    js = _template("serve.js")
    _ = translator(lang)
    titles = {"index": _("Tables tonight"), "new": _("Start a table"), "table": _("Table")}
    payload = {"page": kind, "lang": lang, "key": key, "lan": lan, "words": catalog(lang),
               "profiles": rules, **data}
    title = titles.get(kind, "dehlanote")
    if kind == "table":
        title = f"{title} {data.get('table', '')}"
    page = fill(_template("serve.html"), {
        "LANG": html.escape(lang), "CSP": html.escape(policy(css, (js,)), quote=False),
        "VERSION": html.escape(__version__), "TITLE": html.escape(title), "CSS": css, "JS": js,
        "SYMBOLS": SUIT_SYMBOLS, "DATA": script_json(payload),
        "NOSCRIPT": html.escape(_("This page needs JavaScript.")),
    })
    return page, policy(css, (js,)) + FRAMES


_REFUSAL_STYLE = ("body{font:1.1rem/1.5 system-ui,sans-serif;margin:2rem auto;max-width:36rem;padding:0 1rem}"
                  "code{color:#666}")


#: what works instead of a link from the no-key page (every link there is refused too)
_SCAN = N_("Scan the code shown on the organiser's computer, or type the whole address shown there.")


def refusal_page(code: str, *, lang: str, home: Optional[str]) -> tuple[str, str]:
    """A page for a person who opened an address the server cannot answer (a table that is not
    there): the refusal's sentence in the reader's language, its code, and a link to every table
    where one works (``home``; None for an address without its key, where the index is refused too)."""
    from .words import refusal_sentence
    _ = translator(lang)
    sentence = refusal_sentence(code, _)
    page = (f'<!doctype html>\n<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{html.escape(sentence)}</title>\n<style>{_REFUSAL_STYLE}</style>\n</head>\n<body>\n'
            f'<p>{html.escape(sentence)} <code>{html.escape(code)}</code></p>\n'
            + (f'<p><a href="{html.escape(home)}">{html.escape(_("all tables"))}</a></p>\n' if home else "")
            + (f'<p>{html.escape(_(_SCAN))}</p>\n' if code == "no-key" else "")
            + '</body>\n</html>\n')
    return page, csp(_REFUSAL_STYLE, None) + FRAMES


def live_replay_page(table: Table, *, lang: str, key: Optional[str]) -> tuple[str, str]:
    """The table's replay page, following the play (and its policy)."""
    from .live import live_games
    _ = translator(lang)
    games = live_games(table, lang)
    live = _template("live.js")
    title = f"{_('Table')} {table.number}"
    # the way back keeps the page's language, as the table pages' links do (it fell back to the
    # browser's: a page chosen in Hindi led back to an index in English)
    back = "/?" + (f"key={key}&" if key else "") + f"lang={lang}"
    page = render_replay(games, title, back=back,
                         back_label=N_("all tables"), lang=lang, live=live,       # (translated there)
                         live_data={"table": table.number, "key": key or "", "version": table.version})
    return page, replay_csp(live) + FRAMES
