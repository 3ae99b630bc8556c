"""User text (run names, labels, query and doc ids, file names) as text in the page and in its figures, never
markup: the one escaping function for plotly (`plotly_text`) and the one for the page's HTML (`html_text`).

plotly.js reads a title, a legend name, an axis title or tick, and a hovertemplate (with the values it
substitutes) as its own markup: tags (`<a href>`, `<b>`, `<br>`), `%{...}` placeholders and newlines
(plotly.js src/lib/svg_text_utils.js `convertToTspans`; src/lib/index.js `hovertemplateString`). It decodes
`&lt;`, `&gt;`, `&amp;` and numeric entities (`convertEntities`) after it has split the tags, so these
spell the characters themselves. Control characters and the bidi controls themselves (U+202A-E, U+2066-9) are
shown as `\\uXXXX` (rankflavor/escape.py), so a U+2069 in a name cannot close its isolate early; text with
right-to-left characters is isolated (Unicode's FSI ... PDI in a figure, `<bdi>` in HTML: UAX #9, the
isolates), so it cannot reverse the rest of a line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from rankflavor.escape import html as escape
from rankflavor.escape import visible

# bidirectional classes that can reorder what follows them (UAX #9 table 4): strong right-to-left, Arabic
# numbers, and the explicit embeddings, overrides and isolates
_REORDERING = frozenset({"R", "AL", "AN", "RLE", "LRE", "RLO", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"})
_PLOTLY = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "%": "&#37;", "\n": "&#10;", "\r": "&#13;"})
FSI, PDI = "\u2068", "\u2069"
LONG_WORD = 32
_LONG = re.compile(rf"\S{{{LONG_WORD + 1}}}")


def needs_isolation(text: str) -> bool:
    """Whether `text` holds a character that can reorder the text around it (right-to-left, a bidi control)."""
    return not text.isascii() and any(unicodedata.bidirectional(c) in _REORDERING for c in text)


def plotly_text(text: object) -> str:
    """`text` for a plotly title, name, axis label, tick, hovertemplate or `text` array: its `& < > %` and
    newlines as entities (shown as themselves, never a tag, link or placeholder), between FSI and PDI when it
    holds right-to-left or bidi control characters."""
    text = str(text)
    escaped = visible(text).translate(_PLOTLY)
    return f"{FSI}{escaped}{PDI}" if needs_isolation(text) else escaped


def html_text(text: object, names: Iterable[str] = ()) -> str:
    """`text` as the content of an HTML element: escaped, in a `<bdi>` when it holds right-to-left or bidi
    control characters, and each of `names` (the runs, ids) it quotes in a `<bdi>` of its own, so an override
    in a name quoted by a sentence reverses that name only; a word longer than LONG_WORD characters in a
    `<span class="long">` (page.css: it wraps anywhere, so a long id never stretches its table). (An
    attribute's value takes `html.escape(text, quote=True)`.)"""
    text = str(text)
    if not needs_isolation(text):
        return _wrapped(text)
    quoted = sorted({n for n in names if n and n in text and needs_isolation(n)}, key=len, reverse=True)
    if not quoted:
        return f"<bdi>{_wrapped(text)}</bdi>"
    pieces, last = [], 0
    for match in re.finditer("|".join(map(re.escape, quoted)), text):
        pieces += [_wrapped(text[last:match.start()]), f"<bdi>{_wrapped(match.group())}</bdi>"]
        last = match.end()
    return f"<bdi>{''.join(pieces)}{_wrapped(text[last:])}</bdi>"


def _wrapped(text: str) -> str:
    escaped = escape(text, quote=True)
    return f'<span class="long">{escaped}</span>' if _LONG.search(text) else escaped
