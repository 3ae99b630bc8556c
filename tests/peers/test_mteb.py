"""rankflavor.mteb.evaluate against MTEB 2.26.24's retrieval scoring, replayed over the real pytrec_eval.

mteb is not installed (`import mteb` loads its models' stack: sentence-transformers, transformers, datasets); the
scoring is a function of dicts, read from embeddings-benchmark/mteb 2.26.24 and replayed step by step here:
mteb/_evaluators/retrieval_evaluator.py `RetrievalEvaluator.evaluate` (pop results whose doc id is the query id
when ignore_identical_ids), mteb/_evaluators/retrieval_metrics.py `calculate_retrieval_scores` (skip_first_result:
drop each query's top result, by score, first listed among ties; pytrec_eval `map_cut`, `ndcg_cut`, `recall`, `P`,
`success` at each k), `parse_metrics_from_scores` (each mean: the sum over pytrec_eval's queries / their number,
round(., 5)), `mrr` (results sorted by (score, doc id) descending, cut at max(k); 1/rank of the first doc whose qrels
relevance is > 0 within k; the plain mean over the results' queries).
"""

from __future__ import annotations

import copy

import pytest
from peerdata import close, random_case, require

pytrec_eval = require("pytrec_eval")
import rankflavor.mteb  # noqa: E402

K_VALUES = (1, 3, 5, 10, 100)
PYTREC = {"NDCG": "ndcg_cut", "MAP": "map_cut", "Recall": "recall", "P": "P", "HitRate": "success"}


def mteb_scores(qrels, results, k_values, ignore_identical_ids=False, skip_first_result=False):
    """(per-query pytrec_eval scores, {name@k: mean}) as mteb 2.26.24 computes them (see the module's docstring)."""
    results = copy.deepcopy(results)
    if ignore_identical_ids:
        for qid, docs in results.items():
            docs.pop(qid, None)
    if skip_first_result:
        results = {q: dict(sorted(d.items(), key=lambda item: item[1], reverse=True)[1:]) for q, d in results.items()}
    measures = {f"{m}." + ",".join(map(str, k_values)) for m in PYTREC.values()}
    scores = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(results)
    means = {f"{name}@{k}": round(sum(s[f"{key}_{k}"] for s in scores.values()) / len(scores), 5)
             for name, key in PYTREC.items() for k in k_values}
    rr: dict[int, list[float]] = {k: [] for k in k_values}
    for q, docs in results.items():
        ranked = sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True)[: max(k_values)]
        relevant = {d for d, g in qrels[q].items() if g > 0}
        for k in k_values:
            first = next((i for i, (d, _) in enumerate(ranked[:k]) if d in relevant), None)
            rr[k].append(0.0 if first is None else 1.0 / (first + 1))
    means.update({f"MRR@{k}": sum(v) / len(v) for k, v in rr.items()})
    return scores, means


def judged_case(seed: int):
    """A random case whose run queries are all judged (MTEB's mrr reads qrels[query] for each), some retrieving
    their own id."""
    case = random_case(seed)
    case.run = {q: docs for q, docs in case.run.items() if q in case.qrels}
    for i, q in enumerate(case.run):
        if i % 2 == 0:
            case.run[q] = {q: 5.0, **case.run[q]}
    return case


def fitting_case(seed: int, ignore: bool):
    """The first judged case from `seed` on (seeds seed, seed + 1000, ...) with a run query, none left empty by the
    identical-id pop when `ignore` (MTEB's scoring divides by the queries it scores)."""
    for attempt in range(50):
        case = judged_case(seed + 1000 * attempt)
        if case.run and not (ignore and not all(len(d) > 1 for d in case.run.values())):
            return case
    raise AssertionError(f"no fitting case from seed {seed}")


@pytest.mark.parametrize("seed", range(15))
@pytest.mark.parametrize(("ignore", "skip"), [(False, False), (True, False), (False, True), (True, True)])
def test_mteb_retrieval_scores(seed, ignore, skip):
    case = fitting_case(seed, ignore)
    scores, means = mteb_scores(case.qrels, case.run, K_VALUES, ignore, skip)
    ours = rankflavor.mteb.evaluate(case.qrels, case.run, list(K_VALUES), ignore, skip)
    got = {**ours.ndcg, **ours.map, **ours.recall, **ours.precision, **ours.hit_rate, **ours.mrr}
    for name, value in means.items():
        assert close(got[name], value, 1e-12), (seed, name, got[name], value)
    assert set(ours.all_scores) == set(scores)
    for q, values in scores.items():
        for key, value in values.items():
            assert close(ours.all_scores[q][key], value), (seed, q, key)


def test_the_flavor_family_changes_ndcg_only():
    case = judged_case(3)
    plain = rankflavor.mteb.evaluate(case.qrels, case.run, [3, 10])
    exp2 = rankflavor.mteb.evaluate(case.qrels, case.run, [3, 10], flavor="ndcg gain=exp2")
    assert plain.ndcg != exp2.ndcg and plain.map == exp2.map and plain.mrr == exp2.mrr
    assert str(exp2.ndcg["NDCG@10"].flavor).startswith("ndcg@10 gain=exp2 ")
