"""A rankflavor flavor as a CatBoost custom eval metric, computed every round by `rankflavor.evaluate`.

CatBoost calls a Python metric object as `evaluate(approxes, target, weight) -> (error, weight)`, then
`get_final_error(error, weight)`, and asks `is_max_optimal()` (catboost/_catboost.pyx `_MetricEval`,
`_MetricGetFinalError`, `_MetricIsMaxOptimal`); it passes no query groups. So the metric is given the data it
will see: `CatBoostMetric(eval_pool, flavor=...)` with each `catboost.Pool` (its `get_label()` and
`get_group_id_hash()`) or `(label, group_id)` pair; each call is matched to the one whose labels it is handed (a
call on data it was not given is refused, naming the fix). The default is CatBoost's own NDCG: the `catboost`
preset (catboost/libs/metrics/dcg.cpp, doc_comparator.h: ties ranked lower target first, a group without a
positive ideal scores 1). CatBoost names a Python metric by its class: history under `CatBoostMetric`. catboost
is never imported here: the pools are duck-typed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rankflavor.adapters.training import FlavorArg, Flavored
from rankflavor.errors import UsageError

__all__ = ["DEFAULT", "CatBoostMetric"]

DEFAULT = "catboost"


def _labels_and_groups(data: Any) -> tuple[np.ndarray, np.ndarray]:
    if hasattr(data, "get_label") and hasattr(data, "get_group_id_hash"):
        labels, groups = data.get_label(), data.get_group_id_hash()
    else:
        labels, groups = data
    if groups is None:
        raise UsageError("a pool given to CatBoostMetric has no group_id: build it with group_id= (the query of "
                         "each object)")
    return np.asarray(labels, dtype=np.float32).ravel(), np.asarray(groups).ravel()


class CatBoostMetric(Flavored):
    """`eval_metric=CatBoostMetric(eval_pool, flavor="catboost@10")` for CatBoost / CatBoostRanker: one flavor."""

    def __init__(self, *data: Any, flavor: FlavorArg = None, k: int | None = None) -> None:
        super().__init__(flavor, DEFAULT, k)
        if len(self.flavors) != 1:
            raise UsageError(f"CatBoost takes one value from a metric; the flavor names {len(self.flavors)} "
                             f"({', '.join(self.names)}): give one (a cutoff with k= or @k)")
        if not data:
            raise UsageError("CatBoostMetric needs the data it will score (CatBoost passes no query groups to a "
                             "Python metric): CatBoostMetric(eval_pool, ...) with each Pool it evaluates")
        self.data = [_labels_and_groups(d) for d in data]

    def _groups_for(self, target: np.ndarray) -> np.ndarray:
        for labels, groups in self.data:
            if len(labels) == len(target) and np.array_equal(labels, target):
                return groups
        sizes = ", ".join(str(len(labels)) for labels, _ in self.data)
        raise UsageError(f"CatBoostMetric was called on {len(target)} objects whose labels match none of the data "
                         f"it was given (sizes {sizes}): pass every Pool it scores, the training pool too unless "
                         "training skips it (hints='skip_train~true')")

    def evaluate(self, approxes: Any, target: Any, weight: Any) -> tuple[float, float]:
        target = np.asarray(target, dtype=np.float32)
        score = self.score(target, np.asarray(approxes[0], dtype=np.float64), qid=self._groups_for(target))[0]
        return float(score), 1.0

    def get_final_error(self, error: float, weight: float) -> float:
        return error

    def is_max_optimal(self) -> bool:
        return True
