"""The Report: every run under every flavor, with provenance, records (explain) and their verification."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from rankflavor import registry
from rankflavor.engine import Engine, QueryResults, RecordRows
from rankflavor.engine import max_memory as budget_of
from rankflavor.escape import visible
from rankflavor.flavor import Flavor, labelled_specs
from rankflavor.inputs.dataset import Dataset
from rankflavor.inputs.duplicates import COUNT
from rankflavor.inputs.pipeline import apply_names, bind_weights, speculatively
from rankflavor.inputs.subtopics import as_subtopic_qrels
from rankflavor.report.averages import averaging_for, refuse_unbound_weights, unused_weights
from rankflavor.report.numbers import plain
from rankflavor.report.records import Record, build_record
from rankflavor.report.result import Result, means_frame, query_frame, results_dict
from rankflavor.report.warnings import Cache, prefetch, warnings_for

if TYPE_CHECKING:
    from rankflavor.report.verify import Disagreement


@dataclass
class Report:
    dataset: Dataset
    flavors: list[Flavor]
    results: list[Result]
    provenance: dict[str, Any]
    engine: Engine = field(default=None, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.engine is None:
            self.engine = Engine(self.dataset)

    # ---- look-ups -----------------------------------------------------------------------------------
    @property
    def runs(self) -> list[str]:
        return [r.name for r in self.dataset.runs]

    @property
    def judged_queries(self) -> int:
        """The number of queries the qrels judge."""
        return int(self.dataset.judged.sum())

    def _flavor(self, flavor: Flavor | str | None) -> Flavor:
        if flavor is None:
            if len(self.flavors) != 1:
                raise ValueError("the report holds several flavors; name one")
            return self.flavors[0]
        return flavor if isinstance(flavor, Flavor) else Flavor.parse(flavor)

    def _run_name(self, run: str | None) -> str:
        if run is None:
            if len(self.runs) != 1:
                raise ValueError(f"the report holds several runs ({', '.join(self.runs)}); name one")
            return self.runs[0]
        return run

    def result(self, run: str | None = None, flavor: Flavor | str | None = None) -> Result:
        name, wanted = self._run_name(run), self._flavor(flavor)
        for result in self.results:
            if result.run == name and result.flavor == wanted:
                return result
        raise KeyError(self._missing(name, wanted, flavor))

    def _missing(self, name: str, wanted: Flavor, typed: Flavor | str | None) -> str:
        """Why no result is found: the run or the label that is not in the report, with the ones that are (a
        label, never a whole flavor), and the close ones."""
        from rankflavor.flavor.suggest import close, did_you_mean

        if name not in self.runs:
            hint = did_you_mean(close(name, self.runs))
            return f"no run {name!r} in this report; {hint + ' ' if hint else ''}its runs: {', '.join(self.runs)}"
        shown = typed if isinstance(typed, str) else wanted.short
        labels = list(dict.fromkeys(r.label for r in self.results))
        hint = did_you_mean(close(shown, labels))
        return (f"no result for {shown!r} in this report; {hint + ' ' if hint else ''}its labels: "
                f"{', '.join(labels)}")

    def mean(self, run: str | None = None, flavor: Flavor | str | None = None) -> float | None:
        return self.result(run, flavor).mean

    def value(self, query: str, run: str | None = None, flavor: Flavor | str | None = None) -> float | None:
        result = self.result(run, flavor)
        code = self._query_code(query)
        hits = np.flatnonzero(result.queries.query == code)
        if len(hits) == 0:
            raise KeyError(f"query {query!r} is not judged (not in the qrels): it has no value")
        return plain(result.queries.value[hits[0]])

    def _query_code(self, query: str) -> int:
        """The code of a query id; an unknown one is a KeyError naming the close ids and a few judged ones."""
        try:
            return self.dataset.query_code(query)
        except KeyError:
            from rankflavor.flavor.suggest import close, did_you_mean

            ids = [str(q) for q in self.dataset.query_ids[self.dataset.judged]]
            hint = did_you_mean(close(query.lower(), {q.lower(): q for q in reversed(ids)}))
            shown = ", ".join(ids[:5]) + (f", ... ({len(ids)} in all)" if len(ids) > 5 else "")
            error = KeyError(f"no query {query!r} in the qrels or the runs{'; ' + hint if hint else ''} (judged "
                             f"query ids: {shown})")
            error.base = f"no query {query!r} in the qrels or the runs"  # type: ignore[attr-defined]  # (the CLI's own)
            raise error from None

    # ---- records ------------------------------------------------------------------------------------
    def explain(self, run: str | None = None, query: str | None = None, flavor: Flavor | str | None = None,
                ) -> Record:
        """The record behind one score (recomputed from that query's rows only)."""
        name, wanted = self._run_name(run), self._flavor(flavor)
        if query is None:
            raise ValueError("name the query to explain")
        code = self._query_code(query)
        if not self.dataset.judged[code] and wanted.unjudged_queries != "score":
            raise KeyError(f"query {query!r} is in the run but not in the qrels: it is never scored")
        return self._records(name, wanted, np.array([code], dtype=np.int64))[0]

    def records(self, run: str, flavor: Flavor | str, queries: list[str] | None = None) -> list[Record]:
        """Records of every judged query (or of the judged `queries` named) for one run and flavor (one engine
        pass)."""
        codes = None if queries is None else np.array([self.dataset.query_code(q) for q in queries], dtype=np.int64)
        return self._records(run, self._flavor(flavor), codes)

    def _records(self, run: str, flavor: Flavor, queries: np.ndarray | None) -> list[Record]:
        res, rows = self._detail(run, flavor, queries)
        return [build_record(self.dataset, run, flavor, res, rows, int(c)) for c in res.query]

    def _detail(self, run: str, flavor: Flavor, queries: np.ndarray | None = None) -> tuple[QueryResults, RecordRows]:
        """The engine's per-query results and record rows of one run under one flavor."""
        evaluation = self.engine.evaluate(self.dataset.run(run), [flavor], queries=queries, detail=True)[0]
        assert evaluation.records is not None
        return evaluation.results, evaluation.records

    def verify(self) -> list[Disagreement]:
        """Recompute every value from its record alone; the list of what disagrees (empty when all agree)."""
        from rankflavor.report.verify import verify_results

        return verify_results(self.results, self._detail, self.dataset)

    # ---- export -------------------------------------------------------------------------------------
    def to_dict(self, per_query: bool = False) -> dict[str, Any]:
        return results_dict(self.provenance, self.results, per_query)

    def to_json(self, path: str | Path | None = None, per_query: bool = False) -> str:
        """The JSON of `rankflavor eval --format json` (with `--per-query`: per_query=True), written to `path` when
        given; `rankflavor.load(path)` reads it back."""
        text = json.dumps(self.to_dict(per_query), indent=2) + "\n"
        if path is not None:  # (atomic, and never over one of the report's inputs: rankflavor/outputs.py)
            from rankflavor.flavor.project import project_files
            from rankflavor.outputs import check_output, write_text

            inputs = [i.get("path") or ("-" if i.get("name") == "<stdin>" else None)
                      for i in self.provenance.get("inputs", [])]
            write_text(check_output(path, [*filter(None, inputs), *project_files()], "path"), text)
        return text

    def to_frame(self):
        """Tidy pandas DataFrame: one row per run x flavor x judged query (the metric's parts as columns). The
        means are apart, in `means_frame()`."""
        return query_frame(self.results)

    def means_frame(self):
        """pandas DataFrame: one row per run x flavor: the mean, n (the queries it averages), the counts and
        the warnings (joined by ' | ')."""
        return means_frame(self.results)

    def _repr_html_(self) -> str:
        """Jupyter: a compact table of the means (display/notebook.py)."""
        from rankflavor.display.notebook import report_html

        return report_html(self)

    def __repr__(self) -> str:
        """A few lines: the counts, then runs x labels with their means (the first 6 runs and 4 labels)."""
        runs, labels = self.runs, list(dict.fromkeys(r.label for r in self.results))
        warned = sum(len(r.warnings) for r in self.results)
        head = (f"<Report {len(runs)} run{'s' * (len(runs) != 1)} x {len(labels)} flavor{'s' * (len(labels) != 1)}; "
                f"{self.judged_queries} judged queries; {warned} warning{'s' * (warned != 1)}")
        means = {(r.run, r.label): r.mean for r in self.results}
        rows = [["run", *labels[:4], *(["..."] if len(labels) > 4 else [])]]
        rows += [[run, *("null" if means.get((run, label)) is None else f"{means[(run, label)]:.4f}"
                         for label in labels[:4])] for run in runs[:6]]
        if len(runs) > 6:
            rows.append([f"... {len(runs) - 6} more runs"])
        widths = [max(len(row[i]) for row in rows if i < len(row)) for i in range(len(rows[0]))]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)).rstrip() for row in rows]
        return visible("\n".join([head, *(f"  {line}" for line in lines)]) + ">")


def build_report(dataset: Dataset, flavors: list[Flavor], provenance: dict[str, Any],
                 labels: Mapping[Flavor, list[str]] | None = None, with_warnings: bool = True) -> Report:
    """Every run under every flavor. The engine shares each run's stages across the flavors; the warnings'
    extra evaluations (tie range, unjudged=skip) are shared across flavors that lead to the same one; a
    run's stages are released before the next run."""
    from rankflavor.engine.budget import check_results

    check_results(len(dataset.runs), len(flavors), len(dataset.query_ids))  # (before any evaluation)
    engine = Engine(dataset)
    results = []
    for run in dataset.runs:
        unjudged_queries = int((run.present & ~dataset.judged).sum())
        shared = Cache()  # raw values by run and flavor
        evaluations = engine.evaluate(run, flavors)  # (together: a large run's chunks serve every flavor)
        mine = []
        for flavor, evaluation in zip(flavors, evaluations, strict=True):
            res = evaluation.results
            shared.put(run, flavor, res.raw_value)
            mine.append(Result(run.name, flavor, res, dataset.query_ids, unjudged_queries,
                               averaging=averaging_for(dataset, run, flavor),
                               labels=list((labels or {}).get(flavor, []))))
        if with_warnings:
            prefetch([(result, result.flavor) for result in mine], engine, run, shared)
        for result in mine:  # (without the extra evaluations: the warnings the counts tell)
            result.warnings = warnings_for(result, result.flavor, *((engine, run, shared) if with_warnings else ()))  # type: ignore[assignment]
        results += mine
        engine.release(run)
    return Report(dataset, flavors, results, provenance, engine)


def repeats_policy(flavors: Sequence[Flavor], on_duplicate: str) -> str:
    """The inputs' duplicate policy for these flavors: `count` (inputs/duplicates.py COUNT: a run's repeated docs
    kept, each listing ranked) when on_duplicate is the default `error` and every flavor's metric counts repeats
    (udcg_authors: repeats=count, the authors' reading of a passage list); else `on_duplicate` as given."""
    if on_duplicate == "error" and flavors and all(registry.get(f.metric).counts_repeats(f) for f in flavors):
        return COUNT
    return on_duplicate


def evaluate(qrels: Any, runs: Any, flavors: Any = "ndcg@10", on_duplicate: str = "error",
             weights: Mapping[str, Any] | None = None, warnings: bool = True,
             names: Sequence[str] | Mapping[str, str] | None = None,
             max_memory: str | int | None = None) -> Report:
    """Evaluate one run or several against one qrels under one flavor or several.

    qrels: a TREC qrels path, {qid: {docid: grade}}, or a DataFrame (query, doc, grade columns).
    runs: a run (TREC run path, {qid: {docid: score}}, DataFrame), a list of runs, or {name: run}.
    flavors: a spec string (`ndcg@10 gain=exp2`, `trec_eval`), a Flavor, or a list of either; parsed and
    checked before any input is read.
    on_duplicate: a (query, doc) listed twice in the qrels or a run: `error`, keep the `first`, or the `max`; under
    `error`, a run's repeated doc is kept and counted when every flavor counts repeats (`repeats_policy`).
    weights: {NAME: file of 'qid weight' lines, or {qid: weight}}, for flavors with weights=NAME.
    warnings: False skips the warnings' extra evaluations (the tie range, the unjudged=skip mean): each result
    keeps the warnings its counts tell, without those numbers; what `rankflavor eval --format trec` does, as
    trec_eval's lines have no room for them (it summarises them on stderr).
    names: the runs' names, one per run in order, or {run: name} (a run by its path as given or its file name);
    a run not named keeps its file name. A name for no run given, or two runs with one name: UsageError.
    max_memory: the memory budget (bytes, or a size such as "8G"; default: half of the available memory): the
    flavors are evaluated in groups that fit it, or refused up front with the estimate (engine/budget.py).
    Bad input raises rankflavor.InputError (with .source, .line, .text, .fix); see docs/input-catalogue.md.
    """
    labelled = labelled_specs(flavors)
    runs = apply_names(runs, names)
    wanted = list(labelled)
    qrels = as_subtopic_qrels(qrels, [flavor.metric for flavor in wanted])  # (diversity measures: inputs/subtopics.py)
    refuse_unbound_weights(wanted, weights or {})
    if weights:
        from rankflavor.inputs.weights import load_weights

    bound = [load_weights(name, data) for name, data in (weights or {}).items()]

    def work(dataset: Dataset, provenance: dict[str, Any]) -> Report:
        bind_weights(dataset, provenance, bound)
        provenance["input_warnings"] += unused_weights(wanted, {w.name: w.source.path for w in bound})
        return build_report(dataset, wanted, provenance, labelled, with_warnings=warnings)

    with budget_of(max_memory):
        return speculatively(qrels, runs, repeats_policy(wanted, on_duplicate), work)


def explain(qrels: Any, run: Any, query: str, flavor: Flavor | str = "ndcg@10", on_duplicate: str = "error") -> Record:
    """The record behind one query's score, without scoring the other queries (`rankflavor explain`)."""
    return explain_each(qrels, run, query, [flavor if isinstance(flavor, Flavor) else Flavor.parse(flavor)],
                        on_duplicate)[0]


def explain_each(qrels: Any, run: Any, query: str | Sequence[str], flavors: Sequence[Flavor],
                 on_duplicate: str = "error") -> list[Record]:
    """The record behind the score of each query (one id or several) under each flavor, query by query, the
    inputs read once and only those queries scored (`rankflavor explain -q A -q B -m X -m Y`, a measure set)."""
    wanted = list(flavors)
    queries = [query] if isinstance(query, str) else list(query)
    qrels = as_subtopic_qrels(qrels, [flavor.metric for flavor in wanted])

    def records(dataset: Dataset, provenance: dict[str, Any]) -> list[Record]:
        report = Report(dataset, wanted, [], provenance)
        return [report.explain(report.runs[0], q, flavor) for q in queries for flavor in wanted]

    return speculatively(qrels, [run] if not isinstance(run, list) else run, repeats_policy(wanted, on_duplicate),
                         records)
