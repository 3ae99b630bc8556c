"""Python inputs: nested dicts `{qid: {docid: grade}}` / `{qid: {docid: score}}` and pandas DataFrames.

A query present with an empty dict is present (a run's list is empty: DCG 0), not missing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.io.tables import QrelsTable, RunTable, Source

QUERY_COLUMNS = ("query", "qid", "query_id", "topic")
DOC_COLUMNS = ("doc", "docid", "doc_id", "docno")
GRADE_COLUMNS = ("grade", "relevance", "rel", "label", "judgment")
SCORE_COLUMNS = ("score", "sim", "prediction")


def _id(value: Any, what: str, name: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return str(value)
    raise InputError(f"{what} id {value!r} is a {type(value).__name__}, not a string", source=name,
                     fix="use string ids (integers are accepted and turned into their decimal text)")


def _value(value: Any, what: str, name: str, query: str, doc: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{what} {value!r} of query {query!r} doc {doc!r} is not a number", source=name,
                         fix=f"every {what} must be a number") from None
    if isinstance(value, bool) or not math.isfinite(number):
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
    for option in options:
        if option in columns:
            return option
    raise InputError(f"no {what} column among {columns}", source=name,
                     fix=f"name the {what} column one of: {', '.join(options)}")


def _from_frame(frame: Any, name: str, what: str, value_columns: tuple[str, ...]):
    columns = [str(c) for c in frame.columns]
    q_col = _pick(columns, QUERY_COLUMNS, "query", name)
    d_col = _pick(columns, DOC_COLUMNS, "doc", name)
    v_col = _pick(columns, value_columns, what, name)
    for col in (q_col, d_col):
        series = frame[col]
        if series.isna().any():
            row = int(np.flatnonzero(series.isna().to_numpy())[0])
            raise InputError(f"empty {col} at row {row}", source=name, fix="every row needs a query and a doc id")
    queries = [_id(v, "query", name) for v in frame[q_col].tolist()]
    docs = [_id(v, "doc", name) for v in frame[d_col].tolist()]
    try:
        values = frame[v_col].to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"column {v_col!r} holds values that are not numbers", source=name,
                         fix=f"the {what} column must be numeric") from None
    bad = ~np.isfinite(values)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise InputError(f"{what} at row {row} (query {queries[row]!r}, doc {docs[row]!r}) is not a finite number",
                         source=name, fix=f"every {what} must be a finite number")
    return pa.array(queries, pa.string()), pa.array(docs, pa.string()), values, None


def _convert(data: Any, name: str, what: str, value_columns: tuple[str, ...]):
    if isinstance(data, Mapping):
        return _from_nested(data, name, what)
    if hasattr(data, "columns") and hasattr(data, "to_numpy"):
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
