"""The join of a run's rows with the qrels: each row's row in the sorted qrels keys, or -1 (not judged).

Most rows of a deep run are not judged. A table of slots over the judged (query, doc) pairs answers most rows
at two gathers from small tables, an add and one look-up per row: each query has a window of slots (cache-local,
as a run comes query by query), a doc falls at a hashed offset in it, and a slot holds the qrels row of the one
judgment that falls there (or says none, or several). A row whose slot holds one judgment is judged when that
judgment's doc is its doc (the window is its query's); a row whose slot holds several is looked up by binary
search in the qrels keys, as every row of a small run is. The pass over the rows is one C loop
(engine/_slot_join.c) when that extension is built, numpy's gathers a slice at a time otherwise.
"""

from __future__ import annotations

import os
import threading

import numpy as np

from rankflavor.engine.scope import DatasetScope, RunScope
from rankflavor.inputs.dataset import Codes

FILTER_ROWS = 1 << 17  # fewer rows than this: a binary search is cheaper than building the slots
FILTER_ROWS_BUILT = 1 << 12  # ... than using the slots once built (chunks of a large run reuse them)
FILTER_SLOTS_PER_JUDGMENT = 8  # per query: about 1 row in 8 whose doc is not judged meets a judgment's slot
FILTER_MIN_BITS = 6  # a query's window: at least 2^6 slots
JOIN_SLICE = 1 << 18  # rows per slice of the slots' pass: its temporaries stay in the CPU cache
PARALLEL_ROWS = 1 << 21  # rows from which the compiled pass runs in two halves on two threads
SEVERAL = -1  # a slot where two judgments or more fall (0: none; else the qrels row + 1)


def join_qrels(data: DatasetScope, q: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Row of each (q, d) (int64 dataset codes) in the sorted qrels keys, or -1 when it is not judged."""
    index = np.full(len(q), -1, dtype=np.int64)
    rows, found = _join(data, Codes(q), Codes(d))
    index[rows] = found
    return index


def judged_hits(scope: RunScope) -> tuple[np.ndarray, np.ndarray]:
    """(rows, row in the sorted qrels) of the run's rows whose (query, doc) is in the qrels.

    The run's own small codes go through the join's slots without building every row's dataset code."""
    return _join(scope.data, scope.run.q_codes, scope.run.d_codes)


def qrels_index(scope: RunScope) -> np.ndarray:
    """Per run row (input order), the row of its (query, doc) in the sorted qrels, or -1."""
    rows, found = scope.stage(judged_hits)
    index = np.full(scope.run.n_rows, -1, dtype=np.int64)
    index[rows] = found
    return index


def self_doc_codes(data: DatasetScope) -> np.ndarray:
    """Per query code, the doc code of the doc whose id equals the query id (-1 when there is none)."""
    ds = data.dataset
    if not (ds.n_queries and ds.n_docs):
        return np.full(ds.n_queries, -1, dtype=np.int64)
    return ds.doc_codes_of(ds.query_ids.tolist())


def _join(data: DatasetScope, q: Codes, d: Codes) -> tuple[np.ndarray, np.ndarray]:
    """(rows, qrels rows) of the judged (query, doc) pairs among the rows of q and d."""
    ds = data.dataset
    if len(ds.qrels.key) == 0 or len(q) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if len(q) < (FILTER_ROWS_BUILT if data.has(judged_slots) else FILTER_ROWS):
        rows = np.arange(len(q))
        judged, found = _searched(ds, q, d, rows)
        return rows[judged], found[judged]
    slots, query_base, doc_slot = data.stage(judged_slots)
    q_base = query_base if q.table is None else query_base[q.table]  # per local code
    d_slot = doc_slot if d.table is None else doc_slot[d.table]
    compiled = _compiled_join()
    parts = [slice(start, start + JOIN_SLICE) for start in range(0, len(q), JOIN_SLICE)]  # (temporaries in cache)
    if compiled is None:
        hits = [_slice_hits(ds, q, d, q_base, d_slot, slots, part) for part in parts]
    else:
        hits = _compiled_pass(compiled, ds, q, d, q_base, d_slot, slots, parts)
    rows, found = [], []
    for hit, at, judged in hits:
        several = np.flatnonzero(at < 0)
        if len(several):
            judged[several], at[several] = _searched(ds, q, d, hit[several])
        rows.append(hit[judged])
        found.append(at[judged])
    return np.concatenate(rows), np.concatenate(found).astype(np.int64)


def _compiled_pass(compiled, ds, q: Codes, d: Codes, q_base: np.ndarray, d_slot: np.ndarray, slots: np.ndarray,
                   parts: list[slice]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """`_compiled_hits` of every slice, in order (judged: all but the slots of several); a run of PARALLEL_ROWS
    rows or more in two halves on two threads when there are two cores (the C pass lets go of the GIL)."""
    out: list = [None] * len(parts)

    def work(indexes: range) -> None:
        for i in indexes:
            hit, at = _compiled_hits(compiled, ds, q, d, q_base, d_slot, slots, parts[i])
            out[i] = (hit, at, np.ones(len(hit), dtype=bool))

    if len(q) < PARALLEL_ROWS or len(os.sched_getaffinity(0)) < 2:
        work(range(len(parts)))
        return out
    half, failed = len(parts) // 2, []

    def second() -> None:
        try:
            work(range(half, len(parts)))
        except BaseException as exc:  # (raised again on the calling thread)
            failed.append(exc)

    thread = threading.Thread(target=second, name="join")
    thread.start()
    try:
        work(range(half))
    finally:
        thread.join()
    if failed:
        raise failed[0]
    return out


def _slice_hits(ds, q: Codes, d: Codes, q_base: np.ndarray, d_slot: np.ndarray, slots: np.ndarray,
                part: slice) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, qrels row or SEVERAL - 1, judged) of the rows of `part` whose slot holds a judgment, by numpy."""
    slot = np.take(q_base, q.local[part])  # (np.take: about twice as fast as indexing)
    slot += np.take(d_slot, d.local[part])
    value = np.take(slots, slot)
    hit = np.flatnonzero(value != 0)
    at = np.take(value, hit) - 1  # (the qrels row; SEVERAL: below 0)
    hit += part.start
    return hit, at, np.take(ds.qrels.d, at, mode="clip") == _doc_codes(d, hit)


def _compiled_hits(compiled, ds, q: Codes, d: Codes, q_base: np.ndarray, d_slot: np.ndarray, slots: np.ndarray,
                   part: slice) -> tuple[np.ndarray, np.ndarray]:
    """(rows, qrels row or -1 for a slot of several) of the rows of `part` whose slot holds their judgment or
    several, by engine/_slot_join.c (one pass, no temporaries)."""
    q_local, d_local = q.local[part], d.local[part]
    rows, at = np.empty(len(q_local), dtype=np.int64), np.empty(len(q_local), dtype=np.int64)
    k = compiled.slot_hits(q_local, d_local, q_base, d_slot, slots, ds.qrels.d, d.table, part.start, rows, at)
    return rows[:k], at[:k]


def _compiled_join():
    """engine/_slot_join.c's module, or None when it is not built or RANKFLAVOR_PURE_PYTHON=1 asks for numpy."""
    from rankflavor.environment import compiled_module

    return compiled_module("rankflavor.engine._slot_join")


def _doc_codes(d: Codes, rows: np.ndarray) -> np.ndarray:
    """The dataset codes of these rows (Codes.at, by np.take)."""
    local = np.take(d.local, rows)
    return local if d.table is None else np.take(d.table, local)


def _searched(ds, q: Codes, d: Codes, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(judged, row in the sorted qrels keys) of each of `rows`, by binary search in the keys."""
    keys = ds.qrels.key
    run_key = q.at(rows) * max(ds.n_docs, 1) + d.at(rows)
    found_at = np.minimum(np.searchsorted(keys, run_key), len(keys) - 1)
    return keys[found_at] == run_key, found_at


def judged_slots(data: DatasetScope) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(slots, first slot of every query code, slot offset of every doc code).

    Each query owns a window of W slots (a power of two, about FILTER_SLOTS_PER_JUDGMENT per judgment of
    an average query); a doc falls at a hashed offset in it. A slot holds 0 when no judgment falls there,
    the qrels row + 1 of the one that does, or SEVERAL. Rows come query by query, so the look-ups of one
    query stay in its window (in the cache)."""
    ds = data.dataset
    per_query = len(ds.qrels.key) / max(int(ds.judged.sum()), 1)
    width = 1 << min(20, max(FILTER_MIN_BITS, int(per_query * FILTER_SLOTS_PER_JUDGMENT).bit_length()))
    kind = np.int32 if ds.n_queries * width < 1 << 31 and len(ds.qrels.key) < (1 << 31) - 1 else np.int64
    query_base = np.arange(ds.n_queries, dtype=kind) * kind(width)
    doc_slot = (_mix(np.arange(max(ds.n_docs, 1), dtype=np.uint32)) & np.uint32(width - 1)).astype(kind)
    at = query_base[ds.qrels.q] + doc_slot[ds.qrels.d]
    slots = np.zeros(ds.n_queries * width, dtype=kind)
    rows = np.arange(1, len(at) + 1, dtype=kind)
    slots[at] = rows  # (where several fall, one of them is left: the others find another there)
    slots[at[slots[at] != rows]] = SEVERAL
    return slots, query_base, doc_slot


def _mix(x: np.ndarray) -> np.ndarray:
    """A 32-bit integer hash (the finaliser of MurmurHash3, Appleby 2011): neighbouring codes spread."""
    x = x ^ (x >> np.uint32(16))
    x *= np.uint32(0x85EBCA6B)
    x ^= x >> np.uint32(13)
    x *= np.uint32(0xC2B2AE35)
    return x ^ (x >> np.uint32(16))
