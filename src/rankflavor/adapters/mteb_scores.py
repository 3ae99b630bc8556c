"""MTEB's retrieval scores, computed by rankflavor: the swap for `RetrievalEvaluator.evaluate`.

mteb 2.26.24 scores a retrieval task in mteb/_evaluators/retrieval_evaluator.py `RetrievalEvaluator.evaluate(qrels,
results, k_values, ignore_identical_ids=False, skip_first_result=False)`, which pops results whose doc id equals
the query id (when asked) and calls mteb/_evaluators/retrieval_metrics.py `calculate_retrieval_scores`: with
`skip_first_result` each query's top result (by score, the first listed among ties) is dropped; pytrec_eval
computes `ndcg_cut`, `map_cut`, `recall`, `P` and `success` at each k over the queries of both the qrels and the
results; `parse_metrics_from_scores` averages each over those queries and rounds to 5 decimals; MRR@k is its own
(`mrr`: results sorted by (score, doc id) descending, 1/rank of the first doc with relevance > 0 in the top k, the
plain mean over the results' queries). Here each is a flavor: `NDCG@k` the `beir` preset's axes at k (or the
`flavor=` family), `MAP@k`, `Recall@k`, `P@k`, `HitRate@k` pytrec_eval's `map_cut_k`, `recall_k`, `P_k`,
`success_k`, all with `round=5`; `MRR@k` is `mrr@k ties=docid_desc` (float64, unrounded, as MTEB's).
`self_docs=drop` under ignore_identical_ids. MTEB's nAUC scores (evaluate_abstention: the per-query values
against the retrieval scores' confidence) are not flavors and are not computed here: MTEB's own function takes
`.all_scores`. The results given are not modified.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from rankflavor.adapters.retrieval_means import flavor_at, means
from rankflavor.arrays.score import Score
from rankflavor.errors import SpecError
from rankflavor.flavor import Flavor

__all__ = ["MTEB_VERSION", "RetrievalScores", "evaluate", "mteb_flavors", "skip_first"]

MTEB_VERSION = "2.26.24"
_PYTREC = (("MAP", "map_cut"), ("Recall", "recall"), ("P", "P"), ("HitRate", "success"))


class RetrievalScores(NamedTuple):
    """MTEB's RetrievalEvaluationResult fields that come from the flavors: per-query values and the means."""

    all_scores: dict[str, dict[str, float]]  # query -> {ndcg_cut_k, map_cut_k, recall_k, P_k, success_k}
    ndcg: dict[str, Score]
    map: dict[str, Score]
    recall: dict[str, Score]
    precision: dict[str, Score]
    mrr: dict[str, Score]
    hit_rate: dict[str, Score]


def mteb_flavors(k_values: Sequence[int], ignore_identical_ids: bool = False,
                 flavor: str | Flavor | None = None) -> dict[str, Flavor]:
    """{`NDCG@k`, `MAP@k`, `Recall@k`, `P@k`, `HitRate@k`, `MRR@k`: the flavor MTEB computes it under}."""
    if not k_values or any(isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in k_values):
        raise SpecError(f"k_values={list(k_values)!r}: give positive integer cutoffs, e.g. [1, 3, 5, 10, 100, 1000]")
    self_docs = "drop" if ignore_identical_ids else "keep"
    out = {f"NDCG@{k}": flavor_at("beir" if flavor is None else flavor, k, self_docs=self_docs, round="5")
           for k in k_values}
    for name, measure in _PYTREC:
        out.update({f"{name}@{k}": flavor_at(f"pytrec_eval.{measure}_{k}", k, self_docs=self_docs, round="5")
                    for k in k_values})
    out.update({f"MRR@{k}": flavor_at("mrr ties=docid_desc", k, self_docs=self_docs) for k in k_values})
    return out


def skip_first(results: Mapping[str, Mapping[str, float]], drop_self: bool = False) -> dict[str, dict[str, float]]:
    """Each query's results less its top one (MTEB's skip_first_result: the highest score, the first listed among
    equal ones, as Python's stable sort leaves them), after its own id when `drop_self` (MTEB pops those first)."""
    out = {}
    for query, docs in results.items():
        kept = {doc: score for doc, score in docs.items() if not (drop_self and doc == query)}
        top = max(kept.items(), key=lambda item: item[1])[0] if kept else None
        out[query] = {doc: score for doc, score in kept.items() if doc != top}
    return out


def _per_query(values: dict[str, Score], k_values: Sequence[int]) -> dict[str, dict[str, float]]:
    """pytrec_eval's per-query dict (`ndcg_cut_10`, ...) from the unrounded per-query values."""
    keys = {"NDCG": "ndcg_cut", "MAP": "map_cut", "Recall": "recall", "P": "P", "HitRate": "success"}
    out: dict[str, dict[str, float]] = {}
    for name, key in keys.items():
        for k in k_values:
            score = values[f"{name}@{k}"]
            raw = score.result.queries.raw_value
            for query, value in zip(score.queries.tolist(), raw.tolist(), strict=True):
                if value == value:  # (a judged query the results lack: pytrec_eval has no line for it)
                    out.setdefault(str(query), {})[f"{key}_{k}"] = value
    return out


def evaluate(qrels: Mapping[str, Mapping[str, Any]], results: Mapping[str, Mapping[str, float]],
             k_values: Sequence[int], ignore_identical_ids: bool = False, skip_first_result: bool = False, *,
             flavor: str | Flavor | None = None) -> RetrievalScores:
    """`RetrievalEvaluator.evaluate`'s scores (mteb 2.26.24), each mean a Score; `flavor=` for another NDCG family."""
    run = skip_first(results, ignore_identical_ids) if skip_first_result else results
    values = means(qrels, run, mteb_flavors(k_values, ignore_identical_ids, flavor))

    def group(name: str) -> dict[str, Score]:
        return {f"{name}@{k}": values[f"{name}@{k}"] for k in k_values}

    return RetrievalScores(_per_query(values, k_values), group("NDCG"), group("MAP"), group("Recall"), group("P"),
                           group("MRR"), group("HitRate"))
