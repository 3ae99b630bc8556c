"""Position discounts d(i) for 1-based ranks i.

log2: 1/log2(i+1) (Jarvelin & Kekalainen 2002 as used by trec_eval ndcg_cut); jarvelin(b): 1 for i < b,
1/log_b(i) after (the original 2002 definition, trec_eval ndcg_p with b=2); log(b): 1/log_b(i+1);
reciprocal: 1/i; none: 1.
"""

from __future__ import annotations

import numpy as np

from rankflavor.flavor.axes import parse_base, parse_call


def discount_values(ranks: np.ndarray, token: str) -> np.ndarray:
    """d(i) for every 1-based rank in `ranks` (float64)."""
    i = np.asarray(ranks, dtype=np.float64)
    kind, arg = parse_call(token)
    if kind == "log2":
        return 1.0 / np.log2(i + 1.0)
    if kind == "log":
        base = parse_base(arg or "2")
        return np.log(base) / np.log(i + 1.0)
    if kind == "jarvelin":
        base = parse_base(arg or "2")
        with np.errstate(divide="ignore"):
            after = np.log(base) / np.log(np.maximum(i, 1.0))
        return np.where(i < base, 1.0, after)
    if kind == "reciprocal":
        return 1.0 / i
    if kind == "none":
        return np.ones_like(i)
    raise ValueError(f"unknown discount {token!r}")
