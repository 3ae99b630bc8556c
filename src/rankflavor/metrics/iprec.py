"""Interpolated precision at a recall level, and its average over recall levels (trec_eval m_iprec_at_recall.c,
m_11pt_avg.c; the standard recall-precision graph of Buckley & Voorhees 2005).

    Int_Prec(rank X) = max P@Y over the ranks Y >= X
    iprec(level)     = Int_Prec at the rank of the c-th relevant doc, c = count(level·R)
                       (c = 0: the max over the whole list; 0 when fewer than c relevant docs are retrieved)
    iprec_avg        = the mean of iprec over the levels 0, 0.1, ..., 1 (points=11) or 0.2, 0.5, 0.8 (points=3), or
                       the levels listed (points=0.25/0.5/0.75: trec_eval's `-m 11pt_avg..25,.5,.75`)

count(x) is lround(x) in trec_eval 10.0 (count=round) and (long)(x + 0.9) in trec_eval 9 and before, which
pytrec_eval bundles (count=add0.9): with R = 3, level 0.1 stands for 0 relevant docs in one and 1 in the other.
R: the query's relevant judgments; R = 0 is left to the `empty` axis (trec_eval: 0). Reads the whole list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rankflavor.engine.lists import group_starts
from rankflavor.engine.metric import MetricValues
from rankflavor.flavor.values import AxisValue, Param, format_number, number_parser, word_parser
from rankflavor.metrics.relevance import (
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
    from rankflavor.engine.lists import Positions, RankedLists, Rows
    from rankflavor.engine.scope import RowsScope
    from rankflavor.flavor import Flavor
    from rankflavor.flavor.values import RelLevel

LEVELS = 1e6  # a recall level outside [0, 1] is read as trec_eval reads -m iprec_at_recall.1.5
COUNT = Param("count", "round", word_parser("count", ("round", "add0.9")),
              "how level·R becomes a number of relevant docs: round (trec_eval 10, lround) or add0.9 "
              "(trec_eval 9, pytrec_eval: (long)(level·R + 0.9))", ("round", "add0.9"))


def relevant_count(level: float, r: np.ndarray, count: str) -> np.ndarray:
    """count(level·R) per query, as trec_eval computes it in double precision (reference.relevant_count)."""
    x = level * r
    if count == "add0.9":
        return np.floor(x + 0.9)
    low = np.floor(x)
    return low + (x - low >= 0.5)


class InterpolationTable:
    """Per query: the relevant docs retrieved, and Int_Prec at each of them in rank order (`at(q, j)`: the j-th)."""

    def __init__(self, rows: Rows, positions: Positions, relevant: np.ndarray, nq: int) -> None:
        q = rows.q[relevant]
        hits = within_query_cumsum(rows.q, relevant)[relevant]
        precision = hits / positions.rank[relevant]
        self.retrieved = np.bincount(q, minlength=nq)
        self.first = np.cumsum(self.retrieved) - self.retrieved  # index of a query's first relevant row
        self.best = _suffix_max_within(q, precision)

    def at(self, j: np.ndarray) -> np.ndarray:
        """Int_Prec at the j-th (1-based, j <= retrieved) relevant doc of every query; 0 where j is 0 or too large."""
        ok = (j >= 1) & (j <= self.retrieved)
        index = np.where(ok, self.first + np.maximum(j, 1) - 1, 0)
        return np.where(ok, self.best[index] if len(self.best) else 0.0, 0.0)

    def iprec(self, level: float, r: np.ndarray, count: str) -> np.ndarray:
        c = relevant_count(level, r, count)
        return np.where(c > self.retrieved, 0.0, self.at(np.maximum(c, 1).astype(np.int64)))


def _suffix_max_within(q: np.ndarray, values: np.ndarray) -> np.ndarray:
    """For rows grouped by query: the max of `values` over the row and the rows after it in its query. Exact: the
    values are replaced by their order codes, each query's codes lifted above the next query's."""
    if not len(values):
        return values
    distinct, codes = np.unique(values, return_inverse=True)
    group = np.zeros(len(q), dtype=np.int64)
    group[group_starts(q)] = 1
    lift = (np.cumsum(group) - 1) * len(distinct)  # increasing by query
    lifted = codes.astype(np.int64) + (lift.max() - lift)  # decreasing by query: later queries lie below
    best = np.maximum.accumulate(lifted[::-1])[::-1]
    return distinct[best - (lift.max() - lift)]


def interpolation_table(ranked: RowsScope, positions: Positions, rel_level: RelLevel) -> InterpolationTable:
    """The InterpolationTable of ranked rows at these positions, relevant at rel_level (shared by iprec and
    iprec_avg at every level over the same lists)."""
    relevant = relevant_rows(ranked, rel_level)
    return InterpolationTable(ranked.rows, positions, relevant, ranked.dataset.n_queries)


class InterpolatedPrecision(BinaryMetric):
    """iprec = the max precision at or below the rank where recall reaches the level"""

    value_bounds = (0.0, 1.0)
    qrels_rows_only = True

    name = "iprec"
    reads = NORMALISED_AXES
    cutoff_rule = "none"
    parameters = (Param("level", None, number_parser("level", -LEVELS, LEVELS), "the recall level in [0, 1], e.g. "
                        "level=0.5 (beyond, as trec_eval computes it: below 0 as 0, above 1 gives 0)",
                        ("0", "0.1", "0.25", "0.3", "0.5", "0.7", "1")), COUNT)
    parts = ("relevant_retrieved", "relevant")
    measure = reference.iprec

    def values(self, table: InterpolationTable, r: np.ndarray, flavor: Flavor) -> np.ndarray:
        return table.iprec(flavor.param("level").number, r, flavor.param("count"))

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        r = lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)
        table = lists.rows_stage(interpolation_table, lists.positions, flavor.rel_level)
        value = np.where(r > 0, self.values(table, r, flavor), np.nan)
        return MetricValues(value, ~(r > 0), {"relevant_retrieved": per_query(lists, relevant), "relevant": r},
                            {"relevant": relevant.astype(np.float64)} if detail else {})


def points_parser(raw: str) -> AxisValue:
    """iprec_avg's `points`: 11, 3, or recall levels in [0, 1] joined by `/` (kept in the order given, as
    m_11pt_avg.c keeps its parameters)."""
    if raw in reference.AVERAGE_LEVELS:
        return word_parser("points", tuple(reference.AVERAGE_LEVELS))(raw)
    level = number_parser("points", -LEVELS, LEVELS)
    levels = [level(part).number for part in raw.split("/")]
    return AxisValue("/".join(format_number(x) for x in levels), axis="points", kind="levels")


class InterpolatedPrecisionAverage(InterpolatedPrecision):
    """iprec_avg = the mean of iprec over the recall levels"""

    name = "iprec_avg"
    parameters = (Param("points", "11", points_parser,
                        "the recall levels: 11 (0, 0.1, ..., 1: trec_eval 11pt_avg), 3 (0.2, 0.5, 0.8) or levels "
                        "joined by / (0.25/0.5/0.75)", ("11", "3", "0.25/0.5/0.75")), COUNT)
    measure = reference.iprec_avg

    def values(self, table: InterpolationTable, r: np.ndarray, flavor: Flavor) -> np.ndarray:
        levels = reference.average_levels(str(flavor.param("points")))
        total = np.zeros(len(r))
        for level in reversed(levels):  # trec_eval adds from the highest level down
            total += table.iprec(level, r, flavor.param("count"))
        return total / len(levels)


register(InterpolatedPrecision(), aliases=("iprec_at_recall",),
         peers={"trec_eval": ("iprec_at_recall_{level}",), "ir_measures": ("IPrec@x",)})
register(InterpolatedPrecisionAverage(), aliases=("11pt_avg",), peers={"trec_eval": ("11pt_avg",)})
