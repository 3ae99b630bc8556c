"""Compatibility: the rank-biased overlap of a ranking with an ideal ranking (Clarke, Vtyurina and Smucker,
'Assessing top-k preferences', TOIS 39(3), 2021; ir_measures 0.4.3 measures/compat.py, computed by
providers/compat_provider.py).

    compat = RBO(run, ideal) / RBO(ideal, ideal)          (normalize=false: RBO(run, ideal) alone)
    RBO(A, B) = sum_{i=1..D} p^(i-1) |A[:i] & B[:i]| / i  /  sum_{i=1..D} p^(i-1),   D = max(|run|, |ideal|)

The ideal holds the query's relevant docs (judged, grade >= rel_level) by grade descending; equal grades by the
run's score descending (0 for a doc the run lacks); then by `ideal_ties`: doc id ascending (docid_asc), or the
qrels' order (qrels: compat_provider.py's `compatibility` keeps the order of the qrels' dict, which its two stable
sorts leave to the ties). A relevant doc retrieved at rank r and ideal at rank s is in both prefixes from depth
max(r, s) on. The sums run as compat_provider.py's `rbo` loop runs them: the weight p^(i-1) by repeated
multiplication, each term weight x overlap / i, added from i = 1 on (a cumulative sum along each query's row), so
the value is ir_measures' to the last bit. p: the persistence (ir_measures: 0.95).
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
IDEAL_TIES = Param("ideal_ties", "docid_asc", word_parser("ideal_ties", ("docid_asc", "qrels")),
                   "the order of the ideal's docs of one grade and one run score: doc id ascending, or the qrels' "
                   "order (ir_measures' compat provider)", ("docid_asc", "qrels"))
CELLS = 1 << 22  # (queries x depth) cells of one block of the overlap sums


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
    last = qrels.positions()[relevant] if flavor.param("ideal_ties") == "qrels" else rel_d
    ideal = np.lexsort((last, -score, -rel_grade, rel_q))
    ideal_rank = np.empty(len(ideal), dtype=np.int64)
    ideal_rank[ideal] = positions_in_query(rel_q[ideal]) + 1
    per_row = np.zeros(len(rows.q), dtype=np.int64)
    per_row[row_of[found]] = ideal_rank[found]
    return per_row, np.bincount(rel_q, minlength=lists.n_queries), found


def overlap_sums(q: np.ndarray, enters: np.ndarray, ideal_length: np.ndarray, depth: np.ndarray,
                 p: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per query code, the sums of compat_provider.py's `rbo` loop, in its order: (sum over i <= D of
    w_i |run[:i] & ideal[:i]| / i, the same of the ideal with itself (|ideal[:i]| = min(i, L)), sum of w_i), w_1 = 1
    and w_(i+1) = w_i x p. q, enters: per doc shared by the run and the ideal, its query and the depth from which it
    is in both prefixes. Each query is a row of a block, its terms beyond D zero: a cumulative sum along the row
    adds the terms one by one from i = 1, as the loop does (a plain sum would add them pairwise)."""
    n = len(depth)
    found, best, norm = np.zeros(n), np.zeros(n), np.ones(n)
    top = int(depth.max()) if n else 0
    if top == 0:
        return found, best, norm
    weight = np.cumprod(np.r_[1.0, np.full(top - 1, p)])
    norm = np.where(depth > 0, np.cumsum(weight)[np.maximum(depth, 1) - 1], 1.0)
    codes = np.flatnonzero(depth > 0)
    codes = codes[np.argsort(depth[codes], kind="stable")]
    order = np.argsort(q, kind="stable")
    q, enters = q[order], enters[order]
    start = 0
    while start < len(codes):
        cells = np.arange(1, len(codes) - start + 1) * depth[codes[start:]]  # (a block of m queries: m x its widest)
        stop = start + max(1, int(np.searchsorted(cells, CELLS, side="right")))
        block = codes[start:stop]
        width = int(depth[block[-1]])
        i = np.arange(1, width + 1, dtype=np.float64)
        inside = i[None, :] <= depth[block][:, None]
        row = np.full(n, -1, dtype=np.int64)
        row[block] = np.arange(len(block))
        lo, hi = np.searchsorted(q, [block.min(), block.max() + 1])
        mine = np.flatnonzero(row[q[lo:hi]] >= 0) + lo
        counts = np.zeros((len(block), width))
        np.add.at(counts, (row[q[mine]], enters[mine] - 1), 1.0)
        overlap = np.cumsum(counts, axis=1)
        own = np.minimum(i[None, :], ideal_length[block][:, None].astype(np.float64))
        found[block] = np.cumsum(np.where(inside, weight[:width] * overlap / i, 0.0), axis=1)[:, -1]
        best[block] = np.cumsum(np.where(inside, weight[:width] * own / i, 0.0), axis=1)[:, -1]
        start = stop
    return found, best, norm


class Compatibility(Metric):
    """compat = RBO(run, ideal) / RBO(ideal, ideal)"""

    name = "compat"
    reads = tuple(a for a in BINARY_AXES if a != "unjudged")
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        "unjudged": ("an unjudged doc keeps its rank and is never in the ideal", "")}
    parameters = (PERSISTENCE, NORMALIZE, IDEAL_TIES)
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
        shared = ideal_rank > 0
        enters = np.maximum(lists.positions.rank, ideal_rank)[shared]  # the depth from which a doc is in both
        found, best, norm = overlap_sums(lists.rows.q[shared], enters, ideal_length, depth, p)
        found, ideal = found / norm, best / norm
        if flavor.param("normalize") == "true":
            value = np.where(ideal > 0, found / np.where(ideal > 0, ideal, 1.0), found)
        else:
            value = found
        return MetricValues(value, np.zeros(lists.n_queries, dtype=bool),
                            {"overlap": found, "ideal_overlap": ideal, "ideal_length": ideal_length.astype(np.float64)},
                            {"ideal_rank": ideal_rank.astype(np.float64)} if detail else {})

    def reads_qrels_order(self, flavor: Flavor) -> bool:
        return flavor.param("ideal_ties") == "qrels"

    def reference(self, flavor: Flavor, judgments: Any, ranked: Any, qrels: Any) -> tuple:
        """The slow per-query (value, parts, undefined) (reference/ir_measures_ref.py compat)."""
        from rankflavor.reference.lists import judgment

        level = flavor.rel_level.threshold
        kept = {d: g for d, g in judgments.items() if judgment(g, flavor)[0]}
        value, found, best = ir_measures_ref.compat([(d, ranked.scores[d]) for d in ranked.docs], kept,
                                                    flavor.param("p").number, flavor.param("normalize") == "true",
                                                    level, str(flavor.param("ideal_ties")))
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
        ranking = [(row["doc"], row["score"]) for row in record.ranked]
        p, normalize = flavor.param("p").number, flavor.param("normalize") == "true"
        if flavor.param("ideal_ties") == "qrels":  # (a record lists its universe by doc id: the ideal its ranks show)
            shown = {row["doc"]: int(row["ideal_rank"]) for row in record.ranked if row.get("ideal_rank")}
            ideal, why = ir_measures_ref.ideal_from_ranks(ranking, judgments, shown, level)
            if ideal is None:
                return [*problems, why]
            value, _, _ = ir_measures_ref.overlap([d for d, _ in ranking], ideal, p, normalize)
        else:
            value, _, _ = ir_measures_ref.compat(ranking, judgments, p, normalize, level)
        if flavor.round.decimals is not None:
            value = round(value, flavor.round.decimals)
        if record.value is None or not math.isclose(value, record.value, rel_tol=CLOSE, abs_tol=CLOSE):
            problems.append(f"value {record.value} but the overlap of the ranked list with its ideal gives {value}")
        return problems

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        return "the rank-biased overlap of the list with the ideal (relevant docs by grade, then by score)"


register(Compatibility(), peers={"ir_measures": ("Compat",)})
