"""rankflavor's flavors as LightGBM eval metrics, computed every round by the engine:

    import rankflavor.lightgbm as rfl
    lgb.train(params, train, valid_sets=[valid], feval=rfl.Feval("ndcg@10 gain=linear"))   # lgb.train
    LGBMRanker().fit(X, y, group=g, eval_set=[(Xv, yv)], eval_group=[gv], eval_metric=rfl.EvalMetric())

The default is LightGBM's own ndcg@1..5 (the `lightgbm` preset). The body is
rankflavor/adapters/lightgbm_metric.py (docs/gbdt.md).
"""

from rankflavor.adapters.lightgbm_metric import DEFAULT, EvalMetric, Feval

__all__ = ["DEFAULT", "EvalMetric", "Feval"]
