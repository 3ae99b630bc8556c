"""The compat and accuracy families (metrics/compat.py, metrics/accuracy.py) on cases worked by hand from their
formulas, and their records checked by verify (a record's value changed is caught)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor import registry
from rankflavor.flavor import parse_spec
from strategies import qrels_and_run
from test_engine_vs_reference import check


def value(qrels, run, spec):
    return rf.evaluate(qrels, run, spec).results[0].per_query()[0]["value"]


def test_compat_by_hand():
    # ideal d2 (grade 2), d1; run d1, d2, x: D = 3, weights 1, p, p^2; overlaps 0, 2/2, 2/3; the ideal's 1, 1, 2/3
    p = 0.5
    qrels, run = {"q": {"d1": 1, "d2": 2}}, {"q": {"d1": 3.0, "d2": 2.0, "x": 1.0}}
    found = (0 + p * 1 + p * p * 2 / 3) / (1 + p + p * p)
    best = (1 + p * 1 + p * p * 2 / 3) / (1 + p + p * p)
    assert math.isclose(value(qrels, run, "compat(p=0.5)"), found / best, rel_tol=1e-12)
    assert math.isclose(value(qrels, run, "compat(p=0.5,normalize=false)"), found, rel_tol=1e-12)


def test_compat_ideal_ties_follow_the_run_then_doc_id():
    # d1 and d2 of one grade: the ideal puts the higher-scored d2 first, so the run's order is the ideal's
    qrels, run = {"q": {"d1": 1, "d2": 1}}, {"q": {"d2": 2.0, "d1": 1.0}}
    assert value(qrels, run, "compat") == pytest.approx(1.0)


def test_accuracy_by_hand():
    # top 4: n r n r (unjudged x is nonrelevant): nonrelevant above each relevant 1, 2; N = 2, R = 2
    qrels, run = {"q": {"a": 0, "b": 1, "c": 2}}, {"q": {"a": 4.0, "b": 3.0, "x": 2.0, "c": 1.0}}
    assert value(qrels, run, "accuracy") == pytest.approx(1 - (1 + 2) / (2 * 2))
    assert value(qrels, run, "accuracy rel_level=2") == pytest.approx(1 - 3 / (3 * 1))
    assert value(qrels, run, "accuracy@1 empty=skip") is None  # no relevant doc in the top 1


@pytest.mark.parametrize("spec", ["compat(p=0.8)", "accuracy@3"])
def test_verify_catches_a_changed_value(spec):
    qrels, run = {"q": {"a": 0, "b": 1, "c": 2}}, {"q": {"a": 4.0, "b": 3.0, "x": 2.0, "c": 1.0}}
    report = rf.evaluate(qrels, run, spec)
    assert report.verify() == []
    record = report.explain(query="q")
    flavor = parse_spec(spec)[0]
    metric = registry.get(flavor.metric)
    assert metric.check_record(record, flavor) == []
    record.value = 0.123
    assert metric.check_record(record, flavor)


def test_compat_ideal_ties_in_the_qrels_order_by_hand():
    # d1 and d2 of one grade and one score: by doc id the ideal is d1, d2 (the run's own order: compat 1); in the
    # qrels' order d2, d1 (ir_measures' compat provider): depth 1 shares nothing, depth 2 both
    qrels, run = {"q": {"d2": 1, "d1": 1}}, {"q": {"d1": 2.0, "d2": 2.0}}
    assert value(qrels, run, "compat ties=docid_asc") == pytest.approx(1.0)  # (the run: d1, d2)
    p = 0.95
    found, best = (0 + p * 2 / 2) / (1 + p), (1 + p * 2 / 2) / (1 + p)
    assert value(qrels, run, "compat(ideal_ties=qrels) ties=docid_asc") == pytest.approx(found / best, rel=1e-12)


def test_verify_reads_the_qrels_order_from_the_ideal_ranks():
    qrels, run = {"q": {"d2": 1, "d5": 1, "d1": 1, "d9": 2}}, {"q": {"x": 3.0, "d1": 2.0, "d2": 2.0}}
    report = rf.evaluate(qrels, run, "compat(ideal_ties=qrels)")
    assert report.verify() == []
    record = report.explain(query="q")
    assert [(row["doc"], row["ideal_rank"]) for row in record.ranked] == [("x", 0), ("d2", 2), ("d1", 3)]
    flavor = parse_spec("compat(ideal_ties=qrels)")[0]
    metric = registry.get("compat")
    assert metric.check_record(record, flavor) == []
    record.ranked[1]["ideal_rank"] = 4.0  # (the ideal d9, d2, d1, d5; d2 at d5's place, of score 0: out of order)
    assert metric.check_record(record, flavor)
    record.ranked[1]["ideal_rank"], record.value = 2.0, 0.5
    assert metric.check_record(record, flavor)


@given(qrels_and_run(), st.sampled_from(["compat", "compat(ideal_ties=qrels)", "compat(p=0.5,ideal_ties=qrels)"]))
def test_compat_matches_the_reference_in_either_tie_order(data, spec):
    """The engine against reference/ir_measures_ref.py compat (the qrels' order: each dict's order), with verify."""
    report = check(*data, parse_spec(spec)[0])
    if report is not None:
        assert report.verify() == []
