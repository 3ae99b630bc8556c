"""engine/order.py: trec_eval's row order, against np.lexsort (the definition), on rows in every shape:
blocks by query in any query order, each by descending score or not, ties, interleaved queries; and its small
kernels (level_index, stable_order) against numpy's searchsorted and a stable sort."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rankflavor.engine import order
from rankflavor.engine.order import trec_order, trec_reorder

KEY = np.random.default_rng(7).permutation(1000)  # doc code -> a key ordered as its id (codes unsorted, as a track's)


class Docs:
    """A dataset's doc order (Dataset.doc_keys, Dataset.group_then_doc_order): KEY, or the codes when sorted."""

    def __init__(self, codes_sorted: bool = False) -> None:
        self.codes_sorted = codes_sorted

    def doc_keys(self, codes):
        return codes if self.codes_sorted else KEY[codes]

    def group_then_doc_order(self, group, codes):
        return None if self.codes_sorted else np.lexsort((-KEY[codes], group))


keys = Docs()

@st.composite
def rows(draw):
    n_queries = draw(st.integers(1, 6))
    blocks = []
    for q in draw(st.permutations(range(n_queries))):
        n = draw(st.integers(0, 12))
        scores = draw(st.lists(st.sampled_from([0.0, -0.0, 0.5, 1.0, 2.0, -1.0, 3.5]), min_size=n, max_size=n))
        if draw(st.booleans()):
            scores.sort(reverse=True)  # as TREC runs are written
        docs = draw(st.lists(st.integers(0, 20), min_size=n, max_size=n, unique=True))
        blocks += [(q, s, d) for s, d in zip(scores, docs, strict=True)]
    if draw(st.booleans()):
        blocks = draw(st.permutations(blocks))  # queries interleaved
    q, s, d = (np.array(col, dtype=t) for col, t in zip(zip(*blocks, strict=True), (np.int64, float, np.int64),
                                                       strict=True)) if blocks else (np.zeros(0, np.int64),) * 3
    return q, s.astype(float), d


@settings(max_examples=300, deadline=None)
@given(rows())
def test_trec_order_sorts_as_lexsort_does(data):
    q, s, d = data
    perm = trec_order(q, s, d, keys)
    assert sorted(perm.tolist()) == list(range(len(q)))
    expected = np.lexsort((-KEY[d], -s, q))
    assert np.array_equal(q[perm], q[expected])
    assert np.array_equal(s[perm], s[expected])  # (-0.0 == 0.0: a tie, ordered by doc)
    assert np.array_equal(d[perm], d[expected])
    again = trec_reorder(q, s, d, keys)  # None only for rows in trec_eval's order already
    if again is None:
        assert np.array_equal(q, q[expected]) and np.array_equal(s, s[expected]) and np.array_equal(d, d[expected])
    else:
        assert np.array_equal(again, perm)


def test_descending_blocks_take_the_block_path_and_stay_exact():
    rng = np.random.default_rng(3)
    q = np.repeat(rng.permutation(50), 40)
    s = np.concatenate([np.sort(np.round(rng.normal(size=40), 1))[::-1] for _ in range(50)])
    d = np.concatenate([rng.permutation(1000)[:40] for _ in range(50)])
    perm = trec_order(q, s, d, keys)
    expected = np.lexsort((-KEY[d], -s, q))
    assert np.array_equal(perm, expected)  # (unique docs per query: the order is one permutation)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 9)), min_size=1, max_size=40), st.booleans())
def test_tie_group_sort_is_lexsorts_on_the_packed_and_the_overflow_path(pairs, huge):
    from rankflavor.engine.order import _by_group_then_doc_desc

    steps, d = (np.array(col, dtype=np.int64) for col in zip(*pairs, strict=True))
    group = np.cumsum(steps)  # nondecreasing, as tie_rows numbers groups
    if huge:
        d = d + (1 << 61)  # the packed key would overflow: the lexsort path
    assert np.array_equal(_by_group_then_doc_desc(group, d), np.lexsort((-d, group)))  # (stable: equal docs too)


@given(st.lists(st.floats(-5, 5, allow_nan=False), min_size=1, max_size=12, unique=True), st.data())
def test_level_index_is_searchsorteds(levels, data):
    levels = np.sort(np.array(levels))
    values = np.array(data.draw(st.lists(st.sampled_from(levels.tolist()), max_size=40)), dtype=float)
    assert order.level_index(levels, values).tolist() == np.searchsorted(levels, values).tolist()


@given(st.lists(st.integers(0, 70_000), max_size=60), st.booleans())
def test_stable_order_is_a_stable_argsort(keys, small):
    keys = np.array(keys, dtype=np.int64) % (1 << 16 if small else 70_001)
    bound = 1 << 16 if small else 70_001
    assert order.stable_order(keys, bound).tolist() == sorted(range(len(keys)), key=keys.__getitem__)
