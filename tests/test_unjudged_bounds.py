"""compare/unjudged_bounds.py: issue 37's example (a pair called robust that one judgment of its holes reverses), a
pair no fill can reverse, and the queries with more fills than are enumerated, through the CLI and the API."""

from __future__ import annotations

import json

import numpy as np
import pytest

import rankflavor
from rankflavor.cli.main import main
from rankflavor.compare import compare
from rankflavor.compare.unjudged_bounds import add_unjudged_bounds

ISSUE_QRELS = {"q1": {"r1": 1, "r2": 1, "r3": 1, **{f"n{i}": 0 for i in range(1, 6)}}, "q2": {"r1": 1, "n1": 0}}
ISSUE_RUNS = {"A": {"q1": "u1 r1 r2 r3 n1 n2 n3 n4 n5 u2".split(), "q2": ["r1", "n1"]},
              "B": {"q1": "r1 r2 n1 r3".split(), "q2": ["r1", "n1"]}}


def scored(ranked: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    return {q: {d: float(100 - i) for i, d in enumerate(docs)} for q, docs in ranked.items()}


def write(tmp_path, qrels: dict, runs: dict[str, dict]) -> tuple[str, list[str]]:
    path = tmp_path / "qrels"
    path.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()))
    paths = []
    for name, ranked in runs.items():
        run = tmp_path / name
        run.write_text("".join(f"{q} Q0 {d} {i + 1} {100 - i} {name}\n" for q, docs in ranked.items()
                               for i, d in enumerate(docs)))
        paths.append(str(run))
    return str(path), paths


def test_the_issues_pair_is_not_robust_on_the_command_line(tmp_path, capsys):
    """Issue 37: B wins AP, and the old bounds called it robust ([-0.1389, -0.0083]); judging u1 and u2 relevant
    makes A win (0.950 vs 0.775). Over every fill of both runs' holes the difference reaches +0.175."""
    qrels, runs = write(tmp_path, ISSUE_QRELS, ISSUE_RUNS)
    assert main(["compare", qrels, *runs, "-m", "ap", "--unjudged-bounds", "--format", "json", "--queries", "0"]) == 0
    doc = json.loads(capsys.readouterr().out)
    pair = doc["pairs"][0]
    assert pair["winner"] == "B" and pair["unjudged_verdict"] == "not robust"
    assert (pair["unjudged_low"], pair["unjudged_high"]) == pytest.approx((-5 / 36, 0.175))
    assert (pair["unjudged_exact"], pair["unjudged_by_range"]) == (2, 0)
    means = {m["run"]: m for m in doc["means"]}
    # A's holes u1, u2: u1 relevant alone gives AP 1 on q1; u2 relevant alone 0.579 (R grows, u2 ranks 10th)
    assert (means["A"]["mean_low"], means["A"]["mean_high"]) == pytest.approx(((0.5791667 + 1) / 2, 1.0), abs=1e-6)
    assert means["B"]["mean_low"] == means["B"]["mean_high"] == pytest.approx((11 / 12 + 1) / 2)
    assert "max_fills" in doc["settings"]["unjudged_bounds"]
    assert main(["compare", qrels, *runs, "-m", "ap", "--unjudged-bounds", "--queries", "0"]) == 0
    out = capsys.readouterr().out
    bounds = out.split("bounds for unjudged documents:")[1]
    assert "not robust" in bounds and "[-0.1389, +0.1750]" in bounds and "lowest over the fills" in bounds
    assert "the same fill" in bounds


def test_the_issues_pair_is_not_robust_in_python():
    """The same through `rankflavor.compare.compare` then `add_unjudged_bounds`; the fill (u1, u2 relevant) that
    reverses the winner lies inside the difference's interval and A's."""
    cmp = compare(ISSUE_QRELS, {name: scored(r) for name, r in ISSUE_RUNS.items()}, "ap", n_resamples=100)
    bounds = add_unjudged_bounds(cmp)
    pair = cmp.pairs.iloc[0]
    assert pair.winner == "B" and pair.unjudged_verdict == "not robust"
    assert bounds.difference("A", "B", pair.flavor) == pytest.approx((-5 / 36, 0.175))
    judged = {q: {**docs, **({"u1": 1, "u2": 1} if q == "q1" else {})} for q, docs in ISSUE_QRELS.items()}
    filled = rankflavor.evaluate(judged, {name: scored(r) for name, r in ISSUE_RUNS.items()}, "ap")
    a, b = (r.mean for r in filled.results)
    assert (a, b) == pytest.approx((0.95, 0.775))
    assert pair.unjudged_low <= a - b <= pair.unjudged_high
    row = cmp.means[cmp.means.run == "A"].iloc[0]  # (u1, u2 are A's holes; B has none: its interval is its mean)
    assert row.mean_low <= a <= row.mean_high


def test_a_pair_no_fill_can_reverse_stays_robust():
    """Both runs rank the unjudged u1 first: whatever its grade, A (r1 next) beats B (n1, then r1) by 1/6 on AP.
    Each run's holes filled apart would set A's low end (u1 nonrelevant: 0.5) against B's high end (u1 relevant:
    0.833) and call the pair not robust; under one fill for both it is robust."""
    qrels = {"q1": {"r1": 1, "n1": 0}}
    runs = {"A": scored({"q1": ["u1", "r1"]}), "B": scored({"q1": ["u1", "n1", "r1"]})}
    cmp = compare(qrels, runs, ["ap", "ndcg@3", "p@2"], n_resamples=100)
    add_unjudged_bounds(cmp)
    for pair in cmp.pairs.itertuples():
        assert pair.winner == "A" and pair.unjudged_verdict == "robust", pair.flavor
        assert pair.unjudged_low > 0
    ap = cmp.pairs[cmp.pairs.label == "ap"].iloc[0]
    assert (ap.unjudged_low, ap.unjudged_high) == pytest.approx((1 / 6, 1 / 6))
    means = cmp.means[cmp.means.label == "ap"].set_index("run")
    assert means.loc["A", "mean_low"] - means.loc["B", "mean_high"] < 0  # (what separate fills would compare)


def test_a_query_with_more_than_4096_fills_is_bounded_by_its_measures_range(tmp_path, capsys):
    """13 holes: AP reads them all (2^13 fills), so the query is bounded by AP's range [0, 1], counted and said;
    NDCG under negative=keep declares no range: its ends are unbounded and no pair is robust under it. AP@2 reads
    two holes: exact; so is DCG, which grows with each grade of its rows (two fills per run: all 0, all 1)."""
    qrels = {"q1": {"r1": 1, "n1": 0}, "q2": {"r1": 1, "n1": 0}}
    deep = ["r1", *[f"u{i}" for i in range(13)]]
    runs = {"A": {"q1": deep, "q2": ["r1"]}, "B": {"q1": ["n1", "u0", "r1"], "q2": ["n1", "r1"]}}
    path, paths = write(tmp_path, qrels, runs)
    assert main(["compare", path, *paths, "-m", "ap", "-m", "ndcg negative=keep", "-m", "ap@2", "-m", "dcg",
                 "--unjudged-bounds", "--format", "json", "--queries", "0"]) == 0
    doc = json.loads(capsys.readouterr().out)
    pairs = {p["label"]: p for p in doc["pairs"]}
    means = {(m["label"], m["run"]): m for m in doc["means"]}
    assert (pairs["ap"]["unjudged_exact"], pairs["ap"]["unjudged_by_range"]) == (1, 1)
    assert (means[("ap", "A")]["unjudged_exact"], means[("ap", "A")]["unjudged_by_range"]) == (1, 1)
    assert (means[("ap", "B")]["unjudged_exact"], means[("ap", "B")]["unjudged_by_range"]) == (2, 0)
    assert means[("ap", "A")]["mean_low"] == pytest.approx(0.5) and means[("ap", "A")]["mean_high"] == 1.0
    assert pairs["ap"]["unjudged_high"] - pairs["ap"]["unjudged_low"] >= 1
    keep = pairs["ndcg negative=keep"]
    assert (keep["unjudged_low"], keep["unjudged_high"], keep["unjudged_verdict"]) == ("-inf", "inf", "not robust")
    assert (pairs["ap@2"]["unjudged_exact"], pairs["ap@2"]["unjudged_by_range"]) == (2, 0)
    assert (pairs["dcg"]["unjudged_exact"], pairs["dcg"]["unjudged_by_range"]) == (2, 0)
    dcg_a = means[("dcg", "A")]  # (q1: r1 then 13 holes; q2: r1)
    top = (1 + sum(1 / np.log2(i + 1) for i in range(2, 15)) + 1) / 2
    assert (dcg_a["mean_low"], dcg_a["mean_high"]) == pytest.approx((1.0, top))
    notes = doc["settings"]["unjudged_bounds"]["by_range"]
    assert "ap A vs B: 1 query has more than 4096 fills: bounded by the measure's range [0, 1]" in notes
    assert any(n.startswith("ndcg negative=keep A vs B: 1 query has more than 4096 fills: unbounded") for n in notes)
    assert main(["eval", path, *paths, "-m", "ap", "--unjudged-bounds"]) == 0
    out = capsys.readouterr().out
    assert "ap A: 1 query has more than 4096 fills: bounded by the measure's range [0, 1]" in out
    assert main(["eval", path, *paths, "-m", "ndcg negative=keep", "--unjudged-bounds", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["unjudged_bounds"]["means"]
    assert (rows[0]["low"], rows[0]["high"], rows[0]["by_range"]) == ("-inf", "inf", 1)


def test_ideal_max_refuses_a_fill_above_the_top_grade():
    """ideal=max reads the top grade of the whole qrels: a fill above it would raise every query's ideal."""
    from rankflavor.errors import UsageError

    qrels = {"q1": {"r1": 2, "n1": 0}, "q2": {"r1": 1}}
    runs = {"A": scored({"q1": ["u1", "r1"], "q2": ["u1", "r1"]}), "B": scored({"q1": ["r1"], "q2": ["r1"]})}
    cmp = compare(qrels, runs, "ndcg@2 ideal=max", n_resamples=10)
    add_unjudged_bounds(cmp)  # (fills up to each query's top grade: at most the qrels' top)
    assert np.isfinite(cmp.pairs.unjudged_high.iloc[0])
    with pytest.raises(UsageError, match="ideal=max reads the top grade of the whole qrels"):
        add_unjudged_bounds(compare(qrels, runs, "ndcg@2 ideal=max", n_resamples=10), 3)
