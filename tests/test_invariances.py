"""The invariances every flavor must keep (README, Flavors), as property tests on random qrels, runs and flavors."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import rankflavor as rf
from strategies import flavors, qrels_and_run


def _values(qrels, run, flavor):
    try:
        report = rf.evaluate(qrels, run, flavor)
    except rf.EvaluationError:
        return None
    return [r["value"] for r in report.results[0].per_query()]


def _close(a, b):
    if a is None or b is None:
        return a is None and b is None
    assert len(a) == len(b)
    return all((x is None and y is None) or (x is not None and y is not None and math.isclose(x, y, abs_tol=1e-9))
               for x, y in zip(a, b, strict=True))


def _integer_grades(qrels):
    return {q: {d: int(abs(g)) % 4 for d, g in docs.items()} for q, docs in qrels.items()}


@given(qrels_and_run(), flavors(metric="ndcg"), st.sampled_from([0.5, 3.0, 7.0, 1000.0]),
       st.sampled_from(["linear", "exp2"]))
def test_scaling_every_gain_leaves_ndcg_unchanged(data, flavor, c, base_gain):
    qrels, run = data
    qrels = _integer_grades(qrels)
    flavor = flavor.with_(gain=base_gain, round="none", mean_of="raw")
    gains = {g: (g if base_gain == "linear" else 2**g - 1) for g in range(4)}
    scaled = flavor.with_(gain="{" + ",".join(f"{g}:{c * v}" for g, v in gains.items()) + "}")
    assert _close(_values(qrels, run, flavor), _values(qrels, run, scaled))


@given(qrels_and_run(), flavors(metric="ndcg"), st.sampled_from(["e", "10", "3", "1.5"]))
def test_the_base_of_log_discount_cancels(data, flavor, base):
    qrels, run = data
    flavor = flavor.with_(discount="log(2)", round="none", mean_of="raw")
    assert _close(_values(qrels, run, flavor), _values(qrels, run, flavor.with_(discount=f"log({base})")))
    assert _close(_values(qrels, run, flavor), _values(qrels, run, flavor.with_(discount="log2")))


@given(qrels_and_run(), flavors(), st.sampled_from(["rank", "exp", "affine"]))
def test_order_and_tie_preserving_score_transforms_change_nothing(data, flavor, kind):
    qrels, run = data
    flavor = flavor.with_(precision="f64")
    scores = sorted({s for docs in run.values() for s in docs.values()})
    if kind == "rank":
        mapping = {s: 3.5 * i + 1 for i, s in enumerate(scores)}
    elif kind == "exp":
        mapping = {s: float(np.exp(s)) for s in scores}
    else:
        mapping = {s: 10 * s + 7 for s in scores}
    if len(set(mapping.values())) != len(scores):  # the transform merged two scores: not tie-preserving
        return
    moved = {q: {d: mapping[s] for d, s in docs.items()} for q, docs in run.items()}
    assert _close(_values(qrels, run, flavor), _values(qrels, moved, flavor))


@given(qrels_and_run(), flavors())
def test_linear_and_exp2_agree_on_binary_grades(data, flavor):
    qrels, run = data
    binary = {q: {d: int(g > 0) for d, g in docs.items()} for q, docs in qrels.items()}
    assert _close(_values(binary, run, flavor.with_(gain="linear")), _values(binary, run, flavor.with_(gain="exp2")))


@given(qrels_and_run(), flavors(metric="ndcg"))
def test_ndcg_is_within_zero_one_for_nonnegative_gains_and_covering_ideals(data, flavor):
    qrels, run = data
    flavor = flavor.with_(negative="unjudged", gain="linear", discount="log2")
    if flavor.ideal not in ("global", "local") or flavor.ideal_depth == "returned":
        flavor = flavor.with_(ideal="local", ideal_depth="k")
    values = _values(qrels, run, flavor)
    if values is None:
        return
    # a global ideal covers every judged doc; with unjudged docs at gain 0 the DCG cannot exceed it
    assert all(v is None or -1e-12 <= v <= 1 + 1e-12 for v in values)


def test_segment_cumsum_is_each_query_s_own_cumsum_bit_for_bit():
    """A query's running sums never carry another query's rounding (found on a Spark cluster, whose slices put
    other queries before a query: pytrec_eval.ndcg_rel and Rndcg differed in the 14th digit)."""
    from rankflavor.metrics.trec_gains import segment_cumsum

    rng = np.random.default_rng(5)
    lengths = rng.integers(1, 40, 200)
    lengths[3] = 1000
    q = np.repeat(np.arange(len(lengths)), lengths)
    x = rng.random(q.size) * 10.0 ** rng.integers(-3, 9, q.size)
    got = segment_cumsum(q, x)
    start = 0
    for length in lengths:
        assert np.array_equal(got[start:start + length], np.cumsum(x[start:start + length]))
        start += length
    assert segment_cumsum(q[:0], x[:0]).size == 0


@given(qrels_and_run(), st.sampled_from(["pytrec_eval.all_trec", "trec_eval.official ndcg_rel Rndcg"]))
def test_a_query_s_value_does_not_depend_on_the_other_queries(data, specs):
    """Each query evaluated alone gives, bit for bit, what it gives among all the others (what lets the engine
    chunk a run and Spark slice it)."""
    qrels, run = data
    names = specs.split()
    specs = [names[0], *(f"trec_eval.{n}" for n in names[1:])] if len(names) > 1 else names
    try:
        whole = rf.evaluate(qrels, run, specs).to_frame().set_index(["label", "query"])["value"]
    except rf.EvaluationError:
        return
    for qid in run:
        if not qrels.get(qid) or not run[qid]:
            continue
        alone = rf.evaluate({qid: qrels[qid]}, {qid: run[qid]}, specs).to_frame().set_index(["label", "query"])["value"]
        both = whole.loc[alone.index]
        assert np.array_equal(alone.to_numpy(dtype=float), both.to_numpy(dtype=float), equal_nan=True), qid
