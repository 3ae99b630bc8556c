"""TF-Ranking's NDCGMetric (not installed here: it needs TensorFlow) as golden cases from its source.

tensorflow/ranking metrics_impl.py: _prepare_and_validate_params masks labels < 0 (utils.is_label_valid)
and pushes them last; NDCGMetric: gain 2^label - 1, discount ln 2 / log1p(rank), topn cuts DCG and IDCG,
divide_no_nan (0 for a zero ideal); utils.sort_by_scores: scores cast to float32, ties shuffled without a
seed. Batches of lists of unequal length are padded with label -1: the preset's negative=drop.
"""

from __future__ import annotations

import math

import pytest
from peerdata import rf_values

G = {g: 2.0**g - 1 for g in range(4)}
D = [0.0] + [math.log(2) / math.log1p(i) for i in range(1, 10)]


def test_padding_labels_are_dropped_before_ranking():
    """n (label -1, the padding label) scores highest but is masked: a, b, c are ranks 1..3."""
    qrels = {"q": {"a": 2, "n": -1, "b": 0, "c": 1}}
    run = {"q": {"n": 3.0, "a": 2.0, "b": 1.0, "c": 0.5}}
    dcg = G[2] * D[1] + G[0] * D[2] + G[1] * D[3]
    idcg = G[2] * D[1] + G[1] * D[2]
    assert rf_values("tf_ranking", qrels, run)["q"] == pytest.approx(dcg / idcg)
    assert rf_values("tf_ranking@2", qrels, run)["q"] == pytest.approx((G[2] * D[1]) / idcg)
    # keeping n in place (negative=zero) would push every doc down one rank:
    assert rf_values("tf_ranking negative=zero", qrels, run)["q"] != pytest.approx(dcg / idcg)


def test_zero_ideal_is_zero():
    qrels, run = {"q": {"a": 0, "n": -1}}, {"q": {"a": 1.0, "n": 2.0}}
    assert rf_values("tf_ranking", qrels, run)["q"] == 0.0


def test_float32_ties_are_shuffled():
    """1.0 + 1e-9 and 1.0 tie in float32 and are shuffled: either order is a TF-Ranking value."""
    qrels, run = {"q": {"a": 0, "b": 1}}, {"q": {"a": 1.0 + 1e-9, "b": 1.0}}
    orders = {0.0, G[1] * D[1] / (G[1] * D[1])}  # b second or first, at @1
    assert rf_values("tf_ranking@1", qrels, run)["q"] in orders
    values = {rf_values(f"tf_ranking@1 ties=random({seed})", qrels, run)["q"] for seed in range(20)}
    assert values == orders
