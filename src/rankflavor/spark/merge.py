"""Partial aggregates -> each run x flavor's mean, counts and warnings, on the driver.

The executors emit a few partial rows per slice, run and flavor (partitions.py); the driver collects only
those (slices x runs x flavors x ~12 rows, never a row per query) and merges them here. Sums are merged
exactly (`Aggregate.merge`: Shewchuk's partials), so a mean is correctly rounded whatever the partitioning;
the local Report's mean is numpy's pairwise mean of the same values, equal to it within an ulp or two. The
warnings are composed by report/warnings.py from the merged counts and means. A weighted mean (weights=NAME)
is the exact sum of w*v over the exact sum of w, refused by Averaging's own refusal (report/averages.py
refuse_unweighted: an averaged query with no weight, a total weight <= 0). No pyspark here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rankflavor import registry
from rankflavor.engine import Aggregate
from rankflavor.errors import EvaluationError
from rankflavor.flavor import Flavor
from rankflavor.report.averages import refuse_unweighted
from rankflavor.report.warnings import FlavorWarning, WarningNumbers, compose_warnings
from rankflavor.spark.partitions import BOUNDS_BY_RANGE, BOUNDS_EXACT, Partial, Plan

AGGREGATES_DDL = ("run string, flavor_index int, label string, flavor string, mean double, n bigint, "
                  "counts map<string,bigint>, undefined_status string, warnings array<string>, "
                  "warning_details string")  # (JSON: each warning's code, message and numbers)
BASE_COUNTS = ("judged_queries", "scored", "excluded", "{undefined}", "missing", "unjudged_queries",
               "ties_across_cutoff", "unjudged_in_top")


@dataclass
class Weighing:
    """A weighted mean's merged weights: their exact sum over the queries averaged, how many averaged queries
    have none, and the first of those (sort key: (a zero of unjudged_queries=zero, query id))."""

    name: str
    total: Aggregate = field(default_factory=Aggregate)  # count: the averaged queries with no weight
    unweighted: list[tuple[int, str]] = field(default_factory=list)


def merge_partials(rows: Iterable[Mapping[str, Any]], plan: Plan) -> list[dict[str, Any]]:
    """The collected partial rows (PARTIAL_COLUMNS) -> one aggregate row per run and flavor (AGGREGATES_DDL's
    columns), in the order of plan.runs then plan.specs."""
    groups: dict[tuple[str, int], list[Partial]] = {}
    for row in rows:
        groups.setdefault((row["run"], int(row["flavor_index"])), []).append(Partial.from_row(row))
    return [merge_group(run, index, groups.get((run, index), []), plan)
            for run in plan.runs for index in range(len(plan.specs))]


def merge_group(run: str, index: int, partials: list[Partial], plan: Plan) -> dict[str, Any]:
    """One run x flavor's partials -> its aggregate row."""
    flavor = Flavor.parse(plan.specs[index])
    counts: dict[str, int] = {}
    means: dict[str, Aggregate | None] = {}
    weighings: dict[str, Weighing] = {}
    for part in partials:
        if part.kind == "count":
            counts[part.name] = counts.get(part.name, 0) + part.n
        elif part.kind in ("weight", "noweight"):
            weighing = weighings.setdefault(part.name, Weighing(str(flavor.weights.name)))
            if part.kind == "weight":
                weighing.total = weighing.total.merge(Aggregate(part.n, list(part.partials)))
            else:
                weighing.unweighted.append((part.n, str(part.query)))
        elif part.n < 0 or (part.name in means and means[part.name] is None):
            means[part.name] = None  # (refused in a slice: refused for the run)
        else:
            merged = Aggregate(part.n, list(part.partials), list(part.log_partials))
            means[part.name] = merged if part.name not in means else means[part.name].merge(merged)  # type: ignore[union-attr]
    bounded = (counts.pop(BOUNDS_EXACT, 0), counts.pop(BOUNDS_BY_RANGE, 0))  # (not `aggregates` counts)
    mean, n, counts, warnings = summarise(flavor, counts, means, weighings)
    undefined = registry.get(flavor.metric).undefined_status
    out = {"run": run, "flavor_index": index, "label": plan.labels[index], "flavor": plan.specs[index],
           "mean": mean, "n": n, "counts": counts, "undefined_status": undefined,
           "warnings": [str(w) for w in warnings], "warning_details": [w.to_dict() for w in warnings]}
    if plan.bounds_grade is not None:  # (--unjudged-bounds: the lowest and highest mean over the fills and the queries
        # enumerated and bounded by their measure's range; not an `aggregates` column)
        out["bounds"] = (*(variant_mean(flavor, means, weighings, end) for end in ("bound_low", "bound_high")), *bounded)
    if flavor.weights.name is not None:  # (the denominator's total weight; not an `aggregates` column)
        main = weighings.get("main")
        out["total_weight"] = main.total.total if main is not None and n else 0.0
    return out


def mean_of(flavor: Flavor, aggregate: Aggregate | None, weighing: Weighing | None = None) -> float | None:
    """The flavor's mean from merged partials (report/averages.py Averaging.mean); weighted when `weighing`
    is given (the partials then hold w*v and w*log): an EvaluationError where Averaging raises one."""
    if aggregate is None or aggregate.count == 0:
        return None
    kind = registry.get(flavor.metric).aggregate
    shown = [] if weighing is None else [query for _, query in sorted(weighing.unweighted)[:5]]
    if kind == "sum":  # (a sum ignores the weights, but every query summed needs one, as the local denominator says)
        if weighing is not None:
            refuse_unweighted(weighing.name, weighing.total.count, shown)
        mean = aggregate.total
    elif weighing is not None:
        total = weighing.total.total
        refuse_unweighted(weighing.name, weighing.total.count, shown, aggregate.count, total)
        sums = aggregate.log_partials if kind == "gm" else aggregate.partials
        mean = math.fsum(sums) / total
        mean = math.exp(mean) if kind in ("gm", "log_gm") else mean
    elif kind == "gm":
        mean = aggregate.geometric_mean()
    elif kind == "log_gm":  # (the values are the logs)
        mean = math.exp(aggregate.total / aggregate.count)
    else:
        mean = aggregate.mean()
    decimals = flavor.round.decimals
    assert mean is not None
    return mean if flavor.mean_of == "rounded" or decimals is None else round(mean, decimals)


def variant_mean(flavor: Flavor, means: dict[str, Aggregate | None], weighings: dict[str, Weighing] | None, name: str,
                 needed: bool = True) -> float | None:
    """The mean of a variant (main, skip, bound_low, ...): raises where the local report does (needed), else None
    when refused."""
    weighed = flavor.weights.name is not None
    weighing = (weighings or {}).get(name, Weighing(str(flavor.weights.name))) if weighed else None
    try:
        return mean_of(flavor, means.get(name), weighing)
    except EvaluationError:
        if needed:
            raise
        return None


def summarise(flavor: Flavor, counts: dict[str, int], means: dict[str, Aggregate | None],
              weighings: dict[str, Weighing] | None = None,
              ) -> tuple[float | None, int, dict[str, int], list[FlavorWarning]]:
    """(mean, n averaged, counts in Result.counts' order, warnings) of one run x flavor. Weighted, the means
    are refused where the local report refuses them: the mean and the alternative means of the warnings the
    counts call for (without_undefined, other_missing) raise; the tie range's and unjudged=skip's are None."""
    undefined = registry.get(flavor.metric).undefined_status
    order = [name.format(undefined=undefined) for name in BASE_COUNTS]
    ordered = {name: counts.get(name, 0) for name in order}
    ordered.update({name: value for name, value in counts.items()
                    if name not in ordered and name != "unjudged_queries_in_top"})

    def variant(name: str, needed: bool = True) -> float | None:
        return variant_mean(flavor, means, weighings, name, needed)

    metric = registry.get(flavor.metric)
    mean = variant("main")
    shares = means.get("judged_share")
    numbers = WarningNumbers(
        mean=mean,
        tie_range=(variant("pessimistic", False), variant("optimistic", False)),
        skip=(variant("skip", False),) if "skip" in means else None,
        unjudged_queries_in_top=counts.get("unjudged_queries_in_top", 0),
        judged_at_k=None if shares is None or shares.count == 0 else shares.mean(),
        without_undefined=variant("without_undefined", bool(ordered[undefined]) and "empty" in metric.reads),
        other_missing=variant("other_missing", bool(ordered["missing"])))
    main = means.get("main")
    warnings = list(compose_warnings(ordered, flavor, numbers))
    return mean, 0 if main is None else main.count, ordered, warnings
