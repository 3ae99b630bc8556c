"""inputs/kernels.py group_then_string_order, the order of a run's tie groups by doc id: the compiled sort
(inputs/_string_order.c) and Arrow's (RANKFLAVOR_PURE_PYTHON=1) against Python's stable sort of the ids' bytes,
on groups of every size (the insertion and the merge sort), ids that share prefixes, repeat, are empty or hold
non-ASCII and NUL bytes, strings and large strings, arrays that are slices of others."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankflavor.inputs import kernels

IDS = st.lists(st.sampled_from(["", "a", "ab", "abc", "b", "d1", "d10", "d2", "é", "a\x00", "a\x00b", "zz"]),
               min_size=1, max_size=12, unique=True)


def expected(group: list[int], strings: list[str], descending: bool) -> list[int]:
    """Stable: rows by their string's UTF-8 bytes (Python's sort keeps equal rows in order, reversed too), then
    by group."""
    by_string = sorted(range(len(group)), key=lambda i: strings[i].encode(), reverse=descending)
    return sorted(by_string, key=lambda i: group[i])


@given(IDS, st.lists(st.tuples(st.integers(1, 40), st.integers(0, 99)), max_size=6), st.booleans(), st.booleans(),
       st.integers(0, 3))
def test_compiled_and_arrow_sorts_agree_with_pythons(ids, sizes, descending, large, offset):
    compiled = kernels._compiled_order()
    assert compiled is not None, "inputs/_string_order.c is not built (pip install -e .)"
    group = np.repeat(np.arange(len(sizes), dtype=np.int64), [n for n, _ in sizes])
    codes = np.array([(seed * 7 + i * 13) % len(ids) for n, seed in sizes for i in range(n)], dtype=np.int64)
    kind = pa.large_string() if large else pa.string()
    array = pa.array(["pad"] * offset + ids, kind)[offset:]  # (an array that is a slice: its offset is not 0)
    strings = [ids[c] for c in codes]
    wanted = expected(group.tolist(), strings, descending)
    assert kernels.group_then_string_order(group, array, descending, codes=codes).tolist() == wanted
    arrow = kernels.group_then_string_order(group, pa.array(strings, kind), descending)  # (no codes: the rows')
    assert arrow.tolist() == wanted


def test_arrow_sort_when_the_compiled_one_is_turned_off(monkeypatch):
    monkeypatch.setenv("RANKFLAVOR_PURE_PYTHON", "1")
    assert kernels._compiled_order() is None
    group = np.array([0, 0, 0, 1, 1], dtype=np.int64)
    strings = pa.array(["b", "a", "c", "x", "y"])
    assert kernels.group_then_string_order(group, strings, True).tolist() == [2, 0, 1, 4, 3]


def test_a_code_beyond_the_array_is_refused_not_read():
    compiled = kernels._compiled_order()
    offsets = np.array([0, 1, 2], dtype=np.int32)
    with pytest.raises(ValueError, match="not an entry"):
        compiled.group_then_string_order(np.zeros(2, dtype=np.int64), np.array([0, 2], dtype=np.int64), offsets,
                                         b"ab", False, True)
    with pytest.raises(ValueError, match="beyond the data"):
        compiled.group_then_string_order(np.zeros(1, dtype=np.int64), np.array([1], dtype=np.int64), offsets,
                                         b"a", False, True)
