"""Top-k selection: the rows of a run that can change a score with a cutoff, found without sorting the run.

For a cutoff k, the ranked list matters only down to rank k, plus the rest of the tie group that holds
rank k (it decides `ties=average` and the ties-across-the-cutoff warning). Every tie policy orders by
score first, so the rows whose score is at least the k-th largest score of their query,

    P(q) = { rows r of q : s(r) >= s_(k)(q) },   s_(k)(q) = the k-th largest score of q (all rows if fewer),

are a prefix of the query's ranked list under any tie policy: ranking P alone gives every row of P the
rank it has in the whole list. s_(k) is column k-1 of a query whose rows come by descending score (as TREC
runs are written), else one `np.partition` per query over the query-major layout (linear time), so the
ordering that follows (engine/order.py) sees about k rows per query instead of all of them. The selected
rows carry their join with the qrels and a memo the kernel fills (`TopRows`): every flavor that reads
the same prefix shares them.

What the prefix cannot see comes from whole-run counts computed here once (rows per query after the
drops, rows beyond run_depth, unjudged rows skipped) and, for `ideal=local` over the whole list, from the
run's judged rows (`local_ideal`). Everything is cached on the run and the dataset, keyed by the axes it
depends on, so that many flavors share one layout, one join and one selection per cutoff.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from rankflavor.data import Codes, Dataset, InternedRun
from rankflavor.engine import chunks
from rankflavor.engine.layout import RunLayout, build_layout
from rankflavor.engine.order import distinct_sorted, trec_order
from rankflavor.flavor import Flavor
from rankflavor.flavor.axes import parse_call


@dataclass
class TopRows:
    """The top rows of one selection, joined with the qrels once for every flavor that reads them."""

    rows: np.ndarray  # input rows, eligible and not dropped: a prefix of each query's ranking, in trec_eval order
    q: np.ndarray  # their query codes, doc codes and scores
    d: np.ndarray
    score: np.ndarray
    index: np.ndarray  # row of each in the sorted qrels, or -1
    found: np.ndarray  # index >= 0
    grade: np.ndarray  # nan when not in the qrels
    gains: dict[tuple[str, ...], tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)  # -> (judged, gain)
    memo: dict[object, np.ndarray] = field(default_factory=dict)  # ranks, groups, discounts (kernel.py)


@dataclass
class Prefix:
    """The rows of one (run, flavor) the kernel needs, and the whole-run numbers it cannot see in them."""

    top: TopRows
    counts: dict[str, int]  # whole-run row counts, overriding the kernel's counts over `rows`
    returned: np.ndarray | None  # per query code: rows in the list after every drop (None: count `rows`)
    local: tuple[np.ndarray, ...] | None  # ideal=local over the whole list: its nonzero gains, sorted, ranked


def layout_of(ds: Dataset, run: InternedRun) -> RunLayout:
    """The run's query-major layout (built once, cached on the run)."""
    layout = run.cache.get("layout")
    if layout is None:
        codes = run.q_codes
        n = ds.n_queries if codes.table is None else len(codes.table)
        layout = run.cache["layout"] = build_layout(codes.local, n, table=codes.table)
    return layout


def self_doc_codes(ds: Dataset) -> np.ndarray:
    """Per query code, the doc code of the doc whose id equals the query id (-1 when there is none)."""
    codes = ds.cache.get("self_doc")
    if codes is None:
        if ds.n_queries and ds.n_docs:
            found = pc.index_in(pa.array(ds.query_ids.tolist(), pa.string()),
                                value_set=pa.array(ds.doc_ids.tolist(), pa.string()))
            codes = found.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
        else:
            codes = np.full(ds.n_queries, -1, dtype=np.int64)
        ds.cache["self_doc"] = codes
    return codes


def qrels_index(ds: Dataset, run: InternedRun) -> np.ndarray:
    """Per run row (input order), the row of its (query, doc) in the sorted qrels, or -1 (cached)."""
    index = run.cache.get("qrels_index")
    if index is None:
        rows, found = judged_hits(ds, run)
        index = np.full(run.n_rows, -1, dtype=np.int64)
        index[rows] = found
        run.cache["qrels_index"] = index
    return index


def judged_hits(ds: Dataset, run: InternedRun) -> tuple[np.ndarray, np.ndarray]:
    """(rows, row in the sorted qrels) of the run's rows whose (query, doc) is in the qrels (cached).

    The run's own small codes go through the join's filter without building every row's dataset code."""
    hits = run.cache.get("judged_hits")
    if hits is None:
        hits = run.cache["judged_hits"] = _join(ds, run.q_codes, run.d_codes)
    return hits


FILTER_ROWS = 1 << 17  # fewer rows than this: a binary search is cheaper than building the filter
FILTER_ROWS_BUILT = 1 << 12  # ... than using the filter once it is built (chunks of a large run reuse it)
FILTER_SLOTS_PER_JUDGMENT = 16  # per query: about 1 row in 8 whose doc is not judged passes the filter
JOIN_SLICE = 1 << 18
SELECT_CELLS = 1 << 17  # matrix cells per block of the top-k selection
DEEP_SHARE = 0.25  # a prefix of more than this share of a run's rows, and more than DEEP_ROWS: general path
DEEP_ROWS = 1 << 21  # (below, the prefix's caches, shared by the flavors that read it, are worth their memory)


def join_qrels(ds: Dataset, q: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Row of each (q, d) (int64 dataset codes) in the sorted qrels keys, or -1 when it is not judged."""
    index = np.full(len(q), -1, dtype=np.int64)
    rows, found = _join(ds, Codes(q), Codes(d))
    index[rows] = found
    return index


def _join(ds: Dataset, q: Codes, d: Codes) -> tuple[np.ndarray, np.ndarray]:
    """(rows, qrels rows) of the judged (query, doc) pairs among the rows of q and d.

    Most rows of a deep run are not judged. A filter over the judged (query, doc) pairs lets every
    judged row through and a few others, at two gathers from small tables, an add and one look-up per
    row; only those rows are looked up by binary search in the qrels keys, which decides."""
    keys = ds.qrels.key
    n = len(q)
    if len(keys) == 0 or n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if n < (FILTER_ROWS_BUILT if "judged_filter" in ds.cache else FILTER_ROWS):
        rows = np.arange(n)
    else:
        slots, query_base, doc_slot = _judged_filter(ds)
        q_base = query_base if q.table is None else query_base[q.table]  # per local code
        d_slot = doc_slot if d.table is None else doc_slot[d.table]
        found = []
        for start in range(0, n, JOIN_SLICE):  # in slices: the temporaries stay in the CPU cache
            part = slice(start, start + JOIN_SLICE)
            slot = q_base[q.local[part]]
            slot += d_slot[d.local[part]]
            found.append(np.flatnonzero(slots[slot]) + start)
        rows = np.concatenate(found)
    run_key = q.at(rows) * max(ds.n_docs, 1) + d.at(rows)
    found_at = np.minimum(np.searchsorted(keys, run_key), len(keys) - 1)
    same = keys[found_at] == run_key
    return rows[same], found_at[same]


def _judged_filter(ds: Dataset) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(slots, first slot of every query code, slot offset of every doc code) (cached on the dataset).

    Each query owns a window of W slots (a power of two, about FILTER_SLOTS_PER_JUDGMENT per judgment of
    an average query); a doc falls at a hashed offset in it, and a slot is set when a judged pair falls
    there. Rows come query by query, so the look-ups of one query stay in its window (in the cache)."""
    if "judged_filter" not in ds.cache:
        per_query = len(ds.qrels.key) / max(int(ds.judged.sum()), 1)
        width = 1 << min(20, max(6, int(per_query * FILTER_SLOTS_PER_JUDGMENT).bit_length()))
        query_base = np.arange(ds.n_queries, dtype=np.int64) * width
        doc_slot = (_mix(np.arange(max(ds.n_docs, 1), dtype=np.uint32)) & np.uint32(width - 1)).astype(np.int64)
        slots = np.zeros(ds.n_queries * width, dtype=bool)
        slots[query_base[ds.qrels.q] + doc_slot[ds.qrels.d]] = True
        ds.cache["judged_filter"] = (slots, query_base, doc_slot)
    return ds.cache["judged_filter"]


def _mix(x: np.ndarray) -> np.ndarray:
    """A 32-bit integer hash (the finaliser of MurmurHash3, Appleby 2011): neighbouring codes spread."""
    x = x ^ (x >> np.uint32(16))
    x *= np.uint32(0x85EBCA6B)
    x ^= x >> np.uint32(13)
    x *= np.uint32(0xC2B2AE35)
    return x ^ (x >> np.uint32(16))


def needed_depth(flavor: Flavor) -> float:
    """How many top ranks of each query the flavor reads (inf: the whole list)."""
    need = math.inf if flavor.cutoff is None else float(flavor.cutoff)
    kind, arg = parse_call(flavor.ideal)
    if kind == "recall":
        need = max(need, float(int(arg or 0)))
    if flavor.run_depth != "all":
        depth = float(int(flavor.run_depth))
        # after the cut, unjudged=skip condenses, unjudged=error inspects and ideal=local reads the whole list
        need = depth if flavor.unjudged in ("skip", "error") or kind == "local" else min(need, depth)
    return need


@dataclass
class _Drops:
    """What the drop and skip policies leave of a run, per input row and per query (cached per policy)."""

    counts: dict[str, int]
    valid: np.ndarray | None  # eligible and not dropped (None when every row is: nothing dropped, all judged)
    n_valid: np.ndarray  # per query code
    judged: np.ndarray | None  # per input row, judged under the negative policy (when the join was needed)
    ranked_out: np.ndarray | None  # rows the ranking leaves out (drops, and unjudged rows under skip)
    n_judged: np.ndarray | None  # per query code, valid judged rows (skip)


def select_prefix(ds: Dataset, run: InternedRun, flavor: Flavor, q_judged: np.ndarray, q_gain: np.ndarray,
                  ) -> Prefix | None:
    """The prefix of every judged query's ranking that `flavor` reads, or None when the general path is
    as good or the layout does not allow it (no cutoff, very uneven queries, infinite scores)."""
    need = needed_depth(flavor)
    if math.isinf(need) or run.n_rows == 0:
        return None
    layout = layout_of(ds, run)
    if not layout.paddable:
        return None
    prefix_cells = min(need, layout.width) * layout.n_segments
    if prefix_cells > max(DEEP_ROWS, run.n_rows * DEEP_SHARE) and run.n_rows > chunks.chunk_rows(ds):
        return None  # a prefix of most of a large run: the general path, a chunk of queries at a time, is lighter
    segs = _eligible_segments(ds, run, layout)
    whole_list = flavor.run_depth == "all"
    skip = flavor.unjudged == "skip" and whole_list
    local = whole_list and parse_call(flavor.ideal)[0] == "local"
    if flavor.unjudged == "error" and whole_list and not _all_judged(ds, run, q_judged, flavor.negative):
        return None  # the general path raises the error, naming the first unjudged doc
    key = (flavor.self_docs, flavor.negative == "drop", skip, flavor.negative if skip else None)
    drops = run.cache.get(("drops", key))
    if drops is None:
        drops = run.cache[("drops", key)] = _drops(ds, run, layout, segs, flavor, skip, q_judged)
    counts = dict(drops.counts)
    if flavor.run_depth != "all":
        counts["rows_beyond_run_depth"] = int(np.maximum(drops.n_valid - int(flavor.run_depth), 0).sum())
    if skip:
        assert drops.n_judged is not None
        counts["rows_unjudged_skipped"] = int((drops.n_valid - drops.n_judged).sum())
        returned: np.ndarray | None = drops.n_judged
    else:
        returned = drops.n_valid if whole_list else np.minimum(drops.n_valid, int(flavor.run_depth))
    if not whole_list and need >= int(flavor.run_depth):
        returned = None  # the prefix holds the whole cut list: the kernel counts it

    top = _top_rows(ds, run, layout, segs, flavor.precision, int(need), drops.ranked_out, key=(flavor.precision, key))
    if top is None:
        return None

    ideal = None
    if local:  # the whole list's judged rows, and per query the zero gains ranked before negative ones
        assert returned is not None
        gain_key = ("local_ideal", key, flavor.negative, flavor.gain, flavor.min_grade)
        ideal = run.cache.get(gain_key)
        if ideal is None:
            hits, hit_index = judged_hits(ds, run)
            keep = q_judged[hit_index]  # judged under the negative policy, and not dropped
            if drops.valid is not None:
                keep &= drops.valid[hits]
            hits, hit_index = hits[keep], hit_index[keep]
            gain = q_gain[hit_index]
            nonzero = gain != 0
            hits, hit_index, gain = hits[nonzero], hit_index[nonzero], gain[nonzero]
            lq, ld, lgrade = run.q_codes.at(hits), run.d_codes.at(hits), ds.qrels.grade[hit_index]
            zeros = returned - np.bincount(lq, minlength=ds.n_queries)
            perm = _ideal_order(lq, gain, ld, max(ds.n_queries, 1), max(ds.n_docs, 1))
            lq, ld, lgrade, gain = lq[perm], ld[perm], lgrade[perm], gain[perm]
            starts = np.flatnonzero(np.r_[True, lq[1:] != lq[:-1]]) if len(lq) else np.zeros(0, dtype=np.int64)
            rank = np.arange(1, len(lq) + 1) - np.repeat(starts, np.diff(np.r_[starts, len(lq)]))
            rank += np.where(gain < 0, zeros[lq], 0)  # zero gains (unjudged docs too) come before negative ones
            ideal = run.cache[gain_key] = (lq, ld, lgrade, gain, rank)
    return Prefix(top=top, counts=counts, returned=returned, local=ideal)


def _ideal_order(q: np.ndarray, gain: np.ndarray, d: np.ndarray, n_queries: int, n_docs: int) -> np.ndarray:
    """The permutation to (query asc, gain desc, doc desc): one argsort of a packed int64 key when it fits
    (a lexsort over three keys is several times slower)."""
    levels = distinct_sorted(gain)
    n_levels = max(len(levels), 1)
    if n_queries * n_levels * n_docs >= 1 << 62:
        return np.lexsort((-d, -gain, q))
    level = n_levels - 1 - np.searchsorted(levels, gain)
    return np.argsort((q * n_levels + level) * n_docs + (n_docs - 1 - d))  # (keys distinct: any sort)


def _drops(ds: Dataset, run: InternedRun, layout: RunLayout, segs: np.ndarray, flavor: Flavor, skip: bool,
           q_judged: np.ndarray) -> _Drops:
    nq = ds.n_queries
    neg_drop = flavor.negative == "drop"
    index = qrels_index(ds, run) if neg_drop or skip else None
    counts = {"rows_of_unjudged_queries": layout.n_rows - int(layout.length[segs].sum())}
    drop = None
    if flavor.self_docs == "drop":
        drop = run.d == run.q_codes.per_row(self_doc_codes(ds))
        drop &= run.q_codes.per_row(ds.judged)
        counts["rows_dropped_self_docs"] = int(drop.sum())
    if neg_drop:
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
        valid = _valid_rows(ds, run, drop)
        n_valid = run.q_codes.count(valid, nq)
    if valid is None and skip:
        valid = np.ones(run.n_rows, dtype=bool)
    judged = _at(q_judged, index, False) if index is not None else None
    ranked_out, n_judged = drop, None
    if skip:
        assert judged is not None
        n_judged = run.q_codes.count(valid & judged, nq)
        ranked_out = ~judged  # the condensed list ranks judged rows only
        ranked_out |= ~valid
    return _Drops(counts, valid, n_valid, judged, ranked_out, n_judged)


def _eligible_segments(ds: Dataset, run: InternedRun, layout: RunLayout) -> np.ndarray:
    segs = run.cache.get("eligible_segments")
    if segs is None:
        segs = run.cache["eligible_segments"] = np.flatnonzero(ds.judged[layout.seg_q])
    return segs


def _valid_rows(ds: Dataset, run: InternedRun, drop: np.ndarray | None) -> np.ndarray:
    eligible = run.cache.get("eligible_rows")
    if eligible is None:
        eligible = run.cache["eligible_rows"] = run.q_codes.per_row(ds.judged)
    return eligible if drop is None else eligible & ~drop


def _at(values: np.ndarray, index: np.ndarray, default: float | bool) -> np.ndarray:
    """values[index] where index >= 0, else default."""
    if len(values) == 0:
        return np.full(len(index), default, dtype=values.dtype)
    return np.where(index >= 0, values[np.maximum(index, 0)], default)


def _all_judged(ds: Dataset, run: InternedRun, q_judged: np.ndarray, negative: str) -> bool:
    key = ("all_judged", negative)
    if key not in run.cache:
        judged = _at(q_judged, qrels_index(ds, run), False)
        run.cache[key] = bool(judged[run.q_codes.per_row(ds.judged)].all())
    return run.cache[key]


def _scores(run: InternedRun, precision: str) -> np.ndarray:
    if precision == "f64":
        return run.score
    cached = run.cache.get("score_f32")
    if cached is None:
        cached = run.cache["score_f32"] = run.score.astype(np.float32).astype(np.float64)
    return cached


def _top_rows(ds: Dataset, run: InternedRun, layout: RunLayout, segs: np.ndarray, precision: str, need: int,
              ranked_out: np.ndarray | None, key: tuple) -> TopRows | None:
    """Input rows whose score is at least the need-th largest ranked score of their query, sorted by query,
    score desc and doc desc (the trec_eval order), with their rows in the qrels (cached by key and need)."""
    cache_key = ("top", key, need)
    if cache_key in run.cache:
        return run.cache[cache_key]
    score = _scores(run, precision)
    if ("has_neginf", precision) not in run.cache:
        run.cache[("has_neginf", precision)] = bool((score == -np.inf).any())
    if run.cache[("has_neginf", precision)]:
        return None  # -inf marks padding below: leave such runs to the general path
    matrix_key = ("matrix", key)
    m = run.cache.get(matrix_key)
    if m is None:
        all_segs = len(segs) == layout.n_segments
        m = layout.matrix(score, -np.inf, None if all_segs else segs)
        if ranked_out is not None:
            out = layout.matrix(ranked_out, True, None if all_segs else segs)
            m = np.where(out, -np.inf, m)
        run.cache[matrix_key] = m
    width = layout.width
    if need >= width:
        cells = np.flatnonzero(m > -np.inf)
    else:  # block by block of queries: the temporaries stay in the CPU cache
        step = max(1, SELECT_CELLS // width)
        cells = np.concatenate([_top_cells(m[start:start + step], need) + start * width
                                for start in range(0, len(m), step)] or [np.zeros(0, dtype=np.int64)])
    rows = layout.input_rows(segs, cells)
    q, d = run.q_codes.at(rows), run.d_codes.at(rows)
    perm = trec_order(q, score[rows], d)
    rows, q, d = rows[perm], q[perm], d[perm]
    index = join_qrels(ds, q, d)
    found = index >= 0
    grade = np.where(found, ds.qrels.grade[np.maximum(index, 0)], np.nan) if len(ds.qrels.key) else \
        np.full(len(rows), np.nan)
    top = run.cache[cache_key] = TopRows(rows, q, d, score[rows], index, found, grade)
    return top


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
