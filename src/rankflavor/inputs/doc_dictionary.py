"""The sorted doc dictionary of a qrels and its runs, the qrels' part made once for a track of runs.

A track evaluates run after run against one qrels (cli/trec_stream.py). The qrels' distinct doc ids are sorted
once (`QrelsDocs`, kept for the last qrels seen); each run then only looks its own distinct ids up in them
(a hash of the qrels' few thousand ids) and appends the ids the qrels does not hold, unsorted (hashed once
across the runs, so equal ids share one code). The qrels' codes compare as their ids do (bytewise, as strcmp
sorts); the appended ones do not: `Dataset.doc_keys` gives the keys an order needs (intern.py).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from rankflavor.inputs.arrow_numpy import array_to_numpy
from rankflavor.inputs.kernels import call_function, dictionary_encode, index_in, sorted_unique, to_string


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
    """The qrels' sorted distinct doc ids followed by the runs' ids the qrels does not hold (in order of first
    appearance, each once), the qrels rows' codes in it, and per run the code of each entry of its column's
    dictionary (every run column dictionary-encoded: `runs_encoded`).

    Only the qrels' part is sorted: a code below len(qrels ids) compares as its id does, a code above does not;
    `Dataset.doc_keys` ranks the codes an order needs (a tie group's docs), rather than every run sorting its
    tens of thousands of ids here (7 ms of Arrow's string sort per TREC-sized run, most of a track's interning)."""
    known = qrels_docs(qrels_column)
    n_known = len(known.ids)
    found, unseen = [], []
    for column in run_columns:
        at = index_in(column.dictionary, known.ids)
        found.append(at)
        unseen.append(to_string(call_function("filter", [column.dictionary, call_function("is_null", [at])])))
    if len(unseen) == 1:  # (a dictionary's entries are distinct: one run's need no hashing)
        new_ids, new_codes = unseen[0], n_known + np.arange(len(unseen[0]), dtype=np.int64)
    else:  # equal ids of several runs: one code
        new = dictionary_encode(pa.concat_arrays(unseen) if unseen else pa.array([], pa.string()))
        new_ids, new_codes = new.dictionary, n_known + array_to_numpy(new.indices).astype(np.int64)
    tables, start = [], 0
    for at, missing in zip(found, unseen, strict=True):
        table = np.empty(len(at), dtype=np.int64)
        seen = array_to_numpy(call_function("is_valid", [at]))
        table[seen] = array_to_numpy(call_function("drop_null", [at])).astype(np.int64)
        table[~seen] = new_codes[start:start + len(missing)]
        start += len(missing)
        tables.append(table)
    return pa.concat_arrays([to_string(known.ids), new_ids]), known.row_codes, tables
