"""Text stays text (docs/outputs.md, "Text stays text"): the one place user text (ids, names, file names, saved
fields) is made safe for where it is shown.

- Control characters: C0 (but tab and newline), DEL, C1 (U+0080-U+009F: a lone U+009B is a terminal's CSI) and
  the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) are shown as `\\uXXXX` (`visible`):
  an ESC cannot start an ANSI or OSC sequence (a clear screen, an OSC 8 link, an OSC 52 clipboard write), a CR
  cannot overwrite a line, a U+2069 cannot close an isolate early and a U+202E cannot reverse what follows. The
  form is a JSON escape too, so JSON on stdout stays valid and decodes to the text it was.
- The terminal: the CLI writes stdout and stderr through `Visible` (every table, per-query line, explain record,
  warning, error and argparse message; `--format trec` and `csv` too); a cell of a text table is shown with its
  tab and newline escaped as well (`cell`). The progress line's own `\\r` and `ESC[K` go to the stream beneath.
- CSV: a text cell a spreadsheet would evaluate (its first character `=`, `+`, `-`, `@`, a tab or a CR, and not
  a plain number) is written with a leading `'`, as OWASP recommends (CSV injection); `--csv-formulas` (the
  context's `keep_formulas`) writes them as they are.
- HTML (the page, the notebook views): `html` escapes markup and then shows control characters as above; the page
  script's `esc` (display/assets/core.js) does the same, so its own panels follow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from contextlib import contextmanager
from contextvars import ContextVar
from typing import IO, Any

_CONTROL = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
_CONTROL_OR_SPACING = "[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = r"(?i)[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|nan)"
_keep_formulas: ContextVar[bool] = ContextVar("rankflavor_csv_formulas", default=False)


def _shown(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def visible(text: object) -> str:
    """`text` with its control characters (module docstring) as `\\uXXXX`; tab and newline kept."""
    text = str(text)
    return text if text.isprintable() or not re.search(_CONTROL, text) else re.sub(_CONTROL, _shown, text)


def cell(text: object) -> str:
    """`text` for one cell or one field of a line: `visible`, with its tab, newline and CR escaped too."""
    text = str(text)
    return text if text.isprintable() else re.sub(_CONTROL_OR_SPACING, _shown, text)


MESSAGE_LINE = 2000  # an error's line quoting user text longer than this is cut in the middle


def shortened(message: str, limit: int = MESSAGE_LINE) -> str:
    """An error message with each line of more than `limit` characters cut in its middle (a 20,000-value spec
    quoted twice made a 109 KB message)."""
    return "\n".join(line if len(line) <= limit else
                     f"{line[:limit // 2]} ... ({len(line) - limit:,} characters left out) ... {line[-limit // 4:]}"
                     for line in message.split("\n"))


def _html_escape(text: str, quote: bool) -> str:
    from html import escape  # (here: the command line never escapes HTML, and start-up spares html.entities)

    return escape(text, quote=quote)


def html(text: object, quote: bool = True) -> str:
    """`text` as HTML text or an attribute's value: markup escaped, control characters shown (`visible`)."""
    return _html_escape(visible(text), quote=quote)


def html_key(text: object) -> str:
    """A key the page's script reads back (a `data-` attribute: a run's name), never shown: markup escaped only."""
    return _html_escape(str(text), quote=True)


def formula_safe(value: Any) -> Any:
    """A CSV cell: a text a spreadsheet would evaluate with a leading `'` (module docstring); anything else as is."""
    if (isinstance(value, str) and value.startswith(_FORMULA_START) and not _keep_formulas.get()
            and not re.fullmatch(_NUMBER, value)):
        return "'" + value
    return value


def formula_safe_rows(rows: Iterable[Iterable[Any]]) -> Iterable[list[Any]]:
    """Each row's cells through `formula_safe`."""
    return ([formula_safe(v) for v in row] for row in rows)


def formula_safe_frame(frame: Any) -> Any:
    """A DataFrame whose text cells went through `formula_safe` (a copy; numbers untouched)."""
    if _keep_formulas.get():
        return frame
    out = frame.copy()
    for column in out.columns:
        if out[column].dtype == object:
            out[column] = out[column].map(formula_safe)
    out.columns = [formula_safe(str(c)) for c in out.columns]
    return out


@contextmanager
def keep_formulas(keep: bool):
    """CSV cells inside the block as they are (`--csv-formulas`), or quoted (the default)."""
    token = _keep_formulas.set(bool(keep))
    try:
        yield
    finally:
        _keep_formulas.reset(token)


class Visible:
    """A text stream that shows control characters (`visible`) in everything written to it; `raw` is the stream
    beneath (the progress line's own control sequences)."""

    def __init__(self, raw: IO[str]) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(text if re.search(_CONTROL, text) is None else re.sub(_CONTROL, _shown, text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


def raw(stream: IO[str]) -> IO[str]:
    """The stream beneath a `Visible` (itself otherwise)."""
    return stream.raw if isinstance(stream, Visible) else stream


@contextmanager
def visible_streams():
    """sys.stdout and sys.stderr as `Visible` inside the block (the CLI's whole run)."""
    import sys

    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Visible(raw(out)), Visible(raw(err))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
