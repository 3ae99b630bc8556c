"""The engine's front door: `Engine(dataset).evaluate(run, flavors, queries=None, detail=False)`.

Everything above the engine (report, warnings, compare, the CLI) calls this and nothing below it. For each
flavor it makes the run's ranked lists (engine/lists.py) in one of two ways, hands them to the flavor's
metric (rankflavor.metrics), and finishes the per-query results (statuses, the `empty` and `missing`
policies, rounding):

- from the top of each list (from_prefix.py: a top-k selection, k the flavor's cutoff or, for a metric of
  whole lists, the longest list), when the run's layout allows it;
- else from every row (from_rows.py).

A large run is evaluated a chunk of whole queries at a time (chunks.py), each chunk by one of these ways.

The engine owns its stage memos (engine/scope.py): the flavors of one call, and of later calls on the same
run, share every stage on whose parts they agree. `release(run)` lets a run's go. Another engine (Spark)
implements the same `evaluate`, returning the same `Evaluation`s; its partial aggregates
(`QueryResults.aggregate()`) merge exactly across partitions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rankflavor import progress, registry
from rankflavor.engine import budget as memory
from rankflavor.engine.chunks import chunk_rows, evaluate_in_chunks, query_chunks
from rankflavor.engine.from_prefix import lists_from_prefix
from rankflavor.engine.from_rows import lists_from_rows
from rankflavor.engine.join import judged_hits
from rankflavor.engine.lists import ListSpec, Positions, RankedLists, in_qrels
from rankflavor.engine.metric import Metric, MetricValues
from rankflavor.engine.qrels import judged_mask, judgments
from rankflavor.engine.results import MISSING, OK, ZERO_IDEAL, Evaluation, QueryResults, RecordRows
from rankflavor.engine.scope import DatasetScope, RowsScope, RunScope
from rankflavor.engine.select import select_prefix
from rankflavor.errors import EvaluationError, UsageError
from rankflavor.flavor import Flavor
from rankflavor.flavor.values import Choice
from rankflavor.inputs.dataset import Dataset, InternedRun
from rankflavor.plain_records import replace
from rankflavor.plural import counted
from rankflavor.rounding import round_values


class Engine:
    """The numpy engine over one interned dataset. `fast_path=False` ranks every row; `chunked=False` ranks
    a large run whole (both for tests and timing)."""

    def __init__(self, dataset: Dataset, fast_path: bool = True, chunked: bool = True) -> None:
        self.dataset = dataset
        self.fast_path = fast_path
        self.chunked = chunked
        self.data = DatasetScope(dataset)
        self._scopes: dict[InternedRun, RunScope] = {}
        self._kept: dict[InternedRun, int] = {}  # the estimated bytes each run's kept stages hold
        self._baseline: int | None = None  # resident bytes at the first call (the inputs)
        self._scoring: dict[InternedRun, Engine] = {}  # per run: the engine of its unjudged_queries=score flavors

    # ---- the front door ---------------------------------------------------------------------------------
    def evaluate(self, run: InternedRun, flavors: Sequence[Flavor], queries: np.ndarray | None = None,
                 detail: bool = False, rows: str = "all") -> list[Evaluation]:
        """Each flavor's results over the judged queries (or the judged ones among the query codes
        `queries`, evaluated from their rows alone; a flavor with unjudged_queries=score: also the run's queries
        without a judgment, by `scoring(run)`). detail: also the row-level records.
        rows: "all", or "judged": the run without the docs that are unjudged under each flavor's
        `negative` policy (its row counts then describe that run).
        The flavors go in groups that fit the memory budget (engine/budget.py), each group on a fresh memo
        dropped before the next; one group (the usual case) shares the run's kept stages."""
        flavors = list(flavors)
        if not flavors:  # (the warnings' extra evaluations ask with none when none applies)
            return []
        scored = [i for i, flavor in enumerate(flavors) if flavor.unjudged_queries == "score"]
        if scored and (run.present & ~self.dataset.judged).any():
            routed: list[Evaluation] = [None] * len(flavors)  # type: ignore[list-item]
            for members, engine in (([i for i in range(len(flavors)) if i not in scored], self),
                                    (scored, self.scoring(run))):
                for i, evaluation in zip(members, engine.evaluate(run, [flavors[i] for i in members], queries,
                                                                  detail, rows), strict=True):
                    routed[i] = evaluation
            return routed
        groups, size = self._groups(run, flavors)
        if len(groups) == 1:
            self._kept[run] = self._kept.get(run, 0) + size
            return self._evaluate_group(self.scope(run), flavors, queries, detail, rows)
        out: list[Evaluation] = [None] * len(flavors)  # type: ignore[list-item]
        with progress.steps("evaluating flavor group", len(groups)) as step:
            for members in groups:
                step()
                part = self._evaluate_group(RunScope(self.data, run), [flavors[i] for i in members], queries,
                                            detail, rows)
                for i, evaluation in zip(members, part, strict=True):
                    out[i] = evaluation
                del part
                self._release_all()
        return out

    def _release_all(self) -> None:
        """Forget every kept stage, the qrels side's too (recomputed when needed), and hand the memory back."""
        self._scopes.clear()
        self._kept.clear()
        self.data.memo.clear()
        memory.trim()

    def _groups(self, run: InternedRun, flavors: list[Flavor]) -> tuple[list[list[int]], int]:
        """The flavors' groups under the memory budget (engine/budget.py), beside the inputs (the resident
        memory at the engine's first call) and what earlier calls keep, which is released when the flavors
        would not fit in one group beside it."""
        if self._baseline is None:
            self._baseline = memory.resident_bytes()
        needs, labels = [_need(flavor) for flavor in flavors], _Labels(flavors)
        shares = [_share_key(flavor, need) for flavor, need in zip(flavors, needs, strict=True)]
        qrels_rows = len(self.dataset.qrels.q)
        try:
            groups, size = memory.flavor_groups(run, needs, labels, self._baseline + sum(self._kept.values()),
                                                qrels_rows, shares)
        except UsageError:
            if not self._kept:
                raise
            groups = []
        if self._kept and len(groups) != 1:
            self._release_all()
            groups, size = memory.flavor_groups(run, needs, labels, self._baseline, qrels_rows, shares)
        return groups, size

    def _evaluate_group(self, scope: RunScope, flavors: list[Flavor], queries: np.ndarray | None, detail: bool,
                        rows: str) -> list[Evaluation]:
        """`evaluate` of flavors whose stages are kept in `scope`'s memo."""
        targets = []
        for flavor in flavors:
            target = scope
            if rows == "judged":
                target = RunScope(self.data, scope.stage(_judged_only, flavor.negative), scope.memo)
            if queries is not None:
                codes = tuple(np.asarray(queries, dtype=np.int64).tolist())
                target = RunScope(self.data, target.stage(_only_queries, codes), scope.memo)
            targets.append(target)
        out = self._evaluate_all(targets, flavors, detail)
        if queries is not None:
            wanted = np.zeros(self.dataset.n_queries, dtype=bool)
            wanted[np.asarray(queries, dtype=np.int64)] = True
            for evaluation in out:
                evaluation.results = evaluation.results.where(wanted[evaluation.results.query])
        return out

    def scope(self, run: InternedRun) -> RunScope:
        if run not in self._scopes:
            self._scopes[run] = RunScope(self.data, run)
        return self._scopes[run]

    def release(self, run: InternedRun) -> None:
        """Forget what was kept for this run (its stages, sub-runs and selections)."""
        self._scopes.pop(run, None)
        self._kept.pop(run, None)
        self._scoring.pop(run, None)

    def scoring(self, run: InternedRun) -> Engine:
        """The engine of `run`'s unjudged_queries=score flavors: the dataset with the run's queries that have no
        judgment counted as judged (with none), so that they are ranked, scored and reported as the others are."""
        if run not in self._scoring:
            judged = self.dataset.judged | run.present[: self.dataset.n_queries]
            self._scoring[run] = Engine(replace(self.dataset, judged=judged), self.fast_path, self.chunked)
        return self._scoring[run]

    # ---- flavors ---------------------------------------------------------------------------------------------
    def _evaluate_all(self, targets: list[RunScope], flavors: list[Flavor], detail: bool) -> list[Evaluation]:
        """Each flavor on its run scope. The flavors whose lists are made from every row of a large run are
        evaluated together a chunk of queries at a time: one chunk's stages (its selection, join, order, ranked
        rows) serve every flavor before the next chunk is made. Once a run goes in chunks, so do its flavors of
        a shallower cutoff (evaluated widest first): their selections are narrowed from each chunk's, on the
        chunk workers, rather than made over the whole run on one core."""
        out: list[Evaluation | None] = [None] * len(flavors)
        chunked: dict[InternedRun, list[int]] = {}  # target run (by identity) -> the flavors evaluated over its chunks
        for i in widest_first(flavors):
            target, flavor = targets[i], flavors[i]
            if not detail and target.run in chunked:
                chunked[target.run].append(i)
                continue
            evaluation = self._evaluate(target, flavor, detail)
            if evaluation is None:
                chunked.setdefault(target.run, []).append(i)
            else:
                out[i] = evaluation
        for members in chunked.values():
            members.sort()
            target = targets[members[0]]
            owner, parts = query_chunks(self.dataset, target.run, chunk_rows(self.dataset, len(members)))
            chosen = [flavors[i] for i in members]
            results = evaluate_in_chunks(target.run, owner, parts,
                                         lambda sub, chosen=chosen: self._evaluate_chunk(sub, chosen))
            for i, result in zip(members, results, strict=True):
                out[i] = Evaluation(result)
        return [evaluation for evaluation in out if evaluation is not None]

    def _evaluate_chunk(self, run: InternedRun, flavors: list[Flavor]) -> list[QueryResults]:
        scope = RunScope(self.data, run)  # (one memo for the chunk's flavors)
        out: dict[int, QueryResults] = {}
        for i in widest_first(flavors):
            evaluation = self._evaluate(scope, flavors[i], False, split=False)
            assert evaluation is not None  # (split=False: never deferred)
            out[i] = evaluation.results
        return [out[i] for i in range(len(flavors))]

    def _evaluate(self, scope: RunScope, flavor: Flavor, detail: bool, split: bool = True) -> Evaluation | None:
        """One flavor's evaluation, or None when its lists must be made from every row of a run large enough
        to be evaluated in chunks (`_evaluate_all` does that)."""
        metric = registry.get(flavor.metric)
        spec = ListSpec.of(flavor, metric.depth_read(flavor), metric.reads_whole_list(flavor))
        scope.shared(judgments, spec.gain, spec.negative, spec.min_grade)  # (refuses the qrels before the run)
        lists = None
        if not detail and self.fast_path:
            prefix = select_prefix(scope, spec, not split)  # (in a chunk: however deep)
            if prefix is not None:
                lists = lists_from_prefix(scope, spec, prefix)
            elif split and self.chunked and scope.run.n_rows > chunk_rows(self.dataset):
                if len(query_chunks(self.dataset, scope.run, chunk_rows(self.dataset))[1]) > 1:
                    return None
        if lists is None:
            lists = lists_from_rows(scope, spec, detail)
        if not detail and metric.reads_qrels_rows_only(flavor):
            lists = in_qrels(lists)
        values = metric.compute(lists, flavor, detail)
        results = finish(lists, metric, flavor, values)
        return Evaluation(results, record_rows(lists, values) if detail else None)


class _Labels(Sequence[str]):
    """The flavors' short labels, each made when a message names it (`Flavor.short` builds the plain flavor of its
    metric: 28 of them were 1-2 ms of trec_eval's official set on a call that names none)."""

    def __init__(self, flavors: Sequence[Flavor]) -> None:
        self._flavors = flavors

    def __getitem__(self, index):  # type: ignore[override]
        return self._flavors[index].short

    def __len__(self) -> int:
        return len(self._flavors)


def widest_first(flavors: Sequence[Flavor]) -> list[int]:
    """The order to evaluate flavors in: the deepest reading first, so that a top-k selection is narrowed
    from a wider one (engine/select.py) rather than made again."""
    needs = [_need(flavor) for flavor in flavors]
    return sorted(range(len(flavors)), key=lambda i: -needs[i])


def _share_key(flavor: Flavor, need: float) -> tuple:
    """What decides the row stages a flavor reads (its selection, tie order, kept rows): flavors with one key share
    them in a group (engine/budget.py)."""
    return (need, str(flavor.ties), str(flavor.run_depth), str(flavor.self_docs), str(flavor.negative),
            str(flavor.unjudged))


def _spec(flavor: Flavor) -> ListSpec:
    metric = registry.get(flavor.metric)
    return ListSpec.of(flavor, metric.depth_read(flavor), metric.reads_whole_list(flavor))


def _need(flavor: Flavor) -> float:
    """How many top ranks of each list the flavor reads (inf: all)."""
    return _spec(flavor).need


def rows_read(flavor: Flavor) -> float:
    """How many top rows of each ranked list, by score after the drops (self_docs=drop, negative=drop), the
    flavor's value depends on (inf: every row); the rows tied with the last of them are read too. A run cut to
    those rows has the same values (compare/fills.py reads a run's holes within them)."""
    return _spec(flavor).rows_read


def _only_queries(scope: RunScope, codes: tuple[int, ...]) -> InternedRun:
    """The run of these queries' rows alone (the other judged queries come out absent)."""
    wanted = np.zeros(scope.dataset.n_queries, dtype=bool)
    wanted[list(codes)] = True
    run = scope.run
    return run.subset(run.rows_of_queries(wanted), run.present & wanted)


def _judged_only(scope: RunScope, negative: Choice) -> InternedRun:
    """The run without its docs that are unjudged under `negative` (input order kept). With run_depth=all,
    evaluating it under unjudged=zero gives the values of unjudged=skip on the whole run."""
    rows, index = scope.stage(judged_hits)
    rows = rows[scope.shared(judged_mask, negative)[index]]
    return scope.run.subset(rows, scope.run.present)


def finish(lists: RankedLists, metric: Metric, flavor: Flavor, values: MetricValues) -> QueryResults:
    """The per-query results over the judged queries: statuses, then `empty` for the queries the metric
    cannot score, `missing` for those absent from the run, and `round`."""
    ds, run = lists.scope.dataset, lists.scope.run
    codes = np.flatnonzero(ds.judged)
    present = run.present[codes]
    status = np.where(present, OK, MISSING).astype(np.int8)
    value = values.value[codes]
    undefined = present & values.undefined[codes]
    status[undefined] = ZERO_IDEAL
    if undefined.any():
        if flavor.empty == "error":
            names = ", ".join(repr(ds.query_ids[c]) for c in codes[undefined][:5])
            how_many = counted(int(undefined.sum()), "query has", "queries have")
            raise EvaluationError(f"{how_many} {metric.undefined_reason} ({names}) and "
                                  "empty=error; choose empty=skip, zero or one")
        value[undefined] = {"skip": np.nan, "zero": 0.0, "one": 1.0}[flavor.empty]
    missing = ~present
    over_empty = flavor.missing == "empty"  # (a missing query: the metric's own value over an empty list, trec_eval -c)
    if flavor.missing == "skip":
        value[missing] = np.nan
    elif flavor.missing == "zero" and not metric.scores_missing:
        value[missing] = metric.zero_value
    elif over_empty:
        value[missing & values.undefined[codes]] = metric.zero_value  # (trec_eval: 0 where the list leaves none)
    parts = {name: part[codes] if over_empty else np.where(missing, np.nan, part[codes])
             for name, part in values.parts.items()}
    decimals = flavor.round.decimals
    raw = value
    value = raw if decimals is None else round_values(raw, decimals)

    pos = lists.positions
    top_judged = lists.rows_stage(judged_in_top, pos)
    with np.errstate(invalid="ignore", divide="ignore"):
        judged_share = np.where(pos.top_rows > 0, top_judged / np.maximum(pos.top_rows, 1), np.nan)
    return QueryResults(
        query=codes, value=value, raw_value=raw, parts=parts, status=status,
        ties_straddle=pos.straddle[codes] & present, ties_any=lists.tied[codes] & present,
        judged_in_top=np.where(present, judged_share[codes], np.nan),
        unjudged_in_top=np.rint(pos.top_rows - top_judged)[codes].astype(np.int64),  # (counts held in float64)
        row_counts=lists.row_counts,
    )


def judged_in_top(ranked: RowsScope, positions: Positions) -> np.ndarray:
    """Per query code: the judged rows within the cutoff (float64 counts)."""
    rows = ranked.rows
    return np.bincount(rows.q, weights=(positions.in_top & rows.judged).astype(float), minlength=ranked.dataset.n_queries)


def record_rows(lists: RankedLists, values: MetricValues) -> RecordRows:
    """The row-level record of the lists: every ranked row with the metric's columns, what was removed."""
    rows, pos, spec = lists.rows, lists.positions, lists.spec
    assert lists.dropped is not None
    dropped_q, dropped_d, reasons = lists.dropped.arrays()
    qrels = lists.scope.shared(judgments, spec.gain, spec.negative, spec.min_grade)
    return RecordRows(rows.q, rows.d, rows.score, rows.grade, rows.judged, pos.rank, pos.tie_group, values.rows,
                      dropped_q, dropped_d, reasons, qrels.judged, qrels.gain, values.lists)
