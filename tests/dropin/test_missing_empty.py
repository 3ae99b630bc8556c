"""missing=empty (trec_eval -c: a qrels query absent from the run is scored on trec_eval.c's bogus ranking, emptied)
through the library's `trec_eval.NAME` names, against what C trec_eval 10.0 printed with -c -q
(c_outputs/trec/missing_c.out, written by record_c.py): every query's value, the two the run lacks included (their
num_rel is their judged relevant count, not 0), and num_rel's summary (the sum, m_num_rel.c)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trec_cases import HERE, OUTPUTS

import rankflavor

QRELS, RUN = HERE / "inputs" / "graded.qrels", HERE / "inputs" / "missing.run"
NAMES = ("num_rel", "num_ret", "num_rel_ret", "map", "Rprec", "bpref", "recip_rank", "P_10", "recall_10",
         "ndcg", "ndcg_cut_5", "iprec_at_recall_0.00", "infAP", "set_F", "success_1")


def _printed() -> dict[tuple[str, str], str]:
    """(measure, query) -> the value as C trec_eval printed it."""
    lines = (OUTPUTS / "missing_c.out").read_text().splitlines()
    return {(name, query): value for name, query, value in (line.split() for line in lines if len(line.split()) == 3)}


def _as_printed(value: float | None, like: str) -> str:
    value = 0.0 if value is None else value
    return f"{value:.4f}" if "." in like else str(int(value))


def test_the_run_lacks_qrels_queries():
    run_queries = {line.split()[0] for line in RUN.read_text().splitlines() if line.strip()}
    judged = {line.split()[0] for line in QRELS.read_text().splitlines() if line.strip()}
    assert judged - run_queries, "the case needs qrels queries the run lacks"


@pytest.mark.parametrize("name", NAMES)
def test_each_query_as_trec_eval_c(name):
    printed = _printed()
    result = rankflavor.evaluate(str(QRELS), str(RUN), f"trec_eval.{name} missing=empty").results[0]
    ours = {row["query"]: row["value"] for row in result.per_query()}
    theirs = {q: v for (n, q), v in printed.items() if n == name and q != "all"}
    assert theirs, name
    assert {q: _as_printed(ours.get(q), v) for q, v in theirs.items()} == theirs


def test_num_rel_summary_is_trec_eval_cs():
    result = rankflavor.evaluate(str(QRELS), str(RUN), "trec_eval.num_rel missing=empty").results[0]
    assert str(int(result.mean)) == _printed()[("num_rel", "all")]
