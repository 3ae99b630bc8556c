"""From user inputs to an interned Dataset plus its provenance (read -> validate -> intern)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rankflavor.data import Dataset, intern
from rankflavor.errors import InputError
from rankflavor.io import QrelsTable, RunTable, load_qrels, load_run


def _is_single_run(runs: Any) -> bool:
    """A nested dict {qid: {doc: score}} is one run; {name: run} maps names to runs."""
    if isinstance(runs, (str, Path, RunTable)) or hasattr(runs, "columns"):
        return True
    if isinstance(runs, Mapping):
        values = list(runs.values())
        return all(isinstance(v, Mapping) and all(not isinstance(x, Mapping) for x in v.values()) for v in values)
    return False


def _run_names(tables: list[RunTable]) -> list[str]:
    """A run's name is its file name; its path when two names collide; numbered when still equal."""
    names = [t.source.name for t in tables]
    names = [t.source.path if names.count(n) > 1 and t.source.path else n for t, n in zip(tables, names, strict=True)]
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if names.count(name) == 1 else f"{name}#{seen[name]}")
    return out


def load_runs(runs: Any) -> list[RunTable]:
    if _is_single_run(runs):
        return [load_run(runs)]
    if isinstance(runs, Mapping):
        tables = [load_run(run, str(name)) for name, run in runs.items()]
        for table, name in zip(tables, runs, strict=True):
            table.source.name = str(name)  # the caller's name wins over the file name
        return tables
    if isinstance(runs, (list, tuple)):
        if not runs:
            raise InputError("no run given", fix="pass at least one run")
        return [load_run(run, f"run{i + 1}" if len(runs) > 1 else "run") for i, run in enumerate(runs)]
    raise InputError(f"cannot read a {type(runs).__name__} as a run",
                     fix="give a TREC run path, a dict {qid: {docid: score}}, a DataFrame, or a list of them")


def provenance_of(qrels: QrelsTable, runs: list[RunTable], names: list[str]) -> dict[str, Any]:
    def describe(table: QrelsTable | RunTable, role: str, name: str) -> dict[str, Any]:
        s = table.source
        return {"role": role, "name": name, "path": s.path, "sha256": s.sha256, "kind": s.kind, "rows": table.rows,
                "comment_lines": s.comment_lines, "blank_lines": s.blank_lines}

    return {
        "inputs": [describe(qrels, "qrels", qrels.source.name),
                   *(describe(r, "run", n) for r, n in zip(runs, names, strict=True))],
        "policies": {"duplicate_rows": "error", "ids": "strings, compared bytewise",
                     "run_rank_column": "ignored (order comes from scores and the tie policy)"},
    }


def prepare(qrels: Any, runs: Any) -> tuple[Dataset, dict[str, Any]]:
    qrels_table = load_qrels(qrels)
    run_tables = load_runs(runs)
    names = _run_names(run_tables)
    return intern(qrels_table, run_tables, names), provenance_of(qrels_table, run_tables, names)
