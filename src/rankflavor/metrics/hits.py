"""Hits at k: the number of relevant docs in the top k, a per-query value averaged as a mean (ranx 0.3.21
ranx/metrics/hits.py, `hits@k`).

    hits@k = |relevant in the top k|     (no cutoff: the relevant docs retrieved)

A doc is relevant when judged with a grade of at least rel_level (metrics/relevance.py). It counts what
num_rel_ret counts (cut at k), but its summary is the mean over queries, as ranx reports it, where trec_eval sums
num_rel_ret. It has no normaliser, so every query has a value (0 when nothing relevant is ranked).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.metrics.relevance import BinaryMetric, per_query, relevant_rows
from rankflavor.reference import ranx_ref
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor


class Hits(BinaryMetric):
    """hits = relevant docs in the top k"""

    judgments_beyond_rows = 0.0  # (it reads the grades of its ranked rows only)
    value_grows_with_grade = True  # (a doc judged relevant never lowers it)
    qrels_rows_only = True

    name = "hits"
    parts = ("relevant_retrieved",)
    measure = ranx_ref.hits

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        hits = per_query(lists, relevant & lists.positions.in_top).astype(np.float64)  # (float for an empty run too)
        return MetricValues(hits, np.zeros(lists.n_queries, dtype=bool), {"relevant_retrieved": hits},
                            {"relevant": relevant.astype(np.float64)} if detail else {})


register(Hits(), peers={"ranx": ("hits",)})
