"""scikit-learn's ndcg_score, fed through rankflavor.dialects.arrays, against the `sklearn` preset.

Each query is one call `ndcg_score([labels], [scores], k=k)` (rows of different lengths cannot share one
2-D array). ndcg_score raises ValueError on a row of one document and on a negative label: such rows are
checked to raise, not compared.
"""

from __future__ import annotations

import numpy as np
import pytest
from peerdata import close, random_case, require, rf_values

import rankflavor as rf
from rankflavor.dialects.arrays import query_rows

require("sklearn")
from sklearn.metrics import ndcg_score  # noqa: E402

SEEDS = range(25)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", [None, 1, 3, 10])
def test_ndcg_score_matches(seed, k):
    case = random_case(seed, negative=False, fractional=True)
    ours = rf_values("sklearn" if k is None else f"sklearn@{k}", case.qrels, case.run)
    rows = query_rows(case.qrels, case.run)
    assert {r.query for r in rows} == {q for q, v in ours.items() if v is not None}
    for row in rows:
        if len(row.docs) == 1:
            with pytest.raises(ValueError, match="more than 1 document"):
                ndcg_score([row.labels], [row.scores], k=k)
            continue
        theirs = ndcg_score([row.labels], [row.scores], k=k)
        assert close(ours[row.query], theirs), f"seed {seed} k={k} {row.query}: {ours[row.query]} vs {theirs}"


def test_negative_label_is_an_error_on_both_sides():
    qrels, run = {"q": {"a": -1, "b": 1}}, {"q": {"a": 1.0, "b": 0.5}}
    row = query_rows(qrels, run)[0]
    with pytest.raises(ValueError, match="negative"):
        ndcg_score([row.labels], [row.scores])
    with pytest.raises(rf.EvaluationError, match="negative=error"):
        rf.evaluate(qrels, run, "sklearn@5")


def test_ties_are_averaged_not_broken():
    """Two tied docs, grades 0 and 1: sklearn averages the two orders. A tie-breaking flavor would not."""
    qrels, run = {"q": {"a": 0, "b": 1, "c": 0}}, {"q": {"a": 1.0, "b": 1.0, "c": 0.0}}
    row = query_rows(qrels, run)[0]
    theirs = ndcg_score([row.labels], [row.scores], k=1)
    assert theirs == pytest.approx(0.5)
    assert rf_values("sklearn@1", qrels, run)["q"] == pytest.approx(theirs)
    assert rf_values("sklearn@1 ties=input", qrels, run)["q"] == 0.0


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [None, 3])
def test_sample_weight_is_weights(seed, k, tmp_path):
    """ndcg_score(..., sample_weight=w) is the weighted mean sum(w v) / sum(w): `sklearn weights=NAME`, with
    the weights from a Python mapping or a file (`--weights NAME=FILE`)."""
    rng = np.random.default_rng(seed)
    qrels, run, weights = {}, {}, {}
    for q in range(12):  # (one 2-D call needs rows of one length: 6 docs a query)
        docs = [f"d{i}" for i in rng.choice(30, size=6, replace=False)]
        run[f"q{q}"] = {d: float(s) for d, s in zip(docs, np.round(rng.normal(size=6), 1), strict=True)}
        qrels[f"q{q}"] = {d: int(g) for d, g in zip(docs, rng.integers(0, 4, size=6), strict=True)}
        weights[f"q{q}"] = float(rng.integers(1, 20))
    rows = query_rows(qrels, run)
    theirs = ndcg_score([r.labels for r in rows], [r.scores for r in rows], k=k,
                        sample_weight=[weights[r.query] for r in rows])
    spec = ("sklearn" if k is None else f"sklearn@{k}") + " weights=traffic"
    report = rf.evaluate(qrels, run, spec, weights={"traffic": weights})
    assert close(report.mean(), theirs)
    path = tmp_path / "traffic.txt"
    path.write_text("# query weights\n" + "".join(f"{q}\t{w}\n" for q, w in weights.items()))
    assert close(rf.evaluate(qrels, run, spec, weights={"traffic": path}).mean(), theirs)
    assert report.verify() == []
    unweighted = ndcg_score([r.labels for r in rows], [r.scores for r in rows], k=k)
    assert close(rf.evaluate(qrels, run, spec.replace(" weights=traffic", "")).mean(), unweighted)
