"""Self-contained HTML pages: templates (package data) filled with escaped values.

A page loads nothing from anywhere: its CSS, script and card drawings are inline, and
its Content-Security-Policy forbids every fetch (``default-src 'none'``) and allows only
the page's own style and script, by their SHA-256 hashes. So even a string that slipped
past the escaping could not run as script.

Record text reaches a page in two ways only: through :func:`html.escape` (the title,
the index's tables) or inside the JSON data block, where :func:`script_json` escapes
``<``, ``>``, ``&`` and the two JavaScript line separators so that nothing in a string can
end the ``<script type="application/json">`` element. The page's script reads the data
with ``JSON.parse`` and puts every string in the page with ``textContent``.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Iterator, Optional

from ...i18n import N_
from ...text import printable
from ...version import __version__

__all__ = ["script_json", "render_replay", "render_index", "index_frame", "table_parts", "replay_csp", "template",
           "SUIT_SYMBOLS", "escape", "neutral", "name_html", "isolated"]

#: the four suits as SVG symbols (viewBox 0 0 50 50), drawn here so no font is needed
SUIT_SYMBOLS = (
    '<symbol id="suit-S" viewBox="0 0 50 50"><path d="M25 3C15 15 4 22 4 31c0 6 5 10 11 10 4 0 7-2 8-4'
    '-1 5-3 8-7 10h18c-4-2-6-5-7-10 1 2 4 4 8 4 6 0 11-4 11-10C46 22 35 15 25 3z"/></symbol>'
    '<symbol id="suit-H" viewBox="0 0 50 50"><path d="M25 45C8 32 3 22 3 15 3 8 8 4 14 4c5 0 9 3 11 7 2-4 '
    '6-7 11-7 6 0 11 4 11 11 0 7-5 17-22 30z"/></symbol>'
    '<symbol id="suit-D" viewBox="0 0 50 50"><path d="M25 2l19 23-19 23L6 25z"/></symbol>'
    '<symbol id="suit-C" viewBox="0 0 50 50"><circle cx="25" cy="14" r="10"/><circle cx="13" cy="29" r="10"/>'
    '<circle cx="37" cy="29" r="10"/><circle cx="25" cy="27" r="6"/>'
    '<path d="M23 24h4l1 14c1 5 3 7 6 9H16c3-2 5-4 6-9z"/></symbol>'
)

#: the bidirectional controls (overrides, embeddings, isolates, marks): in a name they reorder
#: the text around it; the pages show them as U+FFFD, as the replay page's visible() and the
#: terminal do
_BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def neutral(text: str) -> str:
    """``text`` with its bidirectional controls shown as U+FFFD."""
    return _BIDI_CONTROLS.sub("\ufffd", text)


def escape(text: str, quote: bool = True) -> str:
    """:func:`html.escape` of record text for the site's pages: its bidirectional controls
    neutralised (:func:`neutral`), so no name, event or file name reorders what follows it."""
    return html.escape(neutral(text), quote)


def name_html(text: str) -> str:
    """A record's name (a player's) inside a sentence or a heading: escaped and isolated in a
    ``<bdi>``, so that a name written right to left never reorders the sentence around it."""
    return f"<bdi>{escape(text)}</bdi>"


def isolated(text: str) -> str:
    """A name inside plain text (a page's ``<title>``, where no element can go): neutralised
    and between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, the text form of ``<bdi>``."""
    return "\u2068" + neutral(text) + "\u2069"


_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_JSON_UNSAFE = re.compile("[<>&\u2028\u2029]")


def script_json(obj: Any) -> str:
    """``obj`` as JSON that is safe inside ``<script type="application/json">``.

    ``<``, ``>`` and ``&`` only ever occur inside JSON strings, where ``\\u003c`` means the
    same character, so ``JSON.parse`` gives back exactly the record's text.
    """
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return _JSON_UNSAFE.sub(lambda m: _JSON_ESCAPES[m.group(0)], text)


@lru_cache(maxsize=None)
def template(name: str) -> str:
    """A template file shipped in ``dehlanote/output/html/templates``."""
    return resources.files("dehlanote.output.html").joinpath("templates").joinpath(name).read_text(encoding="utf-8")


def compact_script(text: str) -> str:
    """A script as a page carries it: without its comment blocks (those that start a line and
    end one) and its indentation, which are for the people who read the package's template.
    Nothing inside a line is touched, so a string or a regular expression stays as written."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        bare = line.strip()
        if not inside and bare.startswith("/*"):
            inside = True
        if inside:
            inside = not bare.endswith("*/")
            continue
        if bare:
            out.append(bare)
    return "\n".join(out) + "\n"


@lru_cache(maxsize=None)
def whatif_script() -> str:
    """The what-if script (templates/whatif.js) as the replay page carries it."""
    return compact_script(template("whatif.js"))


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def csp(style: str, script: Optional[str], *more: str) -> str:
    """No fetch of any kind; only this page's own style and scripts (by hash) may run."""
    script_src = " ".join(_sha256(s) for s in (script, *more) if s is not None) or "'none'"
    return (f"default-src 'none'; style-src {_sha256(style)}; script-src {script_src}; img-src data:; "
            "base-uri 'none'; form-action 'none'")


def _with_worker(policy: str) -> str:
    """The replay page's policy also lets its what-if solver run in a worker made from a Blob
    by its own script (``blob:`` URLs are made only by a script the page already runs)."""
    return policy + "; worker-src blob:"


#: the words of the replay page's own markup (template slot -> English message)
_PAGE_WORDS: dict[str, str] = {
    "T_SKIP": N_("Skip to the story of the deal"),
    "T_GAME": N_("Game"),
    "T_DEAL": N_("Deal"),
    "T_VIEW": N_("View"),
    "T_FOUR": N_("four-colour deck"),
    "T_PREVDEAL": N_("previous deal"),
    "T_START": N_("start of the deal"),
    "T_BACKTRICK": N_("back one trick"),
    "T_BACKCARD": N_("back one card"),
    "T_FWDCARD": N_("forward one card"),
    "T_FWDTRICK": N_("forward one trick"),
    "T_END": N_("end of the deal"),
    "T_NEXTDEAL": N_("next deal"),
    "T_AUTOPLAY": N_("autoplay"),
    "T_ONEBYONE": N_("play the cards one by one"),
    "T_SPEED": N_("speed"),
    "T_SLOW": N_("slow"),
    "T_NORMAL": N_("normal"),
    "T_FAST": N_("fast"),
    "T_TRICK": N_("trick"),
    "T_KEYS": N_("keys"),
    "T_POSITION": N_("position"),
    "T_KEYSHEAD": N_("Keys"),
    "T_STORY": N_("Story of the deal"),
    "T_NOSCRIPT": N_("This replay needs JavaScript to step through the cards."),
    "T_WDEAL": N_("deal"),
    "T_WTRICK": N_("trick"),
    "T_WCARD": N_("card"),
    "T_STORYALL": N_("show the rest of the deal"),
    "T_KEYERR": N_("next / previous error"),
    "T_KEYPREV": N_("start of the deal, then the previous deal"),
    "T_KEYENDS": N_("start / end of the deal"),
    "T_KEYGOTO": N_("go to a trick: type its number, then Enter"),
    "T_KEYAUTO": N_("autoplay on or off"),
    "T_KEYHELP": N_("show or hide these keys"),
    "T_KEYWI": N_("what-if: play on from here, or back to the game"),
    "T_KEYWIU": N_("what-if: undo a card / the solver's card"),
    # the names screen readers give the page's parts and controls
    "A_GAME": N_("game"),
    "A_DEAL": N_("deal"),
    "A_VIEW": N_("whose view of the table"),
    "A_KEYS": N_("keys"),
    "A_TABLE": N_("the table"),
    "A_TRICK": N_("the trick in play"),
    "A_WHATIF": N_("what if"),
    "A_PILES": N_("captured piles"),
    "A_STORY": N_("the story of the deal"),
    "A_CONTROLS": N_("move through the game"),
    "A_SPEED": N_("autoplay speed"),
    "A_JUMP": N_("go to trick number"),
    "A_SCRUB": N_("card position in the deal"),
}

_SLOT = re.compile(r"\{\{([A-Z_]+)\}\}")


def fill(text: str, values: dict[str, str]) -> str:
    """Fill ``{{NAME}}`` slots in one pass (a value is never searched for further slots)."""
    return _SLOT.sub(lambda m: values[m.group(1)], text)


def replay_csp(live: Optional[str] = None) -> str:
    """The replay page's policy; a live page (``dehlanote serve``) may also fetch from its own server."""
    base = _with_worker(csp(template("replay.css"), template("replay.js"), whatif_script(),
                            *((live,) if live is not None else ())))
    return base + ("; connect-src 'self'" if live is not None else "")


def render_replay(games: list[dict[str, Any]], title: str, *, back: Optional[str] = None,
                  back_label: str = N_("all games"), four_colour: bool = False, lang: str = "en",
                  live: Optional[str] = None, live_data: Optional[dict[str, Any]] = None,
                  comments: Optional[list[str]] = None) -> str:
    """The replay page for ``games`` (each from :func:`~.data.game_data`).

    ``back``: a relative link shown in the header (the site's index), or None, with
    ``back_label`` (an English message, translated here). ``lang``: the
    language of the page's words (a catalog of :mod:`dehlanote.i18n`). ``live``: a script
    added to the page (the server's follower), with ``live_data`` for it. ``comments``: those
    of a record that holds no game (a file of notes alone), shown in place of the games.
    """
    from ...i18n import catalog, translator
    _ = translator(lang)
    css = template("replay.css")
    js = template("replay.js")
    back_html = ""
    if back is not None:
        back_html = f'<a class="back" href="{html.escape(back)}">\u2190 {html.escape(_(back_label))}</a>'
    policy = replay_csp(live)
    data: dict[str, Any] = {"format": "dehlanote-replay/1", "four": four_colour}
    if live_data is not None:
        data["live"] = live_data
    data["words"] = catalog(lang)
    if comments:
        data["comments"] = list(comments)
    data["games"] = games     # last: the site cuts the page where this list is
    page = fill(template("replay.html"), {
        "CSP": html.escape(policy, quote=False), "VERSION": html.escape(__version__),
        "TITLE": html.escape(printable(title)), "LANG": html.escape(lang),
        "CSS": css, "JS": js, "WHATIF": whatif_script(), "SYMBOLS": SUIT_SYMBOLS, "BACK": back_html,
        "DATA": script_json(data),
        "LIVE": f"<script>{live}</script>" if live is not None else "",
        **{key: html.escape(_(text)) for key, text in _PAGE_WORDS.items()},
    })
    return page


def render_index(title: str, body: str, script: Optional[str] = None, lang: str = "en") -> str:
    """The site's index page (and the player pages): ``body`` is already-escaped HTML (tables
    and SVG charts).

    ``script``: the page's one script (the index's game filter), allowed by its hash; none
    by default. The four-colour switch is a checkbox the stylesheet reads. ``lang``: the
    page's language (its ``lang`` attribute).
    """
    head, tail = index_frame(title, script, lang)
    return head + body + tail


def index_frame(title: str, script: Optional[str] = None, lang: str = "en") -> tuple[str, str]:
    """The page of :func:`render_index` before its body and after it (the template cut at its
    one ``{{BODY}}`` slot, each half filled): a long body, the index of every game, is written
    between the two in pieces, never held whole. ``title``: plain text, a name in it already
    :func:`isolated` (its controls neutralised; the isolates themselves are kept)."""
    css = template("index.css")
    values = {"CSP": html.escape(csp(css, script), quote=False), "VERSION": html.escape(__version__),
              "TITLE": html.escape(title), "LANG": html.escape(lang), "CSS": css,
              "SCRIPT": f"<script>{script}</script>" if script is not None else ""}
    before, slot, after = template("index.html").partition("{{BODY}}")
    if not slot or "{{BODY}}" in after:
        raise AssertionError("the index page's template has not one body")
    return fill(before, values), fill(after, values)


def html_table(head: list[str], rows: list[list[Any]], table_id: str = "") -> str:
    """A table of the site's pages (in a scrolling box on a phone): a cell is a text or a number, a
    (text, link), or a list of those (shown with commas)."""
    return "".join(table_parts(head, rows, table_id))


def table_parts(head: list[str], rows: Iterable[list[Any]], table_id: str = "") -> Iterator[str]:
    """:func:`html_table` in pieces (its head, each row, its end), the rows taken as they come:
    the index's table of every game is written so, never held whole."""
    ident = f" id='{table_id}'" if table_id else ""
    yield "".join([f"<div class='scroll'><table{ident}><thead><tr>",
                   *(f"<th scope='col'>{html.escape(h)}</th>" for h in head), "</tr></thead><tbody>"])
    for row in rows:
        out = ["<tr>"]
        for cell in row:
            if isinstance(cell, tuple):
                out.append(f"<td><a href=\"{html.escape(cell[1])}\">{escape(cell[0])}</a></td>")
            elif isinstance(cell, list):      # several entries (names), each a text or a (text, link), isolated
                out.append("<td>" + ", ".join(f"<a href=\"{html.escape(c[1])}\">{name_html(c[0])}</a>"
                                              if isinstance(c, tuple) else name_html(str(c)) for c in cell) + "</td>")
            else:
                out.append(f"<td>{escape(str(cell))}</td>")
        out.append("</tr>")
        yield "".join(out)
    yield "</tbody></table></div>"
