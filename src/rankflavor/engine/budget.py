"""A memory budget for one `Engine.evaluate` call: its flavors evaluated in groups whose working set fits.

The flavors of one call share a run's stages (engine/scope.py), and what a flavor keeps there (its top-k
selection, its ranked rows, their positions) stays until the run is released: about `ROW_BYTES` per row a
flavor reads, measured on the 7M-row benchmark (100 flavors of ndcg@1..1000 kept 7.2 GB: 65 to 150 bytes per
selected row, the narrower the more), and at least `FLOOR` (its per-query arrays); and in the dataset's memo
its ideal lists and gains, about `QRELS_ROW_BYTES` per qrels row. So a flavor's estimate is
`max(FLOOR, ROW_BYTES * rows) + QRELS_ROW_BYTES * qrels rows`, rows = sum over the run's lists of
min(length, the depth it reads) (every row for a metric of whole lists). The budget, less what the process holds already (its
resident memory when the engine's first call starts, and the estimates of what the engine keeps of earlier
calls: released when a call would not fit beside it), is shared by the flavors of a group; groups are consecutive in the
widest-first order (engine/front.py `widest_first`), so a group's shallower cutoffs are still narrowed from
its widest selection. Each group gets a fresh stage memo, dropped (with the dataset's memo, and the freed
memory handed back: `trim`) before the next group is made. When even
one flavor's estimate exceeds what is left of a budget the caller set, the call is refused up front, with the
estimate; under the default budget (the estimates are upper bounds) such a flavor is evaluated in a group of
its own.

The budget: `max_memory(SIZE)` (the API's `max_memory=`, the CLI's `--max-memory`, RANKFLAVOR_MAX_MEMORY), else
half of what the process can still get (rankflavor/limits.py: MemAvailable, the cgroup's and the rlimits' room).
"""

from __future__ import annotations

import math
import os
from collections.abc import Hashable, Sequence

import numpy as np

from rankflavor.errors import UsageError
from rankflavor.inputs.dataset import InternedRun
from rankflavor.limits import (
    FALLBACK,
    MEMORY_OPTION,
    budget_chosen,
    chosen_budget,
    default_budget,
    max_memory,
    parse_size,
    set_max_memory,
    size_text,
)

__all__ = ["FALLBACK", "FLOOR", "QRELS_ROW_BYTES", "ROW_BYTES", "budget", "default_budget", "estimate", "flavor_groups",
           "max_memory", "parse_size", "resident_bytes", "set_max_memory", "trim"]

ROW_BYTES = 128  # bytes a flavor keeps per row it reads (measured 65 to 150 on the 7M-row run)
FLOOR = 8 << 20  # bytes a flavor keeps at least (its per-query arrays)
QRELS_ROW_BYTES = 24  # bytes a flavor keeps per qrels row (its ideal lists and gains: 17 measured on the 7M-row run)
QUICK_ROWS = 1 << 20  # a run of at most so many rows is not laid out for its estimate when every flavor fits


def budget() -> int:
    """The budget in bytes: the one set (rankflavor/limits.py), else the default."""
    chosen = chosen_budget()
    return chosen if chosen is not None else default_budget()


def resident_bytes() -> int:
    """This process's resident memory now (0 when /proc cannot tell)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def estimate(run: InternedRun, need: float, qrels_rows: int) -> int:
    """Bytes a flavor reading the top `need` rows of each list (inf: every row) keeps while its group runs."""
    if math.isinf(need) or run.n_rows == 0:
        rows = run.n_rows
    else:
        rows = int(np.minimum(run.layout.length, max(int(need), 1)).sum())
    return max(FLOOR, ROW_BYTES * rows) + QRELS_ROW_BYTES * qrels_rows


def trim() -> None:
    """Hand the memory freed by a group back to the system (glibc's malloc_trim: numpy's freed arrays otherwise
    stay resident, fragmented, and the next group's land beside them); nothing elsewhere."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def flavor_groups(run: InternedRun, needs: Sequence[float], labels: Sequence[str], held: int,
                  qrels_rows: int = 0, shares: Sequence[Hashable] | None = None) -> tuple[list[list[int]], int]:
    """(the flavors by index in groups that fit the budget beside `held` bytes (the inputs, the stages kept),
    consecutive in the widest-first order; the estimate of the largest group). `needs`: each flavor's depth;
    `shares`: each flavor's key of the row stages it reads (front.py `_share_key`): a flavor whose key is already
    in its group reads that flavor's stages and adds only `FLOOR` (pytrec_eval.all_trec's 92 flavors read 10
    selections). UsageError when one flavor alone cannot fit."""
    if not needs:
        return [], 0
    order = sorted(range(len(needs)), key=lambda i: -needs[i])
    limit = budget()
    left = limit - held
    bound = len(needs) * (max(FLOOR, ROW_BYTES * run.n_rows) + QRELS_ROW_BYTES * qrels_rows)
    if run.n_rows <= QUICK_ROWS and bound <= left:
        return [order], bound  # (every flavor reading every row fits: no layout needed)
    sizes = [estimate(run, need, qrels_rows) for need in needs]
    widest = max(range(len(needs)), key=lambda i: sizes[i])
    if sizes[widest] > left and budget_chosen():  # (under the default budget: a group of its own)
        raise UsageError(
            f"not enough memory for {labels[widest]!r} on run {run.name!r}: it needs about {_mb(sizes[widest])} "
            f"({run.n_rows:,} rows read), and the memory budget of {_mb(limit)} leaves {_mb(max(left, 0))} "
            f"beside what the inputs already hold; give a larger budget ({MEMORY_OPTION}), "
            "or evaluate fewer queries or a shallower cutoff")
    groups: list[list[int]] = []
    used = largest = 0
    read: set[Hashable] = set()  # the stage keys of the current group
    for i in order:
        shared = shares is not None and shares[i] in read
        cost = min(FLOOR, sizes[i]) if shared else sizes[i]
        if groups and used + cost <= left:
            groups[-1].append(i)
            used += cost
        else:
            groups.append([i])
            used, read = sizes[i], set()
        if shares is not None:
            read.add(shares[i])
        largest = max(largest, used)
    return groups, largest


FLAVOR_BYTES = 12 << 10  # bytes a Flavor costs to make and keep (measured 8.6 KB: 10,000 P@k took 86 MB)
RESULT_BYTES = 24 << 10  # bytes a report keeps per run x flavor beside its per-query arrays (measured 15 KB)
RESULT_QUERY_BYTES = 48  # bytes a report keeps per run x flavor x query (values, statuses, parts, codes)


def check_results(runs: int, flavors: int, queries: int) -> None:
    """Refuse, before evaluating, a report whose results alone exceed what the budget leaves (trec_eval -m
    P.1,...,30000 grew to 380 MB over a 300 MB budget before the engine refused a flavor of 8 MB)."""
    need = runs * flavors * (RESULT_BYTES + RESULT_QUERY_BYTES * queries)
    held = resident_bytes()
    if need <= budget() - held or need < FLOOR:  # (below one flavor's least: the engine's own refusal says more)
        return
    raise UsageError(
        f"not enough memory for the results of {flavors:,} flavor{'s' if flavors != 1 else ''} x {runs:,} "
        f"run{'s' if runs != 1 else ''} over {queries:,} quer{'ies' if queries != 1 else 'y'}: about {_mb(need)}, and "
        f"the memory budget of {_mb(budget())} leaves {_mb(max(budget() - held, 0))} beside the {_mb(held)} the "
        f"process holds; give fewer flavors or cutoffs, fewer runs at a time, or a larger budget ({MEMORY_OPTION})")


def check_flavor_count(count: int, what: str) -> None:
    """Refuse, before making them, `count` flavors whose making and results (one run, no query) exceed what the
    budget leaves (trec_eval -m P.1,...,30000 took 15 s and 357 MB to make its flavors)."""
    need = count * (FLAVOR_BYTES + RESULT_BYTES)
    room = budget() - resident_bytes()
    if need > room:
        raise UsageError(f"not enough memory for {what}: {count:,} flavors need at least {_mb(need)} to make and "
                         f"evaluate, and the memory budget of {_mb(budget())} leaves {_mb(max(room, 0))}; ask for "
                         f"fewer, or give a larger budget ({MEMORY_OPTION})")


def _mb(size: int) -> str:
    return size_text(size)
