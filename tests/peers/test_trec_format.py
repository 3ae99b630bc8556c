"""`rankflavor eval QRELS RUN -m trec_eval --format trec` against pytrec_eval's numbers, formatted as trec_eval
prints them (%6.4f), on cases whose scores float32 keeps apart (trec_eval 10.0 compares in double)."""

from __future__ import annotations

import pytest
from peerdata import random_case, require

from rankflavor.cli.main import main

pytrec_eval = require("pytrec_eval")

CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


@pytest.mark.parametrize("seed", range(5))
def test_trec_format_matches_pytrec_eval(seed, tmp_path, capsys):
    case = random_case(seed, f32_distinct=True, max_docs=40)
    qrels_path, run_path = case.write(tmp_path)
    assert main(["eval", str(qrels_path), str(run_path), "-m", "trec_eval", "--format", "trec", "--per-query"]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    ours = {(name.strip(), query): value for name, query, value in lines}
    scores = pytrec_eval.RelevanceEvaluator(case.qrels, {"ndcg_cut." + ",".join(map(str, CUTOFFS))}).evaluate(case.run)
    expected = {}
    for k in CUTOFFS:
        for query, measures in scores.items():
            expected[(f"ndcg_cut_{k}", query)] = f"{measures[f'ndcg_cut_{k}']:6.4f}"
        if scores:
            expected[(f"ndcg_cut_{k}", "all")] = f"{sum(m[f'ndcg_cut_{k}'] for m in scores.values()) / len(scores):6.4f}"
    assert ours == expected
