"""Spark's RankingMetrics.ndcgAt(k) (pyspark is not in the peers extra) as golden cases from its source.

apache/spark mllib/.../evaluation/RankingMetrics.scala, ndcgAt with a relevance array (Spark >= 3.4):
n = min(max(|pred|, |lab|), k); dcg adds (2^rel(pred_i) - 1)/ln(i + 2) for i < |pred|; maxDcg adds
(2^rel(lab_i) - 1)/ln(i + 2) for i < |lab|, in the caller's label order; maxDcg 0 -> 0. The preset feeds
it from rankflavor.dialects.arrays.spark_inputs (run ids by score, judged ids by grade descending).
"""

from __future__ import annotations

import math

import pytest
from peerdata import rf_values

from rankflavor.dialects.arrays import spark_inputs


def ndcg_at(pred, lab, rel, k):
    """RankingMetrics.ndcgAt for one query, transcribed from the Scala loop."""
    rel_map = dict(zip(lab, rel, strict=True))
    n = min(max(len(pred), len(set(lab))), k)
    dcg = sum((2.0 ** rel_map.get(pred[i], 0.0) - 1) / math.log(i + 2) for i in range(n) if i < len(pred))
    max_dcg = sum((2.0 ** rel_map.get(lab[i], 0.0) - 1) / math.log(i + 2) for i in range(n) if i < len(set(lab)))
    return 0.0 if max_dcg == 0 else dcg / max_dcg


QRELS = {"q1": {"c": 3, "a": 2, "d": 1, "n": -1}, "q2": {"e": 0}, "q3": {"f": 1}}
RUN = {"q1": {"a": 3.0, "x": 2.0, "c": 1.0, "n": 0.5}, "q2": {"e": 1.0}, "q3": {"g": 2.0, "f": 2.0}}


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_ndcg_at_k(k):
    ours = rf_values(f"spark@{k}", QRELS, RUN)
    for query, pred, lab, rel in spark_inputs(QRELS, RUN):
        assert ours[query] == pytest.approx(ndcg_at(pred, lab, rel, k), abs=1e-12), (query, k)


def test_hand_worked_value():
    """q1 @2: pred a, x; labels c(3), a(2): dcg 3/ln 2; maxDcg 7/ln 2 + 3/ln 3."""
    expected = (3 / math.log(2)) / (7 / math.log(2) + 3 / math.log(3))
    assert rf_values("spark@2", QRELS, RUN)["q1"] == pytest.approx(expected)


def test_k_is_required_and_unsorted_labels_are_outside_the_preset():
    from rankflavor import Flavor, SpecError

    with pytest.raises(SpecError, match="needs a cutoff"):
        Flavor.parse("spark")
    # labels in qrels order d(1), a(2), c(3) instead of by grade: a smaller maxDcg, a value the preset never gives
    unsorted = ndcg_at(["a", "x"], ["d", "a", "c"], [1, 2, 3], 2)
    assert unsorted > rf_values("spark@2", QRELS, RUN)["q1"]


def test_binary_mode_is_what_pyspark_gives():
    """pyspark 4.0.5, run once by hand: RankingMetrics([(["a", "x", "c"], ["c", "a", "d"], [3.0, 2.0, 1.0])])
    .ndcgAt(2) printed 0.6131471927654584, the binary value: every id in lab has gain 1 (the relevance array
    does not reach the JVM from Python). With lab = the relevant ids, that is the preset with a 0/1 gain table."""
    assert ndcg_at(["a", "x", "c"], ["c", "a", "d"], [1.0, 1.0, 1.0], 2) == pytest.approx(0.6131471927654584)
    qrels, run = {"q": {"c": 3, "a": 2, "d": 1, "b": 0}}, {"q": {"a": 3.0, "x": 2.0, "c": 1.0}}
    binary = rf_values("spark@2 gain={0:0,1:1,2:1,3:1}", qrels, run)["q"]
    assert binary == pytest.approx(0.6131471927654584)
