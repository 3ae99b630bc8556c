"""Parquet and Arrow IPC files (Feather v2 `.feather`/`.arrow`, and the IPC stream format) as a qrels or a run,
told by their first bytes, whatever their name: `PAR1` (Parquet), `ARROW1` (an Arrow file), `FEA1` (Feather
v1), the IPC stream's continuation marker (inputs/formats.py). Their columns are named as a DataFrame's may be
(inputs/columns.py) and checked as any table is (inputs/arrow_table.py); errors name the file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.bounded import cap_error
from rankflavor.inputs.ipc_sizes import Malformed, declared_size
from rankflavor.inputs.tables import QrelsTable, RunTable, file_source
from rankflavor.limits import input_cap

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


def read_columnar(raw: bytes, kind: str, source: str, pick: Callable[[list[str]], Sequence[str]] | None = None,
                  ) -> tuple[pa.Table, str, list[str]]:
    """(the table of the columns `pick` chooses among the file's names (every column without it), the SHA-256 of
    the bytes, every column's name) of a Parquet or Arrow file's bytes. What the file declares those columns hold
    once read is checked against the input cap first (Parquet: its metadata's rows and page sizes, string columns
    read dictionary-encoded; Arrow IPC: its batches' buffer lengths, a compressed buffer's own uncompressed length);
    InputError when unreadable or past the cap."""
    try:
        reader = pa.BufferReader(raw)
        if kind == "parquet":
            table, names = _parquet(raw, source, pick)
        else:
            table, names = _ipc(raw, reader, kind, source, pick)
    except (pa.ArrowException, OSError, ValueError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"not a readable {_NAMES[kind]} file ({exc})", source=source,
                         fix="the file is truncated or corrupt: write it again") from None
    return table, hashlib.sha256(raw).hexdigest(), names


def _read(path: Path, raw: bytes | None, what: str) -> tuple:
    from rankflavor.inputs.arrow_table import columns_of
    from rankflavor.inputs.columns import GRADE_COLUMNS, SCORE_COLUMNS, pick_roles, set_aside
    from rankflavor.inputs.trec_lines import read_raw

    raw = read_raw(path) if raw is None else raw
    kind = columnar_kind(raw[:8]) or "parquet"
    values = GRADE_COLUMNS if what == "grade" else SCORE_COLUMNS
    table, sha256, names = read_columnar(raw, kind, str(path), lambda names: pick_roles(names, values, what, str(path)))
    source = file_source(path, "parquet" if kind == "parquet" else "arrow")
    source.sha256 = sha256
    source.columns_set_aside = set_aside(names)
    return (source, *columns_of(table, str(path), what, values))


def read_qrels(path: Path, raw: bytes | None, defer_scan: bool) -> QrelsTable:
    """A Parquet or Arrow qrels (inputs/formats.py's table)."""
    source, query, doc, grade = _read(path, raw, "grade")
    return QrelsTable(source=source, query=query, doc=doc, grade=grade)


def read_run(path: Path, raw: bytes | None, defer_scan: bool, qrels: QrelsTable | None) -> RunTable:
    """A Parquet or Arrow run (inputs/formats.py's table)."""
    source, query, doc, score = _read(path, raw, "score")
    return RunTable(source=source, query=query, doc=doc, score=score)


def _parquet(raw: bytes, source: str, pick: Callable[[list[str]], Sequence[str]] | None,
             ) -> tuple[pa.Table, list[str]]:
    import pyarrow.parquet as pq

    handle = pq.ParquetFile(pa.BufferReader(raw))
    schema = handle.schema_arrow
    names = list(schema.names)
    chosen = list(pick(names)) if pick is not None else names
    strings = [c for c in chosen if _textual(schema.field(c).type)]
    metadata = handle.metadata
    leaves: dict[str, list[int]] = {}
    for i in range(metadata.num_columns):
        leaves.setdefault(metadata.schema.column(i).path.split(".")[0], []).append(i)
    pages = sum(metadata.row_group(g).column(i).total_uncompressed_size for g in range(metadata.num_row_groups)
                for c in chosen for i in leaves.get(c, []))
    declared = pages + metadata.num_rows * (4 * len(strings) + 8 * (len(chosen) - len(strings)))
    if declared > input_cap():
        raise cap_error(source, declared, "declares")
    return pq.ParquetFile(pa.BufferReader(raw), read_dictionary=strings or None).read(columns=chosen), names


def _ipc(raw: bytes, reader: pa.BufferReader, kind: str, source: str,
         pick: Callable[[list[str]], Sequence[str]] | None) -> tuple[pa.Table, list[str]]:
    if kind != "arrow" or raw.startswith(b"ARROW1"):  # (Feather v1, FEA1, is uncompressed: its bytes are its data)
        try:
            declared = declared_size(raw, 8 if kind == "arrow" else 0)
        except Malformed as exc:
            raise InputError(f"not a readable {_NAMES[kind]} file ({exc})", source=source,
                             fix="the file is truncated or corrupt: write it again") from None
        if declared > input_cap():
            raise cap_error(source, declared, "declares")
    if kind == "arrow":
        import pyarrow.feather as feather

        table = feather.read_table(reader)
    else:
        table = pa.ipc.open_stream(reader).read_all()
    names = list(table.column_names)
    return (table.select(list(pick(names))) if pick is not None else table), names


def _textual(kind: pa.DataType) -> bool:
    return pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_binary(kind) or \
        pa.types.is_large_binary(kind)
