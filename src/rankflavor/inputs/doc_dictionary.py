"""The sorted doc dictionary of a qrels and its runs, the qrels' part made once for a track of runs.

A track evaluates run after run against one qrels (cli/trec_stream.py). The qrels' distinct doc ids are sorted
once (`QrelsDocs`, kept for the last qrels seen); each run then only looks its own distinct ids up in them
(a hash of the qrels' few thousand ids) and sorts the ids the qrels does not hold together with the qrels'
sorted ones. The codes are those of `intern.py`'s dictionary (the sorted distinct ids of every input,
bytewise as strcmp sorts): a code's rank among the sorted union, so equal ids, within a run's dictionary or
across inputs, share one code, and comparing codes still compares ids.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from rankflavor.inputs.arrow_numpy import array_to_numpy
from rankflavor.inputs.kernels import bool_array, call_function, index_in, int64_array, sorted_unique, to_string


@dataclass(frozen=True)
class QrelsDocs:
    """A qrels' doc column's distinct ids sorted (`ids`) and each row's position among them (`row_codes`)."""

    column: pa.Array  # the qrels' doc column these are of (held, so that its identity stays its own)
    ids: pa.Array
    row_codes: np.ndarray  # int64 per qrels row


_last: list[QrelsDocs] = []  # the last qrels' sorted docs: a track's runs reuse it
_lock = threading.Lock()


def qrels_docs(column: pa.Array) -> QrelsDocs:
    """The sorted distinct ids of a qrels' doc column and its rows' codes among them, made once per column."""
    with _lock:
        if _last and _last[0].column is column:
            return _last[0]
    encoded = pa.types.is_dictionary(column.type)
    ids = sorted_unique(column.dictionary if encoded else column)
    if len(column) == 0:
        row_codes = np.zeros(0, dtype=np.int64)
    elif encoded:
        row_codes = array_to_numpy(index_in(column.dictionary, ids)).astype(np.int64)[array_to_numpy(column.indices)]
    else:
        row_codes = array_to_numpy(index_in(column, ids)).astype(np.int64)
    made = QrelsDocs(column, ids, row_codes)
    with _lock:
        _last[:] = [made]
    return made


def runs_encoded(columns: list[pa.Array]) -> bool:
    """Whether every run's doc column is dictionary-encoded (the TREC readers' columns): the fast path's input."""
    return all(pa.types.is_dictionary(c.type) for c in columns)


def doc_dictionary(qrels_column: pa.Array, run_columns: list[pa.Array],
                   ) -> tuple[pa.Array, np.ndarray, list[np.ndarray]]:
    """The sorted union of the qrels' and the runs' doc ids, the qrels rows' codes in it, and per run the code of
    each entry of its column's dictionary (every run column dictionary-encoded: `runs_encoded`)."""
    known = qrels_docs(qrels_column)
    n_known = len(known.ids)
    found, unseen = [], []
    for column in run_columns:
        at = index_in(column.dictionary, known.ids)
        found.append(at)
        unseen.append(call_function("filter", [column.dictionary, call_function("is_null", [at])]))
    union = pa.concat_arrays([to_string(known.ids), *(to_string(u) for u in unseen)])
    order = array_to_numpy(call_function("array_sort_indices", [union])).astype(np.int64)
    ranked = call_function("take", [union, int64_array(order)])
    first = np.ones(len(ranked), dtype=bool)  # an id unlike the one sorted before it starts a new code
    if len(ranked) > 1:
        first[1:] = array_to_numpy(call_function("not_equal", [ranked[1:], ranked[:-1]]))
    code = np.empty(len(union), dtype=np.int64)
    code[order] = np.cumsum(first) - 1
    ids = call_function("filter", [ranked, bool_array(first)])
    tables, start = [], n_known
    for at, missing in zip(found, unseen, strict=True):
        table = np.empty(len(at), dtype=np.int64)
        seen = array_to_numpy(call_function("is_valid", [at]))
        table[seen] = code[array_to_numpy(call_function("drop_null", [at])).astype(np.int64)]
        table[~seen] = code[start:start + len(missing)]
        start += len(missing)
        tables.append(table)
    return ids, code[:n_known][known.row_codes], tables
