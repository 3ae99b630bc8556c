"""Issue 24 item 4: presets exact against the installed peers, on random cases (tied scores, graded and negative
grades, unjudged docs, queries on one side only: peerdata.random_case), each number compared with ==.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peerdata import random_case, require, rf_mean, rf_values

SEEDS = st.integers(0, 2**32 - 1)


@settings(max_examples=40)
@given(seed=SEEDS, beta=st.sampled_from([2.0, 3.0, 0.5, 1.0, 5.0]))
def test_set_f_is_exactly_ir_measures(seed, beta):
    """SetF(beta=b) is trec_eval's set_F.b, (b + 1) P R / (b P + R) (m_set_F.c): beta² = b, not sqrt(b)²."""
    ir_measures = require("ir_measures")
    case = random_case(seed)
    case.qrels = {q: docs for q, docs in case.qrels.items() if any(g >= 0 for g in docs.values())}
    measure = ir_measures.SetF(rel=1, beta=beta)
    provider = ir_measures.providers.registry["pytrec_eval"]
    theirs = {m.query_id: m.value for m in provider.iter_calc([measure], case.qrels, case.run)}
    ours = rf_values(f"ir_measures.{measure}", case.qrels, case.run)
    assert {q: ours[q] for q in theirs} == theirs


def test_set_f_beta_squared_example():
    """P = 1/2, R = 1/2 over one list: F with beta² = 2 is 3 (1/4) / (3/2) = 0.5 exactly."""
    qrels, run = {"q": {"a": 1, "b": 1, "c": 0}}, {"q": {"a": 2.0, "x": 1.0}}
    assert rf_values("ir_measures.SetF(rel=1,beta=2.0)", qrels, run) == {"q": 0.5}
    assert rf_values("f(beta=sqrt(2))", qrels, run) == {"q": 0.5}
    with pytest.raises(Exception, match="beta"):
        rf_values("f(beta=sqrt(0))", qrels, run)


@settings(max_examples=40)
@given(seed=SEEDS, judged_only=st.booleans(), rel_level=st.sampled_from([1, 2]))
def test_gm_per_query_and_mean_are_pytrec_evals(seed, judged_only, rel_level):
    """pytrec_eval's gm_map / gm_bpref per query are log(max(value, 1e-5)) (m_gm_map.c), compared exactly; its
    mean is compute_aggregated_measure's exp(sum / n) (the same logs, summed in another order: 1e-12)."""
    pytrec_eval = require("pytrec_eval")
    case = random_case(seed, max_docs=20)
    case.qrels = {q: docs for q, docs in case.qrels.items() if any(g >= 0 for g in docs.values())}
    names = ("gm_map", "gm_bpref")
    theirs = pytrec_eval.RelevanceEvaluator(case.qrels, set(names), relevance_level=rel_level,
                                            judged_docs_only_flag=judged_only).evaluate(case.run)
    for name in names:
        axes = f" rel_level={rel_level}" + (" unjudged=skip" if judged_only and name == "gm_map" else "")
        ours = rf_values(f"pytrec_eval.{name}{axes}", case.qrels, case.run)
        assert {q: v for q, v in ours.items() if v is not None} == {q: m[name] for q, m in theirs.items()}
        if theirs:
            mean = pytrec_eval.compute_aggregated_measure(name, [m[name] for m in theirs.values()])
            assert math.isclose(rf_mean(f"pytrec_eval.{name}{axes}", case.qrels, case.run), mean, rel_tol=1e-12)
