"""Reciprocal rank, cut at k or not (trec_eval m_recip_rank.c; the mean over queries is MRR).

    RR@k = 1 / the rank of the first relevant doc within the top k; 0 when there is none

A doc is relevant when judged with a grade of at least rel_level. RR needs no normaliser: a query with no
relevant doc scores 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.metrics.relevance import BinaryMetric, reference, relevant_rows
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor


class ReciprocalRank(BinaryMetric):
    """RR = 1 / the rank of the first relevant doc"""

    value_bounds = (0.0, 1.0)
    judgments_beyond_rows = 0.0  # (it reads the grades of its ranked rows only)
    value_grows_with_grade = True  # (a doc judged relevant never lowers it)
    qrels_rows_only = True

    name = "mrr"
    parts = ("first_relevant",)
    measure = reference.reciprocal_rank

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        hit = relevant & lists.positions.in_top
        first = np.full(lists.n_queries, np.inf)
        np.minimum.at(first, lists.rows.q[hit], lists.positions.rank[hit].astype(np.float64))
        found = np.isfinite(first)
        value = np.where(found, 1.0 / np.where(found, first, 1.0), 0.0)
        return MetricValues(value, np.zeros(lists.n_queries, dtype=bool),
                            {"first_relevant": np.where(found, first, np.nan)},
                            {"relevant": relevant.astype(np.float64)} if detail else {})


register(ReciprocalRank(), aliases=("rr", "reciprocal_rank", "recip_rank"),
         peers={"trec_eval": ("recip_rank",), "ir_measures": ("RR", "RR@k"), "ranx": ("mrr",)})
