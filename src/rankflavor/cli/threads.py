"""Thread and allocator settings for the commands that read inputs, applied before numpy and pyarrow are imported."""

from __future__ import annotations

import os
import stat
import sys


def numpy_environment() -> None:
    """numpy's start-up settings for a command, each unless the user chose it (no effect once numpy is imported:
    cli/main.py calls this first, as a flavor spec's resolution imports numpy before a command runs):

    - OPENBLAS_NUM_THREADS=1: no command makes a BLAS call worth a thread, and OpenBLAS's idle workers spin after
      numpy's import on the core Arrow's parser needs (numpy's import then costs nearly twice the CPU time);
    - NUMPY_MADVISE_HUGEPAGE=0 (numpy's documented switch, "Global state"): numpy asks for transparent huge pages
      for every array of 4 MB or more, and where the kernel's THP defrag is `madvise` (this machine) each first
      touch of such an array may wait for the kernel to compact memory. A command touches each large array once
      or twice, so the stall is never paid back: on the 7M-row run, NDCG@10 1.47 -> 1.21 s median and kernel time
      0.55 -> 0.37 s; `pytrec_eval.all_trec` 3.43 -> 3.40 s, kernel time 1.58 -> 1.09 s (5 alternated runs each,
      /usr/bin/time, issue 28)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")


MALLOC_ARENAS = 1  # glibc malloc's settings for a command (malloc_settings)
MMAP_THRESHOLD = 32 << 20  # (the largest glibc takes)
TRIM_THRESHOLD = 256 << 20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8  # glibc's <malloc.h>


def malloc_settings() -> None:
    """glibc malloc's settings for numpy's arrays, unless the user set any (MALLOC_* or GLIBC_TUNABLES), on glibc only
    (mallopt, `man 3 mallopt`): one arena, shared by every thread, so that the arrays a large run's chunk threads free
    are reused by the next chunk wherever it runs (with an arena per thread each grows its own); arrays up to 32 MB from
    the heap rather than each its own mmap (faulted in afresh every time); and freed memory kept up to 256 MB rather
    than handed back and faulted in again. Measured (`/usr/bin/time`, 4 alternated runs each, issue 28): on the 7M-row
    run `pytrec_eval.all_trec` 3.25 -> 3.02 s median, peak 1,126 -> 904 MB, kernel time 1.18 -> 0.88 s; the 100-run
    track's page faults 477 -> 335 MB at about the same time; the 200 x 1,000 run's peak 124 -> 120 MB. Call it
    before any thread starts (an arena is a thread's at its first malloc); fork keeps the settings."""
    if sys.platform != "linux" or "GLIBC_TUNABLES" in os.environ or any(k.startswith("MALLOC_") for k in os.environ):
        return
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, ValueError, AttributeError):
        return
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    for parameter, value in ((_M_ARENA_MAX, MALLOC_ARENAS), (_M_MMAP_THRESHOLD, MMAP_THRESHOLD),
                             (_M_TRIM_THRESHOLD, TRIM_THRESHOLD)):
        mallopt(parameter, value)


SMALL_INPUTS = 64 << 20  # bytes of input files (a gzip counted GZIP_RATIO times) below which Arrow's pool is malloc
GZIP_RATIO = 8


def small_job_allocator(paths: list[str]) -> None:
    """Arrow's memory pool for a small job: the system allocator (ARROW_DEFAULT_MEMORY_POOL=system) when every
    input is a regular file and they hold at most SMALL_INPUTS bytes, unless the user chose a pool. Arrow's default,
    mimalloc, reserves its segments ahead: on a 200 x 1,000 run (5.6 MB) it costs 15-30 MB more peak RSS than malloc
    for no gain in time (docs/performance.md, issue 28). And the parser's jemalloc pool hands its freed pages back at
    once rather than after 100 ms: the 200 x 1,000 run's peak 141-143 MB -> 128 MB, at the same time (a small
    parse faults little in again). A large job keeps mimalloc and the 100 ms. No effect once pyarrow is imported
    (then the pool is chosen)."""
    if "ARROW_DEFAULT_MEMORY_POOL" in os.environ or "pyarrow" in sys.modules:
        return
    total = 0
    for path in paths:
        try:
            status = os.stat(path)
        except OSError:  # (standard input, a missing file: reported by the reader, not here)
            return
        if not stat.S_ISREG(status.st_mode):
            return
        total += status.st_size * (GZIP_RATIO if str(path).endswith(".gz") else 1)
    if total <= SMALL_INPUTS:
        os.environ["ARROW_DEFAULT_MEMORY_POOL"] = "system"
        os.environ.setdefault("RANKFLAVOR_JEMALLOC_DECAY", "0")  # (the parser's pool: inputs/arrow_csv.py)
