"""The measures over the run's own rows (metrics/row_measures.py, metrics/auroc.py): the engine against the slow
reference (reference/row_measures.py) on random data and flavors, records verified, and hand-worked cases from
their definitions (torchmetrics 1.9.0 functional/retrieval/*.py; live checks: tests/peers/test_torchmetrics_names.py).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankflavor as rf
from strategies import flavors, qrels_and_run
from test_engine_vs_reference import check

ROW_METRICS = ("row_ap", "row_rr", "row_precision", "row_recall", "row_fall_out", "row_rprec", "auroc")


@given(qrels_and_run(), st.sampled_from(ROW_METRICS).flatmap(lambda name: flavors(metric=name)))
def test_row_measures_match_the_reference(data, flavor):
    qrels, run = data
    report = check(qrels, run, flavor)
    if report is not None:
        assert report.verify() == []


# q1 ranked: b (0.9, grade 0), a (0.5, grade 1), d (0.2, unjudged), c (-1, grade 2); q2: y (2), x (1, grade 0)
QRELS = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"x": 0}}
RUN = {"q1": {"a": 0.5, "b": 0.9, "c": -1.0, "d": 0.2}, "q2": {"x": 1.0, "y": 2.0}}


@pytest.mark.parametrize(("spec", "q1", "q2"), [
    ("row_ap", (1 / 2 + 2 / 4) / 2, None),  # relevant at ranks 2 and 4: P@2, P@4 over the 2 found (R = 0 in q2)
    ("row_ap(scored=positive)", 1 / 2, None),  # c scored -1 is not counted: P@2 over 1
    ("row_rr(scored=positive)@1", 0.0, None),
    ("row_precision@10", 2 / 10, None),
    ("row_precision(adaptive_k=true)@10", 2 / 4, None),  # min(k, n) = 4
    ("row_recall(scored=positive)", 1 / 2, None),  # the row's R = 2 (c counts in R, not among the hits)
    ("row_fall_out@1", 1 / 2, 1 / 2),  # q1: b of b, d; q2: y (unjudged) of y, x
    ("row_rprec", 1 / 2, None),  # R = 2: a in the top 2
    ("auroc", 1 / 4, None),  # pairs (a,b) 0, (a,d) 1, (c,b) 0, (c,d) 0
    ("auroc@2", 0.0, None),  # top 2: a beats nothing
])
def test_hand_worked(spec, q1, q2):
    values = {r["query"]: r["value"] for r in rf.evaluate(QRELS, RUN, f"{spec} empty=skip").results[0].per_query()}
    assert math.isclose(values["q1"], q1) and (values["q2"] is None if q2 is None else math.isclose(values["q2"], q2))


def test_auroc_sigmoid_merges_high_scores_into_a_tie():
    """sigmoid(20) and sigmoid(21) are both 1 in float32: the relevant doc's win over the nonrelevant one is a tie."""
    qrels, run = {"q": {"r": 1, "n": 0}}, {"q": {"r": 21.0, "n": 20.0}}
    assert rf.evaluate(qrels, run, "auroc").mean() == 1.0
    assert rf.evaluate(qrels, run, "auroc(scores=sigmoid)").mean() == 0.5


@pytest.mark.parametrize("spec", ["row_ap@3", "row_recall(scored=positive)", "row_fall_out@2", "auroc"])
def test_a_tampered_record_is_reported(spec):
    """A record checks out as computed; one whose value, or one row's relevance, no longer agrees does not."""
    flavor = rf.Flavor.parse(spec)
    metric = rf.registry.get(flavor.metric)
    record = rf.explain(QRELS, RUN, "q1", spec)
    assert metric.check_record(record, flavor) == []
    assert any("rows give" in p for p in metric.check_record(replace(record, value=record.value + 0.25), flavor))
    flipped = [dict(row) for row in record.ranked]
    flipped[0]["relevant"] = not flipped[0]["relevant"]
    assert any("relevant is" in p for p in metric.check_record(replace(record, ranked=flipped), flavor))
