"""The Spark engine (rankflavor.spark) against the local engine, in local mode (local[2]).

Identical per query (value, parts, status) and in the mean (1e-12 relative), the same counts and warnings,
for randomised cases batched into one job (many cases as distinct query ids, two runs in one DataFrame told
apart by a run column, hypothesis' flavors of every axis plus specs of every metric family), a skewed query
cut across slices, queries on one side only, and the refusals. Spark's cold start takes 6-30 s: one
session serves the module, and every case shares a few jobs.
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankflavor as rf
from heavy import need_group
from rankflavor import InputError, SpecError
from strategies import flavors, qrels_and_run
from test_spark_partials import _assert_close

need_group("spark")

SPECS = ["pytrec_eval.all_trec", "ndcg@3 ties=input", "ndcg@5 ties=quicksort(2)", "ndcg@3 round=2 mean_of=rounded",
         "ndcg@3 unjudged_queries=zero", "err@5", "rbp", "hits@3", "ndcg@3 ties=random(7)", "ndcg@2 unjudged=skip",
         "ndcg@3 empty=one missing=zero", "ndcg@3 ideal=recall(6)", "map ties=pessimistic", "p@2 round=3"]
SRC = Path(__file__).resolve().parents[1] / "src"


_LOCAL: list = []  # the local[2] session the tests share, made again after another module ended it


@pytest.fixture(scope="session")
def _local_spark_ended():
    """At the session's end: the shared local session stopped and its JVM ended (nothing left if already gone)."""
    yield
    from rankflavor.spark.session import end_spark

    end_spark()


@pytest.fixture
def spark(_local_spark_ended):
    """The shared local[2] session, started once; started again when a module ended it (test_spark_cluster.py
    ends it to open a session on its cluster: a process has one SparkContext)."""
    from rankflavor.spark import local_session

    if not _LOCAL or _LOCAL[0].sparkContext._jsc is None:
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)
        _LOCAL[:] = [local_session("local[2]", partitions=3)]
    return _LOCAL[0]


def frames(cases: list[tuple[dict, dict]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Cases as one qrels and one run frame: case i's queries prefixed `k{i}/`, its run in run `r{i % 2}`; each
    run row keeps its position (`line`) for the flavors that read the input order."""
    qrels, run = [], []
    for i, (q, r) in enumerate(cases):
        qrels += [(f"k{i}/{qid}", doc, float(g)) for qid, docs in q.items() for doc, g in docs.items()]
        run += [(f"r{i % 2}", f"k{i}/{qid}", doc, float(s)) for qid, docs in r.items() for doc, s in docs.items()]
    run.append(("r1", "k0/q0", "d0", 1.0))  # (both runs have rows)
    run.append(("r0", "k1/q0", "d1", 1.0))
    run_frame = pd.DataFrame(run, columns=["system", "query", "doc", "score"]).drop_duplicates(
        ["system", "query", "doc"]).reset_index(drop=True)
    run_frame["line"] = np.arange(len(run_frame))
    return pd.DataFrame(qrels, columns=["query", "doc", "grade"]), run_frame


def local_report(qrels: pd.DataFrame, run: pd.DataFrame, specs: list) -> rf.Report:
    runs = {name: run[run.system == name][["query", "doc", "score"]].reset_index(drop=True)
            for name in sorted(run.system.unique())}
    return rf.evaluate(qrels, runs, specs)


def assert_same(out, report: rf.Report) -> None:
    """Per query identical (value, parts, status); means to 1e-12 relative; counts and warnings equal."""
    key = ["run", "label", "query"]
    local = report.to_frame().sort_values(key).reset_index(drop=True)
    spark = out.query_frame().sort_values(key).reset_index(drop=True)
    assert len(local) == len(spark)
    for column in local.columns:
        a, b = local[column].to_numpy(), spark[column].to_numpy()
        if local[column].dtype.kind == "f":
            assert np.array_equal(a.astype(float), b.astype(float), equal_nan=True), column
        else:
            assert [str(x) for x in a] == [str(x) for x in b], column
    lm = report.means_frame().set_index(["run", "label"]).sort_index()
    sm = out.means_frame().set_index(["run", "label"]).sort_index()
    assert list(lm.index) == list(sm.index)
    for (run, label), row in lm.iterrows():
        other = sm.loc[(run, label)]
        a, b = row["mean"], other["mean"]
        if a is None or (isinstance(a, float) and math.isnan(a)):
            assert b is None or (isinstance(b, float) and math.isnan(b)), (run, label, b)
        else:
            assert b == pytest.approx(a, rel=1e-12, abs=1e-300), (run, label)
        for column in lm.columns:
            if column == "mean":
                continue
            x, y = row[column], other[column]
            if isinstance(x, float) and math.isnan(x):
                assert y is None or (isinstance(y, float) and math.isnan(y)) or y == 0, (run, label, column, y)
            else:
                assert x == y, (run, label, column)


@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(cases=st.lists(qrels_and_run(), min_size=6, max_size=12), drawn=st.lists(flavors(), min_size=4, max_size=8))
def test_random_cases_equal_the_local_engine(spark, cases, drawn):
    qrels, run = frames(cases)
    specs = [*SPECS, *(str(f) for f in drawn)]
    from rankflavor.spark import Columns, evaluate

    columns = Columns(run="system", order="line")
    try:
        report = local_report(qrels, run, specs)
    except rf.RankflavorError as exc:  # (the local engine refuses it: the Spark one must refuse it too)
        with pytest.raises(type(exc)):
            evaluate(spark.createDataFrame(qrels), spark.createDataFrame(run), specs, columns=columns).means_frame()
        return
    out = evaluate(spark.createDataFrame(qrels), spark.createDataFrame(run), specs, columns=columns)
    assert_same(out, report)
    out.unpersist()


def test_a_skewed_query_across_slices_and_one_sided_queries(spark):
    """One query with 3,000 rows among small ones, slices of 200 rows (the query held back until it ends), 3
    partitions; qrels-only queries (missing) and run-only queries (unjudged, counted) as locally."""
    rng = random.Random(7)
    qrels = [(f"q{q}", f"d{d}", float(rng.choice([0, 0, 1, 2, 3]))) for q in range(40) for d in range(0, 30, 3)]
    qrels += [("big", f"d{d}", float(rng.choice([0, 1, 2]))) for d in range(0, 3000, 7)]
    qrels += [("only_qrels", "d1", 1.0)]
    run = [("r0", f"q{q}", f"d{d}", float(rng.randint(0, 9))) for q in range(40) for d in range(rng.randint(1, 60))]
    run += [("r0", "big", f"d{d}", float(rng.randint(0, 50))) for d in range(3000)]
    run += [("r0", "only_run", f"d{d}", 1.0) for d in range(5)]
    qrels_frame = pd.DataFrame(qrels, columns=["query", "doc", "grade"])
    run_frame = pd.DataFrame(run, columns=["system", "query", "doc", "score"])
    specs = ["ndcg@10", "ndcg", "map", "p@5", "trec_eval@10 unjudged_queries=zero", "recall@100", "gm_map", "num_ret"]
    from rankflavor.spark import Columns, evaluate

    out = evaluate(spark.createDataFrame(qrels_frame), spark.createDataFrame(run_frame), specs,
                   columns=Columns(run="system"), partitions=3, slice_rows=200)
    report = local_report(qrels_frame, run_frame, specs)
    assert_same(out, report)
    means = out.means_frame()
    assert set(means.missing) == {1} and set(means.unjudged_queries) == {1}
    out.unpersist()


def test_refusals_and_errors_are_clear(spark):
    from rankflavor.spark import Columns, evaluate

    qrels = spark.createDataFrame(pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "grade": [1, 0]}))
    run = spark.createDataFrame(pd.DataFrame({"query": ["q1"] * 5, "doc": list("abcde"), "score": [1.0] * 5}))
    with pytest.raises(SpecError, match=r"Columns\(order="):
        evaluate(qrels, run, "ndcg@3 ties=input")
    with pytest.raises(SpecError, match=r"Columns\(order="):
        evaluate(qrels, run, "ndcg@3", on_duplicate="first")
    with pytest.raises(SpecError, match=r"qrels' order.*Columns\(order="):  # (ir_measures' compat ideal ties)
        evaluate(qrels, run, "ir_measures.Compat")
    with pytest.raises(InputError, match="no score column 'sim'"):
        evaluate(qrels, run, "ndcg@3", columns=Columns(score="sim"))
    with pytest.raises(InputError, match="more than 3 rows"):
        evaluate(qrels, run, "ndcg@3", slice_rows=2, max_query_rows=3).means_frame()
    doubled = spark.createDataFrame(pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "a"], "score": [1.0, 2.0]}))
    with pytest.raises(InputError, match="duplicate"):
        evaluate(qrels, doubled, "ndcg@3").means_frame()
    with pytest.raises(InputError, match="more than 3 rows"):  # (the last query of a partition, slices not full)
        evaluate(qrels, run, "ndcg@3", slice_rows=100, max_query_rows=3, partitions=1).means_frame()
    empty = spark.createDataFrame(pd.DataFrame({"query": ["q1"], "doc": ["a"], "grade": [1]})).limit(0)
    with pytest.raises(InputError) as local:
        rf.evaluate(pd.DataFrame({"query": [], "doc": [], "grade": []}), run.toPandas(), "ndcg@3")
    with pytest.raises(InputError) as remote:
        evaluate(empty, run, "ndcg@3")
    assert str(remote.value) == str(local.value)


def test_a_query_over_max_query_rows_is_refused_wherever_it_ends():
    """whole_query_slices (no Spark): the last query of a partition, a query that ends before the slice is
    full, and a query still going on, are all checked against max_query_rows."""
    import pyarrow as pa

    from rankflavor.spark.partitions import whole_query_slices

    def sizes(queries: list[str], slice_rows: int, max_rows: int, chunk: int = 1) -> list[int]:
        batches = pa.table({"query": queries}).to_batches(max_chunksize=chunk)
        return [t.num_rows for t in whole_query_slices(iter(batches), slice_rows, max_rows)]

    assert sizes(["a", "b", "b", "b"], 2, 3) == [1, 3]
    for queries, slice_rows in ((["a", "b", "b", "b", "b"], 2), (["a", "b", "b", "b", "b"], 100),
                                (["b", "b", "b", "b", "c"], 100), (["b", "b", "b", "b", "c"], 2)):
        with pytest.raises(InputError, match="query 'b' has more than 3 rows"):
            sizes(queries, slice_rows, 3)


def test_the_spark_package_uses_no_pyspark_4_only_api():
    """pyspark >= 3.5: no applyInArrow, DataFrame.transpose, and toArrow only behind a fallback (a 3.5 run by
    hand is what proves it; this keeps the known 4.x-only calls out)."""
    source = "\n".join(p.read_text() for p in (SRC / "rankflavor" / "spark").glob("*.py"))
    for name in (".applyInArrow(", ".transpose(", ".toArrow(schema", "createDataFrame(data)"):
        assert name not in source, name
    assert source.count(".toArrow()") == source.count('hasattr(frame, "toArrow")') == 1


def test_importing_rankflavor_and_its_spark_package_never_imports_pyspark():
    probe = ("import sys, rankflavor, rankflavor.spark, rankflavor.spark.partitions, rankflavor.spark.merge\n"
             "rankflavor.evaluate\nprint('pyspark' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env)
    assert done.stdout.strip() == "False", done.stderr


def test_cli_engine_spark_prints_what_the_local_engine_prints(spark, tmp_path, capsys):
    """Every output format of `eval --engine spark` on TREC files equals the local engine's (the table, CSV and
    trec lines byte for byte); --output writes the per-query rows as Parquet."""
    from rankflavor.cli.main import main

    ex = SRC / "rankflavor" / "examples"
    base = ["eval", str(ex / "seed000.qrels"), str(ex / "X.run"), str(ex / "Y.run"), "-m", "ndcg@10", "-m", "map",
            "-m", "ndcg@5 ties=input", "-m", "trec_eval.official"]
    for fmt in (["--format", "table"], ["--format", "csv", "--per-query"], ["--format", "trec"]):
        assert main([*base, *fmt]) == 0
        local = capsys.readouterr()
        assert main([*base, *fmt, "--engine", "spark", "--output", str(tmp_path / "pq"), "--overwrite"]) == 0
        remote = capsys.readouterr()
        assert remote.out == local.out, fmt
        assert remote.err.count("warning:") == local.err.count("warning:")
    written = pd.read_parquet(tmp_path / "pq")
    assert set(written.run) == {"X.run", "Y.run"} and {"query", "value", "status"} <= set(written.columns)


def test_cli_engine_spark_takes_names_and_against_as_the_local_engine_does(spark, tmp_path, capsys):
    """`--name FILE=NAME` and `--against saved.json` on Spark: the same stdout and warnings as the local engine (the
    named run in the table, the provenance and the comparison); a Parquet qrels, which Spark reads without hashing
    it, cannot be checked to be the saved results' qrels: refused, exit 2, saying why."""
    import json

    from rankflavor.cli.main import main

    ex = SRC / "rankflavor" / "examples"
    saved = tmp_path / "saved.json"
    base = ["eval", str(ex / "seed000.qrels"), str(ex / "X.run"), str(ex / "Y.run"), "-m", "ndcg@3", "-m", "map"]
    assert main([*base, "--format", "json", "--name", f"{ex / 'X.run'}=bm25"]) == 0
    saved.write_text(capsys.readouterr().out)
    asked = [*base, "-m", "p@2", "--name", "X.run=bm25", "--against", str(saved)]
    for fmt in ("table", "json"):
        assert main([*asked, "--format", fmt]) == 0
        local = capsys.readouterr()
        assert main([*asked, "--format", fmt, "--engine", "spark"]) == 0
        remote = capsys.readouterr()
        if fmt == "json":
            mine, theirs = json.loads(remote.out), json.loads(local.out)
            assert (mine["provenance"].pop("engine"), mine["provenance"].pop("master")) == ("spark", "local[2]")
            assert mine == theirs and [i["name"] for i in mine["provenance"]["inputs"]][1:] == ["bm25", "Y.run"]
            assert {(r["run"], r["label"]): r["change"] for r in mine["against"]["rows"]}[("bm25", "map")] == 0
        else:
            assert remote.out == local.out and "bm25" in local.out and "X.run" not in local.out
            assert remote.err == local.err and "p@2: in the saved" not in local.err
    pd.read_csv(ex / "seed000.qrels", sep=" ", header=None, names=["query", "it", "doc", "grade"]).drop(
        columns="it").to_parquet(tmp_path / "q.parquet")
    assert main(["eval", str(tmp_path / "q.parquet"), str(ex / "X.run"), "-m", "map", "--engine", "spark",
                 "--against", str(saved)]) == 2
    err = capsys.readouterr().err
    assert "no sha256" in err and "Traceback" not in err, err


def test_a_master_that_does_not_answer_is_a_usage_error_at_once(tmp_path):
    """`--master` with no master behind it, or not a URL: exit 2 in seconds with one line that says so (Spark itself
    retries for a minute, then prints a Java and a Python trace); a master Spark refuses: one line too."""
    import socket

    with socket.socket() as probe:  # (a port nobody listens on: bound, then closed)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ex = SRC / "rankflavor" / "examples"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    for master, says in [(f"spark://127.0.0.1:{port}", f"no Spark master answers (127.0.0.1:{port}: "),
                         (f"spark://127.0.0.1:{port},127.0.0.1:{port}", "; 127.0.0.1:"),
                         ("spark://localhost", "write spark://HOST:PORT"), ("spark://h:abc", "write spark://HOST:PORT"),
                         (f"sc://127.0.0.1:{port}", "no Spark master answers"),
                         ("foo://x", "Spark could not start a session")]:
        done = subprocess.run([sys.executable, "-m", "rankflavor", "eval", str(ex / "seed000.qrels"), str(ex / "X.run"),
                               "-m", "ndcg@3", "--engine", "spark", "--master", master],
                              capture_output=True, text=True, timeout=120, env=env)
        last = done.stderr.strip().splitlines()[-1]
        assert done.returncode == 2 and last.startswith(f"rankflavor: --master {master}: ") and says in last, (
            master, done.stderr[-2000:])
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr, master


def _warned_inputs(tmp_path: Path) -> tuple[Path, Path]:
    """A qrels and a run whose input warnings are many: a run query only up to leading zeros ('007' vs '7'),
    run-only and qrels-only queries, rank-like scores, a grade above 31."""
    qrels = tmp_path / "w.qrels"
    qrels.write_text("".join(f"{q} 0 d{d} {g}\n" for q, d, g in [("7", 1, 1), ("7", 2, 40), ("q1", 1, 2), ("q1", 3, 0),
                                                                  ("q2", 1, 1)]))
    run = tmp_path / "w.run"
    rows = [("007", d, r) for r, d in enumerate([1, 2, 3], 1)] + [("q1", d, r) for r, d in enumerate([3, 1, 4], 1)]
    rows += [("only_run", 1, 1)]
    run.write_text("".join(f"{q} Q0 d{d} {r} {r} tag\n" for q, d, r in rows))
    return qrels, run


def test_cli_engine_spark_gives_the_local_input_warnings_and_provenance(spark, tmp_path, capsys):
    """TREC inputs: the same stderr (input warnings), and JSON equal but for the engine's own keys (engine,
    master), warning_details with their numbers included. Parquet inputs (read by Spark): the counts and the
    one-sided queries' warnings that Spark aggregates tell, the rest named in not_computed."""
    import json

    from rankflavor.cli.main import main

    qrels, run = _warned_inputs(tmp_path)
    base = ["eval", str(qrels), str(run), "-m", "ndcg@3", "-m", "p@2 unjudged_queries=zero", "--format", "json"]
    assert main(base) == 0
    local = capsys.readouterr()
    assert main([*base, "--engine", "spark"]) == 0
    remote = capsys.readouterr()
    assert remote.err == local.err and "leading zeros" in local.err and "rank" in local.err
    mine, theirs = json.loads(remote.out), json.loads(local.out)
    assert (mine["provenance"].pop("engine"), mine["provenance"].pop("master")) == ("spark", "local[2]")
    assert mine == theirs
    assert any(len(w) > 2 for r in mine["results"] for w in r["warning_details"])  # (code, message, numbers)

    pd.read_csv(qrels, sep=" ", header=None, names=["query", "it", "doc", "grade"], dtype={"query": str}).drop(
        columns="it").to_parquet(tmp_path / "q.parquet")
    pd.read_csv(run, sep=" ", header=None, names=["query", "q0", "doc", "rank", "score", "tag"],
                dtype={"query": str})[["query", "doc", "score"]].to_parquet(tmp_path / "r.parquet")
    assert main(["eval", str(tmp_path / "q.parquet"), str(tmp_path / "r.parquet"), "-m", "ndcg@3", "--format", "json",
                 "--engine", "spark"]) == 0
    parquet = capsys.readouterr()
    provenance = json.loads(parquet.out)["provenance"]
    for got, want in zip(provenance["inputs"], theirs["provenance"]["inputs"], strict=True):
        for key in ("rows", "judged_queries", "judgments", "negative_grades", "non_integer_grades", "max_grade",
                    "queries", "queries_in_common", "queries_not_in_qrels", "rows_of_queries_not_in_qrels",
                    "qrels_queries_not_in_run"):
            assert got.get(key) == want.get(key), key
    expected = [w.replace("w.run:", "r.parquet:") for w in theirs["provenance"]["input_warnings"]
                if "leading zeros" not in w and "rank" not in w]
    assert provenance["input_warnings"] == expected and len(expected) == 3 and "sha256" in provenance["not_computed"]
    assert [line for line in parquet.err.splitlines() if line.startswith("warning: ")] == [
        f"warning: {w}" for w in expected]
    # weights naming a query the data lacks: the local warning, from Spark's counts (spark/provenance.py)
    weights = tmp_path / "w.txt"
    queries = sorted(set(pd.read_parquet(tmp_path / "q.parquet")["query"]) | set(pd.read_parquet(tmp_path / "r.parquet")[
        "query"]))
    weights.write_text("".join(f"{q} 1\n" for q in queries) + "zz_typo 1\n")
    args = [str(tmp_path / "q.parquet"), str(tmp_path / "r.parquet"), "-m", "ndcg@3 weights=w", "--weights",
            f"w={weights}"]
    said = (f"warning: weights 'w' ({weights}): 1 query of its {len(queries) + 1} is in neither the qrels nor the runs "
            "(e.g. 'zz_typo'): its weight is never read; check the query ids")
    for engine in ("local", "spark"):
        assert main(["eval", *args, "--engine", engine]) == 0
        assert said in capsys.readouterr().err.splitlines(), engine


def _weighted_case() -> tuple[pd.DataFrame, pd.DataFrame, dict[str, dict[str, float]]]:
    """Two runs over 24 queries, a query judged only 0 (`qz`: a zero ideal) without a weight in `w`, a run-only
    query (`only_run`), a qrels-only one (`only_qrels`); weights `w` (skewed, dyadic), `t` (every query, some 0)
    and `zero` (all 0)."""
    rng = random.Random(11)
    qrels = [(f"q{q}", f"d{d}", float(rng.choice([0, 0, 1, 2, 3]))) for q in range(24) for d in range(0, 20, 2)]
    qrels += [("qz", "d1", 0.0), ("qz", "d2", 0.0), ("only_qrels", "d1", 1.0)]
    run = [(f"r{r}", f"q{q}", f"d{d}", float(rng.randint(0, 6))) for r in range(2) for q in range(24)
           for d in range(rng.randint(1, 15))]
    run += [(f"r{r}", q, f"d{d}", 1.0 + d) for r in range(2) for q in ("qz", "only_run") for d in range(3)]
    queries = [f"q{q}" for q in range(24)]
    w = {q: rng.choice([0.25, 0.5, 1.0, 4.0, 16.0]) for q in [*queries, "only_run", "only_qrels", "elsewhere"]}
    t = {q: rng.choice([0.0, 0.5, 2.0, 8.0]) for q in [*queries, "qz", "only_run", "only_qrels"]}
    t["q0"] = 3.0
    return (pd.DataFrame(qrels, columns=["query", "doc", "grade"]),
            pd.DataFrame(run, columns=["system", "query", "doc", "score"]),
            {"w": w, "t": t, "zero": dict.fromkeys(w, 0.0)})


def test_weighted_means_equal_the_local_engine(spark):
    """weights=NAME from a mapping and from a Spark DataFrame: the means (and counts, warnings) of the local
    engine, across slices; its refusals (an averaged query with no weight, a total weight of 0) with its
    messages."""
    from rankflavor.spark import Columns, evaluate

    qrels, run, weights = _weighted_case()
    specs = ["ndcg@5 weights=w empty=skip", "map weights=w empty=skip unjudged_queries=zero", "ndcg@5 weights=t",
             "gm_map weights=t", "p@3 weights=t round=2 mean_of=rounded", "ndcg@5 weights=t unjudged=skip",
             "ndcg@5 weights=t unjudged_queries=zero", "num_ret weights=t", "ndcg@5 weights=w", "ndcg@5 weights=zero",
             "num_ret weights=w"]
    runs = {name: run[run.system == name][["query", "doc", "score"]].reset_index(drop=True) for name in ("r0", "r1")}
    ok, refused = [], {}
    for spec in specs:
        try:
            rf.evaluate(qrels, runs, [spec], weights=weights).means_frame()
            ok.append(spec)
        except rf.RankflavorError as exc:
            refused[spec] = exc
    assert len(ok) >= 6 and "1 query averaged has no weight in 'w' ('qz')" in str(refused.get("ndcg@5 weights=w"))
    # (a sum too: every query summed)
    assert "1 query averaged has no weight in 'w' ('qz')" in str(refused.get("num_ret weights=w"))
    spark_weights = {"w": weights["w"], "zero": weights["zero"],
                     "t": spark.createDataFrame(pd.DataFrame(list(weights["t"].items()), columns=["query", "weight"]))}
    qrels_frame, run_frame = spark.createDataFrame(qrels), spark.createDataFrame(run)
    out = evaluate(qrels_frame, run_frame, ok, columns=Columns(run="system"), weights=spark_weights, slice_rows=100)
    report = rf.evaluate(qrels, runs, ok, weights=weights)
    assert_same(out, report)
    unweighted = rf.evaluate(qrels, runs, "ndcg@5").means_frame()["mean"].tolist()
    assert out.means_frame().set_index("label").loc["ndcg@5 weights=t", "mean"].tolist() != pytest.approx(unweighted)
    out.unpersist()
    for spec, exc in refused.items():
        with pytest.raises(type(exc)) as remote:
            evaluate(qrels_frame, run_frame, spec, columns=Columns(run="system"), weights=spark_weights)
        assert str(remote.value) == str(exc), spec
    with pytest.raises(SpecError, match="weights=t names no weights"):
        evaluate(qrels_frame, run_frame, "ndcg@5 weights=t")
    doubled = spark.createDataFrame(pd.DataFrame({"query": ["q1", "q1"], "weight": [1.0, 2.0]}))
    with pytest.raises(InputError, match="weighted twice"):
        evaluate(qrels_frame, run_frame, "ndcg@5 weights=t", columns=Columns(run="system"), weights={"t": doubled})


def test_unjudged_bounds_equal_the_local_ones_across_slices(spark, tmp_path, capsys):
    """`unjudged_bounds=GRADE` (eval --unjudged-bounds): each run x flavor's lowest and highest mean over the fills,
    merged from the slices' ends (compare/fills.py query_ends per slice), and its queries enumerated and bounded by
    their range, equal the local report's (compare/unjudged_bounds.py report_bounds: 1e-12 relative), at each
    query's top grade and at a declared one, weighted and not, a geometric mean, a measure at its extreme fills,
    queries over 4096 fills, with a zero-ideal, a run-only and a qrels-only query and many small slices; the CLI
    prints the local table and JSON."""
    import json

    from rankflavor.cli.main import main
    from rankflavor.compare.unjudged_bounds import report_bounds
    from rankflavor.spark import Columns, evaluate

    qrels, run, weights = _weighted_case()
    # (a query with 14 holes: map reads them all, 2^14 fills, bounded by its range)
    qrels = pd.concat([qrels, pd.DataFrame([("deep", "j0", 1.0)], columns=qrels.columns)], ignore_index=True)
    run = pd.concat([run, pd.DataFrame([(f"r{r}", "deep", f"u{d}", float(20 - d)) for r in range(2) for d in range(14)],
                                       columns=run.columns)], ignore_index=True)
    weights["t"]["deep"] = 1.0
    specs = ["ndcg@5", "map", "p@3 unjudged=skip", "ndcg@5 weights=t", "recall@10 missing=zero", "ndcg@4 ties=average",
             "dcg@5", "gm_map", "ndcg@10 unjudged=skip"]  # (dcg: its extreme fills)
    runs = {name: run[run.system == name][["query", "doc", "score"]].reset_index(drop=True) for name in ("r0", "r1")}
    report = rf.evaluate(qrels, runs, specs, weights={"t": weights["t"]})
    qrels_frame, run_frame = spark.createDataFrame(qrels), spark.createDataFrame(run)
    for grade in ("top", "2"):
        local = {(b.label, b.run): (b.low, b.high, b.exact, b.by_range) for b in report_bounds(report, grade)}
        out = evaluate(qrels_frame, run_frame, specs, columns=Columns(run="system"), weights={"t": weights["t"]},
                       slice_rows=60, unjudged_bounds=grade)
        mine = {(a["label"], a["run"]): a["bounds"] for a in out.aggregate_rows}
        out.unpersist()
        assert mine.keys() == local.keys()
        assert any(high > low + 0.01 for low, high, _, _ in local.values()), grade  # (the holes move the means)
        assert all(exact for _, _, exact, _ in local.values()) and any(by for _, _, _, by in local.values())
        for key, (low, high, exact, by_range) in local.items():
            assert mine[key] == (pytest.approx(low, rel=1e-12), pytest.approx(high, rel=1e-12), exact, by_range), (
                grade, key)
    paths = {"qrels": tmp_path / "b.qrels", "run": tmp_path / "b.run"}
    paths["qrels"].write_text("".join(f"{q} 0 {d} {int(g)}\n" for q, d, g in qrels.itertuples(index=False)))
    paths["run"].write_text("".join(f"{q} Q0 {d} 1 {s} x\n" for r, q, d, s in run.itertuples(index=False) if r == "r0"))
    base = ["eval", str(paths["qrels"]), str(paths["run"]), "-m", "ndcg@5", "-m", "map", "--unjudged-bounds", "2"]
    for fmt in ("table", "json"):
        assert main([*base, "--format", fmt]) == 0
        theirs = capsys.readouterr().out
        assert main([*base, "--format", fmt, "--engine", "spark"]) == 0
        mine_out = capsys.readouterr().out
        if fmt == "json":
            a, b = json.loads(mine_out), json.loads(theirs)
            _assert_close(a["unjudged_bounds"], b["unjudged_bounds"])
            assert len(b["unjudged_bounds"]["means"]) == 2
        else:
            assert mine_out == theirs and "bounds for unjudged documents" in theirs


def test_cli_engine_spark_takes_weights(spark, tmp_path, capsys):
    """`eval --engine spark --weights NAME=FILE` prints the local JSON (means to 1e-12 relative), the weights'
    provenance (sha256, queries in the data) included, and the local warning of weights no flavor asks for."""
    import json

    from rankflavor.cli.main import main

    qrels, run, weights = _weighted_case()
    paths = {"qrels": tmp_path / "w.qrels", "run": tmp_path / "w.run", "weights": tmp_path / "w.txt"}
    paths["qrels"].write_text("".join(f"{q} 0 {d} {int(g)}\n" for q, d, g in qrels.itertuples(index=False)))
    paths["run"].write_text("".join(f"{q} Q0 {d} 1 {s} x\n" for r, q, d, s in run.itertuples(index=False) if r == "r0"))
    paths["weights"].write_text("".join(f"{q} {w}\n" for q, w in weights["w"].items()))
    base = ["eval", str(paths["qrels"]), str(paths["run"]), "-m", "ndcg@5 weights=w empty=skip", "-m",
            "map weights=w empty=skip unjudged_queries=zero", "-m", "ndcg@5", "--weights", f"w={paths['weights']}",
            "--weights", f"unused={paths['weights']}", "--format", "json"]
    assert main(base) == 0
    theirs = json.loads(capsys.readouterr().out)
    assert main([*base, "--engine", "spark"]) == 0
    mine = json.loads(capsys.readouterr().out)
    assert (mine["provenance"].pop("engine"), mine["provenance"].pop("master")) == ("spark", "local[2]")
    _assert_close(mine, theirs)
    assert theirs["results"][0]["denominator"]["weights"] == "w"
    assert [i["queries_not_in_the_data"] for i in theirs["provenance"]["inputs"] if i["role"] == "weights"] == [1, 1]
    outside = [w for w in mine["provenance"]["input_warnings"] if "in neither the qrels nor the runs" in w]
    assert len(outside) == 2 and outside == [w for w in theirs["provenance"]["input_warnings"] if w in outside]
    unused = [w for w in mine["provenance"]["input_warnings"] if "no flavor asks for them" in w]
    assert len(unused) == 1 and unused[0].startswith("weights 'unused'") and unused[0] in theirs["provenance"][
        "input_warnings"]


CONNECT_PROBE = """
import pandas as pd, rankflavor as rf
from rankflavor.spark import evaluate, local_session
spark = local_session("local[2]", partitions=2, connect=True)
assert type(spark).__module__.startswith("pyspark.sql.connect"), type(spark)
qrels = pd.DataFrame({"query": ["q1", "q1", "q2", "q3"], "doc": ["a", "b", "a", "c"], "grade": [1, 2, 0, 1]})
run = pd.DataFrame({"query": ["q1", "q1", "q1", "q2", "q4"], "doc": list("abcaz"), "score": [1.0, 2.0, 2.0, 0.5, 1.0]})
specs = ["ndcg@2", "map", "trec_eval@10", "gm_map"]
out = evaluate(spark.createDataFrame(qrels), spark.createDataFrame(run), specs)
spark_means, local_means = out.means_frame(), rf.evaluate(qrels, run, specs).means_frame()
assert spark_means.to_dict() == local_means.to_dict(), (spark_means, local_means)
print("CONNECT OK")
"""


@pytest.mark.slow
def test_spark_connect_local_server_gives_the_same_means():
    """The DataFrame-API path under Spark Connect (pyspark 4's local Connect server), in its own process."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", CONNECT_PROBE], capture_output=True, text=True, timeout=600, env=env)
    assert "CONNECT OK" in done.stdout, done.stderr[-3000:]


def _format_files(tmp_path: Path) -> dict[str, tuple[Path, Path]]:
    """The same judgments and scores as a Quepid CSV and a CSV run, a RankLib judgment file and its score file, a
    _rank_eval body and an _msearch response (inputs/formats.py's formats)."""
    import json

    judged = [("red shoes", "A", 3), ("red shoes", "B", 0), ("red shoes", "C", 1), ("hat", "A", 2), ("hat", "D", 1)]
    scored = [("red shoes", "B", 2.5), ("red shoes", "A", 1.5), ("red shoes", "C", 0.5), ("hat", "D", 1.0),
              ("hat", "A", 0.25)]
    files = {}
    (tmp_path / "j.csv").write_text("query,docid,rating\n" + "".join(f"{q},{d},{g}\n" for q, d, g in judged))
    (tmp_path / "r.csv").write_text("query,doc,score\n" + "".join(f"{q},{d},{s}\n" for q, d, s in scored))
    files["csv"] = (tmp_path / "j.csv", tmp_path / "r.csv")
    qid = {"red shoes": "1", "hat": "2"}
    (tmp_path / "train.txt").write_text("".join(f"{g} qid:{qid[q]} 1:0.5 # {d}\n" for q, d, g in judged))
    position = {(q, d): [y for x, y, _ in judged if x == q].index(d) for q, d, _ in judged}  # (within its query)
    (tmp_path / "scores.txt").write_text("".join(f"{qid[q]}\t{position[(q, d)]}\t{s}\n" for q, d, s in scored))
    files["ranklib"] = (tmp_path / "train.txt", tmp_path / "scores.txt")
    requests = [{"id": q, "ratings": [{"_index": "i", "_id": d, "rating": g} for x, d, g in judged if x == q]}
                for q in qid]
    (tmp_path / "body.json").write_text(json.dumps({"requests": requests}, indent=2))
    responses = [{"hits": {"hits": [{"_index": "i", "_id": d, "_score": s} for x, d, s in scored if x == q]},
                  "status": 200} for q in qid]
    (tmp_path / "msearch.json").write_text(json.dumps({"took": 1, "responses": responses}))
    files["elastic"] = (tmp_path / "body.json", tmp_path / "msearch.json")
    return files


@pytest.mark.parametrize("kind", ["csv", "ranklib", "elastic"])
def test_cli_engine_spark_reads_every_format_as_the_local_engine_does(spark, tmp_path, capsys, kind):
    """A CSV, RankLib or Elasticsearch input is read on the driver by the local readers (inputs/formats.py) and handed
    over: the same JSON (means, per-query values, provenance, input warnings) as the local engine's."""
    import json

    from rankflavor.cli.main import main

    qrels, run = _format_files(tmp_path)[kind]
    base = ["eval", str(qrels), str(run), "-m", "ndcg@3", "-m", "quepid", "--format", "json", "--per-query"]
    assert main(base) == 0
    local = capsys.readouterr()
    assert main([*base, "--engine", "spark"]) == 0
    remote = capsys.readouterr()
    assert remote.err == local.err
    mine, theirs = json.loads(remote.out), json.loads(local.out)
    assert (mine["provenance"].pop("engine"), mine["provenance"].pop("master")) == ("spark", "local[2]")
    assert mine == theirs
    assert theirs["results"][0]["mean"] is not None


def test_cli_engine_spark_refuses_a_score_file_without_its_judgment_file(spark, tmp_path, capsys):
    """A RankLib score file names no document: with a Parquet qrels (read by Spark, not on the driver) it is refused
    with the local reader's message, exit 3, before any job."""
    from rankflavor.cli.main import main

    run = _format_files(tmp_path)["ranklib"][1]
    pd.DataFrame({"query": ["1"], "doc": ["A"], "grade": [3]}).to_parquet(tmp_path / "q.parquet")
    assert main(["eval", str(tmp_path / "q.parquet"), str(run), "-m", "ndcg@3", "--engine", "spark"]) == 3
    assert "a RankLib score file names no document" in capsys.readouterr().err
