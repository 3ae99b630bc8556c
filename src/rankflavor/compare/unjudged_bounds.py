"""Bounds for what was not judged: each mean and each difference with the lowest and highest value any judgment
of the unjudged documents could give it (issue 37).

- The holes of a run under a flavor, for a judged query: the docs it retrieves that the qrels do not judge, among
  the rows the flavor reads (holes.py: the cutoff; every row when the flavor condenses its lists, unjudged=skip,
  or reads the whole list, ideal=local; K under ideal=recall(K); at most run_depth; ties at the cutoff in).
- A fill judges every hole: grade 0 (judged nonrelevant: it then counts as judged, in bpref's N and in the lists
  of unjudged=skip) or a grade of G. g is each query's top judged grade (at least 1) or the declared grade; G =
  {g} for a measure that reads relevance as binary, else the integers 1..g and the query's positive grades below
  g. The flavor is evaluated as declared, through the engine's front door, on the qrels completed with the fill.
- A run's interval (`eval --unjudged-bounds`, and each mean of `compare`'s): per query, the least and greatest
  value over every fill of the run's holes. A pair's (`compare`): per query, the least and greatest a_q - b_q
  (compare's summary values: the logs of a geometric mean) over every fill of the union of both runs' holes,
  both runs under the same fill: a doc judged relevant for one is relevant for the other. Queries are
  independent, so the ends of a mean are the per-query ends averaged as the flavor averages, over the queries the
  mean averages (compare: its query set, query_set.py set_values).
- A query with at most MAX_FILLS (4096) fills is enumerated exactly (fills.py); one with more is bounded by its
  measure's range where the family declares one valid for the flavor (AP, P, RR, bpref, recall: [0, 1]; NDCG
  with no negative gain), else unbounded (-inf, +inf: the difference cannot be robust). Each row counts both. A
  measure that grows with each grade of its rows and reads no other judgment (P, RR, DCG) needs only its extreme
  fills: all holes at 0 and all at the top grade for a run; for a pair, the holes of one run alone at an end and
  the holes of both enumerated (fill_data.py).

A pair is `robust` to the holes when its difference's interval excludes 0 on the side of its winner, `not
robust` when it holds 0, `tie` or `none` when the comparison has no winner. (The value under the judgments as
they are need not lie inside: a fill judges every hole, which unjudged=skip or bpref read otherwise.)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from rankflavor import registry
from rankflavor.compare.fills import Ends, query_ends
from rankflavor.compare.holes import MAX_FILLS, TOP, parse_grade
from rankflavor.compare.query_set import QuerySet, set_mean, set_values, summary_values
from rankflavor.compare.scores import Scores
from rankflavor.errors import UsageError
from rankflavor.flavor import Flavor
from rankflavor.plural import counted

__all__ = ["MAX_FILLS", "TOP", "Bounds", "Interval", "MeanBounds", "add_unjudged_bounds", "describe",
           "parse_grade", "range_notes", "report_bounds", "robustness", "unjudged_bounds"]

ROBUST, NOT_ROBUST = "robust", "not robust"


@dataclass(frozen=True)
class Interval:
    """The lowest and highest mean (or difference) over the fills (nan: unknown), and how many of the queries
    averaged were enumerated exactly and how many bounded by their measure's range."""

    low: float
    high: float
    exact: int
    by_range: int


class MeanBounds(NamedTuple):
    """One result of `eval --unjudged-bounds`."""

    label: str
    run: str
    flavor: Flavor
    mean: float | None
    low: float | None
    high: float | None
    exact: int
    by_range: int


@dataclass
class Bounds:
    """Per (run, flavor canonical string) each mean's Interval, per (run a, run b, flavor) each difference's."""

    means: dict[tuple[str, str], Interval]
    pairs: dict[tuple[str, str, str], Interval]
    grade: str | float

    def difference(self, run_a: str, run_b: str, flavor: str) -> tuple[float, float]:
        interval = self.pairs[(run_a, run_b, flavor)]
        return interval.low, interval.high


def _nan(x: float | None) -> float:
    return float("nan") if x is None else float(x)


def masked(ends: Ends, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, int]:
    """The ends of the queries a mean averages (those with a value, `raw` not nan) and the counts of those
    enumerated and bounded by the measure's range: what a local report and a Spark slice average."""
    keep = ~np.isnan(raw)
    return (np.where(keep, ends.low, np.nan), np.where(keep, ends.high, np.nan), *_counts(keep, ends))


def unjudged_bounds(scores: Scores, qs: QuerySet, flavors: list[Flavor], grade: str | float = TOP,
                    pairs: list[tuple[str, str]] | None = None) -> Bounds:
    """Each run's interval under each flavor, and each pair's (`pairs`, default every pair of runs), over the
    flavor's compared queries (`set_values`)."""
    grade = parse_grade(grade)
    scores.evaluate_all(flavors)
    keep = [~np.isnan(set_values(scores, qs, f)[scores.runs[0]]) for f in flavors]
    wanted = np.logical_or.reduce(keep) if keep else None
    ds, cuts = scores.dataset, {}  # (each run's rows read and holes: cut once for its pairs)
    means: dict[tuple[str, str], Interval] = {}
    for run in scores.runs:
        for f, k, ends in zip(flavors, keep, query_ends(ds, [ds.run(run)], flavors, grade, wanted=wanted, cuts=cuts),
                              strict=True):
            low, high = (set_mean(scores, run, f, np.where(k, end, np.nan)) for end in (ends.low, ends.high))
            means[(run, str(f))] = Interval(_nan(low), _nan(high), *_counts(k, ends))
    differences: dict[tuple[str, str, str], Interval] = {}
    for a, b in (pairs if pairs is not None else itertools.combinations(scores.runs, 2)):
        for f, k, ends in zip(flavors, keep, query_ends(ds, [ds.run(a), ds.run(b)], flavors, grade, summary_values,
                                                         wanted, cuts), strict=True):
            low, high = (float(end[k].mean()) if k.any() else float("nan") for end in (ends.low, ends.high))
            differences[(a, b, str(f))] = Interval(low, high, *_counts(k, ends))
    return Bounds(means, differences, grade)


def _counts(keep: np.ndarray, ends: Ends) -> tuple[int, int]:
    """(queries kept whose ends are enumerated, those bounded by the measure's range)."""
    return int((keep & ~ends.by_range).sum()), int((keep & ends.by_range).sum())


def robustness(low: float, high: float, winner: str, run_a: str, run_b: str) -> str:
    """`robust` when the difference's interval over the fills excludes 0 on the winner's side, else `not robust`;
    the winner itself (`tie`, `none`) when there is none."""
    if winner not in (run_a, run_b):
        return winner
    if low != low or high != high:
        return "unknown"
    return ROBUST if (low > 0 if winner == run_a else high < 0) else NOT_ROBUST


def describe(grade: str | float, pairs: bool = True) -> str:
    """How the bounds were made, as every output says it (`pairs`: with the sentence on differences)."""
    at = "each query's top judged grade (at least 1)" if grade == TOP else f"{grade:g}"
    text = (f"lowest and highest over the fills: a fill judges every hole (a retrieved doc the qrels do not judge, "
            "among the rows the flavor reads: its cutoff, every row under unjudged=skip or ideal=local, K under "
            "ideal=recall(K), ties at the cutoff in) at grade 0 (judged nonrelevant) or a grade of G, g = "
            f"{at}: G = {{g}} for a measure of binary relevance, else the integers 1..g and the query's positive "
            "grades below g; the flavor is evaluated as declared on the qrels completed with the fill; per query the "
            "least and greatest value over every fill of the run's holes (a measure that grows with each grade of its "
            "rows and reads no other judgment, as P, RR, DCG: at its extreme fills), averaged as the flavor averages; "
            f"a query with more than {MAX_FILLS} fills is bounded by its measure's range (unbounded without one)")
    if pairs:
        text += ("; a difference's interval: per query the least and greatest a - b over every fill of both runs' "
                 "holes, both runs under the same fill, averaged over the compared queries; robust to unjudged: the "
                 "interval excludes 0 on the winner's side")
    return text


def range_notes(rows: list[tuple[str, Flavor, int]]) -> list[str]:
    """One line per (who, flavor, queries bounded by the range) with some: `ap A vs B: 2 queries have more than
    4096 fills: bounded by the measure's range [0, 1]`."""
    lines = []
    for who, flavor, n in rows:
        if n:
            declared = registry.get(flavor.metric).value_range(flavor)
            bound = ("unbounded (the measure declares no range)" if declared is None else
                     f"bounded by the measure's range [{declared[0]:g}, {declared[1]:g}]")
            lines.append(f"{who}: {counted(n, 'query has', 'queries have')} more than {MAX_FILLS} fills: {bound}")
    return lines


def add_unjudged_bounds(cmp, grade: str | float = TOP) -> Bounds:
    """Add the bounds to a `Comparison` (compare/comparison.py): `mean_low`, `mean_high`, `unjudged_exact`,
    `unjudged_by_range` to its means; `unjudged_low`, `unjudged_high`, `unjudged_verdict` (`robustness`),
    `unjudged_exact`, `unjudged_by_range` to its pairs; how they were made to its settings. Returns the `Bounds`."""
    if cmp.scores is None or cmp.query_set is None:
        raise UsageError("the unjudged bounds need the comparison's scores (a comparison made by compare())")
    pairs = list(dict.fromkeys(zip(cmp.pairs["run_a"], cmp.pairs["run_b"], strict=True)))
    bounds = unjudged_bounds(cmp.scores, cmp.query_set, cmp.flavors, grade, pairs)
    ends = [bounds.means[(r.run, r.flavor)] for r in cmp.means.itertuples()]
    cmp.means["mean_low"] = [e.low for e in ends]
    cmp.means["mean_high"] = [e.high for e in ends]
    cmp.means["unjudged_exact"] = [e.exact for e in ends]
    cmp.means["unjudged_by_range"] = [e.by_range for e in ends]
    intervals = [bounds.pairs[(r.run_a, r.run_b, r.flavor)] for r in cmp.pairs.itertuples()]
    cmp.pairs["unjudged_low"] = [i.low for i in intervals]
    cmp.pairs["unjudged_high"] = [i.high for i in intervals]
    cmp.pairs["unjudged_verdict"] = [robustness(i.low, i.high, r.winner, r.run_a, r.run_b)
                                     for i, r in zip(intervals, cmp.pairs.itertuples(), strict=True)]
    cmp.pairs["unjudged_exact"] = [i.exact for i in intervals]
    cmp.pairs["unjudged_by_range"] = [i.by_range for i in intervals]
    notes = range_notes([(f"{r.label} {r.run_a} vs {r.run_b}", cmp.flavor(r.flavor), i.by_range)
                         for i, r in zip(intervals, cmp.pairs.itertuples(), strict=True)]
                        + [(f"{r.label} {r.run}", cmp.flavor(r.flavor), e.by_range)
                           for e, r in zip(ends, cmp.means.itertuples(), strict=True)])
    cmp.settings["unjudged_bounds"] = {"grade": bounds.grade, "max_fills": MAX_FILLS,
                                       "description": describe(bounds.grade), "by_range": notes}
    return bounds


def report_bounds(report, grade: str | float = TOP) -> list[MeanBounds]:
    """Every result of a `Report` (rankflavor.evaluate) with its interval over the fills, each over the queries its
    mean averages, averaged as its flavor averages (`Result.mean_with`); a report that made its bounds as it was
    evaluated (`eval --engine spark --unjudged-bounds`: spark/report.py) gives its own."""
    made = getattr(report, "unjudged_bounds", None)
    if made is not None:
        return made(grade)
    grade = parse_grade(grade)
    by_run: dict[str, list] = {}
    for result in report.results:
        by_run.setdefault(result.run, []).append(result)
    found = {}
    for run, results in by_run.items():
        flavors = list(dict.fromkeys(r.flavor for r in results))
        ends = dict(zip(flavors, query_ends(report.dataset, [report.dataset.run(run)], flavors, grade), strict=True))
        for result in results:
            low, high, exact, by_range = masked(ends[result.flavor], result.queries.raw_value)
            found[id(result)] = MeanBounds(result.label, run, result.flavor, result.mean, result.mean_with(low),
                                           result.mean_with(high), exact, by_range)
    return [found[id(result)] for result in report.results]
