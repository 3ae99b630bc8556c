"""How much of the top of a list is judged (ir_measures' Judged; trec_eval 10.0 m_unjudged.c).

    judged@k = |judged docs in the top k| / min(k, |list|)     (no cutoff: over the whole list)
    unj@k    = |unjudged docs in the top k| / k                (a list shorter than k is filled with judged docs)

A "red flag" for a run that the qrels cover poorly, printed beside NDCG and MAP. A doc is judged when it is in
the qrels; a negative grade counts under the `negative` axis: as judged in ir_measures (negative=keep), as
unjudged in trec_eval (negative=unjudged: its RELVALUE_UNJUDGED). The plain names follow their tools: judged@k
is ir_measures' Judged (providers/judged_provider.py: the denominator shrinks to a shorter list), unj@k is
trec_eval 10's `unj` (the denominator stays k). Neither reads `unjudged`: they measure the unjudged docs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.metrics.relevance import BINARY_AXES, BinaryMetric, per_query, reference
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor

_ABOUT_UNJUDGED = ("it measures the unjudged docs: they are never dropped or counted as nonrelevant for it", "map")
COVERAGE_AXES = tuple(a for a in BINARY_AXES if a not in ("unjudged", "rel_level"))


class Judged(BinaryMetric):
    """judged = judged docs in the top k / min(k, list length)"""

    value_bounds = (0.0, 1.0)
    judgments_beyond_rows = 0.0  # (it reads the grades of its ranked rows only)
    value_grows_with_grade = True  # (a doc judged relevant never lowers it)
    name = "judged"
    reads = COVERAGE_AXES
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        "unjudged": _ABOUT_UNJUDGED, "rel_level": ("it reads whether a doc is judged, not its grade", "p")}
    parts = ("judged_retrieved",)
    row_columns = ()  # (a record's rows show `judged` already)
    measure = reference.judged_at

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        judged = lists.rows.judged & lists.positions.in_top
        hits = per_query(lists, judged)
        shown = lists.returned if flavor.cutoff is None else np.minimum(lists.returned, flavor.cutoff)
        value = np.where(shown > 0, hits / np.maximum(shown, 1), 0.0)
        return MetricValues(value, np.zeros(lists.n_queries, dtype=bool), {"judged_retrieved": hits})

    def universe_columns(self, flavor: Flavor, grade: float, judged: bool, gain: float) -> dict:
        return {}

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        return (type(self).__doc__ or self.name).strip()


class Unjudged(Judged):
    """unj = unjudged docs in the top k / k"""

    name = "unj"
    cutoff_rule = "required"
    parts = ("unjudged_retrieved",)
    measure = reference.unjudged_at

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        unjudged = per_query(lists, ~lists.rows.judged & lists.positions.in_top)
        return MetricValues(unjudged / flavor.cutoff, np.zeros(lists.n_queries, dtype=bool),
                            {"unjudged_retrieved": unjudged})


register(Judged(), peers={"ir_measures": ("Judged@k",)})
register(Unjudged(), peers={"trec_eval": ("unj_{k}",)})
