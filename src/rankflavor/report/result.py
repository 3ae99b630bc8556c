"""One run under one flavor: per-query values, the mean, counts, warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rankflavor import registry
from rankflavor.engine import MISSING, ZERO_IDEAL, QueryResults
from rankflavor.flavor import Flavor
from rankflavor.report.averages import Averaging
from rankflavor.report.numbers import plain


@dataclass
class Result:
    """One run under one flavor. `queries` holds the engine's per-query results over the judged queries."""

    run: str
    flavor: Flavor
    queries: QueryResults
    query_ids: np.ndarray
    unjudged_queries: int
    warnings: list[str] = field(default_factory=list)
    averaging: Averaging = field(default=None, repr=False)  # type: ignore[assignment]
    labels: list[str] = field(default_factory=list)  # the names the user gave the flavor (flavor.labelled_specs)

    def __post_init__(self) -> None:
        if self.averaging is None:  # (the plain mean: no zeros added, no weights)
            self.averaging = Averaging(self.flavor.round, self.flavor.mean_of, query_ids=self.query_ids)
        if not self.labels:
            self.labels = [self.flavor.short]

    def __repr__(self) -> str:
        mean = "null" if self.mean is None else f"{self.mean:.6f}"
        return (f"<Result {self.run} {self.label}: mean {mean} over {self.counts['scored']} scored queries; "
                f"{len(self.warnings)} warnings; flavor {self.flavor}>")

    @property
    def label(self) -> str:
        """The name the user gave the flavor (the spec as written, or its short form)."""
        return self.labels[0]

    @property
    def metric(self) -> Any:
        """The flavor's metric (rankflavor.engine.metric.Metric)."""
        return registry.get(self.flavor.metric)

    @property
    def mean(self) -> float | None:
        return self.mean_with(self.queries.raw_value)

    def mean_with(self, raw: np.ndarray) -> float | None:
        """The mean, as the flavor takes it (report/averages.py), of other per-query values (unrounded; nan =
        null) of the same queries: what the warnings' alternative means are."""
        return self.averaging.mean(self.queries.query, raw)

    @property
    def counts(self) -> dict[str, int]:
        q = self.queries
        counts = {
            "judged_queries": len(q.query),
            "scored": int((~np.isnan(q.value)).sum()),
            "excluded": int(np.isnan(q.value).sum()),
            self.metric.undefined_status: int((q.status == ZERO_IDEAL).sum()),
            "missing": int((q.status == MISSING).sum()),
            "unjudged_queries": self.unjudged_queries,
            "ties_across_cutoff": int(q.ties_straddle.sum()),
            "unjudged_in_top": int(q.unjudged_in_top.sum()),
        }
        counts.update(q.row_counts)
        return counts

    def per_query(self) -> list[dict[str, Any]]:
        """Per judged query: its id, value, the metric's parts (ndcg: dcg, idcg) and status."""
        q = self.queries
        parts = [[(name, plain(x)) for x in column.tolist()] for name, column in q.parts.items()]
        return [
            {"query": str(self.query_ids[c]), "value": plain(v), **dict(named), "status": self.metric.status_name(s)}
            for c, v, s, *named in zip(q.query.tolist(), q.value.tolist(), q.status.tolist(), *parts, strict=True)
        ]

    def to_dict(self, per_query: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"run": self.run, "label": self.label, **({"labels": self.labels} if len(
                               self.labels) > 1 else {}), "flavor": str(self.flavor), "mean": self.mean,
                               "denominator": self.averaging.denominator(self.queries.query, self.queries.raw_value),
                               "counts": self.counts, "warnings": [str(w) for w in self.warnings],
                               "warning_details": [w.to_dict() if hasattr(w, "to_dict") else {"message": str(w)}
                                                   for w in self.warnings]}
        if per_query:
            out["per_query"] = self.per_query()
        return out
