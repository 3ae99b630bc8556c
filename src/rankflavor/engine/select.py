"""Top-k selection: the rows of a run that can change a score with a cutoff, found without sorting the run.

For a cutoff k, a list matters only down to rank k, plus the rest of the tie group that holds rank k (it
decides `ties=average` and the ties-across-the-cutoff warning). Every tie policy orders by score first, so
the rows whose score is at least the k-th largest score of their query,

    P(q) = { rows r of q : s(r) >= s_(k)(q) },   s_(k)(q) = the k-th largest score of q (all rows if fewer),

are a prefix of the query's ranked list under any tie policy: ranking P alone gives every row of P the
rank it has in the whole list. s_(k) is column k-1 of a query whose rows come by descending score (as TREC
runs are written), else one `np.partition` per query over the query-major layout (linear time), so the
ordering that follows (engine/order.py) sees about k rows per query instead of all of them.

What the prefix cannot see comes from whole-run counts computed here once per drop policy (rows per query
after the drops, rows beyond run_depth, unjudged rows skipped) and, for metrics that read the whole list,
from the run's judged rows (`whole_list_judged`). Every result is a stage of the run's scope, so the
flavors that agree on what a stage reads share it.
"""

from __future__ import annotations

import math

import numpy as np

from rankflavor.engine.chunks import chunk_rows
from rankflavor.engine.join import join_qrels, judged_hits, qrels_index, self_doc_codes
from rankflavor.engine.lists import DropPolicy, ListSpec
from rankflavor.engine.order import trec_reorder
from rankflavor.engine.precision import in_float32
from rankflavor.engine.qrels import judged_mask
from rankflavor.engine.scope import RunScope
from rankflavor.flavor.values import Choice

SELECT_CELLS = 1 << 17  # matrix cells per block of the top-k selection
DEEP_SHARE = 0.25  # a prefix of more than this share of a run's rows, and more than DEEP_ROWS: general path
DEEP_ROWS = 1 << 21  # (below, the prefix's stages, shared by the flavors that read it, are worth their memory)


class TopRows:
    """The top rows of one selection in trec_eval's order (query, score desc, doc desc), joined with the qrels."""

    rows: np.ndarray  # input rows, eligible and not dropped: a prefix of each query's ranking
    q: np.ndarray  # their query codes, doc codes and scores
    d: np.ndarray
    score: np.ndarray
    index: np.ndarray  # row of each in the sorted qrels, or -1
    found: np.ndarray  # index >= 0
    grade: np.ndarray  # nan when not in the qrels
    wider: TopRows | None = None  # when narrowed: the selection it was narrowed from, and the positions in it kept
    in_wider: np.ndarray | None = None  # (stages over these rows gather the wider selection's: engine/from_prefix.py)

    def __init__(self, rows: np.ndarray, q: np.ndarray, d: np.ndarray, score: np.ndarray, index: np.ndarray,
                 found: np.ndarray, grade: np.ndarray, wider: TopRows | None = None,
                 in_wider: np.ndarray | None = None) -> None:
        self.rows = rows
        self.q = q
        self.d = d
        self.score = score
        self.index = index
        self.found = found
        self.grade = grade
        self.wider = wider
        self.in_wider = in_wider


class Prefix:
    """The rows of one (run, flavor) the lists need, and the whole-run numbers it cannot see in them."""

    top: TopRows
    counts: dict[str, int]  # whole-run row counts
    returned: np.ndarray | None  # per query code: rows in the list after every drop (None: count the rows)

    def __init__(self, top: TopRows, counts: dict[str, int], returned: np.ndarray | None) -> None:
        self.top = top
        self.counts = counts
        self.returned = returned


class Drops:
    """What the drop and skip policies leave of a run, per input row and per query."""

    counts: dict[str, int]
    valid: np.ndarray | None  # eligible and not dropped (None when every row is: nothing dropped, all judged)
    n_valid: np.ndarray  # per query code
    judged: np.ndarray | None  # per input row, judged under the negative policy (when the join was needed)
    ranked_out: np.ndarray | None  # rows the ranking leaves out (drops, and unjudged rows when condensed)
    n_judged: np.ndarray | None  # per query code, valid judged rows (condensed)

    def __init__(self, counts: dict[str, int], valid: np.ndarray | None, n_valid: np.ndarray,
                 judged: np.ndarray | None, ranked_out: np.ndarray | None, n_judged: np.ndarray | None) -> None:
        self.counts = counts
        self.valid = valid
        self.n_valid = n_valid
        self.judged = judged
        self.ranked_out = ranked_out
        self.n_judged = n_judged


def select_prefix(scope: RunScope, spec: ListSpec, in_chunk: bool = False) -> Prefix | None:
    """The prefix of every judged query's list that the flavor reads, or None when the general path is as
    good or the layout does not allow it (very uneven queries, infinite scores, ties=quicksort). in_chunk: the
    run is a chunk of a larger one (then the prefix is taken however deep: a chunk is not cut again)."""
    run, need = scope.run, spec.need
    if run.n_rows == 0 or spec.ties.kind == "quicksort":
        return None  # (quicksort's order of tied docs depends on every row of the query, ranked or not)
    layout = run.layout
    if not layout.paddable:
        return None
    if math.isinf(need):
        need = layout.width  # the whole of every list: one selection serves the metrics of whole lists and every cutoff
    prefix_cells = min(need, layout.width) * layout.n_segments
    if not in_chunk and prefix_cells > max(DEEP_ROWS, run.n_rows * DEEP_SHARE) and \
            run.n_rows > chunk_rows(scope.dataset):
        return None  # a prefix of most of a large run: the general path, a chunk of queries at a time, is lighter
    whole_list = spec.run_depth.limit is None
    if spec.unjudged == "error" and whole_list and not scope.stage(all_judged, spec.negative):
        return None  # the general path raises the error, naming the first unjudged doc
    drops = scope.stage(drops_of, spec.drops)
    counts = dict(drops.counts)
    limit = spec.run_depth.limit
    if limit is not None:
        counts["rows_beyond_run_depth"] = int(np.maximum(drops.n_valid - limit, 0).sum())
    if spec.drops.condensed:
        assert drops.n_judged is not None
        counts["rows_unjudged_skipped"] = int((drops.n_valid - drops.n_judged).sum())
        returned: np.ndarray | None = drops.n_judged
    else:
        returned = drops.n_valid if limit is None else np.minimum(drops.n_valid, limit)
    if limit is not None and need >= limit:
        returned = None  # the prefix holds the whole cut list: its rows are counted
    top = scope.stage(top_rows, spec.precision, spec.drops, int(need))
    if top is None:
        return None
    return Prefix(top, counts, returned)


def returned_of(scope: RunScope, policy: DropPolicy) -> np.ndarray:
    """Per query code, the docs of each whole list after the drops (and the condensation)."""
    drops = scope.stage(drops_of, policy)
    if policy.condensed:
        assert drops.n_judged is not None
        return drops.n_judged
    return drops.n_valid


def whole_list_judged(scope: RunScope, policy: DropPolicy, negative: Choice) -> tuple[np.ndarray, np.ndarray]:
    """(input rows, rows in the sorted qrels) of the whole lists' judged rows (under `negative`), in input
    order: what a prefix does not hold of a metric that reads the whole list."""
    hits, hit_index = scope.stage(judged_hits)
    keep = scope.shared(judged_mask, negative)[hit_index]  # judged under the negative policy, and not dropped
    drops = scope.stage(drops_of, policy)
    if drops.valid is not None:
        keep &= drops.valid[hits]
    return hits[keep], hit_index[keep]


def drops_of(scope: RunScope, policy: DropPolicy) -> Drops:
    ds, run = scope.dataset, scope.run
    layout, nq = run.layout, ds.n_queries
    index = scope.stage(qrels_index) if policy.negative_drop or policy.condensed else None
    counts = {"rows_of_unjudged_queries": layout.n_rows - int(layout.length[scope.stage(eligible_segments)].sum())}
    drop = None
    if policy.self_docs == "drop":
        drop = run.d == run.q_codes.per_row(scope.shared(self_doc_codes))
        drop &= run.q_codes.per_row(ds.judged)
        counts["rows_dropped_self_docs"] = int(drop.sum())
    if policy.negative_drop:
        assert index is not None
        negative = (_at(ds.qrels.grade, index, 0.0) < 0) & run.q_codes.per_row(ds.judged)
        if drop is not None:
            negative &= ~drop
            drop |= negative
        else:
            drop = negative
        counts["rows_dropped_negative"] = int(negative.sum())
    valid = None  # eligible and not dropped: every row, unless something is dropped or a query is not judged
    if drop is None and counts["rows_of_unjudged_queries"] == 0:
        n_valid = np.zeros(nq, dtype=np.int64)
        n_valid[layout.seg_q] = layout.length
    else:
        eligible = scope.stage(eligible_rows)
        valid = eligible if drop is None else eligible & ~drop
        n_valid = run.q_codes.count(valid, nq)
    if valid is None and policy.condensed:
        valid = np.ones(run.n_rows, dtype=bool)
    judged = None
    if index is not None:
        judged = _at(scope.shared(judged_mask, policy.judged_under), index, False)
    ranked_out, n_judged = drop, None
    if policy.condensed:
        assert judged is not None and valid is not None
        n_judged = run.q_codes.count(valid & judged, nq)
        ranked_out = ~judged  # the condensed list ranks judged rows only
        ranked_out |= ~valid
    return Drops(counts, valid, n_valid, judged, ranked_out, n_judged)


def eligible_segments(scope: RunScope) -> np.ndarray:
    """The layout segments of judged queries."""
    return np.flatnonzero(scope.dataset.judged[scope.run.layout.seg_q])


def eligible_rows(scope: RunScope) -> np.ndarray:
    """Per input row: its query is judged."""
    return scope.run.q_codes.per_row(scope.dataset.judged)


def _at(values: np.ndarray, index: np.ndarray, default: float | bool) -> np.ndarray:
    """values[index] where index >= 0, else default."""
    if len(values) == 0:
        return np.full(len(index), default, dtype=values.dtype)
    return np.where(index >= 0, values[np.maximum(index, 0)], default)


def all_judged(scope: RunScope, negative: Choice) -> bool:
    """Every row of a judged query is judged (under `negative`)."""
    judged = _at(scope.shared(judged_mask, negative), scope.stage(qrels_index), False)
    return bool(judged[scope.stage(eligible_rows)].all())


def scores(scope: RunScope, precision: Choice) -> np.ndarray:
    """The run's scores in the flavor's precision (f32: rounded to float32, held as float64)."""
    if precision == "f64":
        return scope.run.score
    run, ids = scope.run, scope.dataset
    return in_float32(run.score, run.name, lambda rows: list(zip(ids.query_ids[run.q_codes.at(rows)],
                                                                 ids.doc_ids[run.d_codes.at(rows)], strict=True)))


def has_minus_infinity(scope: RunScope, precision: Choice) -> bool:
    """Whether a score is -inf (np.fmin's reduction: no temporary array, NaN ignored)."""
    score = scope.stage(scores, precision)
    return len(score) > 0 and bool(np.fmin.reduce(score) == -np.inf)


def score_matrix(scope: RunScope, precision: Choice, policy: DropPolicy) -> np.ndarray:
    """The judged queries' scores as a (queries x width) matrix, -inf where no row or a row left out."""
    layout, segs = scope.run.layout, scope.stage(eligible_segments)
    all_segs = len(segs) == layout.n_segments
    m = layout.matrix(scope.stage(scores, precision), -np.inf, None if all_segs else segs)
    ranked_out = scope.stage(drops_of, policy).ranked_out
    if ranked_out is not None:
        out = layout.matrix(ranked_out, True, None if all_segs else segs)
        m = np.where(out, -np.inf, m)
    return m


def top_rows(scope: RunScope, precision: Choice, policy: DropPolicy, need: int) -> TopRows | None:
    """Input rows whose score is at least the need-th largest ranked score of their query, in trec_eval's
    order, with their rows in the qrels: narrowed from a wider selection of the same rows when one was made
    (the engine makes the widest first), else selected from the score matrix."""
    if scope.stage(has_minus_infinity, precision):
        return None  # -inf marks padding below: leave such runs to the general path
    made = scope.stage(selections_made, precision, policy)
    wider = [k for k in made if k > need]
    top = narrow(made[min(wider)], need) if wider else _select(scope, precision, policy, need)
    made[need] = top
    return top


def selections_made(scope: RunScope, precision: Choice, policy: DropPolicy) -> dict[int, TopRows]:
    """The top rows selected so far for these ranked rows, by need (filled in by `top_rows`)."""
    return {}


def narrow(top: TopRows, need: int) -> TopRows:
    """The top rows for a smaller need, from a wider selection: P_need(q) is the rows of P_wider(q) whose
    score is at least the need-th score of q in it (all of them when it holds fewer), as P_wider(q) holds
    every row scoring at least its need-th largest score; it is in trec_eval's order already."""
    n = len(top.q)
    if n == 0:
        return top
    starts = np.flatnonzero(np.concatenate(([True], top.q[1:] != top.q[:-1])))
    lengths = np.diff(np.append(starts, n))
    kth = top.score[starts + np.minimum(lengths, need) - 1]
    keep = np.flatnonzero(top.score >= np.repeat(kth, lengths))
    if len(keep) == n:
        return top
    return TopRows(top.rows[keep], top.q[keep], top.d[keep], top.score[keep], top.index[keep], top.found[keep],
                   top.grade[keep], top, keep)


def _select(scope: RunScope, precision: Choice, policy: DropPolicy, need: int) -> TopRows:
    """`top_rows` from the score matrix: the need-th largest score of each query, then trec_eval's order."""
    run, layout, segs = scope.run, scope.run.layout, scope.stage(eligible_segments)
    score = scope.stage(scores, precision)
    width = layout.width
    if need >= width:  # every ranked row of the judged queries, query by query
        rows = layout.input_rows_of(segs)
        ranked_out = scope.stage(drops_of, policy).ranked_out
        if ranked_out is not None:
            rows = rows[~ranked_out[rows]]
    else:  # block by block of queries: the temporaries stay in the CPU cache
        m = scope.stage(score_matrix, precision, policy)
        step = max(1, SELECT_CELLS // width)
        cells = np.concatenate([_top_cells(m[start:start + step], need) + start * width
                                for start in range(0, len(m), step)] or [np.zeros(0, dtype=np.int64)])
        rows = layout.input_rows(segs, cells)
    q, d, s = run.q_codes.at(rows), run.d_codes.at(rows), score[rows]
    perm = trec_reorder(q, s, d, scope.dataset)
    if perm is not None:
        rows, q, d, s = rows[perm], q[perm], d[perm], s[perm]
    ds = scope.dataset
    index = join_qrels(scope.data, q, d)
    found = index >= 0
    grade = np.where(found, ds.qrels.grade[np.maximum(index, 0)], np.nan) if len(ds.qrels.key) else \
        np.full(len(rows), np.nan)
    return TopRows(rows, q, d, s, index, found, grade)


def _top_cells(block: np.ndarray, need: int) -> np.ndarray:
    """Flat cells of `block` (queries x padded scores, -inf = none) whose score is at least the need-th
    largest of their row (need < width).

    A TREC run lists each query's docs by descending score, most of the time: a row already in that order
    has its need-th largest score in column need-1, and when the next column holds a lower score its
    first `need` cells are the answer (no tie across the cutoff). Other rows take `np.partition`."""
    width = block.shape[1]
    descending = (block[:, 1:] <= block[:, :-1]).all(axis=1)
    kth = block[:, need - 1].copy()
    if not descending.all():
        kth[~descending] = np.partition(block[~descending], width - need, axis=1)[:, width - need]
    simple = descending & (block[:, need] < kth) & (kth > -np.inf)
    rows = np.flatnonzero(simple)
    first = (rows[:, None] * width + np.arange(need)).reshape(-1)
    rest = np.flatnonzero(~simple)
    if len(rest) == 0:
        return first
    sub = block[rest]
    mask = (sub >= kth[rest, None]) & (sub > -np.inf)
    at = np.nonzero(mask)
    return np.concatenate([first, rest[at[0]] * width + at[1]])
