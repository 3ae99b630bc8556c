"""The executor side: one partition's rows (qrels and runs of whole queries, sorted by query) -> per-query rows
and mergeable partial aggregates, by the local engine.

The partition arrives as Arrow record batches of INPUT columns, sorted by query (then kind, then the order
column). It is cut into slices of whole queries of about `slice_rows` rows; each slice becomes a small
Dataset (the qrels and every run of its queries) evaluated by one `Engine.evaluate` call per run for all
flavors, as `build_report` does on one machine. Every number is per query, so a slice's per-query values are
those of the whole run; the means are merged from exact partial sums (`Aggregate`), never means of means.

Emitted per slice, per run and flavor: one OUTPUT row per judged query (kind "query") and one row per
`Partial` (kind "partial": a count, `count` NAME, or a mean's partial sums, `mean` VARIANT, the variants
being the means a warning reports: main, pessimistic, optimistic, skip, without_undefined, other_missing,
and judged_share, the share of judged docs among the scored ranks; with `Plan.bounds_grade`, bound_low and
bound_high, the lowest and highest over the fills of the unjudged bounds, from compare/fills.py query_ends as
on one machine, with their counts bounds_exact and bounds_by_range). Under weights=NAME a mean's partials are
those of w*v (and w*log), with `weight` VARIANT (the exact sum of the weights averaged; n: how many averaged
queries have no weight) and up to 5 `noweight` VARIANT rows naming such queries. The
weights arrive as INPUT rows of kind WEIGHTS (run: the weights' name, value: the weight), hashed with the
query's other rows, so each slice holds the weights of its queries. When a diversity measure is asked for
(`Plan.subtopics`), the QRELS rows are a subtopic qrels' judgments, each with its `subtopic`: a slice makes of
them a SubtopicQrels as the local reader does (inputs/subtopics.py), interned into the Dataset's `subtopics`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from rankflavor import registry
from rankflavor.engine import MISSING, ZERO_IDEAL, Aggregate, Engine, QueryResults
from rankflavor.engine.results import MIN_GEO_MEAN, exact_partials
from rankflavor.errors import EvaluationError, InputError, RankflavorError
from rankflavor.flavor import Flavor
from rankflavor.inputs.arrow_table import columns_of
from rankflavor.inputs.dataset import Dataset, InternedRun
from rankflavor.inputs.intern import intern
from rankflavor.inputs.subtopics import SubtopicJudgments, SubtopicQrels, reads_subtopics, subtopic_table
from rankflavor.inputs.tables import QrelsTable, RunTable, Source
from rankflavor.inputs.weights import QueryWeights
from rankflavor.report.averages import Averaging, averaging_for
from rankflavor.report.result import Result

if TYPE_CHECKING:
    from rankflavor.compare.fills import Ends

QRELS, RUN, WEIGHTS = 0, 1, 2
INPUT = pa.schema([("kind", pa.int8()), ("run", pa.string()), ("query", pa.string()), ("doc", pa.string()),
                   ("value", pa.float64()), ("order", pa.int64()), ("subtopic", pa.string())])
MARK = "<<rankflavor:{}>>"  # an error raised on purpose, marked so that the driver raises it again (errors.py)
END = "<</rankflavor>>"


@dataclass(frozen=True)
class Plan:
    """What every partition needs (pickled to the executors)."""

    specs: tuple[str, ...]  # canonical flavor strings
    labels: tuple[str, ...]  # the label of each flavor
    runs: tuple[str, ...]  # every run name (a slice without a run's rows: its judged queries are missing)
    parts: tuple[str, ...]  # the union of the flavors' per-query parts (the output's columns)
    on_duplicate: str = "error"
    slice_rows: int = 1 << 20
    max_query_rows: int = 50_000_000
    weights: tuple[str, ...] = ()  # the names of the weights among the INPUT rows (kind WEIGHTS)
    subtopics: bool = False  # a diversity measure is asked for: the QRELS rows are subtopic judgments
    bounds_grade: str | float | None = None  # --unjudged-bounds: g of the fills (compare/unjudged_bounds.py)

    @classmethod
    def of(cls, labelled: Mapping[Flavor, Sequence[str]], runs: Sequence[str], on_duplicate: str = "error",
           slice_rows: int = 1 << 20, max_query_rows: int = 50_000_000, weights: Sequence[str] = (),
           bounds_grade: str | float | None = None) -> Plan:
        """The plan of the flavors `labelled` (flavor.labelled_specs) over `runs`; `weights`: the names bound;
        `bounds_grade`: the unjudged bounds' grade (parse_grade's), None for none."""
        parts = tuple(dict.fromkeys(p for f in labelled for p in registry.get(f.metric).parts))
        used = tuple(name for name in weights if any(f.weights.name == name for f in labelled))
        return cls(tuple(str(f) for f in labelled), tuple(labelled[f][0] for f in labelled), tuple(runs), parts,
                   on_duplicate, slice_rows, max_query_rows, used, reads_subtopics([f.metric for f in labelled]),
                   bounds_grade)

    def flavors(self) -> list[Flavor]:
        return [Flavor.parse(spec) for spec in self.specs]


def output_schema(parts: tuple[str, ...]) -> pa.Schema:
    return pa.schema([("kind", pa.string()), ("run", pa.string()), ("flavor_index", pa.int32()),
                      ("label", pa.string()), ("flavor", pa.string()), ("query", pa.string()), ("value", pa.float64()),
                      *[(name, pa.float64()) for name in parts], ("status", pa.string()),
                      ("partial", pa.string()), ("name", pa.string()), ("n", pa.int64()),
                      ("partials", pa.list_(pa.float64())),
                      ("log_partials", pa.list_(pa.float64()))])


def evaluate_partition(batches: Iterator[pa.RecordBatch], plan: Plan) -> Iterator[pa.RecordBatch]:
    """mapInArrow's function: slices of whole queries, each evaluated as it is complete."""
    try:
        for piece in whole_query_slices(batches, plan.slice_rows, plan.max_query_rows):
            yield from evaluate_slice(piece, plan)
    except RankflavorError as exc:
        raise RuntimeError(MARK.format(type(exc).__name__) + str(exc) + END) from exc


def whole_query_slices(batches: Iterator[pa.RecordBatch], slice_rows: int, max_query_rows: int) -> Iterator[pa.Table]:
    """Tables of whole queries, about `slice_rows` rows each, from batches sorted by query. A query's rows
    continuing into the next batch are held back until the query ends; a query over `max_query_rows` rows, or
    rows not sorted by query (a query's rows not together), is an InputError."""
    held: list[pa.RecordBatch] = []
    rows, last = 0, None
    for batch in batches:
        if not batch.num_rows:
            continue
        query = batch.column("query")
        first = query[0].as_py()
        if (last is not None and first is not None and first < last) or not _sorted(query):
            raise InputError("the rows of a partition are not sorted by query: a query's rows must be together in one "
                             "partition (rankflavor.spark.evaluate repartitions and sorts them; this is a bug)")
        last = query[-1].as_py()
        held.append(batch)
        rows += batch.num_rows
        if rows < slice_rows:
            continue
        table = pa.Table.from_batches(held)
        cut = _last_query_start(table.column("query"))
        if cut == 0:
            if rows > max_query_rows:  # (before the query ends: fail before it fills the memory)
                raise _too_many_rows(last, max_query_rows)
            continue
        yield _checked(table.slice(0, cut), max_query_rows)
        rest = table.slice(cut)
        held, rows = rest.to_batches(), rest.num_rows
    if held:
        yield _checked(pa.Table.from_batches(held), max_query_rows)


def _checked(table: pa.Table, max_query_rows: int) -> pa.Table:
    """The slice, when none of its queries has more than `max_query_rows` rows (the last query of a
    partition, and queries that ended before the slice was full, included)."""
    if table.num_rows > max_query_rows:
        counts = pc.value_counts(table.column("query").combine_chunks())
        sizes = counts.field("counts")
        worst = int(pc.index(sizes, pc.max(sizes)).as_py())
        if sizes[worst].as_py() > max_query_rows:
            raise _too_many_rows(counts.field("values")[worst].as_py(), max_query_rows)
    return table


def _too_many_rows(query: str | None, max_query_rows: int) -> InputError:
    return InputError(f"query {query!r} has more than {max_query_rows} rows (qrels and runs): one query's rows must "
                      "fit in one partition's memory",
                      fix="raise max_query_rows (and the executors' memory), or split the query")


def _sorted(query: pa.Array) -> bool:
    if len(query) < 2 or query.null_count:
        return True  # (a null id is refused with its row by the table checks)
    return bool(pc.all(pc.greater_equal(query.slice(1), query.slice(0, len(query) - 1))).as_py())


def _last_query_start(query: pa.ChunkedArray) -> int:
    """The first row of the last query (rows sorted by query)."""
    last = query[-1]
    same = pc.equal(query, last)
    return len(query) - int(pc.sum(same).as_py() or 0)


def slice_dataset(table: pa.Table, plan: Plan) -> Dataset:
    """The slice as a Dataset: its qrels and every run (one with no rows here has every query missing), the
    values checked as the DataFrame readers check them."""
    kind = table.column("kind")
    qrels = table.filter(pc.equal(kind, QRELS))
    query, doc, grade = columns_of(pa.table({"query": qrels.column("query"), "doc": qrels.column("doc"),
                                             "grade": qrels.column("value")}), "qrels", "grade", ("grade",))
    qrels_table = (slice_subtopics(qrels.column("subtopic"), query, doc, grade) if plan.subtopics
                   else QrelsTable(Source("qrels", kind="spark"), query, doc, grade))
    runs = table.filter(pc.equal(kind, RUN))
    tables = []
    for name in plan.runs:
        rows = runs.filter(pc.equal(runs.column("run"), name))
        query, doc, score = columns_of(pa.table({"query": rows.column("query"), "doc": rows.column("doc"),
                                                 "score": rows.column("value")}), name, "score", ("score",))
        tables.append(RunTable(Source(name, kind="spark"), query, doc, score))
    dataset = intern(qrels_table, tables, list(plan.runs), plan.on_duplicate)
    for name in plan.weights:
        dataset.weights[name] = slice_weights(table, name).by_code(dataset.query_ids)
    return dataset


def slice_subtopics(subtopic: pa.ChunkedArray, query: pa.Array, doc: pa.Array, grade: np.ndarray) -> SubtopicQrels:
    """The slice's subtopic judgments (query, subtopic, doc, grade) as the local reader makes them: a
    SubtopicQrels, its doc-level view and its judgments, which `intern` makes the Dataset's `subtopics`. Whether
    the qrels is a plain one is asked of the whole DataFrame, on the driver (spark/subtopics.py)."""
    if subtopic.null_count:
        at = subtopic.combine_chunks().is_null().to_pylist().index(True)
        raise InputError(f"query {query[at].as_py()!r} doc {doc[at].as_py()!r} has no subtopic (null)", source="qrels",
                         fix="every judgment of a subtopic qrels names its subtopic (qid subtopic docid grade)")
    judgments = SubtopicJudgments(query.to_pylist(), subtopic.to_pylist(), doc.to_pylist(), grade, None)
    return subtopic_table(Source("qrels", kind="spark"), judgments)


def slice_weights(table: pa.Table, name: str) -> QueryWeights:
    """The weights `name` of the slice's queries (every weight of a query lands in its slice), checked as
    load_weights checks a mapping: one weight per query, a finite number >= 0."""
    rows = table.filter(pc.and_(pc.equal(table.column("kind"), WEIGHTS), pc.equal(table.column("run"), name)))
    query = rows.column("query").to_pylist()
    weight = np.asarray(rows.column("value").to_pylist(), dtype=np.float64)  # (null: nan)
    bad = np.flatnonzero(~np.isfinite(weight) | (weight < 0))
    if len(bad) or None in query:
        at = int(bad[0]) if len(bad) else query.index(None)
        value = rows.column("value")[at].as_py()
        raise InputError(f"the weight of query {query[at]!r} is {value!r}, not a finite number >= 0", source=name,
                         fix="every weight must be a finite number >= 0, and every query id given")
    if len(set(query)) < len(query):
        seen: set[str] = set()
        twice = next(q for q in query if q in seen or seen.add(q))  # type: ignore[func-returns-value]
        raise InputError(f"query {twice!r} is weighted twice", source=name, fix="give each query one weight")
    return QueryWeights(name, Source(name, kind="spark"), query, weight)


def evaluate_slice(table: pa.Table, plan: Plan) -> Iterator[pa.RecordBatch]:
    """Per run: every flavor in one Engine.evaluate call, then the warnings' extra evaluations; the rows."""
    if plan.weights and not pc.any(pc.not_equal(table.column("kind"), WEIGHTS)).as_py():
        return  # (only weights: queries the qrels and the runs do not hold)
    dataset = slice_dataset(table, plan)
    flavors = plan.flavors()
    schema = output_schema(plan.parts)
    engine = Engine(dataset)
    for run in dataset.runs:
        unjudged_queries = int((run.present & ~dataset.judged).sum())
        evaluations = engine.evaluate(run, flavors)
        bounds = None if plan.bounds_grade is None else slice_bounds(dataset, run, flavors, plan.bounds_grade)
        for index, (flavor, evaluation) in enumerate(zip(flavors, evaluations, strict=True)):
            result = Result(run.name, flavor, evaluation.results, dataset.query_ids, unjudged_queries,
                            averaging=averaging_for(dataset, run, flavor))
            yield _query_rows(result, index, plan, schema)
            yield _partial_rows(result, index, engine, run, schema, None if bounds is None else bounds[index])
        engine.release(run)


def _query_rows(result: Result, index: int, plan: Plan, schema: pa.Schema) -> pa.RecordBatch:
    q = result.queries
    n = len(q.query)
    undefined = result.metric.undefined_status
    status = np.array(["ok", undefined, "missing"], dtype=object)[q.status.astype(np.int64)]
    columns: dict[str, pa.Array] = {
        "kind": pa.array(["query"] * n, pa.string()), "run": pa.array([result.run] * n, pa.string()),
        "flavor_index": pa.array(np.full(n, index, dtype=np.int32)), "label": pa.array([plan.labels[index]] * n,
                                                                                        pa.string()),
        "flavor": pa.array([plan.specs[index]] * n, pa.string()),
        "query": pa.array(result.query_ids[q.query].tolist(), pa.string()), "value": _doubles(q.value),
        "status": pa.array(status.tolist(), pa.string())}
    for name in plan.parts:
        columns[name] = _doubles(q.parts[name]) if name in q.parts else pa.nulls(n, pa.float64())
    return _batch(columns, n, schema)


def _doubles(values: np.ndarray) -> pa.Array:
    values = np.asarray(values, dtype=np.float64)
    return pa.array(values, pa.float64(), mask=np.isnan(values))


def _batch(columns: dict[str, pa.Array], n: int, schema: pa.Schema) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([columns.get(f.name, pa.nulls(n, f.type)) for f in schema], schema=schema)


PartialKind = Literal["count", "mean", "weight", "noweight"]


class Partial(NamedTuple):
    """One partial aggregate of a slice's run x flavor, merged exactly on the driver (merge.py)."""

    kind: PartialKind  # a count, a mean's partial sums, the weights' sums, or a query averaged without a weight
    name: str  # the count's name, or the mean's variant (main, pessimistic, ..., judged_share)
    n: int  # the count; the values summed (-1: the evaluation was refused); weight: the averaged queries with
    #         no weight; noweight: 1 when the query is a zero of unjudged_queries=zero (its sort key), else 0
    partials: Sequence[float] = ()  # Aggregate's exact partial sums (of w*v when weighted)
    log_partials: Sequence[float] = ()  # the same of log(max(v, 1e-5)) (of w*log when weighted)
    query: str | None = None  # noweight: the query's id

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Partial:
        """A collected row of PARTIAL_COLUMNS as a Partial."""
        return cls(row["partial"], row["name"], int(row["n"]), row["partials"] or (), row["log_partials"] or (),
                   row["query"])


PARTIAL_COLUMNS = ("run", "flavor_index", "partial", "name", "n", "partials", "log_partials", "query")
NOWEIGHT_SHOWN = 5  # the queries named when averaged queries have no weight (Averaging: the first 5)
BOUNDS_EXACT, BOUNDS_BY_RANGE = "bounds_exact", "bounds_by_range"  # (the unjudged bounds' counts: not `counts`)


def _partial_rows(result: Result, index: int, engine: Engine, run: InternedRun, schema: pa.Schema,
                  bounds: Ends | None = None) -> pa.RecordBatch:
    rows = [Partial("count", name, int(value)) for name, value in result.counts.items()]
    q = result.queries
    rows.append(Partial("count", "unjudged_queries_in_top", int((q.unjudged_in_top > 0).sum())))
    shares = Aggregate.of(q.judged_in_top)
    rows.append(Partial("mean", "judged_share", shares.count, shares.partials))
    found = variants(result, engine, run)
    if bounds is not None:  # (the ends of the queries the mean averages, as report_bounds takes them)
        from rankflavor.compare.unjudged_bounds import masked

        found["bound_low"], found["bound_high"], exact, by_range = masked(bounds, q.raw_value)
        rows += [Partial("count", BOUNDS_EXACT, exact), Partial("count", BOUNDS_BY_RANGE, by_range)]
    for variant, raw in found.items():
        rows += _mean_partials(result.averaging, q, raw, variant)
    n = len(rows)
    columns = {"kind": pa.array(["partial"] * n, pa.string()), "run": pa.array([result.run] * n, pa.string()),
               "flavor_index": pa.array(np.full(n, index, dtype=np.int32)),
               "partial": pa.array([r.kind for r in rows], pa.string()),
               "name": pa.array([r.name for r in rows], pa.string()), "n": pa.array([r.n for r in rows], pa.int64()),
               "partials": pa.array([list(r.partials) for r in rows], pa.list_(pa.float64())),
               "log_partials": pa.array([list(r.log_partials) for r in rows], pa.list_(pa.float64())),
               "query": pa.array([r.query for r in rows], pa.string())}
    return _batch(columns, n, schema)


def _mean_partials(averaging: Averaging, q: QueryResults, raw: np.ndarray | None, variant: str) -> list[Partial]:
    """The exact partial sums of the values the flavor's mean averages (report/averages.py: the non-null
    values as the flavor takes them, then the zeros of unjudged_queries=zero); n -1 for a refused evaluation.
    Weighted (a weights name, a mean not a sum): the sums of w*v and w*log(max(v, 1e-5)), then the weights'."""
    if raw is None:
        return [Partial("mean", variant, -1)]
    codes, values = averaging._values(q.query, raw)
    aggregate = Aggregate.of(values)
    if averaging.weights is None:
        return [Partial("mean", variant, aggregate.count, aggregate.partials, aggregate.log_partials)]
    weights = averaging.weights[codes]
    known = ~np.isnan(weights)
    w, v = weights[known], values[known]
    logs = w * np.log(np.maximum(v, MIN_GEO_MEAN))
    rows = [Partial("mean", variant, len(values), exact_partials((w * v).tolist()), exact_partials(logs.tolist()))
            if not averaging.total else Partial("mean", variant, aggregate.count, aggregate.partials),
            Partial("weight", variant, int((~known).sum()), exact_partials(w.tolist()))]
    assert averaging.query_ids is not None  # (named as Averaging names them: the judged queries, then the zeros)
    zero = np.arange(len(codes)) >= len(codes) - len(averaging.zero_codes)
    unweighted = sorted(zip(zero[~known].tolist(), averaging.query_ids[codes[~known]].astype(str).tolist(),
                                    strict=True))
    return rows + [Partial("noweight", variant, int(z), query=qid) for z, qid in unweighted[:NOWEIGHT_SHOWN]]


def variants(result: Result, engine: Engine, run: InternedRun) -> dict[str, np.ndarray | None]:
    """The per-query raw values behind the mean and each alternative mean a warning may report (None: the
    data refuses that flavor), over this slice. Computed whether or not the whole run's counts will call for
    the warning (a slice cannot tell), but only where it can differ from the values themselves."""
    flavor, q = result.flavor, result.queries
    raw = q.raw_value
    missing = q.status == MISSING
    out: dict[str, np.ndarray | None] = {
        "main": raw,
        "without_undefined": np.where(q.status == ZERO_IDEAL, np.nan, raw),
        "other_missing": (np.where(missing, result.metric.zero_value, raw) if flavor.missing == "skip"
                          else np.where(missing, np.nan, raw))}
    tied = q.ties_any
    for ties in ("pessimistic", "optimistic"):
        other = flavor.with_(ties=ties)
        values = raw.copy()
        try:
            if tied.any():
                values[tied] = engine.evaluate(run, [other], queries=q.query[tied])[0].results.raw_value
            out[ties] = values
        except EvaluationError:
            out[ties] = None
    if flavor.unjudged == "zero" and "unjudged" in registry.get(flavor.metric).reads:
        try:
            if flavor.run_depth.limit is not None:
                out["skip"] = engine.evaluate(run, [flavor.with_(unjudged="skip")])[0].results.raw_value
            else:
                out["skip"] = engine.evaluate(run, [flavor], rows="judged")[0].results.raw_value
        except EvaluationError:
            out["skip"] = None
    return out


def slice_bounds(dataset: Dataset, run: InternedRun, flavors: list[Flavor], grade: str | float) -> list[Ends]:
    """The unjudged bounds' per-query ends of one run of a slice under every flavor: compare/fills.py query_ends,
    the function report_bounds calls on one machine (a slice holds whole queries, so its ends are the run's)."""
    from rankflavor.compare.fills import query_ends

    return query_ends(dataset, [run], flavors, grade)
