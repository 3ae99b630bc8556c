"""Partial aggregates -> each run x flavor's mean, counts and warnings, on the driver.

The executors emit a few partial rows per slice, run and flavor (partitions.py); the driver collects only
those (slices x runs x flavors x ~12 rows, never a row per query) and merges them here. Sums are merged
exactly (`Aggregate.merge`: Shewchuk's partials), so a mean is correctly rounded whatever the partitioning;
the local Report's mean is numpy's pairwise mean of the same values, equal to it within an ulp or two. The
warnings are composed by report/warnings.py from the merged counts and means. No pyspark here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rankflavor.engine import Aggregate
from rankflavor.flavor import Flavor
from rankflavor.metrics import registry
from rankflavor.report.warnings import FlavorWarning, WarningNumbers, compose_warnings
from rankflavor.spark.partitions import Plan

PARTIAL_COLUMNS = ("run", "flavor_index", "key", "n", "partials", "log_partials")
AGGREGATES_DDL = ("run string, flavor_index int, label string, flavor string, mean double, n bigint, "
                  "counts map<string,bigint>, undefined_status string, warnings array<string>, "
                  "warning_details string")  # (JSON: each warning's code, message and numbers)
BASE_COUNTS = ("judged_queries", "scored", "excluded", "{undefined}", "missing", "unjudged_queries",
               "ties_across_cutoff", "unjudged_in_top")


def merge_partials(rows: Iterable[Mapping[str, Any]], plan: Plan) -> list[dict[str, Any]]:
    """The collected partial rows (PARTIAL_COLUMNS) -> one aggregate row per run and flavor (AGGREGATES_DDL's
    columns), in the order of plan.runs then plan.specs."""
    groups: dict[tuple[str, int], list[Mapping[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["run"], int(row["flavor_index"])), []).append(row)
    return [merge_group(run, index, groups.get((run, index), []), plan)
            for run in plan.runs for index in range(len(plan.specs))]


def merge_group(run: str, index: int, rows: list[Mapping[str, Any]], plan: Plan) -> dict[str, Any]:
    """One run x flavor's partial rows -> its aggregate row."""
    flavor = Flavor.parse(plan.specs[index])
    counts: dict[str, int] = {}
    means: dict[str, Aggregate | None] = {}
    for row in rows:
        kind, name = row["key"].split(":", 1)
        n = int(row["n"])
        if kind == "count":
            counts[name] = counts.get(name, 0) + n
        elif n < 0 or (name in means and means[name] is None):
            means[name] = None  # (refused in a slice: refused for the run)
        else:
            part = Aggregate(n, list(row["partials"] or []), list(row["log_partials"] or []))
            means[name] = part if name not in means else means[name].merge(part)  # type: ignore[union-attr]
    mean, n, counts, warnings = summarise(flavor, counts, means)
    undefined = registry.get(flavor.metric).undefined_status
    return {"run": run, "flavor_index": index, "label": plan.labels[index], "flavor": plan.specs[index],
            "mean": mean, "n": n, "counts": counts, "undefined_status": undefined,
            "warnings": [str(w) for w in warnings], "warning_details": [w.to_dict() for w in warnings]}


def mean_of(flavor: Flavor, aggregate: Aggregate | None) -> float | None:
    """The flavor's mean from merged partials (report/averages.py Averaging.mean, without weights)."""
    if aggregate is None or aggregate.count == 0:
        return None
    kind = registry.get(flavor.metric).aggregate
    if kind == "sum":
        mean = aggregate.total
    elif kind == "gm":
        mean = aggregate.geometric_mean()
    else:
        mean = aggregate.mean()
    decimals = flavor.round.decimals
    assert mean is not None
    return mean if flavor.mean_of == "rounded" or decimals is None else round(mean, decimals)


def summarise(flavor: Flavor, counts: dict[str, int], means: dict[str, Aggregate | None],
              ) -> tuple[float | None, int, dict[str, int], list[FlavorWarning]]:
    """(mean, n averaged, counts in Result.counts' order, warnings) of one run x flavor."""
    undefined = registry.get(flavor.metric).undefined_status
    order = [name.format(undefined=undefined) for name in BASE_COUNTS]
    ordered = {name: counts.get(name, 0) for name in order}
    ordered.update({name: value for name, value in counts.items()
                    if name not in ordered and name != "unjudged_queries_in_top"})
    mean = mean_of(flavor, means.get("main"))
    shares = means.get("judged_share")
    numbers = WarningNumbers(
        mean=mean,
        tie_range=(mean_of(flavor, means.get("pessimistic")), mean_of(flavor, means.get("optimistic"))),
        skip=(mean_of(flavor, means.get("skip")),) if "skip" in means else None,
        unjudged_queries_in_top=counts.get("unjudged_queries_in_top", 0),
        judged_at_k=None if shares is None or shares.count == 0 else shares.mean(),
        without_undefined=mean_of(flavor, means.get("without_undefined")),
        other_missing=mean_of(flavor, means.get("other_missing")))
    main = means.get("main")
    warnings = list(compose_warnings(ordered, flavor, numbers))
    return mean, 0 if main is None else main.count, ordered, warnings
