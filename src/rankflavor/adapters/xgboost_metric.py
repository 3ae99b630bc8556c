"""rankflavor's flavors as an XGBoost `custom_metric`, computed every round by `rankflavor.evaluate`.

`xgb.train(params, dtrain, evals=[(dvalid, "valid")], custom_metric=CustomMetric("xgboost@10"))` calls it as
`custom_metric(predt, dmatrix)` for each evaluated DMatrix (xgboost/core.py Booster.eval_set); the DMatrix must
carry its queries (`qid=` or `group=`; `dmatrix.get_group()` gives the sizes). It returns `(name, value)`, or a list
of them for several flavors, named `rf.` and the spec as written, `;` for its spaces (`rf.ndcg@10;gain=linear`:
XGBoost splits its evaluation line on whitespace and keeps one value per name, so `ndcg@10` would hide its own). The
default is XGBoost's own `ndcg`: the `xgboost` preset (src/metric/rank_metric.cc EvalNDCG: 2^l - 1 gains, a stable
sort of float32 predictions, @32 when no @n is given, a query without a relevant label scores 1). Pass
`maximize=True` to xgb.train for early stopping on it. xgboost is never imported here: the DMatrix is duck-typed.
"""

from __future__ import annotations

from typing import Any

from rankflavor.adapters.training import FlavorArg, Flavored
from rankflavor.errors import UsageError

__all__ = ["DEFAULT", "CustomMetric"]

DEFAULT = "xgboost"


class CustomMetric(Flavored):
    """`custom_metric` for `xgb.train`: `metric(predt, dmatrix) -> (name, value)` or a list of them."""

    def __init__(self, flavor: FlavorArg = None, *, k: int | None = None) -> None:
        super().__init__(flavor, DEFAULT, k)

    def __call__(self, predt: Any, dmatrix: Any) -> tuple[str, float] | list[tuple[str, float]]:
        sizes = dmatrix.get_group()
        if sizes is None or len(sizes) == 0:
            raise UsageError("the DMatrix has no query groups: build it with qid= (the query of each row, sorted) "
                             "or group= (the query sizes)")
        scores = self.score(dmatrix.get_label(), predt, group=sizes)
        pairs = [(name.replace(" ", ";"), float(score)) for name, score in zip(self.names, scores, strict=True)]
        return pairs[0] if len(pairs) == 1 else pairs
