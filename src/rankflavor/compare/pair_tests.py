"""Each (flavor, pair of runs) of a comparison tested over the flavor's queries of the query set: the rows of
`Comparison.pairs` before the warnings' columns, corrected as declared over the pairs of each flavor.

A row's `winner` is the sign of the mean paired difference (that of the means' difference; a tie within the
settings' tolerance), `favours` the run the declared test's statistic favours (compare/rank_tests.py: the mean
for randomization, t and Tukey; the signed ranks for Wilcoxon; the wins for the sign test), `significant` the
corrected p below alpha, and `finding` what the row says:
- `significant`: the test is significant and its statistic favours the run the mean favours: that run is the
  row's `significant_winner`;
- `mean and test disagree`: the test is significant but its statistic favours the other run than the mean (the
  sign test or Wilcoxon against the mean: mean and median disagree): no run is credited;
- `not significant`; `none`: no query scored in both runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rankflavor.compare.corrections import adjust
from rankflavor.compare.intervals import family_level
from rankflavor.compare.pair_extras import Extras, extras
from rankflavor.compare.query_set import QuerySet, set_mean, set_values, summary_values
from rankflavor.compare.stats import PairedTest, TestSettings, holm, paired_tests
from rankflavor.flavor import Flavor

TIE = "tie"
NONE = "none"  # no query scored in both runs: nothing to compare
SIGNIFICANT, NOT_SIGNIFICANT, DISAGREE = "significant", "not significant", "mean and test disagree"


def winner_of(diff: float, run_a: str, run_b: str, tolerance: float = 1e-12) -> str:
    if np.isnan(diff):
        return NONE
    if abs(diff) <= tolerance:
        return TIE
    return run_a if diff > 0 else run_b


@dataclass
class Tested:
    """Per (flavor index, pair index) the paired test, the differences it read, per flavor its query count and each
    run's mean over those queries, and the extras (each mean's interval, effect sizes, counts, Tukey)."""

    tests: dict[tuple[int, int], PairedTest]
    diffs: dict[tuple[int, int], np.ndarray]
    counts: list[int]
    means: list[dict[str, float | None]]
    more: Extras = field(default_factory=Extras)


def test_pairs(scores, qs: QuerySet, flavors: list[Flavor], pairs: list[tuple[str, str]], settings: TestSettings,
               tests_only: bool = False) -> Tested:
    """Per (flavor, pair) the paired test over the flavor's queries of the set (`qs`), at the family's interval
    level (compare/intervals.py; bh's is set once the corrections are known: `rows`). The values tested are those
    the mean summarises (`summary_values`). Flavors over the same queries are tested together (same resamples).
    `tests_only`: the p-values and directions alone (no interval, effect size or count; Tukey's p still)."""
    per_flavor = [set_values(scores, qs, f) for f in flavors]
    counts = [int((~np.isnan(next(iter(v.values())))).sum()) for v in per_flavor]
    means = [{r: set_mean(scores, r, f, v[r]) for r in scores.runs} for f, v in zip(flavors, per_flavor, strict=True)]
    groups: dict[bytes, list[int]] = {}
    for i, v in enumerate(per_flavor):
        groups.setdefault((~np.isnan(next(iter(v.values())))).tobytes(), []).append(i)
    level = family_level(settings, len(pairs))
    tests: dict[tuple[int, int], PairedTest] = {}
    diffs: dict[tuple[int, int], np.ndarray] = {}
    for j, (a, b) in enumerate(pairs):
        for members in groups.values():
            keep = ~np.isnan(per_flavor[members[0]][a])
            d = np.column_stack([summary_values(flavors[i], per_flavor[i][a][keep])
                                 - summary_values(flavors[i], per_flavor[i][b][keep]) for i in members])
            for k, (i, t) in enumerate(zip(members, paired_tests(d, settings, level, not tests_only), strict=True)):
                tests[(i, j)], diffs[(i, j)] = t, d[:, k]
    more = Extras() if tests_only and settings.test != "tukey" else extras(scores, qs, flavors, pairs, settings)
    return Tested(tests, diffs, counts, means, more)


def rows(tested: Tested, flavors: list[Flavor], pairs: list[tuple[str, str]], settings: TestSettings,
         label: Any, size: int) -> list[dict[str, Any]]:
    """One row per flavor x pair: the means, the difference with its interval, p, the corrections, the finding."""
    out = []
    for i, f in enumerate(flavors):
        block = []
        for j, (a, b) in enumerate(pairs):
            t = tested.tests[(i, j)]
            ma, mb = tested.means[i][a], tested.means[i][b]
            low, high = t.ci_low, t.ci_high
            if settings.test == "tukey" and settings.intervals == "simultaneous" and i in tested.more.tukey_half:
                half = tested.more.tukey_half[i]
                low, high = t.diff - half, t.diff + half
            block.append({"flavor": str(f), "label": label(f), "run_a": a, "run_b": b, "mean_a": ma, "mean_b": mb,
                          "n": t.n, "excluded": size - t.n, "diff": t.diff, "ci_low": low, "ci_high": high,
                          "p": tested.more.tukey.get((i, j), t.p), "exact": t.exact,
                          "winner": winner_of(t.diff, a, b, settings.tolerance),
                          "means_winner": NONE if ma is None or mb is None else winner_of(ma - mb, a, b),
                          "favours": {1: a, -1: b}.get(t.favours, TIE),
                          "constant_diff": np.nan if t.constant is None else t.constant,
                          **tested.more.pairs.get((i, j), {})})
        out += corrected(block, settings)
        if (settings.intervals == "simultaneous" and settings.correction == "bh" and settings.test != "tukey"
                and tested.more.pairs):
            _bh_intervals(tested, i, out[-len(block):], settings)
    return out


def corrected(block: list[dict[str, Any]], settings: TestSettings) -> list[dict[str, Any]]:
    """One flavor's pairs with `p_holm` (Holm's), `p_adjusted` (the declared correction's: one pair is its own
    family), `significant` (p_adjusted < alpha), `significant_winner` and `finding` (the module's docstring)."""
    raw = [r["p"] for r in block]
    several = len(block) > 1
    for r, p_holm, p_adj in zip(block, holm(raw) if several else raw,
                                adjust(raw, settings.correction) if several else raw, strict=True):
        r["p_holm"], r["p_adjusted"], r["correction"] = float(p_holm), float(p_adj), settings.correction
        r["significant"] = bool(p_adj < settings.alpha) if not np.isnan(p_adj) else False
        r["finding"] = finding(r)
        r["significant_winner"] = r["winner"] if r["finding"] == SIGNIFICANT else None
    return block


def finding(row: dict[str, Any]) -> str:
    """What one flavor says of one pair (the module's docstring)."""
    if row["winner"] == NONE:
        return NONE
    if not row["significant"]:
        return NOT_SIGNIFICANT
    return SIGNIFICANT if row["favours"] == row["winner"] else DISAGREE


def _bh_intervals(tested: Tested, i: int, block: list[dict[str, Any]], settings: TestSettings) -> None:
    """Benjamini & Yekutieli's intervals of one flavor's pairs, at 1 - R (1 - c) / m (compare/intervals.py)."""
    rejected = sum(1 for r in block if r["significant"])
    level = family_level(settings, len(block), rejected)
    for j, r in enumerate(block):
        t = paired_tests(tested.diffs[(i, j)][:, None], settings, level)[0]
        r["ci_low"], r["ci_high"] = t.ci_low, t.ci_high


def finding_text(row: Any) -> str:
    """A pairs row's finding in a table cell: `A better` (significantly), `not significant`, `test favours A`
    (significant, against the mean), `none`."""
    found = getattr(row, "finding", None)
    if found == SIGNIFICANT:
        return f"{row.significant_winner} better"
    if found == DISAGREE:
        return f"test favours {row.favours}"
    return found or row.winner
