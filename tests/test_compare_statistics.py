"""compare's statistics (issue 27 items 1, 2, 5): the settings' canonical string reads back and is carried by
every output; several baselines; each correction and test recomputed by verify(), which names a tampered
number; the paper table of 5 runs x 3 measures shows intervals, the declared correction's marks and a caption
with the test, the correction, the query set and the seed. (Against SciPy, statsmodels and ranx:
tests/peers/test_statistics_peers.py.)"""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankflavor.compare as rc
from rankflavor.cli import compare_method
from rankflavor.cli.cmd_compare import write_csv
from rankflavor.compare import stats
from rankflavor.compare.stats import TestSettings
from rankflavor.errors import UsageError

SETTINGS = st.builds(
    lambda test, r, seed, corr, ci, conf, alpha, family, tol: TestSettings(
        test, r, seed, conf, alpha, "none" if test == "tukey" else corr, ci,
        "per_comparison" if corr == "none" and test != "tukey" else family, tol),
    st.sampled_from(stats.TESTS), st.integers(1, 10**6), st.integers(0, 2**63 - 1), st.sampled_from(stats.CORRECTIONS),
    st.sampled_from(stats.INTERVALS), st.floats(0.001, 0.999), st.floats(0.0001, 0.5), st.sampled_from(stats.FAMILIES),
    st.floats(0, 1e-4))


@settings(max_examples=100)
@given(SETTINGS)
def test_the_canonical_string_reads_back(s):
    assert TestSettings.parse(str(s)) == s and str(TestSettings.parse(str(s))) == str(s)


def test_defaults_and_refusals():
    assert str(TestSettings()) == ("test=randomization resamples=10000 seed=0 correction=holm ci=bootstrap "
                                   "confidence=0.95 alpha=0.05 intervals=per_comparison tolerance=1e-09")
    assert (TestSettings(test="t").ci, TestSettings(test="tukey").correction) == ("t", "none")
    assert TestSettings.parse("test=sign seed=3") == TestSettings(test="sign", seed=3)
    for text, words in (("test=anova", "unknown test"), ("correction=sidak", "unknown correction"),
                        ("test=tukey correction=holm", "correction=none"), ("seed=x", "not a number"),
                        ("seed=1 seed=2", "at most once"), ("resamples", "key=value"), ("ci=normal", "interval"),
                        ("intervals=joint", "unknown intervals"), ("correction=none intervals=simultaneous",
                                                                   "give a correction"),
                        ("tolerance=0.1", "tolerance"), ("tolerance=-1", "tolerance")):
        with pytest.raises(UsageError, match=words):
            TestSettings.parse(text)


def test_the_cli_choices_are_the_libraries():
    assert (compare_method.TESTS, compare_method.CORRECTIONS, compare_method.INTERVALS, compare_method.FAMILIES) == (
        stats.TESTS, stats.CORRECTIONS, stats.INTERVALS, stats.FAMILIES)


def _case(seed: int = 0, runs: int = 5, queries: int = 25):
    rng = np.random.default_rng(seed)
    qrels = {f"q{q}": {f"d{d}": int(rng.integers(0, 3)) for d in range(10)} for q in range(queries)}
    qrels = {q: g for q, g in qrels.items() if any(g.values())}
    shifts = np.linspace(0, 1.2, runs)
    return qrels, {f"r{i}": {q: {f"d{d}": float(rng.random() + shifts[i] * qrels[q][f"d{d}"]) for d in range(10)}
                             for q in qrels} for i in range(runs)}


@pytest.mark.parametrize(("test", "correction", "ci"), [("randomization", "bh", "t"), ("t", "bonferroni", ""),
                                                        ("wilcoxon", "holm", ""), ("sign", "none", "t"),
                                                        ("tukey", "", "")])
def test_verify_recomputes_every_new_number_and_names_a_tampered_one(test, correction, ci):
    qrels, runs = _case(runs=3)
    cmp = rc.compare(qrels, runs, ["ndcg@5", "gm_map", "num_rel_ret"], test=test, correction=correction, ci=ci,
                     n_resamples=500, seed=7)
    assert cmp.verify() == []
    assert {"effect_size", "wins", "ties", "losses", "p_adjusted", "correction"} <= set(cmp.pairs)
    assert (cmp.pairs.wins + cmp.pairs.ties + cmp.pairs.losses == cmp.pairs.n).all()
    assert (cmp.means.ci_low <= cmp.means["mean"] + 1e-12).all() and (cmp.means["mean"] <= cmp.means.ci_high + 1e-12).all()
    cmp.pairs.loc[1, "effect_size"] += 0.01
    cmp.pairs.loc[2, "p_adjusted"] = 0.5 * cmp.pairs.loc[2, "p_adjusted"] + 0.001
    cmp.means.loc[0, "ci_high"] += 0.01
    found = {d.what for d in cmp.verify()}
    assert {"effect_size", "p_adjusted", "mean ci_high"} <= found


def test_several_baselines_and_the_outputs_carry_the_settings():
    qrels, runs = _case(runs=4)
    cmp = rc.compare(qrels, runs, ["ndcg@5"], baseline=["r0", "r1"], correction="bonferroni", n_resamples=300)
    assert list(zip(cmp.pairs.run_a, cmp.pairs.run_b, strict=True)) == [("r0", "r1"), ("r0", "r2"), ("r0", "r3"),
                                                                       ("r1", "r2"), ("r1", "r3")]
    assert cmp.baselines == ["r0", "r1"] and cmp.baseline is None
    canonical = ("test=randomization resamples=300 seed=0 correction=bonferroni ci=bootstrap confidence=0.95 alpha=0.05 "
                 "intervals=per_comparison tolerance=1e-09")
    assert cmp.to_dict()["settings"]["canonical"] == canonical == cmp.pairs.attrs["settings"]
    table = cmp.paper_table()
    assert table.to_frame().attrs["settings"] == canonical == table.to_dict()["settings"]
    assert cmp.pyterrier_table().attrs["settings"] == canonical == cmp.means.attrs["settings"]
    for style in ("text", "markdown"):
        assert canonical in table.render(style) and "baselines r0, r1 only" in table.render(style)
    assert canonical.replace("_", "\\_") in table.render("latex")  # (LaTeX escapes its underscores)
    out = io.StringIO()
    write_csv(cmp, out)
    header, first = out.getvalue().splitlines()[:2]
    assert header.endswith("p_adjusted,favours,finding,significant_winner,settings") and first.endswith(canonical)
    one = rc.compare(qrels, runs, ["ndcg@5"], baseline="r0", n_resamples=300)
    assert one.baseline == "r0" and one.baselines == ["r0"]


def test_a_paper_table_of_5_runs_by_3_measures():
    """The issue's 'done when': means with intervals, the marks of the declared correction, and a caption with
    the test, the correction, the query set and the seed."""
    qrels, runs = _case(seed=3, runs=5, queries=40)
    cmp = rc.compare(qrels, runs, ["ndcg@10", "map", "p@5"], correction="bonferroni", seed=11, n_resamples=2000)
    table = cmp.paper_table()
    text = table.render("text")
    assert all(w in text for w in ("paired randomization test", "Bonferroni's correction over the 10 comparisons",
                                   "query set common", "seed=11", "resamples=2000", "95% percentile bootstrap"))
    for row in cmp.means.itertuples():
        assert table.interval(row.run, row.label) == f"[{row.ci_low:.4f}, {row.ci_high:.4f}]"
        assert table.interval(row.run, row.label) in text
    bonferroni = np.minimum(1.0, cmp.pairs.p * 10)
    assert cmp.pairs.p_adjusted.to_numpy() == pytest.approx(bonferroni.to_numpy())
    for row in cmp.pairs.itertuples():
        winner, loser = (row.run_a, row.run_b) if row.diff > 0 else (row.run_b, row.run_a)
        marked = table.letters[loser] in table.marks(winner, row.label)
        assert marked == bool(row.p_adjusted < 0.05)
    assert any(table.marks(r, m) for r in table.runs for m in table.measures)


def test_the_cli_reads_the_canonical_string_back_and_takes_several_baselines(tmp_path, capsys):
    from rankflavor.cli.main import main

    qrels, runs = _case(runs=3)
    (tmp_path / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()))
    paths = []
    for name, run in runs.items():
        paths.append(str(tmp_path / f"{name}.run"))
        (tmp_path / f"{name}.run").write_text("".join(f"{q} Q0 {d} 0 {s} {name}\n" for q, docs in run.items()
                                                      for d, s in docs.items()))
    canonical = "test=sign resamples=700 seed=4 correction=bh ci=t confidence=0.9 alpha=0.1"
    assert main(["compare", str(tmp_path / "qrels"), *paths, "-m", "p@5", "--settings", canonical, "--verify",
                 "--baseline", "r0.run", "--baseline", paths[2]]) == 0
    out = capsys.readouterr().out
    assert f"settings: {canonical}" in out and "p_bh" in out and "d_z" in out and "w/t/l" in out
    pairs = {tuple(line.split()[1:3]) for line in out.splitlines() if line.startswith("p@5 ")}
    assert pairs == {("r0.run", "r1.run"), ("r0.run", "r2.run"), ("r2.run", "r1.run")}
    assert main(["compare", str(tmp_path / "qrels"), *paths, "--settings", "test=anova"]) == 2


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(1, 4))
def test_a_means_bootstrap_is_the_same_alone_or_with_other_columns(seed, n, width):
    """Its resamples (counts times columns) are those of the plain gather of stats.bootstrap_means, whatever the
    number of columns: verify() recomputes one flavor at a time what compare resampled together."""
    from rankflavor.compare.effects import mean_intervals, resampled_means

    x = np.random.default_rng(seed).random((n, width))
    together = mean_intervals(x, TestSettings(n_resamples=300, seed=seed))
    for f in range(width):
        assert mean_intervals(x[:, [f]], TestSettings(n_resamples=300, seed=seed))[0] == pytest.approx(together[f])
    assert resampled_means(x, 300, np.random.default_rng(seed)) == pytest.approx(
        stats.bootstrap_means(x, 300, np.random.default_rng(seed)), rel=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_randomised_tukey_estimates_the_exact_permutation_p(seed):
    """3 queries x 3 runs: all (3!)^3 = 216 within-query orders enumerated (itertools) give the exact p of each
    pair, the share of orders whose range of run means reaches the pair's |difference|; the seeded Monte Carlo
    test with R = 20,000 estimates it (sd <= 0.0036): within 0.02. Seven runs take the other path (permuted)."""
    import itertools

    from rankflavor.compare.tukey import tukey_hsd

    x = np.round(np.random.default_rng(seed).random((3, 3)), 2)
    pairs = [(0, 1), (0, 2), (1, 2)]
    ranges = []
    for orders in itertools.product(itertools.permutations(range(3)), repeat=3):
        means = np.array([x[q, list(o)] for q, o in enumerate(orders)]).mean(axis=0)
        ranges.append(means.max() - means.min())
    means = x.mean(axis=0)
    exact = [np.mean(np.array(ranges) >= abs(means[i] - means[j]) - 1e-12) for i, j in pairs]
    assert tukey_hsd(x, pairs, 20_000, seed) == pytest.approx(exact, abs=0.02)
    wide = np.random.default_rng(seed).random((4, 7))
    assert all(0 < p <= 1 for p in tukey_hsd(wide, [(0, 6)], 200, seed))
