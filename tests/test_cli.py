"""The CLI on real files: output contract, formats, exit codes."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from rankflavor.cli.main import main
from rankflavor.examples import SEED000_QRELS, SEED000_RUNS

X, Y = (str(p) for p in SEED000_RUNS)
Q = str(SEED000_QRELS)


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_json_follows_the_output_contract(capsys):
    code, out, _ = run_cli(capsys, "eval", Q, X, Y, "-m", "ndcg@3", "-m", "ndcg@3 gain=exp2", "--format", "json",
                           "--per-query")
    assert code == 0
    doc = json.loads(out)
    assert set(doc) == {"version", "format_version", "provenance", "results"} and doc["format_version"] == 1
    inputs = doc["provenance"]["inputs"]
    assert [i["name"] for i in inputs] == ["seed000.qrels", "X.run", "Y.run"]
    assert all(len(i["sha256"]) == 64 and i["rows"] == 4 for i in inputs)
    assert len(doc["results"]) == 4
    first = doc["results"][0]
    assert set(first) >= {"run", "flavor", "mean", "counts", "warnings", "per_query"}
    assert first["run"] == "X.run" and first["flavor"].startswith("ndcg@3 gain=linear discount=log2")
    assert first["mean"] == pytest.approx(0.904976558, abs=1e-9)
    assert set(first["counts"]) >= {"scored", "zero_ideal", "missing", "unjudged_queries"}
    assert first["per_query"] == [{"query": "q1", "value": pytest.approx(0.904976558, abs=1e-9),
                                   "dcg": pytest.approx(4.761859507, abs=1e-9),
                                   "idcg": pytest.approx(5.261859507, abs=1e-9), "status": "ok"}]
    by = {(r["run"], r["flavor"].split()[1]): r["mean"] for r in doc["results"]}
    assert by[("X.run", "gain=linear")] > by[("Y.run", "gain=linear")]
    assert by[("X.run", "gain=exp2")] < by[("Y.run", "gain=exp2")]


def test_eval_csv_is_one_row_per_result_and_per_query_with_per_query(capsys):
    code, out, _ = run_cli(capsys, "eval", Q, X, Y, "-m", "ndcg@4", "-m", "sklearn@3", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["run"], r["label"]) for r in rows] == [("X.run", "ndcg@4"), ("X.run", "sklearn@3"),
                                                      ("Y.run", "ndcg@4"), ("Y.run", "sklearn@3")]
    assert float(rows[0]["mean"]) == pytest.approx(0.904976558, abs=1e-9)
    assert rows[0]["n"] == "1" and rows[0]["flavor"].startswith("ndcg@4 gain=linear") and "warnings" in rows[0]
    code, out, _ = run_cli(capsys, "eval", Q, X, "-m", "ndcg@4", "--format", "csv", "--per-query")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["label"], r["query"], r["status"]) for r in rows] == [("ndcg@4", "q1", "ok")]  # (no mean row)
    assert float(rows[0]["value"]) == pytest.approx(0.904976558, abs=1e-9)


def test_eval_names_each_row_by_its_label_and_warns_on_stderr(capsys, tmp_path):
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("q1 0 a 1\nq1 0 b 1\nq2 0 c 1\n")
    run.write_text("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0 t\nq1 Q0 u 3 1.0 t\n")  # a 3-way tie across @1; q2 missing
    code, out, err = run_cli(capsys, "eval", str(qrels), str(run), "-m", "sklearn@1", "-m", "ndcg@1 gain=exp2")
    assert code == 0 and "warning" not in out
    table, key = out.split("\n\nflavors:\n")
    header, *lines = table.splitlines()
    assert header.split() == ["run", "label", "mean", "n", "scored", "zero_ideal", "missing"]
    assert [line.split()[1] for line in lines] == ["sklearn@1", "ndcg@1"]  # (then gain=exp2 in the label column)
    assert [line.split(": ")[0] for line in key.splitlines()] == ["  sklearn@1", "  ndcg@1 gain=exp2"]
    assert key.count("ties=") == 2 and "ndcg@1 gain=exp2: ndcg@1 gain=exp2 discount=log2" in key
    assert "r.txt sklearn@1: 1 query has tied scores across the cutoff @1" in err
    assert "r.txt ndcg@1 gain=exp2: 1 judged query is absent from the run" in err
    code, out, err = run_cli(capsys, "eval", str(qrels), str(run), "-m", "sklearn@1", "-m", "ndcg@1 gain=exp2",
                             "--format", "trec")
    # sklearn averages the tie (2 of the 3 tied docs relevant): 2/3; docid_desc ranks u first: 0
    assert [line.split() for line in out.splitlines()] == [["sklearn@1", "all", "0.6667"],
                                                            ["ndcg@1;gain=exp2", "all", "0.0000"]]
    assert "warning: ties across cutoff: r.txt sklearn@1, r.txt ndcg@1;gain=exp2" in err
    assert "warning: missing: " in err


def test_eval_table_prints_the_full_flavor(capsys):
    code, out, _ = run_cli(capsys, "eval", Q, X, Y, "-m", "ndcg@3 gain=exp2", "--per-query")
    assert code == 0
    assert "ndcg@3 gain=exp2 discount=log2 ideal=global ideal_depth=k ties=docid_desc" in out
    assert "0.807559" in out and "0.817875" in out


def test_side_by_side_presets(capsys):
    code, out, _ = run_cli(capsys, "eval", Q, X, "-m", "sklearn@3", "-m", "trec_eval@3", "--format", "json")
    assert code == 0
    flavors = [r["flavor"] for r in json.loads(out)["results"]]
    assert any("ties=average" in f for f in flavors) and any("ties=docid_desc" in f for f in flavors)


def test_explain_json_and_table(capsys):
    code, out, _ = run_cli(capsys, "explain", Q, Y, "-q", "q1", "-m", "ndcg@3", "--format", "json")
    assert code == 0
    record = json.loads(out)
    assert record["dcg"] == pytest.approx(4.0) and record["status"] == "ok"
    assert [r["doc"] for r in record["ranked"]] == ["A", "D", "B", "C"]
    assert [r["doc"] for r in record["ideal"]][:1] == ["A"]
    assert len(record["universe"]) == 4
    code, out, _ = run_cli(capsys, "explain", Q, Y, "-q", "q1", "-m", "ndcg@3")
    assert code == 0 and "ideal list" in out and "ranked list" in out


def test_explain_takes_several_flavors_and_a_measure_set_each_record_the_one_of_its_flavor(capsys):
    """`-m A -m B`: one record per flavor, in order (none dropped: the last -m used to win alone), each equal to
    the record `-m` of that flavor alone gives; a measure set explains each member; JSON a list of them."""
    import rankflavor as rf

    code, out, _ = run_cli(capsys, "explain", Q, Y, "-q", "q1", "-m", "ndcg@3", "-m", "map", "--format", "json")
    records = json.loads(out)
    assert code == 0 and [r["flavor"] for r in records] == [str(rf.Flavor.parse(s)) for s in ("ndcg@3", "map")]
    for spec, record in zip(("ndcg@3", "map"), records, strict=True):
        code, alone, _ = run_cli(capsys, "explain", Q, Y, "-q", "q1", "-m", spec, "--format", "json")
        assert json.loads(alone) == record
    code, out, _ = run_cli(capsys, "explain", Q, Y, "-q", "q1", "-m", "ndcg@3", "-m", "map")
    assert code == 0 and out.count("run Y.run  query q1") == 2 and out.index("ndcg@3") < out.index("flavor map")
    code, out, _ = run_cli(capsys, "explain", Q, Y, "-q", "q1", "-m", "trec_eval.official", "--format", "json")
    members = [str(f) for f in rf.parse_spec("trec_eval.official")]
    assert code == 0 and [r["flavor"] for r in json.loads(out)] == members and len(members) == 28
    with pytest.raises(rf.SpecError, match="is a set of 28 trec_eval measures: name one"):
        rf.explain(Q, Y, "q1", "trec_eval.official")


def test_explain_takes_several_queries_each_record_the_one_of_its_query(capsys, tmp_path):
    """`-q A -q B`: each query's records in order (the last -q used to win alone); an unknown one among them is
    the usage error naming it."""
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("q1 0 A 3\nq1 0 B 1\nq2 0 C 2\n")
    run.write_text("q1 Q0 B 1 2 x\nq1 Q0 A 2 1 x\nq2 Q0 C 1 5 x\n")
    code, out, _ = run_cli(capsys, "explain", str(qrels), str(run), "-q", "q2", "-q", "q1", "-m", "ndcg@2", "-m",
                           "map", "--format", "json")
    records = json.loads(out)
    assert code == 0 and [(r["query"], r["flavor"].split()[0]) for r in records] == [
        ("q2", "ndcg@2"), ("q2", "map"), ("q1", "ndcg@2"), ("q1", "map")]
    code, alone, _ = run_cli(capsys, "explain", str(qrels), str(run), "-q", "q1", "-m", "map", "--format", "json")
    assert json.loads(alone) == records[3]
    code, _, err = run_cli(capsys, "explain", str(qrels), str(run), "-q", "q1", "-q", "q3", "-m", "map")
    assert code == 2 and "no query 'q3'" in err and "q1, q2" in err


def test_presets_lists_canonical_flavors(capsys):
    code, out, _ = run_cli(capsys, "presets", "--format", "json")
    assert code == 0
    rows = {r["preset"]: r for r in json.loads(out)}
    assert rows["trec_eval"]["flavor"].startswith("ndcg@5 gain=linear")
    assert rows["lightgbm"]["default_cutoffs"] == "1,2,3,4,5"


def test_demo_shows_the_reversal(capsys):
    code, out, _ = run_cli(capsys, "demo")
    assert code == 0
    assert "ndcg@3             X 0.904976558  Y 0.760187533  -> X ahead" in out
    assert "ndcg@3 gain=exp2   X 0.807558881  Y 0.817874758  -> Y ahead" in out
    assert "verify(): 0 disagreements" in out


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["eval", Q, X, "-m", "ndcg@10 gain=cubic"], 2, "unknown value 'cubic' for gain"),
        (["eval", Q, "/nonexistent/run"], 3, "file not found"),
        (["explain", Q, X, "-q", "nope", "-m", "ndcg@3"], 2, "no query 'nope'"),
        (["eval"], 2, "required"),
        (["frobnicate"], 2, "invalid choice"),
    ],
)
def test_exit_codes_and_one_clear_message(capsys, argv, code, message):
    try:
        got = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        got = exc.code
    _, err = capsys.readouterr()
    assert got == code
    assert message in err
    assert "Traceback" not in err


def test_console_script_runs_and_exits_with_codes(tmp_path):
    ok = subprocess.run([sys.executable, "-m", "rankflavor", "eval", Q, X, "-m", "ndcg@3"], capture_output=True,
                        text=True)
    assert ok.returncode == 0 and "0.904977" in ok.stdout
    bad = tmp_path / "bad.run"
    bad.write_text("q1 Q0 A 1 nan X\n")
    fail = subprocess.run([sys.executable, "-m", "rankflavor", "eval", Q, str(bad)], capture_output=True, text=True)
    assert fail.returncode == 3
    assert f"{bad}:1" in fail.stderr and "Traceback" not in fail.stderr


def test_metrics_lists_every_metric_and_its_trec_eval_names_parse_back(capsys):
    from rankflavor import registry
    from rankflavor.flavor import parse_spec

    code, out, _ = run_cli(capsys, "metrics", "--format", "json")
    rows = json.loads(out)
    assert code == 0 and [r["metric"].split("(")[0] for r in rows] == list(registry.names())
    for row in rows:
        for pattern in row["trec_eval"].split(", "):
            if pattern != "none":
                name = pattern.replace("_K", "_10").replace("X.XX", "0.50")
                assert parse_spec(f"trec_eval.{name}")[0].metric == row["metric"].split("(")[0], name
    code, out, _ = run_cli(capsys, "metrics")
    assert code == 0 and "iprec(level, count=round)" in out and "rprec_mult(factor=1)" in out
