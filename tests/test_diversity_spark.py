"""The diversity measures (alpha_ndcg, err_ia, nrbp, p_ia, s_recall, ap_ia) through the Spark engine (rankflavor.spark,
local[2]) against the local engine: a slice of whole queries carries its subtopic judgments, made a SubtopicQrels
as the local reader makes it, so the per-query values, parts, statuses, means, counts and warnings are the local
engine's; the CLI's `eval --engine spark` prints what the local engine prints, and refuses a malformed subtopic
qrels with the local message."""

from __future__ import annotations

import json
import random

import pandas as pd
import pytest

from heavy import need_group

need_group("spark")

import rankflavor as rf  # noqa: E402
from rankflavor.cli.main import main  # noqa: E402
from test_spark_engine import _local_spark_ended, assert_same, spark  # noqa: E402, F401  (the fixtures)
from test_spark_partials import _assert_close  # noqa: E402

SPECS = ["alpha_ndcg@10", "alpha_ndcg(alpha=0.25)@5", "err_ia@20", "nrbp", "p_ia@10", "s_recall@10",
         "err_ia(norm=greedy)@5 unjudged=skip", "nrbp(beta=0.8,norm=greedy)", "alpha_ndcg(norm=ideal_ideal)@3 "
         "ties=docid_asc", "p_ia@5 rel_level=2 missing=zero", "s_recall@3 empty=one", "ap_ia",
         "ap_ia unjudged=skip run_depth=4", "ndcg@10"]


def workload(seed: int) -> tuple[list[tuple[str, str, str, int]], pd.DataFrame]:
    """Subtopic judgments (qid, subtopic, doc, grade) and a run frame (system, query, doc, score) of two runs:
    several subtopics per query (one query's only subtopic is `0`), graded and zero judgments, queries with no
    relevant subtopic, judged queries missing from a run, run queries without judgments, tied scores."""
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(12)]
    judgments = []
    for q in range(14):
        qid = f"q{q:02d}"
        subtopics = ["0"] if q == 3 else rng.sample(["1", "2", "3", "4", "10"], rng.randint(1, 4))
        no_relevant = q % 5 == 4
        for sub in subtopics:
            for doc in rng.sample(docs, rng.randint(1, 6)):
                judgments.append((qid, sub, doc, 0 if no_relevant else rng.choice([0, 0, 1, 1, 2, 3])))
    rows = []
    for system in ("A", "B"):
        for q in range(17):  # (q14..q16: run queries without judgments)
            if rng.random() < 0.15:
                continue  # (a judged query missing from this run)
            for doc in rng.sample(docs, rng.randint(1, 10)):
                rows.append((system, f"q{q:02d}", doc, float(rng.choice([1, 2, 2, 3, 4.5]))))
    return judgments, pd.DataFrame(rows, columns=["system", "query", "doc", "score"])


def local_report(judgments: list, run: pd.DataFrame, specs: list[str]) -> rf.Report:
    runs = {name: run[run.system == name][["query", "doc", "score"]].reset_index(drop=True)
            for name in sorted(run.system.unique())}
    return rf.evaluate(judgments, runs, specs)


@pytest.mark.parametrize("seed", [0, 1])
def test_diversity_measures_through_spark_equal_the_local_engine(spark, seed):  # noqa: F811
    """A subtopic qrels DataFrame, its queries cut into slices of a few queries (slice_rows=25): a slice whose
    queries' only subtopic is `0` is still a subtopic qrels (the plain-qrels check is of the whole DataFrame)."""
    from rankflavor.spark import Columns, evaluate

    judgments, run = workload(seed)
    report = local_report(judgments, run, SPECS)
    qrels = spark.createDataFrame(pd.DataFrame(judgments, columns=["qid", "topic", "doc", "grade"]))
    out = evaluate(qrels, spark.createDataFrame(run.rename(columns={"query": "qid"})), SPECS, slice_rows=25,
                   columns=Columns(query="qid", subtopic="topic", run="system"))
    try:
        assert_same(out, report)
        assert {"no_relevant", "missing", "ok"} <= set(out.query_frame().status)
    finally:
        out.unpersist()


def test_what_the_local_engine_reads_as_a_subtopic_qrels_is_read_on_the_driver(spark, tmp_path):  # noqa: F811
    """Rows (qid, subtopic, docid, grade) and a file's path, as rf.evaluate takes them."""
    from rankflavor.spark import Columns, evaluate

    judgments, run = workload(2)
    path = tmp_path / "div.qrels"
    path.write_text("".join(f"{q} {s} {d} {g}\n" for q, s, d, g in judgments))
    report = local_report(judgments, run, SPECS[:6])
    for given in (judgments, str(path)):
        out = evaluate(given, spark.createDataFrame(run), SPECS[:6], columns=Columns(run="system"))
        try:
            assert_same(out, report)
        finally:
            out.unpersist()


def test_a_plain_qrels_dataframe_is_refused_with_the_local_message(spark):  # noqa: F811
    from rankflavor.spark import evaluate

    run = spark.createDataFrame(pd.DataFrame([("7", "a", 1.0)], columns=["query", "doc", "score"]))
    plain = [("7", "0", "a", 1), ("8", "Q0", "b", 1)]
    with pytest.raises(rf.InputError) as local:
        rf.evaluate(plain, {"run": {"7": {"a": 1.0}}}, "p_ia@5")
    frame = spark.createDataFrame(pd.DataFrame(plain, columns=["query", "subtopic", "doc", "grade"]))
    with pytest.raises(rf.InputError) as remote:
        evaluate(frame, run, "p_ia@5")
    assert str(remote.value) == str(local.value) and "plain qrels" in str(local.value)
    no_subtopic = spark.createDataFrame(pd.DataFrame([("7", "a", 1)], columns=["query", "doc", "grade"]))
    with pytest.raises(rf.InputError, match="needs a subtopic qrels"):
        evaluate(no_subtopic, run, "p_ia@5")
    twice = spark.createDataFrame(pd.DataFrame([("7", "1", "a", 1), ("7", "1", "a", 0)],
                                               columns=["query", "subtopic", "doc", "grade"]))
    with pytest.raises(rf.InputError, match="query 7 subtopic 1 doc a is judged twice"):
        evaluate(twice, run, "p_ia@5").means_frame()


def _files(tmp_path):
    judgments, run = workload(3)
    qrels = tmp_path / "div.qrels"
    qrels.write_text("".join(f"{q} {s} {d} {g}\n" for q, s, d, g in judgments))
    runs = []
    for system in ("A", "B"):
        path = tmp_path / f"{system}.run"
        mine = run[run.system == system]
        path.write_text("".join(f"{q} Q0 {d} {i + 1} {s} {system}\n"
                                for i, (q, d, s) in enumerate(zip(mine["query"], mine["doc"], mine["score"],
                                                                  strict=True))))
        runs.append(str(path))
    return str(qrels), runs


def test_cli_engine_spark_prints_what_the_local_engine_prints(spark, tmp_path, capsys):  # noqa: F811
    qrels, runs = _files(tmp_path)
    base = ["eval", qrels, *runs, "-m", "alpha_ndcg@10", "-m", "err_ia@20", "-m", "nrbp", "-m", "p_ia@10",
            "-m", "s_recall@10", "-m", "ndeval.nERR-IA@5", "-m", "ndcg@5"]
    for fmt in (["--format", "table"], ["--format", "csv", "--per-query"], ["--format", "json"]):
        assert main([*base, *fmt]) == 0
        local = capsys.readouterr()
        assert main([*base, *fmt, "--engine", "spark"]) == 0
        remote = capsys.readouterr()
        assert remote.err == local.err
        if fmt[1] == "json":
            mine, theirs = json.loads(remote.out), json.loads(local.out)
            assert (mine["provenance"].pop("engine"), mine["provenance"].pop("master")) == ("spark", "local[2]")
            _assert_close(mine, theirs)  # (floats to 1e-12 relative: docs/spark.md)
        else:
            assert remote.out == local.out, fmt


@pytest.mark.parametrize("text", ["7 1 a 1\n7 2 b\n", "7 0 a 1\n8 0 b 1\n", "7 1 a 1\n7 1 a 2\n", "7 1 a x\n"])
def test_cli_engine_spark_refuses_a_malformed_subtopic_qrels_with_the_local_message(tmp_path, capsys, text):
    """Read on the driver by the local reader (file, line, text, fix), before a session starts."""
    qrels = tmp_path / "bad.qrels"
    qrels.write_text(text)
    run = tmp_path / "run"
    run.write_text("7 Q0 a 1 1.0 r\n")
    base = ["eval", str(qrels), str(run), "-m", "alpha_ndcg@5"]
    local_code = main(base)
    local = capsys.readouterr()
    assert main([*base, "--engine", "spark"]) == local_code == 3
    assert capsys.readouterr().err == local.err and str(qrels) in local.err
