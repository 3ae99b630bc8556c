"""MTEB's retrieval scores (mteb 2.26.24 `RetrievalEvaluator.evaluate`) on rankflavor's engine: NDCG, MAP, recall,
precision, hit rate and MRR at each k, as MTEB computes them, each mean a float that carries its flavor; `flavor=`
for another NDCG flavor family.

    import rankflavor.mteb
    scores = rankflavor.mteb.evaluate(qrels, results, [1, 10, 100])        # ignore_identical_ids, skip_first_result
    scores.ndcg["NDCG@10"], scores.mrr["MRR@10"], scores.all_scores["q1"]["ndcg_cut_10"]

The body is rankflavor/adapters/mteb_scores.py (mteb is never imported; docs/beir.md says where MTEB computes
these and how this was checked).
"""

from rankflavor.adapters.mteb_scores import MTEB_VERSION, RetrievalScores, evaluate, mteb_flavors, skip_first

__all__ = ["MTEB_VERSION", "RetrievalScores", "evaluate", "mteb_flavors", "skip_first"]
