"""Position discounts d(i) for 1-based ranks i.

log2: 1/log2(i+1) (Järvelin & Kekäläinen 2002 as used by trec_eval ndcg_cut); jarvelin(b): 1 for i < b,
1/log_b(i) after (the original 2002 definition, trec_eval ndcg_p with b=2); log(b): 1/log_b(i+1);
reciprocal: 1/i; none: 1.

A discount depends on the rank alone, and ranks are small integers: `at_ranks` reads d(i) from a table of
d(1..N) made once per discount (the same values `discount_values` gives, elementwise) instead of taking
logarithms row by row.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rankflavor.flavor.values import Discount


def discount_values(ranks: np.ndarray, discount: Discount) -> np.ndarray:
    """d(i) for every 1-based rank in `ranks` (float64)."""
    i = np.asarray(ranks, dtype=np.float64)
    if discount.kind == "log2":
        return 1.0 / np.log2(i + 1.0)
    if discount.kind == "log":
        return np.log(discount.base) / np.log(i + 1.0)
    if discount.kind == "jarvelin":
        with np.errstate(divide="ignore"):
            after = np.log(discount.base) / np.log(np.maximum(i, 1.0))
        return np.where(i < discount.base, 1.0, after)
    if discount.kind == "reciprocal":
        return 1.0 / i
    return np.ones_like(i)


def at_ranks(ranks: np.ndarray, discount: Discount) -> np.ndarray:
    """discount_values(ranks, discount) for integer ranks >= 1, read from the discount's table."""
    if not len(ranks):
        return np.zeros(0)
    top = int(ranks.max())
    return _table(discount, 1 << max(top, 1).bit_length())[ranks]


@lru_cache(maxsize=32)
def _table(discount: Discount, size: int) -> np.ndarray:
    """d(i) for i = 0 .. size - 1 (d(0) unused)."""
    with np.errstate(divide="ignore"):  # (at i = 0)
        table = discount_values(np.arange(size), discount)
    table.flags.writeable = False
    return table
