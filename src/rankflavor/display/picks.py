"""Which queries the page offers first: those a reader is likely to open (diffir picks contrasting queries the same
way: MacAvaney et al., "ABNIRML"/"diffir", 2021).

Over the comparison's query set (`keep`): for each pair, the queries where the two runs differ most under the first
flavor, and the queries where the flavors disagree most about the pair (the largest spread of the pair's per-query
difference across the flavors, a change of sign first); each run's worst queries; a fixed random sample. At most
`cap` queries in all. They are the side-by-side view's entry points and, when the page's list budget cannot hold
every query, the queries whose lists it embeds (display/lists.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rankflavor.flavor import Flavor

PER_KIND = 25  # queries per reason (per run, per pair)
CAP = 120  # distinct queries picked


@dataclass
class Picks:
    """Positions j (in the judged queries' order) -> why they were picked; per pair "a|b", its entry points: the
    queries that differ most and those the flavors disagree most about, in order."""

    why: dict[int, list[str]] = field(default_factory=dict)
    differ: dict[str, list[int]] = field(default_factory=dict)
    disagree: dict[str, list[int]] = field(default_factory=dict)

    def add(self, j: int, reason: str, cap: int) -> bool:
        if j not in self.why and len(self.why) >= cap:
            return False
        reasons = self.why.setdefault(j, [])
        if reason not in reasons:
            reasons.append(reason)
        return True


def pair_key(a: str, b: str) -> str:
    return f"{a}|{b}"


def disagreement(diffs: list[np.ndarray]) -> np.ndarray:
    """Per query, how much the flavors disagree about a pair: the spread max - min of its difference across the
    flavors, plus 1 where the sign changes (so a change of winner comes first); NaN where a flavor has no value."""
    d = np.vstack(diffs)
    spread = d.max(axis=0) - d.min(axis=0)
    signs = np.sign(np.round(d, 12))
    return spread + ((signs.max(axis=0) > 0) & (signs.min(axis=0) < 0))


def pick_queries(values: dict[tuple[str, Flavor], np.ndarray], runs: list[str], flavors: list[Flavor],
                 pairs: list[tuple[str, str]], keep: np.ndarray | None = None, per_kind: int = PER_KIND,
                 cap: int = CAP, seed: int = 0) -> Picks:
    """values: (run, flavor) -> per-query values (NaN = not scored); keep: the query set (default every query)."""
    picks = Picks()
    first = flavors[0]
    n = len(values[(runs[0], first)])
    keep = np.ones(n, dtype=bool) if keep is None else keep
    for a, b in pairs:
        d = np.where(keep, values[(a, first)] - values[(b, first)], np.nan)
        both = np.flatnonzero(~np.isnan(d))
        order = both[np.argsort(-np.abs(d[both]), kind="stable")][:per_kind]
        picks.differ[pair_key(a, b)] = [int(j) for j in order]
        for j in order:
            picks.add(int(j), f"{a} vs {b}: a largest difference", cap)
        if len(flavors) > 1:
            spread = disagreement([np.where(keep, values[(a, f)] - values[(b, f)], np.nan) for f in flavors])
            known = np.flatnonzero(~np.isnan(spread) & (spread > 1e-12))
            order = known[np.argsort(-spread[known], kind="stable")][:per_kind]
            picks.disagree[pair_key(a, b)] = [int(j) for j in order]
            for j in order:
                picks.add(int(j), f"{a} vs {b}: the flavors disagree most", cap)
    for run in runs:  # the worst scored queries of each run
        v = np.where(keep, values[(run, first)], np.nan)
        scored = np.flatnonzero(~np.isnan(v))
        for j in scored[np.argsort(v[scored], kind="stable")][:per_kind]:
            picks.add(int(j), f"among the worst of {run}", cap)
    inside = np.flatnonzero(keep)
    for j in np.random.default_rng(seed).permutation(inside)[:per_kind]:
        picks.add(int(j), "random sample", cap)
    return picks
