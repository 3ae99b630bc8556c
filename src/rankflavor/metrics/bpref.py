"""Binary preference, bpref (Buckley & Voorhees, 'Retrieval Evaluation with Incomplete Information', SIGIR
2004; trec_eval m_bpref.c).

    bpref = (1/R) sum over the relevant docs retrieved of  1 - min(n, R) / min(N, R)    (1 when n = 0)

n: the judged nonrelevant docs ranked above it; N: the query's judged nonrelevant docs (grade < rel_level);
R: its relevant judgments (R = 0 is left to `empty`; trec_eval: 0). Unjudged docs are passed over: bpref reads
judged docs only, so it does not read the `unjudged` axis (trec_eval's -J leaves it unchanged). A negative grade
is unjudged under negative=unjudged (trec_eval's RELVALUE_UNJUDGED), a judged nonrelevant doc otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.metrics.relevance import (
    JUDGED_ONLY,
    NORMALISED_AXES,
    BinaryMetric,
    nonrelevant_judgments,
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


class BinaryPreference(BinaryMetric):
    """bpref = the mean over the R relevant docs of the share of judged nonrelevant docs ranked below it"""

    value_bounds = (0.0, 1.0)
    qrels_rows_only = True

    name = "bpref"
    reads = tuple(a for a in NORMALISED_AXES if a != "unjudged")
    not_read: ClassVar[dict[str, tuple[str, str]]] = {"unjudged": (JUDGED_ONLY, "map")}
    cutoff_rule = "none"
    parts = ("relevant_retrieved", "relevant", "nonrelevant")
    row_columns = ("relevant", "nonrelevant_above")
    measure = reference.bpref

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        q = lists.rows.q
        relevant = relevant_rows(lists, flavor.rel_level)
        nonrelevant = lists.rows.judged & ~relevant
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        n = lists.scope.shared(nonrelevant_judgments, flavor.negative, flavor.rel_level)
        above = (within_query_cumsum(q, nonrelevant) - nonrelevant).astype(np.float64)
        r_row, n_row = r[q], n[q]
        with np.errstate(invalid="ignore", divide="ignore"):
            share = 1.0 - np.minimum(above, r_row) / np.minimum(n_row, r_row)
        contribution = np.where(relevant, np.where(above == 0, 1.0, share), 0.0)
        total = np.bincount(q, weights=contribution, minlength=lists.n_queries)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(r > 0, total / np.maximum(r, 1), np.nan)
        rows = {"relevant": relevant.astype(np.float64), "nonrelevant_above": above}
        return MetricValues(value, ~(r > 0), {"relevant_retrieved": per_query(lists, relevant), "relevant": r,
                                              "nonrelevant": n}, rows if detail else {})


register(BinaryPreference(), peers={"trec_eval": ("bpref",), "ir_measures": ("Bpref",)})
