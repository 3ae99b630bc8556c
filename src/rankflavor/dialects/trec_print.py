"""trec_eval's printed line, once (meas_print_single.c, meas_print_final.c): `%s%-22s\t%s\t%6.4f` for a value,
`%ld` for a count, the text itself for runid and relstring, `Z` before the name under -Z. glibc's `%6.4f` prints
NaN as `nan`, or `-nan` when its sign bit is set (x86's 0.0/0.0). One formatter for `rankflavor eval --format
trec` (cli/trec_output.py) and `rankflavor trec_eval` (dropin/trec_eval.py, dropin/other_formats.py)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple


def fixed4(value: float) -> str:
    """printf's `%6.4f`, NaN included."""
    if math.isnan(value):
        return "  -nan" if math.copysign(1.0, value) < 0 else "   nan"
    return f"{value:6.4f}"


def line(name: str, query: str, value: float | str, count: bool = False, z: str = "") -> str:
    """One line: the measure's name padded to 22, the query (`all` in the summary), the value (a count as an
    integer, a string as it is); `z`: "Z" under -Z."""
    shown = value if isinstance(value, str) else str(int(value)) if count else fixed4(value)
    return f"{z}{name:<22s}\t{query}\t{shown}\n"


VALUE, COUNT, TEXT, NONE = "value", "count", "text", "none"  # how a column prints: %6.4f, %ld, as it is, not at all


class Column(NamedTuple):
    """One measure's column of trec_eval's output: its printed name and how its values print (`kind`)."""

    name: str
    kind: str  # VALUE, COUNT, TEXT or NONE (a measure with no line here: gm_map's per-query line, num_q's)


def block(columns: Sequence[Column], rows: Iterable[tuple[str, Sequence[float | str | None]]],
          z: str = "") -> Iterator[str]:
    """trec_eval's lines for rows of (query, one value per column), in the order given (the `-q` lines query by
    query, or the summary's one `all` row): each column's value on its line, none where the value is None or the
    column prints none; `z` ("Z" under -Z) before every name but a text's. The one query loop of
    `rankflavor eval --format trec` (cli/trec_output.py) and of `rankflavor trec_eval` (dropin/trec_eval.py,
    dropin/other_formats.py)."""
    for query, values in rows:
        for column, value in zip(columns, values, strict=True):
            if value is not None and column.kind != NONE:
                yield line(column.name, query, value, count=column.kind == COUNT, z="" if column.kind == TEXT else z)
