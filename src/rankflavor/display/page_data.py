"""The JSON the page's script reads: the runs, pairs and flavors; per flavor, run and judged query the value, its
flags and status, and whether the query is in the comparison's set under that flavor (every chart, count and
table of the page is over it; a query outside is named as such, with why); the entry points and the side-by-side
lists (display/lists.py); the numbers of the comparison, and the whole comparison as `compare --format json`
gives it (the page's download)."""

from __future__ import annotations

import math
import shlex
from typing import Any

import numpy as np

from rankflavor.compare.comparison import Comparison
from rankflavor.compare.scores import spec_of
from rankflavor.display.lists import side_lists
from rankflavor.display.model import PageModel
from rankflavor.engine import MISSING, ZERO_IDEAL
from rankflavor.flavor import Flavor

NOT_SCORED, TIES, UNJUDGED = 1, 2, 4  # the flags of a per-query value
BOUNDS = ("mean_low", "mean_high", "unjudged_low", "unjudged_high", "unjudged_verdict", "unjudged_exact",
          "unjudged_by_range")  # (with --unjudged-bounds)


def _num(x: Any) -> float | None:
    """A number as the page stores it: 6 significant digits, null for NaN."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else float(f"{x:.6g}")


def _flags(model: PageModel, run: str, flavor: Flavor) -> tuple[list[int], dict[int, str]]:
    result = model.scores.result(run, flavor)
    q = result.queries
    flags = (np.isnan(q.value) * NOT_SCORED + q.ties_straddle * TIES + (q.unjudged_in_top > 0) * UNJUDGED)
    odd = np.flatnonzero((q.status == ZERO_IDEAL) | (q.status == MISSING))
    return flags.astype(int).tolist(), {int(j): result.metric.status_name(int(q.status[j])) for j in odd}


def outside(model: PageModel) -> dict[str, str]:
    """Position j -> why a judged query is outside the comparison's set (the runs that lack it)."""
    judged = np.flatnonzero(model.scores.dataset.judged)
    present = {r: model.scores.dataset.run(r).present[judged] for r in model.runs}
    out = {}
    for j in np.flatnonzero(~model.query_mask()):
        lacking = [r for r in model.runs if not present[r][j]]
        out[str(int(j))] = ("outside the query set: " + (", ".join(lacking) + " lacks it" if lacking
                                                           else "not in the set"))
    return out


def page_data(model: PageModel) -> dict[str, Any]:
    """The JSON the page's script reads."""
    scores = model.scores
    inputs = scores.provenance.get("inputs", [])
    qrels_path = next((i.get("path") or i["name"] for i in inputs if i["role"] == "qrels"), "QRELS")
    run_paths = {i["name"]: i.get("path") or i["name"] for i in inputs if i["role"] == "run"}
    values, flags, status = [], [], []
    for f in model.flavors:
        per_run = [_flags(model, run, f) for run in model.runs]
        values.append([[_num(x) for x in scores.result(run, f).queries.value.tolist()] for run in model.runs])
        flags.append([fl for fl, _ in per_run])
        status.append([st for _, st in per_run])
    cmp = model.comparison
    return {
        "runs": model.runs, "baseline": model.baseline, "pairs": [list(p) for p in model.pairs],
        "flavors": [{"label": model.label(f), "flavor": str(f), "spec": spec_of(f), "metric": f.metric,
                     "cutoff": f.cutoff} for f in model.flavors],
        "queries": [str(q) for q in scores.query_ids.tolist()],
        "set": {"caption": model.set_caption(), "size": int(model.query_mask().sum()),
                "per_flavor": [int(model.flavor_mask(f).sum()) for f in model.flavors],
                "own_queries": cmp is None},
        "in_set": [model.flavor_mask(f).astype(int).tolist() for f in model.flavors],
        "outside": outside(model),
        "values": values, "flags": flags, "status": status,
        "why": {str(j): reasons for j, reasons in model.picks.why.items()},
        "differ": model.picks.differ, "disagree": model.picks.disagree,
        "lists": model.lists or side_lists(model),
        "explain": {"qrels": shlex.quote(qrels_path), "runs": {r: shlex.quote(run_paths.get(r, r)) for r in model.runs}},
        "comparison": _comparison_numbers(cmp),
        "comparison_json": None if cmp is None else cmp.to_dict(),
    }


def _comparison_numbers(cmp: Comparison | None) -> dict[str, Any] | None:
    """The numbers the page's tables print, unrounded, for a reader to check: the query set, the test settings'
    canonical string, each run's mean, its interval and n per flavor, each pair's paired difference, effect size,
    wins / ties / losses, p-values and significance."""
    if cmp is None:
        return None
    data = cmp.to_dict()
    keep = ("flavor", "run_a", "run_b", "n", "diff", "ci_low", "ci_high", "p", "p_holm", "significant", "winner",
            "effect_size", "wins", "ties", "losses", "p_adjusted", "favours", "finding", "significant_winner",
            "unjudged_low", "unjudged_high", "unjudged_verdict", "unjudged_exact", "unjudged_by_range")
    means = ("flavor", "run", "mean", "n", "ci_low", "ci_high", "judged", "mean_low", "mean_high", "unjudged_exact",
             "unjudged_by_range")
    return {"query_set": data["query_set"], "settings": data["settings"].get("canonical"),
            "means": [{k: row.get(k) for k in means if k in row or k not in BOUNDS} for row in data["means"]],
            "pairs": [{k: row.get(k) for k in keep if k in row or k not in BOUNDS} for row in data["pairs"]]}
