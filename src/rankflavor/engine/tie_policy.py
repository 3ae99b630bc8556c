"""The tie policy applied to ranked rows (the rank step of engine/lists.py): rows arrive in trec_eval's order
(query, score desc, doc id desc) and leave in the order `ties=` names. Only the rows of tie groups move, by one
stable argsort of a packed key (tie group, key within the group); `ties=random` and `ties=quicksort` sort with
their own keys (engine/ties.py holds their definitions, shared with the reference).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rankflavor.engine.lists import Rows
from rankflavor.engine.scope import RunScope
from rankflavor.engine.ties import quicksort_passes, random_tie_key
from rankflavor.flavor.values import Ties

_RANDOM = object()  # markers: the tie policy sorts with every key, or runs numba's quicksort per query
_QUICKSORT = object()


def _quicksort_positions(rows: Rows, tied_rows: np.ndarray, passes: int) -> np.ndarray:
    """For rows in trec_eval's order: the positions that put each query with a tie in the order `passes`
    quicksort argsorts of -score give over its rows in input order (engine/ties.py); other queries stay."""
    assert rows.order is not None
    out = np.arange(len(rows))
    starts = np.flatnonzero(np.r_[True, rows.q[1:] != rows.q[:-1]])
    ends = np.r_[starts[1:], len(rows)]
    for block in np.unique(np.searchsorted(starts, tied_rows, side="right") - 1):
        span = np.arange(starts[block], ends[block])
        by_input = span[np.argsort(rows.order[span], kind="stable")]
        out[span] = by_input[quicksort_passes((-rows.score[by_input]).tolist(), passes)]
    return out


def tie_moves(ties: Ties, rows: Rows, levels: np.ndarray, ties_found: Callable[[], tuple[np.ndarray, np.ndarray]],
              doc_keys: Callable[[np.ndarray], np.ndarray]) -> tuple[np.ndarray, np.ndarray] | object | None:
    """How rows in trec_eval's order (query, score desc, doc desc) move into the tie policy's order: None
    when they are in it; (rows, from_rows) when only rows of tie groups move (row rows[i] takes the values
    of row from_rows[i]: one stable argsort of a packed key (tie group, key within the group) over those
    rows); _RANDOM for ties=random (the caller sorts with every key); _QUICKSORT for ties=quicksort.
    `levels`: every gain a row can have, ascending. `ties_found`: (rows of tie groups, their group ids).
    `doc_keys`: keys of doc codes that compare as the ids do (Dataset.doc_keys)."""
    kind = ties.kind
    if kind in ("docid_desc", "average") or len(rows) < 2:
        return None
    if kind == "random":
        return _RANDOM
    if kind == "quicksort":
        return _QUICKSORT if len(ties_found()[0]) else None
    at, group = ties_found()
    if len(at) == 0:
        return None  # no ties
    if kind == "input":
        assert rows.order is not None
        within = rows.order[at]
    elif kind == "docid_asc":
        within = doc_keys(rows.d[at])
    else:  # pessimistic: gain asc (optimistic: desc), doc desc kept by the stable sort
        level = np.searchsorted(levels, rows.gain[at])
        within = level if kind == "pessimistic" else len(levels) - level
    within = within.astype(np.int64)
    shift = int(within.max()).bit_length()
    if shift + int(group[-1]).bit_length() > 62:
        return at, at[np.lexsort((within, group))]
    return at, at[np.argsort((group << shift) | within, kind="stable")]


def apply_ties(scope: RunScope, ties: Ties, rows: Rows, levels: np.ndarray,
               ties_found: Callable[[], tuple[np.ndarray, np.ndarray]]) -> Rows:
    """The rows (in trec_eval's order) in the tie policy's order; query and score stay where they are."""
    moves = tie_moves(ties, rows, levels, ties_found, scope.dataset.doc_keys)
    if moves is None:
        return rows
    if moves is _QUICKSORT:
        return rows.take(_quicksort_positions(rows, ties_found()[0], ties.passes or 1))
    if moves is _RANDOM:
        ds, seed = scope.dataset, ties.seed
        keys = np.array([random_tie_key(seed, ds.query_ids[a], ds.doc_ids[b])
                         for a, b in zip(rows.q.tolist(), rows.d.tolist(), strict=True)], dtype=np.uint64)
        return rows.take(np.lexsort((-ds.doc_keys(rows.d), keys, -rows.score, rows.q)))
    at, from_rows = moves  # type: ignore[misc]

    def moved(values: np.ndarray) -> np.ndarray:
        out = values.copy()
        out[at] = values[from_rows]
        return out

    return Rows(rows.q, moved(rows.d), rows.score, None, moved(rows.grade), moved(rows.judged), moved(rows.gain))


def tied_queries(q: np.ndarray, at: np.ndarray, nq: int) -> np.ndarray:
    """Per query code: one of its ranked rows is in a tie group."""
    tied = np.zeros(nq, dtype=bool)
    tied[q[at]] = True
    return tied
