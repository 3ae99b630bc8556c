#!/usr/bin/env python3
"""`make bench-spark`: rankflavor's Spark engine against the local engine, on the synthetic workload of `make bench`
(queries x depth retrieved docs, scores to 3 decimals so some tie, 40 judged per query plus 20 unretrieved) written
as Parquet, at 1x, 4x and 10x the rows; on a standalone cluster on this machine (`--cluster 2`: a master and two
workers, benchmarks/spark_cluster.py) or on `--master` (local[2] by default).

Prints, per size: the Spark engine's wall time (the aggregates collected: nothing else reaches the driver),
the local engine's (`rankflavor.evaluate` on the same Parquet files, in a fresh process), rows per second
per core for each (the cores this process may use), and the driver's Python RSS after each Spark run
(VmRSS and its peak VmHWM of this process: in local mode the executors run in a JVM child process and the
Python workers in their own processes, so this is the driver's Python alone). On a cluster, also the executors'
peak: the largest VmHWM of the executor JVMs and of their Python workers alive after the run. Spark's session
start-up and a warm-up job on 1,000 rows are left out. The last line: the time's growth from 4x to 10x (target:
at most 2.5x) and the driver's RSS growth.

usage: bench_spark.py [--queries 1000] [--depth 1000] [--sizes 1,4,10] [--partitions 8] [--master local[2]]
                      [--cluster WORKERS]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
SPECS = ["ndcg@10", "map", "p@10", "ndcg@10 gain=exp2"]


def workload(queries: int, depth: int, out: Path) -> tuple[Path, Path, int]:
    """(qrels.parquet, run.parquet, rows of the run), written once per size (seeded)."""
    out.mkdir(parents=True, exist_ok=True)
    run_path, qrels_path = out / f"run_{queries}_{depth}.parquet", out / f"qrels_{queries}_{depth}.parquet"
    if run_path.exists() and qrels_path.exists():
        return qrels_path, run_path, queries * depth
    rng = np.random.default_rng(0)
    docs = np.concatenate([rng.choice(depth * 20, size=depth, replace=False) for _ in range(queries)])
    scores = np.round(-np.sort(-rng.normal(size=(queries, depth)), axis=1), 3).ravel()
    qids = np.repeat(np.arange(queries), depth)
    pq.write_table(pa.table({"query": pa.array([f"q{q}" for q in qids]), "doc": pa.array([f"d{d}" for d in docs]),
                             "score": scores}), run_path)
    judged = docs.reshape(queries, depth)[:, :40]
    extra = depth * 20 + np.arange(20)[None, :] * depth + rng.integers(0, depth, size=(queries, 1))  # unretrieved
    jq = np.repeat(np.arange(queries), 60)
    jd = np.concatenate([judged, extra], axis=1).ravel()
    pq.write_table(pa.table({"query": pa.array([f"q{q}" for q in jq]), "doc": pa.array([f"d{d}" for d in jd]),
                             "grade": rng.integers(0, 4, size=len(jd)).astype(np.int64)}), qrels_path)
    return qrels_path, run_path, queries * depth


def rss() -> tuple[float, float]:
    """(VmRSS, VmHWM) of this process in MB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def local_seconds(qrels: Path, run: Path) -> float:
    code = ("import time, rankflavor as rf\nt = time.perf_counter()\n"
            f"rf.evaluate({str(qrels)!r}, {str(run)!r}, {SPECS!r})\nprint(time.perf_counter() - t)")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--sizes", default="1,4,10")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--cluster", type=int, default=0, metavar="WORKERS",
                        help="start a standalone cluster of WORKERS workers (1 core, 2g each) and run on it")
    args = parser.parse_args()
    cluster = None
    if args.cluster:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from spark_cluster import LocalCluster

        cluster = LocalCluster(ROOT / "bench-data" / "cluster", workers=args.cluster, memory="2g").start()
        args.master = cluster.master_url
        os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    try:
        run_sizes(args, cluster)
    finally:
        if cluster is not None:
            cluster.stop()


def executors_peak(cluster) -> str:
    """The largest VmHWM (MB) of the cluster's executor JVMs, and of their Python workers alive now."""
    if cluster is None:
        return "-"
    jvms = [pid for name in cluster.pids if name.startswith("worker") for pid in cluster.executors_of(name)]
    from spark_cluster import _descendants

    pythons = [pid for jvm in jvms for pid in _descendants(jvm)]

    def hwm(pid: int) -> float:
        try:
            line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith("VmHWM"))
        except (OSError, StopIteration):
            return 0.0
        return int(line.split()[1]) / 1024

    return f"{max(map(hwm, jvms), default=0):.0f}/{max(map(hwm, pythons), default=0):.0f}"


def run_sizes(args: argparse.Namespace, cluster) -> None:
    sys.path.insert(0, str(ROOT / "src"))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p)
    from rankflavor.spark import evaluate, local_session

    cores = len(os.sched_getaffinity(0))
    sizes = [int(s) for s in args.sizes.split(",")]
    data = [workload(args.queries * s, args.depth, ROOT / "bench-data" / "spark") for s in sizes]
    start = time.perf_counter()
    conf = {"spark.executor.memory": "1500m", "spark.driver.host": "127.0.0.1"} if cluster else None
    spark = local_session(args.master, partitions=args.partitions, conf=conf)
    print(f"Spark session started in {time.perf_counter() - start:.1f} s ({args.master}, {args.partitions} partitions, "
          f"{cores} cores); flavors: {', '.join(SPECS)}")
    qrels0, run0, _ = data[0]  # a warm-up on 1,000 rows: the Python workers start (left out of the timings)
    evaluate(spark.read.parquet(str(qrels0)), spark.read.parquet(str(run0)).limit(1000), SPECS, persist=False)
    print(f"driver Python RSS before the first run: {rss()[0]:.0f} MB")
    print(f"{'size':>4} {'rows':>10} {'spark s':>8} {'local s':>8} {'spark rows/s/core':>18} {'local rows/s/core':>18} "
          f"{'vs 1x':>6} {'driver RSS MB':>13} {'peak MB':>8} {'executor JVM/Python peak MB':>27}")
    first, seconds, driver = None, {}, {}
    for size, (qrels, run, rows) in zip(sizes, data, strict=True):
        t = time.perf_counter()
        out = evaluate(spark.read.parquet(str(qrels)), spark.read.parquet(str(run)), SPECS, persist=False)
        spark_s = time.perf_counter() - t  # (evaluate collects the partials and merges them: the whole job)
        assert len(out.aggregate_rows) == len(SPECS)
        now, peak = rss()
        local_s = local_seconds(qrels, run)
        first = first or spark_s / size
        seconds[size], driver[size] = spark_s, now
        print(f"{size:>3}x {rows:>10,} {spark_s:>8.1f} {local_s:>8.1f} {rows / spark_s / cores:>18,.0f} "
              f"{rows / local_s / cores:>18,.0f} {spark_s / first / size:>5.2f}x {now:>13.0f} {peak:>8.0f} "
              f"{executors_peak(cluster):>27}")
    spark.stop()
    print("vs 1x: Spark's seconds per 1x of rows, relative to the 1x run (1.00x: linear)")
    if 4 in seconds and 10 in seconds:
        growth = seconds[10] / seconds[4]
        print(f"4x -> 10x: time x{growth:.2f} (target <= 2.5: {'met' if growth <= 2.5 else 'NOT met'}); "
              f"driver RSS {driver[4]:.0f} -> {driver[10]:.0f} MB")


if __name__ == "__main__":
    main()
