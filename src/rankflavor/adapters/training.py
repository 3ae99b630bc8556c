"""What the training-loop adapters share: flavors named once, and stacked labels, predictions and groups scored
through `rankflavor.evaluate` (arrays/front.py `score_grouped`, without the warnings' extra evaluations: a
metric called every round wants its number, and `.last` keeps the round's Scores for a closer look)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rankflavor.arrays.checks import grouped
from rankflavor.arrays.flavors import named
from rankflavor.arrays.front import score_grouped
from rankflavor.arrays.score import Score
from rankflavor.flavor import Flavor

__all__ = ["PREFIX", "FlavorArg", "Flavored"]

PREFIX = "rf."  # before each name a training loop reports: never one of the library's own (ndcg@5 is LightGBM's)
FlavorArg = str | Flavor | Sequence[str | Flavor] | None


class Flavored:
    """Flavors with their names (`rf.` and the spec as written: `rf.lightgbm@5`, `rf.ndcg@10 gain=exp2`), scoring
    1-D labels and predictions stacked query by query."""

    def __init__(self, flavor: FlavorArg, default: str, k: int | None = None) -> None:
        pairs = named(flavor, default, k=k)
        self.flavors = [f for f, _ in pairs]
        self.names = [PREFIX + name for _, name in pairs]
        self.last: list[Score] = []

    def score(self, labels: Any, predictions: Any, *, group: Any = None, qid: Any = None) -> list[Score]:
        """Each flavor's Score of these predictions (kept as `.last`)."""
        data = grouped(np.asarray(labels, dtype=np.float64), np.asarray(predictions, dtype=np.float64).ravel(),
                       group=group, qid=qid)
        self.last = score_grouped(data, self.flavors, warnings=False)
        return self.last

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(str(f) for f in self.flavors)})"
