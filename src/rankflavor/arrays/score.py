"""A score that is a float and carries its flavor: `Score`.

It compares, adds and formats as the float it is (scikit-learn's model selection takes it as a number), and
holds what the number was computed under and from: `.flavor` (its canonical string is `str(score.flavor)`),
`.per_query` (one value per query, in the caller's order; NaN for a query the flavor leaves out), `.queries`
(the caller's key of each: the row index, the group's index, the qid), `.result` (rankflavor's Result: counts,
warnings) and `.report` (the Report it is part of: `.report.explain(...)`, `.report.verify()`). Pickled, it
becomes a plain float.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rankflavor.flavor import Flavor

__all__ = ["Score"]


class Score(float):
    """A mean over queries (NaN when no query is scored), with its flavor and per-query values."""

    flavor: Flavor
    per_query: np.ndarray
    queries: np.ndarray
    result: Any
    report: Any

    def __new__(cls, value: float | None, flavor: Flavor, per_query: np.ndarray | None = None,
                queries: np.ndarray | None = None, result: Any = None, report: Any = None) -> Score:
        score = super().__new__(cls, float("nan") if value is None else value)
        score.flavor = flavor
        score.per_query = np.zeros(0) if per_query is None else per_query
        score.queries = np.arange(len(score.per_query)) if queries is None else queries
        score.result = result
        score.report = report
        return score

    @property
    def flavor_string(self) -> str:
        """The canonical string of the flavor (it parses back to the same flavor)."""
        return str(self.flavor)

    @property
    def warnings(self) -> list[str]:
        """What rankflavor's report says about this number (ties across the cutoff, zero-ideal queries, ...)."""
        return list(self.result.warnings) if self.result is not None else []

    def __repr__(self) -> str:
        return f"Score({float(self)!r}, flavor={str(self.flavor)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (float, (float(self),))
