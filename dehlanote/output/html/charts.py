"""Bar charts as inline SVG, readable without colour.

Every bar carries its value as text at its end and its label at its start, and a
pattern (solid, stripes, dots, hatching ...) on top of its colour, so a chart reads the
same printed in black and white or by a reader who cannot tell the colours apart. Suit
bars take the page's suit colours (two- or four-colour deck, a switch on the page).
Nothing here comes from outside the package except labels, which are escaped.
"""

from __future__ import annotations

from typing import Optional, Sequence

from .page import escape

__all__ = ["Bar", "bar_chart", "PATTERNS"]

#: the patterns drawn over the bars (ids used by :func:`bar_chart`), one per series
PATTERNS = (
    '<svg class="defs" aria-hidden="true" focusable="false"><defs>'
    '<pattern id="pat-0" width="6" height="6" patternUnits="userSpaceOnUse"></pattern>'
    # each mark is drawn twice, dark and light side by side, so it shows on any bar colour
    '<pattern id="pat-1" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<rect width="1.5" height="6" fill="#000" fill-opacity="0.45"/>'
    '<rect x="1.5" width="1.5" height="6" fill="#fff" fill-opacity="0.6"/></pattern>'
    '<pattern id="pat-2" width="6" height="6" patternUnits="userSpaceOnUse">'
    '<circle cx="3" cy="3" r="1.5" fill="#fff" fill-opacity="0.7" stroke="#000" stroke-opacity="0.5" '
    'stroke-width="0.6"/></pattern>'
    '<pattern id="pat-3" width="6" height="6" patternUnits="userSpaceOnUse">'
    '<path d="M0 0L6 6M6 0L0 6" stroke="#000" stroke-opacity="0.45" stroke-width="1"/>'
    '<path d="M1 0L6 5M5 0L0 5" stroke="#fff" stroke-opacity="0.6" stroke-width="0.8"/></pattern>'
    '<pattern id="pat-4" width="6" height="6" patternUnits="userSpaceOnUse">'
    '<rect width="6" height="1.2" fill="#000" fill-opacity="0.45"/>'
    '<rect y="1.2" width="6" height="1.2" fill="#fff" fill-opacity="0.6"/></pattern>'
    '<pattern id="pat-5" width="6" height="6" patternUnits="userSpaceOnUse">'
    '<rect width="1.2" height="6" fill="#000" fill-opacity="0.45"/>'
    '<rect x="1.2" width="1.2" height="6" fill="#fff" fill-opacity="0.6"/></pattern>'
    '</defs></svg>'
)


class Bar:
    """One bar: its label, value, the text shown at its end, a colour class and a pattern."""

    __slots__ = ("label", "value", "text", "cls", "pattern", "stat")

    def __init__(self, label: str, value: float, text: Optional[str] = None, cls: str = "c0",
                 pattern: int = 0, stat: Optional[str] = None) -> None:
        self.label = label
        self.value = value
        self.text = text if text is not None else _number(value)
        self.cls = cls
        self.pattern = pattern
        self.stat = stat          # the key of the figure in ``stats --format json``, for checking


#: the most characters of a label drawn in the label column (150 pixels at 12 px); a longer
#: label is cut to this with "…", the whole of it being the bar's title
LABEL_CHARS = 20


def _short(label: str) -> str:
    return label if len(label) <= LABEL_CHARS else label[:LABEL_CHARS - 1].rstrip() + "\u2026"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def bar_chart(title: str, bars: Sequence[Bar], *, note: str = "", width: int = 460,
              label_width: int = 150) -> str:
    """A horizontal bar chart with a title, as a ``<figure>`` holding an SVG."""
    row = 26
    top = 6
    height = top + row * max(len(bars), 1) + 6
    space = width - label_width - 120      # room for the value written after the longest bar
    most = max((b.value for b in bars), default=0) or 1
    parts = [f'<figure class="chart"><figcaption>{escape(title)}</figcaption>',
             f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(title)}">']
    if not bars:
        parts.append(f'<text x="8" y="{top + 16}" class="empty">nothing to count</text>')
    for i, b in enumerate(bars):
        y = top + i * row
        length = max(0.0, space * b.value / most)
        stat = f' data-stat="{escape(b.stat)}" data-value="{_number(b.value)}"' if b.stat else ""
        parts.append(f'<g class="bar"><title>{escape(b.label)}: {escape(b.text)}</title>'
                     f'<text x="{label_width - 6}" y="{y + 16}" text-anchor="end" class="label">'
                     f'{escape(_short(b.label))}</text>'
                     f'<rect x="{label_width}" y="{y + 3}" width="{length:.1f}" height="{row - 8}" '
                     f'class="fill {escape(b.cls)}"/>'
                     f'<rect x="{label_width}" y="{y + 3}" width="{length:.1f}" height="{row - 8}" '
                     f'fill="url(#pat-{b.pattern % 6})" class="pattern"/>'
                     f'<text x="{label_width + length + 5:.1f}" y="{y + 16}" class="value"{stat}>'
                     f'{escape(b.text)}</text></g>')
    parts.append("</svg>")
    if note:
        parts.append(f'<p class="chart-note">{escape(note)}</p>')
    parts.append("</figure>")
    return "".join(parts)
