"""A rankflavor flavor as a CatBoost eval metric, computed every round by the engine:

    import rankflavor.catboost as rfc
    CatBoostRanker(eval_metric=rfc.CatBoostMetric(train_pool, valid_pool, flavor="catboost@10")).fit(
        train_pool, eval_set=valid_pool)

CatBoost hands a Python metric no query groups, so it is given the pools it will score. The default is CatBoost's
own NDCG (the `catboost` preset). The body is rankflavor/adapters/catboost_metric.py (docs/gbdt.md).
"""

from rankflavor.adapters.catboost_metric import DEFAULT, CatBoostMetric

__all__ = ["DEFAULT", "CatBoostMetric"]
