"""F-measure and set MAP: precision and recall of the same top k together (trec_eval m_set_F.c, m_set_map.c;
van Rijsbergen, Information Retrieval, 1979, ch. 7; ranx's f1).

    F_beta@k = (1 + beta²) P R / (beta² P + R)     P = P@k, R = R@k (no cutoff: over the list); 0 when P = R = 0
    set_map  = P · R over the whole list = num_rel_ret² / (num_ret · R)

trec_eval's set_F parameter is beta² (its `-m set_F.x` computes (x + 1) P R / (x P + R)); its default 1 is beta=1.
beta is written `sqrt(x)` when x is not a square: beta² is then x itself, not sqrt(x) squared (2.0000000000000004).
R = 0 is left to the `empty` axis (trec_eval: 0).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.flavor.values import AxisValue, Param, format_number, number_parser
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


_BETA = number_parser("beta", 0.0, 1e6, low_open=True)


_SQUARED = number_parser("beta²", -1.7976931348623157e308, 1.7976931348623157e308)


def parse_beta(raw: str) -> AxisValue:
    """beta > 0, a number or `sqrt(x)` (x = beta², trec_eval's set_F parameter: any number, as trec_eval computes
    (x + 1) P R / (x P + R) for it); `squared` is beta² exactly."""
    if raw.startswith("sqrt(") and raw.endswith(")"):
        squared = _SQUARED(raw[5:-1]).number
        return AxisValue(beta_token(squared), axis="beta", kind="number", number=math.sqrt(max(squared, 0.0)),
                         squared=squared)
    value = _BETA(raw)
    return AxisValue(str(value), axis="beta", kind="number", number=value.number, squared=value.number**2)


def beta_token(squared: float) -> str:
    """beta's token for beta² = squared: the number when its square is exactly `squared`, else `sqrt(squared)`."""
    root = math.sqrt(max(squared, 0.0))
    return format_number(root) if root * root == squared and root > 0 else f"sqrt({format_number(squared)})"


class FMeasure(BinaryMetric):
    """F = (1 + beta²) P R / (beta² P + R)"""

    value_bounds = (0.0, 1.0)
    qrels_rows_only = True

    name = "f"
    reads = NORMALISED_AXES
    parameters = (Param("beta", "1", parse_beta, "the weight of recall against precision, beta > 0 (1: F1); "
                        "sqrt(x): beta² = x exactly (trec_eval's set_F.x)", ("0.5", "1", "2", "sqrt(2)")),)
    parts = ("relevant_retrieved", "relevant")
    measure = reference.f_measure

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        hits = per_query(lists, relevant & lists.positions.in_top)
        k = lists.returned if flavor.cutoff is None else float(flavor.cutoff)
        b2 = flavor.param("beta").squared
        with np.errstate(invalid="ignore", divide="ignore"):
            p, recall = np.where(k > 0, hits / np.maximum(k, 1), 0.0), hits / r
            value = np.where(r > 0, np.where(hits > 0, (1 + b2) * p * recall / (b2 * p + recall), 0.0), np.nan)
        return over_relevant(value, r, hits, relevant, detail)


class SetMap(BinaryMetric):
    """set_map = P · R of the whole list"""

    value_bounds = (0.0, 1.0)
    qrels_rows_only = True

    name = "set_map"
    reads = NORMALISED_AXES
    cutoff_rule = "none"
    parts = ("relevant_retrieved", "relevant")
    measure = reference.set_map

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        hits = per_query(lists, relevant)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(r > 0, np.where(lists.returned > 0, hits * hits / (lists.returned * r), 0.0), np.nan)
        return over_relevant(value, r, hits, relevant, detail)


register(FMeasure(), peers={"trec_eval": ("set_F",), "ir_measures": ("SetF",), "ranx": ("f1",)})
register(SetMap(), peers={"trec_eval": ("set_map",), "ir_measures": ("SetAP",)})
