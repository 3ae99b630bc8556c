"""rankflavor's NDCG as a scikit-learn scorer, for model selection (GridSearchCV, cross_val_score, ...).

`ndcg_scorer(k=10, flavor=None)` is `sklearn.metrics.make_scorer` over `rankflavor.ndcg_score` (scikit-learn's
numbers by default, the `sklearn` preset; any flavor by spec), in one of two ways:
- 2-D targets, one row per query (a multi-output estimator predicting a score per document): as
  `make_scorer(sklearn.metrics.ndcg_score)` is used;
- 1-D targets with the query of each sample as `groups`: with scikit-learn's metadata routing on
  (`sklearn.set_config(enable_metadata_routing=True)`), the scorer requests `groups`, so
  `GridSearchCV(est, grid, cv=GroupKFold(), scoring=ndcg_scorer(k=10)).fit(X, y, groups=qid)` routes the query ids
  to the splitter (queries kept whole) and to the scorer (each test fold scored query by query;
  sklearn/utils/_metadata_requests.py, sklearn/metrics/_scorer.py `_Scorer._score` passes routed metadata on).
The scorer's value is a plain float (scikit-learn stores it in arrays).
"""

from __future__ import annotations

from typing import Any

import sklearn
from sklearn.metrics import make_scorer

from rankflavor.arrays.front import ndcg_score
from rankflavor.flavor import Flavor

__all__ = ["ndcg_scorer"]


def _score(y_true: Any, y_pred: Any, *, groups: Any = None, k: int | None = None,
           flavor: str | Flavor | None = None, ignore_ties: bool = False) -> float:
    return float(ndcg_score(y_true, y_pred, k=k, qid=groups, flavor=flavor, ignore_ties=ignore_ties, warnings=False))


def ndcg_scorer(*, k: int | None = None, flavor: str | Flavor | None = None, ignore_ties: bool = False) -> Any:
    """A scorer of NDCG under `flavor` (default: scikit-learn's), requesting `groups` when metadata routing is on."""
    scorer = make_scorer(_score, greater_is_better=True, k=k, flavor=flavor, ignore_ties=ignore_ties)
    if sklearn.get_config().get("enable_metadata_routing"):
        scorer = scorer.set_score_request(groups=True)
    return scorer
