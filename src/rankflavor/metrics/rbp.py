"""Rank-biased precision and its residual (Moffat & Zobel, 'Rank-Biased Precision for Measurement of Retrieval
Effectiveness', TOIS 27(1), 2008; trec_eval 10.0 m_rbp.c, m_rbp_resid.c).

    RBP@k     = (1 - p) sum over ranks i <= k of gain_i p^(i-1)              (no cutoff: the whole list)
    rbp_resid = p^n + (1 - p) sum over the unjudged docs ranked i of p^(i-1)  (n: the docs ranked; trec_eval 10
                gives 0 when none of them is unjudged)

p: the user's persistence (trec_eval 10: 0.9; ir_measures: 0.8). gain: scale=query_max (trec_eval 10: a judged
grade over the query's top grade when that exceeds 1, m_rbp.c's min-max normalisation of the gains to [0, 1]),
scale=binary (1 for a doc of grade >= rel_level: ir_measures' RBP(rel=N)), or scale=grade (the doc's grade itself
when it is >= rel_level, else 0: ranx 0.3.21 ranx/metrics/rank_biased_precision.py). trec_eval's graded rbp does not
read -l, so scale=query_max keeps rel_level=1. The residual is how far RBP could rise were every unjudged doc,
and every doc past the list, of gain 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.errors import SpecError
from rankflavor.flavor.values import Param, number_parser, word_parser
from rankflavor.metrics.relevance import BINARY_AXES, BinaryMetric, per_query, relevant_rows
from rankflavor.reference import graded
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor

PERSISTENCE = Param("p", "0.9", number_parser("p", 0.0, 1.0, low_open=True),
                    "the user's persistence, the chance of going on to the next rank (trec_eval 10: 0.9)",
                    ("0.5", "0.8", "0.9", "0.95"))


def powers(p: float, ranks: np.ndarray) -> np.ndarray:
    """p^(rank - 1) per row, each power by repeated multiplication as trec_eval takes it (cur_p *= p)."""
    top = int(ranks.max()) if len(ranks) else 0
    table = np.cumprod(np.r_[1.0, np.full(max(top - 1, 0), p)]) if top else np.ones(0)
    return table[ranks - 1] if len(ranks) else np.zeros(0)


def top_grade(data, negative) -> np.ndarray:
    """Per query code: its highest qrels grade (-inf when it has none)."""
    ds = data.dataset
    out = np.full(ds.n_queries, -np.inf)
    np.maximum.at(out, ds.qrels.q, ds.qrels.grade)
    return out


SCALES = ("query_max", "binary", "grade")


class RankBiasedPrecision(BinaryMetric):
    """RBP = (1 - p) sum over ranks i of gain_i p^(i-1)"""

    name = "rbp"
    reads = BINARY_AXES
    parameters = (PERSISTENCE, Param("scale", "query_max", word_parser("scale", SCALES),
                                     "a doc's gain: query_max (its grade over the query's top grade when that exceeds "
                                     "1: trec_eval 10), binary (1 when grade >= rel_level: ir_measures) or grade (the "
                                     "grade when >= rel_level, else 0: ranx)", SCALES))
    parts = ()
    row_columns = ("relevant", "gain", "weight")
    measure = graded.rbp

    def validate(self, flavor: Flavor) -> None:
        if flavor.param("scale") == "query_max" and flavor.rel_level.threshold != 1:
            raise SpecError(f"rbp scale=query_max reads grades, not rel_level={flavor.rel_level} (trec_eval's graded "
                            "rbp does not read -l): drop rel_level, or write rbp(scale=binary) for binary gains")

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        p, rows = flavor.param("p").number, lists.rows
        relevant = relevant_rows(lists, flavor.rel_level).astype(np.float64)
        if flavor.param("scale") == "binary":
            gain = relevant
        elif flavor.param("scale") == "grade":
            gain = np.where(relevant > 0, rows.grade, 0.0)
        else:
            top = lists.scope.shared(top_grade, flavor.negative)[rows.q]
            with np.errstate(invalid="ignore"):
                grade = np.where(rows.judged & (rows.grade > 0), rows.grade, 0.0)
            gain = np.where(top > 1, grade / np.where(top > 1, top, 1.0), grade)
        weight = powers(p, lists.positions.rank)
        kept = lists.positions.in_top
        total = np.bincount(rows.q, weights=np.where(kept, gain * weight, 0.0), minlength=lists.n_queries)
        return MetricValues((1.0 - p) * total, np.zeros(lists.n_queries, dtype=bool), {},
                            {"relevant": relevant, "gain": gain, "weight": weight} if detail else {})

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        return "(1 - p) times the gains weighted by p^(rank - 1)"


class RankBiasedResidual(RankBiasedPrecision):
    """rbp_resid = p^n + (1 - p) sum over the unjudged docs ranked i of p^(i-1)"""

    name = "rbp_resid"
    reads = tuple(a for a in BINARY_AXES if a != "rel_level")
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        "rel_level": ("it reads whether a doc is judged, not its grade", "rbp")}
    parameters = (Param("p", "0.9", number_parser("p", -1e6, 1e6), "the user's persistence (trec_eval 10: 0.9; any "
                        "number, as trec_eval computes -m rbp_resid.p=X)", ("0.5", "0.8", "0.9", "0.95")),)
    cutoff_rule = "none"
    parts = ("unjudged_retrieved",)
    row_columns = ("weight",)

    def universe_columns(self, flavor: Flavor, grade: float, judged: bool, gain: float) -> dict:
        return {}
    measure = graded.rbp_resid

    def validate(self, flavor: Flavor) -> None:
        BinaryMetric.validate(self, flavor)

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        p, rows = flavor.param("p").number, lists.rows
        weight = powers(p, lists.positions.rank)
        unjudged = ~rows.judged
        count = per_query(lists, unjudged)
        total = np.bincount(rows.q, weights=np.where(unjudged, weight, 0.0), minlength=lists.n_queries)
        tail = powers(p, lists.returned.astype(np.int64) + 1)  # p^n
        value = np.where(count > 0, tail + (1 - p) * total, 0.0)
        return MetricValues(value, np.zeros(lists.n_queries, dtype=bool), {"unjudged_retrieved": count},
                            {"weight": weight} if detail else {})

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        return "p^n past the list, plus (1 - p) p^(rank - 1) for each unjudged doc (0 when none is unjudged)"


register(RankBiasedPrecision(), peers={"trec_eval": ("rbp",), "ir_measures": ("RBP(rel=N)",), "ranx": ("rbp.{p}",)})
register(RankBiasedResidual(), peers={"trec_eval": ("rbp_resid",)})
