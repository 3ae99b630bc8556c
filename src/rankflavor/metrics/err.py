"""Expected reciprocal rank, ERR (Chapelle, Metzler, Zhang & Grinon, CIKM 2009), as gdeval.pl computes it
(TREC Web track; ir_measures' ERR runs it: ir_measures/bin/gdeval.pl `sub err`).

    R_i   = (2^g_i - 1) / 2^max_grade          the chance that the doc at rank i satisfies the user
    ERR@k = sum over ranks i <= k of R_i / i * prod over j < i of (1 - R_j)

g: the grade of a judged doc, 0 when unjudged or <= 0 (gdeval keeps only judgments > 0). max_grade is ERR's
own parameter (gdeval: $MAX_JUDGMENT = 4); a judged grade above it is refused, as gdeval refuses it. A query with
no judgment above 0 is left to `empty` (gdeval does not print it: empty=skip). The plain `err` is gdeval's
convention but without its 5-decimal print (gdeval's presets add round=5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from rankflavor.engine.metric import MetricValues
from rankflavor.engine.qrels import judged_mask
from rankflavor.engine.scope import DatasetScope
from rankflavor.errors import EvaluationError
from rankflavor.flavor.values import Choice, Param, number_parser
from rankflavor.metrics.relevance import BINARY_AXES, BinaryMetric
from rankflavor.reference import graded
from rankflavor.registry import register

if TYPE_CHECKING:
    from rankflavor.engine.lists import RankedLists
    from rankflavor.flavor import Flavor

GRADED_AXES = (*(a for a in BINARY_AXES if a != "rel_level"), "empty")


def positive_judgments(data: DatasetScope, negative: Choice) -> np.ndarray:
    """Per query code: its judged qrels rows with a grade above 0."""
    ds = data.dataset
    positive = data.stage(judged_mask, negative) & (ds.qrels.grade > 0)
    return np.bincount(ds.qrels.q[positive], minlength=ds.n_queries).astype(np.float64)


def rank_by_rank(lists: RankedLists, mask: np.ndarray):
    """The rows under `mask`, rank by rank: (rank, their row indices) for rank 1, 2, ... (one row per query)."""
    index = np.flatnonzero(mask)
    ranks = lists.positions.rank[index]
    order = np.argsort(ranks, kind="stable")
    index, ranks = index[order], ranks[order]
    bounds = np.flatnonzero(np.diff(ranks)) + 1
    return zip(ranks[np.r_[0, bounds]] if len(ranks) else [], np.split(index, bounds) if len(ranks) else [],
               strict=True)


class ExpectedReciprocalRank(BinaryMetric):
    """ERR = sum over ranks i of R_i / i * prod over j < i of (1 - R_j), R = (2^g - 1) / 2^max_grade"""

    value_bounds = (0.0, 1.0)
    name = "err"
    reads = GRADED_AXES
    not_read: ClassVar[dict[str, tuple[str, str]]] = {
        "rel_level": ("it reads grades as satisfaction probabilities, not as relevant or not", "mrr")}
    parameters = (Param("max_grade", "4", number_parser("max_grade", 0.0, 60.0, low_open=True),
                        "the grade of a sure satisfaction: R = (2^g - 1) / 2^max_grade (gdeval: 4)", ("1", "3", "4")),)
    parts = ()
    row_columns = ("probability", "continue")
    undefined_reason = "no judgment with a grade above 0"
    undefined_status = "no_relevant"
    measure = graded.err

    def compute(self, lists: RankedLists, flavor: Flavor, detail: bool) -> MetricValues:
        max_grade = flavor.param("max_grade").number
        self._refuse_high_grades(lists, flavor, max_grade)
        rows = lists.rows
        with np.errstate(invalid="ignore"):
            grade = np.where(rows.judged & (rows.grade > 0), rows.grade, 0.0)
        probability = (2.0 ** grade - 1) / 2.0 ** max_grade
        total, decay = np.zeros(lists.n_queries), np.ones(lists.n_queries)
        before = np.ones(len(grade))
        for rank, index in rank_by_rank(lists, lists.positions.in_top):
            q = rows.q[index]
            before[index] = decay[q]
            total[q] += probability[index] * decay[q] / rank
            decay[q] *= 1 - probability[index]
        undefined = ~(lists.scope.shared(positive_judgments, flavor.negative) > 0)
        value = np.where(undefined, np.nan, total)
        return MetricValues(value, undefined, {}, {"probability": probability, "continue": before} if detail else {})

    @staticmethod
    def _refuse_high_grades(lists: RankedLists, flavor: Flavor, max_grade: float) -> None:
        ds = lists.scope.dataset
        judged = lists.scope.shared(judged_mask, flavor.negative)
        scored = lists.scope.run.present[ds.qrels.q] | (flavor.missing == "empty")  # (missing=empty: over no docs)
        high = judged & (ds.qrels.grade > max_grade) & scored
        if high.any():
            i = int(np.flatnonzero(high)[0])
            raise EvaluationError(
                f"err: query {ds.query_ids[ds.qrels.q[i]]} has a judgment of grade {ds.qrels.grade[i]:g}, above "
                f"max_grade={max_grade:g} (R = (2^g - 1) / 2^max_grade would exceed 1); write "
                f"err(max_grade={int(np.ceil(ds.qrels.grade[high].max()))}) or map the grades down")

    def universe_columns(self, flavor: Flavor, grade: float, judged: bool, gain: float) -> dict:
        return {"probability": graded.err_probability(grade, judged, flavor.param("max_grade").number)}

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        if status == self.undefined_status:
            shown = "null, left out of the mean" if value is None else f"{value:g}"
            return f"no judgment of the query has a grade above 0; empty={flavor.empty} gives {shown}"
        return "the chance the user stops at each rank, R_i times the chance they got there, over i"


register(ExpectedReciprocalRank(), peers={"ir_measures": ("ERR@k",)})
