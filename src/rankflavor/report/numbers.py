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
