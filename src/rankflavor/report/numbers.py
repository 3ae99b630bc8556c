"""Numbers as reports show them: a per-query value as a plain float or null."""

from __future__ import annotations

from typing import Any

import numpy as np

# two computed numbers this close are one (floating-point noise): a tie between two means (compare's winner, the
# plots' counts), a tie range of no width (the warnings), a reported value and its record's (verify)
TOLERANCE = 1e-12


def plain(x: Any) -> float | None:
    """A float, or None for a missing or NaN value (JSON null)."""
    return None if x is None or (isinstance(x, float) and np.isnan(x)) else float(x)


def json_number(x: Any) -> float | str | None:
    """A float for JSON: None for a missing or NaN value, "inf" or "-inf" for an unbounded one (JSON has no
    infinity; the unjudged bounds of a measure without a range are unbounded)."""
    value = plain(x)
    return value if value is None or np.isfinite(value) else ("inf" if value > 0 else "-inf")
