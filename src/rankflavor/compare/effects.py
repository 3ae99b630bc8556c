"""Per-pair and per-run statistics beyond the paired test's p-value (issue 27 item 1).

- `effect_size`: the paired Cohen's d_z = mean(d) / sd(d) of the per-query differences d, sd with n - 1
  degrees of freedom (Cohen 1988, eq. 2.3.5; Lakens, "Calculating and reporting effect sizes", Frontiers in
  Psychology 2013, eq. 6). Undefined (NaN) when sd(d) = 0 or n < 2. Not the standardised mean difference of two
  independent groups: queries are paired, so the spread is that of the differences.
- `win_tie_loss`, `wilcoxon_p`, `sign_p`: compare/rank_tests.py (stats.py's `PAIRED_P` reads them).
- `mean_intervals`: each run's mean with its interval over the compared queries: Student's t,
  mean +- t_{n-1, (1+c)/2} sd / sqrt(n), or the percentile bootstrap of the mean (every run resampled with the
  same query indices: a seeded stream of its own), mapped as the flavor summarises (exp for a geometric mean,
  times n for a sum).
"""

from __future__ import annotations

import numpy as np

from rankflavor.compare.stats import TestSettings, _chunks

MEANS_STREAM = 2  # np.random.SeedSequence(seed).spawn(4)[2]: the bootstrap of each run's mean (0, 1: stats.py)


def effect_size(d: np.ndarray) -> float:
    """Paired Cohen's d_z = mean(d) / sd(d) (sd with n - 1); NaN when undefined."""
    d = np.asarray(d, dtype=np.float64)
    if len(d) < 2 or bool(np.all(d == d[0])):  # (no spread: numpy's sd of equal values can be 1e-17, not 0)
        return float("nan")
    sd = float(np.std(d, ddof=1))
    return float(np.mean(d)) / sd if sd > 0 else float("nan")




def t_interval(x: np.ndarray, confidence: float) -> tuple[float, float]:
    """mean(x) +- t_{n-1} sd(x) / sqrt(n) (the point when n < 2 or sd = 0)."""
    from scipy import stats

    x = np.asarray(x, dtype=np.float64)
    if len(x) == 0:
        return float("nan"), float("nan")
    mean = float(x.mean())
    if len(x) < 2 or np.all(x == x[0]):
        return mean, mean
    half = float(stats.t.ppf((1 + confidence) / 2, len(x) - 1)) * float(x.std(ddof=1)) / np.sqrt(len(x))
    return mean - half, mean + half


def resampled_means(cols: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """(R, F): the column means of R resamples of the rows with replacement, each resample's counts of every
    row times the columns (one matrix product), the same rows for every column. The draws are
    `stats.bootstrap_means`' (the same chunks of `rng.integers`), so they depend on n and R, not on F."""
    n, width = cols.shape
    out = np.empty((n_resamples, width))
    dtype = np.uint16 if n <= 65_535 else np.int64
    for lo, hi in _chunks(n_resamples, n):
        idx = rng.integers(0, n, size=(hi - lo, n), dtype=dtype).astype(np.int64)
        idx += (np.arange(hi - lo, dtype=np.int64) * n)[:, None]
        counts = np.bincount(idx.ravel(), minlength=(hi - lo) * n).reshape(hi - lo, n)
        out[lo:hi] = (counts @ cols) / n
    return out


def _means_rng(settings: TestSettings) -> np.random.Generator:
    """The generator of the means' resamples: a fresh one per block of columns, so each block draws the same."""
    return np.random.default_rng(np.random.SeedSequence(settings.seed).spawn(4)[MEANS_STREAM])


def mean_intervals(columns: np.ndarray, settings: TestSettings, aggregate: str | list[str] = "mean",
                   ) -> list[tuple[float, float]]:
    """The interval of each column's mean (columns: (n, F) of the values a mean summarises), as declared;
    `aggregate` (one, or one per column) "gm" maps it through exp, "sum" multiplies it by n. Columns over the
    same queries get the same intervals whether given together or one by one."""
    cols = np.asarray(columns, dtype=np.float64)
    n, width = cols.shape
    if n == 0:
        ends = np.full((width, 2), np.nan)
    elif settings.ci == "t":
        ends = np.array([t_interval(cols[:, f], settings.confidence) for f in range(width)])
    else:
        from rankflavor.compare.plan import resample_block

        alpha = 1.0 - settings.confidence
        step = resample_block(settings.n_resamples, width)  # (columns in blocks that fit: the same draws for each)
        ends = np.vstack([np.percentile(resampled_means(cols[:, lo:lo + step], settings.n_resamples, _means_rng(settings)),
                                        [100 * alpha / 2, 100 * (1 - alpha / 2)], axis=0).T
                          for lo in range(0, width, step)])
        constant = np.all(cols == cols[0], axis=0)
        ends[constant] = cols[0][constant, None]
    kinds = [aggregate] * width if isinstance(aggregate, str) else list(aggregate)
    return [(float(np.exp(lo)), float(np.exp(hi))) if kind == "gm" else (float(lo * n), float(hi * n))
            if kind == "sum" else (float(lo), float(hi)) for kind, (lo, hi) in zip(kinds, ends, strict=True)]


EFFECT_SIZE = "paired Cohen's d_z = mean(d) / sd(d), sd with n - 1 (Cohen 1988; Lakens 2013, eq. 6)"
