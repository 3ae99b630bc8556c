"""Report.verify over a whole run's record rows (reference/rows.py) finds exactly the queries the record-by-record
check (each metric's check_record on a Record) finds: on untouched rows none, on rows with one number tampered
with the same queries; and verify() reports a tampered value."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor import registry
from rankflavor.report.records import build_record
from strategies import flavors, qrels_and_run

ROWS_CHECKED = [name for name in registry.names() if registry.get(name).check_rows.__qualname__ != "Metric.check_rows"]


def _by_records(report, res, rows, flavor) -> set[int]:
    metric = registry.get(flavor.metric)
    return {int(c) for c in res.query.tolist()
            if metric.check_record(build_record(report.dataset, report.runs[0], flavor, res, rows, int(c)), flavor)}


def _tamper(res, rows, choice: int, where: int) -> str | None:
    """Change one number of the record rows (or a value); the name of what was changed, None when there is none."""
    targets = [("value", res.value), *((f"part {k}", v) for k, v in res.parts.items()),
               *((f"column {k}", v) for k, v in rows.columns.items()), ("universe gain", rows.qrels_gain),
               *((f"{name} {k}", v) for name, cols in rows.lists.items() for k, v in cols.items()
                 if k not in ("q", "d", "rank", "grade"))]
    targets = [(name, array) for name, array in targets if len(array) and array.dtype.kind in "fb"]
    if not targets:
        return None
    name, array = targets[choice % len(targets)]
    i = where % len(array)
    if array.dtype.kind == "b":
        array[i] = ~array[i]
    elif np.isnan(array[i]):
        array[i] = 0.25
    else:
        array[i] += 0.5
    return name


def test_every_metric_with_a_record_check_of_relevance_or_gain_checks_rows():
    assert {"ndcg", "dcg", "map", "p", "recall", "err", "rbp", "bpref", "judged"} <= set(ROWS_CHECKED)


@settings(max_examples=150, deadline=None)
@given(qrels_and_run(), st.sampled_from(ROWS_CHECKED).flatmap(lambda name: flavors(metric=name)),
       st.integers(0, 10**6), st.integers(0, 10**6))
def test_the_rows_check_flags_the_queries_the_records_check_flags(data, flavor, choice, where):
    qrels, run = data
    try:
        report = rf.evaluate(qrels, run, flavor, warnings=False)
        res, rows = report._detail(report.runs[0], flavor)
    except rf.EvaluationError:
        return
    metric = registry.get(flavor.metric)
    assert metric.check_rows(rows, res, report.dataset, flavor) == {} == {
        c: 1 for c in _by_records(report, res, rows, flavor)}
    res, rows = copy.deepcopy(res), copy.deepcopy(rows)
    changed = _tamper(res, rows, choice, where)
    found = set(metric.check_rows(rows, res, report.dataset, flavor))
    assert found == _by_records(report, res, rows, flavor), changed


@pytest.mark.parametrize("spec", ["ndcg@3 gain=exp2", "ndcg@2 ties=average", "map", "p@2", "err@3", "rbp(p=0.5)"])
def test_verify_reports_a_tampered_record(spec, monkeypatch):
    qrels = {"q1": {"a": 2, "b": 1, "c": 0}, "q2": {"a": 1, "d": 3}}
    run = {"q1": {"a": 1.0, "u": 1.0, "b": 0.5, "c": 0.4}, "q2": {"d": 2.0, "a": 1.0, "z": 0.5}}
    report = rf.evaluate(qrels, run, spec)
    assert report.verify() == []
    detail = report._detail

    def tampered(run_name, flavor, queries=None):
        res, rows = detail(run_name, flavor, queries)
        first = np.flatnonzero((rows.q == 0) & rows.judged)[0]  # (q1's first judged row)
        if "contribution" in rows.columns:
            rows.columns["contribution"][first] += 0.5
        elif "relevant" in rows.columns:
            rows.columns["relevant"][first] = not rows.columns["relevant"][first]
        else:  # (ERR, RBP: their value is checked against the grades' formula)
            rows.grade[first] += 1
        return res, rows

    monkeypatch.setattr(report, "_detail", tampered)
    problems = report.verify()
    assert problems and {p.query for p in problems} == {"q1"}, problems
