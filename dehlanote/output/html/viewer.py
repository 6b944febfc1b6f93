"""The viewer: one self-contained replay page that shows the deal carried in its link.

A club hosts ``viewer.html`` once (``dehlanote html --viewer -o viewer.html``); then any deal
becomes a link, ``viewer.html#dpn1=…`` (``dehlanote share FILE --deal N``). The part after
``#dpn1=`` is the replay page's data for that one deal (what :func:`~.data.game_data` gives,
the match as it stood before the deal included), as JSON compressed with raw deflate and
written in URL-safe base64. A fragment never reaches a server: the deal stays between the
link and the browser, which inflates it with its own ``DecompressionStream``.

The page is the replay page itself (its style, script and Content-Security-Policy: no fetch
of any kind, only its own style and script by their hashes), with a short script first that
reads the fragment and then starts the replay page on that data. Every string in the link
reaches the page as the replay page puts record strings there: with ``textContent``. A link
cut short, or made by hand, gives a sentence on the page, not a broken one.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from typing import Any, Optional
from urllib.parse import urlsplit

from ...i18n import N_
from ...replay import GameFacts
from .data import game_data
from .page import _sha256, render_replay, template

__all__ = ["KEY", "ShareError", "decode", "encode", "link", "render_viewer", "share_data"]

#: the fragment's key: ``#dpn1=DATA`` (1: this encoding; a later one gets another number)
KEY = "dpn1"

_VIEWER_JS = r"""/* dehlanote viewer: the deal is in the link's fragment (#dpn1=...), deflated, base64url */
(function () {
  "use strict";
  var KEY = "__KEY__";
  /* the page's words (its language's catalog, in its data): the sentences below were English on
     a page in any language */
  var WORDS = {};
  try { WORDS = JSON.parse(document.getElementById("dpn-data").textContent).words || {}; } catch (err) { WORDS = {}; }
  function _(s) { return Object.prototype.hasOwnProperty.call(WORDS, s) && WORDS[s] ? WORDS[s] : s; }
  function say(text) {
    document.getElementById("where").textContent = _(text);
    document.documentElement.setAttribute("data-ready", "1");
    document.documentElement.setAttribute("data-viewer", "no-deal");
  }
  var m = new RegExp("(?:^#|&)" + KEY + "=([A-Za-z0-9_-]+)").exec(location.hash);
  if (!m) {
    say("This page shows a deal carried in its link. Make such a link with: dehlanote share FILE --deal N");
    return;
  }
  var packed = m[1];
  if (typeof DecompressionStream === "undefined") {
    say("This browser cannot open deal links (it has no DecompressionStream): try a recent one.");
    return;
  }
  var bytes;
  try {
    var bin = atob(packed.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((packed.length + 3) % 4));
    bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
  } catch (err) {
    say("This link does not hold a deal that can be shown (is it whole? copy all of it).");
    return;
  }
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  new Response(stream).text().then(function (text) {
    var game = JSON.parse(text);
    if (!game || typeof game !== "object" || !Array.isArray(game.deals) || !game.deals.length || !game.seats) {
      throw new Error("no deal");
    }
    var holder = document.getElementById("dpn-data");
    var page = JSON.parse(holder.textContent);           /* the page's words, in its language */
    page.games = [game];
    holder.textContent = JSON.stringify(page);
    /* the replay page writes its position in the fragment: the deal's data stays in it */
    var replace = history.replaceState.bind(history);
    history.replaceState = function (state, title, url) {
      if (typeof url === "string" && url.charAt(0) === "#") { url += "&" + KEY + "=" + packed; }
      return replace(state, title, url);
    };
    /* and so do the story's "copy link" buttons: a copied link carries the deal too */
    function withDeal(text) {
      var page = location.href.split("#")[0];
      return (typeof text === "string" && text.indexOf(page + "#") === 0 && text.indexOf(KEY + "=") < 0)
        ? text + "&" + KEY + "=" + packed : text;
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      var write = navigator.clipboard.writeText.bind(navigator.clipboard);
      try {
        navigator.clipboard.writeText = function (text) { return write(withDeal(text)); };
      } catch (err) { /* the clipboard's own: the link is copied as the page made it */ }
    }
    var exec = document.execCommand.bind(document);
    document.execCommand = function (name) {
      var area = document.activeElement;
      if (name === "copy" && area && area.tagName === "TEXTAREA") { area.value = withDeal(area.value); area.select(); }
      return exec.apply(null, arguments);
    };
    document.documentElement.setAttribute("data-viewer", "deal");
    /* another deal's link pasted in this tab: show that deal */
    window.addEventListener("hashchange", function () {
      var now = new RegExp("(?:^#|&)" + KEY + "=([A-Za-z0-9_-]+)").exec(location.hash);
      if (now && now[1] !== packed) { location.reload(); }
    });
    START();
  }).catch(function (err) {
    if (window.console) { console.warn("dehlanote viewer: " + err); }
    say("This link does not hold a deal that can be shown (is it whole? copy all of it).");
  });
  function START() {
__REPLAY__
  }
}());
"""


#: the viewer page's title when none is given
VIEWER_TITLE = N_("DPN deal viewer")

#: the viewer's own sentences (said by its script, in the page's language)
_VIEWER_WORDS = (
    N_("This page shows a deal carried in its link. Make such a link with: dehlanote share FILE --deal N"),
    N_("This browser cannot open deal links (it has no DecompressionStream): try a recent one."),
    N_("This link does not hold a deal that can be shown (is it whole? copy all of it)."),
)


class ShareError(ValueError):
    """A link that cannot be made (no such deal) or read (not a deal link)."""


def render_viewer(title: Optional[str] = None, *, lang: str = "en", four_colour: bool = False) -> str:
    """The viewer page (no deal in it: the deal comes with the link): the replay page with
    the viewer's script run first, the page's policy naming that script's hash. ``title``:
    default "DPN deal viewer" in the page's language (it was English on a page in Hindi)."""
    if title is None:
        from ...i18n import translator
        title = translator(lang)(VIEWER_TITLE)
    replay = template("replay.js")
    js = _VIEWER_JS.replace("__KEY__", KEY).replace("__REPLAY__", replay)
    page = render_replay([], title, lang=lang, four_colour=four_colour)
    own = f"<script>{replay}</script>"
    if page.count(own) != 1 or page.count(_sha256(replay)) != 1:
        raise AssertionError("the replay page's script is not where the viewer expects it")
    return page.replace(own, f"<script>{js}</script>").replace(_sha256(replay), _sha256(js))


def share_data(facts: GameFacts, deal_number: int, number: int = 1) -> dict[str, Any]:
    """The replay page's data of game ``facts`` cut to its deal ``deal_number`` (its place in
    the game, from 1, as the replay numbers deals): the match before it, its errors only."""
    index = next((i for i, d in enumerate(facts.deals) if d.number == deal_number), None)
    if index is None:
        have = f"deals {facts.deals[0].number} to {facts.deals[-1].number}" if facts.deals else "no deal"
        written = next((i + 1 for i, d in enumerate(facts.game.deals)
                        if d.number is not None and d.number.value == deal_number), None)
        if written is not None:
            have += f"; the deal written as deal {deal_number} is deal {written} of the game: deals are counted from 1"
        raise ShareError(f"the game has no deal {deal_number} ({have})")
    data = game_data(facts, number)
    data["deals"] = [data["deals"][index]]
    data["last"] = facts.deals[-1].number       # "Deal 3 of 7": the match's last deal, not the link's only one
    # (the deal's errors, and the game's own: its tags')
    data["errors"] = [e for e in data["errors"] if e[4] == deal_number or e[4] is None]
    data["summary"] = dict(data["summary"], deals=1, errors=len(data["errors"]))
    return data


def encode(data: dict[str, Any]) -> str:
    """The data as the fragment carries it: compact JSON, raw deflate, base64url without padding."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text) + packer.flush()
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode(fragment: str) -> dict[str, Any]:
    """The data of a link (or of its fragment): what :func:`encode` packed."""
    m = re.search(rf"(?:^|[#&]){KEY}=([A-Za-z0-9_-]+)", fragment)
    if m is None:
        raise ShareError("not a deal link: it has no #dpn1= part")
    packed = m.group(1)
    try:
        raw = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        out = json.loads(zlib.decompress(raw, -15).decode("utf-8"))
    except (ValueError, zlib.error) as exc:
        raise ShareError(f"the link's deal cannot be read ({exc})") from None
    if not isinstance(out, dict):
        raise ShareError("the link's deal cannot be read (not a deal)")
    return out


def check_base(base: str) -> str:
    """The viewer's address as given (``https://club.example/viewer.html``, ``file:///…``, a
    relative path); ShareError for one a link cannot be added to (an empty one too: the link
    would be a bare #fragment, which opens no viewer)."""
    if not base.strip():
        raise ShareError("--base is empty: give the viewer's address, e.g. https://club.example/viewer.html "
                         "(is a shell variable unset?)")
    if "#" in base:
        raise ShareError("--base is the viewer's address, without a # part")
    if any(ch.isspace() for ch in base):
        raise ShareError("--base has a space in it: write it as %20")
    if not base.isprintable():      # (an escape sequence went into the link as it was, and to the terminal)
        raise ShareError("--base has a control character in it: give the viewer's address as it is written")
    try:
        parts = urlsplit(base)
    except ValueError:      # ("https://[club/v.html": the [ of an IPv6 server never closed) was a traceback
        raise ShareError(f"--base {base} is not a well-formed address: its server's name cannot be read (a [ or ] "
                         "out of place?); give it as the browser shows it, e.g. https://club.example/viewer.html"
                         ) from None
    scheme = parts.scheme.lower()
    if len(scheme) == 1 and scheme.isalpha():      # ("C:\\Users\\me\\viewer.html" was "not c:")
        shown = base[2:].replace("\\", "/").lstrip("/")
        raise ShareError(f"--base {base} is a Windows path: write it as an address, "
                         f"file:///{base[0].upper()}:/{shown}")
    if scheme and scheme not in ("http", "https", "file"):
        raise ShareError(f"--base must be an http, https or file address, or a path (not {scheme}:)")
    if (scheme in ("http", "https") and not parts.hostname) or (scheme == "file" and not parts.path):
        # (https://, https:viewer.html or file: made a link that opens nothing)
        what = "no file" if scheme == "file" else "no server"
        raise ShareError(f"--base {base} names {what}: give the whole address, e.g. "
                         "https://club.example/viewer.html or file:///home/me/viewer.html")
    return base


def link(facts: GameFacts, deal_number: int, *, base: str = "viewer.html", trick: Optional[int] = None,
         number: int = 1) -> str:
    """The link that shows deal ``deal_number`` of ``facts`` in the viewer at ``base`` (from its
    start, or at the end of ``trick``)."""
    fragment = f"{KEY}={encode(share_data(facts, deal_number, number))}"
    if trick is not None:
        fragment = f"trick={trick}&{fragment}"
    return f"{check_base(base)}#{fragment}"
