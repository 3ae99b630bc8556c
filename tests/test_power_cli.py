"""`rankflavor power`, `compare --unjudged-bounds` and `eval --unjudged-bounds` on the command line."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from power_data import per_query, write_collection
from rankflavor.cli.main import main


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_power_json_separates_the_pairs_scipy_separates(tmp_path, capsys):
    qrels, runs = write_collection(tmp_path, 30, 4, seed=2)
    code, out, err = run_cli(capsys, "power", qrels, *runs, "-m", "ndcg@10", "-m", "P@10", "--test", "t",
                             "--alpha", "0.1", "--delta", "0.05", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["settings"]["test"] == "t" and doc["settings"]["alpha"] == 0.1 and doc["settings"]["delta"] == 0.05
    for row, spec in zip(doc["flavors"], ["ndcg@10", "P@10"], strict=True):
        matrix = per_query(qrels, runs, spec)
        p = [stats.ttest_rel(matrix[:, i], matrix[:, j]).pvalue for i, j in itertools.combinations(range(4), 2)]
        assert row["pairs"] == 6 and row["separated"] == sum(x < 0.1 for x in p)
        assert [c["p"] for c in row["asl_curve"]] == pytest.approx(sorted(p), rel=1e-9)
        assert row["topics_needed"] >= 2


def test_power_table_names_the_most_discriminative_flavor(tmp_path, capsys):
    qrels, runs = write_collection(tmp_path, 40, 5, seed=4)
    code, out, _ = run_cli(capsys, "power", qrels, *runs, "--grid", "gain", "-k", "5")
    assert code == 0
    assert "most discriminative flavor of ndcg:" in out or "no flavor of ndcg separates" in out
    assert "separated" in out.splitlines()[0] and "topics for 0.02" in out.splitlines()[0]
    assert "1000 resamples, seed 0" in out


@pytest.mark.parametrize("argv, message", [
    (["--delta", "0"], "not a difference worth detecting"),
    (["--power", "1"], "not a power"),
])
def test_power_refuses_bad_design_settings(tmp_path, capsys, argv, message):
    qrels, runs = write_collection(tmp_path, 5, 2, seed=1)
    with pytest.raises(SystemExit) as exit_info:
        main(["power", qrels, *runs, *argv])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_power_needs_two_runs(tmp_path, capsys):
    qrels, runs = write_collection(tmp_path, 5, 1, seed=1)
    code, _, err = run_cli(capsys, "power", qrels, *runs)
    assert code == 2 and "at least two runs" in err


def test_compare_unjudged_bounds_json_and_table(tmp_path, capsys):
    qrels, runs = write_collection(tmp_path, 20, 3, seed=6)
    code, out, err = run_cli(capsys, "compare", qrels, *runs, "-m", "ndcg@10", "-m", "ap", "--unjudged-bounds",
                             "--format", "json", "--queries", "0")
    assert code == 0, err
    doc = json.loads(out)
    for m in doc["means"]:  # unjudged=zero flavors: the holes judged 0 give the mean itself, one fill among them
        assert m["mean_low"] <= m["mean"] + 1e-12 <= m["mean_high"] + 2e-12 and m["mean_high"] > m["mean_low"]
        assert m["unjudged_exact"] + m["unjudged_by_range"] == m["n"]
    for pair in doc["pairs"]:
        assert pair["unjudged_low"] <= pair["diff"] + 1e-12 <= pair["unjudged_high"] + 2e-12
        inside = pair["unjudged_low"] <= 0 <= pair["unjudged_high"]
        assert pair["unjudged_verdict"] == ("not robust" if inside else "robust")
    assert doc["settings"]["unjudged_bounds"]["grade"] == "top"
    code, out, _ = run_cli(capsys, "compare", qrels, *runs, "-m", "ndcg@10", "--unjudged-bounds", "1",
                           "--queries", "0")
    assert code == 0 and "robust to unjudged" in out and "g = 1:" in out
    code, out, _ = run_cli(capsys, "compare", qrels, *runs, "-m", "ndcg@10", "--unjudged-bounds", "--format", "csv")
    assert code == 0 and ("unjudged_low,unjudged_high,unjudged_verdict,unjudged_exact,unjudged_by_range,settings"
                          in out.splitlines()[0])


@pytest.mark.parametrize("style", ["text", "markdown", "latex"])
def test_paper_table_with_unjudged_bounds(tmp_path, capsys, style):
    """`--table` prints the bounds under the table, the same numbers as the JSON's; under LaTeX as comments, so the
    file still compiles."""
    qrels, runs = write_collection(tmp_path, 20, 3, seed=6)
    code, out, err = run_cli(capsys, "compare", qrels, *runs, "-m", "ndcg@10", "--unjudged-bounds", "--table", style,
                             "--resamples", "200")
    assert code == 0, err
    table, bounds = out.split("bounds for unjudged documents:")
    code, doc, _ = run_cli(capsys, "compare", qrels, *runs, "-m", "ndcg@10", "--unjudged-bounds", "--format", "json",
                           "--resamples", "200", "--queries", "0")
    for m in json.loads(doc)["means"]:
        assert f"{m['mean_low']:.6f}" in bounds and f"{m['mean_high']:.6f}" in bounds
    if style == "latex":
        assert table.rstrip().endswith("%") and all(line.startswith("%") for line in bounds.splitlines()[1:])
    code, out, _ = run_cli(capsys, "compare", qrels, *runs, "-m", "ndcg@10", "--table", style, "--resamples", "200")
    assert "bounds for unjudged" not in out


def test_eval_unjudged_bounds(tmp_path, capsys):
    qrels, runs = write_collection(tmp_path, 10, 2, seed=8)
    code, out, err = run_cli(capsys, "eval", qrels, *runs, "-m", "P@5", "-m", "ndcg@5 unjudged=skip",
                             "--unjudged-bounds", "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["unjudged_bounds"]["means"]
    assert len(rows) == 4
    for row in rows:
        assert row["low"] <= row["high"] and row["exact"] + row["by_range"] == 10
        if row["label"] == "P@5":
            assert row["low"] == pytest.approx(row["mean"])
    code, out, _ = run_cli(capsys, "eval", qrels, *runs, "-m", "P@5", "--unjudged-bounds", "2")
    assert code == 0 and "bounds for unjudged documents" in out and "g = 2:" in out
    code, _, err = run_cli(capsys, "eval", qrels, *runs, "-m", "P@5", "--unjudged-bounds", "high")
    assert code == 2 and "unjudged grade 'high'" in err


def test_filled_grade_makes_p_at_k_a_count_of_holes(tmp_path, capsys):
    """P@5's high end counts every unjudged doc of the top 5 as relevant: (relevant + unjudged) / 5 per query."""
    qrels, runs = write_collection(tmp_path, 6, 1, seed=9)
    judged = {tuple(line.split()[0:3:2]): float(line.split()[3]) for line in open(qrels)}
    expected = []
    for q in range(6):
        top = [line.split() for line in open(runs[0]) if line.split()[0] == f"q{q}"][:5]
        expected.append(sum(1 for row in top if judged.get((row[0], row[2]), 1.0) >= 1) / 5)
    code, out, _ = run_cli(capsys, "eval", qrels, runs[0], "-m", "P@5", "--unjudged-bounds", "--format", "json")
    assert code == 0
    assert json.loads(out)["unjudged_bounds"]["means"][0]["high"] == pytest.approx(np.mean(expected))


@pytest.mark.parametrize("seed", range(5))
def test_top_rows_keeps_each_querys_first_depth_and_the_ties_at_the_cutoff(seed):
    from rankflavor.compare.holes import HoleKey, within_depth
    from rankflavor.compare.scores import Scores

    rng = np.random.default_rng(seed)
    run = {f"q{q}": {f"d{i}": float(rng.integers(0, 5)) for i in range(int(rng.integers(1, 9)))} for q in range(4)}
    scores = Scores.load({"q0": {"d0": 1}}, {"r": run})
    interned = scores.dataset.run("r")
    ids = scores.dataset.query_ids, scores.dataset.doc_ids
    for depth in (1, 3, 6):
        kept = within_depth(scores.dataset, interned, HoleKey(float(depth), False, False, False, True))[0]
        for q, d, inside in zip(interned.q, interned.d, kept, strict=True):
            values = sorted(run[ids[0][q]].values(), reverse=True)
            assert inside == (run[ids[0][q]][ids[1][d]] >= values[min(depth, len(values)) - 1])


def test_power_skips_a_flavor_the_data_refuses(capsys):
    """trec_eval's test qrels hold a negative grade: negative=error refuses it, and the other flavor is tested."""
    inputs = str(Path(__file__).parent / "dropin" / "inputs") + "/"
    code, out, err = run_cli(capsys, "power", inputs + "graded.qrels", inputs + "full.run", inputs + "short.run",
                             "-m", "ndcg@10", "-m", "ndcg@10 negative=error", "--format", "json")
    assert code == 0, err
    assert [row["label"] for row in json.loads(out)["flavors"]] == ["ndcg@10"]
    assert "skipped: ndcg@10 negative=error: negative grade" in err
    code, _, err = run_cli(capsys, "power", inputs + "graded.qrels", inputs + "full.run", inputs + "short.run",
                           "-m", "ndcg@10 negative=error")
    assert code != 0 and "negative grade" in err


def test_eval_bounds_table_names_its_ends_lowest_and_highest_over_the_fills(tmp_path, capsys):
    """NDCG with a hole judged relevant can be below NDCG with it nonrelevant (the ideal grows with it): the lowest
    end is below the mean, which judges the holes 0, and the columns say lowest and highest over the fills."""
    (tmp_path / "q.txt").write_text("q1 0 A 2\nq1 0 B 0\nq2 0 C 1\n")
    (tmp_path / "r.run").write_text("q1 Q0 A 1 2 X\nq1 Q0 Z 2 1 X\nq2 Q0 C 1 3 X\nq2 Q0 Y 1 2 X\n")
    code, out, err = run_cli(capsys, "eval", str(tmp_path / "q.txt"), str(tmp_path / "r.run"), "-m", "ndcg@10",
                             "--unjudged-bounds", "2")
    assert code == 0, err
    header, row = out.split("bounds for unjudged documents:\n")[1].splitlines()[:2]
    assert header.split()[3:] == ["lowest", "over", "the", "fills", "highest", "over", "the", "fills", "enumerated",
                                  "by", "range"], header
    mean, lowest, highest = (float(x) for x in row.split()[2:5])
    assert highest == mean == 1.0 and lowest < mean  # (q2: Y at grade 2 under C at 1: 2.26 / 2.63)
    assert lowest == pytest.approx((1 + (1 + 2 / np.log2(3)) / (2 + 1 / np.log2(3))) / 2)
