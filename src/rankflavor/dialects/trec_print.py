"""trec_eval's printed line, once (meas_print_single.c, meas_print_final.c): `%s%-22s\t%s\t%6.4f` for a value,
`%ld` for a count, the text itself for runid and relstring, `Z` before the name under -Z. glibc's `%6.4f` prints
NaN as `nan`, or `-nan` when its sign bit is set (x86's 0.0/0.0). One formatter for `rankflavor eval --format
trec` (cli/trec_output.py) and `rankflavor trec_eval` (dropin/trec_eval.py, dropin/other_formats.py)."""

from __future__ import annotations

import math


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
