"""Position discounts d(i) for 1-based ranks i.

log2: 1/log2(i+1) (Järvelin & Kekäläinen 2002 as used by trec_eval ndcg_cut); jarvelin(b): 1 for i < b,
1/log_b(i) after (the original 2002 definition, trec_eval ndcg_p with b=2); log(b): 1/log_b(i+1);
reciprocal: 1/i; none: 1.
"""

from __future__ import annotations

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
