"""Intern ids once and join nothing yet: the columnar form the engine reads.

Query and doc ids become int64 codes into dictionaries. The query dictionary is sorted (bytewise, as strcmp
sorts), so comparing query codes compares ids. The doc dictionary is sorted too, except on the TREC path
(doc_dictionary.py), where only the qrels' ids come sorted and the runs' other ids follow unsorted: an order by
doc id (`ties=docid_desc`) sorts on `Dataset.doc_keys(codes)`, never on the codes. One dictionary serves the
qrels and all runs, so the (query, doc) key `q * n_docs + d` joins them.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from rankflavor.inputs.arrow_numpy import array_to_numpy
from rankflavor.inputs.doc_dictionary import doc_dictionary, runs_encoded
from rankflavor.inputs.duplicates import COUNT, resolve_duplicates
from rankflavor.inputs.kernels import group_then_string_order, index_in, sort_ranks, sorted_unique, take
from rankflavor.inputs.query_major import RunLayout, build_layout, has_duplicates
from rankflavor.inputs.subtopics import InternedSubtopics, intern_subtopics
from rankflavor.inputs.tables import QrelsTable, RunTable


@dataclass
class InternedQrels:
    table: QrelsTable
    q: np.ndarray  # int64 codes, sorted by (q, d)
    d: np.ndarray
    grade: np.ndarray
    key: np.ndarray  # q * n_docs + d, sorted ascending
    position: np.ndarray | None = None  # per row: its place in the qrels as given (the qrels' order; None: sorted)

    def positions(self) -> np.ndarray:
        """Per row, its place in the qrels as given (ir_measures' compat orders its ideal's ties so)."""
        return np.arange(len(self.key), dtype=np.int64) if self.position is None else self.position


class Codes:
    """Dataset codes of a run's rows, kept as the reader's small per-file codes plus a table to the dataset's.

    A TREC file arrives dictionary-encoded: each row holds an int32 code into the file's own dictionary.
    Mapping the dictionary (tens of thousands of ids) is cheap; mapping every row (millions) is not, so
    the engine asks for what it needs: the codes of a few rows (`at`), a per-code array seen per row
    (`per_row`), or, when it must, every row's int64 dataset code (`full`, computed once)."""

    def __init__(self, local: np.ndarray, table: np.ndarray | None = None) -> None:
        self.local = local  # per row: a code into `table` (or the dataset's code itself when table is None)
        self.table = table  # int64 dataset code of each local code
        self._full: np.ndarray | None = None if table is not None else local.astype(np.int64, copy=False)

    def __len__(self) -> int:
        return len(self.local)

    def full(self) -> np.ndarray:
        """int64 dataset code of every row (computed on first use, then kept)."""
        if self._full is None:
            assert self.table is not None
            self._full = self.table[self.local]
        return self._full

    def at(self, rows: np.ndarray) -> np.ndarray:
        """int64 dataset codes of some rows."""
        if self._full is not None:
            return self._full[rows]
        assert self.table is not None
        return self.table[self.local[rows]]

    def per_row(self, per_code: np.ndarray) -> np.ndarray:
        """`per_code[code of row]` for every row (composes the small table first: one gather over the rows)."""
        if self.table is None:
            return per_code[self.local]
        return per_code[self.table][self.local]

    def count(self, mask: np.ndarray | None, n_codes: int) -> np.ndarray:
        """Per dataset code (0 <= code < n_codes), how many rows with that code have `mask` set (all rows: None)."""
        local = self.local if mask is None else self.local[mask]
        if self.table is None:
            return np.bincount(local, minlength=n_codes)
        out = np.zeros(n_codes, dtype=np.int64)
        out[self.table] = np.bincount(local, minlength=len(self.table))  # table: distinct codes
        return out

    def rows_of(self, code: int) -> np.ndarray:
        """Rows whose dataset code is `code`, in input order."""
        if self.table is None:
            return np.flatnonzero(self.local == code)
        local = np.flatnonzero(self.table == code)
        return np.flatnonzero(self.local == local[0]) if len(local) else np.zeros(0, dtype=np.int64)


class DuplicateCheck(threading.Thread):
    """`has_duplicates` on another thread (numpy's sort releases the GIL); `found()` waits for the answer."""

    def __init__(self, layout: RunLayout, d: np.ndarray) -> None:
        super().__init__(daemon=True)
        self.layout, self.d = layout, d
        self._found: bool | None = None
        self.start()

    def run(self) -> None:
        self._found = has_duplicates(self.layout, self.d)

    def found(self) -> bool:
        """Whether a query lists a doc twice (True also when the check itself failed: check again)."""
        self.join()
        return self._found is not False


@dataclass(eq=False)
class InternedRun:
    """A run as dataset codes (compared by identity: the engine keys its caches by the run)."""

    table: RunTable
    name: str
    q_codes: Codes
    d_codes: Codes
    score: np.ndarray
    present: np.ndarray  # bool per query code: the run has the query (possibly with an empty list)
    n_query_codes: int  # the dataset's number of query codes
    pending_check: DuplicateCheck | None = field(default=None, init=False, repr=False)
    _layout: RunLayout | None = field(default=None, init=False, repr=False)

    @classmethod
    def of_codes(cls, table: RunTable, name: str, q: np.ndarray, d: np.ndarray, score: np.ndarray,
                 present: np.ndarray) -> InternedRun:
        """A run from int64 dataset codes per row."""
        return cls(table, name, Codes(q), Codes(d), score, present, len(present))

    def subset(self, rows: np.ndarray, present: np.ndarray) -> InternedRun:
        """The run of these rows only (input order kept), its queries present per `present`."""
        return InternedRun.of_codes(self.table, self.name, self.q_codes.at(rows), self.d_codes.at(rows),
                                    self.score[rows], present)

    @property
    def layout(self) -> RunLayout:
        """The query-major layout of the rows (inputs/query_major.py), built on first use and kept."""
        if self._layout is None:
            codes = self.q_codes
            n = self.n_query_codes if codes.table is None else len(codes.table)
            self._layout = build_layout(codes.local, n, table=codes.table)
        return self._layout

    def rows_of_queries(self, wanted: np.ndarray) -> np.ndarray:
        """Input rows of the queries whose code is set in `wanted` (bool per query code), query by query."""
        layout = self.layout
        return layout.input_rows_of(np.flatnonzero(wanted[layout.seg_q]))

    @property
    def q(self) -> np.ndarray:
        """int64 query code of every row (materialized on first use)."""
        return self.q_codes.full()

    @property
    def d(self) -> np.ndarray:
        """int64 doc code of every row (materialized on first use)."""
        return self.d_codes.full()

    @property
    def n_rows(self) -> int:
        return len(self.score)

    @property
    def order(self) -> np.ndarray:
        return np.arange(self.n_rows, dtype=np.int64)


@dataclass(eq=False)
class Dataset:
    query_ids: np.ndarray  # object array of str, sorted
    docs: pa.Array  # the doc ids (string), a code's id at its position
    qrels: InternedQrels
    runs: list[InternedRun]
    judged: np.ndarray  # bool per query code: the query is in the qrels
    weights: dict[str, np.ndarray] = field(default_factory=dict)  # per name: the weight of each query code (nan: none)
    subtopics: InternedSubtopics | None = None  # a subtopic qrels' (query, subtopic, doc) judgments (inputs/subtopics.py)
    docs_sorted: bool = True  # the doc codes compare as their ids do (see doc_keys)

    @functools.cached_property
    def doc_ids(self) -> np.ndarray:
        """The doc ids as an object array of str (made on first use: most evaluations never show a doc)."""
        return np.asarray(self.docs.to_pylist(), dtype=object)

    @functools.cached_property
    def _doc_ranks(self) -> np.ndarray:
        return sort_ranks(self.docs)

    def doc_keys(self, codes: np.ndarray) -> np.ndarray:
        """int64 keys of doc codes that compare as their ids do (bytewise, as strcmp compares), among `codes`: the
        codes themselves when the dictionary is sorted; else their ranks, among the distinct ids of `codes` (a
        tie group's few docs: their ids alone are sorted) or among every id (sorted once, when `codes` are many)."""
        codes = np.asarray(codes, dtype=np.int64)
        if self.docs_sorted or len(codes) == 0:
            return codes
        if "_doc_ranks" in self.__dict__ or len(codes) * 4 >= len(self.docs):
            return self._doc_ranks[codes]
        distinct = np.sort(codes)
        distinct = distinct[np.r_[True, distinct[1:] != distinct[:-1]]]
        return sort_ranks(take(self.docs, distinct))[np.searchsorted(distinct, codes)]

    def group_then_doc_order(self, group: np.ndarray, codes: np.ndarray) -> np.ndarray | None:
        """The stable permutation to (group asc, doc id desc) for rows of nondecreasing `group` and doc `codes`, or
        None when `doc_keys` answers at no cost (the caller sorts on them). Comparing strings within a group only,
        it spares a track's run sorting every one of its ids when most rows are tied (engine/order.py)."""
        if self.docs_sorted or "_doc_ranks" in self.__dict__:
            return None
        return group_then_string_order(group, take(self.docs, codes), descending=True)

    @property
    def n_docs(self) -> int:
        return len(self.docs)

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
    keep = resolve_duplicates(qrels, query * n_docs + doc, on_duplicate)
    position = np.arange(len(query), dtype=np.int64)[keep]
    query, doc, grade = query[keep], doc[keep], qrels.grade[keep]
    key = query * n_docs + doc
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
