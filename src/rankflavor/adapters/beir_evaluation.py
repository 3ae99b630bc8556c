"""BEIR's `EvaluateRetrieval.evaluate`, computed by rankflavor: the same call, the same four dicts, under
declared flavors.

beir 2.2.0, beir/retrieval/evaluation.py: with `ignore_identical_ids` (default True) a result whose doc id equals
its query id is popped; pytrec_eval computes `ndcg_cut`, `map_cut`, `recall` and `P` at each k over the queries of
both the qrels and the results; each mean is the sum over those queries / their number, rounded to 5 decimals
(Python's round). Here each is a flavor: `NDCG@k` is the `beir` preset at k (`ndcg@k precision=f32
self_docs=drop round=5`), `MAP@k`, `Recall@k`, `P@k` are `pytrec_eval.map_cut_k`, `pytrec_eval.recall_k`,
`pytrec_eval.P_k` with `self_docs=drop round=5` (`self_docs=keep` when ignore_identical_ids=False). `flavor=` puts
another NDCG flavor family in place of BEIR's (`"ndcg gain=exp2"`, `"trec_eval"`: each k its cutoff), the three
other dicts staying BEIR's. Each value is a `Score`: a float that carries its flavor and per-query values.
Unlike BEIR, the results given are not modified (BEIR pops the identical ids from the caller's dict).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rankflavor.adapters.retrieval_means import flavor_at, means
from rankflavor.arrays.score import Score
from rankflavor.errors import SpecError
from rankflavor.flavor import Flavor

__all__ = ["BEIR_VERSION", "beir_flavors", "evaluate"]

BEIR_VERSION = "2.2.0"
Dicts = tuple[dict[str, Score], dict[str, Score], dict[str, Score], dict[str, Score]]


def beir_flavors(k_values: Sequence[int], ignore_identical_ids: bool = True,
                 flavor: str | Flavor | None = None) -> dict[str, Flavor]:
    """{`NDCG@k`, `MAP@k`, `Recall@k`, `P@k`: the flavor BEIR computes it under}, k by k."""
    if not k_values or any(isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in k_values):
        raise SpecError(f"k_values={list(k_values)!r}: give positive integer cutoffs, e.g. [1, 3, 5, 10, 100, 1000]")
    axes = {"self_docs": "drop" if ignore_identical_ids else "keep", "round": "5"}
    out: dict[str, Flavor] = {}
    for k in k_values:
        out[f"NDCG@{k}"] = flavor_at("beir" if flavor is None else flavor, k, **axes)
    for name, measure in (("MAP", "map_cut"), ("Recall", "recall"), ("P", "P")):
        for k in k_values:
            out[f"{name}@{k}"] = flavor_at(f"pytrec_eval.{measure}_{k}", k, **axes)
    return out


def evaluate(qrels: Mapping[str, Mapping[str, int]], results: Mapping[str, Mapping[str, float]],
             k_values: Sequence[int], ignore_identical_ids: bool = True, *,
             flavor: str | Flavor | None = None) -> Dicts:
    """(ndcg, map, recall, precision) as BEIR returns them: {`NDCG@k`: mean}, {`MAP@k`: ...}, {`Recall@k`: ...},
    {`P@k`: ...}, each mean rounded to 5 decimals."""
    named = beir_flavors(k_values, ignore_identical_ids, flavor)
    values = means(qrels, results, named)
    groups = ("NDCG", "MAP", "Recall", "P")
    ndcg, map_, recall, precision = ({f"{g}@{k}": values[f"{g}@{k}"] for k in k_values} for g in groups)
    return ndcg, map_, recall, precision
