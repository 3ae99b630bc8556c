"""Counts of a ranked list (trec_eval m_num_ret.c, m_num_rel.c, m_num_rel_ret.c); their summary is the sum
over queries, not the mean (trec_eval: "Summary figure is sum of individual topics").

    num_ret     = the docs retrieved (after run_depth and unjudged=skip)
    num_q       = 1: the queries evaluated (m_num_q.c)
    num_rel     = R: the query's relevant judgments (grade >= rel_level), retrieved or not
    num_rel_ret = the relevant docs retrieved
    num_nonrel_judged_ret = the judged nonrelevant docs retrieved (m_num_nonrel_judged_ret.c; unjudged docs are
                  not counted, so it does not read `unjudged`)

Under missing=empty (trec_eval -c), a qrels query absent from the run is scored over an empty ranking: num_q 1,
num_rel its R, the others 0, as trec_eval.c's bogus ranking (num_ret then zeroed). Under missing=zero (ir_measures,
whose measure.DEFAULT fills 0) num_rel is 0; num_q stays 1 (`scores_missing`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.metrics.relevance import (
    BINARY_AXES,
    JUDGED_ONLY,
    BinaryMetric,
    per_query,
    reference,
    relevant_judgments,
    relevant_rows,
)
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor


class Count(BinaryMetric):
    cutoff_rule = "none"
    aggregate = "sum"
    grades_unjudged = False  # (no unjudged_in_top warning: a count reads no unjudged doc's grade)
    qrels_rows_only = True  # (num_ret reads the count of docs returned, kept for the whole lists)

    def counts(self, lists: RankedLists, flavor: Flavor, relevant: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        relevant = relevant_rows(lists, flavor.rel_level)
        return MetricValues(self.counts(lists, flavor, relevant).astype(np.float64), np.zeros(lists.n_queries,
                            dtype=bool), {}, {"relevant": relevant.astype(np.float64)} if detail else {})


class NumRet(Count):
    """num_ret = the docs retrieved"""

    name = "num_ret"
    measure = reference.num_ret

    def counts(self, lists: RankedLists, flavor: Flavor, relevant: np.ndarray) -> np.ndarray:
        return lists.returned


class NumQ(Count):
    """num_q = 1 per query evaluated"""

    name = "num_q"
    scores_missing = True
    measure = reference.num_q

    def counts(self, lists: RankedLists, flavor: Flavor, relevant: np.ndarray) -> np.ndarray:
        return np.ones(lists.n_queries)


class NumRel(Count):
    """num_rel = the relevant judgments"""

    name = "num_rel"
    measure = reference.num_rel

    def counts(self, lists: RankedLists, flavor: Flavor, relevant: np.ndarray) -> np.ndarray:
        return lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)


class NumRelRet(Count):
    """num_rel_ret = the relevant docs retrieved"""

    name = "num_rel_ret"
    measure = reference.num_rel_ret

    def counts(self, lists: RankedLists, flavor: Flavor, relevant: np.ndarray) -> np.ndarray:
        return per_query(lists, relevant)


class NumNonrelJudgedRet(Count):
    """num_nonrel_judged_ret = the judged nonrelevant docs retrieved"""

    name = "num_nonrel_judged_ret"
    reads = tuple(a for a in BINARY_AXES if a != "unjudged")
    not_read: ClassVar[dict[str, tuple[str, str]]] = {"unjudged": (JUDGED_ONLY, "num_ret")}
    measure = reference.num_nonrel_judged_ret

    def counts(self, lists: RankedLists, flavor: Flavor, relevant: np.ndarray) -> np.ndarray:
        return per_query(lists, lists.rows.judged & ~relevant)


register(NumRet(), peers={"trec_eval": ("num_ret",), "ir_measures": ("NumRet",)})
register(NumQ(), peers={"trec_eval": ("num_q",)})
register(NumRel(), peers={"trec_eval": ("num_rel",), "ir_measures": ("NumRel",)})
register(NumRelRet(), peers={"trec_eval": ("num_rel_ret",), "ir_measures": ("NumRelRet",)})
register(NumNonrelJudgedRet(), peers={"trec_eval": ("num_nonrel_judged_ret",)})
