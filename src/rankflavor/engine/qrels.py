"""Stages of the qrels side (shared by every run): which judgments count, and their gains.

A qrels row is judged unless its grade is negative under `negative=unjudged` or `drop` (trec_eval reads a
negative grade as "in the pool, not judged"); its gain is g(grade), 0 for a negative grade under
`negative=zero`, and 0 below `min_grade`.
"""

from __future__ import annotations

import numpy as np

from rankflavor.engine.gains import gain_values
from rankflavor.engine.order import distinct_sorted
from rankflavor.engine.scope import DatasetScope
from rankflavor.errors import EvaluationError
from rankflavor.flavor.values import Choice, Gain, MinGrade


class Judgments:
    """Per row of the sorted qrels: judged under the negative policy, and the gain."""

    judged: np.ndarray
    gain: np.ndarray

    def __init__(self, judged: np.ndarray, gain: np.ndarray) -> None:
        self.judged = judged
        self.gain = gain

    @property
    def max_gain(self) -> float:
        return float(self.gain[self.judged].max()) if self.judged.any() else 0.0


def judgments(data: DatasetScope, gain: Gain, negative: Choice, min_grade: MinGrade) -> Judgments:
    """(judged, gain) of every qrels row after the negative and min_grade policies."""
    ds = data.dataset
    grade = ds.qrels.grade
    is_negative = grade < 0
    if negative == "error" and is_negative.any():
        row = int(np.flatnonzero(is_negative)[0])
        raise EvaluationError(
            f"negative grade {grade[row]:g} for query {ds.query_ids[ds.qrels.q[row]]!r} doc "
            f"{ds.doc_ids[ds.qrels.d[row]]!r} ({int(is_negative.sum())} negative grades in all) and negative=error; "
            "choose negative=unjudged, zero or keep"
        )
    judged = data.stage(judged_mask, negative)
    gains = np.zeros(len(grade), dtype=np.float64)
    usable = judged & ~(is_negative & (negative == "zero"))
    gains[usable] = gain_values(grade[usable], gain)
    if min_grade.threshold is not None:
        gains[grade < min_grade.threshold] = 0.0
    return Judgments(judged, gains)


def judged_mask(data: DatasetScope, negative: Choice) -> np.ndarray:
    """Per qrels row: judged under the negative policy (a negative grade is not, under unjudged and drop)."""
    grade = data.dataset.qrels.grade
    return ~(grade < 0) if negative in ("unjudged", "drop") else np.ones(len(grade), dtype=bool)


def gain_levels(data: DatasetScope, gain: Gain, negative: Choice, min_grade: MinGrade) -> np.ndarray:
    """Every gain a ranked row can have, ascending: the qrels' gains and 0 (an unjudged doc's)."""
    return distinct_sorted(np.append(data.stage(judgments, gain, negative, min_grade).gain, 0.0))
