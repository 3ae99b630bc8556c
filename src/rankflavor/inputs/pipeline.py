"""From user inputs to an interned Dataset plus its provenance (read -> validate -> intern)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from rankflavor.errors import InputError, RankflavorError, SpecError, UsageError
from rankflavor.inputs.arrow_table import as_arrow
from rankflavor.inputs.column_order import (
    check_qrels_layout,
    check_query_doc_swap,
    check_run_layout,
)
from rankflavor.inputs.dataset import Dataset
from rankflavor.inputs.duplicates import COUNT, POLICIES
from rankflavor.inputs.input_checks import Checks, DeferredChecks, input_checks
from rankflavor.inputs.intern import intern
from rankflavor.inputs.load import load_qrels, load_run
from rankflavor.inputs.namedtuples import is_rows
from rankflavor.inputs.prefetch import Prefetched
from rankflavor.inputs.run_names import default_names, given_names, typed_path
from rankflavor.inputs.stdin import check_one_stdin
from rankflavor.inputs.tables import QrelsTable, RunTable
from rankflavor.inputs.trec import settle

if TYPE_CHECKING:
    from rankflavor.inputs.weights import QueryWeights

T = TypeVar("T")


def _is_single_run(runs: Any) -> bool:
    """A nested dict {qid: {doc: score}} is one run; {name: run} maps names to runs."""
    if isinstance(runs, (str, Path, RunTable, Prefetched)) or as_arrow(runs) is not None or is_rows(runs):
        return True
    if hasattr(runs, "columns"):
        return True
    if isinstance(runs, Mapping):
        values = list(runs.values())
        return all(isinstance(v, Mapping) and all(not isinstance(x, Mapping) for x in v.values()) for v in values)
    return False


def _run_names(tables: list[RunTable]) -> list[str]:
    """A run's name is its file name; its path when two names collide; numbered when still equal."""
    return default_names([(t.source.name, t.source.path) for t in tables])


def apply_names(runs: Any, names: Sequence[str] | Mapping[str, str] | str | None) -> Any:
    """`runs` (one run or a list, as `rankflavor.evaluate` takes them) as {name: run} with `names` given
    (see given_names); `runs` unchanged without names."""
    if names is None:
        return runs
    if isinstance(runs, Mapping) and not _is_single_run(runs):
        raise UsageError("the runs are given as {name: run}, named already: drop names=")
    items = list(runs) if isinstance(runs, (list, tuple)) else [runs]
    return dict(zip(given_names([typed_path(run) for run in items], names), items, strict=True))


def load_runs(runs: Any, defer_scan: bool = False, read: list[RunTable] | None = None,
              qrels: QrelsTable | None = None) -> list[RunTable]:
    """The runs as tables; `read` (when given) receives each table as soon as it is read; `qrels`: the qrels a run
    naming its documents by position pairs with (load.load_run)."""
    read = [] if read is None else read
    if _is_single_run(runs):
        read.append(load_run(runs, defer_scan=defer_scan, qrels=qrels))
        return read[-1:]
    if isinstance(runs, Mapping):
        start = len(read)
        for name, run in runs.items():
            read.append(load_run(run, str(name), defer_scan, qrels))
            read[-1].source.name = str(name)  # the caller's name wins over the file name
        return read[start:]
    if isinstance(runs, (list, tuple)):
        if not runs:
            raise InputError("no run given", fix="pass at least one run")
        start = len(read)
        for i, run in enumerate(runs):
            read.append(load_run(run, f"run{i + 1}" if len(runs) > 1 else "run", defer_scan, qrels))
        return read[start:]
    raise InputError(f"cannot read a {type(runs).__name__} as a run",
                     fix="give a run file's path (TREC, CSV, Parquet, ...: docs/inputs.md; '-': standard input), a "
                         "dict {qid: {docid: score}}, a DataFrame, namedtuples (query_id, doc_id, score), or a list of "
                         "them")


def require_judgments(qrels: QrelsTable) -> None:
    """An empty qrels, or one with no judgment left after parsing, leaves nothing to evaluate against."""
    if qrels.rows:
        return
    s = qrels.source
    skipped = [f"{n} {what} line" + ("s" if n > 1 else "") for n, what in ((s.comment_lines, "comment"),
                                                                             (s.blank_lines, "blank")) if n]
    empty = 0 if qrels.queries is None else len(qrels.queries)
    if empty:
        skipped.append(f"{empty} quer" + ("ies" if empty > 1 else "y") + " with no judgment")
    detail = f" (only {' and '.join(skipped)})" if skipped else " (it is empty)"
    raise InputError(f"the qrels has no judgment{detail}: there is nothing to evaluate against",
                     source=s.path or s.name, fix="give a qrels with lines 'qid iter docid grade' (TREC) "
                                                  "or {qid: {docid: grade}}")


def provenance_of(qrels: QrelsTable, runs: list[RunTable], names: list[str], dataset: Dataset | None = None,
                  on_duplicate: str = "error", defer_checks: bool = False) -> dict[str, Any]:
    """Inputs (path, sha256, rows read, lines skipped, duplicates removed, queries not evaluated) and policies.
    defer_checks: the dataset's checks (inputs/input_checks.py) run on another thread, added by `settle_inputs`."""
    def describe(table: QrelsTable | RunTable, role: str, name: str) -> dict[str, Any]:
        s = table.source
        out = {"role": role, "name": name, "path": s.path, "sha256": s.sha256, "kind": s.kind, "rows": table.rows,
               "comment_lines": s.comment_lines, "blank_lines": s.blank_lines,
               "duplicates_removed": dict(s.duplicates) or {"identical": 0, "conflicting": 0}}
        if s.repeats:  # (shown only when a run's repeated docs were kept: repeats=count)
            out["repeats_counted"] = s.repeats
        if s.extra_column_lines:  # (shown only when a run file has them)
            out["extra_column_lines"] = s.extra_column_lines
        if s.encoding:  # (shown only for a text file decoded from another encoding than UTF-8)
            out["encoding"] = s.encoding
        if s.columns_set_aside:  # (shown only for a table with a PyTerrier pair of columns: inputs/columns.py)
            out["columns_set_aside"] = dict(s.columns_set_aside)
        if s.notes:  # (shown only when the reader decided something the output must say: inputs/formats.py)
            out["notes"] = list(s.notes)
        return out

    inputs = [describe(qrels, "qrels", qrels.source.name),
              *(describe(r, "run", n) for r, n in zip(runs, names, strict=True))]
    provenance: dict[str, Any] = {"inputs": inputs, "policies": policies(on_duplicate), "input_warnings": []}
    if dataset is not None and defer_checks:
        provenance[_CHECKS] = DeferredChecks(dataset)
    elif dataset is not None:
        _add_checks(provenance, input_checks(dataset))
    return provenance


_CHECKS = "_checks"  # (the provenance's deferred checks until settle_inputs adds them)


def _add_checks(provenance: dict[str, Any], checks: Checks) -> None:
    """The checks' counts into the qrels' and the runs' items, their warnings before those added since (weights)."""
    qrels_counts, per_run, warnings = checks
    inputs = provenance["inputs"]
    inputs[0].update(qrels_counts)
    for item, counts in zip(inputs[1:1 + len(per_run)], per_run, strict=True):
        item.update({k: v for k, v in counts.items() if k not in ("run", "rows")})
    provenance["input_warnings"][:0] = warnings


def policies(on_duplicate: str) -> dict[str, str]:
    """The provenance's policies: how the inputs were read."""
    return {"on_duplicate": on_duplicate, "duplicate_rows": on_duplicate, "ids": "strings, compared bytewise",
            "comments": "lines whose first non-blank character is # (counted, skipped)",
            "run_rank_column": "ignored (order comes from scores and the tie policy)"}


def prepare(qrels: Any, runs: Any, on_duplicate: str = "error", settle_now: bool = True,
            ) -> tuple[Dataset, dict[str, Any]]:
    """Read, validate and intern the inputs; on_duplicate is `error`, `first` or `max` (io/duplicates.py), or
    `count` when every flavor of the evaluation counts repeated docs (report/report.py `repeats_policy`).

    settle_now False: TREC files are read speculatively, their bytes' hash and plainness scan still running
    on another core (io.trec.settle); the caller overlaps its own work with them, then calls
    `settle_inputs` before it trusts or shows anything, and prepares again (settled) when that says False."""
    if on_duplicate not in (*POLICIES, COUNT):
        raise SpecError(f"on_duplicate must be one of {', '.join(POLICIES)}, not {on_duplicate!r}")
    check_one_stdin(qrels, runs)
    if settle_now:
        return _prepare(qrels, runs, on_duplicate, False, [])
    read: list[QrelsTable | RunTable] = []
    try:
        return _prepare(qrels, runs, on_duplicate, True, read)
    except RankflavorError:
        if all([settle(t.source) for t in read]):
            raise  # every file was plain: the error is the one the settled reading gives
    return _prepare(qrels, runs, on_duplicate, False, [])


def _prepare(qrels: Any, runs: Any, on_duplicate: str, defer_scan: bool, read: list) -> tuple[Dataset, dict[str, Any]]:
    qrels_table = load_qrels(qrels, defer_scan=defer_scan)
    read.append(qrels_table)
    require_judgments(qrels_table)
    check_qrels_layout(qrels_table)  # (before the duplicate check: its advice would hide the layout)
    run_tables = load_runs(runs, defer_scan, read, qrels_table)
    for table in run_tables:
        check_run_layout(table)
        check_query_doc_swap(qrels_table, table)
    names = _run_names(run_tables)
    dataset = intern(qrels_table, run_tables, names, on_duplicate, defer_checks=defer_scan)
    return dataset, provenance_of(qrels_table, run_tables, names, dataset, on_duplicate, defer_checks=defer_scan)


def settle_inputs(dataset: Dataset, provenance: dict[str, Any]) -> bool:
    """Wait for the deferred scans and duplicate checks of a speculative `prepare`, fill the inputs' sha256 in
    the provenance; False when a file was not plain or a run lists a doc twice for a query (prepare again with
    settle_now=True: its table may differ, or the on_duplicate policy applies)."""
    checks = provenance.pop(_CHECKS, None)
    if checks is not None:
        _add_checks(provenance, checks.result())
    sources = [dataset.qrels.table.source, *(run.table.source for run in dataset.runs)]
    plain = all([settle(source) for source in sources])
    for run in dataset.runs:  # a deferred duplicate check that finds one: the settled reading applies the policy
        if run.pending_check is not None:
            plain = plain and not run.pending_check.found()
            run.pending_check = None
    for item, source in zip(provenance["inputs"][:len(sources)], sources, strict=True):  # (then the weights)
        item["sha256"] = source.sha256
    return plain


def speculatively(qrels: Any, runs: Any, on_duplicate: str, work: Callable[[Dataset, dict[str, Any]], T]) -> T:
    """work(dataset, provenance) on inputs read speculatively: TREC files' bytes are hashed and scanned, and
    runs checked for duplicates, on the other core while `work` runs (`prepare(settle_now=False)`). A file
    that turns out not plain, or a run with a duplicate, is read again strictly and `work` done again; an
    error met on the speculative inputs is raised only once the settled inputs confirm it."""
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


def bind_weights(dataset: Dataset, provenance: dict[str, Any], weights: list[QueryWeights]) -> None:
    """Give the dataset each named weights per query code, and the provenance each weights input."""
    for w in weights:
        dataset.weights[w.name] = w.by_code(dataset.query_ids)
        known = int((~np.isnan(dataset.weights[w.name])).sum())
        provenance["inputs"].append({"role": "weights", "name": w.name, "path": w.source.path,
                                     "sha256": w.source.sha256, "kind": w.source.kind, "rows": len(w.query),
                                     "queries_in_the_data": known, "queries_not_in_the_data": len(w.query) - known})
        if known < len(w.query):  # (the smallest such id named, as the Spark engine names it)
            from rankflavor.inputs.weights import unknown_queries_warning

            ids = set(dataset.query_ids.tolist())
            example = min((q for q in w.query if q not in ids), default=None)
            provenance["input_warnings"].append(unknown_queries_warning(w, len(w.query) - known, example))
