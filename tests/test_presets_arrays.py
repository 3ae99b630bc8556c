"""The mapping from qrels + run to array peers' inputs (rankflavor.dialects.arrays), and the ideal it implies."""

from __future__ import annotations

import numpy as np
import pytest

import rankflavor as rf
from rankflavor.dialects.arrays import query_rows, spark_inputs, stack

QRELS = {"q1": {"a": 2, "b": 0, "c": 1, "z": 3}, "q2": {"x": 1}, "q3": {"y": -1, "w": 1}}
RUN = {"q3": {"y": 0.5, "w": 0.5, "v": 2.0}, "q1": {"b": 1.0, "u": 3.0, "a": 1.0}, "q9": {"a": 1.0}}


def test_one_row_per_query_in_both_in_run_order():
    rows = query_rows(QRELS, RUN)
    assert [r.query for r in rows] == ["q3", "q1"]  # q2 missing from the run, q9 not judged
    q3, q1 = rows
    assert q1.docs == ("b", "u", "a")  # run-file order, not score order
    assert q1.labels.tolist() == [0.0, 0.0, 2.0]  # unjudged 'u' gets 0; judged 'z', 'c' not returned: no entry
    assert q1.scores.tolist() == [1.0, 3.0, 1.0]
    assert q1.judged.tolist() == [True, False, True]
    assert q3.labels.tolist() == [-1.0, 1.0, 0.0]  # negative grades pass through: each peer decides


def test_stack_groups():
    s = stack(query_rows(QRELS, RUN))
    assert s.group_sizes.tolist() == [3, 3]
    assert s.group_ids.tolist() == [0, 0, 0, 1, 1, 1]
    assert s.queries == ("q3", "q1")
    assert len(s.labels) == len(s.scores) == 6


def test_trec_files_map_the_same_way(tmp_path):
    qrels_path, run_path = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()))
    run_path.write_text("".join(f"{q} Q0 {d} {i} {s} t\n" for q, docs in RUN.items()
                                for i, (d, s) in enumerate(docs.items(), 1)))
    from_files = query_rows(str(qrels_path), str(run_path))
    from_dicts = query_rows(QRELS, RUN)
    assert [(r.query, r.docs, r.labels.tolist(), r.scores.tolist()) for r in from_files] == \
        [(r.query, r.docs, r.labels.tolist(), r.scores.tolist()) for r in from_dicts]


def test_the_mapping_is_what_ideal_local_means():
    """NDCG of the rows computed by hand (input-order ties, exp2) equals the lightgbm preset."""
    qrels = {"q1": QRELS["q1"]}
    for row in query_rows(qrels, RUN):
        order = sorted(range(len(row.docs)), key=lambda i: -row.scores[i])  # stable: input order on ties
        gains = 2.0 ** row.labels - 1
        disc = 1 / np.log2(np.arange(2, len(order) + 2))
        dcg = float((gains[order][:3] * disc[:3]).sum())
        idcg = float((np.sort(gains)[::-1][:3] * disc[:3]).sum())
        assert rf.evaluate(qrels, RUN, "lightgbm@3").value(row.query) == pytest.approx(dcg / idcg, rel=1e-12)
    # with the judged-but-not-returned docs ('z' grade 3) in the ideal, the value would be lower:
    assert rf.evaluate(qrels, RUN, "lightgbm@3 ideal=global").value("q1") < rf.evaluate(qrels, RUN, "lightgbm@3").value("q1")


def test_spark_inputs_rank_order_and_labels_by_grade():
    (q3, pred3, lab3, _), (q1, pred1, lab1, rel1) = spark_inputs(QRELS, RUN)
    assert (q3, q1) == ("q3", "q1")
    assert pred1 == ["u", "b", "a"]  # score desc, ties in run-file order
    assert lab1 == ["z", "a", "c", "b"] and rel1 == [3, 2, 1, 0]
    assert pred3 == ["v", "y", "w"] and lab3 == ["w", "y"]
