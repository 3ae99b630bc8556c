"""Arrow tables as inputs: a pyarrow Table, a polars DataFrame or LazyFrame (through Arrow), and the tables
read from Parquet and Arrow files. Checked column by column (vectorised) with the DataFrame reader's rules
and messages: ids are strings (integers become their decimal text), never null or empty; values are finite
numbers, never null, NaN or booleans. Row numbers in messages count from 0, as a DataFrame's positions do.
(`pyarrow.compute` is imported where a table is checked: a TREC file's reader never needs it, inputs/kernels.py.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from rankflavor.errors import InputError
from rankflavor.inputs.columns import pick_roles


def as_arrow(data: Any) -> pa.Table | None:
    """`data` as an Arrow table when it is a pyarrow Table or RecordBatch, or a polars DataFrame or LazyFrame
    (collected); None for anything else. polars is never imported here: its objects bring it along."""
    if isinstance(data, pa.Table):
        return data
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data])
    module = type(data).__module__ or ""
    if module == "polars" or module.startswith("polars."):
        if type(data).__name__ == "LazyFrame":
            data = data.collect()
        if type(data).__name__ == "DataFrame":
            return data.to_arrow()
    return None


def _first(mask: pa.Array) -> int:
    import pyarrow.compute as pc

    return int(pc.index(mask, True).as_py())


def _plain(column: pa.ChunkedArray | pa.Array, name: str = "") -> pa.Array:
    """The column as one plain array; a dictionary-encoded one decoded, once what it decodes to is known to be within
    the input cap (a small Parquet file's dictionary of one long id repeated a billion times is not decoded)."""
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if not pa.types.is_dictionary(array.type):
        return array
    import pyarrow.compute as pc

    dictionary = array.dictionary
    if pa.types.is_string(dictionary.type) or pa.types.is_large_string(dictionary.type) or \
            pa.types.is_binary(dictionary.type):
        lengths = pc.binary_length(dictionary).cast(pa.int64()).to_numpy(zero_copy_only=False)
        counted = pc.value_counts(array.indices)  # (per index used: no array as long as the column)
        used = counted.field("values")
        valid = used.is_valid()
        codes = used.filter(valid).to_numpy(zero_copy_only=False).astype(np.int64)
        decoded = int((lengths[codes] * counted.field("counts").filter(valid).to_numpy()).sum()) + 4 * len(array)
    else:
        decoded = len(array) * max(dictionary.type.bit_width // 8, 1) if pa.types.is_primitive(dictionary.type) \
            else 0
    from rankflavor.limits import input_cap

    if decoded > input_cap():
        from rankflavor.inputs.bounded import cap_error

        raise cap_error(name, decoded, "decodes to")
    return array.dictionary_decode()


def _ids(column: pa.ChunkedArray, col: str, what: str, name: str) -> pa.Array:
    import pyarrow.compute as pc

    array = _plain(column, name)
    kind = array.type
    if array.null_count:
        row = _first(pc.is_null(array))
        raise InputError(f"empty {col} at row {row}", source=name, fix="every row needs a query and a doc id")
    textual = pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind)
    if not (textual or pa.types.is_integer(kind)):
        raise InputError(f"the {what} id column {col!r} holds {kind} values, not strings", source=name,
                         fix="use string ids (integers are accepted and turned into their decimal text)")
    array = array.cast(pa.string())
    empty = pc.equal(pc.binary_length(array), 0)
    if pc.any(empty).as_py():
        raise InputError(f"an empty {what} id at row {_first(empty)}", source=name,
                         fix=f"every row needs a non-empty {what} id")
    return array


def _values(column: pa.ChunkedArray, col: str, what: str, name: str, query: pa.Array, doc: pa.Array) -> np.ndarray:
    import pyarrow.compute as pc

    array = _plain(column, name)
    kind = array.type

    def where(row: int) -> str:
        return f"{what} at row {row} (query {query[row].as_py()!r}, doc {doc[row].as_py()!r})"

    if pa.types.is_boolean(kind):
        raise InputError(f"the {what} column holds booleans", source=name, fix=f"the {what} column must be numeric")
    numeric = pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind)
    if not (numeric or pa.types.is_null(kind)):  # (a column of nulls only: missing, below)
        valid = pc.is_valid(array)
        example = f" ({where(_first(valid))}: {array[_first(valid)].as_py()!r})" if pc.any(valid).as_py() else ""
        raise InputError(f"the {what} column {col!r} holds {kind} values, not numbers{example}", source=name,
                         fix=f"every {what} must be a number (int or float)")
    array = array.cast(pa.float64(), safe=False)
    missing = pc.is_null(array, nan_is_null=True)
    if pc.any(missing).as_py():
        raise InputError(f"{where(_first(missing))} is missing (NaN/None)", source=name,
                         fix=f"every {what} must be a finite number; drop or fill the empty ones")
    values = array.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
    bad = ~np.isfinite(values)
    if bad.any():
        raise InputError(f"{where(int(np.flatnonzero(bad)[0]))} is not a finite number", source=name,
                         fix=f"every {what} must be a finite number")
    return values


def columns_of(table: pa.Table, name: str, what: str, value_columns: tuple[str, ...],
               ) -> tuple[pa.Array, pa.Array, np.ndarray]:
    """(query ids, doc ids, values) of a table whose columns are named as a DataFrame's may be."""
    q_col, d_col, v_col = pick_roles(table.column_names, value_columns, what, name)
    query = _ids(table.column(q_col), q_col, "query", name)
    doc = _ids(table.column(d_col), d_col, "doc", name)
    return query, doc, _values(table.column(v_col), v_col, what, name, query, doc)
