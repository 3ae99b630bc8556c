"""torchmetrics' retrieval_normalized_dcg (per query, CPU torch) against the `torchmetrics` preset.

torchmetrics casts predictions to float32 and computes in float32 (functional/retrieval/ndcg.py,
utilities/checks.py): values agree to about 1e-6, not 1e-9. Ties are averaged as in scikit-learn. A row
whose IDCG is negative (only negative grades) is divided anyway, where rankflavor applies `empty`: those
rows are checked apart.
"""

from __future__ import annotations

import pytest
from peerdata import close, random_case, require, rf_values

from rankflavor.dialects.arrays import query_rows

torch = require("torch")
require("torchmetrics")
from torchmetrics.functional.retrieval import retrieval_normalized_dcg  # noqa: E402

SEEDS = range(20)


def peer(row, k):
    return float(retrieval_normalized_dcg(torch.tensor(row.scores), torch.tensor(row.labels), top_k=k))


def negative_ideal(row) -> bool:
    return row.labels.max() <= 0 and row.labels.min() < 0


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", [None, 1, 3, 10])
def test_torchmetrics_matches(seed, k):
    case = random_case(seed, fractional=True)
    ours = rf_values("torchmetrics" if k is None else f"torchmetrics@{k}", case.qrels, case.run)
    rows = query_rows(case.qrels, case.run)
    assert {r.query for r in rows} == {q for q, v in ours.items() if v is not None}
    for row in rows:
        if negative_ideal(row):
            continue  # see test_negative_ideal_is_divided
        assert close(ours[row.query], peer(row, k), 1e-6), f"seed {seed} k={k} {row.query}"


def test_negative_ideal_is_divided():
    qrels, run = {"q": {"a": -1, "b": 0}}, {"q": {"a": 1.0, "b": 0.5}}
    row = query_rows(qrels, run)[0]
    assert peer(row, None) == pytest.approx(1 / 0.63092975, rel=1e-6)  # DCG -1, IDCG -1/log2(3)
    assert rf_values("torchmetrics", qrels, run)["q"] == 0.0  # zero_ideal -> empty=zero


def test_float32_ties_are_averaged():
    qrels, run = {"q": {"a": 0, "b": 1}}, {"q": {"a": 1.0 + 1e-9, "b": 1.0}}
    row = query_rows(qrels, run)[0]
    assert peer(row, 1) == pytest.approx(0.5) == rf_values("torchmetrics@1", qrels, run)["q"]
    assert rf_values("torchmetrics@1 precision=f64", qrels, run)["q"] == 0.0
