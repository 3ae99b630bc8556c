"""A toy metric defined outside rankflavor's source, to show that a metric family is one module.

    capped_hits@k = hits@k / min(k, R)

hits@k: ranked docs within the cutoff whose gain is positive; R: the query's judged docs with a positive
gain in the qrels. A query with R = 0 has no value: the `empty` axis decides (status zero_ideal). It reads
every axis but the discount and the ideal's. `register_toy()` adds it to the registry, with an alias and its
name in the trec_eval dialect, `unregister_toy()` removes it.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from rankflavor import registry
from rankflavor.engine.lists import RankedLists
from rankflavor.engine.metric import Metric, MetricValues
from rankflavor.engine.qrels import judgments
from rankflavor.flavor import Flavor
from rankflavor.flavor.axes import AXIS_NAMES
from rankflavor.reference.lists import RefList, judgment

NAME = "toy_capped_hits"


def reference(flavor: Flavor, judgments_of_query: dict[str, float], ranked: RefList, qrels: Any):
    """(value, parts, undefined) for one query, in plain Python."""
    k = flavor.depth
    hits = sum(1 for i, doc in enumerate(ranked.docs, start=1) if i <= k and ranked.info[doc][1] > 0)
    relevant = sum(1 for grade in judgments_of_query.values() if judgment(grade, flavor)[1] > 0
                   and judgment(grade, flavor)[0])
    parts = {"hits": float(hits), "relevant": float(relevant)}
    denominator = min(k, relevant)
    if denominator == 0:
        return None, parts, True
    return hits / denominator, parts, False


class CappedHits(Metric):
    name = NAME
    reads = tuple(a for a in AXIS_NAMES if a not in ("discount", "ideal", "ideal_depth", "rel_level"))
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        axis: ("it has no discount and no ideal", "") for axis in ("discount", "ideal", "ideal_depth")}
    parts = ("hits", "relevant")
    row_columns = ("hit",)
    undefined_reason = "no relevant doc"
    reference = staticmethod(reference)

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        nq, rows = lists.n_queries, lists.rows
        hit = ((rows.gain > 0) & lists.positions.in_top).astype(np.float64)
        hits = np.bincount(rows.q, weights=hit, minlength=nq)
        qrels = lists.scope.shared(judgments, flavor.gain, flavor.negative, flavor.min_grade)
        ds = lists.scope.dataset
        relevant = np.bincount(ds.qrels.q, weights=(qrels.judged & (qrels.gain > 0)).astype(float), minlength=nq)
        denominator = np.minimum(flavor.depth, relevant)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(denominator > 0, hits / np.where(denominator > 0, denominator, 1.0), np.nan)
        out = MetricValues(value, ~(denominator > 0), {"hits": hits, "relevant": relevant})
        if detail:
            out.rows = {"hit": hit}
        return out

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        if status == "zero_ideal":
            return f"no judged doc has a positive gain; empty={flavor.empty} decides"
        return "hits / min(k, relevant)"

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        problems = []
        hits = sum(row["hit"] for row in record.ranked)
        if record.status != "missing" and hits != record.hits:
            problems.append(f"the ranked list holds {hits} hits, the record says {record.hits}")
        k = flavor.depth
        if record.status == "ok" and not math.isclose(record.value, record.hits / min(k, record.relevant)):
            problems.append(f"value {record.value} is not hits / min(k, relevant)")
        return problems


TOY = CappedHits()


ALIASES = ("capped_hit_rate",)  # a word users of another tool would type for it
TREC_EVAL_NAME = "capped_hits_{k}"  # its name in the trec_eval dialect (`trec_eval.capped_hits_10`: a cutoff of 10)


def register_toy() -> None:
    registry.register(TOY, aliases=ALIASES, peers={"trec_eval": (TREC_EVAL_NAME,)})


def unregister_toy() -> None:
    registry.unregister(NAME)
