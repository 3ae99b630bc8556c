"""Paired statistics against SciPy and against exact enumeration on small cases."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from rankflavor.compare.stats import (
    TestSettings,
    bootstrap_ci,
    bootstrap_means,
    holm,
    paired_test,
    paired_tests,
    randomization_test,
    t_test,
)

VALUES = st.lists(st.sampled_from([-1.0, -0.5, -0.25, 0.0, 0.1, 0.3, 0.5, 0.75, 1.0, 1 / 3]), min_size=1, max_size=10)


def enumerated_p(d: np.ndarray) -> float:
    """P(|mean(s d)| >= |mean(d)|) over all 2^n sign vectors, by itertools."""
    observed = abs(d.mean())
    hits = [abs(np.mean(np.array(s) * d)) >= observed - 1e-12 for s in itertools.product((1, -1), repeat=len(d))]
    return sum(hits) / len(hits)


@settings(max_examples=60)
@given(VALUES)
def test_exact_randomization_equals_enumeration(values):
    d = np.array(values)
    p, exact = randomization_test(d, n_resamples=10_000)
    assert exact
    assert p == pytest.approx(enumerated_p(d), abs=1e-12)


@pytest.mark.parametrize("n", [2, 3, 7, 12])
def test_exact_randomization_equals_scipy_permutation_test(n):
    rng = np.random.default_rng(n)
    a, b = rng.random(n).round(2), rng.random(n).round(2)
    ours, exact = randomization_test(a - b, n_resamples=2**n)
    assert exact
    ref = stats.permutation_test((a, b), lambda x, y, axis: np.mean(x - y, axis=axis), permutation_type="samples",
                                 n_resamples=np.inf, alternative="two-sided")
    assert ours == pytest.approx(ref.pvalue, abs=1e-12)


def test_monte_carlo_randomization_close_to_scipy_and_seeded():
    rng = np.random.default_rng(1)
    a = rng.random(40)
    b = a - 0.05 + rng.normal(0, 0.2, 40)
    ours, exact = randomization_test(a - b, n_resamples=20_000, seed=3)
    assert not exact
    ref = stats.permutation_test((a, b), lambda x, y, axis: np.mean(x - y, axis=axis), permutation_type="samples",
                                 n_resamples=20_000, alternative="two-sided", rng=np.random.default_rng(5))
    assert ours == pytest.approx(ref.pvalue, abs=0.015)  # two Monte Carlo estimates, sd ~ 0.003 each
    assert randomization_test(a - b, 20_000, seed=3)[0] == ours  # seeded: the same p again
    assert randomization_test(a - b, 20_000, seed=4)[0] != ours


def test_monte_carlo_p_value_is_never_zero():
    d = np.full(50, 0.3) + np.linspace(0, 0.01, 50)
    p, exact = randomization_test(d, n_resamples=999, seed=0)
    assert not exact and p == pytest.approx(1 / 1000)


def test_bootstrap_percentiles_match_the_exact_bootstrap_distribution():
    d = np.array([0.0, 0.1, 0.5, -0.3])
    n = len(d)
    # all n^n equally likely ordered resamples
    means = np.array([d[list(idx)].mean() for idx in itertools.product(range(n), repeat=n)])
    draws = bootstrap_means(d, 200_000, seed=0)
    for x in np.unique(means.round(12)):
        assert (draws <= x + 1e-9).mean() == pytest.approx((means <= x + 1e-9).mean(), abs=0.005)


def test_bootstrap_ci_close_to_scipy_percentile_bootstrap():
    rng = np.random.default_rng(7)
    d = rng.normal(0.02, 0.1, 60)
    low, high = bootstrap_ci(d, 20_000, seed=1)
    ref = stats.bootstrap((d,), np.mean, method="percentile", n_resamples=20_000, rng=np.random.default_rng(2))
    assert low == pytest.approx(ref.confidence_interval.low, abs=0.003)
    assert high == pytest.approx(ref.confidence_interval.high, abs=0.003)
    assert low < d.mean() < high


def test_bootstrap_of_a_constant_is_that_constant():
    assert bootstrap_ci(np.full(5, 0.25)) == (0.25, 0.25)


def test_t_test_is_scipy_ttest_rel():
    rng = np.random.default_rng(11)
    a, b = rng.random(25), rng.random(25)
    p, low, high = t_test(a - b)
    ref = stats.ttest_rel(a, b)
    assert p == pytest.approx(ref.pvalue, rel=1e-12)
    d = a - b
    half = stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    assert (low, high) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-10)
    res = paired_test(a, b, TestSettings(test="t"))
    assert res.p == p and res.diff == pytest.approx(d.mean())


def test_paired_test_randomization_fields():
    a = np.array([0.5, 0.6, 0.7, 0.8])
    b = np.array([0.4, 0.6, 0.5, 0.9])
    res = paired_test(a, b, TestSettings(n_resamples=10_000))
    assert res.exact and res.n == 4
    assert res.diff == pytest.approx(0.05)
    assert res.p == pytest.approx(enumerated_p(a - b))
    assert res.ci_low <= res.diff <= res.ci_high
    with pytest.raises(ValueError, match="unknown test"):
        paired_test(a, b, TestSettings(test="welch"))


def test_holm_known_example():
    adjusted = holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])


@settings(max_examples=80)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=8), st.sampled_from([0.01, 0.05, 0.1, 0.5]))
def test_holm_rejects_what_the_step_down_procedure_rejects(p, alpha):
    """Holm (1979): reject H_(1..i) while p_(i) <= alpha / (m - i + 1); adjusted p <= alpha iff rejected."""
    p = np.array(p)
    m = len(p)
    rejected = np.zeros(m, dtype=bool)
    for rank, i in enumerate(np.argsort(p, kind="stable")):
        if p[i] > alpha / (m - rank):
            break
        rejected[i] = True
    adjusted = holm(p)
    assert np.all(adjusted >= p - 1e-15) and np.all(adjusted <= 1)
    # ties at the exact boundary aside, the two agree
    boundary = np.isclose(adjusted, alpha)
    assert np.array_equal((adjusted <= alpha)[~boundary], rejected[~boundary])


def test_holm_ignores_nan():
    out = holm([0.01, np.nan, 0.02])
    assert np.isnan(out[1]) and out[0] == pytest.approx(0.02) and out[2] == pytest.approx(0.02)


def test_columns_share_resamples_and_equal_one_column_at_a_time():
    rng = np.random.default_rng(3)
    d = rng.normal(0, 0.1, size=(30, 3))
    p_all, exact = randomization_test(d, 5_000, seed=9)
    assert not exact
    for f in range(3):
        assert randomization_test(d[:, f], 5_000, seed=9)[0] == pytest.approx(p_all[f], abs=0)
    low, high = bootstrap_ci(d, 5_000, seed=4)
    for f in range(3):
        assert bootstrap_ci(d[:, f], 5_000, seed=4) == pytest.approx((low[f], high[f]), abs=0)
    tests = paired_tests(d, TestSettings(n_resamples=5_000, seed=1))
    for f in range(3):
        single = paired_test(d[:, f], np.zeros(30), TestSettings(n_resamples=5_000, seed=1))
        assert (single.p, single.ci_low, single.ci_high) == (tests[f].p, tests[f].ci_low, tests[f].ci_high)


def test_monte_carlo_sign_flips_use_whole_bytes_on_any_n():
    """n not a multiple of 8: the padded zeros must not change the null distribution (checked against
    the exact p on the same data, which Monte Carlo with many resamples approaches)."""
    d = np.random.default_rng(5).normal(0.03, 0.1, 19).round(3)  # n = 19
    exact, is_exact = randomization_test(d, n_resamples=2**19)
    assert is_exact and 0.05 < exact < 0.95
    approx, is_exact = randomization_test(d, n_resamples=200_000, seed=2)
    assert not is_exact and approx == pytest.approx(exact, abs=0.004)


def test_test_settings_defaults_are_the_documented_ones_everywhere():
    """TestSettings() is README's: a randomization test, 10000 resamples, seed 0, a 95% CI, alpha 0.05; compare()'s
    keywords and the compare and report commands' flags default to it."""
    import inspect

    from rankflavor.cli.parser import build_parser
    from rankflavor.compare import compare

    default = TestSettings()
    assert (default.test, default.n_resamples, default.seed, default.confidence, default.alpha) == (
        "randomization", 10_000, 0, 0.95, 0.05)
    keywords = inspect.signature(compare).parameters
    assert TestSettings(*(keywords[f].default for f in ("test", "n_resamples", "seed", "confidence", "alpha"))) == default
    for command in ("compare", "report"):
        args = build_parser(command).parse_args([command, "QRELS", "RUN"])
        assert (args.resamples, args.seed, args.alpha) == (default.n_resamples, default.seed, default.alpha), command
    assert build_parser("compare").parse_args(["compare"]).test == default.test


def test_each_setting_reaches_the_test():
    """The value's fields are what the paired tests read: another seed, number of resamples or confidence
    gives another Monte Carlo p or interval; test="t" gives scipy's."""
    rng = np.random.default_rng(11)
    d = rng.normal(0.02, 0.1, size=(40, 1))
    base = paired_tests(d, TestSettings(n_resamples=2_000))[0]
    assert not base.exact and base.test == "randomization"
    assert paired_tests(d, TestSettings(n_resamples=2_000, seed=1))[0].p != base.p
    assert paired_tests(d, TestSettings(n_resamples=3_000))[0].p != base.p
    wider = paired_tests(d, TestSettings(n_resamples=2_000, confidence=0.99))[0]
    assert wider.p == base.p and wider.ci_low < base.ci_low and wider.ci_high > base.ci_high
    t = paired_tests(d, TestSettings(test="t"))[0]
    assert t.test == "t" and t.p == pytest.approx(stats.ttest_rel(d[:, 0], np.zeros(40)).pvalue, rel=1e-12)
    with pytest.raises(ValueError, match="unknown test 'z'"):
        TestSettings(test="z")
