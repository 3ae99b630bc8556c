"""`torchmetrics.NAME[@top_k]` (dialects/torchmetrics.py) against torchmetrics 1.9.0's retrieval module itself,
per query (its functional form on each row, as arrays.py feeds it) and in the mean (its class over all rows with
`indexes`), on peerdata's random cases: tied scores, scores equal only in float32, unjudged docs, queries on one
side only. Targets are binary (grade >= 1), as every class but NDCG requires.
"""

from __future__ import annotations

import pytest
from peerdata import close, random_case, require

import rankflavor as rf
from rankflavor import SpecError
from rankflavor.dialects.arrays import query_rows
from rankflavor.flavor import parse_spec

torch = require("torch")
require("torchmetrics")
from torchmetrics.functional.retrieval import retrieval_hit_rate  # noqa: E402
from torchmetrics.retrieval import RetrievalHitRate, RetrievalNormalizedDCG  # noqa: E402


def binary(qrels):
    return {q: {d: int(g >= 1) for d, g in docs.items()} for q, docs in qrels.items()}


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("k", [1, 3, 10])
def test_hit_rate_matches(seed, k):
    case = random_case(seed)
    qrels = binary(case.qrels)
    rows = query_rows(qrels, case.run)
    for name in ("RetrievalHitRate", "retrieval_hit_rate"):
        spec = f"torchmetrics.{name}@{k}"
        result = rf.evaluate(qrels, case.run, spec).results[0]
        ours = {row["query"]: row["value"] for row in result.per_query()}
        assert {r.query for r in rows} == {q for q, v in ours.items() if v is not None}
        for row in rows:
            theirs = float(retrieval_hit_rate(torch.tensor(row.scores), torch.tensor(row.labels).long(), top_k=k))
            assert ours[row.query] == theirs, (seed, k, row.query)
    # the class sorts all rows by `indexes` with torch's unstable sort, reordering tied docs: its mean is checked
    # on the same case with every score made distinct
    run = {q: {d: s + 0.01 * i for i, (d, s) in enumerate(docs.items())} for q, docs in case.run.items()}
    rows = query_rows(qrels, run)
    result = rf.evaluate(qrels, run, f"torchmetrics.RetrievalHitRate@{k}").results[0]
    if rows:
        metric = RetrievalHitRate(top_k=k)
        for i, row in enumerate(rows):
            metric.update(torch.tensor(row.scores), torch.tensor(row.labels).long(), torch.full((len(row.scores),), i))
        assert close(float(metric.compute()), result.mean, 1e-6)


@pytest.mark.parametrize("seed", range(10))
def test_ndcg_class_mean_matches(seed):
    case = random_case(seed, negative=False)
    rows = query_rows(case.qrels, case.run)
    if not rows:
        return
    metric = RetrievalNormalizedDCG(top_k=5)
    for i, row in enumerate(rows):
        metric.update(torch.tensor(row.scores), torch.tensor(row.labels).long(), torch.full((len(row.scores),), i))
    ours = rf.evaluate(case.qrels, case.run, "torchmetrics.RetrievalNormalizedDCG@5").results[0].mean
    assert close(float(metric.compute()), ours, 1e-6)


@pytest.mark.parametrize("name", ["RetrievalMAP", "RetrievalMRR", "retrieval_precision", "RetrievalRecall",
                                  "RetrievalFallOut", "RetrievalRPrecision", "RetrievalAUROC"])
def test_not_yet_supported_names_say_why(name):
    with pytest.raises(SpecError, match="not yet supported"):
        parse_spec(f"torchmetrics.{name}")


def test_hit_rate_needs_top_k():
    with pytest.raises(SpecError, match="write top_k as @k"):
        parse_spec("torchmetrics.RetrievalHitRate")


def test_misspelt_name_gets_a_did_you_mean():
    with pytest.raises(SpecError, match=r"did you mean torchmetrics\.RetrievalHitRate"):
        parse_spec("torchmetrics.RetrievalHitrate@5")
