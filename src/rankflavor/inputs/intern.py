"""Intern ids once and join nothing yet: Arrow tables made the Dataset the engine reads (inputs/dataset.py).

Query and doc ids become int64 codes into dictionaries. The query dictionary is sorted (bytewise, as strcmp
sorts), so comparing query codes compares ids. The doc dictionary is sorted too, except on the TREC path
(doc_dictionary.py), where only the qrels' ids come sorted and the runs' other ids follow unsorted: an order by
doc id (`ties=docid_desc`) sorts on `Dataset.doc_keys(codes)`, never on the codes. One dictionary serves the
qrels and all runs, so the (query, doc) key `q * n_docs + d` joins them.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from rankflavor.inputs.arrow_numpy import array_to_numpy
from rankflavor.inputs.dataset import Codes, Dataset, DuplicateCheck, InternedQrels, InternedRun
from rankflavor.inputs.doc_dictionary import doc_dictionary, runs_encoded
from rankflavor.inputs.duplicates import COUNT, resolve_duplicates, resolve_sorted
from rankflavor.inputs.kernels import index_in, sorted_unique
from rankflavor.inputs.query_major import RunLayout, build_layout, has_duplicates
from rankflavor.inputs.subtopics import intern_subtopics
from rankflavor.inputs.tables import QrelsTable, RunTable

__all__ = ["Codes", "Dataset", "InternedQrels", "InternedRun", "intern"]


def _distinct(array: pa.Array) -> pa.Array:
    """The strings of an id column: the dictionary of a dictionary-encoded one (read once per distinct id)."""
    return array.dictionary if pa.types.is_dictionary(array.type) else array


def _dictionary(arrays: list[pa.Array]) -> pa.Array:
    values = pa.chunked_array([_distinct(a) for a in arrays if len(a)] or [pa.array([], pa.string())], pa.string())
    return sorted_unique(values)


def _codes(values: pa.Array, dictionary: pa.Array) -> Codes:
    """Codes of every value in the sorted dictionary: a dictionary-encoded column keeps its own int32 codes
    and maps only its dictionary; a plain column is looked up value by value."""
    if len(values) == 0:
        return Codes(np.zeros(0, dtype=np.int64))
    if pa.types.is_dictionary(values.type):
        table = array_to_numpy(index_in(values.dictionary, dictionary)).astype(np.int64)
        return Codes(array_to_numpy(values.indices), table)
    return Codes(array_to_numpy(index_in(values, dictionary)).astype(np.int64))


def intern(qrels: QrelsTable, runs: list[RunTable], names: list[str], on_duplicate: str = "error",
           defer_checks: bool = False) -> Dataset:
    """Build the shared dictionaries, code every input, and apply the on_duplicate policy (duplicates.py).

    defer_checks: a run's duplicate check runs on another thread (the run's `pending_check`), for a caller
    that evaluates speculatively and settles before it trusts anything (pipeline.settle_inputs)."""
    query_arrays = [qrels.query, *(r.query for r in runs)]
    query_arrays += [t.queries for t in (qrels, *runs) if t.queries is not None]
    queries = _dictionary(query_arrays)
    qrels_docs: np.ndarray | None = None
    doc_tables: list[np.ndarray | None] = [None] * len(runs)
    if runs_encoded([r.doc for r in runs]):  # (the qrels' sorted ids made once for a track: doc_dictionary.py)
        docs, qrels_docs, tables = doc_dictionary(qrels.doc, [r.doc for r in runs])
        doc_tables = list(tables)
    else:
        docs = _dictionary([qrels.doc, *(r.doc for r in runs)])
    interned_qrels, judged = _intern_qrels(qrels, queries, docs, on_duplicate, qrels_docs)
    return Dataset(
        query_ids=np.asarray(queries.to_pylist(), dtype=object),
        docs=docs,
        qrels=interned_qrels,
        runs=[_intern_run(run, name, queries, docs, on_duplicate, defer_checks, table)
              for run, name, table in zip(runs, names, doc_tables, strict=True)],
        judged=judged,
        subtopics=intern_subtopics(qrels, queries, docs),
        docs_sorted=qrels_docs is None or len(docs) == (int(qrels_docs.max()) + 1 if len(qrels_docs) else 0),
    )


def _intern_qrels(qrels: QrelsTable, queries: pa.Array, docs: pa.Array, on_duplicate: str,
                  doc_codes: np.ndarray | None = None) -> tuple[InternedQrels, np.ndarray]:
    """The qrels sorted by (query, doc) after the on_duplicate policy, and per query code: judged (it has a
    judgment). doc_codes: each row's doc code when known (doc_dictionary.py)."""
    n_docs = max(len(docs), 1)
    query = _codes(qrels.query, queries).full()
    doc = _codes(qrels.doc, docs).full() if doc_codes is None else doc_codes
    key = query * n_docs + doc
    keep, order = resolve_sorted(qrels, key, on_duplicate)
    position = np.arange(len(query), dtype=np.int64)[keep]
    query, doc, grade, key = query[keep], doc[keep], qrels.grade[keep], key[keep]
    if order is None:
        order = np.argsort(key, kind="stable")
    judged = np.zeros(len(queries), dtype=bool)  # a query is judged when it has a judgment: a Python qrels'
    judged[query] = True  # query with an empty dict is not (pytrec_eval leaves it out), as a TREC file cannot list it
    return InternedQrels(qrels, query[order], doc[order], grade[order], key[order], position[order]), judged


def _intern_run(run: RunTable, name: str, queries: pa.Array, docs: pa.Array, on_duplicate: str,
                defer_checks: bool, doc_table: np.ndarray | None = None) -> InternedRun:
    """One run as dataset codes, its duplicates checked (now, or on another thread) or resolved; doc_table: the
    code of each entry of its doc column's dictionary, when known (doc_dictionary.py)."""
    query = _codes(run.query, queries)
    doc = _codes(run.doc, docs) if doc_table is None or len(run.doc) == 0 else Codes(
        array_to_numpy(run.doc.indices), doc_table)
    # the query-major layout answers "no duplicate" with one row-wise sort; only a run that has one (or a
    # very uneven run) pays the general check, which also names the lines or applies the policy
    layout: RunLayout | None = build_layout(query.local, len(queries) if query.table is None else len(query.table),
                                            table=query.table)
    score = run.score
    pending = None
    if layout.paddable and defer_checks and on_duplicate != COUNT:  # (count: a repeat is kept, never re-read)
        pending = DuplicateCheck(layout, doc.local)
        run.source.duplicates = {"identical": 0, "conflicting": 0}  # (if the check finds one: done again)
    elif layout.paddable and not has_duplicates(layout, doc.local):
        run.source.duplicates = {"identical": 0, "conflicting": 0}
    else:
        n_docs = max(len(docs), 1)
        keep = resolve_duplicates(run, query.full() * n_docs + doc.full(), on_duplicate)
        if not isinstance(keep, slice):
            query, doc, score, layout = Codes(query.full()[keep]), Codes(doc.full()[keep]), score[keep], None
    present = np.zeros(len(queries), dtype=bool)
    present[query.full() if layout is None else layout.seg_q] = True
    if run.queries is not None:
        present[_codes(run.queries, queries).full()] = True
    interned = InternedRun(run, name, query, doc, score, present, len(queries))
    interned.pending_check = pending
    interned._layout = layout
    return interned
