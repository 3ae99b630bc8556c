"""The fast way to make a flavor's ranked lists: from the top rows of each list only (engine/select.py),
with the whole-run counts the selection computed. The flavors that read the same prefix share its join,
gains, tie groups and positions (stages of the run's scope keyed by the prefix)."""

from __future__ import annotations

import numpy as np

from rankflavor.engine.lists import (
    ListSpec,
    Positions,
    RankedLists,
    Rows,
    Shape,
    WholeList,
    condense,
    cut_run_depth,
    positions_at,
    refuse_unjudged,
    shape_of,
    ties_read,
)
from rankflavor.engine.order import tie_rows
from rankflavor.engine.qrels import gain_levels, judgments
from rankflavor.engine.scope import RunScope
from rankflavor.engine.select import Prefix, TopRows
from rankflavor.engine.tie_policy import apply_ties, tied_queries
from rankflavor.flavor.values import Choice, Gain, MinGrade, Ties


def top_gains(scope: RunScope, top: TopRows, gain: Gain, negative: Choice, min_grade: MinGrade,
              ) -> tuple[np.ndarray, np.ndarray]:
    """(judged, gain) of the prefix's rows."""
    if top.wider is not None:  # (narrowed: its rows' values are the wider selection's at `in_wider`)
        judged, gains = scope.stage(top_gains, top.wider, gain, negative, min_grade)
        return judged[top.in_wider], gains[top.in_wider]
    judged_gains = scope.shared(judgments, gain, negative, min_grade)
    if not len(scope.dataset.qrels.key):
        return top.found, np.zeros(len(top.found))
    at = np.maximum(top.index, 0)
    judged = top.found & judged_gains.judged[at]
    return judged, np.where(judged, judged_gains.gain[at], 0.0)


def top_ties(scope: RunScope, top: TopRows) -> tuple[np.ndarray, np.ndarray]:
    """The prefix's rows in tie groups and their group ids (a tie policy moves only those)."""
    return tie_rows(top.q, top.score)


def top_shape(scope: RunScope, top: TopRows) -> Shape:
    if top.wider is not None:  # (narrowed: each query keeps its first ranks and whole tie groups)
        wide = scope.stage(top_shape, top.wider)
        group = wide.group[top.in_wider]
        if len(group):  # (numbered 0, 1, ... again)
            group = np.concatenate(([0], np.cumsum(group[1:] != group[:-1])))
        return Shape(top.q, wide.rank[top.in_wider], group, wide.tie_group[top.in_wider])
    return shape_of(top.q, top.score)


def top_positions(scope: RunScope, top: TopRows, cutoff: int | None) -> Positions:
    return positions_at(scope.stage(top_shape, top), cutoff, scope.dataset.n_queries, shared=True)


def top_ranked(scope: RunScope, top: TopRows, gain: Gain, negative: Choice, min_grade: MinGrade, ties: Ties,
               ) -> tuple[Rows, np.ndarray]:
    """The prefix's rows with their gains, in the tie policy's order, and per query code whether they hold a
    tie: one object for the flavors that agree on these parts, so that what is kept with the rows (the rows
    in the qrels, a metric's tables: `RankedLists.rows_stage`) is made once for all of them."""
    judged, gains = scope.stage(top_gains, top, gain, negative, min_grade)
    rows = Rows(top.q, top.d, top.score, top.rows, top.grade, judged, gains)
    levels = scope.shared(gain_levels, gain, negative, min_grade)
    rows = apply_ties(scope, ties, rows, levels, lambda: scope.stage(top_ties, top))
    return rows, tied_queries(rows.q, scope.stage(top_ties, top)[0], scope.dataset.n_queries)


def lists_from_prefix(scope: RunScope, spec: ListSpec, prefix: Prefix) -> RankedLists:
    """The ranked lists of every judged query, holding the top of each list (and its tie group)."""
    nq = scope.dataset.n_queries
    top = prefix.top
    counts = {"rows_of_unjudged_queries": prefix.counts["rows_of_unjudged_queries"]}
    for key in ("rows_dropped_self_docs", "rows_dropped_negative"):  # (left out of the prefix already)
        if key in prefix.counts:
            counts[key] = prefix.counts[key]
    rows, tied = scope.stage(top_ranked, top, spec.gain, spec.negative, spec.min_grade, spec.ties)

    limit = spec.run_depth.limit
    if limit is not None:
        rows, _ = cut_run_depth(rows, limit, None)
        counts["rows_beyond_run_depth"] = prefix.counts["rows_beyond_run_depth"]
    if spec.unjudged == "error":
        refuse_unjudged(scope, rows)
    if spec.unjudged == "skip":
        rows, skipped = condense(rows, None)
        counts["rows_unjudged_skipped"] = prefix.counts.get("rows_unjudged_skipped", skipped)
    if limit is None and spec.unjudged != "skip":  # every flavor that ranks the whole prefix: shared positions
        positions = scope.stage(top_positions, top, spec.cutoff)
        tied = ties_read(tied, scope.stage(top_shape, top), spec, nq)
    else:
        positions = positions_at(shape_of(rows.q, rows.score), spec.cutoff, nq)
    returned = np.bincount(rows.q, minlength=nq) if prefix.returned is None else prefix.returned
    whole = WholeList(spec.drops) if spec.whole_list else None
    return RankedLists(scope, spec, rows, positions, returned, tied, counts, whole=whole)
