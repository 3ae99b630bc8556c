"""What the binary-relevance measures share (P, R, AP, RR, R-precision, success, the counts).

A doc is relevant when it is judged (under `negative`) with a grade of at least `rel_level` (trec_eval -l,
ir_measures rel=); R is the number of such judgments of the query in the qrels. These measures read the
ranked list's relevance, not its gains: they do not read gain, discount, min_grade or the ideal's axes.
A measure that divides by R leaves a query with R = 0 to the `empty` axis (status no_relevant; trec_eval
gives 0, as empty=zero does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from rankflavor.engine.lists import RankedLists, group_starts
from rankflavor.engine.metric import Metric, MetricValues
from rankflavor.engine.qrels import judged_mask
from rankflavor.engine.scope import DatasetScope, RowsScope
from rankflavor.errors import SpecError
from rankflavor.flavor.axes import AXIS_NAMES
from rankflavor.flavor.values import Choice, RelLevel
from rankflavor.reference import binary as reference

if TYPE_CHECKING:
    from rankflavor.flavor import Flavor

GAIN_AXES = ("gain", "discount", "min_grade", "ideal", "ideal_depth")
BINARY_AXES = tuple(a for a in AXIS_NAMES if a not in (*GAIN_AXES, "empty"))
NORMALISED_AXES = tuple(a for a in AXIS_NAMES if a not in GAIN_AXES)  # (+ empty: a normaliser R can be 0)
JUDGED_ONLY = "it reads judged docs only and passes over unjudged ones, whatever the axis"


def relevant_judgments(data: DatasetScope, negative: Choice, rel_level: RelLevel) -> np.ndarray:
    """R per query code: the judged qrels rows (under `negative`) with a grade of at least rel_level."""
    ds = data.dataset
    relevant = data.stage(judged_mask, negative) & (ds.qrels.grade >= rel_level.threshold)
    return np.bincount(ds.qrels.q[relevant], minlength=ds.n_queries).astype(np.float64)


def nonrelevant_judgments(data: DatasetScope, negative: Choice, rel_level: RelLevel) -> np.ndarray:
    """N per query code: the judged qrels rows (under `negative`) with a grade below rel_level."""
    ds = data.dataset
    nonrelevant = data.stage(judged_mask, negative) & (ds.qrels.grade < rel_level.threshold)
    return np.bincount(ds.qrels.q[nonrelevant], minlength=ds.n_queries).astype(np.float64)


def relevant_rows(lists: RankedLists | RowsScope, rel_level: RelLevel) -> np.ndarray:
    """Per ranked row: judged, with a grade of at least rel_level (an unjudged row's grade is nan: False)."""
    rows = lists.rows
    with np.errstate(invalid="ignore"):
        return rows.judged & (rows.grade >= rel_level.threshold)


def over_relevant(value: np.ndarray, r: np.ndarray, hits: np.ndarray, relevant: np.ndarray, detail: bool,
                  ) -> MetricValues:
    """The values of a measure normalised by R: undefined where R = 0 (the `empty` policy decides), with the
    parts relevant_retrieved and relevant and, with detail, each row's relevance."""
    return MetricValues(value, ~(r > 0), {"relevant_retrieved": hits, "relevant": r},
                        {"relevant": relevant.astype(np.float64)} if detail else {})


def per_query(lists: RankedLists, mask: np.ndarray) -> np.ndarray:
    """The number of rows where `mask` is set, per query code."""
    return np.bincount(lists.rows.q, weights=mask.astype(np.float64), minlength=lists.n_queries)


def within_query_cumsum(q: np.ndarray, flags: np.ndarray) -> np.ndarray:
    """For rows grouped by query: the running count of `flags` within each query, the row itself included."""
    running = np.cumsum(flags, dtype=np.int64)
    if not len(q):
        return running
    first = group_starts(q)
    return running - running[first] + flags[first]


class BinaryMetric(Metric):
    """A binary-relevance measure: `measure` is its reference formula over a `Ranked` (reference/binary.py, or
    reference/graded.py, ranx_ref.py); its `reference` and the check of its records are derived from it."""

    reads = BINARY_AXES
    row_columns = ("relevant",)
    undefined_reason = "no relevant document (R = 0)"
    undefined_status = "no_relevant"
    cutoff_rule: ClassVar[str] = "optional"  # "required", "optional" or "none"
    measure: ClassVar[Any] = None

    def validate(self, flavor: Flavor) -> None:
        if self.cutoff_rule == "required" and flavor.cutoff is None:
            raise SpecError(f"{self.name} needs a cutoff: write {self.name}@k, e.g. {self.name}@10")
        if self.cutoff_rule == "none" and flavor.cutoff is not None:
            raise SpecError(f"{self.name} takes no cutoff (it reads the whole list): write {self.name}")

    def universe_columns(self, flavor: Flavor, grade: float, judged: bool, gain: float) -> dict[str, Any]:
        return {"relevant": bool(judged and grade >= flavor.rel_level.threshold)}

    def reason(self, flavor: Flavor, status: str, value: float | None) -> str:
        if status == self.undefined_status:
            shown = "null, left out of the mean" if value is None else f"{value:g}"
            return f"no judged doc has a grade of at least rel_level={flavor.rel_level} (R = 0); empty={flavor.empty} " \
                   f"gives {shown}"
        return (type(self).__doc__ or self.name).strip().splitlines()[0]

    def reference(self, flavor: Flavor, judgments: Any, ranked: Any, qrels: Any) -> tuple:
        """The slow per-query (value, parts, undefined) of `measure` (reference/binary.py query_value)."""
        return reference.query_value(type(self).measure, flavor, judgments, ranked, qrels)

    def checked_measure(self) -> Any:
        """The reference formula a record's value is checked against (reference/binary.py)."""
        return type(self).measure

    def check_record(self, record: Any, flavor: Flavor) -> list[str]:
        return reference.check_record(self.checked_measure(), record, flavor)

    def check_rows(self, rows: Any, res: Any, ds: Any, flavor: Flavor) -> dict[int, list[str]] | None:
        from rankflavor.reference.rows import check_relevance_rows

        return check_relevance_rows(self.checked_measure(), rows, res, ds, flavor)

