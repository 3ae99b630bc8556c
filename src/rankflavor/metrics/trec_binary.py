"""trec_eval's binary G and set utility (trec_eval 10.0 m_binG.c, m_utility.c; the same in 9.0.x).

    binG    = (1/R) sum over the relevant docs ranked i of 1 / log2(2 + the docs above it that are not relevant)
    utility = p1 a + p2 b + p3 c + p4 d    a: relevant retrieved, b: retrieved not relevant (unjudged docs
              included), c: relevant not retrieved, d = docs + a - retrieved - R (the collection's docs: -N)

binG reads rel_level (-l); R = 0 is left to `empty` (trec_eval: 0). utility's coefficients are its parameters,
trec_eval's defaults `-m utility.1.0,-1.0,0.0,0.0` and -N 0 (pytrec_eval takes only the defaults); its summary
is the mean, as trec_eval's (whose help text notes that a sum could be argued for).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.flavor.values import Param, number_parser
from rankflavor.metrics.relevance import (
    BINARY_AXES,
    NORMALISED_AXES,
    BinaryMetric,
    per_query,
    reference,
    relevant_judgments,
    relevant_rows,
    within_query_cumsum,
)
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor


class BinaryG(BinaryMetric):
    """binG = (1/R) sum over the relevant docs of 1 / log2(2 + the docs above it that are not relevant)"""

    qrels_rows_only = True

    name = "bin_g"
    reads = NORMALISED_AXES
    cutoff_rule = "none"
    parts = ("relevant_retrieved", "relevant")
    row_columns = ("relevant", "contribution")
    measure = reference.bin_g

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        q = lists.rows.q
        relevant = relevant_rows(lists, flavor.rel_level)
        others = lists.positions.rank - within_query_cumsum(q, relevant)  # the docs above, not relevant
        contribution = np.where(relevant, 1.0 / np.log2(2.0 + others), 0.0)
        total = np.bincount(q, weights=contribution, minlength=lists.n_queries)
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = np.where(r > 0, total / np.maximum(r, 1), np.nan)
        rows = {"relevant": relevant.astype(np.float64), "contribution": contribution}
        return MetricValues(value, ~(r > 0), {"relevant_retrieved": per_query(lists, relevant), "relevant": r},
                            rows if detail else {})


FINITE = 1.7976931348623157e308  # a coefficient: any finite number (trec_eval reads them with atof)
LONG = 9.223372036854775807e18  # -N: atol's range


def _coefficient(name: str, default: str, meaning: str) -> Param:
    return Param(name, default, number_parser(name, -FINITE, FINITE), meaning, (default, "2", "-0.5"))


class Utility(BinaryMetric):
    """utility = p1 a + p2 b + p3 c + p4 d over the contingency table (relevant or not, retrieved or not)"""

    qrels_rows_only = True

    name = "utility"
    reads = BINARY_AXES
    cutoff_rule = "none"
    parameters = (
        _coefficient("rel_ret", "1", "p1, the worth of a relevant doc retrieved (trec_eval: 1.0)"),
        _coefficient("nonrel_ret", "-1", "p2, the worth of a retrieved doc that is not relevant (trec_eval: -1.0)"),
        _coefficient("rel_nonret", "0", "p3, the worth of a relevant doc not retrieved (trec_eval: 0.0)"),
        _coefficient("nonrel_nonret", "0", "p4, the worth of a doc neither relevant nor retrieved (trec_eval: 0.0)"),
        Param("docs", "0", number_parser("docs", -LONG, LONG), "the docs in the collection (trec_eval -N: 0; "
              "any long, as -N is read)",
              ("0", "1000")),
    )
    not_read: ClassVar[dict[str, tuple[str, str]]] = {"empty": ("it scores every query (no division)", "map")}
    parts = ("relevant_retrieved", "relevant")
    measure = reference.utility

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        a = per_query(lists, relevant)
        retrieved = lists.returned.astype(np.float64)
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        p = [flavor.param(n).number for n in ("rel_ret", "nonrel_ret", "rel_nonret", "nonrel_nonret", "docs")]
        value = p[0] * a + p[1] * (retrieved - a) + p[2] * (r - a) + p[3] * (p[4] + a - retrieved - r)
        return MetricValues(value, np.zeros(lists.n_queries, dtype=bool), {"relevant_retrieved": a, "relevant": r},
                            {"relevant": relevant.astype(np.float64)} if detail else {})


register(BinaryG(), peers={"trec_eval": ("binG",)})
register(Utility(), peers={"trec_eval": ("utility",)})
