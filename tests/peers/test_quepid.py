"""Quepid's nDCG@10 and NDCG_CUT@10 scorers (JavaScript in a web application) as golden cases.

o19s/quepid db/scorers/ndcg@10.js: DCG of the top 10 results, (2^rating - 1)/log2(i + 2) with unrated
results 0; IDCG over every rated doc of the query sorted descending, not cut (DCG(ideal, ideal.length)).
db/scorers/ndcg_cut@10.js: IDCG over topRatings(10). A zero IDCG gives 0.
"""

from __future__ import annotations

import math

import pytest
from peerdata import rf_values

D = [0.0] + [1 / math.log2(i + 1) for i in range(1, 20)]


def test_uncut_ideal_versus_cut_ideal():
    docs = {f"d{i:02d}": float(20 - i) for i in range(12)}
    qrels = {"q": {d: 1 for d in docs}}  # 12 rated docs, all returned; the top 10 are all relevant
    dcg = sum(D[i] for i in range(1, 11))
    assert rf_values("quepid", qrels, {"q": docs})["q"] == pytest.approx(dcg / sum(D[i] for i in range(1, 13)))
    assert rf_values("quepid.cut", qrels, {"q": docs})["q"] == pytest.approx(1.0)


def test_negative_ratings_stay_in_the_uncut_ideal():
    qrels = {"q": {"a": 2, "b": -1}}
    run = {"q": {"a": 1.0, "x": 0.5}}
    idcg = 3 * D[1] + (2.0**-1 - 1) * D[2]
    assert rf_values("quepid", qrels, run)["q"] == pytest.approx(3 * D[1] / idcg)
