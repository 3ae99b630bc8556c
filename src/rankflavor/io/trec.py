"""Readers for TREC qrels (`qid iter docid grade`) and runs (`qid Q0 docid rank score tag`), plain or .gz.

Columns are separated by any run of spaces or tabs; CRLF endings, a UTF-8 BOM, blank lines and comment
lines (first non-blank character `#`) are accepted and counted. Tidy files go through pyarrow's CSV
reader; anything else, and every file whose tidy read fails or whose values fail validation, is read
line by line so that the error names the file, the line, the text and the fix.
"""

from __future__ import annotations

import gzip
import hashlib
import math
import zlib
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from rankflavor.errors import InputError
from rankflavor.io.tables import QrelsTable, RunTable, Source

QRELS_COLUMNS = ("query", "iteration", "doc", "grade")
RUN_COLUMNS = ("query", "q0", "doc", "rank", "score", "tag")
_HEADER_WORDS = {"qid", "query", "query_id", "topic", "docid", "doc", "doc_id", "docno", "score", "rank",
                 "relevance", "rel", "grade", "label", "iter", "iteration", "q0", "tag", "run"}


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _open_bytes(path: Path) -> bytes:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", source=str(path), fix="check the path") from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", source=str(path), fix="give the path of a file") from None
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror})", source=str(path),
                         fix="check the path and its permissions") from None
    if path.suffix == ".gz" or raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
            raise InputError(f"broken gzip data ({exc})", source=str(path),
                             fix="the .gz file is truncated or corrupt; compress it again") from None
    return raw


def _decode(raw: bytes, path: Path) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw[:65536]:
        raise InputError("this is not a text file (it contains NUL bytes)", source=str(path),
                         fix="give a TREC text file, plain or .gz")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError("not valid UTF-8 text", source=str(path), line=line,
                         text=raw[max(0, exc.start - 20): exc.end + 20].decode("utf-8", "replace"),
                         fix="save the file as UTF-8") from None


def _number(text: str, what: str, path: Path, line_no: int, line: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{what} {text!r} is not a number", source=str(path), line=line_no, text=line,
                         fix=f"the {what} column must hold a number") from None
    if not math.isfinite(value):
        raise InputError(f"{what} {text!r} is not a finite number", source=str(path), line=line_no, text=line,
                         fix=f"replace NaN/infinite {what}s with finite numbers, or drop those rows")
    return value


def _looks_like_header(fields: list[str]) -> bool:
    return any(f.lower().lstrip("#") in _HEADER_WORDS for f in fields)


def _read_lines(path: Path, columns: tuple[str, ...], value_col: int, what: str):
    """Line-by-line reader: (query, doc, value, line numbers, comment count, blank count)."""
    text = _decode(_open_bytes(path), path)
    queries: list[str] = []
    docs: list[str] = []
    values: list[float] = []
    lines: list[int] = []
    comments = blanks = 0
    for line_no, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if not stripped:
            blanks += 1
            continue
        if stripped.startswith("#"):
            comments += 1
            continue
        fields = stripped.split()
        if len(fields) != len(columns):
            if _looks_like_header(fields):
                raise InputError("this line looks like a header", source=str(path), line=line_no,
                                 text=line.rstrip("\r"),
                                 fix="TREC files have no header line: delete it (or start it with #)")
            raise InputError(
                f"expected {len(columns)} columns ({' '.join(columns)}), found {len(fields)}",
                source=str(path), line=line_no, text=line.rstrip("\r"),
                fix=f"every line must be '{' '.join(columns)}', separated by spaces or tabs",
            )
        try:
            value = float(fields[value_col])
        except ValueError:
            value = None
        if value is None and _looks_like_header(fields):
            raise InputError("this line looks like a header", source=str(path), line=line_no, text=line.rstrip("\r"),
                             fix="TREC files have no header line: delete it (or start it with #)")
        value = _number(fields[value_col], what, path, line_no, line.rstrip("\r"))
        queries.append(fields[0])
        docs.append(fields[2])
        values.append(value)
        lines.append(line_no)
    return queries, docs, values, np.asarray(lines, dtype=np.int64), comments, blanks


def _read_fast(path: Path, columns: tuple[str, ...], value_col: int) -> pa.Table | None:
    """pyarrow's CSV reader on a tidy file (single spaces, no comments); None when it does not apply."""
    types = {name: pa.string() for name in columns}
    types[columns[value_col]] = pa.float64()
    try:
        stream = pa.input_stream(str(path), compression="gzip" if path.suffix == ".gz" else None)
        table = pacsv.read_csv(
            stream,
            read_options=pacsv.ReadOptions(column_names=list(columns), block_size=64 << 20),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, double_quote=False,
                                             newlines_in_values=False),
            convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False,
                                                 quoted_strings_can_be_null=False, null_values=[]),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, OSError, EOFError):
        return None
    values = table.column(columns[value_col]).to_numpy()
    if not np.isfinite(values).all():
        return None
    for name in (columns[0], columns[2]):
        col = table.column(name)
        if len(col) and (pc.any(pc.equal(col, "")).as_py()
                         or pc.any(pc.starts_with(col, "#")).as_py()
                         or pc.any(pc.match_substring_regex(col, r"[\t\r\x{FEFF}]")).as_py()):
            return None
    return table


def _read(path: Path, columns: tuple[str, ...], value_col: int, what: str):
    path = Path(path)
    source = Source(name=path.name, path=str(path), kind="trec")
    table = _read_fast(path, columns, value_col) if path.exists() else None
    if table is not None and table.num_rows > 0:
        query = table.column(columns[0]).combine_chunks()
        doc = table.column(columns[2]).combine_chunks()
        values = table.column(columns[value_col]).to_numpy().astype(np.float64)
        lines = None
    else:
        q, d, v, lines, source.comment_lines, source.blank_lines = _read_lines(path, columns, value_col, what)
        query, doc, values = pa.array(q, pa.string()), pa.array(d, pa.string()), np.asarray(v, dtype=np.float64)
    source.sha256 = file_sha256(path)
    return source, query, doc, values, lines


def read_trec_qrels(path: str | Path) -> QrelsTable:
    """Read a TREC qrels file: `qid iter docid grade` per line."""
    source, query, doc, grade, lines = _read(Path(path), QRELS_COLUMNS, 3, "grade")
    return QrelsTable(source=source, query=query, doc=doc, grade=grade, line=lines)


def read_trec_run(path: str | Path) -> RunTable:
    """Read a TREC run file: `qid Q0 docid rank score tag` per line (the rank column is ignored, as trec_eval does)."""
    source, query, doc, score, lines = _read(Path(path), RUN_COLUMNS, 4, "score")
    return RunTable(source=source, query=query, doc=doc, score=score, line=lines)


def line_of(table: QrelsTable | RunTable, row: int) -> int | None:
    """The source line of a row, reading the file line by line when the fast reader kept no line numbers."""
    if table.source.kind != "trec":
        return None
    if table.line is None:
        path = Path(table.source.path or "")
        is_run = isinstance(table, RunTable)
        cols, col = (RUN_COLUMNS, 4) if is_run else (QRELS_COLUMNS, 3)
        table.line = _read_lines(path, cols, col, "score" if is_run else "grade")[3]
    return int(table.line[row])
