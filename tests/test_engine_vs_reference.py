"""The engine against the slow reference, on random qrels, runs and flavors (never against itself)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankflavor as rf
from rankflavor import registry
from rankflavor.reference import RefError, reference_evaluate, reference_mean
from strategies import flavors, qrels_and_run


def _same(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def check(qrels, run, flavor):
    """The engine's values, parts, statuses and mean against the reference's, or both refusing the data.
    Returns the report (None when refused)."""
    try:
        expected = reference_evaluate(flavor, qrels, run)
    except RefError:
        expected = None
    try:
        report = rf.evaluate(qrels, run, flavor)
    except rf.EvaluationError:
        assert expected is None, "the engine refused data the reference accepts"
        return None
    assert expected is not None, "the engine accepted data the reference refuses"
    rows = {r["query"]: r for r in report.results[0].per_query()}
    assert set(rows) == set(expected)
    for query, ref in expected.items():
        got = rows[query]
        assert got["status"] == ref.status, (query, got, ref)
        assert _same(got["value"], ref.value), (query, got, ref)
        if ref.status != "missing":
            for name, part in ref.parts.items():  # (ndcg: dcg and idcg; dcg: dcg, its idcg null)
                assert _same(got[name], part), (query, name, got, ref)
    values = [r.raw_value for r in expected.values()]
    if flavor.unjudged_queries == "zero":  # run queries with no judgment: a 0 each in the mean
        values += [registry.get(flavor.metric).zero_value] * sum(1 for q in run if not qrels.get(q))
    if registry.get(flavor.metric).aggregate == "sum":  # (counts: trec_eval sums them)
        kept = [v for v in values if v is not None]
        assert _same(report.mean(), sum(kept) if kept else None)
    else:
        kind = registry.get(flavor.metric).aggregate  # gm: gm_map, gm_bpref; log_gm: their pytrec_eval logs
        assert _same(report.mean(), reference_mean(values, None, flavor.round.decimals, str(flavor.mean_of),
                                                   kind == "gm", kind == "log_gm"))
    return report


@given(qrels_and_run(), flavors())
def test_engine_matches_reference(data, flavor):
    qrels, run = data
    check(qrels, run, flavor)


@given(qrels_and_run(), flavors(metric="ndcg"))
def test_records_verify(data, flavor):
    qrels, run = data
    try:
        report = rf.evaluate(qrels, run, flavor)
    except rf.EvaluationError:
        return
    assert report.verify() == []


@given(qrels_and_run(), st.lists(flavors(), min_size=2, max_size=4))
def test_many_flavors_at_once_equal_one_at_a_time(data, flavor_list):
    qrels, run = data
    try:
        together = rf.evaluate(qrels, run, flavor_list)
    except rf.EvaluationError:
        return
    for flavor in flavor_list:
        alone = rf.evaluate(qrels, run, flavor)
        assert together.result(None, flavor).per_query() == alone.results[0].per_query()


@pytest.mark.parametrize("ties", ["docid_desc", "input", "average", "pessimistic", "random(3)"])
def test_large_tie_groups_use_the_closed_form(ties):
    qrels = {"q": {f"d{i}": i % 4 for i in range(12)}}
    run = {"q": {f"d{i}": float(i // 6) for i in range(12)}}  # two groups of six tied docs
    check(qrels, run, rf.Flavor.parse(f"ndcg@4 ties={ties}"))


OTHERS = [name for name in registry.names() if name not in ("ndcg", "dcg")  # (every metric beside NDCG; the diversity
          and not getattr(registry.get(name), "subtopic_qrels", False)]  # ones read subtopic qrels: test_diversity.py


@given(qrels_and_run(), st.sampled_from(OTHERS).flatmap(lambda name: flavors(metric=name)))
def test_other_measures_match_the_reference(data, flavor):
    qrels, run = data
    report = check(qrels, run, flavor)
    if report is not None:
        assert report.verify() == []


@pytest.mark.parametrize("missing", ["skip", "empty"])
def test_err_refuses_a_grade_above_max_grade_in_a_query_it_scores_over_no_docs(missing):
    """Under missing=empty a judged query absent from the run is scored over an empty list, its judgments read: a
    grade above max_grade is refused there too, as the reference refuses it (found by hypothesis)."""
    check({"q0": {"d0": 2}, "q1": {"d1": 1}}, {"q1": {"d1": 1.0}}, rf.Flavor.parse(f"err(max_grade=1) missing={missing}"))
