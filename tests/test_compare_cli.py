"""`rankflavor compare` and `rankflavor diff` on the command line."""

from __future__ import annotations

import json
import shlex

import pytest

from rankflavor.cli.main import main
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

X, Y = (str(p) for p in SEED000_RUNS)
QRELS = str(SEED000_QRELS)


def run_cli(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_example_names_the_gain_reversal_and_the_cutoff_effect(capsys):
    code, out, _ = run_cli(capsys, "compare", "--example")
    assert code == 0
    assert out.startswith("verdict X.run vs Y.run: no finding")  # (one query: nothing can be significant)
    assert "smallest changes of flavor that change the order of the means, not significant on both sides" in out
    assert "gain effect at @3: gain linear -> exp2 (ndcg@3 -> ndcg@3 gain=exp2): X.run 0.904976558 vs " \
           "Y.run 0.760187533 becomes 0.807558881 vs 0.817874758: Y.run overtakes X.run" in out
    assert "cutoff effect at gain=linear: cutoff 3 -> 4 (ndcg@3 -> ndcg@4): X.run 0.904976558 vs " \
           "Y.run 0.760187533 becomes 0.904976558 vs 0.923885009: Y.run overtakes X.run" in out
    # every score row carries its canonical flavor
    assert "ndcg@3 gain=exp2 discount=log2 ideal=global ideal_depth=k ties=docid_desc" in out


def test_grids_listed(capsys):
    code, out, _ = run_cli(capsys, "compare", "--grids")
    assert code == 0
    for name in ("default", "gain", "ties", "judged", "wide", "presets"):
        assert f"\n{name} " in out
    assert "gain: linear exp2; ideal: global local; ties: docid_desc average" in out


def test_json_and_csv(capsys):
    code, out, _ = run_cli(capsys, "compare", QRELS, X, Y, "-k", "3", "-k", "4", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["verdicts"][0]["verdict"] == "no finding"
    assert {f["kind"] for f in data["flips"]} == {"order of the means"}
    assert len(data["flavors"]) == 16 and len(data["pairs"]) == 16
    assert data["settings"]["correction"] == "none (one pair)"
    assert data["top_differences"][0]["query"] == "q1"
    code, out, _ = run_cli(capsys, "compare", QRELS, X, Y, "-m", "ndcg@3", "-m", "ndcg@3 gain=exp2", "--format", "csv")
    lines = out.strip().splitlines()
    assert lines[0].startswith("flavor,run_a,run_b,mean_a,mean_b") and len(lines) == 3


def test_three_runs_say_holm(capsys, tmp_path):
    z = tmp_path / "Z.run"
    z.write_text("q1 Q0 D 1 4 Z\nq1 Q0 C 2 3 Z\nq1 Q0 B 3 2 Z\nq1 Q0 A 4 1 Z\n")
    code, out, _ = run_cli(capsys, "compare", QRELS, X, Y, str(z), "-m", "ndcg@3", "--queries", "0")
    assert code == 0
    assert "Holm over the 3 pairs of each flavor" in out
    assert out.count("verdict ") == 3
    code, out, _ = run_cli(capsys, "compare", QRELS, X, Y, str(z), "-m", "ndcg@3", "--baseline", str(z))
    assert code == 0 and "verdict Z.run vs X.run" in out and "verdict Z.run vs Y.run" in out


def test_usage_errors_exit_2(capsys):
    assert run_cli(capsys, "compare", QRELS, X)[0] == 2
    assert run_cli(capsys, "compare", QRELS, X, Y, "--grid", "nope")[0] == 2
    code, _, err = run_cli(capsys, "compare", QRELS, X, Y, "--baseline", "nope")
    assert code == 2 and "did you mean" not in err
    for typed in ("X", "X.rnu"):  # (a run named without its extension, or misspelt)
        code, _, err = run_cli(capsys, "compare", QRELS, X, Y, "-m", "ndcg@3", "--baseline", typed)
        assert code == 2 and "; did you mean 'X.run'" in err, err
    assert run_cli(capsys, "diff", QRELS, X, "-m", "ndcg@3")[0] == 2
    assert run_cli(capsys, "diff", QRELS, X, Y, X, "-m", "ndcg@3", "-m", "ndcg@4")[0] == 2


def test_diff_table_and_json(capsys):
    code, out, _ = run_cli(capsys, "diff", QRELS, X, Y, "-m", "ndcg@3", "-m", "ndcg@4 gain=exp2")
    assert code == 0
    assert "1     cutoff 3 -> 4" in out and "2     gain linear -> exp2" in out
    assert "systems" in out
    explain = next(line for line in out.splitlines() if "rankflavor explain" in line)
    argv = shlex.split(explain[explain.index("rankflavor explain"):])
    assert main(argv[1:]) == 0
    capsys.readouterr()
    code, out, _ = run_cli(capsys, "diff", QRELS, X, "-m", "ndcg@3 ties=average", "-m", "ndcg@3 ideal=recall(3)",
                           "--format", "json")
    data = json.loads(out)
    assert [s["axis"] for s in data["steps"]] == ["", "ties", "ideal"]
    assert data["notes"]


@pytest.mark.parametrize("spec", ["ndcg@3", "ndcg@3 gain=exp2"])
def test_explain_lines_printed_by_compare_work(capsys, spec):
    code, out, _ = run_cli(capsys, "compare", QRELS, X, Y, "-m", spec, "-m", "ndcg@4")
    assert code == 0
    lines = [line for line in out.splitlines() if "rankflavor explain" in line]
    assert lines
    argv = shlex.split(lines[0][lines[0].index("rankflavor explain"):])
    assert main(argv[1:]) == 0


def test_warnings_table_only_when_a_warning_applies(capsys, tmp_path):
    qrels = tmp_path / "q.qrels"
    qrels.write_text("q1 0 rel 2\nq1 0 half 1\nq1 0 zero 0\n")
    a, b = tmp_path / "a.run", tmp_path / "b.run"
    a.write_text("q1 Q0 half 1 5 a\nq1 Q0 rel 2 3 a\nq1 Q0 zzz 3 3 a\n")
    b.write_text("q1 Q0 zero 1 3 b\nq1 Q0 rel 2 2 b\n")
    code, out, _ = run_cli(capsys, "compare", str(qrels), str(a), str(b), "-m", "ndcg@2")
    assert code == 0 and "tie order alone could reverse the means' order" in out
    assert "ties across @k (pessimistic / optimistic)" in out and "judged@k" in out
    table = out[out.index("warnings (full messages"):].splitlines()
    assert len(table) == 3 and table[2].startswith("ndcg@2  a.run  1 q, mean ")
    code, out, _ = run_cli(capsys, "compare", QRELS, X, Y, "-m", "ndcg@3")
    assert "warnings (full messages" not in out


def test_compare_and_diff_take_the_duplicate_policy(tmp_path, capsys):
    from rankflavor.cli.main import main
    from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

    dup = tmp_path / "dup.run"
    dup.write_text(SEED000_RUNS[1].read_text() + "q1 Q0 A 5 0.5 Y\n")  # A listed twice
    x, q = str(SEED000_RUNS[0]), str(SEED000_QRELS)
    assert main(["compare", q, x, str(dup), "-m", "ndcg@3"]) == 3
    assert "duplicate" in capsys.readouterr().err
    assert main(["compare", q, x, str(dup), "-m", "ndcg@3", "--on-duplicate", "first", "--format", "json"]) == 0
    capsys.readouterr()
    assert main(["diff", q, str(dup), "-m", "ndcg@3", "-m", "ndcg@3 gain=exp2"]) == 3
    assert "duplicate" in capsys.readouterr().err
    assert main(["diff", q, str(dup), "-m", "ndcg@3", "-m", "ndcg@3 gain=exp2", "--on-duplicate", "max"]) == 0
    assert "gain linear -> exp2" in capsys.readouterr().out
