"""The fast TREC reader for tidy files: pyarrow's multi-threaded CSV parser, single-space separated.

It returns None whenever the file is not tidy (tabs, several spaces, comments, a BOM, a non-finite value,
a wrong column count...): the caller then falls back to the line reader, which accepts or rejects with
the line number. Both readers must give identical tables for any file both accept.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv


def read_fast(path: Path, columns: tuple[str, ...], value_col: int) -> pa.Table | None:
    """pyarrow's CSV reader on a tidy file (single spaces, no comments); None when it does not apply."""
    types = {name: pa.string() for name in columns}
    types[columns[value_col]] = pa.float64()
    try:
        stream = pa.input_stream(str(path), compression="gzip" if path.suffix == ".gz" else None)
        table = pacsv.read_csv(
            stream,
            read_options=pacsv.ReadOptions(column_names=list(columns), block_size=64 << 20),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, double_quote=False,
                                             newlines_in_values=False, ignore_empty_lines=False),
            convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False,
                                                 quoted_strings_can_be_null=False, null_values=[]),
        )
    except (pa.ArrowException, OSError, EOFError):
        return None
    values = table.column(columns[value_col]).to_numpy()
    if not np.isfinite(values).all():
        return None
    for name in (columns[0], columns[2]):
        col = table.column(name)
        if len(col) and pc.any(pc.starts_with(col, "#")).as_py():
            return None
    # every string column, ids or not: an empty field (two spaces) or a tab, control char or BOM inside a field
    # means the line reader would see other columns (it splits on runs of spaces and tabs, rejects the rest)
    for name in columns:
        col = table.column(name)
        if name not in (columns[0], columns[2]):
            col = pc.unique(col)  # the ignored columns (Q0, rank, tag) hold few distinct values
        if name != columns[value_col] and len(col) and (
                pc.any(pc.equal(col, "")).as_py()
                or pc.any(pc.match_substring_regex(col, r"[\x00-\x1f\x7f\x{FEFF}]")).as_py()):
            return None
    return table
