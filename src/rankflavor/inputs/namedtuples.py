"""ir_datasets-style inputs: an iterable (list, tuple, generator) of namedtuples, such as `qrels_iter()`'s
`TrecQrel(query_id, doc_id, relevance, iteration)` and `scoreddocs_iter()`'s `ScoredDoc(query_id, doc_id, score)`.

The fields are named as a DataFrame's columns may be (inputs/columns.py); every row must be of the first
row's type. The rows become an Arrow table, checked as any table is (inputs/arrow_table.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import chain
from pathlib import Path
from typing import Any

import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.columns import DOC_COLUMNS, QUERY_COLUMNS, pick
from rankflavor.inputs.python_values import check_id, check_value


def _is_namedtuple(item: Any) -> bool:
    return isinstance(item, tuple) and isinstance(getattr(type(item), "_fields", None), tuple)


def is_rows(data: Any) -> bool:
    """True for an iterator (a generator: never consumed here) or a list or tuple whose first item is a namedtuple;
    not for a mapping, a path, a string or a DataFrame."""
    if isinstance(data, (str, bytes, Path, Mapping)) or _is_namedtuple(data) or hasattr(data, "columns"):
        return False
    if isinstance(data, (list, tuple)):
        return bool(data) and _is_namedtuple(data[0])
    return isinstance(data, Iterator)


def _array(items: list[Any], convert: Any) -> pa.Array:
    """Arrow's array of `items`; when Arrow cannot hold them in one type, of `convert(i, item)` for each, which
    turns a mixed column into one type (ints and strings into ids) or raises the reader's message."""
    try:
        return pa.array(items)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        return pa.array([convert(i, item) for i, item in enumerate(items)])


def rows_table(data: Iterable[Any], name: str, what: str, value_columns: tuple[str, ...]) -> pa.Table:
    """The rows as a table with their own field names (the query, doc and value fields only)."""
    rows = iter(data)
    first = next(rows, None)
    if first is None:
        return pa.table({"query": pa.array([], pa.string()), "doc": pa.array([], pa.string()),
                         value_columns[0]: pa.array([], pa.float64())})
    if not _is_namedtuple(first):
        raise InputError(f"row 0 is a {type(first).__name__}, not a namedtuple", source=name,
                         fix="give namedtuples with fields query_id, doc_id and "
                             f"{'relevance' if what == 'grade' else 'score'} (as ir_datasets yields), a dict "
                             "or a DataFrame")
    kind = type(first)
    fields = kind._fields
    cols = [pick(fields, QUERY_COLUMNS, "query", name), pick(fields, DOC_COLUMNS, "doc", name),
            pick(fields, value_columns, what, name)]
    at = [fields.index(c) for c in cols]
    items = list(chain([first], rows))
    for i, row in enumerate(items):
        if type(row) is not kind and getattr(type(row), "_fields", None) != fields:
            raise InputError(f"row {i} is a {type(row).__name__}, not a {kind.__name__} as row 0 is", source=name,
                             fix="give rows of one namedtuple type")
    query, doc, value = ([row[j] for row in items] for j in at)
    query_array = _array(query, lambda i, v: check_id(v, "query", name))
    doc_array = _array(doc, lambda i, v: check_id(v, "doc", name))

    value_array = _array(value, lambda i, v: check_value(v, what, name, str(query[i]), str(doc[i])))
    return pa.table(dict(zip(cols, (query_array, doc_array, value_array), strict=True)))
