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

from rankflavor import registry
from rankflavor.flavor import Flavor
from rankflavor.report.numbers import plain
from rankflavor.report.records import reason_of

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


def compact(ds: Any, flavor: Flavor, results: Any, rows: Any, code: int) -> dict[str, Any]:
    """One query's record as the side-by-side view reads it, from the engine's row-level output (`RecordRows`,
    the same rows `rankflavor explain` prints): the ranks down to `shown_depth`, the metric's lists as deep."""
    metric = registry.get(flavor.metric)
    depth = shown_depth(flavor)
    pos = int(np.flatnonzero(results.query == code)[0])
    status = metric.status_name(int(results.status[pos]))
    value = plain(results.value[pos])
    columns = [c for c in rows.columns if c not in SKIPPED]
    mine = np.flatnonzero(rows.q == code)
    shown = mine[np.argsort(rows.rank[mine], kind="stable")]
    shown = shown[rows.rank[shown] <= depth]
    table = [[int(rows.rank[i]), str(ds.doc_ids[rows.d[i]]), grade_text(rows.grade[i]) if rows.judged[i] else None,
              bool(rows.judged[i]), *(_number(rows.columns[c][i]) for c in columns)] for i in shown]
    lists = {}
    for name, cols in rows.lists.items():
        extra = [c for c in cols if c not in ("q", "d", "rank", "grade")]
        at = np.flatnonzero((cols["q"] == code) & (cols["rank"] <= depth))
        at = at[np.argsort(cols["rank"][at], kind="stable")]
        lists[name] = {"columns": extra, "rows": [
            [int(cols["rank"][i]), "(top grade)" if cols["d"][i] < 0 else str(ds.doc_ids[cols["d"][i]]),
             grade_text(cols["grade"][i]) if "grade" in cols else None, *(_number(cols[c][i]) for c in extra)]
            for i in at]}
    return {"value": _number(value), "status": status, "reason": reason_of(flavor, status, value),
            "parts": {k: _number(v[pos]) for k, v in results.parts.items()}, "columns": columns, "rows": table,
            "more": max(0, len(mine) - len(shown)), "lists": lists}


def chosen_queries(n_set: int, per_query: int, picked: list[int], inside: list[int]) -> tuple[list[int], bool]:
    """(the positions whose lists are embedded, whether that is every query of the set)."""
    if n_set * per_query <= LIST_BUDGET:
        return inside, True
    room = max(1, LIST_BUDGET // max(per_query, 1))
    return sorted(picked)[:room], False


CHUNK = 32  # queries evaluated with their records at once (each record's rows are read from its chunk's)


def _records(scores: Any, run: str, flavor: Flavor, judged: np.ndarray, queries: list[int]) -> dict[str, Any]:
    """Position j -> the compact record of the run's query j under the flavor, the queries a chunk at a time."""
    out: dict[str, Any] = {}
    for start in range(0, len(queries), CHUNK):
        chunk = queries[start:start + CHUNK]
        codes = judged[np.array(chunk, dtype=np.int64)]
        evaluation = scores.engine.evaluate(scores.dataset.run(run), [flavor], queries=codes, detail=True)[0]
        assert evaluation.records is not None
        position = {int(c): j for c, j in zip(codes, chunk, strict=True)}
        for code in evaluation.results.query:
            out[str(position[int(code)])] = compact(scores.dataset, flavor, evaluation.results, evaluation.records,
                                                    int(code))
    return out


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
        records = {run: _records(scores, run, flavor, judged, queries) for run in model.runs}
        out[str(fi)] = {"depth": depth_of(flavor), "cutoff": flavor.cutoff, "records": records}
    note = ("" if complete else f"the lists of {len(queries)} of the {len(inside)} queries of the set are embedded "
            f"(the page's budget is {LIST_BUDGET:,} list rows): the largest differences, the flavors' largest "
            "disagreements, each run's worst, a sample; any other is one rankflavor explain away")
    return {"complete": complete, "note": note, "queries": queries, "flavors": out}
