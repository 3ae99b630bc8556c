"""Partial aggregates (engine/results.py: Aggregate) merge exactly across partitions of the queries: what an
engine that sees a run in parts (chunks, Spark partitions) combines into the means of the whole run."""

from __future__ import annotations

import math
from functools import reduce

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor.engine import Aggregate, Engine
from rankflavor.inputs.pipeline import prepare
from strategies import flavors
from test_engine_fast import _data

VALUES = st.lists(st.one_of(st.floats(-1e6, 1e6), st.just(math.nan), st.just(0.0), st.floats(1e-300, 1e-290)),
                  max_size=300)


@given(VALUES, st.integers(1, 12), st.randoms())
def test_partials_merge_exactly_in_any_order(values, parts, rng):
    values = np.array(values, dtype=np.float64)
    shuffled = values.copy()
    rng.shuffle(shuffled)
    pieces = [Aggregate.of(p) for p in np.array_split(shuffled, parts)]
    merged = reduce(Aggregate.merge, pieces, Aggregate())
    whole = Aggregate.of(values)
    finite = values[~np.isnan(values)]
    assert merged.count == whole.count == len(finite)
    assert merged.total == whole.total == math.fsum(finite.tolist())  # exact, whatever the split and order
    assert math.fsum(merged.log_partials) == math.fsum(whole.log_partials)  # exact, whatever the split and order
    logs = [math.log(max(v, 1e-5)) for v in finite.tolist()]  # trec_eval's gm: log(max(v, MIN_GEO_MEAN))
    # (numpy's log and libm's may differ in the last bit of a value: the sums agree to a few ulps per term)
    assert math.isclose(math.fsum(merged.log_partials), math.fsum(logs), rel_tol=1e-14, abs_tol=1e-11)
    if len(finite):
        assert math.isclose(merged.mean(), float(np.mean(finite)), rel_tol=1e-12, abs_tol=1e-300)
        assert math.isclose(merged.geometric_mean(), math.exp(math.fsum(logs) / len(logs)), rel_tol=1e-12)
    else:
        assert merged.mean() is None and merged.geometric_mean() is None


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 9), st.integers(1, 20), flavors(), st.integers(2, 4))
def test_queries_evaluated_in_parts_merge_into_the_whole_runs_mean(seed, queries, max_docs, flavor, parts):
    qrels, rows = _data(seed, queries, max_docs, True)
    dataset, _ = prepare(qrels, pd.DataFrame(rows, columns=["query", "doc", "score"]))
    engine, run = Engine(dataset), dataset.runs[0]
    try:
        whole = engine.evaluate(run, [flavor])[0].results
    except rf.EvaluationError:
        return
    groups = np.array_split(np.flatnonzero(dataset.judged), parts)
    partial = [engine.evaluate(run, [flavor], queries=g)[0].results for g in groups if len(g)]
    assert np.array_equal(np.concatenate([p.raw_value for p in partial]), whole.raw_value, equal_nan=True)
    merged = reduce(Aggregate.merge, (p.aggregate() for p in partial), Aggregate())
    expected = whole.aggregate()
    assert (merged.count, merged.total) == (expected.count, expected.total)
    finite = whole.raw_value[~np.isnan(whole.raw_value)]
    if len(finite):
        assert math.isclose(merged.mean(), float(finite.mean()), rel_tol=1e-12, abs_tol=1e-15)
