"""The engine: the front door (`Engine.evaluate`), the stages that make ranked lists, and what it returns."""

from rankflavor.engine.budget import max_memory, set_max_memory
from rankflavor.engine.front import Engine, rows_read
from rankflavor.engine.results import (
    MIN_GEO_MEAN,
    MISSING,
    OK,
    STATUS_NAMES,
    ZERO_IDEAL,
    Aggregate,
    Evaluation,
    QueryResults,
    RecordRows,
)

__all__ = ["MIN_GEO_MEAN", "MISSING", "OK", "STATUS_NAMES", "ZERO_IDEAL", "Aggregate", "Engine", "Evaluation",
           "QueryResults", "RecordRows", "max_memory", "rows_read", "set_max_memory"]
