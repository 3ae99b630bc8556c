"""Inferred AP, infAP (Yilmaz & Aslam, 'Estimating Average Precision with Incomplete and Imperfect Judgments',
CIKM 2006; trec_eval m_infap.c, the same in 9.0.x and 10.0).

    infAP = (1/R) sum over the relevant docs ranked i = j + 1 of
            1                                                             when j = 0
            1/(j+1) + j/(j+1) · (r + n + u)/j · (r + eps)/(r + n + 2 eps)  else (eps = 1e-5, INFAP_EPSILON)

r, n, u: the relevant, judged nonrelevant and pooled-but-unjudged docs ranked above it. trec_eval's qrels mark a
pooled-but-unjudged doc with a negative grade (form_res_rels.c: any grade < 0 is RELVALUE_UNJUDGED, a doc absent
from the qrels RELVALUE_NONPOOL): rankflavor's negative=unjudged (the default) is that convention, a doc absent
from the qrels is outside the pool (it counts in j only); negative=zero or keep makes such a doc judged
nonrelevant, negative=drop removes it. unjudged=skip (trec_eval -J) removes both kinds of unjudged docs.
R = 0 is left to `empty` (trec_eval: 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.metrics.relevance import (
    NORMALISED_AXES,
    BinaryMetric,
    per_query,
    reference,
    relevant_judgments,
    relevant_rows,
    within_query_cumsum,
)
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor


def above(q: np.ndarray, flags: np.ndarray) -> np.ndarray:
    """Per row: the rows of its query ranked above it where `flags` is set."""
    return (within_query_cumsum(q, flags) - flags).astype(np.float64)


class InferredAP(BinaryMetric):
    """infAP = (1/R) sum over the relevant docs of the inferred precision above them (pooled-unjudged docs: grade < 0)"""

    qrels_rows_only = True

    name = "infap"
    reads = NORMALISED_AXES
    cutoff_rule = "none"
    parts = ("relevant_retrieved", "relevant")
    row_columns = ("relevant", "pooled_unjudged", "contribution")
    measure = reference.infap

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        rows, q = lists.rows, lists.rows.q
        relevant = relevant_rows(lists, flavor.rel_level)
        nonrelevant = rows.judged & ~relevant
        pooled = ~rows.judged & ~np.isnan(rows.grade)
        r, n, u = above(q, relevant), above(q, nonrelevant), above(q, pooled)
        j = lists.positions.rank.astype(np.float64) - 1.0
        eps = reference.INFAP_EPSILON
        with np.errstate(invalid="ignore", divide="ignore"):
            inferred = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((r + n + u) / j) * ((r + eps) / (r + n + 2 * eps))
        contribution = np.where(relevant, np.where(j == 0, 1.0, inferred), 0.0)
        total = np.bincount(q, weights=contribution, minlength=lists.n_queries)
        big_r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(big_r > 0, total / np.maximum(big_r, 1), np.nan)
        detail_rows = {"relevant": relevant.astype(np.float64), "pooled_unjudged": pooled.astype(np.float64),
                       "contribution": contribution}
        return MetricValues(value, ~(big_r > 0), {"relevant_retrieved": per_query(lists, relevant), "relevant": big_r},
                            detail_rows if detail else {})


register(InferredAP(), peers={"trec_eval": ("infAP",), "ir_measures": ("infAP",)})
