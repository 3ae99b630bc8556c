"""Readers: TREC files (plain or .gz), nested dicts and pandas DataFrames, all into QrelsTable/RunTable.

Names are imported lazily (PEP 562): `rankflavor.inputs.prefetch` must be importable with pyarrow alone.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "QrelsTable": "rankflavor.inputs.tables",
    "RunTable": "rankflavor.inputs.tables",
    "Source": "rankflavor.inputs.tables",
    "load_qrels": "rankflavor.inputs.load",
    "load_run": "rankflavor.inputs.load",
    "read_trec_qrels": "rankflavor.inputs.trec",
    "read_trec_run": "rankflavor.inputs.trec",
    "settle": "rankflavor.inputs.trec",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'rankflavor.inputs' has no attribute {name!r}")
