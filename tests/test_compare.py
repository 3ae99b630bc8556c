"""compare(), diff() and the per-query views: seed 000, robustness, pairs and Holm, excluded queries, walks."""

from __future__ import annotations

import math
import shlex

import numpy as np
import pytest
from hypothesis import assume, given, settings

import rankflavor as rf
import rankflavor.compare as rc
from rankflavor.cli.main import main
from rankflavor.compare.query_set import QuerySetError
from rankflavor.compare.stats import TestSettings, holm, paired_test
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS
from strategies import qrels_and_run

SEED = {"x": 0.904976558, "y": 0.760187533, "xe": 0.807558881, "ye": 0.817874758, "y4": 0.923885009}


def seed_comparison():
    return rc.compare(SEED000_QRELS, list(SEED000_RUNS), grid="gain", cutoffs=[3, 4])


def test_seed000_orders_the_means_differently_on_gain_at_3_and_on_cutoff_under_linear_gain():
    cmp = seed_comparison()
    means = cmp.means.set_index(["label", "run"])["mean"]
    assert means[("ndcg@3", "X.run")] == pytest.approx(SEED["x"], abs=1e-9)
    assert means[("ndcg@3", "Y.run")] == pytest.approx(SEED["y"], abs=1e-9)
    assert means[("ndcg@3 gain=exp2", "X.run")] == pytest.approx(SEED["xe"], abs=1e-9)
    assert means[("ndcg@3 gain=exp2", "Y.run")] == pytest.approx(SEED["ye"], abs=1e-9)
    assert means[("ndcg@4", "Y.run")] == pytest.approx(SEED["y4"], abs=1e-9)
    verdict = cmp.verdicts.iloc[0]
    # one query: no test can be significant, so the flip of the means is no finding, never a reversal (issue 37)
    assert verdict.verdict == "no finding" and "reverses" not in verdict.summary
    assert verdict.a_wins_under == ["ndcg@3"] and verdict.a_significant_under == verdict.b_significant_under == []
    assert set(cmp.flips.kind) == {"order of the means"}
    flips = {(f.change, f.from_label, f.to_label) for f in cmp.flips.itertuples()}
    assert flips == {("gain linear -> exp2", "ndcg@3", "ndcg@3 gain=exp2"), ("cutoff 3 -> 4", "ndcg@3", "ndcg@4")}
    assert set(cmp.flips.n_axes) == {1}
    winners = dict(zip(cmp.pairs.label, cmp.pairs.winner, strict=True))
    assert winners == {"ndcg@3": "X.run", "ndcg@3 gain=exp2": "Y.run", "ndcg@4": "Y.run", "ndcg@4 gain=exp2": "Y.run"}
    # one query: the only sign flips are +d and -d, so p = 1 and the bootstrap interval is the point
    assert (cmp.pairs.p == 1.0).all() and (cmp.pairs.ci_low == cmp.pairs["diff"]).all()


def test_the_comparison_keeps_its_flavors_and_baseline_as_objects():
    """A table's canonical string leads back to the very Flavor compared (no re-parse); the baseline is kept
    as the run's name, resolved from its path, not read back from the settings' text."""
    cmp = seed_comparison()
    assert cmp.baseline is None and cmp.settings["pairs"] == "all pairs"
    for name in [*cmp.pairs.flavor, *cmp.flips.from_flavor, *cmp.flips.to_flavor]:
        assert cmp.flavor(name) in cmp.flavors and str(cmp.flavor(name)) == name
    assert [cmp.flavor(str(f)) for f in cmp.flavors] == cmp.flavors
    with pytest.raises(KeyError, match="no flavor 'ndcg@5'"):
        cmp.flavor("ndcg@5")


def test_a_baseline_given_by_its_path_is_kept_by_its_run_name():
    cmp = rc.compare(SEED000_QRELS, list(SEED000_RUNS), ["ndcg@3"], baseline=str(SEED000_RUNS[1]), n_resamples=100)
    assert cmp.baseline == "Y.run" == cmp.runs[1]
    assert cmp.settings["pairs"] == "each run vs Y.run"
    assert cmp.paper_table().baseline == "Y.run"


def test_a_baseline_by_a_file_name_two_runs_share_is_refused_naming_both(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    runs = [tmp_path / "a" / "run.txt", tmp_path / "b" / "run.txt"]
    for path, source in zip(runs, SEED000_RUNS, strict=True):
        path.write_bytes(source.read_bytes())
    from rankflavor.errors import UsageError

    with pytest.raises(UsageError, match=r"run 'run.txt' is ambiguous: 2 runs have that file name \(.*a/run.txt, "
                                            r".*b/run.txt\); name one by its path"):
        rc.compare(SEED000_QRELS, [str(p) for p in runs], ["ndcg@3"], baseline="run.txt", n_resamples=100)
    cmp = rc.compare(SEED000_QRELS, [str(p) for p in runs], ["ndcg@3"], baseline=str(runs[1]), n_resamples=100)
    assert cmp.baseline == str(runs[1])


def two_systems(n=30, shift=0.0, seed=0):
    """Qrels and two runs over n queries; run b's relevant doc sits lower than run a's in most queries."""
    rng = np.random.default_rng(seed)
    qrels, a, b = {}, {}, {}
    for i in range(n):
        q = f"q{i:02d}"
        qrels[q] = {"r1": 2, "r2": 1, "n1": 0}
        a[q] = {"r1": 3.0, "r2": 2.0, "n1": 1.0} if rng.random() < 0.8 + shift else {"n1": 3.0, "r2": 2.0, "r1": 1.0}
        b[q] = {"n1": 3.0, "r1": 2.0, "r2": 1.0}
    return qrels, a, b


def test_robust_when_a_wins_every_flavor_and_the_statistics_agree():
    qrels, a, b = two_systems()
    cmp = rc.compare(qrels, {"a": a, "b": b}, grid="default", cutoffs=[1, 3])
    assert len(cmp.flavors) == 8 * 2
    assert cmp.verdicts.iloc[0].verdict == "robust" and cmp.verdicts.iloc[0].tie_sensitive == 0
    assert cmp.warnings.empty and not cmp.pairs.tie_sensitive.any()
    assert (cmp.pairs.winner == "a").all()
    report = rf.evaluate(qrels, {"a": a, "b": b}, cmp.flavors)
    for row in cmp.pairs.itertuples():
        va = np.array([report.value(q, "a", row.flavor) for q in sorted(qrels)])
        vb = np.array([report.value(q, "b", row.flavor) for q in sorted(qrels)])
        assert row.diff == pytest.approx((va - vb).mean(), abs=1e-12)
        expected = paired_test(va, vb, TestSettings(n_resamples=10_000, seed=0))
        assert (row.p, row.ci_low, row.ci_high) == pytest.approx((expected.p, expected.ci_low, expected.ci_high))
        assert row.ci_low <= row.diff <= row.ci_high
        assert row.p < 0.01 and row.significant


def test_a_winner_significant_under_no_flavor_is_said_to_be_possibly_chance():
    """The verdict of an order no flavor's test supports says so; a significant one does not."""
    qrels, a, b = two_systems()
    significant = rc.compare(qrels, {"a": a, "b": b}, grid="default", cutoffs=[1, 3]).verdicts.iloc[0]
    assert significant.a_significant > 0 and "may be chance" not in significant.summary
    seed = seed_comparison().verdicts.iloc[0]  # (one query: no test can be significant)
    assert seed.a_significant == seed.b_significant == 0
    assert seed.summary.startswith("no finding: no significant difference under any of the 4 flavors (the means "
                                   "favour X.run under 1, Y.run under 3: the order may be chance)")


def test_three_runs_all_pairs_holm_and_baseline():
    qrels, a, b = two_systems()
    c = {q: {d: -s for d, s in docs.items()} for q, docs in a.items()}
    cmp = rc.compare(qrels, {"a": a, "b": b, "c": c}, ["ndcg@3", "ndcg@3 gain=exp2"], test="t")
    assert list(zip(cmp.pairs.run_a, cmp.pairs.run_b, strict=True))[:3] == [("a", "b"), ("a", "c"), ("b", "c")]
    for _, block in cmp.pairs.groupby("flavor"):
        assert block.p_holm.to_numpy() == pytest.approx(holm(block.p.to_numpy()))
    assert "Holm over the 3 pairs" in cmp.settings["correction"]
    base = rc.compare(qrels, {"a": a, "b": b, "c": c}, "ndcg@3", baseline="b")
    assert list(zip(base.pairs.run_a, base.pairs.run_b, strict=True)) == [("b", "a"), ("b", "c")]
    with pytest.raises(rc.comparison.CompareError, match="baseline"):
        rc.compare(qrels, {"a": a, "b": b}, "ndcg@3", baseline="zzz")


def test_a_query_one_run_lacks_is_out_of_every_mean_and_pair_under_the_common_set():
    qrels, a, b = two_systems(n=10)
    del b["q03"]
    cmp = rc.compare(qrels, {"a": a, "b": b}, ["ndcg@3", "ndcg@3 missing=zero"])
    skip, zero = cmp.pairs.iloc[0], cmp.pairs.iloc[1]
    assert (skip.n, skip.excluded, zero.n, zero.excluded) == (9, 0, 9, 0)
    common = [q for q in qrels if q != "q03"]
    assert skip.mean_a == pytest.approx(rf.evaluate(qrels, {q: a[q] for q in common}, "ndcg@3").mean())
    assert zero.mean_a == skip.mean_a and skip.mean_a - skip.mean_b == pytest.approx(skip["diff"], abs=1e-12)
    assert cmp.query_set.lacking == {"b": 1} and "b lacks 1" in cmp.query_set.warning()
    qrels_set = rc.compare(qrels, {"a": a, "b": b}, ["ndcg@3 missing=zero"], query_set="qrels")
    row = qrels_set.pairs.iloc[0]
    assert (row.n, row.excluded) == (10, 0)
    assert row.mean_b == pytest.approx(rf.evaluate(qrels, b, "ndcg@3 missing=zero").mean())
    with pytest.raises(QuerySetError, match=r"use --query-set common .* or missing=zero"):
        rc.compare(qrels, {"a": a, "b": b}, ["ndcg@3"], query_set="qrels")


def test_reversal_found_on_ties_and_named_with_the_smallest_change():
    # a ties the relevant doc with a grade-0 one across @2 (docid_desc puts zzz first); b has it at rank 2
    # (12 identical queries: each flavor's exact randomization p is 2 / 2^12, significant)
    qrels = {f"q{i:02d}": {"rel": 2, "half": 1, "zzz": 0, "zero": 0} for i in range(12)}
    a = {q: {"half": 5.0, "rel": 3.0, "zzz": 3.0} for q in qrels}
    b = {q: {"zero": 3.0, "rel": 2.0} for q in qrels}
    cmp = rc.compare(qrels, {"a": a, "b": b}, grid="ties", cutoffs=[2])
    verdict = cmp.verdicts.iloc[0]
    assert verdict.verdict == "reverses"
    assert set(cmp.flips.axis) == {"ties"} and set(cmp.flips.kind) == {"reversal"}
    assert verdict.a_significant_under == ["ndcg@2 ties=docid_asc", "ndcg@2 ties=average", "ndcg@2 ties=optimistic"]
    assert verdict.b_significant_under == ["ndcg@2", "ndcg@2 ties=pessimistic"]
    # a's mean moves between pessimistic and optimistic tie orders across b's: every winner is tie-sensitive
    assert verdict.tie_sensitive == 5 and "tie order alone could reverse the means' order" in verdict.summary
    row = cmp.pairs.iloc[0]
    pess = rf.evaluate(qrels, {"a": a, "b": b}, "ndcg@2 ties=pessimistic")
    opt = rf.evaluate(qrels, {"a": a, "b": b}, "ndcg@2 ties=optimistic")
    assert row.tie_low == pytest.approx(pess.mean("a") - opt.mean("b"))
    assert row.tie_high == pytest.approx(opt.mean("a") - pess.mean("b"))
    assert set(cmp.warnings.code) == {"ties_across_cutoff"}
    assert set(cmp.warnings.run) == {"a"}


def test_grids_named_from_a_file_and_invalid_combinations_skipped(tmp_path):
    flavors, skipped = rc.build_grid("default", [5, 10])
    assert len(flavors) == 16 and not skipped
    assert {f.gain for f in flavors} == {"linear", "exp2"} and {f.cutoff for f in flavors} == {5, 10}
    path = tmp_path / "my.grid"
    path.write_text("# my grid\nties: average docid_desc\nideal: global recall(5)\ndcg@3 gain=exp2\n")
    flavors, skipped = rc.build_grid(str(path), [5])
    assert len(flavors) == 3 + 1  # recall(5) with average is invalid
    assert len(skipped) == 1 and "recall" in skipped[0][1]
    assert rf.Flavor.parse("dcg@3 gain=exp2") in flavors
    presets, _ = rc.build_grid("presets", [10])
    assert rf.Flavor.parse("sklearn@10") in presets
    with pytest.raises(rf.SpecError, match="unknown grid"):
        rc.build_grid("nope")
    with pytest.raises(rf.SpecError, match="not an axis"):
        rc.build_grid({"colour": ["red"]})


@pytest.mark.parametrize("cutoffs, says", [("10", r"cutoffs='10' \(str\)"), ([3, "4"], r"'4' \(str\) is not"),
                                            ([0], "0 .int. is not a positive"), ([True], r"True \(bool\)"),
                                            ([2.5], r"2\.5 \(float\)"), (object(), r"\(object\): give positive")])
def test_cutoffs_that_are_not_positive_integers_are_refused_naming_what_was_given(cutoffs, says):
    """A str is not read digit by digit and a bad item among good ones is not skipped; one integer and numpy's
    integers are cutoffs."""
    with pytest.raises(rf.SpecError, match=says):
        rc.compare(SEED000_QRELS, SEED000_RUNS, grid="gain", cutoffs=cutoffs)
    assert {f.cutoff for f in rc.build_grid("gain", 4)[0]} == {4}
    assert {f.cutoff for f in rc.build_grid("gain", np.array([3, 4]))[0]} == {3, 4}


def test_diff_walk_sums_to_the_gap_and_splits_systems_from_flavor():
    att = rc.diff(SEED000_QRELS, list(SEED000_RUNS), "ndcg@3", "ndcg@4 gain=exp2 ties=average")
    steps = att.steps
    assert list(steps[steps.run == "X.run"].axis) == ["", "cutoff", "gain", "ties"]
    for run in ("X.run", "Y.run"):
        s = steps[steps.run == run]
        assert s.delta.iloc[1:].sum() == pytest.approx(s["mean"].iloc[-1] - s["mean"].iloc[0], abs=1e-12)
    y = steps[steps.run == "Y.run"].set_index("step")["mean"]
    assert y[1] - y[0] == pytest.approx(SEED["y4"] - SEED["y"], abs=1e-9)  # the cutoff step
    assert any("systems" in line and "flavor" in line for line in att.summary)
    assert att.movers["query"].eq("q1").all()


def test_diff_reorders_around_an_invalid_intermediate_flavor():
    att = rc.diff(SEED000_QRELS, str(SEED000_RUNS[0]), "ndcg@3 ties=average", "ndcg@3 ideal=recall(3)")
    assert list(att.steps.axis) == ["", "ties", "ideal"]
    assert att.notes and "ties=average with ideal=recall" in att.notes[0]
    att = rc.diff(SEED000_QRELS, str(SEED000_RUNS[0]), "ndcg@3 ideal=recall(3)", "ndcg@5 ideal=recall(5)")
    assert list(att.steps.axis) == ["", "ideal", "cutoff"]


def test_diff_reorders_around_a_flavor_the_data_refuses():
    qrels = {"q": {"a": 2, "n": -1}}
    run = {"q": {"a": 2.0, "n": 1.0}}
    att = rc.diff(qrels, run, "ndcg@2 unjudged=skip", "ndcg@2 unjudged=error negative=zero")
    assert list(att.steps.axis) == ["", "negative", "unjudged"]
    assert "unjudged=error" in att.notes[0]


def test_walk_merges_axes_when_no_single_change_is_usable():
    a, b = rf.Flavor.parse("ndcg@3"), rf.Flavor.parse("ndcg@3 gain=exp2 ties=average")
    steps, notes = rc.walk(a, b, usable=lambda f: None if f in (a, b) else "refused")
    assert [s.axes for s in steps] == [("gain", "ties")]
    assert "one step" in notes[0]
    steps, notes = rc.walk(a, b, order=["ties"])
    assert [s.axes for s in steps] == [("ties",), ("gain",)] and not notes
    with pytest.raises(rf.SpecError, match="do not differ"):
        rc.walk(a, b, order=["cutoff"])


def test_views_largest_differences_and_changed_winners_with_working_explain_commands(capsys):
    diffs = rc.top_differences(SEED000_QRELS, list(SEED000_RUNS), "ndcg@3", top=5)
    assert list(diffs["query"]) == ["q1"] and diffs["diff"].iloc[0] == pytest.approx(SEED["x"] - SEED["y"], abs=1e-9)
    changed = rc.changed_winners(SEED000_QRELS, list(SEED000_RUNS), "ndcg@3", "ndcg@3 gain=exp2")
    assert list(changed["query"]) == ["q1"]
    assert (changed.winner_1.iloc[0], changed.winner_2.iloc[0]) == ("X.run", "Y.run")
    assert rc.changed_winners(SEED000_QRELS, list(SEED000_RUNS), "ndcg@4", "ndcg@4 gain=exp2").empty
    argv = shlex.split(changed.explain_b_2.iloc[0])
    assert argv[:2] == ["rankflavor", "explain"]
    assert main([*argv[1:], "--format", "json"]) == 0
    import json

    record = json.loads(capsys.readouterr().out)
    assert record["run"] == "Y.run" and record["value"] == pytest.approx(SEED["ye"], abs=1e-9)


def test_views_order_by_absolute_difference():
    qrels = {"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"a": 1}}
    x = {"q1": {"a": 1.0}, "q2": {"b": 1.0, "a": 0.5}, "q3": {"b": 2.0, "c": 1.0, "a": 0.5}}
    y = {"q1": {"b": 1.0, "a": 0.5}, "q2": {"a": 1.0}, "q3": {"a": 1.0}}
    frame = rc.top_differences(qrels, {"x": x, "y": y}, "ndcg@3", top=None)
    assert list(frame["query"]) == ["q3", "q2", "q1"] or list(frame["query"]) == ["q3", "q1", "q2"]
    assert np.all(np.diff(np.abs(frame["diff"].to_numpy())) <= 1e-12)
    assert frame["diff"].abs().iloc[0] == pytest.approx(1 - 1 / math.log2(4))


def test_no_paired_queries_is_no_winner():
    qrels = {"q1": {"a": 1}, "q2": {"a": 1}}
    x = {"q1": {"a": 1.0}}
    z = {"q2": {"b": 1.0}}
    cmp = rc.compare(qrels, {"x": x, "z": z}, ["ndcg@3", "ndcg@3 missing=zero"])  # (the common set is empty)
    for row in cmp.pairs.itertuples():
        assert (row.n, row.excluded, row.winner, row.mean_a) == (0, 0, "none", None) and np.isnan(row.p)
    assert cmp.verdicts.summary.iloc[0] == "none: no query is scored in both runs under any flavor"
    zero = rc.compare(qrels, {"x": x, "z": z}, ["ndcg@3 missing=zero"], query_set="qrels").pairs.iloc[0]
    assert (zero.n, zero.winner) == (2, "x") and zero["diff"] == pytest.approx(0.5)  # x: 1, 0; z: 0, 0


def test_shapley_split_is_the_mean_over_every_order_and_sums_to_the_gap():
    import itertools

    qrels, a, b = two_systems(n=12, seed=3)
    start, end = rf.Flavor.parse("ndcg@3"), rf.Flavor.parse("ndcg@5 gain=exp2 ideal=local ties=average")
    att = rc.diff(qrels, {"a": a, "b": b}, start, end, shapley=True)
    split = att.shapley
    axes = [d[0] for d in start.differences(end)]
    report_cache: dict = {}

    def mean(run, changed):
        f = start.with_(**{ax: getattr(end, ax) for ax in changed})
        if (run, f) not in report_cache:
            report_cache[(run, f)] = rf.evaluate(qrels, {"a": a, "b": b}, f).mean(run)
        return report_cache[(run, f)]

    for run in ("a", "b"):
        brute = dict.fromkeys(axes, 0.0)
        orders = list(itertools.permutations(axes))
        for order in orders:
            for i, axis in enumerate(order):
                brute[axis] += (mean(run, order[: i + 1]) - mean(run, order[:i])) / len(orders)
        mine = dict(zip(split[split.run == run].axis, split[split.run == run].shapley, strict=True))
        assert mine == pytest.approx(brute, abs=1e-12)
        assert sum(mine.values()) == pytest.approx(mean(run, axes) - mean(run, []), abs=1e-12)


def test_shapley_not_defined_when_an_intermediate_flavor_is_invalid():
    att = rc.diff(SEED000_QRELS, str(SEED000_RUNS[0]), "ndcg@3 ties=average", "ndcg@3 ideal=recall(3)", shapley=True)
    assert att.shapley.empty and any("Shapley split not defined" in n for n in att.notes)


def test_two_run_decomposition_both_ways():
    att = rc.diff(SEED000_QRELS, list(SEED000_RUNS), "ndcg@3", "ndcg@4 gain=exp2")
    x = att.steps[att.steps.run == "X.run"].set_index("step")["mean"]
    y = att.steps[att.steps.run == "Y.run"].set_index("step")["mean"]
    last = x.index.max()
    gap = y[last] - x[0]
    assert f"= {gap:+.6f} = flavor {x[last] - x[0]:+.6f} (walking X.run) + systems {y[last] - x[last]:+.6f}" in \
        att.summary[2]
    assert f"systems {y[0] - x[0]:+.6f} (under A) + flavor {y[last] - y[0]:+.6f}" in att.summary[3]


def test_flavors_the_data_refuses_are_skipped_with_the_reason():
    qrels = {"q1": {"a": 2, "n": -1}, "q2": {"a": 1}}
    x = {"q1": {"a": 2.0, "n": 1.0}, "q2": {"a": 1.0}}
    y = {"q1": {"n": 2.0, "a": 1.0}, "q2": {"a": 1.0}}
    cmp = rc.compare(qrels, {"x": x, "y": y}, grid="presets", cutoffs=[3])
    reasons = dict(cmp.skipped)
    sklearn = "sklearn@3"  # (the grid's label: the preset as listed)
    assert sklearn in reasons and "negative=error" in reasons[sklearn]
    assert rf.Flavor.parse("trec_eval@3") in cmp.flavors
    assert not any(f.negative == "error" for f in cmp.flavors)
    with pytest.raises(rf.EvaluationError):
        rc.compare(qrels, {"x": x, "y": y}, ["ndcg@3 negative=error"])


@settings(max_examples=40)
@given(qrels_and_run(), qrels_and_run())
def test_compare_is_consistent_with_evaluate_on_random_inputs(first, second):
    qrels, run_a = first
    _, run_b = second
    assume(run_a and run_b)  # {"a": {}, "b": {}} reads as one run with two empty queries
    runs = {"a": run_a, "b": run_b}
    grid = {"gain": ["linear", "exp2"], "ties": ["docid_desc", "pessimistic"]}
    cmp = rc.compare(qrels, runs, grid=grid, cutoffs=[1, 3], n_resamples=500)
    report = rf.evaluate(qrels, runs, cmp.flavors)
    common = [q for q in qrels if qrels[q] and q in run_a and q in run_b]  # judged, answered by both runs
    for row in cmp.pairs.itertuples():
        values = [(report.value(q, "a", row.flavor), report.value(q, "b", row.flavor)) for q in common]
        paired = [(x, y) for x, y in values if x is not None and y is not None]
        assert row.n == len(paired) and row.excluded == len(common) - len(paired)
        if paired:
            assert row.mean_a == pytest.approx(float(np.mean([x for x, _ in paired])), abs=1e-12)
            assert row.mean_b == pytest.approx(float(np.mean([y for _, y in paired])), abs=1e-12)
            assert row.diff == pytest.approx(float(np.mean([x - y for x, y in paired])), abs=1e-12)
            assert row.ci_low - 1e-12 <= row.diff <= row.ci_high + 1e-12 and 0 < row.p <= 1
        else:
            assert row.mean_a is None and row.mean_b is None
    verdict = cmp.verdicts.iloc[0]
    significant = set(cmp.pairs.significant_winner.dropna())  # (a reversal: significant winners that differ)
    assert (verdict.verdict == "reverses") == (significant == {"a", "b"})
    if verdict.verdict == "reverses":
        flavors = {str(f): f for f in cmp.flavors}
        a_side = [flavors[s] for s in cmp.pairs.flavor[cmp.pairs.significant_winner == "a"]]
        b_side = [flavors[s] for s in cmp.pairs.flavor[cmp.pairs.significant_winner == "b"]]
        smallest = min(len(f.differences(g)) for f in a_side for g in b_side)
        assert set(cmp.flips.n_axes) == {smallest} and set(cmp.flips.kind) == {"reversal"}


def test_means_and_paired_difference_agree_when_a_run_lacks_a_query(capsys):
    qrels = {"q1": {"x": 1}, "q2": {"x": 1}}
    a = {"q1": {"x": 1.0}, "q2": {"y": 1.0}}  # 1, 0
    b = {"q1": {"y": 2.0, "x": 1.0}}  # 0.63, missing
    cmp = rc.compare(qrels, {"a": a, "b": b}, ["ndcg@3", "ndcg@3 missing=zero"])  # (each run's own means: 0.5, 0.63)
    for row in cmp.pairs.itertuples():
        assert (row.winner, row.means_winner, row.n, row.excluded, row.mean_a) == ("a", "a", 1, 0, 1.0)
    from rankflavor.cli.cmd_compare import print_comparison

    print_comparison(cmp, queries=0)
    out = capsys.readouterr().out
    assert "by the means" not in out
    assert "over the 1 query every run answers (query set common, of 2 judged: b lacks 1)" in out


def test_diff_walks_a_metrics_own_parameters():
    """diff over rbp's p and scale and an axis: one step each, each step's flavor evaluated, the walk ends at B."""
    att = rc.diff(SEED000_QRELS, str(SEED000_RUNS[0]), "rbp(p=0.8)", "rbp(p=0.95,scale=binary) rel_level=2")
    assert list(att.steps.axis) == ["", "p", "scale", "rel_level"]
    assert att.steps["flavor"].iloc[-1] == str(rf.Flavor.parse("rbp(p=0.95,scale=binary) rel_level=2"))
    assert att.steps["flavor"].iloc[1] == str(rf.Flavor.parse("rbp(p=0.95)"))
    att = rc.diff(SEED000_QRELS, str(SEED000_RUNS[0]), "map@10", "rbp(p=0.8)")
    assert att.steps["flavor"].iloc[-1] == str(rf.Flavor.parse("rbp(p=0.8)"))  # (the new metric's parameters come along)


def test_with_changes_a_metrics_parameter_and_a_new_metric_starts_from_its_defaults():
    flavor = rf.Flavor.parse("rbp(p=0.8) rel_level=1")
    assert flavor.with_(p=0.5) == rf.Flavor.parse("rbp(p=0.5)")
    assert flavor.with_(metric="err", cutoff=10) == rf.Flavor.parse("err@10")
    assert flavor.value_of("p") == flavor.param("p") and flavor.value_of("ties") == flavor.ties
    with pytest.raises(rf.SpecError, match="rbp's parameters: p, scale"):
        flavor.with_(q=1)


def test_grids_cross_a_metrics_parameters(tmp_path):
    flavors, skipped = rc.build_grid({"p": ["0.5", "0.8"], "rel_level": ["1", "2"]}, [10], base="rbp(scale=binary)")
    assert not skipped and {str(f.param("p")) for f in flavors} == {"0.5", "0.8"} and len(flavors) == 4
    path = tmp_path / "p.grid"
    path.write_text("p: 0.5 0.9\n")
    flavors, _ = rc.build_grid(str(path), [5], base="rbp")
    assert {str(f.param("p")) for f in flavors} == {"0.5", "0.9"}
    path.write_text("q: 0.5\n")
    with pytest.raises(rf.SpecError, match="the base metric's parameters: p, scale"):
        rc.build_grid(str(path), [5], base="rbp")


def test_rows_are_labelled_by_the_specs_as_written():
    qrels = {"q1": {"a": 2, "b": 1}, "q2": {"a": 1}}
    x = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"a": 1.0}}
    y = {"q1": {"b": 2.0, "a": 1.0}, "q2": {"a": 1.0}}
    cmp = rc.compare(qrels, {"x": x, "y": y}, ["trec_eval@3", "sklearn@3", "ndcg@3 gain=exp2"])
    assert list(cmp.pairs.label) == ["trec_eval@3", "sklearn@3", "ndcg@3 gain=exp2"]
    assert list(cmp.means.label.unique()) == ["trec_eval@3", "sklearn@3", "ndcg@3 gain=exp2"]
    crossed = rc.compare(qrels, {"x": x, "y": y}, grid={"gain": ["linear", "exp2"]}, cutoffs=[3])
    assert list(crossed.pairs.label) == ["ndcg@3", "ndcg@3 gain=exp2"]  # (crossed: the axes that differ)
    assert cmp.to_dict()["labels"] == ["trec_eval@3", "sklearn@3", "ndcg@3 gain=exp2"]
