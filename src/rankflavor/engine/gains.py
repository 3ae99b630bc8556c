"""Gain functions g(grade): linear g (Järvelin & Kekäläinen 2002), exp2 2^g - 1 (Burges et al. 2005), or a table."""

from __future__ import annotations

import numpy as np

from rankflavor.errors import EvaluationError
from rankflavor.flavor.values import Gain


def gain_values(grades: np.ndarray, gain: Gain) -> np.ndarray:
    """Gain of every grade; a grade missing from a table, or an overflow, is an error."""
    grades = np.asarray(grades, dtype=np.float64)
    if gain.kind == "linear":
        return _finite_sum(grades.copy(), gain)
    if gain.kind == "exp2":
        with np.errstate(over="ignore"):
            gains = np.exp2(grades) - 1.0
        if not np.isfinite(gains).all():
            worst = grades[~np.isfinite(gains)].max()
            raise EvaluationError(f"gain=exp2 overflows for grade {worst:g} (2^g - 1 exceeds float64)")
        return _finite_sum(gains, gain)
    assert gain.table is not None
    keys = np.array(sorted(gain.table), dtype=np.float64)
    values = np.array([gain.table[k] for k in sorted(gain.table)], dtype=np.float64)
    index = np.clip(np.searchsorted(keys, grades), 0, len(keys) - 1)
    found = keys[index] == grades
    if gain.rest == "g":  # (`*:g`: an unlisted grade is its own gain, as ir_measures' gains.get(g, g))
        return _finite_sum(np.where(found, values[index], grades), gain)
    if not found.all():
        missing = sorted(set(grades[~found].tolist()))
        listed = ", ".join(f"{k:g}" for k in keys)
        raise EvaluationError(f"grade {missing[0]:g} has no gain in the table gain={gain} (it lists {listed}); "
                              "add it to the table")
    return _finite_sum(values[index], gain)


def _finite_sum(gains: np.ndarray, gain: Gain) -> np.ndarray:
    """Refuse gains whose sum overflows float64: DCG and IDCG would be infinite and NDCG NaN.

    A guard for the usual discounts (at most 1); `log(b)` with b > 2 or `ideal=max` can still overflow later."""
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.abs(gains).sum()
    if not np.isfinite(total):
        raise EvaluationError(f"gain={gain}: the gains sum past float64's range (largest {np.abs(gains).max():g}), "
                              "so DCG would be infinite; use smaller grades or another gain")
    return gains
