"""CatBoost's NDCG (catboost.utils.eval_metric on given predictions) against `catboost` and `catboost.exp`.

CatBoost orders tied predictions by target ascending (doc_comparator.h: ties=pessimistic), keeps negative
targets as negative gains, takes float targets, computes in double, and in 1.2.10 scores a group whose
IDCG is not positive as 1. It reports the mean over groups, so each query is also scored alone.
"""

from __future__ import annotations

import numpy as np
import pytest
from peerdata import close, random_case, require, rf_mean, rf_values

from rankflavor.dialects.arrays import query_rows, stack

require("catboost")
from catboost.utils import eval_metric  # noqa: E402

SEEDS = range(20)
METRICS = (("NDCG:type=Base", "catboost"), ("NDCG:top=1;type=Base", "catboost@1"),
           ("NDCG:top=3;type=Base", "catboost@3"), ("NDCG:top=10;type=Exp", "catboost.exp@10"),
           ("NDCG:type=Exp", "catboost.exp"))


def catboost_value(rows, metric: str) -> float:
    s = stack(rows)
    return float(eval_metric(s.labels, s.scores, metric, group_id=s.group_ids)[0])


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("metric", "preset"), METRICS)
def test_catboost_matches_per_query_and_mean(seed, metric, preset):
    case = random_case(seed, fractional=True)
    rows = query_rows(case.qrels, case.run)
    ours = rf_values(preset, case.qrels, case.run)
    assert {r.query for r in rows} == {q for q, v in ours.items() if v is not None}
    for row in rows:
        theirs = catboost_value([row], metric)
        assert close(ours[row.query], theirs), f"seed {seed} {metric} {row.query}: {ours[row.query]} vs {theirs}"
    if rows:
        assert close(rf_mean(preset, case.qrels, case.run), catboost_value(rows, metric)), f"seed {seed} mean"


def test_ties_put_the_lower_target_first():
    qrels, run = {"q": {"a": 2, "b": 0}}, {"q": {"a": 1.0, "b": 1.0}}
    theirs = catboost_value(query_rows(qrels, run), "NDCG:top=1;type=Base")
    assert theirs == 0.0 == rf_values("catboost@1", qrels, run)["q"]


def test_zero_and_negative_ideal_score_one():
    qrels = {"z": {"a": 0}, "n": {"a": -1, "b": 0}}
    run = {"z": {"a": 1.0, "b": 0.5}, "n": {"a": 1.0, "b": 0.5}}
    for row in query_rows(qrels, run):
        assert catboost_value([row], "NDCG:type=Base") == 1.0 == rf_values("catboost", qrels, run)[row.query]


def test_predictions_are_compared_in_double():
    qrels, run = {"q": {"a": 0, "b": 2}}, {"q": {"a": 1.0, "b": 1.0 + 1e-9}}
    assert catboost_value(query_rows(qrels, run), "NDCG:top=1;type=Base") == 1.0
    assert rf_values("catboost@1", qrels, run)["q"] == 1.0
    assert np.float32(1.0 + 1e-9) == np.float32(1.0)  # a float32 peer would tie them (and put 'a' first)
