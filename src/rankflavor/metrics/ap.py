"""Average precision, cut at k or not (trec_eval m_map.c, m_map_cut.c; Buckley & Voorhees 2005), and yaap
(trec_eval m_yaap.c; Robertson, "On Smoothing Average Precision", ECIR 2012).

    AP@k = (1/R) sum over the relevant docs ranked i <= k of P@i     (no cutoff: over the whole list)
    yaap = log((1 + S) / (1 + R - S)), S = sum over the relevant docs ranked i of P@i (S = AP·R: defined at R = 0)

R: the query's relevant judgments (grade >= rel_level), retrieved or not; R = 0 is left to the `empty` axis
(trec_eval: 0). A record's rows show each relevant doc's P@i (`precision`); AP is their sum over R.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

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


def precision_sum(lists: RankedLists, flavor: Flavor) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(relevant rows in the top, R, each relevant row's P@i, their sum S per query): AP = S / R."""
    relevant = relevant_rows(lists, flavor.rel_level) & lists.positions.in_top
    r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
    hits = within_query_cumsum(lists.rows.q, relevant)
    precision = np.where(relevant, hits / lists.positions.rank, 0.0)
    return relevant, r, precision, np.bincount(lists.rows.q, weights=precision, minlength=lists.n_queries)


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
        relevant, r, precision, total = precision_sum(lists, flavor)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(r > 0, total / np.maximum(r, 1), np.nan)
        rows = {"relevant": relevant_rows(lists, flavor.rel_level).astype(np.float64), "precision": precision}
        return MetricValues(value, ~(r > 0), {"relevant_retrieved": per_query(lists, relevant), "relevant": r},
                            rows if detail else {})


class YetAnotherAveragePrecision(AveragePrecision):
    """yaap = log((1 + S) / (1 + R - S)), S the sum of P@i over the relevant docs ranked i"""

    name = "yaap"
    reads = tuple(a for a in NORMALISED_AXES if a != "empty")
    not_read: ClassVar[dict[str, tuple[str, str]]] = {"empty": ("it scores every query (R = 0 gives log 1 = 0)", "map")}
    cutoff_rule = "none"
    measure = reference.yaap

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant, r, precision, total = precision_sum(lists, flavor)
        value = np.log((1.0 + total) / (1.0 + r - total))
        rows = {"relevant": relevant_rows(lists, flavor.rel_level).astype(np.float64), "precision": precision}
        return MetricValues(value, np.zeros(lists.n_queries, dtype=bool),
                            {"relevant_retrieved": per_query(lists, relevant), "relevant": r}, rows if detail else {})


register(AveragePrecision(), aliases=("ap",),
         peers={"trec_eval": ("map", "map_cut_{k}"), "ir_measures": ("AP", "AP@k"), "ranx": ("map",)})
register(YetAnotherAveragePrecision(), peers={"trec_eval": ("yaap",)})
