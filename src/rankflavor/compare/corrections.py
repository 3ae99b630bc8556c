"""Multiple-comparison corrections over one family of p-values (each flavor's pairs): `adjust(p, method)`.

- holm: Holm (1979) step-down, p~_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)) (stats.holm);
- bonferroni: min(1, m p_i) (Dunn 1961);
- bh: Benjamini & Hochberg (1995) step-up false discovery rate, p~_(i) = min_{j >= i} min(1, m p_(j) / j);
- none: p as it is.
p_(1) <= ... <= p_(m) are the family's known p-values (NaN stays NaN and does not count towards m), as
statsmodels' `multipletests(method="holm" | "bonferroni" | "fdr_bh")`, which the tests check.
"""

from __future__ import annotations

import numpy as np

from rankflavor.compare.stats import CORRECTIONS, holm, step_adjusted

NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg (false discovery rate)",
         "none": "none (uncorrected)"}


def bonferroni(p: np.ndarray | list[float]) -> np.ndarray:
    p = np.asarray(p, dtype=np.float64)
    return np.minimum(1.0, p * int((~np.isnan(p)).sum()))


def benjamini_hochberg(p: np.ndarray | list[float]) -> np.ndarray:
    return step_adjusted(p, lambda ordered, m: ordered * m / np.arange(1, m + 1), step_up=True)


def adjust(p: np.ndarray | list[float], method: str) -> np.ndarray:
    """The family's p-values adjusted by `method` (one of CORRECTIONS)."""
    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r}; use one of {', '.join(CORRECTIONS)}")
    if method == "none":
        return np.asarray(p, dtype=np.float64).copy()
    return {"holm": holm, "bonferroni": bonferroni, "bh": benjamini_hochberg}[method](p)
