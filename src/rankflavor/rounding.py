"""Rounding to N decimals as printf's %.Nf and Python's round() do it: correctly, from the exact binary value
(0.9073749999999999 to 5 decimals is 0.90737). numpy's np.round scales by 10^N first and can land on the
other side of a half (it gives 0.90738); the tools whose printed values rankflavor reproduces (gdeval.pl's
%.5f, BEIR's round) round correctly.
"""

from __future__ import annotations

import numpy as np


def round_values(values: np.ndarray, decimals: int) -> np.ndarray:
    """Each value rounded to `decimals` as round(value, decimals) does (nan stays nan)."""
    quick = np.round(values, decimals)
    scaled = values * 10.0 ** decimals
    with np.errstate(invalid="ignore"):
        near_half = np.abs(np.abs(scaled - np.trunc(scaled)) - 0.5) < 1e-6  # (np.round may be wrong only there)
    out = quick.copy()
    for i in np.flatnonzero(near_half):
        out[i] = round(float(values[i]), decimals)
    return out
