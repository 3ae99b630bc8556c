"""What each difference's interval covers: its own pair, or every pair of the flavor at once (`TestSettings.intervals`).

- `per_comparison` (the default): each pair's interval at the declared confidence c. The p-values are corrected
  over the m pairs of a flavor and the intervals are not, so an interval can exclude 0 where the corrected test is
  not significant; every output says so.
- `simultaneous`: the intervals of a flavor's m pairs made to hold together, as the declared correction holds the
  tests (Miller, "Simultaneous Statistical Inference", 1981):
  - holm, bonferroni: each at 1 - (1 - c) / m (Bonferroni's; for Holm's step-down they are the usual, conservative
    companion: a Bonferroni interval excluding 0 implies Holm's rejection, not the converse);
  - bh: the false coverage rate intervals of Benjamini & Yekutieli ("False discovery rate-adjusted multiple
    confidence intervals for selected parameters", JASA 100(469), 2005): each at 1 - R (1 - c) / m, R the pairs
    the correction declares significant (at least 1);
  - test=tukey: mean_a - mean_b +- the c-quantile of the randomised Tukey test's null ranges (the largest
    difference of run means over within-query permutations): one half-width for every pair, the interval that
    matches the test's family-wise error (compare/tukey.py).
"""

from __future__ import annotations

import numpy as np

from rankflavor.compare.stats import TestSettings


def family_level(settings: TestSettings, m: int, rejected: int = 0) -> float:
    """The confidence each of a family's m difference intervals is made at (test=tukey: compare/tukey.py)."""
    if settings.intervals == "per_comparison" or m <= 1 or settings.test == "tukey":
        return settings.confidence
    q = 1.0 - settings.confidence
    if settings.correction == "bh":
        return 1.0 - max(rejected, 1) * q / m
    return 1.0 - q / m


def tukey_half_width(ranges: np.ndarray, confidence: float) -> float:
    """The c-quantile of the randomised Tukey test's null ranges (numpy's linear interpolation)."""
    return float(np.quantile(ranges, confidence)) if len(ranges) else float("nan")


def describe(settings: TestSettings, m: int) -> str:
    """What the difference intervals cover, as every output says it."""
    level = f"{settings.confidence * 100:g}%"
    if m <= 1:
        return f"each difference's {level} interval (one pair: per comparison and simultaneous are the same)"
    if settings.intervals == "per_comparison":
        return (f"each difference's {level} interval is per comparison (its own pair, not adjusted for the {m} pairs "
                "of a flavor: an interval can exclude 0 where the corrected test is not significant; "
                "intervals=simultaneous adjusts them)")
    if settings.test == "tukey":
        return (f"the {level} intervals are simultaneous over all {m} pairs of a flavor: the difference +- the "
                f"{level} quantile of the randomised Tukey test's null ranges")
    if settings.correction == "bh":
        return (f"the intervals are simultaneous in Benjamini & Yekutieli's sense (false coverage rate "
                f"{(1 - settings.confidence):g} over the {m} pairs of a flavor): each at 1 - R x "
                f"{(1 - settings.confidence):g} / {m}, R the significant pairs")
    return (f"the intervals are simultaneous over the {m} pairs of a flavor (Bonferroni: each at "
            f"{family_level(settings, m) * 100:.4g}%)")
