"""Average precision, cut at k or not (trec_eval m_map.c, m_map_cut.c; Buckley & Voorhees 2005).

    AP@k = (1/R) sum over the relevant docs ranked i <= k of P@i     (no cutoff: over the whole list)

R: the query's relevant judgments (grade >= rel_level), retrieved or not; R = 0 is left to the `empty` axis
(trec_eval: 0). A record's rows show each relevant doc's P@i (`precision`); AP is their sum over R.
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


class AveragePrecision(BinaryMetric):
    """AP = sum of P@i over the relevant docs ranked i / R"""

    value_bounds = (0.0, 1.0)
    qrels_rows_only = True

    name = "map"
    reads = NORMALISED_AXES
    parts = ("relevant_retrieved", "relevant")
    row_columns = ("relevant", "precision")
    measure = reference.average_precision

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level) & lists.positions.in_top
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        hits = within_query_cumsum(lists.rows.q, relevant)
        precision = np.where(relevant, hits / lists.positions.rank, 0.0)
        total = np.bincount(lists.rows.q, weights=precision, minlength=lists.n_queries)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(r > 0, total / np.maximum(r, 1), np.nan)
        rows = {"relevant": relevant_rows(lists, flavor.rel_level).astype(np.float64), "precision": precision}
        return MetricValues(value, ~(r > 0), {"relevant_retrieved": per_query(lists, relevant), "relevant": r},
                            rows if detail else {})


register(AveragePrecision(), aliases=("ap",),
         peers={"trec_eval": ("map", "map_cut_{k}"), "ir_measures": ("AP", "AP@k"), "ranx": ("map",)})
