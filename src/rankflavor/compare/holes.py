"""The holes of a run under a flavor, and the grades a fill may give them (compare/fills.py enumerates the fills).

- The rows a flavor reads: the first D of each list, D = `engine.rows_read(flavor)` (the cutoff; every row when the
  flavor condenses its lists, unjudged=skip, or reads facts of the whole list, ideal=local; K under
  ideal=recall(K); at most run_depth), counted by score after the rows the flavor drops (self_docs=drop,
  negative=drop) and in the precision it ranks in; every row scoring at least the D-th score counts in (ties at
  the cutoff). A run cut to those rows has the flavor's values (tests/test_unjudged_fills.py).
- A hole: such a row of a judged query whose doc the qrels do not judge.
- The levels of a query, what a fill may judge a hole: 0 (judged nonrelevant) and G. g is the query's top judged
  grade (at least 1) or the declared grade; G = {g} for a measure that reads relevance as binary (it reads
  rel_level, not the gain axis), else the integers 1..g, g, and the query's distinct positive grades below g.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rankflavor import registry
from rankflavor.engine import rows_read
from rankflavor.errors import UsageError
from rankflavor.flavor import Flavor
from rankflavor.inputs.dataset import Dataset, InternedRun

TOP = "top"
MAX_FILLS = 4096  # a query with more fills is bounded by its measure's range (fills.py)


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


@dataclass(frozen=True)
class HoleKey:
    """What decides a flavor's holes and levels: flavors of one key share their fills (fills.py)."""

    depth: float  # D: rows_read (inf: every row)
    f32: bool  # scores compared in float32 (precision=f32)
    drop_self: bool  # self_docs=drop: a doc whose id is the query's is not read
    drop_negative: bool  # negative=drop: a doc with a negative grade is not read
    binary: bool  # the measure reads relevance as binary: G = {g}
    monotone: bool = False  # it grows with each grade of its rows and reads no judgment beyond them (fill_data.py)

    @classmethod
    def of(cls, flavor: Flavor) -> HoleKey:
        metric = registry.get(flavor.metric)
        monotone = metric.grows_with_grade(flavor) and metric.judgments_read(flavor) == 0
        return cls(rows_read(flavor), flavor.precision == "f32", flavor.self_docs == "drop",
                   flavor.negative == "drop", "rel_level" in metric.reads and "gain" not in metric.reads, monotone)


def unjudged_rows(dataset: Dataset, run: InternedRun) -> np.ndarray:
    """Per row of the run: a doc of a judged query that the qrels do not judge."""
    qrels = dataset.qrels
    key = run.q * max(dataset.n_docs, 1) + run.d
    found = np.zeros(len(key), dtype=bool)
    if len(qrels.key):
        at = np.minimum(np.searchsorted(qrels.key, key), len(qrels.key) - 1)
        found = qrels.key[at] == key
    return ~found & dataset.judged[run.q]


def _not_read(dataset: Dataset, run: InternedRun, key: HoleKey) -> np.ndarray:
    """Per row: dropped before ranking (self_docs=drop: the doc id is the query id; negative=drop: a negative
    grade)."""
    out = np.zeros(run.n_rows, dtype=bool)
    if key.drop_self and run.n_rows and dataset.n_docs:
        out |= run.d == dataset.doc_codes_of(dataset.query_ids.tolist())[run.q]
    if key.drop_negative and len(dataset.qrels.key):
        qrels = dataset.qrels
        wanted = run.q * max(dataset.n_docs, 1) + run.d
        at = np.minimum(np.searchsorted(qrels.key, wanted), len(qrels.key) - 1)
        out |= (qrels.key[at] == wanted) & (qrels.grade[at] < 0)
    return out


def within_depth(dataset: Dataset, run: InternedRun, key: HoleKey) -> tuple[np.ndarray, np.ndarray]:
    """(per row: among the rows the flavor reads, ties at the D-th score in; per row: not dropped)."""
    read = ~_not_read(dataset, run, key)
    if math.isinf(key.depth) or run.n_rows == 0:
        return np.ones(run.n_rows, dtype=bool), read
    score = np.asarray(run.score, dtype=np.float32 if key.f32 else np.float64).astype(np.float64)
    q = run.q
    rows = np.flatnonzero(read)
    order = rows[np.lexsort((-score[rows], q[rows]))]
    ranked_q = q[order]
    starts = np.flatnonzero(np.r_[True, ranked_q[1:] != ranked_q[:-1]]) if len(order) else np.zeros(0, np.int64)
    sizes = np.diff(np.r_[starts, len(order)])
    kth = np.full(dataset.n_queries, -np.inf)  # (a query with no row read: nothing to cut)
    kth[ranked_q[starts]] = score[order[starts + np.minimum(int(key.depth), sizes) - 1]]
    return score >= kth[q], read


def hole_keys(dataset: Dataset, run: InternedRun, key: HoleKey, inside: np.ndarray, read: np.ndarray) -> np.ndarray:
    """The holes' (query, doc) keys, q * n_docs + d, sorted and distinct."""
    rows = unjudged_rows(dataset, run) & inside & read
    return distinct(run.q[rows] * max(dataset.n_docs, 1) + run.d[rows])


def distinct(keys: np.ndarray) -> np.ndarray:
    """The int64 keys sorted, each once (a sort: numpy's hashed unique is several times slower on a run's keys)."""
    keys = np.sort(np.asarray(keys, dtype=np.int64))
    return keys[np.r_[True, keys[1:] != keys[:-1]]] if len(keys) else keys


@dataclass
class Levels:
    """Per query code, its levels: values[start[q]:start[q] + count[q]], ascending, 0 first."""

    start: np.ndarray
    count: np.ndarray
    values: np.ndarray


def within(lengths: np.ndarray) -> np.ndarray:
    """0, 1, ..., n - 1 for each n of `lengths`, concatenated."""
    lengths = np.asarray(lengths, dtype=np.int64)
    total = int(lengths.sum())
    return np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)


def fill_levels(dataset: Dataset, grade: str | float, binary: bool, holes: np.ndarray) -> Levels:
    """Each query's levels (0, then G), for the queries with holes (`holes`: their number per query code). The
    integers 1..g are capped where their count alone makes more than MAX_FILLS fills."""
    qrels, nq = dataset.qrels, dataset.n_queries
    top = np.full(nq, -np.inf)
    np.maximum.at(top, qrels.q, qrels.grade)
    g = np.maximum(top, 1.0) if grade == TOP else np.full(nq, float(grade))
    codes = np.flatnonzero(holes > 0)
    parts_q, parts_v = [codes, codes], [np.zeros(len(codes)), g[codes]]
    if not binary:
        cap = np.floor(MAX_FILLS ** (1.0 / np.maximum(holes[codes], 1))) + 1  # (one more: still too many fills)
        count = np.minimum(np.floor(g[codes]), cap).astype(np.int64)
        parts_q.append(np.repeat(codes, count))
        parts_v.append(within(count) + 1.0)
        below = (qrels.grade > 0) & (qrels.grade < g[qrels.q]) & (holes[qrels.q] > 0)
        parts_q.append(qrels.q[below])
        parts_v.append(qrels.grade[below].astype(np.float64))
    q, v = np.concatenate(parts_q), np.concatenate(parts_v)
    order = np.lexsort((v, q))
    q, v = q[order], v[order]
    keep = np.r_[True, (q[1:] != q[:-1]) | (v[1:] != v[:-1])] if len(q) else np.zeros(0, dtype=bool)
    q, v = q[keep], v[keep]
    count = np.bincount(q, minlength=nq)
    return Levels(np.cumsum(count) - count, count, v)
