"""The Report: per run x flavor x query values, aggregates, counts, warnings, provenance, records."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from rankflavor.data import Dataset
from rankflavor.engine import MISSING, STATUS_NAMES, ZERO_IDEAL, QueryResults, evaluate_run
from rankflavor.engine.kernel import qrels_gains
from rankflavor.flavor import Flavor, parse_specs
from rankflavor.report.records import Record, build_record
from rankflavor.report.verify import Disagreement, check_record
from rankflavor.report.warnings import warnings_for

T = TypeVar("T")


@dataclass
class Result:
    """One run under one flavor."""

    run: str
    flavor: Flavor
    queries: QueryResults
    query_ids: np.ndarray
    unjudged_queries: int
    warnings: list[str] = field(default_factory=list)

    @property
    def mean(self) -> float | None:
        values = self.queries.raw_value
        eligible = ~np.isnan(values)
        if not eligible.any():
            return None
        mean = float(values[eligible].mean())
        return mean if self.flavor.round == "none" else round(mean, int(self.flavor.round))

    @property
    def counts(self) -> dict[str, int]:
        q = self.queries
        counts = {
            "judged_queries": len(q.query),
            "scored": int((~np.isnan(q.value)).sum()),
            "excluded": int(np.isnan(q.value).sum()),
            "zero_ideal": int((q.status == ZERO_IDEAL).sum()),
            "missing": int((q.status == MISSING).sum()),
            "unjudged_queries": self.unjudged_queries,
            "ties_across_cutoff": int(q.ties_straddle.sum()),
            "unjudged_in_top": int(q.unjudged_in_top.sum()),
        }
        counts.update(q.row_counts)
        return counts

    def per_query(self) -> list[dict[str, Any]]:
        q = self.queries
        return [
            {"query": str(self.query_ids[c]), "value": _num(v), "dcg": _num(d), "idcg": _num(i),
             "status": STATUS_NAMES[int(s)]}
            for c, v, d, i, s in zip(q.query, q.value, q.dcg, q.idcg, q.status, strict=True)
        ]

    def to_dict(self, per_query: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"run": self.run, "flavor": str(self.flavor), "mean": self.mean,
                               "counts": self.counts, "warnings": [str(w) for w in self.warnings],
                               "warning_details": [w.to_dict() if hasattr(w, "to_dict") else {"message": str(w)}
                                                   for w in self.warnings]}
        if per_query:
            out["per_query"] = self.per_query()
        return out


def _num(x: float) -> float | None:
    return None if np.isnan(x) else float(x)


@dataclass
class Report:
    dataset: Dataset
    flavors: list[Flavor]
    results: list[Result]
    provenance: dict[str, Any]

    # ---- look-ups -----------------------------------------------------------------------------------
    @property
    def runs(self) -> list[str]:
        return [r.name for r in self.dataset.runs]

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
        raise KeyError(f"no result for run {name!r} and flavor {str(wanted)!r}")

    def mean(self, run: str | None = None, flavor: Flavor | str | None = None) -> float | None:
        return self.result(run, flavor).mean

    def value(self, query: str, run: str | None = None, flavor: Flavor | str | None = None) -> float | None:
        result = self.result(run, flavor)
        code = self.dataset.query_code(query)
        hits = np.flatnonzero(result.queries.query == code)
        if len(hits) == 0:
            raise KeyError(f"query {query!r} is not judged (not in the qrels): it has no value")
        return _num(result.queries.value[hits[0]])

    # ---- records ------------------------------------------------------------------------------------
    def explain(self, run: str | None = None, query: str | None = None, flavor: Flavor | str | None = None,
                ) -> Record:
        """The record behind one score (recomputed for that query only)."""
        name, wanted = self._run_name(run), self._flavor(flavor)
        if query is None:
            raise ValueError("name the query to explain")
        code = self.dataset.query_code(query)
        if not self.dataset.judged[code]:
            raise KeyError(f"query {query!r} is in the run but not in the qrels: it is never scored")
        res, rows = evaluate_run(self.dataset, self.dataset.run(name), wanted, query=code, detail=True)
        q_judged, q_gain = qrels_gains(self.dataset, wanted)
        assert rows is not None
        return build_record(self.dataset, name, wanted, res, rows, q_judged, q_gain, code)

    def records(self, run: str, flavor: Flavor | str) -> list[Record]:
        """Records of every judged query for one run and flavor (one engine pass)."""
        wanted = self._flavor(flavor)
        res, rows = evaluate_run(self.dataset, self.dataset.run(run), wanted, detail=True)
        q_judged, q_gain = qrels_gains(self.dataset, wanted)
        assert rows is not None
        return [build_record(self.dataset, run, wanted, res, rows, q_judged, q_gain, int(c)) for c in res.query]

    def verify(self) -> list[Disagreement]:
        """Recompute every value from its record alone; the list of what disagrees (empty when all agree)."""
        problems: list[Disagreement] = []
        for result in self.results:
            records = self.records(result.run, result.flavor)
            for record, reported in zip(records, result.queries.value, strict=True):
                issues = check_record(record, result.flavor)
                if not (_num(reported) == record.value or (
                        record.value is not None and _num(reported) is not None
                        and abs(record.value - float(reported)) <= 1e-12)):
                    issues.append(f"reported value {_num(reported)} differs from the record's {record.value}")
                problems += [Disagreement(result.run, record.query, str(result.flavor), i) for i in issues]
        return problems

    # ---- export -------------------------------------------------------------------------------------
    def to_dict(self, per_query: bool = False) -> dict[str, Any]:
        from rankflavor import __version__

        return {"version": __version__, "provenance": self.provenance,
                "results": [r.to_dict(per_query) for r in self.results]}

    def to_frame(self):
        """Tidy pandas DataFrame: one row per run x flavor x query, plus the mean as query 'all'."""
        import pandas as pd

        rows = []
        for r in self.results:
            for row in r.per_query():
                rows.append({"run": r.run, "flavor": str(r.flavor), **row})
            rows.append({"run": r.run, "flavor": str(r.flavor), "query": "all", "value": r.mean, "dcg": None,
                         "idcg": None, "status": "mean"})
        return pd.DataFrame(rows, columns=["run", "flavor", "query", "value", "dcg", "idcg", "status"])


def build_report(dataset: Dataset, flavors: list[Flavor], provenance: dict[str, Any]) -> Report:
    """Every run under every flavor. The engine shares one layout, join and top-k selection per run across
    the flavors; the warnings' extra evaluations (tie range, unjudged=skip) are shared across flavors that
    lead to the same one; a run's engine cache is released (but its layout) before the next run."""
    results = []
    for run in dataset.runs:
        unjudged_queries = int((run.present & ~dataset.judged).sum())
        shared: dict[tuple[str, Flavor], np.ndarray] = {}  # (run, flavor) -> raw values
        for flavor in flavors:
            res, _ = evaluate_run(dataset, run, flavor)
            shared[(run.name, flavor)] = res.raw_value
            result = Result(run.name, flavor, res, dataset.query_ids, unjudged_queries)
            result.warnings = warnings_for(result, flavor, dataset, run, shared)
            results.append(result)
        layout = run.cache.get("layout")
        run.cache.clear()
        if layout is not None:
            run.cache["layout"] = layout
    return Report(dataset, flavors, results, provenance)


def evaluate(qrels: Any, runs: Any, flavors: Any = "ndcg@10", on_duplicate: str = "error") -> Report:
    """Evaluate one run or several against one qrels under one flavor or several.

    qrels: a TREC qrels path, {qid: {docid: grade}}, or a DataFrame (query, doc, grade columns).
    runs: a run (TREC run path, {qid: {docid: score}}, DataFrame), a list of runs, or {name: run}.
    flavors: a spec string (`ndcg@10 gain=exp2`, `trec_eval`), a Flavor, or a list of either.
    on_duplicate: a (query, doc) listed twice in the qrels or a run: `error`, keep the `first`, or the `max`.
    Bad input raises rankflavor.InputError (with .source, .line, .text, .fix); see docs/input-catalogue.md.
    """
    specs = flavors
    return _speculatively(qrels, runs, on_duplicate,
                          lambda dataset, provenance: build_report(dataset, parse_specs(specs), provenance))


def explain(qrels: Any, run: Any, query: str, flavor: Flavor | str = "ndcg@10", on_duplicate: str = "error") -> Record:
    """The record behind one query's score, without scoring the other queries (`rankflavor explain`)."""
    wanted = flavor if isinstance(flavor, Flavor) else Flavor.parse(flavor)

    def record(dataset: Dataset, provenance: dict[str, Any]) -> Record:
        report = Report(dataset, [wanted], [], provenance)
        return report.explain(report.runs[0], query, wanted)

    return _speculatively(qrels, [run] if not isinstance(run, list) else run, on_duplicate, record)


def _speculatively(qrels: Any, runs: Any, on_duplicate: str, work: Callable[[Dataset, dict[str, Any]], T]) -> T:
    """work(dataset, provenance) on inputs read speculatively: TREC files' bytes are hashed and scanned, and
    runs checked for duplicates, on the other core while `work` runs (pipeline.prepare). A file that turns
    out not plain, or a run with a duplicate, is read again strictly and `work` done again; an error met on
    the speculative inputs is raised only once the settled inputs confirm it."""
    from rankflavor.errors import RankflavorError
    from rankflavor.pipeline import prepare, settle_inputs

    dataset, provenance = prepare(qrels, runs, on_duplicate, settle_now=False)
    try:
        out = work(dataset, provenance)
    except (RankflavorError, KeyError):
        if settle_inputs(dataset, provenance):
            raise
    else:
        if settle_inputs(dataset, provenance):
            return out
    dataset, provenance = prepare(qrels, runs, on_duplicate)
    return work(dataset, provenance)
