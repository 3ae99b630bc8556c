"""RankLib's NDCG@k (a Java jar, not on PyPI) as golden cases from its source.

RankLib metric/NDCGScorer.java: IDCG from the ranked list's own labels sorted descending, cut at
size = min(k, list size), ideal <= 0 -> 0; DCGScorer.java: gain (1 << r) - 1, discount 1/log2(i + 2) for
0-based i, k = 10 by default. The list is the model's ranking of the given documents (a stable sort).
"""

from __future__ import annotations

import math

import pytest
from peerdata import rf_values

G = {g: (1 << g) - 1 for g in range(5)}
D = [0.0] + [1 / math.log2(i + 1) for i in range(1, 14)]


def test_ideal_from_the_list_labels_only():
    qrels = {"q": {"a": 2, "c": 1, "z": 4}}  # z is judged but not in the list: not in RankLib's ideal
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    dcg = G[2] * D[1] + G[0] * D[2] + G[1] * D[3]
    idcg = G[2] * D[1] + G[1] * D[2]
    assert rf_values("ranklib", qrels, run)["q"] == pytest.approx(dcg / idcg)


def test_default_k_is_10_and_ties_keep_input_order():
    docs = {f"d{i:02d}": 1.0 for i in range(12)}  # all tied: the list order is the input order
    qrels = {"q": {"d10": 1, "d00": 0}}
    assert rf_values("ranklib", qrels, {"q": docs})["q"] == 0.0  # d10 is 11th, beyond NDCG@10
    assert rf_values("ranklib@11", qrels, {"q": docs})["q"] == pytest.approx(D[11] / D[1])


def test_zero_ideal_is_zero():
    assert rf_values("ranklib", {"q": {"a": 0}}, {"q": {"a": 1.0, "b": 0.5}})["q"] == 0.0
