"""What the engine reads: the inputs as int64 codes into shared id dictionaries (inputs/intern.py builds them
from Arrow tables; the drop-in builds them from trec_eval's own reading, dropin/te_dataset.py, without Arrow).

The query dictionary is sorted (bytewise, as strcmp sorts), so comparing query codes compares ids. The doc
dictionary is sorted too, except on the TREC paths, where only the qrels' ids may come sorted and the runs' other
ids follow unsorted: an order by doc id (`ties=docid_desc`) sorts on `Dataset.doc_keys(codes)`, never on the
codes. `Dataset.docs` is an Arrow string array or a numpy object array of str (the drop-in's); this module
imports no pyarrow, so the engine does not either until an Arrow dictionary asks for its kernels.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from rankflavor.inputs.query_major import RunLayout, build_layout, has_duplicates
from rankflavor.overlap import Overlapped

if TYPE_CHECKING:
    import pyarrow as pa

    from rankflavor.inputs.subtopics import InternedSubtopics
    from rankflavor.inputs.tables import QrelsTable, RunTable


class InternedQrels:
    table: QrelsTable
    q: np.ndarray  # int64 codes, sorted by (q, d)
    d: np.ndarray
    grade: np.ndarray
    key: np.ndarray  # q * n_docs + d, sorted ascending
    position: np.ndarray | None = None  # per row: its place in the qrels as given (the qrels' order; None: sorted)

    def __init__(self, table: QrelsTable, q: np.ndarray, d: np.ndarray, grade: np.ndarray, key: np.ndarray,
                 position: np.ndarray | None = None) -> None:
        self.table = table
        self.q = q
        self.d = d
        self.grade = grade
        self.key = key
        self.position = position

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


class DuplicateCheck(Overlapped):
    """`has_duplicates` on another thread (numpy's sort releases the GIL; at once in a track's worker:
    rankflavor/overlap.py); `found()` waits for the answer."""

    def __init__(self, layout: RunLayout, d: np.ndarray) -> None:
        super().__init__()
        self.layout, self.d = layout, d
        self._found: bool | None = None
        self.begin()

    def run(self) -> None:
        self._found = has_duplicates(self.layout, self.d)

    def found(self) -> bool:
        """Whether a query lists a doc twice (True also when the check itself failed: check again)."""
        self.finish()
        return self._found is not False


class InternedRun:
    """A run as dataset codes (compared by identity: the engine keys its caches by the run)."""

    table: RunTable
    name: str
    q_codes: Codes
    d_codes: Codes
    score: np.ndarray
    present: np.ndarray  # bool per query code: the run has the query (possibly with an empty list)
    n_query_codes: int  # the dataset's number of query codes
    pending_check: DuplicateCheck | None
    _layout: RunLayout | None

    def __init__(self, table: RunTable, name: str, q_codes: Codes, d_codes: Codes, score: np.ndarray,
                 present: np.ndarray, n_query_codes: int) -> None:
        self.table = table
        self.name = name
        self.q_codes = q_codes
        self.d_codes = d_codes
        self.score = score
        self.present = present
        self.n_query_codes = n_query_codes
        self.pending_check = None
        self._layout = None

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


class Dataset:
    query_ids: np.ndarray  # object array of str, sorted
    docs: pa.Array | np.ndarray  # the doc ids (Arrow strings, or an object array of str), a code's id at its position
    qrels: InternedQrels
    runs: list[InternedRun]
    judged: np.ndarray  # bool per query code: the query is in the qrels
    weights: dict[str, np.ndarray]  # per name: the weight of each query code (nan: none)
    subtopics: InternedSubtopics | None = None  # a subtopic qrels' (query, subtopic, doc) judgments (inputs/subtopics.py)
    docs_sorted: bool = True  # the doc codes compare as their ids do (see doc_keys)
    doc_ranker: Callable[[np.ndarray], np.ndarray] | None = None  # ranks a numpy dictionary's ids (else numpy sorts)
    doc_ranks: np.ndarray | None = None  # every id's rank, when its reader made them (the drop-in's early read)

    def __init__(self, query_ids: np.ndarray, docs: pa.Array | np.ndarray, qrels: InternedQrels,
                 runs: list[InternedRun], judged: np.ndarray, weights: dict[str, np.ndarray] | None = None,
                 subtopics: InternedSubtopics | None = None, docs_sorted: bool = True,
                 doc_ranker: Callable[[np.ndarray], np.ndarray] | None = None, doc_ranks: np.ndarray | None = None) -> None:
        self.query_ids = query_ids
        self.docs = docs
        self.qrels = qrels
        self.runs = runs
        self.judged = judged
        self.weights = {} if weights is None else weights
        self.subtopics = subtopics
        self.docs_sorted = docs_sorted
        self.doc_ranker = doc_ranker
        self.doc_ranks = doc_ranks

    @functools.cached_property
    def doc_ids(self) -> np.ndarray:
        """The doc ids as an object array of str (made on first use: most evaluations never show a doc)."""
        if isinstance(self.docs, np.ndarray):
            return self.docs
        return np.asarray(self.docs.to_pylist(), dtype=object)

    @functools.cached_property
    def _doc_ranks(self) -> np.ndarray:
        return self._ranks(self.docs) if self.doc_ranks is None else self.doc_ranks

    def _ranks(self, ids: pa.Array | np.ndarray) -> np.ndarray:
        if self.doc_ranker is not None and isinstance(ids, np.ndarray):
            return self.doc_ranker(ids)
        return _string_ranks(ids)

    def doc_keys(self, codes: np.ndarray) -> np.ndarray:
        """int64 keys of doc codes that compare as their ids do (bytewise, as strcmp compares), among `codes`: the
        codes themselves when the dictionary is sorted; else their ranks, among the distinct ids of `codes` (a
        tie group's few docs: their ids alone are sorted) or among every id (sorted once, when `codes` are many)."""
        codes = np.asarray(codes, dtype=np.int64)
        if self.docs_sorted or len(codes) == 0:
            return codes
        if self.doc_ranks is not None or "_doc_ranks" in self.__dict__ or len(codes) * 4 >= len(self.docs):
            return self._doc_ranks[codes]
        distinct = np.sort(codes)
        distinct = distinct[np.r_[True, distinct[1:] != distinct[:-1]]]
        return self._ranks(_take(self.docs, distinct))[np.searchsorted(distinct, codes)]

    def group_then_doc_order(self, group: np.ndarray, codes: np.ndarray) -> np.ndarray | None:
        """The stable permutation to (group asc, doc id desc) for rows of nondecreasing `group` and doc `codes`, or
        None when the caller is to sort on `doc_keys`: a sorted or ranked dictionary, or a numpy one (its ranker
        ranks the ids asked about, or all of them, at once). An Arrow dictionary compares strings within a group
        only, which spares a track's run sorting every one of its ids when most rows are tied (engine/order.py)."""
        if self.docs_sorted or "_doc_ranks" in self.__dict__ or isinstance(self.docs, np.ndarray):
            return None
        from rankflavor.inputs.kernels import group_then_string_order

        return group_then_string_order(group, self.docs, descending=True, codes=codes)

    def doc_codes_of(self, ids: list[str]) -> np.ndarray:
        """The doc code of each id (int64), -1 where the dictionary lacks it."""
        if isinstance(self.docs, np.ndarray):
            where = {doc: code for code, doc in enumerate(self.docs.tolist())}
            return np.array([where.get(i, -1) for i in ids], dtype=np.int64)
        import pyarrow as pa

        from rankflavor.inputs.kernels import index_in

        found = index_in(pa.array(ids, pa.string()), self.docs)
        position = found.to_numpy(zero_copy_only=False)  # (float, nan where absent, when any is)
        return np.where(np.isnan(position), -1, position).astype(np.int64) if found.null_count else \
            position.astype(np.int64)

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


def _string_ranks(ids: pa.Array | np.ndarray) -> np.ndarray:
    """Each id's rank (int64) in ascending order (code points: bytewise in UTF-8 and in the drop-in's latin-1)."""
    if not isinstance(ids, np.ndarray):
        from rankflavor.inputs.kernels import sort_ranks

        return sort_ranks(ids)
    listed = ids.tolist()  # (str's order: Python's; numpy's str arrays drop a trailing NUL)
    ranks = np.empty(len(listed), dtype=np.int64)
    ranks[sorted(range(len(listed)), key=listed.__getitem__)] = np.arange(len(listed), dtype=np.int64)
    return ranks


def _take(ids: pa.Array | np.ndarray, codes: np.ndarray) -> pa.Array | np.ndarray:
    if isinstance(ids, np.ndarray):
        return ids[codes]
    from rankflavor.inputs.kernels import take

    return take(ids, codes)
