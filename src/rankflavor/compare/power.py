"""Is the test collection enough? Discriminative power, the ASL curve and the topic set size, per flavor.

Discriminative power (Sakai, "Evaluating evaluation metrics based on the bootstrap", SIGIR 2006; "Laboratory
Experiments in Information Retrieval", Springer 2018, ch. 5): over every pair of runs, the paired test of
compare/stats.py (seeded: the randomization test's sign flips from `np.random.SeedSequence(seed)`, or the
t-test) gives an achieved significance level (ASL, the p-value); a flavor's discriminative power is the share
of pairs whose ASL is below alpha (no correction across pairs, as Sakai's), and its ASL curve is the pairs'
p-values sorted ascending. Every pair of one flavor is tested with the same resamples (`paired_tests` over the
columns). Flavor sensitivity: among the flavors of one measure, the one that separates the most pairs.

Each flavor is over the comparison's query set (compare/query_set.py: `common` by default), less the queries
some run leaves undefined under it; its topic set size (compare/topic_size.py) is the number of queries a
paired t-test needs to detect a difference of `delta` with the asked power, from the variance of the per-query
differences (the mean over pairs, 2 V_E) and from Sakai 2016's within-system variance (2 V_E of one-way ANOVA).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rankflavor.compare.grid import labelled_grid
from rankflavor.compare.query_set import QUERY_SETS, QuerySet, set_values, summary_values
from rankflavor.compare.query_set import query_set as build_query_set
from rankflavor.compare.scores import Scores
from rankflavor.compare.stats import TestSettings, paired_tests
from rankflavor.compare.topic_size import difference_variance, topic_set_size, within_variance
from rankflavor.errors import RankflavorError, UsageError
from rankflavor.flavor import Flavor
from rankflavor.inputs.pipeline import apply_names

ASL_QUANTILES = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass(frozen=True)
class FlavorPower:
    """One flavor's discriminative power over the run pairs, its ASL curve and its topic set sizes."""

    flavor: str
    label: str
    metric: str
    queries: int  # the queries its tests are over
    pairs: list[tuple[str, str]]  # in the order of `p_values`
    p_values: list[float]  # the pairs' ASLs, sorted ascending (the ASL curve)
    separated: int  # pairs with ASL < alpha
    variance: float  # of the per-query differences, mean over pairs (2 V_E, two-way ANOVA)
    within: float  # Sakai 2016's within-system variance (one-way ANOVA V_E)
    topics_needed: int | None  # for delta at the power asked, from `variance`
    topics_needed_within: int | None  # the same from 2 * `within` (Sakai 2016)

    @property
    def share(self) -> float:
        return self.separated / len(self.pairs) if self.pairs else float("nan")

    def asl_quantiles(self, quantiles: Sequence[float] = ASL_QUANTILES) -> list[float]:
        """The ASL curve summarised: its quantiles (numpy's linear interpolation)."""
        p = np.asarray(self.p_values, dtype=np.float64)
        p = p[~np.isnan(p)]
        return [float(x) for x in np.quantile(p, quantiles)] if len(p) else [float("nan")] * len(quantiles)

    def to_dict(self) -> dict[str, Any]:
        def plain(x: float) -> float | None:
            return None if x != x else float(x)

        return {"flavor": self.flavor, "label": self.label, "metric": self.metric, "queries": self.queries,
                "pairs": len(self.pairs), "separated": self.separated, "share": plain(self.share),
                "asl_quantiles": dict(zip([str(q) for q in ASL_QUANTILES], map(plain, self.asl_quantiles()),
                                          strict=True)),
                "asl_curve": [{"run_a": a, "run_b": b, "p": plain(p)}
                              for (a, b), p in zip(self.pairs, self.p_values, strict=True)],
                "variance": plain(self.variance), "within_variance": plain(self.within),
                "topics_needed": self.topics_needed, "topics_needed_within": self.topics_needed_within}


@dataclass
class PowerReport:
    """`power()`'s result: one `FlavorPower` per flavor, how it was tested, and per measure its most
    discriminative flavor."""

    runs: list[str]
    flavors: list[FlavorPower]
    settings: dict[str, Any]
    query_set: QuerySet
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def most_discriminative(self) -> dict[str, FlavorPower]:
        """metric -> its flavor that separates the most pairs (the first in grid order on a tie)."""
        best: dict[str, FlavorPower] = {}
        for fp in self.flavors:
            if fp.metric not in best or fp.separated > best[fp.metric].separated:
                best[fp.metric] = fp
        return best

    def to_frame(self):
        """One row per flavor: separated, share, the ASL quantiles, the variances and topic set sizes."""
        import pandas as pd

        rows = []
        for fp in self.flavors:
            row = {k: v for k, v in fp.to_dict().items() if k not in ("asl_curve", "asl_quantiles")}
            row.update({f"asl_q{q:g}": x for q, x in zip(ASL_QUANTILES, fp.asl_quantiles(), strict=True)})
            rows.append(row)
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        return {"settings": self.settings, "runs": self.runs, "query_set": self.query_set.to_dict(),
                "flavors": [fp.to_dict() for fp in self.flavors],
                "most_discriminative": {m: fp.flavor for m, fp in self.most_discriminative().items()},
                "skipped": [{"combination": c, "reason": r} for c, r in self.skipped]}


def flavor_power(scores: Scores, qs: QuerySet, flavor: Flavor, label: str, settings: TestSettings,
                 delta: float, power: float) -> FlavorPower:
    """One flavor's `FlavorPower` over every pair of the runs of `scores`."""
    values = set_values(scores, qs, flavor)
    runs = scores.runs
    keep = ~np.isnan(values[runs[0]])
    matrix = np.column_stack([summary_values(flavor, values[r][keep]) for r in runs])
    pairs = list(itertools.combinations(range(len(runs)), 2))
    d = np.column_stack([matrix[:, i] - matrix[:, j] for i, j in pairs]) if pairs else np.zeros((len(matrix), 0))
    tests = paired_tests(d, settings) if pairs else []
    p = np.array([t.p for t in tests], dtype=np.float64)
    order = np.argsort(p, kind="stable")  # (NaN last)
    variance, within = difference_variance(matrix), within_variance(matrix)
    return FlavorPower(str(flavor), label, flavor.metric, int(keep.sum()),
                       [(runs[pairs[i][0]], runs[pairs[i][1]]) for i in order], [float(p[i]) for i in order],
                       int((p < settings.alpha).sum()), variance, within,
                       topic_set_size(delta, variance, settings.alpha, power),
                       topic_set_size(delta, 2 * within, settings.alpha, power))


def power_scores(scores: Scores, flavors: Mapping[Flavor, str], *, settings: TestSettings | None = None,
                 delta: float = 0.02, power: float = 0.8, query_set: str = "common",
                 skipped: list[tuple[str, str]] | None = None) -> PowerReport:
    """`power` on already loaded scores; flavors: each flavor with its label."""
    settings = settings or TestSettings(n_resamples=1000)
    if len(scores.runs) < 2:
        raise UsageError("discriminative power needs at least two runs")
    if query_set not in QUERY_SETS:
        raise UsageError(f"unknown query set {query_set!r}; use 'common' or 'qrels'")
    skipped = list(skipped or [])
    from rankflavor.compare import plan

    plan.check(len(scores.query_ids), len(scores.runs), len(flavors), settings, "testing")  # (before evaluating)
    scores.evaluate_all(list(flavors))
    chosen = _usable(scores, flavors, skipped)
    qs = build_query_set(scores, query_set, chosen)
    results = [flavor_power(scores, qs, f, flavors[f], settings, delta, power) for f in chosen]
    described = {"test": settings.test, "n_resamples": settings.n_resamples, "seed": settings.seed,
                 "alpha": settings.alpha, "correction": "none (Sakai's discriminative power: each pair at alpha)",
                 "delta": delta, "power": power, "topic_set_size": "paired t-test (Sakai 2016)",
                 "query_set": qs.name, "queries": qs.size, "paired_queries": qs.describe()}
    return PowerReport(scores.runs, results, described, qs, skipped)


def _usable(scores: Scores, flavors: Mapping[Flavor, str], skipped: list[tuple[str, str]]) -> list[Flavor]:
    """The flavors every run evaluates under; the others (negative=error with negative grades, ...) are appended to
    `skipped` with the reason. With none left, the first error is raised."""
    usable, first_error = [], None
    for flavor, label in flavors.items():
        try:
            for run in scores.runs:
                scores.result(run, flavor)
        except RankflavorError as exc:
            first_error = first_error or exc
            skipped.append((label, str(exc).splitlines()[0]))
            continue
        usable.append(flavor)
    if not usable:
        raise first_error or UsageError("no flavor to test")
    return usable


def power(qrels: Any, runs: Any, flavors: Any = None, *, grid: str | Mapping[str, Sequence[str]] | None = None,
          cutoffs: Sequence[int] | None = None, base: str | Flavor = "ndcg", test: str = "randomization",
          n_resamples: int = 1000, seed: int = 0, alpha: float = 0.05, delta: float = 0.02, power: float = 0.8,
          query_set: str = "common", on_duplicate: str = "error",
          names: Sequence[str] | Mapping[str, str] | None = None) -> PowerReport:
    """Discriminative power, ASL curve and topic set size of every flavor (specs, or a grid as for `compare`)
    over every pair of `runs` (at least two). test, n_resamples, seed, alpha: the paired test
    (compare/stats.py TestSettings); delta, power: the topic-set-size design's smallest difference worth
    detecting and target power (paired t-test at alpha)."""
    settings = TestSettings(test, n_resamples, seed, 0.95, alpha)
    topic_set_size(delta, 1.0, alpha, power)  # (the design's settings checked before any input is read)
    if flavors is not None and grid is not None:
        raise UsageError("give flavors or a grid, not both")
    if isinstance(flavors, (str, Flavor)):
        flavors = [flavors]
    labelled, skipped = labelled_grid(flavors if flavors is not None else grid, cutoffs, base)
    scores = Scores.load(qrels, apply_names(runs, names), on_duplicate)
    return power_scores(scores, labelled, settings=settings, delta=delta, power=power, query_set=query_set,
                        skipped=skipped)
