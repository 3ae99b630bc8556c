"""Load a qrels or a run from whatever the caller holds: a path (TREC, Parquet, Arrow; `-` the standard input), a
dict, a DataFrame (pandas, polars, pyarrow), ir_datasets' namedtuples, a table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rankflavor.inputs.frames import qrels_from_python, run_from_python
from rankflavor.inputs.prefetch import Prefetched
from rankflavor.inputs.tables import QrelsTable, RunTable
from rankflavor.inputs.trec import read_trec_qrels, read_trec_run


def load_qrels(data: Any, name: str | None = None, defer_scan: bool = False) -> QrelsTable:
    """A qrels from a path, a dict {qid: {docid: grade}}, a DataFrame, namedtuples, or an already read QrelsTable."""
    if isinstance(data, QrelsTable):
        return data
    if isinstance(data, (str, Path)):
        return read_trec_qrels(data, defer_scan)
    return qrels_from_python(data, name or "qrels")


def load_run(data: Any, name: str | None = None, defer_scan: bool = False) -> RunTable:
    """A run from a path, a dict {qid: {docid: score}}, a DataFrame, namedtuples, or an already read RunTable."""
    if isinstance(data, RunTable):
        return data
    if isinstance(data, (str, Path)):
        return read_trec_run(data, defer_scan)
    if isinstance(data, Prefetched):
        return data.table(defer_scan)
    return run_from_python(data, name or "run")
