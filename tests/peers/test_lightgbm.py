"""LightGBM's ndcg@k metric, scoring given predictions, against the `lightgbm` preset.

Given predictions are scored as PEERS.md describes: Dataset(zeros, label, group, init_score=scores), one
round of lambdarank with learning_rate=1e-300 and min_data_in_leaf above the data size (the tree cannot
split, so the scores, ties included, stay the init scores), valid_sets=[the same data], record_evaluation.
LightGBM reports the mean over groups only, so each query is also scored alone to compare per query.
"""

from __future__ import annotations

import numpy as np
import pytest
from peerdata import close, random_case, require, rf_mean, rf_values

import rankflavor as rf
from rankflavor.dialects.arrays import query_rows, stack

lgb = require("lightgbm")

SEEDS = range(15)
EVAL_AT = (1, 2, 3, 5, 10)


def lightgbm_means(rows, eval_at=EVAL_AT) -> dict[int, float]:
    s = stack(rows)
    ds = lgb.Dataset(np.zeros((len(s.labels), 1)), label=s.labels, group=s.group_sizes, init_score=s.scores)
    record: dict = {}
    lgb.train({"objective": "lambdarank", "metric": "ndcg", "eval_at": list(eval_at), "learning_rate": 1e-300,
               "num_leaves": 2, "min_data_in_leaf": len(s.labels) + 1, "verbose": -1, "num_threads": 1},
              ds, num_boost_round=1, valid_sets=[ds], valid_names=["v"], callbacks=[lgb.record_evaluation(record)])
    return {k: float(record["v"][f"ndcg@{k}"][-1]) for k in eval_at}


@pytest.mark.parametrize("seed", SEEDS)
def test_lightgbm_matches_per_query_and_mean(seed):
    case = random_case(seed, negative=False, max_grade=4)
    rows = query_rows(case.qrels, case.run)
    per_query = {row.query: lightgbm_means([row]) for row in rows}
    for k in EVAL_AT:
        ours = rf_values(f"lightgbm@{k}", case.qrels, case.run)
        assert {r.query for r in rows} == {q for q, v in ours.items() if v is not None}
        for q, theirs in per_query.items():
            assert close(ours[q], theirs[k]), f"seed {seed} @{k} {q}: rankflavor {ours[q]} lightgbm {theirs[k]}"
    means = lightgbm_means(rows) if rows else {}  # LightGBM refuses an empty dataset
    for k in means:
        assert close(rf_mean(f"lightgbm@{k}", case.qrels, case.run), means[k]), f"seed {seed} mean @{k}"


def test_default_cutoffs_are_one_to_five():
    assert [f.cutoff for f in rf.parse_spec("lightgbm")] == [1, 2, 3, 4, 5]


def test_zero_ideal_scores_one_and_ties_keep_input_order():
    qrels = {"q": {"a": 0, "b": 2}, "z": {"c": 0}}
    run = {"q": {"a": 1.0, "b": 1.0}, "z": {"c": 1.0, "d": 0.0}}
    rows = query_rows(qrels, run)
    assert lightgbm_means([rows[0]], (1,))[1] == 0.0 == rf_values("lightgbm@1", qrels, run)["q"]
    assert lightgbm_means([rows[1]], (1,))[1] == 1.0 == rf_values("lightgbm@1", qrels, run)["z"]


def test_negative_label_is_fatal_on_both_sides():
    qrels, run = {"q": {"a": -1, "b": 1}}, {"q": {"a": 1.0, "b": 0.5}}
    with pytest.raises(lgb.basic.LightGBMError, match="non-negative"):
        lightgbm_means(query_rows(qrels, run), (1,))
    with pytest.raises(rf.EvaluationError, match="negative=error"):
        rf.evaluate(qrels, run, "lightgbm@1")
