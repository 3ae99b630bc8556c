"""The paired tests on the signs and ranks of per-query differences d_i = a_i - b_i, and the counts they read.

Differences are compared at the comparison's declared tolerance (`TestSettings.tolerance`, 1e-9 by default)
before any sign or rank is read (`snap`): a difference within it of 0 is a zero, and magnitudes within it of each
other (chained in sorted order) are one magnitude, so 0.8 - 0.6 and 0.5 - 0.3, which differ in their last bits,
are tied. Without it, P@k's differences would be ranked as distinct and Wilcoxon's no-ties distribution used.

- `win_tie_loss`: how many queries each run of the pair scores higher on (a tie: a zero after `snap`).
- `wilcoxon_test`: Wilcoxon's signed-rank test, zeros dropped (Wilcoxon's own "wilcox" zero method), tied
  magnitudes given their midrank; p from the exact distribution of the positive-rank sum over the 2^n sign
  vectors of those midranks (a convolution over doubled ranks, which are integers) when n <= EXACT_WILCOXON, else
  the normal approximation with the tie correction of the variance, sum (t^3 - t) / 48, and no continuity
  correction (Lehmann, "Nonparametrics", 1975, ch. 3; as `scipy.stats.wilcoxon(method="approx")`). Its
  statistic favours a when the positive-rank sum exceeds the negative one.
- `sign_test`: the exact sign test (binomial of the wins among wins + losses at 1/2, ties dropped); it favours
  the run with more wins.
"""

from __future__ import annotations

import numpy as np

DEFAULT_TOLERANCE = 1e-9
EXACT_WILCOXON = 200  # nonzero differences up to which Wilcoxon's p is exact


def snap(d: np.ndarray, tolerance: float = DEFAULT_TOLERANCE) -> np.ndarray:
    """d with |d_i| <= tolerance set to 0 and magnitudes within `tolerance` of the next smaller one (chained in
    sorted order) set to their group's smallest magnitude; signs kept. Idempotent."""
    d = np.asarray(d, dtype=np.float64)
    if len(d) == 0:
        return d.copy()
    mag = np.where(np.abs(d) <= tolerance, 0.0, np.abs(d))
    order = np.argsort(mag, kind="stable")
    ordered = mag[order]
    starts = np.r_[True, np.diff(ordered) > tolerance]
    first = np.maximum.accumulate(np.where(starts, np.arange(len(ordered)), 0))
    out = np.empty_like(mag)
    out[order] = ordered[first]
    return np.where(d < 0, -out, out)


def direction(value: float, tolerance: float = DEFAULT_TOLERANCE) -> int:
    """+1 when value > tolerance, -1 when value < -tolerance, else 0."""
    return 0 if value != value or abs(value) <= tolerance else (1 if value > 0 else -1)


def win_tie_loss(d: np.ndarray, tolerance: float = DEFAULT_TOLERANCE) -> tuple[int, int, int]:
    """(queries where a - b > tolerance, |a - b| <= tolerance, a - b < -tolerance)."""
    d = np.asarray(d, dtype=np.float64)
    wins, losses = int((d > tolerance).sum()), int((d < -tolerance).sum())
    return wins, len(d) - wins - losses, losses


def midranks(values: np.ndarray) -> np.ndarray:
    """The ranks of `values` (1-based), tied values given the mean of the ranks they occupy."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    ends = np.r_[starts[1:], len(ordered)]
    ranks = np.empty(len(values))
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    return ranks


def signed_rank_null(doubled: np.ndarray) -> np.ndarray:
    """P(T2 = s) for s = 0..sum(doubled), T2 the sum of the doubled ranks whose sign is +, each sign 1/2."""
    dist = np.zeros(int(doubled.sum()) + 1)
    dist[0] = 1.0
    top = 0
    for r in doubled.astype(np.int64):
        dist[r:top + r + 1] += dist[:top + 1].copy()
        dist[:top + r + 1] *= 0.5
        top += r
    return dist


def wilcoxon_test(d: np.ndarray, tolerance: float = DEFAULT_TOLERANCE) -> tuple[float, int]:
    """(two-sided p, the direction its statistic favours: +1 a, -1 b, 0 neither) of Wilcoxon's signed-rank test
    on the snapped differences; p 1 when every difference is zero, NaN with none."""
    d = snap(d, tolerance)
    if len(d) == 0:
        return float("nan"), 0
    d = d[d != 0]
    if len(d) == 0:
        return 1.0, 0
    ranks = midranks(np.abs(d))
    plus, minus = float(ranks[d > 0].sum()), float(ranks[d < 0].sum())
    favours = 0 if plus == minus else (1 if plus > minus else -1)
    n = len(d)
    if n <= EXACT_WILCOXON:
        doubled = np.rint(2 * ranks).astype(np.int64)  # (midranks are multiples of 1/2)
        dist = signed_rank_null(doubled)
        t2 = round(2 * plus)
        p = 2 * min(float(dist[:t2 + 1].sum()), float(dist[t2:].sum()))
    else:
        from scipy import stats

        _, counts = np.unique(np.abs(d), return_counts=True)
        var = n * (n + 1) * (2 * n + 1) / 24 - float((counts ** 3 - counts).sum()) / 48
        z = (plus - n * (n + 1) / 4) / np.sqrt(var) if var > 0 else 0.0
        p = 2 * float(stats.norm.sf(abs(z)))
    return min(1.0, p), favours


def sign_test(d: np.ndarray, tolerance: float = DEFAULT_TOLERANCE) -> tuple[float, int]:
    """(two-sided exact sign-test p: binomial(wins; wins + losses, 1/2), ties dropped, 1 with no win or loss;
    NaN with no query, the direction of the wins: +1 a, -1 b, 0)."""
    from scipy import stats

    wins, _, losses = win_tie_loss(d, tolerance)
    if len(d) == 0:
        return float("nan"), 0
    favours = 0 if wins == losses else (1 if wins > losses else -1)
    return (1.0 if wins + losses == 0 else float(stats.binomtest(wins, wins + losses, 0.5).pvalue)), favours


def wilcoxon_p(d: np.ndarray, tolerance: float = DEFAULT_TOLERANCE) -> float:
    """Wilcoxon's two-sided p alone (`wilcoxon_test`)."""
    return wilcoxon_test(d, tolerance)[0]


def sign_p(d: np.ndarray, tolerance: float = DEFAULT_TOLERANCE) -> float:
    """The sign test's two-sided p alone (`sign_test`)."""
    return sign_test(d, tolerance)[0]
