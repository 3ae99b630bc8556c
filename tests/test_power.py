"""Discriminative power and topic-set-size design against SciPy and statsmodels (compare/power.py, topic_size.py)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from heavy import need_module
from power_data import per_query, write_collection
from rankflavor.compare.power import power
from rankflavor.compare.topic_size import (
    approximate_topic_set_size,
    difference_variance,
    paired_t_power,
    topic_set_size,
    within_variance,
)
from rankflavor.errors import UsageError

statsmodels_power = need_module("pyterrier", "statsmodels.stats.power")


@pytest.mark.parametrize("spec", ["ndcg@10", "ap", "P@5"])
def test_t_test_power_is_scipy_ttest_rel_over_every_pair(tmp_path, spec):
    qrels, runs = write_collection(tmp_path, 30, 4, seed=3)
    report = power(qrels, runs, [spec], test="t", alpha=0.05, delta=0.05)
    (fp,) = report.flavors
    matrix = per_query(qrels, runs, spec)
    names = [r.rsplit("/", 1)[-1] for r in runs]
    expected = {(names[i], names[j]): stats.ttest_rel(matrix[:, i], matrix[:, j]).pvalue
                for i, j in itertools.combinations(range(len(runs)), 2)}
    assert len(fp.pairs) == len(expected) == 6
    for pair, p in zip(fp.pairs, fp.p_values, strict=True):
        assert p == pytest.approx(expected[pair], rel=1e-9)
    assert fp.p_values == sorted(fp.p_values)
    assert fp.separated == sum(p < 0.05 for p in expected.values())
    assert fp.share == fp.separated / 6
    assert fp.queries == 30
    assert fp.asl_quantiles() == pytest.approx(np.quantile(sorted(expected.values()), [0, .25, .5, .75, 1]))


def test_randomization_power_is_scipy_exact_permutation_test(tmp_path):
    """8 queries: 2^8 sign vectors <= 1000 resamples, so the test is exact, as scipy's with every permutation."""
    qrels, runs = write_collection(tmp_path, 8, 3, seed=5)
    (fp,) = power(qrels, runs, ["ndcg@5"], n_resamples=1000, alpha=0.1).flavors
    matrix = per_query(qrels, runs, "ndcg@5")
    names = [r.rsplit("/", 1)[-1] for r in runs]
    for (a, b), p in zip(fp.pairs, fp.p_values, strict=True):
        i, j = names.index(a), names.index(b)
        res = stats.permutation_test((matrix[:, i], matrix[:, j]), lambda x, y: np.mean(x - y),
                                     permutation_type="samples", n_resamples=np.inf)
        assert p == pytest.approx(res.pvalue, abs=1e-12)


def test_power_is_seeded_and_names_the_most_discriminative_flavor(tmp_path):
    qrels, runs = write_collection(tmp_path, 40, 5, seed=7)
    first = power(qrels, runs, grid={"gain": ["linear", "exp2"], "discount": ["log2", "reciprocal"]}, seed=3)
    again = power(qrels, runs, grid={"gain": ["linear", "exp2"], "discount": ["log2", "reciprocal"]}, seed=3)
    assert first.to_dict() == again.to_dict()
    assert len(first.flavors) == 4
    best = first.most_discriminative()["ndcg"]
    assert best.separated == max(fp.separated for fp in first.flavors)
    assert first.to_dict()["most_discriminative"]["ndcg"] == best.flavor


def test_topic_set_size_variances_are_statsmodels_anova_residuals(tmp_path):
    smf = need_module("pyterrier", "statsmodels.formula.api")
    import pandas as pd

    rng = np.random.default_rng(11)
    matrix = rng.random((25, 4)) + rng.random((25, 1))  # topic effects, so the two variances differ
    frame = pd.DataFrame([{"topic": t, "run": r, "score": matrix[t, r]} for t in range(25) for r in range(4)])
    two_way = smf.ols("score ~ C(topic) + C(run)", frame).fit().mse_resid
    one_way = smf.ols("score ~ C(run)", frame).fit().mse_resid
    assert difference_variance(matrix) == pytest.approx(2 * two_way, rel=1e-10)
    assert within_variance(matrix) == pytest.approx(one_way, rel=1e-10)
    pair_variances = [np.var(matrix[:, i] - matrix[:, j], ddof=1) for i, j in itertools.combinations(range(4), 2)]
    assert difference_variance(matrix) == pytest.approx(np.mean(pair_variances), rel=1e-10)


@settings(max_examples=40, deadline=None)
@given(delta=st.floats(0.01, 0.3), effect=st.floats(0.1, 1.2), alpha=st.sampled_from([0.01, 0.05, 0.1]),
       target=st.sampled_from([0.7, 0.8, 0.9]))
def test_topic_set_size_is_statsmodels_ttestpower(delta, effect, alpha, target):
    """(Effect sizes up to 1.2: beyond, a handful of topics suffice and statsmodels' root finder gives up.)"""
    sd = delta / effect
    n = topic_set_size(delta, sd**2, alpha, target)
    solved = statsmodels_power.TTestPower().solve_power(effect_size=delta / sd, alpha=alpha, power=target,
                                                        alternative="two-sided")
    assert n == max(2, math.ceil(solved - 1e-6))
    assert paired_t_power(n, delta, sd**2, alpha) >= target
    if n > 2:
        assert paired_t_power(n - 1, delta, sd**2, alpha) < target
    power_there = statsmodels_power.TTestPower().power(effect_size=delta / sd, nobs=n, alpha=alpha)
    assert paired_t_power(n, delta, sd**2, alpha) == pytest.approx(power_there, rel=1e-9)


def test_sakai_approximation_is_close_to_the_exact_size():
    """Sakai 2016's normal approximation is within a topic or two of the noncentral-t search."""
    for delta, variance in [(0.05, 0.02), (0.1, 0.05), (0.02, 0.01)]:
        approx = approximate_topic_set_size(delta, variance)
        assert abs(approx - topic_set_size(delta, variance)) < 2


def test_bad_design_settings_are_refused(tmp_path):
    with pytest.raises(UsageError, match="delta"):
        topic_set_size(0, 0.1)
    with pytest.raises(UsageError, match="power"):
        topic_set_size(0.05, 0.1, power=1.5)
    assert topic_set_size(0.05, float("nan")) is None
    assert topic_set_size(0.05, 0.0) == 2


@pytest.mark.parametrize("delta, variance, r_n", [(2.0, 10.0, 21.62146), (1.5, 20.0, 71.71226)])
def test_topic_set_size_matches_r_power_t_test_worked_examples(delta, variance, r_n):
    """R's `power.t.test(type = "one.sample", power = 0.8, sd = sqrt(variance), delta = delta)` (the paired test on
    the differences) gives n = 21.62146 and 71.71226 (as printed in OpenAnesthesia's "Power analysis for Student's
    t test"): 22 and 72 topics. (R counts the far tail's rejections only with strict = TRUE; they are < 1e-6 here.)"""
    assert topic_set_size(delta, variance) == math.ceil(r_n)
    assert paired_t_power(math.ceil(r_n), delta, variance) > 0.8 > paired_t_power(math.floor(r_n), delta, variance)
