"""Numbers as reports show them: a per-query value as a plain float or null, and the mean of a result."""

from __future__ import annotations

from typing import Any

import numpy as np

from rankflavor.flavor.values import Round


def plain(x: Any) -> float | None:
    """A float, or None for a missing or NaN value (JSON null)."""
    return None if x is None or (isinstance(x, float) and np.isnan(x)) else float(x)


def mean_of(raw: np.ndarray, round_to: Round) -> float | None:
    """The mean of the non-null per-query values (numpy's pairwise sum), rounded after averaging when the
    flavor says round=N; None when no query has a value."""
    ok = ~np.isnan(raw)
    if not ok.any():
        return None
    mean = float(raw[ok].mean())
    return mean if round_to.decimals is None else round(mean, round_to.decimals)
