"""Readers: TREC files (plain or .gz), nested dicts and pandas DataFrames, all into QrelsTable/RunTable.

Names are imported lazily (PEP 562): `rankflavor.io.prefetch` must be importable with pyarrow alone.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "QrelsTable": "rankflavor.io.tables",
    "RunTable": "rankflavor.io.tables",
    "Source": "rankflavor.io.tables",
    "load_qrels": "rankflavor.io.load",
    "load_run": "rankflavor.io.load",
    "read_trec_qrels": "rankflavor.io.trec",
    "read_trec_run": "rankflavor.io.trec",
    "settle": "rankflavor.io.trec",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'rankflavor.io' has no attribute {name!r}")
