"""The ranked lists the page embeds for its side-by-side view: per flavor, query and run, the value, its parts and
why, and the top of the ranked list (rank, doc, grade as the qrels wrote it, whether judged, the metric's columns:
gain and contribution for NDCG) down a few ranks past the cutoff, so the cutoff can be drawn; the metric's own
lists (NDCG's ideal) to the same depth, once when every run has the same.

Within LIST_BUDGET rows: every query of the comparison's set when they fit, else the picked queries
(display/picks.py), and the page says which (`note`). Any other record is one `rankflavor explain` away.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rankflavor.flavor import Flavor
from rankflavor.report.records import Record, build_record

LIST_BUDGET = 100_000  # list rows the page embeds in all
DEPTH_NO_CUTOFF = 20  # ranks shown for a flavor without a cutoff
PAST_CUTOFF = 3  # ranks shown below the cutoff, under the line
SKIPPED = ("rank", "doc", "score", "grade", "judged", "tie_group", "discount")  # (discount: the rank says it)


def grade_text(grade: Any) -> str | None:
    """A grade as a qrels file writes it: 2, not 2.000; 0.5 as 0.5; None for an unjudged document."""
    if grade is None or grade != grade:
        return None
    value = float(grade)
    return str(int(value)) if value.is_integer() else repr(value)


def depth_of(flavor: Flavor) -> int:
    return flavor.cutoff if flavor.cutoff is not None else DEPTH_NO_CUTOFF


def shown_depth(flavor: Flavor) -> int:
    return depth_of(flavor) + (PAST_CUTOFF if flavor.cutoff is not None else 0)


def _number(x: Any) -> Any:
    if isinstance(x, (float, np.floating)):
        return None if x != x else float(f"{float(x):.6g}")
    return x


def compact(record: Record, flavor: Flavor) -> dict[str, Any]:
    """One record as the side-by-side view reads it."""
    depth = shown_depth(flavor)
    ranked = [row for row in record.ranked if row["rank"] <= depth]
    columns = [k for k in (record.ranked[0] if record.ranked else {}) if k not in SKIPPED]
    rows = [[row["rank"], row["doc"], grade_text(row["grade"]) if row["judged"] else None, bool(row["judged"]),
             *(_number(row[c]) for c in columns)] for row in ranked]
    lists = {}
    for name, items in record.lists.items():
        extra = [k for k in (items[0] if items else {}) if k not in SKIPPED]
        lists[name] = {"columns": extra, "rows": [[r["rank"], r["doc"], grade_text(r.get("grade")),
                                                   *(_number(r[c]) for c in extra)]
                                                  for r in items if r["rank"] <= depth]}
    return {"value": _number(record.value), "status": record.status, "reason": record.reason,
            "parts": {k: _number(v) for k, v in record.parts.items()}, "columns": columns, "rows": rows,
            "more": max(0, len(record.ranked) - len(ranked)), "lists": lists}


def chosen_queries(n_set: int, per_query: int, picked: list[int], inside: list[int]) -> tuple[list[int], bool]:
    """(the positions whose lists are embedded, whether that is every query of the set)."""
    if n_set * per_query <= LIST_BUDGET:
        return inside, True
    room = max(1, LIST_BUDGET // max(per_query, 1))
    return sorted(picked)[:room], False


def side_lists(model: Any) -> dict[str, Any]:
    """{"complete", "note", "queries", "flavors": {fi: {"depth", "cutoff", "columns", "lists": {...},
    "records": {run: {j: compact record}}}}} for the page's side-by-side view."""
    scores = model.scores
    judged = np.flatnonzero(scores.dataset.judged)
    inside = [int(j) for j in np.flatnonzero(model.query_mask())]
    per_query = sum(len(model.runs) * (2 * shown_depth(f)) for f in model.flavors)
    queries, complete = chosen_queries(len(inside), per_query, list(model.picks.why), inside)
    out: dict[str, Any] = {}
    for fi, flavor in enumerate(model.flavors):
        records: dict[str, dict[str, Any]] = {}
        for run in model.runs:
            codes = judged[np.array(queries, dtype=np.int64)] if queries else np.zeros(0, dtype=np.int64)
            evaluation = scores.engine.evaluate(scores.dataset.run(run), [flavor], queries=codes, detail=True)[0]
            assert evaluation.records is not None
            position = {int(c): j for c, j in zip(codes, queries, strict=True)}
            records[run] = {str(position[int(code)]): compact(build_record(
                scores.dataset, run, flavor, evaluation.results, evaluation.records, int(code)), flavor)
                for code in evaluation.results.query}
        out[str(fi)] = {"depth": depth_of(flavor), "cutoff": flavor.cutoff, "records": records}
    note = ("" if complete else f"the lists of {len(queries)} of the {len(inside)} queries of the set are embedded "
            f"(the page's budget is {LIST_BUDGET:,} list rows): the largest differences, the flavors' largest "
            "disagreements, each run's worst, a sample; any other is one rankflavor explain away")
    return {"complete": complete, "note": note, "queries": queries, "flavors": out}
