"""Compatibility: the rank-biased overlap of a ranking with an ideal ranking (Clarke, Vtyurina and Smucker,
'Assessing top-k preferences', TOIS 39(3), 2021; ir_measures 0.4.3 measures/compat.py, computed by
providers/compat_provider.py).

    compat = RBO(run, ideal) / RBO(ideal, ideal)          (normalize=false: RBO(run, ideal) alone)
    RBO(A, B) = sum_{i=1..D} p^(i-1) |A[:i] & B[:i]| / i  /  sum_{i=1..D} p^(i-1),   D = max(|run|, |ideal|)

The ideal holds the query's relevant docs (judged, grade >= rel_level) by grade descending; equal grades by the
run's score descending (0 for a doc the run lacks); then by doc id ascending (ir_measures: the qrels' order, the
same for a qrels sorted by doc id). A relevant doc retrieved at rank r and ideal at rank s is in both prefixes
from depth max(r, s) on, so RBO(run, ideal) = sum over such docs of sum_{i=max(r,s)..D} p^(i-1)/i, over the
weights' sum. p: the persistence (ir_measures: 0.95).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from rankflavor.engine.lists import positions_in_query
from rankflavor.engine.metric import Metric, MetricValues
from rankflavor.engine.qrels import judged_mask
from rankflavor.errors import SpecError
from rankflavor.flavor.values import Param, number_parser, word_parser
from rankflavor.metrics.rbp import powers
from rankflavor.metrics.relevance import BINARY_AXES
from rankflavor.reference import ir_measures_ref
from rankflavor.reference.lists import CLOSE
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor

PERSISTENCE = Param("p", "0.95", number_parser("p", 0.0, 1.0, low_open=True),
                    "the persistence of the overlap's weights p^(i-1) (ir_measures Compat: 0.95)", ("0.8", "0.95"))
NORMALIZE = Param("normalize", "true", word_parser("normalize", ("true", "false")),
                  "true: divided by the ideal's own overlap (ir_measures' default); false: RBO alone",
                  ("true", "false"))


def _ideal_ranks(lists: RankedLists, flavor: Flavor) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per retrieved relevant row: its ideal rank (0 for other rows); per query code: the ideal's length."""
    ds, rows = lists.scope.dataset, lists.rows
    qrels = ds.qrels
    relevant = lists.scope.data.stage(judged_mask, flavor.negative) & (qrels.grade >= flavor.rel_level.threshold)
    rel_q, rel_d, rel_grade = qrels.q[relevant], qrels.d[relevant], qrels.grade[relevant]
    row_keys = rows.q.astype(np.int64) * ds.n_docs + rows.d
    order = np.argsort(row_keys, kind="stable")
    rel_keys = rel_q.astype(np.int64) * ds.n_docs + rel_d
    row_of = np.full(len(rel_keys), -1, dtype=np.int64)
    if len(order):
        at = np.minimum(np.searchsorted(row_keys[order], rel_keys), len(order) - 1)
        row_of = np.where(row_keys[order[at]] == rel_keys, order[at], -1)
    found = row_of >= 0
    score = np.zeros(len(rel_keys))
    score[found] = rows.score[row_of[found]]
    ideal = np.lexsort((rel_d, -score, -rel_grade, rel_q))
    ideal_rank = np.empty(len(ideal), dtype=np.int64)
    ideal_rank[ideal] = positions_in_query(rel_q[ideal]) + 1
    per_row = np.zeros(len(rows.q), dtype=np.int64)
    per_row[row_of[found]] = ideal_rank[found]
    return per_row, np.bincount(rel_q, minlength=lists.n_queries), found


class Compatibility(Metric):
    """compat = RBO(run, ideal) / RBO(ideal, ideal)"""

    name = "compat"
    reads = tuple(a for a in BINARY_AXES if a != "unjudged")
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        "unjudged": ("an unjudged doc keeps its rank and is never in the ideal", "")}
    parameters = (PERSISTENCE, NORMALIZE)
    parts = ("overlap", "ideal_overlap", "ideal_length")
    row_columns = ("ideal_rank",)
    reference_formula: ClassVar[Any] = ir_measures_ref.compat

    def validate(self, flavor: Flavor) -> None:
        if flavor.cutoff is not None:
            raise SpecError("compat takes no cutoff (its depth is max(|run|, |ideal|), as ir_measures' Compat): "
                            "write compat, or run_depth=N to read N ranks")

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        p = flavor.param("p").number
        ideal_rank, ideal_length, _ = _ideal_ranks(lists, flavor)
        depth = np.maximum(lists.returned.astype(np.int64), ideal_length)
        top = int(depth.max()) if len(depth) else 0
        weight = powers(p, np.arange(1, top + 1))
        weights_to = np.r_[0.0, np.cumsum(weight)]  # [j]: sum of the first j weights
        tail_to = np.r_[0.0, np.cumsum(weight / np.arange(1, top + 1))]  # [j]: sum_{i<=j} p^(i-1)/i
        q = lists.rows.q
        shared = ideal_rank > 0
        start = np.maximum(lists.positions.rank, ideal_rank)
        gain = np.where(shared, tail_to[depth[q]] - tail_to[np.where(shared, start, 1) - 1], 0.0)
        overlap = np.bincount(q, weights=gain, minlength=lists.n_queries)
        ideal_q = np.repeat(np.arange(lists.n_queries), ideal_length)
        ideal_at = positions_in_query(ideal_q)  # 0-based ideal ranks
        best = np.bincount(ideal_q, weights=tail_to[depth[ideal_q]] - tail_to[ideal_at], minlength=lists.n_queries)
        norm = np.where(depth > 0, weights_to[depth], 1.0)
        found, ideal = overlap / norm, best / norm
        if flavor.param("normalize") == "true":
            value = np.where(ideal > 0, found / np.where(ideal > 0, ideal, 1.0), found)
        else:
            value = found
        return MetricValues(value, np.zeros(lists.n_queries, dtype=bool),
                            {"overlap": found, "ideal_overlap": ideal, "ideal_length": ideal_length.astype(np.float64)},
                            {"ideal_rank": ideal_rank.astype(np.float64)} if detail else {})

    def reference(self, flavor: Flavor, judgments: Any, ranked: Any, qrels: Any) -> tuple:
        """The slow per-query (value, parts, undefined) (reference/ir_measures_ref.py compat)."""
        from rankflavor.reference.lists import judgment

        level = flavor.rel_level.threshold
        kept = {d: g for d, g in judgments.items() if judgment(g, flavor)[0]}
        value, found, best = ir_measures_ref.compat([(d, ranked.scores[d]) for d in ranked.docs], kept,
                                                    flavor.param("p").number, flavor.param("normalize") == "true",
                                                    level)
        length = sum(1 for g in kept.values() if g >= level)
        return value, {"overlap": found, "ideal_overlap": best, "ideal_length": float(length)}, False

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        """The record's value against the reference formula over its ranked docs (with their scores) and its
        judged universe; each ranked doc's ideal rank shown only for a relevant one."""
        level = flavor.rel_level.threshold
        problems = [f"rank {row['rank']}: ideal_rank {row['ideal_rank']:g} for a doc that is not relevant"
                    for row in record.ranked if row.get("ideal_rank") and not (
                        row["judged"] and row["grade"] is not None and row["grade"] >= level)]
        if record.status == "missing":
            return problems
        judgments = {u["doc"]: u["grade"] for u in record.universe if u["judged"]}
        value, _, _ = ir_measures_ref.compat([(row["doc"], row["score"]) for row in record.ranked], judgments,
                                             flavor.param("p").number, flavor.param("normalize") == "true", level)
        if flavor.round.decimals is not None:
            value = round(value, flavor.round.decimals)
        if record.value is None or not math.isclose(value, record.value, rel_tol=CLOSE, abs_tol=CLOSE):
            problems.append(f"value {record.value} but the overlap of the ranked list with its ideal gives {value}")
        return problems

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        return "the rank-biased overlap of the list with the ideal (relevant docs by grade, then by score)"


register(Compatibility(), peers={"ir_measures": ("Compat",)})
