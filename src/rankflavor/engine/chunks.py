"""The general way over a large run: a chunk of whole queries at a time.

Every number of an evaluation is per query: a query's rows, its qrels and the flavor decide it, never
another query's rows. So a large run can be evaluated over chunks of whole queries and the per-query
results put together, which is exact. Why: ranking every row makes tens of temporaries per row (join,
trec_eval's order, ranks, discounts, tie groups); over millions of rows each is a fresh array whose pages
the kernel must zero, while over a chunk of about CHUNK_ROWS rows they stay in the CPU cache and in
memory the allocator reuses.

Chunks hold consecutive query codes, in ascending order, as the unchunked path ranks them. An error met
in a chunk (unjudged=error, empty=error) is raised by evaluating the whole run again, so that its message
counts over the whole run.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from rankflavor import progress
from rankflavor.engine.results import QueryResults
from rankflavor.errors import EvaluationError
from rankflavor.inputs.dataset import Dataset, InternedRun

if TYPE_CHECKING:
    from concurrent.futures import Future

CHUNK_ROWS = 1 << 18  # rows per chunk: a chunk's int64 temporaries are 2 MB each
SHARED_SCALE, FLAVORS_PER_SCALE = 4, 8  # chunks grow by one CHUNK_ROWS per 8 flavors sharing them, up to 4x
ROWS_PER_QUERY = 2  # ... at least this many per query of the dataset: a chunk's results are per query code
WORKERS = min(4, len(os.sched_getaffinity(0)))  # chunks evaluated at once (numpy's loops let go of the GIL)


def chunk_rows(ds: Dataset, flavors: int = 1) -> int:
    """Rows per chunk: CHUNK_ROWS, or more when the dataset has so many queries that each chunk's per-query
    work (arrays over every query code) would outweigh its per-row work; up to SHARED_SCALE times more when
    several flavors share each chunk (each flavor's fixed work per chunk then dominates). The scale trades time
    for peak memory: on the 7M-row benchmark under `pytrec_eval.all_trec` (92 flavors, two chunks at a time),
    larger chunks were faster up to about 2^20 rows, slower beyond, and each size cost more memory."""
    scale = min(SHARED_SCALE, max(1, flavors // FLAVORS_PER_SCALE))
    return max(CHUNK_ROWS * scale, ROWS_PER_QUERY * ds.n_queries)


def query_chunks(ds: Dataset, run: InternedRun, rows_per_chunk: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """(chunk of every query code, the layout segments of every chunk): whole queries in ascending code
    order, about `rows_per_chunk` rows a chunk. A query the run lists with no rows, or does not list, is in
    the first chunk (present there as in the run)."""
    layout = run.layout
    segments = np.argsort(layout.seg_q, kind="stable")
    ends = np.cumsum(layout.length[segments])
    cut = np.searchsorted(ends, np.arange(rows_per_chunk, int(ends[-1]), rows_per_chunk), side="right")
    bounds = np.unique(np.concatenate(([0], cut, [len(segments)])))
    parts = [segments[lo:hi] for lo, hi in itertools.pairwise(bounds) if hi > lo]
    owner = np.zeros(ds.n_queries, dtype=np.int64)
    for index, segs in enumerate(parts):
        owner[layout.seg_q[segs]] = index
    return owner, parts


def chunk_run(run: InternedRun, owner: np.ndarray, index: int, segments: np.ndarray) -> InternedRun:
    """The sub-run of one chunk (its rows in query-major order, input order within a query)."""
    return run.subset(run.layout.input_rows_of(segments), run.present & (owner == index))


def evaluate_in_chunks(run: InternedRun, owner: np.ndarray, parts: list[np.ndarray],
                       evaluate: Callable[[InternedRun], list[QueryResults]],
                       workers: int | None = None) -> list[QueryResults]:
    """`evaluate` (several flavors' results) over each chunk (built, evaluated and let go a few at a time), put
    together: each query's numbers from its chunk, the row counts summed. On an EvaluationError,
    `evaluate(run)` raises it."""
    try:
        with progress.steps("chunk", len(parts)) as step:
            merged, counts = _merge_chunks(run, owner, parts, evaluate, workers or WORKERS, step)
    except EvaluationError:
        evaluate(run)  # the whole run's message (its counts are over every query)
        raise
    assert merged is not None
    for result, total in zip(merged, counts, strict=True):
        result.row_counts = total
    return merged


def _merge_chunks(run: InternedRun, owner: np.ndarray, parts: list[np.ndarray],
                  evaluate: Callable[[InternedRun], list[QueryResults]], workers: int,
                  step: Callable[[], None]) -> tuple[list[QueryResults] | None, list[dict[str, int]]]:
    """Each chunk's results merged as they come (`step` marks each on the progress line)."""
    merged: list[QueryResults] | None = None
    counts: list[dict[str, int]] = []
    take = np.zeros(0, dtype=np.int64)
    for index, results in enumerate(_chunk_results(run, owner, parts, evaluate, workers)):
        step()
        if merged is None:
            merged, take, counts = results, owner[results[0].query], [{} for _ in results]
        else:
            for into, part in zip(merged, results, strict=True):
                _take_rows(into, part, take == index)
        for total, part in zip(counts, results, strict=True):
            for key, value in part.row_counts.items():
                total[key] = total.get(key, 0) + int(value)
    return merged, counts


def _chunk_results(run: InternedRun, owner: np.ndarray, parts: list[np.ndarray],
                   evaluate: Callable[[InternedRun], list[QueryResults]], workers: int) -> Iterator[list[QueryResults]]:
    """Each chunk's results in chunk order. The first chunk is evaluated alone (it fills the dataset's
    stages, which every chunk shares); the others `workers` at a time in threads, at most `workers` ahead
    of the one being merged (so that only so many chunks' temporaries are alive at once)."""
    def one(index: int) -> list[QueryResults]:
        return evaluate(chunk_run(run, owner, index, parts[index]))
    yield one(0)
    if workers <= 1 or len(parts) <= 2:
        yield from (one(index) for index in range(1, len(parts)))
        return
    from concurrent.futures import ThreadPoolExecutor  # (a chunked run only: start-up spared its import)

    with ThreadPoolExecutor(workers, thread_name_prefix="rankflavor-chunk") as pool:
        pending: list[Future[list[QueryResults]]] = []
        for index in range(1, len(parts)):
            pending.append(pool.submit(one, index))
            if len(pending) >= workers:
                yield pending.pop(0).result()
        for future in pending:
            yield future.result()


def _take_rows(into: QueryResults, part: QueryResults, mine: np.ndarray) -> None:
    """Copy the queries where `mine` is set from `part` into `into` (both over the same query codes)."""
    for name in ("value", "raw_value", "status", "ties_straddle", "ties_any", "judged_in_top", "unjudged_in_top"):
        getattr(into, name)[mine] = getattr(part, name)[mine]
    for name, column in into.parts.items():
        column[mine] = part.parts[name][mine]
