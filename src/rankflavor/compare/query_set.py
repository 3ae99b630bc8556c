"""The one query set of a comparison: every mean, difference and test of a comparison is over it.

- `common` (the default): the judged queries every run answers (has at least one row for). A query some run
  lacks is left out of every run's mean and of every pair, whatever the flavor's `missing` axis says.
- `qrels`: every judged query; a query a run lacks counts as its flavor's `missing` says (missing=zero: 0;
  missing=empty, trec_eval -c: its value over an empty ranking). Under missing=skip it would be left out of that
  run's mean only, so the runs' means would be over different queries: refused, with the fix (`--query-set
  common`, or missing=zero).

Under a flavor that leaves a query of the set undefined (empty=skip, a zero ideal), the query is left out for
every run (the flavor's `n` is then smaller than the set). The queries of a comparison are judged queries:
unjudged_queries=zero adds no zero to a comparison's means. Per flavor, the values a mean summarises are the
values tested (`summary_values`): the rounded values under mean_of=rounded, log(max(v, 1e-5)) for a geometric
mean (gm_map, gm_bpref: trec_eval meas_avg.c), so a paired difference has the sign of the means' difference.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from rankflavor import registry
from rankflavor.engine import MIN_GEO_MEAN
from rankflavor.errors import EXIT_USAGE, RankflavorError
from rankflavor.flavor import Flavor
from rankflavor.rounding import round_values

QUERY_SETS = ("common", "qrels")


class QuerySetError(RankflavorError, ValueError):
    """A query set that cannot be used as asked (qrels with missing=skip while a run lacks queries)."""

    exit_code = EXIT_USAGE


@dataclass(frozen=True)
class QuerySet:
    """Which judged queries a comparison is over: `mask` aligned with `Scores.query_ids`."""

    name: str
    mask: np.ndarray
    judged: int  # judged queries
    answered: dict[str, int]  # run -> judged queries it answers

    @property
    def size(self) -> int:
        return int(self.mask.sum())

    @property
    def lacking(self) -> dict[str, int]:
        """run -> judged queries it lacks (only the runs that lack some)."""
        return {run: self.judged - n for run, n in self.answered.items() if n < self.judged}

    def describe(self) -> str:
        """The set and its size, as every caption says it."""
        lacks = "; ".join(f"{run} lacks {n}" for run, n in self.lacking.items())
        if self.name == "common":
            of = f"of {self.judged} judged" + (f": {lacks}" if lacks else "")
            queries = "query every run answers" if self.size == 1 else "queries every run answers"
            return f"over the {self.size} {queries} (query set common, {of})"
        counted = f"; {lacks}, counted as each flavor's missing= says" if lacks else ""
        return f"over all {self.size} judged queries (query set qrels{counted})"

    def warning(self) -> str | None:
        """The runs answer different judged queries: which run lacks how many, and what is compared."""
        if not self.lacking:
            return None
        counts = ", ".join(f"{run} answers {n}" for run, n in self.answered.items())
        return (f"the runs answer different queries ({counts} of the {self.judged} judged); compared "
                f"{self.describe()}")

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "size": self.size, "judged": self.judged, "answered": dict(self.answered),
                "lacking": self.lacking, "description": self.describe()}


def query_set(scores, name: str, flavors: list[Flavor]) -> QuerySet:
    """The query set `name` of the runs of `scores` (compare/scores.py); refuses qrels under missing=skip when
    a run lacks a judged query."""
    if name not in QUERY_SETS:
        raise QuerySetError(f"unknown query set {name!r}; use 'common' or 'qrels'")
    judged = np.flatnonzero(scores.dataset.judged)
    answers = {run: scores.dataset.run(run).present[judged] for run in scores.runs}
    answered = {run: int(a.sum()) for run, a in answers.items()}
    if name == "common":
        mask = np.logical_and.reduce(list(answers.values())) if answers else np.zeros(len(judged), dtype=bool)
    else:
        mask = np.ones(len(judged), dtype=bool)
    qs = QuerySet(name, mask, len(judged), answered)
    skipping = [f for f in flavors if f.missing == "skip"]
    if name == "qrels" and qs.lacking and skipping:
        run, n = next(iter(qs.lacking.items()))
        raise QuerySetError(
            f"the query set qrels counts a query a run lacks as the flavor's missing= says, and "
            f"{skipping[0].short} has missing=skip ({run} lacks {n} of the {len(judged)} judged queries), which "
            "would average each run over its own queries: use --query-set common (Python: query_set='common'), "
            "or missing=zero")
    return qs


def summary_values(flavor: Flavor, raw: np.ndarray) -> np.ndarray:
    """The per-query values a flavor's mean summarises: rounded under mean_of=rounded, log(max(v, 1e-5)) for a
    geometric mean; their paired differences are what a comparison tests."""
    values = raw if flavor.mean_of == "raw" else round_values(raw, flavor.round.decimals)
    if registry.get(flavor.metric).aggregate == "gm":
        with np.errstate(invalid="ignore"):
            values = np.log(np.maximum(values, MIN_GEO_MEAN))
    return values


def set_values(scores, qs: QuerySet, flavor: Flavor) -> dict[str, np.ndarray]:
    """run -> its unrounded values over the flavor's queries of the set (NaN outside: a query out of the set, or
    one some run leaves undefined under this flavor), aligned with `Scores.query_ids`."""
    values = {run: scores.values(run, flavor) for run in scores.runs}
    keep = qs.mask & np.logical_and.reduce([~np.isnan(v) for v in values.values()])
    return {run: np.where(keep, v, np.nan) for run, v in values.items()}


def set_mean(scores, run: str, flavor: Flavor, values: np.ndarray) -> float | None:
    """The run's mean as its flavor takes it (report/averages.py), of `values` (NaN left out), no zeros added
    for unjudged queries."""
    result = scores.result(run, flavor)
    averaging = dataclasses.replace(result.averaging, zero_codes=np.zeros(0, dtype=np.int64))
    return averaging.mean(result.queries.query, values)
