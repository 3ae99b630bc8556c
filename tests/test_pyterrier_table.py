"""PyTerrier's Experiment table (compare/pyterrier.py, `compare --table pyterrier`), worked out from pyterrier 1.1.2's
pyterrier/_evaluation/_rendering.py RenderFromPerQuery.averages: the columns and their order, the baseline's row,
the +/- counts, the p-values of scipy's paired t-test (the peer computed here: scipy.stats.ttest_rel on the per-query
values `rankflavor.evaluate` reports) and Holm's correction over the runs compared with the baseline.
tests/peers/test_pyterrier.py checks the same against pt.Experiment itself where PyTerrier is installed."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest
from scipy import stats

import rankflavor as rf
import rankflavor.compare as rc
from rankflavor.cli.main import main

RNG = np.random.default_rng(7)
QUERIES = [f"q{i}" for i in range(12)]
QRELS = {q: {f"d{j}": int(RNG.integers(0, 3)) for j in range(8)} for q in QUERIES}
RUNS = {name: {q: {f"d{j}": float(RNG.normal()) for j in range(8)} for q in QUERIES} for name in ("bm25", "dense", "rm3")}
SPECS = ["ndcg@5", "ir_measures.AP"]
SUFFIXES = (" +", " -", " p-value", " reject", " p-value corrected")


def per_query(run: str, spec: str) -> np.ndarray:
    result = rf.evaluate(QRELS, {run: RUNS[run]}, spec).results[0]
    return np.array([row["value"] for row in sorted(result.per_query(), key=lambda r: r["query"])])


def test_columns_baseline_row_counts_and_tests():
    cmp = rc.compare(QRELS, RUNS, SPECS, baseline="bm25", test="t")
    table = cmp.pyterrier_table()
    assert list(table.columns) == ["name", *SPECS, *(m + s for m in SPECS for s in SUFFIXES)]
    assert list(table.name) == ["bm25", "dense", "rm3"]
    base_row = table.iloc[0]
    assert all(math.isnan(base_row[m + s]) for m in SPECS for s in (" +", " -", " p-value", " p-value corrected"))
    assert not any(base_row[m + " reject"] for m in SPECS)
    for spec in SPECS:
        base = per_query("bm25", spec)
        p_values = {}
        for i, run in enumerate(["dense", "rm3"], start=1):
            values = per_query(run, spec)
            assert table[spec][i] == pytest.approx(values.mean(), abs=1e-12)
            assert (table[f"{spec} +"][i], table[f"{spec} -"][i]) == ((values > base).sum(), (values < base).sum())
            p_values[i] = stats.ttest_rel(values, base).pvalue
            assert table[f"{spec} p-value"][i] == pytest.approx(p_values[i], rel=1e-9)
        low, high = sorted(p_values, key=p_values.get)  # Holm over 2: min(1, 2 p_(1)), then max(that, p_(2))
        holm = {low: min(1.0, 2 * p_values[low])}
        holm[high] = max(holm[low], min(1.0, p_values[high]))
        for i in (1, 2):
            assert table[f"{spec} p-value corrected"][i] == pytest.approx(holm[i], rel=1e-9)
            assert table[f"{spec} reject"][i] == (holm[i] < 0.05)


def test_without_a_baseline_only_the_means():
    table = rc.compare(QRELS, RUNS, SPECS, test="t").pyterrier_table()
    assert list(table.columns) == ["name", *SPECS]
    assert table["ndcg@5"][2] == pytest.approx(per_query("rm3", "ndcg@5").mean(), abs=1e-12)


def test_cli_table_pyterrier_uses_the_t_test(tmp_path, capsys):
    qrels = tmp_path / "q.qrels"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()))
    paths = []
    for name, run in RUNS.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{q} Q0 {d} 0 {s!r} {name}\n" for q, docs in run.items() for d, s in docs.items()))
        paths.append(str(path))
    args = ["compare", str(qrels), *paths, "-m", "ndcg@5", "--baseline", "bm25.run", "--table", "pyterrier"]
    assert main([*args, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0]) == ["name", "ndcg@5", *("ndcg@5" + s for s in SUFFIXES)]
    expected = stats.ttest_rel(per_query("dense", "ndcg@5"), per_query("bm25", "ndcg@5")).pvalue
    assert float(rows[1]["ndcg@5 p-value"]) == pytest.approx(expected, rel=1e-9)
    assert main([*args, "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert records[0]["ndcg@5 p-value"] is None and records[0]["ndcg@5 reject"] is False
    assert main(args) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].split() == ["name", "ndcg@5", "ndcg@5", "+", "ndcg@5", "-", "ndcg@5", "p-value",
                                            "ndcg@5", "reject", "ndcg@5", "p-value", "corrected"]
    assert "paired t-test" in text and "Holm over the 2 runs" in text
    assert main([*args, "--test", "randomization", "--resamples", "200"]) == 0  # (given: the test asked for)
    assert "paired randomization test" in capsys.readouterr().out
