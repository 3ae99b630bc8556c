"""Which queries' records the page embeds: those a reader is likely to open.

Under the first flavor: each run's worst queries, the queries where each run differs most from the baseline;
for each pair whose winner reverses across flavors, the queries whose winner changes most across its smallest
flip; and a fixed random sample. At most `cap` queries in all; any other record is one `rankflavor explain`
command away (the page prints it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rankflavor.flavor import Flavor

PER_KIND = 25  # queries per reason (per run, per pair)
CAP = 120  # distinct queries with records


@dataclass
class Picks:
    """Positions j (in the judged queries' order) -> why they were picked; and the extra flavors (beyond the
    first) whose records the flip queries need."""

    why: dict[int, list[str]] = field(default_factory=dict)
    extra: dict[int, list[Flavor]] = field(default_factory=dict)

    def add(self, j: int, reason: str, cap: int) -> bool:
        if j not in self.why and len(self.why) >= cap:
            return False
        reasons = self.why.setdefault(j, [])
        if reason not in reasons:
            reasons.append(reason)
        return True


def pick_queries(values: dict[tuple[str, Flavor], np.ndarray], runs: list[str], first: Flavor,
                 baseline: str | None, flips: list[tuple[str, str, Flavor, Flavor, str]],
                 per_kind: int = PER_KIND, cap: int = CAP, seed: int = 0) -> Picks:
    """values: (run, flavor) -> per-query values (NaN = not scored). flips: (run_a, run_b, from, to, change)."""
    picks = Picks()
    for run in runs:  # the worst scored queries of each run
        v = values[(run, first)]
        scored = np.flatnonzero(~np.isnan(v))
        for j in scored[np.argsort(v[scored], kind="stable")][:per_kind]:
            picks.add(int(j), f"among the worst of {run}", cap)
    if baseline is not None:
        for run in runs:
            if run == baseline:
                continue
            d = values[(run, first)] - values[(baseline, first)]
            both = np.flatnonzero(~np.isnan(d))
            for j in both[np.argsort(-np.abs(d[both]), kind="stable")][:per_kind]:
                picks.add(int(j), f"{run} vs {baseline}: a largest difference", cap)
    for a, b, f1, f2, change in flips:
        d1 = values[(a, f1)] - values[(b, f1)]
        d2 = values[(a, f2)] - values[(b, f2)]
        changed = np.flatnonzero(~np.isnan(d1) & ~np.isnan(d2) & (np.sign(np.round(d1, 12)) != np.sign(np.round(d2, 12))))
        for j in changed[np.argsort(-np.abs(d1[changed] - d2[changed]), kind="stable")][:per_kind]:
            if picks.add(int(j), f"winner changes with {change}", cap):
                extra = picks.extra.setdefault(int(j), [])
                extra += [f for f in (f1, f2) if f != first and f not in extra]
    n = len(next(iter(values.values())))
    for j in np.random.default_rng(seed).permutation(n)[:per_kind]:
        picks.add(int(j), "random sample", cap)
    return picks
