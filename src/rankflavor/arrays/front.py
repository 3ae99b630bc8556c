"""NDCG and DCG of arrays, through rankflavor's one front door (`rankflavor.evaluate`).

`ndcg_score(y_true, y_score, *, k=None, sample_weight=None, ignore_ties=False)` and `dcg_score(..., log_base=2)`
take scikit-learn's signature (sklearn/metrics/_ranking.py) and, by default, give its numbers:
- `ndcg_score` under the `sklearn` preset (`ndcg ideal=local ties=average negative=error`): per query
  DCG@k / IDCG@k with gain = the label, discount 1/log2(i + 1), tied scores' gains averaged, 0 for a query
  with no relevant label; the mean over queries, weighted by `sample_weight` as np.average does;
- `dcg_score` under `dcg ties=average negative=keep` (with `discount=log(b)` for log_base=b): sklearn's
  dcg_score does not refuse negative labels.
Add `group=` (sizes) or `qid=` (per document) for stacked 1-D arrays; `flavor=` for any other flavor (a spec, a
preset name, a Flavor). The arrays are checked once (arrays/checks.py), made a qrels and a run (arrays/tables.py)
and scored by `rankflavor.evaluate`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rankflavor.arrays.checks import Grouped, by_rows, grouped, weights_of
from rankflavor.arrays.flavors import WEIGHTS, resolve
from rankflavor.arrays.score import Score
from rankflavor.arrays.tables import as_tables, query_index
from rankflavor.errors import InputError, SpecError
from rankflavor.flavor import Flavor
from rankflavor.report import evaluate

__all__ = ["NDCG_DEFAULT", "dcg_default", "dcg_score", "ndcg_score", "score_arrays", "score_grouped"]

NDCG_DEFAULT = "sklearn"  # scikit-learn's ndcg_score (dialects/presets.py)
FlavorArg = str | Flavor | Sequence[str | Flavor] | None


def dcg_default(log_base: float = 2) -> str:
    """scikit-learn's dcg_score as a flavor: its discount 1/log_b(i + 1), ties averaged, negative labels kept."""
    if isinstance(log_base, bool) or not isinstance(log_base, (int, float)) or not log_base > 1:
        raise SpecError(f"log_base={log_base!r}: the base of the discount's logarithm must be a number > 1")
    base = "log2" if log_base == 2 else "log(e)" if log_base == np.e else f"log({log_base:g})"
    return f"dcg discount={base} ties=average negative=keep"


def _refuse_negative(data: Grouped, flavors: list[Flavor]) -> None:
    """A flavor with negative=error (sklearn's ndcg_score, LightGBM, XGBoost) and a negative label: refused here,
    naming the argument, rather than by the engine naming a qrels."""
    if data.labels.min() >= 0:
        return
    refusing = [f for f in flavors if "negative" in dict(f.axis_items()) and str(f.negative) == "error"]
    if refusing:
        at = int(np.argmax(data.labels < 0))
        raise InputError(f"y_true holds a negative label ({data.labels[at]}), which the flavor "
                         f"{refusing[0].short!r} refuses (negative=error, as its tool does)", source="y_true",
                         fix="give labels >= 0, or a flavor that says what a negative label is (negative=keep: a "
                             "negative gain; negative=zero)")


def score_grouped(data: Grouped, flavors: list[Flavor], weights: np.ndarray | None = None,
                  warnings: bool = True) -> list[Score]:
    """One `Score` per flavor of checked arrays: one `rankflavor.evaluate` call for all of them."""
    _refuse_negative(data, flavors)
    qrels, run, queries = as_tables(data)
    bound = {WEIGHTS: dict(zip(queries, weights.tolist(), strict=True))} if weights is not None else None
    report = evaluate(qrels, {"arrays": run}, flavors, weights=bound, warnings=warnings)
    scores = []
    for result in report.results:
        per_query = np.full(data.queries, np.nan)
        per_query[query_index(result.query_ids[result.queries.query])] = result.queries.value
        scores.append(Score(result.mean, result.flavor, per_query, data.keys, result, report))
    return scores


def _checked(y_true: Any, y_score: Any, group: Any, qid: Any) -> Grouped:
    if group is None and qid is None:
        return by_rows(y_true, y_score)
    return grouped(y_true, y_score, group=group, qid=qid)


def score_arrays(y_true: Any, y_score: Any, *, flavor: FlavorArg = None, k: int | None = None, group: Any = None,
                 qid: Any = None, sample_weight: Any = None, ignore_ties: bool = False, default: str = NDCG_DEFAULT,
                 warnings: bool = True) -> list[Score]:
    """One `Score` per flavor of `flavor` (a spec, a Flavor, or a list; None: `default`) over the arrays."""
    flavors = resolve(flavor, default, k=k, ignore_ties=ignore_ties, weighted=sample_weight is not None)
    data = _checked(y_true, y_score, group, qid)
    weights = weights_of(sample_weight, data.queries) if sample_weight is not None else None
    return score_grouped(data, flavors, weights, warnings)


def _one(scores: list[Score], flavor: FlavorArg, k: int | None) -> Score:
    if len(scores) != 1:
        cutoffs = ", ".join(f"@{s.flavor.cutoff}" for s in scores)
        raise SpecError(f"flavor={flavor!r} names {len(scores)} flavors ({cutoffs}): give k= or one spec with @k"
                        if k is None else f"flavor={flavor!r} names {len(scores)} flavors: give one")
    return scores[0]


def _refuse_metric(flavor: FlavorArg, family: str, k: int | None, ignore_ties: bool) -> None:
    if flavor is None:
        return
    for f in resolve(flavor, family, k=k, ignore_ties=ignore_ties):
        if f.metric != family:
            raise SpecError(f"{family}_score computes {family.upper()}; the flavor {f.short!r} is {f.metric}: "
                            f"use rankflavor.arrays.score_arrays(..., flavor={f.short!r}) for it")


def ndcg_score(y_true: Any, y_score: Any, *, k: int | None = None, sample_weight: Any = None,
               ignore_ties: bool = False, group: Any = None, qid: Any = None, flavor: FlavorArg = None,
               warnings: bool = True) -> Score:
    """NDCG of each query, averaged: scikit-learn's `ndcg_score` by default (the `sklearn` preset).

    y_true, y_score: 2-D (n_queries, n_documents), or 1-D with `group` (sizes) or `qid` (per document).
    k: the cutoff (None: the whole list). sample_weight: one weight per query (a weighted mean).
    ignore_ties: rank tied scores by position, last first, instead of averaging them (arrays/flavors.py).
    flavor: another flavor (`"ndcg@10 gain=exp2"`, `"lightgbm"`, a Flavor). Returns a `Score`: a float with
    `.flavor`, `.per_query`, `.queries`, `.report`.
    """
    _refuse_metric(flavor, "ndcg", k, ignore_ties)
    if flavor is None and group is None and qid is None and np.ndim(y_true) == 2 and np.shape(y_true)[1] == 1:
        raise InputError("y_true has one document per row: scikit-learn's ndcg_score refuses it ('Computing NDCG "
                         "is only meaningful when there is more than 1 document')", source="y_true",
                         fix="give rows of at least 2 documents, or 1-D arrays with group=/qid=, or a flavor=")
    scores = score_arrays(y_true, y_score, flavor=flavor, k=k, group=group, qid=qid, sample_weight=sample_weight,
                          ignore_ties=ignore_ties, warnings=warnings)
    return _one(scores, flavor, k)


def dcg_score(y_true: Any, y_score: Any, *, k: int | None = None, log_base: float = 2, sample_weight: Any = None,
              ignore_ties: bool = False, group: Any = None, qid: Any = None, flavor: FlavorArg = None,
              warnings: bool = True) -> Score:
    """DCG of each query, averaged: scikit-learn's `dcg_score` by default (`dcg ties=average negative=keep`,
    discount 1/log_base(i + 1)). The arguments are `ndcg_score`'s, and `log_base` (with flavor=None only)."""
    if flavor is not None and log_base != 2:
        raise SpecError("log_base= sets the default flavor's discount; with flavor= write discount=log(b) in it")
    _refuse_metric(flavor, "dcg", k, ignore_ties)
    scores = score_arrays(y_true, y_score, flavor=flavor, k=k, group=group, qid=qid, sample_weight=sample_weight,
                          ignore_ties=ignore_ties, default=dcg_default(log_base), warnings=warnings)
    return _one(scores, flavor, k)
