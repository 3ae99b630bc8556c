"""Arrow <-> numpy without pandas (inputs/arrow_numpy.py, inputs/kernels.py): the conversions the TREC path makes
agree with pyarrow's own, for every length and offset (bit-packed booleans)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

from rankflavor.inputs.arrow_numpy import array_to_numpy
from rankflavor.inputs.kernels import bool_array, int64_array, to_string


@given(st.lists(st.booleans(), max_size=70), st.integers(0, 9))
def test_booleans_both_ways(values, offset):
    array = pa.array(values, pa.bool_())
    assert array_to_numpy(array).tolist() == values
    assert array_to_numpy(array[offset:]).tolist() == values[offset:]
    assert bool_array(np.array(values, dtype=bool)).to_pylist() == values


@given(st.lists(st.integers(-2**63, 2**63 - 1), max_size=40))
def test_int64_both_ways(values):
    array = int64_array(np.array(values, dtype=np.int64))
    assert array.type == pa.int64() and array.to_pylist() == values
    assert array_to_numpy(array).tolist() == values


def test_to_string():
    assert to_string(pa.array(["a", "b"], pa.large_string())).type == pa.string()
    same = pa.array(["a"])
    assert to_string(same) is same
