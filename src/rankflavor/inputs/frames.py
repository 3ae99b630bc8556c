"""Python inputs: nested dicts `{qid: {docid: grade}}` / `{qid: {docid: score}}`, pandas DataFrames, and (through
Arrow: inputs/arrow_table.py) pyarrow Tables, polars DataFrames and LazyFrames and ir_datasets' namedtuples.

A run's query with an empty dict is present (its list is empty: DCG 0), not missing. A qrels' query with an
empty dict is listed (counted in the provenance) but not judged: it has no judgment, as in a TREC file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.arrow_table import as_arrow, columns_of
from rankflavor.inputs.columns import GRADE_COLUMNS, SCORE_COLUMNS, pick_roles, set_aside
from rankflavor.inputs.namedtuples import is_rows, rows_table
from rankflavor.inputs.python_values import check_id, check_value
from rankflavor.inputs.tables import QrelsTable, RunTable, Source


def _from_nested(data: Mapping, name: str, what: str):
    queries, docs, values, present = [], [], [], []
    for raw_query, items in data.items():
        query = check_id(raw_query, "query", name)
        present.append(query)
        if not isinstance(items, Mapping):
            raise InputError(f"query {query!r} maps to a {type(items).__name__}, not a dict of doc -> {what}",
                             source=name, fix=f"use {{qid: {{docid: {what}}}}}")
        for raw_doc, value in items.items():
            doc = check_id(raw_doc, "doc", name)
            queries.append(query)
            docs.append(doc)
            values.append(check_value(value, what, name, query, doc))
    return (pa.array(queries, pa.string()), pa.array(docs, pa.string()), np.asarray(values, dtype=np.float64),
            pa.array(present, pa.string()))


def _frame_values(series: Any, what: str, name: str, queries: list[str], docs: list[str]) -> np.ndarray:
    import pandas as pd

    missing = series.isna().to_numpy(dtype=bool)
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise InputError(f"{what} at row {row} (query {queries[row]!r}, doc {docs[row]!r}) is missing (NaN/None)",
                         source=name, fix=f"every {what} must be a finite number; drop or fill the empty ones")
    if pd.api.types.is_bool_dtype(series.dtype):
        raise InputError(f"the {what} column holds booleans", source=name, fix=f"the {what} column must be numeric")
    if pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_complex_dtype(series.dtype):
        values = series.to_numpy(dtype=np.float64)
    else:
        items = series.tolist()
        values = np.asarray([check_value(v, what, name, queries[i], docs[i]) for i, v in enumerate(items)],
                            dtype=np.float64)
    bad = ~np.isfinite(values)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise InputError(f"{what} at row {row} (query {queries[row]!r}, doc {docs[row]!r}) is not a finite number",
                         source=name, fix=f"every {what} must be a finite number")
    return values


def _from_frame(frame: Any, name: str, what: str, value_columns: tuple[str, ...]):
    labels = {str(c): c for c in frame.columns}
    q_col, d_col, v_col = pick_roles([str(c) for c in frame.columns], value_columns, what, name)
    for col in (q_col, d_col):
        missing = frame[labels[col]].isna().to_numpy(dtype=bool)
        if missing.any():
            row = int(np.flatnonzero(missing)[0])
            raise InputError(f"empty {col} at row {row}", source=name, fix="every row needs a query and a doc id")
    queries = [check_id(v, "query", name) for v in frame[labels[q_col]].tolist()]
    docs = [check_id(v, "doc", name) for v in frame[labels[d_col]].tolist()]
    values = _frame_values(frame[labels[v_col]], what, name, queries, docs)
    return pa.array(queries, pa.string()), pa.array(docs, pa.string()), values, None


def _convert(data: Any, name: str, what: str, value_columns: tuple[str, ...]):
    """(query ids, doc ids, values, the queries present or None, the source's kind, the columns set aside)."""
    if isinstance(data, Mapping):
        return (*_from_nested(data, name, what), "dict", {})
    table = as_arrow(data)  # a pyarrow Table, a polars DataFrame or LazyFrame
    if table is not None:
        return (*columns_of(table, name, what, value_columns), None, "dataframe", set_aside(table.column_names))
    if is_rows(data):  # ir_datasets' namedtuples
        table = rows_table(data, name, what, value_columns)
        return (*columns_of(table, name, what, value_columns), None, "namedtuples", {})
    if not hasattr(data, "iloc") and hasattr(data, "to_pandas") and hasattr(data, "columns"):
        data = data.to_pandas()  # another frame library's DataFrame
    if hasattr(data, "columns") and hasattr(data, "iloc"):
        aside = set_aside([str(c) for c in data.columns])
        return (*_from_frame(data, name, what, value_columns), "dataframe", aside)
    raise InputError(f"cannot read a {type(data).__name__} as {what}s", source=name,
                     fix="give a file path (TREC, CSV, Parquet, ...: docs/inputs.md), a dict {qid: {docid: value}}, "
                         "a pandas or polars DataFrame, a pyarrow Table, or namedtuples (query_id, doc_id, "
                         f"{'relevance' if what == 'grade' else 'score'}) as ir_datasets yields")


def qrels_from_python(data: Any, name: str = "qrels") -> QrelsTable:
    query, doc, grade, present, kind, aside = _convert(data, name, "grade", GRADE_COLUMNS)
    return QrelsTable(source=Source(name=name, kind=kind, columns_set_aside=aside), query=query, doc=doc,
                      grade=grade, queries=present)


def run_from_python(data: Any, name: str = "run") -> RunTable:
    query, doc, score, present, kind, aside = _convert(data, name, "score", SCORE_COLUMNS)
    return RunTable(source=Source(name=name, kind=kind, columns_set_aside=aside), query=query, doc=doc,
                    score=score, queries=present)
