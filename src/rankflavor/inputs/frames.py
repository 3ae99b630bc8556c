"""Python inputs: nested dicts `{qid: {docid: grade}}` / `{qid: {docid: score}}` and pandas DataFrames.

A run's query with an empty dict is present (its list is empty: DCG 0), not missing. A qrels' query with an
empty dict is listed (counted in the provenance) but not judged: it has no judgment, as in a TREC file.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.tables import QrelsTable, RunTable, Source

QUERY_COLUMNS = ("query", "qid", "query_id", "topic")
DOC_COLUMNS = ("doc", "docid", "doc_id", "docno")
GRADE_COLUMNS = ("grade", "relevance", "rel", "label", "judgment")
SCORE_COLUMNS = ("score", "sim", "prediction")


def _id(value: Any, what: str, name: str) -> str:
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return str(value)
    if not isinstance(value, str):
        raise InputError(f"{what} id {value!r} is a {type(value).__name__}, not a string", source=name,
                         fix="use string ids (integers are accepted and turned into their decimal text)")
    if not value:
        raise InputError(f"an empty {what} id", source=name, fix=f"every row needs a non-empty {what} id")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{what} id {value!r} is not valid Unicode text (a lone surrogate)", source=name,
                         fix="decode the ids properly (e.g. bytes.decode('utf-8'))") from None
    return value


def _value(value: Any, what: str, name: str, query: str, doc: str) -> float:
    if isinstance(value, (bool, np.bool_, str, bytes, np.complexfloating)) or not isinstance(
            value, (numbers.Real, np.number, Decimal)):
        raise InputError(f"{what} {value!r} of query {query!r} doc {doc!r} is a {type(value).__name__}, not a number",
                         source=name, fix=f"every {what} must be a number (int or float)")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        number = math.inf
    if not math.isfinite(number):
        raise InputError(f"{what} {value!r} of query {query!r} doc {doc!r} is not a finite number", source=name,
                         fix=f"every {what} must be a finite number")
    return number


def _from_nested(data: Mapping, name: str, what: str):
    queries, docs, values, present = [], [], [], []
    for raw_query, items in data.items():
        query = _id(raw_query, "query", name)
        present.append(query)
        if not isinstance(items, Mapping):
            raise InputError(f"query {query!r} maps to a {type(items).__name__}, not a dict of doc -> {what}",
                             source=name, fix=f"use {{qid: {{docid: {what}}}}}")
        for raw_doc, value in items.items():
            doc = _id(raw_doc, "doc", name)
            queries.append(query)
            docs.append(doc)
            values.append(_value(value, what, name, query, doc))
    return (pa.array(queries, pa.string()), pa.array(docs, pa.string()), np.asarray(values, dtype=np.float64),
            pa.array(present, pa.string()))


def _pick(columns: list[str], options: tuple[str, ...], what: str, name: str) -> str:
    found = [option for option in options if option in columns]
    if len(found) > 1:
        raise InputError(f"several {what} columns: {', '.join(found)}", source=name,
                         fix=f"keep one {what} column (rankflavor does not guess which one you meant)")
    if found:
        return found[0]
    raise InputError(f"no {what} column among {columns}", source=name,
                     fix=f"name the {what} column one of: {', '.join(options)}")


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
        values = np.asarray([_value(v, what, name, queries[i], docs[i]) for i, v in enumerate(items)],
                            dtype=np.float64)
    bad = ~np.isfinite(values)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise InputError(f"{what} at row {row} (query {queries[row]!r}, doc {docs[row]!r}) is not a finite number",
                         source=name, fix=f"every {what} must be a finite number")
    return values


def _from_frame(frame: Any, name: str, what: str, value_columns: tuple[str, ...]):
    labels = {str(c): c for c in frame.columns}
    columns = [str(c) for c in frame.columns]
    if len(labels) != len(columns):
        repeated = sorted({c for c in columns if columns.count(c) > 1})
        raise InputError(f"repeated column names: {', '.join(repeated)}", source=name,
                         fix="give every column a distinct name")
    q_col = _pick(columns, QUERY_COLUMNS, "query", name)
    d_col = _pick(columns, DOC_COLUMNS, "doc", name)
    v_col = _pick(columns, value_columns, what, name)
    for col in (q_col, d_col):
        missing = frame[labels[col]].isna().to_numpy(dtype=bool)
        if missing.any():
            row = int(np.flatnonzero(missing)[0])
            raise InputError(f"empty {col} at row {row}", source=name, fix="every row needs a query and a doc id")
    queries = [_id(v, "query", name) for v in frame[labels[q_col]].tolist()]
    docs = [_id(v, "doc", name) for v in frame[labels[d_col]].tolist()]
    values = _frame_values(frame[labels[v_col]], what, name, queries, docs)
    return pa.array(queries, pa.string()), pa.array(docs, pa.string()), values, None


def _convert(data: Any, name: str, what: str, value_columns: tuple[str, ...]):
    if isinstance(data, Mapping):
        return _from_nested(data, name, what)
    if not hasattr(data, "iloc") and hasattr(data, "to_pandas") and hasattr(data, "columns"):
        data = data.to_pandas()  # a pyarrow Table, a polars DataFrame
    if hasattr(data, "columns") and hasattr(data, "iloc"):
        return _from_frame(data, name, what, value_columns)
    raise InputError(f"cannot read a {type(data).__name__} as {what}s", source=name,
                     fix="give a TREC file path, a dict {qid: {docid: value}} or a pandas DataFrame")


def qrels_from_python(data: Any, name: str = "qrels") -> QrelsTable:
    query, doc, grade, present = _convert(data, name, "grade", GRADE_COLUMNS)
    return QrelsTable(source=Source(name=name, kind=_kind(data)), query=query, doc=doc, grade=grade, queries=present)


def run_from_python(data: Any, name: str = "run") -> RunTable:
    query, doc, score, present = _convert(data, name, "score", SCORE_COLUMNS)
    return RunTable(source=Source(name=name, kind=_kind(data)), query=query, doc=doc, score=score, queries=present)


def _kind(data: Any) -> str:
    return "dict" if isinstance(data, Mapping) else "dataframe"
