"""A rankflavor flavor as a torchmetrics `Metric`, with the interface of torchmetrics' retrieval metrics.

`RetrievalFlavor(flavor="torchmetrics@10")` takes `update(preds, target, indexes)` batches (one query id per
element in `indexes`, as torchmetrics/retrieval/base.py `RetrievalMetric.update`: a query's documents may arrive in
several batches), keeps them as states declared with `dist_reduce_fx="cat"` (so that a distributed run gathers
every process's documents before `compute`), and `compute()` scores every query at once through
`rankflavor.evaluate`: the mean over queries, as a 0-d float32 tensor; `.last` is its `Score` (the flavor, the
per-query values, the query ids in order of first appearance). `reset()` empties the states (torchmetrics' own).

The default is torchmetrics' RetrievalNormalizedDCG (the `torchmetrics` preset: functional/retrieval/ndcg.py,
scikit-learn's tie-averaged DCG in float32). Its `empty_target_action` is the flavor's `empty` axis: a query whose
labels are all 0 scores `neg` 0 (empty=zero, the preset's), `pos` 1 (empty=one), `skip` left out (empty=skip), or
`error` is refused; left None, the flavor's own `empty` stands. `ignore_index` drops the documents whose target
equals it; `top_k` is the cutoff. Inputs follow torchmetrics' checks: `indexes` long integers, `preds` floats (made
float32, as torchmetrics does), `target` booleans, integers or floats, all of one shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torchmetrics import Metric
from torchmetrics.utilities.data import dim_zero_cat

from rankflavor.adapters.training import FlavorArg, Flavored
from rankflavor.arrays.score import Score
from rankflavor.errors import InputError, UsageError

__all__ = ["DEFAULT", "EMPTY", "RetrievalFlavor"]

DEFAULT = "torchmetrics"
EMPTY = {"neg": "zero", "pos": "one", "skip": "skip", "error": "error"}  # empty_target_action -> the empty axis


class RetrievalFlavor(Metric):
    """NDCG (or any flavor) over retrieval batches; the mean over queries."""

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(self, flavor: FlavorArg = None, *, top_k: int | None = None, empty_target_action: str | None = None,
                 ignore_index: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if empty_target_action is not None and empty_target_action not in EMPTY:
            raise ValueError(f"empty_target_action={empty_target_action!r}: one of {', '.join(EMPTY)}, or None (the "
                             "flavor's own empty axis)")
        if ignore_index is not None and not isinstance(ignore_index, int):
            raise ValueError("ignore_index must be an integer or None")
        self.flavored = Flavored(flavor, DEFAULT, top_k)
        if len(self.flavored.flavors) != 1:
            raise UsageError(f"one flavor per metric; {flavor!r} names {len(self.flavored.flavors)}: give one")
        if empty_target_action not in (None, "error"):
            self.flavored.flavors = [self.flavored.flavors[0].with_(empty=EMPTY[empty_target_action])]
        self.empty_target_action = empty_target_action
        self.ignore_index = ignore_index
        self.last: Score | None = None
        self.add_state("indexes", default=[], dist_reduce_fx="cat")
        self.add_state("preds", default=[], dist_reduce_fx="cat")
        self.add_state("target", default=[], dist_reduce_fx="cat")

    def update(self, preds: torch.Tensor, target: torch.Tensor, indexes: torch.Tensor) -> None:
        """Add a batch: one score, label and query id per document (any shape, the same for all three)."""
        if indexes is None:
            raise ValueError("indexes cannot be None: give the query id of each document")
        if not (indexes.shape == preds.shape == target.shape):
            raise ValueError(f"indexes {tuple(indexes.shape)}, preds {tuple(preds.shape)} and target "
                             f"{tuple(target.shape)} must have one shape")
        if indexes.dtype not in (torch.long, torch.int):
            raise ValueError("indexes must be a tensor of integers (the query of each document)")
        if not preds.is_floating_point():
            raise ValueError("preds must be a tensor of floats")
        if target.dtype not in (torch.bool, torch.long, torch.int) and not target.is_floating_point():
            raise ValueError("target must be a tensor of booleans, integers or floats")
        indexes, preds, target = indexes.flatten().long(), preds.flatten().float(), target.flatten()
        if self.ignore_index is not None:
            keep = target != self.ignore_index
            indexes, preds, target = indexes[keep], preds[keep], target[keep]
        self.indexes.append(indexes.detach())
        self.preds.append(preds.detach())
        self.target.append(target.detach().double())

    def compute(self) -> torch.Tensor:
        """Every query's value under the flavor, averaged (0.0 when no document was given, as torchmetrics)."""
        if isinstance(self.indexes, list) and not self.indexes:  # (after a sync each state is one tensor)
            return torch.tensor(0.0)
        indexes = dim_zero_cat(self.indexes).cpu().numpy()
        preds = dim_zero_cat(self.preds).cpu().numpy().astype(np.float64)
        target = dim_zero_cat(self.target).cpu().numpy()
        if len(indexes) == 0:
            return torch.tensor(0.0)
        if self.empty_target_action == "error":
            sums = np.bincount(np.unique(indexes, return_inverse=True)[1], weights=target)
            if (sums == 0).any():
                raise InputError("a query has no positive target (empty_target_action='error')", source="target",
                                 fix="give each query a relevant document, or another empty_target_action")
        self.last = self.flavored.score(target, preds, qid=indexes)[0]
        value = float(self.last)
        return torch.tensor(0.0 if np.isnan(value) else value, dtype=torch.float32)
