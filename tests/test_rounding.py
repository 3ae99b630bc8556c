"""Values are rounded as round() and printf's %.Nf round them, not as np.round does."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from rankflavor.rounding import round_values


def test_a_value_just_below_a_half_rounds_down():
    assert np.round(0.9073749999999999, 5) == 0.90738  # (numpy: the scaled value lands on the half)
    assert round_values(np.array([0.9073749999999999]), 5)[0] == 0.90737 == float(f"{0.9073749999999999:.5f}")


@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), max_size=30), st.integers(0, 8))
def test_round_values_is_round(values, decimals):
    got = round_values(np.array(values, dtype=np.float64), decimals)
    assert got.tolist() == [round(v, decimals) for v in values]


@given(st.integers(0, 10**7), st.integers(1, 6))
def test_exact_decimal_halves(n, decimals):
    """Values that sit on a half in decimal: round() and %.Nf agree with each other on them."""
    value = (n + 0.5) / 10 ** decimals
    assert round_values(np.array([value]), decimals)[0] == round(value, decimals) == float(f"{value:.{decimals}f}")
