"""Partial aggregates -> one run x flavor's mean, counts and warnings (run on the executors by applyInArrow, one
group per run and flavor, a few rows per slice).

Sums are merged exactly (`Aggregate.merge`: Shewchuk's partials), so a mean is correctly rounded whatever the
partitioning; the local Report's mean is numpy's pairwise mean of the same values, equal to it within an ulp
or two. The warnings are composed by report/warnings.py from the merged counts and means.
"""

from __future__ import annotations

import pyarrow as pa

from rankflavor.engine import Aggregate
from rankflavor.flavor import Flavor
from rankflavor.metrics import registry
from rankflavor.report.warnings import WarningNumbers, compose_warnings
from rankflavor.spark.partitions import Plan

AGGREGATES = pa.schema([("run", pa.string()), ("flavor_index", pa.int32()), ("label", pa.string()),
                        ("flavor", pa.string()), ("mean", pa.float64()), ("n", pa.int64()),
                        ("counts", pa.map_(pa.string(), pa.int64())), ("undefined_status", pa.string()),
                        ("warnings", pa.list_(pa.string()))])
BASE_COUNTS = ("judged_queries", "scored", "excluded", "{undefined}", "missing", "unjudged_queries",
               "ties_across_cutoff", "unjudged_in_top")


def merge_group(table: pa.Table, plan: Plan) -> pa.Table:
    """applyInArrow's function: the group's partial rows (one run, one flavor) -> its aggregate row."""
    run = table.column("run")[0].as_py()
    index = int(table.column("flavor_index")[0].as_py())
    flavor = Flavor.parse(plan.specs[index])
    counts: dict[str, int] = {}
    means: dict[str, Aggregate | None] = {}
    for key, n, partials, logs in zip(*(table.column(c).to_pylist() for c in ("key", "n", "partials", "log_partials")),
                                      strict=True):
        kind, name = key.split(":", 1)
        if kind == "count":
            counts[name] = counts.get(name, 0) + n
        elif n < 0 or (name in means and means[name] is None):
            means[name] = None  # (refused in a slice: refused for the run)
        else:
            part = Aggregate(n, partials, logs)
            means[name] = part if name not in means else means[name].merge(part)  # type: ignore[union-attr]
    mean, n, counts, warnings = summarise(flavor, counts, means)
    undefined = registry.get(flavor.metric).undefined_status
    return pa.Table.from_pylist([{"run": run, "flavor_index": index, "label": plan.labels[index],
                                  "flavor": plan.specs[index], "mean": mean, "n": n, "counts": list(counts.items()),
                                  "undefined_status": undefined, "warnings": warnings}], schema=AGGREGATES)


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
              ) -> tuple[float | None, int, dict[str, int], list[str]]:
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
    warnings = [str(w) for w in compose_warnings(ordered, flavor, numbers)]
    return mean, 0 if main is None else main.count, ordered, warnings
