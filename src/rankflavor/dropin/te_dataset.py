"""The drop-in's reading made the engine's Dataset (inputs/dataset.py) without Arrow: one sorted dictionary of
the query ids (numpy's sort of the ids' characters: strcmp's order on the bytes, one character each) and one of
the doc ids, the qrels' in order of first appearance and then the run's others (unsorted, as on the library's
TREC path: an order by doc id asks `Dataset.doc_keys`), each file's codes mapped through them.

The rows come as standard_read.py leaves them: a (query, doc) once in the qrels and once in a run, so the run's
duplicate check is settled here (`source.duplicates`: none) and the layout built as intern.py builds it.
"""

from __future__ import annotations

import numpy as np

from rankflavor.dropin.standard_read import CQrels, CResults
from rankflavor.dropin.te_parse import id_ranks
from rankflavor.inputs.dataset import Codes, Dataset, InternedQrels, InternedRun
from rankflavor.inputs.query_major import build_layout
from rankflavor.plain_records import replace

RUN_NAME = "run"


def sorted_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct values ascending, each value's index among them): np.unique(return_inverse) without numpy.ma."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    new = np.r_[True, ordered[1:] != ordered[:-1]] if len(values) else np.zeros(0, bool)
    codes = np.empty(len(values), dtype=np.int64)
    codes[order] = np.cumsum(new) - 1
    return ordered[new], codes


def _dictionary(first: list[str], second: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sorted distinct ids of both lists (an object array of str), and each list's ids' codes in it."""
    distinct, codes = sorted_codes(np.asarray([*first, *second], dtype=str))
    return distinct.astype(object), codes[:len(first)], codes[len(first):]


def _doc_dictionary(qrels_docs: list[str], results: CResults) -> tuple[np.ndarray, np.ndarray | None]:
    """The doc ids (an object array: the qrels' distinct ids, then the run's others) and each run id's code (None:
    the run's codes are the dictionary's, its ids read after the qrels' as known ones)."""
    run_docs = results.doc_ids
    if results.known == len(qrels_docs):
        return np.array(run_docs, dtype=object), None
    where = {doc: code for code, doc in enumerate(qrels_docs)}
    codes = np.array([where.setdefault(doc, len(where)) for doc in run_docs], dtype=np.int64)
    return np.array(list(where), dtype=object), codes


def dataset_of(qrels: CQrels, results: CResults) -> Dataset:
    """The Dataset of the qrels and the one run: the query dictionary sorted, the doc dictionary not."""
    query_ids, qrels_q, run_q = _dictionary(qrels.query_ids, results.query_ids)
    docs, run_d = _doc_dictionary(qrels.doc_ids, results)
    n_docs = max(len(docs), 1)
    q, d = qrels_q[qrels.q], qrels.d
    key = q * n_docs + d
    order = np.argsort(key, kind="stable")
    judged = np.zeros(len(query_ids), dtype=bool)
    judged[q] = True
    interned_qrels = InternedQrels(None, q[order], d[order], qrels.grade[order], key[order],  # type: ignore[arg-type]
                                   np.arange(len(key), dtype=np.int64)[order])
    present = np.zeros(len(query_ids), dtype=bool)
    present[run_q] = True
    q_codes = Codes(results.q.astype(np.int32, copy=False), run_q)
    d_codes = Codes(results.d) if run_d is None else Codes(results.d.astype(np.int32, copy=False), run_d)
    run = InternedRun(None, RUN_NAME, q_codes, d_codes,  # type: ignore[arg-type]
                      results.score, present, len(query_ids))
    layout = results.layout  # (made by the reading's check, on the same codes: their segments mapped)
    run._layout = build_layout(q_codes.local, len(run_q), table=run_q) if layout is None else \
        replace(layout, seg_q=run_q[layout.seg_q])
    return Dataset(query_ids=query_ids, docs=docs, qrels=interned_qrels, runs=[run], judged=judged,
                   docs_sorted=len(docs) <= 1, doc_ranker=id_ranks, doc_ranks=results.doc_ranks if run_d is None else None)
