"""trec_eval's order of rows: query ascending, score descending, doc id descending (trec_eval 9/10
`form_res_rels.c` sorts by score, then by docno). Docs are compared by `doc_keys(codes)` (Dataset.doc_keys: keys
that compare as the ids do), asked for the tied rows only when the rows have the shape below.

`np.lexsort` over three keys costs seconds on millions of rows. A run is written query by query, each
query's docs by descending score (and the top-k selection returns rows that way): then the order is
the queries' blocks rearranged, plus a sort of each tie group by doc. `trec_order` checks that shape in
one pass and falls back to the lexsort when the rows do not have it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from rankflavor.inputs.dataset import Dataset


FEW_LEVELS = 8  # level_index: up to this many levels, a comparison pass per level


def trec_order(q: np.ndarray, score: np.ndarray, d: np.ndarray, docs: Dataset) -> np.ndarray:
    """The permutation that sorts rows by (q asc, score desc, doc id desc), the docs compared as `docs` says
    (`Dataset.doc_keys`, `Dataset.group_then_doc_order`)."""
    perm = trec_reorder(q, score, d, docs)
    return np.arange(len(q), dtype=np.int64) if perm is None else perm


def trec_reorder(q: np.ndarray, score: np.ndarray, d: np.ndarray, docs: Dataset) -> np.ndarray | None:
    """`trec_order`, or None when the rows are in that order already (nothing to gather)."""
    n = len(q)
    if n < 2:
        return None
    new_block = np.empty(n, dtype=bool)
    new_block[0] = True
    np.not_equal(q[1:], q[:-1], out=new_block[1:])
    starts = np.flatnonzero(new_block)
    block_q = q[starts]
    block_order = np.argsort(block_q, kind="stable")
    sorted_q = block_q[block_order]
    one_block_per_query = bool((sorted_q[1:] != sorted_q[:-1]).all())
    if not one_block_per_query or not bool(((score[1:] <= score[:-1]) | new_block[1:]).all()):
        return np.lexsort((-docs.doc_keys(d), -score, q))
    perm = None
    if bool((block_q[1:] < block_q[:-1]).any()):  # the query blocks rearranged
        lengths = np.diff(np.append(starts, n))[block_order]
        first = starts[block_order]
        perm = np.arange(n, dtype=np.int64) + np.repeat(first - (np.cumsum(lengths) - lengths), lengths)
        q, score = q[perm], score[perm]
    at, group = tie_rows(q, score)  # each tie group is sorted by doc desc in place
    if len(at):
        perm = np.arange(n, dtype=np.int64) if perm is None else perm
        tied = d[perm[at]]
        within = docs.group_then_doc_order(group, tied)
        perm[at] = perm[at][_by_group_then_doc_desc(group, docs.doc_keys(tied)) if within is None else within]
    return perm


def _by_group_then_doc_desc(group: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The stable permutation to (group asc, d desc), for nondecreasing groups and codes d >= 0: one stable
    argsort of a packed int64 key, which runs come nearly sorted (timsort merges the runs: milliseconds
    for a million tied rows, where a three-key np.lexsort is far slower); the lexsort when the key would overflow."""
    span = int(d.max()) + 1
    if int(d.min()) >= 0 and (int(group[-1]) + 1) * span < (1 << 62):
        return np.argsort(group * span + (span - 1 - d), kind="stable")
    return np.lexsort((-d, group))


def tie_rows(q: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows grouped by query and sorted by score: (the rows of tie groups of two or more, in order; their
    group ids, nondecreasing). A tie group is neighbours of one query with one score."""
    same = (q[1:] == q[:-1]) & (score[1:] == score[:-1])
    in_tie = np.zeros(len(q), dtype=bool)
    in_tie[1:] |= same
    in_tie[:-1] |= same
    rows = np.flatnonzero(in_tie)
    starts = np.ones(len(rows), dtype=bool)
    starts[1:] = ~same[rows[1:] - 1]  # a row starts a group unless it ties with the row before it
    return rows, np.cumsum(starts) - 1


def level_index(levels: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each value's index in `levels` (ascending, distinct, holding every value): np.searchsorted's, by one
    comparison pass per level when they are few (a binary search per value costs more than a few passes)."""
    if len(levels) > FEW_LEVELS:
        return np.searchsorted(levels, values)
    index = np.zeros(len(values), dtype=np.int64)
    for level in levels[1:]:
        index += values >= level
    return index


def stable_order(key: np.ndarray, bound: int) -> np.ndarray:
    """np.argsort(key, kind="stable") of nonnegative int keys below `bound`: numpy's radix sort when the keys fit in
    16 bits (linear; its merge sort otherwise)."""
    if bound <= 1 << 16:
        return np.argsort(key.astype(np.uint16), kind="stable")
    return np.argsort(key, kind="stable")


def distinct_sorted(values: np.ndarray) -> np.ndarray:
    """The distinct values, ascending (np.unique imports numpy.ma, which start-up would pay for)."""
    out = np.sort(values)
    return out[np.r_[True, out[1:] != out[:-1]]] if len(out) else out
