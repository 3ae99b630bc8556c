"""Intern ids once and join nothing yet: the columnar form every engine kernel reads.

Query and doc ids become int64 codes into sorted dictionaries (sorted bytewise, as strcmp sorts), so
comparing codes compares ids: `ties=docid_desc` is a sort on the negated doc code. One dictionary serves
the qrels and all runs, so the (query, doc) key `q * n_docs + d` joins them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from rankflavor.io.duplicates import resolve_duplicates
from rankflavor.io.tables import QrelsTable, RunTable


@dataclass
class InternedQrels:
    table: QrelsTable
    q: np.ndarray  # int64 codes, sorted by (q, d)
    d: np.ndarray
    grade: np.ndarray
    key: np.ndarray  # q * n_docs + d, sorted ascending


@dataclass
class InternedRun:
    table: RunTable
    name: str
    q: np.ndarray  # int64 codes, input order
    d: np.ndarray
    score: np.ndarray
    present: np.ndarray  # bool per query code: the run has the query (possibly with an empty list)

    @property
    def order(self) -> np.ndarray:
        return np.arange(len(self.q), dtype=np.int64)


@dataclass
class Dataset:
    query_ids: np.ndarray  # object array of str, sorted
    doc_ids: np.ndarray
    qrels: InternedQrels
    runs: list[InternedRun]
    judged: np.ndarray  # bool per query code: the query is in the qrels

    @property
    def n_docs(self) -> int:
        return len(self.doc_ids)

    @property
    def n_queries(self) -> int:
        return len(self.query_ids)

    def run(self, name: str) -> InternedRun:
        for run in self.runs:
            if run.name == name:
                return run
        raise KeyError(f"no run named {name!r}; runs: {', '.join(r.name for r in self.runs)}")

    def query_code(self, query: str) -> int:
        index = int(np.searchsorted(self.query_ids, query))
        if index >= len(self.query_ids) or self.query_ids[index] != query:
            raise KeyError(f"no query {query!r} in the qrels or the runs")
        return index


def _dictionary(arrays: list[pa.Array]) -> pa.Array:
    values = pa.chunked_array([a for a in arrays if len(a)] or [pa.array([], pa.string())], pa.string())
    unique = pc.unique(values)
    return unique.take(pc.sort_indices(unique))


def _codes(values: pa.Array, dictionary: pa.Array) -> np.ndarray:
    if len(values) == 0:
        return np.zeros(0, dtype=np.int64)
    return pc.index_in(values, value_set=dictionary).to_numpy(zero_copy_only=False).astype(np.int64)


def intern(qrels: QrelsTable, runs: list[RunTable], names: list[str], on_duplicate: str = "error") -> Dataset:
    """Build the shared dictionaries, code every input, and apply the on_duplicate policy (io/duplicates.py)."""
    query_arrays = [qrels.query, *(r.query for r in runs)]
    query_arrays += [t.queries for t in (qrels, *runs) if t.queries is not None]
    queries = _dictionary(query_arrays)
    docs = _dictionary([qrels.doc, *(r.doc for r in runs)])
    n_docs = max(len(docs), 1)

    q = _codes(qrels.query, queries)
    d = _codes(qrels.doc, docs)
    keep = resolve_duplicates(qrels, q * n_docs + d, on_duplicate)
    q, d, grade = q[keep], d[keep], qrels.grade[keep]
    key = q * n_docs + d
    order = np.argsort(key, kind="stable")
    interned_qrels = InternedQrels(qrels, q[order], d[order], grade[order], key[order])

    judged = np.zeros(len(queries), dtype=bool)
    judged[q] = True
    if qrels.queries is not None:
        judged[_codes(qrels.queries, queries)] = True

    interned_runs = []
    for run, name in zip(runs, names, strict=True):
        rq, rd = _codes(run.query, queries), _codes(run.doc, docs)
        keep = resolve_duplicates(run, rq * n_docs + rd, on_duplicate)
        rq, rd, score = rq[keep], rd[keep], run.score[keep]
        present = np.zeros(len(queries), dtype=bool)
        present[rq] = True
        if run.queries is not None:
            present[_codes(run.queries, queries)] = True
        interned_runs.append(InternedRun(run, name, rq, rd, score, present))

    return Dataset(
        query_ids=np.asarray(queries.to_pylist(), dtype=object),
        doc_ids=np.asarray(docs.to_pylist(), dtype=object),
        qrels=interned_qrels,
        runs=interned_runs,
        judged=judged,
    )
