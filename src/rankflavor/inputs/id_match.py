"""Ids that never meet: one query or document written one way in the qrels and another in the run.

Ids are compared as exact strings, as trec_eval compares them (`strcmp`), so a doc judged as `0001040` and
retrieved as `1040` is unjudged (grade 0) and its query may score 0 with no error. These checks name such
inputs (warnings: the numbers never change):

- the loose key of an id: surrounding whitespace stripped, lower case, and the leading zeros of every run of
  digits dropped (`Doc0001040 ` -> `doc1040`); two different ids with one key match "only loosely";
- `loose_queries`: run queries absent from the qrels that match a judged query loosely (`007` and `7`);
- `loose_docs`: per query, the retrieved docs not judged for that query that match a doc judged for it
  loosely (the count and an example);
- `any_judged_row`: whether any retrieved doc is judged for its query at all; when none is, every score is 0,
  which is almost always an id mismatch or the wrong qrels (`nothing_judged_warning`).

Cost: keys are made once per distinct id (Arrow kernels over each input's distinct doc ids); only the docs
whose key another doc shares are then looked up row by row; `any_judged_row` stops at a sample's first
judged row and reads every row only when the sample has none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from rankflavor.inputs.arrow_numpy import array_to_numpy
from rankflavor.inputs.dataset import Dataset, InternedRun
from rankflavor.inputs.kernels import dictionary_encode, index_in, replace_regex, take, trimmed_lower, unique, without
from rankflavor.plural import counted

_LEADING_ZEROS = r"(^|[^0-9])0+([0-9])"  # RE2 and Python alike: zeros opening a run of digits, the last kept
_ZEROS = re.compile(_LEADING_ZEROS)
SAMPLE_ROWS = 10_000  # rows looked up before every row is (any_judged_row)


def loose_key(value: str) -> str:
    """`' Doc0001040'` -> `'doc1040'`: whitespace around stripped, lower case, leading zeros of digit runs dropped."""
    return _ZEROS.sub(r"\1\2", value.strip().lower())


def _loose_keys(values: pa.Array) -> pa.Array:
    """loose_key of every string, by Arrow kernels (the same key: tests/test_id_match.py)."""
    return replace_regex(trimmed_lower(values), _LEADING_ZEROS, r"\1\2")


def _coarse_keys(values: pa.Array) -> pa.Array:
    """A coarser key than the loose one, cheaper (no regex): every zero dropped, not only leading ones. It is the
    loose key with its zeros dropped, so two ids of one loose key have one coarse key: an id whose coarse key no
    judged doc has matches none loosely, and only the others are given the loose key's regex. Ids of printable
    ASCII without a space (every id of a plain TREC file) take `_printable_coarse_keys`, the others Arrow's kernels."""
    fast = _printable_coarse_keys(values)
    return without(trimmed_lower(values), "0") if fast is None else fast


def _printable_coarse_keys(values: pa.Array) -> pa.Array | None:
    """The coarse keys of string ids whose bytes are all printable ASCII but the space (0x21-0x7E), by numpy
    passes over the bytes (a few times faster than Arrow's trim, lower and replace on a run's 50,000 ids): such
    an id has nothing to trim, its lower case is A-Z shifted by 32, and its zeros are dropped with the offsets
    recounted. None for any other array."""
    if values.type != pa.string() or values.null_count:
        return None
    buffers = values.buffers()
    offsets = np.frombuffer(buffers[1], dtype=np.int32, count=len(values) + 1, offset=values.offset * 4)
    start, end = int(offsets[0]), int(offsets[-1])
    if end == start or buffers[2] is None:
        return None
    data = np.frombuffer(buffers[2], dtype=np.uint8)[start:end]
    if int(data.min()) < 0x21 or int(data.max()) > 0x7E:
        return None
    lower = data + ((data >= 0x41) & (data <= 0x5A)).view(np.uint8) * np.uint8(32)
    keep = lower != 0x30
    kept = np.zeros(len(data) + 1, dtype=np.int32)
    np.cumsum(keep, out=kept[1:])
    return pa.StringArray.from_buffers(len(values), pa.py_buffer(kept[offsets - start]), pa.py_buffer(lower[keep]))


def how_they_differ(a: str, b: str) -> str:
    """What separates two ids of one loose key: 'leading zeros', 'case', 'surrounding whitespace' (joined)."""
    parts = []
    if a.strip() != a or b.strip() != b:
        parts.append("surrounding whitespace")
    a, b = a.strip(), b.strip()
    if a.lower() != b.lower():
        parts.append("leading zeros")
    if _ZEROS.sub(r"\1\2", a) != _ZEROS.sub(r"\1\2", b):
        parts.append("case")
    return " and ".join(parts)


def loose_queries(run_queries: list[str], judged: list[str]) -> list[tuple[str, str]]:
    """Pairs (run query, judged query) of different ids with one loose key."""
    if not run_queries:  # (the usual case: every run query is judged; the judged ones' keys are not needed)
        return []
    keyed: dict[str, str] = {}
    for query in judged:
        keyed.setdefault(loose_key(query), query)
    return [(query, keyed[loose_key(query)]) for query in run_queries if loose_key(query) in keyed]


def _distinct(values: pa.Array) -> pa.Array:
    return values.dictionary if pa.types.is_dictionary(values.type) else unique(values)


def _positions(values: pa.Array, among: pa.Array) -> np.ndarray:
    """Position of each value in `among`, -1 when absent (int64; the nulls read from the validity bitmap:
    `pa.scalar` and `fill_null` would import pandas or pyarrow.compute)."""
    if not len(values):
        return np.zeros(0, dtype=np.int64)
    found = index_in(values, among)
    out = np.frombuffer(found.buffers()[1], dtype=np.int32, count=len(found), offset=found.offset * 4).astype(np.int64)
    if found.null_count:
        bits = np.unpackbits(np.frombuffer(found.buffers()[0], dtype=np.uint8), bitorder="little")
        out[~bits[found.offset:found.offset + len(found)].astype(bool)] = -1
    return out


def _doc_codes(dataset: Dataset, ids: pa.Array) -> np.ndarray:
    """Dataset codes of doc ids (each in the dataset's dictionary)."""
    return _positions(ids, dataset.docs)


def _pick(values: pa.Array, mask: np.ndarray) -> pa.Array:
    """The strings where `mask` is set."""
    return take(values, np.flatnonzero(mask))


def _in_sorted(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    if not len(sorted_set):
        return np.zeros(len(values), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_set, values), len(sorted_set) - 1)
    return sorted_set[at] == values


@dataclass(frozen=True)
class _QrelsKeys:
    """A qrels doc column's distinct ids and their keys (made once per column: `_qrels_keys`)."""

    column: pa.Array  # the qrels' doc column these are of (held, so that its identity stays its own)
    docs: pa.Array  # its distinct ids
    keys: pa.Array  # the distinct loose keys: one per group
    group: np.ndarray  # per distinct doc: its group
    group_size: np.ndarray  # per group: how many distinct docs
    coarse: pa.Array  # the distinct coarse keys (_coarse_keys) of the loose keys


_last: list[_QrelsKeys] = []  # the last qrels' keys: a track's runs, each its own dataset, share one qrels table


def _qrels_keys(column: pa.Array) -> _QrelsKeys:
    if _last and _last[0].column is column:
        return _last[0]
    docs = _distinct(column)
    encoded = dictionary_encode(_loose_keys(docs))
    group = array_to_numpy(encoded.indices).astype(np.int64)
    _last[:] = [_QrelsKeys(column, docs, encoded.dictionary, group, np.bincount(group, minlength=len(encoded.dictionary)),
                           unique(_coarse_keys(encoded.dictionary)))]
    return _last[0]


class JudgedKeys:
    """The qrels' distinct doc ids and their loose keys, grouped (made once per qrels column, read for every run)."""

    def __init__(self, dataset: Dataset) -> None:
        self.dataset = dataset
        made = _qrels_keys(dataset.qrels.table.doc)
        self.docs, self.keys, self.group, self.group_size, self.coarse = (made.docs, made.keys, made.group,
                                                                          made.group_size, made.coarse)


@dataclass
class LooseDocs:
    """Retrieved docs not judged for their query that match a doc judged for it only loosely."""

    rows: int  # how many such rows
    queries: int  # in how many queries
    example: tuple[str, str, str]  # (query, run doc, qrels doc)

    def warning(self, name: str) -> str:
        query, run_doc, qrels_doc = self.example
        docs = f"{self.rows} retrieved doc" + ("s" if self.rows != 1 else "")
        queries = f"{self.queries} quer" + ("ies" if self.queries != 1 else "y")
        one = self.rows == 1
        return (f"{name}: {docs} in {queries} {'matches' if one else 'match'} a doc judged for {'its' if one else 'their'} "
                f"query only up to leading zeros, case or surrounding whitespace, e.g. query {query!r}: run "
                f"{run_doc!r}, qrels {qrels_doc!r} ({how_they_differ(run_doc, qrels_doc)}): ids are compared as exact "
                f"strings, so {'it counts' if one else 'they count'} as unjudged (grade 0)")


def loose_docs(judged: JudgedKeys, run: InternedRun) -> LooseDocs | None:
    """The run's rows whose doc matches a doc judged for the same query only loosely (None when there is none).

    Only the docs whose key is shared by a judged doc, other than the doc itself, are looked up per row."""
    ds = judged.dataset
    if run.n_rows == 0 or not len(judged.docs):
        return None
    docs, codes = _run_docs(run)
    group = np.full(len(docs), -1, dtype=np.int64)  # per distinct run doc: the judged group of its loose key
    maybe = np.flatnonzero(_positions(_coarse_keys(docs), judged.coarse) >= 0)
    if not len(maybe):
        return None
    group[maybe] = _positions(_loose_keys(take(docs, maybe)), judged.keys)
    if codes is None:
        exact = _positions(docs, judged.docs) >= 0
    else:  # (a doc is judged for some query when its code is one of the qrels')
        judged_code = np.zeros(ds.n_docs, dtype=bool)
        judged_code[ds.qrels.d] = True
        exact = judged_code[codes]
    candidate = group >= 0
    candidate[candidate] &= ~(exact[candidate] & (judged.group_size[group[candidate]] == 1))
    if not candidate.any():
        return None
    groups = np.unique(group[candidate])
    judged_in = np.isin(judged.group, groups)
    group_of = np.full(ds.n_docs, -1, dtype=np.int64)  # per dataset doc code: its group, when it is looked up
    group_of[_doc_codes(ds, _pick(docs, candidate)) if codes is None else codes[candidate]] = group[candidate]
    group_of[_doc_codes(ds, _pick(judged.docs, judged_in))] = judged.group[judged_in]
    rows = np.flatnonzero(run.d_codes.per_row(group_of >= 0))
    q, d = run.q_codes.at(rows), run.d_codes.at(rows)
    n_groups = len(judged.keys)
    looked = group_of[ds.qrels.d] >= 0
    loose_set = np.unique(ds.qrels.q[looked] * n_groups + group_of[ds.qrels.d[looked]])
    loose = np.flatnonzero(_in_sorted(q * n_groups + group_of[d], loose_set))
    q, d = q[loose], d[loose]
    hit = ~_in_sorted(q * max(ds.n_docs, 1) + d, ds.qrels.key)  # (a doc judged as written is no loose match)
    if not hit.any():
        return None
    first = int(np.flatnonzero(hit)[0])
    q0, d0 = int(q[first]), int(d[first])
    partner = np.flatnonzero((ds.qrels.q == q0) & (group_of[ds.qrels.d] == group_of[d0]))[0]
    example = (str(ds.query_ids[q0]), str(ds.doc_ids[d0]), str(ds.doc_ids[ds.qrels.d[partner]]))
    return LooseDocs(int(hit.sum()), len(np.unique(q[hit])), example)


def _run_docs(run: InternedRun) -> tuple[pa.Array, np.ndarray | None]:
    """(the run's distinct doc ids, the dataset code of each or None): a dictionary-encoded column whose codes the
    run holds (its duplicates not resolved away) gives the codes without a look-up of the strings again."""
    column, table = run.table.doc, run.d_codes.table
    docs = _distinct(column)
    aligned = pa.types.is_dictionary(column.type) and table is not None and len(table) == len(docs)
    return docs, table if aligned else None


def any_judged_row(dataset: Dataset, run: InternedRun) -> bool:
    """Whether some row of the run names a doc judged for its query: the first rows first, then, only when
    they hold none, every row whose doc the qrels judge for some query."""
    ds = dataset
    n_docs = max(ds.n_docs, 1)
    sample = np.arange(min(run.n_rows, SAMPLE_ROWS))
    if _in_sorted(run.q_codes.at(sample) * n_docs + run.d_codes.at(sample), ds.qrels.key).any():
        return True
    judged_doc = np.zeros(ds.n_docs, dtype=bool)
    judged_doc[ds.qrels.d] = True
    rows = np.flatnonzero(run.d_codes.per_row(judged_doc))
    return bool(_in_sorted(run.q_codes.at(rows) * n_docs + run.d_codes.at(rows), ds.qrels.key).any())


def nothing_judged_warning(name: str, queries_in_common: int) -> str:
    """The warning of a run none of whose retrieved docs is judged (shown first: every score is 0)."""
    return (f"{name}: NO RETRIEVED DOC IS JUDGED: in its {counted(queries_in_common, 'query', 'queries')} in common "
            "with the qrels, "
            "not one row names a doc the qrels judge for that query, so every score is 0 (or undefined). This is "
            "almost always an id mismatch (doc ids written differently in the run and the qrels: a prefix, case, "
            "leading zeros) or the qrels of another collection or topic set")
