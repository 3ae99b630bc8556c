"""Paired statistics over per-query differences d_i = a_i - b_i (vectorised, seeded).

- `randomization_test`: two-sided paired randomization (sign-flip) test of mean(d) = 0 (Fisher 1935;
  Smucker, Allan & Carterette, CIKM 2007). Under H0 each d_i is as likely to be -d_i, so the statistic
  T(s) = mean(s * d) over sign vectors s in {-1, +1}^n is the null distribution and
  p = P(|T(s)| >= |T(1)|). Exact over all 2^n sign vectors when 2^n <= n_resamples; otherwise Monte
  Carlo with p = (1 + #{|T(s)| >= |T(1)|}) / (1 + R) (Phipson & Smyth 2010). Both match
  `scipy.stats.permutation_test(..., permutation_type="samples")`, which the tests check.
- `bootstrap_ci`: paired percentile bootstrap of mean(d) (Efron & Tibshirani 1993, ch. 13): R resamples
  of the n queries with replacement, the interval is the (alpha/2, 1 - alpha/2) percentiles of the
  resampled means (numpy's linear interpolation, as `scipy.stats.bootstrap(method="percentile")`).
- `t_test`: `scipy.stats.ttest_rel` and its confidence interval, mean(d) +- t_{n-1} sd(d) / sqrt(n).
- `holm`: Holm (1979) step-down adjusted p-values, p~_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CHUNK = 1 << 21  # resampled values held in memory at once


@dataclass(frozen=True)
class PairedTest:
    n: int
    diff: float  # mean of d
    ci_low: float
    ci_high: float
    p: float
    test: str
    exact: bool


def _rng(seed: int | np.random.Generator) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _chunks(total: int, n: int) -> list[tuple[int, int]]:
    step = max(1, CHUNK // max(n, 1))
    return [(i, min(total, i + step)) for i in range(0, total, step)]


def randomization_test(d: np.ndarray, n_resamples: int = 10_000, seed: int | np.random.Generator = 0,
                       ) -> tuple[float, bool]:
    """Two-sided paired sign-flip p-value of mean(d) = 0 and whether it was computed exactly."""
    d = np.asarray(d, dtype=np.float64)
    n = len(d)
    if n == 0:
        return float("nan"), True
    observed = abs(d.mean())
    # relative tolerance so that flips equal to the observed value up to rounding count as ">=" (as SciPy)
    threshold = observed - 1e-12 * max(observed, np.abs(d).mean())
    exact = 2.0**n <= n_resamples
    hits = 0
    if exact:
        total = 1 << n
        for lo, hi in _chunks(total, n):
            codes = np.arange(lo, hi, dtype=np.int64)[:, None]
            signs = 1.0 - 2.0 * ((codes >> np.arange(n, dtype=np.int64)) & 1)
            hits += int((np.abs(signs @ d) / n >= threshold).sum())
        return hits / total, True
    rng = _rng(seed)
    for lo, hi in _chunks(n_resamples, n):
        signs = rng.integers(0, 2, size=(hi - lo, n), dtype=np.int8).astype(np.float64) * 2.0 - 1.0
        hits += int((np.abs(signs @ d) / n >= threshold).sum())
    return (hits + 1) / (n_resamples + 1), False


def bootstrap_means(d: np.ndarray, n_resamples: int = 10_000, seed: int | np.random.Generator = 0) -> np.ndarray:
    """Means of `n_resamples` resamples of d with replacement (the paired bootstrap distribution)."""
    d = np.asarray(d, dtype=np.float64)
    n = len(d)
    rng = _rng(seed)
    out = np.empty(n_resamples)
    for lo, hi in _chunks(n_resamples, n):
        out[lo:hi] = d[rng.integers(0, n, size=(hi - lo, n))].mean(axis=1)
    return out


def bootstrap_ci(d: np.ndarray, n_resamples: int = 10_000, seed: int | np.random.Generator = 0,
                 confidence: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of mean(d)."""
    d = np.asarray(d, dtype=np.float64)
    if len(d) == 0:
        return float("nan"), float("nan")
    if np.all(d == d[0]):
        return float(d[0]), float(d[0])
    alpha = 1.0 - confidence
    low, high = np.percentile(bootstrap_means(d, n_resamples, seed), [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return float(low), float(high)


def t_test(d: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """(p, ci_low, ci_high) of the paired t-test on d (scipy.stats.ttest_rel against zeros)."""
    from scipy import stats

    d = np.asarray(d, dtype=np.float64)
    if len(d) < 2 or np.all(d == d[0]):
        # no variance: the test is undefined; a zero difference is no evidence, a constant one is not testable
        m = float(d[0]) if len(d) else float("nan")
        return (1.0 if m == 0 else float("nan")), m, m
    res = stats.ttest_rel(d, np.zeros_like(d))
    ci = res.confidence_interval(confidence)
    return float(res.pvalue), float(ci.low), float(ci.high)


def paired_test(a: np.ndarray, b: np.ndarray, test: str = "randomization", n_resamples: int = 10_000,
                seed: int = 0, confidence: float = 0.95) -> PairedTest:
    """Mean difference a - b with a confidence interval and a two-sided p-value.

    test="randomization": sign-flip p-value and paired percentile bootstrap CI (both seeded).
    test="t": scipy.stats.ttest_rel p-value and its t interval.
    """
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    n = len(d)
    diff = float(d.mean()) if n else float("nan")
    if test == "t":
        p, low, high = t_test(d, confidence)
        return PairedTest(n, diff, low, high, p, "t", True)
    if test != "randomization":
        raise ValueError(f"unknown test {test!r}; use 'randomization' or 't'")
    rng = np.random.default_rng(seed)
    p, exact = randomization_test(d, n_resamples, rng)
    low, high = bootstrap_ci(d, n_resamples, rng, confidence)
    return PairedTest(n, diff, low, high, p, "randomization", exact)


def holm(p: np.ndarray | list[float]) -> np.ndarray:
    """Holm step-down adjusted p-values (NaN stays NaN and does not count towards m)."""
    p = np.asarray(p, dtype=np.float64)
    out = np.full(len(p), np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = len(ok)
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(scaled)
    return out
