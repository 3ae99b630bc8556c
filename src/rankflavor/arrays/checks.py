"""Labels and scores as arrays, checked once: the shapes, the numbers (finite), the groups.

Two forms, as the ML libraries take them:
- `by_rows(y_true, y_score)`: 2-D arrays of one shape, one row per query (scikit-learn's `ndcg_score`);
- `grouped(y_true, y_score, group=..., qid=...)`: 1-D arrays of one length, stacked query by query, with
  LightGBM's `group` (the size of each query, in order, summing to the length) or XGBoost's `qid` (the query of
  each document; a query's documents need not be adjacent: they are gathered in order of first appearance,
  each query's documents in input order).

Every refusal is an `InputError` (a ValueError) whose source names the argument and whose fix says what to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from rankflavor.errors import InputError

__all__ = ["Grouped", "by_rows", "grouped", "weights_of"]


@dataclass(frozen=True)
class Grouped:
    """Documents query by query: `labels` and `scores` (float64) of every document, the queries' `sizes` (each
    >= 1, in order) and `keys` (what names each query to the caller: the row index, the group's index, the qid)."""

    labels: np.ndarray
    scores: np.ndarray
    sizes: np.ndarray
    keys: np.ndarray

    @property
    def queries(self) -> int:
        return len(self.sizes)


def _numbers(values: Any, name: str) -> np.ndarray:
    """`values` as a float64 array, refused when it holds anything but finite numbers (NaN, inf, text, None)."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise InputError(f"{name} holds values that are not numbers ({error})", source=name,
                         fix=f"give {name} as numbers (a numpy array, a list of floats)") from None
    bad = ~np.isfinite(array)
    if bad.any():
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        where = at[0] if len(at) == 1 else at
        raise InputError(f"{name} holds {int(bad.sum())} non-finite value(s) (NaN or inf), the first at index "
                         f"{where}: {array[at]}", source=name,
                         fix=f"replace or drop them before scoring (np.nan_to_num({name}), or mask those documents)")
    return array


def by_rows(y_true: Any, y_score: Any) -> Grouped:
    """2-D `y_true` and `y_score` of one shape (n_queries, n_documents): one query per row."""
    labels, scores = _numbers(y_true, "y_true"), _numbers(y_score, "y_score")
    if labels.ndim != 2:
        raise InputError(f"y_true is {labels.ndim}-D (shape {labels.shape}); without group= or qid= it must be 2-D, "
                         "one row per query", source="y_true",
                         fix="give 2-D arrays (n_queries, n_documents), or 1-D arrays with group= (LightGBM's sizes) "
                             "or qid= (XGBoost's query of each document)")
    if scores.shape != labels.shape:
        raise InputError(f"y_score has shape {scores.shape}, y_true {labels.shape}: they must match", source="y_score",
                         fix="give one score per label, in the same rows and columns")
    if labels.shape[0] == 0 or labels.shape[1] == 0:
        raise InputError(f"y_true has shape {labels.shape}: no query or no document", source="y_true",
                         fix="give at least one row (query) of at least one document")
    n, m = labels.shape
    return Grouped(labels.ravel(), scores.ravel(), np.full(n, m, dtype=np.int64), np.arange(n))


def grouped(y_true: Any, y_score: Any, *, group: Any = None, qid: Any = None) -> Grouped:
    """1-D `y_true` and `y_score` of one length, with `group` (sizes) or `qid` (one query id per document)."""
    if (group is None) == (qid is None):
        raise InputError("give one of group= and qid=, not both" if group is not None else "no query grouping given",
                         source="group" if group is not None else "y_true",
                         fix="group= the size of each query in order (LightGBM), or qid= the query of each document "
                             "(XGBoost); or 2-D arrays, one row per query")
    labels, scores = _numbers(y_true, "y_true"), _numbers(y_score, "y_score")
    for name, array in (("y_true", labels), ("y_score", scores)):
        if array.ndim != 1:
            raise InputError(f"{name} is {array.ndim}-D (shape {array.shape}); with group= or qid= it must be 1-D",
                             source=name, fix=f"flatten it ({name}.ravel()), or drop group=/qid= and give 2-D rows")
    if len(scores) != len(labels):
        raise InputError(f"y_score has {len(scores)} values, y_true {len(labels)}: they must match", source="y_score",
                         fix="give one score per label")
    if len(labels) == 0:
        raise InputError("y_true is empty", source="y_true", fix="give at least one document")
    if group is not None:
        return Grouped(labels, scores, _sizes(group, len(labels)), np.arange(len(np.asarray(group).ravel())))
    return _by_qid(labels, scores, qid)


def _sizes(group: Any, n: int) -> np.ndarray:
    sizes = np.asarray(group).ravel()
    if sizes.dtype.kind == "f" and np.all(np.isfinite(sizes)) and np.all(sizes == np.round(sizes)):
        sizes = sizes.astype(np.int64)  # (LightGBM takes float sizes too)
    if sizes.dtype.kind not in "iu":
        raise InputError(f"group holds {sizes.dtype} values, not integer sizes", source="group",
                         fix="give the number of documents of each query, in order (LightGBM's group)")
    if len(sizes) == 0 or (sizes < 1).any():
        at = int(np.argmax(sizes < 1)) if len(sizes) else 0
        raise InputError("group is empty" if len(sizes) == 0 else f"group[{at}] is {sizes[at]}: a size must be >= 1",
                         source="group", fix="give each query's number of documents, each at least 1")
    if int(sizes.sum()) != n:
        raise InputError(f"the sizes in group sum to {int(sizes.sum())}, but y_true has {n} documents",
                         source="group", fix="sizes must add up to len(y_true): one size per query, in the order "
                                             "the documents are stacked")
    return sizes.astype(np.int64)


def _by_qid(labels: np.ndarray, scores: np.ndarray, qid: Any) -> Grouped:
    ids = np.asarray(qid).ravel()
    if len(ids) != len(labels):
        raise InputError(f"qid has {len(ids)} values, y_true {len(labels)}: one query id per document",
                         source="qid", fix="give the query id of each document (XGBoost's qid)")
    if ids.dtype.kind == "f" and not np.isfinite(ids).all():
        raise InputError("qid holds NaN or inf", source="qid", fix="give every document a query id")
    if ids.dtype.kind == "O" and any(v is None for v in ids):
        raise InputError("qid holds None", source="qid", fix="give every document a query id")
    keys, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
    rank = np.empty(len(keys), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(keys))  # queries in order of first appearance
    order = np.argsort(rank[inverse.ravel()], kind="stable")
    sizes = np.bincount(rank[inverse.ravel()], minlength=len(keys)).astype(np.int64)
    return Grouped(labels[order], scores[order], sizes, keys[np.argsort(first, kind="stable")])


def weights_of(sample_weight: Any, queries: int) -> np.ndarray:
    """scikit-learn's `sample_weight`: one weight per query, finite, >= 0, not all zero (np.average's rule)."""
    weights = _numbers(sample_weight, "sample_weight").ravel()
    if len(weights) != queries:
        raise InputError(f"sample_weight has {len(weights)} values for {queries} queries", source="sample_weight",
                         fix="give one weight per query (row of y_true, group, or distinct qid in order of first "
                             "appearance)")
    if (weights < 0).any():
        at = int(np.argmax(weights < 0))
        raise InputError(f"sample_weight[{at}] is {weights[at]}: a weight must be >= 0", source="sample_weight",
                         fix="give non-negative weights")
    if not weights.any():
        raise InputError("sample_weight sums to zero: the weighted mean is undefined", source="sample_weight",
                         fix="give at least one positive weight")
    return weights
