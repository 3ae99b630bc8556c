"""rankflavor's flavors as LightGBM eval metrics, computed every round by `rankflavor.evaluate`.

- `Feval(flavor)`: `lgb.train(..., feval=Feval("lightgbm@10"))`, called as `feval(preds, eval_data)` with a
  constructed `lgb.Dataset` (its `get_label()` and `get_group()`, the query sizes);
- `EvalMetric(flavor)`: `LGBMRanker(...).fit(..., eval_metric=EvalMetric(...))`, called by lightgbm/sklearn.py's
  `_EvalFunctionWrapper` as `func(y_true, y_pred, weight, group)` (four parameters: the group sizes).
Each returns LightGBM's `[(name, value, is_higher_better), ...]`, one per flavor, named `rf.` and the spec as
written (`lightgbm` -> `rf.lightgbm@1` ... `rf.lightgbm@5`; the prefix keeps `rf.ndcg@5` apart from LightGBM's own
`ndcg@5`, which record_evaluation would otherwise mix into one list). The default is LightGBM's own NDCG: the
`lightgbm` preset at LightGBM's default `eval_at` 1..5 (src/metric/rank_metric.hpp; dcg_calculator.cpp: label_gain
2^l - 1, a stable sort by score, a query without a relevant label scores 1). LightGBM weighs queries by the
Dataset's weights in its own metric; these are plain means. lightgbm is never imported here: the objects are
duck-typed.
"""

from __future__ import annotations

from typing import Any

from rankflavor.adapters.training import FlavorArg, Flavored
from rankflavor.errors import UsageError

__all__ = ["DEFAULT", "EvalMetric", "Feval"]

DEFAULT = "lightgbm"


def _results(metric: Flavored, labels: Any, preds: Any, group: Any) -> list[tuple[str, float, bool]]:
    if group is None:
        raise UsageError("the evaluated data has no query groups: give the lgb.Dataset group= (LightGBM's query "
                         "sizes), or LGBMRanker.fit(group=..., eval_group=[...])")
    scores = metric.score(labels, preds, group=group)
    return [(name, float(score), True) for name, score in zip(metric.names, scores, strict=True)]


class Feval(Flavored):
    """`feval` for `lgb.train`: `feval(preds, eval_data) -> [(name, value, True), ...]`."""

    def __init__(self, flavor: FlavorArg = None, *, k: int | None = None) -> None:
        super().__init__(flavor, DEFAULT, k)

    def __call__(self, preds: Any, eval_data: Any) -> list[tuple[str, float, bool]]:
        return _results(self, eval_data.get_label(), preds, eval_data.get_group())


class EvalMetric(Flavored):
    """`eval_metric` for `LGBMRanker.fit`: `func(y_true, y_pred, weight, group) -> [(name, value, True), ...]`."""

    def __init__(self, flavor: FlavorArg = None, *, k: int | None = None) -> None:
        super().__init__(flavor, DEFAULT, k)

    def __call__(self, y_true: Any, y_pred: Any, weight: Any, group: Any) -> list[tuple[str, float, bool]]:
        return _results(self, y_true, y_pred, group)
