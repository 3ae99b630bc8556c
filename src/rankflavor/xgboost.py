"""rankflavor's flavors as an XGBoost custom metric, computed every round by the engine:

    import rankflavor.xgboost as rfx
    xgb.train(params, dtrain, evals=[(dvalid, "valid")], custom_metric=rfx.CustomMetric("ndcg@10"), maximize=True)

The DMatrix carries its queries (qid= or group=). The default is XGBoost's own ndcg (the `xgboost` preset, @32).
The body is rankflavor/adapters/xgboost_metric.py (docs/gbdt.md).
"""

from rankflavor.adapters.xgboost_metric import DEFAULT, CustomMetric

__all__ = ["DEFAULT", "CustomMetric"]
