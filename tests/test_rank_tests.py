"""The paired tests on signs and ranks (compare/rank_tests.py): differences snapped at the tolerance before any
sign or rank, Wilcoxon's midrank distribution, the direction each statistic favours."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankflavor.compare.rank_tests import midranks, sign_test, signed_rank_null, snap, wilcoxon_test


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=30), st.integers(1, 9))
def test_snap_ties_what_float_noise_sets_apart(integers, scale):
    exact = np.array(integers, dtype=float)
    noisy = np.array([(x + 0.3) / scale - 0.3 / scale for x in integers])  # (last-bit noise)
    snapped = snap(noisy)
    assert np.array_equal(snapped == 0, exact == 0) and np.array_equal(np.sign(snapped), np.sign(exact))
    for i, j in itertools.combinations(range(len(integers)), 2):
        assert (abs(snapped[i]) == abs(snapped[j])) == (abs(exact[i]) == abs(exact[j]))
    assert np.array_equal(snap(snapped), snapped)  # (idempotent)


def test_midranks_and_the_null_distribution_by_enumeration():
    values = np.array([0.2, 0.1, 0.2, 0.3, 0.1, 0.2])
    assert list(midranks(values)) == [4.0, 1.5, 4.0, 6.0, 1.5, 4.0]
    doubled = np.rint(2 * midranks(values)).astype(int)
    dist = signed_rank_null(doubled)
    counts = np.zeros(len(dist))
    for signs in itertools.product((0, 1), repeat=len(doubled)):
        counts[int(np.dot(signs, doubled))] += 1
    assert dist == pytest.approx(counts / 2 ** len(doubled), abs=1e-15)


def test_each_statistic_favours_its_own_side():
    d = np.array([0.1] * 20 + [-0.6] * 6)  # 20 small wins for a, 6 large losses: the mean favours b
    assert sign_test(d)[1] == 1 and wilcoxon_test(d)[1] == 1 and d.mean() < 0
    assert wilcoxon_test(-d)[1] == -1 and sign_test(np.zeros(4)) == (1.0, 0)
    assert wilcoxon_test(np.zeros(3)) == (1.0, 0) and np.isnan(wilcoxon_test(np.zeros(0))[0])
