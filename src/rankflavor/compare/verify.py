"""Comparison.verify(): recompute every mean, difference, p-value and correction of a comparison from the
per-query values, plainly, and say which differ (issue 24 item 5).

From the per-query values of each run under each flavor (`Scores.values`) and the query set re-derived from
the runs (common: the judged queries every run has; qrels: every judged query), less the queries some run
leaves undefined under the flavor:
- each mean: math.fsum over those queries, as the flavor summarises (the mean; a sum for trec_eval's counts;
  exp of the mean log(max(v, 1e-5)) for gm_*), of the values or, under mean_of=rounded, of the rounded values
  (printf's rounding), rounded to `round` decimals under mean_of=raw;
- each difference: the mean of the per-query differences of those values;
- each p-value: the t-test from scipy.stats.ttest_rel itself; the exact randomization test by enumerating
  every sign vector (itertools.product); a Monte Carlo one by running the same seeded test again on the
  recomputed differences (its resamples cannot be re-derived otherwise);
- each Holm correction step by step, the declared correction's (`p_adjusted`), `significant` (p_adjusted <
  alpha), the winner (the sign of the difference, ties within the tolerance), the run the test's statistic
  favours, the finding and the significant winner by their definitions (compare/pair_tests.py);
- the tests read the differences snapped at the tolerance (verify_stats.plain_snap);
- the intervals, effect sizes, win / tie / loss counts, the Wilcoxon, sign and Tukey HSD p-values:
  compare/verify_stats.py.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from rankflavor import registry
from rankflavor.compare.stats import TestSettings, paired_tests
from rankflavor.compare.verify_stats import check_flavor, plain_adjust, plain_favours, plain_snap, settings_of
from rankflavor.engine import MIN_GEO_MEAN

AGREE = 1e-9  # relative and absolute tolerance of a recomputed number


@dataclass(frozen=True)
class CompareDisagreement:
    """One number of a comparison that its recomputation does not reproduce."""

    flavor: str  # its label
    where: str  # a run, or "A vs B"
    what: str  # mean, diff, ci_low, ci_high, p, p_holm, significant, winner, n
    reported: Any
    recomputed: Any

    def __str__(self) -> str:
        return f"{self.flavor} / {self.where}: {self.what} is {self.reported!r}, recomputed {self.recomputed!r}"


def _same(a: Any, b: Any) -> bool:
    """Equal strings and flags; numbers within AGREE; None and NaN both stand for no number."""
    if isinstance(a, (str, bool, np.bool_)) or isinstance(b, (str, bool)):
        return a == b
    a, b = (math.nan if x is None else float(x) for x in (a, b))
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= AGREE * max(1.0, abs(b))


def _printf_round(x: float, decimals: int | None) -> float:
    return x if decimals is None or math.isnan(x) else float(f"{x:.{decimals}f}")


def _summarised(flavor, values: list[float]) -> list[float]:
    """The values the flavor's mean averages: rounded under mean_of=rounded, log(max(v, 1e-5)) for a gm."""
    if flavor.mean_of == "rounded":
        values = [_printf_round(v, flavor.round.decimals) for v in values]
    if registry.get(flavor.metric).aggregate == "gm":
        values = [math.log(max(v, MIN_GEO_MEAN)) for v in values]
    return values


def _mean(flavor, values: list[float]) -> float | None:
    if not values:
        return None
    kind = registry.get(flavor.metric).aggregate
    summed = math.fsum(_summarised(flavor, values))
    mean = summed if kind == "sum" else summed / len(values)
    if kind == "gm":
        mean = math.exp(mean)
    return mean if flavor.mean_of == "rounded" or flavor.round.decimals is None else round(mean, flavor.round.decimals)


def _exact_p(d: list[float]) -> float:
    """Two-sided sign-flip p-value over all 2^n sign vectors (equal within rounding counts as extreme)."""
    observed = abs(math.fsum(d))
    threshold = observed - 1e-9 * math.fsum(abs(x) for x in d)
    hits = sum(abs(math.fsum(s * x for s, x in zip(signs, d, strict=True))) >= threshold
               for signs in itertools.product((1.0, -1.0), repeat=len(d)))
    return hits / 2 ** len(d)


def _p(d: list[float], settings: TestSettings) -> float:
    if not d or settings.test not in ("t", "randomization"):  # (the others: verify_stats.check_flavor)
        return math.nan
    if settings.test == "t":
        from scipy import stats

        if all(x == d[0] for x in d):  # (no spread: t infinite, p 0, or 1 when every difference is 0: stats.t_test)
            return 1.0 if d[0] == 0 else 0.0 if len(d) >= 2 else math.nan
        if len(d) < 2:
            return math.nan
        return float(stats.ttest_rel(d, [0.0] * len(d)).pvalue)
    if len(d) < 63 and 2 ** len(d) <= settings.n_resamples:
        return _exact_p(d)
    return paired_tests(np.array(d)[:, None], settings)[0].p  # (Monte Carlo: the same seeded resamples)


def _holm(p: list[float]) -> list[float]:
    known = sorted((x, i) for i, x in enumerate(p) if not math.isnan(x))
    out, running = [math.nan] * len(p), 0.0
    for rank, (x, i) in enumerate(known):
        running = max(running, min(1.0, (len(known) - rank) * x))
        out[i] = running
    return out


def _query_mask(cmp: Any) -> np.ndarray:
    scores = cmp.scores
    judged = np.flatnonzero(scores.dataset.judged)
    if cmp.query_set.name == "qrels":
        return np.ones(len(judged), dtype=bool)
    return np.array([all(scores.dataset.run(r).present[c] for r in scores.runs) for c in judged], dtype=bool)


def verify_comparison(cmp: Any) -> list[CompareDisagreement]:
    """Every mean, n, difference, p-value, Holm correction, significance and winner of `cmp` recomputed from the
    per-query values; the ones that differ (an empty list when all agree)."""
    settings = settings_of(cmp)
    mask, out = _query_mask(cmp), []
    for flavor in cmp.flavors:
        label = cmp.labels.get(str(flavor), str(flavor))
        raw = {r: cmp.scores.values(r, flavor) for r in cmp.runs}
        kept = [j for j in np.flatnonzero(mask) if all(not math.isnan(raw[r][j]) for r in cmp.runs)]
        values = {r: [float(raw[r][j]) for j in kept] for r in cmp.runs}
        means = cmp.means[cmp.means.flavor == str(flavor)]
        for row in means.itertuples():
            for what, got, want in (("mean", row.mean, _mean(flavor, values[row.run])), ("n", row.n, len(kept))):
                if not _same(None if got is None or got != got else got, want):
                    out.append(CompareDisagreement(label, row.run, what, got, want))
        pairs = cmp.pairs[cmp.pairs.flavor == str(flavor)]
        diffs = [[a - b for a, b in zip(_summarised(flavor, values[p.run_a]), _summarised(flavor, values[p.run_b]),
                                        strict=True)] for p in pairs.itertuples()]
        summarised = {r: _summarised(flavor, values[r]) for r in cmp.runs}

        def report(where: str, what: str, got: Any, want: Any, label: str = label) -> None:
            if not _same(got, want):
                out.append(CompareDisagreement(label, where, what, got, want))

        snapped = [plain_snap(d, settings.tolerance) for d in diffs]
        others = check_flavor(cmp, flavor, summarised, snapped, settings, report)
        p_values = [others.get(j, _p(d, settings)) for j, d in enumerate(snapped)]
        several = len(p_values) > 1
        adjusted = _holm(p_values) if several else p_values
        declared = plain_adjust(p_values, settings.correction) if several else p_values
        for row, d, e, p, p_holm, p_adj in zip(pairs.itertuples(), diffs, snapped, p_values, adjusted, declared,
                                               strict=True):
            where = f"{row.run_a} vs {row.run_b}"
            for what, got, want in _pair_numbers(row, d, e, p, p_holm, p_adj, settings):
                if not _same(got, want):
                    out.append(CompareDisagreement(label, where, what, got, want))
    return out


def _pair_numbers(row: Any, d: list[float], snapped: list[float], p: float, p_holm: float, p_adj: float,
                  settings: TestSettings) -> list[tuple[str, Any, Any]]:
    """(what, reported, recomputed) of one pairs row: n, diff, the p-values, significance, winner, the run the
    test favours, the finding and the significant winner."""
    diff = math.fsum(d) / len(d) if d else math.nan
    a, b = row.run_a, row.run_b
    winner = "none" if math.isnan(diff) else "tie" if abs(diff) <= settings.tolerance else a if diff > 0 else b
    significant = bool(not math.isnan(p_adj) and p_adj < settings.alpha)
    favours = {1: a, -1: b}.get(plain_favours(snapped, settings.test, settings.tolerance), "tie")
    finding = ("none" if winner == "none" else "not significant" if not significant else
               "significant" if favours == winner else "mean and test disagree")
    numbers = [("n", row.n, len(d)), ("diff", row.diff, diff), ("p", row.p, p), ("p_holm", row.p_holm, p_holm),
               ("p_adjusted", getattr(row, "p_adjusted", p_holm), p_adj),
               ("significant", bool(row.significant), significant), ("winner", row.winner, winner)]
    if hasattr(row, "finding"):
        constant = snapped[0] if snapped and all(x == snapped[0] for x in snapped) else None
        numbers += [("favours", row.favours, favours), ("finding", row.finding, finding),
                    ("significant_winner", row.significant_winner if isinstance(row.significant_winner, str) else "",
                     winner if finding == "significant" else ""),
                    ("constant_diff", row.constant_diff, constant)]
    return numbers
