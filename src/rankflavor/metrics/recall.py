"""Recall at k and capped recall at k (trec_eval m_recall.c, m_set_recall.c; BEIR's R_cap).

    R@k     = |relevant in the top k| / R             (no cutoff: relevant retrieved / R, set_recall)
    R_cap@k = |relevant in the top k| / min(k, R)     (BEIR: a perfect list scores 1 however large R is;
                                                       trec_eval's relative_P; no cutoff: k = |list|, set_relative_P)

R: the query's relevant judgments (grade >= rel_level); R = 0 is left to the `empty` axis (trec_eval: 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.metrics.relevance import (
    NORMALISED_AXES,
    BinaryMetric,
    over_relevant,
    per_query,
    reference,
    relevant_judgments,
    relevant_rows,
)
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor


class Recall(BinaryMetric):
    """R = relevant in the top k / R"""

    value_bounds = (0.0, 1.0)
    qrels_rows_only = True

    name = "recall"
    reads = NORMALISED_AXES
    parts = ("relevant_retrieved", "relevant")
    measure = reference.recall
    capped = False

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        hits = per_query(lists, relevant & lists.positions.in_top)
        if self.capped:  # (no cutoff: k is the list's length, trec_eval's set_relative_P)
            k = lists.returned if flavor.cutoff is None else float(flavor.cutoff)
            denominator = np.minimum(r, k)
        else:
            denominator = r
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(r > 0, np.where(denominator > 0, hits / np.maximum(denominator, 1), 0.0), np.nan)
        return over_relevant(value, r, hits, relevant, detail)


class CappedRecall(Recall):
    """R_cap = relevant in the top k / min(k, R)"""

    name = "recall_cap"
    measure = reference.recall_cap
    capped = True


register(Recall(), aliases=("r",),
         peers={"trec_eval": ("set_recall", "recall_{k}"), "ir_measures": ("R@k", "SetR"), "ranx": ("recall",)})
register(CappedRecall(), peers={"trec_eval": ("set_relative_P", "relative_P_{k}"), "ir_measures": ("SetRelP",)})
