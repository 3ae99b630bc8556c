"""The synthetic dataset of the fills (compare/fills.py evaluates it): one query per (query, fill), built with
numpy over every fill of a chunk at once.

A synthetic query carries its query's judgments completed with the fill (each hole judged at the fill's level),
sorted by doc as the engine needs them: where each judgment and each hole sits among its query's completed
judgments is the same for every fill, so it is found once (`Fills.judged_at`, `hole_at`) and every fill's rows
are set there. The judgments carried are every judgment of the query, or, when every flavor evaluated reads at
most m of a query's judgments beyond its ranked rows (`Metric.judgments_read`: NDCG@k's global ideal, k), those of
the docs the runs' rows read and the m highest grades of the others. A measure that grows with each grade of its
rows and reads no judgment beyond them (P, RR, DCG: `Metric.grows_with_grade`) takes its least and greatest
value at every hole at 0 and every hole at the top grade: of a run, two fills; of a pair's a - b, a hole of one
run's rows alone at an end (a's at the top and b's at 0 on the high side, the reverse on the low side) and the
holes of both enumerated. The runs' rows are those the flavors read
(holes.py within_depth), in input order. A synthetic query keeps its query's id (ties=random(seed) and
self_docs=drop read it), the doc dictionary and the weights are the dataset's; under ideal=max (the top grade
of the whole qrels) one more query, which no run answers, carries a judgment of every grade of the qrels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rankflavor.compare.holes import MAX_FILLS, HoleKey, Levels, distinct, fill_levels, hole_keys, within, within_depth
from rankflavor.inputs.dataset import Dataset, InternedQrels, InternedRun
from rankflavor.plain_records import replace


@dataclass
class Fills:
    """The fills of one hole key over a dataset: the holes (sorted by query, doc), each query's levels, the
    judgments carried and where each judgment and each hole sits among its query's completed judgments, and
    each run's rows read, sorted by query (input order kept)."""

    hole_d: np.ndarray
    holes: np.ndarray  # per query code: H
    hole_start: np.ndarray  # per query code: its first hole
    hole_at: np.ndarray  # per hole: its position among its query's judgments completed
    hole_digit: np.ndarray  # per hole: its digit in the fill's number among its query's free holes (-1: fixed)
    hole_side: np.ndarray  # per hole: 0 free; +1 at the top on the fills' high side, 0 on the low; -1 the reverse
    free: np.ndarray  # per query code: its free holes
    judged: InternedQrels  # the judgments carried
    judged_at: np.ndarray  # per judgment carried: its position among its query's judgments completed
    levels: Levels
    count: np.ndarray  # per query code: L^H (float: inf when huge)
    rows: list[np.ndarray]  # per run: its rows read, by query
    row_start: list[np.ndarray]  # per run, per query code: where its rows start in `rows`
    row_count: list[np.ndarray]

    @property
    def judged_rows(self) -> np.ndarray:
        """Per query code: its judgments carried."""
        return np.bincount(self.judged.q, minlength=len(self.holes))


@dataclass
class Cut:
    """One run under one hole key: its holes' (query, doc) keys, its rows read sorted by query (input order kept),
    and where each query's start and how many they are."""

    holes: np.ndarray
    rows: np.ndarray
    start: np.ndarray
    count: np.ndarray

    @classmethod
    def of(cls, dataset: Dataset, run: InternedRun, key: HoleKey) -> Cut:
        inside, read = within_depth(dataset, run, key)
        kept = np.flatnonzero(inside)
        kept = kept[np.argsort(run.q[kept], kind="stable")]
        count = np.bincount(run.q[kept], minlength=dataset.n_queries)
        return cls(hole_keys(dataset, run, key, inside, read), kept, np.cumsum(count) - count, count)


def fills_of(dataset: Dataset, runs: list[InternedRun], key: HoleKey, grade: str | float,
             judgments_read: float = math.inf, cuts: dict | None = None) -> Fills:
    """The fills of the runs' holes under `key`, g from `grade`; `judgments_read`: how many judgments beyond the
    rows read the flavors read (Metric.judgments_read; inf: all); `cuts`: each (run, key)'s Cut, kept across calls
    on one dataset (a run in several pairs is cut once)."""
    n_docs, nq = max(dataset.n_docs, 1), dataset.n_queries
    cuts = {} if cuts is None else cuts
    for run in runs:
        if (run, key) not in cuts:
            cuts[(run, key)] = Cut.of(dataset, run, key)
    mine = [cuts[(run, key)] for run in runs]
    keys, rows = [c.holes for c in mine], [c.rows for c in mine]
    starts, counts = [c.start for c in mine], [c.count for c in mine]
    many = np.zeros(nq, dtype=bool) if key.monotone else _too_many(dataset, keys, key, grade)
    if many.any():  # (their holes need not be merged)
        keys = [k[~many[k // n_docs]] for k in keys]
    judged = carried(dataset, [run.q[r] * n_docs + run.d[r] for run, r in zip(runs, rows, strict=True)],
                     judgments_read)
    union = distinct(np.concatenate(keys))
    hole_q = union // n_docs
    holes = np.bincount(hole_q, minlength=nq)
    hole_start = np.cumsum(holes) - holes
    side = _sides(union, keys) if key.monotone else np.zeros(len(union), dtype=np.int64)
    excluded = np.cumsum(side == 0) - (side == 0)
    digit = np.where(side == 0, excluded - excluded[hole_start[hole_q]] if len(union) else excluded, -1)
    free = np.bincount(hole_q[side == 0], minlength=nq)
    judged_rows = np.bincount(judged.q, minlength=nq)
    judged_start = np.cumsum(judged_rows) - judged_rows
    hole_at = (np.arange(len(union)) - hole_start[hole_q]) + (np.searchsorted(judged.key, union) - judged_start[hole_q])
    judged_at = (np.arange(len(judged.q)) - judged_start[judged.q]) + (np.searchsorted(union, judged.key)
                                                                        - hole_start[judged.q])
    levels = fill_levels(dataset, grade, key.binary, holes)
    with np.errstate(over="ignore"):
        count = np.power(np.maximum(levels.count, 1).astype(np.float64), free)
    count *= np.where(holes > free, 2, 1)  # (fixed holes: their low side and their high side)
    count[many] = np.inf
    return Fills(union % n_docs, holes, hole_start, hole_at, digit, side, free, judged, judged_at, levels, count,
                 rows, starts, counts)


def _too_many(dataset: Dataset, keys: list[np.ndarray], key: HoleKey, grade: str | float) -> np.ndarray:
    """Per query code: more than MAX_FILLS fills, one run's holes alone making them."""
    n_docs, nq = max(dataset.n_docs, 1), dataset.n_queries
    most = np.maximum.reduce([np.bincount(k // n_docs, minlength=nq) for k in keys])
    levels = fill_levels(dataset, grade, key.binary, most)
    with np.errstate(over="ignore"):
        return np.power(np.maximum(levels.count, 1).astype(np.float64), most) > MAX_FILLS


def _sides(union: np.ndarray, keys: list[np.ndarray]) -> np.ndarray:
    """Per hole of a measure that grows with each grade of its rows and reads no judgment beyond them: +1 when
    only the first run's rows hold it (its value, a - b, grows with it: the top on the high side), -1 when only the
    second's, 0 (free: enumerated) when both's. One run: every hole +1, two fills (all 0, all top) per query."""
    def held(mine: np.ndarray) -> np.ndarray:
        at = np.minimum(np.searchsorted(mine, union), max(len(mine) - 1, 0))
        return (mine[at] == union) if len(mine) else np.zeros(len(union), dtype=bool)

    if len(keys) == 1:
        return np.ones(len(union), dtype=np.int64)
    in_a, in_b = held(keys[0]), held(keys[1])
    return np.where(in_a & in_b, 0, np.where(in_a, 1, -1)).astype(np.int64)


def carried(dataset: Dataset, read: list[np.ndarray], judgments_read: float) -> InternedQrels:
    """The judgments a synthetic query carries: all (judgments_read inf), else those of the docs read (`read`:
    (query, doc) keys of the runs' rows read) and each query's `judgments_read` highest grades of the others."""
    qrels = dataset.qrels
    if math.isinf(judgments_read) or not len(qrels.key):
        return qrels
    keys = distinct(np.concatenate(read)) if read else np.zeros(0, dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, qrels.key), max(len(keys) - 1, 0))
    keep = (keys[at] == qrels.key) if len(keys) else np.zeros(len(qrels.key), dtype=bool)
    others = np.flatnonzero(~keep)
    others = others[np.lexsort((-qrels.grade[others], qrels.q[others]))]
    first = np.r_[True, qrels.q[others][1:] != qrels.q[others][:-1]] if len(others) else np.zeros(0, dtype=bool)
    start = np.maximum.accumulate(np.where(first, np.arange(len(others)), 0)) if len(others) else others
    keep[others[np.arange(len(others)) - start < judgments_read]] = True
    return InternedQrels(qrels.table, qrels.q[keep], qrels.d[keep], qrels.grade[keep], qrels.key[keep],
                        qrels.positions()[keep])


def ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """start, start + 1, ..., start + n - 1 for each (start, n), concatenated."""
    return np.repeat(np.asarray(starts, dtype=np.int64), lengths) + within(lengths)


def _levels(fills: Fills, holes: np.ndarray, count: np.ndarray, free: np.ndarray, fill: np.ndarray) -> np.ndarray:
    """Each hole's level (an index into its query's levels) under its fill: the fill's number f < 2 L^S read as a
    side (f // L^S: 0 low, 1 high) and S digits base L, one per free hole; a fixed hole at 0 or at the top level by
    its side."""
    digit, side = fills.hole_digit[holes], fills.hole_side[holes]
    base = count ** free
    high = fill // base
    top = count - 1
    level = (fill % base // count ** np.maximum(digit, 0)) % count
    return np.where(side > 0, top * high, np.where(side < 0, top * (1 - high), level))


def _judgments(dataset: Dataset, fills: Fills, made: np.ndarray, fill: np.ndarray, whole_qrels: bool,
               ) -> InternedQrels:
    """The judgments of the synthetic queries (code s: query made[s] under its fill fill[s]), sorted by (s, doc):
    each query's judgments carried and its holes at the fill's levels, set where its completed judgments sort
    them."""
    judged, n_docs = fills.judged, max(dataset.n_docs, 1)
    synthetic = np.arange(len(made))
    judged_rows = fills.judged_rows[made]
    width = judged_rows + fills.holes[made]
    offset = np.cumsum(width) - width
    d, grade = np.empty(int(width.sum()), dtype=np.int64), np.empty(int(width.sum()), dtype=np.float64)
    base = ranges(np.searchsorted(judged.q, made), judged_rows)
    at = np.repeat(offset, judged_rows) + fills.judged_at[base]
    d[at], grade[at] = judged.d[base], judged.grade[base]
    holes = ranges(fills.hole_start[made], fills.holes[made])
    hole_s = np.repeat(synthetic, fills.holes[made])
    lv, of = fills.levels, made[hole_s]
    at = offset[hole_s] + fills.hole_at[holes]
    level = _levels(fills, holes, lv.count[of], fills.free[of], fill[hole_s])
    d[at], grade[at] = fills.hole_d[holes], lv.values[lv.start[of] + level]
    s = np.repeat(synthetic, width)
    qrels = dataset.qrels
    if whole_qrels and len(qrels.grade):  # (one more query: a judgment of each grade of the qrels)
        grades, first = np.unique(qrels.grade, return_index=True)
        order = np.argsort(qrels.d[first], kind="stable")
        s = np.r_[s, np.full(len(grades), len(made))]
        d, grade = np.r_[d, qrels.d[first][order]], np.r_[grade, grades[order].astype(np.float64)]
    return InternedQrels(qrels.table, s, d, grade, s * n_docs + d)


def synthetic_dataset(dataset: Dataset, runs: list[InternedRun], fills: Fills, uq: np.ndarray, first: np.ndarray,
                      n: np.ndarray, whole_qrels: bool) -> tuple[Dataset, np.ndarray]:
    """The dataset of one chunk: a query per (query uq[i], fill first[i] + j, j < n[i]), its judgments completed
    with the fill, and the runs' rows read of its query; returns it with each synthetic query's query code."""
    made = np.repeat(uq, n)  # synthetic code s -> its query code
    qrels = _judgments(dataset, fills, made, np.repeat(first, n) + within(n), whole_qrels)
    n_queries = len(made) + int(whole_qrels and len(dataset.qrels.grade) > 0)
    source = np.r_[made, made[-1:]][:n_queries]  # (the carrier takes the last query's id: the ids stay sorted)
    present_pad = np.zeros(n_queries - len(made), dtype=bool)
    synthetic_runs = []
    for run, rows, start, count in zip(runs, fills.rows, fills.row_start, fills.row_count, strict=True):
        at = rows[ranges(start[made], count[made])]
        q = np.repeat(np.arange(len(made)), count[made])
        synthetic_runs.append(InternedRun.of_codes(run.table, run.name, q, run.d[at], run.score[at],
                                                   np.r_[run.present[made], present_pad]))
    weights = {name: w[source] for name, w in dataset.weights.items()}
    synthetic = replace(dataset, query_ids=dataset.query_ids[source], qrels=qrels, runs=synthetic_runs,
                        judged=np.ones(n_queries, dtype=bool), weights=weights, subtopics=None)
    for name in ("doc_ids", "_doc_ranks"):  # (the doc dictionary's, made once)
        if name in dataset.__dict__:
            synthetic.__dict__[name] = dataset.__dict__[name]
    return synthetic, made
