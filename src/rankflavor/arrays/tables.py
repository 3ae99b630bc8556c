"""Checked arrays as a qrels and a run that rankflavor reads (Arrow tables: query, doc, grade / score).

Query i is `q` and its index, zero-padded; the document at position j of its query is `d` and j, zero-padded,
so that ids sort as positions do (`ties=docid_desc` ranks tied documents last position first) and no doc id is
a query id (`self_docs=drop` drops nothing). Every document is judged: its label is its grade, 0 included, so the
ideal is the query's own labels (`ideal=local` and `ideal=global` agree). The run lists each query's documents
in input order (`ties=input` keeps it).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from rankflavor.arrays.checks import Grouped

__all__ = ["as_tables", "query_index"]


def _padded(prefix: str, values: np.ndarray, top: int) -> np.ndarray:
    width = len(str(max(top - 1, 0)))
    return np.char.add(prefix, np.char.zfill(values.astype(str), width))


def as_tables(data: Grouped) -> tuple[pa.Table, pa.Table, list[str]]:
    """(qrels, run, the query ids in the caller's order)."""
    n = data.queries
    queries = _padded("q", np.arange(n), n)
    starts = np.repeat(np.cumsum(data.sizes) - data.sizes, data.sizes)
    positions = np.arange(len(data.labels)) - starts
    query = pa.array(np.repeat(queries, data.sizes).astype(object), type=pa.string())
    doc = pa.array(_padded("d", positions, int(data.sizes.max())).astype(object), type=pa.string())
    qrels = pa.table({"query": query, "doc": doc, "grade": pa.array(data.labels)})
    run = pa.table({"query": query, "doc": doc, "score": pa.array(data.scores)})
    return qrels, run, queries.tolist()


def query_index(query_ids: np.ndarray) -> np.ndarray:
    """The caller's index of each query id made by `as_tables` (`q007` -> 7)."""
    return np.array([int(str(q)[1:]) for q in query_ids], dtype=np.int64)
