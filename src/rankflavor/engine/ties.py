"""Definitions of the tie orders that are not a sort key of the rows alone (engine and reference share them).

`ties=random(seed)`: tied documents are ordered by a keyed hash of (seed, query, doc): key = the first 8
bytes (big-endian) of BLAKE2b(f"{seed}\\0{query}\\0{doc}"), ascending. The order depends only on the seed
and the two ids, so it does not change when other queries, docs or runs are added.

`ties=quicksort(passes)`: the order numba's `np.argsort(-scores)` gives (its default kind, quicksort),
applied `passes` times, each to the order the previous pass left. It is how ranx orders a query's docs
(ranx/data_structures/common.py: sort_dict_by_value -> typed_list_argosrt); ranx sorts a Run when it is built
and again in make_comparable (ranx/data_structures/run.py), hence 2 passes for evaluate(make_comparable=True).
numba's algorithm (numba/misc/quicksort.py, make_quicksort_impl: run_quicksort1, partition,
insertion_sort, SMALL_QUICKSORT = 15): partitions of 16 items or more are split around the median of
{low, mid, high} with a Hoare-style two-index scan, the larger side pushed on a stack; the rest is an
insertion sort. It is not stable, but deterministic: the order of tied docs depends on the whole list in
input order (a list of at most 15 docs keeps input order on ties). `quicksort_order` is that algorithm,
step for step, on plain Python lists.
"""

from __future__ import annotations

from collections.abc import Sequence

SMALL_QUICKSORT = 15  # numba: below this size (high - low < 15), an insertion sort


def random_tie_key(seed: int, query: str, doc: str) -> int:
    import hashlib  # (here: start-up of a run without random ties does not pay for it)

    return int.from_bytes(hashlib.blake2b(f"{seed}\x00{query}\x00{doc}".encode(), digest_size=8).digest(), "big")


def quicksort_passes(keys: Sequence[float], passes: int) -> list[int]:
    """The order of `keys` after `passes` quicksort argsorts, each of the order the previous one left (ranx
    sorts a Run when it is built and again in make_comparable: 2 passes; pass -score for its order)."""
    order = list(range(len(keys)))
    for _ in range(passes):
        order = [order[i] for i in quicksort_order([keys[j] for j in order])]
    return order


def quicksort_order(keys: Sequence[float]) -> list[int]:
    """The permutation numba's quicksort argsort gives for `keys` (ascending)."""
    a = list(keys)
    r = list(range(len(a)))
    if len(a) < 2:
        return r
    stack = [(0, len(a) - 1)]
    while stack:
        low, high = stack.pop()
        while high - low >= SMALL_QUICKSORT:
            i = _partition(a, r, low, high)
            if high - i > i - low:  # push the larger side, go on with the smaller
                if high > i:
                    stack.append((i + 1, high))
                high = i - 1
            else:
                if i > low:
                    stack.append((low, i - 1))
                low = i + 1
        _insertion_sort(a, r, low, high)
    return r


def _insertion_sort(a: list[float], r: list[int], low: int, high: int) -> None:
    for i in range(low + 1, high + 1):
        k = r[i]
        v = a[k]
        j = i
        while j > low and v < a[r[j - 1]]:
            r[j] = r[j - 1]
            j -= 1
        r[j] = k


def _partition(a: list[float], r: list[int], low: int, high: int) -> int:
    mid = (low + high) >> 1
    if a[r[mid]] < a[r[low]]:  # median of {low, mid, high}
        r[low], r[mid] = r[mid], r[low]
    if a[r[high]] < a[r[mid]]:
        r[high], r[mid] = r[mid], r[high]
    if a[r[mid]] < a[r[low]]:
        r[low], r[mid] = r[mid], r[low]
    pivot = a[r[mid]]
    r[high], r[mid] = r[mid], r[high]  # the pivot waits at the end
    i, j = low, high - 1
    while True:
        while i < high and a[r[i]] < pivot:
            i += 1
        while j >= low and pivot < a[r[j]]:
            j -= 1
        if i >= j:
            break
        r[i], r[j] = r[j], r[i]
        i += 1
        j -= 1
    r[i], r[high] = r[high], r[i]
    return i
