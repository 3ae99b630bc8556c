"""Warnings: structured, silent when nothing applies, and their numbers equal full evaluations."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor import registry
from rankflavor.errors import EvaluationError
from rankflavor.report.warnings import FlavorWarning
from strategies import flavors, qrels_and_run


def warnings_by_code(report, index=0):
    return {w.code: w for w in report.results[index].warnings}


def test_silent_when_nothing_applies():
    qrels = {"q1": {"a": 2, "b": 1}, "q2": {"c": 1}}
    run = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 1.0}}
    report = rf.evaluate(qrels, run, ["ndcg@1", "ndcg@10 gain=exp2", "dcg@2"])
    assert all(r.warnings == [] for r in report.results)
    assert report.to_dict()["results"][0]["warning_details"] == []


def test_ties_with_equal_gains_across_the_cutoff_are_silent():
    qrels = {"q": {"a": 1, "b": 1}}
    run = {"q": {"a": 1.0, "b": 1.0}}
    report = rf.evaluate(qrels, run, "ndcg@1")
    assert report.results[0].counts["ties_across_cutoff"] == 1
    assert report.results[0].warnings == []  # pessimistic and optimistic give the same mean


def test_tie_range_unjudged_share_zero_ideal_missing_with_numbers():
    qrels = {"q1": {"a": 2, "b": 1, "c": 0}, "q2": {"a": 0}, "q3": {"x": 1}}
    run = {"q1": {"a": 1.0, "u": 1.0, "b": 0.5}, "q2": {"a": 1.0}, "q9": {"z": 1.0}}
    report = rf.evaluate(qrels, run, "ndcg@1")
    w = warnings_by_code(report)
    assert set(w) == {"ties_across_cutoff", "unjudged_in_top", "zero_ideal", "missing", "unjudged_queries"}
    ties = w["ties_across_cutoff"].numbers
    # q1 @1: pessimistic puts u (gain 0) first, optimistic a (gain 2 = the ideal); q2 scores 0 (empty=zero)
    assert (ties["mean_pessimistic"], ties["mean_optimistic"]) == pytest.approx((0.0, 0.5))
    unjudged = w["unjudged_in_top"].numbers
    assert unjudged["judged_at_k"] == pytest.approx(0.5)  # q1: u unjudged at rank 1; q2: a judged
    assert unjudged["mean_unjudged_skip"] == pytest.approx(rf.evaluate(qrels, run, "ndcg@1 unjudged=skip").mean())
    assert w["zero_ideal"].numbers["mean_without"] == pytest.approx(0.0)
    assert w["missing"].numbers["mean_missing_zero"] == pytest.approx(
        rf.evaluate(qrels, run, "ndcg@1 missing=zero").mean())
    assert isinstance(w["missing"], FlavorWarning) and isinstance(w["missing"], str)
    assert "absent from the run" in w["missing"] and "missing=skip leaves it out" in w["missing"]
    out = json.loads(json.dumps(report.to_dict()))
    details = {d["code"]: d for d in out["results"][0]["warning_details"]}
    assert details["ties_across_cutoff"]["mean_optimistic"] == pytest.approx(0.5)
    assert all(isinstance(m, str) for m in out["results"][0]["warnings"])


def test_unjudged_warning_only_under_unjudged_zero():
    qrels = {"q": {"a": 1}}
    run = {"q": {"u": 2.0, "a": 1.0}}
    assert "unjudged_in_top" in warnings_by_code(rf.evaluate(qrels, run, "ndcg@2"))
    assert "unjudged_in_top" not in warnings_by_code(rf.evaluate(qrels, run, "ndcg@2 unjudged=skip"))


def _means_or_none(qrels, run, specs):
    try:
        report = rf.evaluate(qrels, run, specs)
    except EvaluationError:
        return None
    return report


def _mean_or_refused(qrels, run, flavor):
    """The mean under `flavor`, or None when the data refuses it (the warning then shows null)."""
    try:
        return rf.evaluate(qrels, run, flavor).mean()
    except EvaluationError:
        return None


@settings(max_examples=60)
@given(qrels_and_run(), flavors(metric="ndcg"))
def test_warning_numbers_equal_full_evaluations(data, flavor):
    """The tie range and the unjudged=skip mean are computed on the affected queries only: they must
    equal the means of full evaluations under the changed flavor."""
    check_warning_numbers(data, flavor)


@settings(max_examples=120)
@given(qrels_and_run(), st.sampled_from([m for m in registry.names() if m != "ndcg"  # (not the diversity measures:
                                         and not getattr(registry.get(m), "subtopic_qrels", False)]).flatmap(  # subtopics
    lambda name: flavors(metric=name)))
def test_every_metrics_warning_numbers_equal_full_evaluations(data, flavor):
    """The same for every other metric: ties across the cutoff with their range, unjudged docs in the top k,
    missing queries and the queries the metric cannot score."""
    check_warning_numbers(data, flavor)


def check_warning_numbers(data, flavor):
    qrels, run = data
    assume(run)
    report = _means_or_none(qrels, run, flavor)
    assume(report is not None)
    w = warnings_by_code(report)
    if report.results[0].counts["ties_across_cutoff"]:
        pess, opt = (_mean_or_refused(qrels, run, flavor.with_(ties=t)) for t in ("pessimistic", "optimistic"))
        if pess is not None and opt is not None and abs(opt - pess) <= 1e-12:
            assert "ties_across_cutoff" not in w
        else:
            numbers = w["ties_across_cutoff"].numbers
            for got, expected in ((numbers["mean_pessimistic"], pess), (numbers["mean_optimistic"], opt)):
                assert got is None if expected is None else got == pytest.approx(expected, abs=1e-12)
    else:
        assert "ties_across_cutoff" not in w
    if "unjudged_in_top" in w:
        try:
            skip = rf.evaluate(qrels, run, flavor.with_(unjudged="skip")).mean()
        except EvaluationError:
            skip = "error"
        if skip != "error":
            assert w["unjudged_in_top"].numbers["mean_unjudged_skip"] == pytest.approx(skip, abs=1e-12)
    if "missing" in w:
        other = "zero" if flavor.missing == "skip" else "skip"
        expected = _means_or_none(qrels, run, flavor.with_(missing=other))
        if expected is not None:
            assert w["missing"].numbers[f"mean_missing_{other}"] == pytest.approx(expected.mean(), abs=1e-12)
    undefined = report.results[0].metric.undefined_status
    if undefined in w and flavor.empty != "skip":
        assert w[undefined].numbers["mean_without"] == pytest.approx(
            rf.evaluate(qrels, run, flavor.with_(empty="skip")).mean(), abs=1e-12)


def test_a_refused_alternative_flavor_never_breaks_a_valid_evaluation():
    """The warnings' extra evaluations (unjudged=skip here) may meet empty=error where the flavor itself does not."""
    import pandas as pd

    import rankflavor as rf

    run = pd.DataFrame([("q0", "d1", 1.000000001)], columns=["query", "doc", "score"])
    report = rf.evaluate({"q0": {"x4": 3}}, run, "ndcg ideal_depth=returned empty=error")
    result = report.results[0]
    assert result.per_query()[0]["status"] == "ok" and result.mean == 0.0
    skip = [w for w in result.warnings if w.code == "unjudged_in_top"]
    assert skip and skip[0].numbers["mean_unjudged_skip"] is None
