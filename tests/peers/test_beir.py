"""BEIR's EvaluateRetrieval.evaluate against the `beir` preset, through the real pytrec_eval.

beir itself is not installed (it pulls in sentence-transformers and model downloads); its evaluate() is
three steps around pytrec_eval (beir/retrieval/evaluation.py), replayed here: pop run docs whose id equals
the query id (ignore_identical_ids=True), pytrec_eval ndcg_cut.k, round(sum / len(scores), 5).
"""

from __future__ import annotations

import copy

import pytest
from peerdata import close, random_case, require, rf_mean, rf_values

pytrec_eval = require("pytrec_eval")

K_VALUES = (1, 3, 5, 10, 100, 1000)


def beir_evaluate(qrels, results, k_values=K_VALUES):
    results = copy.deepcopy(results)
    for qid, rels in results.items():
        for pid in list(rels):
            if qid == pid:
                results[qid].pop(pid)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut." + ",".join(map(str, k_values))})
    scores = evaluator.evaluate(results)
    means = {k: round(sum(s[f"ndcg_cut_{k}"] for s in scores.values()) / len(scores), 5) for k in k_values}
    return means, scores


def with_self_docs(case):
    """Give some run queries their own id as a document (BEIR corpora where queries are documents too)."""
    for i, q in enumerate(case.run):
        if i % 2 == 0:
            case.run[q] = {q: 5.0, **case.run[q]}
            if q in case.qrels and i % 4 == 0:
                case.qrels[q][q] = 3
    return case


@pytest.mark.parametrize("seed", range(20))
def test_beir_means_and_per_query(seed):
    case = with_self_docs(random_case(seed))
    if not any(q in case.qrels for q in case.run):
        pytest.skip("no judged run query (BEIR would divide by zero)")
    means, scores = beir_evaluate(case.qrels, case.run)
    assert [f.cutoff for f in __import__("rankflavor").parse_spec("beir")] == list(K_VALUES)
    for k in K_VALUES:
        assert rf_mean(f"beir@{k}", case.qrels, case.run) == means[k], f"seed {seed} @{k}"
        raw = rf_values(f"beir@{k}", case.qrels, case.run, raw=True)  # BEIR rounds only the mean
        for q, s in scores.items():
            assert close(raw[q], s[f"ndcg_cut_{k}"]), f"seed {seed} @{k} {q}"


def test_identical_ids_are_dropped():
    qrels, run = {"q1": {"q1": 1, "d": 1}}, {"q1": {"q1": 9.0, "x": 2.0, "d": 1.0}}
    means, _ = beir_evaluate(qrels, run, (1,))
    assert means[1] == 0.0 == rf_mean("beir@1", qrels, run)
    assert rf_mean("beir@1 self_docs=keep", qrels, run) == 1.0
