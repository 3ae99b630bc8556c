"""standard_read.read_qrels and read_results' parsing as it was before te_parse.py (commit 1284a98), kept frozen
for tests/dropin/test_te_parse.py: Arrow's CSV reader for a tidy file, else the Python line loop. Their rows, the
arguments read_qrels handed to _qrels_of and what read_results returned, as Python lists."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from rankflavor.dropin.c_reading import TrecEvalExit
from rankflavor.dropin.te_text import c_atof, c_atol, judgment_lines

ENCODING = "latin-1"


def malformed(path: str, line: int, what: str, rule: str) -> TrecEvalExit:
    return TrecEvalExit(2, f"trec_eval: {path}:{line}: malformed {what} line: {rule}")


def tidy(data: bytes) -> bool:
    view = np.frombuffer(data, dtype=np.uint8)
    if view.max(initial=32) > 126 or data[:1] in (b" ", b"\n", b"#"):
        return False
    separator = (view == 32) | (view == 10)
    if np.count_nonzero(view < 32) != np.count_nonzero(view == 10):
        return False
    if np.any(separator[1:] & separator[:-1]) or (data.endswith(b" ")):
        return False
    return b"\n#" not in data


def _csv(data: bytes, names: list[str], wanted: list[str], floats: tuple[str, ...] = ()) -> pa.Table | None:
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
    array = column.combine_chunks()
    table = np.array([c_atol(text.encode(ENCODING)) for text in array.dictionary.to_pylist()] or [0], np.int64)
    return table[array.indices.to_numpy(zero_copy_only=False)]


def reference_qrels(data: bytes, path: str) -> tuple[list[str], list[str], np.ndarray]:
    """(query, doc, grade) per judgment line, as read_qrels passed them to _qrels_of."""
    table = _csv(data, ["query", "iter", "doc", "grade"], ["query", "doc", "grade"]) if tidy(data) else None
    if table is not None:
        query, doc = (table.column(name).combine_chunks().cast(pa.string()) for name in ("query", "doc"))
        return query.to_pylist(), doc.to_pylist(), _atol_column(table.column("grade"))
    rows = []
    for line, fields in judgment_lines(data):
        if len(fields) != 4:
            raise malformed(path, line, "qrels", f"{len(fields)} fields where trec_eval reads exactly 4 (qid "
                                                 "iter docno rel; '#' starts a comment line, one at a time)")
        rows.append((fields[0].decode(ENCODING), fields[2].decode(ENCODING), c_atol(fields[3])))
    if not rows:
        raise malformed(path, 1, "qrels", "no judgment line")
    return [r[0] for r in rows], [r[1] for r in rows], np.array([r[2] for r in rows], dtype=np.int64)


def reference_results(data: bytes, path: str) -> tuple[list[str], list[str], np.ndarray, str]:
    """(query, doc, score) per data line and the run_id, as read_results returned them."""
    names = ["query", "q0", "doc", "rank", "score", "tag"]
    table = _csv(data, names, ["query", "doc", "score", "tag"], floats=("score",)) if tidy(data) else None
    if table is not None and table.num_rows:
        query, doc = (table.column(name).combine_chunks().cast(pa.string()) for name in ("query", "doc"))
        tags = table.column("tag")
        return query.to_pylist(), doc.to_pylist(), table.column("score").to_numpy(), str(tags[len(tags) - 1].as_py())
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
    if not rows:
        raise malformed(path, 1, "results", "no result line")
    return ([r[0] for r in rows], [r[1] for r in rows], np.array([r[2] for r in rows], dtype=np.float64),
            run_id.decode(ENCODING))
