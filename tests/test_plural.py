"""Counts in messages agree with their noun: one query has, two queries have (rankflavor/plural.py)."""

from __future__ import annotations

import rankflavor as rf
from rankflavor.plural import counted


def test_counted_picks_the_singular_for_one_only() -> None:
    assert [counted(n, "query has", "queries have") for n in (0, 1, 2)] == [
        "0 queries have", "1 query has", "2 queries have"]


def test_one_extra_column_line_one_missing_query_and_one_tie_read_in_the_singular(tmp_path) -> None:
    (tmp_path / "q.txt").write_text("q1 0 A 1\nq1 0 B 0\nq2 0 A 1\n")
    (tmp_path / "r.run").write_text("q1 Q0 A 1 1 X\nq1 Q0 B 2 1 X\nq1 Q0 C 3 0 X extra\n")
    report = rf.evaluate(str(tmp_path / "q.txt"), str(tmp_path / "r.run"), "ndcg@1")
    said = " | ".join([*report.provenance["input_warnings"], *report.result("r.run", "ndcg@1").warnings])
    for phrase in ("1 line has columns after the sixth", "1 judged query is absent from the run",
                   "1 query has tied scores across the cutoff @1", "missing=skip leaves it out of the mean"):
        assert phrase in said, (phrase, said)
    assert "1 queries" not in said and "1 lines" not in said


def test_a_swapped_run_of_one_row_counts_in_the_singular(tmp_path) -> None:
    import pytest

    (tmp_path / "q.txt").write_text("q1 0 A 1\n")
    (tmp_path / "r.run").write_text("A Q0 q1 1 2 X\n")
    with pytest.raises(rf.InputError) as caught:
        rf.evaluate(str(tmp_path / "q.txt"), str(tmp_path / "r.run"), "ndcg@1")
    assert "1 of its 1 query id is a doc id of the qrels, 1 of its 1 doc id is a query id" in str(caught.value)
