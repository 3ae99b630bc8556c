"""Counts of a ranked list (trec_eval m_num_ret.c, m_num_rel.c, m_num_rel_ret.c); their summary is the sum
over queries, not the mean (trec_eval: "Summary figure is sum of individual topics").

    num_ret     = the docs retrieved (after run_depth and unjudged=skip)
    num_rel     = R: the query's relevant judgments (grade >= rel_level), retrieved or not
    num_rel_ret = the relevant docs retrieved
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rankflavor.metrics.base import MetricValues
from rankflavor.metrics.registry import register
from rankflavor.metrics.relevance import BinaryMetric, per_query, reference, reference_of, relevant_judgments, relevant_rows

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor


class Count(BinaryMetric):
    cutoff_rule = "none"
    aggregate = "sum"

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
    reference = reference_of(reference.num_ret)

    def counts(self, lists: RankedLists, flavor: Flavor, relevant: np.ndarray) -> np.ndarray:
        return lists.returned


class NumRel(Count):
    """num_rel = the relevant judgments"""

    name = "num_rel"
    measure = reference.num_rel
    reference = reference_of(reference.num_rel)

    def counts(self, lists: RankedLists, flavor: Flavor, relevant: np.ndarray) -> np.ndarray:
        return lists.scope.shared(relevant_judgments, flavor.negative, flavor.rel_level)


class NumRelRet(Count):
    """num_rel_ret = the relevant docs retrieved"""

    name = "num_rel_ret"
    measure = reference.num_rel_ret
    reference = reference_of(reference.num_rel_ret)

    def counts(self, lists: RankedLists, flavor: Flavor, relevant: np.ndarray) -> np.ndarray:
        return per_query(lists, relevant)


register(NumRet())
register(NumRel())
register(NumRelRet())
