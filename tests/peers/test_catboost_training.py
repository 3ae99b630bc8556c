"""rankflavor.catboost's CatBoostMetric while CatBoost 1.2.10 trains a YetiRank model: at every iteration its value
equals CatBoost's own `NDCG:top=5;type=Base` of the same predictions (its default: the `catboost` preset), on the
validation and the learning pool, and, under another flavor, rankflavor.evaluate of the predictions of that
iteration (model.predict with ntree_end)."""

from __future__ import annotations

import warnings

import pytest
from peerdata import close, require
from training_data import qrels_and_run, ranking

import rankflavor as rf

cb = require("catboost")
import rankflavor.catboost as rfc  # noqa: E402

ROUNDS = 6


def train(flavor: str):
    tr, va = ranking(0, 40), ranking(1, 25)
    train_pool, valid_pool = cb.Pool(tr.X, tr.y, group_id=tr.qid), cb.Pool(va.X, va.y, group_id=va.qid)
    model = cb.CatBoost({"loss_function": "YetiRank", "iterations": ROUNDS, "random_seed": 0, "thread_count": 1,
                         "verbose": False, "use_best_model": False, "allow_writing_files": False,
                         "eval_metric": rfc.CatBoostMetric(train_pool, valid_pool, flavor=flavor),
                         "custom_metric": ["NDCG:top=5;type=Base"]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (catboost: "Can't optimze method evaluate": numba declines a Python metric)
        model.fit(train_pool, eval_set=valid_pool)
    return model, va, valid_pool, model.get_evals_result()


def test_default_is_catboosts_ndcg_at_every_iteration():
    _, _, _, history = train("catboost@5")
    theirs, ours = history["validation"]["NDCG:top=5;type=Base"], history["validation"]["CatBoostMetric"]
    assert len(ours) == ROUNDS and all(close(a, b, 1e-12) for a, b in zip(ours, theirs, strict=True))
    assert len({round(v, 12) for v in theirs}) > 1
    assert len(history["learn"]["CatBoostMetric"]) == ROUNDS  # (the learning pool matched too)


def test_another_flavor_is_rankflavor_evaluate_of_the_predictions():
    spec = "ndcg@5 gain=exp2 ties=average"
    model, va, pool, history = train(spec)
    ours = history["validation"]["CatBoostMetric"]
    for i, value in enumerate(ours):
        qrels, run = qrels_and_run(va, model.predict(pool, ntree_end=i + 1, prediction_type="RawFormulaVal"))
        assert close(value, rf.evaluate(qrels, run, spec).mean(), 1e-12), i
    assert not all(close(a, b) for a, b in zip(ours, history["validation"]["NDCG:top=5;type=Base"], strict=True))


def test_a_pool_it_was_not_given_is_refused():
    tr, va = ranking(0, 10), ranking(1, 8)
    metric = rfc.CatBoostMetric(cb.Pool(tr.X, tr.y, group_id=tr.qid), flavor="catboost@3")
    with pytest.raises(rf.RankflavorError, match="pass every Pool"):
        metric.evaluate([va.X[:, 0]], va.y, None)
