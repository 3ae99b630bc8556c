"""Parquet and Arrow IPC files (Feather v2 `.feather`/`.arrow`, and the IPC stream format) as a qrels or a run,
told by their first bytes, whatever their name: `PAR1` (Parquet), `ARROW1` (an Arrow file), `FEA1` (Feather
v1), the IPC stream's continuation marker (inputs/formats.py). Their columns are named as a DataFrame's may be
(inputs/columns.py) and checked as any table is (inputs/arrow_table.py); errors name the file.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.tables import QrelsTable, RunTable, file_source

_MAGIC = ((b"PAR1", "parquet"), (b"ARROW1", "arrow"), (b"FEA1", "arrow"), (b"\xff\xff\xff\xff", "arrow-stream"))
_NAMES = {"parquet": "Parquet", "arrow": "Arrow IPC (Feather)", "arrow-stream": "Arrow IPC stream"}


def columnar_kind(head: bytes) -> str | None:
    """`parquet`, `arrow` or `arrow-stream` when the bytes start as such a file does, else None."""
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    return None


def file_head(path: Path, size: int = 8) -> bytes:
    """The first bytes of a regular file (b'' when it cannot be read: the reader then says why)."""
    try:
        with Path(path).open("rb") as handle:
            return handle.read(size)
    except (OSError, ValueError):
        return b""


def read_columnar(raw: bytes, kind: str, source: str) -> tuple[pa.Table, str]:
    """(the table, the SHA-256 of the bytes) of a Parquet or Arrow file's bytes; InputError when unreadable."""
    try:
        reader = pa.BufferReader(raw)
        if kind == "parquet":
            import pyarrow.parquet as pq

            table = pq.read_table(reader)
        elif kind == "arrow":
            import pyarrow.feather as feather

            table = feather.read_table(reader)
        else:
            table = pa.ipc.open_stream(reader).read_all()
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise InputError(f"not a readable {_NAMES[kind]} file ({exc})", source=source,
                         fix="the file is truncated or corrupt: write it again") from None
    return table, hashlib.sha256(raw).hexdigest()


def _read(path: Path, raw: bytes | None, what: str) -> tuple:
    from rankflavor.inputs.arrow_table import columns_of
    from rankflavor.inputs.columns import GRADE_COLUMNS, SCORE_COLUMNS, set_aside
    from rankflavor.inputs.trec_lines import read_raw

    raw = read_raw(path) if raw is None else raw
    kind = columnar_kind(raw[:8]) or "parquet"
    table, sha256 = read_columnar(raw, kind, str(path))
    source = file_source(path, "parquet" if kind == "parquet" else "arrow")
    source.sha256 = sha256
    source.columns_set_aside = set_aside(table.column_names)
    values = GRADE_COLUMNS if what == "grade" else SCORE_COLUMNS
    return (source, *columns_of(table, str(path), what, values))


def read_qrels(path: Path, raw: bytes | None, defer_scan: bool) -> QrelsTable:
    """A Parquet or Arrow qrels (inputs/formats.py's table)."""
    source, query, doc, grade = _read(path, raw, "grade")
    return QrelsTable(source=source, query=query, doc=doc, grade=grade)


def read_run(path: Path, raw: bytes | None, defer_scan: bool, qrels: QrelsTable | None) -> RunTable:
    """A Parquet or Arrow run (inputs/formats.py's table)."""
    source, query, doc, score = _read(path, raw, "score")
    return RunTable(source=source, query=query, doc=doc, score=score)
