"""Issue 24 item 4: presets exact against the installed peers, on random cases (tied scores, graded and negative
grades, unjudged docs, queries on one side only: peerdata.random_case), each number compared with ==.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peerdata import random_case, require, rf_values

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
