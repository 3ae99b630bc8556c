"""The randomised Tukey HSD test over all runs (Carterette, "Multiple testing in statistical analysis of
systems-based information retrieval experiments", ACM TOIS 30(1), 2012, section 4.3; Sakai, "Laboratory
Experiments in Information Retrieval", Springer 2018, section 4.5).

X is the (queries x runs) matrix of the values each run's mean summarises, over the comparison's queries. Under
the null hypothesis that the runs are the same system, a query's scores are as likely in any order across runs,
so each resample permutes every row of X independently and takes the range of the permuted run means,
r* = max_j mean_q X*_qj - min_j mean_q X*_qj. A pair's p-value is the share of resamples whose range reaches the
pair's observed |mean_a - mean_b|, p = (1 + #{r* >= |mean_a - mean_b|}) / (1 + R) (Phipson & Smyth 2010, as the
randomization test): one null distribution, that of the largest difference, for every pair, so the p-values hold
the family-wise error over all k (k - 1) / 2 pairs without a further correction. Seeded: the resamples come
from stream 3 of `np.random.SeedSequence(seed)` (0, 1: stats.py; 2: effects.py), the same numbers for the
same seed, resample count and matrix.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from rankflavor.compare.stats import CHUNK

TUKEY_STREAM = 3
TABLE_RUNS = 6  # up to 6 runs (720 orders) a query's permutation is drawn from a table of its k! orders,
TABLE_VALUES = 1 << 24  # when the table (queries x k! x k values) holds at most this many (128 MB)


def tukey_ranges(x: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    """The range (max - min) of the run means of `n_resamples` within-query permutations of x (n, k).

    Up to TABLE_RUNS runs (and TABLE_VALUES values), each query's permutation is one of the k! orders, drawn
    uniformly as an index into a table of every query's k! permuted rows (a gather per run instead of a shuffle
    per query); beyond: `Generator.permuted` row by row."""
    x = np.asarray(x, dtype=np.float64)
    n, k = x.shape
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(TUKEY_STREAM + 1)[TUKEY_STREAM])
    out = np.empty(n_resamples)
    if k <= TABLE_RUNS and n * math.factorial(k) * k <= TABLE_VALUES:
        orders = np.array(list(itertools.permutations(range(k))))  # (k!, k)
        table = x[:, orders].reshape(n * len(orders), k)  # row q * k! + o: query q's scores in order o
        columns = [np.ascontiguousarray(table[:, j]) for j in range(k)]
        offsets = (np.arange(n, dtype=np.int64) * len(orders))[None, :]
        for lo in range(0, n_resamples, max(1, CHUNK // max(n, 1))):
            hi = min(n_resamples, lo + max(1, CHUNK // max(n, 1)))
            picks = rng.integers(0, len(orders), size=(hi - lo, n), dtype=np.int64) + offsets
            means = np.column_stack([column[picks].mean(axis=1) for column in columns])
            out[lo:hi] = means.max(axis=1) - means.min(axis=1)
        return out
    step = max(1, CHUNK // max(n * k, 1))
    for lo in range(0, n_resamples, step):
        hi = min(n_resamples, lo + step)
        permuted = rng.permuted(np.broadcast_to(x, (hi - lo, n, k)), axis=2)
        means = permuted.mean(axis=1)
        out[lo:hi] = means.max(axis=1) - means.min(axis=1)
    return out


def tukey_hsd(x: np.ndarray, pairs: list[tuple[int, int]], n_resamples: int = 10_000, seed: int = 0) -> list[float]:
    """The randomised Tukey HSD p-value of each pair (i, j) of columns of x (queries x runs, every run)."""
    return tukey_test(x, pairs, n_resamples, seed)[0]


def tukey_test(x: np.ndarray, pairs: list[tuple[int, int]], n_resamples: int = 10_000, seed: int = 0,
               ) -> tuple[list[float], np.ndarray]:
    """(each pair's randomised Tukey HSD p-value, the null ranges they were read from: compare/intervals.py takes
    the simultaneous intervals' half-width from them)."""
    x = np.asarray(x, dtype=np.float64)
    if x.shape[0] == 0 or x.shape[1] < 2:
        return [float("nan")] * len(pairs), np.zeros(0)
    ranges = tukey_ranges(x, n_resamples, seed)
    means = x.mean(axis=0)
    scale = 1e-9 * max(1.0, float(np.abs(x).max())) if x.size else 0.0
    p = []
    for i, j in pairs:
        observed = abs(means[i] - means[j])
        p.append(float((1 + int((ranges >= observed - scale).sum())) / (1 + n_resamples)))
    return p, ranges
