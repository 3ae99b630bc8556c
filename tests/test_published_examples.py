"""The statistics against numbers published in the literature (issue 27 item 6), not only against SciPy and
statsmodels on random inputs (tests/peers/test_statistics_peers.py).

Each test gives its source (authors, title, venue and year, the section or table), the input as published, the
published result, and the tolerance the publication's rounding allows. Only numbers seen in the cited source are
used; where a number is derived from a published one (not published itself) the test says so.

Not found, so not here: Sakai's published topic-set sizes (IRJ 19(3) 2016; ICTIR 2016 tutorial; the 2018 book)
were not reachable in full text; Holm's (1979) own example; a published randomised Tukey HSD example with its
data (Carterette, TOIS 2012; Sakai 2018, section 4.5).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from rankflavor.compare.corrections import adjust, benjamini_hochberg, bonferroni
from rankflavor.compare.effects import effect_size, t_interval
from rankflavor.compare.rank_tests import wilcoxon_p
from rankflavor.compare.stats import TestSettings, paired_test, randomization_test, t_test

# --- Benjamini & Hochberg (1995), section 4 -------------------------------------------------------------------

# The 15 p-values of the last family ("cardiac and other events after the start of thrombolitic treatment") of the
# rt-PA vs APSAC trial (Neuhaus et al., JACC 1992), as Benjamini & Hochberg's worked example lists them.
BH_1995_P = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
             0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000]


def test_benjamini_hochberg_1995_worked_example():
    """Benjamini & Hochberg, "Controlling the false discovery rate: a practical and powerful approach to multiple
    testing", J. R. Statist. Soc. B 57(1), 1995, pp. 289-300, section 4 (the 15 p-values above): at q = 0.05 the
    procedure rejects the four smallest, Bonferroni the three smallest. The adjusted p-values are as reproduced
    (citing that example) in the documentation of `scipy.stats.false_discovery_control` (SciPy 1.11+, Examples):
    0.0015, 0.003, 0.0095, 0.035625, 0.0603, 0.06385714, 0.06385714, 0.0645, 0.0765, 0.486, 0.58118182,
    0.714875, 0.75323077, 0.81321429, 1 (printed to 8 significant digits), and the Bonferroni products m p:
    1.5e-3, 6e-3, 2.85e-2, 1.425e-1, 3.015e-1, 4.17e-1, 4.47e-1, 5.16e-1, 6.885e-1, then over 1 (rankflavor caps
    at 1, as p.adjust and statsmodels do)."""
    published_bh = [0.0015, 0.003, 0.0095, 0.035625, 0.0603, 0.06385714, 0.06385714, 0.0645, 0.0765, 0.486,
                    0.58118182, 0.714875, 0.75323077, 0.81321429, 1.0]
    published_m_p = [1.5e-3, 6.0e-3, 2.85e-2, 1.425e-1, 3.015e-1, 4.17e-1, 4.47e-1, 5.16e-1, 6.885e-1,
                     4.86, 6.393, 8.5785, 9.792, 11.385, 15.0]
    bh = benjamini_hochberg(BH_1995_P)
    np.testing.assert_allclose(bh, published_bh, rtol=0, atol=5e-9)  # printed to 8 digits
    np.testing.assert_allclose(bonferroni(BH_1995_P), np.minimum(1.0, published_m_p), rtol=0, atol=1e-12)
    assert list(np.flatnonzero(bh <= 0.05)) == [0, 1, 2, 3]  # the paper's four rejections
    assert list(np.flatnonzero(bonferroni(BH_1995_P) <= 0.05)) == [0, 1, 2]  # Bonferroni's three
    # the family in another order gets the same values, each back in its place
    order = np.random.default_rng(0).permutation(len(BH_1995_P))
    np.testing.assert_allclose(adjust(np.asarray(BH_1995_P)[order], "bh"), np.asarray(published_bh)[order],
                               atol=5e-9)


# --- Darwin's Zea mays (Fisher 1935; Wilcoxon 1945) ------------------------------------------------------------

# Cross- minus self-fertilised plant height of 15 pairs, in eighths of an inch (Darwin 1876, as Fisher, The Design
# of Experiments, 1935, section 17 gives them; Wilcoxon 1945 lists them sorted: 6, 8, 14, 16, 23, 24, 28, 29, 41,
# -48, 49, 56, 60, -67, 75).
DARWIN_D = np.array([49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48], dtype=np.float64)


def test_fisher_1935_randomization_test_on_darwins_data():
    """R. A. Fisher, The Design of Experiments, Oliver & Boyd 1935, section 21: the randomization test on Darwin's
    15 differences, every one of the 2^15 = 32,768 sign assignments equally likely under H0; the observed sum is
    314 and 863 assignments reach it in one tail, so the exact two-sided p = 1726/32768 = 0.052674. (Seen as
    quoted, citing Fisher 1935 and Ernst, "Permutation methods: a basis for exact inference", Statistical Science
    19(4), 2004, not on Fisher's page itself; the mean difference 20.93 as the BYU-Idaho Statistics Notebook
    prints it.) rankflavor's sign-flip test is exact when 2^n <= resamples, so the p is compared exactly."""
    assert DARWIN_D.sum() == 314
    p, exact = randomization_test(DARWIN_D, n_resamples=1 << 15)
    assert exact
    assert p == 1726 / 32768
    # the same through a comparison's settings (mean difference 20.93 eighths of an inch: 314 / 15)
    result = paired_test(DARWIN_D, np.zeros(15), TestSettings(test="randomization", n_resamples=1 << 15))
    assert result.exact and result.p == 1726 / 32768
    assert result.diff == pytest.approx(20.93, abs=0.005)


def test_wilcoxon_1945_signed_rank_on_darwins_data():
    """F. Wilcoxon, "Individual comparisons by ranking methods", Biometrics Bulletin 1(6), 1945, pp. 80-83
    ("Paired comparisons", the 15 differences of Fisher section 17). The two-sided result on them as documented,
    citing Wilcoxon 1945 for the data, in `scipy.stats.wilcoxon`'s Examples: statistic 24 (the smaller rank sum),
    exact p = 0.041259765625; and as R's wilcox.test prints it (BYU-Idaho Statistics Notebook, "Corn heights
    paired Wilcoxon", data from the same paper): V = 96, p = 0.04126. rankflavor's `wilcoxon_p` and
    `test=wilcoxon` reproduce it (no zeros, no ties: SciPy's exact distribution). This one is SciPy's and R's
    computation on published data, not a p-value printed in Wilcoxon's paper."""
    assert wilcoxon_p(DARWIN_D) == 0.041259765625
    assert wilcoxon_p(-DARWIN_D) == 0.041259765625  # two-sided: the direction does not matter
    ranks = np.argsort(np.argsort(np.abs(DARWIN_D))) + 1
    assert ranks[DARWIN_D < 0].sum() == 24 and ranks[DARWIN_D > 0].sum() == 96
    result = paired_test(DARWIN_D, np.zeros(15), TestSettings(test="wilcoxon"))
    assert result.p == pytest.approx(0.04126, abs=5e-6)


# --- Student's sleep data (Cushny & Peebles 1905; Student 1908) -------------------------------------------------

# Extra hours of sleep of 10 patients under each of two soporifics (R's `datasets::sleep`: Cushny & Peebles,
# J. Physiology 32, 1905; Student, "The probable error of a mean", Biometrika 6, 1908).
SLEEP_1 = np.array([0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0])
SLEEP_2 = np.array([1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4])


def test_paired_t_test_on_students_sleep_data():
    """Student's paired t-test on the sleep data as published in Meys & de Vries, "R For Dummies" (Wiley 2012),
    "How to compare paired data with R" (`t.test(extra ~ group, data = sleep, paired = TRUE)`, the example of R's
    `?sleep`): t = -4.0621, df = 9, p-value = 0.002833, 95 percent confidence interval -2.4598858 -0.7001142,
    mean of the differences -1.58. Tolerances: half a unit in the last printed digit."""
    d = SLEEP_1 - SLEEP_2
    p, low, high = t_test(d, confidence=0.95)
    assert p == pytest.approx(0.002833, abs=5e-7)
    assert low == pytest.approx(-2.4598858, abs=5e-8) and high == pytest.approx(-0.7001142, abs=5e-8)
    assert d.mean() == pytest.approx(-1.58, abs=5e-13)
    assert t_interval(d, 0.95) == pytest.approx((-2.4598858, -0.7001142), abs=5e-8)
    result = paired_test(SLEEP_1, SLEEP_2, TestSettings(test="t"))
    assert result.p == pytest.approx(0.002833, abs=5e-7)
    assert (result.ci_low, result.ci_high) == pytest.approx((-2.4598858, -0.7001142), abs=5e-8)


def test_cohens_dz_on_students_sleep_data_from_the_published_t():
    """The paired Cohen's d_z = mean(d) / sd(d) equals t / sqrt(n) (Lakens, "Calculating and reporting effect sizes
    to facilitate cumulative science", Frontiers in Psychology 4:863, 2013, for d_z). Not a published d_z:
    derived from the published t = -4.0621 (n = 10) of the test above, so it holds to the t's rounding,
    |d_z - t / sqrt(10)| <= 0.00005 / sqrt(10)."""
    dz = effect_size(SLEEP_1 - SLEEP_2)
    assert dz == pytest.approx(-4.0621 / math.sqrt(10), abs=0.00005 / math.sqrt(10) + 1e-12)
