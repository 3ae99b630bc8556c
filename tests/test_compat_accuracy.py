"""The compat and accuracy families (metrics/compat.py, metrics/accuracy.py) on cases worked by hand from their
formulas, and their records checked by verify (a record's value changed is caught)."""

from __future__ import annotations

import math

import pytest

import rankflavor as rf
from rankflavor import registry
from rankflavor.flavor import parse_spec


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
