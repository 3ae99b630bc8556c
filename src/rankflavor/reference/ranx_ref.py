"""The reference of the measures rankflavor has for ranx's metric names alone, one query at a time, straight from
the formulas (ranx 0.3.21 ranx/metrics/hits.py).

    hits@k = |relevant docs in the top k|     (no cutoff: over the whole list)

A doc is relevant when it is judged (under `negative`) with a grade of at least `rel_level`; `ranked.flags` are
the ranked docs' relevance in rank order (after run_depth and unjudged=skip), as reference/binary.py gives them.
"""

from __future__ import annotations

from rankflavor.flavor import Flavor
from rankflavor.reference.binary import Outcome, Ranked


def hits(ranked: Ranked, flavor: Flavor) -> Outcome:
    """hits@k = the number of relevant docs among the first k ranked (all of them without a cutoff)."""
    flags = ranked.flags
    top = flags if flavor.cutoff is None else flags[: flavor.cutoff]
    count = 0
    for flag in top:
        if flag:
            count += 1
    return float(count), {"relevant_retrieved": float(count)}, False
