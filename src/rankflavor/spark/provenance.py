"""The provenance and input warnings of `rankflavor eval --engine spark`.

Inputs read on the driver (TREC files, by rankflavor's readers) get the local engine's provenance and input
warnings, from inputs/pipeline.py itself (`prepare` over the tables already read: the same layout and
duplicate checks, sha256, rows, counts and warnings). When an input is a Parquet table read by Spark, the
counts that Spark aggregates tell cheaply (rows, grades, queries on one side only) are computed on the
executors, one small row per run collected; what needs the ids or the rows on the driver (sha256 of a table,
ids equal only up to leading zeros or case (queries, and docs per query), a run with no judged doc, query and doc
columns swapped, rank-like scores, duplicates removed) is not reported.
"""

from __future__ import annotations

from typing import Any

from rankflavor.inputs.input_checks import qrels_count_warnings, run_count_warnings
from rankflavor.inputs.pipeline import bind_weights, policies, prepare
from rankflavor.inputs.tables import QrelsTable, RunTable
from rankflavor.inputs.weights import QueryWeights, unknown_queries_warning


def driver_provenance(qrels: QrelsTable, runs: list[RunTable], on_duplicate: str,
                      weights: list[QueryWeights] | None = None) -> dict[str, Any]:
    """The local engine's provenance of inputs read on the driver (its errors too: empty qrels, layouts,
    duplicates under on_duplicate=error), the weights' entries as bind_weights writes them."""
    dataset, provenance = prepare(qrels, list(runs), on_duplicate)
    bind_weights(dataset, provenance, list(weights or []))
    return provenance


def frame_provenance(qrels: Any, run: Any, inputs: list[dict[str, Any]], on_duplicate: str,
                     weights: list[QueryWeights] | None = None) -> dict[str, Any]:
    """Provenance from Spark aggregates: `qrels` (query, doc, grade) and `run` (query, doc, score, run) frames;
    `inputs` the role, name, path, kind (and sha256 of the files read on the driver) of each input, qrels
    first, then the runs in order."""
    from pyspark.sql import functions as F

    grade = F.col("grade")
    q = qrels.agg(F.count(F.lit(1)).alias("judgments"), F.countDistinct("query").alias("judged_queries"),
                  F.sum(F.when(grade < 0, 1).otherwise(0)).alias("negative_grades"),
                  F.sum(F.when(grade != F.round(grade), 1).otherwise(0)).alias("non_integer_grades"),
                  F.max(grade.cast("double")).alias("max_grade")).collect()[0].asDict()
    qrels_counts = {"judged_queries": int(q["judged_queries"]), "judgments": int(q["judgments"]),
                    "negative_grades": int(q["negative_grades"] or 0),
                    "non_integer_grades": int(q["non_integer_grades"] or 0), "max_grade": q["max_grade"]}
    judged = qrels.select("query").distinct().withColumn("judged", F.lit(1))
    per_query = run.groupBy("run", "query").agg(F.count(F.lit(1)).alias("rows")).join(judged, "query", "left")
    collected = {r["run"]: r.asDict() for r in per_query.groupBy("run").agg(
        F.sum("rows").alias("rows"), F.count(F.lit(1)).alias("queries"),
        F.sum(F.coalesce("judged", F.lit(0))).alias("queries_in_common"),
        F.sum(F.when(F.col("judged").isNull(), F.col("rows")).otherwise(0)).alias("rows_of_queries_not_in_qrels"),
    ).collect()}
    items = [{**inputs[0], "rows": qrels_counts["judgments"], **qrels_counts}]
    warnings = qrels_count_warnings(qrels_counts)
    for item in inputs[1:]:
        got = collected.get(item["name"], {})
        queries, common = int(got.get("queries") or 0), int(got.get("queries_in_common") or 0)
        counts = {"rows": int(got.get("rows") or 0), "queries": queries, "queries_in_common": common,
                  "queries_not_in_qrels": queries - common,
                  "rows_of_queries_not_in_qrels": int(got.get("rows_of_queries_not_in_qrels") or 0),
                  "qrels_queries_not_in_run": qrels_counts["judged_queries"] - common}
        items.append({**item, **counts})
        warnings += run_count_warnings(item["name"], counts)
    if weights:  # (bind_weights' entries: the queries of the data counted by Spark)
        import pyarrow as pa

        from rankflavor.spark.session import spark_frame

        data = qrels.select("query").unionByName(run.select("query")).distinct()
        for w in weights:
            listed = spark_frame(qrels.sparkSession, pa.table({"query": pa.array(w.query, pa.string())}))
            known = listed.join(data, "query", "inner").count()
            items.append({"role": "weights", "name": w.name, "path": w.source.path, "sha256": w.source.sha256,
                          "kind": w.source.kind, "rows": len(w.query), "queries_in_the_data": known,
                          "queries_not_in_the_data": len(w.query) - known})
            if known < len(w.query):
                outside = listed.join(data, "query", "left_anti").orderBy("query").limit(1).collect()
                warnings.append(unknown_queries_warning(w, len(w.query) - known, outside[0]["query"] if outside else None))
    return {"inputs": items, "policies": policies(on_duplicate), "input_warnings": warnings,
            "not_computed": "for Parquet inputs read by Spark: sha256, comment/blank lines, duplicates removed, "
                            "ids equal only up to leading zeros or case, a run with no judged doc, query and doc columns "
                            "swapped, rank-like scores (rankflavor check reads them locally)"}
