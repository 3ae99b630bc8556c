"""The reference evaluation of a run given as nested dicts: every judged query, one at a time.

Per query: every judgment is checked (negative=error, a gain table's missing grade), a query absent from
the run takes the `missing` policy, else the ranked list (reference/lists.py) goes to the metric's own
reference formula (`Metric.reference`, e.g. reference/ndcg.py), a query it cannot score takes the `empty`
policy, and `round` applies last (the mean is taken over `raw_value`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rankflavor import registry
from rankflavor.engine import MIN_GEO_MEAN
from rankflavor.flavor import Flavor
from rankflavor.reference.lists import RefError, judgment, ranked_list


@dataclass
class RefResult:
    value: float | None  # as reported (rounded when the flavor says round=N)
    status: str
    parts: dict[str, float | None] = field(default_factory=dict)  # the metric's parts (ndcg: dcg, idcg)
    raw_value: float | None = None  # before rounding: the mean is taken over these

    def __getattr__(self, name: str) -> Any:
        parts = self.__dict__.get("parts", {})
        if name in parts:
            return parts[name]
        raise AttributeError(name)


def reference_query(flavor: Flavor, judgments: Mapping[str, float], ranking: Mapping[str, float] | None,
                    input_order: list[str] | None = None, query: str = "q",
                    qrels: Mapping[str, Mapping[str, float]] | None = None) -> RefResult:
    """Score one query. `ranking` None means the query is missing from the run; `input_order` lists the
    run's docs in input order (defaults to the mapping's order); `qrels` is the whole qrels (ideal=max)."""
    metric = registry.get(flavor.metric)
    for grade in judgments.values():
        judgment(grade, flavor)  # negative=error and table errors hold for every judged doc
    if ranking is None and flavor.missing == "empty":  # (trec_eval -c: the measure over an empty ranking)
        scored = flavor.with_(empty="zero") if "empty" in metric.reads else flavor
        over_empty = reference_query(scored, judgments, {}, [], query, qrels)
        if over_empty.status != "ok":  # (no value over no docs: the metric's 0, as trec_eval)
            return _rounded(RefResult(metric.zero_value, "missing", over_empty.parts), flavor)
        return RefResult(over_empty.value, "missing", over_empty.parts, over_empty.raw_value)
    if ranking is None and flavor.missing == "zero" and metric.scores_missing:  # (num_q: 1)
        value, parts, _ = metric.reference(flavor, judgments, ranked_list(flavor, judgments, {}, [], query),
                                           qrels or {query: judgments})
        return _rounded(RefResult(value, "missing", parts), flavor)
    if ranking is None:
        value = metric.zero_value if flavor.missing == "zero" else None
        return _rounded(RefResult(value, "missing", dict.fromkeys(metric.parts)), flavor)
    ranked = ranked_list(flavor, judgments, ranking, input_order, query)
    assert metric.reference is not None, f"metric {metric.name} names no reference"
    value, parts, undefined = metric.reference(flavor, judgments, ranked, qrels or {query: judgments})
    if not undefined:
        return _rounded(RefResult(value, "ok", parts), flavor)
    if flavor.empty == "error":
        raise RefError("zero ideal")
    return _rounded(RefResult({"skip": None, "zero": 0.0, "one": 1.0}[flavor.empty], metric.undefined_status, parts),
                    flavor)


def _rounded(result: RefResult, flavor: Flavor) -> RefResult:
    result.raw_value = result.value
    if flavor.round.decimals is not None and result.value is not None:
        result.value = round(result.value, flavor.round.decimals)
    return result


def reference_evaluate(flavor: Flavor, qrels: Mapping[str, Mapping[str, float]],
                       run: Mapping[str, Mapping[str, float]]) -> dict[str, RefResult]:
    """Score every judged query (one with a judgment: an empty dict is not judged) of a run given as nested
    dicts (dict order is the input order); under unjudged_queries=score, then every run query without one, over
    its list with no judgment."""
    out = {query: reference_query(flavor, judgments, run.get(query), query=query, qrels=qrels)
           for query, judgments in qrels.items() if judgments}
    if flavor.unjudged_queries == "score":
        out.update({query: reference_query(flavor, {}, ranking, query=query, qrels=qrels)
                    for query, ranking in run.items() if query not in out})
    return out


def reference_mean(values: list[float | None], weights: list[float] | None, decimals: int | None, mean_of: str,
                   geometric: bool = False, logged: bool = False) -> float | None:
    """A result's mean from its per-query values (None = null; the zeros of unjudged_queries=zero included):
    sum(w v) / sum(w) over the non-null values, each rounded to `decimals` first when mean_of
    is `rounded` (the mean is then not rounded again), else the mean rounded to `decimals` last. `geometric`:
    exp(sum(w log(max(v, 1e-5))) / sum(w)) (trec_eval meas_avg.c te_calc_avg_meas_s_gm, MIN_GEO_MEAN); `logged`: the
    values are those logs already, exp(sum(w v) / sum(w))."""
    kept = [(v, 1.0 if weights is None else weights[i]) for i, v in enumerate(values) if v is not None]
    if not kept:
        return None
    if mean_of == "rounded":
        kept = [(round(v, decimals), w) for v, w in kept]
    if geometric:
        kept = [(math.log(max(v, MIN_GEO_MEAN)), w) for v, w in kept]
    total = math.fsum(w for _, w in kept)
    mean = math.fsum(v * w for v, w in kept) / total
    if geometric or logged:
        mean = math.exp(mean)
    return mean if mean_of == "rounded" or decimals is None else round(mean, decimals)
