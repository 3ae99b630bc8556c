"""What no metric will see, counted and warned about: the inputs' checks of the provenance (`input_checks`),
made on another thread while the evaluation runs when the inputs are read speculatively (`DeferredChecks`,
read by pipeline.settle_inputs)."""

from __future__ import annotations

from typing import Any

import numpy as np

from rankflavor.inputs.column_order import rank_like_scores, rank_like_warning
from rankflavor.inputs.dataset import Dataset
from rankflavor.inputs.id_match import (
    JudgedKeys,
    any_judged_row,
    how_they_differ,
    loose_docs,
    loose_queries,
    nothing_judged_warning,
)
from rankflavor.overlap import Overlapped
from rankflavor.plural import counted

Checks = tuple[dict[str, Any], list[dict[str, Any]], list[str]]  # (qrels counts, counts per run, warnings)


class DeferredChecks(Overlapped):
    """`input_checks` on another thread (numpy's and Arrow's loops let go of the GIL; at once in a track's worker:
    rankflavor/overlap.py); `result` waits for it and raises what it raised."""

    def __init__(self, dataset: Dataset) -> None:
        super().__init__()
        self.dataset = dataset
        self._out: Checks | None = None
        self._error: BaseException | None = None
        self.begin()

    def run(self) -> None:
        try:
            self._out = input_checks(self.dataset)
        except BaseException as exc:  # (raised again by `result`, on the caller's thread)
            self._error = exc

    def result(self) -> Checks:
        self.finish()
        if self._error is not None:
            raise self._error
        assert self._out is not None
        return self._out


def input_checks(dataset: Dataset) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """Counts of what no metric will see and warnings about it (cheap: per query and per distinct id; a doc is
    looked up row by row only when its id matches another loosely, or when a sample of the rows holds no judged
    doc: inputs/id_match.py). A run none of whose retrieved docs is judged is warned about first.

    Returns (qrels counts, counts per run, warnings).
    """
    ds = dataset
    grades = ds.qrels.grade
    listed = ds.qrels.table.queries  # (a Python qrels lists its queries, those with no judgment too)
    unjudged_listed = 0 if listed is None else len(set(listed.to_pylist()) - set(ds.query_ids[ds.judged].tolist()))
    qrels_counts = {"judged_queries": int(ds.judged.sum()), "judgments": len(grades),
                    "negative_grades": int((grades < 0).sum()),
                    "non_integer_grades": int((grades != np.round(grades)).sum()),
                    "max_grade": float(grades.max()) if len(grades) else None}
    if unjudged_listed:  # (shown only when there are some)
        qrels_counts["queries_without_judgments"] = unjudged_listed
    warnings: list[str] = []
    loud: list[str] = []  # (warnings that go first: every score of a run is 0)
    warnings += qrels_count_warnings(qrels_counts, ds.qrels.table.source.unjudged_form or "an empty dict")
    warnings += [f"qrels: {note}" for note in ds.qrels.table.source.notes]
    judged_ids = ds.query_ids[ds.judged].tolist()
    judged_docs = JudgedKeys(ds)
    per_run = []
    for run in ds.runs:
        unjudged = run.present & ~ds.judged
        layout = run.layout  # (built at interning: rows per query without a pass over the rows)
        counts = {"run": run.name, "rows": run.n_rows, "queries": int(run.present.sum()),
                  "queries_in_common": int((run.present & ds.judged).sum()),
                  "queries_not_in_qrels": int(unjudged.sum()),
                  "rows_of_queries_not_in_qrels": int(layout.length[~ds.judged[layout.seg_q]].sum()),
                  "qrels_queries_not_in_run": int((ds.judged & ~run.present).sum())}
        per_run.append(counts)
        name = run.name
        warnings += [f"{name}: {note}" for note in run.table.source.notes]
        warnings += run_count_warnings(name, counts)
        loose = loose_queries(ds.query_ids[unjudged].tolist(), judged_ids)
        if loose:
            a, b = loose[0]
            how = " or ".join(sorted({how_they_differ(*pair) for pair in loose}))
            warnings.append(f"{name}: {len(loose)} run queries match a qrels query only up to {how} "
                            f"(run {a!r}, qrels {b!r}): ids are compared as exact strings")
        retrieved_in_common = counts["rows"] - counts["rows_of_queries_not_in_qrels"]  # (an empty list retrieves none)
        if retrieved_in_common and not any_judged_row(ds, run):
            loud.append(nothing_judged_warning(name, counts["queries_in_common"]))
        docs = loose_docs(judged_docs, run)
        if docs is not None:
            counts["docs_judged_only_loosely"] = docs.rows  # (shown only when there are some)
            warnings.append(docs.warning(name))
        if rank_like_scores(run.table):
            warnings.append(rank_like_warning(name, run.table.source))
        extra = run.table.source.extra_column_lines
        if extra:
            warnings.append(f"{name}: {counted(extra, 'line has', 'lines have')} columns after the sixth (qid Q0 docid "
                            "rank score tag); they were skipped, as trec_eval skips them (get_trec_results.c)")
        dropped = run.table.source.duplicates
        if sum(dropped.values()):
            warnings.append(f"{name}: {sum(dropped.values())} duplicate rows removed by the on_duplicate policy")
        if run.table.source.repeats:
            warnings.append(f"{name}: {counted(run.table.source.repeats, 'row lists', 'rows list')} a doc again for "
                            "its query: each listing is counted as a passage of its own (repeats=count)")
    for table in (ds.qrels.table, *(run.table for run in ds.runs)):
        if table.source.encoding:
            role = "qrels" if table is ds.qrels.table else table.source.name
            warnings.append(f"{role}: the file is {table.source.encoding} text (it starts with a byte-order mark): "
                            "decoded as such (encoding in the provenance); the values are those of its UTF-8 copy")
    dropped = ds.qrels.table.source.duplicates
    if sum(dropped.values()):
        warnings.append(f"qrels: {sum(dropped.values())} duplicate judgments removed by the on_duplicate policy")
    return qrels_counts, per_run, loud + warnings


def qrels_count_warnings(counts: dict[str, Any], form: str = "an empty dict") -> list[str]:
    """The qrels warnings that its counts alone tell (input_checks; the Spark engine's Parquet inputs); `form`: how
    the qrels' format lists a query with no judgment (Source.unjudged_form)."""
    warnings = []
    if unjudged_listed := counts.get("queries_without_judgments", 0):
        one = unjudged_listed == 1
        warnings.append(f"qrels: {counted(unjudged_listed, 'query has', 'queries have')} no judgment ({form}): "
                        f"{'it is not a judged query' if one else 'they are not judged queries'}, so never scored (a "
                        f"run query {'of that id' if one else 'among them'} is counted in unjudged_queries); a judged "
                        "query whose grades are all 0 is scored (zero_ideal)")
    if counts["negative_grades"]:
        it = "it gets" if counts["negative_grades"] == 1 else "they get"
        warnings.append(f"qrels: {counted(counts['negative_grades'], 'judgment has', 'judgments have')} a negative "
                        f"grade; the flavor's negative= axis decides what {it}")
    if counts["non_integer_grades"]:
        them = "it" if counts["non_integer_grades"] == 1 else "them"
        warnings.append(f"qrels: {counted(counts['non_integer_grades'], 'judgment has', 'judgments have')} a "
                        f"non-integer grade (kept as is; a gain table must list {them})")
    if counts["max_grade"] is not None and counts["max_grade"] > 31:
        warnings.append(f"qrels: grades up to {counts['max_grade']:g}; LightGBM and XGBoost refuse grades above 31, "
                        "and gain=exp2 (2^g - 1) overflows float64 above 1023")
    return warnings


def run_count_warnings(name: str, counts: dict[str, Any]) -> list[str]:
    """A run's warnings that its query counts alone tell (queries on one side only)."""
    warnings = []
    if counts["queries"] == 0:
        warnings.append(f"{name}: the run has no rows: every judged query is missing from it")
    elif counts["queries_in_common"] == 0:
        warnings.append(f"{name}: no query in common with the qrels: every judged query is missing and "
                        f"none of the run's {counts['queries']} queries is scored")
    if counts["queries_not_in_qrels"]:
        warnings.append(f"{name}: {counted(counts['queries_not_in_qrels'], 'query', 'queries')} "
                        f"({counted(counts['rows_of_queries_not_in_qrels'], 'row', 'rows')}) "
                        f"{'is' if counts['queries_not_in_qrels'] == 1 else 'are'} not in the qrels and never scored")
    if counts["qrels_queries_not_in_run"] and counts["queries"]:
        absent = counted(counts["qrels_queries_not_in_run"], "judged query is", "judged queries are")
        warnings.append(f"{name}: {absent} absent from the run "
                        "(the flavor's missing= axis decides: skip, zero or empty)")
    return warnings
