"""rankflavor.xgboost's CustomMetric while XGBoost 3.2.0 trains a rank:ndcg model: at every round the callable's
value (as computed inside training, kept by a callback) equals XGBoost's own `ndcg` / `ndcg@5` of the same
predictions (its default: the `xgboost` preset, @32), and, under another flavor, rankflavor.evaluate of the
predictions at that round. XGBoost records a custom metric printed with %f (6 decimals): the exact values are
read from the metric's `.last`."""

from __future__ import annotations

import numpy as np
from peerdata import close, require
from training_data import qrels_and_run, ranking

import rankflavor as rf

xgb = require("xgboost")
import rankflavor.xgboost as rfx  # noqa: E402

ROUNDS = 6


class Keep(xgb.callback.TrainingCallback):
    """The metric's exact values of each round (the last DMatrix evaluated is the validation one)."""

    def __init__(self, metric: rfx.CustomMetric) -> None:
        self.metric, self.rounds = metric, []

    def after_iteration(self, model, epoch, evals_log) -> bool:
        self.rounds.append([float(s) for s in self.metric.last])
        return False


def train(metric, eval_metric=("ndcg", "ndcg@5")):
    tr, va = ranking(0, 40), ranking(1, 25)
    dtrain = xgb.DMatrix(tr.X, tr.y, qid=tr.qid)
    dvalid = xgb.DMatrix(va.X, va.y, qid=va.qid)
    history: dict = {}
    keep = Keep(metric)
    booster = xgb.train({"objective": "rank:ndcg", "eval_metric": list(eval_metric), "nthread": 1, "seed": 0,
                         "max_depth": 3}, dtrain, num_boost_round=ROUNDS, evals=[(dvalid, "v")],
                        custom_metric=metric, evals_result=history, callbacks=[keep])
    return booster, va, dvalid, history["v"], keep.rounds


def test_default_is_xgboosts_ndcg_at_every_round():
    _, _, _, history, rounds = train(rfx.CustomMetric(["xgboost", "xgboost@5"]))
    assert len(rounds) == ROUNDS
    for r, (at32, at5) in enumerate(rounds):
        assert close(at32, history["ndcg"][r], 1e-12) and close(at5, history["ndcg@5"][r], 1e-12), r
        assert abs(history["rf.xgboost"][r] - at32) <= 5e-7  # (what XGBoost recorded: %f)
    assert len({round(v, 12) for v in history["ndcg@5"]}) > 1


def test_another_flavor_is_rankflavor_evaluate_of_the_predictions():
    spec = "ndcg@5 gain=linear ties=average"
    booster, va, dvalid, history, rounds = train(rfx.CustomMetric(spec))
    for r, (value,) in enumerate(rounds):
        predictions = booster.predict(dvalid, iteration_range=(0, r + 1), output_margin=True)
        qrels, run = qrels_and_run(va, predictions.astype(np.float64))
        assert close(value, rf.evaluate(qrels, run, spec).mean(), 1e-12), r
    assert not all(close(a[0], b) for a, b in zip(rounds, history["ndcg@5"], strict=True))
    assert len(history["rf.ndcg@5;gain=linear;ties=average"]) == ROUNDS  # (the name, spaces as ';')
