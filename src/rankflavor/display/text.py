"""User text (run names, labels, query and doc ids, file names) as text in the page and in its figures, never
markup: the one escaping function for plotly (`plotly_text`) and the one for the page's HTML (`html_text`).

plotly.js reads a title, a legend name, an axis title or tick, and a hovertemplate (with the values it
substitutes) as its own markup: tags (`<a href>`, `<b>`, `<br>`), `%{...}` placeholders and newlines
(plotly.js src/lib/svg_text_utils.js `convertToTspans`; src/lib/index.js `hovertemplateString`). It decodes
`&lt;`, `&gt;`, `&amp;` and numeric entities (`convertEntities`) after it has split the tags, so these
spell the characters themselves. Text with right-to-left or bidi control characters (a U+202E) is isolated
(Unicode's FSI ... PDI in a figure, `<bdi>` in HTML: UAX #9, the isolates), so it cannot reverse the rest of
a line.
"""

from __future__ import annotations

import unicodedata
from html import escape

# bidirectional classes that can reorder what follows them (UAX #9 table 4): strong right-to-left, Arabic
# numbers, and the explicit embeddings, overrides and isolates
_REORDERING = frozenset({"R", "AL", "AN", "RLE", "LRE", "RLO", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"})
_PLOTLY = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "%": "&#37;", "\n": "&#10;", "\r": "&#13;"})
FSI, PDI = "\u2068", "\u2069"


def needs_isolation(text: str) -> bool:
    """Whether `text` holds a character that can reorder the text around it (right-to-left, a bidi control)."""
    return not text.isascii() and any(unicodedata.bidirectional(c) in _REORDERING for c in text)


def plotly_text(text: object) -> str:
    """`text` for a plotly title, name, axis label, tick, hovertemplate or `text` array: its `& < > %` and
    newlines as entities (shown as themselves, never a tag, link or placeholder), between FSI and PDI when it
    holds right-to-left or bidi control characters."""
    text = str(text)
    escaped = text.translate(_PLOTLY)
    return f"{FSI}{escaped}{PDI}" if needs_isolation(text) else escaped


def html_text(text: object) -> str:
    """`text` as the content of an HTML element: escaped, in a `<bdi>` when it holds right-to-left or bidi
    control characters. (An attribute's value takes `html.escape(text, quote=True)`.)"""
    text = str(text)
    escaped = escape(text, quote=True)
    return f"<bdi>{escaped}</bdi>" if needs_isolation(text) else escaped
