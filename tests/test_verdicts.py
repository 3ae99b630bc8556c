"""The verdict vocabulary (issue 37 item 1; compare/verdicts.py), grounded in the declared, corrected test: `robust`,
`flavor-dependent`, `reverses` (significant winners that differ: only this), `no finding`, and across metrics
`measures disagree` (issue 24 item 2: MRR vs MAP is no reversal). The CLI, the JSON, the paper table, the page and
the notebook say the same."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

import rankflavor.compare as rc
from rankflavor.cli.main import main

QRELS_ROW = {"r1": 1, "r2": 1, "r3": 1, "n1": 0, "n2": 0, "n3": 0}
# A: r1 first, the others not retrieved (RR 1, AP 1/3, ndcg@1 1, ndcg@4 0.47);
# B: r1..r3 from rank 2 (RR 1/2, AP 0.64, ndcg@1 0, ndcg@4 0.73)
A_ROW = {"r1": 4.0, "n1": 3.0, "n2": 2.0, "n3": 1.0}
B_ROW = {"n1": 4.0, "r1": 3.0, "r2": 2.0, "r3": 1.0}


def data(n: int) -> tuple[dict, dict]:
    qrels = {f"q{i:02d}": dict(QRELS_ROW) for i in range(n)}
    return qrels, {"A": {q: dict(A_ROW) for q in qrels}, "B": {q: dict(B_ROW) for q in qrels}}


def test_mrr_and_map_significant_for_different_runs_disagree_and_do_not_reverse():
    qrels, runs = data(12)  # 12 queries, every one the same way: exact p = 2/4096 for each measure
    cmp = rc.compare(qrels, runs, ["mrr", "map"])
    v = cmp.verdicts.iloc[0]
    assert v.verdict == "measures disagree" and cmp.flips.empty
    assert "reverses" not in v.summary
    assert "mrr: robust, A significantly better under mrr by 0.5000 (p_holm 0.000488)" in v.summary
    assert "map: robust, B significantly better under map by 0.3056 (p_holm 0.000488)" in v.summary
    by_measure = cmp.measures.set_index("measure")
    assert by_measure.loc["mrr", "winner"] == "A" and by_measure.loc["map", "winner"] == "B"
    assert set(by_measure.verdict) == {"robust"}
    assert "measures disagree" in cmp._repr_html_() and "reverses" not in cmp._repr_html_()


def test_measures_whose_means_disagree_on_few_queries_are_no_finding():
    qrels, runs = data(3)  # 3 queries: the smallest exact p-value is 2^(1-3) = 0.25
    cmp = rc.compare(qrels, runs, ["mrr", "map"])
    v = cmp.verdicts.iloc[0]
    assert v.verdict == "no finding" and set(cmp.measures.verdict) == {"no finding"}
    assert "no significant difference under mrr (p_holm 0.25; A's mean higher by 0.5000: the order may be chance)" \
        in v.summary
    assert v.a_significant == v.b_significant == 0 and cmp.measures.winner.isna().all()


def test_a_cutoff_change_that_reverses_the_significant_winner_is_a_reversal_beside_other_measures():
    qrels, runs = data(12)
    cmp = rc.compare(qrels, runs, ["ndcg@1", "ndcg@4", "map"])
    v = cmp.verdicts.iloc[0]
    assert v.verdict == "reverses" and v.summary.startswith(
        "reverses: ndcg: reverses, A significantly better under 1 of 2 flavors (ndcg@1; p_holm 0.000488); B "
        "significantly better under 1 of 2 flavors (ndcg@4; p_holm 0.000488); map: robust")
    assert set(cmp.flips.measure) == {"ndcg"} and set(cmp.flips.axis) == {"cutoff"}
    assert set(cmp.flips.kind) == {"reversal"}
    assert cmp.measures.set_index("measure").loc["ndcg", "verdict"] == "reverses"


def test_a_gain_change_that_reverses_the_significant_winner_is_a_reversal():
    qrels = {f"q{i}": {"a": 2, "b": 1, "c": 1} for i in range(6)}  # (6 queries: exact p 2/64)
    runs = {"A": {q: {"x": 2.0, "a": 1.0} for q in qrels},  # the grade-2 doc at rank 2: 2/log2(3) or 3/log2(3)
            "B": {q: {"b": 3.0, "c": 2.0, "a": 1.0} for q in qrels}}  # two grade-1 docs: 1 + 1/log2(3)
    cmp = rc.compare(qrels, runs, ["ndcg@2", "ndcg@2 gain=exp2", "mrr"])
    winners = dict(zip(cmp.pairs.label, cmp.pairs.significant_winner, strict=True))
    assert winners["ndcg@2"] == "B" and winners["ndcg@2 gain=exp2"] == "A"
    assert cmp.verdicts.iloc[0].verdict == "reverses"
    assert set(cmp.flips.axis) == {"gain"} and set(cmp.flips.measure) == {"ndcg"}


def _files(tmp_path, n: int) -> list[str]:
    qrels, runs = data(n)
    (tmp_path / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, row in qrels.items() for d, g in row.items()))
    paths = [str(tmp_path / "qrels")]
    for name, run in runs.items():
        path = tmp_path / name
        path.write_text("".join(f"{q} Q0 {d} {r} {s} {name}\n" for q, row in run.items()
                                for r, (d, s) in enumerate(row.items(), 1)))
        paths.append(str(path))
    return paths


def test_the_cli_verdict_line_and_the_json_say_the_same(tmp_path, capsys):
    files = _files(tmp_path, 3)
    assert main(["compare", *files, "-m", "mrr", "-m", "map", "--queries", "0"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("verdict A vs B: no finding: mrr: no finding, no significant difference under mrr")
    assert main(["compare", *files, "-m", "mrr", "-m", "map", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdicts"][0]["verdict"] == "no finding" and out["verdicts"][0]["summary"] == first[16:]
    assert [(m["measure"], m["winner"]) for m in out["measures"]] == [("mrr", None), ("map", None)]
    assert {f["kind"] for f in out["flips"]} == set()  # (one flavor per measure: no change of flavor to name)


# ---- issue 37's examples -----------------------------------------------------------------------------------

def p_at_10(h_a: list[int], h_b: list[int]) -> tuple[dict, dict]:
    """Per query 10 relevant and 10 nonrelevant docs; a run retrieves h relevant docs, then nonrelevant ones."""
    qrels = {f"q{i:03d}": {**{f"r{j}": 1 for j in range(10)}, **{f"n{j}": 0 for j in range(10)}}
             for i in range(len(h_a))}

    def run(hits: list[int]) -> dict:
        return {q: {d: float(20 - k) for k, d in enumerate([f"r{j}" for j in range(h)]
                                                            + [f"n{j}" for j in range(10 - h)])}
                for q, h in zip(qrels, hits, strict=True)}

    return qrels, {"A": run(h_a), "B": run(h_b)}


def test_wilcoxon_ties_the_differences_that_float_noise_sets_apart():
    pairs = [(6, 6), (3, 5), (3, 3), (8, 7), (5, 7), (4, 6), (8, 6), (5, 5), (8, 7), (3, 6), (7, 8), (8, 6)]
    qrels, runs = p_at_10([a for a, _ in pairs], [b for _, b in pairs])
    row = rc.compare(qrels, runs, ["P@10"], test="wilcoxon").pairs.iloc[0]
    integer = np.array([a - b for a, b in pairs], dtype=float)
    want = stats.wilcoxon(integer[integer != 0], method=stats.PermutationMethod(n_resamples=2**12)).pvalue
    assert row.p == pytest.approx(want, abs=1e-12) and row.p == pytest.approx(0.51171875, abs=1e-12)
    assert row.ties == 3 and row.favours == "B"


def test_a_sign_test_against_the_mean_credits_neither_run():
    """A wins 20 of 26 queries, B has the higher mean: the sign test rejects in A's favour; B is not credited."""
    h_a, h_b = [5] * 20 + [2] * 6, [4] * 20 + [8] * 6
    qrels, runs = p_at_10(h_a, h_b)
    cmp = rc.compare(qrels, runs, ["P@10"], test="sign")
    row, v = cmp.pairs.iloc[0], cmp.verdicts.iloc[0]
    assert row.p == pytest.approx(stats.binomtest(20, 26, 0.5).pvalue) and row.p < 0.05
    assert (row.winner, row.favours, row.finding, row.significant_winner) == ("B", "A", "mean and test disagree", None)
    assert v.verdict == "no finding" and "B significantly better" not in v.summary
    assert v.summary.startswith("no finding: under P@10 the test is significant (p_holm 0.00936) but favours A while "
                                "the mean favours B: mean and test disagree, neither is credited")
    table = cmp.paper_table()
    assert table.marks("A", "P@10") == table.marks("B", "P@10") == ""
    assert "not marked: under P@10, the test is significant for A against B while the mean favours B" in table.note
    wilcoxon = rc.compare(qrels, runs, ["P@10"], test="wilcoxon").pairs.iloc[0]
    assert wilcoxon.favours == "A"  # (signed ranks: 20 x 10.5 against 6 x 23.5)
    assert cmp.verify() == []


def test_constant_differences_give_an_exact_explained_result(capsys, tmp_path):
    qrels, runs = p_at_10([h + 1 for h in range(1, 9)] * 2, list(range(1, 9)) * 2)  # every difference 0.1
    t = rc.compare(qrels, runs, ["P@10"], test="t").pairs.iloc[0]
    assert (t.p, t.constant_diff, t.ci_low, t.ci_high) == (0.0, pytest.approx(0.1), t.constant_diff, t.constant_diff)
    assert np.isnan(t.effect_size)
    randomization = rc.compare(qrels, runs, ["P@10"], n_resamples=2**16).pairs.iloc[0]
    assert randomization.p == 2 / 2**16 and randomization.exact
    for name, run in runs.items():
        (tmp_path / name).write_text("".join(f"{q} Q0 {d} 1 {s} {name}\n" for q, row in run.items()
                                             for d, s in row.items()))
    (tmp_path / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, row in qrels.items() for d, g in row.items()))
    assert main(["compare", str(tmp_path / "qrels"), str(tmp_path / "A"), str(tmp_path / "B"), "-m", "P@10",
                 "--test", "t", "--queries", "0"]) == 0
    out = capsys.readouterr().out
    assert "every paired difference of A - B is +0.1: no spread, so d_z is undefined (null)" in out


def gain_data(n_a: int = 88, n_b: int = 32) -> tuple[dict, dict]:
    """Under linear gain the runs' means are about equal (no significant difference); under exp2 `dense`, which
    puts the grade-3 doc first, is significantly better (issue 37's first example)."""
    qrels, bm25, dense = {}, {}, {}
    for i in range(n_a + n_b):
        q = f"q{i:03d}"
        qrels[q] = {"h": 3, "m1": 1, "m2": 1, "m3": 1, "z": 0}
        bm25[q] = {"m1": 4.0, "m2": 3.0, "m3": 2.0, "h": 1.0}
        dense[q] = {"h": 4.0, "z": 3.0} if i < n_a else {"h": 4.0, "m1": 3.0, "m2": 2.0, "m3": 1.0}
    return qrels, {"bm25": bm25, "dense": dense}


def test_significant_under_one_flavor_and_not_the_other_is_flavor_dependent_not_a_reversal():
    qrels, runs = gain_data()
    cmp = rc.compare(qrels, runs, ["ndcg@10", "ndcg@10 gain=exp2"])
    rows = cmp.pairs.set_index("label")
    assert rows.loc["ndcg@10", "finding"] == "not significant"
    assert rows.loc["ndcg@10 gain=exp2", "significant_winner"] == "dense"
    v = cmp.verdicts.iloc[0]
    assert v.verdict == "flavor-dependent" and "reverses" not in v.summary
    assert "dense significantly better under 1 of 2 flavors (ndcg@10 gain=exp2; p_holm" in v.summary
    assert "no significant difference under ndcg@10" in v.summary
    assert set(cmp.flips.kind) <= {"order of the means"}


def pool_data(n: int = 14) -> tuple[dict, dict]:
    """bm25's docs are judged; dense's top 10 is 8 unjudged docs, then two relevant ones."""
    qrels, bm25, dense = {}, {}, {}
    for i in range(n):
        q = f"q{i:03d}"
        qrels[q] = {**{f"r{j}": 1 for j in range(3)}, **{f"n{j}": 0 for j in range(7)}}
        order = ["n0", "n1", "r0", "n2", "r1", "n3", "n4", "n5", "n6", "r2"]
        bm25[q] = {d: float(10 - k) for k, d in enumerate(order)}
        dense[q] = {d: float(10 - k) for k, d in enumerate([f"u{i}_{j}" for j in range(8)] + ["r0", "r1"])}
    return qrels, {"bm25": bm25, "dense": dense}


def test_the_pool_is_in_the_verdict():
    qrels, runs = pool_data()
    cmp = rc.compare(qrels, runs, ["ndcg@10"])
    v = cmp.verdicts.iloc[0]
    assert v.verdict == "robust" and cmp.pairs.iloc[0].significant_winner == "bm25"
    assert v.judged == [{"depth": "judged@10", "run_a": 1.0, "run_b": pytest.approx(0.2)}] and v.pool_unequal
    assert "judged@10 bm25 1.000, dense 0.200: the pool sees the runs unequally" in v.summary
    assert "with unjudged=skip the significant winner changes under 1 flavor: ndcg@10 (bm25 -> dense)" in v.summary
    assert v.skip_changes[0]["skip_significant_winner"] == "dense"
    skip = rc.compare(qrels, runs, ["ndcg@10 unjudged=skip"]).pairs.iloc[0]
    assert skip.significant_winner == "dense"  # (what the clause reports, compared directly)
    means = cmp.means.set_index("run")
    assert means.loc["dense", "judged"] == pytest.approx(0.2) and means.loc["bm25", "judged"] == 1.0


def test_a_fully_judged_pair_says_so_in_few_words():
    qrels, runs = data(12)
    assert rc.compare(qrels, runs, ["ndcg@4"]).verdicts.iloc[0].summary.endswith(
        "judged@4: 1.000 for both runs (fully judged)")
