"""Scores in float32 (`precision=f32`): a score that is finite in float64 but beyond float32's range is an
error naming it, its query and doc, never numpy's overflow warning and an infinite score."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rankflavor.errors import EvaluationError

SHOWN = 3  # rows named in the message


def in_float32(score: np.ndarray, run: str, ids: Callable[[np.ndarray], list[tuple[str, str]]]) -> np.ndarray:
    """The scores rounded to float32 (held as float64); `ids(rows)` gives the (query, doc) of rows, for the error."""
    with np.errstate(over="ignore"):
        narrow = score.astype(np.float32)
    over = np.flatnonzero(np.isinf(narrow) & np.isfinite(score))
    if len(over):
        shown = ", ".join(f"{score[row]:g} (query {q!r}, doc {d!r})"
                          for row, (q, d) in zip(over[:SHOWN], ids(over[:SHOWN]), strict=True))
        more = f" and {len(over) - SHOWN} more" if len(over) > SHOWN else ""
        largest = float(np.finfo(np.float32).max)
        raise EvaluationError(f"{run}: precision=f32: {len(over)} score{'s' if len(over) > 1 else ''} "
                              f"overflow{'' if len(over) > 1 else 's'} float32 (largest {largest:g}): {shown}{more}; "
                              "rescale the scores, or use precision=f64")
    return narrow.astype(np.float64)
