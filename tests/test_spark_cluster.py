"""The Spark engine on a real standalone cluster (benchmarks/spark_cluster.py: a master and two workers, each with its
own executor JVM and Python workers), and a worker lost in the middle of an evaluation.

- The means, counts and per-query rows equal the local engine's (tests/test_spark_engine.py `assert_same`), through
  `rankflavor.spark.evaluate` and `eval --engine spark --master spark://...`.
- A worker and its executor killed with SIGKILL after some tasks of the evaluating stage finished (and before all
  did): Spark reruns the lost tasks (and the lost persisted blocks) on the other worker, and every number is still
  exactly the local engine's: the partials of each slice are merged once, whatever the retries.
- A corrupt row evaluated on an executor gives the local engine's message on the driver, not a Java stack trace.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankflavor as rf
from heavy import need_group
from rankflavor import InputError

need_group("spark")
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
SPECS = ["ndcg@10", "pytrec_eval.all_trec", "ndcg@5 ties=quicksort(2)", "err@5", "map missing=zero"]


def _cluster_module():
    spec = importlib.util.spec_from_file_location("spark_cluster", ROOT / "benchmarks" / "spark_cluster.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclass reads its own module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    from rankflavor.spark.session import end_spark

    # a local session this process opened for another module ended first: getOrCreate would return it, and
    # end_spark ends every Spark JVM this process started (the cluster's too, were it started before)
    end_spark()
    with _cluster_module().LocalCluster(tmp_path_factory.mktemp("cluster"), workers=2, cores=1, memory="1g") as c:
        yield c


@pytest.fixture(scope="module")
def spark(cluster):
    from rankflavor.spark import local_session
    from rankflavor.spark.session import end_spark

    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p)
    session = local_session(cluster.master_url, partitions=12,
                            conf={"spark.executor.memory": "768m", "spark.driver.host": "127.0.0.1"})
    yield session
    end_spark()


def workload(queries: int = 1200, docs: int = 60, seed: int = 3) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A qrels and a run of `queries` x `docs` rows: tied scores, graded and unjudged documents, queries of the
    qrels missing from the run and run queries without judgments; each run row keeps its line (`line`)."""
    rng = np.random.default_rng(seed)
    q = np.repeat([f"q{i}" for i in range(queries)], docs)
    d = np.tile([f"d{j}" for j in range(docs)], queries)
    run = pd.DataFrame({"query": q, "doc": d, "score": rng.integers(0, 20, q.size).astype(float)})
    run = run[run["query"] != "q7"]
    judged = rng.random(q.size) < 0.4
    qrels = pd.DataFrame({"query": q[judged], "doc": d[judged], "grade": rng.integers(0, 4, judged.sum())})
    qrels = qrels[qrels["query"] != "q8"]
    run = run.reset_index(drop=True)
    run["line"] = np.arange(len(run))
    return qrels.reset_index(drop=True), run


def assert_same_as_local(out, qrels: pd.DataFrame, run: pd.DataFrame) -> None:
    from test_spark_engine import assert_same

    assert_same(out, rf.evaluate(qrels, {"run": run[["query", "doc", "score"]]}, SPECS))


def test_a_cluster_gives_the_local_engine_numbers(spark):
    from rankflavor.spark import Columns, evaluate

    qrels, run = workload(300, 40)
    out = evaluate(spark.createDataFrame(qrels), spark.createDataFrame(run), SPECS, columns=Columns(order="line"))
    assert_same_as_local(out, qrels, run)


def test_cli_eval_on_the_cluster_prints_what_the_local_engine_prints(spark, cluster, tmp_path, capsys):
    from rankflavor.cli.main import main

    qrels, run = workload(80, 30)
    (tmp_path / "q.txt").write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels.itertuples(index=False)))
    (tmp_path / "r.run").write_text("".join(f"{q} Q0 {d} {i} {s} r\n"
                                            for i, (q, d, s, _) in enumerate(run.itertuples(index=False))))
    args = [str(tmp_path / "q.txt"), str(tmp_path / "r.run"), "-m", "ndcg@10", "-m", "trec_eval.official",
            "--format", "trec"]
    assert main(["eval", *args]) == 0
    local = capsys.readouterr().out
    assert main(["eval", *args, "--engine", "spark", "--master", cluster.master_url]) == 0
    assert capsys.readouterr().out == local
    # a named run, the unjudged bounds and a comparison with a saved result, as locally (JSON and the table)
    saved = tmp_path / "saved.json"
    extra = [str(tmp_path / "q.txt"), str(tmp_path / "r.run"), "-m", "ndcg@10", "-m", "trec_eval.map",
             "--name", "r.run=R", "--unjudged-bounds", "2"]
    capsys.readouterr()
    assert main(["eval", *extra, "--format", "json"]) == 0
    saved.write_text(capsys.readouterr().out)
    for options in (["--format", "table"], ["--against", str(saved)]):
        assert main(["eval", *extra, *options]) == 0
        local = capsys.readouterr()
        assert main(["eval", *extra, *options, "--engine", "spark", "--master", cluster.master_url]) == 0
        remote = capsys.readouterr()
        assert remote.out == local.out and "\nR " in local.out and "bounds for unjudged" in local.out, (options, local.out)
        assert remote.err == local.err and ("against" in local.out) == ("--against" in options)


class _Saboteur(threading.Thread):
    """Watches the Spark job's last stage (the evaluation: mapInArrow) and loses a worker once at least
    `after` of its tasks finished and before all did; records what it saw then."""

    def __init__(self, spark, cluster, worker: str, after: int = 2):
        super().__init__(daemon=True)
        self.tracker, self.cluster, self.worker, self.after = spark.sparkContext.statusTracker(), cluster, worker, after
        self.seen: tuple[int, int] | None = None
        self.killed: list[int] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            for job in self.tracker.getActiveJobsIds():
                info = self.tracker.getJobInfo(job)
                stage = self.tracker.getStageInfo(max(info.stageIds)) if info and info.stageIds else None
                if stage and self.after <= stage.numCompletedTasks < stage.numTasks:
                    executors = self.cluster.executors_of(self.worker)
                    if executors:
                        self.seen = (stage.numCompletedTasks, stage.numTasks)
                        self.killed = self.cluster.lose_worker(self.worker)
                        return
            time.sleep(0.02)


def test_a_worker_lost_mid_evaluation_changes_no_number(spark, cluster):
    from rankflavor.spark import Columns, evaluate

    qrels, run = workload()
    saboteur = _Saboteur(spark, cluster, "worker-2")
    saboteur.start()
    try:
        out = evaluate(spark.createDataFrame(qrels), spark.createDataFrame(run), SPECS, columns=Columns(order="line"),
                       slice_rows=2000)
    finally:
        saboteur.stop.set()
        saboteur.join()
    assert saboteur.killed, "the worker was not lost during the evaluating stage (it finished first?)"
    done, total = saboteur.seen
    assert 0 < done < total
    assert cluster.alive_workers() == 1
    assert_same_as_local(out, qrels, run)  # (the per-query rows: the lost persisted blocks computed again)


def test_a_corrupt_row_on_an_executor_gives_the_local_message(spark):
    from rankflavor.spark import evaluate

    qrels, run = workload(50, 20)
    doubled = pd.concat([run, run.iloc[[5]]], ignore_index=True)[["query", "doc", "score"]]
    with pytest.raises(InputError) as local:
        rf.evaluate(qrels, {"run": doubled}, "ndcg@10")
    with pytest.raises(InputError) as remote:
        evaluate(spark.createDataFrame(qrels), spark.createDataFrame(doubled), "ndcg@10").means_frame()
    message, expected = str(remote.value), str(local.value)
    assert "Traceback" not in message and "java" not in message.lower() and "Py4J" not in message
    # the same message but the row positions: a slice's rows are not the DataFrame's, so Spark names none
    assert message.split(": score")[0] == expected.split(": score")[0]
    assert message.split("\n", 1)[1] == expected.split("\n", 1)[1]
    score = run.score.iloc[5]
    assert f"score {score:g} on one row, {score:g} on another" in message
