"""Bounds for what was not judged: each mean and each difference with an interval of judgments.

For a run and a flavor, the low end is the value with every unjudged retrieved document nonrelevant (the
flavor under unjudged=zero: grade 0), the high end the value with every unjudged document the run retrieves
within the flavor's cutoff relevant, at a grade g: the query's top judged grade (at least 1), or a declared
grade. The high end is the same flavor evaluated by the engine's front door on the qrels completed with those
documents at grade g, so the ideal list and the number of relevant documents grow with them, as if the assessors
had judged them relevant (Zobel, "How reliable are the results of large-scale IR experiments?", SIGIR 1998;
Buckley & Voorhees, "Retrieval evaluation with incomplete information", SIGIR 2004, bound the effect of the
holes the same way). Documents below the cutoff are left out of the high end: a measure @k never reads them,
and counting them relevant would only raise its ideal. (A document tied at the cutoff's score is counted in.)

A pair's difference a - b lies in [low_a - high_b, high_a - low_b] (each run's two ends in order: a normalised
measure's high end can be the lower one, its ideal growing with the holes), each run's holes filled apart (a document
both runs left unjudged is relevant for one end and not for the other, so the interval is conservative); the
pair is `robust` to the holes when that interval excludes 0 on the side of the winner, `not robust` when it
holds 0, `tie` or `none` when the comparison has no winner.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from rankflavor.compare.query_set import QuerySet, set_mean, set_values
from rankflavor.compare.scores import Scores
from rankflavor.engine import Engine
from rankflavor.errors import UsageError
from rankflavor.flavor import Flavor
from rankflavor.inputs.intern import Dataset, InternedQrels, InternedRun

TOP = "top"
ROBUST, NOT_ROBUST = "robust", "not robust"


def parse_grade(text: str | float | None) -> str | float:
    """`top` (the query's top judged grade, at least 1) or a grade above 0."""
    if text is None or text == TOP:
        return TOP
    try:
        grade = float(text)
    except (TypeError, ValueError):
        grade = float("nan")
    if not grade > 0 or grade == float("inf"):
        raise UsageError(f"unjudged grade {text!r}: give 'top' (each query's top judged grade) or a grade above 0, "
                         "e.g. 1")
    return grade


def top_rows(run: InternedRun, depth: int | None) -> np.ndarray:
    """Per row of the run: among its query's first `depth` by score (every row scoring at least the depth-th
    score, so a tie at the cutoff counts in); every row when depth is None."""
    if depth is None or run.n_rows == 0:
        return np.ones(run.n_rows, dtype=bool)
    q, score = run.q, np.asarray(run.score, dtype=np.float64)
    block = np.r_[True, q[1:] != q[:-1]]
    one_block_per_query = len(np.unique(q[block])) == int(block.sum())
    if one_block_per_query and bool(((score[1:] <= score[:-1]) | block[1:]).all()):
        order = None  # (a run as TREC files usually are: each query's rows together, by score descending)
    else:
        order = np.lexsort((-score, q))
        q, score = q[order], score[order]
        block = np.r_[True, q[1:] != q[:-1]]
    starts = np.flatnonzero(block)
    sizes = np.diff(np.r_[starts, len(q)])
    kth = score[starts + np.minimum(depth, sizes) - 1]  # per query: its depth-th score
    inside = score >= np.repeat(kth, sizes)
    if order is None:
        return inside
    out = np.empty(len(inside), dtype=bool)
    out[order] = inside
    return out


def holes(dataset: Dataset, run: InternedRun) -> np.ndarray:
    """Per row of the run: a doc of a judged query that the qrels do not judge."""
    qrels = dataset.qrels
    key = run.q * max(dataset.n_docs, 1) + run.d
    found = np.zeros(len(key), dtype=bool)
    if len(qrels.key):
        at = np.minimum(np.searchsorted(qrels.key, key), len(qrels.key) - 1)
        found = qrels.key[at] == key
    return ~found & dataset.judged[run.q]


def filled_dataset(dataset: Dataset, run: InternedRun, depth: int | None, grade: str | float,
                   unjudged: np.ndarray | None = None) -> Dataset:
    """The dataset whose qrels also judge, at `grade`, every doc the run retrieves (within `depth`) for a judged
    query that the qrels leave unjudged (`unjudged`: the run's `holes`, when already known). The dictionaries and
    the run are the dataset's own."""
    qrels = dataset.qrels
    n_docs = max(dataset.n_docs, 1)
    rows = (holes(dataset, run) if unjudged is None else unjudged) & top_rows(run, depth)
    new_key = np.sort(run.q[rows] * n_docs + run.d[rows])
    new_key = new_key[np.r_[True, new_key[1:] != new_key[:-1]]] if len(new_key) else new_key  # (a run's duplicates)
    new_q, new_d = new_key // n_docs, new_key % n_docs
    if grade == TOP:
        top = np.full(dataset.n_queries, -np.inf)
        np.maximum.at(top, qrels.q, qrels.grade)
        new_grade = np.maximum(top[new_q], 1.0)
    else:
        new_grade = np.full(len(new_key), float(grade))
    all_key = np.concatenate([qrels.key, new_key])
    order = np.argsort(all_key, kind="stable")
    filled = InternedQrels(qrels.table, np.concatenate([qrels.q, new_q])[order],
                           np.concatenate([qrels.d, new_d])[order],
                           np.concatenate([qrels.grade, new_grade])[order], all_key[order],
                           np.concatenate([qrels.positions(), len(qrels.key) + np.arange(len(new_key))])[order])
    return replace(dataset, qrels=filled, runs=[run])


@dataclass
class Bounds:
    """Per (run, flavor canonical string): the run's (low, high) mean over the compared queries."""

    means: dict[tuple[str, str], tuple[float | None, float | None]]
    grade: str | float

    def difference(self, run_a: str, run_b: str, flavor: str) -> tuple[float, float]:
        """[low_a - high_b, high_a - low_b], each run's ends in order (a normalised measure's high end can fall
        below its low end: the holes raise its ideal too); NaN when a mean is unknown."""
        ends_a, ends_b = self.means[(run_a, flavor)], self.means[(run_b, flavor)]
        if None in (*ends_a, *ends_b):
            return float("nan"), float("nan")
        (lo_a, hi_a), (lo_b, hi_b) = sorted(ends_a), sorted(ends_b)  # type: ignore[type-var]
        return lo_a - hi_b, hi_a - lo_b


def unjudged_bounds(scores: Scores, qs: QuerySet, flavors: list[Flavor], grade: str | float = TOP) -> Bounds:
    """Each run's low and high mean under each flavor, over the flavor's compared queries (`set_values`)."""
    grade = parse_grade(grade)
    lows = {f: f.with_(unjudged="zero") for f in flavors}
    scores.evaluate_all(list(dict.fromkeys([*flavors, *lows.values()])))
    means: dict[tuple[str, str], tuple[float | None, float | None]] = {}
    by_depth: dict[int | None, list[Flavor]] = {}
    for f in flavors:
        by_depth.setdefault(f.cutoff, []).append(f)
    for run in scores.runs:
        interned = scores.dataset.run(run)
        unjudged = holes(scores.dataset, interned)
        for depth, group in by_depth.items():
            engine = Engine(filled_dataset(scores.dataset, interned, depth, grade, unjudged))
            highs = engine.evaluate(interned, [lows[f] for f in group])
            for f, evaluation in zip(group, highs, strict=True):
                keep = ~np.isnan(set_values(scores, qs, f)[run])
                low = set_mean(scores, run, lows[f], np.where(keep, scores.values(run, lows[f]), np.nan))
                high = set_mean(scores, run, lows[f], np.where(keep, evaluation.results.raw_value, np.nan))
                means[(run, str(f))] = (low, high)
    return Bounds(means, grade)


def robustness(low: float, high: float, winner: str, run_a: str, run_b: str) -> str:
    """`robust` when the difference's interval of judgments excludes 0 on the winner's side, else `not robust`;
    the winner itself (`tie`, `none`) when there is none."""
    if winner not in (run_a, run_b):
        return winner
    if low != low or high != high:
        return "unknown"
    return ROBUST if (low > 0 if winner == run_a else high < 0) else NOT_ROBUST


def describe(grade: str | float) -> str:
    """How the bounds were made, as every output says it."""
    at = "the query's top judged grade (at least 1)" if grade == TOP else f"grade {grade:g}"
    return (f"unjudged nonrelevant (low): every unjudged retrieved doc nonrelevant (unjudged=zero); unjudged "
            f"relevant (high): every unjudged doc the run retrieves within the flavor's cutoff relevant at {at}, the "
            "qrels completed with them (a normalised measure such as NDCG can be lower there: its ideal grows with "
            "them); a difference's interval [low_a - high_b, high_a - low_b] takes each run's ends in order and "
            "fills each run's holes apart (conservative)")


def add_unjudged_bounds(cmp, grade: str | float = TOP) -> Bounds:
    """Add the bounds to a `Comparison` (compare/comparison.py): `mean_low`, `mean_high` to its means,
    `unjudged_low`, `unjudged_high` and `unjudged_verdict` (`robustness`) to its pairs, and how they were made
    to its settings. Returns the `Bounds`."""
    if cmp.scores is None or cmp.query_set is None:
        raise UsageError("the unjudged bounds need the comparison's scores (a comparison made by compare())")
    bounds = unjudged_bounds(cmp.scores, cmp.query_set, cmp.flavors, grade)
    ends = [bounds.means[(r.run, r.flavor)] for r in cmp.means.itertuples()]
    cmp.means["mean_low"] = [np.nan if lo is None else lo for lo, _ in ends]
    cmp.means["mean_high"] = [np.nan if hi is None else hi for _, hi in ends]
    intervals = [bounds.difference(r.run_a, r.run_b, r.flavor) for r in cmp.pairs.itertuples()]
    cmp.pairs["unjudged_low"] = [lo for lo, _ in intervals]
    cmp.pairs["unjudged_high"] = [hi for _, hi in intervals]
    cmp.pairs["unjudged_verdict"] = [robustness(lo, hi, r.winner, r.run_a, r.run_b)
                                     for (lo, hi), r in zip(intervals, cmp.pairs.itertuples(), strict=True)]
    cmp.settings["unjudged_bounds"] = {"grade": bounds.grade, "description": describe(bounds.grade)}
    return bounds


def report_bounds(report, grade: str | float = TOP) -> list[tuple[str, str, float | None, float | None, float | None]]:
    """(label, run, mean, low, high) of every result of a `Report` (rankflavor.evaluate), each over the run's own
    queries and averaged as its flavor averages (`Result.mean_with`); a report that made its bounds as it was
    evaluated (`eval --engine spark --unjudged-bounds`: spark/report.py) gives its own."""
    made = getattr(report, "unjudged_bounds", None)
    if made is not None:
        return made(grade)
    grade = parse_grade(grade)
    out = []
    engines: dict[tuple[str, int | None], Engine] = {}
    for result in report.results:
        low_flavor = result.flavor.with_(unjudged="zero")
        run = report.dataset.run(result.run)
        low_raw = (result.queries.raw_value if low_flavor == result.flavor else
                   report.engine.evaluate(run, [low_flavor])[0].results.raw_value)
        key = (result.run, result.flavor.cutoff)
        if key not in engines:
            engines[key] = Engine(filled_dataset(report.dataset, run, result.flavor.cutoff, grade))
        high_raw = engines[key].evaluate(run, [low_flavor])[0].results.raw_value
        out.append((result.label, result.run, result.mean, result.mean_with(low_raw), result.mean_with(high_raw)))
    return out
