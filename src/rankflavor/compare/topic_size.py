"""Topic-set-size design for the paired t-test: how many queries a difference of `delta` needs (Sakai 2016).

Sakai, "Topic set size design", Information Retrieval Journal 19(3), 2016, the paired t-test design (after Nagata 2003): the
two-sided paired t-test at level alpha on n topics whose per-topic differences have variance sigma_d^2 has power

    1 - beta(n) = P(|T| >= t_{alpha/2, n-1}),   T ~ noncentral t(df = n - 1, ncp = sqrt(n) * delta / sigma_d),

and the topic set size is the smallest n whose power reaches the target (0.8). The search starts from Sakai's
closed-form approximation (from the normal approximation of the noncentral t):

    n ~ ((z_{alpha/2} + z_beta) / lambda)^2 + z_{alpha/2}^2 / 2,   lambda = delta / sigma_d.

The variance comes from the observed topic-by-run matrix X (n topics x m runs):

- `difference_variance`: the mean over the m(m-1)/2 run pairs of the sample variance of the per-topic
  differences; it equals 2 V_E, V_E the residual mean square of the two-way ANOVA without replication
  (topics x runs), since sum_{i<j} sum_t (e_ti - e_tj)^2 = m sum_{t,i} e_ti^2 for the doubly centred residuals e.
- `within_variance`: Sakai 2016's within-system variance, the one-way ANOVA residual mean square
  V_E = sum_i sum_t (x_ti - mean_i)^2 / (m (n - 1)); his paired design takes sigma_d^2 = 2 V_E (it ignores the
  covariance of paired scores, so it asks for more topics).

`statsmodels.stats.power.TTestPower().solve_power` solves the same equation (the tests check it).
"""

from __future__ import annotations

import math

import numpy as np

from rankflavor.errors import UsageError

MAX_TOPICS = 10_000_000


MIN_DELTA = 1e-9  # a smaller difference worth detecting is below any metric's printed digits
MAX_DELTA = 1e9  # (a difference beyond any metric's range)


def paired_t_power(n: int, delta: float, variance: float, alpha: float = 0.05) -> float:
    """The power of the two-sided paired t-test at `alpha` on n topics for a true mean difference `delta`
    whose per-topic differences have variance `variance` (noncentral t, as in Sakai 2016)."""
    from scipy import stats

    if n < 2:
        return float("nan")
    df = n - 1
    critical = stats.t.ppf(1 - alpha / 2, df)
    ncp = math.sqrt(n) * delta / math.sqrt(variance)
    return float(stats.nct.sf(critical, df, ncp) + stats.nct.cdf(-critical, df, ncp))


def approximate_topic_set_size(delta: float, variance: float, alpha: float = 0.05, power: float = 0.8) -> float:
    """Sakai 2016's approximation: ((z_{alpha/2} + z_beta) / lambda)^2 + z_{alpha/2}^2 / 2, lambda = delta / sigma_d."""
    from scipy import stats

    z_alpha, z_beta = stats.norm.isf(alpha / 2), stats.norm.isf(1 - power)
    lam = delta / math.sqrt(variance)
    try:
        return (float(z_alpha + z_beta) / lam) ** 2 + float(z_alpha) ** 2 / 2
    except (OverflowError, ZeroDivisionError):
        return math.inf  # (a difference too small against the spread: topic_set_size says so)


def topic_set_size(delta: float, variance: float, alpha: float = 0.05, power: float = 0.8) -> int | None:
    """The smallest number of topics (at least 2) whose paired t-test detects a true difference `delta` with
    `power` at `alpha`, the per-topic differences having variance `variance`; None when the variance is
    unknown (NaN). A zero variance needs the fewest topics the test can run on, 2."""
    _check(delta, alpha, power)
    if variance is None or not math.isfinite(variance):
        return None
    if variance <= 0:
        return 2
    approximate = approximate_topic_set_size(delta, variance, alpha, power)
    if not math.isfinite(approximate):
        raise UsageError(f"delta={delta!r} is too small to design for: with per-topic differences of variance "
                         f"{variance:.3g}, no finite number of topics detects it; give a larger difference worth "
                         "detecting (--delta, delta=), e.g. 0.02")
    n = max(2, math.ceil(approximate))
    if n > MAX_TOPICS:
        return n  # (beyond any collection: the approximation is as good as the count)
    while n > 2 and paired_t_power(n - 1, delta, variance, alpha) >= power:
        n -= 1
    while paired_t_power(n, delta, variance, alpha) < power:
        n += 1
    return n


def _check(delta: float, alpha: float, power: float) -> None:
    if not (isinstance(delta, (int, float)) and not isinstance(delta, bool) and math.isfinite(delta)
            and MIN_DELTA <= delta <= MAX_DELTA):
        raise UsageError(f"delta={delta!r}: give the smallest difference worth detecting, a number from {MIN_DELTA:g} "
                         f"to {MAX_DELTA:g} (e.g. 0.02)")
    for name, value in (("alpha", alpha), ("power", power)):
        if not (isinstance(value, (int, float)) and 0 < value < 1):
            raise UsageError(f"{name}={value!r}: give a number between 0 and 1 (exclusive), e.g. "
                             f"{0.05 if name == 'alpha' else 0.8}")


def difference_variance(matrix: np.ndarray) -> float:
    """The mean, over every pair of runs (columns), of the sample variance (ddof=1) of their per-topic
    differences: 2 V_E of the two-way ANOVA without replication. NaN with fewer than 2 topics or runs."""
    x = np.asarray(matrix, dtype=np.float64)
    n, m = x.shape
    if n < 2 or m < 2:
        return float("nan")
    residual = x - x.mean(axis=0, keepdims=True) - x.mean(axis=1, keepdims=True) + x.mean()
    return float(2.0 * (residual**2).sum() / ((n - 1) * (m - 1)))


def within_variance(matrix: np.ndarray) -> float:
    """Sakai 2016's within-system variance: the one-way ANOVA residual mean square
    sum_i sum_t (x_ti - mean_i)^2 / (m (n - 1)). NaN with fewer than 2 topics."""
    x = np.asarray(matrix, dtype=np.float64)
    n, m = x.shape
    if n < 2 or m < 1:
        return float("nan")
    return float(((x - x.mean(axis=0, keepdims=True)) ** 2).sum() / (m * (n - 1)))
