"""The measures over the run's own rows, as torchmetrics 1.9.0's retrieval module computes them
(src/torchmetrics/functional/retrieval/{average_precision,reciprocal_rank,precision,recall,fall_out,
r_precision}.py; retrieval/base.py RetrievalMetric.compute). Each reads only the ranked list: R and N are its own
relevant and nonrelevant rows (`target.sum()`), not the qrels' judgments, and a list with no relevant row (fall-out:
no nonrelevant row) is left to the `empty` axis (torchmetrics' empty_target_action: neg = zero, pos = one, skip,
error).

    row_ap@k        = (1/h) sum over the counted relevant docs ranked i <= k of P@i      (h: their number; 0 if none)
    row_rr@k        = 1 / the rank of the first counted relevant doc within the top k  (0 if none)
    row_precision@k = |counted relevant in the top k| / k       (no cutoff: k = n; adaptive_k=true: min(k, n))
    row_recall@k    = |counted relevant in the top k| / R_rows
    row_fall_out@k  = |nonrelevant in the top k| / N_rows
    row_rprec       = |relevant in the top R_rows| / R_rows

`scored=positive` (torchmetrics' `torch.where(preds > 0, target, 0)` in AP, RR, precision and recall) counts a
relevant doc scored at or below 0 as not relevant while it keeps its rank; `scored=any` counts every relevant doc.
AUROC is metrics/auroc.py. Reference: reference/row_measures.py.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from rankflavor.engine.metric import Metric, MetricValues
from rankflavor.errors import SpecError
from rankflavor.flavor.values import Param, word_parser
from rankflavor.metrics.relevance import NORMALISED_AXES, per_query, relevant_rows, within_query_cumsum
from rankflavor.reference import row_measures as reference
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor

SCORED = Param("scored", "any", word_parser("scored", ("any", "positive")),
               "which relevant docs count: any, or positive (a doc scored at or below 0 counts as not relevant while "
               "it keeps its rank: torchmetrics' preds > 0 in AP, MRR, precision and recall)", ("any", "positive"))
ADAPTIVE_K = Param("adaptive_k", "false", word_parser("adaptive_k", ("false", "true")),
                   "divide by min(k, n) rather than k when the list is shorter than k (torchmetrics' adaptive_k)",
                   ("false", "true"))


class RowMeasure(Metric):
    """A measure over the list's own rows (the module's docstring); subclasses give `values` and name their
    reference formula `measure` (reference/row_measures.py), which also checks their records."""

    name: ClassVar[str]
    reads = NORMALISED_AXES
    parameters = (SCORED,)
    parts: ClassVar[tuple[str, ...]] = ("relevant_retrieved", "relevant")
    row_columns = ("relevant",)
    undefined_reason = "no relevant row in the ranked list (R = 0)"
    undefined_status = "no_relevant"
    empty_of_nonrelevant: ClassVar[bool] = False
    cutoff_rule: ClassVar[str] = "optional"  # or "none"
    measure: ClassVar[Any] = None

    def validate(self, flavor: Flavor) -> None:
        if self.cutoff_rule == "none" and flavor.cutoff is not None:
            raise SpecError(f"{self.name} takes no cutoff (it reads the whole list): write {self.name}")

    def universe_columns(self, flavor: Flavor, grade: float, judged: bool, gain: float) -> dict[str, Any]:
        return {"relevant": bool(judged and grade >= flavor.rel_level.threshold)}

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        if status == self.undefined_status:
            shown = "null, left out of the mean" if value is None else f"{value:g}"
            return f"{self.undefined_reason}; empty={flavor.empty} gives {shown}"
        return (type(self).__doc__ or self.name).strip().splitlines()[0]

    def depth_read(self, flavor: Flavor) -> float:
        return math.inf  # (R and N are the whole list's)

    def reads_whole_list(self, flavor: Flavor) -> bool:
        return True

    def reference(self, flavor: Flavor, judgments: Any, ranked: Any, qrels: Any) -> tuple:
        flags = ranked.relevant(flavor.rel_level.threshold)
        return reference.query_value(type(self).measure, flavor, flags, [ranked.scores[d] for d in ranked.docs])

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        """Each row's relevance against its grade, and the value against `measure` over the rows in rank order (a
        record that omits ranked rows, `ranked_omitted`: nonrelevant unjudged ones, placed at their ranks with the
        score above them, which leaves every measure but AUROC over more than the rows shown exact)."""
        level = flavor.rel_level.threshold
        problems = [f"rank {r['rank']}: relevant is {r['relevant']}, but its grade is {r['grade']}"
                    for r in record.ranked if bool(r.get("relevant")) != bool(
                        r["judged"] and r["grade"] is not None and r["grade"] >= level)]
        if record.status == "missing":
            return problems
        flags: list[bool] = []
        scores: list[float] = []
        for row in sorted(record.ranked, key=lambda r: r["rank"]):
            while len(flags) < row["rank"] - 1:  # (an omitted row)
                flags.append(False)
                scores.append(scores[-1] if scores else row["score"])
            flags.append(bool(row["relevant"]))
            scores.append(row["score"])
        flags += [False] * (len(record.ranked) + record.ranked_omitted - len(flags))
        scores += scores[-1:] * (len(flags) - len(scores))
        value, _, undefined = reference.query_value(type(self).measure, flavor, flags, scores)
        if undefined:
            value = {"skip": None, "zero": 0.0, "one": 1.0, "error": None}[flavor.empty]
        elif flavor.round.decimals is not None:
            value = round(value, flavor.round.decimals)
        if (value is None) != (record.value is None) or (
                value is not None and not math.isclose(value, record.value, rel_tol=1e-9, abs_tol=1e-12)):
            problems.append(f"value {record.value} but the ranked list's rows give {value}")
        return problems

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        counted = relevant
        if "scored" in dict(flavor.params) and flavor.param("scored").kind == "positive":
            counted = relevant & (lists.rows.score > 0)
        r = per_query(lists, relevant)
        denominator = per_query(lists, ~relevant) if self.empty_of_nonrelevant else r
        value, parts = self.values(lists, flavor, relevant, counted, r)
        value = np.where(denominator > 0, value, np.nan)
        return MetricValues(value, ~(denominator > 0), parts, {"relevant": relevant.astype(np.float64)} if detail else {})

    def values(self, lists: RankedLists, flavor: Flavor, relevant: np.ndarray, counted: np.ndarray,
               r: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        raise NotImplementedError


class RowAP(RowMeasure):
    """AP = mean of P@i over the counted relevant docs of the top k"""

    name = "row_ap"
    measure = reference.row_ap

    def values(self, lists, flavor, relevant, counted, r):
        hit = counted & lists.positions.in_top
        running = within_query_cumsum(lists.rows.q, hit)
        precision_at = np.where(hit, running / lists.positions.rank, 0.0)
        hits = per_query(lists, hit)
        total = np.bincount(lists.rows.q, weights=precision_at, minlength=lists.n_queries)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(hits > 0, total / np.maximum(hits, 1), 0.0), {"relevant_retrieved": hits, "relevant": r}


class RowRR(RowMeasure):
    """RR = 1 / the rank of the first counted relevant doc"""

    name = "row_rr"
    parts = ("first_relevant", "relevant")
    measure = reference.row_rr

    def values(self, lists, flavor, relevant, counted, r):
        hit = counted & lists.positions.in_top
        first = np.full(lists.n_queries, np.inf)
        np.minimum.at(first, lists.rows.q[hit], lists.positions.rank[hit].astype(np.float64))
        found = np.isfinite(first)
        return (np.where(found, 1.0 / np.where(found, first, 1.0), 0.0),
                {"first_relevant": np.where(found, first, np.nan), "relevant": r})


class RowPrecision(RowMeasure):
    """P = counted relevant docs in the top k / k"""

    name = "row_precision"
    parameters = (SCORED, ADAPTIVE_K)
    measure = reference.row_precision

    def values(self, lists, flavor, relevant, counted, r):
        hits = per_query(lists, counted & lists.positions.in_top)
        n = per_query(lists, np.ones(len(relevant), dtype=bool))
        if flavor.cutoff is None:
            k = n
        elif flavor.param("adaptive_k").kind == "true":
            k = np.minimum(float(flavor.cutoff), n)
        else:
            k = np.full(lists.n_queries, float(flavor.cutoff))
        return hits / np.maximum(k, 1), {"relevant_retrieved": hits, "relevant": r}


class RowRecall(RowMeasure):
    """R = counted relevant docs in the top k / the list's relevant rows"""

    name = "row_recall"
    measure = reference.row_recall

    def values(self, lists, flavor, relevant, counted, r):
        hits = per_query(lists, counted & lists.positions.in_top)
        return hits / np.maximum(r, 1), {"relevant_retrieved": hits, "relevant": r}


class RowFallOut(RowMeasure):
    """fall-out = nonrelevant docs in the top k / the list's nonrelevant rows"""

    name = "row_fall_out"
    parameters = ()
    parts = ("nonrelevant_retrieved", "nonrelevant")
    undefined_reason = "no nonrelevant row in the ranked list (N = 0)"
    empty_of_nonrelevant = True
    measure = reference.row_fall_out

    def values(self, lists, flavor, relevant, counted, r):
        n = per_query(lists, ~relevant)
        hits = per_query(lists, ~relevant & lists.positions.in_top)
        return hits / np.maximum(n, 1), {"nonrelevant_retrieved": hits, "nonrelevant": n}


class RowRPrec(RowMeasure):
    """R-precision = relevant docs in the top R / R, R the list's relevant rows"""

    name = "row_rprec"
    parameters = ()
    cutoff_rule = "none"
    measure = reference.row_rprec

    def values(self, lists, flavor, relevant, counted, r):
        hits = per_query(lists, relevant & (lists.positions.rank <= r[lists.rows.q]))
        return hits / np.maximum(r, 1), {"relevant_retrieved": hits, "relevant": r}


TORCHMETRICS = "torchmetrics"
register(RowAP(), peers={TORCHMETRICS: ("RetrievalMAP", "retrieval_average_precision")})
register(RowRR(), peers={TORCHMETRICS: ("RetrievalMRR", "retrieval_reciprocal_rank")})
register(RowPrecision(), peers={TORCHMETRICS: ("RetrievalPrecision", "retrieval_precision")})
register(RowRecall(), peers={TORCHMETRICS: ("RetrievalRecall", "retrieval_recall")})
register(RowFallOut(), peers={TORCHMETRICS: ("RetrievalFallOut", "retrieval_fall_out")})
register(RowRPrec(), peers={TORCHMETRICS: ("RetrievalRPrecision", "retrieval_r_precision")})
