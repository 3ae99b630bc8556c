"""ir_measures (pytrec_eval provider) against the `ir_measures` preset.

ir_measures' Evaluator.iter_calc yields measure.DEFAULT (0) for every qrels query the provider did not score
(providers/base.py), so judged queries missing from the run score 0 (missing=zero); run queries absent from
the qrels are never scored.
"""

from __future__ import annotations

import pytest
from peerdata import close, random_case, require, rf_values

import rankflavor as rf

ir_measures = require("ir_measures")
from ir_measures import nDCG  # noqa: E402

SEEDS = range(20)


def per_query(measure, case) -> dict[str, float]:
    provider = ir_measures.providers.registry["pytrec_eval"]
    return {m.query_id: m.value for m in provider.iter_calc([measure], case.qrels, case.run)}


def usable(case):
    """Topics whose every judgment is negative make trec_eval's uncut ndcg loop (see test_pytrec_eval.py)."""
    case.qrels = {q: docs for q, docs in case.qrels.items() if any(g >= 0 for g in docs.values())}
    return case


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", [None, 1, 5, 10])
def test_ndcg_matches_ir_measures(seed, k):
    case = usable(random_case(seed))
    measure = nDCG if k is None else nDCG @ k
    theirs = per_query(measure, case)
    ours = rf_values("ir_measures" if k is None else f"ir_measures@{k}", case.qrels, case.run)
    assert set(theirs) == set(case.qrels) == set(ours), f"seed {seed}"
    for q, value in theirs.items():
        assert ours[q] is not None and close(ours[q], value), f"seed {seed} {measure} {q}: {ours[q]} vs {value}"


def test_missing_query_scores_zero_and_counts_in_the_mean():
    qrels, run = {"a": {"d1": 1}, "b": {"d2": 1}}, {"a": {"d1": 1.0}}
    agg = ir_measures.calc_aggregate([nDCG @ 5], qrels, run)[nDCG @ 5]
    assert agg == pytest.approx(0.5)
    ours = rf_values("ir_measures@5", qrels, run)
    assert ours == {"a": 1.0, "b": 0.0}
    assert rf_values("pytrec_eval@5", qrels, run)["b"] is None  # the plain pytrec_eval preset skips it


@pytest.mark.parametrize("seed", range(10))
def test_judged_only_is_minus_j(seed):
    """nDCG(judged_only=True) runs pytrec_eval with judged_docs_only_flag: unjudged=skip."""
    case = usable(random_case(seed))
    measure = nDCG(judged_only=True) @ 5
    theirs = per_query(measure, case)
    ours = rf_values("ir_measures@5 unjudged=skip", case.qrels, case.run)
    for q, value in theirs.items():
        assert close(ours[q], value), f"seed {seed} {q}: {ours[q]} vs {value}"


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("k", [None, 5])
def test_custom_gains_keep_unlisted_grades_as_ir_measures_does(seed, k):
    """nDCG(gains={...}) maps each grade through gains.get(g, g) (providers/pytrec_eval_provider.py): a grade
    the table does not list is its own gain: `gain={...,*:g}`."""
    case = usable(random_case(seed, negative=False))
    gains = {2: 5, 3: 11}  # grades 0 and 1 are not listed
    measure = nDCG(gains=gains) if k is None else nDCG(gains=gains) @ k
    theirs = per_query(measure, case)
    spec = ("ir_measures" if k is None else f"ir_measures@{k}") + " gain={2:5,3:11,*:g}"
    ours = rf_values(spec, case.qrels, case.run)
    for q, value in theirs.items():
        assert ours[q] is not None and close(ours[q], value), f"seed {seed} {measure} {q}: {ours[q]} vs {value}"
    with pytest.raises(rf.EvaluationError, match="has no gain in the table"):  # without *:g: refused
        rf.evaluate(case.qrels, case.run, spec.replace(",*:g", ""))
