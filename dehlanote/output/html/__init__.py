"""Self-contained HTML: replay pages of games, and a site of archives with statistics.

:func:`~.data.game_data` turns one game's replay facts into the page's data,
:func:`~.page.render_replay` makes a page of it, :mod:`.site` builds a folder of pages
with an index, and :mod:`.charts` draws the index's SVG charts.
"""

from .data import game_data, game_summary
from .page import render_index, render_replay, script_json

__all__ = ["game_data", "game_summary", "render_replay", "render_index", "script_json"]
