"""What a difference's interval covers (issue 37 item 2; compare/intervals.py): per comparison by default, said
in every output; simultaneous on request, as the declared correction holds the tests."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import rankflavor.compare as rc
from rankflavor.cli.main import main
from rankflavor.compare.query_set import set_values
from rankflavor.compare.tukey import tukey_test
from rankflavor.errors import UsageError


def three_runs(queries: int = 30, seed: int = 3) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    qrels = {f"q{q:02d}": {f"d{d}": int(rng.integers(0, 3)) for d in range(8)} for q in range(queries)}
    qrels = {q: g for q, g in qrels.items() if any(g.values())}
    return qrels, {f"r{i}": {q: {f"d{d}": float(rng.random() + 0.4 * i * qrels[q][f"d{d}"]) for d in range(8)}
                             for q in qrels} for i in range(3)}


def differences(cmp, row) -> np.ndarray:
    values = set_values(cmp.scores, cmp.query_set, cmp.flavor(row.flavor))
    d = values[row.run_a] - values[row.run_b]
    return d[~np.isnan(d)]


@pytest.mark.parametrize("correction", ["bonferroni", "holm"])
def test_simultaneous_t_intervals_are_bonferronis(correction):
    qrels, runs = three_runs()
    cmp = rc.compare(qrels, runs, ["ndcg@5"], test="t", correction=correction, intervals="simultaneous")
    for row in cmp.pairs.itertuples():
        ci = stats.ttest_rel(differences(cmp, row), np.zeros(row.n)).confidence_interval(1 - 0.05 / 3)
        assert (row.ci_low, row.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-9)
    assert "simultaneous over the 3 pairs of a flavor (Bonferroni: each at 98.33%)" in (
        cmp.settings["interval_coverage"])
    assert cmp.verify() == []


def test_simultaneous_bh_intervals_are_benjamini_yekutielis():
    qrels, runs = three_runs()
    cmp = rc.compare(qrels, runs, ["ndcg@5"], test="t", correction="bh", intervals="simultaneous")
    rejected = int(cmp.pairs.significant.sum())
    assert rejected >= 1
    for row in cmp.pairs.itertuples():
        level = 1 - rejected * 0.05 / 3
        ci = stats.ttest_rel(differences(cmp, row), np.zeros(row.n)).confidence_interval(level)
        assert (row.ci_low, row.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-9)
    assert cmp.verify() == []


def test_simultaneous_tukey_intervals_are_the_null_ranges_quantile():
    qrels, runs = three_runs()
    cmp = rc.compare(qrels, runs, ["ndcg@5"], test="tukey", intervals="simultaneous", n_resamples=2000, seed=4)
    names = list(runs)
    matrix = np.column_stack([set_values(cmp.scores, cmp.query_set, cmp.flavors[0])[r] for r in names])
    _, ranges = tukey_test(matrix, [(0, 1)], 2000, 4)
    half = float(np.quantile(ranges, 0.95))
    for row in cmp.pairs.itertuples():
        assert (row.ci_low, row.ci_high) == pytest.approx((row.diff - half, row.diff + half), rel=1e-12)
    assert cmp.verify() == []


def test_per_comparison_intervals_say_so_and_simultaneous_needs_a_correction(capsys, tmp_path):
    qrels, runs = three_runs()
    cmp = rc.compare(qrels, runs, ["ndcg@5"], test="t")
    assert cmp.settings["interval_coverage"].startswith("each difference's 95% interval is per comparison (its "
                                                        "own pair, not adjusted for the 3 pairs of a flavor")
    per = cmp.pairs.set_index(["run_a", "run_b"])
    simultaneous = rc.compare(qrels, runs, ["ndcg@5"], test="t", intervals="simultaneous").pairs
    wider = (simultaneous.ci_high - simultaneous.ci_low).to_numpy() > (per.ci_high - per.ci_low).to_numpy()
    assert wider.all()
    with pytest.raises(UsageError, match="give a correction"):
        rc.compare(qrels, runs, ["ndcg@5"], correction="none", intervals="simultaneous")
    (tmp_path / "q").write_text("".join(f"{q} 0 {d} {g}\n" for q, row in qrels.items() for d, g in row.items()))
    files = []
    for name, run in runs.items():
        (tmp_path / name).write_text("".join(f"{q} Q0 {d} 0 {s} {name}\n" for q, row in run.items()
                                             for d, s in row.items()))
        files.append(str(tmp_path / name))
    assert main(["compare", str(tmp_path / "q"), *files, "-m", "ndcg@5", "--queries", "0"]) == 0
    assert "intervals: each difference's 95% interval is per comparison" in capsys.readouterr().out
    assert main(["compare", str(tmp_path / "q"), *files, "-m", "ndcg@5", "--intervals", "simultaneous",
                 "--correction", "none"]) == 2
    assert "give a correction" in capsys.readouterr().err
