"""Precision at k, success at k, and R-precision (trec_eval m_P.c, m_success.c, m_Rprec.c, m_set_P.c).

    P@k   = |relevant in the top k| / k        (a list shorter than k is filled with nonrelevant docs)
    P     = |relevant retrieved| / |retrieved| (no cutoff: trec_eval's set_P; 0 for an empty list)
    success@k = 1 when a relevant doc is in the top k, else 0
    Rprec = |relevant in the top R| / R        (R: the query's relevant judgments; R = 0 -> `empty`)
    rprec_mult(f) = P@c, c = (long)(f·R + 0.9)  (trec_eval m_Rprec_mult.c; rprec_mult(1) is Rprec)

A doc is relevant when judged with a grade of at least rel_level (metrics/relevance.py). References:
Buckley & Voorhees, 'Retrieval System Evaluation', in TREC: Experiment and Evaluation in IR (2005).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.flavor.values import Param, number_parser
from rankflavor.metrics.relevance import (
    NORMALISED_AXES,
    BinaryMetric,
    over_relevant,
    per_query,
    reference,
    relevant_judgments,
    relevant_rows,
)
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor


class Precision(BinaryMetric):
    """P = relevant retrieved / k (no cutoff: / retrieved)"""

    value_bounds = (0.0, 1.0)
    judgments_beyond_rows = 0.0  # (it reads the grades of its ranked rows only)
    value_grows_with_grade = True  # (a doc judged relevant never lowers it)
    qrels_rows_only = True

    name = "p"
    parts = ("relevant_retrieved",)
    measure = reference.precision

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        hits = per_query(lists, relevant & lists.positions.in_top)
        if flavor.cutoff is not None:
            value = hits / flavor.cutoff
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                value = np.where(lists.returned > 0, hits / np.maximum(lists.returned, 1), 0.0)
        return MetricValues(value, np.zeros(lists.n_queries, dtype=bool), {"relevant_retrieved": hits},
                            {"relevant": relevant.astype(np.float64)} if detail else {})


class Success(BinaryMetric):
    """success = 1 when a relevant doc is in the top k"""

    value_bounds = (0.0, 1.0)
    judgments_beyond_rows = 0.0  # (it reads the grades of its ranked rows only)
    value_grows_with_grade = True  # (a doc judged relevant never lowers it)
    qrels_rows_only = True

    name = "success"
    cutoff_rule = "required"
    parts = ("relevant_retrieved",)
    measure = reference.success

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        hits = per_query(lists, relevant & lists.positions.in_top)
        return MetricValues((hits > 0).astype(np.float64), np.zeros(lists.n_queries, dtype=bool),
                            {"relevant_retrieved": hits}, {"relevant": relevant.astype(np.float64)} if detail else {})


class RPrecision(BinaryMetric):
    """Rprec = relevant in the top R / R"""

    value_bounds = (0.0, 1.0)
    qrels_rows_only = True

    name = "rprec"
    reads = NORMALISED_AXES
    cutoff_rule = "none"
    parts = ("relevant_retrieved", "relevant")
    measure = reference.rprec

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        hits = per_query(lists, relevant & (lists.positions.rank <= r[lists.rows.q]))
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(r > 0, hits / np.maximum(r, 1), np.nan)
        return over_relevant(value, r, hits, relevant, detail)


class RPrecisionMultiple(RPrecision):
    """rprec_mult = relevant in the top c / c, c = f·R rounded as trec_eval does"""

    name = "rprec_mult"
    parameters = (Param("factor", "1", number_parser("factor", -1e6, 1e6), "the multiple f of R (f <= 0: c <= 0, "
                        "the value 0, as trec_eval computes Rprec_mult.0)",
                        ("0.2", "0.5", "1", "1.4", "2")),)
    measure = reference.rprec_mult

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        c = np.floor(flavor.param("factor").number * r + 0.9)
        hits = per_query(lists, relevant & (lists.positions.rank <= c[lists.rows.q]))
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(r > 0, np.where(c > 0, hits / np.maximum(c, 1), 0.0), np.nan)
        return over_relevant(value, r, hits, relevant, detail)


register(Precision(), aliases=("precision", "p_cut"),
         peers={"trec_eval": ("set_P", "P_{k}"), "ir_measures": ("P@k", "SetP"), "ranx": ("precision",)})
register(Success(), aliases=("hit_rate", "hits", "hit"),
         peers={"trec_eval": ("success_{k}",), "ir_measures": ("Success@k",), "ranx": ("hit_rate",)})
register(RPrecision(), aliases=("r_precision", "r_prec"),
         peers={"trec_eval": ("Rprec",), "ir_measures": ("Rprec",), "ranx": ("r-precision",)})
register(RPrecisionMultiple(), peers={"trec_eval": ("Rprec_mult_{factor}",)})
