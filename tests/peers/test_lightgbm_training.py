"""rankflavor.lightgbm's Feval and EvalMetric while LightGBM 4.7.0 trains a lambdarank model: at every round the
callable's value equals LightGBM's own `ndcg@k` metric of the same predictions (its default: the `lightgbm` preset
at eval_at 1..5), and, under another flavor, rankflavor.evaluate of the predictions at that round."""

from __future__ import annotations

from peerdata import close, require
from training_data import qrels_and_run, ranking

import rankflavor as rf

lgb = require("lightgbm")
import rankflavor.lightgbm as rfl  # noqa: E402

ROUNDS = 6
PARAMS = {"objective": "lambdarank", "metric": "ndcg", "eval_at": [1, 2, 3, 4, 5], "verbose": -1, "num_threads": 1,
          "seed": 0, "deterministic": True, "min_data_in_leaf": 5}


def train(feval):
    tr, va = ranking(0, 40), ranking(1, 25)
    train_set = lgb.Dataset(tr.X, tr.y, group=tr.sizes)
    valid_set = lgb.Dataset(va.X, va.y, group=va.sizes, reference=train_set)
    record: dict = {}
    booster = lgb.train(PARAMS, train_set, num_boost_round=ROUNDS, valid_sets=[valid_set], valid_names=["v"],
                        feval=feval, callbacks=[lgb.record_evaluation(record)])
    return booster, va, record["v"]


def test_default_is_lightgbms_ndcg_at_every_round():
    _, _, history = train(rfl.Feval())
    for k in range(1, 6):
        theirs, ours = history[f"ndcg@{k}"], history[f"rf.lightgbm@{k}"]
        assert len(ours) == ROUNDS
        assert all(close(a, b, 1e-12) for a, b in zip(ours, theirs, strict=True)), (k, ours, theirs)
    assert len({round(v, 12) for v in history["ndcg@5"]}) > 1  # (the model changes between rounds)


def test_a_bare_metric_name_stays_apart_from_lightgbms():
    _, _, history = train(rfl.Feval("ndcg@5"))
    assert len(history["ndcg@5"]) == len(history["rf.ndcg@5"]) == ROUNDS


def test_another_flavor_is_rankflavor_evaluate_of_the_predictions():
    spec = "ndcg@5 ties=average gain=linear"
    booster, va, history = train(rfl.Feval(spec))
    for i, value in enumerate(history["rf." + spec]):
        qrels, run = qrels_and_run(va, booster.predict(va.X, num_iteration=i + 1))
        assert close(value, rf.evaluate(qrels, run, spec).mean(), 1e-12), i
    assert not all(close(a, b) for a, b in zip(history["rf." + spec], history["ndcg@5"], strict=True))


def test_eval_metric_of_lgbmranker():
    tr, va = ranking(2, 30), ranking(3, 20)
    model = lgb.LGBMRanker(n_estimators=ROUNDS, verbose=-1, n_jobs=1, random_state=0, min_child_samples=5)
    model.fit(tr.X, tr.y, group=tr.sizes, eval_X=va.X, eval_y=va.y, eval_group=[va.sizes], eval_at=[3],
              eval_metric=rfl.EvalMetric("lightgbm@3"))
    history = model.evals_result_["valid_0"]
    assert all(close(a, b, 1e-12) for a, b in zip(history["rf.lightgbm@3"], history["ndcg@3"], strict=True))
    assert len(history["rf.lightgbm@3"]) == ROUNDS
