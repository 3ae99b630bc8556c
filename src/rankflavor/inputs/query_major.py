"""The query-major layout of a run, built once per run and shared by every flavor.

A run's rows are cut into segments, one per query, each holding that query's rows in input order. A TREC
run is almost always written query by query already; then the layout is free (no permutation). Otherwise
one stable sort of the query codes builds it. With every segment padded to the longest one, per-row
values become a (segments x width) matrix, and per-query questions become row-wise numpy calls: the k-th
largest score of every query is one `np.partition(..., axis=1)` (linear time), duplicates are one
row-wise sort of doc codes. When padding would more than double the memory (very uneven queries), the
layout says so (`paddable` False) and the engine takes its general path.
"""

from __future__ import annotations

import numpy as np

MAX_PADDING = 2.0  # padded cells allowed per row (plus a constant), beyond which the layout is not paddable


class RunLayout:
    """Segments of a run: rows of one query contiguous, input order kept within a query."""

    perm: np.ndarray | None  # input row of each query-major row; None when the input is already query-major
    seg_q: np.ndarray  # int64 query code of each segment
    start: np.ndarray  # int64 first query-major row of each segment
    length: np.ndarray  # int64 rows of each segment
    width: int  # the longest segment
    n_rows: int

    def __init__(self, perm: np.ndarray | None, seg_q: np.ndarray, start: np.ndarray, length: np.ndarray, width: int,
                 n_rows: int) -> None:
        self.perm = perm
        self.seg_q = seg_q
        self.start = start
        self.length = length
        self.width = width
        self.n_rows = n_rows

    @property
    def n_segments(self) -> int:
        return len(self.seg_q)

    @property
    def paddable(self) -> bool:
        return self.n_segments * self.width <= MAX_PADDING * self.n_rows + (1 << 16)

    @property
    def uniform(self) -> bool:
        return bool(self.n_segments == 0 or (self.length == self.width).all())

    def matrix(self, values: np.ndarray, fill: float | int, segments: np.ndarray | None = None) -> np.ndarray:
        """Per-row `values` (input order) as a (len(segments) x width) matrix padded with `fill`.

        `segments`: indices of the segments to keep (all by default). A view when the run is query-major,
        uniform and every segment is kept."""
        if segments is None and self.perm is None and self.uniform:
            return values.reshape(self.n_segments, self.width)
        segs = np.arange(self.n_segments) if segments is None else segments
        out = np.full((len(segs), self.width), fill, dtype=values.dtype)
        rows = self.rows_of(segs)
        cells = np.repeat(np.arange(len(segs), dtype=np.int64) * self.width - self.start[segs], self.length[segs]) + rows
        out.reshape(-1)[cells] = values[rows] if self.perm is None else values[self.perm[rows]]
        return out

    def rows_of(self, segments: np.ndarray) -> np.ndarray:
        """Query-major rows of the given segments, segment by segment."""
        lengths = self.length[segments]
        offsets = np.repeat(self.start[segments] - np.concatenate(([0], np.cumsum(lengths)[:-1])), lengths)
        return np.arange(int(lengths.sum()), dtype=np.int64) + offsets

    def input_rows_of(self, segments: np.ndarray) -> np.ndarray:
        """Input rows of the given segments, segment by segment (each query's rows in input order)."""
        rows = self.rows_of(segments)
        return rows if self.perm is None else self.perm[rows]

    def input_rows(self, segments: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """Input rows of flat cell indices of a matrix built from `segments`."""
        m = self.start[segments[cells // self.width]] + cells % self.width
        return m if self.perm is None else self.perm[m]


def build_layout(q: np.ndarray, n_queries: int, table: np.ndarray | None = None) -> RunLayout:
    """Segments of the query codes `q` (input order): free when the input is grouped by query already.

    `q` may be a file's own codes (0 <= q < n_queries) with `table` mapping them to dataset codes."""
    n = len(q)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return RunLayout(None, empty, empty, empty, 0, 0)
    starts = _starts(q)
    perm = None
    if len(starts) > n_queries or np.bincount(q[starts], minlength=n_queries).max() > 1:
        # a query's rows are split: one stable sort of the codes (radix sort when they fit 16 bits)
        keys = q.astype(np.uint16) if n_queries <= 1 << 16 else q
        perm = np.argsort(keys, kind="stable")
        starts = _starts(q[perm])
        seg_q = q[perm[starts]].astype(np.int64)
    else:
        seg_q = q[starts].astype(np.int64)
    if table is not None:
        seg_q = table[seg_q]
    length = np.diff(np.append(starts, n)).astype(np.int64)
    return RunLayout(perm, seg_q, starts.astype(np.int64), length, int(length.max()), n)


def _starts(q: np.ndarray) -> np.ndarray:
    boundary = np.empty(len(q), dtype=bool)
    boundary[0] = True
    np.not_equal(q[1:], q[:-1], out=boundary[1:])
    return np.flatnonzero(boundary)


SORT_CELLS = 1 << 18  # cells per block of the duplicate check: its temporaries stay in the CPU cache


def has_duplicates(layout: RunLayout, d: np.ndarray) -> bool:
    """Whether a segment lists a doc code twice (a row-wise sort of the padded doc codes, block by block)."""
    if layout.n_rows == 0:
        return False
    if d.dtype != np.int32 and int(d.max()) < 2**31 - 1:
        d = d.astype(np.int32)  # a narrower sort is faster
    m = layout.matrix(d, -1)
    padded = not (layout.perm is None and layout.uniform)
    step = max(1, SORT_CELLS // max(layout.width, 1))
    for start in range(0, len(m), step):
        block = np.sort(m[start:start + step], axis=1)
        same = block[:, 1:] == block[:, :-1]
        if padded:
            same &= block[:, 1:] >= 0
        if same.any():
            return True
    return False
