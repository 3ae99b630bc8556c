"""A standard qrels and results file as trec_eval 10.0 reads them (get_qrels.c, get_trec_results.c), made the
tables rankflavor's engine evaluates.

The bytes are C's: a field is what lies between runs of C's isspace (space, \\t, \\v, \\f, \\r; a line ends at
\\n), a grade is atol of its field (`0.5` is 0, `1e1` is 1, `3x` is 3), a score atof of its own (`0x10` is 16,
`1e400` inf, `2.5abc` 2.5), an id is its bytes (a byte-order mark is part of the first line's query id). A
qrels line has exactly four fields, a `#` first on a line makes it a comment and the line after it is read as
data whatever it holds (so a blank line, or a second comment in a row with other than four fields, is
malformed: exit 2); a results line has six fields or more (the rest ignored), and a blank line or a `#` after
leading white space is skipped. The file ends at its first NUL byte, as C's string functions end there. Ids are
handed to the engine as latin-1 text: one character per byte, so the engine's order of ids is strcmp's, and
printing encodes them back to their bytes.

What C decides beyond the rows, kept here for the evaluation loop (dropin/trec_eval.py): the queries of the
results file (`present`, a query with its every doc cut by `-M 0` included), the queries with a doc judged
twice or ranked twice within its first -M docs (form_res_rels.c fails their measures: exit 4 when evaluated),
each query's highest grade, the judgments graded above 0 (m_num_rel.c's -c summary) and the runid (the last
results line's sixth field). A tidy file (printable ASCII, single spaces, no comment) is parsed by Arrow's CSV
reader, which splits it as C does; any other by the line loop below.
"""

from __future__ import annotations

import gzip
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from rankflavor.dropin.c_reading import TrecEvalExit
from rankflavor.dropin.te_text import c_atof, c_atol, judgment_lines
from rankflavor.inputs.tables import QrelsTable, RunTable, Source

ENCODING = "latin-1"  # ids: one character per byte (C's strcmp order is the characters' order)
STAND_IN = "ceci_nest_pas_un_docno"  # trec_eval.c's bogus ranking of a query -c adds: this doc, score 1.0


@dataclass
class CQrels:
    table: QrelsTable  # one row per (query, doc): of a doc judged twice, the first line's
    twice: set[str]  # queries with a doc judged twice
    top_grade: dict[str, int]  # per query, its highest grade
    positive: int  # judgment lines graded above 0 (duplicates included)


@dataclass
class CResults:
    table: RunTable  # the rows the engine ranks: each query's first -M docs, a doc ranked twice once
    present: set[str]  # the queries of the results file
    twice: set[str]  # queries with a doc twice among their first -M docs
    run_id: str


def file_bytes(path: str, what: str, stdin: bool) -> bytes:
    """The file's bytes up to its first NUL (a `.gz` file decompressed: rankflavor's extension); exit 2 when it
    cannot be read or is empty, as trec_eval's `0 >= size` check. `stdin`: a path starting with `-` is the
    standard input (get_trec_results.c reads stdin for any such name)."""
    try:
        if stdin and path.startswith("-"):
            data = sys.stdin.buffer.read()
        else:
            data = Path(path).read_bytes()
            if path.endswith(".gz") and data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
    except (OSError, EOFError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise TrecEvalExit(2, f"trec_eval: cannot read the {what} '{path}': {reason}") from None
    if not data:
        raise TrecEvalExit(2, f"trec_eval: the {what} '{path}' is empty (trec_eval cannot read an empty file)")
    end = data.find(b"\0")
    return data if end < 0 else data[:end]


def malformed(path: str, line: int, what: str, rule: str) -> TrecEvalExit:
    return TrecEvalExit(2, f"trec_eval: {path}:{line}: malformed {what} line: {rule}")


def tidy(data: bytes) -> bool:
    """Printable ASCII, one space between fields, a newline after each line (the last may lack it), no line
    starting with `#`: Arrow's CSV reader then splits every line as C does."""
    view = np.frombuffer(data, dtype=np.uint8)
    if view.max(initial=32) > 126 or data[:1] in (b" ", b"\n", b"#"):
        return False
    separator = (view == 32) | (view == 10)
    if np.count_nonzero(view < 32) != np.count_nonzero(view == 10):
        return False  # (a tab, CR or other control byte)
    if np.any(separator[1:] & separator[:-1]) or (data.endswith(b" ")):
        return False  # (an empty field or an empty line)
    return b"\n#" not in data


def _csv(data: bytes, names: list[str], wanted: list[str], floats: tuple[str, ...] = ()) -> pa.Table | None:
    import pyarrow.csv as pacsv

    types = {name: (pa.float64() if name in floats else pa.dictionary(pa.int32(), pa.string())) for name in wanted}
    try:
        return pacsv.read_csv(
            pa.BufferReader(data), read_options=pacsv.ReadOptions(column_names=names),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, double_quote=False,
                                             newlines_in_values=False, ignore_empty_lines=False),
            convert_options=pacsv.ConvertOptions(column_types=types, include_columns=wanted,
                                                 strings_can_be_null=False, null_values=[]))
    except (pa.ArrowException, ValueError):
        return None


def _atol_column(column: pa.ChunkedArray) -> np.ndarray:
    """atol of each value of a dictionary-encoded column, computed once per distinct text."""
    array = column.combine_chunks()
    table = np.array([c_atol(text.encode(ENCODING)) for text in array.dictionary.to_pylist()] or [0], np.int64)
    return table[array.indices.to_numpy(zero_copy_only=False)]


def read_qrels(path: str) -> CQrels:
    """get_qrels.c's reading (exit 2 on a malformed line), the rows ready for the engine."""
    data = file_bytes(path, "qrels file", stdin=False)
    table = _csv(data, ["query", "iter", "doc", "grade"], ["query", "doc", "grade"]) if tidy(data) else None
    if table is not None:
        query, doc = (table.column(name).combine_chunks().cast(pa.string()) for name in ("query", "doc"))
        grade = _atol_column(table.column("grade"))
    else:
        rows = []
        for line, fields in judgment_lines(data):
            if len(fields) != 4:
                raise malformed(path, line, "qrels", f"{len(fields)} fields where trec_eval reads exactly 4 (qid "
                                                     "iter docno rel; '#' starts a comment line, one at a time)")
            rows.append((fields[0].decode(ENCODING), fields[2].decode(ENCODING), c_atol(fields[3])))
        if not rows:
            raise malformed(path, 1, "qrels", "no judgment line")
        query, doc = pa.array([r[0] for r in rows], pa.string()), pa.array([r[1] for r in rows], pa.string())
        grade = np.array([r[2] for r in rows], dtype=np.int64)
    return _qrels_of(path, query, doc, grade)


def _qrels_of(path: str, query: pa.Array, doc: pa.Array, grade: np.ndarray) -> CQrels:
    q_codes, queries = _codes(query)
    d_codes, _docs = _codes(doc)
    key = q_codes * (int(d_codes.max(initial=0)) + 1) + d_codes
    _unique, first, counts = np.unique(key, return_index=True, return_counts=True)
    twice = {queries[q] for q in np.unique(q_codes[first[counts > 1]])}
    keep = np.sort(first)
    top = np.full(len(queries), np.iinfo(np.int64).min)
    np.maximum.at(top, q_codes, grade)
    source = Source(name=Path(path).name, path=path, kind="trec")
    table = QrelsTable(source, query.take(pa.array(keep)), doc.take(pa.array(keep)), grade[keep].astype(np.float64))
    return CQrels(table, twice, dict(zip(queries, top.tolist(), strict=True)), int(np.count_nonzero(grade > 0)))


def _codes(array: pa.Array) -> tuple[np.ndarray, list[str]]:
    """Each value's code and the distinct values (in order of first appearance)."""
    encoded = array.dictionary_encode()
    return encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64), encoded.dictionary.to_pylist()


def read_results(path: str) -> tuple[pa.Array, pa.Array, np.ndarray, str]:
    """get_trec_results.c's reading: (query, doc, score) per data line, and the last line's run_id."""
    data = file_bytes(path, "results file", stdin=True)
    names = ["query", "q0", "doc", "rank", "score", "tag"]
    table = _csv(data, names, ["query", "doc", "score", "tag"], floats=("score",)) if tidy(data) else None
    if table is not None and table.num_rows:
        query, doc = (table.column(name).combine_chunks().cast(pa.string()) for name in ("query", "doc"))
        tags = table.column("tag")
        return query, doc, table.column("score").to_numpy(), str(tags[len(tags) - 1].as_py())
    rows, run_id = [], b""
    for number, line in enumerate(data.split(b"\n"), start=1):
        fields = line.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        if len(fields) < 6:
            raise malformed(path, number, "results", f"{len(fields)} fields where trec_eval reads six or more "
                                                     "(qid iter docno rank sim run_id)")
        rows.append((fields[0].decode(ENCODING), fields[2].decode(ENCODING), c_atof(fields[4])))
        run_id = fields[5]
    if not rows:  # (C reads a run of comments only past its buffers: undefined)
        raise malformed(path, 1, "results", "no result line")
    return (pa.array([r[0] for r in rows], pa.string()), pa.array([r[1] for r in rows], pa.string()),
            np.array([r[2] for r in rows], dtype=np.float64), run_id.decode(ENCODING))


def c_order(q_codes: np.ndarray, docs: list[str], d_codes: np.ndarray, score: np.ndarray) -> np.ndarray:
    """The rows in form_res_rels.c's order: query, then score descending, ties by docno descending (strcmp)."""
    doc_rank = np.empty(len(docs), dtype=np.int64)
    doc_rank[np.argsort(np.array(docs, dtype=object), kind="stable")] = np.arange(len(docs))
    return np.lexsort((-doc_rank[d_codes], -score, q_codes))


def results_table(path: str, stand_in: list[str], max_docs: int | None) -> CResults:
    """The results as the engine is to rank them: each query's first `max_docs` in C's order (all of them when
    None; none when <= 0), a doc listed twice there once (its query in `twice`), the stand-in ranking of -c for
    the queries of `stand_in` the results lack, every query present (an emptied one too)."""
    query, doc, score, run_id = read_results(path)
    q_codes, queries = _codes(query)
    d_codes, docs = _codes(doc)
    key = q_codes * (len(docs) + 1) + d_codes
    finite = bool(np.isfinite(score).all())
    keep = np.arange(len(score))
    twice: set[str] = set()
    if max_docs is not None or not finite or len(np.unique(key)) < len(key):
        order = c_order(q_codes, docs, d_codes, score)
        starts = np.r_[0, np.flatnonzero(np.diff(q_codes[order])) + 1]
        rank = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
        order = order[rank < max_docs] if max_docs is not None else order
        _unique, first, counts = np.unique(key[order], return_index=True, return_counts=True)
        twice = {queries[q] for q in np.unique(q_codes[order[first[counts > 1]]])}
        keep = order[np.sort(first)]
        if not finite:  # (the engine ranks by score: C's order made the scores, -1 the first)
            score = np.empty(len(score))
            score[keep] = -np.arange(1, len(keep) + 1, dtype=np.float64)
    stand_in = [q for q in stand_in if q not in set(queries)]
    extra = [q for q in stand_in if max_docs is None or max_docs > 0]
    query = pa.concat_arrays([query.take(pa.array(keep)), pa.array(extra, pa.string())])
    doc = pa.concat_arrays([doc.take(pa.array(keep)), pa.array([STAND_IN] * len(extra), pa.string())])
    scores = np.r_[score[keep], np.ones(len(extra))]
    present = pa.array([*queries, *stand_in], pa.string())
    source = Source(name="run", path=None if path.startswith("-") else path, kind="trec")
    return CResults(RunTable(source, query, doc, scores, queries=present), set(queries), twice, run_id)
