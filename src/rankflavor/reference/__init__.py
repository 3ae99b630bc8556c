"""The slow reference: every metric per query, written straight from its formulas in plain Python.

The engine is tested against it and against the real peer tools, never against itself.
`reference_evaluate(flavor, qrels, run)` scores nested dicts; each metric family has its module here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = ["RefError", "RefResult", "reference_evaluate", "reference_mean", "reference_query"]
_HOME = {"RefError": "lists", "RefResult": "evaluate", "reference_evaluate": "evaluate", "reference_mean": "evaluate",
         "reference_query": "evaluate"}  # (imported when asked for: the metric modules import their families only)

if TYPE_CHECKING:
    from rankflavor.reference.evaluate import RefResult, reference_evaluate, reference_mean, reference_query
    from rankflavor.reference.lists import RefError


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
