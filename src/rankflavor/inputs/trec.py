"""Readers for TREC qrels (`qid iter docid grade`) and runs (`qid Q0 docid rank score tag`), plain or .gz; `-` is the
standard input. The default format of inputs/formats.py: a file no other format's signature or extension claims.

Plain ASCII files go through the compiled reader (`trec_compiled`, when built); other tidy files through the fast
pyarrow reader (`trec_fast`); anything else, and every file whose fast read fails, through the line reader
(`trec_lines`), so that an error names the file, the line, the text and the fix.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pyarrow as pa

from rankflavor import progress
from rankflavor.inputs.arrow_csv import arrow_pool
from rankflavor.inputs.arrow_numpy import array_to_numpy
from rankflavor.inputs.columns import QRELS_COLUMNS, RUN_COLUMNS
from rankflavor.inputs.stdin import STDIN_NAME, is_stdin
from rankflavor.inputs.tables import QrelsTable, RunTable, Source, file_source
from rankflavor.inputs.trec_compiled import CompiledRead, read_compiled
from rankflavor.inputs.trec_fast import read_fast
from rankflavor.limits import input_cap


def _read(path: Path, columns: tuple[str, ...], value_col: int, what: str, defer_scan: bool,
          parsed: pa.Table | None = None, raw: bytes | None = None,
          compiled: CompiledRead | None = None):
    source = file_source(path, "trec")
    regular = str(path) != STDIN_NAME and _regular_file(path)
    if regular and path.stat().st_size > input_cap():  # (the line reader's read refuses it: its NULs, or its size)
        regular = False
    if raw is None and not regular:
        raw = _lines().read_raw(path)  # (a pipe or the standard input is read once, here)
    if compiled is None and regular and raw is None and parsed is None:
        with progress.doing(f"reading {source.name}"):
            compiled = read_compiled(path, columns, value_col, defer_scan)
    if compiled is not None:  # (the compiled reader: inputs/trec_compiled.py)
        source.sha256, source.pending = compiled.sha256, compiled.pending
        source.comment_lines, source.blank_lines = compiled.comments, compiled.blanks
        return source, compiled.query, compiled.doc, compiled.values, None
    fast = read_fast(path, columns, value_col, defer_scan, parsed) if regular and raw is None else None
    if fast is not None and fast.table.num_rows > 0:
        pool = arrow_pool()
        query = fast.table.column(columns[0]).combine_chunks(pool)  # dictionary-encoded: data.py interns the codes
        doc = fast.table.column(columns[2]).combine_chunks(pool)
        values = array_to_numpy(fast.table.column(columns[value_col])).astype(np.float64, copy=False)
        lines = None
        source.sha256, source.pending = fast.sha256, fast.pending
    else:
        with progress.doing(f"reading {source.name}"):
            raw = _lines().read_raw(path) if raw is None else raw
            read = _lines().read_lines(path, columns, value_col, what, raw)
        source.comment_lines, source.blank_lines, source.extra_column_lines = read.comments, read.blanks, \
            read.extra_columns
        source.encoding = read.encoding
        query, doc, values, lines = read.query, read.doc, read.value, read.line
        source.sha256 = hashlib.sha256(raw).hexdigest()
    return source, query, doc, values, lines


def _regular_file(path: Path) -> bool:
    """A regular file that can be stat'ed (not a pipe, a directory, a missing or unreachable path)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _lines():
    """The line-by-line reader (inputs/trec_lines.py), imported when a file is not read by the fast one."""
    from rankflavor.inputs import trec_lines

    return trec_lines


def _path(path: str | Path) -> Path:
    """The path to read; `-` is the standard input (inputs/stdin.py)."""
    return Path(STDIN_NAME) if is_stdin(path) else Path(path)


def read_trec_qrels(path: str | Path, defer_scan: bool = False, raw: bytes | None = None) -> QrelsTable:
    """Read a TREC qrels file: `qid iter docid grade` per line (`-` the standard input; `raw` its bytes when read
    already). defer_scan: see `settle`."""
    source, query, doc, grade, lines = _read(_path(path), QRELS_COLUMNS, 3, "grade", defer_scan, raw=raw)
    return QrelsTable(source=source, query=query, doc=doc, grade=grade, line=lines)


def read_trec_run(path: str | Path, defer_scan: bool = False, parsed: pa.Table | None = None,
                  raw: bytes | None = None, compiled: CompiledRead | None = None) -> RunTable:
    """Read a TREC run file: `qid Q0 docid rank score tag` per line (`-` the standard input; `raw` its bytes when
    read already; the rank column is ignored, as trec_eval does;
    columns after the sixth are skipped and the lines that have them counted, as trec_eval skips them).
    defer_scan: see `settle`; parsed: see trec_fast.read_fast; compiled: the compiled reader's table of the file,
    read ahead (inputs/prefetch.py)."""
    source, query, doc, score, lines = _read(_path(path), RUN_COLUMNS, 4, "score", defer_scan, parsed, raw, compiled)
    return RunTable(source=source, query=query, doc=doc, score=score, line=lines)


def read_qrels(path: Path, raw: bytes | None, defer_scan: bool) -> QrelsTable:
    """The reader of inputs/formats.py's table."""
    return read_trec_qrels(path, defer_scan, raw)


def read_run(path: Path, raw: bytes | None, defer_scan: bool, qrels: QrelsTable | None) -> RunTable:
    """The reader of inputs/formats.py's table (a TREC run names its documents: `qrels` is not read)."""
    return read_trec_run(path, defer_scan, raw=raw)


def run_tag(path: str | Path) -> str | None:
    """The tag (sixth column) of a TREC run file's first line, what trec_eval prints as its runid (m_runid.c
    prints the tag of the last query it evaluates: a run's lines normally share one tag); None when unreadable."""
    import gzip

    path = Path(path)
    try:
        with (gzip.open(path, "rt") if path.suffix == ".gz" else path.open()) as stream:
            for line in stream:
                fields = line.split()
                if fields and not line.startswith("#"):
                    return fields[5] if len(fields) > 5 else None
    except (OSError, UnicodeDecodeError, EOFError):
        return None
    return None


def settle(source: Source) -> bool:
    """Wait for a deferred scan (`defer_scan=True`): fill the source's sha256; False when the file must be read
    again without deferring (it is not plain, or it changed or vanished), so that its table, errors and line
    numbers are those of the strict reader. True for a source read without deferring."""
    if source.pending is None:
        return True
    digest, plain = source.pending.wait()
    source.pending = None
    source.sha256 = digest
    return plain and digest is not None


def row_lines(table: QrelsTable | RunTable) -> np.ndarray:
    """The source line of every row of a table read without line numbers (formats.line_of asks for them when an
    error names a line): row + 1 for a file with no blank or comment line (one row per line), else the file read
    line by line."""
    source = table.source
    if not (source.comment_lines or source.blank_lines):
        return np.arange(1, len(table.doc) + 1, dtype=np.int64)
    path = Path(source.path or source.name)  # (<stdin>: its kept bytes)
    is_run = isinstance(table, RunTable)
    cols, col = (RUN_COLUMNS, 4) if is_run else (QRELS_COLUMNS, 3)
    return _lines().read_lines(path, cols, col, "score" if is_run else "grade").line
