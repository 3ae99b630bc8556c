"""compare(): does "A beats B" survive a change of flavor?

Every mean, difference and test of a comparison is over one query set (compare/query_set.py: `common`, the
judged queries every run answers, the default; or `qrels`, every judged query, a missing one counted as the
flavor's `missing` says), less, under a flavor, the queries some run leaves undefined (empty=skip). For every
flavor of a grid and every pair of runs: each run's mean over those queries, the paired difference
mean_q(a_q - b_q) over the same queries, a 95% CI and a p-value (`rankflavor.compare.stats`), corrected
as declared (Holm by default: compare/corrections.py) over the pairs of one flavor when there are several,
the effect size, win / tie / loss counts and each mean's interval (compare/pair_extras.py), and the
winner (the sign of the paired difference, that of the means' difference: `means_winner`). `excluded`
counts the set's queries a flavor leaves out.
`tie_low`..`tie_high` is the range of mean_a - mean_b when each run's ties are broken pessimistically or
optimistically (the lower and higher of the two means per run, from the warnings; unknown when a run's own
queries are not the compared ones); `tie_sensitive` marks a winner that some tie order could reverse.

Each row's test (compare/pair_tests.py) says which run its statistic favours, and its `finding`: `significant`
(that run is the `significant_winner`), `mean and test disagree`, `not significant` or `none`. The verdict of a
pair (compare/verdicts.py, the one place it is decided, from the declared test and correction only) is `robust`,
`flavor-dependent`, `reverses`, `no finding`, `measures disagree` or `none`; each carries the runs' judged@k and
whether unjudged=skip changes a significant winner (compare/pool.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import numpy as np
import pandas as pd

from rankflavor.compare import plan
from rankflavor.compare.corrections import NAMES as CORRECTION_NAMES
from rankflavor.compare.effects import EFFECT_SIZE
from rankflavor.compare.grid import labelled_grid, short_label
from rankflavor.compare.intervals import describe as describe_intervals
from rankflavor.compare.pair_tests import NONE, TIE, test_pairs
from rankflavor.compare.pair_tests import rows as pair_rows
from rankflavor.compare.paper import PaperTable, paper_table
from rankflavor.compare.pool import judged_shares, skip_findings
from rankflavor.compare.pyterrier import pyterrier_table
from rankflavor.compare.query_set import QUERY_SETS, QuerySet, set_mean, set_values
from rankflavor.compare.query_set import query_set as build_query_set
from rankflavor.compare.rank_tests import DEFAULT_TOLERANCE, EXACT_WILCOXON
from rankflavor.compare.scores import Scores
from rankflavor.compare.stats import TestSettings
from rankflavor.compare.verdicts import Pool, decide
from rankflavor.engine import max_memory as budget_of
from rankflavor.errors import EXIT_USAGE, RankflavorError
from rankflavor.escape import visible
from rankflavor.flavor import Flavor
from rankflavor.inputs.pipeline import apply_names
from rankflavor.inputs.run_names import find_run
from rankflavor.inputs.subtopics import as_subtopic_qrels
from rankflavor.report.numbers import json_number


class CompareError(RankflavorError, ValueError):
    """A comparison that cannot be made as asked (too few runs, an unknown baseline, ...)."""

    exit_code = EXIT_USAGE


@dataclass
class Comparison:
    """Tables (pandas DataFrames) of one comparison; `to_dict()` is the JSON form."""

    runs: list[str]
    flavors: list[Flavor]
    pairs: pd.DataFrame  # one row per flavor x pair of runs
    means: pd.DataFrame  # one row per flavor x run
    verdicts: pd.DataFrame  # one row per pair of runs (compare/verdicts.py)
    measures: pd.DataFrame  # one row per pair of runs x measure (metric): its verdict over its flavors, its winner
    flips: pd.DataFrame  # the smallest changes of flavor that flip a pair's winner
    warnings: pd.DataFrame  # one row per warning: run, flavor, code, message, numbers
    skipped: list[tuple[str, str]] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)  # how it was compared, as `to_dict` gives it
    scores: Scores | None = None
    labels: dict[str, str] = field(default_factory=dict)  # canonical string -> the flavor's short name
    baseline: str | None = None  # the run every other run is compared with (None: all pairs, or several baselines)
    query_set: QuerySet | None = None  # the queries every mean, difference and test is over
    baselines: list[str] = field(default_factory=list)  # the runs each other run is compared with ([]: all pairs)

    def flavor(self, canonical: str) -> Flavor:
        """The Flavor compared whose canonical string a table shows (`pairs.flavor`, `flips.from_flavor`, ...)."""
        found = [f for f in self.flavors if str(f) == canonical]
        if not found:
            raise KeyError(f"no flavor {canonical!r} in this comparison")
        return found[0]

    def paper_table(self, digits: int = 4) -> PaperTable:
        """The systems x measures table of a paper: means with significance marks (compare/paper.py)."""
        return paper_table(self, digits)

    def pyterrier_table(self) -> pd.DataFrame:
        """PyTerrier's Experiment table: `name`, a column per measure, and with a baseline `<m> +`, `<m> -`,
        `<m> p-value`, `<m> reject`, `<m> p-value corrected` (compare/pyterrier.py)."""
        return pyterrier_table(self)

    def verify(self) -> list:
        """Every mean, difference, p-value and Holm correction recomputed plainly from the per-query values
        (compare/verify.py): the `CompareDisagreement`s, an empty list when every number agrees."""
        from rankflavor.compare.verify import verify_comparison

        return verify_comparison(self)

    def _repr_html_(self) -> str:
        """Jupyter: the verdicts and the paper table, compact (display/notebook.py)."""
        from rankflavor.display.notebook import comparison_html

        return comparison_html(self)

    def __repr__(self) -> str:
        verdicts = "; ".join(f"{v.run_a} vs {v.run_b}: {v.verdict}" for v in self.verdicts.itertuples())
        return visible(f"<Comparison {len(self.runs)} runs x {len(self.flavors)} flavors: {verdicts}>")

    def to_dict(self) -> dict[str, Any]:
        def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
            return [{k: _plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]

        return {"settings": self.settings, "runs": self.runs, "flavors": [str(f) for f in self.flavors],
                "labels": [self.labels.get(str(f), short_label(f)) for f in self.flavors],
                "verdicts": records(self.verdicts), "measures": records(self.measures), "flips": records(self.flips),
                "pairs": records(self.pairs),
                "means": records(self.means), "warnings": records(self.warnings),
                "skipped": [{"combination": c, "reason": r} for c, r in self.skipped],
                "query_set": None if self.query_set is None else self.query_set.to_dict(),
                "query_set_warning": None if self.query_set is None else self.query_set.warning()}


def _plain(v: Any) -> Any:
    if isinstance(v, (np.floating, float)):
        return json_number(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def run_pairs(runs: Sequence[str], baseline: str | Sequence[str] | None = None) -> list[tuple[str, str]]:
    """All pairs in run order, or (baseline, run) for every other run and every baseline in turn (a pair of two
    baselines once)."""
    if baseline is None or (not isinstance(baseline, str) and not baseline):
        return list(itertools.combinations(runs, 2))
    pairs: list[tuple[str, str]] = []
    for base in [baseline] if isinstance(baseline, str) else baseline:
        if base not in runs:
            raise CompareError(f"baseline {base!r} is not a run (give a run's name, its path as given or its file "
                               f"name); runs: {', '.join(runs)}" + _closest_run(base, runs))
        pairs += [(base, r) for r in runs if r != base and (r, base) not in pairs and (base, r) not in pairs]
    return pairs


def _closest_run(wanted: str, runs: Sequence[str]) -> str:
    """`; did you mean 'bm25.run'?` for a run named without its extension or misspelt ("" when none is close)."""
    from rankflavor.flavor.suggest import close, did_you_mean

    stems = [run for run in runs if PurePath(run).stem == wanted or PurePath(run).name.split(".")[0] == wanted]
    readings = list(dict.fromkeys([*stems, *close(wanted, runs)]))
    return f"; {did_you_mean(repr(run) for run in readings)}" if readings else ""


def _usable(scores: Scores, flavors: list[Flavor], skipped: list[tuple[str, str]], label: Callable[[Flavor], str],
            ) -> list[Flavor]:
    """The flavors every run evaluates under; the others (negative=error with negative grades, ...) are
    appended to `skipped` with the reason. With none left, the first error is raised."""
    runs = scores.runs
    usable, first_error = [], None
    for f in flavors:
        try:
            for r in runs:
                scores.result(r, f)
                scores.warnings(r, f)
        except RankflavorError as exc:
            first_error = first_error or exc
            skipped.append((label(f), str(exc).splitlines()[0]))
            continue
        usable.append(f)
    if not usable:
        raise first_error or CompareError("no flavor to compare under")
    return usable


def _warnings(scores: Scores, flavors: list[Flavor], label: Callable[[Flavor], str], qs: QuerySet,
              ) -> tuple[list[dict[str, Any]], dict[tuple[str, str], tuple]]:
    """Rows of the warnings table, and per (run, flavor) the lower and higher of the means over the compared
    queries under ties=pessimistic and ties=optimistic (the mean itself when no tie warning applies; None when
    one of them is unknown)."""
    rows: list[dict[str, Any]] = []
    tie_range: dict[tuple[str, str], tuple] = {}
    for f in flavors:
        compared = set_values(scores, qs, f)
        keep = ~np.isnan(next(iter(compared.values())))
        for r in scores.runs:
            mean = set_mean(scores, r, f, compared[r])
            tie_range[(r, str(f))] = (mean, mean)
            for w in scores.warnings(r, f):
                rows.append({"run": r, "flavor": str(f), "label": label(f), "code": w.code,
                             "message": w.message, "numbers": dict(w.numbers)})
                if w.code == "ties_across_cutoff" and "mean_pessimistic" in w.numbers:
                    ends = [_mean_over(scores, r, f, f.with_(ties=t), keep) for t in ("pessimistic", "optimistic")]
                    tie_range[(r, str(f))] = (None, None) if None in ends else (min(ends), max(ends))
    return rows, tie_range


def _add_tie_range(rows: list[dict[str, Any]], tie_range: dict[tuple[str, str], tuple]) -> None:
    """Each row's `tie_low`..`tie_high` (the range of mean_a - mean_b over the runs' tie orders) and whether some tie
    order could reverse its winner (`tie_sensitive`)."""
    for row in rows:
        (lo_a, hi_a), (lo_b, hi_b) = tie_range[(row["run_a"], row["flavor"])], tie_range[(row["run_b"], row["flavor"])]
        known = None not in (lo_a, hi_a, lo_b, hi_b)
        row["tie_low"] = lo_a - hi_b if known else np.nan
        row["tie_high"] = hi_a - lo_b if known else np.nan
        row["tie_sensitive"] = bool(known and row["winner"] not in (TIE, NONE) and row["tie_low"] < 0 < row["tie_high"])


def _mean_over(scores: Scores, run: str, flavor: Flavor, other: Flavor, keep: np.ndarray) -> float | None:
    """The run's mean, averaged as `flavor` averages, of its values under `other` (which differs in its ties only)
    over the queries `keep` (None when the warnings did not make those values)."""
    raw = scores.cached_values(run, other)
    return None if raw is None else set_mean(scores, run, flavor, np.where(keep, raw, np.nan))


def compare_scores(scores: Scores, flavors: list[Flavor], *, baseline: str | Sequence[str] | None = None,
                   settings: TestSettings | None = None, skipped: list[tuple[str, str]] | None = None,
                   labels: Mapping[Flavor, str] | None = None, query_set: str = "common") -> Comparison:
    """`compare` on already loaded scores (the CLI and the views share one `Scores` and its cache). labels:
    each flavor's short name (the spec the user wrote, `sklearn@10`); a flavor without one is named by
    `short_label`. settings: how to test (default `TestSettings()`). query_set: "common" or "qrels"
    (compare/query_set.py)."""
    settings = settings or TestSettings()
    named = dict(labels or {})

    def label(flavor: Flavor) -> str:
        return named.get(flavor) or short_label(flavor)

    runs = scores.runs
    if len(runs) < 2:
        raise CompareError("compare needs at least two runs")
    paths = {item["name"]: item.get("path") for item in scores.provenance.get("inputs", []) if item["role"] == "run"}
    # each baseline: a run's name, or the path as typed, or the file name, of a named run
    baselines = [b if b in runs else find_run(b, runs, paths) or b
                 for b in ([] if baseline is None else [baseline] if isinstance(baseline, str) else baseline)]
    baseline = baselines[0] if len(baselines) == 1 else None
    skipped = list(skipped or [])
    pairs = run_pairs(runs, baselines)
    plan.check(len(scores.query_ids), len(runs), len(flavors), settings, pairs=len(pairs))  # (before it is spent)
    flavors = _usable(scores, flavors, skipped, label)
    qs = build_query_set(scores, query_set, flavors)
    tested = test_pairs(scores, qs, flavors, pairs, settings)
    shares = judged_shares(scores, qs, flavors)
    means = pd.DataFrame([
        {"flavor": str(f), "label": label(f), "run": r, "mean": tested.means[i][r], "n": tested.counts[i],
         "ci_low": tested.more.intervals[(i, r)][0], "ci_high": tested.more.intervals[(i, r)][1],
         "judged": shares[(i, r)]}
        for i, f in enumerate(flavors) for r in runs
    ])
    rows = pair_rows(tested, flavors, pairs, settings, label, qs.size)
    warn_rows, tie_range = _warnings(scores, flavors, label, qs)
    _add_tie_range(rows, tie_range)
    table = pd.DataFrame(rows)
    table["significant_winner"] = pd.Series([w if isinstance(w, str) else None for w in table.significant_winner],
                                            dtype=object)  # (None, not a string column's NaN, where none)
    table.attrs["settings"] = means.attrs["settings"] = str(settings)
    pool = Pool(shares, skip_findings(scores, qs, flavors, pairs, settings, shares, label))
    floor = 1.0 / (settings.n_resamples + 1) if settings.test in ("randomization", "tukey") else 0.0
    verdicts, measures, flips = decide(table, flavors, pairs, label, pool, floor)
    warnings = pd.DataFrame(warn_rows, columns=["run", "flavor", "label", "code", "message", "numbers"])
    described = _described(settings, pairs, runs, baselines, qs)
    return Comparison(runs, flavors, table, means, verdicts, measures, flips, warnings, skipped, described, scores,
                      {str(f): label(f) for f in flavors}, baseline, qs, baselines)


WILCOXON_METHOD = (f"zeros dropped (Wilcoxon's method), tied magnitudes given their midrank; exact over the "
                   f"2^n sign vectors of the midranks up to n = {EXACT_WILCOXON} nonzero differences, else the "
                   "normal approximation with the tie correction")


def _described(settings: TestSettings, pairs: list[tuple[str, str]], runs: list[str], baselines: list[str],
               qs: QuerySet) -> dict[str, Any]:
    """How the comparison was tested, as `Comparison.settings` and every output say it."""
    correction = ("none (one pair)" if len(pairs) == 1 else f"none: the Tukey HSD test holds the family-wise error "
                  f"over all {len(runs)} runs' pairs" if settings.test == "tukey" else
                  f"{CORRECTION_NAMES[settings.correction]} over the {len(pairs)} pairs of each flavor")
    return {"canonical": str(settings), "test": settings.test,
            "ci": "paired percentile bootstrap" if settings.ci == "bootstrap" else "t interval",
            "n_resamples": settings.n_resamples, "seed": settings.seed, "confidence": settings.confidence,
            "alpha": settings.alpha, "correction": correction, "correction_method": settings.correction,
            "intervals": settings.intervals, "interval_coverage": describe_intervals(settings, len(pairs)),
            "tolerance": settings.tolerance,
            "tolerance_rule": f"differences within {settings.tolerance:g} of each other are equal (a zero, a tie of "
                              "ranks, a tie of wins) before any test reads a sign or a rank",
            "wilcoxon": WILCOXON_METHOD if settings.test == "wilcoxon" else None,
            "effect_size": EFFECT_SIZE, "baselines": baselines,
            "pairs": ("each run vs " + " and vs ".join(baselines)) if baselines else "all pairs",
            "query_set": qs.name, "queries": qs.size,
            "paired_queries": qs.describe() + "; a query some run leaves undefined under a flavor is left out "
                              "of that flavor for every run (counted in `excluded`)"}


def compare(qrels: Any, runs: Any, flavors: Any = None, *, grid: str | Mapping[str, Sequence[str]] | None = None,
            cutoffs: Sequence[int] | None = None, base: str | Flavor = "ndcg",
            baseline: str | Sequence[str] | None = None, test: str = "randomization", n_resamples: int = 10_000,
            seed: int = 0, confidence: float = 0.95, alpha: float = 0.05, correction: str = "", ci: str = "",
            intervals: str = "per_comparison", tolerance: float = DEFAULT_TOLERANCE, on_duplicate: str = "error",
            names: Sequence[str] | Mapping[str, str] | None = None, query_set: str = "common",
            max_memory: str | int | None = None) -> Comparison:
    """Compare runs under every flavor of a grid.

    qrels, runs: as for `rankflavor.evaluate` (at least two runs). flavors: specs or Flavors to use as
    they are (instead of a grid). grid: a grid name (`GRIDS`), a grid file, or {axis: values} crossed on
    `base` at each of `cutoffs` (default: the "default" grid @10). test: "randomization" (sign-flip
    p-value, percentile bootstrap CI) or "t" (scipy.stats.ttest_rel). Returns a `Comparison` whose
    `pairs`, `means`, `verdicts`, `flips` and `warnings` are DataFrames. on_duplicate: as for `evaluate`.
    test ("randomization", "t", "wilcoxon", "sign", "tukey"), n_resamples, seed, confidence, alpha, correction
    ("holm", "bonferroni", "bh", "none"), ci ("bootstrap", "t"), intervals ("per_comparison", "simultaneous":
    compare/intervals.py), tolerance (differences within it are equal: compare/rank_tests.py): the `TestSettings`
    of the comparison (its canonical string is `settings["canonical"]`). baseline: one run or several (each run
    against each).
    names: the runs' names, as for `evaluate`; `baseline` is a run's name, its path as given or its file name.
    query_set: the queries every mean, difference and test is over: "common" (the judged queries every run
    answers) or "qrels" (every judged query, a missing one counted as the flavor's missing= says; refused under
    missing=skip when a run lacks one). max_memory: the memory budget, as for `evaluate`.
    """
    settings = TestSettings(test, n_resamples, seed, confidence, alpha, correction, ci, intervals, tolerance)
    if query_set not in QUERY_SETS:
        raise CompareError(f"unknown query set {query_set!r}; use 'common' or 'qrels'")
    if flavors is not None and grid is not None:
        raise CompareError("give flavors or a grid, not both")
    if isinstance(flavors, (str, Flavor)):
        flavors = [flavors]
    with budget_of(max_memory):  # (the grid is counted against the budget before it is made: compare/plan.py)
        labelled, skipped = labelled_grid(flavors if flavors is not None else grid, cutoffs, base)  # (before any input)
    chosen = list(labelled)
    weighted = [f for f in chosen if f.weights.name is not None]
    if weighted:
        raise CompareError(f"compare does not weight its paired tests, so it refuses weighted flavors "
                           f"({short_label(weighted[0])}); compare them unweighted, and give the weighted means "
                           "with rankflavor eval --weights NAME=FILE")
    qrels = as_subtopic_qrels(qrels, [flavor.metric for flavor in chosen])  # (diversity measures: inputs/subtopics.py)
    with budget_of(max_memory):
        scores = Scores.load(qrels, apply_names(runs, names), on_duplicate)
        return compare_scores(scores, chosen, baseline=baseline, settings=settings, skipped=skipped,
                              labels=labelled, query_set=query_set)
