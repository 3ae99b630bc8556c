"""A record of a query with more ranked rows than RANKED_ROWS_SHOWN lists the ranks down to it, every judged row
and every row tied with one the metric reads, and counts the rest (report/records.py `shown_rows`): `explain` on
a query of 5M documents built a dict per row (4 GB, 35 s)."""

from __future__ import annotations

import numpy as np
import pandas as pd

import rankflavor as rf
from rankflavor.report import records


def test_a_huge_query_lists_what_matters_and_counts_the_rest(monkeypatch) -> None:
    monkeypatch.setattr(records, "RANKED_ROWS_SHOWN", 1_000)
    n = 5_000
    rng = np.random.default_rng(7)
    scores = np.round(rng.random(n), 2)  # (ties: 101 distinct scores)
    run = pd.DataFrame({"query": "q1", "doc": [f"d{i}" for i in range(n)], "score": scores})
    judged = {f"d{i}": i % 3 for i in range(0, n, 250)}
    record = rf.explain({"q1": judged}, run, "q1", "ndcg@10")
    full = rf.evaluate({"q1": judged}, run, "ndcg@10").results[0].mean
    assert record.value == full
    ranks = [row["rank"] for row in record.ranked]
    assert ranks == sorted(ranks) and ranks[:1_000] == list(range(1, 1_001))
    deep = [row for row in record.ranked if row["rank"] > 1_000]
    top_groups = {row["tie_group"] for row in record.ranked if row["rank"] <= 10}
    assert all(row["judged"] or row["tie_group"] in top_groups for row in deep)
    assert sum(row["judged"] for row in record.ranked) == len(judged)
    assert record.ranked_omitted == n - len(record.ranked) > 0
    assert record.to_dict()["ranked_omitted"] == record.ranked_omitted


def test_a_query_within_the_bound_lists_every_row() -> None:
    run = pd.DataFrame({"query": "q1", "doc": [f"d{i}" for i in range(50)], "score": np.arange(50.0)})
    record = rf.explain({"q1": {"d3": 1}}, run, "q1", "ndcg@5")
    assert len(record.ranked) == 50 and record.ranked_omitted == 0 and "ranked_omitted" not in record.to_dict()
