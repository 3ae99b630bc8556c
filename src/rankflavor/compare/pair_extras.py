"""The statistics a comparison reports beside each paired test (issue 27 items 1-2): per flavor, each run's
mean with its interval, each pair's effect size (Cohen's d_z) and win / tie / loss counts, and under test=tukey
each pair's randomised Tukey HSD p-value over all the runs (compare/effects.py, compare/tukey.py).

All over the same queries as the paired tests: the flavor's queries of the comparison's query set
(compare/query_set.py), the values each mean summarises (`summary_values`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rankflavor import registry
from rankflavor.compare.effects import effect_size, mean_intervals
from rankflavor.compare.intervals import tukey_half_width
from rankflavor.compare.query_set import QuerySet, set_values, summary_values
from rankflavor.compare.rank_tests import snap, win_tie_loss
from rankflavor.compare.stats import TestSettings
from rankflavor.compare.tukey import tukey_test
from rankflavor.flavor import Flavor


@dataclass
class Extras:
    """Per (flavor index, run): the interval of its mean; per (flavor index, pair index): effect size,
    wins / ties / losses, and the Tukey HSD p-value (under test=tukey)."""

    intervals: dict[tuple[int, str], tuple[float, float]] = field(default_factory=dict)
    pairs: dict[tuple[int, int], dict[str, float | int]] = field(default_factory=dict)
    tukey: dict[tuple[int, int], float] = field(default_factory=dict)
    tukey_half: dict[int, float] = field(default_factory=dict)  # flavor index -> the simultaneous half-width


def flavor_matrix(scores, qs: QuerySet, flavor: Flavor, runs: list[str]) -> np.ndarray:
    """(queries, runs): the values each run's mean summarises, over the flavor's queries of the set."""
    values = set_values(scores, qs, flavor)
    keep = ~np.isnan(values[runs[0]])
    return np.column_stack([summary_values(flavor, values[r][keep]) for r in runs])


def extras(scores, qs: QuerySet, flavors: list[Flavor], pairs: list[tuple[str, str]], settings: TestSettings,
           ) -> Extras:
    """The Extras of every flavor and pair of a comparison."""
    runs = list(scores.runs)
    index = {r: k for k, r in enumerate(runs)}
    out = Extras()
    matrices = [flavor_matrix(scores, qs, f, runs) for f in flavors]
    groups: dict[bytes, list[int]] = {}  # flavors over the same queries: their means resampled together
    for i, f in enumerate(flavors):
        groups.setdefault(np.isnan(set_values(scores, qs, f)[runs[0]]).tobytes(), []).append(i)
    for members in groups.values():
        kinds = [registry.get(flavors[i].metric).aggregate for i in members for _ in runs]
        ends = mean_intervals(np.hstack([matrices[i] for i in members]), settings, kinds)
        for k, (i, r) in enumerate((i, r) for i in members for r in runs):
            out.intervals[(i, r)] = ends[k]
    for i, x in enumerate(matrices):
        for j, (a, b) in enumerate(pairs):
            d = x[:, index[a]] - x[:, index[b]]
            wins, ties, losses = win_tie_loss(d, settings.tolerance)
            out.pairs[(i, j)] = {"effect_size": effect_size(snap(d, settings.tolerance)), "wins": wins, "ties": ties,
                                 "losses": losses}
        if settings.test == "tukey":
            p, ranges = tukey_test(x, [(index[a], index[b]) for a, b in pairs], settings.n_resamples, settings.seed)
            out.tukey.update({(i, j): pj for j, pj in enumerate(p)})
            out.tukey_half[i] = tukey_half_width(ranges, settings.confidence)
    return out
