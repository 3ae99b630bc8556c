"""`rankflavor eval --engine spark`: the inputs as Spark DataFrames, and the results as a report the CLI's
renderers print as they print a local Report (table, json, csv, trec).

Parquet files are read by Spark itself (columns named as the DataFrame readers accept: query/qid/..., doc/docid/...,
grade/relevance/... or score/sim/...), so that a table larger than the driver stays on the executors. Every other
file (TREC, Arrow, CSV, RankLib, Elasticsearch JSON: inputs/formats.py's table) is read and validated on the driver
by the same readers as the local engine's (the bad-input catalogue's checks, a RankLib score file or an _msearch
response paired with its qrels), each row's position kept as the order column, then handed to Spark. Only the aggregates are
collected, and the per-query rows when they are printed (--per-query).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from rankflavor import registry
from rankflavor.errors import UsageError
from rankflavor.flavor import Flavor
from rankflavor.inputs.columnar import columnar_kind, file_head
from rankflavor.inputs.columns import DOC_COLUMNS, GRADE_COLUMNS, QUERY_COLUMNS, SCORE_COLUMNS, pick
from rankflavor.report.averages import describe_denominator, refuse_unbound_weights, unused_weights
from rankflavor.report.result import FlavorNames, means_frame, query_frame, results_dict
from rankflavor.spark.session import spark_frame


def input_frame(spark: Any, path: str, what: str, name: str, table: Any = None, qrels: Any = None,
                ) -> tuple[Any, Any]:
    """(a DataFrame with columns query, doc, grade|score[, line], the table read on the driver or None: a
    Parquet file is read by Spark, any other file by rankflavor's readers (inputs/load.py), its rows' positions as
    `line`; `table`: the input read already, a subtopic qrels: the DataFrame its doc-level view; `qrels`: the qrels
    read on the driver, which a run naming its documents by position pairs with)."""
    from pyspark.sql import functions as F

    values = GRADE_COLUMNS if what == "grade" else SCORE_COLUMNS
    if table is None and path != "-" and columnar_kind(file_head(Path(path))) == "parquet":
        frame = spark.read.parquet(path)
        columns = list(frame.columns)
        picked = [pick(columns, QUERY_COLUMNS, "query", path), pick(columns, DOC_COLUMNS, "doc", path),
                  pick(columns, values, what, path)]
        return frame.select(*(F.col(c).alias(a) for c, a in zip(picked, ("query", "doc", what), strict=True))), None
    from rankflavor.inputs.load import load_qrels, load_run

    if table is None:
        table = load_qrels(path) if what == "grade" else load_run(path, qrels=qrels)
    data = pa.table({"query": table.query, "doc": table.doc, what: getattr(table, what),
                     "line": np.arange(table.rows, dtype=np.int64)})
    return spark_frame(spark, data), table


@dataclass
class SparkResult(FlavorNames):
    """One run x flavor from the merged partials: a report.result.ResultView, as the local Result is."""

    run: str
    flavor: Flavor
    labels: list[str]
    mean: float | None
    n: int
    counts: dict[str, int]
    warnings: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)  # per query (with --per-query)
    details: list[dict[str, Any]] = field(default_factory=list)  # each warning's code, message and numbers
    total_weight: float | None = None  # weights=NAME: the total weight of the queries averaged
    bounds: tuple[float | None, float | None, int, int] | None = None  # --unjudged-bounds: lowest, highest, counts

    @property
    def parts(self) -> list[str]:
        return list(self.metric.parts)

    def per_query(self) -> list[dict[str, Any]]:
        return self.rows

    def denominator(self) -> dict[str, Any]:
        """What the mean averaged, from the merged counts (the local Result's, by the same function)."""
        zeros = self.counts["unjudged_queries"] if self.flavor.unjudged_queries == "zero" else 0
        return describe_denominator(self.n, str(self.flavor.mean_of), self.metric.aggregate, zeros,
                                    self.counts["excluded"], self.flavor.weights.name, self.total_weight)

    def to_dict(self, per_query: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"run": self.run, "label": self.label, **({"labels": self.labels} if len(
                               self.labels) > 1 else {}), "flavor": str(self.flavor), "mean": self.mean,
                               "denominator": self.denominator(), "counts": self.counts, "warnings": self.warnings,
                               "warning_details": self.details or [{"message": w} for w in self.warnings]}
        if per_query:
            out["per_query"] = self.rows
        return out


@dataclass
class SparkReport:
    """The results of `rankflavor eval --engine spark`: a report.result.ReportView, printed by cli/render.py
    as a local Report is."""

    results: list[SparkResult]
    provenance: dict[str, Any]
    frames: Any = None  # the SparkEvaluation
    bounds_grade: str | float | None = None  # the grade of the unjudged bounds evaluated (None: none)

    def unjudged_bounds(self, grade: str | float) -> list:
        """Every result's MeanBounds, as compare/unjudged_bounds.py report_bounds gives a local report's: merged
        from the executors' per-slice ends (evaluated for `bounds_grade` only)."""
        from rankflavor.compare.unjudged_bounds import MeanBounds, parse_grade

        if self.bounds_grade is None or parse_grade(grade) != self.bounds_grade:
            raise UsageError(f"the Spark evaluation holds no unjudged bounds at grade {grade!r}: evaluate again "
                             "with unjudged_bounds=GRADE")
        return [MeanBounds(r.label, r.run, r.flavor, r.mean, *(r.bounds or (None, None, 0, 0))) for r in self.results]

    @property
    def runs(self) -> list[str]:
        return list(dict.fromkeys(r.run for r in self.results))

    def to_dict(self, per_query: bool = False) -> dict[str, Any]:
        return results_dict(self.provenance, self.results, per_query)

    def means_frame(self):
        """pandas: one row per run x flavor, as Report.means_frame()."""
        return means_frame(self.results)

    def to_frame(self):
        """pandas: one row per run x flavor x judged query collected (--per-query), as Report.to_frame()."""
        return query_frame(self.results)


def spark_report(qrels: str, runs: list[str], specs: list[str] | dict, master: str | None, on_duplicate: str,
                 per_query: bool, output: str | None, weights: dict[str, str] | None = None,
                 overwrite: bool = False, names: list[str] | None = None,
                 unjudged_bounds: str | None = None) -> SparkReport:
    """Evaluate on Spark (a local session without `master`) and collect what the CLI prints; `weights`:
    {NAME: FILE} (--weights NAME=FILE), read on the driver; `output`: a folder for the per-query rows
    (spark/output_dir.py: a non-empty one only with `overwrite`); `names`: the runs' names (--name, checked by
    inputs/run_names.py given_names), else their file names; `unjudged_bounds`: the grade of each mean's interval of
    judgments (--unjudged-bounds), None for none."""
    from rankflavor.flavor import labelled_specs
    from rankflavor.inputs.run_names import default_names
    from rankflavor.inputs.subtopics import as_subtopic_qrels, reads_subtopics
    from rankflavor.inputs.weights import load_weights
    from rankflavor.spark.driver import Columns, collect_arrow, evaluate
    from rankflavor.spark.output_dir import plan_output, write_output
    from rankflavor.spark.provenance import driver_provenance, frame_provenance
    from rankflavor.spark.session import local_session

    if "-" in [qrels, *runs]:
        raise UsageError("--engine spark reads files, not standard input ('-')")
    labelled = labelled_specs(specs)
    metrics = [flavor.metric for flavor in labelled]
    read = as_subtopic_qrels(qrels, metrics) if reads_subtopics(metrics) else None  # (as the local engine reads
    #                                                          a subtopic qrels, its errors before a session starts)
    plan = None if output is None else plan_output(output, [qrels, *runs, *(weights or {}).values()], overwrite, master)
    refuse_unbound_weights(labelled, weights or {})  # (before a session starts)
    if unjudged_bounds is not None:
        from rankflavor.compare.unjudged_bounds import parse_grade

        parse_grade(unjudged_bounds)  # (a bad grade: before a session starts)
    bound = [load_weights(name, path) for name, path in (weights or {}).items()]
    spark = local_session(master)
    qrels_frame, qrels_table = input_frame(spark, qrels, "grade", "qrels", read)
    named = names if names is not None else default_names([(Path(p).name, p) for p in runs])
    run_frame, tables = _run_frames(spark, runs, named, qrels_table)
    on_driver = qrels_table is not None and all(t is not None for t in tables)
    if on_driver:  # (the local engine's checks and errors, before any Spark job)
        provenance = driver_provenance(qrels_table, tables, on_duplicate, bound)
    else:
        described = [_described("qrels", Path(qrels).name, qrels, qrels_table),
                     *(_described("run", n, p, t) for n, p, t in zip(named, runs, tables, strict=True))]
        provenance = frame_provenance(qrels_frame, run_frame, described, on_duplicate, bound)
    provenance["input_warnings"] += unused_weights(labelled, {w.name: w.source.path for w in bound})
    judged = qrels_frame if read is None else read  # (a subtopic qrels' judgments: spark/subtopics.py)
    out = evaluate(judged, run_frame, labelled, columns=Columns(run="run", order="line" if on_driver else None),
                   runs=named, on_duplicate=on_duplicate, weights={w.name: w for w in bound},
                   unjudged_bounds=unjudged_bounds)
    if plan is not None:
        try:
            write_output(out.per_query, plan)
        except Exception as exc:
            from rankflavor.spark.driver import raise_marked

            raise_marked(exc)
            raise
    rows: list[dict[str, Any]] = []
    if per_query:
        rows = collect_arrow(out.per_query.orderBy("run", "flavor", "query")).to_pylist()
    results = spark_results(out.aggregate_rows, labelled, named, rows)
    out.unpersist()
    return SparkReport(results, {**provenance, "engine": "spark", "master": master or "local[2]"}, out,
                       out.plan.bounds_grade)


def _run_frames(spark: Any, runs: list[str], names: list[str], qrels: Any) -> tuple[Any, list[Any]]:
    """(one DataFrame of every run's rows, with a `run` column of its name; the tables read on the driver, None
    for a Parquet file Spark reads); `qrels`: the qrels table read on the driver (None: Spark reads it)."""
    from pyspark.sql import functions as F

    frames, tables = [], []
    for path, name in zip(runs, names, strict=True):
        frame, table = input_frame(spark, path, "score", name, qrels=qrels)
        if table is not None:
            table.source.name = name  # (the provenance's name, as load_runs gives a named run's)
        tables.append(table)
        frames.append(frame.withColumn("run", F.lit(name)))
    run_frame = frames[0]
    for frame in frames[1:]:
        run_frame = run_frame.unionByName(frame, allowMissingColumns=True)
    return run_frame, tables


def spark_results(aggregate_rows: list[dict[str, Any]], labelled: Mapping[Flavor, list[str]], runs: list[str],
                  per_query_rows: list[dict[str, Any]]) -> list[SparkResult]:
    """One SparkResult per run x flavor (runs, then flavors in `labelled`'s order) from the merged aggregate
    rows (merge.py) and the per-query rows collected (none without --per-query), sorted by query."""
    by_key = {(a["run"], a["flavor_index"]): a for a in aggregate_rows}
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in per_query_rows:
        rows.setdefault((row["run"], row["flavor"]), []).append(row)
    results = []
    for name in runs:
        for index, flavor in enumerate(labelled):
            a = by_key[(name, index)]
            parts = registry.get(flavor.metric).parts
            mine = [{"query": r["query"], "value": r["value"], **{p: r[p] for p in parts}, "status": r["status"]}
                    for r in rows.get((name, str(flavor)), [])]
            results.append(SparkResult(name, flavor, labelled[flavor], a["mean"], a["n"], dict(a["counts"]),
                                       list(a["warnings"]), mine, list(a["warning_details"]),
                                       a.get("total_weight"), a.get("bounds")))
    return results


def _described(role: str, name: str, path: str, table: Any) -> dict[str, Any]:
    """An input as the provenance names it (sha256 only for a file read on the driver)."""
    sha256 = None if table is None else table.source.sha256
    return {"role": role, "name": name, "path": path, "sha256": sha256,
            "kind": table.source.kind if table is not None else "parquet"}
