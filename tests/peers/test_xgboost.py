"""XGBoost's ndcg metrics, scoring given predictions, against the `xgboost` and `xgboost.minus` presets.

Given predictions are scored as PEERS.md describes: DMatrix(zeros, label, qid, base_margin=scores),
xgb.train({"objective": "rank:ndcg", "eval_metric": ...}, num_boost_round=0), bst.eval. The predictions are
float32 (scores equal in float32 tie and keep input order), the plain `ndcg` is @32 (LambdaRankParam
DefaultK), and a group with no relevant label scores 1 (0 with the '-' suffix). XGBoost reports the mean
over groups only, so each query is also scored alone to compare per query.
"""

from __future__ import annotations

import numpy as np
import pytest
from peerdata import close, random_case, require, rf_mean, rf_values

import rankflavor as rf
from rankflavor.dialects.arrays import query_rows, stack

xgb = require("xgboost")

SEEDS = range(15)
METRICS = (("ndcg", "xgboost"), ("ndcg@1", "xgboost@1"), ("ndcg@3", "xgboost@3"), ("ndcg@10", "xgboost@10"),
           ("ndcg-", "xgboost.minus"), ("ndcg@3-", "xgboost.minus@3"))


def xgboost_means(rows, metrics) -> dict[str, float]:
    s = stack(rows)
    data = xgb.DMatrix(np.zeros((len(s.labels), 1)), label=s.labels, qid=s.group_ids, base_margin=s.scores)
    params = {"objective": "rank:ndcg", "eval_metric": list(metrics), "nthread": 1}
    booster = xgb.train(params, data, num_boost_round=0)
    fields = booster.eval(data, name="v").split()[1:]
    return {name.split(":")[0][2:]: float(value) for name, value in (f.rsplit(":", 1) for f in fields)}


@pytest.mark.parametrize("seed", SEEDS)
def test_xgboost_matches_per_query_and_mean(seed):
    case = random_case(seed, negative=False, max_grade=4)
    rows = query_rows(case.qrels, case.run)
    names = [m for m, _ in METRICS]
    per_query = {row.query: xgboost_means([row], names) for row in rows}
    for metric, preset in METRICS:
        ours = rf_values(preset, case.qrels, case.run)
        assert {r.query for r in rows} == {q for q, v in ours.items() if v is not None}
        for q, theirs in per_query.items():
            assert close(ours[q], theirs[metric]), f"seed {seed} {metric} {q}: {ours[q]} vs {theirs[metric]}"
    if rows:
        means = xgboost_means(rows, names)
        for metric, preset in METRICS:
            assert close(rf_mean(preset, case.qrels, case.run), means[metric]), f"seed {seed} mean {metric}"


def test_default_depth_is_32():
    """40 docs, the only relevant one 33rd: ndcg (no @) ignores it like ndcg@32, unlike an uncut NDCG."""
    docs = {f"d{i:02d}": float(40 - i) for i in range(40)}
    qrels, run = {"q": {"d32": 1}}, {"q": docs}
    theirs = xgboost_means(query_rows(qrels, run), ["ndcg", "ndcg@32", "ndcg@40"])
    assert theirs["ndcg"] == theirs["ndcg@32"] == 0.0 < theirs["ndcg@40"]
    assert rf_values("xgboost", qrels, run)["q"] == 0.0
    assert rf_values("xgboost@40", qrels, run)["q"] == pytest.approx(theirs["ndcg@40"])


def test_float32_ties_keep_input_order():
    """1.0 + 1e-9 and 1.0 are one float32: the first in input order (grade 0) wins the tie."""
    qrels, run = {"q": {"a": 0, "b": 2}}, {"q": {"a": 1.0, "b": 1.0 + 1e-9}}
    theirs = xgboost_means(query_rows(qrels, run), ["ndcg@1"])["ndcg@1"]
    assert theirs == 0.0 == rf_values("xgboost@1", qrels, run)["q"]
    assert rf_values("xgboost@1 precision=f64", qrels, run)["q"] == 1.0


def test_negative_label_is_refused_on_both_sides():
    qrels, run = {"q": {"a": -1, "b": 1}}, {"q": {"a": 1.0, "b": 0.5}}
    with pytest.raises(xgb.core.XGBoostError, match="label must be either 0 or positive"):
        xgboost_means(query_rows(qrels, run), ["ndcg@1"])
    with pytest.raises(rf.EvaluationError, match="negative=error"):
        rf.evaluate(qrels, run, "xgboost@1")
