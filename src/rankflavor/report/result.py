"""One run under one flavor: per-query values, the mean, counts, warnings.

`ResultView` is what every engine's result offers (the local `Result`, spark/report.py's `SparkResult`) and
`ReportView` what every engine's report offers: what the CLI's renderers (cli/render.py, trec_output.py)
read. `means_frame`, `query_frame` and `results_dict` are their tables, the same for both engines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from rankflavor import registry
from rankflavor.engine import MISSING, ZERO_IDEAL, QueryResults
from rankflavor.escape import visible
from rankflavor.flavor import Flavor
from rankflavor.report.averages import Averaging
from rankflavor.report.numbers import plain


@runtime_checkable
class ResultView(Protocol):
    """One run x flavor as the renderers read it, whichever engine evaluated it."""

    run: str
    flavor: Flavor
    labels: list[str]  # the names the user gave the flavor
    warnings: list[Any]  # FlavorWarning (local) or its text (Spark): str(w) is the message

    @property
    def label(self) -> str: ...

    @property
    def metric(self) -> Any: ...  # rankflavor.engine.metric.Metric

    @property
    def mean(self) -> float | None: ...

    @property
    def counts(self) -> dict[str, int]: ...

    @property
    def parts(self) -> list[str]: ...  # the names of the per-query parts (ndcg: dcg, idcg)

    def denominator(self) -> dict[str, Any]: ...  # averages.describe_denominator

    def per_query(self) -> list[dict[str, Any]]: ...  # query, value, <parts>, status per judged query

    def to_dict(self, per_query: bool = False) -> dict[str, Any]: ...


@runtime_checkable
class ReportView(Protocol):
    """Every run x flavor of one evaluation, with its provenance, as the renderers read it."""

    provenance: dict[str, Any]

    @property
    def results(self) -> Sequence[ResultView]: ...

    def to_dict(self, per_query: bool = False) -> dict[str, Any]: ...

    def to_frame(self) -> Any: ...

    def means_frame(self) -> Any: ...


class FlavorNames:
    """What a result view derives from its flavor and labels alone (Result, SavedResult, spark's SparkResult)."""

    flavor: Flavor
    labels: list[str]

    @property
    def label(self) -> str:
        """The name the user gave the flavor (the spec as written, or its short form)."""
        return self.labels[0]

    @property
    def metric(self) -> Any:
        """The flavor's metric (rankflavor.engine.metric.Metric)."""
        return registry.get(self.flavor.metric)


@dataclass
class Result(FlavorNames):
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
        return visible(f"<Result {self.run} {self.label}: mean {mean} over {self.counts['scored']} scored queries; "
                f"{len(self.warnings)} warnings; flavor {self.flavor}>")

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

    @property
    def parts(self) -> list[str]:
        """The names of the metric's per-query parts (ndcg: dcg, idcg)."""
        return list(self.queries.parts)

    def denominator(self) -> dict[str, Any]:
        """What the mean averaged and what it left out (report/averages.py)."""
        return self.averaging.denominator(self.queries.query, self.queries.raw_value)

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
                               "denominator": self.denominator(),
                               "counts": self.counts, "warnings": [str(w) for w in self.warnings],
                               "warning_details": [w.to_dict() if hasattr(w, "to_dict") else {"message": str(w)}
                                                   for w in self.warnings]}
        if per_query:
            out["per_query"] = self.per_query()
        return out


FORMAT_VERSION = 1  # the shape of a report's JSON (report/saved.py reads it back): raised when the shape changes


def results_dict(provenance: dict[str, Any], results: Sequence[ResultView], per_query: bool = False) -> dict[str, Any]:
    """A report as JSON reads it: rankflavor's version, the format's, the provenance, each result's dict."""
    from rankflavor.version import __version__

    return {"version": __version__, "format_version": FORMAT_VERSION, "provenance": provenance,
            "results": [r.to_dict(per_query) for r in results]}


def query_frame(results: Sequence[ResultView]) -> Any:
    """Tidy pandas DataFrame: one row per run x flavor x judged query (the metric's parts as columns)."""
    import pandas as pd

    parts = list(dict.fromkeys(name for r in results for name in r.parts))
    rows = [{"run": r.run, "label": r.label, "flavor": str(r.flavor), **row} for r in results for row in r.per_query()]
    return pd.DataFrame(rows, columns=["run", "label", "flavor", "query", "value", *parts, "status"])


def means_frame(results: Sequence[ResultView]) -> Any:
    """pandas DataFrame: one row per run x flavor: the mean, n (the queries it averages), the counts and the
    warnings (joined by ' | ')."""
    import pandas as pd

    rows = []
    for r in results:
        counts = r.counts
        undefined = r.metric.undefined_status
        rows.append({"run": r.run, "label": r.label, "flavor": str(r.flavor), "mean": r.mean,
                     "n": r.denominator()["queries"], **{k: v for k, v in counts.items() if k != undefined},
                     "undefined": counts[undefined], "undefined_status": undefined,
                     "warnings": " | ".join(str(w) for w in r.warnings)})
    return pd.DataFrame(rows)
