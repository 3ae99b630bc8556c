"""Duplicate (query, doc) rows in a qrels or a run: an error naming both lines (the default policy)."""

from __future__ import annotations

import numpy as np

from rankflavor.errors import InputError
from rankflavor.io.tables import QrelsTable, RunTable
from rankflavor.io.trec import line_of


def check_duplicates(table: QrelsTable | RunTable, key: np.ndarray, what: str, fix: str) -> None:
    """Raise InputError on the first repeated key, naming the file and both lines."""
    order = np.argsort(key, kind="stable")
    same = np.flatnonzero(key[order][1:] == key[order][:-1])
    if len(same) == 0:
        return
    first, second = int(order[same[0]]), int(order[same[0] + 1])
    query, doc = table.query[second].as_py(), table.doc[second].as_py()
    line, earlier = line_of(table, second), line_of(table, first)
    where = f" (first seen on line {earlier})" if earlier is not None else f" (rows {first} and {second})"
    raise InputError(f"duplicate {what} for query {query!r} doc {doc!r}{where}", source=table.source.path
                     or table.source.name, line=line, fix=fix)
