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

The budget: `max_memory(SIZE)` (the API's `max_memory=`, the CLI's `--max-memory`), else half of the
machine's available memory (`MemAvailable` in /proc/meminfo; 4 GiB when it cannot be read).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from rankflavor.errors import UsageError
from rankflavor.inputs.intern import InternedRun

ROW_BYTES = 128  # bytes a flavor keeps per row it reads (measured 65 to 150 on the 7M-row run)
FLOOR = 8 << 20  # bytes a flavor keeps at least (its per-query arrays)
QRELS_ROW_BYTES = 24  # bytes a flavor keeps per qrels row (its ideal lists and gains: 17 measured on the 7M-row run)
QUICK_ROWS = 1 << 20  # a run of at most so many rows is not laid out for its estimate when every flavor fits
FALLBACK = 4 << 30  # the budget when the machine's available memory cannot be read
_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20,
          "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30, "T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40}
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*([A-Za-z]*)\s*")
_budget: ContextVar[int | None] = ContextVar("rankflavor_max_memory", default=None)


def parse_size(text: str | int | float) -> int:
    """Bytes of a size: a number of bytes, or with a unit (K, M, G, T; KB = KiB = 1024 bytes): `8G`, `512MB`."""
    if isinstance(text, bool):
        raise UsageError(f"the memory budget {text!r} (max_memory=) is not a size: give bytes or a size such as 8G")
    if isinstance(text, (int, float)):
        value, unit = float(text), ""
    else:
        match = _SIZE.fullmatch(str(text))
        if match is None or match.group(2).upper() not in _UNITS:
            raise UsageError(f"the memory budget {text!r} (--max-memory, max_memory=) is not a size: give bytes or "
                             "a size such as 8G, 512M or 1.5GB")
        value, unit = float(match.group(1)), match.group(2).upper()
    size = value * _UNITS[unit]
    if not math.isfinite(size) or size < 1 << 20:
        raise UsageError(f"the memory budget {text!r} (--max-memory, max_memory=) is too small: give at least 1M "
                         "(a size such as 8G or 512M)")
    return int(size)


@contextmanager
def max_memory(size: str | int | float | None) -> Iterator[None]:
    """Evaluations inside the block keep within `size` (None: the budget already set, else the default)."""
    if size is None:
        yield
        return
    token = _budget.set(parse_size(size))
    try:
        yield
    finally:
        _budget.reset(token)


def set_max_memory(size: str | int | float | None) -> None:
    """The budget for the rest of the process (the CLI's `--max-memory`)."""
    _budget.set(None if size is None else parse_size(size))


def budget() -> int:
    """The budget in bytes: the one set, else half of the machine's available memory."""
    chosen = _budget.get()
    return chosen if chosen is not None else default_budget()


def default_budget() -> int:
    """Half of MemAvailable (/proc/meminfo), or FALLBACK when it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 // 2
    except (OSError, ValueError, IndexError):
        pass
    return FALLBACK


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
    if sizes[widest] > left and _budget.get() is not None:  # (under the default budget: a group of its own)
        raise UsageError(
            f"not enough memory for {labels[widest]!r} on run {run.name!r}: it needs about {_mb(sizes[widest])} "
            f"({run.n_rows:,} rows read), and the memory budget of {_mb(limit)} leaves {_mb(max(left, 0))} "
            "beside what the inputs already hold; give a larger budget (--max-memory, or max_memory= in Python), "
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


def _mb(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MB"
