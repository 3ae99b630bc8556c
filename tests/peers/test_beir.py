"""BEIR's EvaluateRetrieval.evaluate against the `beir` preset and `rankflavor.beir.evaluate`.

beir 2.2.0 is installed with --no-deps (`make test`; its requirements, sentence-transformers and datasets, serve
retrieval): `EvaluateRetrieval.evaluate` itself gives the four dicts `rankflavor.beir.evaluate` must equal. It
returns only means, so the per-query values are checked by replaying its steps around the real pytrec_eval
(beir/retrieval/evaluation.py): pop run docs whose id equals the query id (ignore_identical_ids=True), pytrec_eval
ndcg_cut.k, round(sum / len(scores), 5). Another flavor family through `flavor=` is checked against ranx.
"""

from __future__ import annotations

import copy

import pytest
from peerdata import close, random_case, require, rf_mean, rf_values

pytrec_eval = require("pytrec_eval")
require("beir")
from beir.retrieval.evaluation import EvaluateRetrieval  # noqa: E402

import rankflavor.beir  # noqa: E402

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


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("ignore", [True, False])
def test_rankflavor_beir_evaluate_is_beirs(seed, ignore):
    case = with_self_docs(random_case(seed))
    if not any(q in case.qrels for q in case.run):
        pytest.skip("no judged run query (BEIR would divide by zero)")
    before = copy.deepcopy(case.run)
    ours = rankflavor.beir.evaluate(case.qrels, case.run, list(K_VALUES), ignore_identical_ids=ignore)
    assert case.run == before  # (BEIR pops from the caller's results; rankflavor does not)
    theirs = EvaluateRetrieval.evaluate(copy.deepcopy(case.qrels), copy.deepcopy(case.run), list(K_VALUES),
                                        ignore_identical_ids=ignore)
    assert [list(d) for d in ours] == [list(d) for d in theirs]
    assert ours == theirs, f"seed {seed}"
    assert str(ours[0]["NDCG@10"].flavor) == str(__import__("rankflavor").Flavor.parse(
        "beir@10" if ignore else "beir@10 self_docs=keep"))


@pytest.mark.parametrize("seed", range(10))
def test_another_flavor_family_is_ranx(seed):
    """flavor="ranx": NDCG@k is ranx's ndcg@k (BEIR's identical ids popped, rounded as BEIR does); MAP, Recall and P
    stay BEIR's. ranx takes only runs over the qrels' queries: the case is cut to the queries of both."""
    ranx = require("ranx")
    case = with_self_docs(random_case(seed))
    common = [q for q in case.run if q in case.qrels]
    if not common:
        pytest.skip("no judged run query")
    qrels = {q: case.qrels[q] for q in common}
    run = {q: {d: s for d, s in case.run[q].items() if d != q} for q in common}
    if not all(run.values()):
        pytest.skip("a query with only its own id retrieved (ranx refuses an empty ranking)")
    ours = rankflavor.beir.evaluate(qrels, run, [1, 3, 10], flavor="ranx")
    theirs = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), [f"ndcg@{k}" for k in (1, 3, 10)])
    for k in (1, 3, 10):
        assert ours[0][f"NDCG@{k}"] == round(theirs[f"ndcg@{k}"], 5), (seed, k)
    assert ours[1:] == EvaluateRetrieval.evaluate(copy.deepcopy(qrels), copy.deepcopy(run), [1, 3, 10])[1:]
