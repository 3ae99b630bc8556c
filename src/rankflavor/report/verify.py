"""verify(): recompute every value from its record alone, with the metric's own check (its reference
formulas, rankflavor.reference), and compare it with the value reported."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from rankflavor import registry
from rankflavor.engine import QueryResults, RecordRows
from rankflavor.flavor import Flavor
from rankflavor.inputs.dataset import Dataset
from rankflavor.reference import reference_mean
from rankflavor.report.numbers import TOLERANCE, plain
from rankflavor.report.records import Record, build_record
from rankflavor.report.result import Result


@dataclass
class Disagreement:
    run: str
    query: str
    flavor: str
    what: str

    def __str__(self) -> str:
        return f"{self.run} / {self.query} / {self.flavor}: {self.what}"


def check_record(record: Record, flavor: Flavor) -> list[str]:
    """What in the record does not add up (an empty list when it all does)."""
    return registry.get(flavor.metric).check_record(record, flavor)


Detail = Callable[[str, Flavor], tuple[QueryResults, RecordRows]]  # (run, flavor) -> the engine's rows behind it


def verify_results(results: Sequence[Result], detail: Detail, dataset: Dataset) -> list[Disagreement]:
    """For every result: each query's record checked (over the whole run's record rows at once when the metric
    can: Metric.check_rows; else record by record), its value compared with the one reported, and the mean
    recomputed from the values (query 'all')."""
    problems: list[Disagreement] = []
    for result in results:
        res, rows = detail(result.run, result.flavor)
        metric = result.metric
        found = metric.check_rows(rows, res, dataset, result.flavor)
        if found is None:
            found = {}
            for code in res.query.tolist():
                record = build_record(dataset, result.run, result.flavor, res, rows, code)
                issues = check_record(record, result.flavor)
                if issues:
                    found[code] = issues
        reported, recorded = result.queries.value, res.value
        same = (reported == recorded) | (np.abs(reported - recorded) <= TOLERANCE) | (np.isnan(reported) & np.isnan(
            recorded))
        for pos in np.flatnonzero(~same).tolist():
            found.setdefault(int(res.query[pos]), []).append(
                f"reported value {plain(reported[pos])} differs from the record's {plain(recorded[pos])}")
        for code in sorted(found, key=lambda c: int(np.flatnonzero(res.query == c)[0])):
            problems += [Disagreement(result.run, str(dataset.query_ids[code]), str(result.flavor), i)
                         for i in found[code]]
        problems += [Disagreement(result.run, "all", str(result.flavor), i) for i in check_mean(result, dataset)]
    return problems


def check_mean(result: Result, dataset: Dataset) -> list[str]:
    """The mean recomputed from the per-query values and the dataset (its run queries with no judgment, its
    weights) with the reference's formula (reference_mean), not from how the result took it."""
    flavor, q = result.flavor, result.queries
    codes = q.query.tolist()
    values: list[float | None] = [None if v != v else float(v) for v in q.raw_value.tolist()]
    if flavor.unjudged_queries == "zero":
        zeros = np.flatnonzero(dataset.run(result.run).present & ~dataset.judged).tolist()
        codes, values = codes + zeros, values + [registry.get(flavor.metric).zero_value] * len(zeros)
    weights = None
    if flavor.weights.name is not None:
        by_code = dataset.weights[flavor.weights.name]
        weights = [float(by_code[c]) for c in codes]
        if any(w != w for w, v in zip(weights, values, strict=True) if v is not None):
            return []  # (a query without a weight: the mean is refused, with its own message)
    if registry.get(flavor.metric).aggregate == "sum":
        kept = [v for v in values if v is not None]
        expected = math.fsum(kept) if kept else None
    else:
        expected = reference_mean(values, weights, flavor.round.decimals, str(flavor.mean_of),
                                  registry.get(flavor.metric).aggregate == "gm",
                                  registry.get(flavor.metric).aggregate == "log_gm")
    reported = result.mean
    if reported is None or expected is None:
        same = reported is None and expected is None
    else:
        same = abs(reported - expected) <= TOLERANCE * max(1.0, abs(expected))
    return [] if same else [f"the mean {reported} differs from the one its values give, {expected}"]
