"""Every way to judge the holes, evaluated: per query, the ends of a run's value, or of a pair's difference, over
the fills of their holes. compare/unjudged_bounds.py reads them for `eval` and `compare`, spark/partitions.py for
each slice of whole queries: one function (`query_ends`), so that the slices merge to the local numbers.

A fill judges every hole of a query (holes.py) at one of its levels: 0 or a grade of G. A query's fills number
L^H (L levels, H holes: of the run, or the union of both runs' for a pair, both evaluated under the same fill).
When they are at most MAX_FILLS, each fill becomes a query of one synthetic Dataset (fill_data.py): the query's
judgments completed with the fill, and the rows of the run(s) cut to those the flavors read (holes.py
within_depth: the values are those of the whole run). The flavors of one HoleKey are evaluated through the
engine's front door, one call per run, a chunk of fills at a time (about ROW_BUDGET rows of judgments and runs);
each query's ends are the least and the greatest value over its fills (fills where a query has no value are
passed over). A query with more fills is not enumerated: its ends are its measure's range (Metric.value_range)
where the family declares one for the flavor, else -inf and +inf.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from rankflavor import registry
from rankflavor.compare.fill_data import Fills, fills_of, synthetic_dataset
from rankflavor.compare.holes import MAX_FILLS, HoleKey, within
from rankflavor.engine import Engine
from rankflavor.errors import UsageError
from rankflavor.flavor import Flavor
from rankflavor.inputs.dataset import Dataset, InternedRun
from rankflavor.inputs.subtopics import reads_subtopics

ROW_BUDGET = 1 << 18  # rows of judgments and runs per synthetic dataset (a chunk holds at most about twice that)
WORKERS = min(2, len(os.sched_getaffinity(0)))  # chunks evaluated at once
Transform = Callable[[Flavor, np.ndarray], np.ndarray]


@dataclass
class Ends:
    """Per judged query of the dataset (its `judged` codes in order): the least and the greatest value over the
    fills (nan: a query not asked for, or with no value under any fill), and whether they are the measure's
    range (more than MAX_FILLS fills) rather than enumerated."""

    low: np.ndarray
    high: np.ndarray
    by_range: np.ndarray


def query_ends(dataset: Dataset, runs: Sequence[InternedRun], flavors: Sequence[Flavor], grade: str | float,
               transform: Transform | None = None, wanted: np.ndarray | None = None,
               cuts: dict | None = None) -> list[Ends]:
    """Each flavor's `Ends` of one run's value (one run), or of a pair's difference transform(a) - transform(b)
    under the same fills of the union of their holes (two runs; transform: compare's summary values, else the
    values). wanted: bool per judged query, the queries to bound (default: all). cuts: a dict kept across the
    calls on one dataset (each run's rows read and holes, fill_data.Cut, made once)."""
    _refuse(flavors)
    judged = np.flatnonzero(dataset.judged)
    todo = dataset.judged.copy()
    if wanted is not None:
        todo[judged[~np.asarray(wanted, dtype=bool)]] = False
    groups: dict[HoleKey, list[int]] = {}
    for i, flavor in enumerate(flavors):
        groups.setdefault(HoleKey.of(flavor), []).append(i)
    out: list[Ends] = [None] * len(flavors)  # type: ignore[list-item]
    for key, members in groups.items():
        chosen = [flavors[i] for i in members]
        found = _group_ends(dataset, list(runs), chosen, key, grade, transform, todo, cuts)
        for i, ends in zip(members, found, strict=True):
            out[i] = Ends(ends.low[judged], ends.high[judged], ends.by_range[judged])
    return out


def _refuse(flavors: Sequence[Flavor]) -> None:
    """A diversity measure (a fill would judge each subtopic of a hole) and a measure whose value reads other
    queries' judgments (ranx_bpref: the queries are not independent) have no bounds."""
    for f in flavors:
        if reads_subtopics([f.metric]):
            raise UsageError(f"the unjudged bounds do not apply to {f.short}: a fill would have to judge each "
                             "subtopic of a hole; leave the diversity measures out of --unjudged-bounds")
        if getattr(registry.get(f.metric), "across_queries", False):
            raise UsageError(f"the unjudged bounds do not apply to {f.short}: its value reads other queries' "
                             "judgments, so the fills of the queries are not independent")


def _group_ends(dataset: Dataset, runs: list[InternedRun], flavors: list[Flavor], key: HoleKey, grade: str | float,
                transform: Transform | None, todo: np.ndarray, cuts: dict | None) -> list[Ends]:
    """The Ends of the flavors of one hole key, per query code."""
    fills = fills_of(dataset, runs, key, grade, max(registry.get(f.metric).judgments_read(f) for f in flavors), cuts)
    listed = todo & (fills.count <= MAX_FILLS)
    by_range = todo & ~listed
    _refuse_grades_above_the_top(dataset, flavors, fills, listed)
    nq = dataset.n_queries
    low, high = np.full((len(flavors), nq), np.nan), np.full((len(flavors), nq), np.nan)
    cost = fills.judged_rows + fills.holes + sum(fills.row_count)

    def evaluate(chunk: tuple[np.ndarray, ...]) -> list[list[np.ndarray]]:
        synthetic, made = synthetic_dataset(dataset, runs, fills, *chunk, _whole_qrels(flavors))
        engine = Engine(synthetic)
        return [[e.results.raw_value[: len(made)] for e in engine.evaluate(run, flavors)] for run in synthetic.runs]

    chunks = _chunks(np.flatnonzero(listed), np.where(listed, fills.count, 0).astype(np.int64), cost)
    for (uq, _, n), values in _in_threads(evaluate, chunks):
        starts = np.cumsum(n) - n
        for i, flavor in enumerate(flavors):
            v = values[0][i] if len(runs) == 1 else _difference(transform, flavor, values[0][i], values[1][i])
            np.fmin.at(low[i], uq, np.fmin.reduceat(v, starts))
            np.fmax.at(high[i], uq, np.fmax.reduceat(v, starts))
    out = []
    for i, flavor in enumerate(flavors):
        lo, hi = _range(flavor, len(runs), transform)
        low[i][by_range], high[i][by_range] = lo, hi
        out.append(Ends(low[i], high[i], by_range))
    return out


def _in_threads(evaluate: Callable, chunks: Iterator[tuple[np.ndarray, ...]]) -> Iterator[tuple[tuple, Any]]:
    """(chunk, evaluate(chunk)) in order, WORKERS chunks evaluated at once (numpy's loops let go of the GIL), at
    most WORKERS ahead of the one being read, so that so many chunks are alive at once."""
    with ThreadPoolExecutor(WORKERS, thread_name_prefix="rankflavor-fills") as pool:
        pending: list[tuple[tuple, Future]] = []
        for chunk in chunks:
            pending.append((chunk, pool.submit(evaluate, chunk)))
            if len(pending) >= WORKERS:
                done, future = pending.pop(0)
                yield done, future.result()
        for done, future in pending:
            yield done, future.result()


def _difference(transform: Transform | None, flavor: Flavor, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return a - b if transform is None else transform(flavor, a) - transform(flavor, b)


def _range(flavor: Flavor, n_runs: int, transform: Transform | None) -> tuple[float, float]:
    """The ends of a query that is not enumerated: the measure's range, or of a difference of two such values."""
    declared = registry.get(flavor.metric).value_range(flavor)
    lo, hi = declared if declared is not None else (-np.inf, np.inf)
    if n_runs == 1:
        return float(lo), float(hi)
    ends = np.array([lo, hi], dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        t_lo, t_hi = ends if transform is None else transform(flavor, ends)
    return float(t_lo - t_hi), float(t_hi - t_lo)


def _whole_qrels(flavors: list[Flavor]) -> bool:
    """A flavor reads a fact of the whole qrels (ideal=max: its top grade), which the synthetic dataset carries."""
    return any(f.ideal.kind == "max" for f in flavors)


def _refuse_grades_above_the_top(dataset: Dataset, flavors: list[Flavor], fills: Fills, listed: np.ndarray) -> None:
    """Under ideal=max, a fill above the qrels' top grade would raise every query's ideal: the queries' fills would
    not be independent."""
    if not _whole_qrels(flavors) or not listed.any() or not len(dataset.qrels.grade):
        return
    top, lv = float(dataset.qrels.grade.max()), fills.levels
    filled = np.flatnonzero(listed & (fills.holes > 0))
    highest = float(lv.values[lv.start[filled] + lv.count[filled] - 1].max(initial=0.0))  # (levels ascend)
    if highest > top:
        flavor = next(f for f in flavors if f.ideal.kind == "max")
        raise UsageError(f"{flavor.short}: ideal=max reads the top grade of the whole qrels ({top:g}), which a fill "
                         f"at grade {highest:g} would raise for every query; give --unjudged-bounds a grade of at "
                         f"most {top:g}")


def _chunks(queries: np.ndarray, count: np.ndarray, cost: np.ndarray) -> Iterator[tuple[np.ndarray, ...]]:
    """(query, first fill, number of fills) of each piece of a chunk: a query's fills cut into pieces of about
    ROW_BUDGET rows, the pieces grouped in order, a chunk starting where the rows before reach a multiple of it."""
    if not len(queries):
        return
    per_piece = np.maximum(1, ROW_BUDGET // np.maximum(cost[queries], 1))
    pieces = -(-count[queries] // per_piece)
    uq = np.repeat(queries, pieces)
    first = within(pieces) * np.repeat(per_piece, pieces)
    n = np.minimum(np.repeat(per_piece, pieces), count[uq] - first)
    rows = n * cost[uq]
    chunk = (np.cumsum(rows) - rows) // ROW_BUDGET
    cuts = np.flatnonzero(np.r_[True, chunk[1:] != chunk[:-1], True])
    for start, stop in itertools.pairwise(cuts.tolist()):
        yield uq[start:stop], first[start:stop], n[start:stop]
