"""The pool in the verdict: how much of each run's top k the judgments see, and whether leaving the unjudged
documents out (unjudged=skip) changes a pair's significant winner.

- `judged_shares`: per flavor and run, judged@k: the mean over the flavor's compared queries of the share of
  judged documents among the run's ranks up to the flavor's cutoff (its whole list without one), read as the
  flavor reads the run but with unjudged documents kept (unjudged=zero), so that unjudged=skip does not hide them.
- `skip_findings`: per flavor that keeps unjudged documents (unjudged=zero) and a run with some unjudged
  document in its top k, the pairs tested again under the same flavor with unjudged=skip (trec_eval -J: the
  unjudged documents removed, Sakai's condensed lists), over the same query set, the same test and correction:
  each pair's significant winner there (compare/pair_tests.py).

A verdict says when its runs' judged@k differ by POOL_GAP or more, or when unjudged=skip changes a significant
winner (compare/verdicts.py).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rankflavor.compare.pair_tests import rows, test_pairs
from rankflavor.compare.query_set import QuerySet, set_values
from rankflavor.compare.stats import TestSettings
from rankflavor.errors import RankflavorError
from rankflavor.flavor import Flavor

POOL_GAP = 0.10  # judged@k of a pair's runs this far apart: the verdict says the pool sees them unequally


def depth_name(flavor: Flavor) -> str:
    """`judged@10`, or `judged@all` for a flavor without a cutoff."""
    return f"judged@{flavor.cutoff if flavor.cutoff is not None else 'all'}"


def judged_shares(scores, qs: QuerySet, flavors: list[Flavor]) -> dict[tuple[int, str], float | None]:
    """(flavor index, run) -> judged@k over the flavor's compared queries (None when no query is compared)."""
    out: dict[tuple[int, str], float | None] = {}
    for i, f in enumerate(flavors):
        keep = ~np.isnan(next(iter(set_values(scores, qs, f).values())))
        seen = f if f.unjudged == "zero" else _kept(f)
        for run in scores.runs:
            try:
                shares = scores.result(run, seen).queries.judged_in_top[keep]
            except RankflavorError:
                out[(i, run)] = None
                continue
            shares = shares[~np.isnan(shares)]
            out[(i, run)] = float(shares.mean()) if len(shares) else None
    return out


def _kept(flavor: Flavor) -> Flavor:
    try:
        return flavor.with_(unjudged="zero")
    except RankflavorError:
        return flavor


def skip_findings(scores, qs: QuerySet, flavors: list[Flavor], pairs: list[tuple[str, str]],
                  settings: TestSettings, shares: dict[tuple[int, str], float | None], label: Callable,
                  ) -> dict[tuple[int, int], dict[str, object]]:
    """(flavor index, pair index) -> {"label", "significant_winner", "p_adjusted"} under the flavor with
    unjudged=skip, for the flavors with unjudged=zero where some run has an unjudged document in its top k."""
    chosen = [i for i, f in enumerate(flavors) if f.unjudged == "zero"
              and any(v is not None and v < 1 - 1e-12 for (k, _), v in shares.items() if k == i)]
    skipped: list[Flavor] = []
    kept: list[int] = []
    for i in chosen:
        try:
            g = flavors[i].with_(unjudged="skip")
            for run in scores.runs:
                scores.result(run, g)
        except RankflavorError:
            continue
        skipped.append(g)
        kept.append(i)
    if not skipped:
        return {}
    tested = test_pairs(scores, qs, skipped, pairs, settings, tests_only=True)
    table = rows(tested, skipped, pairs, settings, label, qs.size)
    out: dict[tuple[int, int], dict[str, object]] = {}
    for k, i in enumerate(kept):
        for j in range(len(pairs)):
            row = table[k * len(pairs) + j]
            winner = row["significant_winner"]
            out[(i, j)] = {"label": label(skipped[k]), "significant_winner": winner if isinstance(winner, str) else None,
                           "finding": row["finding"], "p_adjusted": row["p_adjusted"]}
    return out
