"""The driver side: `evaluate(qrels_df, run_df, flavors, ...)` -> per-query and aggregate Spark DataFrames.

Plan: the qrels and the runs become one DataFrame of INPUT rows (kind, run, query, doc, value, order),
repartitioned by query (hash partitioning: every row of a query, qrels and every run, lands in one partition)
and sorted within partitions by (query, kind, order); `mapInArrow` runs the local engine over slices of whole
queries (partitions.py), emitting per-query rows and a few partial-aggregate rows per slice. The driver
collects the partial rows only (slices x runs x flavors x ~12), merges them exactly (merge.py) and makes the
`aggregates` DataFrame of them (createDataFrame); the per-query DataFrame stays lazy. DataFrame API of
pyspark >= 3.5 only (no applyInArrow, no toArrow required): the same code runs on classic Spark and on Spark
Connect. Nothing else is collected to the driver but the run names (when a run column is given and `runs`
is not), whether the qrels has a row, and what the caller collects. `Columns` names which column holds what.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from rankflavor import registry
from rankflavor.errors import EvaluationError, InputError, RankflavorError, SpecError, UsageError
from rankflavor.flavor import Flavor, labelled_specs
from rankflavor.inputs.duplicates import POLICIES
from rankflavor.inputs.subtopics import reads_subtopics
from rankflavor.inputs.weights import QueryWeights, load_weights
from rankflavor.report.averages import refuse_unbound_weights
from rankflavor.spark.merge import AGGREGATES_DDL, merge_partials
from rankflavor.spark.partitions import (
    END,
    MARK,
    PARTIAL_COLUMNS,
    QRELS,
    RUN,
    WEIGHTS,
    Plan,
    evaluate_partition,
    output_schema,
)
from rankflavor.spark.subtopics import is_spark_frame, refuse_plain_frame, subtopic_qrels

ORDERED_TIES = ("input", "quicksort")  # tie orders that read the input order


@dataclass
class SparkEvaluation:
    """What `evaluate` returns: the per-query Spark DataFrame (lazy: it reads the persisted evaluation, or
    evaluates again without persist) and the aggregates, as a Spark DataFrame and as the rows it was made of."""

    per_query: Any  # run, label, flavor, query, value, <parts>, status
    aggregates: Any  # run, flavor_index, label, flavor, mean, n, counts (map), undefined_status, warnings (array)
    plan: Plan
    aggregate_rows: list[dict[str, Any]]  # the aggregates' rows, merged on the driver (runs, then flavors)
    _output: Any = None
    weights: dict[str, QueryWeights | None] | None = None  # the weights bound (None: a DataFrame's, on Spark)

    def means_frame(self):
        """pandas DataFrame shaped as Report.means_frame(): one row per run x flavor (runs in name order)."""
        import pandas as pd

        rows = []
        for item in sorted(self.aggregate_rows, key=lambda a: (a["run"], a["flavor_index"])):
            counts = dict(item["counts"])
            undefined = item["undefined_status"]
            rows.append({"run": item["run"], "label": item["label"], "flavor": item["flavor"], "mean": item["mean"],
                         "n": item["n"], **{k: v for k, v in counts.items() if k != undefined},
                         "undefined": counts[undefined], "undefined_status": undefined,
                         "warnings": " | ".join(item["warnings"])})
        return pd.DataFrame(rows)

    def query_frame(self):
        """pandas DataFrame shaped as Report.to_frame() (collects every per-query row: for small runs)."""
        table = collect_arrow(self.per_query.orderBy("run", "flavor", "query"))
        return table.to_pandas()

    def unpersist(self) -> None:
        if self._output is not None:
            self._output.unpersist()


@dataclass(frozen=True)
class Columns:
    """Which column of the DataFrames given to `evaluate` holds what (the defaults: the DataFrame readers'
    first names, one run)."""

    query: str = "query"  # the query id, in the qrels and the run (and a weights DataFrame's, else its `query`)
    doc: str = "doc"  # the doc id, in the qrels and the run
    grade: str = "grade"  # the qrels' grade
    score: str = "score"  # the run's score
    run: str | None = None  # the run's name, when the run DataFrame holds several runs (None: one, `run_name`)
    order: str | None = None  # each row's position in its input (the rank, or the line number written when the
    #                           file was read): in the run, and in the qrels when it has it
    subtopic: str = "subtopic"  # a subtopic qrels' subtopic (read when a diversity measure is asked for)


def evaluate(qrels: Any, run: Any, flavors: Any = "ndcg@10", *, columns: Columns | None = None,
             run_name: str = "run", runs: Sequence[str] | None = None, on_duplicate: str = "error",
             partitions: int | None = None, slice_rows: int = 1 << 20, max_query_rows: int = 50_000_000,
             persist: bool = True, weights: Mapping[str, Any] | None = None,
             unjudged_bounds: str | float | None = None) -> SparkEvaluation:
    """Evaluate the run DataFrame (several runs told apart by `columns.run`) against the qrels DataFrame under
    every flavor, on Spark.

    qrels: a DataFrame (query, doc, grade). When a diversity measure (alpha_ndcg, err_ia, nrbp, p_ia, s_recall, ap_ia) is
    asked for, a subtopic qrels, as in the local engine: a DataFrame with a subtopic column (`columns.subtopic`;
    refused when every subtopic is 0 or Q0, a plain qrels), or what the local engine reads as one (the path of a
    `qid subtopic docid grade` file, {qid: {subtopic: {docid: grade}}}, rows (qid, subtopic, docid, grade)),
    read and checked on the driver (spark/subtopics.py).
    columns: the column roles (Columns: query, doc, grade, score, run, order, subtopic). Flavors whose tie order reads
    the input order (ties=input, ties=quicksort(n): ranx's) and on_duplicate="first" need `columns.order` (in
    both frames for on_duplicate="first"); without it they are refused. One query's rows (qrels and all runs)
    are evaluated together in one partition; a query of more than `max_query_rows` rows is an InputError.
    runs: the run names (default: `run_name`, or the distinct values of `columns.run`, collected).
    partitions: how many partitions the rows are hashed into by query (default: spark.sql.shuffle.partitions);
    slice_rows: about how many rows of whole queries the local engine evaluates at a time.
    persist: keep the evaluated rows (per-query and partials) so that both frames read one evaluation.
    weights: {NAME: a DataFrame with columns `query` (or columns.query) and `weight`, a file of 'qid weight'
    lines, a {qid: weight} mapping or loaded QueryWeights}, for flavors with weights=NAME (rf.evaluate's
    `weights=`). A file or mapping is read and checked on the driver; a DataFrame's rows are checked on the
    executors. The weights are hashed by query with the other rows: the per-query values are unchanged, the
    means weighted.
    unjudged_bounds: g ('top': each query's top judged grade) of each mean's lowest and highest over the fills of
    the run's holes, in `aggregate_rows` as "bounds" (lowest, highest, queries enumerated, queries bounded by their
    measure's range): rf.evaluate's report_bounds (compare/unjudged_bounds.py), by the same function per slice.
    """
    from pyspark.sql import functions as F

    columns = columns or Columns()
    labelled = labelled_specs(flavors)
    wanted = list(labelled)
    if on_duplicate not in POLICIES:
        raise SpecError(f"on_duplicate must be one of {', '.join(POLICIES)}, not {on_duplicate!r}")
    metrics = [flavor.metric for flavor in wanted]
    given = qrels
    if reads_subtopics(metrics):  # (a subtopic qrels: a DataFrame checked, else read by the local reader)
        qrels = subtopic_qrels(qrels, metrics, run.sparkSession, columns, _ID_TYPES)
    _refuse(wanted, columns.order, on_duplicate, qrels, run)
    refuse_unbound_weights(wanted, weights or {}, accepted="DataFrame, file or mapping")
    bound = {name: _weights_of(name, data, columns.query) for name, data in (weights or {}).items()}
    _check_frames(qrels, run, columns)
    if runs is None:
        runs = [run_name] if columns.run is None else sorted(
            str(r[0]) for r in run.select(F.col(columns.run).cast("string")).distinct().collect() if r[0] is not None)
    from rankflavor.compare.unjudged_bounds import parse_grade

    grade = None if unjudged_bounds is None else parse_grade(unjudged_bounds)
    plan = Plan.of(labelled, runs, on_duplicate, slice_rows, max_query_rows, tuple(bound), grade)
    union = _input_rows(qrels, run, columns, run_name, {name: bound[name] for name in plan.weights}, plan.subtopics)
    union = union.repartition(partitions, "query") if partitions else union.repartition("query")
    union = union.sortWithinPartitions("query", "kind", "order")
    _require_judgments(qrels)
    if plan.subtopics and is_spark_frame(given):  # (one read by the local reader was checked as a whole)
        refuse_plain_frame(qrels, columns.subtopic)
    return _evaluated(union, plan, persist, qrels.sparkSession,
                      {name: w if isinstance(w, QueryWeights) else None for name, w in bound.items()})


def _check_frames(qrels: Any, run: Any, columns: Columns) -> None:
    """The columns named exist and have types the DataFrame readers accept: checked from the schemas."""
    _check_columns(qrels, "qrels", columns.query, columns.doc, columns.grade, "grade")
    _check_columns(run, "run", columns.query, columns.doc, columns.score, "score")
    if columns.run is not None and columns.run not in run.columns:
        raise InputError(f"no run column {columns.run!r} among {list(run.columns)}", source="run",
                         fix="name the column that tells the runs apart (columns=Columns(run=...))")
    if columns.order is not None and columns.order not in run.columns:
        raise InputError(f"no order column {columns.order!r} among {list(run.columns)}", source="run",
                         fix="name the column of each row's input position (columns=Columns(order=...))")


def _input_rows(qrels: Any, run: Any, columns: Columns, run_name: str, weights: Mapping[str, Any],
                subtopics: bool = False) -> Any:
    """The qrels, the run and the weights used as one DataFrame of INPUT rows (kind, run, query, doc, value,
    order, subtopic): kind QRELS, RUN or WEIGHTS (run: the weights' name, value: the weight); subtopic: a
    subtopic qrels' (with `subtopics`), else null."""
    from pyspark.sql import functions as F

    none = F.lit(None).cast("string")

    def rows(frame: Any, kind: int, value: str, run_value: Any, subtopic: Any = none) -> Any:
        order = columns.order
        position = F.col(order).cast("long") if order and order in frame.columns else F.lit(None).cast("long")
        return frame.select(F.lit(kind).cast("byte").alias("kind"), run_value.cast("string").alias("run"),
                            F.col(columns.query).cast("string").alias("query"),
                            F.col(columns.doc).cast("string").alias("doc"),
                            F.col(value).cast("double").alias("value"), position.alias("order"),
                            subtopic.cast("string").alias("subtopic"))

    run_value = F.col(columns.run) if columns.run is not None else F.lit(run_name)
    judged = rows(qrels, QRELS, columns.grade, F.lit(None), F.col(columns.subtopic) if subtopics else none)
    union = judged.unionByName(rows(run, RUN, columns.score, run_value))
    for name, data in weights.items():
        frame = data if not isinstance(data, QueryWeights) else _weights_frame(qrels.sparkSession, data)
        query = columns.query if columns.query in frame.columns else "query"
        union = union.unionByName(frame.select(
            F.lit(WEIGHTS).cast("byte").alias("kind"), F.lit(name).cast("string").alias("run"),
            F.col(query).cast("string").alias("query"), none.alias("doc"),
            F.col("weight").cast("double").alias("value"), F.lit(None).cast("long").alias("order"),
            none.alias("subtopic")))
    return union


def _evaluated(union: Any, plan: Plan, persist: bool, spark: Any,
               weights: dict[str, QueryWeights | None]) -> SparkEvaluation:
    """The partitions evaluated by `mapInArrow`; the partials collected and merged into the aggregates."""
    from pyspark.sql import functions as F

    def evaluate_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        return evaluate_partition(batches, plan)

    output = union.mapInArrow(evaluate_batches, _spark_schema(output_schema(plan.parts)))
    if persist:
        output = output.persist()
    per_query = output.filter(F.col("kind") == "query").select("run", "label", "flavor", "query", "value",
                                                                *plan.parts, "status")
    partials = collect_rows(output.filter(F.col("kind") == "partial").select(*PARTIAL_COLUMNS))
    merged = merge_partials(partials, plan)
    aggregates = spark.createDataFrame(
        [tuple(json.dumps(row[name], default=_plain) if name == "warning_details" else row[name]
               for name in _AGGREGATE_COLUMNS) for row in merged], AGGREGATES_DDL)
    return SparkEvaluation(per_query, aggregates, plan, merged, output if persist else None, weights)


def _weights_of(name: str, data: Any, query_col: str) -> Any:
    """Loaded QueryWeights (a file, a mapping: load_weights' checks), or a DataFrame with its columns checked."""
    if isinstance(data, QueryWeights):
        return data
    if hasattr(data, "columns") and hasattr(data, "sparkSession"):
        query = query_col if query_col in data.columns else "query"
        if query not in data.columns or "weight" not in data.columns:
            raise InputError(f"the weights {name!r} have columns {list(data.columns)}", source=name,
                             fix=f"a DataFrame of weights has the columns {query_col!r} (or 'query') and 'weight'")
        _check_columns(data, name, query, query, "weight", "weight")
        return data
    return load_weights(name, data)


def _weights_frame(spark: Any, weights: QueryWeights) -> Any:
    """Weights read on the driver as a (query, weight) DataFrame."""
    from rankflavor.spark.session import spark_frame

    return spark_frame(spark, pa.table({"query": pa.array(weights.query, pa.string()),
                                        "weight": pa.array(weights.weight, pa.float64())}))


def _plain(value: Any) -> Any:
    """A numpy number as JSON reads it."""
    return value.item() if hasattr(value, "item") else str(value)


_AGGREGATE_COLUMNS = tuple(item.split()[0] for item in AGGREGATES_DDL.split(", "))


def _require_judgments(qrels: Any) -> None:
    """An empty qrels DataFrame is the local engine's InputError (a one-row probe, not a count)."""
    if not qrels.limit(1).collect():
        raise InputError("the qrels has no judgment (it is empty): there is nothing to evaluate against",
                         source="qrels", fix="give a qrels with lines 'qid iter docid grade' (TREC) "
                                             "or {qid: {docid: grade}}")


def _refuse(flavors: list[Flavor], order_col: str | None, on_duplicate: str, qrels: Any, run: Any) -> None:
    """Flavors and policies this engine cannot honour with the columns given: a SpecError before any job."""
    for flavor in flavors:
        if flavor.ties.kind in ORDERED_TIES and order_col is None:
            raise SpecError(f"{flavor}: ties={flavor.ties} reads the input order, which a shuffle does not keep; give "
                            "columns=Columns(order=...) (the rank, or the line number written when the file was read)")
        if registry.get(flavor.metric).reads_qrels_order(flavor) and (order_col is None or
                                                                     order_col not in qrels.columns):
            raise SpecError(f"{flavor}: it reads the qrels' order, which a shuffle does not keep; give "
                            "columns=Columns(order=...) naming a column of the qrels frame (its line numbers)")
    if on_duplicate == "first" and (order_col is None or order_col not in run.columns or order_col not in qrels.columns):
        raise SpecError("on_duplicate='first' keeps the first row in input order, which a shuffle does not keep; give "
                        "columns=Columns(order=...) naming a column of both frames, or use on_duplicate='max' or "
                        "'error'")


_ID_TYPES = ("string", "varchar", "char", "tinyint", "smallint", "int", "bigint", "byte", "short", "long", "integer")
_VALUE_TYPES = ("tinyint", "smallint", "int", "bigint", "float", "double", "decimal", "byte", "short", "long",
                "integer")


def _check_columns(frame: Any, name: str, query: str, doc: str, value: str, what: str) -> None:
    """The three columns exist and have types the DataFrame readers accept (ids: strings or integers; values:
    numbers, not booleans): checked from the schema, before any job."""
    types = dict(frame.dtypes)
    for col, role, allowed in ((query, "query", _ID_TYPES), (doc, "doc", _ID_TYPES), (value, what, _VALUE_TYPES)):
        if col not in types:
            raise InputError(f"no {role} column {col!r} among {list(types)}", source=name,
                             fix=f"name the {role} column (columns=Columns({role if role in ('query', 'doc') else what}"
                                 "=...))")
        kind = re.sub(r"\(.*", "", types[col]).lower()
        if kind not in allowed:
            noun = "id" if role in ("query", "doc") else "value"
            raise InputError(f"the {role} {noun} column {col!r} holds {types[col]} values", source=name,
                             fix="ids must be strings or integers" if noun == "id" else f"every {what} must be a number")


def _spark_schema(schema: Any) -> Any:
    """A pyarrow schema as Spark's StructType (strings, never large_string)."""
    from pyspark.sql.pandas.types import from_arrow_schema

    return from_arrow_schema(schema)


_MARKED = re.compile(re.escape(MARK).replace(r"\{\}", r"(\w+)") + r"(.*?)" + re.escape(END), re.S)


def collect_arrow(frame: Any) -> pa.Table:
    """The frame as an Arrow table (toArrow on pyspark 4, toPandas on 3.5; flat columns only), an error
    rankflavor raised on an executor raised again here as itself."""
    try:
        if hasattr(frame, "toArrow"):
            return frame.toArrow()
        return pa.Table.from_pandas(frame.toPandas(), preserve_index=False)
    except RankflavorError:
        raise
    except Exception as exc:
        raise_marked(exc)
        raise


def collect_rows(frame: Any) -> list[dict[str, Any]]:
    """frame.collect() as dicts (arrays as lists), an executor's rankflavor error raised again as itself."""
    try:
        return [row.asDict(recursive=True) for row in frame.collect()]
    except RankflavorError:
        raise
    except Exception as exc:
        raise_marked(exc)
        raise


def raise_marked(exc: BaseException) -> None:
    """Raise the rankflavor error an executor marked in a Spark exception's text (InputError, EvaluationError,
    SpecError), with its message; return when there is none."""
    found = _MARKED.search(str(exc))
    if found is None:
        return
    kind, message = found.group(1), found.group(2).replace("\\n", "\n")
    cls = {"InputError": InputError, "EvaluationError": EvaluationError, "SpecError": SpecError,
           "UsageError": UsageError}.get(kind, RankflavorError)
    raise cls(message) from None
