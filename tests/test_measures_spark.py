"""The measures added beside NDCG through the Spark engine (rankflavor.spark, local[2]) against the local engine:
UDCG (both presets' families), torchmetrics' measures over the run's own rows and AUROC, ir_measures' Compat and
Accuracy, each through its own name or its peer's. Every one is per query, so a slice of whole queries gives the
local values, parts and statuses (the diversity measures: test_diversity_spark.py; C/W/L: test_cwl_spark.py)."""

from __future__ import annotations

import numpy as np

from heavy import need_group

need_group("spark")

from test_spark_engine import _local_spark_ended, assert_same, frames, local_report, spark  # noqa: E402, F401  (the fixtures)

SPECS = ["udcg@5", "udcg_authors@10", "udcg(norm=ideal)@10", "udcg@5 gain={-1:-1,0:0,1:-1,2:1,3:2}", "row_ap",
         "row_rr(scored=positive)",
         "row_precision(adaptive_k=true)@5", "row_recall@3", "row_fall_out@4", "row_rprec", "auroc@10",
         "auroc(scores=sigmoid)", "torchmetrics.RetrievalMAP@5", "torchmetrics.RetrievalMRR(empty_target_action=skip)",
         "compat", "accuracy@5", "ir_measures.Compat(p=0.8)", "ir_measures.Accuracy(rel=2)"]


def _cases(seed: int, n: int = 12) -> list[tuple[dict, dict]]:
    """Random queries: graded, zero and negative grades, unjudged docs, negative and tied scores, a query judged
    only (missing from the run) and one retrieved only (no judgment)."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(n):
        docs = [f"d{j}" for j in range(int(rng.integers(2, 12)))]
        qrels = {"q": {d: int(rng.integers(-1, 4)) for d in docs if rng.random() < 0.7} or {docs[0]: 1}}
        run = {"q": {d: float(rng.integers(-3, 4)) for d in docs}}
        cases.append((qrels, run))
    cases.append(({"judged_only": {"d1": 2}}, {"other": {"d1": 1.0}}))
    return cases


def test_new_measures_through_spark_equal_the_local_engine(spark):  # noqa: F811
    from rankflavor.spark import Columns, evaluate

    for seed in (1, 2):
        qrels, run = frames(_cases(seed))
        report = local_report(qrels, run, SPECS)
        lines = qrels.assign(line=np.arange(len(qrels)))  # (ir_measures.Compat's ideal ties: the qrels' order)
        out = evaluate(spark.createDataFrame(lines), spark.createDataFrame(run), SPECS,
                       columns=Columns(run="system", order="line"))
        assert_same(out, report)
        out.unpersist()
