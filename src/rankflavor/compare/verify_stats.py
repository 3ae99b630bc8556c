"""Comparison.verify() for the statistics of issue 27 (compare/verify.py calls it per flavor): each number
recomputed plainly from the per-query values, with `statistics`, `math` and SciPy's own functions, not with the
vectorised code that made it:
- each mean's t interval: mean +- scipy.stats.t.ppf((1 + c) / 2, n - 1) * statistics.stdev / sqrt(n) (a
  bootstrap interval: the same seeded resamples again, compare/effects.py: they cannot be re-derived otherwise);
- each difference's interval under ci=t the same way (a bootstrap one: the same seeded resamples again);
- Cohen's d_z = statistics.mean(d) / statistics.stdev(d); wins / ties / losses counted one query at a time;
- the differences snapped at the tolerance one value at a time (`plain_snap`), before any sign or rank;
- Wilcoxon's p by its own convolution of the midranks' null distribution (a dict of sums, exact) or, beyond
  EXACT_WILCOXON nonzero differences, scipy.stats.wilcoxon(method="approx") on the snapped differences; the sign
  test's from scipy.stats.binomtest; Tukey HSD's by the same seeded test; the direction each test's statistic
  favours (`plain_favours`);
- the declared correction step by step: Holm, Bonferroni, Benjamini-Hochberg (from the largest p down), none.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from typing import Any

import numpy as np

from rankflavor import registry
from rankflavor.compare.effects import mean_intervals
from rankflavor.compare.intervals import family_level, tukey_half_width
from rankflavor.compare.rank_tests import EXACT_WILCOXON
from rankflavor.compare.stats import TestSettings, paired_tests
from rankflavor.compare.tukey import tukey_test


def settings_of(cmp: Any) -> TestSettings:
    """The comparison's TestSettings, from its canonical string (or, for an older record, its fields)."""
    s = cmp.settings
    if "canonical" in s:
        return TestSettings.parse(s["canonical"])
    return TestSettings(s["test"], s["n_resamples"], s["seed"], s["confidence"], s["alpha"])


def plain_t_interval(x: list[float], confidence: float) -> tuple[float, float]:
    from scipy import stats

    if not x:
        return math.nan, math.nan
    mean = math.fsum(x) / len(x)
    if len(x) < 2 or all(v == x[0] for v in x):
        return mean, mean
    half = stats.t.ppf((1 + confidence) / 2, len(x) - 1) * statistics.stdev(x) / math.sqrt(len(x))
    return mean - half, mean + half


def plain_snap(d: list[float], tolerance: float) -> list[float]:
    """Zeros within the tolerance, and magnitudes within it of the previous one (sorted) given their group's first."""
    magnitudes = sorted((0.0 if abs(x) <= tolerance else abs(x), i) for i, x in enumerate(d))
    out = [0.0] * len(d)
    first = previous = None
    for value, i in magnitudes:
        if previous is None or value - previous > tolerance:
            first = value
        previous = value
        out[i] = -first if d[i] < 0 else first  # type: ignore[operator]
    return out


def plain_wilcoxon(d: list[float]) -> tuple[float, int]:
    """(two-sided p, +1/-1/0) of the signed-rank test on snapped differences: zeros dropped, midranks; exact by a
    dict convolution of the doubled midranks, else SciPy's normal approximation with its tie correction."""
    from scipy import stats

    nonzero = [x for x in d if x != 0]
    if not d:
        return math.nan, 0
    if not nonzero:
        return 1.0, 0
    ordered = sorted(abs(x) for x in nonzero)
    rank_of = {}
    for value in set(ordered):
        places = [k + 1 for k, v in enumerate(ordered) if v == value]
        rank_of[value] = sum(places) / len(places)
    plus = math.fsum(rank_of[abs(x)] for x in nonzero if x > 0)
    minus = math.fsum(rank_of[abs(x)] for x in nonzero if x < 0)
    favours = 0 if plus == minus else 1 if plus > minus else -1
    if len(nonzero) > EXACT_WILCOXON:
        return float(stats.wilcoxon(nonzero, method="approx").pvalue), favours
    sums = {0: 1.0}
    for x in nonzero:
        r = round(2 * rank_of[abs(x)])
        grown: dict[int, float] = {}
        for total, weight in sums.items():
            grown[total] = grown.get(total, 0.0) + weight / 2
            grown[total + r] = grown.get(total + r, 0.0) + weight / 2
        sums = grown
    t = round(2 * plus)
    low = math.fsum(w for total, w in sums.items() if total <= t)
    high = math.fsum(w for total, w in sums.items() if total >= t)
    return min(1.0, 2 * min(low, high)), favours


def plain_p(d: list[float], test: str) -> float:
    """Wilcoxon's or the sign test's p on snapped differences (zeros dropped)."""
    return plain_test(d, test)[0]


def plain_test(d: list[float], test: str) -> tuple[float, int]:
    """(p, direction) of Wilcoxon's or the sign test on snapped differences."""
    from scipy import stats

    if test == "wilcoxon":
        return plain_wilcoxon(d)
    wins, losses = sum(x > 0 for x in d), sum(x < 0 for x in d)
    favours = 0 if wins == losses else 1 if wins > losses else -1
    if not d:
        return math.nan, 0
    return (1.0 if wins + losses == 0 else float(stats.binomtest(wins, wins + losses, 0.5).pvalue)), favours


def plain_favours(d: list[float], test: str, tolerance: float) -> int:
    """The run the declared test's statistic favours: the signed ranks (Wilcoxon), the wins (sign), else the mean."""
    if test in ("wilcoxon", "sign"):
        return plain_test(d, test)[1]
    mean = math.fsum(d) / len(d) if d else math.nan
    return 0 if mean != mean or abs(mean) <= tolerance else 1 if mean > 0 else -1


def plain_adjust(p: list[float], method: str) -> list[float]:
    """The declared correction, one p-value at a time."""
    known = sorted((x, i) for i, x in enumerate(p) if not math.isnan(x))
    m, out = len(known), list(p)
    if method == "bonferroni":
        return [x if math.isnan(x) else min(1.0, m * x) for x in p]
    if method == "holm":
        running = 0.0
        for rank, (x, i) in enumerate(known):
            running = max(running, min(1.0, (m - rank) * x))
            out[i] = running
    elif method == "bh":
        running = 1.0
        for rank in range(m - 1, -1, -1):
            x, i = known[rank]
            running = min(running, min(1.0, x * m / (rank + 1)))
            out[i] = running
    return out


def effect_and_counts(d: list[float]) -> dict[str, float | int]:
    """d_z and wins / ties / losses of snapped differences."""
    sd = statistics.stdev(d) if len(d) >= 2 else 0.0
    return {"effect_size": statistics.mean(d) / sd if sd > 0 else math.nan,
            "wins": sum(1 for x in d if x > 0), "ties": sum(1 for x in d if x == 0),
            "losses": sum(1 for x in d if x < 0)}


def check_flavor(cmp: Any, flavor: Any, summarised: dict[str, list[float]], diffs: list[list[float]],
                 settings: TestSettings, report: Callable[[str, str, Any, Any], None]) -> dict[int, float]:
    """Recompute the flavor's means' intervals and its pairs' intervals, effect sizes and counts, calling
    report(where, what, reported, recomputed) for each; return the p-values the declared test recomputes where
    compare/verify.py cannot (wilcoxon, sign, tukey), by pair position."""
    aggregate = registry.get(flavor.metric).aggregate
    runs = list(cmp.runs)
    if "ci_low" in cmp.means:
        columns = np.array([summarised[r] for r in runs], dtype=np.float64).T.reshape(-1, len(runs))
        if settings.ci == "t":
            raw = [plain_t_interval(summarised[r], settings.confidence) for r in runs]
            n = len(summarised[runs[0]])
            ends = [tuple(math.exp(v) if aggregate == "gm" else v * n if aggregate == "sum" else v for v in e)
                    for e in raw]
        else:
            ends = mean_intervals(columns, settings, aggregate)
        rows = cmp.means[cmp.means.flavor == str(flavor)]
        for row, (low, high) in zip(rows.itertuples(), ends, strict=True):
            report(row.run, "mean ci_low", row.ci_low, low), report(row.run, "mean ci_high", row.ci_high, high)
    pairs = cmp.pairs[cmp.pairs.flavor == str(flavor)]
    p_values: dict[int, float] = {}
    half = math.nan
    if settings.test == "tukey":
        index = {r: k for k, r in enumerate(runs)}
        x = np.array([summarised[r] for r in runs], dtype=np.float64).T.reshape(-1, len(runs))
        tukey, ranges = tukey_test(x, [(index[p.run_a], index[p.run_b]) for p in pairs.itertuples()],
                                   settings.n_resamples, settings.seed)
        p_values = dict(enumerate(tukey))
        half = tukey_half_width(ranges, settings.confidence)
    level = family_level(settings, len(pairs), int(pairs.significant.sum()))
    for j, (row, d) in enumerate(zip(pairs.itertuples(), diffs, strict=True)):
        where = f"{row.run_a} vs {row.run_b}"
        if settings.test == "tukey" and settings.intervals == "simultaneous":
            low, high = row.diff - half, row.diff + half
        elif settings.ci == "t":
            low, high = plain_t_interval(d, level)
        else:
            test = paired_tests(np.array(d, dtype=np.float64).reshape(-1, 1), settings, level)[0]
            low, high = test.ci_low, test.ci_high
        report(where, "ci_low", row.ci_low, low), report(where, "ci_high", row.ci_high, high)
        if "effect_size" in pairs:
            for what, want in effect_and_counts(d).items() if len(d) else ():
                report(where, what, getattr(row, what), want)
        if settings.test in ("wilcoxon", "sign"):
            p_values[j] = plain_p(d, settings.test)
    return p_values
