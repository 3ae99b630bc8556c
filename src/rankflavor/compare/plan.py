"""Memory known before it is spent (docs/comparing.md, "Memory"): what `compare`, `report` and `power` will hold,
estimated from their options before any flavor is evaluated, against the memory budget (rankflavor/limits.py).

- Each run x flavor keeps its per-query results (values, statuses, the metric's parts, the warnings' extra
  evaluations, its rows of the tables): about `RESULT_FIXED` + `RESULT_PER_QUERY` x queries (measured: 133 KB at
  300 queries, 320 KB at 3,000, with the engine's kept stages; 180 KB at 50 queries for a 720-flavor grid, whose
  labels and tables are wider: 389 MB peak at 720 flavors x 2 runs, 648 MB at 1,440).
- A bootstrap interval holds every resample's mean of each column it resamples, then np.percentile's copy of
  them: `RESAMPLE_BYTES` x resamples per column. The columns are resampled in blocks that fit what the budget
  leaves (`resample_block`; each block draws the same resamples, so the numbers are the unblocked ones), at least
  one column at a time: one column's share must fit.
- Tukey's test holds its resampled ranges: 8 bytes x resamples per flavor.
- Each pair x flavor keeps its row of the pairs' table and its tests: `PAIR_BYTES` (about 2 KB measured: 40 runs,
  780 pairs x 8 flavors, peaked 58 MB above 10 runs); the pairs are every two runs, or each run against each
  baseline (200 runs of a 64-flavor grid: 19,900 pairs x 64 flavors, 5 GB).

- A grid's flavors are counted before they are made (`check_grid`): each costs at least its results on two runs
  (`RESULT_FIXED` each), so a grid whose count alone is over the budget is refused before its crossing.

Over the budget: a UsageError (exit 2) with the estimate and what to change, before any evaluation.
"""

from __future__ import annotations

from typing import Any

from rankflavor.engine.budget import FLAVOR_BYTES, budget, resident_bytes
from rankflavor.errors import UsageError
from rankflavor.limits import MEMORY_OPTION, size_text

RESULT_FIXED = 192 << 10  # bytes a run x flavor keeps beside its per-query arrays
RESULT_PER_QUERY = 64  # bytes a run x flavor keeps per judged query
PAIR_BYTES = 4 << 10  # bytes a pair x flavor keeps (its row of the pairs' table and its tests: measured about 2 KB)
RESAMPLE_BYTES = 24  # bytes per resample per column of a bootstrap interval (its means, the percentile's copy)


def resampled(settings: Any) -> bool:
    """Whether the comparison resamples (a bootstrap interval, a randomization or Tukey test). settings: a
    compare/stats.py TestSettings (not imported: stats imports this module)."""
    return settings.ci == "bootstrap" or settings.test in ("randomization", "tukey")


def estimate(queries: int, runs: int, flavors: int, settings: Any, pairs: int | None = None) -> tuple[int, int, int]:
    """(the whole estimate, the results' part, the resampling's least part) in bytes; `pairs` tested (None: every
    pair of the runs)."""
    pairs = runs * (runs - 1) // 2 if pairs is None else pairs
    results = runs * flavors * (RESULT_FIXED + queries * RESULT_PER_QUERY) + pairs * flavors * PAIR_BYTES
    column = settings.n_resamples * RESAMPLE_BYTES if resampled(settings) else 0
    tukey = settings.n_resamples * 8 * 2 if settings.test == "tukey" else 0
    return results + max(column, tukey), results, max(column, tukey)


def check(queries: int, runs: int, flavors: int, settings: Any, what: str = "comparing", pairs: int | None = None,
          ) -> None:
    """Refuse, before any evaluation, a comparison whose estimate exceeds what the budget leaves."""
    need, results, resampling = estimate(queries, runs, flavors, settings, pairs)
    held = resident_bytes()
    room = budget() - held
    if need <= room:
        return
    parts = f"{size_text(results)} for the results and the pairs' tests" + (
        f", {size_text(resampling)} for one column's {settings.n_resamples:,} resamples" if resampling else "")
    raise UsageError(
        f"not enough memory for {what} {flavors:,} flavor{'s' if flavors != 1 else ''} x {runs} runs over {queries:,} quer"
        f"{'ies' if queries != 1 else 'y'} needs about {size_text(need)} ({parts}), and the memory budget of "
        f"{size_text(budget())} leaves {size_text(max(room, 0))} beside the {size_text(held)} the process holds; "
        f"give fewer flavors (a smaller grid, fewer -k), fewer runs or a --baseline (fewer pairs), fewer resamples "
        f"(--resamples), or a larger budget "
        f"({MEMORY_OPTION})")


def resample_block(n_resamples: int, width: int) -> int:
    """Columns resampled at a time: as many as fit in half of what the budget leaves now (at least one)."""
    room = budget() - resident_bytes()
    return max(1, min(width, room // 2 // max(n_resamples * RESAMPLE_BYTES, 1)))


def check_grid(crossed: int, listed: int) -> None:
    """Refuse, before making them, a grid of more flavors than the budget holds the results of on two runs."""
    count = crossed + listed
    least = count * (2 * RESULT_FIXED + FLAVOR_BYTES)
    if least > budget():
        raise UsageError(
            f"not enough memory for a grid of {count:,} flavors ({crossed:,} crossed over the cutoffs, {listed:,} "
            f"listed): their results on two runs need at least {size_text(least)}, over the memory budget of "
            f"{size_text(budget())}; give a smaller grid or fewer cutoffs (-k), or a larger budget ({MEMORY_OPTION})")
