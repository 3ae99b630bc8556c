"""BEIR's `EvaluateRetrieval.evaluate(qrels, results, k_values, ignore_identical_ids=True)` on rankflavor's engine:
BEIR's four dicts (`NDCG@k`, `MAP@k`, `Recall@k`, `P@k`, means rounded to 5 decimals), each value a float that
carries its flavor; `flavor=` for another NDCG flavor family.

    import rankflavor.beir
    ndcg, _map, recall, precision = rankflavor.beir.evaluate(qrels, results, [1, 10, 100])
    ndcg["NDCG@10"].flavor                      # beir@10: ndcg@10 ... precision=f32 self_docs=drop round=5
    rankflavor.beir.evaluate(qrels, results, [10], flavor="ndcg gain=exp2")   # another NDCG, the rest BEIR's

The body is rankflavor/adapters/beir_evaluation.py (beir itself is never imported: its evaluate is a function of
dicts; docs/beir.md).
"""

from rankflavor.adapters.beir_evaluation import BEIR_VERSION, beir_flavors, evaluate

__all__ = ["BEIR_VERSION", "beir_flavors", "evaluate"]
