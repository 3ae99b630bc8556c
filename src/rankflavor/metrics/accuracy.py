"""Accuracy: the chance that a relevant doc of the top k is ranked above a nonrelevant one of it (ir_measures
0.4.3 measures/accuracy.py, computed by providers/accuracy_provider.py; a diagnostic of train/test agreement).

    accuracy@k = 1 - sum over relevant docs d in the top k of above(d) / (N_k * R_k)

above(d): the nonrelevant docs ranked above d; R_k, N_k: the relevant and nonrelevant docs in the top k (no
cutoff: the whole list). A doc is relevant when judged with a grade of at least rel_level; an unjudged doc is
nonrelevant. Only retrieved docs count, so a query without a relevant doc in the top k has no value (ir_measures
leaves it out), nor has one without a nonrelevant doc there (ir_measures divides 0 by 0 and raises
ZeroDivisionError): the `empty` axis decides both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.metrics.relevance import NORMALISED_AXES, BinaryMetric, per_query, relevant_rows, within_query_cumsum
from rankflavor.reference import ir_measures_ref
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor


class Accuracy(BinaryMetric):
    """accuracy = 1 - mean over the relevant docs of the top k of (nonrelevant docs above it / those in the top k)"""

    name = "accuracy"
    reads = NORMALISED_AXES
    parts = ("relevant_retrieved", "nonrelevant_retrieved")
    undefined_reason = "no relevant or no nonrelevant document in the top k"
    undefined_status = "no_pair"
    measure = ir_measures_ref.accuracy

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        top = lists.positions.in_top
        hits, misses = relevant & top, ~relevant & top
        above = within_query_cumsum(lists.rows.q, misses)  # at a relevant row: the nonrelevant ones above it
        total_above = np.bincount(lists.rows.q, weights=np.where(hits, above, 0).astype(np.float64),
                                  minlength=lists.n_queries)
        r, n = per_query(lists, hits), per_query(lists, misses)
        defined = (r > 0) & (n > 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(defined, 1.0 - total_above / (n * r), np.nan)
        return MetricValues(value, ~defined, {"relevant_retrieved": r, "nonrelevant_retrieved": n},
                            {"relevant": relevant.astype(np.float64)} if detail else {})

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        if status == self.undefined_status:
            shown = "null, left out of the mean" if value is None else f"{value:g}"
            return f"the top k holds no relevant or no nonrelevant doc; empty={flavor.empty} gives {shown}"
        return "1 - the share of the top k's nonrelevant docs ranked above each relevant one, averaged"


register(Accuracy(), peers={"ir_measures": ("Accuracy", "Accuracy@k")})
