"""The general way to make a flavor's ranked lists: from every row of a run (or of a chunk of it, or of one
query). Every step is columnar over all queries at once: join, drop, trec_eval's order, the tie policy,
run_depth, condensation, positions."""

from __future__ import annotations

import math

import numpy as np

from rankflavor.engine.join import join_qrels, self_doc_codes
from rankflavor.engine.lists import (
    Dropped,
    ListSpec,
    Positions,
    RankedLists,
    Rows,
    Shape,
    condense,
    cut_run_depth,
    positions_at,
    refuse_unjudged,
    shape_of,
    ties_read,
)
from rankflavor.engine.order import tie_rows, trec_order
from rankflavor.engine.precision import in_float32
from rankflavor.engine.qrels import gain_levels, judgments
from rankflavor.engine.scope import RunScope
from rankflavor.engine.tie_policy import apply_ties, tied_queries
from rankflavor.flavor.axes import AXIS_BY_NAME, parse_value

# the ties, unjudged and run_depth an ordering part holds (their defaults: ordered_rows reads none of them)
ORDER_ONLY = {axis: parse_value(axis, AXIS_BY_NAME[axis].default) for axis in ("ties", "unjudged", "run_depth")}


def joined_rows(scope: RunScope, spec: ListSpec) -> tuple[Rows, dict[str, int]]:
    """The rows of the run's judged queries with their grades, judged flags and gains (input order)."""
    ds, run = scope.dataset, scope.run
    judged_gains = scope.shared(judgments, spec.gain, spec.negative, spec.min_grade)
    q, d, score, order = run.q, run.d, run.score, run.order
    if spec.precision == "f32":  # (every row, as engine/select.py's scores: the same error either way)
        score = in_float32(score, run.name, lambda rows: list(zip(ds.query_ids[q[rows]], ds.doc_ids[d[rows]],
                                                                  strict=True)))
    eligible = ds.judged[q]  # queries absent from the qrels are never scored
    counts = {"rows_of_unjudged_queries": int(len(eligible) - np.count_nonzero(eligible))}
    if counts["rows_of_unjudged_queries"]:  # (else every row stays: no copies)
        q, d, score, order = q[eligible], d[eligible], score[eligible], order[eligible]
    index = join_qrels(scope.data, q, d)
    found = index >= 0
    at = np.maximum(index, 0)
    has_qrels = len(ds.qrels.key) > 0
    grade = np.where(found, ds.qrels.grade[at] if has_qrels else 0.0, np.nan)
    judged = found & judged_gains.judged[at] if has_qrels else found
    gain = np.where(judged, judged_gains.gain[at] if has_qrels else 0.0, 0.0)
    return Rows(q, d, score, order, grade, judged, gain), counts


def lists_from_rows(scope: RunScope, spec: ListSpec, detail: bool = False) -> RankedLists:
    """The ranked lists of every judged query of the run, every row ranked. The ranked rows are a stage of
    the spec without its cutoff (flavors that differ in their cutoff or metric alone share them), and so are
    the positions under each cutoff."""
    whole = spec._replace(cutoff=None, need=math.inf, whole_list=False)  # (what the ranking reads)
    ranked = scope.stage(ranked_rows, whole, detail)
    positions = scope.stage(positions_of, whole, detail, spec.cutoff)
    tied = ranked.tied
    if spec.run_depth.limit is None and spec.unjudged != "skip":  # (ranks before any cut: the tie a cutoff reads)
        tied = ties_read(tied, ranked.shape, spec, scope.dataset.n_queries)
    return RankedLists(scope, spec, ranked.rows, positions, ranked.returned, tied, dict(ranked.counts),
                       dropped=ranked.dropped)


def positions_of(scope: RunScope, whole: ListSpec, detail: bool, cutoff: int | None) -> Positions:
    """The positions of the ranked rows of `whole` under a cutoff (shared: metrics may keep stages of them)."""
    shape = scope.stage(ranked_rows, whole, detail).shape
    return positions_at(shape, cutoff, scope.dataset.n_queries, shared=True)


class RankedRows:
    """Every judged query's rows in rank order and what the cutoff does not change."""

    rows: Rows
    shape: Shape
    returned: np.ndarray
    tied: np.ndarray
    counts: dict[str, int]
    dropped: Dropped | None

    def __init__(self, rows: Rows, shape: Shape, returned: np.ndarray, tied: np.ndarray, counts: dict[str, int],
                 dropped: Dropped | None) -> None:
        self.rows = rows
        self.shape = shape
        self.returned = returned
        self.tied = tied
        self.counts = counts
        self.dropped = dropped


def ranked_rows(scope: RunScope, spec: ListSpec, detail: bool) -> RankedRows:
    """The rows of every judged query ranked under `spec` (its cutoff None): join, drops, trec_eval's order
    (a stage shared by the specs that differ only in what comes after it), the tie policy, run_depth,
    condensation."""
    nq = scope.dataset.n_queries
    if detail:  # (the record of what was dropped is the spec's own)
        rows, counts, ties_found, dropped = ordered_rows(scope, spec, detail)
    else:
        rows, counts, ties_found, dropped = scope.stage(ordered_rows, ordering_part(spec), detail)
    counts = dict(counts)
    levels = scope.shared(gain_levels, spec.gain, spec.negative, spec.min_grade)
    rows = apply_ties(scope, spec.ties, rows, levels, lambda: ties_found)
    tied = tied_queries(rows.q, ties_found[0], nq)  # (before any cut: a tie across run_depth changes what is kept)

    if spec.run_depth.limit is not None:
        rows, counts["rows_beyond_run_depth"] = cut_run_depth(rows, spec.run_depth.limit, dropped)
    if spec.unjudged == "error":
        refuse_unjudged(scope, rows)
    if spec.unjudged == "skip":
        rows, counts["rows_unjudged_skipped"] = condense(rows, dropped)
    returned = np.bincount(rows.q, minlength=nq)
    return RankedRows(rows, shape_of(rows.q, rows.score), returned, tied, counts, dropped)


def ordering_part(spec: ListSpec) -> ListSpec:
    """The spec as far as `ordered_rows` reads it: the tie policy, run_depth and unjudged come after."""
    return spec._replace(**ORDER_ONLY, drops=spec.drops._replace(condensed=False, judged_under=None))


def ordered_rows(scope: RunScope, spec: ListSpec, detail: bool,
                 ) -> tuple[Rows, dict[str, int], tuple[np.ndarray, np.ndarray], Dropped | None]:
    """The judged queries' rows joined with the qrels, the drops made (self_docs, negative=drop), in
    trec_eval's order; the row counts, the tied rows found, and the record of the drops (with detail)."""
    rows, counts = joined_rows(scope, spec)
    dropped = Dropped() if detail else None
    if spec.drops.self_docs == "drop":
        same = rows.d == scope.shared(self_doc_codes)[rows.q]
        if dropped is not None:
            dropped.add(rows, same, "doc id equals the query id (self_docs=drop)")
        counts["rows_dropped_self_docs"] = int(same.sum())
        rows = rows.take(~same)
    if spec.drops.negative_drop:  # TF-Ranking masks labels < 0 out of the list before sorting
        negative = np.isfinite(rows.grade) & (rows.grade < 0)
        if dropped is not None:
            dropped.add(rows, negative, "negative grade (negative=drop)")
        counts["rows_dropped_negative"] = int(negative.sum())
        rows = rows.take(~negative)
    rows = rows.take(trec_order(rows.q, rows.score, rows.d, scope.dataset))
    return rows, counts, tie_rows(rows.q, rows.score), dropped
