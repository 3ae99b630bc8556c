"""The Spark engine's executor and driver sides without Spark (no pyspark, no Java): INPUT rows cut into two
partitions by query, each evaluated by `evaluate_partition` in slices, the `Partial` rows merged
(`merge_partials`) and made results (`spark_results`), which must equal the local engine's results: the
same ResultView interface, the same JSON (mean to 1e-12 relative, the denominator described by the same
function, counts, warnings, per-query rows) and the same refusals of weighted means.
"""

from __future__ import annotations

import random

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import rankflavor as rf
from rankflavor.flavor import labelled_specs
from rankflavor.report.result import ReportView, ResultView
from rankflavor.spark.merge import merge_partials
from rankflavor.spark.partitions import INPUT, PARTIAL_COLUMNS, QRELS, RUN, WEIGHTS, Partial, Plan, evaluate_partition
from rankflavor.spark.report import SparkReport, spark_results

SPECS = ["ndcg@5", "map", "p@3 round=2 mean_of=rounded", "ndcg@5 unjudged_queries=zero", "gm_map", "num_ret",
         "ndcg@3 ties=input", "ndcg@5 unjudged=skip", "ndcg@5 empty=one missing=zero", "err@5", "ndcg@5 weights=w",
         "map weights=w unjudged_queries=zero", "gm_map weights=w", "p@3 weights=w round=2 mean_of=rounded"]


def _case(seed: int) -> tuple[dict, dict[str, pd.DataFrame], dict[str, dict[str, float]]]:
    """A qrels (a query judged all 0, one judged but in no run), two runs with tied scores and a query the
    qrels lacks, and weights: `w` for every query, `gap` without one judged query, `zero` all 0."""
    rng = random.Random(seed)
    qrels = {f"q{q}": {f"d{d}": rng.choice([0, 0, 1, 2, 3]) for d in rng.sample(range(20), 6)} for q in range(12)}
    qrels["q_zero"] = {"d1": 0, "d2": 0}
    qrels["q_unrun"] = {"d1": 1}
    runs = {}
    for name in ("r0", "r1"):
        rows = [(q, f"d{d}", float(rng.randint(0, 4))) for q in sorted(qrels) if q != "q_unrun"
                for d in rng.sample(range(20), rng.randint(1, 9))]
        rows += [("q_unjudged", f"d{d}", float(d)) for d in range(3)]
        runs[name] = pd.DataFrame(rows, columns=["query", "doc", "score"])
    queries = sorted({*qrels, "q_unjudged"})
    w = {q: float(rng.randint(1, 5)) for q in queries}
    return qrels, runs, {"w": w, "gap": {q: v for q, v in w.items() if q != "q3"}, "zero": dict.fromkeys(queries, 0.0)}


def _partitions(qrels: dict, runs: dict[str, pd.DataFrame], weights: dict[str, dict[str, float]]) -> list[pa.Table]:
    """The INPUT rows hashed into two partitions by query, each sorted by (query, kind, order) as the driver
    sorts them; a run row's order is its position in its run."""
    rows = [(QRELS, None, q, d, float(g), None) for q, docs in qrels.items() for d, g in docs.items()]
    for name, frame in runs.items():
        rows += [(RUN, name, q, d, s, i) for i, (q, d, s) in enumerate(frame.itertuples(index=False))]
    rows += [(WEIGHTS, name, q, None, v, None) for name, values in weights.items() for q, v in values.items()]
    queries = sorted({row[2] for row in rows})
    tables = []
    for part in (0, 1):
        mine = sorted((r for r in rows if queries.index(r[2]) % 2 == part), key=lambda r: (r[2], r[0], r[5] or 0))
        tables.append(pa.Table.from_pylist([dict(zip(INPUT.names, (*r, None), strict=True)) for r in mine],  # (no subtopic)
                                            schema=INPUT))
    return tables


def _spark_side(specs: list[str], qrels: dict, runs: dict[str, pd.DataFrame],
                weights: dict[str, dict[str, float]]) -> SparkReport:
    """What spark.evaluate and spark_report do around mapInArrow, done here by hand over the partitions."""
    labelled = labelled_specs(specs)
    plan = Plan.of(labelled, list(runs), slice_rows=40, weights=tuple(weights))
    out = []
    for table in _partitions(qrels, runs, weights):
        out += list(evaluate_partition(iter(table.to_batches(max_chunksize=7)), plan))
    evaluated = pa.Table.from_batches(out)
    partials = evaluated.filter(pc.equal(evaluated.column("kind"), "partial")).select(list(PARTIAL_COLUMNS))
    assert {Partial.from_row(row).kind for row in partials.to_pylist()} >= {"count", "mean", "weight"}
    merged = merge_partials(partials.to_pylist(), plan)
    per_query = sorted(evaluated.filter(pc.equal(evaluated.column("kind"), "query")).to_pylist(),
                       key=lambda r: (r["run"], r["flavor"], r["query"]))
    return SparkReport(spark_results(merged, labelled, list(runs), per_query), {})


def _assert_close(a: object, b: object, where: str = "") -> None:
    """Equal, floats to 1e-12 relative (a merged mean is correctly rounded, numpy's may differ in the last bit)."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert list(a) == list(b), where
        for key in a:
            _assert_close(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _assert_close(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-300), where
    else:
        assert a == b, where


@pytest.mark.parametrize("seed", [1, 2])
def test_merged_partials_give_the_local_results(seed):
    qrels, runs, weights = _case(seed)
    local = rf.evaluate(qrels, runs, SPECS, weights=weights)
    spark = _spark_side(SPECS, qrels, runs, weights)
    for report in (local, spark):
        assert isinstance(report, ReportView) and all(isinstance(r, ResultView) for r in report.results)
    _assert_close(spark.to_dict(per_query=True)["results"], local.to_dict(per_query=True)["results"])
    assert [r.parts for r in spark.results] == [r.parts for r in local.results]
    weighted = [r.denominator() for r in spark.results if r.flavor.weights.name == "w"]
    assert len(weighted) == 2 * 4 and all(d["total_weight"] > 0 for d in weighted)
    assert spark.means_frame().drop(columns="mean").equals(local.means_frame().drop(columns="mean"))


@pytest.mark.parametrize("spec", ["ndcg@5 weights=gap", "gm_map weights=gap unjudged_queries=zero",
                                  "ndcg@5 weights=zero"])
def test_a_weighted_mean_is_refused_with_the_local_message(spec):
    qrels, runs, weights = _case(3)
    with pytest.raises(rf.EvaluationError) as local:
        rf.evaluate(qrels, runs, [spec], weights=weights).means_frame()
    with pytest.raises(rf.EvaluationError) as merged:
        _spark_side([spec], qrels, runs, weights)
    assert str(merged.value) == str(local.value)
    assert ("1 query averaged has no weight in 'gap' ('q3')" if "gap" in spec else "sum to 0") in str(local.value)


def test_subtopic_judgments_sliced_a_query_at_a_time_give_the_local_values():
    """A diversity measure: each slice's QRELS rows carry their subtopic and become a SubtopicQrels as the local
    reader makes it; a slice whose only subtopic is `0` (q1) is not refused as a plain qrels (the driver asks
    that of the whole qrels: spark/subtopics.py)."""
    judgments = [("q1", "0", "d1", 1), ("q1", "0", "d2", 0), ("q2", "a", "d1", 1), ("q2", "b", "d2", 2),
                 ("q2", "b", "d1", 0), ("q2", "c", "d3", 0), ("q3", "a", "d3", 0)]
    run = pd.DataFrame([("q1", "d2", 2.0), ("q1", "d1", 1.0), ("q2", "d2", 1.0), ("q2", "d1", 1.0), ("q2", "d3", 3.0),
                        ("q2", "d4", 1.0), ("q3", "d3", 1.0), ("q4", "d1", 1.0)], columns=["query", "doc", "score"])
    specs = ["alpha_ndcg@3", "err_ia(norm=greedy)@2", "nrbp", "p_ia@2", "s_recall@2", "ndcg@3"]
    local = rf.evaluate(judgments, {"r": run}, specs).to_frame()
    rows = [(QRELS, None, q, d, float(g), None, s) for q, s, d, g in judgments]
    rows += [(RUN, "r", q, d, s, i, None) for i, (q, d, s) in enumerate(run.itertuples(index=False))]
    rows.sort(key=lambda r: (r[2], r[0], r[5] or 0))
    table = pa.Table.from_pylist([dict(zip(INPUT.names, r, strict=True)) for r in rows], schema=INPUT)
    plan = Plan.of(labelled_specs(specs), ["r"], slice_rows=1)
    assert plan.subtopics
    out = pa.Table.from_batches(list(evaluate_partition(iter(table.to_batches(max_chunksize=2)), plan)))
    mine = {(r["label"], r["query"]): (r["value"], r["status"])
            for r in out.filter(pc.equal(out.column("kind"), "query")).to_pylist()}
    theirs = {(r.label, r.query): (None if pd.isna(r.value) else r.value, r.status) for r in local.itertuples()}
    assert mine == theirs and len(theirs) == 3 * len(specs)
