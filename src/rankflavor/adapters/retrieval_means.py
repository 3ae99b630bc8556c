"""Named means of a qrels and a run (BEIR's and MTEB's `NDCG@10`, `MAP@10`, ...) under declared flavors: every
flavor in one `rankflavor.evaluate` call, each mean a `Score` (a float with its flavor and per-query values)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rankflavor.arrays.score import Score
from rankflavor.errors import InputError
from rankflavor.flavor import Flavor, parse_spec
from rankflavor.report import evaluate

__all__ = ["flavor_at", "means"]


def flavor_at(spec: str | Flavor, k: int, **axes: str) -> Flavor:
    """`spec` (a spec or Flavor without its own cutoff, or with k) at cutoff k, with `axes` set."""
    flavors = [spec] if isinstance(spec, Flavor) else parse_spec(spec)
    at = {f.with_(cutoff=k, **axes) for f in flavors}
    if len(at) != 1:
        raise InputError(f"the flavor {spec!s} names several flavors at @{k}", source="flavor",
                         fix="give one flavor family, e.g. 'ndcg gain=exp2' or a preset name")
    return at.pop()


def means(qrels: Mapping[str, Mapping[str, Any]], run: Mapping[str, Mapping[str, float]],
          named: Mapping[str, Flavor]) -> dict[str, Score]:
    """{name: the mean under its flavor}; a run none of whose queries is judged is refused (BEIR and MTEB divide
    by zero there)."""
    if not any(q in qrels for q in run):
        raise InputError("no query of the results is in the qrels: there is nothing to average", source="results",
                         fix="give results for the qrels' queries (ids are compared as strings)")
    flavors = list(dict.fromkeys(named.values()))
    report = evaluate(qrels, {"results": run}, flavors, warnings=False)
    by_flavor = {}
    for result in report.results:
        values = np.asarray(result.queries.value, dtype=np.float64)
        queries = np.asarray(result.query_ids)[result.queries.query]
        by_flavor[result.flavor] = Score(result.mean, result.flavor, values, queries, result, report)
    return {name: by_flavor[flavor] for name, flavor in named.items()}
