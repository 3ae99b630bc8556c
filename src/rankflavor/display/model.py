"""What the page shows: the runs' scores under every flavor, the comparison against the baseline, and the
data the page's script reads (per-query values, the embedded records, the explain command's parts)."""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rankflavor.compare.comparison import Comparison, compare_scores
from rankflavor.compare.grid import labelled_grid
from rankflavor.compare.scores import Scores, spec_of
from rankflavor.compare.stats import TestSettings
from rankflavor.display.picks import Picks, pick_queries
from rankflavor.engine import MISSING, ZERO_IDEAL
from rankflavor.flavor import Flavor
from rankflavor.inputs.subtopics import as_subtopic_qrels
from rankflavor.report.records import Record, build_record, trimmed

DISPLAY_DEPTH = 20  # ranks a record shows for a flavor without a cutoff (then the judged documents below)
NOT_SCORED, TIES, UNJUDGED = 1, 2, 4  # the flags of a per-query value


@dataclass
class PageModel:
    scores: Scores
    flavors: list[Flavor]
    labels: dict[str, str]  # canonical string -> label (the spec as written, or the short form)
    comparison: Comparison | None  # None with one run
    baseline: str | None
    command: str
    version: str
    skipped: list[tuple[str, str]] = field(default_factory=list)
    picks: Picks = field(default_factory=Picks)

    @property
    def runs(self) -> list[str]:
        return self.scores.runs

    def label(self, flavor: Flavor | str) -> str:
        return self.labels.get(str(flavor), flavor.short if isinstance(flavor, Flavor) else str(flavor))

    def warnings(self) -> list[dict[str, Any]]:
        """One row per warning: run, label, flavor, code, message."""
        return [{"run": run, "label": self.label(f), "flavor": str(f), "code": w.code, "message": w.message}
                for f in self.flavors for run in self.runs for w in self.scores.warnings(run, f)]

    def warning_groups(self) -> list[WarningGroup]:
        """The warnings by kind (code), in the order each kind first appears."""
        groups: dict[str, WarningGroup] = {}
        for row in self.warnings():
            groups.setdefault(row["code"], WarningGroup(row["code"])).rows.append(row)
        return list(groups.values())


@dataclass
class WarningGroup:
    """The warnings of one kind: every row (run, label, flavor, code, message), the runs and flavors they
    concern (in order, once each)."""

    code: str
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def runs(self) -> list[str]:
        return list(dict.fromkeys(row["run"] for row in self.rows))

    @property
    def flavors(self) -> list[str]:
        """The canonical strings of the flavors concerned."""
        return list(dict.fromkeys(row["flavor"] for row in self.rows))


def build_model(qrels: Any, runs: Any, flavors: Any = None, *, grid: Any = None, cutoffs: list[int] | None = None,
                base: str = "ndcg", baseline: str | None = None, command: str = "", on_duplicate: str = "error",
                settings: TestSettings | None = None, query_set: str = "common",
                unjudged_bounds: str | None = None) -> PageModel:
    """Evaluate the runs under the flavors (specs, or a grid as `compare` takes it; default the 'default' grid
    @10) and, with two runs or more, compare each with the baseline (default: the first run) as `settings`
    says (default `TestSettings()`), over the query set `query_set` (compare/query_set.py); `unjudged_bounds`: a
    grade ("top" or a number) adds the bounds for unjudged documents (compare/unjudged_bounds.py)."""
    from rankflavor.version import __version__

    if isinstance(flavors, (str, Flavor)):
        flavors = [flavors]
    labelled, skipped = labelled_grid(flavors if flavors is not None else grid, cutoffs, base)
    chosen = list(labelled)
    scores = Scores.load(as_subtopic_qrels(qrels, [flavor.metric for flavor in chosen]), runs, on_duplicate)
    scores.evaluate_all(chosen)
    labels = {str(f): label for f, label in labelled.items()}
    comparison = None
    if len(scores.runs) >= 2:
        comparison = compare_scores(scores, chosen, baseline=baseline or scores.runs[0], settings=settings,
                                    skipped=skipped, labels=labelled, query_set=query_set)
        chosen, skipped, baseline = list(comparison.flavors), list(comparison.skipped), comparison.baseline
        if unjudged_bounds is not None:
            from rankflavor.compare.unjudged_bounds import add_unjudged_bounds

            add_unjudged_bounds(comparison, unjudged_bounds)
    model = PageModel(scores, chosen, labels, comparison, baseline, command, __version__, skipped)
    flips = []
    if comparison is not None:
        for v in comparison.verdicts.itertuples():
            rows = comparison.flips[(comparison.flips.run_a == v.run_a) & (comparison.flips.run_b == v.run_b)]
            if len(rows):
                f = rows.iloc[0]
                flips.append((v.run_a, v.run_b, comparison.flavor(f.from_flavor), comparison.flavor(f.to_flavor),
                              f.change))
    values = {(r, f): scores.values(r, f) for r in scores.runs for f in chosen}
    model.picks = pick_queries(values, scores.runs, chosen[0], model.baseline, flips)
    return model


def _num(x: Any) -> float | None:
    """A number as the page stores it: 6 significant digits, null for NaN."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else float(f"{x:.6g}")


def _columns(rows: list[dict[str, Any]], drop: tuple[str, ...] = ()) -> dict[str, Any]:
    names = [k for k in (rows[0] if rows else {}) if k not in drop]
    return {"columns": names, "rows": [[_num(r[k]) if isinstance(r[k], float) else r[k] for k in names]
                                       for r in rows]}


def record_data(record: Record, flavor: Flavor) -> dict[str, Any]:
    """A record as the page's drill-down shows it: the ranks down to the cutoff (or DISPLAY_DEPTH), then the
    judged documents below; the metric's lists (ndcg: the ideal list)."""
    depth = flavor.cutoff or DISPLAY_DEPTH
    shown, hidden = trimmed(record, depth)
    lists = {name: [row for row in rows if row["rank"] <= depth] for name, rows in record.lists.items()}
    return {"value": _num(record.value), "status": record.status, "reason": record.reason,
            "parts": {k: _num(v) for k, v in record.parts.items()}, "hidden": hidden.replace("; --all shows them", ""),
            "ranked": _columns(shown.ranked, drop=("tie_group",)),
            "lists": {name: _columns(rows) for name, rows in lists.items()},
            "lists_hidden": {name: len(record.lists[name]) - len(rows) for name, rows in lists.items()},
            "dropped": len(record.dropped)}


def _records(model: PageModel) -> dict[str, Any]:
    """'j|run|flavor index' -> the record, for the picked queries: under the first flavor for every run, and
    under the flip's flavors for the queries picked for a flip."""
    scores, first = model.scores, model.flavors[0]
    judged = np.flatnonzero(scores.dataset.judged)
    wanted: dict[Flavor, list[int]] = {first: sorted(model.picks.why)}
    for j, extra in model.picks.extra.items():
        for f in extra:
            wanted.setdefault(f, []).append(j)
    out: dict[str, Any] = {}
    for flavor, positions in wanted.items():
        fi = model.flavors.index(flavor)
        codes = judged[np.array(sorted(positions), dtype=np.int64)]
        for run in model.runs:
            evaluation = scores.engine.evaluate(scores.dataset.run(run), [flavor], queries=codes, detail=True)[0]
            assert evaluation.records is not None
            by_code = {int(c): j for c, j in zip(codes, sorted(positions), strict=True)}
            for code in evaluation.results.query:
                record = build_record(scores.dataset, run, flavor, evaluation.results, evaluation.records, int(code))
                out[f"{by_code[int(code)]}|{run}|{fi}"] = record_data(record, flavor)
    return out


def _flags(model: PageModel, run: str, flavor: Flavor) -> tuple[list[int], dict[int, str]]:
    result = model.scores.result(run, flavor)
    q = result.queries
    flags = (np.isnan(q.value) * NOT_SCORED + q.ties_straddle * TIES + (q.unjudged_in_top > 0) * UNJUDGED)
    odd = np.flatnonzero((q.status == ZERO_IDEAL) | (q.status == MISSING))
    return flags.astype(int).tolist(), {int(j): result.metric.status_name(int(q.status[j])) for j in odd}


def page_data(model: PageModel) -> dict[str, Any]:
    """The JSON the page's script reads."""
    scores = model.scores
    inputs = scores.provenance.get("inputs", [])
    qrels_path = next((i.get("path") or i["name"] for i in inputs if i["role"] == "qrels"), "QRELS")
    run_paths = {i["name"]: i.get("path") or i["name"] for i in inputs if i["role"] == "run"}
    values, flags, status = [], [], []
    for f in model.flavors:
        per_run_values, per_run_flags, per_run_status = [], [], []
        for run in model.runs:
            per_run_values.append([_num(x) for x in scores.result(run, f).queries.value.tolist()])
            fl, st = _flags(model, run, f)
            per_run_flags.append(fl)
            per_run_status.append(st)
        values.append(per_run_values)
        flags.append(per_run_flags)
        status.append(per_run_status)
    return {
        "runs": model.runs, "baseline": model.baseline,
        "flavors": [{"label": model.label(f), "flavor": str(f), "spec": spec_of(f)} for f in model.flavors],
        "queries": [str(q) for q in scores.query_ids.tolist()],
        "values": values, "flags": flags, "status": status,
        "why": {str(j): reasons for j, reasons in model.picks.why.items()},
        "records": _records(model),
        "explain": {"qrels": shlex.quote(qrels_path), "runs": {r: shlex.quote(run_paths.get(r, r)) for r in model.runs}},
        "comparison": _comparison_numbers(model.comparison),
    }


def _comparison_numbers(cmp: Comparison | None) -> dict[str, Any] | None:
    """The numbers the page's tables print, unrounded, for a reader to check: the query set, the test settings'
    canonical string, each run's mean, its interval and n per flavor, each pair's paired difference, effect size,
    wins / ties / losses, p-values and significance."""
    if cmp is None:
        return None
    data = cmp.to_dict()
    keep = ("flavor", "run_a", "run_b", "n", "diff", "ci_low", "ci_high", "p", "p_holm", "significant", "winner",
            "effect_size", "wins", "ties", "losses", "p_adjusted", "unjudged_low", "unjudged_high", "unjudged_verdict",
            "unjudged_exact", "unjudged_by_range")
    means = ("flavor", "run", "mean", "n", "ci_low", "ci_high", "mean_low", "mean_high", "unjudged_exact",
             "unjudged_by_range")
    return {"query_set": data["query_set"], "settings": data["settings"].get("canonical"),
            "means": [{k: row.get(k) for k in means if k in row or k not in BOUNDS} for row in data["means"]],
            "pairs": [{k: row.get(k) for k in keep if k in row or k not in BOUNDS} for row in data["pairs"]]}


BOUNDS = ("mean_low", "mean_high", "unjudged_low", "unjudged_high", "unjudged_verdict", "unjudged_exact",
          "unjudged_by_range")  # (with --unjudged-bounds)
