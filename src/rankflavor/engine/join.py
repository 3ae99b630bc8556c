"""The join of a run's rows with the qrels: each row's row in the sorted qrels keys, or -1 (not judged).

Most rows of a deep run are not judged. A filter over the judged (query, doc) pairs lets every judged row
through and a few others, at two gathers from small tables, an add and one look-up per row; only those
rows are looked up by binary search in the qrels keys, which decides. The filter gives each query a
window of slots (cache-local, as a run comes query by query); a doc falls at a hashed offset in it.
"""

from __future__ import annotations

import numpy as np

from rankflavor.engine.scope import DatasetScope, RunScope
from rankflavor.inputs.dataset import Codes

FILTER_ROWS = 1 << 17  # fewer rows than this: a binary search is cheaper than building the filter
FILTER_ROWS_BUILT = 1 << 12  # ... than using the filter once it is built (chunks of a large run reuse it)
FILTER_SLOTS_PER_JUDGMENT = 16  # per query: about 1 row in 8 whose doc is not judged passes the filter
JOIN_SLICE = 1 << 18  # rows per slice of the filter pass: its temporaries stay in the CPU cache


def join_qrels(data: DatasetScope, q: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Row of each (q, d) (int64 dataset codes) in the sorted qrels keys, or -1 when it is not judged."""
    index = np.full(len(q), -1, dtype=np.int64)
    rows, found = _join(data, Codes(q), Codes(d))
    index[rows] = found
    return index


def judged_hits(scope: RunScope) -> tuple[np.ndarray, np.ndarray]:
    """(rows, row in the sorted qrels) of the run's rows whose (query, doc) is in the qrels.

    The run's own small codes go through the join's filter without building every row's dataset code."""
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
    keys = ds.qrels.key
    n = len(q)
    if len(keys) == 0 or n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if n < (FILTER_ROWS_BUILT if data.has(judged_filter) else FILTER_ROWS):
        rows = np.arange(n)
    else:
        slots, query_base, doc_slot = data.stage(judged_filter)
        q_base = query_base if q.table is None else query_base[q.table]  # per local code
        d_slot = doc_slot if d.table is None else doc_slot[d.table]
        found = []
        for start in range(0, n, JOIN_SLICE):
            part = slice(start, start + JOIN_SLICE)
            slot = q_base[q.local[part]]
            slot += d_slot[d.local[part]]
            found.append(np.flatnonzero(slots[slot]) + start)
        rows = np.concatenate(found)
    run_key = q.at(rows) * max(ds.n_docs, 1) + d.at(rows)
    found_at = np.minimum(np.searchsorted(keys, run_key), len(keys) - 1)
    same = keys[found_at] == run_key
    return rows[same], found_at[same]


def judged_filter(data: DatasetScope) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(slots, first slot of every query code, slot offset of every doc code).

    Each query owns a window of W slots (a power of two, about FILTER_SLOTS_PER_JUDGMENT per judgment of
    an average query); a doc falls at a hashed offset in it, and a slot is set when a judged pair falls
    there. Rows come query by query, so the look-ups of one query stay in its window (in the cache)."""
    ds = data.dataset
    per_query = len(ds.qrels.key) / max(int(ds.judged.sum()), 1)
    width = 1 << min(20, max(6, int(per_query * FILTER_SLOTS_PER_JUDGMENT).bit_length()))
    query_base = np.arange(ds.n_queries, dtype=np.int64) * width
    doc_slot = (_mix(np.arange(max(ds.n_docs, 1), dtype=np.uint32)) & np.uint32(width - 1)).astype(np.int64)
    slots = np.zeros(ds.n_queries * width, dtype=bool)
    slots[query_base[ds.qrels.q] + doc_slot[ds.qrels.d]] = True
    return slots, query_base, doc_slot


def _mix(x: np.ndarray) -> np.ndarray:
    """A 32-bit integer hash (the finaliser of MurmurHash3, Appleby 2011): neighbouring codes spread."""
    x = x ^ (x >> np.uint32(16))
    x *= np.uint32(0x85EBCA6B)
    x ^= x >> np.uint32(13)
    x *= np.uint32(0xC2B2AE35)
    return x ^ (x >> np.uint32(16))
