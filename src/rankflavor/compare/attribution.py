"""diff(): split a gap between two flavors into the part due to each axis, one change at a time.

The walk starts at flavor A and changes one axis per step (in `Flavor.differences` order unless an
order is given) until it reaches flavor B, so

    mean(B) - mean(A) = sum over steps s of [mean(F_s) - mean(F_{s-1})].

Each step's part depends on the order when axes interact (it is one path); pass `order` to walk
another path, or ask for the Shapley split (`shapley`), the average of the parts over every order.
A step that would make an invalid flavor (`ideal=recall(K)` with
`ties=average`, a cutoff above K, ...) or one the data refuses (`unjudged=error` with unjudged docs) is
postponed: the next axis that makes a valid step goes first, and when none does, two axes change in one
step. Every such reordering is reported in `notes`.

With two runs, the walk is done for both, each mean over the comparison's one query set (compare/query_set.py:
`common` by default, the judged queries both runs answer), so that the gap between run A under flavor A and run B
under flavor B splits two ways:
    mean_B(FB) - mean_A(FA) = [mean_A(FB) - mean_A(FA)] (flavor, on A) + [mean_B(FB) - mean_A(FB)] (systems)
                            = [mean_B(FA) - mean_A(FA)] (systems) + [mean_B(FB) - mean_B(FA)] (flavor, on B).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from rankflavor.compare.comparison import CompareError
from rankflavor.compare.grid import short_label
from rankflavor.compare.query_set import QuerySet, query_set, set_mean, set_values
from rankflavor.compare.scores import Scores
from rankflavor.errors import RankflavorError, SpecError
from rankflavor.flavor import Flavor


@dataclass
class Step:
    axes: tuple[str, ...]
    change: str
    flavor: Flavor


@dataclass
class Attribution:
    """The walk (`steps`: one row per step x run), the queries that move most (`movers`), and notes."""

    runs: list[str]
    path: list[Step]
    steps: pd.DataFrame
    movers: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    shapley: pd.DataFrame | None = None  # run, axis, change, shapley (order-free split), when asked for
    query_set: QuerySet | None = None  # two runs: the one query set of every mean (None: one run, its own queries)

    def to_dict(self) -> dict[str, Any]:
        def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
            return [{k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in row.items()}
                    for row in frame.to_dict(orient="records")]

        out = {"runs": self.runs, "summary": self.summary, "notes": self.notes, "steps": records(self.steps),
               "movers": records(self.movers), "query_set": None if self.query_set is None else self.query_set.to_dict()}
        if self.shapley is not None:
            out["shapley"] = records(self.shapley)
        return out


def _target_value(flavor: Flavor, axis: str) -> Any:
    return flavor.value_of(axis)


def _changes(end: Flavor, combo: Sequence[str]) -> dict[str, Any]:
    """What moves a flavor to `end` on these axes (a change of metric brings `end`'s parameters along)."""
    changes = {a: _target_value(end, a) for a in combo}
    if "metric" in combo:
        changes["params"] = {name: str(value) for name, value in end.params}
    return changes


def walk(start: Flavor, end: Flavor, order: Sequence[str] | None = None, usable=None,
         ) -> tuple[list[Step], list[str]]:
    """The steps from `start` to `end`, one axis at a time where a valid intermediate flavor exists.

    usable(flavor) -> str | None: an extra check (e.g. the data evaluates under it); returns the reason
    when the flavor cannot be used.
    """
    diffs = start.differences(end)
    axes = [d[0] for d in diffs]
    if order:
        unknown = [a for a in order if a not in axes]
        if unknown:
            raise SpecError(f"--order names {', '.join(unknown)}, which the two flavors do not differ on; "
                            f"they differ on {', '.join(axes) or 'nothing'}")
        axes = list(order) + [a for a in axes if a not in order]
    text = {d[0]: f"{d[0]} {d[1]} -> {d[2]}" for d in diffs}
    steps: list[Step] = []
    notes: list[str] = []
    current = start
    remaining = list(axes)
    while remaining:
        chosen = None
        refusals: list[str] = []
        for size in range(1, len(remaining) + 1):
            for combo in itertools.combinations(remaining, size):
                try:
                    candidate = current.with_(**_changes(end, combo))
                except SpecError as exc:
                    refusals.append(f"{' + '.join(combo)}: {exc}")
                    continue
                reason = usable(candidate) if usable else None
                if reason:
                    refusals.append(f"{' + '.join(combo)}: {reason}")
                    continue
                chosen = (combo, candidate)
                break
            if chosen:
                break
        if chosen is None:  # cannot happen: changing every remaining axis reaches `end`, which is valid
            raise SpecError("no valid path between the two flavors: " + "; ".join(refusals))
        combo, candidate = chosen
        if combo[0] != remaining[0] or len(combo) > 1:
            why = refusals[0] if refusals else ""
            if len(combo) > 1:
                notes.append(f"{' and '.join(combo)} change in one step: no valid flavor changes one of them alone "
                             f"({why})")
            else:
                notes.append(f"{combo[0]} changes before {remaining[0]}: changing {remaining[0]} first is invalid "
                             f"({why})")
        steps.append(Step(combo, "; ".join(text[a] for a in combo), candidate))
        remaining = [a for a in remaining if a not in combo]
        current = candidate
    return steps, notes


class _Means:
    """A run's per-query values and mean under a flavor: over its own queries (one run), or over the one query
    set `qs` of a comparison of two runs (a query either run lacks, or leaves undefined, out of both)."""

    def __init__(self, scores: Scores, qs: QuerySet | None) -> None:
        self.scores, self.qs = scores, qs
        self._in_set: dict[Flavor, dict[str, np.ndarray]] = {}  # (each station is read as "after", then "before")

    def values(self, run: str, flavor: Flavor) -> np.ndarray:
        if self.qs is None:
            return self.scores.values(run, flavor)
        if flavor not in self._in_set:
            self._in_set[flavor] = set_values(self.scores, self.qs, flavor)
        return self._in_set[flavor][run]

    def mean(self, run: str, flavor: Flavor) -> float | None:
        if self.qs is None:
            return self.scores.mean(run, flavor)
        return set_mean(self.scores, run, flavor, self.values(run, flavor))


def attribute(scores: Scores, start: Flavor, end: Flavor, runs: Sequence[str] | None = None,
              order: Sequence[str] | None = None, top: int = 5, with_shapley: bool = False,
              query_set_name: str = "common") -> Attribution:
    """The walk of each run from `start` to `end`; with two runs, every mean over the query set
    `query_set_name` (`common` or `qrels`, as `compare` takes them)."""
    runs = list(runs or scores.runs)
    qs = query_set(scores, query_set_name, [start, end]) if len(runs) == 2 else None
    means = _Means(scores, qs)

    def usable(flavor: Flavor) -> str | None:
        try:
            for r in runs:
                scores.result(r, flavor)
        except RankflavorError as exc:
            return str(exc).splitlines()[0]
        return None

    for f in (start, end):
        for r in runs:
            scores.result(r, f)  # the endpoints must evaluate: their errors go to the user as they are
    path, notes = walk(start, end, order, usable)
    qids = scores.query_ids
    rows: list[dict[str, Any]] = []
    movers: list[dict[str, Any]] = []
    stations = [Step((), "start", start), *path]
    for i, step in enumerate(stations):
        for r in runs:
            mean = means.mean(r, step.flavor)
            row = {"step": i, "change": step.change, "axis": ",".join(step.axes), "run": r, "mean": mean,
                   "delta": np.nan, "label": short_label(step.flavor), "flavor": str(step.flavor)}
            if i:
                prev = stations[i - 1].flavor
                before_mean = means.mean(r, prev)
                row["delta"] = (mean - before_mean) if mean is not None and before_mean is not None else np.nan
                before, after = means.values(r, prev), means.values(r, step.flavor)
                moved = np.where(np.isnan(before) & np.isnan(after), 0.0,
                                 np.where(np.isnan(before) | np.isnan(after), np.inf, np.abs(after - before)))
                for j in np.argsort(-moved, kind="stable")[:top]:
                    if moved[j] <= 0:
                        break
                    movers.append({"step": i, "change": step.change, "run": r, "query": str(qids[j]),
                                   "before": before[j], "after": after[j],
                                   "delta": after[j] - before[j],
                                   "explain": scores.explain_command(r, str(qids[j]), step.flavor)})
            rows.append(row)
    steps = pd.DataFrame(rows)
    summary = _summary(steps, runs, len(stations) - 1)
    if qs is not None:
        summary.append(f"every mean and difference {qs.describe()}")
    movers_frame = pd.DataFrame(movers, columns=["step", "change", "run", "query", "before", "after", "delta",
                                                 "explain"])
    split = None
    if with_shapley:
        split, more = shapley(scores, start, end, runs, mean=means.mean)
        notes += more
    return Attribution(runs, path, steps, movers_frame, notes, summary, split, qs)


def _summary(steps: pd.DataFrame, runs: list[str], last: int) -> list[str]:
    def m(run: str, step: int) -> float:
        v = steps[(steps.run == run) & (steps.step == step)]["mean"].iloc[0]
        return np.nan if v is None else float(v)

    out = []
    for r in runs:
        total = m(r, last) - m(r, 0)
        parts = steps[(steps.run == r) & (steps.step > 0)]
        split = ", ".join(f"{c}: {d:+.6f}" for c, d in zip(parts.change, parts.delta, strict=True))
        out.append(f"{r}: {m(r, 0):.6f} -> {m(r, last):.6f} ({total:+.6f}) = {split or 'no change of flavor'}")
    if len(runs) == 2:
        a, b = runs
        gap = m(b, last) - m(a, 0)
        out.append(f"{b} under B minus {a} under A = {gap:+.6f} = flavor {m(a, last) - m(a, 0):+.6f} (walking {a}) "
                   f"+ systems {m(b, last) - m(a, last):+.6f} (under B)")
        out.append(f"  or = systems {m(b, 0) - m(a, 0):+.6f} (under A) + flavor {m(b, last) - m(b, 0):+.6f} "
                   f"(walking {b})")
    return out


def shapley(scores: Scores, start: Flavor, end: Flavor, runs: Sequence[str] | None = None, max_axes: int = 8,
            mean: Callable[[str, Flavor], float | None] | None = None) -> tuple[pd.DataFrame, list[str]]:
    """Order-free split of mean(end) - mean(start) over the axes that differ (Shapley 1953).

        phi_i = sum over S subset of M \\ {i} of |S|! (m - |S| - 1)! / m! * [v(S + {i}) - v(S)]

    where v(S) is the mean under `start` with the axes in S set to `end`'s values; the phi_i sum to the
    gap. It needs all 2^m such flavors: when one is invalid or refused by the data, the split is not
    given and the reason is returned instead. `mean(run, flavor)`: the means split (default: `scores.mean`).
    Returns (DataFrame run, axis, change, shapley; notes).
    """
    runs = list(runs or scores.runs)
    mean = mean or scores.mean
    diffs = start.differences(end)
    axes = [d[0] for d in diffs]
    m = len(axes)
    columns = ["run", "axis", "change", "shapley"]
    if m > max_axes:
        return pd.DataFrame(columns=columns), [f"Shapley split skipped: {m} axes differ (more than {max_axes})"]
    value: dict[frozenset[str], dict[str, float]] = {}
    for size in range(m + 1):
        for combo in itertools.combinations(axes, size):
            try:
                flavor = start.with_(**_changes(end, combo))
                means = {r: mean(r, flavor) for r in runs}
            except RankflavorError as exc:
                reason = str(exc).splitlines()[0]
                return pd.DataFrame(columns=columns), [
                    f"Shapley split not defined: changing {' + '.join(combo) or 'nothing'} alone gives no value ({reason})"]
            if any(v is None for v in means.values()):
                return pd.DataFrame(columns=columns), [
                    f"Shapley split not defined: no query is scored after changing {' + '.join(combo)}"]
            value[frozenset(combo)] = means  # type: ignore[assignment]
    text = {d[0]: f"{d[0]} {d[1]} -> {d[2]}" for d in diffs}
    rows = []
    for r in runs:
        for axis in axes:
            others = [a for a in axes if a != axis]
            phi = 0.0
            for size in range(m):
                weight = math.factorial(size) * math.factorial(m - size - 1) / math.factorial(m)
                for combo in itertools.combinations(others, size):
                    s_ = frozenset(combo)
                    phi += weight * (value[s_ | {axis}][r] - value[s_][r])
            rows.append({"run": r, "axis": axis, "change": text[axis], "shapley": phi})
    return pd.DataFrame(rows, columns=columns), []


def diff(qrels: Any, runs: Any, flavor_a: str | Flavor, flavor_b: str | Flavor, *, order: Sequence[str] | None = None,
         top: int = 5, shapley: bool = False, on_duplicate: str = "error", query_set: str = "common") -> Attribution:
    """Walk one run (or two) from `flavor_a` to `flavor_b` one axis at a time.

    Returns an `Attribution`: `steps` (DataFrame: step, change, run, mean, delta, flavor), `movers`
    (the `top` queries that move most at each step, with their `rankflavor explain` command), `notes`
    (reordered or merged steps and why) and `summary` (the split of the gap, systems vs flavor with two runs);
    with shapley=True also `shapley`, the order-free split (all 2^m intermediate flavors are evaluated).
    on_duplicate: as for `evaluate`; query_set: with two runs, the queries every mean is over, as for `compare`.
    """
    fa = flavor_a if isinstance(flavor_a, Flavor) else Flavor.parse(flavor_a)  # (before any input is read)
    fb = flavor_b if isinstance(flavor_b, Flavor) else Flavor.parse(flavor_b)
    scores = Scores.load(qrels, runs, on_duplicate)
    if len(scores.runs) > 2:
        raise CompareError(f"diff takes one run or two, got {len(scores.runs)}")
    return attribute(scores, fa, fb, order=order, top=top, with_shapley=shapley, query_set_name=query_set)
