"""Elasticsearch/OpenSearch rank_eval `dcg` (a search engine, not installable as a library) as golden cases.

elastic/elasticsearch modules/rank-eval/.../DiscountedCumulativeGain.java: the search returns at most k hits
(forcedSearchSize = k, default 10); computeDCG adds (2^rating - 1)/(ln(rank + 1)/ln 2) for rated hits and
skips unrated ones without moving the later ranks (unknown_doc_rating null); with normalize=true the IDCG
is the DCG of all rated docs of the request sorted descending, cut at min(number of hits, number of
ratings); idcg 0 -> 0. The default metric reports raw DCG (normalize=false).
"""

from __future__ import annotations

import math

import pytest
from peerdata import rf_values

G = {g: 2.0**g - 1 for g in range(-1, 5)}
D = [0.0] + [math.log(2) / math.log(i + 1) for i in range(1, 14)]


def test_raw_dcg_skips_unrated_hits_in_place():
    qrels = {"q": {"a": 3, "c": 1, "z": 2}}
    run = {"q": {"a": 3.0, "u": 2.0, "c": 1.0}}
    assert rf_values("elastic", qrels, run)["q"] == pytest.approx(G[3] * D[1] + G[1] * D[3])


def test_normalized_ideal_is_cut_at_the_hit_count():
    qrels = {"q": {"a": 1, "c": 3, "z": 2, "y": 1}}
    run = {"q": {"a": 3.0, "c": 1.0}}  # two hits: IDCG from the two best ratings, 3 and 2
    dcg = G[1] * D[1] + G[3] * D[2]
    idcg = G[3] * D[1] + G[2] * D[2]
    assert rf_values("elastic.ndcg", qrels, run)["q"] == pytest.approx(dcg / idcg)
    assert rf_values("elastic.ndcg ideal_depth=k", qrels, run)["q"] < dcg / idcg


def test_negative_ratings_are_negative_gains_and_k_is_10():
    docs = {f"d{i:02d}": float(20 - i) for i in range(12)}
    qrels = {"q": {"d00": -1, "d11": 3}}
    assert rf_values("elastic", qrels, {"q": docs})["q"] == pytest.approx(G[-1] * D[1])  # d11 is 12th: beyond k
